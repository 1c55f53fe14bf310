//! What a library's stack consults at each attempt, whichever library it is: the exceptions
//! its retry retries and its breaker records (resolved per [`Exception`]), how many attempts,
//! how long each wait is, where the fallback sits and whether a timed-out call gives its
//! permit back. [`super::resilience4j`], [`super::polly`] and [`super::grpc`] each build these from their own
//! settings; `stack_library.rs` runs them.

use rand::Rng;

use super::resilience4j::{Exception, FallbackPlace};
use crate::resilience::{GrpcBackoff, JitterState, PollyDelay};
use crate::sim::latency::Micros;

/// The library's rules, resolved per exception.
#[derive(Debug, Clone)]
pub(super) struct LibraryRules {
    pub fallback_on: FallbackPlace,
    /// Retried, by [`Exception::index`].
    pub retried: [bool; 5],
    /// Neither failure nor success for the breaker (the permission is given back).
    pub ignored: [bool; 5],
    /// A failure for the breaker (the rest are successes).
    pub recorded: [bool; 5],
    /// Attempts, the first included.
    pub attempts: u32,
    pub wait: Wait,
    /// A call cut by the timeout gives its bulkhead permit back then (otherwise when the
    /// dependency answers).
    pub frees_permit: bool,
    /// The stack's timeout is the call's deadline over all its attempts and waits (gRPC's),
    /// not each attempt's.
    pub deadline_spans_attempts: bool,
}

/// How long a library waits before a retry.
#[derive(Debug, Clone, Copy)]
pub(super) enum Wait {
    /// Resilience4j: `wait-duration`, or with the backoff enabled `wait × multiplier^(n-1)`,
    /// at most `max_wait`.
    Resilience4j {
        wait: Micros,
        max_wait: Micros,
        multiplier: Option<f64>,
    },
    /// Polly v8's delay generator.
    Polly(PollyDelay),
    /// gRPC's randomised exponential back-off.
    Grpc(GrpcBackoff),
}

/// What the breaker does with an attempt's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum BreakerSees {
    /// A success (an answer, or an exception the breaker does not record).
    Success,
    /// A failure.
    Failure,
    /// Nothing: the exception is on its ignore list (the permission is given back).
    Ignored,
}

impl LibraryRules {
    /// Whether the retry tries again after this exception.
    pub fn retries(&self, e: Exception) -> bool {
        self.retried[e.index()]
    }

    /// How the breaker counts an attempt that ended with `e` (`None`: answered).
    pub fn breaker_sees(&self, e: Option<Exception>) -> BreakerSees {
        match e {
            None => BreakerSees::Success,
            Some(e) if self.ignored[e.index()] => BreakerSees::Ignored,
            Some(e) if self.recorded[e.index()] => BreakerSees::Failure,
            Some(_) => BreakerSees::Success,
        }
    }

    /// The wait before retry number `retry` (1-based), carrying a jittered wait's `state`
    /// from one retry of a request to its next.
    pub fn wait_before(&self, retry: u32, state: &mut JitterState, rng: &mut impl Rng) -> Micros {
        match self.wait {
            Wait::Resilience4j {
                wait,
                max_wait,
                multiplier,
            } => {
                let Some(m) = multiplier else {
                    return wait;
                };
                let grown = wait as f64 * m.powi(retry.saturating_sub(1) as i32);
                grown.min(max_wait as f64) as Micros
            }
            Wait::Polly(delay) => delay.wait(retry.saturating_sub(1), state, rng),
            Wait::Grpc(backoff) => backoff.wait(retry, rng),
        }
    }
}
