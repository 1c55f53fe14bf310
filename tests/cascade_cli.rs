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
fn a_hedge_cuts_the_p99_and_reports_its_copies() {
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "--json",
            "--scenario=none",
            "--set",
            "degrade_at=3600",
            "--set",
            "fast_p99=400ms",
            "--set",
            "threads=1000",
            "--set",
            "duration=100",
        ];
        args.extend_from_slice(extra);
        let out = cascade(&args);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
    };
    let plain = json(&[]);
    assert!(plain.get("hedges_sent").is_none(), "{plain}");
    let hedged = json(&["--set", "hedge_after=200ms"]);
    let (sent, hedges) = (
        hedged["sent"].as_u64().unwrap(),
        hedged["hedges_sent"].as_u64().unwrap(),
    );
    assert!(
        hedges * 100 <= sent * 7 && hedges * 100 >= sent * 3,
        "{hedged}"
    );
    assert!(hedged["hedges_won"].as_u64().unwrap() <= hedges);
    assert_eq!(hedged["inventory_calls"].as_u64().unwrap(), sent + hedges);
    let p99 = |v: &serde_json::Value| v["p99_ms"].as_f64().unwrap();
    assert!(p99(&hedged) < 0.75 * p99(&plain), "{hedged} vs {plain}");
}

#[test]
fn idempotency_key_reports_duplicate_orders() {
    let json = |key: &str| -> serde_json::Value {
        let out = cascade(&[
            "--json",
            "--scenario=none",
            "--set",
            "client_give_up=5",
            "--set",
            "frontend_retries=2",
            "--set",
            &format!("idempotency_key={key}"),
        ]);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
    };
    let off = json("off");
    let on = json("on");
    let u = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    assert_eq!(u(&off, "duplicates"), u(&off, "frontend_retries"), "{off}");
    assert!(u(&off, "duplicates") > 0);
    assert_eq!(u(&off, "orders_created"), 1_200 + u(&off, "duplicates"));
    assert_eq!(u(&on, "duplicates"), 0, "{on}");
    assert_eq!(u(&on, "orders_created"), 1_200);
    assert_eq!(u(&on, "duplicates_recognised"), u(&on, "frontend_retries"));
    let out = cascade(&["--json", "--scenario=none"]);
    let plain: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert!(plain.get("duplicates").is_none(), "{plain}");
}

#[test]
fn gateway_retries_and_route_timeouts_from_the_command_line() {
    let json = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec![
            "--json",
            "--scenario=none",
            "--set",
            "threads=1000",
            "--set",
            "gateway_pool=10000",
        ];
        args.extend_from_slice(extra);
        let out = cascade(&args);
        assert!(out.status.success(), "{out:?}");
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap()
    };
    let u = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    let once = json(&["--set", "orders_timeout=1"]);
    assert_eq!(u(&once, "gateway_timeout"), 899, "{once}");
    assert_eq!(u(&once, "gateway_retries"), 0);
    let retried = json(&["--set", "orders_timeout=1", "--set", "gateway_retries=2"]);
    assert_eq!(u(&retried, "gateway_timeout"), 899, "{retried}");
    assert_eq!(u(&retried, "gateway_retries"), 2 * 899);
    assert_eq!(u(&retried, "stale_work"), 3 * 899);
}

#[test]
fn help_prints_usage() {
    let out = cascade(&["--help"]);
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout).unwrap().contains("usage"));
}

