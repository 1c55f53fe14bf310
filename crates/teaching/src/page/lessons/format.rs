//! Lessons as text: the format of `lessons/*.md` (`docs/lesson-format.md` describes it for
//! authors), read into steps and written back. A `# ` line is the lesson's title; each `## `
//! line starts a step; `@` lines give the step's name, run, views, rules and question; the
//! other lines are its paragraphs, a blank line between two. A directive continues on the
//! lines under it that start with two spaces. Text stays text: nothing in a lesson file
//! becomes markup.

use std::fmt;

use super::challenge::{Challenge, Goal};
use super::live::Live;
use super::predict::{Answer, Choice, Claim, Question};
use super::rules::Rule;
use super::{Step, View};
use crate::page::permalink::check_pair;

/// A lesson read from its text.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LessonText {
    /// The `# ` line.
    pub title: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
    /// Where each step's parts stand in the text, for messages about them.
    pub lines: Vec<StepLines>,
}

/// The lines (from 1) a step's parts stand on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StepLines {
    /// Its `## ` heading.
    pub heading: usize,
    /// Its `@run`.
    pub run: usize,
    /// Its `@try`, if it has one.
    pub knob: Option<usize>,
    /// Its `@ask`, if it asks.
    pub ask: Option<usize>,
    /// Its `@solution`, if it is a challenge.
    pub solution: Option<usize>,
    /// Its `@controls`, if it is a challenge.
    pub controls: Option<usize>,
    /// Its `@terms`, if it teaches any.
    pub terms: Option<usize>,
}

/// What is wrong with a lesson's text, and on which line (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// The line.
    pub line: usize,
    /// What is wrong there, and what was expected.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for FormatError {}

/// The directives a step takes.
const DIRECTIVES: &str = "@name, @link-number, @run, @play-to, @try, @views, @notice, @terms, \
                          @ask, @choice, @number, @hint, @goal, @controls, @solution, @tip or @why";

/// Steps hold `&'static` text, as the page's views borrow it for as long as the page lives:
/// a lesson is read once (the built-in ones on first use) and kept.
fn keep(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

fn keep_all<T>(items: Vec<T>) -> &'static [T] {
    Box::leak(items.into_boxed_slice())
}

/// A line of the text with its continuation lines joined on.
struct Logical {
    line: usize,
    text: String,
}

/// The lines of `text`, each directive with its continuation lines joined to it by a space,
/// and every run of spaces and tabs read as one space (so text written back, wrapped
/// elsewhere, reads the same).
fn logical_lines(text: &str) -> Vec<Logical> {
    let mut lines: Vec<Logical> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let words = raw.split_ascii_whitespace().collect::<Vec<_>>().join(" ");
        let continues = raw.starts_with("  ") && !words.is_empty();
        match lines.last_mut() {
            Some(last) if continues && last.text.starts_with('@') => {
                last.text.push(' ');
                last.text.push_str(&words);
            }
            _ => lines.push(Logical {
                line: i + 1,
                text: words,
            }),
        }
    }
    lines
}

/// A step being read.
#[derive(Default)]
struct Draft {
    line: usize,
    title: String,
    name: Option<String>,
    settings: Option<Vec<(String, String)>>,
    play_to: Option<f64>,
    knob: Option<String>,
    views: Vec<View>,
    notice: Vec<Rule>,
    terms: Vec<&'static str>,
    /// Each paragraph with the line it starts on.
    paragraphs: Vec<(usize, String)>,
    /// The paragraph being read, its lines joined, and the line it starts on.
    open_paragraph: Option<(usize, String)>,
    lines: StepLines,
    question: Option<DraftQuestion>,
    goals: Vec<Goal>,
    controls: Vec<String>,
    solution: Option<Vec<(String, String)>>,
    tips: Vec<String>,
    why: Option<String>,
    link_numbers: Vec<usize>,
}

struct DraftQuestion {
    line: usize,
    prompt: String,
    choices: Vec<(Claim, String, Option<String>)>,
    number: Option<(Live, String, f64, Option<String>)>,
}

