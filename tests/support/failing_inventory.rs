//! The scenario the library profiles' suites share: one dependency that fails from the start,
//! run long enough for breakers and throttles to act, with nobody queueing for a worker.

#![allow(dead_code)] // not every suite uses every helper

use resilience_playground::sim::model::SimConfig;
use resilience_playground::sim::params::{apply_set, Applied};
use resilience_playground::sim::scenario::Scenario;
use resilience_playground::sim::trace::Trace;

pub const MS: u64 = 1_000;
pub const SECOND: u64 = 1_000_000;

/// 20 s of the scenario's arrivals against an inventory degraded from the start: `slow` a
/// call, failing with a transient error at `error_rate`; workers enough that nobody queues.
pub fn failing(slow: u64, error_rate: f64, seed: u64) -> SimConfig {
    let mut c = Scenario::None.config();
    c.traffic.duration = 20 * SECOND;
    c.service.threads = 2_000;
    let inventory = c.first_mut();
    inventory.faults.degrade_at = Some(0);
    inventory.faults.recover_at = None;
    inventory.faults.slow = slow;
    inventory.faults.error_rate = error_rate;
    c.run.seed = seed;
    c
}

/// `c` with each `key=value` set as `--set` sets it; each must take.
pub fn with_sets(mut c: SimConfig, sets: &[(&str, &str)]) -> SimConfig {
    for (k, v) in sets {
        let applied = apply_set(&mut c, k, v).unwrap_or_else(|e| panic!("{k}={v}: {e}"));
        assert_eq!(applied, Applied::Set, "{k}={v}");
    }
    c
}

/// The calls that reached inventory.
pub fn calls(t: &Trace) -> u64 {
    t.series.iter().map(|b| b.inventory_calls).sum()
}
