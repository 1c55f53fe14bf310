//! One exercise on a page, without the browser: its settings, the student's predictions and
//! the verdicts on them, the run (made once, on request) and whether the solution is showing.
//! [`ExerciseState::apply`] is the only way it changes; the Yew reducer in
//! `ui/exercises/mod.rs` only wraps it.
//!
//! Runs are made lazily: "Run it", "Check" and "Show the solution" need the run of the current
//! settings and make it if there is none yet. Moving a control throws the run away and makes
//! no new one (exercise 2 simulates six hours of calls: a click may pay for that, a slider's
//! every step must not). Until there is a run, the parts listed come from a cheap preview of
//! the same exercise: their ids, questions and units are right, their answers are never used.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::state::Shared;
use crate::exercises::{
    BreakersRun, BudgetAndRetries, BudgetRun, BulkheadHook, BusinessErrors, Exercise, Noise,
    Northwind, NorthwindRun, Part, Reconciliation, RetryingLayer, ThreeLayers, ThreeLayersRun,
};
use crate::resilience::SECOND;
use crate::sim::model::run as simulate;
use crate::sim::scenario::Preset;
use crate::sim::trace::{Route, RouteCounts};

/// Which of the four exercises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// Exercise 1: the time budget and the retried reservation.
    Budget,
    /// Exercise 2: the breaker that counts "out of stock" as a failure.
    Breaker,
    /// Exercise 3: retries in three layers, and the idempotency key.
    Layers,
    /// Exercise 4: Northwind's slow inventory.
    Northwind,
}

impl Which {
    /// All four, numbered 1 to 4 in this order.
    pub const ALL: [Which; 4] = [
        Which::Budget,
        Which::Breaker,
        Which::Layers,
        Which::Northwind,
    ];

    /// The exercise with this number (1..=4).
    pub fn from_number(number: u8) -> Option<Which> {
        Which::ALL.get(usize::from(number).checked_sub(1)?).copied()
    }

    /// Its number, 1..=4.
    pub fn number(self) -> u8 {
        match self {
            Which::Budget => 1,
            Which::Breaker => 2,
            Which::Layers => 3,
            Which::Northwind => 4,
        }
    }

    /// The prefix of every element id of this exercise (`"ex2"`).
    pub fn prefix(self) -> String {
        format!("ex{}", self.number())
    }
}

/// The `min_calls` values exercise 2 compares.
pub const MIN_CALLS_CHOICES: [u32; 2] = [5, 20];
/// Attempts a layer of exercise 3 may make, at most.
pub const MAX_ATTEMPTS: u32 = 10;
/// Blips per hour exercise 2's slider offers, at most.
pub const MAX_BLIPS_PER_HOUR: f64 = 120.0;

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

/// Exercise 3's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct LayersSetup {
    /// The exercise.
    pub exercise: ThreeLayers,
    /// Show the duplicate orders with the idempotency key (a run computes both).
    pub idempotency_key: bool,
}

/// Exercise 4's settings.
#[derive(Debug, Clone, PartialEq)]
pub struct NorthwindSetup {
    /// The exercise.
    pub exercise: Northwind,
    /// Show the design with one pool shared by both endpoints (a run simulates both).
    pub shared_pool: bool,
}

/// The settings of one exercise.
#[derive(Debug, Clone, PartialEq)]
pub enum Setup {
    /// Exercise 1 (no controls: the lesson's figures).
    Budget(BudgetAndRetries),
    /// Exercise 2.
    Breaker(BreakerSetup),
    /// Exercise 3.
    Layers(LayersSetup),
    /// Exercise 4.
    Northwind(NorthwindSetup),
}

impl Setup {
    /// The lesson's settings for `which`.
    pub fn lesson(which: Which) -> Setup {
        match which {
            Which::Budget => Setup::Budget(BudgetAndRetries::default()),
            Which::Breaker => {
                let exercise = BusinessErrors::default();
                Setup::Breaker(BreakerSetup {
                    bug: exercise.bug,
                    noise: true,
                    blips_per_hour: exercise.noise.blips_per_hour,
                    exercise,
                })
            }
            Which::Layers => Setup::Layers(LayersSetup {
                exercise: ThreeLayers::default(),
                idempotency_key: false,
            }),
            Which::Northwind => Setup::Northwind(NorthwindSetup {
                exercise: Northwind::default(),
                shared_pool: true,
            }),
        }
    }

