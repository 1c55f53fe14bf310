//! Latency counts in logarithmic buckets from 1 ms to 10 s, the axis the histograms draw.

use serde::{Deserialize, Serialize};

use super::latency::Micros;

/// Lowest edge of the first bucket: 1 ms. Faster answers land in the first bucket.
pub const LOWEST_MS: f64 = 1.0;
/// Highest edge of the last bucket: 10 s. Slower answers land in the last bucket.
pub const HIGHEST_MS: f64 = 10_000.0;

/// Counts per logarithmic bucket; `per_decade` buckets between each power of ten.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogBuckets {
    per_decade: u32,
    counts: Vec<u64>,
}

impl LogBuckets {
    /// Empty buckets, `per_decade` of them per power of ten (clamped to 1..=50).
    pub fn new(per_decade: u32) -> Self {
        let per_decade = per_decade.clamp(1, 50);
        let decades = (HIGHEST_MS / LOWEST_MS).log10().round() as u32;
        LogBuckets {
            per_decade,
            counts: vec![0; (per_decade * decades) as usize],
        }
    }

    /// Counts one latency.
    pub fn record(&mut self, latency: Micros) {
        let index = self.index_of(latency);
        self.counts[index] += 1;
    }

    /// The bucket a latency falls into.
    pub fn index_of(&self, latency: Micros) -> usize {
        let ms = latency as f64 / 1000.0;
        if ms <= LOWEST_MS {
            return 0;
        }
        let position = (ms / LOWEST_MS).log10() * self.per_decade as f64;
        (position.floor() as usize).min(self.counts.len() - 1)
    }

    /// Lower and upper edge of bucket `index`, in milliseconds.
    pub fn edges_ms(&self, index: usize) -> (f64, f64) {
        let step = 1.0 / self.per_decade as f64;
        let lower = LOWEST_MS * 10f64.powf(index as f64 * step);
        let upper = LOWEST_MS * 10f64.powf((index + 1) as f64 * step);
        (lower, upper)
    }

    /// The count of every bucket, lowest first.
    pub fn counts(&self) -> &[u64] {
        &self.counts
    }

    /// The number of latencies recorded.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_cover_one_millisecond_to_ten_seconds() {
        let buckets = LogBuckets::new(10);
        assert_eq!(buckets.counts().len(), 40);
        let (low, _) = buckets.edges_ms(0);
        let (_, high) = buckets.edges_ms(39);
        assert!((low - 1.0).abs() < 1e-9 && (high - 10_000.0).abs() < 1e-6);
    }

    #[test]
    fn each_latency_lands_in_the_bucket_whose_edges_hold_it() {
        let mut buckets = LogBuckets::new(10);
        for micros in [1_500, 40_000, 300_000, 4_000_000] {
            let index = buckets.index_of(micros);
            let (low, high) = buckets.edges_ms(index);
            let ms = micros as f64 / 1000.0;
            assert!(low <= ms && ms < high, "{ms} ms not in [{low}, {high})");
            buckets.record(micros);
        }
        buckets.record(0);
        buckets.record(60_000_000);
        assert_eq!(buckets.counts()[0], 1);
        assert_eq!(buckets.counts()[39], 1);
        assert_eq!(buckets.total(), 6);
    }
}
