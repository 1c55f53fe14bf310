//! Safe retries: only transient errors, only idempotent operations, a bounded number of
//! attempts, exponential backoff with jitter, a shared retry budget, and never a wait that
//! would end past the request's deadline.
//!
//! The mechanism is built for a discrete-event simulator: one [`Retry`] per request, told when
//! an attempt starts ([`Retry::begin_attempt`]) and when one fails ([`Retry::after_failure`]),
//! answering with a [`RetryDecision`]. The caller schedules the wait on its own clock.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, RetryBudget, TimeBudget, MS, SECOND};

/// How a backoff's wait is randomised, so clients that failed together do not retry together.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Jitter {
    /// Wait exactly the exponential ceiling `min(cap, base * 2^n)` (synchronised waves).
    None,
    /// Uniform in `[0, ceiling]` (the lesson's choice, "full jitter").
    Full,
    /// Half the ceiling plus a uniform share of the other half: `[ceiling/2, ceiling]`.
    Equal,
    /// `min(cap, uniform[base, 3 * previous wait])`, the previous wait starting at `base`
    /// (the "decorrelated jitter" of the AWS architecture blog's backoff article).
    Decorrelated,
}

/// Why a call failed, classified as gRPC status codes and HTTP statuses are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CallError {
    /// gRPC `UNAVAILABLE`: the dependency could not be reached or refused to work.
    Unavailable,
    /// gRPC `DEADLINE_EXCEEDED`: the call timed out (also what a timeout is reported as).
    DeadlineExceeded,
    /// gRPC `RESOURCE_EXHAUSTED`: the dependency is out of capacity for now.
    ResourceExhausted,
    /// The TCP connection was refused.
    ConnectionRefused,
    /// The TCP connection was reset mid-call.
    ConnectionReset,
    /// An HTTP error status.
    Http(u16),
    /// gRPC `INVALID_ARGUMENT`: the request itself is wrong.
    InvalidArgument,
    /// gRPC `PERMISSION_DENIED`: the caller may not do this.
    PermissionDenied,
    /// gRPC `NOT_FOUND`: the thing asked for does not exist.
    NotFound,
    /// gRPC `FAILED_PRECONDITION`: a business "no" (e.g. out of stock); an answer, not a failure.
    FailedPrecondition,
}

impl CallError {
    /// True when trying again later might succeed.
    ///
    /// Transient: unavailable, deadline exceeded, resource exhausted, connection refused or
    /// reset, and HTTP 502, 503 and 504 (gateway errors and overload, the HTTP faces of
    /// `UNAVAILABLE` / `DEADLINE_EXCEEDED`) and 429 (the HTTP face of `RESOURCE_EXHAUSTED`).
    /// Everything else (invalid argument, permission denied, not found, failed precondition,
    /// other HTTP statuses such as 400, 403, 404, 409, 500) would fail the same way again.
    pub fn is_transient(&self) -> bool {
        match self {
            CallError::Unavailable
            | CallError::DeadlineExceeded
            | CallError::ResourceExhausted
            | CallError::ConnectionRefused
            | CallError::ConnectionReset => true,
            CallError::Http(status) => matches!(status, 429 | 502 | 503 | 504),
            CallError::InvalidArgument
            | CallError::PermissionDenied
            | CallError::NotFound
            | CallError::FailedPrecondition => false,
        }
    }
}

/// A retry policy: how many attempts and how long to wait between them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryPolicy {
    /// Attempts in total, the first included (1..=10; 1 means no retries).
    pub attempts: u32,
    /// Backoff base: the ceiling before the first retry (1 µs..=60 s).
    pub base: Micros,
    /// Longest wait ever (base..=600 s).
    pub cap: Micros,
    /// How the wait is randomised.
    pub jitter: Jitter,
}

