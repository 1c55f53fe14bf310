//! Exercise 3 on the page: the layers that retry and their attempts.

use crate::exercises::view::{clamp, solve, Change, Computed, PageExercise};
use crate::exercises::{RetryingLayer, ThreeLayers, ThreeLayersRun};

/// Attempts a layer of exercise 3 may make, at most.
pub const MAX_ATTEMPTS: u32 = 10;

/// The three retrying layers of exercise 3, for its attempt sliders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layer {
    /// The web front end.
    FrontEnd,
    /// The resilience library inside orders.
    Library,
    /// The Envoy sidecar.
    Sidecar,
}

impl Layer {
    /// All three, outermost first.
    pub const ALL: [Layer; 3] = [Layer::FrontEnd, Layer::Library, Layer::Sidecar];

    /// A label for its control.
    pub fn label(self) -> &'static str {
        match self {
            Layer::FrontEnd => "Front-end attempts",
            Layer::Library => "Library attempts",
            Layer::Sidecar => "Sidecar attempts",
        }
    }

    /// A name for element ids.
    pub fn key(self) -> &'static str {
        match self {
            Layer::FrontEnd => "front-end",
            Layer::Library => "library",
            Layer::Sidecar => "sidecar",
        }
    }
}

/// A name for element ids of a retrying-layer choice.
pub fn retrying_key(layer: RetryingLayer) -> &'static str {
    match layer {
        RetryingLayer::All => "all",
        RetryingLayer::FrontEnd => "front-end",
        RetryingLayer::Library => "library",
        RetryingLayer::Sidecar => "sidecar",
        RetryingLayer::Nobody => "nobody",
    }
}

/// Exercise 3's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct LayersSetup {
    /// The exercise.
    pub exercise: ThreeLayers,
    /// Show the duplicate orders with the idempotency key (a run computes both).
    pub idempotency_key: bool,
}

/// Exercise 3's controls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LayersControl {
    /// Which layer keeps its retries.
    Retrying(RetryingLayer),
    /// A layer's attempts (1..=[`MAX_ATTEMPTS`]).
    Attempts(Layer, f64),
    /// Show the duplicates with or without the idempotency key.
    IdempotencyKey(bool),
}

impl PageExercise for LayersSetup {
    const NUMBER: u8 = 3;
    type Ex = ThreeLayers;
    type Results = ThreeLayersRun;
    type Control = LayersControl;

    fn lesson() -> Self {
        LayersSetup {
            exercise: ThreeLayers::default(),
            idempotency_key: false,
        }
    }

    fn exercise(&self) -> &ThreeLayers {
        &self.exercise
    }

    fn compute(&self) -> Result<Computed<ThreeLayersRun>, String> {
        solve(&self.exercise)
    }

    fn control(&mut self, control: LayersControl) -> Change {
        match control {
            LayersControl::Retrying(layer) => {
                let changed = self.exercise.retrying != layer;
                self.exercise.retrying = layer;
                Change::rerun_if(changed)
            }
            LayersControl::Attempts(layer, attempts) => {
                let e = &mut self.exercise;
                let slot = match layer {
                    Layer::FrontEnd => &mut e.front_end_attempts,
                    Layer::Library => &mut e.library_attempts,
                    Layer::Sidecar => &mut e.sidecar_attempts,
                };
                let (value, notice) = clamp(
                    layer.label(),
                    attempts.round(),
                    1.0,
                    f64::from(MAX_ATTEMPTS),
                    f64::from(*slot),
                );
                let value = value as u32;
                let changed = *slot != value;
                *slot = value;
                Change::rerun_if(changed).with_notice(notice)
            }
            LayersControl::IdempotencyKey(on) => {
                self.idempotency_key = on;
                Change::display()
            }
        }
    }
}
