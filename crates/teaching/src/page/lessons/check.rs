//! A lesson file checked as the page would show it, for `cascade lesson check FILE`: read
//! with the page's own reader, each step's run made from its settings and played to its
//! moment, what the step would say printed, and every mistake named with its line.

use super::challenge::{Challenge, Judged};
use super::format::{parse, StepLines};
use super::live::{pieces, Piece, Side};
use super::predict::{choice_letter, Answer};
use super::rules::Reading;
use super::{capitalized, Step};
use crate::page::glossary::{find_word, TERMS};
use crate::page::knobs::{knob, KNOBS};
use crate::page::replay::clock;
use crate::page::runs::Run;

/// What a check found: the report, a few lines a step, and the mistakes, each with its line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checked {
    /// The lesson's title, each step with what it would say, its question's answer.
    pub report: Vec<String>,
    /// `line N: ...` for each mistake; none when the lesson is ready to use.
    pub errors: Vec<String>,
}

/// Checks the lesson `text`.
pub fn check(text: &str) -> Checked {
    let lesson = match parse(text) {
        Ok(lesson) => lesson,
        Err(e) => {
            return Checked {
                report: Vec::new(),
                errors: vec![e.to_string()],
            }
        }
    };
    let mut checked = Checked {
        report: vec![format!("{}: {} steps", lesson.title, lesson.steps.len())],
        errors: Vec::new(),
    };
    let mut shown = Vec::new();
    for (i, (step, lines)) in lesson.steps.iter().zip(&lesson.lines).enumerate() {
        let mut said = Vec::new();
        check_step(i + 1, step, lines, &mut checked, &mut said);
        said.extend(authored(step));
        check_shares(step, lines, &said, &mut checked.errors);
        shown.push(said);
    }
    check_terms(&lesson.steps, &lesson.lines, &shown, &mut checked.errors);
    checked
}

/// What the author wrote on a step's screen: its title, paragraphs and question.
fn authored(step: &Step) -> Vec<String> {
    let mut text = vec![step.title.to_string()];
    text.extend(step.text.iter().map(|p| p.to_string()));
    if let Some(q) = &step.question {
        text.push(q.prompt.to_string());
        if let Answer::Choices(choices) = q.answer {
            for c in choices {
                text.push(c.text.to_string());
                text.push(c.hint.to_string());
            }
        }
    }
    text
}

/// "only 100%" and its kin: a whole is "all", nothing is "none", and "only" goes before a
/// part alone.
fn check_shares(step: &Step, lines: &StepLines, said: &[String], errors: &mut Vec<String>) {
    for sentence in said {
        let lower = sentence.to_ascii_lowercase();
        for whole in ["100%", "all", "0%", "none"] {
            if find_word(&lower, &format!("only {whole}")).is_some() {
                errors.push(format!(
                    "line {}: step `{}`: \u{201c}only {whole}\u{201d} in \u{201c}{sentence}\u{201d}: \
                     a whole is \u{201c}all\u{201d}, nothing is \u{201c}none\u{201d}, and \
                     \u{201c}only\u{201d} goes before a part",
                    lines.heading, step.name
                ));
            }
        }
    }
}

/// A glossary term on a step's screen must be taught (`@terms`) by that step or an earlier
/// one, so that its meaning is printed where the class first reads it.
fn check_terms(
    steps: &[Step],
    lines: &[StepLines],
    shown: &[Vec<String>],
    errors: &mut Vec<String>,
) {
    for (i, (step, said)) in steps.iter().zip(shown).enumerate() {
        for term in TERMS {
            let capital = capitalized(term.term);
            let Some(sentence) = said
                .iter()
                .find(|s| find_word(s, term.term).is_some() || find_word(s, &capital).is_some())
            else {
                continue;
            };
            let teacher = steps.iter().position(|s| s.terms.contains(&term.term));
            let line = lines[i].heading;
            match teacher {
                Some(t) if t <= i => {}
                Some(t) => errors.push(format!(
                    "line {line}: step `{}` uses \u{201c}{}\u{201d} before step `{}` teaches it \
                     (its @terms, line {}): \u{201c}{sentence}\u{201d}",
                    step.name,
                    term.term,
                    steps[t].name,
                    lines[t].terms.unwrap_or(lines[t].heading)
                )),
                None => errors.push(format!(
                    "line {line}: step `{}` uses \u{201c}{}\u{201d}, which no step teaches: add \
                     it to this step's @terms (its meaning is then printed under the text): \
                     \u{201c}{sentence}\u{201d}",
                    step.name, term.term
                )),
            }
        }
    }
}

