//! Guided lessons as data: each lesson a list of steps, each step one idea with a short text,
//! the run that shows it (a preset and the playground's own settings), the moment to play to,
//! the views to look at and the rules that say, with the run's own figures, what to notice.
//! The lesson page, the `lesson-step` widget and the tests all walk these lists.

pub mod challenge;
pub mod check;
pub mod deck;
pub mod format;
pub mod live;
mod names;
pub mod predict;
pub mod progress;
pub mod rules;
pub mod vocabulary;
pub mod vote;
pub mod worksheet;

/// A sentence or a title that starts with `text`: its first letter upper-case (`jitter` ->
/// `Jitter`). Only an ASCII letter is raised: the texts are the playground's own, and Unicode's
/// case tables would add about 24 KB to every page's module.
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        std::iter::once(first.to_ascii_uppercase())
            .chain(chars)
            .collect()
    })
}
pub use predict::{Answer, Asked, Choice, Claim, Prediction, Question, Verdict};
pub use rules::{Reading, Rule};

use std::sync::OnceLock;

use super::action::Action;
use super::compare::Side;
use super::knobs::knob;
use super::permalink::from_pairs;
use super::settings::Settings;
use super::state::Page;
use crate::sim::scenario::{apply_set, Preset};

/// A guided lesson: one of the two the playground ships, or one a teacher opened.
#[derive(Debug, Clone, Copy)]
pub enum Lesson {
    /// Lesson 000, Kilometre Zero's Saturday cascade and every pattern that stops it.
    Km0,
    /// Lesson 004, Northwind's flash sale and its Resilience4j settings.
    Northwind,
    /// Challenges: broken systems to mend with the patterns, each judged on several seeds.
    Challenges,
    /// The failure zoo: metastable failures beside the retry storm, each with its cure.
    Zoo,
    /// A lesson a teacher opened from a file, kept for as long as the page lives.
    Own(&'static OwnLesson),
}

/// Two lessons are the same lesson: the same shipped one, or the same opening of a file.
impl PartialEq for Lesson {
    fn eq(&self, other: &Lesson) -> bool {
        match (self, other) {
            (Lesson::Own(a), Lesson::Own(b)) => std::ptr::eq(*a, *b),
            (Lesson::Km0, Lesson::Km0)
            | (Lesson::Northwind, Lesson::Northwind)
            | (Lesson::Challenges, Lesson::Challenges)
            | (Lesson::Zoo, Lesson::Zoo) => true,
            _ => false,
        }
    }
}

impl Eq for Lesson {}

impl std::hash::Hash for Lesson {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.key().hash(state);
        if let Lesson::Own(own) = self {
            std::ptr::hash(*own, state);
        }
    }
}

/// A lesson a teacher wrote: its text, read, and where it came from.
#[derive(Debug, PartialEq)]
pub struct OwnLesson {
    /// The lesson.
    pub text: format::LessonText,
    /// Where it came from, which its addresses name.
    pub source: OwnSource,
}

/// Where a teacher's lesson came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OwnSource {
    /// A path on the playground's own host (`lesson.html?file=lessons/mine.md`).
    Path(String),
    /// A file picked or dropped on the page (kept in the browser's storage).
    Picked {
        /// The file's name.
        file_name: String,
    },
}

/// The path `file=` gives for a teacher's lesson, if it is one on the playground's own host
/// (`lessons/mine.md`, `/course/week3.md`); otherwise a message naming the setting and what it
/// takes. An address with a scheme or another host is refused: a lesson comes from where the
/// page does.
pub fn lesson_path(text: &str) -> Result<String, String> {
    let path = text.trim();
    let elsewhere = path.contains(':') || path.starts_with("//") || path.contains('\\');
    if path.is_empty() || elsewhere || path.len() > 300 || path.chars().any(char::is_control) {
        return Err(super::permalink::bad(
            "file",
            path,
            "a path on this site, such as lessons/mine.md",
        ));
    }
    Ok(path.to_string())
}

impl OwnLesson {
    /// Reads `text` as a lesson from `source`, kept for the rest of the page's life (a page
    /// opens a few at most), or the mistake that stops it, with its line.
    pub fn open(text: &str, source: OwnSource) -> Result<Lesson, format::FormatError> {
        let text = format::parse(text)?;
        Ok(Lesson::Own(Box::leak(Box::new(OwnLesson { text, source }))))
    }
}

/// A view a step shows under its timeline (which every step has).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// Anna, Kong, orders and inventory with their meters.
    Topology,
    /// The breaker's state diagram.
    Diagram,
    /// The latency histogram.
    Latency,
    /// Requests per second by outcome, the workers and the queue over time.
    Load,
}

/// One step of a lesson.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// Its stable name in addresses and widget attributes (`step=herd-on-hot-items`): kept when
    /// steps are inserted or reordered, unlike its number.
    pub name: &'static str,
    /// Its heading.
    pub title: &'static str,
    /// Its text, a paragraph per item.
    pub text: &'static [&'static str],
    /// The run, as the playground's permalink settings (`preset`, `patterns`, knobs, `latency`;
    /// `ab` for a step that shows a second run beside it with one control changed; `trace` for
    /// a request the step offers to follow once its run has played).
    pub settings: &'static [(&'static str, &'static str)],
    /// The moment the step plays to, in seconds.
    pub play_to: f64,
    /// The one control the step offers to try a variation (a knob's key), if any.
    pub knob: Option<&'static str>,
    /// What to look at, in order.
    pub views: &'static [View],
    /// What to notice.
    pub notice: &'static [Rule],
    /// The glossary's terms the step teaches (`@terms`): their meanings are printed under its
    /// text, and no earlier step may use them.
    pub terms: &'static [&'static str],
    /// What the class predicts before the run plays, if the step asks.
    pub question: Option<Question>,
    /// Goals the student meets with the step's controls, if the step is a challenge.
    pub challenge: Option<challenge::Challenge>,
    /// The numbers an address opens it by (`step=8`) when its lesson froze them
    /// (`@link-number`): links written before steps were inserted keep their step. Empty in
    /// a lesson that counts its steps as they stand.
    pub link_numbers: &'static [usize],
}

