//! The `cascade` binary: output shapes and the handling of bad input.

use std::process::{Command, Output};

fn cascade(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cascade"))
        .args(args)
        .output()
        .expect("run cascade")
}

#[test]
fn default_prints_the_four_scenarios() {
    let out = cascade(&[]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for l in &lines {
        assert!(l.contains("sent=1200"), "{l}");
        assert!(l.contains("p50=") && l.contains("p99="), "{l}");
    }
    assert!(lines[0].starts_with("no protection"));
    assert!(lines[3].contains("bulkhead_full="));
}

#[test]
fn json_lines_parse_and_add_up() {
    let out = cascade(&["--json", "--scenario", "cb,bulkhead", "--set", "window=1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    for (l, name) in lines.iter().zip(["cb", "bulkhead"]) {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["scenario"], name);
        let sum: u64 = [
            "ok",
            "timeout",
            "circuit_open",
            "bulkhead_full",
            "unfinished",
        ]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum();
        assert_eq!(sum, v["sent"].as_u64().unwrap());
        for k in ["p50_ms", "p99_ms", "e2e_p50_ms", "e2e_p99_ms"] {
            assert!(v[k].is_number(), "{k} in {l}");
        }
    }
}

#[test]
fn set_and_no_drain_change_the_run() {
    let json = |args: &[&str]| -> serde_json::Value {
        let out = cascade(args);
        assert!(out.status.success());
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
    };
    let drained = json(&["--json", "--scenario=none"]);
    let stopped = json(&["--json", "--scenario=none", "--no-drain"]);
    assert_eq!(drained["unfinished"], 0);
    assert!(stopped["unfinished"].as_u64().unwrap() > 800, "{stopped}");
    let shorter = json(&["--json", "--scenario=timeout", "--set", "timeout=250ms"]);
    assert_eq!(shorter["p50_ms"], 250.0, "{shorter}");
    let untouched = json(&["--json", "--scenario=none", "--set", "timeout=250ms"]);
    assert_eq!(untouched["timeout"].as_u64().unwrap_or(0), 0, "{untouched}");
}

#[test]
fn help_prints_usage() {
    let out = cascade(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("usage"));
}

#[test]
fn bad_input_exits_2_naming_the_key() {
    let cases: &[(&[&str], &str)] = &[
        (&["--set", "colour=red"], "colour"),
        (&["--set", "threads=0"], "threads"),
        (&["--set", "threads=abc"], "threads"),
        (&["--set", "rate=1e9"], "rate"),
        (&["--set", "timeout=-1"], "timeout"),
        (&["--set", "failure_ratio=2"], "failure_ratio"),
        (&["--set", "window=soon"], "window"),
        (&["--set", "max_wait=61"], "max_wait"),
        (&["--set", "threads"], "--set"),
        (&["--set"], "--set"),
        (&["--scenario", "all"], "--scenario"),
        (&["--frobnicate"], "--frobnicate"),
        (&["--json=yes"], "--json"),
        (&["--scenario", "cb,"], "--scenario"),
        (&["--set", "rate=10000", "--set", "duration=600"], "rate"),
    ];
    for (args, key) in cases {
        let out = cascade(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(key), "{args:?}: {err}");
        assert!(
            err.contains("allowed") || err.contains("missing") || err.contains("expected"),
            "{args:?}: {err}"
        );
    }
}