fn check_step(
    number: usize,
    step: &Step,
    lines: &StepLines,
    checked: &mut Checked,
    said: &mut Vec<String>,
) {
    let Checked { report, errors } = checked;
    report.push(format!(
        "{number:>2} {} (line {}, plays to {}): {}",
        step.name,
        lines.heading,
        clock(step.moment(), None),
        step.title
    ));
    if let Some(key) = step.knob {
        if knob(key).is_none() {
            let keys: Vec<&str> = KNOBS.iter().map(|k| k.key).collect();
            errors.push(format!(
                "line {}: step `{}`: @try `{key}` is no control (one of {})",
                lines.knob.unwrap_or(lines.heading),
                step.name,
                keys.join(", ")
            ));
        }
    }
    let (page, notices) = step.page_at_moment();
    for notice in notices {
        errors.push(format!(
            "line {}: step `{}`: @run: {notice}",
            lines.run, step.name
        ));
    }
    // A control whose part the run has off, and does not switch on, would move nothing.
    if let Some(row) = step.knob.and_then(crate::sim::params::param) {
        if let crate::sim::params::Needs::OnlyWith(part) = row.needs {
            if !part.is_on(&page.settings.config()) {
                errors.push(format!(
                    "line {}: step `{}`: @try `{}` changes nothing: the step's run has {} \
                     (switch it on in @run, with `patterns=`)",
                    lines.knob.unwrap_or(lines.heading),
                    step.name,
                    row.key,
                    part.missing()
                ));
            }
        }
    }
    let Ok(run) = &page.runs.a else {
        errors.push(format!(
            "line {}: step `{}`: its run could not be made",
            lines.run, step.name
        ));
        return;
    };
    for sentence in step.notices(&page) {
        report.push(format!("     notice: {sentence}"));
        said.push(sentence);
    }
    let reading = Reading {
        run,
        now: step.moment(),
        b: page.b_run().map(|b| &*b.0),
    };
    // Each live figure as the page shows it (the screen's words) and by its name (the report).
    let live: Vec<(String, String)> = step
        .text
        .iter()
        .flat_map(|p| pieces(p).unwrap_or_default())
        .filter_map(|piece| match piece {
            Piece::Live(live) => Some((live.name(), live.text(&reading))),
            _ => None,
        })
        .collect();
    let figures: Vec<String> = live
        .iter()
        .map(|(name, text)| format!("{{{name}}} {text}"))
        .collect();
    said.extend(live.into_iter().map(|(_, text)| text));
    if !figures.is_empty() {
        report.push(format!("     live: {}", figures.join(", ")));
    }
    // A figure of run B in a step that shows none would read nothing, always.
    if page.b_run().is_none() {
        let in_text = step.text.iter().flat_map(|p| pieces(p).unwrap_or_default());
        let in_text = in_text.filter_map(|piece| match piece {
            Piece::Live(live) => Some(live),
            _ => None,
        });
        let asked = step.question.iter().flat_map(|q| match q.answer {
            Answer::Number { measure, .. } => vec![measure],
            Answer::Choices(choices) => choices.iter().map(|c| c.holds.measure).collect(),
        });
        for live in in_text.chain(asked).filter(|l| l.side() != Side::A) {
            errors.push(format!(
                "line {}: step `{}`: `{}` reads run B, and the step shows none (add `ab=` to \
                 its @run)",
                lines.heading,
                step.name,
                live.name()
            ));
        }
    }
    if let Some(challenge) = step.challenge {
        check_challenge(step, &challenge, run, lines, checked);
    }
    let errors = &mut checked.errors;
    let report = &mut checked.report;
    let Some(question) = step.question else {
        return;
    };
    let ask = lines.ask.unwrap_or(lines.heading);
    match question.answer {
        Answer::Choices(choices) => {
            let right = question.right_choices(&reading);
            let fact = question.fact(&reading);
            let letters: Vec<String> = right.iter().map(|&i| letter(i)).collect();
            match right.as_slice() {
                [one] => report.push(format!(
                    "     asks: {fact}: choice {} (\u{201c}{}\u{201d}) holds",
                    letter(*one),
                    choices[*one].text
                )),
                [] => errors.push(format!(
                    "line {ask}: step `{}`: no choice holds on the step's own run ({fact})",
                    step.name
                )),
                _ => errors.push(format!(
                    "line {ask}: step `{}`: choices {} all hold on the step's own run ({fact}): \
                     one should",
                    step.name,
                    letters.join(", ")
                )),
            }
        }
        Answer::Number { measure, unit, .. } => {
            let value = measure.value(&reading);
            match value {
                Some(v) if v.is_finite() => report.push(format!(
                    "     asks: {}: the answer is {} {unit}",
                    measure.describe(value, reading.now),
                    trim(v)
                )),
                _ => errors.push(format!(
                    "line {ask}: step `{}`: the run measures nothing to compare a number with \
                     ({})",
                    step.name,
                    measure.describe(value, reading.now)
                )),
            }
        }
    }
}