impl Lesson {
    /// Both lessons.
    pub const ALL: [Lesson; 4] = [
        Lesson::Km0,
        Lesson::Northwind,
        Lesson::Challenges,
        Lesson::Zoo,
    ];

    /// The value of `lesson=` in the address and of the widget's `lesson` attribute (`own`
    /// for a teacher's lesson).
    pub fn key(self) -> &'static str {
        match self {
            Lesson::Km0 => "km0",
            Lesson::Northwind => "northwind",
            Lesson::Challenges => "challenges",
            Lesson::Zoo => "zoo",
            Lesson::Own(_) => "own",
        }
    }

    /// Its heading.
    pub fn title(self) -> &'static str {
        &self.text().title
    }

    /// Its text. A shipped lesson's comes from `lessons/KEY.md`: on the host (the CLI, the
    /// tests) the files are part of the build, read on first use; in the browser they are
    /// data beside the page, fetched and handed to [`Lesson::install`] before a lesson shows,
    /// so the wasm carries none of their text. Until then a shipped lesson has no steps.
    fn text(self) -> &'static format::LessonText {
        let Some(cell) = self.shipped() else {
            let Lesson::Own(own) = self else {
                unreachable!("only a teacher's lesson is not shipped")
            };
            return &own.text;
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            cell.get_or_init(|| {
                format::parse(self.built_in_text())
                    .unwrap_or_else(|e| panic!("lessons/{}.md, {e}", self.key()))
            })
        }
        #[cfg(target_arch = "wasm32")]
        {
            static NOT_YET: OnceLock<format::LessonText> = OnceLock::new();
            cell.get()
                .unwrap_or_else(|| NOT_YET.get_or_init(format::LessonText::default))
        }
    }

    /// Where a shipped lesson's text is kept once read; `None` for a teacher's.
    fn shipped(self) -> Option<&'static OnceLock<format::LessonText>> {
        static KM0: OnceLock<format::LessonText> = OnceLock::new();
        static NORTHWIND: OnceLock<format::LessonText> = OnceLock::new();
        static CHALLENGES: OnceLock<format::LessonText> = OnceLock::new();
        static ZOO: OnceLock<format::LessonText> = OnceLock::new();
        match self {
            Lesson::Km0 => Some(&KM0),
            Lesson::Northwind => Some(&NORTHWIND),
            Lesson::Challenges => Some(&CHALLENGES),
            Lesson::Zoo => Some(&ZOO),
            Lesson::Own(_) => None,
        }
    }

    /// A shipped lesson's file, as the build holds it (host only: the page fetches them).
    #[cfg(not(target_arch = "wasm32"))]
    fn built_in_text(self) -> &'static str {
        match self {
            Lesson::Km0 => include_str!("../../../../../lessons/km0.md"),
            Lesson::Northwind => include_str!("../../../../../lessons/northwind.md"),
            Lesson::Challenges => include_str!("../../../../../lessons/challenges.md"),
            Lesson::Zoo => include_str!("../../../../../lessons/zoo.md"),
            Lesson::Own(_) => "",
        }
    }

    /// The file a shipped lesson is read from, beside the pages (`lessons/km0.md`).
    pub fn file_name(self) -> String {
        format!("lessons/{}.md", self.key())
    }

    /// Whether its text is here: always for a teacher's lesson and on the host; in the
    /// browser once [`Lesson::install`] has had it.
    pub fn is_ready(self) -> bool {
        self.shipped()
            .is_none_or(|cell| cfg!(not(target_arch = "wasm32")) || cell.get().is_some())
    }

    /// Reads `text` as this shipped lesson's file (fetched by the page), or the mistake with
    /// its line. Installing twice keeps the first.
    pub fn install(self, text: &str) -> Result<(), format::FormatError> {
        let read = format::parse(text)?;
        if let Some(cell) = self.shipped() {
            let _ = cell.set(read);
        }
        Ok(())
    }

    /// The shipped lesson an address's `lesson=` names, KM0 when it names none (the lesson a
    /// page shows when the address says nothing it can use): the one read before the first view.
    pub fn named_in(pairs: &[(String, String)]) -> Lesson {
        pairs
            .iter()
            .find(|(k, _)| k == "lesson")
            .and_then(|(_, v)| Lesson::parse(v))
            .unwrap_or(Lesson::Km0)
    }

    /// The shipped lessons a page opened at an address reads before its first view: the one
    /// [`Lesson::named_in`] the address, and, when it opens on that lesson's recap
    /// (`step=end`), the lesson the recap sends the class to next (its link gives that
    /// lesson's title and first step). The others can wait until the first view is up.
    pub fn read_first(pairs: &[(String, String)]) -> Vec<Lesson> {
        let named = Lesson::named_in(pairs);
        let step = pairs
            .iter()
            .find(|(k, _)| k == "step")
            .map(|(_, v)| v.trim());
        if step == Some("end") {
            vec![named, named.other()]
        } else {
            vec![named]
        }
    }

    /// The lesson a key names.
    pub fn parse(key: &str) -> Option<Lesson> {
        Lesson::ALL.into_iter().find(|l| l.key() == key.trim())
    }

    /// Its steps, in order.
    pub fn steps(self) -> &'static [Step] {
        &self.text().steps
    }

    /// The index of the step called `name`.
    pub fn find(self, name: &str) -> Option<usize> {
        self.steps().iter().position(|s| s.name == name)
    }

    /// The step `number` (1-based) opens: the step that gives it as an `@link-number` in a
    /// lesson that froze its numbers (KM0's links numbered 14 steps before its herd step was
    /// inserted as the eighth, so 8 still opens the breaker), else the step standing there.
    pub fn by_number(self, number: usize) -> Option<usize> {
        if self.counts_steps() {
            let index = number.checked_sub(1)?;
            return (index < self.steps().len()).then_some(index);
        }
        self.steps()
            .iter()
            .position(|s| s.link_numbers.contains(&number))
    }

    /// True for a lesson no step of which gives an `@link-number`.
    fn counts_steps(self) -> bool {
        self.steps().iter().all(|s| s.link_numbers.is_empty())
    }

    /// How many numbers an address may give for a step.
    fn numbers(self) -> usize {
        if self.counts_steps() {
            return self.steps().len();
        }
        let numbers = self.steps().iter().flat_map(|s| s.link_numbers.iter());
        numbers.copied().max().unwrap_or(0)
    }
}

