//! The current run as files a student can keep: the time series as CSV, and the settings,
//! counts and series as JSON.

use serde::Serialize;

use super::permalink::to_query;
use super::state::Page;
use crate::sim::model::CascadeConfig;
use crate::sim::trace::{BreakerChange, Outcome, OutcomeCounts, Percentiles, BUCKET};

/// The CSV's columns, in order.
pub const CSV_COLUMNS: [&str; 15] = [
    "time_s",
    "arrivals",
    "ok",
    "timeout",
    "circuit_open",
    "bulkhead_full",
    "inventory_calls",
    "workers_busy",
    "queue_len",
    "bulkhead_in_use",
    "bulkhead_waiting",
    "breaker_state",
    "window_calls",
    "window_failures",
    "breaker_rejections",
];

fn breaker_name(gauge: u8) -> &'static str {
    match gauge {
        1 => "half_open",
        2 => "open",
        _ => "closed",
    }
}

/// One line per 100 ms slice: counters of the slice, gauges at its end. `None` when the page
/// has no run.
pub fn series_csv(page: &Page) -> Option<String> {
    let run = page.run.as_ref().ok()?;
    let mut out = CSV_COLUMNS.join(",");
    out.push('\n');
    for (i, b) in run.trace.series.iter().enumerate() {
        let tenths = (i as u64 + 1) * BUCKET / 100_000;
        let c = &b.completions;
        out.push_str(&format!(
            "{}.{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}\n",
            tenths / 10,
            tenths % 10,
            b.arrivals,
            c.ok,
            c.timeout,
            c.circuit_open,
            c.bulkhead_full,
            b.inventory_calls,
            b.workers_busy,
            b.queue_len,
            b.bulkhead_in_use,
            b.bulkhead_waiting,
            breaker_name(b.breaker_state),
            b.window_calls,
            b.window_failures,
            b.breaker_rejections,
        ));
    }
    Some(out)
}

/// What the JSON download holds.
#[derive(Debug, Serialize)]
pub struct RunExport<'a> {
    /// The permalink's query: paste it after `?` to get this run back.
    pub permalink_query: String,
    /// The parameters of the run.
    pub config: &'a CascadeConfig,
    /// Requests sent.
    pub sent: u64,
    /// Requests by outcome.
    pub outcomes: OutcomeCounts,
    /// Service time percentiles (µs), the lesson's rule.
    pub service: Percentiles,
    /// End-to-end percentiles (µs).
    pub end_to_end: Percentiles,
    /// The breaker's changes of state.
    pub transitions: &'a [BreakerChange],
    /// The series' column names.
    pub series_columns: [&'static str; 15],
    /// Outcome names in the order of [`Outcome::ALL`].
    pub outcome_names: Vec<&'static str>,
}

/// The run as pretty JSON; `None` when the page has no run.
pub fn run_json(page: &Page) -> Option<String> {
    let run = page.run.as_ref().ok()?;
    let t = &run.trace;
    let export = RunExport {
        permalink_query: to_query(page),
        config: &run.config,
        sent: t.sent,
        outcomes: t.outcomes,
        service: t.service,
        end_to_end: t.end_to_end,
        transitions: &t.transitions,
        series_columns: CSV_COLUMNS,
        outcome_names: Outcome::ALL.iter().map(|o| o.name()).collect(),
    };
    serde_json::to_string_pretty(&export).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::state::Action;

    #[test]
    fn the_csv_has_one_row_per_slice_and_its_columns_sum_to_the_counts() {
        let page = Page::default().apply(Action::SetKnob("permits", 4.0));
        let csv = series_csv(&page).unwrap();
        let run = page.run.as_ref().unwrap();
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap(), CSV_COLUMNS.join(","));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), run.trace.series.len());
        assert!(rows.iter().all(|r| r.len() == CSV_COLUMNS.len()));
        let sum = |col: usize| -> u64 { rows.iter().map(|r| r[col].parse::<u64>().unwrap()).sum() };
        assert_eq!(sum(1), run.trace.sent);
        assert_eq!(sum(2), run.trace.outcomes.ok);
        assert_eq!(sum(3), run.trace.outcomes.timeout);
        assert_eq!(sum(4), run.trace.outcomes.circuit_open);
        assert_eq!(rows[0][0], "0.1");
        assert_eq!(rows[9][0], "1.0");
        assert_eq!(rows[24][0], "2.5");
        assert!(rows.iter().any(|r| r[11] == "open"));
    }

    #[test]
    fn the_json_parses_and_carries_the_counts_and_the_permalink() {
        let page = Page::default();
        let json = run_json(&page).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let t = &page.run.as_ref().unwrap().trace;
        assert_eq!(v["sent"], t.sent);
        assert_eq!(v["outcomes"]["circuit_open"], t.outcomes.circuit_open);
        assert!(v["permalink_query"].as_str().unwrap().contains("preset=cb"));
        assert_eq!(v["config"]["threads"], 32);
    }
}
