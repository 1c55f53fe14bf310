//! What a run reports about load: a dependency's servers when it has a capacity (throughput,
//! goodput, queue and slots), and how long the platform took to recover once its trigger
//! ended.

use super::latency::Micros;
use super::trace::{Bucket, BUCKET};
pub use super::trace::{DependencyLoad, Recovery};

impl Recovery {
    /// Seconds in a row that count as recovered.
    pub const HEALTHY_SECONDS: u64 = 10;
    /// The share of a second's arrivals that must end well.
    pub const HEALTHY_SHARE: f64 = 0.9;

    /// Finds the recovery in a run's series: `good[i]` is how many of bucket `i`'s arrivals
    /// ended ok or with a fallback; `trigger_end` is `None` when the trigger never ends.
    /// Candidate moments are bucket starts at or after the trigger's end, and the seconds
    /// checked must end by `arrivals_end`.
    pub fn find(
        series: &[Bucket],
        good: &[u64],
        trigger_end: Option<Micros>,
        arrivals_end: Micros,
    ) -> Recovery {
        let Some(trigger_end) = trigger_end else {
            return Recovery {
                trigger_end: Micros::MAX,
                recovered_after: None,
            };
        };
        let per_second = (1_000_000 / BUCKET) as usize;
        let span = per_second * Self::HEALTHY_SECONDS as usize;
        let first = trigger_end.div_ceil(BUCKET) as usize;
        let last_end = (arrivals_end / BUCKET) as usize;
        let healthy_second = |start: usize| {
            let arrived: u64 = (start..start + per_second)
                .map(|i| series.get(i).map_or(0, |b| b.arrivals))
                .sum();
            let ended_well: u64 = (start..start + per_second)
                .map(|i| good.get(i).copied().unwrap_or(0))
                .sum();
            ended_well as f64 >= Self::HEALTHY_SHARE * arrived as f64
        };
        let recovered_at = (first..)
            .take_while(|start| start + span <= last_end)
            .find(|&start| {
                (0..Self::HEALTHY_SECONDS as usize).all(|s| healthy_second(start + s * per_second))
            });
        Recovery {
            trigger_end,
            recovered_after: recovered_at
                .map(|i| (i as Micros * BUCKET).saturating_sub(trigger_end)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(arrivals: u64, buckets: usize) -> Vec<Bucket> {
        vec![
            Bucket {
                arrivals,
                ..Bucket::default()
            };
            buckets
        ]
    }

    #[test]
    fn recovery_is_the_start_of_ten_healthy_seconds_after_the_trigger() {
        let s = series(10, 300);
        let mut good = vec![10; 300];
        // Bad until 8.0 s; the trigger ended at 5 s. From 7.9 s each second holds at most one
        // bad bucket of ten: 90% of its arrivals ended well.
        good[..80].fill(0);
        let r = Recovery::find(&s, &good, Some(5_000_000), 30_000_000);
        assert_eq!(r.recovered_after, Some(2_900_000));
        // A half-failed second inside the ten restarts the count: from 15.8 s on, each second
        // holds at most two of its buckets (90% of that second ended well).
        good[150..160].fill(5);
        let r = Recovery::find(&s, &good, Some(5_000_000), 30_000_000);
        assert_eq!(r.recovered_after, Some(10_800_000));
    }

    #[test]
    fn no_recovery_when_ten_healthy_seconds_do_not_fit_before_arrivals_stop() {
        let s = series(10, 120);
        let mut good = vec![10; 120];
        good[..30].fill(0);
        assert_eq!(
            Recovery::find(&s, &good, Some(1_000_000), 12_000_000).recovered_after,
            None
        );
        assert_eq!(
            Recovery::find(&s, &good, None, 12_000_000).recovered_after,
            None
        );
        good[..30].fill(9);
        assert_eq!(
            Recovery::find(&s, &good, Some(1_000_000), 12_000_000).recovered_after,
            Some(0)
        );
    }
}
