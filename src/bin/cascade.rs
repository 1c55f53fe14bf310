//! `cascade`: the lesson's cascade simulation on the command line.
//!
//! With no arguments it runs the four scenarios of the lesson and prints one line each, in the
//! style of the lesson's table. Bad input prints one line on stderr and exits with status 2.

use std::process::ExitCode;

use resilience_playground::resilience::ParamError;
use resilience_playground::sim::model::{run, CascadeConfig};
use resilience_playground::sim::scenario::{apply_set, Scenario, SET_KEYS};
use resilience_playground::sim::trace::{Outcome, Trace};

const USAGE: &str = "\
usage: cascade [--scenario none,timeout,cb,bulkhead] [--set key=value]... [--no-drain] [--json]

Runs the lesson's cascade: 100 requests/s for 12 s into 32 workers; inventory takes 40 ms,
then 4 s from second 3. Scenarios: none (no protection), timeout (300 ms), cb (timeout +
circuit breaker), bulkhead (timeout + breaker + bulkhead of 8).

  --scenario LIST   comma-separated scenarios to run (default: all four)
  --set KEY=VALUE   override a parameter (repeatable); times in seconds, or with an ms suffix:
                    rate threads duration degrade_at fast slow timeout window min_calls
                    failure_ratio cooldown probes permits max_wait seed
  --no-drain        stop at the end of `duration`; requests left are counted as unfinished
                    (default: drain, as the lesson's code does)
  --json            one JSON object per scenario per line
  --help            this text

p50/p99 are service times (from when a worker takes the request, as the lesson prints);
the JSON also gives end-to-end times (from arrival, queue wait included).";

struct Args {
    scenarios: Vec<Scenario>,
    sets: Vec<(String, String)>,
    drain: bool,
    json: bool,
    help: bool,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        scenarios: Scenario::ALL.to_vec(),
        sets: Vec::new(),
        drain: true,
        json: false,
        help: false,
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg, None),
        };
        let mut value = |name: &str| -> Result<String, String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| format!("{name}: missing value"))
        };
        match flag {
            "--help" | "-h" | "--json" | "--no-drain" if inline.is_some() => {
                return Err(format!("{flag}: takes no value (allowed: {flag})"));
            }
            "--help" | "-h" => out.help = true,
            "--json" => out.json = true,
            "--no-drain" => out.drain = false,
            "--scenario" => {
                let list = value("--scenario")?;
                out.scenarios = list
                    .split(',')
                    .map(|name| {
                        Scenario::parse(name.trim()).ok_or_else(|| {
                            format!(
                                "--scenario: unknown scenario '{name}' (allowed: none, timeout, cb, bulkhead)"
                            )
                        })
                    })
                    .collect::<Result<_, _>>()?;
            }
            "--set" => {
                let kv = value("--set")?;
                let Some((k, v)) = kv.split_once('=') else {
                    return Err(format!("--set: expected key=value, got '{kv}'"));
                };
                out.sets.push((k.trim().to_string(), v.trim().to_string()));
            }
            _ => {
                return Err(format!(
                "unknown argument '{arg}' (allowed: --scenario, --set, --no-drain, --json, --help)"
            ))
            }
        }
        i += 1;
    }
    Ok(out)
}

fn describe(e: &ParamError, key: &str) -> String {
    if e.field == "key" {
        format!(
            "--set: unknown key '{key}' (allowed: {})",
            SET_KEYS.join(", ")
        )
    } else {
        format!(
            "--set {}: '{}' is out of range or malformed (allowed: {})",
            e.field, e.value, e.range
        )
    }
}

fn config_for(s: Scenario, args: &Args) -> Result<CascadeConfig, String> {
    let mut c = s.config();
    c.drain = args.drain;
    for (k, v) in &args.sets {
        apply_set(&mut c, k, v).map_err(|e| describe(&e, k))?;
    }
    c.validate()
        .map_err(|e| format!("{} (scenario {})", e, s.key()))?;
    Ok(c)
}

fn ms(v: Option<u64>) -> f64 {
    v.map_or(0.0, |m| m as f64 / 1_000.0)
}

fn table_line(s: Scenario, cfg: &CascadeConfig, t: &Trace) -> String {
    let counts: Vec<String> = Outcome::ALL
        .iter()
        .filter(|&&o| t.outcomes.get(o) > 0)
        .map(|&o| format!("{}={}", o.name(), t.outcomes.get(o)))
        .collect();
    format!(
        "{:<34} sent={:4}  {}  p50={:6.0}ms p99={:6.0}ms",
        s.label(cfg),
        t.sent,
        counts.join("  "),
        ms(t.service.p50),
        ms(t.service.p99)
    )
}

fn json_line(s: Scenario, t: &Trace) -> String {
    let o = &t.outcomes;
    let opt_ms = |v: Option<u64>| v.map(|m| m as f64 / 1_000.0);
    serde_json::json!({
        "scenario": s.key(),
        "sent": t.sent,
        "ok": o.ok,
        "timeout": o.timeout,
        "circuit_open": o.circuit_open,
        "bulkhead_full": o.bulkhead_full,
        "unfinished": o.unfinished,
        "p50_ms": opt_ms(t.service.p50),
        "p99_ms": opt_ms(t.service.p99),
        "e2e_p50_ms": opt_ms(t.end_to_end.p50),
        "e2e_p99_ms": opt_ms(t.end_to_end.p99),
        "first_open_ms": t.first_open().map(|m| m as f64 / 1_000.0),
    })
    .to_string()
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let args = match parse_args(&argv) {
        Ok(a) => a,
        Err(msg) => {
            eprintln!("cascade: {msg}");
            return ExitCode::from(2);
        }
    };
    if args.help {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let mut configs = Vec::new();
    for &s in &args.scenarios {
        match config_for(s, &args) {
            Ok(c) => configs.push((s, c)),
            Err(msg) => {
                eprintln!("cascade: {msg}");
                return ExitCode::from(2);
            }
        }
    }
    let mut lines = Vec::new();
    for (s, c) in &configs {
        match run(c) {
            Ok(t) if args.json => lines.push(json_line(*s, &t)),
            Ok(t) => lines.push(table_line(*s, c, &t)),
            Err(e) => {
                eprintln!("cascade: scenario {}: {e}", s.key());
                return ExitCode::from(1);
            }
        }
    }
    for l in lines {
        println!("{l}");
    }
    ExitCode::SUCCESS
}
