//! The `resilience4j` stack profile's own settings: what Spring Boot's aspects do with a call
//! that lesson 000's stack does otherwise (`docs/resilience4j.md` gives the source of each).
//! The layers' values (timeout, breaker, bulkhead, attempts and wait) stay in
//! [`super::StackConfig`]; this says where the fallback sits, which exceptions the retry retries
//! and the breaker records, whether the backoff grows, and whether the time limiter frees the
//! bulkhead permit.

use serde::{Deserialize, Serialize};

use super::call_end::{CallEnd, Failure, Refusal};
use super::library_rules::{LibraryRules, Wait};
use crate::resilience::{ParamError, RetryPolicy};

/// The exceptions a call through the Resilience4j stack can end with, by the class the lesson's
/// code (or the library) throws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exception {
    /// The dependency failed transiently (the fault schedule's error rate).
    Transient,
    /// The business "no" (out of stock), a 409.
    StockUnavailable,
    /// The time limiter completed the caller's future at its timeout.
    Timeout,
    /// The breaker refused the call.
    CallNotPermitted,
    /// No bulkhead permit within `max-wait-duration`.
    BulkheadFull,
}

impl Exception {
    /// Every exception, in the order the tables below index them.
    pub const ALL: [Exception; 5] = [
        Exception::Transient,
        Exception::StockUnavailable,
        Exception::Timeout,
        Exception::CallNotPermitted,
        Exception::BulkheadFull,
    ];

    /// Its fully qualified class name.
    pub fn class(self) -> &'static str {
        match self {
            Exception::Transient => {
                "in.o612.eng.northwind.order.internal.TransientInventoryException"
            }
            Exception::StockUnavailable => {
                "in.o612.eng.northwind.order.internal.StockUnavailableException"
            }
            Exception::Timeout => "java.util.concurrent.TimeoutException",
            Exception::CallNotPermitted => {
                "io.github.resilience4j.circuitbreaker.CallNotPermittedException"
            }
            Exception::BulkheadFull => "io.github.resilience4j.bulkhead.BulkheadFullException",
        }
    }

    /// The exception a call that ended so throws; `None` for an answer.
    pub fn of(end: CallEnd) -> Option<Exception> {
        match end {
            CallEnd::Answered => None,
            CallEnd::Business => Some(Exception::StockUnavailable),
            CallEnd::Failed(Failure::Timeout | Failure::TryTimeout) => Some(Exception::Timeout),
            CallEnd::Failed(Failure::Unavailable) => Some(Exception::Transient),
            CallEnd::Refused(Refusal::Breaker) => Some(Exception::CallNotPermitted),
            CallEnd::Refused(Refusal::Bulkhead | Refusal::Budget | Refusal::Level(_)) => {
                Some(Exception::BulkheadFull)
            }
        }
    }

    /// True when a configured class name covers this exception: its short or full name, or a
    /// superclass (`Throwable` and `Exception` cover all five; `RuntimeException` all but the
    /// checked `TimeoutException`), as Resilience4j's `isAssignableFrom` test does.
    pub fn is_named_by(self, configured: &str) -> bool {
        let short = configured.rsplit('.').next().unwrap_or(configured);
        let own = self.class();
        configured == own
            || own.rsplit('.').next() == Some(short)
            || matches!(short, "Throwable" | "Exception")
            || (short == "RuntimeException" && self != Exception::Timeout)
    }

    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// Which annotation carries `fallbackMethod`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FallbackPlace {
    /// `@CircuitBreaker` (the lesson as written): inside Retry, so Retry sees a normal result.
    CircuitBreaker,
    /// `@Retry`: after the last attempt, outside every other aspect.
    Retry,
}