impl RetryPolicy {
    /// Lesson 000's summary table: 3 attempts, base 100 ms, cap 2 s, full jitter.
    pub fn lesson_000() -> Self {
        RetryPolicy {
            attempts: 3,
            base: 100 * MS,
            cap: 2 * SECOND,
            jitter: Jitter::Full,
        }
    }

    /// Lesson 000's inventory client (`ReserveStock`): 3 attempts, base 50 ms, cap 200 ms,
    /// full jitter.
    pub fn reserve_stock() -> Self {
        RetryPolicy {
            attempts: 3,
            base: 50 * MS,
            cap: 200 * MS,
            jitter: Jitter::Full,
        }
    }

    /// Lesson 004 (Northwind, Resilience4j): 3 attempts, 200 ms doubling each time, no jitter.
    /// Resilience4j sets no cap unless asked; 60 s stands in for "none".
    pub fn northwind() -> Self {
        RetryPolicy {
            attempts: 3,
            base: 200 * MS,
            cap: 60 * SECOND,
            jitter: Jitter::None,
        }
    }

    /// `attempts`' range, which `validate` and the parameter rows share.
    pub const ATTEMPTS: (u64, u64) = (1, 10);
    /// `base`'s.
    pub const BASE: (Micros, Micros) = (1, 60 * SECOND);
    /// `cap`'s (and at least `base`).
    pub const CAP: (Micros, Micros) = (1, 600 * SECOND);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::ATTEMPTS;
        ParamError::check_u64("attempts", self.attempts.into(), min, max, "")?;
        ParamError::check_micros("base", self.base, Self::BASE.0, Self::BASE.1)?;
        ParamError::check_micros("cap", self.cap, self.base.max(Self::CAP.0), Self::CAP.1)?;
        Ok(())
    }

    /// The exponential ceiling after the failure of attempt `n` (0-based):
    /// `min(cap, base * 2^n)`.
    pub fn ceiling(&self, n: u32) -> Micros {
        let factor = 1u64.checked_shl(n).unwrap_or(u64::MAX);
        self.base.saturating_mul(factor).min(self.cap)
    }

    /// The wait after the failure of attempt `n` (0-based), given the previous wait (used only by
    /// decorrelated jitter; pass `base` before the first retry).
    pub fn wait<R: Rng + ?Sized>(&self, n: u32, previous: Micros, rng: &mut R) -> Micros {
        match self.jitter {
            Jitter::None => self.ceiling(n),
            Jitter::Full => rng.gen_range(0..=self.ceiling(n)),
            Jitter::Equal => {
                let ceiling = self.ceiling(n);
                let half = ceiling / 2;
                (ceiling - half) + rng.gen_range(0..=half)
            }
            Jitter::Decorrelated => {
                let high = previous.saturating_mul(3).max(self.base);
                rng.gen_range(self.base..=high).min(self.cap)
            }
        }
    }
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// Why a request stops retrying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GiveUpReason {
    /// The error would repeat (a business "no", a bad request...).
    NotTransient,
    /// The operation has side effects and no idempotency key: a retry might do it twice.
    NotIdempotent,
    /// That was the last attempt allowed.
    AttemptsExhausted,
    /// The shared retry budget had no credit left.
    RetryBudgetEmpty,
    /// The wait alone would use up what is left of the request's time budget.
    WaitExceedsBudget,
}

/// What to do after a failed attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetryDecision {
    /// Wait `wait`, then make retry number `attempt` (1 for the first retry, as the lesson logs it;
    /// it is also the 0-based index of the attempt about to be made).
    RetryAfter {
        /// Retry number (1-based).
        attempt: u32,
        /// How long to wait before it.
        wait: Micros,
    },
    /// Stop and report the last error.
    GiveUp(GiveUpReason),
}

/// One retry scheduled, for logs and the per-request trace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RetryEvent {
    /// When the decision was taken.
    pub at: Micros,
    /// Retry number (1-based).
    pub attempt: u32,
    /// The error that caused it.
    pub cause: CallError,
    /// The wait before it.
    pub wait: Micros,
}

