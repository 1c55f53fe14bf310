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

/// The charts' backend gives the canvas each label's font, alignment and baseline (set only
/// when they change), and measures a label with the canvas itself.
#[wasm_bindgen_test]
fn chart_labels_get_their_own_font_and_are_measured_by_the_canvas() {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    use resilience_playground::ui::chart_backend::ChartBackend;
    use wasm_bindgen::JsCast;
    use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(400);
    canvas.set_height(120);
    document.body().unwrap().append_child(&canvas).unwrap();
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let root = ChartBackend::new(canvas).unwrap().into_drawing_area();

    let small = TextStyle::from((FontFamily::SansSerif, 14).into_font()).color(&BLACK);
    let large = TextStyle::from((FontFamily::SansSerif, 30).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    root.draw_text("first", &small, (10, 10)).unwrap();
    assert_eq!(context.font(), "14px sans-serif");
    assert_eq!(context.text_align(), "start");
    assert_eq!(context.text_baseline(), "top");
    root.draw_text("second", &large, (200, 100)).unwrap();
    assert_eq!(context.font(), "30px sans-serif");
    assert_eq!(context.text_align(), "center");
    assert_eq!(context.text_baseline(), "bottom");
    // Back to the first style: set again, though the backend had set it before.
    root.draw_text("third", &small, (10, 60)).unwrap();
    assert_eq!(context.font(), "14px sans-serif");
    assert_eq!(context.text_align(), "start");

    let (width, height) = root.estimate_text_size("a label 1234", &large).unwrap();
    context.set_font("30px sans-serif");
    let measured = context.measure_text("a label 1234").unwrap().width();
    assert_eq!(f64::from(width), measured.ceil());
    assert_eq!(height, 30);
}
