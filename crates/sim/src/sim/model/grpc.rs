//! The `grpc` stack profile: a gRPC client's call as its channel runs it under a service
//! config's `methodConfig` and `retryThrottling` (`docs/grpc.md` gives the source of each
//! rule). The layers' values (the deadline, the attempts, `initialBackoff` and `maxBackoff`)
//! stay in [`super::StackConfig`]; this holds the multiplier, the retryable codes and the
//! throttle.
//!
//! - The `timeout` is the call's deadline over every attempt and wait, not a try's: once it
//!   passes, the call ends `DEADLINE_EXCEEDED`, which is never retried.
//! - A status is retried only when `retryableStatusCodes` lists it; the lesson's transient
//!   failure is `UNAVAILABLE`, its "out of stock" `FAILED_PRECONDITION`.
//! - The channel has no breaker and no bulkhead: the throttle is its only brake.

use serde::{Deserialize, Serialize};

use super::library_rules::{LibraryRules, Wait};
use super::resilience4j::{Exception, FallbackPlace};
use crate::resilience::{GrpcBackoff, Jitter, RetryPolicy, StatusCode, ThrottleConfig, MS};
use crate::sim::trace::Counter;

/// Retries a gRPC channel's `retryThrottling` refused.
pub const RETRIES_THROTTLED: Counter = Counter {
    name: "retries_throttled",
    figure: "retries-throttled",
    label: "retries throttled",
    what: "the number of retries a gRPC channel's retry throttle refused",
};

/// The `grpc` profile's settings beyond the layers' values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GrpcStack {
    /// `backoffMultiplier`.
    pub multiplier: f64,
    /// `retryableStatusCodes`.
    pub retryable: Vec<StatusCode>,
    /// `retryThrottling`, when the service config has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throttling: Option<ThrottleConfig>,
}

impl Default for GrpcStack {
    fn default() -> Self {
        Self::typical()
    }
}

impl GrpcStack {
    /// The service config most examples write: `UNAVAILABLE` retried, the back-off doubling,
    /// the throttle of gRPC's retry design (10 tokens, 0.1 per success).
    pub fn typical() -> Self {
        GrpcStack {
            multiplier: 2.0,
            retryable: vec![StatusCode::Unavailable],
            throttling: Some(ThrottleConfig::grpc_example()),
        }
    }

    /// The typical `retryPolicy`: 3 attempts, `initialBackoff` 0.1 s, `maxBackoff` 1 s.
    pub fn typical_retry() -> RetryPolicy {
        RetryPolicy {
            attempts: 3,
            base: 100 * MS,
            cap: 1_000 * MS,
            jitter: Jitter::None,
        }
    }

    /// The status a call that threw `e` ends with.
    pub fn status_of(e: Exception) -> StatusCode {
        match e {
            Exception::Transient | Exception::CallNotPermitted => StatusCode::Unavailable,
            Exception::StockUnavailable => StatusCode::FailedPrecondition,
            Exception::Timeout => StatusCode::DeadlineExceeded,
            Exception::BulkheadFull => StatusCode::ResourceExhausted,
        }
    }

    /// Checks the multiplier, the codes and the throttle.
    pub fn validate(&self) -> Result<(), crate::resilience::ParamError> {
        GrpcBackoff::check_multiplier(self.multiplier)?;
        if self.retryable.is_empty() {
            return Err(crate::resilience::ParamError::new(
                "retryable_status_codes",
                "at least one status code",
                "[]",
            ));
        }
        self.throttling.map_or(Ok(()), |t| t.validate())
    }

    /// The rules over [`Exception`], with the attempts (at most 5) and back-off of `retry`
    /// (its `base` is `initialBackoff`, its `cap` `maxBackoff`).
    pub(super) fn rules(&self, retry: Option<&RetryPolicy>) -> LibraryRules {
        let retried = Exception::ALL
            .map(|e| e != Exception::Timeout && self.retryable.contains(&Self::status_of(e)));
        LibraryRules {
            fallback_on: FallbackPlace::Retry,
            retried,
            ignored: [false; 5],
            recorded: [false; 5],
            attempts: retry.map_or(1, |r| GrpcBackoff::attempts(r.attempts)),
            wait: Wait::Grpc(GrpcBackoff {
                initial: retry.map_or(0, |r| r.base),
                max: retry.map_or(0, |r| r.cap),
                multiplier: self.multiplier,
            }),
            frees_permit: true,
            deadline_spans_attempts: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_listed_codes_are_retried_and_never_the_callers_own_deadline() {
        let mut s = GrpcStack::typical();
        s.retryable.push(StatusCode::DeadlineExceeded);
        let rules = s.rules(None);
        let retried: Vec<_> = Exception::ALL.iter().map(|e| rules.retries(*e)).collect();
        assert_eq!(retried, [true, false, false, true, false]);
        s.retryable = vec![StatusCode::FailedPrecondition];
        let rules = s.rules(None);
        assert!(rules.retries(Exception::StockUnavailable));
        assert!(!rules.retries(Exception::Transient));
        assert!(rules.deadline_spans_attempts);
    }

    #[test]
    fn ten_attempts_asked_make_five() {
        let retry = RetryPolicy {
            attempts: 10,
            ..GrpcStack::typical_retry()
        };
        assert_eq!(GrpcStack::typical().rules(Some(&retry)).attempts, 5);
    }
}