/// A step picked by lesson and position (the address names it: see [`StepRef::query`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepRef {
    /// The lesson.
    pub lesson: Lesson,
    /// The step's index in [`Lesson::steps`] (0-based).
    pub index: usize,
}

impl StepRef {
    /// The step itself (the last one for the recap after it).
    pub fn step(self) -> &'static Step {
        &self.lesson.steps()[self.index.min(self.lesson.steps().len() - 1)]
    }

    /// The key of the step's "Try it" control (none for the recap or a step without one).
    pub fn knob(self) -> Option<&'static str> {
        (!self.is_recap()).then(|| self.step().knob).flatten()
    }

    /// Whether this is the recap that follows the last step.
    pub fn is_recap(self) -> bool {
        self.index >= self.lesson.steps().len()
    }

    /// The step after this one (after the last step, the recap), if any.
    pub fn next(self) -> Option<StepRef> {
        (self.index < self.lesson.steps().len()).then_some(StepRef {
            index: self.index + 1,
            ..self
        })
    }

    /// The step before this one, if any.
    pub fn back(self) -> Option<StepRef> {
        let index = self.index.min(self.lesson.steps().len());
        index.checked_sub(1).map(|index| StepRef { index, ..self })
    }

    /// The step of `lesson` called `name`, if there is one.
    pub fn named(lesson: Lesson, name: &str) -> Option<StepRef> {
        lesson.find(name).map(|index| StepRef { lesson, index })
    }

    /// The step's name in addresses (`end` for the recap).
    pub fn name(self) -> &'static str {
        if self.is_recap() {
            "end"
        } else {
            self.step().name
        }
    }

    /// The step's own query string, `lesson=km0&step=herd-on-hot-items` (`step=end` for the
    /// recap); a teacher's lesson from a path names its file (`file=lessons/mine.md&step=...`).
    pub fn query(self) -> String {
        match self.lesson {
            Lesson::Own(OwnLesson {
                source: OwnSource::Path(path),
                ..
            }) => format!(
                "{}&step={}",
                serde_urlencoded::to_string([("file", path)]).unwrap_or_default(),
                self.name()
            ),
            lesson => format!("lesson={}&step={}", lesson.key(), self.name()),
        }
    }

    /// "Step 3 of 15", or "Recap" after the last step.
    pub fn count(self) -> String {
        if self.is_recap() {
            "Recap".into()
        } else {
            format!("Step {} of {}", self.index + 1, self.lesson.steps().len())
        }
    }

    /// Reads `lesson` and `step` from `pairs` (an address's query or a widget's attributes);
    /// a missing or bad value becomes the first lesson or step, with a notice naming it and
    /// what it allows. Other keys are left for the caller.
    pub fn from_pairs(pairs: &[(String, String)]) -> (StepRef, Vec<String>) {
        let mut notices = Vec::new();
        let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim());
        let names: Vec<&str> = Lesson::ALL.iter().map(|l| l.key()).collect();
        let lesson = match value("lesson") {
            None | Some("") => Lesson::Km0,
            Some(v) => Lesson::parse(v).unwrap_or_else(|| {
                notices.push(super::permalink::bad(
                    "lesson",
                    v,
                    &format!("one of {}", names.join(", ")),
                ));
                Lesson::Km0
            }),
        };
        let (step, more) = StepRef::from_pairs_in(lesson, pairs);
        notices.extend(more);
        (step, notices)
    }

    /// Reads `step` from `pairs` as a step of `lesson`; a missing or bad value becomes its
    /// first step, with a notice naming it and what it allows.
    pub fn from_pairs_in(lesson: Lesson, pairs: &[(String, String)]) -> (StepRef, Vec<String>) {
        let mut notices = Vec::new();
        let value = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.trim());
        let last = lesson.steps().len();
        let index = match value("step") {
            None | Some("") => 0,
            Some("end") => last,
            Some(v) => {
                let found = match v.parse::<usize>() {
                    Ok(number) => lesson.by_number(number),
                    Err(_) => lesson.find(v),
                };
                found.unwrap_or_else(|| {
                    notices.push(format!(
                        "step: \"{}\" is not a step of {} (a step's name such as {}, a number \
                         1 to {}, or end for the recap); showing the first step.",
                        v.chars().take(40).collect::<String>(),
                        lesson.key(),
                        lesson.steps()[last - 1].name,
                        lesson.numbers()
                    ));
                    0
                })
            }
        };
        (StepRef { lesson, index }, notices)
    }
}

impl Step {
    /// The moment to play to, in microseconds.
    pub fn moment(&self) -> u64 {
        (self.play_to * 1e6).round() as u64
    }

    /// The step's page before its run plays: the playhead at 0, the timeline and the charts
    /// spanning the step's window (0 to its moment), every clock in simulated seconds; and
    /// any setting that could not be used (none, for the steps shipped: the tests check).
    pub fn page(&self) -> (Page, Vec<String>) {
        self.page_tried(None)
    }