/// The `resilience4j` profile's settings. The default is lesson 004's configuration and
/// annotations as written.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resilience4jStack {
    /// Where `fallbackMethod` sits (the fallback itself is the service's `fallback`).
    pub fallback_on: FallbackPlace,
    /// Retry's `retry-exceptions`: only these are retried; empty retries every exception.
    #[serde(default)]
    pub retry_exceptions: Vec<String>,
    /// Retry's `ignore-exceptions`: never retried (wins over the list above).
    #[serde(default)]
    pub retry_ignore_exceptions: Vec<String>,
    /// The breaker's `record-exceptions`: only these are failures; empty records every one.
    #[serde(default)]
    pub breaker_record_exceptions: Vec<String>,
    /// The breaker's `ignore-exceptions`: neither failure nor success.
    #[serde(default)]
    pub breaker_ignore_exceptions: Vec<String>,
    /// `exponential-backoff-multiplier`, with `enable-exponential-backoff: true` (1..=10);
    /// `None`: every wait is `wait-duration` (the retry's `base`).
    #[serde(default)]
    pub backoff_multiplier: Option<f64>,
    /// The time limiter hands the bulkhead permit back at its timeout. Resilience4j's does
    /// not (a `CompletableFuture` is never interrupted): the call keeps its permit until the
    /// dependency answers.
    #[serde(default)]
    pub time_limiter_frees_permit: bool,
}

const TRANSIENT: &str = "in.o612.eng.northwind.order.internal.TransientInventoryException";
const STOCK_UNAVAILABLE: &str = "in.o612.eng.northwind.order.internal.StockUnavailableException";

impl Default for Resilience4jStack {
    fn default() -> Self {
        Self::lesson_004_as_written()
    }
}

impl Resilience4jStack {
    /// Lesson 004 as written: the fallback on `@CircuitBreaker`, only
    /// `TransientInventoryException` retried (`StockUnavailableException` ignored), no
    /// exponential backoff enabled, the breaker's lists left empty.
    pub fn lesson_004_as_written() -> Self {
        Resilience4jStack {
            fallback_on: FallbackPlace::CircuitBreaker,
            retry_exceptions: vec![TRANSIENT.to_string()],
            retry_ignore_exceptions: vec![STOCK_UNAVAILABLE.to_string()],
            breaker_record_exceptions: Vec::new(),
            breaker_ignore_exceptions: Vec::new(),
            backoff_multiplier: None,
            time_limiter_frees_permit: false,
        }
    }

    /// Lesson 004 as its text means it (its 6.6 s worst case): the fallback on `@Retry`, the
    /// time limiter's `TimeoutException` retried too, exponential backoff enabled (×2).
    pub fn lesson_004_as_meant() -> Self {
        let mut meant = Self::lesson_004_as_written();
        meant.fallback_on = FallbackPlace::Retry;
        meant
            .retry_exceptions
            .push(Exception::Timeout.class().to_string());
        meant.backoff_multiplier = Some(2.0);
        meant
    }

    /// Checks the multiplier and the lists.
    pub fn validate(&self) -> Result<(), ParamError> {
        if let Some(m) = self.backoff_multiplier {
            if !(m.is_finite() && (1.0..=10.0).contains(&m)) {
                return Err(ParamError::new(
                    "backoff_multiplier",
                    "1..=10",
                    m.to_string(),
                ));
            }
        }
        let lists = [
            ("retry_exceptions", &self.retry_exceptions),
            ("retry_ignore_exceptions", &self.retry_ignore_exceptions),
            ("breaker_record_exceptions", &self.breaker_record_exceptions),
            ("breaker_ignore_exceptions", &self.breaker_ignore_exceptions),
        ];
        for (field, list) in lists {
            let bad = list.iter().find(|c| c.trim().is_empty() || c.len() > 200);
            if list.len() > 32 || bad.is_some() {
                return Err(ParamError::new(
                    field,
                    "at most 32 class names of 1..=200 characters",
                    bad.map_or(format!("{} names", list.len()), |c| format!("{c:?}")),
                ));
            }
        }
        Ok(())
    }

