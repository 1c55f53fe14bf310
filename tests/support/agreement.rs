//! What the host and the browser must agree on, computed the same way on both: the tests in
//! `tests/host_wasm_agreement.rs` (host) and `tests/web.rs` (Chromium) compare these figures
//! with the same fixtures. When a preset or the Trace changes on purpose, copy the new figures
//! from the host test's failure message into `tests/fixtures/`.

use resilience_playground::sim::latency::{preview, LatencyModel};
use resilience_playground::sim::model::{run, Arrivals};
use resilience_playground::sim::scenario::{Preset, Scenario};

/// The fixture for [`preview_figures`].
pub const PREVIEW_FIXTURE: &str = include_str!("../fixtures/preview_seed3.txt");
/// The fixture for [`lesson_trace_digests`].
pub const TRACE_DIGESTS_FIXTURE: &str = include_str!("../fixtures/lesson_trace_digests.txt");

/// p50 and p99 of a seeded 2,000-call lognormal sample (40 ms median, 120 ms p99).
pub fn preview_figures() -> String {
    let model = LatencyModel::LogNormal {
        p50: 40_000,
        p99: 120_000,
    };
    let sample = preview(&model, 2_000, 3);
    format!("{} {}", sample.p50, sample.p99)
}

/// One line per preset (the lesson's four first): its key and the FNV-1a digest of its whole
/// Trace as JSON, so equal digests mean byte-identical traces; then `cb` with the per-request
/// log switched on (`cb+requests`), as the page runs it, and a run drawing from the seeded
/// stream (`poisson-lognormal`: Poisson arrivals, lognormal latency, retries with jitter).
pub fn lesson_trace_digests() -> String {
    let mut runs: Vec<(String, _)> = Preset::ALL
        .iter()
        .map(|p| (p.key().to_string(), p.config()))
        .collect();
    let mut with_log = Scenario::Cb.config();
    with_log.run.record_requests = true;
    runs.push(("cb+requests".to_string(), with_log));
    let mut random = Preset::Ex1Budget.config();
    random.traffic.arrivals = Arrivals::Poisson;
    random.first_mut().faults.fast_p99 = Some(120_000);
    random.first_mut().faults.slow_p99 = Some(8_000_000);
    random.run.record_requests = true;
    runs.push(("poisson-lognormal".to_string(), random));
    runs.iter()
        .map(|(key, config)| {
            let trace = run(config).expect("preset runs");
            let json = serde_json::to_string(&trace).expect("trace serialises");
            format!("{key} {:016x}", digest(json.as_bytes()))
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn digest(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3)
    })
}