    /// [`Step::page`] with its "Try it" control at `tried` (the text a link carries for it,
    /// when a student had moved it): a value out of range is refused with a notice naming it.
    pub fn page_tried(&self, tried: Option<&str>) -> (Page, Vec<String>) {
        let extra: Vec<(&str, &str)> = match (self.knob, tried) {
            (Some(key), Some(text)) => vec![(key, text)],
            _ => Vec::new(),
        };
        self.page_with(&extra)
    }

    /// [`Step::page`] with `extra` settings on top of the step's own (a challenge's
    /// solution, a tried value), each refused with a notice if it cannot be used.
    pub fn page_with(&self, extra: &[(&str, &str)]) -> (Page, Vec<String>) {
        // An extra setting takes the place of the step's own of the same key; one that cannot
        // be used leaves the step's own, and comes after it to be refused with its notice.
        let preset = self
            .settings
            .iter()
            .find(|(k, _)| *k == "preset")
            .and_then(|(_, v)| Preset::parse(v))
            .unwrap_or(Preset::OPENING);
        let base = Settings::new(preset);
        let usable = |key: &str, text: &str| {
            knob(key).is_none_or(|k| super::permalink::read_knob(k, &base.full, text).is_ok())
        };
        let pairs: Vec<(String, String)> = self
            .settings
            .iter()
            .filter(|(k, _)| !extra.iter().any(|(e, v)| e == k && usable(e, v)))
            .chain(extra)
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (page, notices) = from_pairs(&pairs);
        // A step that compares keeps B as its one change; its "Try it" control moves A.
        let page = page
            .apply(Action::SetAbEdits(Side::A))
            .apply(Action::SetPlainClock(true))
            .apply(Action::SetWindow(Some(self.moment())));
        (page, notices)
    }

    /// The step's own value of its "Try it" control, as a link writes it (read from the
    /// preset and the step's settings, without a run).
    pub fn own_tried_text(&self) -> Option<String> {
        let k = knob(self.knob?)?;
        let preset = self
            .settings
            .iter()
            .find(|(key, _)| *key == "preset")
            .and_then(|(_, v)| Preset::parse(v))?;
        let mut settings = Settings::new(preset);
        for (key, text) in self.settings.iter().filter(|(key, _)| *key == k.key) {
            apply_set(&mut settings.full, key, text).ok()?;
        }
        Some(k.link_text(&settings.full))
    }

    /// The step's page played to its moment.
    pub fn page_at_moment(&self) -> (Page, Vec<String>) {
        let (page, notices) = self.page();
        (page.apply(Action::Seek(self.moment())), notices)
    }

    /// The verdict on `prediction` for the step's question, read from `page`'s run at the
    /// step's moment (whatever the playhead); `None` without a question or a run.
    pub fn judge(&self, page: &Page, prediction: Prediction) -> Option<Verdict> {
        let run = page.runs.a.as_ref().ok()?;
        let reading = Reading {
            run,
            now: self.moment(),
            b: page.b_run().map(|b| &*b.0),
        };
        self.question?.judge(prediction, &reading)
    }

    /// What a class vote is judged on, read from `page`'s run at the step's moment: the
    /// choices that held (or the value a number question asks for), and the run's figure in
    /// words. `None` without a question or a run.
    pub fn reveal(&self, page: &Page) -> Option<(vote::Revealed, String)> {
        let run = page.runs.a.as_ref().ok()?;
        let reading = Reading {
            run,
            now: self.moment(),
            b: page.b_run().map(|b| &*b.0),
        };
        let question = self.question?;
        let measured = match question.answer {
            Answer::Number { measure, .. } => measure.value(&reading),
            Answer::Choices(_) => None,
        };
        let revealed = vote::Revealed {
            right: question.right_choices(&reading),
            measured,
        };
        Some((revealed, question.fact(&reading)))
    }

    /// What to notice in `page`'s run at its playhead: one sentence per rule that has
    /// something to say by then.
    pub fn notices(&self, page: &Page) -> Vec<String> {
        self.notices_by_rule(page)
            .into_iter()
            .map(|(_, sentence)| sentence)
            .collect()
    }

    /// [`Step::notices`], each with its rule's place in the step (what a listener has heard
    /// is counted by rule: a rule's figure changes as the run goes on).
    pub fn notices_by_rule(&self, page: &Page) -> Vec<(usize, String)> {
        let Ok(run) = &page.runs.a else {
            return Vec::new();
        };
        let reading = Reading {
            run,
            now: page.playback.playhead,
            b: page.b_run().map(|b| &*b.0),
        };
        self.notice
            .iter()
            .enumerate()
            .filter_map(|(i, &rule)| reading.say(rule).map(|s| (i, s)))
            .collect()
    }
}

/// One line of a lesson's recap: a step's title and the first thing it noticed, at its moment.
#[derive(Debug, Clone, PartialEq)]
pub struct RecapLine {
    /// The step.
    pub step: StepRef,
    /// Its title.
    pub title: &'static str,
    /// Its key figure: the first sentence its run says at the step's moment.
    pub figure: String,
}

/// The recap of `lesson`: a line per step, each run played to its moment. A challenge's step
/// starts from what is broken, so its line reads the run its solution mends.
pub fn recap(lesson: Lesson) -> Vec<RecapLine> {
    lesson
        .steps()
        .iter()
        .enumerate()
        .map(|(index, step)| {
            let solution = step.challenge.as_ref().map_or(&[][..], |c| c.solution);
            let (page, _) = step.page_with(solution);
            let page = page.apply(Action::Seek(step.moment()));
            RecapLine {
                step: StepRef { lesson, index },
                title: step.title,
                figure: step.notices(&page).into_iter().next().unwrap_or_default(),
            }
        })
        .collect()
}