/// A challenge must start broken and its solution must mend it on every judged seed.
fn check_challenge(
    step: &Step,
    challenge: &Challenge,
    run: &Run,
    lines: &StepLines,
    checked: &mut Checked,
) {
    let controls_line = lines.controls.unwrap_or(lines.heading);
    for key in challenge.controls {
        if knob(key).is_none() {
            checked.errors.push(format!(
                "line {controls_line}: step `{}`: @controls `{key}` is no control",
                step.name
            ));
        }
    }
    let said = |judged: &Judged| -> String {
        judged
            .goals
            .iter()
            .map(|g| {
                let worst = g
                    .values
                    .iter()
                    .find(|v| !g.goal.met(**v))
                    .or(g.values.first())
                    .copied()
                    .flatten();
                format!(
                    "{} ({}{})",
                    g.goal.text(),
                    g.goal.value_text(worst),
                    if g.met { "" } else { ", missed" }
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    match challenge.judge(run, step.moment()) {
        Ok(own) if own.passed => checked.errors.push(format!(
            "line {}: step `{}`: its own run already meets the goals ({}): nothing to mend",
            lines.run,
            step.name,
            said(&own)
        )),
        Ok(own) => checked
            .report
            .push(format!("     challenge, as it starts: {}", said(&own))),
        Err(e) => checked
            .errors
            .push(format!("line {}: step `{}`: {e}", lines.run, step.name)),
    }
    let solution_line = lines.solution.unwrap_or(lines.heading);
    let (page, notices) = step.page_with(challenge.solution);
    for notice in notices {
        checked.errors.push(format!(
            "line {solution_line}: step `{}`: @solution: {notice}",
            step.name
        ));
    }
    let judged = page
        .runs
        .a
        .as_ref()
        .map_err(|e| e.to_string())
        .and_then(|run| challenge.judge(run, step.moment()));
    match judged {
        Ok(j) if j.passed => checked.report.push(format!(
            "     challenge, with the solution: met on seeds {}: {}",
            j.seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            said(&j)
        )),
        Ok(j) => checked.errors.push(format!(
            "line {solution_line}: step `{}`: the @solution does not meet the goals on every \
             seed{}: {}",
            step.name,
            if j.answered {
                ""
            } else {
                " (a run answered nothing)"
            },
            said(&j)
        )),
        Err(e) => checked
            .errors
            .push(format!("line {solution_line}: step `{}`: {e}", step.name)),
    }
}

/// A, B, C, D: how the page labels the choices.
fn letter(i: usize) -> String {
    choice_letter(i).to_string()
}

fn trim(v: f64) -> String {
    let text = format!("{v:.1}");
    text.strip_suffix(".0").map_or(text.clone(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_lessons_check_clean() {
        for file in [
            include_str!("../../../../../lessons/km0.md"),
            include_str!("../../../../../lessons/northwind.md"),
            include_str!("../../../../../lessons/challenges.md"),
        ] {
            let checked = check(file);
            assert_eq!(checked.errors, Vec::<String>::new());
            assert!(
                checked
                    .report
                    .iter()
                    .any(|l| l.contains("asks:") || l.contains("challenge, with the solution")),
                "{checked:?}"
            );
        }
    }

    #[test]
    fn the_example_of_the_format_guide_checks_clean() {
        let guide = include_str!("../../../../../docs/lesson-format.md");
        let example = guide
            .split("```\n")
            .nth(1)
            .expect("docs/lesson-format.md opens with an example");
        let checked = check(example);
        assert_eq!(checked.errors, Vec::<String>::new());
        assert_eq!(checked.report[0], "Timeouts in two steps: 2 steps");
        assert!(
            checked
                .report
                .iter()
                .any(|l| l.contains("the answer is 25.1 %")),
            "{checked:?}"
        );
    }

    #[test]
    fn a_challenge_that_starts_mended_or_a_solution_that_fails_is_named() {
        let text = "# Mine

## One

@name one
@run preset=timeout
@play-to 12 s
@views load

Text.

@goal queue <= 10
@controls timeout
@solution timeout=10
@why Because.
";
        let errors = check(text).errors.join("\n");
        assert!(
            errors.contains("line 6: step `one`: its own run already meets the goals"),
            "{errors}"
        );
        assert!(
            errors.contains("line 14: step `one`: the @solution does not meet the goals"),
            "{errors}"
        );
        // A control no key names is the reader's mistake: the page says the same.
        let unknown = check(&text.replace("@controls timeout", "@controls timeout, nonsense_key"));
        assert_eq!(
            unknown.errors,
            [
                "line 13: @controls: `nonsense_key` is not a setting (`cascade --help` lists the \
              keys; links, widgets and lessons take the same ones)"
            ]
        );
    }

    #[test]
    fn a_figure_of_run_b_needs_a_step_that_shows_one() {
        let lesson = |run: &str| {
            format!(
                "# Mine

## One

@name one
@run {run}
@play-to 12 s
@views load

The limit answers {{b-a:lookups-answered}} more of the lookups than run B.

@ask How many more lookups does the limit answer?
@choice b:lookups-answered < 50 | Fewer than half without it
@hint compare.
@choice b:lookups-answered >= 50 | Half or more without it
@hint compare.
"
            )
        };
        let alone = check(&lesson("preset=story-adaptive-limit"));
        assert_eq!(alone.errors.len(), 3, "{:?}", alone.errors);
        assert!(
            alone.errors[0].contains("`b-a:lookups-answered` reads run B")
                && alone.errors[0].contains("ab="),
            "{:?}",
            alone.errors
        );
        let beside_b = check(&lesson("preset=story-adaptive-limit ab=patterns=none"));
        assert_eq!(beside_b.errors, Vec::<String>::new());
        let live = beside_b
            .report
            .iter()
            .find(|l| l.contains("live:"))
            .expect("the figure is reported");
        assert!(live.contains("{b-a:lookups-answered} \u{2212}"), "{live}");
    }

    #[test]
    fn a_broken_lesson_is_named_by_its_lines() {
        let text = "# Mine

## One

@name one
@run preset=story-none threds=64
@play-to 12 s
@try worker
@views load

Text.

@ask How long is the queue by 12 s?
@choice queue-peak < 10 | Under 10
@hint Count.
@choice 10 <= queue-peak < 20 | 10 to 20
@hint Count again.
";
        // A key or a preset the vocabulary does not know is the reader's mistake, with the
        // same words the page shows; the nearest key is named.
        let misspelled = check(text);
        assert_eq!(
            misspelled.errors,
            [
                "line 6: @run: `threds` is not a setting (`cascade --help` lists the keys; links, \
              widgets and lessons take the same ones); did you mean `threads`?"
            ]
        );
        let no_preset = check(&text.replace("preset=story-none threds=64", "preset=story-nnoe"));
        assert!(
            no_preset.errors[0]
                .starts_with("line 6: @run: preset: \"story-nnoe\" is not allowed (one of none,"),
            "{:?}",
            no_preset.errors
        );
        let text = &text.replace("threds=64", "threads=64");
        let try_worker = check(text);
        assert!(
            try_worker.errors[0].starts_with("line 8: @try: `worker` is not a setting"),
            "{:?}",
            try_worker.errors
        );
        let idle = check(&text.replace("@try worker", "@try timeout"));
        assert!(
            idle.errors.iter().any(|e| e
                == "line 8: step `one`: @try `timeout` changes nothing: the step's run has no \
                    timeout (switch it on in @run, with `patterns=`)"),
            "{:?}",
            idle.errors
        );
        let text = &text.replace("@try worker", "@try threads");
        let checked = check(text);
        let errors = checked.errors.join("\n");
        assert!(
            errors.contains("line 13: step `one`: no choice holds"),
            "{errors}"
        );
        let unreadable = check("# Mine\n\n## One\n@nome one\n");
        assert_eq!(unreadable.errors.len(), 1);
        assert!(
            unreadable.errors[0].starts_with("line 4: `@nome`"),
            "{unreadable:?}"
        );
    }

    #[test]
    fn a_term_used_before_the_step_that_teaches_it_is_named() {
        let two = |first: &str, second_terms: &str| {
            format!(
                "# Mine\n\n## One\n\n@name one\n@run preset=timeout\n@play-to 12 s\n\
                 @views load\n\n{first}\n\n## Two\n\n@name two\n@run preset=timeout\n\
                 @play-to 12 s\n@views load\n{second_terms}\nThe back-off, again.\n"
            )
        };
        let early = check(&two("Each retry waits its back-off.", "@terms back-off\n"));
        assert!(
            early.errors.iter().any(|e| e.starts_with(
                "line 3: step `one` uses \u{201c}back-off\u{201d} before step `two` teaches it"
            )),
            "{early:?}"
        );
        let never = check(&two("Nothing yet.", ""));
        assert!(
            never
                .errors
                .iter()
                .any(|e| e
                    .contains("step `two` uses \u{201c}back-off\u{201d}, which no step teaches")),
            "{never:?}"
        );
        let capital = check(&two("Back-off first.", "@terms back-off\n"));
        assert!(
            capital
                .errors
                .iter()
                .any(|e| e.contains("before step `two` teaches it")),
            "a term starting a sentence is the same term: {capital:?}"
        );
        let fine = check(&two("Nothing yet.", "@terms back-off\n"));
        assert_eq!(fine.errors, Vec::<String>::new());
        let unknown = check(&two("Nothing yet.", "@terms backoff\n"));
        assert!(
            unknown.errors[0].contains("`backoff` is no term of the glossary"),
            "{unknown:?}"
        );
    }

    #[test]
    fn only_before_a_whole_is_named() {
        let text = |says: &str| {
            format!(
                "# Mine\n\n## One\n\n@name one\n@run preset=timeout\n@play-to 12 s\n\
                 @views load\n\n{says}\n"
            )
        };
        for whole in ["only 100%", "Only all", "only none", "only 0%"] {
            let checked = check(&text(&format!("By 12 s {whole} of the calls came back.")));
            assert!(
                checked
                    .errors
                    .iter()
                    .any(|e| e.contains("a whole is \u{201c}all\u{201d}")),
                "{whole}: {checked:?}"
            );
        }
        let part = check(&text(
            "By 12 s only 26% of the calls came back, only a few.",
        ));
        assert_eq!(part.errors, Vec::<String>::new());
    }
}
