//! The `polly` stack profile: a .NET client's call through the pipeline
//! `Microsoft.Extensions.Http.Resilience` builds with Polly v8 (`docs/polly.md` gives the
//! source of each rule). The layers' values (attempt timeout, breaker, bulkhead, attempts
//! and base delay) stay in [`super::StackConfig`]; this holds how the delay grows and, in its
//! rules, what the HTTP handler treats as a failure.
//!
//! - Retry and breaker handle the same outcomes: a transient failure (a 5xx, 408 or 429, or
//!   `HttpRequestException`) and the attempt timeout's `TimeoutRejectedException`. A 409 "out
//!   of stock" is a normal answer to both.
//! - The open breaker's `BrokenCircuitException` and a full limiter's rejection are not
//!   retried.
//! - The attempt timeout cancels the call, so a bulkhead permit goes back at once.
//! - A fallback is added first, so it sits outside the retries.

use serde::{Deserialize, Serialize};

use super::library_rules::{LibraryRules, Wait};
use super::resilience4j::{Exception, FallbackPlace};
use super::SECOND;
use crate::resilience::{
    BackoffType, BreakerConfig, HalfOpenRule, Jitter, Mode, PollyDelay, RetryPolicy, Window,
};
use crate::sim::latency::Micros;

/// The `polly` profile's settings beyond the layers' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PollyStack {
    /// `BackoffType`.
    pub backoff: BackoffType,
    /// `UseJitter`.
    pub use_jitter: bool,
}

impl Default for PollyStack {
    fn default() -> Self {
        Self::http_standard()
    }
}

impl PollyStack {
    /// The standard resilience handler's retry: exponential, with jitter.
    pub fn http_standard() -> Self {
        PollyStack {
            backoff: BackoffType::Exponential,
            use_jitter: true,
        }
    }

    /// The standard handler's attempt timeout: 10 s.
    pub const STANDARD_ATTEMPT_TIMEOUT: Micros = 10 * SECOND;

    /// The standard handler's retry: `MaxRetryAttempts` 3 (4 attempts), `Delay` 2 s, no
    /// `MaxDelay` (60 s stands in, as for Resilience4j: its three delays stay under 20 s).
    pub fn standard_retry() -> RetryPolicy {
        RetryPolicy {
            attempts: 4,
            base: 2 * SECOND,
            cap: 60 * SECOND,
            jitter: Jitter::None,
        }
    }

    /// The standard handler's breaker: open at a failure ratio of 10% over at least 100 calls
    /// in 30 s (judged after a failure), for 5 s; then one probe, whose result closes or
    /// reopens it.
    pub fn standard_breaker() -> BreakerConfig {
        BreakerConfig {
            window: Window::Time(30 * SECOND),
            min_calls: 100,
            failure_ratio: 0.1,
            cooldown: 5 * SECOND,
            half_open_probes: 1,
            slow_call_threshold: None,
            slow_call_rate: 1.0,
            mode: Mode::Normal,
            half_open_rule: HalfOpenRule::FirstFailureReopens,
            judged_after_failures_only: true,
        }
    }

    /// The rules over [`Exception`], with the attempts and delays of `retry` (its `base` is
    /// `Delay`, its `cap` `MaxDelay`).
    pub(super) fn rules(&self, retry: Option<&RetryPolicy>) -> LibraryRules {
        let handled =
            Exception::ALL.map(|e| matches!(e, Exception::Transient | Exception::Timeout));
        LibraryRules {
            fallback_on: FallbackPlace::Retry,
            retried: handled,
            ignored: [false; 5],
            recorded: handled,
            attempts: retry.map_or(1, |r| r.attempts),
            wait: Wait::Polly(PollyDelay {
                backoff: self.backoff,
                jitter: self.use_jitter,
                delay: retry.map_or(0, |r| r.base),
                max_delay: retry.map(|r| r.cap),
            }),
            frees_permit: true,
            deadline_spans_attempts: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::library_rules::BreakerSees;
    use super::*;

    #[test]
    fn the_http_handler_retries_and_records_only_transient_failures_and_timeouts() {
        let rules = PollyStack::http_standard().rules(None);
        let retried: Vec<_> = Exception::ALL.iter().map(|e| rules.retries(*e)).collect();
        assert_eq!(retried, [true, false, true, false, false]);
        let seen: Vec<_> = Exception::ALL.map(|e| rules.breaker_sees(Some(e))).to_vec();
        use BreakerSees::{Failure, Success};
        assert_eq!(seen, [Failure, Success, Failure, Success, Success]);
        assert!(rules.frees_permit);
        assert_eq!(rules.fallback_on, FallbackPlace::Retry);
    }
}
