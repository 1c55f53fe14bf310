//! The host half of the host/browser agreement check: the same seeded sample must give the
//! figures in `tests/fixtures/`, which `tests/web.rs` checks again inside Chromium.

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
