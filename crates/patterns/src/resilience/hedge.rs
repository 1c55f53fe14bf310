//! Hedged requests: for an idempotent read with a long latency tail, send a second copy (to
//! another replica) if the first has not answered by the p95, and keep whichever answers first.
//! The p99 drops for roughly 5% more load. Never for writes.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Delay, Micros, ParamError, SeenLatencies, MS};

/// A hedging policy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HedgePolicy {
    /// When each hedge goes out: a fixed time, or a percentile of the latencies seen.
    pub delay: Delay,
    /// Extra copies at most (1..=8; lesson: 1). The k-th goes out at k times the delay.
    pub max_hedges: u32,
}

impl HedgePolicy {
    /// Lesson 000 (`GetStock`): one extra copy at the observed p95, trusted after 100 samples.
    pub fn lesson_000() -> Self {
        HedgePolicy {
            delay: Delay::percentile(95.0),
            max_hedges: 1,
        }
    }

    /// Lesson 000 with the p95 it quotes fixed in advance: one extra copy after 80 ms.
    pub fn lesson_000_fixed() -> Self {
        HedgePolicy {
            delay: Delay::Fixed(80 * MS),
            max_hedges: 1,
        }
    }

    /// `max_hedges`' range, which `validate` and the parameter rows share.
    pub const MAX_HEDGES: (u64, u64) = (1, 8);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.delay.validate()?;
        let (min, max) = Self::MAX_HEDGES;
        ParamError::check_u64("max_hedges", self.max_hedges.into(), min, max, "")?;
        Ok(())
    }
}

impl Default for HedgePolicy {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// Hedging was asked for an operation with side effects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("hedging refused: the operation is not idempotent")]
pub struct NotIdempotent;

/// When each copy of one request goes out, relative to the first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HedgePlan {
    /// Send offsets: `0` for the original, then one per hedge. A hedge is only sent if no copy
    /// has answered by its offset.
    pub offsets: Vec<Micros>,
}

/// How a hedged request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HedgeOutcome {
    /// Index of the copy whose answer was used (0 = the original).
    pub winner: usize,
    /// Time from the first send to the first answer.
    pub latency: Micros,
    /// Copies actually sent (1 = no hedge was needed).
    pub copies_sent: usize,
}

impl HedgePlan {
    /// Plays "first answer wins": copy `k` would take `latencies[k]` once sent. Copies beyond
    /// the shorter of the two lists are not sent. Ties go to the earlier copy. `None` when no
    /// latency is given.
    pub fn resolve(&self, latencies: &[Micros]) -> Option<HedgeOutcome> {
        let mut plan = self.clone();
        plan.offsets.truncate(latencies.len());
        plan.resolve_with(|k, _| latencies[k])
    }

    /// Plays "first answer wins" asking `latency_of(k, offset)` for the latency of copy `k`
    /// only when that copy is actually sent (no earlier copy answered by its offset), in the
    /// order of sending. A simulator draws each copy's latency there, so a copy that is never
    /// sent draws nothing. `None` when the plan holds no copy.
    pub fn resolve_with(
        &self,
        mut latency_of: impl FnMut(usize, Micros) -> Micros,
    ) -> Option<HedgeOutcome> {
        let mut best: Option<(usize, Micros)> = None;
        let mut sent = 0;
        for (k, &offset) in self.offsets.iter().enumerate() {
            if best.is_some_and(|(_, done)| done <= offset) {
                break;
            }
            sent += 1;
            let done = offset.saturating_add(latency_of(k, offset));
            if best.is_none_or(|(_, b)| done < b) {
                best = Some((k, done));
            }
        }
        best.map(|(winner, latency)| HedgeOutcome {
            winner,
            latency,
            copies_sent: sent,
        })
    }

    /// The plan without the copies due at or after `limit` (the caller stops waiting then, so
    /// they would never be sent). The original, at offset 0, always stays.
    pub fn before(&self, limit: Micros) -> HedgePlan {
        let offsets = self
            .offsets
            .iter()
            .enumerate()
            .filter(|&(k, &offset)| k == 0 || offset < limit)
            .map(|(_, &offset)| offset)
            .collect();
        HedgePlan { offsets }
    }
}

/// A hedging policy with the latencies it has observed.
#[derive(Debug, Clone)]
pub struct Hedger {
    policy: HedgePolicy,
    observed: SeenLatencies,
}

