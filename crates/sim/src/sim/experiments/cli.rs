//! `cascade --experiment NAME`: the experiments on the command line. The binary hands its
//! arguments over and prints what comes back, so the parsing is tested here.

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
usage: cascade --experiment metastability [--set key=value]... [--json]

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
usage: cascade --experiment contention [--set key=value]... [--json]

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

/// What `--experiment contention` runs.
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

/// Runs `--experiment` if the arguments ask for one: `None` when they do not, else the lines
/// to print or one line saying what was wrong (for exit status 2).
pub fn run_from_args(args: &[String]) -> Option<Result<Vec<String>, String>> {
    let asked = args
        .iter()
        .any(|a| a == "--experiment" || a.starts_with("--experiment="));
    asked.then(|| {
        let read = read_args(args)?;
        if read.experiment.as_deref() == Some("metastability") {
            return run_metastability(&read);
        }
        match parse(args)? {
            None => Ok(USAGE.lines().map(str::to_string).collect()),
            Some(request) => run(&request).map_err(|e| format!("--experiment contention: {e}")),
        }
    })
}

/// The arguments of `--experiment`, read but not yet applied.
struct ReadArgs {
    experiment: Option<String>,
    sets: Vec<(String, String)>,
    json: bool,
    help: bool,
}

fn read_args(args: &[String]) -> Result<ReadArgs, String> {
    let mut read = ReadArgs {
        experiment: None,
        sets: Vec::new(),
        json: false,
        help: false,
    };
    let mut i = 0;
    while i < args.len() {
        let (flag, inline) = match args[i].split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (args[i].as_str(), None),
        };
        let mut value = || {
            inline.clone().or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        match flag {
            "--help" | "-h" => read.help = true,
            "--json" => read.json = true,
            "--experiment" => read.experiment = value(),
            "--set" => {
                let kv = value().ok_or("--set: missing value (allowed: key=value)")?;
                let (k, v) = kv
                    .split_once('=')
                    .ok_or_else(|| format!("--set: expected key=value, got '{kv}'"))?;
                read.sets.push((k.trim().to_string(), v.trim().to_string()));
            }
            other => {
                return Err(format!(
                    "unknown argument '{other}' with --experiment (allowed: --experiment, --set, --json, --help)"
                ))
            }
        }
        i += 1;
    }
    match read.experiment.as_deref() {
        Some(name) if EXPERIMENTS.contains(&name) => Ok(read),
        other => Err(format!(
            "--experiment: unknown experiment '{}' (allowed: {})",
            other.unwrap_or(""),
            EXPERIMENTS.join(", ")
        )),
    }
}

/// Reads the `--set`s of `--experiment metastability` into a grid.
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

fn run_metastability(read: &ReadArgs) -> Result<Vec<String>, String> {
    if read.help {
        return Ok(METASTABILITY_USAGE.lines().map(str::to_string).collect());
    }
    let grid = parse_metastability(&read.sets)?;
    let fail = |e| format!("--experiment metastability: {e}");
    if read.json {
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

/// Reads the arguments of `--experiment contention`; `None` asks for the usage text.
pub fn parse(args: &[String]) -> Result<Option<ContentionRequest>, String> {
    let read = read_args(args)?;
    if read.help {
        return Ok(None);
    }
    if read.experiment.as_deref() != Some("contention") {
        return Err("--experiment: this reads the contention experiment's arguments".to_string());
    }
    let mut request = ContentionRequest {
        json: read.json,
        ..ContentionRequest::default()
    };
    for (key, value) in &read.sets {
        apply(&mut request, key, value).map_err(set_error)?;
    }
    request.config.validate().map_err(set_error)?;
    Ok(Some(request))
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
            let chosen = Strategy::parse(value).ok_or_else(|| ParamError {
                field: "strategy",
                range: all.join(", "),
                value: value.to_string(),
            })?;
            request.strategies = vec![chosen];
        }
        _ => {
            return Err(ParamError {
                field: "key",
                range: CONTENTION_KEYS.join(", "),
                value: key.to_string(),
            })
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

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn without_experiment_the_cascade_keeps_its_arguments() {
        assert!(run_from_args(&args("--scenario cb --json")).is_none());
        assert!(run_from_args(&[]).is_none());
    }

    #[test]
    fn settings_are_read() {
        let r = parse(&args(
            "--experiment contention --set clients=20 --set runs=7 --set seed=3 \
             --set strategy=full-jitter --set base=10ms --set cap=1 --json",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(r.config.clients, 20);
        assert_eq!((r.runs, r.seed, r.json), (7, 3, true));
        assert_eq!(r.strategies, vec![Strategy::FullJitter]);
        assert_eq!((r.config.base, r.config.cap), (10_000, 1_000_000));
    }

    #[test]
    fn bad_input_names_the_key_and_its_range() {
        let cases = [
            ("--set clients=0", "clients", "1..=500"),
            ("--set clients=many", "clients", "1..=500"),
            ("--set runs=0", "runs", "1..=10000"),
            ("--set strategy=fast", "strategy", "no-backoff, exponential"),
            ("--set base=2", "base", "0.0001..=1 s"),
            ("--set base=1s --set cap=0.5", "cap", "at least base"),
            (
                "--set speed=3",
                "key",
                "clients, runs, seed, strategy, base, cap",
            ),
            ("--set clients", "--set", "key=value"),
        ];
        for (extra, named, range) in cases {
            let all = format!("--experiment contention {extra}");
            let err = match run_from_args(&args(&all)) {
                Some(Err(e)) => e,
                other => panic!("{all}: {other:?}"),
            };
            assert!(err.contains(named) && err.contains(range), "{all}: {err}");
        }
        let err = parse(&args("--experiment storm")).unwrap_err();
        assert!(err.contains("storm") && err.contains("contention"), "{err}");
        let err = parse(&args("--experiment contention --scenario cb")).unwrap_err();
        assert!(err.contains("--scenario"), "{err}");
    }
}
