//! Exercise 4 on the page: Northwind's bulkheads and the reconciliation job.

use crate::exercises::view::{solve, Change, Computed, PageExercise};
use crate::exercises::{Backlog, BulkheadHook, Northwind, NorthwindRun, Reconciliation};
use crate::resilience::SECOND;
use crate::sim::model::run as simulate;
use crate::sim::scenario::Preset;
use crate::sim::trace::{Route, RouteCounts};

/// Exercise 4's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct NorthwindSetup {
    /// The exercise.
    pub exercise: Northwind,
    /// Show the design with one pool shared by both endpoints (a run simulates both).
    pub shared_pool: bool,
}

/// Exercise 4's controls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NorthwindControl {
    /// Show one shared pool or separate bulkheads.
    SharedPool(bool),
    /// The reconciliation job on or off.
    Job(bool),
}

/// Exercise 4's run and the simulator's two runs of the incident.
#[derive(Debug, Clone, PartialEq)]
pub struct NorthwindResults {
    /// The exercise's run (its `order_history` filled from the two below).
    pub run: NorthwindRun,
    /// Order history with one pool shared with inventory reservations.
    pub shared: RouteCounts,
    /// Order history with a bulkhead of its own.
    pub separate: RouteCounts,
}

impl PageExercise for NorthwindSetup {
    const NUMBER: u8 = 4;
    type Ex = Northwind;
    type Results = NorthwindResults;
    type Control = NorthwindControl;

    fn lesson() -> Self {
        NorthwindSetup {
            exercise: Northwind::default(),
            shared_pool: true,
        }
    }

    fn exercise(&self) -> &Northwind {
        &self.exercise
    }

    fn compute(&self) -> Result<Computed<NorthwindResults>, String> {
        let shared = order_history(Preset::NorthwindShared)?;
        let separate = order_history(Preset::NorthwindSeparate)?;
        let exercise = Northwind {
            order_history: BulkheadHook {
                shared_success: Some(shared.success_rate()),
                separate_success: Some(separate.success_rate()),
            },
            ..self.exercise.clone()
        };
        let c = solve(&exercise)?;
        Ok(Computed {
            results: NorthwindResults {
                run: c.results,
                shared,
                separate,
            },
            parts: c.parts,
            solution: c.solution,
        })
    }

    fn control(&mut self, control: NorthwindControl) -> Change {
        match control {
            NorthwindControl::SharedPool(shared) => {
                self.shared_pool = shared;
                Change::display()
            }
            NorthwindControl::Job(on) => {
                let changed = self.exercise.backlog.job.is_some() != on;
                self.exercise.backlog.job = on.then(lesson_job);
                Change::rerun_if(changed)
            }
        }
    }
}

/// The order-history requests of one of the simulator's Northwind presets.
pub fn order_history(preset: Preset) -> Result<RouteCounts, String> {
    let trace = simulate(&preset.config()).map_err(|e| e.to_string())?;
    trace
        .routes
        .iter()
        .find(|r| r.route == Route::OrderHistory)
        .copied()
        .ok_or_else(|| format!("the {} run has no order-history requests", preset.key()))
}

/// The reconciliation job of the lesson's settings.
fn lesson_job() -> Reconciliation {
    Backlog::default().job.unwrap_or(Reconciliation {
        every: 30 * SECOND,
        batch: 100,
    })
}