/// The retry state of one request.
#[derive(Debug, Clone, PartialEq)]
pub struct Retry {
    policy: RetryPolicy,
    started: u32,
    previous_wait: Micros,
    events: Vec<RetryEvent>,
}

impl Retry {
    /// Fresh state for one request under `policy`.
    pub fn new(policy: &RetryPolicy) -> Result<Self, ParamError> {
        policy.validate()?;
        Ok(Retry {
            policy: *policy,
            started: 0,
            previous_wait: policy.base,
            events: Vec::new(),
        })
    }

    /// The policy in force.
    pub fn policy(&self) -> &RetryPolicy {
        &self.policy
    }

    /// The retries scheduled so far, oldest first.
    pub fn events(&self) -> &[RetryEvent] {
        &self.events
    }

    /// Marks the start of an attempt and returns its 0-based index. Every attempt, first or
    /// retry, is recorded as a call on the retry budget (as the lesson's loop does).
    pub fn begin_attempt(&mut self, retry_budget: Option<&mut RetryBudget>) -> u32 {
        if let Some(rb) = retry_budget {
            rb.record_call();
        }
        let index = self.started;
        self.started = self.started.saturating_add(1);
        index
    }

    /// Decides what follows the failure of the latest attempt.
    ///
    /// The checks run in the lesson's order: a non-transient error gives up (then, our
    /// addition, a non-idempotent operation gives up); the last attempt gives up; the retry
    /// budget must grant a credit (spending it); the wait is drawn with the policy's jitter,
    /// and if a time budget is given and the wait is not shorter than what it has left, give
    /// up. Otherwise the retry is recorded as a [`RetryEvent`] and returned.
    pub fn after_failure<R: Rng + ?Sized>(
        &mut self,
        err: CallError,
        idempotent: bool,
        now: Micros,
        budget: Option<&TimeBudget>,
        retry_budget: Option<&mut RetryBudget>,
        rng: &mut R,
    ) -> RetryDecision {
        if !err.is_transient() {
            return RetryDecision::GiveUp(GiveUpReason::NotTransient);
        }
        if !idempotent {
            return RetryDecision::GiveUp(GiveUpReason::NotIdempotent);
        }
        let n = self.started.saturating_sub(1);
        if n + 1 >= self.policy.attempts {
            return RetryDecision::GiveUp(GiveUpReason::AttemptsExhausted);
        }
        if let Some(rb) = retry_budget {
            if !rb.allow_retry() {
                return RetryDecision::GiveUp(GiveUpReason::RetryBudgetEmpty);
            }
        }
        let wait = self.policy.wait(n, self.previous_wait, rng);
        if let Some(b) = budget {
            if wait >= b.remaining(now) {
                return RetryDecision::GiveUp(GiveUpReason::WaitExceedsBudget);
            }
        }
        self.previous_wait = wait;
        let attempt = n + 1;
        self.events.push(RetryEvent {
            at: now,
            attempt,
            cause: err,
            wait,
        });
        RetryDecision::RetryAfter { attempt, wait }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::RetryBudgetConfig;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;
    use std::collections::BTreeMap;

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(7)
    }

    fn fixed(attempts: u32) -> RetryPolicy {
        RetryPolicy {
            attempts,
            base: 100 * MS,
            cap: 2 * SECOND,
            jitter: Jitter::None,
        }
    }

    #[test]
    fn transient_classification_follows_the_lesson() {
        use CallError::*;
        for e in [
            Unavailable,
            DeadlineExceeded,
            ResourceExhausted,
            ConnectionRefused,
            ConnectionReset,
        ] {
            assert!(e.is_transient(), "{e:?}");
        }
        for s in [429, 502, 503, 504] {
            assert!(Http(s).is_transient(), "{s}");
        }
        for e in [
            InvalidArgument,
            PermissionDenied,
            NotFound,
            FailedPrecondition,
        ] {
            assert!(!e.is_transient(), "{e:?}");
        }
        for s in [400, 403, 404, 409, 500] {
            assert!(!Http(s).is_transient(), "{s}");
        }
    }