fn error(line: usize, message: impl Into<String>) -> FormatError {
    FormatError {
        line,
        message: message.into(),
    }
}

/// Reads a lesson from its text.
pub fn parse(text: &str) -> Result<LessonText, FormatError> {
    let mut title: Option<String> = None;
    let mut steps = Vec::new();
    let mut lines = Vec::new();
    let mut draft: Option<Draft> = None;
    for Logical { line, text } in logical_lines(text) {
        if let Some(rest) = text.strip_prefix("## ") {
            if let Some(done) = draft.take() {
                lines.push(done.lines);
                steps.push(finish(done)?);
            }
            let heading = rest.trim_ascii();
            if heading.is_empty() {
                return Err(error(line, "a step's `## ` heading needs its title"));
            }
            draft = Some(Draft {
                line,
                title: heading.to_string(),
                lines: StepLines {
                    heading: line,
                    ..StepLines::default()
                },
                ..Draft::default()
            });
            continue;
        }
        if let Some(rest) = text.strip_prefix("# ") {
            if title.is_some() || draft.is_some() {
                return Err(error(
                    line,
                    "the lesson's `# ` title comes once, before its first step",
                ));
            }
            title = Some(rest.trim_ascii().to_string());
            continue;
        }
        if text.starts_with('#') {
            return Err(error(
                line,
                "a heading is `# ` (the lesson's title) or `## ` (a step); text inside a step \
                 has no headings of its own",
            ));
        }
        let Some(step) = draft.as_mut() else {
            if text.trim_ascii().is_empty() {
                continue;
            }
            return Err(error(
                line,
                "text before the first step: a lesson starts with its `# ` title, then a `## ` \
                 line for each step",
            ));
        };
        if text.trim_ascii().is_empty() {
            close_paragraph(step);
        } else if let Some(directive) = text.strip_prefix('@') {
            close_paragraph(step);
            read_directive(step, line, directive)?;
        } else if step.question.is_some() {
            return Err(error(
                line,
                "a paragraph after the step's question: the question and its answers come last",
            ));
        } else {
            let words = text.trim_ascii();
            match step.open_paragraph.as_mut() {
                Some((_, p)) => {
                    p.push(' ');
                    p.push_str(words);
                }
                None => step.open_paragraph = Some((line, words.to_string())),
            }
        }
    }
    if let Some(done) = draft.take() {
        lines.push(done.lines);
        steps.push(finish(done)?);
    }
    let title = title.ok_or_else(|| error(1, "the lesson needs a `# ` title line"))?;
    if steps.is_empty() {
        return Err(error(
            1,
            "the lesson has no steps: each starts with a `## ` line",
        ));
    }
    for (i, step) in steps.iter().enumerate() {
        if steps[..i].iter().any(|s| s.name == step.name) {
            return Err(error(
                1,
                format!(
                    "two steps are called `{}`: a step's name is unique",
                    step.name
                ),
            ));
        }
        let taken = step.link_numbers.iter().find_map(|n| {
            let earlier = steps[..i].iter().find(|s| s.link_numbers.contains(n));
            earlier.map(|s| (n, s.name))
        });
        if let Some((number, earlier)) = taken {
            return Err(error(
                lines[i].heading,
                format!(
                    "two steps give @link-number {number}: a number opens one step \
                     (`{earlier}` gives it too)"
                ),
            ));
        }
    }
    Ok(LessonText {
        title,
        steps,
        lines,
    })
}

fn close_paragraph(step: &mut Draft) {
    if let Some(p) = step.open_paragraph.take() {
        step.paragraphs.push(p);
    }
}

/// A number of seconds, `12` or `12 s`.
fn seconds(text: &str) -> Option<f64> {
    let text = text.trim_ascii();
    let figure = text.strip_suffix('s').map_or(text, str::trim_end);
    figure
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
}

/// `a, b, c` with no comma inside parentheses splitting an item.
fn list(text: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut current) = (0usize, String::new());
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                items.push(current.trim_ascii().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    items.push(current.trim_ascii().to_string());
    items.retain(|i| !i.is_empty());
    items
}

