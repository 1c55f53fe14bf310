//! `cascade experiment NAME`: the experiments on the command line. The binary's clap reads
//! the command line; this module turns the experiment's `--set KEY=VALUE` pairs into its
//! settings, runs it and gives back the lines to print, so those rules are tested here.

use serde::Serialize;

use super::contention::{Batch, ContentionConfig, Strategy, Tally};
use super::metastability::Grid;
use super::settings::{self, Setting, SettingKind};
use crate::resilience::{ParamError, SECOND};
use crate::sim::engine::EngineError;
use crate::sim::scenario::apply_set;

/// The experiments there are.
pub const EXPERIMENTS: [&str; 2] = ["contention", "metastability"];

const METASTABILITY_ABOUT: &str = "\
usage: cascade experiment metastability [--set key=value]... [--json]

The metastability explorer: the retry-storm preset (25 s of traffic, not drained) run once per
cell of a grid of load by trigger length, each cell from the same seed. Inventory serves 6
calls at once and is slow (400 ms) from 3 s for the trigger's length. Prints, per cell, how
long after the trigger ended the platform recovered (10 s in a row with at least 90% of each
second's arrivals answered ok or by a fallback), or that it never did.
";

const METASTABILITY_OTHERS: &str =
    "  --set KEY=VALUE    any key of the cascade (see cascade --help), applied to every cell: the
                     switches that move the boundary, e.g. retry_budget_ratio=0.1, attempts=1,
                     abandon=drop, jitter=none, capacity=12
  --json             one JSON object per cell: rate, trigger_s, recovered_ms, ok_share";

/// The keys `--set` takes with `cascade experiment metastability`, besides every key of the
/// cascade.
// Laid out as the parameter table is, a row's key and words, then its range and write.
#[rustfmt::skip]
pub const METASTABILITY: &[Setting<Grid>] = &[
    Setting { key: "steps", doc: "cells per axis",
        kind: SettingKind::Count { range: Grid::STEPS, write: |g, n| g.steps = n as u32 }, read: |g| g.steps.to_string() },
    Setting { key: "rate_max", doc: "load of the last column (column k has rate_max * k / steps)",
        kind: SettingKind::Number { range: Grid::RATE_MAX, unit: "requests/s", write: |g, r| g.rate_max = r }, read: |g| g.rate_max.to_string() },
    Setting { key: "trigger_max", doc: "trigger of the last row, seconds or with an ms suffix",
        kind: SettingKind::Time { range: Grid::TRIGGER_MAX, write: |g, t| g.trigger_max = t }, read: |g| format!("{} s", settings::seconds(g.trigger_max)) },
];

const CONTENTION_ABOUT: &str = "\
usage: cascade experiment contention [--set key=value]... [--json]

The contention experiment of the AWS Architecture Blog's \"Exponential Backoff And Jitter\":
N clients each update one row once with optimistic concurrency (read the version, write
with it; a stale write fails, and the client backs off and reads again). Every message
takes |N(10 ms, 2 ms)|. Prints, per strategy, the mean writes per run and the mean time
until the last client is done.
";

const CONTENTION_OTHERS: &str = "  --json          one JSON object per strategy per line";

/// Runs one command may ask for.
pub const RUNS: (u64, u64) = (1, 10_000);

/// The keys `--set` takes with `cascade experiment contention`.
#[rustfmt::skip]
pub const CONTENTION: &[Setting<ContentionRequest>] = &[
    Setting { key: "clients", doc: "clients, each writing the row once",
        kind: SettingKind::Count { range: ContentionConfig::CLIENTS, write: |r, n| r.config.clients = n as u32 }, read: |r| r.config.clients.to_string() },
    Setting { key: "runs", doc: "runs averaged",
        kind: SettingKind::Count { range: RUNS, write: |r, n| r.runs = n }, read: |r| r.runs.to_string() },
    Setting { key: "seed", doc: "seed of the random streams",
        kind: SettingKind::Count { range: (0, u64::MAX), write: |r, n| r.seed = n }, read: |r| r.seed.to_string() },
    Setting { key: "strategy", doc: "the one strategy to run",
        kind: SettingKind::Choice { names: || Strategy::ALL.map(Strategy::key).to_vec(), write: |r, i| r.strategies = vec![Strategy::ALL[i]] },
        read: |r| match r.strategies.as_slice() { [one] => one.key().to_string(), _ => "all five".to_string() } },
    Setting { key: "base", doc: "backoff base, seconds or with an ms suffix",
        kind: SettingKind::Time { range: ContentionConfig::BASE, write: |r, t| r.config.base = t }, read: |r| format!("{} s", settings::seconds(r.config.base)) },
    Setting { key: "cap", doc: "longest wait, at least the base",
        kind: SettingKind::Time { range: ContentionConfig::CAP, write: |r, t| r.config.cap = t }, read: |r| format!("{} s", settings::seconds(r.config.cap)) },
];

/// What `cascade experiment contention` runs.
#[derive(Debug, Clone, PartialEq)]
pub struct ContentionRequest {
    /// The experiment's settings.
    pub config: ContentionConfig,
    /// Runs averaged per strategy.
    pub runs: u64,
    /// Seed of the random streams.
    pub seed: u64,
    /// The strategies to run, in table order.
    pub strategies: Vec<Strategy>,
    /// One JSON line per strategy instead of a table.
    pub json: bool,
}

impl Default for ContentionRequest {
    fn default() -> Self {
        ContentionRequest {
            config: ContentionConfig::default(),
            runs: 100,
            seed: 1,
            strategies: Strategy::ALL.to_vec(),
            json: false,
        }
    }
}

/// An experiment's usage: what it is, a line per key of its rows (with the default), and
/// the rest it takes.
fn usage<T>(about: &str, rows: &[Setting<T>], defaults: &T, others: &str) -> Vec<String> {
    let mut lines: Vec<String> = about.lines().map(str::to_string).collect();
    lines.push(String::new());
    lines.extend(settings::usage(rows, defaults));
    lines.extend(others.lines().map(str::to_string));
    lines
}

/// Runs experiment `name` with its `--set` pairs (`help`: its usage instead): the lines to
/// print, or one line saying what was wrong (for exit status 2).
pub fn run_experiment(
    name: &str,
    sets: &[(String, String)],
    json: bool,
    help: bool,
) -> Result<Vec<String>, String> {
    match name {
        "metastability" if help => Ok(usage(
            METASTABILITY_ABOUT,
            METASTABILITY,
            &Grid::default(),
            METASTABILITY_OTHERS,
        )),
        "metastability" => run_metastability(sets, json),
        "contention" if help => Ok(usage(
            CONTENTION_ABOUT,
            CONTENTION,
            &ContentionRequest::default(),
            CONTENTION_OTHERS,
        )),
        "contention" => {
            run(&contention_request(sets, json)?).map_err(|e| format!("experiment contention: {e}"))
        }
        other => Err(unknown_experiment(other)),
    }
}

/// The message for an experiment there is not.
pub fn unknown_experiment(name: &str) -> String {
    format!(
        "experiment: unknown experiment '{name}' (allowed: {})",
        EXPERIMENTS.join(", ")
    )
}

/// Reads the `--set`s of `cascade experiment metastability` into a grid: its own keys by
/// their rows, any other as the cascade's.
pub fn parse_metastability(sets: &[(String, String)]) -> Result<Grid, String> {
    let mut grid = Grid::default();
    for (key, value) in sets {
        match settings::find(METASTABILITY, key) {
            Some(row) => row.apply(&mut grid, value).map_err(set_error)?,
            None => {
                apply_set(&mut grid.base, key, value).map_err(|e| {
                    if e.field == "key" {
                        format!(
                            "--set {key}: unknown key (allowed: {}, or any key of the cascade)",
                            settings::keys(METASTABILITY)
                        )
                    } else {
                        set_error(e)
                    }
                })?;
            }
        }
    }
    grid.validate().map_err(set_error)?;
    Ok(grid)
}

fn run_metastability(sets: &[(String, String)], json: bool) -> Result<Vec<String>, String> {
    let grid = parse_metastability(sets)?;
    let fail = |e| format!("experiment metastability: {e}");
    if json {
        return grid
            .cells()
            .map(|(rate, trigger)| {
                let cell = grid.run_cell(rate, trigger).map_err(fail)?;
                Ok(serde_json::to_string(&cell).unwrap_or_default())
            })
            .collect();
    }
    let mut lines = vec![format!(
        "recovered after the trigger, s (-- never); rows: trigger s, columns: requests/s"
    )];
    let header: String = (1..=grid.steps)
        .map(|k| format!("{:>6.0}", grid.rate(k)))
        .collect();
    lines.push(format!("{:>8}{header}", "trigger"));
    for t in 1..=grid.steps {
        let trigger = grid.trigger(t);
        let mut row = format!("{:>8.2}", trigger as f64 / SECOND as f64);
        for r in 1..=grid.steps {
            let cell = grid.run_cell(grid.rate(r), trigger).map_err(fail)?;
            match cell.recovered_ms {
                Some(ms) => row.push_str(&format!("{:>6.1}", ms / 1_000.0)),
                None => row.push_str(&format!("{:>6}", "--")),
            }
        }
        lines.push(row);
    }
    Ok(lines)
}

fn set_error(e: ParamError) -> String {
    format!(
        "--set {}: '{}' is out of range or malformed (allowed: {})",
        e.field, e.value, e.range
    )
}

/// The contention experiment's settings from its `--set` pairs.
pub fn contention_request(
    sets: &[(String, String)],
    json: bool,
) -> Result<ContentionRequest, String> {
    let mut request = ContentionRequest {
        json,
        ..ContentionRequest::default()
    };
    for (key, value) in sets {
        apply(&mut request, key, value).map_err(set_error)?;
    }
    request.config.validate().map_err(set_error)?;
    Ok(request)
}

/// Applies one `--set key=value` of the contention experiment by its row.
pub fn apply(request: &mut ContentionRequest, key: &str, value: &str) -> Result<(), ParamError> {
    match settings::find(CONTENTION, key) {
        Some(row) => row.apply(request, value),
        None => Err(ParamError::new(
            "key",
            settings::keys(CONTENTION),
            key.to_string(),
        )),
    }
}

/// Runs the request: one line per strategy, JSON or a table with a header.
pub fn run(request: &ContentionRequest) -> Result<Vec<String>, EngineError> {
    let mut lines = Vec::new();
    if !request.json {
        lines.push(format!(
            "{:<14} {:>7} {:>10} {:>12}   ({} runs, seed {}, base {} ms, cap {} ms)",
            "strategy",
            "clients",
            "calls",
            "time_ms",
            request.runs,
            request.seed,
            request.config.base as f64 / 1_000.0,
            request.config.cap as f64 / 1_000.0
        ));
    }
    for &strategy in &request.strategies {
        let tally = Batch::new(request.config, strategy, request.runs, request.seed).finish()?;
        lines.push(line(request, strategy, &tally));
    }
    Ok(lines)
}

/// One `--json` line, its fields in this order.
#[derive(Serialize)]
struct JsonRow {
    strategy: &'static str,
    clients: u32,
    calls: f64,
    time_ms: f64,
}

fn line(request: &ContentionRequest, strategy: Strategy, tally: &Tally) -> String {
    let calls = (tally.mean_calls() * 100.0).round() / 100.0;
    let time_ms = (tally.mean_time_ms() * 1_000.0).round() / 1_000.0;
    if request.json {
        let row = JsonRow {
            strategy: strategy.key(),
            clients: request.config.clients,
            calls,
            time_ms,
        };
        serde_json::to_string(&row).unwrap_or_default()
    } else {
        format!(
            "{:<14} {:>7} {:>10.1} {:>12.1}",
            strategy.key(),
            request.config.clients,
            calls,
            time_ms
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `clients=20 runs=7` as the pairs clap gives.
    fn sets(text: &str) -> Vec<(String, String)> {
        text.split_whitespace()
            .map(|kv| {
                let (k, v) = kv.split_once('=').expect("key=value");
                (k.to_string(), v.to_string())
            })
            .collect()
    }

    #[test]
    fn settings_are_read() {
        let r = contention_request(
            &sets("clients=20 runs=7 seed=3 strategy=full-jitter base=10ms cap=1"),
            true,
        )
        .unwrap();
        assert_eq!(r.config.clients, 20);
        assert_eq!((r.runs, r.seed, r.json), (7, 3, true));
        assert_eq!(r.strategies, vec![Strategy::FullJitter]);
        assert_eq!((r.config.base, r.config.cap), (10_000, 1_000_000));
    }

    #[test]
    fn bad_input_names_the_key_and_its_range() {
        let cases = [
            ("clients=0", "clients", "1..=500"),
            ("clients=many", "clients", "1..=500"),
            ("runs=0", "runs", "1..=10000"),
            ("strategy=fast", "strategy", "no-backoff, exponential"),
            ("base=2", "base", "0.0001..=1 s"),
            ("base=1s cap=0.5", "cap", "at least base"),
            ("speed=3", "key", "clients, runs, seed, strategy, base, cap"),
        ];
        for (given, named, range) in cases {
            let err = run_experiment("contention", &sets(given), false, false).unwrap_err();
            assert!(err.contains(named) && err.contains(range), "{given}: {err}");
        }
        let err = run_experiment("storm", &[], false, false).unwrap_err();
        assert!(err.contains("storm") && err.contains("contention"), "{err}");
        let usage = run_experiment("contention", &sets("clients=0"), false, true).unwrap();
        assert!(usage[0].starts_with("usage: cascade experiment contention"));
    }

    /// The usage of each experiment lists every key of its rows with its range and default,
    /// and each row takes both ends of its range, refuses what lies beyond it naming the key
    /// and the range, and writes what it read.
    #[test]
    fn the_usage_and_the_checks_come_from_the_rows() {
        fn walk<T: Default>(
            name: &str,
            rows: &[Setting<T>],
            apply: fn(&mut T, &str, &str) -> Result<(), String>,
        ) {
            let usage = run_experiment(name, &[], false, true).unwrap();
            let defaults = T::default();
            for row in rows {
                let head = format!("  --set {} ", row.key);
                let at = usage
                    .iter()
                    .position(|l| l.starts_with(&head))
                    .unwrap_or_else(|| panic!("{name}: no usage line for {}", row.key));
                let more = usage[at + 1..].iter().take_while(|l| l.starts_with("    "));
                let lines: Vec<&str> = std::iter::once(&usage[at])
                    .chain(more)
                    .map(|l| l.trim())
                    .collect();
                assert!(
                    usage[at..at + lines.len()].iter().all(|l| l.len() <= 96),
                    "{lines:?}"
                );
                let line = lines.join(" ");
                let default = format!("default {})", (row.read)(&defaults));
                assert!(
                    line.contains(&row.range()) && line.ends_with(&default),
                    "{line}"
                );
                let (inside, beyond) = match &row.kind {
                    SettingKind::Count {
                        range: (min, max), ..
                    } => (
                        vec![min.to_string(), max.to_string()],
                        [min.checked_sub(1), max.checked_add(1)]
                            .into_iter()
                            .flatten()
                            .map(|v| v.to_string())
                            .collect(),
                    ),
                    SettingKind::Time {
                        range: (min, max), ..
                    } => (
                        vec![settings::seconds(*min), settings::seconds(*max)],
                        vec![settings::seconds(max + 1_000)],
                    ),
                    SettingKind::Number {
                        range: (min, max), ..
                    } => (
                        vec![min.to_string(), max.to_string()],
                        vec![(min - 1.0).to_string(), (max + 1.0).to_string()],
                    ),
                    SettingKind::Choice { names, .. } => (
                        names().into_iter().map(str::to_string).collect(),
                        vec!["none of them".to_string()],
                    ),
                };
                for value in inside {
                    let mut target = T::default();
                    row.apply(&mut target, &value)
                        .unwrap_or_else(|e| panic!("{name} {}={value}: {e}", row.key));
                    let read = (row.read)(&target);
                    assert!(
                        read.starts_with(&value) || value.starts_with(&read),
                        "{}={value} read {read}",
                        row.key
                    );
                }
                for value in beyond {
                    let err = apply(&mut T::default(), row.key, &value).unwrap_err();
                    assert!(err.contains(&format!("--set {}", row.key)), "{err}");
                    let range = row.range();
                    let start = range
                        .split("..=")
                        .next()
                        .unwrap_or(&range)
                        .split(',')
                        .next()
                        .unwrap();
                    assert!(
                        err.contains(start),
                        "{}={value}: {err} (range {range})",
                        row.key
                    );
                }
            }
        }
        walk("contention", CONTENTION, |r, key, value| {
            apply(r, key, value).map_err(set_error)
        });
        walk("metastability", METASTABILITY, |_, key, value| {
            parse_metastability(&[(key.to_string(), value.to_string())]).map(|_| ())
        });
        let err = parse_metastability(&sets("colour=red")).unwrap_err();
        assert!(
            err.contains("steps, rate_max, trigger_max, or any key"),
            "{err}"
        );
    }
}