impl Lesson {
    /// The other lesson, which a recap points to.
    pub fn other(self) -> Lesson {
        match self {
            Lesson::Km0 => Lesson::Northwind,
            Lesson::Northwind | Lesson::Challenges | Lesson::Zoo | Lesson::Own(_) => Lesson::Km0,
        }
    }
}

/// The step a `lesson-step` widget's settings name (`lesson`, `step`), with a notice per
/// setting it could not use, other attributes included (a step brings its own settings).
pub fn widget_step(settings: &[(String, String)]) -> (StepRef, Vec<String>) {
    let (step, mut notices) = StepRef::from_pairs(settings);
    for (key, _) in settings {
        if key != "lesson" && key != "step" {
            notices.push(format!(
                "{key}: a lesson-step widget takes only lesson and step (its step sets the rest); \
                 ignored."
            ));
        }
    }
    (step, notices)
}

/// Runs the lessons' host tests share.
#[cfg(test)]
pub(crate) mod test_runs {
    use crate::page::runs::Run;
    use crate::sim::params::apply_set;
    use crate::sim::scenario::Scenario;

    /// 20 s of inventory with a long tail from the start (p99 400 ms) that never degrades,
    /// hedged after 200 ms: some copies leave, and some answer first.
    pub fn hedged_tail() -> Run {
        let mut config = Scenario::None.config();
        for (key, value) in [
            ("degrade_at", "3600"),
            ("fast_p99", "400ms"),
            ("duration", "20"),
            ("hedge_after", "200ms"),
        ] {
            apply_set(&mut config, key, value).expect("a key of the table");
        }
        Run::of(config).expect("the run")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_challenges_recap_line_reads_the_run_its_solution_mends() {
        use super::{recap, Lesson};
        let zoo = Lesson::Zoo;
        let lines = recap(zoo);
        let steps = zoo.steps();
        let mend = steps
            .iter()
            .position(|s| s.name == "gc-spiral-challenge")
            .expect("the zoo mends its heap");
        let broken = steps
            .iter()
            .position(|s| s.challenge.is_none())
            .expect("the zoo's first step shows the spiral");
        assert!(steps[mend]
            .challenge
            .is_some_and(|c| !c.solution.is_empty()));
        // The challenge starts from the spiral; its line says what the mend gives.
        let (own, _) = steps[mend].page_at_moment();
        let own = steps[mend].notices(&own).into_iter().next().unwrap();
        assert_eq!(own, lines[broken].figure);
        assert_ne!(lines[mend].figure, own, "{}", lines[mend].figure);
        assert!(!lines[mend].figure.is_empty());
        for (line, step) in lines.iter().zip(steps) {
            if step.challenge.is_none() {
                let (page, _) = step.page_at_moment();
                let first = step.notices(&page).into_iter().next().unwrap_or_default();
                assert_eq!(line.figure, first, "{}", step.name);
            }
        }
    }

    #[test]
    fn the_lesson_read_first_is_the_one_the_address_names_or_km0() {
        use super::Lesson;
        let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
            list.iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        };
        let zoo = pairs(&[("step", "3"), ("lesson", "zoo")]);
        assert_eq!(Lesson::named_in(&zoo).key(), "zoo");
        for other in [
            &[][..],
            &[("lesson", "own")],
            &[("lesson", "nope")],
            &[("file", "x.md")],
        ] {
            assert_eq!(Lesson::named_in(&pairs(other)).key(), "km0", "{other:?}");
        }
        // The recap's link needs the lesson it names next; a step does not.
        assert_eq!(Lesson::read_first(&zoo), [Lesson::Zoo]);
        assert_eq!(Lesson::read_first(&pairs(&[])), [Lesson::Km0]);
        let recap = |lesson| pairs(&[("lesson", lesson), ("step", " end")]);
        assert_eq!(
            Lesson::read_first(&recap("km0")),
            [Lesson::Km0, Lesson::Northwind]
        );
        assert_eq!(
            Lesson::read_first(&recap("zoo")),
            [Lesson::Zoo, Lesson::Km0]
        );
    }

    #[test]
    fn a_teachers_lesson_opens_with_addresses_of_its_own() {
        let text = include_str!("../../../../../lessons/northwind.md");
        let path = OwnSource::Path("lessons/my lesson.md".into());
        let own = OwnLesson::open(text, path).expect("reads");
        assert_eq!(own.steps().len(), 5);
        assert_eq!(own.title(), Lesson::Northwind.title());
        let second = StepRef {
            lesson: own,
            index: 1,
        };
        assert_eq!(
            second.query(),
            "file=lessons%2Fmy+lesson.md&step=shared-bulkhead"
        );
        let pairs = vec![("step".to_string(), "fallback".to_string())];
        assert_eq!(StepRef::from_pairs_in(own, &pairs).0.index, 4);
        let numbered = vec![("step".to_string(), "2".to_string())];
        assert_eq!(StepRef::from_pairs_in(own, &numbered).0.index, 1);
        let (first, notices) =
            StepRef::from_pairs_in(own, &[("step".to_string(), "9".to_string())]);
        assert_eq!(first.index, 0);
        assert!(notices[0].contains("1 to 5"), "{notices:?}");
        // Each opening is a lesson of its own; a picked file's steps say `lesson=own`.
        let picked = OwnSource::Picked {
            file_name: "mine.md".into(),
        };
        let again = OwnLesson::open(text, picked).expect("reads");
        assert_ne!(again, own);
        assert_eq!(again, again);
        assert_eq!(
            StepRef {
                lesson: again,
                index: 0
            }
            .query(),
            "lesson=own&step=the-incident"
        );
        assert_eq!(own.other(), Lesson::Km0);
        let broken = OwnLesson::open("# T\n\n## S\n@nam x\n", OwnSource::Path("x.md".into()));
        assert_eq!(broken.unwrap_err().line, 4);
    }