    #[test]
    fn ceiling_doubles_up_to_the_cap() {
        let p = RetryPolicy::lesson_000();
        let c: Vec<_> = (0..7).map(|n| p.ceiling(n) / MS).collect();
        assert_eq!(c, vec![100, 200, 400, 800, 1600, 2000, 2000]);
        assert_eq!(p.ceiling(200), 2 * SECOND);
    }

    #[test]
    fn each_jitter_stays_in_its_range() {
        let mut r = rng();
        for n in 0..5 {
            for _ in 0..200 {
                let full = RetryPolicy {
                    jitter: Jitter::Full,
                    ..fixed(3)
                };
                let w = full.wait(n, full.base, &mut r);
                assert!(w <= full.ceiling(n));
                let equal = RetryPolicy {
                    jitter: Jitter::Equal,
                    ..fixed(3)
                };
                let w = equal.wait(n, equal.base, &mut r);
                assert!(w >= equal.ceiling(n) / 2 && w <= equal.ceiling(n));
                let dec = RetryPolicy {
                    jitter: Jitter::Decorrelated,
                    ..fixed(3)
                };
                let prev = 300 * MS;
                let w = dec.wait(n, prev, &mut r);
                assert!(w >= dec.base && w <= 900 * MS);
            }
            assert_eq!(fixed(3).wait(n, 0, &mut r), fixed(3).ceiling(n));
        }
        // Decorrelated never exceeds the cap however large the previous wait.
        let dec = RetryPolicy {
            jitter: Jitter::Decorrelated,
            ..fixed(3)
        };
        for _ in 0..100 {
            assert!(dec.wait(0, 10 * SECOND, &mut r) <= dec.cap);
        }
    }

