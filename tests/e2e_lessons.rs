//! End-to-end tests of the guided lessons on `lesson.html`: moving between steps by button and
//! by key (arrows, PageUp / PageDown as a clicker sends them), the address restoring a step, the
//! timeline's marks with their times, and the `lesson-step` widget. Run by `make test` after the
//! release build (`cargo test --features e2e --test e2e_lessons`); screenshots of several steps
//! at 1920x1080 (projector), 1366x768 and 390 px land in `target/e2e/lesson-*.png`.

#[path = "support/browser.rs"]
mod browser;

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::Locator;
use resilience_playground::page::lessons::{Lesson, StepRef};
use resilience_playground::page::replay::clock;

/// The step shown, as `[lesson, step number]` from the root element's data attributes.
const SHOWN: &str = "const s = document.querySelector('[data-lesson-step]');
     return s ? [s.dataset.lesson, s.dataset.lessonStep] : null;";

/// Waits until the step shown is `n` of `lesson`.
async fn wait_for_step(page: &browser::Page, lesson: &str, n: usize) {
    let start = Instant::now();
    loop {
        let got = page.eval(SHOWN).await;
        if got == serde_json::json!([lesson, n.to_string()]) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "step {lesson} {n} never showed; last seen {got}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn click(page: &browser::Page, css: &str) {
    page.client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

/// Sends one key to whatever has the focus, as a presenter's clicker does.
async fn press(page: &browser::Page, key: Key) {
    page.client
        .active_element()
        .await
        .expect("an element with the focus")
        .send_keys(&key.to_string())
        .await
        .expect("the key is sent");
}

async fn search(page: &browser::Page) -> String {
    page.eval("return location.search")
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// What the host computes for a step: its title and its notices.
fn host_step(lesson: Lesson, index: usize) -> (String, Vec<String>) {
    let step = StepRef { lesson, index }.step();
    let (page, _) = step.page();
    (step.title.to_string(), step.notices(&page))
}

#[tokio::test]
async fn steps_move_by_button_and_by_key() {
    browser::run("lesson-navigation", |page| async move {
        page.open("lesson.html?lesson=km0", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "km0", 1).await;
        assert_eq!(
            page.eval("return document.getElementById('lesson-back').disabled")
                .await,
            true,
            "no step before the first"
        );
        click(&page, "#lesson-next").await;
        wait_for_step(&page, "km0", 2).await;
        assert!(
            search(&page).await.contains("step=2"),
            "the address follows"
        );
        // The clicker's keys, with the focus still on the Next button.
        press(&page, Key::PageDown).await;
        wait_for_step(&page, "km0", 3).await;
        press(&page, Key::Right).await;
        wait_for_step(&page, "km0", 4).await;
        press(&page, Key::PageUp).await;
        wait_for_step(&page, "km0", 3).await;
        press(&page, Key::Left).await;
        wait_for_step(&page, "km0", 2).await;
        click(&page, "#lesson-back").await;
        wait_for_step(&page, "km0", 1).await;
        // The browser's Back goes to the step before, as the address said.
        page.client.back().await.expect("history back");
        wait_for_step(&page, "km0", 2).await;
        let (title, _) = host_step(Lesson::Km0, 1);
        assert_eq!(page.text("[id='lesson-step-title']").await, title);
        // Arrows inside a slider stay the slider's.
        let slider = page
            .client
            .find(Locator::Css(".lesson-try input[type='range']"))
            .await
            .expect("the step's control");
        slider.click().await.expect("focus the slider");
        press(&page, Key::Right).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        wait_for_step(&page, "km0", 2).await;
        // The last step has no Next.
        let last = Lesson::Km0.steps().len();
        page.open(
            &format!("lesson.html?lesson=km0&step={last}"),
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", last).await;
        assert_eq!(
            page.eval("return document.getElementById('lesson-next').disabled")
                .await,
            true
        );
        press(&page, Key::PageDown).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        wait_for_step(&page, "km0", last).await;
    })
    .await;
}

#[tokio::test]
async fn the_address_restores_a_step_with_the_run_s_own_figures() {
    browser::run("lesson-permalink", |page| async move {
        page.open("lesson.html?lesson=northwind&step=3", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "northwind", 3).await;
        let (title, notices) = host_step(Lesson::Northwind, 2);
        assert_eq!(page.text("[id='lesson-step-title']").await, title);
        let shown = page
            .eval("return [...document.querySelectorAll('#lesson-notices li')].map(li => li.textContent)")
            .await;
        assert_eq!(shown, serde_json::json!(notices), "the browser says the host's figures");
        // Played to its moment, and the playground link rebuilds the same run.
        let step = StepRef {
            lesson: Lesson::Northwind,
            index: 2,
        }
        .step();
        assert_eq!(
            page.text("#clock strong").await,
            clock(step.moment(), None),
            "the playhead at the step's moment"
        );
        let href = page
            .eval("return document.getElementById('lesson-open-playground').href")
            .await;
        let href = href.as_str().unwrap();
        assert!(
            href.contains("index.html?preset=northwind-separate"),
            "{href}"
        );
        // A bad step is named, and the lesson starts at its first step.
        page.open("lesson.html?lesson=km0&step=99", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "km0", 1).await;
        let notice = page.text(".lesson-page-notices li").await;
        assert!(notice.starts_with("step:"), "{notice}");
        // "Play to" plays from the start and pauses at the moment.
        page.open("lesson.html?lesson=km0&step=9", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "km0", 9).await;
        page.eval(&browser::set_value("speed", "5")).await;
        click(&page, "#lesson-replay").await;
        let start = Instant::now();
        let moment = clock(
            StepRef {
                lesson: Lesson::Km0,
                index: 8,
            }
            .step()
            .moment(),
            None,
        );
        loop {
            let playing = page.text("#play").await.contains("Pause");
            if !playing && page.text("#clock strong").await == moment {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "did not pause at {moment}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    })
    .await;
}

/// The marks the host computes for a step's run (kind, time in seconds), and when its breaker
/// first opened.
fn host_marks(step: StepRef) -> (Vec<(String, String)>, u64) {
    let (host, _) = step.step().page();
    let run = host.run.as_ref().unwrap();
    let marks = run
        .markers
        .iter()
        .map(|m| {
            (
                m.kind.key().to_string(),
                format!("{:.1}", m.at as f64 / 1e6),
            )
        })
        .collect();
    (marks, run.trace.first_open().unwrap())
}

#[tokio::test]
async fn the_timeline_marks_each_event_at_its_time() {
    browser::run("lesson-markers", |page| async move {
        let step = StepRef {
            lesson: Lesson::Km0,
            index: 8,
        };
        page.open(
            &format!("lesson.html?{}", step.query()),
            "#timeline-markers li",
        )
        .await;
        let (want, opened) = host_marks(step);
        assert!(want.iter().any(|(k, _)| k == "breaker-open"), "{want:?}");
        assert!(want.iter().any(|(k, _)| k == "degraded"), "{want:?}");
        let shown = page
            .eval("return [...document.querySelectorAll('#timeline-markers li')].map(li => [li.dataset.marker, li.dataset.at])")
            .await;
        assert_eq!(shown, serde_json::json!(want));
        // Each says its time, and moves the playhead there when clicked.
        let text = page
            .text("#timeline-markers li[data-marker='breaker-open'] button")
            .await;
        assert!(text.starts_with(&clock(opened, None)), "{text}");
        click(&page, "#timeline-markers li[data-marker='breaker-open'] button").await;
        assert_eq!(page.text("#clock strong").await, clock(opened, None));
        // The band has its legend.
        let legend = page.text("#band-legend").await;
        for state in ["closed", "open", "half-open"] {
            assert!(legend.contains(state), "{legend}");
        }
    })
    .await;
}

#[tokio::test]
async fn a_lesson_step_widget_shows_its_step_and_keeps_its_keys() {
    browser::run("lesson-widget", |page| async move {
        page.open(
            "embed.html?kind=lesson-step&lesson=km0&step=3",
            "#widget [data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", 3).await;
        let (title, _) = host_step(Lesson::Km0, 2);
        assert_eq!(page.text("[id$='-lesson-step-title']").await, title);
        let before = search(&page).await;
        click(&page, "[id$='-lesson-next']").await;
        wait_for_step(&page, "km0", 4).await;
        assert_eq!(
            search(&page).await,
            before,
            "a widget leaves the address alone"
        );
        // Keys reach it when it has the focus.
        click(&page, "[id$='-lesson-next']").await;
        wait_for_step(&page, "km0", 5).await;
        press(&page, Key::PageUp).await;
        wait_for_step(&page, "km0", 4).await;
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, serde_json::json!([]));
        // A bad step attribute is named inside the widget.
        page.open(
            "embed.html?kind=lesson-step&lesson=km0&step=0",
            "#widget [data-lesson-step]",
        )
        .await;
        let notice = page.text("[id$='-widget-notices']").await;
        assert!(notice.contains("step:"), "{notice}");
    })
    .await;
}

/// Screenshots of several steps as a class would see them: 1920x1080 in projector mode,
/// 1366x768, and a 390 px phone.
#[tokio::test]
async fn screenshots_of_steps() {
    browser::run("lesson-screens", |page| async move {
        let shots = [
            ("km0", 1),
            ("km0", 3),
            ("km0", 8),
            ("km0", 10),
            ("northwind", 3),
        ];
        for (lesson, n) in shots {
            page.client.set_window_size(1920, 1080).await.unwrap();
            page.open(
                &format!("lesson.html?lesson={lesson}&step={n}&projector=on"),
                "[data-lesson-step] .lesson-notice li",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            page.screenshot(&format!("lesson-{lesson}-{n}-1920-projector"))
                .await;
            page.client.set_window_size(1366, 768).await.unwrap();
            page.open(
                &format!("lesson.html?lesson={lesson}&step={n}"),
                "[data-lesson-step] .lesson-notice li",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            page.screenshot(&format!("lesson-{lesson}-{n}-1366")).await;
            // On a laptop the step's text and its live views stand side by side.
            let beside = page
                .eval(
                    "const t = document.querySelector('[data-lesson-step] .lesson-text').getBoundingClientRect();
                     const v = document.querySelector('[data-lesson-step] .lesson-views').getBoundingClientRect();
                     return v.left >= t.right && v.top < t.bottom;",
                )
                .await;
            assert_eq!(beside, true, "{lesson} step {n}: text and views side by side at 1366 px");
        }
        browser::emulate_phone(&page.client, 390, 844).await;
        page.open(
            "lesson.html?lesson=km0&step=8",
            "[data-lesson-step] .lesson-notice li",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        page.screenshot("lesson-km0-8-390").await;
        let sideways = page
            .eval("return document.documentElement.scrollWidth > window.innerWidth + 1")
            .await;
        assert_eq!(sideways, false, "nothing scrolls sideways on a phone");
    })
    .await;
}

/// Slider moved in a step -> re-simulated, notices and views redrawn (figures for the README,
/// not a test): `cargo test --features e2e --test e2e_lessons measure_step_slider -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn measure_step_slider() {
    browser::run("lesson-measure", |page| async move {
        page.open("lesson.html?lesson=km0&step=9", "#cooldown").await;
        let moves = page
            .eval(&browser::slider_moves("cooldown", 30))
            .await;
        let moves = browser::sorted_millis(&moves);
        assert_eq!(moves.len(), 30);
        println!(
            "step slider move -> re-simulated, notices and views redrawn: median {:.2} ms, min {:.2}, max {:.2} (30 moves)",
            moves[15], moves[0], moves[29]
        );
    })
    .await;
}

#[tokio::test]
async fn the_bulkhead_step_shows_the_lookups_it_saves() {
    let index = Lesson::Km0
        .steps()
        .iter()
        .position(|s| s.settings.contains(&("preset", "story-bulkhead")))
        .expect("a step on the story's bulkhead");
    let (_, notices) = host_step(Lesson::Km0, index);
    let saved = notices
        .iter()
        .find(|n| n.starts_with("With the bulkhead the order lookups"))
        .expect("the step compares the lookups")
        .clone();
    browser::run("lesson-lookups", |page| async move {
        page.open(
            &format!("lesson.html?lesson=km0&step={}", index + 1),
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", index + 1).await;
        let shown = page.text("#lesson-notices").await;
        assert!(shown.contains(&saved), "{shown}\nlacks\n{saved}");
        let lookups = page.text("#lookups").await;
        assert!(lookups.contains("0 waiting"), "{lookups}");
        page.screenshot("lesson-km0-bulkhead-lookups").await;
    })
    .await;
}
