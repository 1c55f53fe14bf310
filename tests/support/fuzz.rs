//! Strategies and checks the fuzz suites share: keys a page or a widget knows (and some it
//! does not), values of every awkward kind, and the check that no output holds NaN or infinity.

#![allow(dead_code)] // not every suite uses every helper

use proptest::prelude::*;
use resilience_playground::page::export::{run_json, series_csv};
use resilience_playground::page::knobs::KNOBS;
use resilience_playground::page::permalink::OTHER_KEYS;
use resilience_playground::page::state::Page;
use resilience_playground::sim::trace::Trace;

/// The values every attribute is swept with: empty, huge, negative, NaN, HTML and 10 KB.
pub fn awkward_values() -> Vec<String> {
    vec![
        String::new(),
        "99999999999999999999999".into(),
        "1e308".into(),
        "-1".into(),
        "NaN".into(),
        "<img src=x onerror=alert(1)><b>bold</b>".into(),
        "9".repeat(10 * 1024),
    ]
}

/// A key a permalink may carry, or an unknown one.
pub fn page_key() -> impl Strategy<Value = String> {
    let mut known: Vec<String> = OTHER_KEYS.iter().map(|k| k.to_string()).collect();
    known.extend(KNOBS.iter().map(|k| k.key.to_string()));
    prop_oneof![
        4 => prop::sample::select(known),
        1 => "[a-z_]{1,12}",
        1 => any::<String>(),
    ]
}

/// A value text: a number in any notation (with a unit or not), a name, or anything at all.
pub fn value_text() -> impl Strategy<Value = String> {
    let number = prop_oneof![
        any::<f64>().prop_map(|v| v.to_string()),
        (-10i64..20_000).prop_map(|v| v.to_string()),
        (0.0f64..20_000.0).prop_map(|v| format!("{v:.3}")),
        any::<u64>().prop_map(|v| v.to_string()),
    ];
    let unit = prop::sample::select(vec!["", "", "ms", "s", " ms", "%", "e3"]);
    let word = prop::sample::select(vec![
        "none",
        "cb",
        "bulkhead",
        "timeout",
        "saturday",
        "e2e",
        "service",
        "on",
        "off",
        "full",
        "equal",
        "p95",
        "timeout,breaker",
        "breaker,,magic",
        "inf",
        "-inf",
        "NaN",
        "",
    ]);
    prop_oneof![
        3 => (number, unit).prop_map(|(n, u)| format!("{n}{u}")),
        2 => word.prop_map(str::to_string),
        1 => prop::sample::select(awkward_values()),
        2 => any::<String>(),
    ]
}

/// The trace, the CSV and the JSON export of `page`'s run hold no NaN and no infinity.
pub fn assert_finite_outputs(page: &Page) {
    let Ok(run) = &page.runs.a else { return };
    let csv = series_csv(page).expect("a run has a CSV");
    for cell in csv.lines().skip(1).flat_map(|line| line.split(',')) {
        if let Ok(v) = cell.parse::<f64>() {
            assert!(v.is_finite(), "CSV cell {cell}");
        } else {
            assert!(
                ["closed", "open", "half_open"].contains(&cell),
                "CSV cell {cell:?}"
            );
        }
    }
    let json = run_json(page).expect("a run has a JSON export");
    serde_json::from_str::<serde_json::Value>(&json).expect("the export parses");
    // serde_json would write a NaN as null: look at the numbers before they are written.
    assert_finite_debug(&format!("{:?}", run.config), "the config");
    assert_finite_debug(&format!("{:?}", run.trace), "the trace");
}

/// A `Debug` text (which prints every f64 as it is: `NaN`, `inf`) holds no NaN or infinity.
pub fn assert_finite_debug(text: &str, what: &str) {
    for bad in ["NaN", ": inf", "(inf", "-inf", " inf,"] {
        assert!(!text.contains(bad), "{what} holds {bad}");
    }
}

/// Every f64 in the trace is finite.
pub fn assert_trace_finite(trace: &Trace) {
    assert_finite_debug(&format!("{trace:?}"), "the trace");
}
