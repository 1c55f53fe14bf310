//! The host half of the host/browser agreement check: the same seeded sample must give the
//! figures in `tests/fixtures/`, which `tests/web.rs` checks again inside Chromium. When the
//! Trace or a preset changes on purpose, copy the new digests from this test's failure message.

use resilience_playground::sim::latency::{preview, LatencyModel};

#[test]
fn the_seeded_latency_sample_matches_the_fixture_on_the_host() {
    let model = LatencyModel::LogNormal {
        p50: 40_000,
        p99: 120_000,
    };
    let sample = preview(&model, 2_000, 3);
    let fixture = include_str!("fixtures/preview_seed3.txt").trim();
    assert_eq!(format!("{} {}", sample.p50, sample.p99), fixture);
}

/// FNV-1a over the JSON of a whole Trace: equal digests mean byte-identical traces.
fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn the_lesson_scenarios_give_the_fixture_traces_on_the_host() {
    use resilience_playground::sim::{model::run, scenario::Scenario};
    let digests: Vec<String> = Scenario::ALL
        .iter()
        .map(|s| {
            let trace = run(&s.config()).expect("preset runs");
            let json = serde_json::to_string(&trace).expect("trace serialises");
            format!("{} {:016x}", s.key(), digest(json.as_bytes()))
        })
        .collect();
    let fixture = include_str!("fixtures/lesson_trace_digests.txt").trim();
    assert_eq!(digests.join("\n"), fixture);
}
