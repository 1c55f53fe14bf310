//! Fuzzed simulator input: JSON config text of any shape, `--set key=value` of any text (in the
//! library and through the `cascade` binary), and the valid configs `--set` makes from every
//! preset. Never a panic; every refusal names its field; every run that finishes counts each
//! request once, holds no NaN or infinity, and stays within its event cap.

#[path = "support/fuzz.rs"]
mod fuzz;

use std::process::Command;

use fuzz::{assert_trace_finite, value_text};
use proptest::prelude::*;
use resilience_playground::sim::config_file::load_config_json;
use resilience_playground::sim::engine::EngineError;
use resilience_playground::sim::model::{run_with_cap, RunError};
use resilience_playground::sim::scenario::{apply_set, Preset, SET_KEYS};

/// A JSON value of any shape, numbers past every range included.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_map(serde_json::Value::from),
        (0u64..5_000_000).prop_map(serde_json::Value::from),
        (-1.0f64..2.0).prop_map(serde_json::Value::from),
        ".{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            prop::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

/// The JSON of a preset, and the names of its top-level fields that hold plain numbers.
fn preset_json(preset: Preset) -> (serde_json::Value, Vec<String>) {
    let json = serde_json::to_value(preset.config()).expect("a config serialises");
    // The numbers of each section and of the first dependency's fault schedule, as JSON
    // pointers (`/traffic/rate`): each one's error names its last part.
    let mut numbers = Vec::new();
    for section in [
        "/run",
        "/traffic",
        "/service",
        "/routes",
        "/dependencies/0/faults",
    ] {
        if let Some(fields) = json.pointer(section).and_then(|s| s.as_object()) {
            for (key, value) in fields {
                if value.is_number() {
                    numbers.push(format!("{section}/{key}"));
                }
            }
        }
    }
    (json, numbers)
}

/// A `key=value` override: a key the CLI knows (or not), any value text.
fn set_pair() -> impl Strategy<Value = (String, String)> {
    let key = prop_oneof![
        5 => prop::sample::select(SET_KEYS.to_vec()).prop_map(str::to_string),
        1 => any::<String>(),
    ];
    (key, value_text())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn json_text_of_any_shape_is_a_config_or_an_error_naming_a_field(
        text in any::<String>(),
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        value in json_value(),
    ) {
        for text in [text, String::from_utf8_lossy(&bytes).into_owned(), value.to_string()] {
            if let Err(e) = load_config_json(&text) {
                prop_assert!(e.contains("allowed"), "{text}: {e}");
                prop_assert!(e.split(':').next().is_some_and(|f| !f.trim().is_empty()), "{e}");
            }
        }
    }

    #[test]
    fn a_bad_number_in_a_config_file_is_named_by_its_field(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        pick in any::<prop::sample::Index>(),
        value in json_value(),
    ) {
        let (mut json, numbers) = preset_json(preset);
        let pointer = pick.get(&numbers).clone();
        *json.pointer_mut(&pointer).expect("a number of the config") = value.clone();
        let field = pointer.rsplit('/').next().unwrap_or_default();
        if let Err(e) = load_config_json(&json.to_string()) {
            prop_assert!(e.contains(field), "{pointer}={value}: {e}");
        }
    }

    #[test]
    fn a_set_override_of_any_text_is_applied_or_names_its_key(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        (key, value) in set_pair(),
    ) {
        let mut cfg = preset.config();
        let before = cfg.clone();
        match apply_set(&mut cfg, &key, &value) {
            Ok(_) => prop_assert!(SET_KEYS.contains(&key.as_str())),
            Err(e) => {
                let named = if SET_KEYS.contains(&key.as_str()) { key.as_str() } else { "key" };
                prop_assert_eq!(e.field, named);
                prop_assert!(!e.range.is_empty());
                prop_assert_eq!(cfg, before, "a refused value leaves the config untouched");
            }
        }
    }
}

/// Events a fuzzed run may process before it is stopped (the page's own cap is far higher;
/// this keeps a debug build's cases short).
const CAP: u64 = 300_000;

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn configs_made_by_set_count_every_request_once_and_stay_finite_and_capped(
        preset in prop::sample::select(Preset::ALL.to_vec()),
        sets in prop::collection::vec(set_pair(), 1..5),
        drain in any::<bool>(),
    ) {
        let mut cfg = preset.config();
        cfg.run.drain = drain;
        for (key, value) in &sets {
            let _ = apply_set(&mut cfg, key, value);
        }
        cfg.run.record_requests = true;
        match run_with_cap(&cfg, CAP) {
            Ok(t) => {
                prop_assert!(t.events <= CAP);
                prop_assert_eq!(t.outcomes.total(), t.sent, "{:?}", t.outcomes);
                prop_assert_eq!(t.requests.len() as u64, t.sent);
                if drain {
                    prop_assert_eq!(t.outcomes.unfinished, 0);
                }
                assert_trace_finite(&t);
            }
            Err(RunError::Engine(e)) => prop_assert_eq!(e, EngineError::EventCapExceeded { cap: CAP }),
            // Overrides that are each in range can still clash (a p99 under its median).
            Err(RunError::Param(e)) => prop_assert!(!e.field.is_empty() && !e.range.is_empty()),
        }
    }
}

/// The case the property above found on 2026-12-06: a rate limit at the door a hair above 0
/// (its range excludes only 0) made the 429's `Retry-After` overflow.
#[test]
fn a_rate_limit_a_hair_above_zero_runs_and_counts_every_request_once() {
    let mut cfg = Preset::Ex3RetryLayers.config();
    cfg.run.drain = false;
    let rate = format!("{}", 1.567_048_263_484_375_3e-218_f64);
    apply_set(&mut cfg, "rate_limit", &rate).expect("inside the row's range");
    cfg.run.record_requests = true;
    let t = run_with_cap(&cfg, CAP).expect("a run");
    assert_eq!(t.outcomes.total(), t.sent, "{:?}", t.outcomes);
    assert!(t.outcomes.rate_limited > 0, "{:?}", t.outcomes);
    assert_trace_finite(&t);
}

proptest! {
    // A process per case: few cases.
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn the_cascade_binary_exits_0_or_2_with_one_line_naming_the_key(
        (key, value) in set_pair().prop_filter("an argument holds no NUL; the key no =", |(k, v)| {
            !k.is_empty() && !k.contains(['=', '\0']) && !v.contains('\0')
        })
    ) {
        let out = Command::new(env!("CARGO_BIN_EXE_cascade"))
            .args(["--scenario", "none", "--no-drain", "--set", "duration=2"])
            .arg("--set")
            .arg(format!("{key}={value}"))
            .output()
            .expect("run cascade");
        let err = String::from_utf8_lossy(&out.stderr);
        match out.status.code() {
            // Accepted: silent, or one note that the key's part is off and nothing changed.
            Some(0) => prop_assert!(
                err.is_empty()
                    || (err.lines().count() == 1 && err.contains(key.as_str()) && err.contains("left as it is")),
                "{err}"
            ),
            Some(2) => {
                prop_assert_eq!(err.lines().count(), 1, "{}", err);
                let shown = if SET_KEYS.contains(&key.as_str()) { key.as_str() } else { "unknown key" };
                prop_assert!(err.contains(shown), "{key}={value:?}: {err}");
            }
            other => prop_assert!(false, "{key}={value:?}: exit {other:?}: {err}"),
        }
    }
}
