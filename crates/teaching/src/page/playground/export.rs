//! The current run as files a student can keep: the time series as CSV, and the settings,
//! counts and series as JSON.

use serde::Serialize;

use super::permalink::to_query;
use super::state::Page;
use crate::sim::model::SimConfig;
use crate::sim::trace::{
    BreakerChange, DependencyLoad, Outcome, OutcomeCounts, Percentiles, Recovery, Trace, BUCKET,
};

/// The CSV's columns after `time_s`, `arrivals` and one column per outcome (named as
/// [`Outcome::name`], in the order of [`Outcome::ALL`]).
pub const GAUGE_COLUMNS: [&str; 10] = [
    "inventory_calls",
    "workers_busy",
    "queue_len",
    "bulkhead_in_use",
    "bulkhead_waiting",
    "gateway_in_use",
    "breaker_state",
    "window_calls",
    "window_failures",
    "breaker_rejections",
];

/// The columns after [`GAUGE_COLUMNS`] when inventory has a capacity: what its servers did in
/// the slice (served, answers still awaited) and their gauges at its end.
pub const LOAD_COLUMNS: [&str; 4] = [
    "inventory_served",
    "inventory_goodput",
    "inventory_slots_busy",
    "inventory_queue",
];

/// The column after [`LOAD_COLUMNS`] when inventory's items can conflict (hot items): the
/// writes in the slice that lost to another on the same item, work done for nothing.
pub const CONFLICTS_COLUMN: &str = "inventory_conflicts";

/// Every column of the CSV of a run without a capacity, in order.
pub fn csv_columns() -> Vec<&'static str> {
    let mut columns = vec!["time_s", "arrivals"];
    columns.extend(Outcome::ALL.iter().map(|o| o.name()));
    columns.extend(GAUGE_COLUMNS);
    columns
}

/// Every column of `trace`'s CSV: [`LOAD_COLUMNS`] too when inventory has a capacity, and
/// [`CONFLICTS_COLUMN`] when its items can conflict.
pub fn csv_columns_of(trace: &Trace) -> Vec<&'static str> {
    let mut columns = csv_columns();
    if let Some(load) = inventory_load(trace) {
        columns.extend(LOAD_COLUMNS);
        if load.conflicts.is_some() {
            columns.push(CONFLICTS_COLUMN);
        }
    }
    columns
}

fn inventory_load(trace: &Trace) -> Option<&DependencyLoad> {
    trace.dependencies.first()?.load.as_ref()
}

fn breaker_name(gauge: u8) -> &'static str {
    match gauge {
        1 => "half_open",
        2 => "open",
        _ => "closed",
    }
}

/// One line per 100 ms slice: counters of the slice (requests that finished in it, by
/// outcome), gauges at its end. `None` when the page has no run.
pub fn series_csv(page: &Page) -> Option<String> {
    let run = page.runs.a.as_ref().ok()?;
    let load = inventory_load(&run.trace);
    let mut out = csv_columns_of(&run.trace).join(",");
    out.push('\n');
    for (i, b) in run.trace.series.iter().enumerate() {
        let tenths = (i as u64 + 1) * BUCKET / 100_000;
        let mut row = vec![
            format!("{}.{}", tenths / 10, tenths % 10),
            b.arrivals.to_string(),
        ];
        row.extend(
            Outcome::ALL
                .iter()
                .map(|o| b.completions.get(*o).to_string()),
        );
        row.extend([
            b.inventory_calls.to_string(),
            b.workers_busy.to_string(),
            b.queue_len.to_string(),
            b.bulkhead_in_use.to_string(),
            b.bulkhead_waiting.to_string(),
            b.gateway_in_use.to_string(),
            breaker_name(b.breaker_state).to_string(),
            b.window_calls.to_string(),
            b.window_failures.to_string(),
            b.breaker_rejections.to_string(),
        ]);
        if let Some(l) = load {
            let at = |v: &[u64]| v.get(i).copied().unwrap_or(0).to_string();
            row.extend([
                at(&l.served_per_bucket),
                at(&l.goodput_per_bucket),
                l.busy_per_bucket.get(i).copied().unwrap_or(0).to_string(),
                at(&l.queue_per_bucket),
            ]);
            if l.conflicts.is_some() {
                row.push(at(&l.conflicts_per_bucket));
            }
        }
        out.push_str(&row.join(","));
        out.push('\n');
    }
    Some(out)
}

/// What the JSON download holds.
#[derive(Debug, Serialize)]
pub struct RunExport<'a> {
    /// The permalink's query: paste it after `?` to get this run back.
    pub permalink_query: String,
    /// The parameters of the run.
    pub config: &'a SimConfig,
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
    /// The CSV's column names.
    pub series_columns: Vec<&'static str>,
    /// How long the run took to recover after its trigger, when a dependency has a capacity
    /// (`recovered_after` in µs; `null` when it never did).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Recovery>,
    /// Outcome names in the order of [`Outcome::ALL`].
    pub outcome_names: Vec<&'static str>,
}