/// `KEY=VALUE` pairs separated by spaces, as `@run` and `@solution` write a link's settings.
fn settings(word: &str, value: &str) -> Result<Vec<(String, String)>, String> {
    value
        .split_ascii_whitespace()
        .map(|pair| match pair.split_once('=') {
            Some((key, v)) if !key.is_empty() => check_pair(key, v)
                .map(|()| (key.to_string(), v.to_string()))
                .map_err(|e| format!("@{word}: {e}")),
            _ => Err(format!(
                "`{pair}` in @{word} should be KEY=VALUE, as in a link (`preset=cb`)"
            )),
        })
        .collect()
}

/// A key `@try` or `@controls` may offer: any key `--set` takes.
fn control_key(word: &str, key: &str) -> Result<(), String> {
    match crate::page::knobs::knob(key) {
        Some(_) => Ok(()),
        None => check_pair(key, "")
            .and_then(|()| Err(format!("`{key}` is no control")))
            .map_err(|e| format!("@{word}: {e}")),
    }
}

/// A term of the glossary, by the words it is written with.
fn glossary_term(text: &str) -> Result<&'static str, String> {
    use crate::page::glossary::TERMS;
    TERMS
        .iter()
        .find(|t| t.term == text)
        .map(|t| t.term)
        .ok_or_else(|| {
            let known: Vec<&str> = TERMS.iter().map(|t| t.term).collect();
            format!(
                "`{text}` is no term of the glossary (one of {})",
                known.join(", ")
            )
        })
}

