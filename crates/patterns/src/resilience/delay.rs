//! A wait before acting, fixed or learnt: either a set time, or a percentile of the latencies a
//! caller has seen so far, trusted once it has seen enough of them. The policy is [`Delay`];
//! the mechanism is [`SeenLatencies`], which records what the caller saw and resolves a delay
//! against it.

use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, SECOND};

/// The longest latency the record tracks exactly; longer ones are recorded as this.
const HIGHEST_TRACKED: Micros = 3_600 * SECOND;

/// How long to wait.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Delay {
    /// A fixed time (within [`Delay::FIXED`]).
    Fixed(Micros),
    /// A percentile of the latencies seen so far.
    Percentile {
        /// Which percentile (greater than 0, at most 100).
        percentile: f64,
        /// Samples needed before the percentile is trusted (1..=1_000_000).
        min_samples: u64,
    },
}

impl Delay {
    /// A fixed delay's range: 1 µs to 60 s.
    pub const FIXED: (Micros, Micros) = (1, 60 * SECOND);

    /// Samples a percentile waits for before it is trusted, unless told otherwise (lesson
    /// 000's).
    pub const MIN_SAMPLES: u64 = 100;

    /// At `percentile` of the latencies seen, trusted after [`Delay::MIN_SAMPLES`].
    pub fn percentile(percentile: f64) -> Delay {
        Delay::Percentile {
            percentile,
            min_samples: Self::MIN_SAMPLES,
        }
    }

    /// Checks the delay against its range: a fixed time within [`Delay::FIXED`], or a
    /// percentile above 0 and at most 100, trusted after 1..=1,000,000 samples.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            Delay::Fixed(d) => {
                let (min, max) = Self::FIXED;
                ParamError::check_micros("delay", d, min, max)
            }
            Delay::Percentile {
                percentile,
                min_samples,
            } => {
                if !(percentile.is_finite() && percentile > 0.0 && percentile <= 100.0) {
                    return Err(ParamError::new(
                        "percentile",
                        "0 (exclusive)..=100",
                        percentile.to_string(),
                    ));
                }
                ParamError::check_u64("min_samples", min_samples, 1, 1_000_000, "")
            }
        }
    }
}

/// The latencies a caller has seen, which a percentile [`Delay`] is read from.
#[derive(Debug, Clone)]
pub struct SeenLatencies {
    observed: Histogram<u64>,
}

impl SeenLatencies {
    /// None seen yet.
    pub fn new() -> Result<Self, ParamError> {
        let observed = Histogram::new_with_bounds(1, HIGHEST_TRACKED, 3).map_err(|e| {
            ParamError::new(
                "histogram",
                "1..=3600 s at 3 significant figures",
                format!("{e:?}"),
            )
        })?;
        Ok(SeenLatencies { observed })
    }

    /// Records one latency (values above an hour are recorded as an hour).
    pub fn record(&mut self, latency: Micros) {
        self.observed.saturating_record(latency);
    }

    /// Latencies seen so far.
    pub fn len(&self) -> u64 {
        self.observed.len()
    }

    /// True before the first latency.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What `delay` is now: the fixed time, or the percentile of what was seen once there
    /// are enough samples (`None` before that).
    pub fn resolve(&self, delay: Delay) -> Option<Micros> {
        match delay {
            Delay::Fixed(d) => Some(d),
            Delay::Percentile {
                percentile,
                min_samples,
            } => (self.len() >= min_samples).then(|| self.observed.value_at_percentile(percentile)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;

    #[test]
    fn a_percentile_is_trusted_only_after_its_samples() {
        let mut seen = SeenLatencies::new().unwrap();
        let p50 = Delay::Percentile {
            percentile: 50.0,
            min_samples: 3,
        };
        assert_eq!(seen.resolve(Delay::Fixed(80 * MS)), Some(80 * MS));
        for ms in [10, 20] {
            seen.record(ms * MS);
        }
        assert_eq!(seen.resolve(p50), None);
        seen.record(30 * MS);
        let resolved = seen.resolve(p50).unwrap();
        assert!((19 * MS..=21 * MS).contains(&resolved), "{resolved}");
    }

    #[test]
    fn an_out_of_range_delay_names_its_field() {
        let field = |d: Delay| d.validate().unwrap_err().field;
        assert_eq!(field(Delay::Fixed(0)), "delay");
        assert_eq!(field(Delay::Fixed(Delay::FIXED.1 + 1)), "delay");
        assert_eq!(field(Delay::percentile(0.0)), "percentile");
        assert_eq!(field(Delay::percentile(f64::NAN)), "percentile");
        let unsampled = Delay::Percentile {
            percentile: 95.0,
            min_samples: 0,
        };
        assert_eq!(field(unsampled), "min_samples");
        assert!(Delay::percentile(100.0).validate().is_ok());
        assert!(Delay::Fixed(Delay::FIXED.1).validate().is_ok());
    }
}