    /// Which exercise these are the settings of.
    pub fn which(&self) -> Which {
        match self {
            Setup::Budget(_) => Which::Budget,
            Setup::Breaker(_) => Which::Breaker,
            Setup::Layers(_) => Which::Layers,
            Setup::Northwind(_) => Which::Northwind,
        }
    }

    /// The exercise's title.
    pub fn title(&self) -> &'static str {
        match self {
            Setup::Budget(e) => e.title(),
            Setup::Breaker(s) => s.exercise.title(),
            Setup::Layers(s) => s.exercise.title(),
            Setup::Northwind(s) => s.exercise.title(),
        }
    }

    /// The question, in the current settings.
    pub fn question(&self) -> String {
        match self {
            Setup::Budget(e) => e.question(),
            Setup::Breaker(s) => s.exercise.question(),
            Setup::Layers(s) => s.exercise.question(),
            Setup::Northwind(s) => s.exercise.question(),
        }
    }

    /// The parts from a cheap stand-in of the same exercise (ids, questions and units only).
    fn preview_parts(&self) -> Vec<Part> {
        fn parts_of<E: Exercise>(e: &E) -> Vec<Part> {
            e.parts().unwrap_or_default()
        }
        match self {
            Setup::Budget(e) => parts_of(e),
            Setup::Breaker(s) => parts_of(&BusinessErrors {
                duration: SECOND,
                ..s.exercise.clone()
            }),
            Setup::Layers(s) => parts_of(&s.exercise),
            Setup::Northwind(s) => parts_of(&Northwind {
                // Part (e) shows once the simulator's figures are in; any share will do here.
                order_history: BulkheadHook {
                    shared_success: Some(0.5),
                    separate_success: Some(0.5),
                },
                ..s.exercise.clone()
            }),
        }
    }

    /// Runs the exercise: the figures, its parts and its solution.
    fn compute(&self) -> Result<Computed, String> {
        fn solve<E: Exercise>(e: &E) -> Result<(E::Run, Vec<Part>, String), String> {
            let run = e.run().map_err(|err| err.to_string())?;
            let parts = e.parts_for(&run);
            let solution = e.solution_for(&run);
            Ok((run, parts, solution))
        }
        let (results, parts, solution) = match self {
            Setup::Budget(e) => {
                let (run, parts, solution) = solve(e)?;
                (Results::Budget(Box::new(run)), parts, solution)
            }
            Setup::Breaker(s) => {
                let (run, parts, solution) = solve(&s.exercise)?;
                (Results::Breaker(Box::new(run)), parts, solution)
            }
            Setup::Layers(s) => {
                let (run, parts, solution) = solve(&s.exercise)?;
                (Results::Layers(Box::new(run)), parts, solution)
            }
            Setup::Northwind(s) => {
                let shared = order_history(Preset::NorthwindShared)?;
                let separate = order_history(Preset::NorthwindSeparate)?;
                let exercise = Northwind {
                    order_history: BulkheadHook {
                        shared_success: Some(shared.success_rate()),
                        separate_success: Some(separate.success_rate()),
                    },
                    ..s.exercise.clone()
                };
                let (run, parts, solution) = solve(&exercise)?;
                (
                    Results::Northwind(Box::new(NorthwindResults {
                        run,
                        shared,
                        separate,
                    })),
                    parts,
                    solution,
                )
            }
        };
        Ok(Computed {
            results,
            parts,
            solution,
        })
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

/// What a run of one exercise produced.
#[derive(Debug, Clone, PartialEq)]
pub enum Results {
    /// Exercise 1.
    Budget(Box<BudgetRun>),
    /// Exercise 2.
    Breaker(Box<BreakersRun>),
    /// Exercise 3.
    Layers(Box<ThreeLayersRun>),
    /// Exercise 4.
    Northwind(Box<NorthwindResults>),
}

/// A run with the parts and solution that go with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed {
    /// The figures to draw.
    pub results: Results,
    /// The parts, each numeric one with its answer from this run.
    pub parts: Vec<Part>,
    /// The worked solution of this run.
    pub solution: String,
}

