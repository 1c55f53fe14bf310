//! The gRPC service config reader against fuzzed input: any text is settings or a notice with
//! a path (never a panic), and every configuration it accepts runs, each request counted once.

use proptest::prelude::*;
use resilience_playground::library_config::grpc::{apply_json, parse};
use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::Preset;

/// A service config, every field a slot for a fuzzed value.
fn service_config(v: &[String; 8]) -> String {
    format!(
        r#"{{ "methodConfig": [{{ "name": [{{}}], "timeout": {},
  "retryPolicy": {{ "maxAttempts": {}, "initialBackoff": {}, "maxBackoff": {},
                   "backoffMultiplier": {}, "retryableStatusCodes": {} }} }}],
  "retryThrottling": {{ "maxTokens": {}, "tokenRatio": {} }} }}"#,
        v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]
    )
}

/// A proto JSON duration of `ms` milliseconds.
fn duration(ms: u64) -> String {
    format!("\"{}s\"", ms as f64 / 1_000.0)
}

/// A value of the kinds the fields take, and a few gRPC refuses.
fn field_value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..40_000).prop_map(duration),
        (-5i64..2_000).prop_map(|n| n.to_string()),
        (-1.0f64..3.0).prop_map(|p| format!("{p:.4}")),
        prop::sample::select(vec![
            "[\"UNAVAILABLE\"]".to_string(),
            "[14, \"aborted\"]".to_string(),
            "[]".to_string(),
            "[\"OK\"]".to_string(),
            "null".to_string(),
            "{}".to_string(),
            "\"-1s\"".to_string(),
            "\"2 seconds\"".to_string(),
            "\"5\"".to_string(),
        ]),
    ]
}

/// Values gRPC takes and the simulator models, slot by slot.
fn valid_values() -> impl Strategy<Value = [String; 8]> {
    (
        10u64..10_000,
        2u32..12,
        1u64..2_000,
        1u64..10_000,
        0.1f64..5.0,
        prop::sample::select(vec![
            "[\"UNAVAILABLE\"]",
            "[\"unavailable\", \"FAILED_PRECONDITION\"]",
            "[14, 9]",
            "[\"RESOURCE_EXHAUSTED\"]",
        ]),
        1u32..=1_000,
        0.001f64..2.0,
    )
        .prop_map(
            |(timeout, attempts, initial, max, multiplier, codes, tokens, ratio)| {
                [
                    duration(timeout),
                    attempts.to_string(),
                    duration(initial),
                    duration(max),
                    format!("{multiplier:.3}"),
                    codes.to_string(),
                    tokens.to_string(),
                    format!("{ratio:.4}"),
                ]
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_config_grpc_takes_runs_counting_each_request_once(values in valid_values()) {
        let text = service_config(&values);
        let mut cfg = Preset::Saturday.config();
        cfg.traffic.duration = 20_000_000;
        let notices = apply_json(&text, &mut cfg).map_err(|n| TestCaseError::fail(n.to_string()))?;
        prop_assert!(notices.iter().all(|n| !n.path.is_empty()));
        let attempts = cfg.first_stack().unwrap().retry.unwrap().attempts;
        prop_assert!((2..=5).contains(&attempts));
        let t = run(&cfg).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(t.outcomes.total(), t.sent);
    }

    #[test]
    fn any_value_in_any_slot_is_read_or_named(values in prop::array::uniform8(field_value())) {
        match parse(&service_config(&values)) {
            Ok(s) => prop_assert!(s.retry.is_some_and(|r| (2..=5).contains(&r.attempts))),
            Err(n) => {
                prop_assert!(
                    n.path.starts_with("methodConfig[0]") || n.path.starts_with("retryThrottling"),
                    "{}",
                    n
                );
                prop_assert!(!n.message.is_empty());
            }
        }
    }

    #[test]
    fn any_text_is_settings_or_a_notice(text in any::<String>()) {
        if let Err(n) = parse(&text) {
            prop_assert!(!n.path.is_empty() && !n.message.is_empty());
        }
    }
}
