//! Worst-case latency of a timeout-plus-retries configuration: every attempt runs to its
//! timeout and every wait is as long as the backoff allows. Multiply the settings together
//! before shipping them, not during the incident. Also: how retries in several layers multiply.

use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, MS, SECOND};

/// How the wait between attempts grows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Backoff {
    /// `min(cap, base * 2^n)` after attempt `n` (0-based), the ceiling of lesson 000's jittered
    /// wait (base 1 µs..=60 s, cap base..=600 s).
    Exponential {
        /// First wait.
        base: Micros,
        /// Longest wait.
        cap: Micros,
    },
    /// `initial * multiplier^n` after attempt `n` (0-based), as Resilience4j's exponential
    /// backoff (initial 1 µs..=60 s, multiplier 1..=10).
    Multiplier {
        /// First wait.
        initial: Micros,
        /// Growth per attempt.
        multiplier: f64,
    },
}

impl Backoff {
    /// The longest wait after attempt `n` (0-based).
    pub fn max_wait(&self, n: u32) -> Micros {
        match *self {
            Backoff::Exponential { base, cap } => {
                let factor = 1u64.checked_shl(n).unwrap_or(u64::MAX);
                base.saturating_mul(factor).min(cap)
            }
            Backoff::Multiplier {
                initial,
                multiplier,
            } => {
                let exp = i32::try_from(n).unwrap_or(i32::MAX);
                let w = initial as f64 * multiplier.powi(exp);
                // `as` saturates for values beyond u64.
                w.round() as Micros
            }
        }
    }

    fn validate(&self) -> Result<(), ParamError> {
        match *self {
            Backoff::Exponential { base, cap } => {
                ParamError::check_micros("base", base, 1, 60 * SECOND)?;
                ParamError::check_micros("cap", cap, base, 600 * SECOND)
            }
            Backoff::Multiplier {
                initial,
                multiplier,
            } => {
                ParamError::check_micros("initial", initial, 1, 60 * SECOND)?;
                ParamError::check_f64("multiplier", multiplier, 1.0, 10.0, "")
            }
        }
    }
}

/// A timeout-and-retry configuration to analyse.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WorstCaseInput {
    /// Timeout of each attempt (1 µs..=600 s).
    pub per_attempt_timeout: Micros,
    /// Attempts in total (1..=10).
    pub attempts: u32,
    /// Waits between attempts.
    pub backoff: Backoff,
    /// The request's time budget, if any (1 µs..=3600 s).
    pub budget: Option<Micros>,
}

impl WorstCaseInput {
    /// Lesson 000, exercise 1: `ReserveStock` with a 300 ms timeout, 3 attempts, base 50 ms
    /// (cap 200 ms as in the inventory client), inside `POST /orders`' 500 ms budget.
    pub fn lesson_000_reserve_stock() -> Self {
        WorstCaseInput {
            per_attempt_timeout: 300 * MS,
            attempts: 3,
            backoff: Backoff::Exponential {
                base: 50 * MS,
                cap: 200 * MS,
            },
            budget: Some(500 * MS),
        }
    }

    /// Lesson 004 (Northwind): 2 s time limiter, 3 attempts, 200 ms wait doubling, no budget.
    pub fn northwind() -> Self {
        WorstCaseInput {
            per_attempt_timeout: 2 * SECOND,
            attempts: 3,
            backoff: Backoff::Multiplier {
                initial: 200 * MS,
                multiplier: 2.0,
            },
            budget: None,
        }
    }

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_micros(
            "per_attempt_timeout",
            self.per_attempt_timeout,
            1,
            600 * SECOND,
        )?;
        ParamError::check_u64("attempts", self.attempts.into(), 1, 10, "")?;
        self.backoff.validate()?;
        if let Some(b) = self.budget {
            ParamError::check_micros("budget", b, 1, 3_600 * SECOND)?;
        }
        Ok(())
    }

    /// The worst case: every attempt times out, every wait is at its longest. With a budget,
    /// an attempt gets only what is left, and a retry whose wait would reach the deadline (or
    /// that would start with nothing left) is dropped, as the lesson's `retry` does.
    pub fn analyse(&self) -> Result<WorstCase, ParamError> {
        self.validate()?;
        let mut segments = Vec::new();
        let mut elapsed: Micros = 0;
        let left = |elapsed: Micros| self.budget.map(|b| b.saturating_sub(elapsed));
        for index in 0..self.attempts {
            if index > 0 {
                let wait = self.backoff.max_wait(index - 1);
                if left(elapsed).is_some_and(|l| wait >= l) {
                    segments.extend((index..self.attempts).map(|index| Segment::Dropped { index }));
                    break;
                }
                segments.push(Segment::Wait {
                    after: index - 1,
                    wait,
                });
                elapsed = elapsed.saturating_add(wait);
            }
            let timeout = match left(elapsed) {
                Some(0) => {
                    segments.extend((index..self.attempts).map(|index| Segment::Dropped { index }));
                    break;
                }
                Some(l) => l.min(self.per_attempt_timeout),
                None => self.per_attempt_timeout,
            };
            segments.push(Segment::Attempt { index, timeout });
            elapsed = elapsed.saturating_add(timeout);
        }
        Ok(WorstCase {
            total: elapsed,
            segments,
        })
    }
}

