//! The Envoy reader against fuzzed input: any text is settings or a notice with a path (never
//! a panic), and every configuration it accepts runs, each request counted once.

use proptest::prelude::*;
use resilience_playground::library_config::envoy::{apply_yaml, parse};
use resilience_playground::sim::model::{run, RETRY_OVERFLOW};
use resilience_playground::sim::scenario::Preset;

/// A route and its cluster, every field a slot for a fuzzed value.
fn envoy_yaml(values: &[String; 9]) -> String {
    format!(
        "route:\n  timeout: {}\n  retry_policy:\n    retry_on: {}\n    num_retries: {}\n    \
         per_try_timeout: {}\n    retry_back_off:\n      base_interval: {}\n      max_interval: {}\n\
         circuit_breakers:\n  thresholds:\n  - max_retries: {}\n    retry_budget:\n      \
         budget_percent: {{ value: {} }}\n      min_retry_concurrency: {}\n",
        values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7],
        values[8]
    )
}

/// A value of the kinds Envoy's fields take, and a few it refuses.
fn field_value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..3_000).prop_map(|ms| format!("\"{}s\"", ms as f64 / 1_000.0)),
        (-5i64..2_000).prop_map(|n| n.to_string()),
        (0.0f64..150.0).prop_map(|p| format!("{p:.1}")),
        prop::sample::select(vec![
            "5xx".to_string(),
            "\"5xx,retriable-4xx\"".to_string(),
            "gateway-error,reset".to_string(),
            "300ms".to_string(),
            "null".to_string(),
            "[1, 2]".to_string(),
            "{ a: 1 }".to_string(),
            "\"-1s\"".to_string(),
        ]),
    ]
}

/// Values Envoy takes and the simulator models, slot by slot.
fn valid_values() -> impl Strategy<Value = [String; 9]> {
    let duration =
        |lo: u32, hi: u32| (lo..hi).prop_map(|ms| format!("\"{}s\"", ms as f64 / 1_000.0));
    (
        duration(0, 3_000),
        prop::sample::select(vec![
            "5xx",
            "gateway-error",
            "\"5xx,retriable-4xx\"",
            "reset",
        ]),
        0u32..=10,
        duration(0, 1_000),
        duration(1, 100),
        1_000u32..3_000,
        0u32..20,
        0.0f64..100.0,
        0u32..10,
    )
        .prop_map(|(t, on, n, per_try, base, max, retries, percent, min)| {
            [
                t,
                on.to_string(),
                n.to_string(),
                per_try,
                base,
                format!("\"{}s\"", max as f64 / 1_000.0),
                retries.to_string(),
                format!("{percent:.1}"),
                min.to_string(),
            ]
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn every_route_envoy_takes_runs_counting_each_request_once(values in valid_values()) {
        let text = envoy_yaml(&values);
        let mut cfg = Preset::SaturdayStorm.config();
        cfg.traffic.duration = 5_000_000;
        let notices = apply_yaml(&text, &mut cfg);
        prop_assert!(notices.is_ok(), "{text}: {notices:?}");
        let t = run(&cfg).unwrap();
        prop_assert_eq!(t.outcomes.total(), t.sent);
        prop_assert!(t.total(RETRY_OVERFLOW).is_some());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn a_fuzzed_route_is_settings_that_run_or_a_notice_with_a_path(
        values in prop::array::uniform9(field_value()),
    ) {
        let text = envoy_yaml(&values);
        let mut cfg = Preset::SaturdayStorm.config();
        cfg.traffic.duration = 5_000_000;
        match apply_yaml(&text, &mut cfg) {
            Ok(_) => {
                let t = run(&cfg).unwrap();
                prop_assert_eq!(t.outcomes.total(), t.sent);
                prop_assert!(t.total(RETRY_OVERFLOW).is_some());
            }
            Err(n) => {
                prop_assert!(!n.path.is_empty(), "{text}");
                prop_assert!(!n.message.is_empty(), "{text}");
            }
        }
    }

    #[test]
    fn any_text_is_read_or_refused_without_a_panic(
        text in any::<String>(),
        bytes in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        for text in [text, String::from_utf8_lossy(&bytes).into_owned()] {
            if let Err(n) = parse(&text) {
                prop_assert!(!n.path.is_empty() && !n.message.is_empty(), "{n}");
            }
        }
    }
}
