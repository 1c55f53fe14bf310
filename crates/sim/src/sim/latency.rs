//! How long a dependency takes to answer: a fixed time, or a lognormal spread fitted to a
//! median and a 99th percentile, as latency is usually quoted.

use rand::Rng;
use rand_distr::{Distribution, LogNormal};
use serde::{Deserialize, Serialize};

use crate::resilience::ParamError;

/// Microseconds of virtual time.
pub type Micros = u64;

/// z-score of the 99th percentile of a standard normal distribution.
const Z_P99: f64 = 2.326_347_874;

/// Shortest and longest latency a model may describe: 1 µs to 1 hour.
const MAX_LATENCY: Micros = 3_600_000_000;

/// A latency distribution for one dependency.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LatencyModel {
    /// Every call takes exactly this long.
    Fixed { micros: Micros },
    /// Lognormal with the given median and 99th percentile (`p99 >= p50`).
    LogNormal { p50: Micros, p99: Micros },
}

impl LatencyModel {
    /// Checks the model's parameters, naming the field and its range when one is off.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            LatencyModel::Fixed { micros } => {
                ParamError::check_micros("latency", micros, 0, MAX_LATENCY)
            }
            LatencyModel::LogNormal { p50, p99 } => {
                ParamError::check_micros("latency_p50", p50, 1, MAX_LATENCY)?;
                ParamError::check_micros("latency_p99", p99, p50, MAX_LATENCY)
            }
        }
    }

    /// Draws one latency.
    pub fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> Micros {
        match *self {
            LatencyModel::Fixed { micros } => micros,
            LatencyModel::LogNormal { p50, p99 } => {
                let mu = (p50 as f64).ln();
                let sigma = ((p99 as f64).ln() - mu) / Z_P99;
                if sigma <= 0.0 {
                    return p50;
                }
                match LogNormal::new(mu, sigma) {
                    Ok(dist) => (dist.sample(rng).round() as Micros).min(MAX_LATENCY),
                    Err(_) => p50,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn quantile(mut xs: Vec<Micros>, q: f64) -> Micros {
        xs.sort_unstable();
        xs[((xs.len() as f64) * q) as usize]
    }

    #[test]
    fn lognormal_matches_its_median_and_p99() {
        let model = LatencyModel::LogNormal {
            p50: 40_000,
            p99: 120_000,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let xs: Vec<Micros> = (0..200_000).map(|_| model.sample(&mut rng)).collect();
        let p50 = quantile(xs.clone(), 0.5) as f64;
        let p99 = quantile(xs, 0.99) as f64;
        assert!((p50 / 40_000.0 - 1.0).abs() < 0.02, "p50 {p50}");
        assert!((p99 / 120_000.0 - 1.0).abs() < 0.04, "p99 {p99}");
    }

    #[test]
    fn fixed_is_fixed() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let model = LatencyModel::Fixed { micros: 4_000_000 };
        assert!((0..100).all(|_| model.sample(&mut rng) == 4_000_000));
    }

    #[test]
    fn p99_below_p50_is_rejected_by_name() {
        let err = LatencyModel::LogNormal { p50: 50, p99: 10 }
            .validate()
            .unwrap_err();
        assert_eq!(err.field, "latency_p99");
    }
}

/// A sample of a latency model, bucketed for a histogram, with the percentiles the lesson
/// prints (p50 = sorted[n/2], p99 = sorted[floor(n * 0.99)]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LatencyPreview {
    /// The sample in log buckets from 1 ms to 10 s.
    pub buckets: super::histogram::LogBuckets,
    /// Median of the sample.
    pub p50: Micros,
    /// 99th percentile of the sample.
    pub p99: Micros,
}

/// Draws `count` latencies (at least one) from `model` with a stream seeded by `seed`.
pub fn preview(model: &LatencyModel, count: usize, seed: u64) -> LatencyPreview {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut sample: Vec<Micros> = (0..count.max(1)).map(|_| model.sample(&mut rng)).collect();
    sample.sort_unstable();
    let mut buckets = super::histogram::LogBuckets::new(10);
    sample.iter().for_each(|&latency| buckets.record(latency));
    let n = sample.len();
    LatencyPreview {
        buckets,
        p50: sample[n / 2],
        p99: sample[((n as f64) * 0.99) as usize],
    }
}

#[cfg(test)]
mod preview_tests {
    use super::*;

    #[test]
    fn preview_is_deterministic_for_a_seed_and_moves_with_the_p99() {
        let model = LatencyModel::LogNormal {
            p50: 40_000,
            p99: 120_000,
        };
        assert_eq!(preview(&model, 2_000, 3), preview(&model, 2_000, 3));
        let wider = LatencyModel::LogNormal {
            p50: 40_000,
            p99: 1_200_000,
        };
        let narrow = preview(&model, 2_000, 3);
        let wide = preview(&wider, 2_000, 3);
        assert!(wide.p99 > 5 * narrow.p99);
        assert_ne!(narrow.buckets, wide.buckets);
        assert_eq!(wide.buckets.total(), 2_000);
    }
}