    #[test]
    fn a_lesson_comes_from_the_pages_own_host() {
        assert_eq!(
            lesson_path(" lessons/mine.md "),
            Ok("lessons/mine.md".into())
        );
        assert_eq!(lesson_path("/course/w3.md"), Ok("/course/w3.md".into()));
        for elsewhere in [
            "https://evil.example/x.md",
            "//evil.example/x.md",
            "javascript:alert(1)",
            "",
            "a\\b.md",
        ] {
            let e = lesson_path(elsewhere).unwrap_err();
            assert!(e.contains("a path on this site"), "{elsewhere}: {e}");
        }
    }

    #[test]
    fn the_shipped_lessons_read_and_write_back_the_same() {
        let counts = [
            (super::Lesson::Km0, 17),
            (super::Lesson::Northwind, 5),
            (super::Lesson::Challenges, 9),
            (super::Lesson::Zoo, 10),
        ];
        for (lesson, steps) in counts {
            assert_eq!(lesson.steps().len(), steps, "{}", lesson.key());
            assert!(!lesson.title().is_empty());
            // Written out and read again, the text gives the same steps.
            let again = super::format::write(lesson.title(), lesson.steps());
            let read = super::format::parse(&again).expect("reads back");
            assert_eq!(read.steps, lesson.steps());
            assert_eq!(read.title, lesson.title());
        }
    }

    use super::*;

    fn pairs(q: &str) -> Vec<(String, String)> {
        super::super::permalink::parse_query(q).0
    }

    #[test]
    fn the_lessons_have_the_steps_the_issue_asks_for() {
        assert!(Lesson::Km0.steps().len() >= 10);
        assert!(Lesson::Northwind.steps().len() >= 4);
        for lesson in Lesson::ALL {
            assert_eq!(Lesson::parse(lesson.key()), Some(lesson));
            for step in lesson.steps() {
                assert!(!step.text.is_empty() && !step.views.is_empty() && !step.notice.is_empty());
                assert!(step.play_to > 0.0, "{}", step.title);
                if let Some(key) = step.knob {
                    assert!(super::super::knobs::knob(key).is_some(), "{key}");
                }
            }
        }
    }

    /// The steps that compare show B beside A on the same seed, differing in the one control
    /// they say: the timeout, the breaker's window, the bulkhead.
    #[test]
    fn the_comparing_steps_show_b_with_their_one_change() {
        let expect = [
            ("timeout", "B: Timeout on → off"),
            ("breaker-window", "B: Breaker window 1 s → 10 s"),
            ("bulkhead", "B: Bulkhead on → off"),
        ];
        for (title, summary) in expect {
            let step = StepRef::named(Lesson::Km0, title)
                .unwrap_or_else(|| panic!("no step {title}"))
                .step();
            let (page, notices) = step.page();
            assert!(notices.is_empty(), "{notices:?}");
            let b = page.settings.ab.as_ref().expect("the step compares");
            assert_eq!(page.settings.ab_summary().unwrap(), summary);
            assert_eq!(b.edits, super::super::compare::Side::A, "Try it moves A");
            let (a_run, b_run) = (page.runs.a.as_ref().unwrap(), page.b_run().unwrap());
            assert_eq!(a_run.config.run.seed, b_run.config.run.seed);
            assert_ne!(a_run.trace.outcomes, b_run.trace.outcomes, "{title}");
        }
    }

    /// Every step's run starts without a notice, plays to its moment, and every rule of it
    /// says a sentence with figures from that run: digits, no NaN, no infinity.
    #[test]
    fn every_step_runs_and_its_notices_read_figures_from_the_run() {
        for lesson in Lesson::ALL {
            for (i, step) in lesson.steps().iter().enumerate() {
                let (page, problems) = step.page_at_moment();
                assert!(
                    problems.is_empty(),
                    "{} {}: {problems:?}",
                    lesson.key(),
                    i + 1
                );
                assert_eq!(page.playback.playhead, step.moment(), "{}", step.title);
                let (before, _) = step.page();
                assert_eq!(
                    before.playback.playhead, 0,
                    "a step opens before its run plays"
                );
                assert!(
                    step.notices(&before).is_empty(),
                    "{} {}: nothing to notice before the run plays",
                    lesson.key(),
                    i + 1
                );
                let notices = step.notices(&page);
                println!("{} {}. {}", lesson.key(), i + 1, step.title);
                for n in &notices {
                    println!("    - {n}");
                }
                assert_eq!(
                    notices.len(),
                    step.notice.len(),
                    "{} {}: every rule has something to say",
                    lesson.key(),
                    i + 1
                );
                for n in &notices {
                    assert!(n.chars().any(|c| c.is_ascii_digit()), "no figure: {n}");
                    let lower = n.to_ascii_lowercase();
                    assert!(!lower.contains("nan") && !lower.contains("inf"), "{n}");
                }
            }
        }
    }

    #[test]
    fn the_figures_follow_the_run_not_the_text() {
        // The same step with one knob changed says other figures.
        let step = StepRef::named(Lesson::Km0, "slow-inventory")
            .unwrap()
            .step();
        let (page, _) = step.page_at_moment();
        let before = step.notices(&page);
        let page = page.apply(crate::page::action::Action::SetKnob("threads", 64.0));
        let after = step.notices(&page);
        assert_ne!(before, after);
        assert!(after[0].contains("64"), "{after:?}");
    }

