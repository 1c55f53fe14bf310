//! `cascade experiment NAME`: the experiments on the command line. The binary's clap reads
//! the command line; this module turns the experiment's `--set KEY=VALUE` pairs into its
//! settings, runs it and gives back the lines to print, so those rules are tested here.

use serde::Serialize;

use super::contention::{Batch, ContentionConfig, Strategy, Tally, MAX_CLIENTS};
use super::metastability::{Grid, MAX_STEPS};
use crate::resilience::{ParamError, SECOND};
use crate::sim::engine::EngineError;
use crate::sim::scenario::{apply_set, parse_int, parse_time};

/// The experiments there are.
pub const EXPERIMENTS: [&str; 2] = ["contention", "metastability"];

/// The keys `--set` takes with `--experiment metastability` besides every key of the cascade.
pub const METASTABILITY_KEYS: [&str; 3] = ["steps", "rate_max", "trigger_max"];

const METASTABILITY_USAGE: &str = "\
usage: cascade experiment metastability [--set key=value]... [--json]

The metastability explorer: the retry-storm preset (25 s of traffic, not drained) run once per
cell of a grid of load by trigger length, each cell from the same seed. Inventory serves 6
calls at once and is slow (400 ms) from 3 s for the trigger's length. Prints, per cell, how
long after the trigger ended the platform recovered (10 s in a row with at least 90% of each
second's arrivals answered ok or by a fallback), or that it never did.

  --set steps=N        cells per axis (2..=40; default 12)
  --set rate_max=R     load of the last column, requests/s (1..=2000; default 150, inventory's capacity); column k
                       has rate_max * k / steps
  --set trigger_max=T  trigger of the last row (1ms..=600 s; default 6 s)
  --set KEY=VALUE      any key of the cascade (see cascade --help), applied to every cell: the
                       switches that move the boundary, e.g. retry_budget_ratio=0.1,
                       attempts=1, abandon=drop, jitter=none, capacity=12
  --json               one JSON object per cell: rate, trigger_s, recovered_ms, ok_share";

/// The keys `--set` takes with `--experiment contention`.
pub const CONTENTION_KEYS: [&str; 6] = ["clients", "runs", "seed", "strategy", "base", "cap"];

/// Most runs one command may ask for.
pub const MAX_RUNS: u64 = 10_000;

const USAGE: &str = "\
usage: cascade experiment contention [--set key=value]... [--json]

The contention experiment of the AWS Architecture Blog's \"Exponential Backoff And Jitter\":
N clients each update one row once with optimistic concurrency (read the version, write
with it; a stale write fails, and the client backs off and reads again). Every message
takes |N(10 ms, 2 ms)|. Prints, per strategy, the mean writes per run and the mean time
until the last client is done.

  --set clients=N     clients (1..=500; default 50)
  --set runs=R        runs averaged (1..=10000; default 100)
  --set seed=S        seed of the random streams (default 1)
  --set strategy=S    one of no-backoff, exponential, full-jitter, equal-jitter,
                      decorrelated (default: all five)
  --set base=T        backoff base, seconds or with an ms suffix (0.1ms..=1 s; default 5ms)
  --set cap=T         longest wait (base..=60 s; default 2 s)
  --json              one JSON object per strategy per line";

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

/// Runs experiment `name` with its `--set` pairs (`help`: its usage instead): the lines to
/// print, or one line saying what was wrong (for exit status 2).
pub fn run_experiment(
    name: &str,
    sets: &[(String, String)],
    json: bool,
    help: bool,
) -> Result<Vec<String>, String> {
    let usage = |text: &str| Ok(text.lines().map(str::to_string).collect());
    match name {
        "metastability" if help => usage(METASTABILITY_USAGE),
        "metastability" => run_metastability(sets, json),
        "contention" if help => usage(USAGE),
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

/// Reads the `--set`s of `cascade experiment metastability` into a grid.
pub fn parse_metastability(sets: &[(String, String)]) -> Result<Grid, String> {
    let mut grid = Grid::default();
    for (key, value) in sets {
        match key.as_str() {
            "steps" => {
                grid.steps = parse_int("steps", value, 2, MAX_STEPS.into()).map_err(set_error)? as u32
            }
            "rate_max" => {
                grid.rate_max = value
                    .parse::<f64>()
                    .ok()
                    .filter(|r| r.is_finite() && (1.0..=2_000.0).contains(r))
                    .ok_or_else(|| {
                        format!("--set rate_max: '{value}' is out of range or malformed (allowed: 1..=2000 requests/s)")
                    })?
            }
            "trigger_max" => {
                grid.trigger_max =
                    parse_time("trigger_max", value, 1_000, 600 * SECOND).map_err(set_error)?
            }
            _ => {
                apply_set(&mut grid.base, key, value).map_err(|e| {
                    if e.field == "key" {
                        format!(
                            "--set {key}: unknown key (allowed: {}, or any key of the cascade)",
                            METASTABILITY_KEYS.join(", ")
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

/// Applies one `--set key=value` of the contention experiment.
pub fn apply(request: &mut ContentionRequest, key: &str, value: &str) -> Result<(), ParamError> {
    match key {
        "clients" => {
            request.config.clients = parse_int("clients", value, 1, MAX_CLIENTS.into())? as u32
        }
        "runs" => request.runs = parse_int("runs", value, 1, MAX_RUNS)?,
        "seed" => request.seed = parse_int("seed", value, 0, u64::MAX)?,
        "base" => request.config.base = parse_time("base", value, 100, SECOND)?,
        "cap" => request.config.cap = parse_time("cap", value, 100, 60 * SECOND)?,
        "strategy" => {
            let all = Strategy::ALL.map(Strategy::key);
            let chosen = Strategy::parse(value)
                .ok_or_else(|| ParamError::new("strategy", all.join(", "), value.to_string()))?;
            request.strategies = vec![chosen];
        }
        _ => {
            return Err(ParamError::new(
                "key",
                CONTENTION_KEYS.join(", "),
                key.to_string(),
            ))
        }
    }
    Ok(())
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
}