/// The run as pretty JSON; `None` when the page has no run.
pub fn run_json(page: &Page) -> Option<String> {
    let run = page.runs.a.as_ref().ok()?;
    let t = &run.trace;
    let export = RunExport {
        permalink_query: to_query(page),
        config: &run.config,
        sent: t.sent,
        outcomes: t.outcomes,
        service: t.service,
        end_to_end: t.end_to_end,
        transitions: &t.transitions,
        series_columns: csv_columns_of(t),
        recovery: t.recovery,
        outcome_names: Outcome::ALL.iter().map(|o| o.name()).collect(),
    };
    serde_json::to_string_pretty(&export).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::action::Action;

    /// The CSV's rows after its header, split into cells.
    fn rows_of(csv: &str) -> Vec<Vec<&str>> {
        csv.lines()
            .skip(1)
            .map(|l| l.split(',').collect())
            .collect()
    }

    #[test]
    fn the_csv_has_one_row_per_slice_and_its_columns_sum_to_the_counts() {
        let page = Page::default().apply(Action::SetKnob("permits", 4.0));
        let csv = series_csv(&page).unwrap();
        let run = page.runs.a.as_ref().unwrap();
        let columns = csv_columns();
        let mut lines = csv.lines();
        assert_eq!(lines.next().unwrap(), columns.join(","));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), run.trace.series.len());
        assert!(rows.iter().all(|r| r.len() == columns.len()));
        let col = |name: &str| columns.iter().position(|c| *c == name).unwrap();
        let sum = |name: &str| -> u64 {
            let i = col(name);
            rows.iter().map(|r| r[i].parse::<u64>().unwrap()).sum()
        };
        assert_eq!(sum("arrivals"), run.trace.sent);
        for outcome in Outcome::ALL {
            assert_eq!(
                sum(outcome.name()),
                run.trace.outcomes.get(outcome),
                "{outcome:?}"
            );
        }
        assert!(run.trace.outcomes.circuit_open > 0);
        assert_eq!(rows[0][0], "0.1");
        assert_eq!(rows[9][0], "1.0");
        assert_eq!(rows[24][0], "2.5");
        assert!(rows.iter().any(|r| r[col("breaker_state")] == "open"));
    }

    #[test]
    fn a_run_with_a_capacity_adds_inventorys_servers_to_the_csv_and_its_recovery_to_the_json() {
        use crate::sim::scenario::Preset;
        let page = Page::default().apply(Action::PickPreset(Preset::RetryStorm));
        let run = page.runs.a.as_ref().unwrap();
        let load = run.trace.dependencies[0].load.as_ref().unwrap();
        let csv = series_csv(&page).unwrap();
        let columns = csv_columns_of(&run.trace);
        assert_eq!(columns.len(), csv_columns().len() + LOAD_COLUMNS.len());
        let rows = rows_of(&csv);
        assert!(rows.iter().all(|r| r.len() == columns.len()));
        let col = |name: &str| columns.iter().position(|c| *c == name).unwrap();
        let sum = |name: &str| -> u64 {
            rows.iter()
                .map(|r| r[col(name)].parse::<u64>().unwrap())
                .sum()
        };
        assert_eq!(sum("inventory_served"), load.served);
        assert_eq!(sum("inventory_goodput"), load.goodput);
        let peak = rows
            .iter()
            .map(|r| r[col("inventory_queue")].parse::<u64>().unwrap())
            .max();
        assert_eq!(peak, load.queue_per_bucket.iter().copied().max());
        let v: serde_json::Value = serde_json::from_str(&run_json(&page).unwrap()).unwrap();
        assert!(
            v["recovery"]["recovered_after"].is_null(),
            "{}",
            v["recovery"]
        );
        assert_eq!(v["series_columns"].as_array().unwrap().len(), columns.len());
        // A run with no end to its trigger (the story: inventory stays slow) never recovers.
        let plain: serde_json::Value =
            serde_json::from_str(&run_json(&Page::default()).unwrap()).unwrap();
        assert!(plain["recovery"]["recovered_after"].is_null());
    }

    #[test]
    fn a_run_with_hot_items_counts_its_conflicts_in_the_csv() {
        use crate::sim::scenario::Preset;
        let page = Page::default().apply(Action::PickPreset(Preset::RetryHerdContention));
        let run = page.runs.a.as_ref().unwrap();
        let conflicts = run.trace.dependencies[0].load.as_ref().unwrap().conflicts;
        let columns = csv_columns_of(&run.trace);
        assert_eq!(columns.last(), Some(&CONFLICTS_COLUMN));
        let csv = series_csv(&page).unwrap();
        let rows = rows_of(&csv);
        assert!(rows.iter().all(|r| r.len() == columns.len()));
        let total: u64 = rows
            .iter()
            .map(|r| r[columns.len() - 1].parse::<u64>().unwrap())
            .sum();
        assert!(total > 0);
        assert_eq!(Some(total), conflicts);
        let retry_storm = Page::default().apply(Action::PickPreset(Preset::RetryStorm));
        let storm = &retry_storm.runs.a.as_ref().unwrap().trace;
        assert!(!csv_columns_of(storm).contains(&CONFLICTS_COLUMN));
    }

    #[test]
    fn the_json_parses_and_carries_the_counts_and_the_permalink() {
        let page = Page::default();
        let json = run_json(&page).unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        let t = &page.runs.a.as_ref().unwrap().trace;
        assert_eq!(v["sent"], t.sent);
        assert_eq!(v["outcomes"]["circuit_open"], t.outcomes.circuit_open);
        assert!(v["permalink_query"].as_str().unwrap().contains("preset=cb"));
        assert_eq!(v["config"]["service"]["threads"], 32);
        // The config is the one the page ran, in the form `cascade --config` reads.
        let back = crate::sim::config_file::load_config_json(&v["config"].to_string()).unwrap();
        assert_eq!(back, page.config());
    }
}
