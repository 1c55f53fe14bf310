//! Rate limiting with a token bucket: tokens trickle in at `rate_per_sec` up to `burst`; each
//! call takes one or is refused. At the door of `orders` a refusal is a 429 whose `Retry-After`
//! says when to come back; between services it keeps, say, analytics from querying inventory
//! more than 50 times a second while its batch job runs.

use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, SECOND};

/// A token bucket's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenBucketConfig {
    /// Tokens added per second (greater than 0, at most 1_000_000).
    pub rate_per_sec: f64,
    /// Most tokens held at once, i.e. the largest burst (1..=1_000_000).
    pub burst: u32,
}

impl TokenBucketConfig {
    /// Lesson 000: analytics may query inventory at most 50 times a second. The lesson gives no
    /// burst; one second's worth (50) is our choice.
    pub fn analytics() -> Self {
        TokenBucketConfig {
            rate_per_sec: 50.0,
            burst: 50,
        }
    }

    /// The door of `orders` as the playground switches it on: 80 orders a second with a burst
    /// of 20. The lesson gives no figure; ours sits below the cascade's 100 a second, so the
    /// limit is seen to refuse.
    pub fn orders_door() -> Self {
        TokenBucketConfig {
            rate_per_sec: 80.0,
            burst: 20,
        }
    }

    /// `burst`'s range, which `validate` and the parameter rows share.
    pub const BURST: (u64, u64) = (1, 1_000_000);
    /// `rate_per_sec`'s, its lower end excluded.
    pub const RATE: (f64, f64) = (0.0, 1_000_000.0);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let r = self.rate_per_sec;
        if !(r.is_finite() && r > Self::RATE.0 && r <= Self::RATE.1) {
            return Err(ParamError::new(
                "rate_per_sec",
                "0 (exclusive)..=1000000 /s",
                r.to_string(),
            ));
        }
        ParamError::check_u64("burst", self.burst.into(), Self::BURST.0, Self::BURST.1, "")?;
        Ok(())
    }
}

impl Default for TokenBucketConfig {
    fn default() -> Self {
        Self::analytics()
    }
}

/// The bucket's state.
#[derive(Debug, Clone)]
pub struct TokenBucket {
    config: TokenBucketConfig,
    tokens: f64,
    last: Micros,
    refused: u64,
}

