//! The names a lesson file gives the views, the what-to-notice rules and the measured
//! quantities (`load`, `queue-peak`, `throughput(8,12)`), both ways.

use super::predict::Measure;
use super::rules::Rule;
use super::View;

/// Each view and its name.
const VIEWS: &[(&str, View)] = &[
    ("topology", View::Topology),
    ("diagram", View::Diagram),
    ("latency", View::Latency),
    ("load", View::Load),
];

/// Each rule that takes no figures, and its name; `throughput(FROM,TO)` takes two.
const RULES: &[(&str, Rule)] = &[
    ("workers-full", Rule::WorkersFull),
    ("queue-peak", Rule::QueuePeak),
    ("drain", Rule::Drain),
    ("gateway-full", Rule::GatewayFull),
    ("catalog-answered", Rule::CatalogAnswered),
    ("outcomes", Rule::Outcomes),
    ("inventory-load", Rule::InventoryLoad),
    ("latency", Rule::Latency),
    ("longest-service", Rule::LongestService),
    ("worst-case", Rule::WorstCase),
    ("breaker-opens", Rule::BreakerOpens),
    ("breaker-cycle", Rule::BreakerCycle),
    ("bulkhead-cap", Rule::BulkheadCap),
    ("history-answered", Rule::HistoryAnswered),
    ("still-waiting", Rule::StillWaiting),
    ("lookups-answered", Rule::LookupsAnswered),
    ("lookups-saved", Rule::LookupsSaved),
    ("retries", Rule::Retries),
    ("shed", Rule::Shed),
    ("rate-limit", Rule::RateLimit),
    ("hedges", Rule::Hedges),
    ("stale-work", Rule::StaleWork),
    ("duplicates", Rule::Duplicates),
    ("fallback", Rule::Fallback),
    ("conflicts", Rule::Conflicts),
];

/// Each measure that takes no figures, and its name; `throughput(FROM,TO)` takes two.
const MEASURES: &[(&str, Measure)] = &[
    ("queue-peak", Measure::QueuePeak),
    ("first-opening", Measure::FirstOpening),
    ("lookups-answered", Measure::LookupsAnswered),
    ("ok-share", Measure::OkShare),
];

/// "a, b or c", for messages that list what a name may be.
fn one_of(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// `throughput(8,12)` as its two figures, seconds.
fn throughput(text: &str) -> Option<Result<(f64, f64), String>> {
    let inner = text.strip_prefix("throughput(")?.strip_suffix(')');
    let figures = inner.and_then(|inner| {
        let (from, to) = inner.split_once(',')?;
        let (from, to) = (
            from.trim().parse::<f64>().ok()?,
            to.trim().parse::<f64>().ok()?,
        );
        (from.is_finite() && to.is_finite() && 0.0 <= from && from < to).then_some((from, to))
    });
    Some(figures.ok_or_else(|| {
        format!("`{text}` should be throughput(FROM,TO), two times in seconds, FROM before TO")
    }))
}

/// `throughput(8,12)`.
fn throughput_name(from: f64, to: f64) -> String {
    format!("throughput({from},{to})")
}

impl View {
    /// Its name in a lesson file.
    pub fn name(self) -> &'static str {
        VIEWS
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("load", |(name, _)| name)
    }

    /// The view called `name`, or a message saying which names there are.
    pub fn from_name(name: &str) -> Result<View, String> {
        VIEWS
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| *v)
            .ok_or_else(|| {
                format!(
                    "no view is called `{name}`: one of {}",
                    one_of(VIEWS.iter().map(|(n, _)| n.to_string()))
                )
            })
    }
}

impl Rule {
    /// Its name in a lesson file.
    pub fn name(self) -> String {
        match self {
            Rule::Throughput { from, to } => throughput_name(from, to),
            rule => RULES
                .iter()
                .find(|(_, r)| *r == rule)
                .map_or_else(String::new, |(name, _)| name.to_string()),
        }
    }

    /// The rule called `name`, or a message saying which names there are.
    pub fn from_name(name: &str) -> Result<Rule, String> {
        if let Some(figures) = throughput(name) {
            return figures.map(|(from, to)| Rule::Throughput { from, to });
        }
        RULES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, r)| *r)
            .ok_or_else(|| {
                format!(
                    "no rule is called `{name}`: one of {}",
                    one_of(
                        RULES
                            .iter()
                            .map(|(n, _)| n.to_string())
                            .chain(["throughput(FROM,TO)".to_string()])
                    )
                )
            })
    }
}

impl Measure {
    /// Its name in a lesson file.
    pub fn name(self) -> String {
        match self {
            Measure::Throughput { from, to } => throughput_name(from, to),
            measure => MEASURES
                .iter()
                .find(|(_, m)| *m == measure)
                .map_or_else(String::new, |(name, _)| name.to_string()),
        }
    }

    /// The measure called `name`, or a message saying which names there are.
    pub fn from_name(name: &str) -> Result<Measure, String> {
        if let Some(figures) = throughput(name) {
            return figures.map(|(from, to)| Measure::Throughput { from, to });
        }
        MEASURES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, m)| *m)
            .ok_or_else(|| {
                format!(
                    "no measure is called `{name}`: one of {}",
                    one_of(
                        MEASURES
                            .iter()
                            .map(|(n, _)| n.to_string())
                            .chain(["throughput(FROM,TO)".to_string()])
                    )
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_to_what_they_name() {
        for (name, view) in VIEWS {
            assert_eq!(view.name(), *name);
            assert_eq!(View::from_name(name), Ok(*view));
        }
        let rules = RULES.iter().map(|(_, r)| *r).chain([Rule::Throughput {
            from: 8.0,
            to: 12.0,
        }]);
        for rule in rules {
            assert_eq!(Rule::from_name(&rule.name()), Ok(rule), "{}", rule.name());
        }
        let measures = MEASURES
            .iter()
            .map(|(_, m)| *m)
            .chain([Measure::Throughput { from: 0.5, to: 3.0 }]);
        for measure in measures {
            assert_eq!(Measure::from_name(&measure.name()), Ok(measure));
        }
        assert_eq!(
            Rule::Throughput {
                from: 8.0,
                to: 12.0
            }
            .name(),
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
        let e = Measure::from_name("throughput(12,8)").unwrap_err();
        assert!(e.contains("FROM before TO"), "{e}");
        assert!(Rule::from_name("throughput(8)").is_err());
        assert!(Rule::from_name("throughput(a,b)").is_err());
    }
}