/// What the page says about one prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feedback {
    /// Within the tolerance.
    Right,
    /// Off: a hint towards the mechanism (never the number).
    Wrong(String),
    /// Not something that can be checked (not a number, no such part...): says why.
    Invalid(String),
}

impl Feedback {
    /// True for [`Feedback::Right`].
    pub fn is_right(&self) -> bool {
        matches!(self, Feedback::Right)
    }

    /// The text shown.
    pub fn text(&self) -> &str {
        match self {
            Feedback::Right => "Right",
            Feedback::Wrong(hint) | Feedback::Invalid(hint) => hint,
        }
    }

    /// A name for styles and tests: `right`, `wrong` or `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Feedback::Right => "right",
            Feedback::Wrong(_) => "wrong",
            Feedback::Invalid(_) => "invalid",
        }
    }
}

/// What the student has written for one part.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Attempt {
    /// The text typed (a number for a numeric part, prose for an open one).
    pub text: String,
    /// The verdict on the last check, cleared when the text or the settings change.
    pub feedback: Option<Feedback>,
}

/// Every change the exercise view can make.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The student typed in a part's field.
    Type {
        /// The part's id.
        part: String,
        /// The whole text of the field.
        text: String,
    },
    /// Checks the prediction typed for a part (running the exercise if needed).
    Check(String),
    /// Runs the exercise (if needed) and shows the result.
    Run,
    /// Shows or hides the worked solution (running the exercise if needed).
    ToggleSolution,
    /// Exercise 2: show the client with or without the bug.
    SetBug(bool),
    /// Exercise 2: the breaker's `min_calls`.
    SetMinCalls(u32),
    /// Exercise 2: the inventory's noise on or off.
    SetNoise(bool),
    /// Exercise 2: blips per hour (0..=[`MAX_BLIPS_PER_HOUR`]).
    SetBlipsPerHour(f64),
    /// Exercise 3: which layer keeps its retries.
    SetRetrying(RetryingLayer),
    /// Exercise 3: a layer's attempts (1..=[`MAX_ATTEMPTS`]).
    SetAttempts(Layer, f64),
    /// Exercise 3: show the duplicates with or without the idempotency key.
    SetIdempotencyKey(bool),
    /// Exercise 4: show one shared pool or separate bulkheads.
    SetSharedPool(bool),
    /// Exercise 4: the reconciliation job on or off.
    SetJob(bool),
}

/// One exercise's view state.
#[derive(Debug, Clone)]
pub struct ExerciseState {
    /// The settings.
    pub setup: Setup,
    /// The run of the current settings, once made.
    pub computed: Option<Shared<Computed>>,
    /// The parts of a cheap preview, listed until there is a run.
    preview: Rc<Vec<Part>>,
    /// Whether the run's results are showing (the student pressed "Run it").
    pub shown: bool,
    /// Whether the solution is showing.
    pub solution_open: bool,
    /// What the student wrote, by part id.
    pub attempts: BTreeMap<String, Attempt>,
    /// Why the last run failed, if it did.
    pub error: Option<String>,
    /// A note about the last setting that had to be corrected.
    pub notice: Option<String>,
}

impl ExerciseState {
    /// Exercise `which` with the lesson's settings, nothing typed, nothing run.
    pub fn new(which: Which) -> ExerciseState {
        let setup = Setup::lesson(which);
        ExerciseState {
            preview: Rc::new(setup.preview_parts()),
            setup,
            computed: None,
            shown: false,
            solution_open: false,
            attempts: BTreeMap::new(),
            error: None,
            notice: None,
        }
    }

    /// Which exercise.
    pub fn which(&self) -> Which {
        self.setup.which()
    }

    /// The parts to list: the run's, or the preview's before there is one.
    pub fn parts(&self) -> &[Part] {
        match &self.computed {
            Some(c) => &c.parts,
            None => &self.preview,
        }
    }

    /// What the student wrote for `part` (empty if nothing).
    pub fn attempt(&self, part: &str) -> Attempt {
        self.attempts.get(part).cloned().unwrap_or_default()
    }