    #[test]
    fn retries_then_gives_up_after_the_last_attempt() {
        let mut r = rng();
        let mut retry = Retry::new(&fixed(3)).unwrap();
        assert_eq!(retry.begin_attempt(None), 0);
        let d = retry.after_failure(CallError::Unavailable, true, 0, None, None, &mut r);
        assert_eq!(
            d,
            RetryDecision::RetryAfter {
                attempt: 1,
                wait: 100 * MS
            }
        );
        assert_eq!(retry.begin_attempt(None), 1);
        let d = retry.after_failure(CallError::Http(503), true, 0, None, None, &mut r);
        assert_eq!(
            d,
            RetryDecision::RetryAfter {
                attempt: 2,
                wait: 200 * MS
            }
        );
        assert_eq!(retry.begin_attempt(None), 2);
        let d = retry.after_failure(CallError::Unavailable, true, 0, None, None, &mut r);
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::AttemptsExhausted));
        assert_eq!(retry.events().len(), 2);
        assert_eq!(retry.events()[1].cause, CallError::Http(503));
        // One attempt in total means no retry at all.
        let mut once = Retry::new(&fixed(1)).unwrap();
        once.begin_attempt(None);
        let d = once.after_failure(CallError::Unavailable, true, 0, None, None, &mut r);
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::AttemptsExhausted));
    }

    #[test]
    fn non_transient_and_non_idempotent_give_up_first() {
        let mut r = rng();
        let mut rb = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        let mut retry = Retry::new(&fixed(3)).unwrap();
        retry.begin_attempt(Some(&mut rb));
        let d = retry.after_failure(
            CallError::FailedPrecondition,
            true,
            0,
            None,
            Some(&mut rb),
            &mut r,
        );
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::NotTransient));
        // Charge without a key: a timeout does not say whether the money moved.
        let d = retry.after_failure(
            CallError::DeadlineExceeded,
            false,
            0,
            None,
            Some(&mut rb),
            &mut r,
        );
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::NotIdempotent));
        // Neither spent a credit.
        assert_eq!(rb.granted(), 0);
    }

    #[test]
    fn last_attempt_spends_no_credit() {
        let mut r = rng();
        let mut rb = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        let mut retry = Retry::new(&fixed(1)).unwrap();
        retry.begin_attempt(Some(&mut rb));
        let d = retry.after_failure(CallError::Unavailable, true, 0, None, Some(&mut rb), &mut r);
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::AttemptsExhausted));
        assert_eq!(rb.granted() + rb.refused(), 0);
    }

    #[test]
    fn every_attempt_is_recorded_on_the_retry_budget() {
        let mut rb = RetryBudget::new(RetryBudgetConfig {
            ratio: 0.5,
            minimum: 0,
            cap: 10,
        })
        .unwrap();
        let mut retry = Retry::new(&fixed(3)).unwrap();
        retry.begin_attempt(Some(&mut rb));
        retry.begin_attempt(Some(&mut rb));
        assert_eq!(rb.credits(), 1.0);
    }

    #[test]
    fn an_empty_retry_budget_stops_the_retry() {
        let mut r = rng();
        let mut rb = RetryBudget::new(RetryBudgetConfig {
            ratio: 0.1,
            minimum: 0,
            cap: 100,
        })
        .unwrap();
        let mut retry = Retry::new(&fixed(3)).unwrap();
        retry.begin_attempt(Some(&mut rb));
        let d = retry.after_failure(CallError::Unavailable, true, 0, None, Some(&mut rb), &mut r);
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::RetryBudgetEmpty));
        assert_eq!(rb.refused(), 1);
        assert!(retry.events().is_empty());
    }

    #[test]
    fn a_wait_reaching_the_deadline_gives_up_after_spending_the_credit() {
        let mut r = rng();
        let mut rb = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        let budget = TimeBudget::from_duration(0, 500 * MS);
        let mut retry = Retry::new(&fixed(3)).unwrap();
        retry.begin_attempt(Some(&mut rb));
        // 100 ms wait with exactly 100 ms left: not shorter, so give up.
        let d = retry.after_failure(
            CallError::Unavailable,
            true,
            400 * MS,
            Some(&budget),
            Some(&mut rb),
            &mut r,
        );
        assert_eq!(d, RetryDecision::GiveUp(GiveUpReason::WaitExceedsBudget));
        assert_eq!(
            rb.granted(),
            1,
            "the lesson spends the credit before drawing the wait"
        );
        // With 101 ms left, it fits.
        let d = retry.after_failure(
            CallError::Unavailable,
            true,
            399 * MS,
            Some(&budget),
            None,
            &mut r,
        );
        assert_eq!(
            d,
            RetryDecision::RetryAfter {
                attempt: 1,
                wait: 100 * MS
            }
        );
    }

    #[test]
    fn decorrelated_tracks_the_previous_wait() {
        let mut r = rng();
        let p = RetryPolicy {
            attempts: 10,
            base: 10 * MS,
            cap: 10 * SECOND,
            jitter: Jitter::Decorrelated,
        };
        let mut retry = Retry::new(&p).unwrap();
        let mut prev = p.base;
        for _ in 0..9 {
            retry.begin_attempt(None);
            match retry.after_failure(CallError::Unavailable, true, 0, None, None, &mut r) {
                RetryDecision::RetryAfter { wait, .. } => {
                    assert!(wait >= p.base && wait <= prev * 3, "{wait} vs {prev}");
                    prev = wait;
                }
                d => panic!("{d:?}"),
            }
        }
    }

    /// A thousand clients fail at the same instant. Without jitter their retries land on
    /// identical instants, wave after wave; with full jitter they spread over the interval.
    #[test]
    fn backoff_without_jitter_synchronises_clients() {
        fn retry_instants(jitter: Jitter) -> Vec<Vec<Micros>> {
            let mut r = rng();
            let policy = RetryPolicy { jitter, ..fixed(3) };
            let mut waves = vec![Vec::new(), Vec::new()];
            for _ in 0..1000 {
                let mut retry = Retry::new(&policy).unwrap();
                let mut now = 0;
                for wave in waves.iter_mut() {
                    retry.begin_attempt(None);
                    match retry.after_failure(CallError::Unavailable, true, now, None, None, &mut r)
                    {
                        RetryDecision::RetryAfter { wait, .. } => now += wait,
                        d => panic!("{d:?}"),
                    }
                    wave.push(now);
                }
            }
            waves
        }
        fn busiest_ms(instants: &[Micros]) -> usize {
            let mut buckets = BTreeMap::new();
            for t in instants {
                *buckets.entry(t / MS).or_insert(0usize) += 1;
            }
            buckets.values().copied().max().unwrap_or(0)
        }
        for wave in retry_instants(Jitter::None) {
            assert_eq!(
                busiest_ms(&wave),
                1000,
                "every client in the same millisecond"
            );
        }
        for wave in retry_instants(Jitter::Full) {
            assert!(
                busiest_ms(&wave) < 30,
                "busiest ms holds {}",
                busiest_ms(&wave)
            );
        }
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |p: RetryPolicy| Retry::new(&p).unwrap_err().field;
        let p = RetryPolicy::lesson_000();
        assert_eq!(bad(RetryPolicy { attempts: 0, ..p }), "attempts");
        assert_eq!(bad(RetryPolicy { attempts: 11, ..p }), "attempts");
        assert_eq!(bad(RetryPolicy { base: 0, ..p }), "base");
        assert_eq!(
            bad(RetryPolicy {
                base: 61 * SECOND,
                cap: 100 * SECOND,
                ..p
            }),
            "base"
        );
        assert_eq!(bad(RetryPolicy { cap: 50 * MS, ..p }), "cap");
        for ok in [
            RetryPolicy::lesson_000(),
            RetryPolicy::reserve_stock(),
            RetryPolicy::northwind(),
        ] {
            assert!(ok.validate().is_ok());
        }
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod props {
    use super::*;
    use crate::resilience::RetryBudgetConfig;
    use proptest::prelude::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn jitter() -> impl Strategy<Value = Jitter> {
        prop_oneof![
            Just(Jitter::None),
            Just(Jitter::Full),
            Just(Jitter::Equal),
            Just(Jitter::Decorrelated)
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Whatever the policy, budget and failures, a request never makes more attempts than
        /// allowed and never schedules a wait that ends at or past its deadline.
        #[test]
        fn loop_respects_attempts_and_deadline(
            attempts in 1u32..=10,
            base in 1u64..=500_000,
            cap_extra in 0u64..=2_000_000,
            jitter in jitter(),
            budget_len in 0u64..=3_000_000,
            durations in proptest::collection::vec(0u64..400_000, 10),
            seed in any::<u64>(),
            with_rb in any::<bool>(),
        ) {
            let policy = RetryPolicy { attempts, base, cap: base + cap_extra, jitter };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut rb = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
            let budget = TimeBudget::from_duration(1_000, budget_len);
            let mut retry = Retry::new(&policy).unwrap();
            let mut now = 1_000;
            let mut made = 0;
            for d in durations {
                retry.begin_attempt(if with_rb { Some(&mut rb) } else { None });
                made += 1;
                prop_assert!(made <= attempts);
                now += d;
                let rbo = if with_rb { Some(&mut rb) } else { None };
                match retry.after_failure(CallError::Unavailable, true, now, Some(&budget), rbo, &mut rng) {
                    RetryDecision::RetryAfter { attempt, wait } => {
                        prop_assert_eq!(attempt, made);
                        prop_assert!(now + wait < budget.deadline);
                        prop_assert!(wait <= policy.cap);
                        now += wait;
                    }
                    RetryDecision::GiveUp(_) => break,
                }
            }
            prop_assert!(retry.events().len() < attempts as usize);
        }
    }
}
