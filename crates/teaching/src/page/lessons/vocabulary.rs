//! The words a lesson file may use, listed from the tables the reader uses: the presets, every
//! key `--set` takes, the measures (one table for questions, figures and goals) and the rules.
//! `docs/lesson-format.md` carries this text between its markers, and a test keeps the two
//! equal, so the guide cannot drift from the code.

#[cfg(test)]
use super::live::Live;
use super::live::{Quantity, FIGURES};
use super::names::rule_names;
use super::names::Named;
use crate::sim::model::{Pattern, Place, Profile};
use crate::sim::params::PARAMS;
use crate::sim::scenario::Preset;

/// A table cell: a `|` inside the text would end the cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// The vocabulary as `docs/lesson-format.md` lists it.
pub fn vocabulary() -> String {
    let mut out = vec![
        "### Presets".to_string(),
        String::new(),
        "| `preset=` | What it runs |".into(),
        "| --- | --- |".into(),
    ];
    out.extend(
        Preset::ALL
            .iter()
            .map(|p| format!("| `{}` | {} |", p.key(), cell(p.title()))),
    );
    out.extend([
        String::new(),
        "### Patterns".into(),
        String::new(),
        "What `patterns=` lists (`patterns=timeout,breaker`, or `none`): the switches of the \
         playground's panel. A pattern a library's stack has no place for is refused under its \
         `stack=`; the last column lists the stacks that have it."
            .into(),
        String::new(),
        "| `patterns=` | Pattern | Where it sits | Stacks |".into(),
        "| --- | --- | --- | --- |".into(),
    ]);
    out.extend(Pattern::SWITCHES.iter().map(|p| {
        let d = p.describe();
        let place = match d.place {
            Place::Layer => "a layer around the call to inventory",
            Place::Outermost => "around every other layer of the call",
            Place::WithinRetries => "asked by the retries before each retry",
            Place::Door => "at the door of orders",
        };
        let stacks: Vec<_> = Profile::every()
            .iter()
            .filter(|profile| profile.has_place_for(*p))
            .map(Profile::key)
            .collect();
        format!(
            "| `{}` | {} | {place} | {} |",
            d.key,
            d.label,
            stacks.join(", ")
        )
    }));
    out.extend([
        String::new(),
        "### Keys".into(),
        String::new(),
        "Every key of `cascade --help`, taken the same way by `--set`, a link, a widget \
         attribute, `@run`, `@try`, `@controls`, `@solution` and `ab=`. A key of a pattern that is \
         off switches it on with the lesson's values, as `--set` does (unless the same settings \
         list the patterns with `patterns=`). Times are seconds, or a number with `ms`."
            .into(),
        String::new(),
        "| Key | Unit | What it sets |".into(),
        "| --- | --- | --- |".into(),
    ]);
    out.extend(
        PARAMS
            .iter()
            .map(|p| format!("| `{}` | {} | {} |", p.key, cell(p.unit), cell(p.doc))),
    );
    out.extend([
        String::new(),
        "### Measures".into(),
        String::new(),
        "One list for every place a lesson reads the run: a claim of `@choice` or `@number`, a \
         figure in a sentence (`{queue-peak}`) and a `@goal`. A time is bounded in `s` or `ms`, \
         a share from 0 to 100, anything else by a number. `cascade --json` prints each at the \
         run's end under `measures`, by these names (a time in seconds, a share in percent; \
         the throughput over the whole run, `throughput(0,D)`). In a step that shows a run B \
         (`ab=`), `b:` before a name reads run B (`{b:queue-peak}`) and `b-a:` run B's figure \
         minus run A's, signed (`@choice b-a:lookups-answered >= 50 | ...`); a goal reads the \
         step's own run only."
            .into(),
        String::new(),
        "| Measure | Kind | What the run measured by the playhead |".into(),
        "| --- | --- | --- |".into(),
    ]);
    out.extend(FIGURES.iter().map(|figure| {
        let kind = match figure.unit.quantity() {
            Quantity::Duration => "a time",
            Quantity::Percent => "a share",
            Quantity::Count => "a number",
        };
        format!(
            "| `{}` | {kind} | {} |",
            figure.written(),
            cell(figure.what)
        )
    }));
    out.extend([
        String::new(),
        "### Rules of `@notice`".into(),
        String::new(),
        "Each rule writes one sentence from the run, at the playhead, when it has something to \
         say; `cascade lesson check` prints the sentences your steps will show:"
            .into(),
        rule_names()
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ")
            + ".",
        String::new(),
        "### Terms of `@terms`".into(),
        String::new(),
        "The words a step teaches. Their meanings are printed under the step's text; \
         `cascade lesson check` names a term that a step's screen (its text, question or \
         sentences) uses before the step that teaches it, or that no step teaches."
            .into(),
        String::new(),
        "| Term | What it means |".into(),
        "| --- | --- |".into(),
    ]);
    out.extend(
        crate::page::glossary::TERMS
            .iter()
            .map(|t| format!("| `{}` | {} |", t.term, cell(t.meaning))),
    );
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_lists_the_vocabulary_as_the_reader_knows_it() {
        let guide = include_str!("../../../../../docs/lesson-format.md");
        let (start, end) = ("<!-- vocabulary: start -->", "<!-- vocabulary: end -->");
        let from = guide.find(start).expect("the guide marks the vocabulary") + start.len();
        let to = guide.find(end).expect("and its end");
        assert_eq!(
            guide[from..to].trim(),
            vocabulary(),
            "docs/lesson-format.md's vocabulary differs from the code; it should read:\n{}\n",
            vocabulary()
        );
    }

    #[test]
    fn every_listed_word_is_one_the_reader_takes() {
        for p in Preset::ALL {
            assert!(crate::page::permalink::check_pair("preset", p.key()).is_ok());
        }
        for p in PARAMS {
            assert!(crate::page::knobs::knob(p.key).is_some(), "{}", p.key);
        }
        for live in Live::all() {
            let name = live.name();
            assert_eq!(Live::from_name(&name), Ok(live), "{name}");
            let unit = if live.quantity() == Quantity::Duration {
                " s"
            } else {
                ""
            };
            let goal = format!("{name} >= 0{unit}");
            assert!(
                super::super::challenge::Goal::parse(&goal).is_ok(),
                "{goal}"
            );
            let claim = format!("{name} >= 0");
            assert!(super::super::format::claim(&claim).is_ok(), "{claim}");
        }
        // Every pattern (the panel's switches and the sidecar, which its keys switch on) goes
        // on and off through its part, and a run reads every measure: the
        // story with the limit, the lesson's breaker, the herd, which recovers, or a hedge or a retry
        // budget on the lesson's timeout.
        for p in Pattern::ALL {
            let mut cfg = Preset::StoryNone.config();
            p.part().switch_on(&mut cfg);
            assert!(p.is_on(&cfg), "{}", p.key());
            p.part().switch_off(&mut cfg);
            assert!(!p.is_on(&cfg), "{}", p.key());
        }
        let mut hedged = Preset::Lesson(crate::sim::scenario::Scenario::Timeout).config();
        crate::sim::params::apply_set(&mut hedged, "hedge", "on").expect("a hedge");
        let mut budgeted = Preset::Lesson(crate::sim::scenario::Scenario::Timeout).config();
        for (key, value) in [("attempts", "3"), ("retry_budget_ratio", "0.1")] {
            crate::sim::params::apply_set(&mut budgeted, key, value).expect("a retry budget");
        }
        let runs: Vec<crate::page::runs::Run> = [
            Preset::StoryAdaptiveLimit,
            Preset::Lesson(crate::sim::scenario::Scenario::Cb),
            Preset::RetryHerd,
            Preset::SaturdayEnvoy,
            Preset::SaturdayGrpc,
        ]
        .into_iter()
        .map(|p| p.config())
        .chain([hedged, budgeted])
        .map(|c| crate::page::runs::Run::of(c).expect("a preset runs"))
        .collect();
        for live in Live::all() {
            let read = runs.iter().any(|run| {
                let reading = super::super::rules::Reading {
                    run,
                    now: run.span.max(12_000_000),
                    b: None,
                };
                live.value(&reading).is_some_and(f64::is_finite)
            });
            assert!(read, "{} reads a value from some run", live.name());
        }
        for rule in rule_names() {
            assert!(super::super::rules::Rule::from_name(&rule.replace("FROM,TO", "8,12")).is_ok());
        }
    }
}