    /// The run's results, when the student asked to see them.
    pub fn shown_results(&self) -> Option<&Results> {
        self.computed
            .as_ref()
            .filter(|_| self.shown)
            .map(|c| &c.results)
    }

    /// The solution, when the student asked to see it.
    pub fn shown_solution(&self) -> Option<&str> {
        self.computed
            .as_ref()
            .filter(|_| self.solution_open)
            .map(|c| c.solution.as_str())
    }

    /// Makes the run of the current settings if there is none; false if it failed.
    fn ensure_computed(&mut self) -> bool {
        if self.computed.is_none() {
            match self.setup.compute() {
                Ok(c) => {
                    self.computed = Some(Shared(Rc::new(c)));
                    self.error = None;
                }
                Err(e) => self.error = Some(format!("The exercise could not run: {e}")),
            }
        }
        self.computed.is_some()
    }

    /// The settings changed: the run no longer matches them.
    fn settings_changed(&mut self) {
        self.computed = None;
        self.shown = false;
        self.solution_open = false;
        self.error = None;
        self.preview = Rc::new(self.setup.preview_parts());
        for attempt in self.attempts.values_mut() {
            attempt.feedback = None;
        }
    }

    fn check(&mut self, part_id: &str) {
        let text = self.attempt(part_id).text;
        let feedback = if self.ensure_computed() {
            let part = self.parts().iter().find(|p| p.id == part_id);
            match part.and_then(|p| p.answer.as_ref()) {
                None => Feedback::Invalid(format!(
                    "Part ({part_id}) has no number to check with these settings."
                )),
                Some(answer) => match parse_prediction(part_id, &answer.unit, &text) {
                    Err(message) => Feedback::Invalid(message),
                    Ok(value) => {
                        let verdict = answer.check(value);
                        if verdict.correct {
                            Feedback::Right
                        } else {
                            Feedback::Wrong(verdict.hint.unwrap_or_else(|| {
                                "Not quite: look at the mechanism again.".to_string()
                            }))
                        }
                    }
                },
            }
        } else {
            Feedback::Invalid(format!(
                "Part ({part_id}) cannot be checked: the exercise did not run."
            ))
        };
        self.attempts
            .entry(part_id.to_string())
            .or_default()
            .feedback = Some(feedback);
    }

    /// The state after `action`.
    pub fn apply(mut self, action: Action) -> ExerciseState {
        self.notice = None;
        match action {
            Action::Type { part, text } => {
                let attempt = self.attempts.entry(part).or_default();
                if attempt.text != text {
                    attempt.text = text;
                    attempt.feedback = None;
                }
            }
            Action::Check(part) => self.check(&part),
            Action::Run => self.shown = self.ensure_computed(),
            Action::ToggleSolution => {
                self.solution_open = !self.solution_open && self.ensure_computed();
            }
            Action::SetBug(on) => {
                if let Setup::Breaker(s) = &mut self.setup {
                    s.bug = on;
                }
            }
            Action::SetMinCalls(m) => {
                if let Setup::Breaker(s) = &mut self.setup {
                    let m = if MIN_CALLS_CHOICES.contains(&m) {
                        m
                    } else {
                        self.notice = Some(format!(
                            "min_calls can be {} or {} here; keeping {}.",
                            MIN_CALLS_CHOICES[0],
                            MIN_CALLS_CHOICES[1],
                            s.exercise.breaker.min_calls
                        ));
                        s.exercise.breaker.min_calls
                    };
                    if s.exercise.breaker.min_calls != m {
                        s.exercise.breaker.min_calls = m;
                        self.settings_changed();
                    }
                }
            }
            Action::SetNoise(on) => {
                if let Setup::Breaker(s) = &mut self.setup {
                    if s.noise != on {
                        s.noise = on;
                        s.exercise.noise = noise(on, s.blips_per_hour);
                        self.settings_changed();
                    }
                }
            }
            Action::SetBlipsPerHour(blips) => {
                if let Setup::Breaker(s) = &mut self.setup {
                    let (value, notice) = clamp(
                        "Blips per hour",
                        blips,
                        0.0,
                        MAX_BLIPS_PER_HOUR,
                        s.blips_per_hour,
                    );
                    self.notice = notice;
                    if s.blips_per_hour != value {
                        s.blips_per_hour = value;
                        s.exercise.noise = noise(s.noise, value);
                        self.settings_changed();
                    }
                }
            }
            Action::SetRetrying(layer) => {
                if let Setup::Layers(s) = &mut self.setup {
                    if s.exercise.retrying != layer {
                        s.exercise.retrying = layer;
                        self.settings_changed();
                    }
                }
            }
            Action::SetAttempts(layer, attempts) => {
                if let Setup::Layers(s) = &mut self.setup {
                    let e = &mut s.exercise;
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
                    self.notice = notice;
                    let value = value as u32;
                    if *slot != value {
                        *slot = value;
                        self.settings_changed();
                    }
                }
            }
            Action::SetIdempotencyKey(on) => {
                if let Setup::Layers(s) = &mut self.setup {
                    s.idempotency_key = on;
                }
            }
            Action::SetSharedPool(shared) => {
                if let Setup::Northwind(s) = &mut self.setup {
                    s.shared_pool = shared;
                }
            }
            Action::SetJob(on) => {
                if let Setup::Northwind(s) = &mut self.setup {
                    if s.exercise.backlog.job.is_some() != on {
                        s.exercise.backlog.job = on.then(lesson_job);
                        self.settings_changed();
                    }
                }
            }
        }
        self
    }
}

