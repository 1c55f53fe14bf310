//! Tests that run inside headless Chromium through wasm-bindgen-test: the simulator compiled
//! to wasm must give the same numbers as on the host (`tests/host_wasm_agreement.rs`).
#![cfg(target_arch = "wasm32")]

#[path = "support/agreement.rs"]
mod agreement;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn the_seeded_latency_sample_is_the_same_in_the_browser_as_on_the_host() {
    assert_eq!(
        agreement::preview_figures(),
        agreement::PREVIEW_FIXTURE.trim()
    );
}

#[wasm_bindgen_test]
fn the_lesson_scenarios_give_byte_identical_traces_in_the_browser() {
    assert_eq!(
        agreement::lesson_trace_digests(),
        agreement::TRACE_DIGESTS_FIXTURE.trim()
    );
}