/// The usage lists each flag with its help, as the flags' own declaration gives them; the
/// error line for an unknown flag names the same flags.
#[test]
fn help_lists_each_flag_the_error_line_names() {
    let help = String::from_utf8(cascade(&["--help"]).stdout).unwrap();
    let refused = String::from_utf8(cascade(&["--bogus"]).stderr).unwrap();
    let allowed = refused
        .split("(allowed: ")
        .nth(1)
        .and_then(|t| t.split(')').next())
        .expect("the error names the flags");
    let flags: Vec<&str> = allowed.split(", ").collect();
    assert_eq!(flags.len(), 13, "{allowed}");
    let lines: Vec<&str> = help.lines().collect();
    for flag in flags {
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("  {flag}")))
            .unwrap_or_else(|| panic!("{flag} is not in the usage"));
        // A flag wider than its column stands alone, its help on the next line.
        let help_of = match lines[at].trim() == flag {
            true => lines.get(at + 1).map_or("", |l| l.trim()),
            false => lines[at],
        };
        assert!(help_of.len() > 4, "{flag} has its help: {}", lines[at]);
    }
    assert!(
        help.contains("  --trace PICK      follow one request of each run"),
        "{help}"
    );
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
        (&["--set", "hedge=maybe"], "hedge"),
        (&["--set", "hedge_after=0"], "hedge_after"),
        (&["--set", "hedge_after=p0"], "hedge_after"),
        (&["--set", "hedge_after=2min"], "hedge_after"),
        (&["--set", "max_hedges=9"], "max_hedges"),
        (&["--set", "idempotency_key=yes"], "idempotency_key"),
        (&["--set", "gateway_retries=11"], "gateway_retries"),
        (&["--set", "orders_timeout=0"], "orders_timeout"),
        (&["--set", "catalog_timeout=x"], "catalog_timeout"),
        (&["--set", "idempotency_ttl=0.5"], "idempotency_ttl"),
        // A key that starts with a dash is still the value of `--set`, named as a key.
        (&["--set", "-=0"], "unknown key '-'"),
        (&["--set", "--json=1"], "unknown key '--json'"),
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

