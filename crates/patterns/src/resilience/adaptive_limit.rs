//! An adaptive concurrency limit: how many calls may be in flight to a dependency at once,
//! found by the calls themselves rather than set by hand. Additive increase, multiplicative
//! decrease (AIMD) on latency, as Netflix's concurrency-limits library does it: a call that
//! fails or takes longer than `slow_after` cuts the limit by `backoff`; a call that comes back
//! in time while the limit was at least half used raises it by one. A call finding the limit
//! used up is refused at once, so the caller's worker is free again instead of waiting on a
//! dependency that has slowed down.

use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, MS, SECOND};

/// The limit's parameters (the policy).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AdaptiveLimitConfig {
    /// The limit a run starts with.
    pub initial: u32,
    /// The limit never falls below this.
    pub min: u32,
    /// The limit never rises above this.
    pub max: u32,
    /// The factor a slow or failed call multiplies the limit by (0.5..1, exclusive of 1).
    pub backoff: f64,
    /// A call that takes longer than this counts as a sign of overload, like a failure (µs).
    pub slow_after: Micros,
}

/// The range of [`AdaptiveLimitConfig::initial`], `min` and `max`: calls in flight.
pub const LIMIT_RANGE: (u64, u64) = (1, 10_000);
/// The range of [`AdaptiveLimitConfig::backoff`] (its upper end excluded).
pub const BACKOFF_RANGE: (f64, f64) = (0.5, 1.0);
/// The range of [`AdaptiveLimitConfig::slow_after`], µs.
pub const SLOW_AFTER_RANGE: (Micros, Micros) = (MS, 60 * SECOND);

impl AdaptiveLimitConfig {
    /// The limit as the playground switches it on for the Saturday cascade. Netflix's AIMD
    /// starts at 20 and backs off by 0.9; its floor is ours (2, so a slow inventory keeps at
    /// most two of `orders`' workers per pod busy), and a call slower than 300 ms (the lesson's
    /// timeout) counts as overload, where the library's default only counts failures.
    pub fn saturday() -> Self {
        AdaptiveLimitConfig {
            initial: 20,
            min: 2,
            max: 200,
            backoff: 0.9,
            slow_after: 300 * MS,
        }
    }

    /// Checks every field against its range, and that `min <= initial <= max`.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (lo, hi) = LIMIT_RANGE;
        ParamError::check_u64("min", self.min.into(), lo, hi, "calls")?;
        ParamError::check_u64("max", self.max.into(), lo, hi, "calls")?;
        ParamError::check_u64("initial", self.initial.into(), lo, hi, "calls")?;
        if !(self.min <= self.initial && self.initial <= self.max) {
            return Err(ParamError::new(
                "initial",
                format!("min ({})..=max ({})", self.min, self.max),
                self.initial.to_string(),
            ));
        }
        let (b_lo, b_hi) = BACKOFF_RANGE;
        if !(self.backoff.is_finite() && self.backoff >= b_lo && self.backoff < b_hi) {
            return Err(ParamError::new(
                "backoff",
                format!("{b_lo}..{b_hi} (1 excluded)"),
                self.backoff.to_string(),
            ));
        }
        let (s_lo, s_hi) = SLOW_AFTER_RANGE;
        ParamError::check_micros("slow_after", self.slow_after, s_lo, s_hi)
    }
}

impl Default for AdaptiveLimitConfig {
    fn default() -> Self {
        Self::saturday()
    }
}

/// A change of the limit, at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LimitChange {
    /// When, µs.
    pub at: Micros,
    /// The new limit.
    pub limit: u32,
}

/// How a call that was let in ended, as the limit learns from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sample {
    /// It came back after this long (µs), answered or failed by the dependency's own word.
    Answered(Micros),
    /// It failed (timed out, unavailable): a sign of overload whatever it took.
    Dropped,
    /// It never reached the dependency (a breaker refused it): nothing to learn.
    Ignored,
}

/// The limit's state (the mechanism): the limit, the calls in flight, and its history.
#[derive(Debug, Clone)]
pub struct AdaptiveLimit {
    config: AdaptiveLimitConfig,
    limit: u32,
    in_flight: u32,
    refused: u64,
    lowest: u32,
    changes: Vec<LimitChange>,
}

/// Most changes kept for the history (a long run keeps its first ones).
const MAX_CHANGES: usize = 10_000;

impl AdaptiveLimit {
    /// A limit at its initial value, nothing in flight.
    pub fn new(config: AdaptiveLimitConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(AdaptiveLimit {
            limit: config.initial,
            lowest: config.initial,
            config,
            in_flight: 0,
            refused: 0,
            changes: Vec::new(),
        })
    }

