//! What a cascade run produces: counts by outcome, the lesson's percentiles of service and
//! end-to-end time, the breaker's transitions and time series in 100 ms buckets.

use serde::{Deserialize, Serialize};

use super::latency::Micros;
use crate::resilience::{BreakerState, TransitionReason};

/// Width of one time-series bucket: 100 ms.
pub const BUCKET: Micros = 100_000;

/// How one request ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Inventory answered in time.
    Ok,
    /// The call to inventory ran out of its timeout.
    Timeout,
    /// The circuit breaker refused the call.
    CircuitOpen,
    /// No bulkhead permit within `max_wait`.
    BulkheadFull,
    /// Still queued or running when the run stopped (only when not draining).
    Unfinished,
}

impl Outcome {
    /// Every outcome, in the order the lesson's table sorts them (alphabetical).
    pub const ALL: [Outcome; 5] = [
        Outcome::BulkheadFull,
        Outcome::CircuitOpen,
        Outcome::Ok,
        Outcome::Timeout,
        Outcome::Unfinished,
    ];

    /// The name printed in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Timeout => "timeout",
            Outcome::CircuitOpen => "circuit_open",
            Outcome::BulkheadFull => "bulkhead_full",
            Outcome::Unfinished => "unfinished",
        }
    }
}

/// Requests by how they ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    /// Answered in time.
    pub ok: u64,
    /// Timed out.
    pub timeout: u64,
    /// Refused by the breaker.
    pub circuit_open: u64,
    /// Refused by the bulkhead.
    pub bulkhead_full: u64,
    /// Not finished when the run stopped.
    pub unfinished: u64,
}

impl OutcomeCounts {
    /// The count for one outcome.
    pub fn get(&self, outcome: Outcome) -> u64 {
        match outcome {
            Outcome::Ok => self.ok,
            Outcome::Timeout => self.timeout,
            Outcome::CircuitOpen => self.circuit_open,
            Outcome::BulkheadFull => self.bulkhead_full,
            Outcome::Unfinished => self.unfinished,
        }
    }

    /// Adds one request with `outcome`.
    pub fn add(&mut self, outcome: Outcome) {
        let slot = match outcome {
            Outcome::Ok => &mut self.ok,
            Outcome::Timeout => &mut self.timeout,
            Outcome::CircuitOpen => &mut self.circuit_open,
            Outcome::BulkheadFull => &mut self.bulkhead_full,
            Outcome::Unfinished => &mut self.unfinished,
        };
        *slot += 1;
    }

    /// Every request counted.
    pub fn total(&self) -> u64 {
        self.ok + self.timeout + self.circuit_open + self.bulkhead_full + self.unfinished
    }
}

/// The lesson's two percentiles over finished requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Percentiles {
    /// `sorted[n / 2]`; `None` when nothing finished.
    pub p50: Option<Micros>,
    /// `sorted[floor(n * 0.99)]`; `None` when nothing finished.
    pub p99: Option<Micros>,
}

impl Percentiles {
    /// The lesson's rule: sort, then take `sorted[n/2]` and `sorted[floor(n*0.99)]` (computed
    /// in integers as `99n/100`).
    pub fn lesson_rule(mut values: Vec<Micros>) -> Self {
        if values.is_empty() {
            return Percentiles::default();
        }
        values.sort_unstable();
        let n = values.len();
        let p99_index = (n.saturating_mul(99) / 100).min(n - 1);
        Percentiles {
            p50: values.get(n / 2).copied(),
            p99: values.get(p99_index).copied(),
        }
    }
}

/// One change of the breaker's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerChange {
    /// When it happened.
    pub at: Micros,
    /// State before.
    pub from: BreakerState,
    /// State after.
    pub to: BreakerState,
    /// Why, as the breaker recorded it (for a trip: the failures and calls in its window).
    pub reason: TransitionReason,
}