impl Hedger {
    /// A hedger with no observations yet.
    pub fn new(policy: HedgePolicy) -> Result<Self, ParamError> {
        policy.validate()?;
        let observed = SeenLatencies::new()?;
        Ok(Hedger { policy, observed })
    }

    /// The policy in force.
    pub fn policy(&self) -> &HedgePolicy {
        &self.policy
    }

    /// Records one observed latency (values above an hour are recorded as an hour).
    pub fn record(&mut self, latency: Micros) {
        self.observed.record(latency);
    }

    /// Latencies observed so far.
    pub fn samples(&self) -> u64 {
        self.observed.len()
    }

    /// The hedge delay now: the fixed one, or the percentile of what has been observed once
    /// there are enough samples (`None` before that: do not hedge yet).
    pub fn delay(&self) -> Option<Micros> {
        self.observed.resolve(self.policy.delay)
    }

    /// The send plan for one request; refused for operations that are not idempotent. With no
    /// delay known yet, the plan holds the original only.
    pub fn plan(&self, idempotent: bool) -> Result<HedgePlan, NotIdempotent> {
        if !idempotent {
            return Err(NotIdempotent);
        }
        let mut offsets = vec![0];
        if let Some(d) = self.delay() {
            offsets.extend((1..=u64::from(self.policy.max_hedges)).map(|k| d.saturating_mul(k)));
        }
        Ok(HedgePlan { offsets })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::SECOND;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn writes_are_never_hedged() {
        let h = Hedger::new(HedgePolicy::lesson_000_fixed()).unwrap();
        assert_eq!(h.plan(false), Err(NotIdempotent));
        assert_eq!(h.plan(true).unwrap().offsets, vec![0, 80 * MS]);
    }

    #[test]
    fn percentile_waits_for_enough_samples() {
        let mut h = Hedger::new(HedgePolicy::lesson_000()).unwrap();
        for i in 1..=99 {
            h.record(i * MS);
        }
        assert_eq!(h.delay(), None);
        assert_eq!(h.plan(true).unwrap().offsets, vec![0]);
        h.record(100 * MS);
        let d = h.delay().unwrap();
        assert!(d.abs_diff(95 * MS) <= 95 * MS / 1000, "{d}");
    }

    #[test]
    fn first_answer_wins() {
        let plan = HedgePlan {
            offsets: vec![0, 80 * MS, 160 * MS],
        };
        // The original answers before the hedge is due: one copy.
        assert_eq!(
            plan.resolve(&[50 * MS, 10 * MS, 10 * MS]),
            Some(HedgeOutcome {
                winner: 0,
                latency: 50 * MS,
                copies_sent: 1
            })
        );
        // Answering exactly at the hedge's offset: the hedge is not sent.
        assert_eq!(plan.resolve(&[80 * MS, 1, 1]).unwrap().copies_sent, 1);
        // The original is stuck; the hedge answers at 80 + 30.
        assert_eq!(
            plan.resolve(&[2 * SECOND, 30 * MS, 10 * MS]),
            Some(HedgeOutcome {
                winner: 1,
                latency: 110 * MS,
                copies_sent: 2
            })
        );
        // Both slow: the third copy goes out too and wins.
        assert_eq!(
            plan.resolve(&[2 * SECOND, 2 * SECOND, 5 * MS]),
            Some(HedgeOutcome {
                winner: 2,
                latency: 165 * MS,
                copies_sent: 3
            })
        );
        assert_eq!(plan.resolve(&[]), None);
    }

    #[test]
    fn lazy_resolution_asks_only_for_copies_sent() {
        let plan = HedgePlan {
            offsets: vec![0, 80 * MS, 160 * MS],
        };
        let mut asked = Vec::new();
        let out = plan.resolve_with(|k, offset| {
            asked.push((k, offset));
            [50 * MS, 10 * MS, 10 * MS][k]
        });
        assert_eq!(asked, vec![(0, 0)]);
        assert_eq!(out.unwrap().copies_sent, 1);
        asked.clear();
        let out = plan.resolve_with(|k, offset| {
            asked.push((k, offset));
            [2 * SECOND, 30 * MS, 10 * MS][k]
        });
        // The hedge answers at 110 ms, before the third copy is due at 160 ms.
        assert_eq!(asked, vec![(0, 0), (1, 80 * MS)]);
        assert_eq!(out.unwrap().winner, 1);
        // The same answers as `resolve` over whole lists.
        for lat in [[5, 500, 1], [500, 500, 1], [90_000, 1, 1], [0, 0, 0]] {
            assert_eq!(plan.resolve_with(|k, _| lat[k]), plan.resolve(&lat));
        }
        assert_eq!(HedgePlan { offsets: vec![] }.resolve_with(|_, _| 1), None);
    }

    #[test]
    fn copies_due_at_or_after_the_limit_are_dropped() {
        let plan = HedgePlan {
            offsets: vec![0, 80 * MS, 160 * MS],
        };
        assert_eq!(plan.before(160 * MS).offsets, vec![0, 80 * MS]);
        assert_eq!(plan.before(161 * MS), plan);
        assert_eq!(plan.before(80 * MS).offsets, vec![0]);
        assert_eq!(plan.before(0).offsets, vec![0]);
    }

    /// Lesson 000: a second `GetStock` at the p95 (80 ms) costs about 5% more load and cuts the
    /// tail. Latencies: 95% between 20 and 80 ms, 5% between 200 ms and 2 s.
    #[test]
    fn hedging_at_p95_costs_about_five_percent_and_cuts_the_tail() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let draw = |rng: &mut ChaCha8Rng| {
            if rng.gen_bool(0.95) {
                rng.gen_range(20 * MS..=80 * MS)
            } else {
                rng.gen_range(200 * MS..=2 * SECOND)
            }
        };
        let mut h = Hedger::new(HedgePolicy::lesson_000()).unwrap();
        for _ in 0..10_000 {
            let l = draw(&mut rng);
            h.record(l);
        }
        let delay = h.delay().unwrap();
        assert!(delay.abs_diff(80 * MS) <= 80 * MS / 100, "p95 {delay}");

        let n = 10_000;
        let (mut plain, mut hedged, mut extra) = (Vec::new(), Vec::new(), 0);
        for _ in 0..n {
            let copies = [draw(&mut rng), draw(&mut rng)];
            plain.push(copies[0]);
            let out = h.plan(true).unwrap().resolve(&copies).unwrap();
            hedged.push(out.latency);
            extra += out.copies_sent - 1;
        }
        let load = extra as f64 / n as f64;
        assert!((0.04..=0.06).contains(&load), "extra load {load}");
        plain.sort_unstable();
        hedged.sort_unstable();
        let p99 = |v: &[Micros]| v[v.len() * 99 / 100];
        assert!(p99(&plain) > 500 * MS, "plain p99 {}", p99(&plain));
        assert!(p99(&hedged) <= 170 * MS, "hedged p99 {}", p99(&hedged));
    }