    /// Lets a call in when the limit is not used up: `Some(in_flight)`, the calls in flight
    /// with it, which [`AdaptiveLimit::release`] needs back; `None`: refused.
    pub fn try_acquire(&mut self) -> Option<u32> {
        if self.in_flight >= self.limit {
            self.refused += 1;
            return None;
        }
        self.in_flight += 1;
        Some(self.in_flight)
    }

    /// A call let in with `in_flight` others (its own count included) is over at `now`: the
    /// limit learns from `sample`.
    pub fn release(&mut self, now: Micros, in_flight: u32, sample: Sample) {
        self.in_flight = self.in_flight.saturating_sub(1);
        let overloaded = match sample {
            Sample::Ignored => return,
            Sample::Dropped => true,
            Sample::Answered(took) => took > self.config.slow_after,
        };
        let next = if overloaded {
            (f64::from(self.limit) * self.config.backoff) as u32
        } else if in_flight.saturating_mul(2) >= self.limit {
            self.limit.saturating_add(1)
        } else {
            self.limit
        };
        let next = next.clamp(self.config.min, self.config.max);
        if next != self.limit {
            self.limit = next;
            self.lowest = self.lowest.min(next);
            if self.changes.len() < MAX_CHANGES {
                self.changes.push(LimitChange {
                    at: now,
                    limit: next,
                });
            }
        }
    }

    /// The limit now.
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// Calls in flight now.
    pub fn in_flight(&self) -> u32 {
        self.in_flight
    }

    /// Calls refused so far.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// The lowest the limit has been.
    pub fn lowest(&self) -> u32 {
        self.lowest
    }

    /// Its changes, in order.
    pub fn changes(&self) -> &[LimitChange] {
        &self.changes
    }

    /// Its parameters.
    pub fn config(&self) -> &AdaptiveLimitConfig {
        &self.config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(initial: u32, min: u32, max: u32) -> AdaptiveLimit {
        AdaptiveLimit::new(AdaptiveLimitConfig {
            initial,
            min,
            max,
            ..AdaptiveLimitConfig::saturday()
        })
        .unwrap()
    }

    #[test]
    fn a_call_past_the_limit_is_refused_and_a_release_lets_the_next_in() {
        let mut l = limit(2, 1, 10);
        assert_eq!(l.try_acquire(), Some(1));
        assert_eq!(l.try_acquire(), Some(2));
        assert_eq!(l.try_acquire(), None);
        assert_eq!(l.refused(), 1);
        l.release(10, 2, Sample::Ignored);
        assert_eq!(l.try_acquire(), Some(2));
    }

    #[test]
    fn slow_or_failed_calls_cut_the_limit_by_the_backoff_down_to_its_floor() {
        let mut l = limit(20, 2, 200);
        let mut seen = vec![];
        for i in 0..30 {
            let n = l.try_acquire().unwrap_or(1);
            let sample = if i % 2 == 0 {
                Sample::Dropped
            } else {
                Sample::Answered(4 * SECOND)
            };
            l.release(i * MS, n, sample);
            seen.push(l.limit());
        }
        assert_eq!(&seen[..5], &[18, 16, 14, 12, 10]);
        assert_eq!(l.limit(), 2);
        assert_eq!(l.lowest(), 2);
        assert_eq!(l.changes().first(), Some(&LimitChange { at: 0, limit: 18 }));
    }

    #[test]
    fn the_limit_grows_by_one_only_while_at_least_half_of_it_is_used() {
        let mut l = limit(10, 1, 11);
        l.release(0, 4, Sample::Answered(40 * MS));
        assert_eq!(
            l.limit(),
            10,
            "4 of 10 in flight: no sign that more are needed"
        );
        l.release(1, 5, Sample::Answered(40 * MS));
        assert_eq!(l.limit(), 11);
        l.release(2, 11, Sample::Answered(40 * MS));
        assert_eq!(l.limit(), 11, "never past its max");
    }

    #[test]
    fn bad_parameters_name_their_field() {
        let bad = |c: AdaptiveLimitConfig| AdaptiveLimit::new(c).unwrap_err().field;
        let base = AdaptiveLimitConfig::saturday();
        assert_eq!(
            bad(AdaptiveLimitConfig {
                backoff: 1.0,
                ..base.clone()
            }),
            "backoff"
        );
        assert_eq!(
            bad(AdaptiveLimitConfig {
                initial: 1,
                ..base.clone()
            }),
            "initial"
        );
        assert_eq!(
            bad(AdaptiveLimitConfig {
                slow_after: 0,
                ..base
            }),
            "slow_after"
        );
    }
}
