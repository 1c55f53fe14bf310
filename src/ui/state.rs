//! The page's state in one place: every change is an [`Action`] read by one `reduce`.

use std::rc::Rc;

use yew::Reducible;

use crate::sim::latency::{preview, LatencyModel, LatencyPreview, Micros};

/// Range of the inventory p99 slider, in milliseconds.
pub const P99_RANGE_MS: (f64, f64) = (40.0, 4_000.0);
/// Median latency of inventory when healthy: 40 ms (lesson 000).
const INVENTORY_P50: Micros = 40_000;
/// How many calls the preview samples.
const PREVIEW_CALLS: usize = 5_000;

/// Everything the page shows is derived from this.
#[derive(Debug, Clone, PartialEq)]
pub struct PlaygroundState {
    /// 99th percentile of inventory's latency, in milliseconds.
    pub inventory_p99_ms: f64,
    /// Seed of the random stream.
    pub seed: u64,
    /// The sampled latencies, recomputed on every change.
    pub preview: Rc<LatencyPreview>,
}

impl Default for PlaygroundState {
    fn default() -> Self {
        PlaygroundState::computed(120.0, 1)
    }
}

impl PlaygroundState {
    fn computed(inventory_p99_ms: f64, seed: u64) -> Self {
        let p99_ms = inventory_p99_ms.clamp(P99_RANGE_MS.0, P99_RANGE_MS.1);
        let model = LatencyModel::LogNormal {
            p50: INVENTORY_P50,
            p99: (p99_ms * 1000.0).round() as Micros,
        };
        PlaygroundState {
            inventory_p99_ms: p99_ms,
            seed,
            preview: Rc::new(preview(&model, PREVIEW_CALLS, seed)),
        }
    }
}

/// What a view can ask of the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Sets inventory's p99 latency (ms); values outside the range are clamped.
    SetInventoryP99(f64),
}

impl Reducible for PlaygroundState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::SetInventoryP99(ms) => Rc::new(PlaygroundState::computed(ms, self.seed)),
        }
    }
}