    #[test]
    fn huge_latencies_saturate() {
        let mut h = Hedger::new(HedgePolicy {
            delay: Delay::Percentile {
                percentile: 100.0,
                min_samples: 1,
            },
            max_hedges: 2,
        })
        .unwrap();
        h.record(u64::MAX);
        h.record(0);
        assert_eq!(h.samples(), 2);
        let d = h.delay().unwrap();
        assert!(d >= 3_600 * SECOND, "an hour, the longest tracked: {d}");
        assert_eq!(h.plan(true).unwrap().offsets.len(), 3);
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |p: HedgePolicy| Hedger::new(p).unwrap_err().field;
        let pct = |percentile, min_samples| HedgePolicy {
            delay: Delay::Percentile {
                percentile,
                min_samples,
            },
            max_hedges: 1,
        };
        assert_eq!(bad(pct(0.0, 10)), "percentile");
        assert_eq!(bad(pct(100.5, 10)), "percentile");
        assert_eq!(bad(pct(f64::NAN, 10)), "percentile");
        assert_eq!(bad(pct(95.0, 0)), "min_samples");
        assert_eq!(
            bad(HedgePolicy {
                delay: Delay::Fixed(0),
                max_hedges: 1
            }),
            "delay"
        );
        assert_eq!(
            bad(HedgePolicy {
                max_hedges: 0,
                ..HedgePolicy::lesson_000()
            }),
            "max_hedges"
        );
        assert_eq!(
            bad(HedgePolicy {
                max_hedges: 9,
                ..HedgePolicy::lesson_000()
            }),
            "max_hedges"
        );
    }
}
