//! The metastability explorer: one cascade run per cell of a grid of load (requests per second)
//! by trigger length (how long inventory stays slow), each from the same seed, and whether and
//! how fast the platform recovered once the trigger ended. Where a cell stays down after a short
//! trigger, the failure sustains itself: the retries and the abandoned work, not the trigger,
//! keep it down (Bronson et al., HotOS 2021).

use serde::Serialize;

use crate::resilience::ParamError;
use crate::sim::latency::Micros;
use crate::sim::model::{run, RunError, SimConfig};
use crate::sim::scenario::Preset;

const SECOND: Micros = 1_000_000;

/// Most steps an axis may have.
pub const MAX_STEPS: u32 = 40;

/// A grid of runs around a base config.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// The run every cell starts from (its `rate` and `recover_at` are the cell's).
    pub base: SimConfig,
    /// Cells per axis (2..=40).
    pub steps: u32,
    /// The load of the last column, requests per second; column `k` (from 1) has
    /// `rate_max × k / steps`.
    pub rate_max: f64,
    /// The trigger of the last row; row `k` (from 1) lasts `trigger_max × k / steps`.
    pub trigger_max: Micros,
}

/// One cell's result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Cell {
    /// Requests per second.
    pub rate: f64,
    /// How long inventory was slow, seconds.
    pub trigger_s: f64,
    /// From the trigger's end to recovery (see [`crate::sim::load::Recovery`]); `None` when
    /// it did not recover before arrivals stopped.
    pub recovered_ms: Option<f64>,
    /// The share of requests answered ok or by a fallback.
    pub ok_share: f64,
}

impl Default for Grid {
    /// The `retry-storm` preset over 25 s of traffic (not drained), 12 × 12 cells up to 150
    /// requests/s (inventory's capacity) and a 6 s trigger.
    fn default() -> Self {
        Grid {
            base: {
                let mut base = Preset::RetryStorm.config();
                base.traffic.duration = 25 * SECOND;
                base.run.drain = false;
                base
            },
            steps: 12,
            rate_max: 150.0,
            trigger_max: 6 * SECOND,
        }
    }
}

impl Grid {
    /// Cells per axis.
    pub const STEPS: (u64, u64) = (2, MAX_STEPS as u64);
    /// The load of the last column, requests per second.
    pub const RATE_MAX: (f64, f64) = (1.0, 2_000.0);
    /// The trigger of the last row.
    pub const TRIGGER_MAX: (Micros, Micros) = (1_000, 600 * SECOND);

    /// Checks the grid's own settings and every cell's config (the widest cell is enough: the
    /// others differ only in rate and trigger, within the same ranges).
    pub fn validate(&self) -> Result<(), ParamError> {
        let (steps, rate_max, trigger_max) = (Grid::STEPS, Grid::RATE_MAX, Grid::TRIGGER_MAX);
        ParamError::check_u64("steps", self.steps.into(), steps.0, steps.1, "")?;
        if !(self.rate_max.is_finite() && (rate_max.0..=rate_max.1).contains(&self.rate_max)) {
            return Err(ParamError::new(
                "rate_max",
                format!("{}..={} requests/s", rate_max.0, rate_max.1),
                self.rate_max.to_string(),
            ));
        }
        ParamError::check_micros(
            "trigger_max",
            self.trigger_max,
            trigger_max.0,
            trigger_max.1,
        )?;
        for (rate, trigger) in [
            (self.rate(1), self.trigger(1)),
            (self.rate_max, self.trigger_max),
        ] {
            self.config(rate, trigger).validate()?;
        }
        Ok(())
    }

    /// The load of column `k` (1..=steps).
    pub fn rate(&self, k: u32) -> f64 {
        (self.rate_max * f64::from(k) / f64::from(self.steps) * 100.0).round() / 100.0
    }

    /// The trigger of row `k` (1..=steps).
    pub fn trigger(&self, k: u32) -> Micros {
        self.trigger_max * Micros::from(k) / Micros::from(self.steps)
    }

    /// Every cell, row by row (shortest trigger first), each row by load.
    pub fn cells(&self) -> impl Iterator<Item = (f64, Micros)> + '_ {
        (1..=self.steps)
            .flat_map(move |t| (1..=self.steps).map(move |r| (self.rate(r), self.trigger(t))))
    }

    /// The config of one cell.
    pub fn config(&self, rate: f64, trigger: Micros) -> SimConfig {
        let mut config = self.base.clone();
        config.traffic.rate = rate;
        let faults = &mut config.first_mut().faults;
        faults.recover_at = Some(faults.degrade_at.unwrap_or(0).saturating_add(trigger));
        config
    }

    /// Runs one cell.
    pub fn run_cell(&self, rate: f64, trigger: Micros) -> Result<Cell, RunError> {
        let t = run(&self.config(rate, trigger))?;
        let good = t.outcomes.ok + t.outcomes.fallback;
        Ok(Cell {
            rate,
            trigger_s: trigger as f64 / SECOND as f64,
            recovered_ms: t
                .recovery
                .and_then(|r| r.recovered_after)
                .map(|m| m as f64 / 1_000.0),
            ok_share: if t.sent == 0 {
                1.0
            } else {
                (good as f64 / t.sent as f64 * 1_000.0).round() / 1_000.0
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axes_run_from_one_step_to_their_maximum() {
        let g = Grid::default();
        assert_eq!((g.rate(1), g.rate(12)), (12.5, 150.0));
        assert_eq!((g.trigger(1), g.trigger(12)), (500_000, 6 * SECOND));
        assert_eq!(g.cells().count(), 144);
        g.validate().unwrap();
    }

    #[test]
    fn light_load_recovers_and_heavy_load_stays_down_after_the_same_trigger() {
        let g = Grid::default();
        let light = g.run_cell(20.0, SECOND).unwrap();
        let heavy = g.run_cell(100.0, SECOND).unwrap();
        assert!(light.recovered_ms.is_some(), "{light:?}");
        assert_eq!(heavy.recovered_ms, None, "{heavy:?}");
        assert!(light.ok_share > heavy.ok_share);
    }

    #[test]
    fn a_retry_budget_moves_the_boundary() {
        let mut g = Grid::default();
        let down = g.run_cell(100.0, SECOND).unwrap();
        crate::sim::scenario::apply_set(&mut g.base, "retry_budget_ratio", "0.1").unwrap();
        let cured = g.run_cell(100.0, SECOND).unwrap();
        assert_eq!(down.recovered_ms, None);
        assert!(cured.recovered_ms.is_some(), "{cured:?}");
    }
}