    /// The settings as tables over [`Exception`], with the attempts and waits of `retry`.
    pub(super) fn rules(&self, retry: Option<&RetryPolicy>) -> LibraryRules {
        let named = |list: &[String], e: Exception| list.iter().any(|c| e.is_named_by(c));
        let pick = |f: &dyn Fn(Exception) -> bool| Exception::ALL.map(f);
        LibraryRules {
            fallback_on: self.fallback_on,
            retried: pick(&|e| {
                !named(&self.retry_ignore_exceptions, e)
                    && (self.retry_exceptions.is_empty() || named(&self.retry_exceptions, e))
            }),
            ignored: pick(&|e| named(&self.breaker_ignore_exceptions, e)),
            recorded: pick(&|e| {
                self.breaker_record_exceptions.is_empty()
                    || named(&self.breaker_record_exceptions, e)
            }),
            attempts: retry.map_or(1, |r| r.attempts),
            wait: Wait::Resilience4j {
                wait: retry.map_or(0, |r| r.base),
                max_wait: retry.map_or(0, |r| r.cap),
                multiplier: self.backoff_multiplier,
            },
            frees_permit: self.time_limiter_frees_permit,
            deadline_spans_attempts: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::library_rules::BreakerSees;
    use super::*;
    use crate::sim::latency::Micros;
    use rand::SeedableRng;

    fn wait(rules: &LibraryRules, retry: u32) -> Micros {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        rules.wait_before(retry, &mut 0.0, &mut rng)
    }
    use crate::resilience::{Jitter, MS, SECOND};

    fn northwind_retry() -> RetryPolicy {
        RetryPolicy {
            attempts: 3,
            base: 200 * MS,
            cap: 60 * SECOND,
            jitter: Jitter::None,
        }
    }

    #[test]
    fn as_written_retries_only_the_transient_exception_and_waits_200_ms_each_time() {
        let rules = Resilience4jStack::lesson_004_as_written().rules(Some(&northwind_retry()));
        let retried: Vec<_> = Exception::ALL.iter().map(|e| rules.retries(*e)).collect();
        assert_eq!(retried, [true, false, false, false, false]);
        assert_eq!((wait(&rules, 1), wait(&rules, 2)), (200 * MS, 200 * MS));
        assert_eq!(rules.fallback_on, FallbackPlace::CircuitBreaker);
        // The breaker records everything, the business 409 included.
        for e in Exception::ALL {
            assert_eq!(rules.breaker_sees(Some(e)), BreakerSees::Failure);
        }
        assert_eq!(rules.breaker_sees(None), BreakerSees::Success);
    }

    #[test]
    fn as_meant_retries_the_timeout_and_doubles_the_wait() {
        let rules = Resilience4jStack::lesson_004_as_meant().rules(Some(&northwind_retry()));
        assert!(rules.retries(Exception::Timeout));
        assert!(!rules.retries(Exception::StockUnavailable));
        assert!(!rules.retries(Exception::BulkheadFull));
        assert_eq!((wait(&rules, 1), wait(&rules, 2)), (200 * MS, 400 * MS));
        assert_eq!(rules.fallback_on, FallbackPlace::Retry);
    }

    #[test]
    fn class_names_match_short_full_and_superclasses() {
        assert!(Exception::Timeout.is_named_by("TimeoutException"));
        assert!(Exception::Timeout.is_named_by("java.util.concurrent.TimeoutException"));
        assert!(!Exception::Timeout.is_named_by("java.lang.RuntimeException"));
        assert!(Exception::BulkheadFull.is_named_by("java.lang.RuntimeException"));
        assert!(Exception::Transient.is_named_by("java.lang.Exception"));
        assert!(!Exception::Transient.is_named_by("StockUnavailableException"));
        let mut ignoring = Resilience4jStack::lesson_004_as_written();
        ignoring.breaker_ignore_exceptions = vec!["StockUnavailableException".to_string()];
        let rules = ignoring.rules(None);
        assert_eq!(
            rules.breaker_sees(Some(Exception::StockUnavailable)),
            BreakerSees::Ignored
        );
        assert_eq!(rules.attempts, 1);
    }

    #[test]
    fn a_bad_multiplier_or_list_is_named() {
        let mut s = Resilience4jStack::lesson_004_as_meant();
        s.backoff_multiplier = Some(f64::NAN);
        assert_eq!(s.validate().unwrap_err().field, "backoff_multiplier");
        let mut s = Resilience4jStack::lesson_004_as_written();
        s.retry_exceptions.push(" ".to_string());
        assert_eq!(s.validate().unwrap_err().field, "retry_exceptions");
    }
}
