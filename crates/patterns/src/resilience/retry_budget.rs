//! A retry budget: a limit on retries shared by every request towards one dependency. Each call
//! earns a fraction of a credit, each retry spends a whole one, so retries stay near `ratio` of
//! the calls however many requests fail at once.

use serde::{Deserialize, Serialize};

use super::ParamError;

/// The budget's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RetryBudgetConfig {
    /// Credit earned per call (0..=1; lesson 000: 0.1, i.e. retries up to 10% of calls).
    pub ratio: f64,
    /// Credits available at the start, so the first failures may be retried (0..=cap; lesson: 10).
    pub minimum: u32,
    /// Most credits that can be saved up (1..=1_000_000; lesson: 100).
    pub cap: u32,
}

impl RetryBudgetConfig {
    /// Lesson 000's `RetryBudget`: 10% of calls, 10 credits to start, at most 100 saved.
    pub fn lesson_000() -> Self {
        RetryBudgetConfig {
            ratio: 0.1,
            minimum: 10,
            cap: 100,
        }
    }

    /// `cap`'s range, which `validate` and the parameter rows share (`minimum` is 0 up to
    /// `cap`).
    pub const CAP: (u64, u64) = (1, 1_000_000);
    /// `ratio`'s range: a share of the calls.
    pub const RATIO: (f64, f64) = ParamError::SHARE;

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_f64("ratio", self.ratio, Self::RATIO.0, Self::RATIO.1, "")?;
        ParamError::check_u64("cap", self.cap.into(), Self::CAP.0, Self::CAP.1, "")?;
        ParamError::check_u64("minimum", self.minimum.into(), 0, self.cap.into(), "")?;
        Ok(())
    }
}

impl Default for RetryBudgetConfig {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// The running budget: credits earned and spent.
#[derive(Debug, Clone, PartialEq)]
pub struct RetryBudget {
    config: RetryBudgetConfig,
    credits: f64,
    granted: u64,
    refused: u64,
}

impl RetryBudget {
    /// A budget holding `minimum` credits.
    pub fn new(config: RetryBudgetConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(RetryBudget {
            credits: f64::from(config.minimum),
            config,
            granted: 0,
            refused: 0,
        })
    }

    /// The parameters it was built with.
    pub fn config(&self) -> &RetryBudgetConfig {
        &self.config
    }

    /// Credits available now (always within `0..=cap`).
    pub fn credits(&self) -> f64 {
        self.credits
    }

    /// Retries it has allowed so far.
    pub fn granted(&self) -> u64 {
        self.granted
    }

    /// Retries it has refused so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// Records one call (every attempt, first or not, as the lesson does): earns `ratio`.
    pub fn record_call(&mut self) {
        self.credits = (self.credits + self.config.ratio).min(f64::from(self.config.cap));
    }

    /// Asks for one retry: spends a credit and says yes, or says no when less than one is left.
    pub fn allow_retry(&mut self) -> bool {
        if self.credits >= 1.0 {
            self.credits -= 1.0;
            self.granted += 1;
            true
        } else {
            self.refused += 1;
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_at_minimum_and_spends_whole_credits() {
        let mut b = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        assert_eq!(b.credits(), 10.0);
        for _ in 0..10 {
            assert!(b.allow_retry());
        }
        assert!(!b.allow_retry());
        assert_eq!((b.granted(), b.refused()), (10, 1));
        // Ten calls earn one credit (0.1 each, up to float rounding).
        for _ in 0..10 {
            b.record_call();
        }
        assert!(b.credits() > 0.99 && b.credits() < 1.01);
        // One more call makes sure the sum of ten 0.1s reaches a whole credit.
        b.record_call();
        assert!(b.allow_retry());
        assert!(!b.allow_retry());
    }

    #[test]
    fn credits_never_exceed_cap() {
        let mut b = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        for _ in 0..10_000 {
            b.record_call();
        }
        assert_eq!(b.credits(), 100.0);
    }

    #[test]
    fn long_run_retries_stay_near_ratio_of_calls() {
        // Dependency fully down: every call fails and asks for a retry.
        let mut b = RetryBudget::new(RetryBudgetConfig::lesson_000()).unwrap();
        let calls = 10_000;
        for _ in 0..calls {
            b.record_call();
            b.allow_retry();
        }
        // 10 to start plus 10% of calls (about 1,000).
        assert!(
            b.granted() >= 1_000 && b.granted() <= 1_011,
            "{}",
            b.granted()
        );
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |c: RetryBudgetConfig| RetryBudget::new(c).unwrap_err().field;
        let base = RetryBudgetConfig::lesson_000();
        assert_eq!(
            bad(RetryBudgetConfig {
                ratio: 1.5,
                ..base.clone()
            }),
            "ratio"
        );
        assert_eq!(
            bad(RetryBudgetConfig {
                ratio: f64::NAN,
                ..base.clone()
            }),
            "ratio"
        );
        assert_eq!(
            bad(RetryBudgetConfig {
                cap: 0,
                ..base.clone()
            }),
            "cap"
        );
        assert_eq!(
            bad(RetryBudgetConfig {
                minimum: 101,
                ..base
            }),
            "minimum"
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        #[test]
        fn credits_stay_within_zero_and_cap(
            ratio in 0.0f64..=1.0,
            cap in 1u32..200,
            min_frac in 0.0f64..=1.0,
            ops in proptest::collection::vec(any::<bool>(), 0..500),
        ) {
            let minimum = (f64::from(cap) * min_frac) as u32;
            let mut b = RetryBudget::new(RetryBudgetConfig { ratio, minimum, cap }).unwrap();
            for call in ops {
                if call { b.record_call() } else { b.allow_retry(); }
                prop_assert!(b.credits() >= 0.0 && b.credits() <= f64::from(cap));
            }
        }
    }
}