    /// Every step's sentences, at any moment, count what the counters beside them count at
    /// that moment: the outcome sentence's arrivals, each outcome and the clients waiting.
    #[test]
    fn the_outcome_sentence_agrees_with_the_counters_at_every_moment() {
        use crate::page::glossary::outcome_words;
        let mut checked = 0;
        for lesson in Lesson::ALL {
            for step in lesson
                .steps()
                .iter()
                .filter(|s| s.notice.contains(&Rule::of(&rules::OUTCOMES)))
            {
                let (page, _) = step.page();
                for tenth in [2, 5, 8, 10] {
                    let at = step.moment() * tenth / 10;
                    let page = page.clone().apply(Action::Seek(at));
                    let f = super::super::replay::frame(&page.runs.a.as_ref().unwrap().trace, at);
                    let Some(sentence) = step
                        .notices(&page)
                        .into_iter()
                        .find(|n| n.contains("requests arrived:"))
                    else {
                        continue;
                    };
                    let arrived = format!("of {} requests arrived", rules::count(f.arrived));
                    assert!(sentence.contains(&arrived), "{sentence} / {arrived}");
                    let waiting = format!("{} still waiting", rules::count(f.waiting()));
                    assert!(sentence.contains(&waiting), "{sentence} / {waiting}");
                    for o in crate::sim::trace::Outcome::ALL {
                        let said =
                            format!("{} {} (", outcome_words(o), rules::count(f.finished.get(o)));
                        if f.finished.get(o) > 0
                            && sentence.contains(&format!("{} ", outcome_words(o)))
                        {
                            assert!(sentence.contains(&said), "{sentence} / {said}");
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked >= 20, "{checked}");
    }

    /// The herd step's "Try it": full jitter spreads the herd, and its sentence counts fewer
    /// conflicts and a lower peak than the step played to its moment (18 s: 2,491 conflicts
    /// so far, of the 2,633 docs/overload.md counts to the run's end; the busiest 100 ms 419).
    #[test]
    fn full_jitter_on_the_herd_step_counts_fewer_conflicts() {
        let step = Lesson::Km0
            .steps()
            .iter()
            .find(|s| s.notice.contains(&Rule::of(&rules::CONFLICTS)))
            .expect("a step counts conflicts");
        assert_eq!(step.knob, Some("jitter"));
        let (page, _) = step.page_at_moment();
        // The number after `before` in `sentence`.
        fn after(sentence: &str, before: &str) -> u64 {
            let rest = &sentence[sentence.find(before).expect(before) + before.len()..];
            let digits: String = rest
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',')
                .filter(char::is_ascii_digit)
                .collect();
            digits.parse().expect(before)
        }
        let figures = |page: &Page| -> (u64, u64) {
            let sentence = step.notices(page).remove(0);
            (after(&sentence, "s, "), after(&sentence, "brought "))
        };
        assert_eq!(figures(&page), (2_491, 419));
        let spread = page.apply(crate::page::action::Action::SetKnob("jitter", 1.0));
        let (conflicts, busiest) = figures(&spread);
        assert!(conflicts * 3 < 2_491, "{conflicts}");
        assert!(busiest * 2 < 419, "{busiest}");
    }

    #[test]
    fn steps_are_read_from_the_address_with_notices_for_bad_values() {
        let (s, n) = StepRef::from_pairs(&pairs("lesson=northwind&step=shared-bulkhead"));
        assert_eq!(
            Some(s),
            StepRef::named(Lesson::Northwind, "shared-bulkhead")
        );
        assert!(n.is_empty());
        assert_eq!(s.query(), "lesson=northwind&step=shared-bulkhead");
        let (s, n) = StepRef::from_pairs(&pairs(""));
        assert_eq!((s.lesson, s.index, n.len()), (Lesson::Km0, 0, 0));
        let (s, n) = StepRef::from_pairs(&pairs("lesson=%3Cb%3E&step=999"));
        assert_eq!((s.lesson, s.index), (Lesson::Km0, 0));
        assert_eq!(n.len(), 2, "{n:?}");
        assert!(
            n[0].starts_with("lesson:") && n[1].starts_with("step:"),
            "{n:?}"
        );
        for bad in ["0", "-1", "two", "1.5", "16", "Herd-On-Hot-Items"] {
            let (s, n) = StepRef::from_pairs(&pairs(&format!("step={bad}")));
            assert_eq!((s.index, n.len()), (0, 1), "{bad}");
            assert!(n[0].contains("1 to 15"), "{n:?}");
        }
        let first = StepRef::named(Lesson::Km0, "slow-inventory").unwrap();
        assert_eq!(first.index, 0);
        assert_eq!(first.back(), None);
        let last = StepRef::named(Lesson::Km0, "retry-in-one-layer").unwrap();
        let end = last.next().expect("the recap follows the last step");
        assert!(end.is_recap() && end.next().is_none());
        assert_eq!(end.back(), Some(last));
        assert_eq!(end.query(), "lesson=km0&step=end");
        let (again, n) = StepRef::from_pairs(&pairs("lesson=km0&step=end"));
        assert_eq!((again, n.len()), (end, 0));
        assert_eq!(first.next().unwrap().back(), Some(first));
    }

    /// A step's own "Try it" value is read without a run as its page has it, and a link's
    /// value for it opens the step with the control there; a bad one is refused by name.
    #[test]
    fn a_tried_value_opens_the_step_with_its_control_there() {
        for lesson in Lesson::ALL {
            for step in lesson.steps().iter().filter(|s| s.knob.is_some()) {
                let k = knob(step.knob.unwrap()).unwrap();
                let (page, _) = step.page();
                let own = k.link_text(&page.settings.full);
                assert_eq!(step.own_tried_text(), Some(own), "{}", step.name);
            }
        }
        let step = Lesson::Km0.steps()[0];
        assert_eq!(step.knob, Some("threads"));
        let (page, notices) = step.page_tried(Some("40"));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(page.config().service.threads, 40);
        let (page, notices) = step.page_tried(Some("0"));
        assert_eq!(page.config().service.threads, 32);
        assert!(
            notices.iter().any(|n| n.starts_with("threads: \"0\"")),
            "{notices:?}"
        );
    }

    /// Every step has a name of its own, in the form an address keeps as it is, and its
    /// query opens it again.
    #[test]
    fn every_step_has_a_unique_name_that_opens_it() {
        for lesson in Lesson::ALL {
            let mut seen = std::collections::HashSet::new();
            for (index, step) in lesson.steps().iter().enumerate() {
                assert!(seen.insert(step.name), "{} twice", step.name);
                assert!(
                    !step.name.is_empty()
                        && step
                            .name
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                        && step.name.parse::<usize>().is_err()
                        && step.name != "end",
                    "{}",
                    step.name
                );
                let here = StepRef { lesson, index };
                assert_eq!(StepRef::from_pairs(&pairs(&here.query())), (here, vec![]));
            }
            // Every number opens a step, and every step has a number but those added after
            // the numbers were frozen.
            let numbered: Vec<usize> = (1..=lesson.numbers())
                .map(|n| lesson.by_number(n).expect("a numbered step exists"))
                .collect();
            let unnumbered: Vec<&str> = (0..lesson.steps().len())
                .filter(|i| !numbered.contains(i))
                .map(|i| lesson.steps()[i].name)
                .collect();
            let added_later: &[&str] = match lesson {
                Lesson::Km0 => &["herd-on-hot-items", "adaptive-limit", "rate-limit"],
                Lesson::Northwind | Lesson::Own(_) => &[],
                // Numbered as they stand.
                Lesson::Challenges | Lesson::Zoo => continue,
            };
            assert_eq!(unnumbered, added_later, "{}", lesson.key());
        }
    }

    /// Links written before KM0's herd step was inserted (14 steps, 2026-12-01) numbered the
    /// steps after it one lower: they open what they opened then.
    #[test]
    fn numbers_open_the_steps_they_opened_when_they_were_published() {
        let opens = |q: &str| {
            let (s, n) = StepRef::from_pairs(&pairs(q));
            assert!(n.is_empty(), "{q}: {n:?}");
            s.name()
        };
        let then = [
            (1, "slow-inventory"),
            (7, "jitter-and-budget"),
            (8, "circuit-breaker"),
            (9, "breaker-window"),
            (13, "idempotency-keys"),
            (14, "retry-in-one-layer"),
            (15, "retry-in-one-layer"),
        ];
        for (number, name) in then {
            assert_eq!(opens(&format!("lesson=km0&step={number}")), name);
        }
        assert_eq!(
            opens("lesson=km0&step=herd-on-hot-items"),
            "herd-on-hot-items"
        );
        assert_eq!(opens("lesson=northwind&step=3"), "separate-bulkheads");
    }

    #[test]
    fn a_widget_reads_its_step_and_names_what_it_ignores() {
        let (s, n) = widget_step(&pairs("lesson=km0&step=pool-runs-dry"));
        assert_eq!((s.name(), n.len()), ("pool-runs-dry", 0));
        let (s, n) = widget_step(&pairs("lesson=km0&step=3"));
        assert_eq!((s.name(), n.len()), ("pool-runs-dry", 0));
        let (s, n) = widget_step(&pairs("lesson=northwind&step=9&cooldown=2s"));
        assert_eq!((s.lesson, s.index), (Lesson::Northwind, 0));
        assert_eq!(n.len(), 2, "{n:?}");
        assert!(n[1].starts_with("cooldown:"), "{n:?}");
    }

    #[test]
    fn the_playground_link_rebuilds_the_step_s_run() {
        for lesson in Lesson::ALL {
            for step in lesson.steps() {
                let (page, _) = step.page_at_moment();
                let query = crate::page::permalink::to_query(&page);
                let (again, notices) = from_pairs(&pairs(&query));
                assert!(notices.is_empty(), "{notices:?}");
                assert_eq!(again.config(), page.config(), "{}", step.title);
                assert_eq!(again.playback.playhead, page.playback.playhead);
            }
        }
    }

    /// A teacher's lesson counts its steps as they stand until a step gives an
    /// `@link-number`; then a number opens only the step that gives it, and two steps may not
    /// give one number.
    #[test]
    fn a_lesson_that_gives_link_numbers_opens_each_at_its_step() {
        let step = |name: &str, numbers: &str| {
            format!(
                "\n## {name}\n\n@name {name}\n{numbers}@run preset=timeout\n@play-to 12 s\n\
                 @views load\n\nText.\n"
            )
        };
        let open = |text: &str| OwnLesson::open(text, OwnSource::Path("t.md".into()));
        let counted = open(&format!("# T\n{}{}", step("one", ""), step("two", ""))).unwrap();
        assert_eq!((counted.by_number(2), counted.numbers()), (Some(1), 2));
        let text = format!(
            "# T\n{}{}{}",
            step("new", ""),
            step("one", "@link-number 1\n"),
            step("two", "@link-number 2, 3\n")
        );
        let frozen = open(&text).unwrap();
        let opened: Vec<Option<usize>> = (1..=4).map(|n| frozen.by_number(n)).collect();
        assert_eq!(opened, [Some(1), Some(2), Some(2), None]);
        assert_eq!(frozen.numbers(), 3);
        assert_eq!(
            format::write("T", frozen.steps()),
            text,
            "written back as read"
        );
        let twice = text.replace("@link-number 2, 3", "@link-number 1");
        let e = open(&twice).unwrap_err();
        assert!(e.message.contains("two steps give @link-number 1"), "{e}");
        let e = open(&text.replace("2, 3", "2, x")).unwrap_err();
        assert!(e.message.contains("whole numbers from 1"), "{e}");
    }
}