/// One piece of the worst-case timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Segment {
    /// Attempt `index` (0-based) runs for its whole `timeout`.
    Attempt {
        /// Which attempt.
        index: u32,
        /// How long it runs.
        timeout: Micros,
    },
    /// The wait after attempt `after`.
    Wait {
        /// The attempt it follows.
        after: u32,
        /// Its length.
        wait: Micros,
    },
    /// Attempt `index` is never made: the budget is spent.
    Dropped {
        /// Which attempt.
        index: u32,
    },
}

/// The analysis: total time to give up, and how it adds up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorstCase {
    /// Time from the first attempt's start to giving up.
    pub total: Micros,
    /// The timeline, in order.
    pub segments: Vec<Segment>,
}

/// Retries stacked in several layers (front end, library, sidecar, gateway...), none with a
/// circuit breaker or a retry budget, towards a dependency that is down.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayerStorm {
    /// Attempts in total made by each layer (1 = no retries; each 1..=10, at most 8 layers).
    pub attempts_per_layer: Vec<u32>,
    /// Requests per second entering the outermost layer (0..=1_000_000).
    pub requests_per_sec: f64,
    /// Timeout of each call to the dependency (1 µs..=600 s).
    pub per_call_timeout: Micros,
}

impl LayerStorm {
    /// Lesson 000, exercise 3: front end (1 + 2), library (3), Envoy (1 + 2); 100 orders/s;
    /// 300 ms per call.
    pub fn lesson_000() -> Self {
        LayerStorm {
            attempts_per_layer: vec![3, 3, 3],
            requests_per_sec: 100.0,
            per_call_timeout: 300 * MS,
        }
    }

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("layers", self.attempts_per_layer.len() as u64, 1, 8, "")?;
        for &a in &self.attempts_per_layer {
            ParamError::check_u64("attempts_per_layer", a.into(), 1, 10, "")?;
        }
        ParamError::check_f64(
            "requests_per_sec",
            self.requests_per_sec,
            0.0,
            1_000_000.0,
            "/s",
        )?;
        ParamError::check_micros("per_call_timeout", self.per_call_timeout, 1, 600 * SECOND)?;
        Ok(())
    }

    /// Calls reaching the dependency for one request: the product of every layer's attempts.
    pub fn calls_per_request(&self) -> u64 {
        self.attempts_per_layer
            .iter()
            .fold(1u64, |acc, &a| acc.saturating_mul(a.into()))
    }

    /// Calls per second reaching the dependency.
    pub fn calls_per_sec(&self) -> f64 {
        self.calls_per_request() as f64 * self.requests_per_sec
    }

    /// Time for one request to give up, counting the calls' timeouts only (waits left out, as
    /// the lesson's estimate does).
    pub fn time_to_give_up(&self) -> Micros {
        self.calls_per_request()
            .saturating_mul(self.per_call_timeout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;

    fn ms(segments: &[Segment]) -> Vec<(char, u64)> {
        segments
            .iter()
            .map(|s| match *s {
                Segment::Attempt { timeout, .. } => ('A', timeout / MS),
                Segment::Wait { wait, .. } => ('W', wait / MS),
                Segment::Dropped { index } => ('D', u64::from(index)),
            })
            .collect()
    }

    /// Lesson 000, exercise 1(a) without a budget: 300 + 50 + 300 + 100 + 300 = 1,050 ms.
    #[test]
    fn exercise_1_without_budget() {
        let input = WorstCaseInput {
            budget: None,
            ..WorstCaseInput::lesson_000_reserve_stock()
        };
        let wc = input.analyse().unwrap();
        assert_eq!(wc.total, 1_050 * MS);
        assert_eq!(
            ms(&wc.segments),
            vec![('A', 300), ('W', 50), ('A', 300), ('W', 100), ('A', 300)]
        );
    }

    /// Lesson 000, exercise 1(a) with the 500 ms budget: never over 500 ms; the second attempt
    /// gets what is left after its wait (150 ms) and the third is dropped.
    #[test]
    fn exercise_1_with_budget() {
        let wc = WorstCaseInput::lesson_000_reserve_stock()
            .analyse()
            .unwrap();
        assert_eq!(wc.total, 500 * MS);
        assert_eq!(
            ms(&wc.segments),
            vec![('A', 300), ('W', 50), ('A', 150), ('D', 2)]
        );
    }

    /// Lesson 000, exercise 1(b): after 280 ms of reservation, Charge's 2 s timeout is cut to
    /// 220 ms by the same budget.
    #[test]
    fn exercise_1_charge_gets_what_is_left() {
        let budget = crate::resilience::TimeBudget::from_duration(0, 500 * MS);
        assert_eq!(budget.timeout_for(2 * SECOND, 280 * MS), Ok(220 * MS));
    }

    /// Lesson 004 (Northwind): 2000 + 200 + 2000 + 400 + 2000 = 6,600 ms.
    #[test]
    fn northwind_worst_case() {
        let wc = WorstCaseInput::northwind().analyse().unwrap();
        assert_eq!(wc.total, 6_600 * MS);
        assert_eq!(
            ms(&wc.segments),
            vec![
                ('A', 2000),
                ('W', 200),
                ('A', 2000),
                ('W', 400),
                ('A', 2000)
            ]
        );
    }

    #[test]
    fn a_budget_ending_exactly_after_an_attempt_drops_the_rest() {
        let input = WorstCaseInput {
            per_attempt_timeout: 100 * MS,
            attempts: 4,
            backoff: Backoff::Exponential {
                base: 10 * MS,
                cap: 10 * MS,
            },
            budget: Some(210 * MS),
        };
        let wc = input.analyse().unwrap();
        // 100 + 10 + 100 = 210, then the 10 ms wait reaches the deadline: attempts 2, 3 dropped.
        assert_eq!(wc.total, 210 * MS);
        assert_eq!(
            ms(&wc.segments),
            vec![('A', 100), ('W', 10), ('A', 100), ('D', 2), ('D', 3)]
        );
    }

    #[test]
    fn a_wait_equal_to_what_is_left_is_not_taken() {
        let input = WorstCaseInput {
            per_attempt_timeout: 100 * MS,
            attempts: 3,
            backoff: Backoff::Exponential {
                base: 50 * MS,
                cap: 50 * MS,
            },
            budget: Some(150 * MS),
        };
        let wc = input.analyse().unwrap();
        assert_eq!(wc.total, 100 * MS);
        assert_eq!(ms(&wc.segments), vec![('A', 100), ('D', 1), ('D', 2)]);
    }

    #[test]
    fn exponential_backoff_is_capped() {
        let b = Backoff::Exponential {
            base: 100 * MS,
            cap: 2 * SECOND,
        };
        assert_eq!(b.max_wait(0), 100 * MS);
        assert_eq!(b.max_wait(4), 1_600 * MS);
        assert_eq!(b.max_wait(5), 2 * SECOND);
        assert_eq!(b.max_wait(99), 2 * SECOND);
        let m = Backoff::Multiplier {
            initial: 200 * MS,
            multiplier: 1.5,
        };
        assert_eq!(m.max_wait(2), 450 * MS);
    }

    /// Lesson 000, exercise 3(a): 3 x 3 x 3 = 27 calls per order, 2,700 calls/s at 100
    /// orders/s, and about 27 x 300 ms = 8.1 s for an order to give up.
    #[test]
    fn exercise_3_retry_multiplication() {
        let storm = LayerStorm::lesson_000();
        storm.validate().unwrap();
        assert_eq!(storm.calls_per_request(), 27);
        assert_eq!(storm.calls_per_sec(), 2_700.0);
        assert_eq!(storm.time_to_give_up(), 8_100 * MS);
        // One layer retrying, the others at zero: 3 calls per order.
        let fixed = LayerStorm {
            attempts_per_layer: vec![1, 3, 1],
            ..storm
        };
        assert_eq!(fixed.calls_per_request(), 3);
    }

    #[test]
    fn bad_params_name_the_field() {
        let base = WorstCaseInput::northwind();
        let bad = |i: WorstCaseInput| i.analyse().unwrap_err().field;
        assert_eq!(
            bad(WorstCaseInput {
                per_attempt_timeout: 0,
                ..base.clone()
            }),
            "per_attempt_timeout"
        );
        assert_eq!(
            bad(WorstCaseInput {
                attempts: 0,
                ..base.clone()
            }),
            "attempts"
        );
        assert_eq!(
            bad(WorstCaseInput {
                budget: Some(0),
                ..base.clone()
            }),
            "budget"
        );
        assert_eq!(
            bad(WorstCaseInput {
                backoff: Backoff::Multiplier {
                    initial: MS,
                    multiplier: 0.5
                },
                ..base.clone()
            }),
            "multiplier"
        );
        assert_eq!(
            bad(WorstCaseInput {
                backoff: Backoff::Exponential { base: 10, cap: 5 },
                ..base
            }),
            "cap"
        );
        let storm = LayerStorm {
            attempts_per_layer: vec![],
            ..LayerStorm::lesson_000()
        };
        assert_eq!(storm.validate().unwrap_err().field, "layers");
        let storm = LayerStorm {
            attempts_per_layer: vec![0],
            ..LayerStorm::lesson_000()
        };
        assert_eq!(storm.validate().unwrap_err().field, "attempts_per_layer");
    }
}
