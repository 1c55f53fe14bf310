//! The names a lesson file gives the views, the what-to-notice rules (named beside them, in
//! `rules.rs`) and the measured quantities (`load`, `queue-peak`, `throughput(8,12)`), both ways.

use super::rules::{Notice, Rule, Window, NOTICES};
use super::View;

/// Each view and its name.
const VIEWS: &[(&str, View)] = &[
    ("topology", View::Topology),
    ("diagram", View::Diagram),
    ("latency", View::Latency),
    ("load", View::Load),
];

/// Every rule's name, in the order `docs/lesson-format.md` lists them.
pub(super) fn rule_names() -> Vec<String> {
    NOTICES.iter().map(|n| n.written()).collect()
}

/// "a, b or c", for messages that list what a name may be.
fn one_of(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// A row a lesson file names, read at the playhead or over a window: a figure or a rule.
pub(super) trait Named: 'static {
    /// Its name without a window (`queue-peak`, `throughput`).
    fn bare(&self) -> &'static str;

    /// Whether a lesson writes it with a window, `NAME(FROM,TO)`.
    fn windowed(&self) -> bool;

    /// Its name as the docs and messages list it: `throughput(FROM,TO)` for a windowed one.
    fn written(&self) -> String {
        if self.windowed() {
            format!("{}(FROM,TO)", self.bare())
        } else {
            self.bare().to_string()
        }
    }
}

/// The row of `rows` that `text` names, with the window it gives (`(0, 0)` for none); `None`
/// when no row has that name, an error when a windowed row's window is wrong.
pub(super) fn row_named<T: Named>(
    rows: &[&'static T],
    text: &str,
) -> Option<Result<(&'static T, Window), String>> {
    rows.iter().find_map(|&row| {
        if row.windowed() {
            window_of(text, row.bare()).map(|window| window.map(|w| (row, w)))
        } else {
            (row.bare() == text).then_some(Ok((row, (0.0, 0.0))))
        }
    })
}

/// How a lesson writes `row` read over `window`: `queue-peak`, `throughput(8,12)`.
pub(super) fn written_with<T: Named>(row: &T, (from, to): Window) -> String {
    if row.windowed() {
        format!("{}({from},{to})", row.bare())
    } else {
        row.bare().to_string()
    }
}

/// `NAME(8,12)` (`name` being `NAME`) as its window's two times, seconds; `None` when `text`
/// is not `name` with a window.
fn window_of(text: &str, name: &str) -> Option<Result<Window, String>> {
    let inner = text
        .strip_prefix(name)?
        .strip_prefix('(')?
        .strip_suffix(')');
    let figures = inner.and_then(|inner| {
        let (from, to) = inner.split_once(',')?;
        let (from, to) = (
            from.trim().parse::<f64>().ok()?,
            to.trim().parse::<f64>().ok()?,
        );
        (from.is_finite() && to.is_finite() && 0.0 <= from && from < to).then_some((from, to))
    });
    Some(figures.ok_or_else(|| {
        format!("`{text}` should be {name}(FROM,TO), two times in seconds, FROM before TO")
    }))
}

/// The name `value` has in `table`.
fn name_in<T: PartialEq>(table: &[(&'static str, T)], value: &T) -> Option<&'static str> {
    table
        .iter()
        .find(|(_, v)| v == value)
        .map(|(name, _)| *name)
}

/// The value `table` names `name`, or a message saying which names there are (`what`: "view").
fn value_in<T: Copy>(
    table: &[(&str, T)],
    name: &str,
    what: &str,
    more: &[&str],
) -> Result<T, String> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names = table.iter().map(|(n, _)| n.to_string());
            let more = more.iter().map(|m| m.to_string());
            format!(
                "no {what} is called `{name}`: one of {}",
                one_of(names.chain(more))
            )
        })
}

impl View {
    /// Its name in a lesson file.
    pub fn name(self) -> &'static str {
        name_in(VIEWS, &self).unwrap_or("load")
    }

    /// The view called `name`, or a message saying which names there are.
    pub fn from_name(name: &str) -> Result<View, String> {
        value_in(VIEWS, name, "view", &[])
    }
}

impl Named for Notice {
    fn bare(&self) -> &'static str {
        self.name
    }

    fn windowed(&self) -> bool {
        self.windowed
    }
}

impl Rule {
    /// Its name in a lesson file (`throughput(8,12)` with its window).
    pub fn name(self) -> String {
        written_with(self.notice(), self.window())
    }

    /// The rule called `name`, or a message saying which names there are.
    pub fn from_name(name: &str) -> Result<Rule, String> {
        if let Some(found) = row_named(&NOTICES, name) {
            return found.map(|(notice, (from, to))| Rule::over(notice, from, to));
        }
        let plain = NOTICES.iter().filter(|n| !n.windowed).map(|n| n.written());
        let windowed = NOTICES.iter().filter(|n| n.windowed).map(|n| n.written());
        Err(format!(
            "no rule is called `{name}`: one of {}",
            one_of(plain.chain(windowed))
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::super::live::Live;
    use super::*;

    #[test]
    fn names_read_back_to_what_they_name() {
        for (name, view) in VIEWS {
            assert_eq!(view.name(), *name);
            assert_eq!(View::from_name(name), Ok(*view));
        }
        let rules = NOTICES.iter().map(|n| match n.windowed {
            true => Rule::over(n, 8.0, 12.0),
            false => Rule::of(n),
        });
        for rule in rules {
            assert_eq!(Rule::from_name(&rule.name()), Ok(rule), "{}", rule.name());
        }
        let figures =
            Live::all()
                .into_iter()
                .chain([Live::over(&super::super::live::THROUGHPUT, 0.5, 3.0)]);
        for live in figures {
            assert_eq!(Live::from_name(&live.name()), Ok(live));
        }
        assert_eq!(
            Rule::over(&super::super::rules::THROUGHPUT, 8.0, 12.0).name(),
            "throughput(8,12)"
        );
    }

    #[test]
    fn a_wrong_name_says_what_names_exist() {
        let e = Rule::from_name("queue-peek").unwrap_err();
        assert!(
            e.contains("`queue-peek`") && e.contains("queue-peak"),
            "{e}"
        );
        let e = View::from_name("chart").unwrap_err();
        assert!(e.contains("topology, diagram, latency or load"), "{e}");
        let e = Live::from_name("throughput(12,8)").unwrap_err();
        assert!(e.contains("FROM before TO"), "{e}");
        assert!(Rule::from_name("throughput(8)").is_err());
        assert!(Rule::from_name("throughput(a,b)").is_err());
    }
}