/// One request, for "follow one request" and for histograms that grow with the playhead.
/// Kept only when [`crate::sim::model::CascadeConfig::record_requests`] is true.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// When it arrived at `orders`.
    pub arrived: Micros,
    /// When a worker took it; `None` if none ever did.
    pub started: Option<Micros>,
    /// When it ended; `None` if it had not when the run stopped.
    pub finished: Option<Micros>,
    /// How it ended ([`Outcome::Unfinished`] when `finished` is `None`).
    pub outcome: Outcome,
}

/// One 100 ms slice of the run. Counters count events inside the slice; gauges (workers busy,
/// queue length, breaker state, bulkhead, breaker window, probes, gateway pool) are their value
/// at the end of the slice, i.e. after every event strictly before its end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// Requests that arrived.
    pub arrivals: u64,
    /// Requests finished, by outcome (`unfinished` stays 0 here).
    pub completions: OutcomeCounts,
    /// Calls that reached inventory.
    pub inventory_calls: u64,
    /// Workers busy.
    pub workers_busy: u32,
    /// Requests waiting for a worker.
    pub queue_len: u64,
    /// The breaker's gauge: 0 closed, 1 half open, 2 open (0 without a breaker).
    pub breaker_state: u8,
    /// Bulkhead permits taken (0 without a bulkhead).
    #[serde(default)]
    pub bulkhead_in_use: u32,
    /// Callers waiting for a bulkhead permit (0 without a bulkhead).
    #[serde(default)]
    pub bulkhead_waiting: u32,
    /// Results in the breaker's window, as its snapshot counts them (0 without a breaker).
    #[serde(default)]
    pub window_calls: u32,
    /// Failures among those results.
    #[serde(default)]
    pub window_failures: u32,
    /// Half-open probes in flight.
    #[serde(default)]
    pub probes_in_flight: u32,
    /// Gateway connections to `orders` in use (0 while the model has no gateway).
    #[serde(default)]
    pub gateway_in_use: u32,
    /// Calls the breaker refused inside the slice (a counter, not a gauge).
    #[serde(default)]
    pub breaker_rejections: u64,
}

/// Everything one run produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Requests sent.
    pub sent: u64,
    /// Requests by outcome; every request is counted exactly once.
    pub outcomes: OutcomeCounts,
    /// Service time (from when a worker takes the request), over finished requests.
    pub service: Percentiles,
    /// End-to-end time (from arrival, queue wait included), over finished requests.
    pub end_to_end: Percentiles,
    /// The breaker's changes of state, in order.
    pub transitions: Vec<BreakerChange>,
    /// Time series, one bucket per [`BUCKET`] from time 0.
    pub series: Vec<Bucket>,
    /// True when the run outlasted the series' limit and later buckets were left out.
    pub series_truncated: bool,
    /// When the last processed event happened.
    pub end: Micros,
    /// How many events the simulator processed (for benchmarks: events per second).
    pub events: u64,
    /// One record per request in arrival order, when the config asked for them; else empty.
    #[serde(default)]
    pub requests: Vec<RequestRecord>,
}

impl Trace {
    /// The first time the breaker opened, if it did.
    pub fn first_open(&self) -> Option<Micros> {
        self.transitions
            .iter()
            .find(|c| c.to == BreakerState::Open)
            .map(|c| c.at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_percentile_rule() {
        let p = Percentiles::lesson_rule((1..=100).rev().collect());
        assert_eq!(p.p50, Some(51));
        assert_eq!(p.p99, Some(100));
        let p = Percentiles::lesson_rule(vec![7]);
        assert_eq!((p.p50, p.p99), (Some(7), Some(7)));
        assert_eq!(Percentiles::lesson_rule(vec![]), Percentiles::default());
    }

    #[test]
    fn counts_add_up() {
        let mut c = OutcomeCounts::default();
        for o in Outcome::ALL {
            c.add(o);
            assert_eq!(c.get(o), 1);
        }
        assert_eq!(c.total(), 5);
    }
}
