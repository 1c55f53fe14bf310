//! Tests that run inside headless Chromium through wasm-bindgen-test: the simulator's code
//! compiled to wasm must give the same numbers as on the host.
#![cfg(target_arch = "wasm32")]

use resilience_playground::sim::latency::{preview, LatencyModel};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_seeded_latency_sample_is_the_same_in_the_browser_as_on_the_host() {
    let model = LatencyModel::LogNormal {
        p50: 40_000,
        p99: 120_000,
    };
    let sample = preview(&model, 2_000, 3);
    // Figures printed by the host run of the same call (see tests/host_wasm_agreement.rs).
    let host = include_str!("fixtures/preview_seed3.txt").trim();
    assert_eq!(format!("{} {}", sample.p50, sample.p99), host);
}

fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[wasm_bindgen_test]
fn the_lesson_scenarios_give_byte_identical_traces_in_the_browser() {
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
