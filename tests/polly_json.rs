//! The Polly reader against fuzzed input: any text is settings or a notice with a path (never
//! a panic), and every configuration it accepts runs, each request counted once.

use proptest::prelude::*;
use resilience_playground::library_config::polly::{apply_json, parse};
use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::Preset;

/// The handler's sections, every field a slot for a fuzzed value.
fn options_json(v: &[String; 9]) -> String {
    format!(
        r#"{{ "Resilience": {{
  "Retry": {{ "MaxRetryAttempts": {}, "BackoffType": {}, "UseJitter": {}, "Delay": {} }},
  "CircuitBreaker": {{ "FailureRatio": {}, "MinimumThroughput": {}, "SamplingDuration": {},
                      "BreakDuration": {} }},
  "AttemptTimeout": {{ "Timeout": {} }} }} }}"#,
        v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]
    )
}

/// A `TimeSpan` of `ms` milliseconds, as .NET writes it.
fn span(ms: u64) -> String {
    format!(
        "\"{:02}:{:02}:{:02}.{:03}\"",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1_000 % 60,
        ms % 1_000
    )
}

/// A value of the kinds the options take, and a few Polly refuses.
fn field_value() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..40_000).prop_map(span),
        (-5i64..200).prop_map(|n| n.to_string()),
        (-1.0f64..2.0).prop_map(|p| format!("{p:.3}")),
        prop::sample::select(vec![
            "\"Exponential\"".to_string(),
            "2".to_string(),
            "\"true\"".to_string(),
            "null".to_string(),
            "[1, 2]".to_string(),
            "{}".to_string(),
            "\"-00:00:01\"".to_string(),
            "\"2 seconds\"".to_string(),
        ]),
    ]
}

/// Values Polly takes and the simulator models, slot by slot.
fn valid_values() -> impl Strategy<Value = [String; 9]> {
    (
        1u32..=5,
        prop::sample::select(vec!["\"Constant\"", "\"linear\"", "2", "\"Exponential\""]),
        any::<bool>(),
        0u64..400,
        0.01f64..1.0,
        2u32..200,
        2_000u64..60_000,
        500u64..10_000,
        10u64..1_000,
    )
        .prop_map(
            |(retries, backoff, jitter, delay, ratio, least, sampling, pause, timeout)| {
                [
                    retries.to_string(),
                    backoff.to_string(),
                    jitter.to_string(),
                    span(delay),
                    format!("{ratio:.3}"),
                    least.to_string(),
                    span(sampling),
                    span(pause),
                    span(timeout),
                ]
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_config_polly_takes_runs_counting_each_request_once(values in valid_values()) {
        let text = options_json(&values);
        let mut cfg = Preset::Saturday.config();
        cfg.traffic.duration = 20_000_000;
        let notices = apply_json(&text, &mut cfg).map_err(|n| TestCaseError::fail(n.to_string()))?;
        prop_assert!(notices.iter().all(|n| !n.path.is_empty()));
        let t = run(&cfg).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(t.outcomes.total(), t.sent);
    }

    #[test]
    fn any_value_in_any_slot_is_read_or_named(values in prop::array::uniform9(field_value())) {
        match parse(&options_json(&values)) {
            Ok(s) => prop_assert!(s.retry.attempts >= 2),
            Err(n) => {
                prop_assert!(n.path.starts_with("Resilience."), "{}", n);
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
