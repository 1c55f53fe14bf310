//! How a call to a dependency ended, in one vocabulary: the try's result, the stack's, what
//! the breaker records, what `orders` answers and whether the fallback replaces it are all
//! read off this.

use crate::resilience::{CallError, CallResult};
use crate::sim::trace::{Level, Outcome};

/// How a call (or one try of it) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallEnd {
    /// The dependency answered: stock reserved, payment taken.
    Answered,
    /// The dependency answered a business "no" (out of stock): a correct answer.
    Business,
    /// It failed with a classified error.
    Failed(Failure),
    /// A layer of the stack refused it before (or instead of) the call.
    Refused(Refusal),
}

/// A classified error of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// The library's timeout for the attempt ran out.
    Timeout,
    /// The sidecar's per-try timeout ran out (the attempt may still have time).
    TryTimeout,
    /// A transient error (the fault schedule's error rate).
    Unavailable,
}

/// The layer that refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// No bulkhead permit within its wait.
    Bulkhead,
    /// The circuit breaker is open (or its half-open probes are taken).
    Breaker,
    /// The request's time budget ran out before the next attempt.
    Budget,
    /// A layer that keeps a level of calls in flight had it used up ([`Level`]); the
    /// call ends in the level's own outcome.
    Level(&'static Level),
}

impl CallEnd {
    /// What `orders` answers when the call ends so.
    pub fn outcome(self) -> Outcome {
        match self {
            CallEnd::Answered => Outcome::Ok,
            CallEnd::Business => Outcome::BusinessRejected,
            CallEnd::Failed(Failure::Timeout | Failure::TryTimeout) => Outcome::Timeout,
            CallEnd::Failed(Failure::Unavailable) => Outcome::DependencyError,
            CallEnd::Refused(Refusal::Bulkhead) => Outcome::BulkheadFull,
            CallEnd::Refused(Refusal::Breaker) => Outcome::CircuitOpen,
            CallEnd::Refused(Refusal::Budget) => Outcome::BudgetExhausted,
            CallEnd::Refused(Refusal::Level(level)) => level.refuses,
        }
    }

    /// What the breaker records for a call it let through; `None` for a call it never saw
    /// (refused by the bulkhead outside it, or by itself).
    pub fn breaker_record(self, business_trips: bool) -> Option<CallResult> {
        match self {
            CallEnd::Answered => Some(CallResult::Success),
            CallEnd::Business if business_trips => Some(CallResult::Failure),
            CallEnd::Business => Some(CallResult::BusinessError),
            CallEnd::Failed(_) => Some(CallResult::Failure),
            // The lesson's breaker lets `TimedOut` (the budget) through as a non-transient
            // exception, which it records as a success of the dependency.
            CallEnd::Refused(Refusal::Budget) => Some(CallResult::BusinessError),
            CallEnd::Refused(Refusal::Bulkhead | Refusal::Breaker | Refusal::Level(_)) => None,
        }
    }

    /// The error retries see, for a failure.
    pub fn error(self) -> Option<CallError> {
        match self {
            CallEnd::Failed(Failure::Unavailable) => Some(CallError::Unavailable),
            CallEnd::Failed(Failure::Timeout | Failure::TryTimeout) => {
                Some(CallError::DeadlineExceeded)
            }
            _ => None,
        }
    }

    /// True when the dependency could not be used, so a fallback answers instead.
    pub fn falls_back(self) -> bool {
        matches!(self, CallEnd::Failed(_) | CallEnd::Refused(_))
    }

    /// The end of the whole stack once the last try ended so: a sidecar's per-try timeout
    /// that no one retried is the call's timeout.
    pub fn of_stack(self) -> CallEnd {
        match self {
            CallEnd::Failed(Failure::TryTimeout) => CallEnd::Failed(Failure::Timeout),
            other => other,
        }
    }
}
