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

/// What the pages kept in students' browsers and course platforms reads back in the page
/// (through the JavaScript engine's parser, `page::json`) exactly as serde_json reads it on
/// the host; text that is not such a record reads as none.
#[wasm_bindgen_test]
fn kept_records_read_back_in_the_browser_as_serde_json_reads_them() {
    use resilience_playground::page::json;
    use resilience_playground::page::lessons::progress::Progress;
    use resilience_playground::page::lessons::Lesson;
    use std::collections::HashMap;

    let progress = [
        // Every field, as the lesson page writes it today.
        r#"{"lesson":"km0","title":"Kilometre Zero","reached":["slow-inventory","capacity"],
            "predictions":[{"step":"slow-inventory","said":"A few hundred","right":true,"prediction":{"c":1}},
                           {"step":"capacity","said":"600","right":false,"prediction":{"n":612.5}}],
            "challenges":["timeout"],"passed_with":[["timeout",[["timeout","250ms"],["threads","40"]]]],
            "votes":[{"step":"slow-inventory","rounds":[{"counts":[3,null,12],"shown":true},{"guesses":[120.5,300]}],
                      "revealed":{"right":[2],"measured":null}}]}"#,
        // Kept before challenges, answers and votes were recorded.
        r#"{"lesson":"northwind","title":"Northwind","reached":["the-incident"],
            "predictions":[{"step":"the-incident","said":"yes","right":true}]}"#,
    ];
    for text in progress {
        let read = json::read::<Progress>(text);
        assert!(read.is_some(), "{text}");
        assert_eq!(read, serde_json::from_str::<Progress>(text).ok(), "{text}");
    }
    let full = json::read::<Progress>(progress[0]).unwrap();
    assert_eq!(
        full.predictions[1].prediction,
        serde_json::from_str(r#"{"n":612.5}"#).ok()
    );
    assert_eq!(full.votes[0].rounds[0].counts, [Some(3), None, Some(12)]);

    // A course platform's record (short names) gives back the same progress as on the host.
    let lesson = Lesson::Km0;
    lesson
        .install(include_str!("../lessons/km0.md"))
        .expect("KM0 reads");
    let mut kept = Progress::new(lesson);
    for step in lesson.steps().iter().take(4) {
        kept.reach(step.name);
    }
    kept.predict(
        lesson.steps()[1].name,
        "600",
        false,
        serde_json::from_str(r#"{"n":600.0}"#).ok(),
    );
    kept.pass(
        lesson.steps()[3].name,
        vec![("timeout".into(), "250ms".into())],
    );
    let data = kept.to_suspend_data();
    let back = Progress::from_suspend_data(lesson, &data).expect("its own record");
    assert_eq!(back.reached, kept.reached, "{data}");
    assert_eq!(back.challenges, kept.challenges, "{data}");
    assert_eq!(back.passed_with, kept.passed_with, "{data}");
    assert_eq!(
        back.predictions[0].prediction,
        kept.predictions[0].prediction
    );

    // The lessons an offline file carries.
    let carried =
        r##"{"lessons/km0.md":"# Kilometre Zero\n\n\"quoted\" \u00e9","lessons/zoo.md":""}"##;
    assert_eq!(
        json::read::<HashMap<String, String>>(carried),
        serde_json::from_str::<HashMap<String, String>>(carried).ok()
    );

    // Not a record: none, and the page starts afresh.
    for broken in [
        "",
        "{not json",
        "[1,2]",
        r#"{"lesson":"km0"}"#,
        "null",
        "{\"r\":[1]}",
    ] {
        assert_eq!(json::read::<Progress>(broken), None, "{broken}");
    }
    assert_eq!(Progress::from_suspend_data(lesson, "{broken"), None);
    assert_eq!(Progress::from_suspend_data(lesson, ""), None);
}