/// `queue-peak < 50`, `ok-share >= 90`, `50 <= queue-peak < 500`.
pub(super) fn claim(text: &str) -> Result<Claim, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let figure = |t: &str| {
        t.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{t}` is not a number"))
    };
    let (measure, at_least, below) = match tokens.as_slice() {
        [m, "<", b] => (*m, None, Some(figure(b)?)),
        [m, ">=", a] => (*m, Some(figure(a)?), None),
        [a, "<=", m, "<", b] => (*m, Some(figure(a)?), Some(figure(b)?)),
        _ => {
            return Err(format!(
                "`{text}` should be a claim on a measure: `MEASURE < B`, `MEASURE >= A` or \
                 `A <= MEASURE < B`"
            ))
        }
    };
    if let (Some(a), Some(b)) = (at_least, below) {
        if a >= b {
            return Err(format!("`{text}` holds for no value: {a} is not below {b}"));
        }
    }
    Ok(Claim::new(Live::from_name(measure)?, at_least, below))
}

fn read_directive(step: &mut Draft, line: usize, directive: &str) -> Result<(), FormatError> {
    let (word, value) = directive.split_once(' ').unwrap_or((directive, ""));
    let value = value.trim_ascii();
    let at = |message: String| error(line, message);
    let needs_value = |what: &str| {
        if value.is_empty() {
            Err(at(format!("@{word} needs {what}")))
        } else {
            Ok(())
        }
    };
    match word {
        "name" => {
            needs_value("the step's name, like `pool-runs-dry`")?;
            let fine = value
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if !fine || value.starts_with('-') || value == "end" {
                return Err(at(format!(
                    "`{value}` cannot name a step: lower-case letters, digits and dashes \
                     (`pool-runs-dry`), and not `end` (the recap's)"
                )));
            }
            step.name = Some(value.to_string());
        }
        "link-number" => {
            needs_value("the numbers older links open the step by, like `14, 15`")?;
            let numbers: Option<Vec<usize>> = list(value)
                .iter()
                .map(|n| n.parse::<usize>().ok().filter(|n| *n > 0))
                .collect();
            step.link_numbers = numbers.ok_or_else(|| {
                at(format!(
                    "@link-number takes whole numbers from 1, a comma between two (`14, 15`), \
                     not `{value}`"
                ))
            })?;
        }
        "run" => {
            needs_value("the run's settings as a link gives them: `preset=cb trace=slowest`")?;
            step.settings = Some(settings(word, value).map_err(at)?);
            step.lines.run = line;
        }
        "goal" => {
            needs_value("a goal on a figure of the run: `p99 < 1 s`")?;
            step.goals.push(Goal::parse(value).map_err(at)?);
        }
        "controls" => {
            needs_value("the controls the challenge offers, knob keys: `timeout, attempts`")?;
            step.controls = list(value);
            for key in &step.controls {
                control_key("controls", key).map_err(at)?;
            }
            step.lines.controls = Some(line);
        }
        "solution" => {
            needs_value("settings that meet the goals, as @run writes them: `timeout=0.3`")?;
            step.solution = Some(settings(word, value).map_err(at)?);
            step.lines.solution = Some(line);
        }
        "tip" => {
            needs_value("a hint that opens after a failed check")?;
            step.tips.push(value.to_string());
        }
        "why" => {
            needs_value("why the cure works, shown once the goals are met")?;
            step.why = Some(value.to_string());
        }
        "play-to" => {
            step.play_to = Some(seconds(value).ok_or_else(|| {
                at(format!(
                    "@play-to takes the moment the step plays to, in seconds above 0 (`12 s`), \
                     not `{value}`"
                ))
            })?);
        }
        "try" => {
            needs_value("the key of the one control the step offers, like `threads`")?;
            control_key("try", value).map_err(at)?;
            step.knob = Some(value.to_string());
            step.lines.knob = Some(line);
        }
        "views" => {
            needs_value("the views to show, in order: `topology, load`")?;
            step.views = list(value)
                .iter()
                .map(|v| View::from_name(v))
                .collect::<Result<_, _>>()
                .map_err(at)?;
        }
        "notice" => {
            needs_value("the rules whose sentences say what to notice: `queue-peak, latency`")?;
            step.notice = list(value)
                .iter()
                .map(|r| Rule::from_name(r))
                .collect::<Result<_, _>>()
                .map_err(at)?;
        }
        "terms" => {
            needs_value("the glossary's terms the step teaches: `back-off, jitter`")?;
            step.terms = list(value)
                .iter()
                .map(|t| glossary_term(t))
                .collect::<Result<_, _>>()
                .map_err(at)?;
            step.lines.terms = Some(line);
        }
        "ask" => {
            needs_value("the question the class answers before the run plays")?;
            if step.question.is_some() {
                return Err(at("a step asks one question".into()));
            }
            step.lines.ask = Some(line);
            step.question = Some(DraftQuestion {
                line,
                prompt: value.to_string(),
                choices: Vec::new(),
                number: None,
            });
        }
        "choice" => {
            let question = step
                .question
                .as_mut()
                .ok_or_else(|| at("@choice comes after the step's @ask".into()))?;
            let (holds, text) = value.split_once('|').ok_or_else(|| {
                at(format!(
                    "@choice should be `CLAIM | WHAT THE STUDENT READS` \
                     (`queue-peak < 50 | Under 50`), not `{value}`"
                ))
            })?;
            if question.number.is_some() {
                return Err(at("a question takes choices or a @number, not both".into()));
            }
            if text.trim_ascii().is_empty() {
                return Err(at(
                    "@choice needs the text the student reads after its `|`".into()
                ));
            }
            question.choices.push((
                claim(holds.trim_ascii()).map_err(at)?,
                text.trim_ascii().to_string(),
                None,
            ));
        }
        "number" => {
            let question = step
                .question
                .as_mut()
                .ok_or_else(|| at("@number comes after the step's @ask".into()))?;
            if !question.choices.is_empty() || question.number.is_some() {
                return Err(at(
                    "a question takes choices or one @number, not both".into()
                ));
            }
            let parts: Vec<&str> = value.split('|').map(str::trim).collect();
            let [measure, unit, tolerance] = parts.as_slice() else {
                return Err(at(format!(
                    "@number should be `MEASURE | UNIT | TOLERANCE%` \
                     (`queue-peak | requests | 25%`), not `{value}`"
                )));
            };
            let tolerance = tolerance
                .strip_suffix('%')
                .and_then(|p| p.trim_ascii().parse::<f64>().ok())
                .filter(|p| p.is_finite() && *p > 0.0 && *p <= 100.0)
                .ok_or_else(|| {
                    at(format!(
                        "the tolerance of @number is a percentage above 0 and up to 100 \
                         (`25%`), not `{tolerance}`"
                    ))
                })?;
            question.number = Some((
                Live::from_name(measure).map_err(at)?,
                unit.to_string(),
                tolerance / 100.0,
                None,
            ));
        }
        "hint" => {
            needs_value("what to think about when the answer above it is wrong")?;
            let hint = match step.question.as_mut() {
                Some(DraftQuestion {
                    number: Some((.., hint)),
                    ..
                }) => Some(hint),
                Some(q) => q.choices.last_mut().map(|(.., hint)| hint),
                None => None,
            }
            .ok_or_else(|| at("@hint comes under the @choice or @number it is for".into()))?;
            if hint.is_some() {
                return Err(at("one @hint for each answer".into()));
            }
            *hint = Some(value.to_string());
        }
        other => {
            return Err(at(format!(
                "`@{other}` is not a directive: one of {DIRECTIVES}"
            )))
        }
    }
    Ok(())
}

/// The step, once its text has ended: what it must have, it has.
fn finish(mut draft: Draft) -> Result<Step, FormatError> {
    close_paragraph(&mut draft);
    let line = draft.line;
    let missing = |what: &str| error(line, format!("the step `{}` needs {what}", draft.title));
    let name = draft.name.clone().ok_or_else(|| missing("an @name"))?;
    let settings = draft
        .settings
        .clone()
        .ok_or_else(|| missing("an @run with its settings"))?;
    let play_to = draft
        .play_to
        .ok_or_else(|| missing("an @play-to with the moment it plays to"))?;
    if draft.views.is_empty() {
        return Err(missing("its @views"));
    }
    if draft.paragraphs.is_empty() {
        return Err(missing("a paragraph of text"));
    }
    for (at, paragraph) in &draft.paragraphs {
        let pieces = super::live::pieces(paragraph).map_err(|e| error(*at, e))?;
        if draft.knob.is_none() && pieces.contains(&super::live::Piece::Control) {
            return Err(error(
                *at,
                "`{control}` stands for the step's @try control, and this step has none",
            ));
        }
    }
    let question = match draft.question.take() {
        None => None,
        Some(q) => Some(question(q)?),
    };
    let challenge = challenge(&mut draft)?;
    Ok(Step {
        name: keep(name),
        title: keep(draft.title),
        text: keep_all(draft.paragraphs.into_iter().map(|(_, p)| keep(p)).collect()),
        settings: keep_all(
            settings
                .into_iter()
                .map(|(k, v)| (keep(k), keep(v)))
                .collect(),
        ),
        play_to,
        knob: draft.knob.map(keep),
        views: keep_all(draft.views),
        notice: keep_all(draft.notice),
        terms: keep_all(draft.terms),
        question,
        challenge,
        link_numbers: keep_all(draft.link_numbers),
    })
}

/// The step's challenge, when it sets goals: what it must have, it has.
fn challenge(draft: &mut Draft) -> Result<Option<Challenge>, FormatError> {
    let parts = !draft.controls.is_empty()
        || draft.solution.is_some()
        || !draft.tips.is_empty()
        || draft.why.is_some();
    if draft.goals.is_empty() {
        return if parts {
            Err(error(
                draft.line,
                format!(
                    "the step `{}` has a challenge's parts but no @goal",
                    draft.title
                ),
            ))
        } else {
            Ok(None)
        };
    }
    let missing = |what: &str| {
        error(
            draft.line,
            format!("the challenge `{}` needs {what}", draft.title),
        )
    };
    if draft.controls.is_empty() {
        return Err(missing("its @controls"));
    }
    let solution = draft
        .solution
        .take()
        .ok_or_else(|| missing("a @solution that meets its goals"))?;
    let why = draft
        .why
        .take()
        .ok_or_else(|| missing("a @why, said once the goals are met"))?;
    Ok(Some(Challenge {
        goals: keep_all(std::mem::take(&mut draft.goals)),
        controls: keep_all(
            std::mem::take(&mut draft.controls)
                .into_iter()
                .map(keep)
                .collect(),
        ),
        solution: keep_all(
            solution
                .into_iter()
                .map(|(k, v)| (keep(k), keep(v)))
                .collect(),
        ),
        tips: keep_all(
            std::mem::take(&mut draft.tips)
                .into_iter()
                .map(keep)
                .collect(),
        ),
        why: keep(why),
    }))
}

fn question(q: DraftQuestion) -> Result<Question, FormatError> {
    let answer = match q.number {
        Some((measure, unit, tolerance, hint)) => Answer::Number {
            measure,
            unit: keep(unit),
            tolerance,
            hint: keep(hint.ok_or_else(|| error(q.line, "the @number needs its @hint"))?),
        },
        None => {
            if !(2..=4).contains(&q.choices.len()) {
                return Err(error(
                    q.line,
                    format!(
                        "the question offers {} choices: 2 to 4 @choice lines, or one @number",
                        q.choices.len()
                    ),
                ));
            }
            let mut choices = Vec::new();
            for (holds, text, hint) in q.choices {
                let hint = hint
                    .ok_or_else(|| error(q.line, format!("the choice `{text}` needs its @hint")))?;
                choices.push(Choice {
                    text: keep(text),
                    holds,
                    hint: keep(hint),
                });
            }
            Answer::Choices(keep_all(choices))
        }
    };
    Ok(Question {
        prompt: keep(q.prompt),
        answer,
    })
}

/// The text of a lesson, in the format [`parse`] reads (lines wrapped near 96 characters).
pub fn write(title: &str, steps: &[Step]) -> String {
    let mut out = format!("# {title}\n");
    for step in steps {
        out.push_str(&format!("\n## {}\n\n", step.title));
        directive(&mut out, "name", step.name);
        if !step.link_numbers.is_empty() {
            let numbers: Vec<String> = step.link_numbers.iter().map(usize::to_string).collect();
            directive(&mut out, "link-number", &numbers.join(", "));
        }
        let run: Vec<String> = step
            .settings
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        directive(&mut out, "run", &run.join(" "));
        directive(&mut out, "play-to", &format!("{} s", step.play_to));
        if let Some(knob) = step.knob {
            directive(&mut out, "try", knob);
        }
        let views: Vec<&str> = step.views.iter().map(|v| v.name()).collect();
        directive(&mut out, "views", &views.join(", "));
        if !step.notice.is_empty() {
            let rules: Vec<String> = step.notice.iter().map(|r| r.name()).collect();
            directive(&mut out, "notice", &rules.join(", "));
        }
        if !step.terms.is_empty() {
            directive(&mut out, "terms", &step.terms.join(", "));
        }
        for paragraph in step.text {
            out.push('\n');
            out.push_str(&wrap(paragraph, "", ""));
        }
        if let Some(c) = &step.challenge {
            out.push('\n');
            for goal in c.goals {
                directive(&mut out, "goal", &goal.text());
            }
            directive(&mut out, "controls", &c.controls.join(", "));
            let solution: Vec<String> =
                c.solution.iter().map(|(k, v)| format!("{k}={v}")).collect();
            directive(&mut out, "solution", &solution.join(" "));
            for tip in c.tips {
                directive(&mut out, "tip", tip);
            }
            directive(&mut out, "why", c.why);
        }
        if let Some(q) = &step.question {
            out.push('\n');
            directive(&mut out, "ask", q.prompt);
            match q.answer {
                Answer::Choices(choices) => {
                    for c in choices {
                        directive(
                            &mut out,
                            "choice",
                            &format!("{} | {}", claim_text(&c.holds), c.text),
                        );
                        directive(&mut out, "hint", c.hint);
                    }
                }
                Answer::Number {
                    measure,
                    unit,
                    tolerance,
                    hint,
                } => {
                    let percent = (tolerance * 100.0 * 1e6).round() / 1e6;
                    directive(
                        &mut out,
                        "number",
                        &format!("{} | {unit} | {percent}%", measure.name()),
                    );
                    directive(&mut out, "hint", hint);
                }
            }
        }
    }
    out
}

fn claim_text(c: &Claim) -> String {
    let m = c.measure.name();
    match (c.at_least, c.below) {
        (Some(a), Some(b)) => format!("{a} <= {m} < {b}"),
        (Some(a), None) => format!("{m} >= {a}"),
        (None, Some(b)) => format!("{m} < {b}"),
        // Holds for every value: no bound can say it; a claim read from text always has one.
        (None, None) => format!("{m} >= -inf"),
    }
}

fn directive(out: &mut String, word: &str, value: &str) {
    out.push_str(&wrap(value, &format!("@{word} "), "  "));
}

/// `text` after `first`, in lines of up to 96 characters, the later ones after `rest`.
fn wrap(text: &str, first: &str, rest: &str) -> String {
    const WIDTH: usize = 96;
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_ascii_whitespace() {
        // A paragraph's line may not start with what starts a directive or a heading.
        let may_start = !rest.is_empty() || !word.starts_with(['@', '#']);
        if !empty && may_start && line.chars().count() + 1 + word.chars().count() > WIDTH {
            out.push_str(&line);
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short lesson with one step of each kind of question.
    const SHORT: &str = "# A short lesson

## Nothing in the way

@name nothing
@run preset=story-none trace=slowest
@play-to 12 s
@try threads
@views topology, load
@notice queue-peak, throughput(8,12)

The workers wait,
all of them.

Then the queue grows.

@ask How long is the queue
  by 12 s?
@choice queue-peak < 50 | Under 50
@hint Count what arrives.
@choice queue-peak >= 50 | 50 or more
@hint Count what finishes.

## A number

@name a-number
@run preset=timeout ab=patterns=none
@play-to 0.5
@views latency

Only text.

@ask How many?
@number ok-share | % | 10%
@hint Think.
";

    fn error_of(text: &str) -> FormatError {
        parse(text).expect_err("a mistake")
    }

    #[test]
    fn a_lesson_reads_into_its_steps() {
        let lesson = parse(SHORT).expect("reads");
        assert_eq!(lesson.title, "A short lesson");
        let [first, second] = lesson.steps.as_slice() else {
            panic!("two steps: {lesson:?}");
        };
        assert_eq!(first.name, "nothing");
        assert_eq!(
            first.text,
            ["The workers wait, all of them.", "Then the queue grows."]
        );
        assert_eq!(
            first.settings,
            [("preset", "story-none"), ("trace", "slowest")]
        );
        assert_eq!(first.play_to, 12.0);
        assert_eq!(first.knob, Some("threads"));
        assert_eq!(first.views, [View::Topology, View::Load]);
        assert_eq!(
            first.notice,
            [
                Rule::of(&crate::page::lessons::rules::QUEUE_PEAK),
                Rule::over(&crate::page::lessons::rules::THROUGHPUT, 8.0, 12.0)
            ]
        );
        let question = first.question.expect("asks");
        assert_eq!(question.prompt, "How long is the queue by 12 s?");
        let Answer::Choices(choices) = question.answer else {
            panic!("choices");
        };
        assert_eq!(choices.len(), 2);
        assert_eq!(choices[0].holds, Claim::queue(None, Some(50.0)));
        assert_eq!(choices[1].text, "50 or more");
        assert_eq!(choices[1].hint, "Count what finishes.");
        assert_eq!(
            second.settings,
            [("preset", "timeout"), ("ab", "patterns=none")]
        );
        assert_eq!(second.play_to, 0.5);
        assert_eq!(second.knob, None);
        assert!(matches!(
            second.question.expect("asks").answer,
            Answer::Number { measure, unit: "%", tolerance, hint: "Think." }
                if measure == Live::of(&crate::page::lessons::live::OK_SHARE) && (tolerance - 0.1).abs() < 1e-12
        ));
        // Written out, it reads back the same.
        let again = parse(&write(&lesson.title, &lesson.steps)).expect("reads back");
        assert_eq!((again.title, again.steps), (lesson.title, lesson.steps));
        assert_eq!(
            lesson.lines[0],
            StepLines {
                heading: 3,
                run: 6,
                knob: Some(8),
                ask: Some(17),
                ..StepLines::default()
            }
        );
    }

    #[test]
    fn a_mistake_names_its_line_and_what_was_expected() {
        let e = error_of(&SHORT.replace("@try threads", "@tryy threads"));
        assert_eq!(e.line, 8);
        assert!(e.message.contains("`@tryy` is not a directive"), "{e}");
        let e = error_of(&SHORT.replace("@play-to 12 s", "@play-to soon"));
        assert_eq!(e.line, 7);
        assert!(e.message.contains("seconds above 0"), "{e}");
        let e = error_of(&SHORT.replace("queue-peak, throughput", "queue-peek, throughput"));
        assert_eq!(e.line, 10);
        assert!(
            e.message.contains("`queue-peek`") && e.message.contains("queue-peak"),
            "{e}"
        );
        let e = error_of(&SHORT.replace("@views topology, load", "@views topology, chart"));
        assert!(e.message.contains("no view is called `chart`"), "{e}");
        let e = error_of(&SHORT.replace("queue-peak < 50 |", "queue-peak = 50 |"));
        assert_eq!(e.line, 19);
        assert!(e.message.contains("MEASURE < B"), "{e}");
        let e =
            error_of(&SHORT.replace("@number ok-share | % | 10%", "@number ok-share | % | ten"));
        assert!(e.message.contains("percentage"), "{e}");
        let e = error_of(&SHORT.replace("@name nothing\n", ""));
        assert_eq!(e.line, 3);
        assert!(e.message.contains("needs an @name"), "{e}");
        let e = error_of(&SHORT.replace("@name a-number", "@name nothing"));
        assert!(e.message.contains("two steps are called `nothing`"), "{e}");
        let e = error_of(&SHORT.replace("@hint Count what finishes.\n", ""));
        assert!(e.message.contains("needs its @hint"), "{e}");
        let e = error_of(&SHORT.replace("# A short lesson\n", "Hello\n"));
        assert_eq!(e.line, 1);
        assert!(e.message.contains("text before the first step"), "{e}");
        let e = error_of(&SHORT.replace("Then the queue grows.", "### Then"));
        assert!(e.message.contains("a heading is"), "{e}");
        let e = error_of(&SHORT.replace("@run preset=story-none", "@run preset"));
        assert!(e.message.contains("KEY=VALUE"), "{e}");
        let e = error_of(&SHORT.replace("@hint Think.", "@hint Think.\n\nMore text."));
        assert!(
            e.message.contains("a paragraph after the step's question"),
            "{e}"
        );
        let e = error_of(&SHORT.replace(
            "@choice queue-peak >= 50 | 50 or more\n@hint Count what finishes.\n",
            "",
        ));
        assert!(e.message.contains("1 choices: 2 to 4"), "{e}");
        assert_eq!(
            format!("{}", error_of("# T\n\n## S\n@name -x")),
            "line 4: `-x` cannot name a step: lower-case letters, digits and dashes \
             (`pool-runs-dry`), and not `end` (the recap's)"
        );
    }

    #[test]
    fn text_stays_text() {
        let lesson = parse(&SHORT.replace(
            "Then the queue grows.",
            "<script>alert(1)</script> <b>bold</b> & more",
        ))
        .expect("reads");
        // Kept as written: the page shows it as text, never as markup.
        assert_eq!(
            lesson.steps[0].text[1],
            "<script>alert(1)</script> <b>bold</b> & more"
        );
    }
}
