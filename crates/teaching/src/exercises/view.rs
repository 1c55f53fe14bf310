//! One exercise on a page, without the browser, for any exercise: its settings, the student's
//! predictions and the verdicts on them, the run (made once, on request) and whether the
//! solution is showing. [`ExerciseState::apply`] is the only way it changes; the Yew reducer in
//! `ui/exercises/mod.rs` only wraps it. What differs from one exercise to the next (its
//! settings, its controls, what its run shows) is a [`PageExercise`]; the four of the lessons
//! are each in their own folder beside their logic (`exercises/ex1_budget/setup.rs`, ...).
//!
//! Runs are made lazily: "Run it", "Check" and "Show the solution" need the run of the current
//! settings and make it if there is none yet. Moving a control throws the run away and makes
//! no new one (exercise 2 simulates six hours of calls: a click may pay for that, a slider's
//! every step must not). Until there is a run, the parts listed come from a cheap preview of
//! the same exercise: their ids, questions and units are right, their answers are never used.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::rc::Rc;

use crate::exercises::{read_number, Exercise, Part};
use crate::page::runs::Shared;

/// What a page needs of one exercise beyond [`Exercise`]: its settings, how its controls
/// change them, and what a run shows.
pub trait PageExercise: Clone + PartialEq + Debug + 'static {
    /// The exercise's number on the page (1, 2...).
    const NUMBER: u8;
    /// The exercise these are the settings of.
    type Ex: Exercise;
    /// What a run shows.
    type Results: Clone + PartialEq + Debug + 'static;
    /// What its controls send.
    type Control: Clone + PartialEq + Debug + 'static;

    /// The lesson's settings.
    fn lesson() -> Self;
    /// The exercise as configured.
    fn exercise(&self) -> &Self::Ex;
    /// A cheap stand-in with the same parts (ids, questions, units), listed until there is a
    /// run. By default the exercise itself.
    fn preview_parts(&self) -> Vec<Part> {
        self.exercise().parts().unwrap_or_default()
    }
    /// Runs the exercise: what to show, its parts and its solution.
    fn compute(&self) -> Result<Computed<Self::Results>, String>;
    /// Applies a control: whether the run must be made again, and a notice if a value had to
    /// be corrected.
    fn control(&mut self, control: Self::Control) -> Change;
}

/// What a control did to the settings.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Change {
    /// The settings the run depends on changed: the run is dropped.
    pub rerun: bool,
    /// A value that had to be corrected, and how.
    pub notice: Option<String>,
}

impl Change {
    /// Nothing the run depends on changed (a display choice).
    pub fn display() -> Change {
        Change::default()
    }

    /// The run's settings changed when `changed`.
    pub fn rerun_if(changed: bool) -> Change {
        Change {
            rerun: changed,
            notice: None,
        }
    }

    /// The same change, with `notice`.
    pub fn with_notice(mut self, notice: Option<String>) -> Change {
        self.notice = notice;
        self
    }
}

/// A run with the parts and solution that go with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Computed<R> {
    /// The figures to draw.
    pub results: R,
    /// The parts, each numeric one with its answer from this run.
    pub parts: Vec<Part>,
    /// The worked solution of this run.
    pub solution: String,
}

/// Runs `exercise` and keeps the run with its parts and solution.
pub fn solve<E: Exercise>(exercise: &E) -> Result<Computed<E::Run>, String> {
    let run = exercise.run().map_err(|err| err.to_string())?;
    Ok(Computed {
        parts: exercise.parts_for(&run),
        solution: exercise.solution_for(&run),
        results: run,
    })
}

/// What the page says about one prediction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feedback {
    /// Within the tolerance; a note when it is right by another reading than the part's.
    Right(Option<String>),
    /// Off: a hint towards the mechanism (never the number).
    Wrong(String),
    /// Not something that can be checked (not a number, no such part...): says why.
    Invalid(String),
}

impl Feedback {
    /// True for [`Feedback::Right`].
    pub fn is_right(&self) -> bool {
        matches!(self, Feedback::Right(_))
    }

    /// The text shown.
    pub fn text(&self) -> &str {
        match self {
            Feedback::Right(None) => "Right",
            Feedback::Right(Some(note)) | Feedback::Wrong(note) | Feedback::Invalid(note) => note,
        }
    }

    /// The word that opens the verdict, so that it is said and not only marked: none where
    /// the text is the word itself ("Right").
    pub fn word(&self) -> Option<&'static str> {
        match self {
            Feedback::Right(None) => None,
            Feedback::Right(Some(_)) => Some("Right:"),
            Feedback::Wrong(_) => Some("Not right:"),
            Feedback::Invalid(_) => Some("Cannot check:"),
        }
    }

    /// A name for styles and tests: `right`, `wrong` or `invalid`.
    pub fn kind(&self) -> &'static str {
        match self {
            Feedback::Right(_) => "right",
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
    /// How the number was read, when the text allowed another reading ("Read as 86%: ...").
    pub reading: Option<String>,
}

/// Every change the exercise view can make; `C` is the exercise's own controls.
#[derive(Debug, Clone, PartialEq)]
pub enum Action<C> {
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
    /// Puts back answers saved earlier (part id -> what was typed, and whether it had been
    /// checked: a checked answer is checked again, so its verdict comes back too).
    Restore(BTreeMap<String, Saved>),
    /// Forgets every answer and verdict and goes back to the lesson's settings.
    Reset,
    /// One of the exercise's own controls.
    Control(C),
}

