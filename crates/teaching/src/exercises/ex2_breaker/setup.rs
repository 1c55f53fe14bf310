//! Exercise 2 on the page: the breaker's settings and the noise its alert sees.

use crate::exercises::view::{clamp, solve, Change, Computed, PageExercise};
use crate::exercises::{BreakersRun, BusinessErrors, Exercise, Noise, Part};
use crate::resilience::SECOND;

/// The `min_calls` values exercise 2 compares.
pub const MIN_CALLS_CHOICES: [u32; 2] = [5, 20];

/// Blips per hour exercise 2's slider offers, at most.
pub const MAX_BLIPS_PER_HOUR: f64 = 120.0;

/// Exercise 2's settings: the exercise, and what the page shows of it.
#[derive(Debug, Clone, PartialEq)]
pub struct BreakerSetup {
    /// The exercise (its `bug` stays on: a run computes the buggy and the fixed client on the
    /// same traffic, and [`BreakerSetup::bug`] picks the one to show).
    pub exercise: BusinessErrors,
    /// Show the client with the bug (business answers counted as failures).
    pub bug: bool,
    /// Whether the healthy inventory has its noise (random failures and blips).
    pub noise: bool,
    /// Blips per hour when the noise is on.
    pub blips_per_hour: f64,
}

/// Exercise 2's controls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BreakerControl {
    /// Show the client with or without the bug.
    Bug(bool),
    /// The breaker's `min_calls` (one of [`MIN_CALLS_CHOICES`]).
    MinCalls(u32),
    /// The inventory's noise on or off.
    Noise(bool),
    /// Blips per hour (0..=[`MAX_BLIPS_PER_HOUR`]).
    BlipsPerHour(f64),
}

impl PageExercise for BreakerSetup {
    const NUMBER: u8 = 2;
    type Ex = BusinessErrors;
    type Results = BreakersRun;
    type Control = BreakerControl;

    fn lesson() -> Self {
        let exercise = BusinessErrors::default();
        BreakerSetup {
            bug: exercise.bug,
            noise: true,
            blips_per_hour: exercise.noise.blips_per_hour,
            exercise,
        }
    }

    fn exercise(&self) -> &BusinessErrors {
        &self.exercise
    }

    fn preview_parts(&self) -> Vec<Part> {
        BusinessErrors {
            duration: SECOND,
            ..self.exercise.clone()
        }
        .parts()
        .unwrap_or_default()
    }

    fn compute(&self) -> Result<Computed<BreakersRun>, String> {
        solve(&self.exercise)
    }

    fn control(&mut self, control: BreakerControl) -> Change {
        match control {
            BreakerControl::Bug(on) => {
                self.bug = on;
                Change::display()
            }
            BreakerControl::MinCalls(m) => {
                let current = self.exercise.breaker.min_calls;
                if !MIN_CALLS_CHOICES.contains(&m) {
                    return Change::display().with_notice(Some(format!(
                        "min_calls can be {} or {} here; keeping {current}.",
                        MIN_CALLS_CHOICES[0], MIN_CALLS_CHOICES[1],
                    )));
                }
                self.exercise.breaker.min_calls = m;
                Change::rerun_if(current != m)
            }
            BreakerControl::Noise(on) => {
                let changed = self.noise != on;
                self.noise = on;
                self.exercise.noise = noise(on, self.blips_per_hour);
                Change::rerun_if(changed)
            }
            BreakerControl::BlipsPerHour(blips) => {
                let (value, notice) = clamp(
                    "Blips per hour",
                    blips,
                    0.0,
                    MAX_BLIPS_PER_HOUR,
                    self.blips_per_hour,
                );
                let changed = self.blips_per_hour != value;
                self.blips_per_hour = value;
                self.exercise.noise = noise(self.noise, value);
                Change::rerun_if(changed).with_notice(notice)
            }
        }
    }
}

/// The noise of exercise 2, on or off, with `blips_per_hour`.
fn noise(on: bool, blips_per_hour: f64) -> Noise {
    if on {
        Noise {
            blips_per_hour,
            ..Noise::default()
        }
    } else {
        Noise {
            background: 0.0,
            blips_per_hour: 0.0,
            blip_length: Noise::default().blip_length,
        }
    }
}
