//! The host half of the host/browser agreement check (`tests/web.rs` is the browser half).

#[path = "support/agreement.rs"]
mod agreement;

#[test]
fn the_seeded_latency_sample_matches_the_fixture_on_the_host() {
    assert_eq!(
        agreement::preview_figures(),
        agreement::PREVIEW_FIXTURE.trim()
    );
}

#[test]
fn the_lesson_scenarios_give_the_fixture_traces_on_the_host() {
    assert_eq!(
        agreement::lesson_trace_digests(),
        agreement::TRACE_DIGESTS_FIXTURE.trim()
    );
}