/// The reconciliation job of the lesson's settings.
fn lesson_job() -> Reconciliation {
    crate::exercises::Backlog::default()
        .job
        .unwrap_or(Reconciliation {
            every: 30 * SECOND,
            batch: 100,
        })
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

/// `value` inside `min..=max` (the `current` one if it is not a number), and a notice naming
/// `label` when it had to change.
fn clamp(label: &str, value: f64, min: f64, max: f64, current: f64) -> (f64, Option<String>) {
    if !value.is_finite() {
        return (
            current,
            Some(format!(
                "{label} needs a number from {min} to {max}; keeping {current}."
            )),
        );
    }
    let clamped = value.clamp(min, max);
    let notice = (clamped != value)
        .then(|| format!("{label} must be from {min} to {max}; using {clamped}."));
    (clamped, notice)
}

/// Reads a prediction typed for part `part_id`, whose answer is in `unit`. Accepts `1050`,
/// `1,050`, `1 050`, `6.6`, `6,6`, and the unit after the number (`220 ms`, `86%`). Anything
/// else, infinities and "NaN" included, gives a message naming the part.
pub fn parse_prediction(part_id: &str, unit: &str, text: &str) -> Result<f64, String> {
    let trimmed = text.trim();
    let wanted = || {
        format!(
            "Part ({part_id}) needs a number{}",
            if unit.is_empty() {
                String::new()
            } else {
                format!(" in {unit}")
            }
        )
    };
    if trimmed.is_empty() {
        return Err(format!("{}: type one first.", wanted()));
    }
    let without_unit = strip_unit(trimmed, unit).trim();
    let compact: String = without_unit
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_' && *c != '\u{202f}')
        .collect();
    let normalised = normalise_separators(&compact);
    let looks_numeric = !normalised.is_empty()
        && normalised
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e' | 'E'));
    match normalised.parse::<f64>() {
        Ok(v) if looks_numeric && v.is_finite() => Ok(v),
        _ => Err(format!(
            "{}; \"{}\" is not one.",
            wanted(),
            shorten(trimmed, 24)
        )),
    }
}

/// `text` without `unit` (or a `%` sign for a percentage) at its end.
fn strip_unit<'a>(text: &'a str, unit: &str) -> &'a str {
    let lower = text.to_lowercase();
    let mut candidates = vec![unit.to_lowercase()];
    if unit == "%" {
        candidates.push("percent".to_string());
    }
    for candidate in candidates.iter().filter(|c| !c.is_empty()) {
        if lower.ends_with(candidate.as_str())
            && text.is_char_boundary(text.len() - candidate.len())
        {
            return &text[..text.len() - candidate.len()];
        }
    }
    text
}