/// A file in a folder of the system's temporary directory, one folder per test (`test`);
/// each test removes its folder at the end.
fn temp_file(test: &str, name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cascade-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn presets_and_config_files_run() {
    let out = cascade(&["--json", "--preset", "saturday,northwind-separate"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["scenario"], "saturday");
    for v in &lines {
        let sum: u64 = resilience_playground::sim::trace::Outcome::ALL
            .iter()
            .map(|o| v[o.name()].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(sum, v["sent"].as_u64().unwrap());
    }
    assert!(lines[0]["gateway_rejected"].as_u64().unwrap() > 0);
    assert_eq!(lines[1]["routes"]["order_history"]["success_rate"], 1.0);

    // A whole config as JSON: the lesson's cb, written out, gives the same line as --scenario.
    let cfg = resilience_playground::sim::scenario::Scenario::Cb.config();
    let path = temp_file("ok", "cb.json", &serde_json::to_string(&cfg).unwrap());
    let from_file = cascade(&["--json", "--config", path.to_str().unwrap()]);
    assert!(from_file.status.success(), "{from_file:?}");
    let a: serde_json::Value = serde_json::from_slice(&from_file.stdout).unwrap();
    let b: serde_json::Value =
        serde_json::from_slice(&cascade(&["--json", "--scenario", "cb"]).stdout).unwrap();
    for k in [
        "sent",
        "ok",
        "timeout",
        "circuit_open",
        "p50_ms",
        "p99_ms",
        "first_open_ms",
    ] {
        assert_eq!(a[k], b[k], "{k}");
    }
    assert_eq!(a["scenario"], "config");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn a_grouped_config_file_runs_as_its_preset_and_takes_set_on_top() {
    let grouped =
        serde_json::to_string(&resilience_playground::sim::scenario::Scenario::Cb.config())
            .unwrap();
    let path = temp_file("grouped", "cb.json", &grouped);
    let from_file = cascade(&["--json", "--config", path.to_str().unwrap()]);
    assert!(from_file.status.success(), "{from_file:?}");
    let mut a: serde_json::Value = serde_json::from_slice(&from_file.stdout).unwrap();
    let mut b: serde_json::Value =
        serde_json::from_slice(&cascade(&["--json", "--scenario", "cb"]).stdout).unwrap();
    a["scenario"] = "cb".into();
    b["scenario"] = "cb".into();
    assert_eq!(a, b);
    // `--set` applies to a config file as to a preset: one configuration in memory.
    let set = |source: &[&str]| {
        let mut args = vec!["--json", "--set", "timeout=0.25"];
        args.extend_from_slice(source);
        let out = cascade(&args);
        assert!(out.status.success(), "{out:?}");
        let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["scenario"] = "cb".into();
        v
    };
    let from_file = set(&["--config", path.to_str().unwrap()]);
    assert_eq!(from_file, set(&["--scenario", "cb"]));
    assert_ne!(from_file, a, "the override changed the run");
    std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
}

#[test]
fn bad_presets_and_config_files_exit_2_naming_the_problem() {
    // Flat files, as older ones are written.
    let flat = || -> serde_json::Value {
        serde_json::from_str(include_str!("fixtures/old_configs/cb.json")).unwrap()
    };
    let mut cfg = flat();
    cfg["threads"] = 0.into();
    let out_of_range = temp_file("bad", "range.json", &cfg.to_string());
    cfg["threads"] = 32.into();
    cfg["colour"] = "red".into();
    let unknown_field = temp_file("bad", "unknown.json", &cfg.to_string());
    cfg.as_object_mut().unwrap().remove("colour");
    cfg["rate"] = "fast".into();
    let malformed = temp_file("bad", "malformed.json", &cfg.to_string());
    let bad_json = temp_file("bad", "bad.json", "{\"rate\": 100,");
    let mut write = flat();
    write["hedge"] = serde_json::json!({
        "policy": {"delay": {"Fixed": 80000}, "max_hedges": 1},
        "idempotency_key": false
    });
    let hedged_write = temp_file("bad", "hedged-write.json", &write.to_string());
    let missing = out_of_range.with_file_name("does-not-exist.json");
    let p = |p: &std::path::PathBuf| p.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--preset".into(), "tuesday".into()], "tuesday"),
        (vec!["--preset".into(), "saturday,".into()], "--preset"),
        (vec!["--config".into(), p(&missing)], "cannot read"),
        (vec!["--config".into(), p(&bad_json)], "EOF"),
        (vec!["--config".into(), p(&unknown_field)], "colour"),
        (vec!["--config".into(), p(&out_of_range)], "threads"),
        (vec!["--config".into(), p(&malformed)], "invalid type"),
        (vec!["--config".into(), p(&hedged_write)], "idempotent"),
        (vec!["--config".into()], "--config"),
        (
            vec!["--set".into(), "arrivals=sometimes".into()],
            "arrivals",
        ),
        (vec!["--set".into(), "error_rate=1.5".into()], "error_rate"),
        (vec!["--set".into(), "attempts=11".into()], "attempts"),
        (
            vec!["--set".into(), "gateway_pool=lots".into()],
            "gateway_pool",
        ),
        (
            vec![
                "--preset".into(),
                "saturday".into(),
                "--set".into(),
                "catalog_share=0.9".into(),
                "--set".into(),
                "history_share=0.5".into(),
            ],
            "history_share",
        ),
    ];
    for (args, needle) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = cascade(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(
            err.contains("allowed") || err.contains("missing"),
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(out_of_range.parent().unwrap()).unwrap();
}

#[test]
fn payments_keys_switch_it_on_and_report_where_requests_failed() {
    let out = cascade(&[
        "--json",
        "--scenario",
        "timeout",
        "--set",
        "degrade_at=3600",
        "--set",
        "payments_degrade_at=3",
        "--set",
        "payments_slow=2",
        "--set",
        "payments_timeout=300ms",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8(out.stdout).unwrap().trim()).unwrap();
    assert_eq!(v["inventory_calls"], 1200);
    assert!(v["payments_calls"].as_u64().unwrap() > 300);
    assert!(v["timeout"].as_u64().unwrap() > 0);
    assert_eq!(v["payments_timeouts"], v["timeout"]);
    // Off (the default, or said so): no payments keys at all.
    for args in [
        &["--json", "--scenario", "cb"][..],
        &[
            "--json",
            "--scenario",
            "cb",
            "--set",
            "payments_slow=2",
            "--set",
            "payments=off",
        ],
    ] {
        let out = cascade(args);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains("payments"), "{text}");
    }
    // The table line says what happened at payments (only the 301 orders inventory served
    // in time went on to it).
    let out = cascade(&["--scenario", "timeout", "--set", "payments=on"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[payments calls=301 timeout=0"), "{text}");
}

#[test]
fn bad_payments_input_names_the_key_and_its_range() {
    let cases: [(&[&str], &str); 4] = [
        (&["--set", "payments=maybe"], "on, off"),
        (&["--set", "payments_timeout=0"], "0.001..=3600 s"),
        (&["--set", "payments_error_rate=1.5"], "0..=1"),
        (&["--set", "payments_speed=1"], "payments_timeout"),
    ];
    for (args, range) in cases {
        let out = cascade(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        let key = args[1].split('=').next().unwrap();
        assert!(err.contains(key) && err.contains(range), "{err}");
    }
    // A p99 under the median is caught by the whole config's check, naming the key.
    let out = cascade(&["--set", "payments_fast=1", "--set", "payments_fast_p99=0.5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("payments_fast_p99") && err.lines().count() == 1,
        "{err}"
    );
}

/// The part of the usage from the line starting with `heading` up to the next blank line.
fn usage_section(text: &str, heading: &str) -> String {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("no {heading:?} in the usage"));
    let rest = &text[start..];
    rest[..rest.find("\n\n").unwrap_or(rest.len())].to_string()
}

#[test]
fn help_lists_every_preset_with_its_title() {
    let out = cascade(&["--help"]);
    let text = usage_section(
        &String::from_utf8(out.stdout).unwrap(),
        "Presets of --preset:",
    );
    for p in resilience_playground::sim::scenario::Preset::ALL {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(p.key()))
            .unwrap_or_else(|| panic!("the preset {} is not in the usage", p.key()));
        assert!(line.contains(p.title()), "{line} lacks {}", p.title());
    }
}

#[test]
fn help_lists_every_key_of_the_parameter_table_with_its_range() {
    let out = cascade(&["--help"]);
    let text = usage_section(&String::from_utf8(out.stdout).unwrap(), "Keys of --set");
    let lines: Vec<&str> = text.lines().collect();
    for p in resilience_playground::sim::params::PARAMS {
        let at = lines
            .iter()
            .position(|l| l.split_whitespace().next() == Some(p.key))
            .unwrap_or_else(|| panic!("{} is not in the usage", p.key));
        // A key wider than its column stands alone, its text on the next line.
        let line = match lines[at].trim() == p.key {
            true => lines.get(at + 1).copied().unwrap_or(""),
            false => lines[at],
        };
        let first_word = p.range().split(' ').next().unwrap().to_string();
        assert!(
            line.contains(&first_word),
            "{} lacks {first_word}",
            lines[at]
        );
    }
}

#[test]
fn a_resilience4j_file_runs_on_the_flash_sale_and_bad_ones_are_named() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/northwind-resilience4j.yml"
    );
    let out = cascade(&["--resilience4j", fixture, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pasted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let preset = cascade(&["--preset", "northwind-as-written-separate", "--json"]);
    let mut preset: serde_json::Value = serde_json::from_slice(&preset.stdout).unwrap();
    preset["scenario"] = pasted["scenario"].clone();
    assert_eq!(pasted, preset);
    assert_eq!(pasted["stack"], "resilience4j");

    let dir = std::env::temp_dir().join(format!("cascade-r4j-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.yml");
    let text = std::fs::read_to_string(fixture).unwrap();
    std::fs::write(
        &bad,
        text.replace(
            "max-wait-duration: 100ms\n      orderHistoryLookup",
            "max-wait-duration: 90s\n      orderHistoryLookup",
        ),
    )
    .unwrap();
    let out = cascade(&["--resilience4j", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("resilience4j.bulkhead.instances.inventoryReservation.max-wait-duration"),
        "{err}"
    );
    std::fs::write(&bad, "resilience4j: [").unwrap();
    let out = cascade(&["--resilience4j", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("not valid YAML"));
    let out = cascade(&["--resilience4j", "/no/such/file.yml"]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--envoy FILE.yaml` runs a pasted Envoy route and cluster on Saturday (the default) or on
/// the presets given, with the JSON of any run, notices on stderr, and errors that name the
/// Envoy field.
#[test]
fn an_envoy_file_runs_on_saturday_and_bad_ones_are_named() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/envoy-route.yaml"
    );
    let out = cascade(&["--envoy", fixture, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let notices = String::from_utf8(out.stderr).unwrap();
    assert!(
        notices.contains(
            "notice: route_config.virtual_hosts[0].routes[0].route.retry_policy.retry_on: `reset`"
        ),
        "{notices}"
    );
    let pasted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let given = cascade(&["--preset", "saturday", "--envoy", fixture, "--json"]);
    let given: serde_json::Value = serde_json::from_slice(&given.stdout).unwrap();
    assert_eq!(pasted, given, "Saturday is the default");
    let plain = cascade(&["--preset", "saturday", "--json"]);
    let plain: serde_json::Value = serde_json::from_slice(&plain.stdout).unwrap();
    // A 1 s route timeout and 0.3 s tries: fewer requests held, retries capped by the budget.
    assert!(pasted["sidecar_retries"].as_u64().unwrap() > 0);
    assert!(pasted["retry_overflow"].as_u64().unwrap() > 0);
    assert!(pasted["gateway_rejected"].as_u64() < plain["gateway_rejected"].as_u64());
    assert_eq!(
        plain.get("retry_overflow"),
        None,
        "a run without Envoy reads as before"
    );

    let bad = temp_file(
        "envoy",
        "bad.yaml",
        "retry_policy:\n  retry_on: 5xx\n  per_try_timeout: 300ms\n",
    );
    let out = cascade(&["--envoy", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--envoy")
            && err.contains("retry_policy.per_try_timeout: \"300ms\" is not a duration"),
        "{err}"
    );
    let out = cascade(&["--envoy", "/no/such/file.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    let out = cascade(&["--envoy", fixture, "--resilience4j", fixture]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_dir_all(bad.parent().unwrap()).unwrap();
}

/// `--polly FILE.json` reads the options of .NET's HTTP standard resilience handler from an
/// `appsettings.json` and runs them on Saturday; the same intent as `--compare-libraries`
/// writes it gives the same run; a value Polly refuses is named with its path.
#[test]
fn a_polly_file_runs_on_saturday_and_bad_ones_are_named() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/polly-standard.json"
    );
    let out = cascade(&["--polly", fixture, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let notices = String::from_utf8(out.stderr).unwrap();
    assert!(
        notices
            .contains("notice: InventoryClient.Resilience.RateLimiter.DefaultRateLimiterOptions"),
        "{notices}"
    );
    let pasted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pasted["stack"], "polly");
    assert!(pasted["library_retries"].as_u64().unwrap() > 0);
    assert!(pasted["first_open_ms"].as_f64().is_some());
    let compared = cascade(&["--compare-libraries", "--json"]);
    let polly = String::from_utf8(compared.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|l| l["library"] == "Polly")
        .unwrap();
    for figure in [
        "ok",
        "circuit_open",
        "inventory_calls",
        "library_retries",
        "timeout",
    ] {
        assert_eq!(pasted[figure], polly[figure], "{figure}");
    }
    let bad = temp_file(
        "polly",
        "bad.json",
        r#"{"Resilience": {"CircuitBreaker": {"FailureRatio": 1.5}}}"#,
    );
    let out = cascade(&["--polly", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--polly") && err.contains("Resilience.CircuitBreaker.FailureRatio: 1.5"),
        "{err}"
    );
    let out = cascade(&["--polly", fixture, "--envoy", fixture]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("one of --resilience4j"));
    std::fs::remove_dir_all(bad.parent().unwrap()).unwrap();
}

/// `--grpc FILE.json` runs a service config on Saturday: `"stack":"grpc"` with the retries the
/// throttle stopped; a value gRPC refuses names its field's path; it is one library's flag.
#[test]
fn a_grpc_service_config_runs_on_saturday_and_bad_ones_are_named() {
    let fixture = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/grpc-service-config.json"
    );
    let out = cascade(&["--grpc", fixture, "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let notices = String::from_utf8(out.stderr).unwrap();
    assert!(notices.contains("notice: loadBalancingConfig"), "{notices}");
    let pasted: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(pasted["stack"], "grpc");
    assert_eq!(pasted["scenario"], "saturday");
    assert!(pasted["timeout"].as_u64().unwrap() > 0);
    assert!(pasted["retries_throttled"].as_u64().is_some());
    assert!(pasted["first_open_ms"].is_null());
    let bad = temp_file(
        "grpc",
        "bad.json",
        r#"{"methodConfig": [{"retryPolicy": {"maxAttempts": 1, "initialBackoff": "1s",
            "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": [14]}}]}"#,
    );
    let out = cascade(&["--grpc", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("--grpc") && err.contains("methodConfig[0].retryPolicy.maxAttempts: 1"),
        "{err}"
    );
    let out = cascade(&["--grpc", fixture, "--polly", fixture]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("--grpc"));
    std::fs::remove_dir_all(bad.parent().unwrap()).unwrap();
}

/// `--compare-libraries` runs one intent under lesson 000, Resilience4j, Polly and Envoy on a preset
/// (Saturday by default): a line of figures per library and where they differ, or a JSON
/// object per library naming it; it refuses a library config of its own.
#[test]
fn compare_libraries_runs_one_intent_four_ways() {
    let out = cascade(&["--compare-libraries"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for line in [
        "saturday: one intent",
        "lesson 000 ",
        "Resilience4j ",
        "Polly ",
        "Envoy ",
        "gRPC ",
        "Where they differ:",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
    let out = cascade(&["--compare-libraries", "--preset", "saturday", "--json"]);
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let libraries: Vec<&str> = lines
        .iter()
        .map(|l| l["library"].as_str().unwrap())
        .collect();
    assert_eq!(
        libraries,
        ["lesson 000", "Resilience4j", "Polly", "Envoy", "gRPC"]
    );
    assert_eq!(lines[4]["stack"], "grpc");
    assert_eq!(lines[1]["stack"], "resilience4j");
    assert_eq!(lines[2]["stack"], "polly");
    assert!(lines[3]["retry_overflow"].as_u64().is_some());
    for l in &lines {
        assert_eq!(l["scenario"], "saturday");
    }
    // Saturday with a finite inventory: Resilience4j's stack is not simulated there, and says so.
    let out = cascade(&["--compare-libraries", "--preset", "saturday-storm"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Resilience4j does not run on this scenario"),
        "{text}"
    );
    let out = cascade(&[
        "--compare-libraries",
        "--envoy",
        "tests/fixtures/envoy-route.yaml",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("--compare-libraries"));
}

/// A reader that closes the pipe before reading (`cascade --help | head -1`, at its extreme):
/// the output is dropped, and cascade ends without a panic.
#[test]
fn a_closed_stdout_ends_the_output_without_a_panic() {
    for args in [&["--help"][..], &["--json"][..]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cascade"))
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run cascade");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("cascade ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
    }
}

/// A flag spelled nearly right gets clap's suggestion, on the one line of the error.
#[test]
fn a_mistyped_flag_is_told_the_flag_it_resembles() {
    for (typed, meant) in [
        ("--jsno", "--json"),
        ("--presets", "--preset"),
        ("--no-drian", "--no-drain"),
    ] {
        let out = cascade(&[typed]);
        assert_eq!(out.status.code(), Some(2), "{typed}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(typed) && err.contains(&format!("'{meant}'")),
            "{err}"
        );
    }
    // The flags keep their order across kinds: a scenario, a preset, a scenario.
    let out = cascade(&["--scenario=none", "--preset=cb", "--scenario", "timeout"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let labels: Vec<&str> = text
        .lines()
        .map(|l| l.split("  ").next().unwrap())
        .collect();
    assert_eq!(
        labels,
        [
            "no protection",
            "timeout + circuit breaker",
            "timeout 300ms"
        ]
    );
}

#[test]
fn trace_follows_one_request_as_the_page_tells_it() {
    use resilience_playground::page::life_story::{lines, story};
    use resilience_playground::sim::pick::{follow_pick, Pick};
    use resilience_playground::sim::scenario::Preset;
    let out = cascade(&["--preset", "story-none", "--trace", "slowest"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let life = follow_pick(&Preset::StoryNone.config(), Pick::Slowest)
        .unwrap()
        .unwrap();
    let mut want = vec![
        format!("story-none: request #{} (slowest)", life.id),
        story(&life),
    ];
    want.extend(lines(&life).into_iter().map(|l| format!("  {l}")));
    assert_eq!(text.lines().collect::<Vec<_>>(), want);
    // --set applies first; --json gives the life itself, its spans in µs.
    let out = cascade(&[
        "--scenario",
        "cb",
        "--set",
        "cooldown=2",
        "--trace",
        "7",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["scenario"].as_str(), v["id"].as_u64()),
        (Some("cb"), Some(7))
    );
    assert!(
        v["life"]["spans"].as_array().is_some_and(|s| !s.is_empty()),
        "{v}"
    );
    assert!(
        v["story"].as_str().unwrap().starts_with("This order"),
        "{v}"
    );
    // A request the run never sent, and a pick with none of its kind, say so.
    let out = cascade(&["--scenario", "timeout", "--trace", "99999999"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("no request of this run is request #99999999"));
    let out = cascade(&["--scenario", "timeout", "--trace", "refused-by-breaker"]);
    assert!(String::from_utf8_lossy(&out.stdout)
        .contains("no request of this run is refused by the breaker"));
}

#[test]
fn a_bad_trace_names_the_flag_and_what_it_takes() {
    let out = cascade(&["--trace", "fastest"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--trace") && err.contains("fastest"), "{err}");
    assert!(err.contains("slowest, retried, fell-back"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// `lessons/four-libraries.md` walks `--compare-libraries` step by step: every step runs, and
/// each question's answer is the one its text leads to (the check names the choice that holds).
#[test]
fn the_four_libraries_lesson_is_ready_and_its_answers_hold() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = cascade(&[
        "lesson",
        "check",
        &format!("{root}/lessons/four-libraries.md"),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("ready to use"), "{report}");
    for (step, holds) in [
        ("lesson-000", "choice B (“Between 12 s and 20 s”) holds"),
        ("resilience4j", "choice A (“Fewer”) holds"),
        ("polly", "choice A (“Fewer”) holds"),
        (
            "polly-defaults",
            "choice B (“Under half, as on Saturday with nothing”) holds",
        ),
        ("grpc", "choice A (“More”) holds"),
    ] {
        let at = report.find(&format!(" {step} (line")).expect(step);
        let asks = report[at..]
            .lines()
            .find(|l| l.contains("asks:"))
            .expect(step);
        assert!(asks.contains(holds), "{step}: {asks}");
    }
}

#[test]
fn lesson_check_runs_every_step_and_names_a_mistake_by_its_line() {
    let root = env!("CARGO_MANIFEST_DIR");
    let shipped = format!("{root}/lessons/northwind.md");
    let out = cascade(&["lesson", "check", &shipped]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains(" 1 the-incident (line 3"), "{report}");
    assert!(
        report.contains("asks: ") && report.contains("ready to use"),
        "{report}"
    );

    let dir = std::env::temp_dir().join(format!("cascade-lesson-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let broken = dir.join("broken.md");
    let text = std::fs::read_to_string(&shipped).unwrap().replacen(
        "@views topology, load",
        "@views topology, loda",
        1,
    );
    std::fs::write(&broken, text).unwrap();
    let out = cascade(&["lesson", "check", broken.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(1));
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(
        errors.contains("broken.md: line 9: no view is called `loda`"),
        "{errors}"
    );
    let out = cascade(&["lesson", "verify"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn subcommands_run_as_the_flags_they_stand_for() {
    let same = |a: &[&str], b: &[&str]| {
        let (x, y) = (cascade(a), cascade(b));
        assert!(
            x.status.success(),
            "{a:?}: {}",
            String::from_utf8_lossy(&x.stderr)
        );
        assert_eq!(x.stdout, y.stdout, "{a:?} against {b:?}");
        assert!(!x.stdout.is_empty());
    };
    same(
        &["run", "--preset", "cb", "--json"],
        &["--preset", "cb", "--json"],
    );
    same(
        &["trace", "slowest", "--preset", "cb"],
        &["--trace", "slowest", "--preset", "cb"],
    );
    same(
        &[
            "experiment",
            "contention",
            "--set",
            "runs=3",
            "--set",
            "clients=4",
        ],
        &[
            "--experiment",
            "contention",
            "--set",
            "runs=3",
            "--set",
            "clients=4",
        ],
    );
    let out = cascade(&["simulate"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("'simulate'") && err.contains("run, trace, experiment, lesson"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = cascade(&["experiment", "--set", "runs=3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("contention, metastability"));
}

/// `--json` carries every measure a lesson reads, by the lesson's names, and they agree with
/// the line's own counts (`arrived` is `sent`, `first-opening` is `first_open_ms`, ...).
#[test]
fn json_carries_the_lessons_measures_by_their_names() {
    use resilience_playground::page::lessons::live::Live;
    for preset in ["cb", "none", "story-adaptive-limit"] {
        let out = cascade(&["--json", "--preset", preset]);
        assert!(out.status.success(), "{preset}");
        let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let measures = line["measures"].as_object().expect("measures");
        let mut names: Vec<String> = Live::all()
            .iter()
            .map(|l| l.name())
            .filter(|n| !n.starts_with("throughput"))
            .collect();
        names.sort();
        let mut got: Vec<String> = measures
            .keys()
            .filter(|n| !n.starts_with("throughput("))
            .cloned()
            .collect();
        got.sort();
        assert_eq!(got, names, "{preset}");
        assert!(
            measures.keys().any(|k| k.starts_with("throughput(0,")),
            "{preset}: the whole run's throughput"
        );
        assert_eq!(measures["arrived"], line["sent"], "{preset}");
        assert_eq!(measures["timed-out"], line["timeout"], "{preset}");
        assert_eq!(
            measures["inventory-calls"], line["inventory_calls"],
            "{preset}"
        );
        let first_open_ms = measures["first-opening"].as_f64().map(|s| s * 1000.0);
        assert_eq!(
            first_open_ms.map(|v| v.round()),
            line["first_open_ms"].as_f64().map(f64::round),
            "{preset}"
        );
        let ok_share = 100.0 * line["ok"].as_f64().unwrap() / line["sent"].as_f64().unwrap();
        assert!(
            (measures["ok-share"].as_f64().unwrap() - ok_share).abs() < 1e-9,
            "{preset}"
        );
        assert_eq!(
            measures["limited"].is_null(),
            line.get("concurrency_limited").is_none(),
            "{preset}: the limit's refusals where there is a limit"
        );
    }
}