impl TokenBucket {
    /// A full bucket at `now`.
    pub fn new(config: TokenBucketConfig, now: Micros) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(TokenBucket {
            tokens: f64::from(config.burst),
            config,
            last: now,
            refused: 0,
        })
    }

    /// The parameters it was built with.
    pub fn config(&self) -> &TokenBucketConfig {
        &self.config
    }

    /// Tokens available at `now` (fractional).
    pub fn tokens(&mut self, now: Micros) -> f64 {
        self.refill(now);
        self.tokens
    }

    /// Calls refused so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// Takes one token at `now` if there is a whole one.
    pub fn try_take(&mut self, now: Micros) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            self.refused += 1;
            false
        }
    }

    /// How long from `now` until a whole token is available (0 if one is).
    pub fn time_until_token(&mut self, now: Micros) -> Micros {
        self.refill(now);
        if self.tokens >= 1.0 {
            0
        } else {
            let missing = 1.0 - self.tokens;
            // Rounded up, so a take at `now + result` succeeds.
            (missing * SECOND as f64 / self.config.rate_per_sec).ceil() as Micros
        }
    }

    /// The `Retry-After` a refusal at `now` carries: the wait until a token is there, in whole
    /// seconds as HTTP writes it, at least one. A rate so low that the next token is further
    /// away than a `Micros` reaches asks for the longest wait there is.
    pub fn retry_after(&mut self, now: Micros) -> Micros {
        self.time_until_token(now)
            .div_ceil(SECOND)
            .max(1)
            .saturating_mul(SECOND)
    }

    /// Adds the tokens earned since the last refill (a clock going backwards earns nothing).
    fn refill(&mut self, now: Micros) {
        if now > self.last {
            let earned = (now - self.last) as f64 * self.config.rate_per_sec / SECOND as f64;
            self.tokens = (self.tokens + earned).min(f64::from(self.config.burst));
            self.last = now;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;

    #[test]
    fn burst_then_refill_at_rate() {
        let mut b = TokenBucket::new(TokenBucketConfig::analytics(), 0).unwrap();
        for _ in 0..50 {
            assert!(b.try_take(0));
        }
        assert!(!b.try_take(0));
        assert_eq!(b.refused(), 1);
        // 50/s: one token every 20 ms, fractional in between.
        assert!(!b.try_take(19 * MS));
        assert!(b.try_take(20 * MS));
        assert!((b.tokens(30 * MS) - 0.5).abs() < 1e-9);
    }

    #[test]
    fn a_rate_near_zero_asks_for_the_longest_wait_instead_of_overflowing() {
        // The range excludes only 0 itself, so a link may give a rate of 1e-218 a second.
        let config = TokenBucketConfig {
            rate_per_sec: 1.567e-218,
            burst: 1,
        };
        let mut b = TokenBucket::new(config, 0).unwrap();
        assert!(b.try_take(0));
        assert!(!b.try_take(SECOND));
        assert_eq!(b.retry_after(SECOND), Micros::MAX);
    }

    #[test]
    fn never_more_than_burst() {
        let mut b = TokenBucket::new(TokenBucketConfig::analytics(), 0).unwrap();
        assert_eq!(b.tokens(3_600 * SECOND), 50.0);
    }

    #[test]
    fn over_a_minute_at_most_rate_times_time_plus_burst() {
        let mut b = TokenBucket::new(TokenBucketConfig::analytics(), 0).unwrap();
        // Analytics tries 1,000 times a second for 60 s.
        let granted = (0..60_000u64).filter(|i| b.try_take(i * MS)).count();
        assert!((3_000..=3_050).contains(&granted), "{granted}");
    }

    #[test]
    fn time_until_token_is_enough() {
        let mut b = TokenBucket::new(
            TokenBucketConfig {
                rate_per_sec: 3.0,
                burst: 1,
            },
            0,
        )
        .unwrap();
        assert_eq!(b.time_until_token(0), 0);
        assert!(b.try_take(0));
        let wait = b.time_until_token(0);
        assert_eq!(wait, 333_334);
        assert!(!b.try_take(wait - 1));
        assert!(b.try_take(wait));
    }

    #[test]
    fn retry_after_is_whole_seconds_and_enough() {
        let mut b = TokenBucket::new(
            TokenBucketConfig {
                rate_per_sec: 0.4,
                burst: 1,
            },
            0,
        )
        .unwrap();
        assert!(b.try_take(0));
        // A token every 2.5 s: the header says 3 s, and a call then gets one.
        assert_eq!(b.retry_after(0), 3 * SECOND);
        assert!(b.try_take(3 * SECOND));
        let mut fast = TokenBucket::new(TokenBucketConfig::orders_door(), 0).unwrap();
        assert_eq!(fast.retry_after(0), SECOND, "never less than a second");
    }

    #[test]
    fn clock_going_backwards_earns_nothing() {
        let mut b = TokenBucket::new(
            TokenBucketConfig {
                rate_per_sec: 1.0,
                burst: 1,
            },
            SECOND,
        )
        .unwrap();
        assert!(b.try_take(SECOND));
        assert!(!b.try_take(0));
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |c| TokenBucket::new(c, 0).unwrap_err().field;
        assert_eq!(
            bad(TokenBucketConfig {
                rate_per_sec: 0.0,
                burst: 1
            }),
            "rate_per_sec"
        );
        assert_eq!(
            bad(TokenBucketConfig {
                rate_per_sec: f64::INFINITY,
                burst: 1
            }),
            "rate_per_sec"
        );
        assert_eq!(
            bad(TokenBucketConfig {
                rate_per_sec: 1.0,
                burst: 0
            }),
            "burst"
        );
    }
}