/// `1,050` and `1,050.5` lose their thousands commas; a lone decimal comma (`6,6`) becomes a
/// point.
fn normalise_separators(s: &str) -> String {
    let commas = s.matches(',').count();
    if commas == 0 {
        return s.to_string();
    }
    let int_part = s.split('.').next().unwrap_or("");
    let groups: Vec<&str> = int_part.trim_start_matches(['-', '+']).split(',').collect();
    let thousands = groups.len() > 1
        && !groups[0].is_empty()
        && groups[0].len() <= 3
        && groups[1..].iter().all(|g| g.len() == 3);
    if thousands {
        s.replace(',', "")
    } else if commas == 1 && !s.contains('.') {
        s.replace(',', ".")
    } else {
        // Leave it for the parser to reject.
        s.to_string()
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(state: ExerciseState, part: &str, text: &str) -> ExerciseState {
        state
            .apply(Action::Type {
                part: part.to_string(),
                text: text.to_string(),
            })
            .apply(Action::Check(part.to_string()))
    }

    fn feedback(state: &ExerciseState, part: &str) -> Feedback {
        state.attempt(part).feedback.expect("a verdict")
    }

    /// Numbers a text states, as a reader would see them (`1,050` is one number).
    fn numbers_in(text: &str) -> Vec<f64> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .filter_map(|w| w.trim_matches(['.', ',']).replace(',', "").parse().ok())
            .collect()
    }

    #[test]
    fn numbers_and_sizes() {
        assert_eq!(Which::from_number(0), None);
        assert_eq!(Which::from_number(5), None);
        assert_eq!(Which::from_number(255), None);
        for n in 1..=4 {
            assert_eq!(Which::from_number(n).unwrap().number(), n);
        }
        assert_eq!(Which::Layers.prefix(), "ex3");
    }

    #[test]
    fn predictions_are_read_like_people_write_them() {
        let ok = |t: &str, unit: &str| parse_prediction("a1", unit, t).unwrap();
        assert_eq!(ok("1050", "ms"), 1_050.0);
        assert_eq!(ok(" 1,050 ", "ms"), 1_050.0);
        assert_eq!(ok("1 050", "ms"), 1_050.0);
        assert_eq!(ok("1,050.5", "ms"), 1_050.5);
        assert_eq!(ok("6,6", "s"), 6.6);
        assert_eq!(ok("220 ms", "ms"), 220.0);
        assert_eq!(ok("220MS", "ms"), 220.0);
        assert_eq!(ok("86%", "%"), 86.0);
        assert_eq!(ok("86 percent", "%"), 86.0);
        assert_eq!(ok("-3", "calls"), -3.0);
        assert_eq!(ok("2.7e3", "calls/s"), 2_700.0);
        for bad in [
            "",
            "   ",
            "abc",
            "NaN",
            "nan",
            "inf",
            "-infinity",
            "1e999",
            "12abc",
            "1,2,3.4.5",
            "ms",
            "--1",
            "½",
        ] {
            let message = parse_prediction("b2", "%", bad).unwrap_err();
            assert!(message.contains("Part (b2)"), "{bad:?}: {message}");
            assert!(message.contains("in %"), "{bad:?}: {message}");
        }
        // A long paste is shortened in the message, and never split inside a character.
        let long = "é".repeat(100);
        let message = parse_prediction("a", "s", &long).unwrap_err();
        assert!(message.chars().count() < 80, "{message}");
    }

    #[test]
    fn a_right_answer_is_accepted_and_a_wrong_one_gets_a_hint() {
        let s = ExerciseState::new(Which::Budget);
        assert!(s.computed.is_none(), "nothing runs before a click");
        let s = typed(s, "a1", "1050");
        assert_eq!(feedback(&s, "a1"), Feedback::Right);
        assert!(s.computed.is_some(), "checking made the run");
        assert!(!s.shown, "but does not show it");
        let s = typed(s, "a1", "900");
        let Feedback::Wrong(hint) = feedback(&s, "a1") else {
            panic!("900 ms accepted");
        };
        assert!(!hint.is_empty());
        assert!(!numbers_in(&hint).contains(&1_050.0), "{hint}");
        let s = typed(s, "b1", "220 ms");
        assert!(feedback(&s, "b1").is_right());
    }

    #[test]
    fn bad_input_gives_a_message_naming_the_part() {
        let mut s = ExerciseState::new(Which::Layers);
        for bad in ["abc", "NaN", "", "inf"] {
            s = typed(s, "a2", bad);
            let f = feedback(&s, "a2");
            assert_eq!(f.kind(), "invalid", "{bad:?}");
            assert!(f.text().contains("Part (a2)"), "{bad:?}: {}", f.text());
            assert!(f.text().contains("calls/s"), "{}", f.text());
        }
        // Open parts and unknown parts have nothing to check.
        let s = typed(s, "b2", "the library");
        assert_eq!(feedback(&s, "b2").kind(), "invalid");
        assert!(feedback(&s, "b2").text().contains("(b2)"));
        let s = typed(s, "zz", "1");
        assert_eq!(feedback(&s, "zz").kind(), "invalid");
        // The text of an open part is kept as typed.
        assert_eq!(s.attempt("b2").text, "the library");
    }

    #[test]
    fn typing_again_clears_the_verdict() {
        let s = typed(ExerciseState::new(Which::Budget), "a3", "2");
        assert!(feedback(&s, "a3").is_right());
        let s = s.apply(Action::Type {
            part: "a3".to_string(),
            text: "3".to_string(),
        });
        assert_eq!(s.attempt("a3").feedback, None);
        // Typing the same text keeps it.
        let s = typed(s, "a3", "2").apply(Action::Type {
            part: "a3".to_string(),
            text: "2".to_string(),
        });
        assert!(s.attempt("a3").feedback.is_some());
    }

    /// Every exercise at the lesson's settings: every numeric part accepts the run's own
    /// answer, rejects one far off with a hint that states no acceptable answer.
    #[test]
    fn every_part_of_every_exercise() {
        for which in Which::ALL {
            let mut s = ExerciseState::new(which).apply(Action::Run);
            assert!(s.error.is_none(), "{which:?}: {:?}", s.error);
            assert!(s.shown_results().is_some());
            let preview_ids: Vec<String> = s.preview.iter().map(|p| p.id.clone()).collect();
            let parts: Vec<Part> = s.parts().to_vec();
            let run_ids: Vec<String> = parts.iter().map(|p| p.id.clone()).collect();
            assert_eq!(
                preview_ids, run_ids,
                "{which:?}: the preview lists the same parts"
            );
            for p in parts.iter() {
                let Some(a) = &p.answer else { continue };
                s = typed(s, &p.id, &format!("{}", a.expected));
                assert!(feedback(&s, &p.id).is_right(), "{which:?} {}", p.id);
                let far = a.expected * 3.0 + 10.0;
                s = typed(s, &p.id, &format!("{far}"));
                let f = feedback(&s, &p.id);
                assert_eq!(f.kind(), "wrong", "{which:?} {}", p.id);
                for n in numbers_in(f.text()) {
                    assert!(
                        !a.check(n).correct,
                        "{which:?} {}: the hint states {n}: {}",
                        p.id,
                        f.text()
                    );
                }
            }
        }
    }

    #[test]
    fn run_and_solution_show_on_request() {
        let s = ExerciseState::new(Which::Northwind);
        assert!(s.shown_results().is_none() && s.shown_solution().is_none());
        let s = s.apply(Action::ToggleSolution);
        let solution = s.shown_solution().unwrap().to_string();
        assert!(solution.contains("6.6 s"), "{solution}");
        assert!(
            s.shown_results().is_none(),
            "the solution does not show the run"
        );
        let s = s.apply(Action::Run);
        let Some(Results::Northwind(r)) = s.shown_results() else {
            panic!("no Northwind results");
        };
        // The simulator's runs: the shared pool starves order history, its own bulkhead not.
        assert!(r.shared.success_rate() < r.separate.success_rate());
        assert_eq!(
            r.run.order_history.shared_success,
            Some(r.shared.success_rate())
        );
        assert!(s.parts().iter().any(|p| p.id == "e"));
        let s = s.apply(Action::ToggleSolution);
        assert!(s.shown_solution().is_none());
    }

    #[test]
    fn moving_a_control_drops_the_run_and_the_verdicts_but_keeps_the_text() {
        let s = typed(ExerciseState::new(Which::Layers), "b1", "300").apply(Action::Run);
        assert!(feedback(&s, "b1").is_right());
        let s = s.apply(Action::SetAttempts(Layer::Library, 5.0));
        assert!(s.computed.is_none() && !s.shown);
        assert_eq!(s.attempt("b1").text, "300");
        assert_eq!(s.attempt("b1").feedback, None);
        // Now the library makes 5 attempts: 300 is wrong, 500 is right.
        let s = s.apply(Action::Check("b1".to_string()));
        assert_eq!(feedback(&s, "b1").kind(), "wrong");
        let s = typed(s, "b1", "500");
        assert!(feedback(&s, "b1").is_right());
        // A display choice keeps the run.
        let s = s.apply(Action::Run).apply(Action::SetIdempotencyKey(true));
        assert!(s.shown);
        let Setup::Layers(l) = &s.setup else { panic!() };
        assert!(l.idempotency_key);
    }

    #[test]
    fn controls_clamp_and_name_bad_values() {
        let s = ExerciseState::new(Which::Layers).apply(Action::SetAttempts(Layer::Sidecar, 99.0));
        assert!(s.notice.as_ref().unwrap().contains("Sidecar attempts"));
        let Setup::Layers(l) = &s.setup else { panic!() };
        assert_eq!(l.exercise.sidecar_attempts, MAX_ATTEMPTS);
        let s = s.apply(Action::SetAttempts(Layer::FrontEnd, f64::NAN));
        let Setup::Layers(l) = &s.setup else { panic!() };
        assert_eq!(l.exercise.front_end_attempts, 3);
        assert!(s.notice.is_some());
        let s = s.apply(Action::SetAttempts(Layer::FrontEnd, 0.0));
        let Setup::Layers(l) = &s.setup else { panic!() };
        assert_eq!(l.exercise.front_end_attempts, 1);
        // Every run still works at the extremes.
        let s = s.apply(Action::Run);
        assert!(s.error.is_none() && s.shown);

        let b = ExerciseState::new(Which::Breaker)
            .apply(Action::SetMinCalls(7))
            .apply(Action::SetBlipsPerHour(-1.0));
        assert!(b.notice.as_ref().unwrap().contains("Blips per hour"));
        let Setup::Breaker(br) = &b.setup else {
            panic!()
        };
        assert_eq!(br.exercise.breaker.min_calls, 20);
        assert_eq!(br.exercise.noise.blips_per_hour, 0.0);
        // Actions meant for another exercise change nothing.
        let n = ExerciseState::new(Which::Budget)
            .apply(Action::SetJob(false))
            .apply(Action::SetBug(false))
            .apply(Action::SetRetrying(RetryingLayer::Nobody));
        assert_eq!(n.setup, Setup::lesson(Which::Budget));
    }

    #[test]
    fn the_bug_switch_picks_a_series_without_running_again() {
        let s = ExerciseState::new(Which::Breaker).apply(Action::SetMinCalls(5));
        let Setup::Breaker(b) = &s.setup else {
            panic!()
        };
        assert_eq!(b.exercise.breaker.min_calls, 5);
        let s = s.apply(Action::SetNoise(false)).apply(Action::Run);
        let before = s.computed.clone().unwrap();
        let s = s.apply(Action::SetBug(false));
        assert!(s.computed.as_ref().is_some_and(|c| *c == before));
        let Some(Results::Breaker(run)) = s.shown_results() else {
            panic!()
        };
        // No noise: the fixed client never opens.
        assert!(run.current.bug);
        assert_eq!(run.other.openings, 0);
        assert!(run.current.openings > 0);
    }

    #[test]
    fn without_the_job_the_drain_part_goes_away() {
        let s = ExerciseState::new(Which::Northwind).apply(Action::SetJob(false));
        assert!(!s.parts().iter().any(|p| p.id == "c"));
        let s = s.apply(Action::Run);
        assert!(!s.parts().iter().any(|p| p.id == "c"));
        let s = typed(s, "c", "6");
        assert_eq!(feedback(&s, "c").kind(), "invalid");
        let s = s.apply(Action::SetJob(true));
        assert!(s.parts().iter().any(|p| p.id == "c"));
        let s = typed(s, "c", "6");
        assert!(feedback(&s, "c").is_right());
    }
}