/// One exercise's view state.
#[derive(Debug, Clone)]
pub struct ExerciseState<S: PageExercise> {
    /// The settings.
    pub setup: S,
    /// The run of the current settings, once made.
    pub computed: Option<Shared<Computed<S::Results>>>,
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

impl<S: PageExercise> Default for ExerciseState<S> {
    fn default() -> Self {
        Self::new()
    }
}

/// One answer as the browser keeps it: what was typed, and whether it had been checked (an
/// older entry is the text alone).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Saved {
    /// Typed and checked.
    Checked { text: String, checked: bool },
    /// Typed only.
    Text(String),
}

impl Saved {
    fn text(self) -> (String, bool) {
        match self {
            Saved::Checked { text, checked } => (text, checked),
            Saved::Text(text) => (text, false),
        }
    }
}

/// [`ExerciseState::saved_answers`] for every exercise (outside the generic `impl`, so the
/// wasm holds one copy rather than one per exercise, each with a sort of its own).
fn saved_json(attempts: &BTreeMap<String, Attempt>) -> String {
    let saved: BTreeMap<&str, Saved> = attempts
        .iter()
        .filter(|(_, a)| !a.text.trim().is_empty())
        .map(|(id, a)| {
            let saved = match a.feedback {
                Some(_) => Saved::Checked {
                    text: a.text.clone(),
                    checked: true,
                },
                None => Saved::Text(a.text.clone()),
            };
            (id.as_str(), saved)
        })
        .collect();
    serde_json::to_string(&saved).unwrap_or_default()
}

impl<S: PageExercise> ExerciseState<S> {
    /// The exercise with the lesson's settings, nothing typed, nothing run.
    pub fn new() -> Self {
        let setup = S::lesson();
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

    /// The prefix of every element id of this exercise (`"ex2"`).
    pub fn prefix() -> String {
        format!("ex{}", S::NUMBER)
    }

    /// Where the answers are kept in the browser: one key per exercise.
    pub fn storage_key(&self) -> String {
        format!(
            "resilience-playground/answers/{}",
            self.setup.exercise().id()
        )
    }

    /// The answers worth keeping (part id -> text, empty texts left out), as JSON.
    pub fn saved_answers(&self) -> String {
        saved_json(&self.attempts)
    }

    /// Answers read back from [`ExerciseState::saved_answers`]'s JSON; anything unreadable is
    /// an empty set (a stale or hand-edited entry never breaks the page).
    pub fn parse_saved(json: &str) -> BTreeMap<String, Saved> {
        serde_json::from_str(json).unwrap_or_default()
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
    pub fn shown_results(&self) -> Option<&S::Results> {
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
            attempt.reading = None;
        }
    }

    fn check(&mut self, part_id: &str) {
        let text = self.attempt(part_id).text;
        let mut reading = None;
        let feedback = if self.ensure_computed() {
            let part = self.parts().iter().find(|p| p.id == part_id);
            match part.and_then(|p| p.answer.as_ref()) {
                None => Feedback::Invalid(format!(
                    "Part ({part_id}) has no number to check with these settings."
                )),
                Some(answer) => match read_number(&text, &answer.unit) {
                    Err(why) => Feedback::Invalid(format!(
                        "Part ({part_id}) needs a number in {}: {why}.",
                        answer.unit
                    )),
                    Ok(read) => {
                        reading = read.describe(&answer.unit);
                        let verdict = answer.check(read.value);
                        if verdict.correct {
                            Feedback::Right(verdict.note)
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
        let attempt = self.attempts.entry(part_id.to_string()).or_default();
        attempt.feedback = Some(feedback);
        attempt.reading = reading;
    }

    /// The state after `action`.
    pub fn apply(mut self, action: Action<S::Control>) -> Self {
        self.notice = None;
        match action {
            Action::Type { part, text } => {
                let attempt = self.attempts.entry(part).or_default();
                if attempt.text != text {
                    attempt.text = text;
                    attempt.feedback = None;
                    attempt.reading = None;
                }
            }
            Action::Check(part) => self.check(&part),
            Action::Run => self.shown = self.ensure_computed(),
            Action::ToggleSolution => {
                self.solution_open = !self.solution_open && self.ensure_computed();
            }
            Action::Restore(saved) => {
                let mut checked = Vec::new();
                for (part, saved) in saved {
                    let (text, was_checked) = saved.text();
                    if was_checked {
                        checked.push(part.clone());
                    }
                    self.attempts.insert(
                        part,
                        Attempt {
                            text,
                            ..Attempt::default()
                        },
                    );
                }
                for part in checked {
                    self.check(&part);
                }
            }
            Action::Reset => self = Self::new(),
            Action::Control(control) => {
                let change = self.setup.control(control);
                if change.rerun {
                    self.settings_changed();
                }
                self.notice = change.notice;
            }
        }
        self
    }
}

/// `value` inside `min..=max` (the `current` one if it is not a number), and a notice naming
/// `label` when it had to change.
pub fn clamp(label: &str, value: f64, min: f64, max: f64, current: f64) -> (f64, Option<String>) {
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
