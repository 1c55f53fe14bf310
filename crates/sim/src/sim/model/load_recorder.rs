//! The recorder's part for a dependency with a capacity: what its servers did, bucket by
//! bucket, as [`DependencyLoad`] reports it.

use crate::sim::latency::Micros;
use crate::sim::load::DependencyLoad;
use crate::sim::trace::{LessonPercentiles, BUCKET};

use super::MAX_BUCKETS;

/// One dependency's load as it accumulates.
pub(super) struct LoadTally {
    load: DependencyLoad,
    wait: LessonPercentiles,
    gauges_filled: usize,
}

fn bump(series: &mut Vec<u64>, at: Micros) {
    let idx = usize::try_from(at / BUCKET).unwrap_or(usize::MAX);
    if idx >= MAX_BUCKETS {
        return;
    }
    if series.len() <= idx {
        series.resize(idx + 1, 0);
    }
    series[idx] += 1;
}

impl LoadTally {
    pub fn new(slots: u32, hot_items: bool, cache: bool) -> Self {
        LoadTally {
            load: DependencyLoad {
                slots,
                conflicts: hot_items.then_some(0),
                cached: cache.then_some(0),
                ..DependencyLoad::default()
            },
            wait: LessonPercentiles::default(),
            gauges_filled: 0,
        }
    }

    /// A slot finished a call at `now`; `waited_for` when its caller still waited, `late` when
    /// past the caller's deadline.
    pub fn served(&mut self, now: Micros, waited_for: bool, late: bool) {
        self.load.served += 1;
        self.load.served_late += u64::from(late);
        bump(&mut self.load.served_per_bucket, now);
        if waited_for {
            self.load.goodput += 1;
            bump(&mut self.load.goodput_per_bucket, now);
        }
    }

    /// A served call failed its version check (only with hot items).
    pub fn conflict(&mut self, now: Micros) {
        if let Some(c) = self.load.conflicts.as_mut() {
            *c += 1;
            bump(&mut self.load.conflicts_per_bucket, now);
        }
    }

    /// The cache took a call (a hit, or a wait for its fetch).
    pub fn cached(&mut self) {
        if let Some(c) = self.load.cached.as_mut() {
            *c += 1;
        }
    }

    /// Calls dropped at their deadline.
    pub fn dropped(&mut self, calls: u64) {
        self.load.dropped += calls;
    }

    /// A call found the queue full.
    pub fn refused(&mut self) {
        self.load.refused += 1;
    }

    /// A call waited `wait` in the queue before a slot took it.
    pub fn waited(&mut self, wait: Micros) {
        self.wait.record(wait);
    }

    /// Sets the gauges of every bucket before `idx` not filled yet.
    pub fn fill_gauges(&mut self, idx: usize, busy: u32, queued: u64) {
        if self.gauges_filled >= idx {
            return;
        }
        self.load.busy_per_bucket.resize(idx, busy);
        self.load.queue_per_bucket.resize(idx, queued);
        self.gauges_filled = idx;
    }

    /// What it reports, with `left` calls still there at the end and every series `len`
    /// buckets long.
    pub fn finish(mut self, left: u64, len: usize) -> DependencyLoad {
        self.load.left = left;
        self.load.wait = self.wait.percentiles();
        self.load.served_per_bucket.resize(len, 0);
        self.load.goodput_per_bucket.resize(len, 0);
        if self.load.conflicts.is_some() {
            self.load.conflicts_per_bucket.resize(len, 0);
        }
        let busy = self.load.busy_per_bucket.last().copied().unwrap_or(0);
        let queued = self.load.queue_per_bucket.last().copied().unwrap_or(0);
        self.load.busy_per_bucket.resize(len, busy);
        self.load.queue_per_bucket.resize(len, queued);
        self.load
    }
}
