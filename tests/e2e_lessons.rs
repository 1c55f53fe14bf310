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
use resilience_playground::page::lessons::vote::{Round, StepVotes};
use resilience_playground::page::lessons::{live, rules, Lesson, Prediction, StepRef, Verdict};
use resilience_playground::page::replay::clock;

/// The step shown, as `[lesson, step name]` from the root element's data attributes.
const SHOWN: &str = "const s = document.querySelector('[data-lesson-step]');
     return s ? [s.dataset.lesson, s.dataset.stepName] : null;";

/// Waits until the step shown is the one called `n` of `lesson`.
async fn wait_for_step(page: &browser::Page, lesson: &str, n: &str) {
    let start = Instant::now();
    loop {
        let got = page.eval(SHOWN).await;
        if got == serde_json::json!([lesson, n]) {
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

/// Waits until the page shows an element matching `css`.
async fn wait_for(page: &browser::Page, css: &str) {
    let start = Instant::now();
    let script = format!("return !!document.querySelector({css:?})");
    while page.eval(&script).await != serde_json::json!(true) {
        assert!(start.elapsed() < Duration::from_secs(20), "no {css}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Answers a step's question with its first choice, or a number field with 1.
const ANSWER_FIRST: &str = "const c = document.getElementById('lesson-choice-0');
     if (c) { c.click(); return 'choice'; }
     const n = document.getElementById('lesson-number');
     if (n) { n.value = '1'; document.getElementById('lesson-number-submit').click(); return 'number'; }
     return null;";

/// A step that asks a question holds its run until it is answered: shows it without a
/// prediction, as a teacher may (nothing, on a step that asks none).
async fn show_the_run(page: &browser::Page) {
    let asks = page
        .eval("const b = document.querySelector(\"[id$='lesson-skip']\"); if (b) b.click(); return !!b;")
        .await;
    if asks == serde_json::json!(true) {
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
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

/// The step's what-to-notice sentences as the page shows them (a term's tooltip left out).
const NOTICES: &str = "return [...document.querySelectorAll('#lesson-notices li')].map(li => {
       const copy = li.cloneNode(true);
       copy.querySelectorAll('.term-tip').forEach(t => t.remove());
       return copy.textContent;
     });";

/// The step of `lesson` called `name`.
fn named(lesson: Lesson, name: &str) -> StepRef {
    StepRef::named(lesson, name).unwrap_or_else(|| panic!("{} has no step {name}", lesson.key()))
}

/// What the host computes for a step: its title and its notices at its moment.
fn host_step(lesson: Lesson, name: &str) -> (String, Vec<String>) {
    let step = named(lesson, name).step();
    let (page, _) = step.page_at_moment();
    (step.title.to_string(), step.notices(&page))
}

/// Moves the lesson's playhead to `at` by its scrub bar, as a teacher dragging it would.
async fn seek(page: &browser::Page, at: u64) {
    show_the_run(page).await;
    page.eval(&browser::set_value("scrub", &(at / 100_000).to_string()))
        .await;
    let want = clock(at, None);
    let start = Instant::now();
    while page.text("#clock strong").await != want {
        assert!(start.elapsed() < Duration::from_secs(10), "never at {want}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
}

#[tokio::test]
async fn steps_move_by_button_and_by_key() {
    browser::run("lesson-navigation", |page| async move {
        page.open("lesson.html?lesson=km0", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "km0", "slow-inventory").await;
        assert_eq!(
            page.eval("return document.getElementById('lesson-back').disabled")
                .await,
            true,
            "no step before the first"
        );
        click(&page, "#lesson-next").await;
        wait_for_step(&page, "km0", "capacity").await;
        assert!(
            search(&page).await.contains("step=capacity"),
            "the address follows"
        );
        // The keys, with the focus still on the Next button (PageDown, a clicker's advance,
        // has its own test).
        press(&page, Key::Right).await;
        wait_for_step(&page, "km0", "pool-runs-dry").await;
        press(&page, Key::Right).await;
        wait_for_step(&page, "km0", "timeout").await;
        press(&page, Key::PageUp).await;
        wait_for_step(&page, "km0", "pool-runs-dry").await;
        press(&page, Key::Left).await;
        wait_for_step(&page, "km0", "capacity").await;
        click(&page, "#lesson-back").await;
        wait_for_step(&page, "km0", "slow-inventory").await;
        // The browser's Back goes to the step before, as the address said.
        page.client.back().await.expect("history back");
        wait_for_step(&page, "km0", "capacity").await;
        let (title, _) = host_step(Lesson::Km0, "capacity");
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
        wait_for_step(&page, "km0", "capacity").await;
        // A clicker's PageDown advances even from the slider.
        page.eval(&browser::set_value("speed", "20")).await;
        slider.click().await.expect("focus the slider");
        advance_to(&page, Lesson::Km0, "capacity").await;
        wait_for_step(&page, "km0", "pool-runs-dry").await;
        // The new step starts at the top, its heading with the focus.
        assert_eq!(
            page.eval("return [window.scrollY, document.activeElement.id]")
                .await,
            serde_json::json!([0, "lesson-step-title"])
        );
        // A switch keeps no arrow for itself: after ticking one, → steps.
        click(&page, "#lesson-whole").await;
        press(&page, Key::Right).await;
        wait_for_step(&page, "km0", "timeout").await;
        // The last step's Next opens the recap, which has no Next.
        let last = Lesson::Km0.steps().len();
        let last_name = Lesson::Km0.steps()[last - 1].name;
        page.open(
            &format!("lesson.html?lesson=km0&step={last_name}"),
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", last_name).await;
        page.eval(&browser::set_value("speed", "20")).await;
        advance_to(&page, Lesson::Km0, last_name).await;
        let start = Instant::now();
        while page.eval(SHOWN).await != serde_json::json!(["km0", "end"]) {
            assert!(start.elapsed() < Duration::from_secs(20), "no recap");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        assert_eq!(
            page.eval("return document.getElementById('lesson-next').disabled")
                .await,
            true
        );
        let recap = page
            .eval("return [...document.querySelectorAll('#lesson-recap li')].length")
            .await;
        assert_eq!(recap, serde_json::json!(last), "a line per step");
        let links = page.text("#lesson-recap-next").await;
        assert!(
            links.contains("exercises") && links.contains("Northwind"),
            "{links}"
        );
        press(&page, Key::PageUp).await;
        wait_for_step(&page, "km0", last_name).await;
    })
    .await;
}

#[tokio::test]
async fn the_address_restores_a_step_with_the_run_s_own_figures() {
    browser::run("lesson-permalink", |page| async move {
        page.open(
            "lesson.html?lesson=northwind&step=separate-bulkheads",
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "northwind", "separate-bulkheads").await;
        let (title, notices) = host_step(Lesson::Northwind, "separate-bulkheads");
        assert_eq!(page.text("[id='lesson-step-title']").await, title);
        // The step opens before its run plays, with nothing to notice yet.
        assert_eq!(page.text("#clock strong").await, clock(0, None));
        let step = named(Lesson::Northwind, "separate-bulkheads").step();
        seek(&page, step.moment()).await;
        let shown = page.eval(NOTICES).await;
        assert_eq!(
            shown,
            serde_json::json!(notices),
            "the browser says the host's figures"
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
        wait_for_step(&page, "km0", "slow-inventory").await;
        let notice = page.text(".lesson-page-notices li").await;
        assert!(notice.starts_with("step:"), "{notice}");
        // A number published before the herd step was inserted opens what it opened then:
        // 8 was the breaker. "Play to" plays from the start and pauses at the moment.
        page.open("lesson.html?lesson=km0&step=8", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "km0", "circuit-breaker").await;
        assert!(
            search(&page).await.contains("step=circuit-breaker"),
            "the address names the step"
        );
        page.eval(&browser::set_value("speed", "5")).await;
        show_the_run(&page).await;
        click(&page, "#lesson-replay").await;
        let start = Instant::now();
        let moment = clock(named(Lesson::Km0, "circuit-breaker").step().moment(), None);
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
    let run = host.runs.a.as_ref().unwrap();
    let marks = run
        .markers
        .iter()
        .filter(|m| m.at <= step.step().moment())
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
        let step = named(Lesson::Km0, "circuit-breaker");
        page.open(
            &format!("lesson.html?{}", step.query()),
            "[data-lesson-step]",
        )
        .await;
        // Marks appear as the playhead passes them: none before the run plays.
        assert_eq!(
            page.eval("return document.querySelectorAll('#timeline-markers li').length")
                .await,
            serde_json::json!(0)
        );
        let (want, opened) = host_marks(step);
        seek(&page, step.step().moment()).await;
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
            "embed.html?kind=lesson-step&lesson=km0&step=pool-runs-dry",
            "#widget [data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", "pool-runs-dry").await;
        let (title, _) = host_step(Lesson::Km0, "pool-runs-dry");
        assert_eq!(page.text("[id$='-lesson-step-title']").await, title);
        let before = search(&page).await;
        click(&page, "[id$='-lesson-next']").await;
        wait_for_step(&page, "km0", "timeout").await;
        assert_eq!(
            search(&page).await,
            before,
            "a widget leaves the address alone"
        );
        // Keys reach it when it has the focus.
        click(&page, "[id$='-lesson-next']").await;
        wait_for_step(&page, "km0", "deadline").await;
        press(&page, Key::PageUp).await;
        wait_for_step(&page, "km0", "timeout").await;
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, serde_json::json!([]));
        // A bad step attribute is named inside the widget, above its step.
        page.open(
            "embed.html?kind=lesson-step&lesson=km0&step=0",
            "#widget [data-lesson-step]",
        )
        .await;
        let notice = page.text("#widget .lesson-page-notices").await;
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
            ("km0", "slow-inventory"),
            ("km0", "pool-runs-dry"),
            ("km0", "herd-on-hot-items"),
            ("km0", "breaker-window"),
            ("northwind", "separate-bulkheads"),
        ];
        for (lesson, n) in shots {
            page.client.set_window_size(1920, 1080).await.unwrap();
            page.open(
                &format!("lesson.html?lesson={lesson}&step={n}&projector=on"),
                "[data-lesson-step]",
            )
            .await;
            let moment = named(Lesson::parse(lesson).unwrap(), n).step().moment();
            seek(&page, moment).await;
            page.screenshot(&format!("lesson-{lesson}-{n}-1920-projector"))
                .await;
            page.client.set_window_size(1366, 768).await.unwrap();
            page.open(
                &format!("lesson.html?lesson={lesson}&step={n}"),
                "[data-lesson-step]",
            )
            .await;
            seek(&page, moment).await;
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
            "lesson.html?lesson=km0&step=herd-on-hot-items",
            "[data-lesson-step]",
        )
        .await;
        seek(&page, named(Lesson::Km0, "herd-on-hot-items").step().moment()).await;
        page.screenshot("lesson-km0-herd-on-hot-items-390").await;
        let sideways = page
            .eval("return document.documentElement.scrollWidth > window.innerWidth + 1")
            .await;
        assert_eq!(sideways, false, "nothing scrolls sideways on a phone");
    })
    .await;
}

#[tokio::test]
async fn the_bulkhead_step_shows_the_lookups_it_saves() {
    let step = named(Lesson::Km0, "bulkhead");
    assert!(step.step().settings.contains(&("preset", "story-bulkhead")));
    let (_, notices) = host_step(Lesson::Km0, "bulkhead");
    let saved = notices
        .iter()
        .find(|n| n.contains("with the bulkhead the order lookups"))
        .expect("the step compares the lookups")
        .clone();
    browser::run("lesson-lookups", |page| async move {
        page.open(
            &format!("lesson.html?{}", step.query()),
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", "bulkhead").await;
        seek(&page, step.step().moment()).await;
        let shown = page.eval(NOTICES).await.to_string();
        assert!(shown.contains(&saved), "{shown}\nlacks\n{saved}");
        let lookups = page.text("#lookups").await;
        assert!(lookups.contains("0 waiting"), "{lookups}");
        page.screenshot("lesson-km0-bulkhead-lookups").await;
    })
    .await;
}

/// A step counts ok and what its runs produced, nothing the lesson has not met (no "refused
/// by the open breaker" before the breaker's step), and prints the meaning of each word it
/// teaches under its text.
#[tokio::test]
async fn a_step_counts_only_outcomes_met_and_defines_the_words_it_teaches() {
    browser::run("lesson-taught", |page| async move {
        let outcomes = "return [...document.querySelectorAll('.counters .chip[data-outcome]')]
                          .map(c => c.dataset.outcome)";
        let words =
            "return [...document.querySelectorAll('.lesson-words dt')].map(d => d.textContent)";
        for (name, counted, taught) in [
            (
                "slow-inventory",
                serde_json::json!(["ok"]),
                serde_json::json!(["p99"]),
            ),
            (
                "circuit-breaker",
                serde_json::json!(["ok", "circuit_open", "timeout"]),
                serde_json::json!(["half-open", "probes", "cool-down"]),
            ),
        ] {
            let step = named(Lesson::Km0, name);
            page.open(
                &format!("lesson.html?{}", step.query()),
                "[data-lesson-step]",
            )
            .await;
            wait_for_step(&page, "km0", name).await;
            show_the_run(&page).await;
            seek(&page, step.step().moment()).await;
            assert_eq!(page.eval(outcomes).await, counted, "{name}'s counters");
            assert_eq!(page.eval(words).await, taught, "{name}'s words");
            let defined = page.text(".lesson-words").await;
            let first = step.step().terms[0];
            let meaning = resilience_playground::page::glossary::meaning(first).unwrap();
            assert!(defined.contains(meaning), "{defined}");
        }
        page.screenshot("lesson-km0-breaker-words").await;
    })
    .await;
}

/// A presenter's black screen: `b` (or `.`) covers the whole screen in black, and any key or a
/// click brings the same step back, that key doing nothing else; `?` lists it.
#[tokio::test]
async fn the_black_screen_covers_everything_and_any_key_brings_the_same_step_back() {
    browser::run("lesson-blackout", |page| async move {
        let step = named(Lesson::Km0, "capacity");
        page.open(
            &format!("lesson.html?{}&projector=on", step.query()),
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", "capacity").await;
        let covered = "const b = document.querySelector('.blackout');
            if (!b) return null;
            const r = b.getBoundingClientRect();
            return [r.width >= innerWidth, r.height >= innerHeight,
                    document.elementFromPoint(innerWidth / 2, innerHeight / 2) === b,
                    getComputedStyle(b).backgroundColor];";
        for black in ['b', '.'] {
            browser::press_keys(&page, &[black]).await;
            wait_for(&page, ".blackout").await;
            assert_eq!(
                page.eval(covered).await,
                serde_json::json!([true, true, true, "rgb(0, 0, 0)"]),
                "{black} blacks the whole screen"
            );
            if black == 'b' {
                page.screenshot("lesson-blackout-1920").await;
            }
            // PageDown would advance: while black it only brings the step back.
            browser::press_keys(&page, &[Key::PageDown.into()]).await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            assert_eq!(page.eval(covered).await, serde_json::Value::Null);
            wait_for_step(&page, "km0", "capacity").await;
            assert_eq!(
                page.text("[id$='clock'] strong").await,
                "0.0 s",
                "nothing played"
            );
        }
        browser::press_keys(&page, &['b']).await;
        wait_for(&page, ".blackout").await;
        click(&page, ".blackout").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(
            page.eval(covered).await,
            serde_json::Value::Null,
            "a click too"
        );
        // Typed into a field, b is a letter.
        page.eval(
            "document.querySelector('.lesson-try input[type=number], input[type=text]')?.focus()",
        )
        .await;
        browser::press_keys(&page, &['?']).await;
        let help = page
            .eval("return document.body.textContent.includes('black screen')")
            .await;
        assert_eq!(help, serde_json::json!(true), "? lists the black screen");
    })
    .await;
}

/// `&worksheet=on` lays out every step for paper (title, setting, the question with its
/// letters and a box, a line for what happened), prints without controls in a handful of
/// pages, and `&worksheet=answers` adds each question's answer from its run.
#[tokio::test]
async fn the_worksheet_prints_every_step_and_the_teachers_copy_has_the_answers() {
    browser::run("lesson-worksheet", |page| async move {
        let steps = Lesson::Km0.steps();
        page.open("lesson.html?lesson=km0&worksheet=on", ".worksheet-step")
            .await;
        let shown = page
            .eval("return [document.querySelectorAll('.worksheet-step').length,
                           document.querySelectorAll('.worksheet-question').length,
                           document.querySelectorAll('.worksheet-answer').length,
                           [...document.querySelectorAll('.worksheet-choices')][0].textContent]")
            .await;
        let questions = steps.iter().filter(|s| s.question.is_some()).count();
        assert_eq!(shown[0], serde_json::json!(steps.len()));
        assert_eq!(shown[1], serde_json::json!(questions));
        assert_eq!(shown[2], serde_json::json!(0), "no answers on the students' copy");
        assert!(shown[3].as_str().unwrap().starts_with("A"), "{shown}");
        page.screenshot("lesson-worksheet").await;
        // Printed: no buttons or navigation, no step split across pages.
        page.devtools("Emulation.setEmulatedMedia", serde_json::json!({"media": "print"}))
            .await;
        let chrome = page
            .eval("return [...document.querySelectorAll('button, nav, input, select, header, a[href]')]
                     .filter(e => e.getClientRects().length > 0).length")
            .await;
        assert_eq!(chrome, serde_json::json!(0), "nothing to press on paper");
        page.screenshot("lesson-worksheet-print").await;
        page.devtools("Emulation.setEmulatedMedia", serde_json::json!({"media": ""}))
            .await;
        for (paper, width, height) in [("A4", 8.27, 11.69), ("Letter", 8.5, 11.0)] {
            let pages = printed_pages(&page, width, height).await;
            eprintln!("worksheet on {paper}: {pages} pages for {} steps", steps.len());
            assert!(
                (2..=steps.len().div_ceil(2) + 1).contains(&pages),
                "{paper}: {pages} pages for {} steps",
                steps.len()
            );
        }
        page.open("lesson.html?lesson=km0&worksheet=answers", ".worksheet-answer")
            .await;
        let first = page.text(".worksheet-answer").await;
        assert!(first.contains("C:") && first.contains("998"), "{first}");
        // Each step's load chart at its moment, drawn (not blank), a figure per step.
        wait_for(&page, ".worksheet-chart canvas.chart").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let charts = page
            .eval("return [...document.querySelectorAll('.worksheet-chart canvas.chart')].map(c => {
                     const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                     const colours = new Set();
                     for (let i = 0; i < d.length; i += 4 * 97) colours.add(d[i] + ',' + d[i + 1] + ',' + d[i + 2]);
                     return [c.getBoundingClientRect().height > 100, colours.size > 3];
                   })")
            .await;
        assert_eq!(
            charts,
            serde_json::json!(vec![[true, true]; steps.len()]),
            "a drawn chart per step"
        );
        page.screenshot("lesson-worksheet-answers").await;
        let pages = printed_pages(&page, 8.27, 11.69).await;
        eprintln!("the teacher's copy on A4: {pages} pages for {} steps", steps.len());
        assert!((2..=steps.len() + 1).contains(&pages), "{pages} pages");
        // A wrong value is named, and the lesson shows as usual.
        page.open("lesson.html?lesson=km0&worksheet=yes", "[data-lesson-step]")
            .await;
        let notice = page.text(".lesson-page-notices").await;
        assert!(notice.contains("worksheet: `yes`"), "{notice}");
    })
    .await;
}

/// How far the page, the step's text and its views overflow their boxes (CSS px; 0 when
/// everything is on the screen), the text's font size, and the chart numbers' smallest size.
const FIT: &str = "
    const over = css => { const e = document.querySelector(css); return e ? e.scrollHeight - e.clientHeight : -1; };
    return {
      page: document.documentElement.scrollHeight - innerHeight,
      wide: document.documentElement.scrollWidth - innerWidth,
      text: over('.lesson-text'),
      views: over('.lesson-views'),
      font: parseFloat(getComputedStyle(document.querySelector('.lesson-text > p')).fontSize),
      bottom: Math.max(...[...document.querySelectorAll('.lesson-text > *, .lesson-views > .region')]
        .map(e => e.getBoundingClientRect().bottom)) - innerHeight,
      clipped: Math.max(0, ...[...document.querySelectorAll('.lesson-views > .region')]
        .map(e => e.scrollHeight - e.clientHeight)),
      // The smallest chart's drawing, as a share of the screen's height (a canvas draws at
      // its box's width, in its own shape).
      chart: Math.min(innerHeight, ...[...document.querySelectorAll('.lesson-views canvas.chart, .lesson-views svg.state-diagram')]
        .map(e => { const r = e.getBoundingClientRect();
          return e.tagName === 'CANVAS' ? Math.min(r.height, r.width * e.height / e.width) : r.height; })) / innerHeight,
      // Each chart's drawing's height in px, in the page's order (a canvas, a diagram).
      charts: [...document.querySelectorAll('.lesson-views canvas.chart, .lesson-views svg.state-diagram')]
        .map(e => { const r = e.getBoundingClientRect();
          return Math.round(e.tagName === 'CANVAS' ? Math.min(r.height, r.width * e.height / e.width) : r.height); }),
      // The smallest text of the charts' legends, px.
      legend: Math.min(99, ...[...document.querySelectorAll('.lesson-views .chart-legend')]
        .map(e => parseFloat(getComputedStyle(e).fontSize))),
      // How much a chart's drawing is scaled to fit its box (1: drawn at the box's width).
      drawn: Math.min(1, ...[...document.querySelectorAll('.lesson-views canvas.chart')].map(c => {
        const r = c.getBoundingClientRect();
        return Math.min(r.width / (c.width / devicePixelRatio), r.height / (c.height / devicePixelRatio));
      })),
      diagram_text: Math.min(99, ...[...document.querySelectorAll('.lesson-views svg.state-diagram')].flatMap(svg => {
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
      })),
    };";

/// The counters at the playhead: `[words, count]` for each outcome, and the arrivals.
const COUNTERS: &str = "
    const chips = [...document.querySelectorAll('.counters .chip[data-outcome]')]
      .map(c => [c.firstChild.textContent.trim(), c.querySelector('strong').textContent]);
    const arrived = document.getElementById('count-arrived');
    return arrived ? { chips, arrived: arrived.textContent } : null;";

/// Every step of both lessons on the classroom's screens in projector mode: it fits without
/// scrolling, says nothing of its outcome before its run plays, and at its moment its
/// sentences are the host's and count what the counters beside them count.
#[tokio::test]
async fn every_step_fits_one_projector_screen_and_follows_its_run() {
    browser::run("lesson-every-step", |page| async move {
        for (width, height) in [(1920u32, 1080u32), (1280, 800)] {
            page.devtools(
                "Emulation.setDeviceMetricsOverride",
                serde_json::json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            )
            .await;
            for lesson in Lesson::ALL {
                // The recap after the last step fits too.
                page.open(
                    &format!("lesson.html?lesson={}&step=end&projector=on", lesson.key()),
                    "#lesson-recap li",
                )
                .await;
                let over = page
                    .eval("const r = document.querySelector('.lesson-recap');
                           return [document.documentElement.scrollHeight - innerHeight, r.scrollHeight - r.clientHeight];")
                    .await;
                assert_eq!(over, serde_json::json!([0, 0]), "{} recap at {width}x{height}", lesson.key());
                if width == 1920 {
                    page.screenshot(&format!("lesson-{}-recap-1920", lesson.key())).await;
                }
                for (index, step) in lesson.steps().iter().enumerate() {
                    let here = StepRef { lesson, index };
                    let name = format!("{} {} at {width}x{height}", lesson.key(), step.name);
                    page.open(
                        &format!("lesson.html?{}&projector=on", here.query()),
                        "[data-lesson-step]",
                    )
                    .await;
                    wait_for_step(&page, lesson.key(), step.name).await;
                    // Before the run plays: no sentence, no mark, the clock at 0.
                    assert_eq!(page.eval(NOTICES).await, serde_json::json!([]), "{name}");
                    // (A run that starts sick, exercise 3's dead inventory, marks it at 0 s.)
                    assert_eq!(
                        page.eval("return [...document.querySelectorAll('#timeline-markers li')].filter(li => li.dataset.at !== '0.0').length")
                            .await,
                        serde_json::json!(0),
                        "{name}: a mark before the run plays"
                    );
                    // A step that asks is answered, with its first choice (for most, a wrong
                    // one: the longest verdict, with its hint), so the verdict must fit too.
                    if step.question.is_some() {
                        page.eval(ANSWER_FIRST).await;
                        wait_for(&page, ".lesson-said").await;
                    }
                    seek(&page, step.moment()).await;
                    if step.question.is_some() {
                        wait_for(&page, ".lesson-verdict").await;
                    }
                    let fit = page.eval(FIT).await;
                    for key in ["page", "wide", "text", "views", "bottom", "clipped"] {
                        assert!(fit[key].as_f64().unwrap() <= 1.0, "{name}: {key} overflows: {fit}");
                    }
                    // Every chart has room enough to be read (near a fifth of the screen's
                    // height), and the diagram's words are 20 px at 1920, scaled at 1280.
                    assert!(fit["chart"].as_f64().unwrap() >= 0.18, "{name}: a chart too small: {fit}");
                    assert!(fit["drawn"].as_f64().unwrap() >= 0.97, "{name}: a chart drawn smaller than its box: {fit}");
                    let want_text = 20.0 * f64::from(width) / 1920.0;
                    assert!(fit["diagram_text"].as_f64().unwrap() >= want_text, "{name}: {fit}");
                    let want_font = if width == 1920 { 24.0 } else { 16.0 };
                    assert!(fit["font"].as_f64().unwrap() >= want_font, "{name}: {fit}");
                    if width == 1920 {
                        // A back row reads every chart (the breaker's diagram too): each at
                        // least 300 px tall, its legends at least 18 px (its axes' labels are
                        // drawn at 20 px at least).
                        eprintln!("chart heights {name}: {}", fit["charts"]);
                        for px in fit["charts"].as_array().unwrap() {
                            assert!(px.as_f64().unwrap() >= 300.0, "{name}: a chart under 300 px: {fit}");
                        }
                        assert!(fit["legend"].as_f64().unwrap() >= 18.0, "{name}: {fit}");
                        page.screenshot(&format!("lesson-{}-{}-1920", lesson.key(), step.name))
                            .await;
                    }
                    // At the moment: the host's sentences, and their counts are the counters'.
                    let (_, host) = host_step(lesson, step.name);
                    let shown = page.eval(NOTICES).await;
                    assert_eq!(shown, serde_json::json!(host), "{name}");
                    let counters = page.eval(COUNTERS).await;
                    let outcomes = host.iter().find(|n| n.contains("requests arrived:"));
                    if let (Some(outcomes), false) = (outcomes, counters.is_null()) {
                        let arrived = counters["arrived"].as_str().unwrap().parse::<u64>().unwrap();
                        assert!(
                            outcomes.contains(&format!("of {} requests arrived", rules::count(arrived))),
                            "{name}: {outcomes} / {counters}"
                        );
                        for chip in counters["chips"].as_array().unwrap() {
                            let (words, n) = (chip[0].as_str().unwrap(), chip[1].as_str().unwrap());
                            let n: u64 = n.parse().unwrap();
                            if outcomes.contains(&format!("{words} ")) && n > 0 {
                                assert!(
                                    outcomes.contains(&format!("{words} {} (", rules::count(n))),
                                    "{name}: {outcomes} / {words} {n}"
                                );
                            }
                        }
                    }
                }
            }
        }
    })
    .await;
}

/// The step shown fits the projector's screen at 1920x1080 and at 1280x800: nothing below the
/// screen's edge, the text column not scrolled.
async fn fits_both_projector_screens(page: &browser::Page) {
    for (width, height) in [(1920u32, 1080u32), (1280, 800)] {
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let fit = page.eval(FIT).await;
        for key in ["page", "text", "bottom"] {
            let over = fit[key].as_f64().unwrap();
            assert!(over <= 1.0, "{key} overflows at {width}x{height}: {fit}");
        }
    }
}

/// The judge's sentence on the host for `prediction` at `here`'s moment.
fn host_verdict(here: StepRef, prediction: Prediction) -> Verdict {
    let (page, _) = here.step().page();
    here.step().judge(&page, prediction).unwrap()
}

async fn wait_for_verdict(page: &browser::Page) -> String {
    let start = Instant::now();
    loop {
        let v = page.eval("const v = document.querySelector('.lesson-verdict'); return v ? v.textContent : null;").await;
        if let Some(text) = v.as_str() {
            return text.to_string();
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no verdict");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn a_question_holds_the_run_until_the_class_predicts_and_the_run_gives_the_verdict() {
    browser::run("lesson-predict", |page| async move {
        // The projector's screen: the question, then the verdict, must fit it.
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        let here = named(Lesson::Km0, "slow-inventory");
        page.open(
            &format!("lesson.html?{}&projector=on", here.query()),
            "[id$='lesson-choice-2']",
        )
        .await;
        // Held: the setting's paragraph only, nothing to notice yet, no Play to; space does
        // not play.
        let held = "return [document.querySelectorAll('.lesson-text > p:not(.hint)').length,
                            document.querySelector('.lesson-notice').hidden,
                            document.getElementById('lesson-replay').disabled]";
        assert_eq!(page.eval(held).await, serde_json::json!([1, true, true]));
        page.eval("document.getElementById('lesson-step-title').focus()")
            .await;
        press(&page, Key::Space).await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        assert_eq!(page.text("#clock strong").await, "0.0 s", "held at 0");
        page.screenshot("lesson-predict-asked-1920").await;
        // Keyboard only: the third choice, with Enter.
        page.eval(&browser::set_value("speed", "5")).await;
        page.eval("document.getElementById('lesson-choice-2').focus()")
            .await;
        press(&page, Key::Enter).await;
        let said = page.text(".lesson-said").await;
        assert!(said.starts_with("You said “More than 500”"), "{said}");
        let want = host_verdict(here, Prediction::Choice(2));
        assert!(want.right);
        assert_eq!(
            wait_for_verdict(&page).await,
            format!("✓ {}", want.sentence)
        );
        assert_eq!(
            page.text("#clock strong").await,
            clock(here.step().moment(), None)
        );
        // Then the whole step: every paragraph, and the run's sentences.
        let (_, notices) = host_step(Lesson::Km0, "slow-inventory");
        assert_eq!(page.eval(NOTICES).await, serde_json::json!(notices));
        assert_eq!(
            page.eval(held).await,
            serde_json::json!([here.step().text.len(), false, false])
        );
        page.screenshot("lesson-predict-verdict-1920").await;
        // With the verdict, the step still fits the projector's screen, at both sizes.
        fits_both_projector_screens(&page).await;
        // A number, typed wrong, then off the mark: the verdict says so, read from the run.
        let capacity = named(Lesson::Km0, "capacity");
        page.open(
            &format!("lesson.html?{}", capacity.query()),
            "[id$='lesson-number']",
        )
        .await;
        page.eval(&browser::set_value("speed", "5")).await;
        page.eval(
            "const i = document.getElementById('lesson-number'); i.value = 'lots';
                   document.getElementById('lesson-number-submit').click();",
        )
        .await;
        let problem = page.text("[id='lesson-number-problem']").await;
        assert!(problem.contains("needs a number in requests"), "{problem}");
        assert_eq!(page.text("#clock strong").await, "0.0 s");
        page.eval(
            "const i = document.getElementById('lesson-number'); i.value = '1,200';
                   document.getElementById('lesson-number-submit').click();",
        )
        .await;
        let want = host_verdict(capacity, Prediction::Number(1_200.0));
        assert!(!want.right);
        assert_eq!(
            wait_for_verdict(&page).await,
            format!("✗ {} Why not?", want.sentence)
        );
        assert!(want.sentence.ends_with("Not this time."), "{want:?}");
        // The hint waits behind "Why not?", for the class to talk about the gap first.
        assert_eq!(
            page.eval("return document.querySelector('.lesson-hint')").await,
            serde_json::Value::Null
        );
        click(&page, "#lesson-why").await;
        assert_eq!(page.text(".lesson-hint").await, want.hint.unwrap());
    })
    .await;
}

/// The sentence of the request a step follows, as the host tells it (the step's settings,
/// traced).
fn host_story(step: &resilience_playground::page::lessons::Step) -> String {
    let (host, _) = step.page();
    let traced = host.runs.followed().and_then(|t| t.a.clone());
    resilience_playground::page::life_story::story(&traced.expect("a request"))
}

/// A step that names a request to follow offers it only once its run has played to the
/// step's moment (before, its sentence would give the run away); opened by the keyboard, it
/// takes the views' place, tells what the host tells, and the step still fits the projector.
#[tokio::test]
async fn a_step_follows_its_request_once_the_run_has_played() {
    browser::run("lesson-follow", |page| async move {
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        for (lesson, name) in [
            (Lesson::Km0, "slow-inventory"),
            (Lesson::Km0, "circuit-breaker"),
            (Lesson::Northwind, "fallback"),
        ] {
            let here = named(lesson, name);
            let step = here.step();
            page.open(
                &format!("lesson.html?{}&projector=on", here.query()),
                "[data-lesson-step]",
            )
            .await;
            wait_for(&page, "#lesson-follow").await;
            show_the_run(&page).await;
            let disabled = "return document.getElementById('lesson-follow').disabled";
            assert_eq!(page.eval(disabled).await, true, "{name}: offered before the run played");
            seek(&page, step.moment()).await;
            assert_eq!(page.eval(disabled).await, false, "{name}");
            page.eval("document.getElementById('lesson-follow').focus(); return null").await;
            press(&page, Key::Enter).await;
            wait_for(&page, ".lesson-views .life-story").await;
            assert_eq!(page.text(".lesson-views .life-story").await, host_story(step), "{name}");
            let fit = page.eval(FIT).await;
            for key in ["page", "wide", "text", "views", "bottom", "clipped"] {
                assert!(fit[key].as_f64().unwrap() <= 1.0, "{name}: {key} overflows: {fit}");
            }
            page.screenshot(&format!("lesson-follow-{}-{name}-1920", lesson.key())).await;
            // And back to the step's own views.
            click(&page, "#lesson-follow").await;
            wait_for(&page, ".lesson-views canvas").await;
        }
    })
    .await;
}

/// What a student moved travels with the step's link: the address carries the "Try it" value
/// while it is off the step's own, opens the step with the control there, and forgets it on
/// the step's own value and on another step.
#[tokio::test]
async fn a_steps_link_carries_the_try_it_value_a_student_moved() {
    browser::run("lesson-tried", |page| async move {
        page.open(
            "lesson.html?lesson=km0&step=capacity&threads=120",
            ".lesson-try input[type='range']",
        )
        .await;
        let value = "return document.querySelector('.lesson-try input[type=\"number\"], .lesson-try input[type=\"range\"]').value";
        assert_eq!(page.eval(value).await, "120");
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(search(&page).await, "?lesson=km0&step=capacity&threads=120");
        // Moved back to the step's own 96: the plain link.
        page.eval(&browser::set_value("threads", "96")).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(search(&page).await, "?lesson=km0&step=capacity");
        page.eval(&browser::set_value("threads", "64")).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(search(&page).await, "?lesson=km0&step=capacity&threads=64");
        // The next step is its own.
        click(&page, "[id='lesson-next']").await;
        wait_for_step(&page, "km0", "pool-runs-dry").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(search(&page).await, "?lesson=km0&step=pool-runs-dry");
        // A value out of range is refused by name, and the step opens as it is.
        page.open(
            "lesson.html?lesson=km0&step=capacity&threads=0",
            ".lesson-try input[type='range']",
        )
        .await;
        assert_eq!(page.eval(value).await, "96");
    })
    .await;
}

#[tokio::test]
async fn a_teachers_lesson_opens_from_a_path_and_from_a_file_and_a_mistake_names_its_line() {
    browser::run("lesson-own", |page| async move {
        // From a path on the same host: dist/ carries lessons/.
        page.open(
            "lesson.html?file=lessons/northwind.md&step=worst-case",
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "own", "worst-case").await;
        assert_eq!(
            search(&page).await,
            "?file=lessons%2Fnorthwind.md&step=worst-case"
        );
        let title = page.text(".lesson-name").await;
        assert!(title.starts_with("Northwind"), "{title}");
        // A path elsewhere is refused with a notice, and the page goes on with KM0.
        page.open(
            "lesson.html?file=https://example.org/x.md",
            "[data-lesson-step]",
        )
        .await;
        wait_for_step(&page, "km0", "slow-inventory").await;
        let notice = page.text("[id$='lesson-page-notices']").await;
        assert!(notice.contains("a path on this site"), "{notice}");

        // A file picked on the page opens at its first step, and a reload keeps it.
        let dir = browser::artefacts_dir().join("own-lesson");
        std::fs::create_dir_all(&dir).expect("a folder for the lesson files");
        let mine = dir.join("mine.md");
        std::fs::write(
            &mine,
            "# Mine\n\n## Only one\n\n@name only-one\n@run preset=timeout\n@play-to 6 s\n\
             @views load\n\nA step of my own.\n",
        )
        .expect("the lesson file");
        let input = page
            .client
            .find(Locator::Css("[id$='lesson-open-file']"))
            .await
            .expect("the file input");
        input
            .send_keys(&mine.display().to_string())
            .await
            .expect("the file is picked");
        wait_for_step(&page, "own", "only-one").await;
        assert_eq!(search(&page).await, "?lesson=own&step=only-one");
        page.client.refresh().await.expect("reload");
        wait_for_step(&page, "own", "only-one").await;
        assert_eq!(page.text(".lesson-name").await, "Mine");

        // A file with a mistake: its line named, the lesson shown stays.
        let broken = dir.join("broken.md");
        std::fs::write(&broken, "# Broken\n\n## One\n@nmae one\n").expect("the broken file");
        let input = page
            .client
            .find(Locator::Css("[id$='lesson-open-file']"))
            .await
            .expect("the file input");
        input
            .send_keys(&broken.display().to_string())
            .await
            .expect("the file is picked");
        wait_for(&page, "[id$='lesson-page-notices']").await;
        let notice = page.text("[id$='lesson-page-notices']").await;
        assert!(notice.contains("broken.md, line 4: `@nmae`"), "{notice}");
        wait_for_step(&page, "own", "only-one").await;
        page.screenshot("lesson-own").await;
    })
    .await;
}

#[tokio::test]
async fn live_figures_follow_the_run_and_a_sentence_holds_the_steps_control() {
    // The figures the host reads from the step's run at its moment.
    let step = named(Lesson::Km0, "capacity").step();
    let expected: Vec<(&str, String)> = {
        let (host_page, _) = step.page_at_moment();
        let run = host_page.runs.a.as_ref().expect("the run");
        let reading = rules::Reading {
            run,
            now: step.moment(),
            b: None,
        };
        ["throughput(8,12)", "queue-peak"]
            .into_iter()
            .map(|name| {
                let live = live::Live::from_name(name).expect("a live figure");
                (name, live.text(&reading))
            })
            .collect()
    };
    browser::run("lesson-live", |page| async move {
        page.open("lesson.html?lesson=km0&step=capacity", "[data-lesson-step]")
            .await;
        // Before anything has finished: a dash, never NaN or a zero rate.
        show_the_run(&page).await;
        page.eval("document.getElementById('play').click(); return null").await;
        let early = page.text(".live-value[data-live='throughput(8,12)']").await;
        assert_eq!(early, "\u{2014}");
        // At the step's moment, the figures the host reads from the same run.
        seek(&page, step.moment()).await;
        for (name, want) in &expected {
            let shown = page
                .text(&format!(".live-value[data-live='{name}']"))
                .await;
            assert_eq!(&shown, want, "{name}");
        }
        // The control in the sentence: the arrow keys move it (not the step), and the "Try
        // it" slider and the run follow.
        let control = page
            .client
            .find(Locator::Css(".inline-knob"))
            .await
            .expect("the control in the sentence");
        let before: f64 = control
            .attr("aria-valuenow")
            .await
            .expect("a value")
            .and_then(|v| v.parse().ok())
            .expect("a number");
        control.send_keys(&Key::Right.to_string()).await.expect("a key");
        control.send_keys(&Key::Right.to_string()).await.expect("a key");
        wait_for_step(&page, "km0", "capacity").await;
        let start = Instant::now();
        loop {
            let now = page
                .eval("return [document.querySelector('.inline-knob').getAttribute('aria-valuenow'), document.querySelector('.lesson-try input[type=range]').value]")
                .await;
            if now[0].as_str().and_then(|v| v.parse::<f64>().ok()) == Some(before + 2.0) {
                assert_eq!(now[1].as_str(), Some((before + 2.0).to_string().as_str()), "{now}");
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "the control did not move: {now}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        page.screenshot("lesson-live").await;
    })
    .await;
}

#[tokio::test]
async fn progress_is_kept_and_summed_up_at_the_lessons_end() {
    browser::run("lesson-progress", |page| async move {
        page.open("lesson.html?lesson=northwind", "[data-lesson-step]")
            .await;
        page.eval("localStorage.clear(); return null").await;
        page.client.refresh().await.expect("reload");
        wait_for_step(&page, "northwind", "the-incident").await;
        // The first choice, which the run does not bear out; played fast to its moment.
        page.eval(ANSWER_FIRST).await;
        page.eval(&browser::set_value("speed", "20")).await;
        let verdict = wait_for_verdict(&page).await;
        assert!(verdict.contains("Not this time"), "{verdict}");
        click(&page, "#lesson-next").await;
        wait_for_step(&page, "northwind", "shared-bulkhead").await;
        // Kept across a reload, and summed up at the end.
        page.open("lesson.html?lesson=northwind&step=end", "[id$='lesson-progress-summary']")
            .await;
        let summary = page.text("[id$='lesson-progress-summary']").await;
        assert_eq!(
            summary,
            "You reached 2 of the 5 steps. 1 of its 2 questions answered with a prediction, 0 \
             of them borne out by the run."
        );
        // On the projector the recap speaks to the class.
        page.open(
            "lesson.html?lesson=northwind&step=end&projector=on",
            "[id$='lesson-progress-summary']",
        )
        .await;
        let to_class = page.text("[id$='lesson-progress-summary']").await;
        assert!(to_class.starts_with("Together we reached 2 of the 5 steps."), "{to_class}");
        let kept = page
            .eval("return JSON.parse(localStorage.getItem('resilience-playground:progress:northwind'))")
            .await;
        assert_eq!(kept["reached"], serde_json::json!(["the-incident", "shared-bulkhead"]));
        assert_eq!(kept["predictions"][0]["right"], false);
        assert!(kept["predictions"][0]["said"].as_str().is_some_and(|s| !s.is_empty()));
        page.screenshot("lesson-progress").await;
    })
    .await;
}

#[tokio::test]
async fn a_challenge_is_judged_on_five_seeds_opens_tips_and_says_why_once_passed() {
    browser::run("lesson-challenge", |page| async move {
        page.open("lesson.html?lesson=challenges&step=timeout", "[id$='challenge-check']")
            .await;
        page.eval("localStorage.clear(); return null").await;
        // As it starts, the system is broken: the check fails and the first tip opens.
        click(&page, "[id$='challenge-check']").await;
        wait_for(&page, "[id$='challenge-verdict'][data-passed='false']").await;
        let tips = page
            .eval("return document.querySelectorAll(\"[id$='challenge-tips'] li\").length")
            .await;
        assert_eq!(tips, serde_json::json!(1));
        let goals = page.text("[id$='challenge-goals']").await;
        assert!(goals.contains("met on 0 of 5 seeds"), "{goals}");
        // A second failed check opens the second tip.
        click(&page, "[id$='challenge-check']").await;
        let start = Instant::now();
        while page
            .eval("return document.querySelectorAll(\"[id$='challenge-tips'] li\").length")
            .await
            != serde_json::json!(2)
        {
            assert!(start.elapsed() < Duration::from_secs(10), "no second tip");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // The cure, with the challenge's own control: passed on every seed, and why.
        page.eval(&browser::set_value("timeout", "300")).await;
        let start = Instant::now();
        while page.text("[id$='challenge-goals']").await.contains("met on") {
            assert!(start.elapsed() < Duration::from_secs(10), "the old check still shows");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        click(&page, "[id$='challenge-check']").await;
        wait_for(&page, "[id$='challenge-verdict'][data-passed='true']").await;
        let passed = page.text("[id$='challenge-verdict']").await;
        assert!(passed.contains("Passed on your run and 4 more seeds"), "{passed}");
        assert!(passed.contains("A timeout bounds"), "{passed}");
        let goals = page.text("[id$='challenge-goals']").await;
        assert_eq!(goals.matches("met on 5 of 5 seeds").count(), 2, "{goals}");
        let kept = page
            .eval("return JSON.parse(localStorage.getItem('resilience-playground:progress:challenges')).challenges")
            .await;
        assert_eq!(kept, serde_json::json!(["timeout"]));
        page.screenshot("lesson-challenge").await;
        // Back on a phone (a reload, as a link or the offline file opens it): the step comes
        // back passed, with the settings that passed it, marked in the step list.
        browser::emulate_phone(&page.client, 390, 844).await;
        page.open("lesson.html?lesson=challenges&step=timeout", "[id$='challenge-check']")
            .await;
        wait_for(&page, "[id$='challenge-verdict'][data-passed='true']").await;
        let back = page
            .eval(
                "return [document.getElementById('timeout').value,
                         document.querySelector('[id$=\"lesson-pick\"] option:checked').textContent,
                         document.querySelector('.challenge-badge') ? document.querySelector('.challenge-badge').textContent : null]",
            )
            .await;
        assert_eq!(back[0], "300", "{back}");
        assert!(back[1].as_str().unwrap().ends_with('✓'), "{back}");
        assert!(back[2].as_str().is_some_and(|b| b.contains("passed")), "{back}");
        page.eval("document.querySelector('[id$=\"challenge-verdict\"]').scrollIntoView(); return null")
            .await;
        page.screenshot("phone-challenge-passed").await;
        // Try again: the step's own settings, the pass still counted.
        click(&page, "[id$='challenge-again']").await;
        let start = Instant::now();
        while page.eval("return !!document.querySelector(\"[id$='challenge-verdict']\")").await
            == serde_json::json!(true)
        {
            assert!(start.elapsed() < Duration::from_secs(10), "the pass still shows");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let again = page
            .eval(
                "return [document.getElementById('timeout').value,
                         document.querySelector('[id$=\"lesson-pick\"] option:checked').textContent]",
            )
            .await;
        assert_ne!(again[0], "300", "{again}");
        let focus = page
            .eval("return document.activeElement && document.activeElement.id")
            .await;
        assert!(
            focus.as_str().is_some_and(|id| id.ends_with("lesson-step-title")),
            "after Try again the focus is on the step: {focus}"
        );
        assert!(again[1].as_str().unwrap().ends_with('✓'), "{again}");
    })
    .await;
}

/// Presses Tab until the element with the focus matches `css` (at most 80 times).
async fn tab_to(page: &browser::Page, css: &str) {
    let matches =
        format!("return !!document.activeElement && document.activeElement.matches({css:?})");
    for _ in 0..80 {
        if page.eval(&matches).await == serde_json::json!(true) {
            return;
        }
        browser::press_keys(page, &[Key::Tab.into()]).await;
    }
    let at = page
        .eval(
            "return document.activeElement ? document.activeElement.outerHTML.slice(0, 120) : null",
        )
        .await;
    panic!("Tab never reached {css}; the focus is on {at}");
}

#[tokio::test]
async fn a_prediction_an_inline_control_and_a_challenge_need_no_mouse() {
    browser::run("lesson-keyboard", |page| async move {
        page.open(
            "lesson.html?lesson=km0&step=capacity",
            "[id$='lesson-number']",
        )
        .await;
        // The question: Tab to the answer, type it, Enter.
        tab_to(&page, "[id$='lesson-number']").await;
        browser::press_keys(&page, &['6', '0', '0', Key::Enter.into()]).await;
        page.eval(&browser::set_value("speed", "20")).await;
        let verdict = wait_for_verdict(&page).await;
        assert!(verdict.contains("600"), "{verdict}");
        // The control in the sentence: Tab to it, step it with the arrows.
        tab_to(&page, ".inline-knob").await;
        let before = page
            .eval("return document.querySelector('.inline-knob').getAttribute('aria-valuenow')")
            .await;
        browser::press_keys(&page, &[Key::Right.into()]).await;
        let start = Instant::now();
        while page
            .eval("return document.querySelector('.inline-knob').getAttribute('aria-valuenow')")
            .await
            == before
        {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the arrow did not move it"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        wait_for_step(&page, "km0", "capacity").await;

        // A challenge: Tab to its control's number, type the cure, Tab on, Tab to Check, Enter.
        page.open(
            "lesson.html?lesson=challenges&step=timeout",
            "[id$='challenge-check']",
        )
        .await;
        tab_to(&page, "[id='timeout-number'], [id$='-timeout-number']").await;
        // Select what is there (Home, then Shift+End), type the cure, and Tab on.
        {
            use fantoccini::actions::{InputSource, KeyAction, KeyActions};
            let select_all = KeyActions::new("keyboard".into())
                .then(KeyAction::Down {
                    value: Key::Home.into(),
                })
                .then(KeyAction::Up {
                    value: Key::Home.into(),
                })
                .then(KeyAction::Down {
                    value: Key::Shift.into(),
                })
                .then(KeyAction::Down {
                    value: Key::End.into(),
                })
                .then(KeyAction::Up {
                    value: Key::End.into(),
                })
                .then(KeyAction::Up {
                    value: Key::Shift.into(),
                });
            page.client
                .perform_actions(select_all)
                .await
                .expect("the field's text is selected");
        }
        browser::press_keys(&page, &['3', '0', '0', Key::Tab.into()]).await;
        tab_to(&page, "[id$='challenge-check']").await;
        browser::press_keys(&page, &[Key::Enter.into()]).await;
        wait_for(&page, "[id$='challenge-verdict'][data-passed='true']").await;
        let sent_mouse = page.eval("return window.__resilienceMouse === true").await;
        assert_eq!(sent_mouse, serde_json::json!(false));
    })
    .await;
}

/// Each page's module holds what its page shows. The lesson page has no paste box, so its
/// module holds no YAML reader: the page reads a pasted block at its edge
/// (`Action::paste_resilience4j`), not in the settings' reducer, which every module links. Nor
/// does it show the metastability explorer, so it exports no `metastabilityCell` for its
/// worker. The playground's module has the YAML reader; its explorers come from a module of
/// their own.
#[test]
fn the_lesson_pages_module_holds_no_yaml_reader_and_no_explorer() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let holds = |file: &str, text: &str| {
        let bytes =
            std::fs::read(dist.join(file)).unwrap_or_else(|e| panic!("dist/ has {file}: {e}"));
        bytes.windows(text.len()).any(|w| w == text.as_bytes())
    };
    for (module, playground) in [("lesson-page", false), ("playground-page", true)] {
        // Envoy's reader serves `cascade --envoy` alone: neither page's module holds it.
        let envoy = "is not a condition Envoy knows";
        assert!(
            !holds(&format!("{module}_bg.wasm"), envoy),
            "{module} and Envoy's reader"
        );
        for message in [
            "not valid YAML",
            "a sequence cannot start on its key's line",
        ] {
            let wasm = format!("{module}_bg.wasm");
            assert_eq!(
                holds(&wasm, message),
                playground,
                "{wasm} and the YAML reader's {message:?}"
            );
        }
    }
    // The four libraries' readers (Envoy's here) come with the libraries' comparison alone:
    // its own module and the whole one hold them, the explorers' and the charts' do not.
    for (module, readers) in [
        ("widget-libraries", true),
        ("resilience-playground", true),
        ("widget-explorers", false),
        ("widget-charts", false),
        ("widget-lessons", false),
    ] {
        assert_eq!(
            holds(
                &format!("{module}_bg.wasm"),
                "is not a condition Envoy knows"
            ),
            readers,
            "{module} and Envoy's reader"
        );
    }
    // The explorer's worker runs the module that drew it: the explorers' one (which the
    // playground's page fetches when an explorer starts) or the whole one, never a page's own.
    for (module, explorer) in [
        ("lesson-page", false),
        ("playground-page", false),
        ("widget-charts", false),
        ("widget-explorers", true),
        ("widget-libraries", false),
        ("widget-lessons", false),
        ("resilience-playground", true),
    ] {
        let glue = format!("{module}.js");
        assert_eq!(
            holds(&glue, "metastabilityCell"),
            explorer,
            "{glue} and the explorer's metastabilityCell"
        );
    }
}

/// The shipped lessons are data beside the page: no wasm holds any of their sentences, the
/// lesson page fetches `lessons/*.md`, and a host without one of them gets a message naming
/// the file instead of a blank page.
#[tokio::test]
async fn the_lessons_are_files_the_page_fetches() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let modules = ["lesson-page", "playground-page", "resilience-playground"];
    for (module, file) in modules
        .iter()
        .flat_map(|m| ["km0", "northwind", "challenges", "zoo"].map(|f| (m, f)))
    {
        let wasm = std::fs::read(dist.join(format!("{module}_bg.wasm")))
            .unwrap_or_else(|e| panic!("dist/ has {module}'s wasm: {e}"));
        let path = format!("{}/lessons/{file}.md", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the lesson reads");
        // Each paragraph line of some length: none of them is in the wasm.
        let sentences: Vec<&str> = text
            .lines()
            .filter(|l| l.len() > 60 && !l.starts_with(['@', '#']))
            .collect();
        assert!(sentences.len() > 5, "{path}");
        for sentence in sentences {
            let inside = wasm
                .windows(sentence.len())
                .any(|w| w == sentence.as_bytes());
            assert!(!inside, "{module}'s wasm holds {path}'s line {sentence:?}");
        }
    }
    browser::run("lesson-files", |page| async move {
        page.open("lesson.html?lesson=northwind", "[data-lesson-step]")
            .await;
        wait_for_step(&page, "northwind", "the-incident").await;
        let fetched = page
            .eval(
                "return performance.getEntriesByType('resource').map(e => e.name)
                   .filter(n => n.includes('/lessons/')).map(n => n.split('/lessons/')[1]).sort()",
            )
            .await;
        assert_eq!(
            fetched,
            serde_json::json!(["challenges.md", "km0.md", "northwind.md", "zoo.md"])
        );
        // Asked for beside the wasm (a preload: lesson.html's for Kilometre Zero, start.js's
        // for the lesson the address names) only the lessons the first view reads; the
        // module asks for the others itself, after its first view.
        let initiators = page
            .eval(
                "return Object.fromEntries(performance.getEntriesByType('resource')
                   .filter(e => e.name.includes('/lessons/'))
                   .map(e => [e.name.split('/lessons/')[1], e.initiatorType]))",
            )
            .await;
        assert_eq!(
            initiators,
            serde_json::json!({"challenges.md": "fetch", "km0.md": "link",
                "northwind.md": "link", "zoo.md": "fetch"})
        );
    })
    .await;
    browser::run_without(
        "lesson-files-missing",
        &["lessons/km0.md"],
        |page| async move {
            page.open("lesson.html?lesson=km0", ".lesson-failure").await;
            let message = page.text(".lesson-failure").await;
            assert!(
                message.contains("lessons/km0.md could not be read (the server answered 404)"),
                "{message}"
            );
        },
    )
    .await;
}

/// The accessibility tree in reading order, as a screen reader walks it: a line per heading,
/// control, image, group and region (with its role and name, its inside left out), and per
/// piece of text elsewhere.
async fn transcript(page: &browser::Page) -> Vec<String> {
    let tree = page
        .devtools("Accessibility.getFullAXTree", serde_json::json!({}))
        .await;
    let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
    let by_id: std::collections::HashMap<&str, &serde_json::Value> = nodes
        .iter()
        .filter_map(|n| Some((n["nodeId"].as_str()?, n)))
        .collect();
    let mut lines = Vec::new();
    let mut stack: Vec<&serde_json::Value> = nodes.first().into_iter().collect();
    const WHOLE: [&str; 14] = [
        "heading",
        "button",
        "link",
        "slider",
        "image",
        "img",
        "checkbox",
        "radio",
        "combobox",
        "spinbutton",
        "textbox",
        "meter",
        "group",
        "region",
    ];
    while let Some(node) = stack.pop() {
        let role = node["role"]["value"].as_str().unwrap_or_default();
        let name = node["name"]["value"].as_str().unwrap_or_default().trim();
        let ignored = node["ignored"].as_bool().unwrap_or(false);
        let whole = !ignored && WHOLE.contains(&role) && !name.is_empty();
        if whole {
            lines.push(format!("{role}: {name}"));
        } else if !ignored && role == "StaticText" && !name.is_empty() {
            lines.push(name.to_string());
        }
        // A named group or region is read as a whole and then entered (its name is a label,
        // not its content); a control or an image is read as a whole only.
        if !whole || matches!(role, "group" | "region") {
            let children = node["childIds"].as_array().cloned().unwrap_or_default();
            for child in children.iter().rev() {
                if let Some(c) = child.as_str().and_then(|id| by_id.get(id)) {
                    stack.push(c);
                }
            }
        }
    }
    lines
}

/// A KM0 step as a screen reader reads it, once the class has predicted and the run has
/// played: the question and the verdict, the step's text, then each chart's description
/// (the breaker's band, the diagram, the load chart). Written to
/// `target/e2e/transcript-km0-circuit-breaker.md` (`docs/transcript-km0-circuit-breaker.md`
/// is a reviewed copy).
#[tokio::test]
async fn a_km0_step_reads_in_order_from_the_accessibility_tree() {
    browser::run("lesson-transcript", |page| async move {
        let here = named(Lesson::Km0, "circuit-breaker");
        page.open(
            &format!("lesson.html?{}", here.query()),
            "[id$='lesson-choice-0']",
        )
        .await;
        page.eval(&browser::set_value("speed", "20")).await;
        page.eval("document.getElementById('lesson-choice-0').focus()")
            .await;
        press(&page, Key::Enter).await;
        wait_for_verdict(&page).await;
        let start = Instant::now();
        while page.text("#play").await.contains("Pause") {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the step did not play"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let lines = transcript(&page).await;
        let text = lines.join("\n");
        let path = browser::artefacts_dir().join("transcript-km0-circuit-breaker.md");
        std::fs::write(&path, format!("{text}\n")).expect("the transcript is written");
        let position = |start: &str| {
            lines
                .iter()
                .position(|l| l.starts_with(start))
                .unwrap_or_else(|| panic!("no line starts with {start:?}:\n{text}"))
        };
        let title = position("heading: The circuit breaker stops calling");
        let verdict = position("You said");
        let band = position("image: The breaker's state over time: CLOSED from 0.0 s to ");
        let diagram = position("image: Circuit breaker state diagram: OPEN since ");
        let load = position("image: Requests per second by outcome");
        assert!(title < verdict, "{text}");
        assert!(
            band < diagram && band < load,
            "the timeline before the views:\n{text}"
        );
        assert!(
            lines[load].contains("Load in the second to "),
            "{}",
            lines[load]
        );
        for group in [
            "group: The breaker's states: the arrow keys",
            "group: Load over time: the arrow keys",
        ] {
            position(group);
        }
    })
    .await;
}

/// A student with a screen reader: answering with the keyboard leaves the focus on what
/// replaced the question (the answer, then its verdict), not on the page; while the step
/// plays, each "What to notice" sentence is said through the live region as the run reaches
/// it, not only the timeline's events.
#[tokio::test]
async fn an_answer_keeps_the_focus_and_what_to_notice_is_said() {
    browser::run("lesson-said", |page| async move {
        let here = named(Lesson::Km0, "circuit-breaker");
        page.open(
            &format!("lesson.html?{}", here.query()),
            "[id$='lesson-choice-0']",
        )
        .await;
        page.eval(
            "window.heard = [];
             const live = document.querySelector('[id$=\"announcements\"][aria-live]');
             new MutationObserver(() => { if (live.textContent) window.heard.push(live.textContent); })
               .observe(live, { childList: true, characterData: true, subtree: true });
             document.getElementById('lesson-choice-0').focus();
             return null;",
        )
        .await;
        press(&page, Key::Enter).await;
        let focus = "const a = document.activeElement;
             return [a ? a.tagName : null, !!(a && a.closest('.lesson-prediction'))];";
        let start = Instant::now();
        let mut focused = page.eval(focus).await;
        while focused[1] != true && start.elapsed() < Duration::from_secs(5) {
            tokio::time::sleep(Duration::from_millis(50)).await;
            focused = page.eval(focus).await;
        }
        assert_eq!(focused[1], true, "the focus fell to {focused}");
        wait_for_verdict(&page).await;
        let focused = page.eval(focus).await;
        assert_eq!(focused[1], true, "after the verdict, the focus is at {focused}");
        // The step played at its own pace to its moment: the sentences were said as it went.
        let start = Instant::now();
        while page.text("#play").await.contains("Pause") {
            assert!(start.elapsed() < Duration::from_secs(40), "the step did not stop");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let shown: Vec<String> = serde_json::from_value(
            page.eval("return [...document.querySelectorAll('[id$=\"lesson-notices\"] li')].map((li) => li.textContent)")
                .await,
        )
        .unwrap();
        let heard: Vec<String> = serde_json::from_value(page.eval("return window.heard").await).unwrap();
        assert!(!shown.is_empty(), "the step notices something");
        // Said as the run reached it: the same words, its figures then.
        let words = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .map(|w| w.chars().filter(|c| c.is_alphabetic()).collect::<String>())
                .filter(|w| !w.is_empty())
                .take(6)
                .collect()
        };
        let said = |sentence: &String| heard.iter().any(|h| words(h) == words(sentence));
        assert!(shown.iter().any(said), "shown {shown:?}, heard {heard:?}");
    })
    .await;
}

/// Presses PageDown, as a clicker sends it, until the lesson leaves the step called `name`
/// (a question passed, the run played to its moment, then the next step); checks that the
/// run reached the step's moment before it left, and returns how many presses it took.
async fn advance_to(page: &browser::Page, lesson: Lesson, name: &str) -> usize {
    use resilience_playground::sim::trace::BUCKET;
    let moment = StepRef::named(lesson, name).unwrap().step().moment() / BUCKET;
    let state = "const s = document.querySelector('[data-lesson-step]');
         const scrub = document.getElementById('scrub');
         return [s ? s.dataset.stepName : 'end', scrub ? Number(scrub.value) : -1,
                 (document.getElementById('play') || {}).textContent || ''];";
    let mut furthest = 0;
    for presses in 1..=6 {
        browser::press_keys(page, &[Key::PageDown.into()]).await;
        let start = Instant::now();
        loop {
            let now = page.eval(state).await;
            if now[0] != name {
                assert!(
                    furthest >= moment,
                    "{name} left at {furthest} of {moment} (tenths of a second)"
                );
                return presses;
            }
            furthest = furthest.max(now[1].as_u64().unwrap_or(0));
            // Paused again (at the moment, or showing a question passed): the next press.
            if now[2].as_str().is_some_and(|t| t.contains("Play"))
                && start.elapsed() > Duration::from_millis(300)
            {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{name}: stuck at {now}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    panic!("{name}: six presses of PageDown did not leave the step");
}

/// A lecturer with only a clicker: PageDown drives all of KM0 and Northwind, every question
/// passed through, every step played to its moment before the next, to the recap; PageUp goes
/// back, each step where the class left it, at the lesson's speed.
#[tokio::test]
async fn a_clicker_drives_a_whole_lesson_with_pagedown_and_back_with_pageup() {
    browser::run("lesson-clicker", |page| async move {
        for lesson in [Lesson::Km0, Lesson::Northwind] {
            page.open(
                &format!("lesson.html?lesson={}&projector=on", lesson.key()),
                "[data-lesson-step]",
            )
            .await;
            page.eval("localStorage.clear(); return null").await;
            page.eval(&browser::set_value("speed", "20")).await;
            let mut presses = 0;
            for step in lesson.steps() {
                wait_for_step(&page, lesson.key(), step.name).await;
                presses += advance_to(&page, lesson, step.name).await;
            }
            wait_for(&page, "#lesson-recap li").await;
            println!(
                "{}: {} steps and the recap in {presses} presses of PageDown",
                lesson.key(),
                lesson.steps().len()
            );
            // Back: the last step where the class left it (at its moment), at 20x still.
            browser::press_keys(&page, &[Key::PageUp.into()]).await;
            let last = lesson.steps()[lesson.steps().len() - 1];
            wait_for_step(&page, lesson.key(), last.name).await;
            let back = page
                .eval("return [Number(document.getElementById('scrub').value), document.getElementById('speed').value]")
                .await;
            use resilience_playground::sim::trace::BUCKET;
            assert_eq!(back[0].as_u64(), Some(last.moment() / BUCKET), "{back}");
            assert_eq!(back[1], "20", "{back}");
        }
    })
    .await;
}

/// The pages the page prints on paper `width` x `height` inches (Chromium's PDF, its pages
/// counted).
async fn printed_pages(page: &browser::Page, width: f64, height: f64) -> usize {
    let pdf = page
        .devtools(
            "Page.printToPDF",
            serde_json::json!({"paperWidth": width, "paperHeight": height}),
        )
        .await;
    let data = pdf["data"].as_str().expect("a PDF");
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .unwrap();
    let text = String::from_utf8_lossy(&bytes);
    text.matches("/Type /Page\n").count()
        + text.matches("/Type /Page\r").count()
        + text.matches("/Type /Page ").count()
        + text.matches("/Type /Page>").count()
        + text.matches("/Type/Page/").count()
        + text.matches("/Type/Page>").count()
}

/// What the verdict says after the two rounds typed below, as the host reads the step's run.
fn host_outcome(here: StepRef) -> String {
    let (host_page, _) = here.step().page();
    let (revealed, fact) = here.step().reveal(&host_page).expect("a run");
    assert_eq!(revealed.right, vec![2], "the lesson's run: more than 500");
    let mut votes = StepVotes::new("slow-inventory");
    votes.rounds = vec![
        Round {
            counts: vec![Some(30), Some(20), Some(10)],
            shown: true,
            ..Round::default()
        },
        Round {
            counts: vec![Some(5), Some(15), Some(40)],
            shown: true,
            ..Round::default()
        },
    ];
    votes.outcome(&here.step().question.unwrap(), &fact, &revealed)
}

/// The teacher's votes, in the order typed, for the choices of a round.
async fn type_votes(page: &browser::Page, votes: &[&str]) {
    for (i, v) in votes.iter().enumerate() {
        page.eval(&browser::set_value(&format!("lesson-votes-{i}"), v))
            .await;
    }
}

/// Peer instruction on the projector: with the class vote on, a question takes the counts of
/// hands per choice in rounds (a bad count refused, naming its field), shows each round's
/// spread without the answer, plays nothing until the reveal, and at the step's moment names
/// the run's figure and each round's share that was right. The rounds survive a reload, the
/// recap offers them as CSV, and another lesson keeps its own.
#[tokio::test]
async fn a_class_votes_in_rounds_and_the_reveal_names_each_rounds_share() {
    browser::run("lesson-vote", |page| async move {
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        let here = named(Lesson::Km0, "slow-inventory");
        let address = format!("lesson.html?{}&projector=on&vote=on", here.query());
        page.open(&address, "[id$='lesson-votes-2']").await;
        let names = "return [...document.querySelectorAll('.vote-count')].map(i => i.getAttribute('aria-label'))";
        assert_eq!(
            page.eval(names).await,
            serde_json::json!(["Votes for A", "Votes for B", "Votes for C"])
        );
        assert_eq!(
            page.eval("return document.getElementById('lesson-vote-switch').checked").await,
            serde_json::json!(true)
        );
        // No choice plays the run: there is none to click, and space does nothing.
        assert_eq!(
            page.eval("return document.querySelectorAll('.lesson-choice').length").await,
            serde_json::json!(0)
        );
        type_votes(&page, &["30", "20", "10"]).await;
        page.eval("document.getElementById('lesson-step-title').focus()")
            .await;
        press(&page, Key::Space).await;
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert_eq!(page.text("#clock strong").await, "0.0 s", "held until the reveal");
        // A bad count is refused, naming its field; the field keeps its last good value.
        for bad in ["-3", "2.5", "twenty", "10001"] {
            let kept = page.eval(&browser::set_value("lesson-votes-1", bad)).await;
            assert_eq!(kept, serde_json::json!("20"), "{bad}");
            let problem = page.text("#lesson-vote-problem").await;
            assert!(problem.starts_with("Votes for B:") && problem.contains("0 to 10,000"), "{problem}");
        }
        // The spread, without the answer.
        click(&page, "#lesson-vote-show").await;
        wait_for(&page, "td.vote-round-1 .vote-bar-label").await;
        let bars = "return [...document.querySelectorAll(SEL + ' .vote-bar-label')].map(b => b.textContent)";
        let spread = |n: usize| bars.replace("SEL", &format!("'td.vote-round-{n}'"));
        assert_eq!(
            page.eval(&spread(1)).await,
            serde_json::json!(["30 of 60: 50%", "20 of 60: 33%", "10 of 60: 17%"])
        );
        assert_eq!(
            page.eval("return document.querySelectorAll('.lesson-vote .right, .lesson-vote .wrong, .lesson-verdict').length").await,
            serde_json::json!(0),
            "nothing marks the right answer"
        );
        // Round 2 with empty fields, round 1 still on screen.
        click(&page, "#lesson-vote-again").await;
        wait_for(&page, "td.vote-round-2 .vote-count").await;
        assert_eq!(
            page.eval("return [...document.querySelectorAll('.vote-count')].map(i => i.value)").await,
            serde_json::json!(["", "", ""])
        );
        assert!(page.text("#lesson-vote-title").await.ends_with("round 2"));
        type_votes(&page, &["5", "15", "40"]).await;
        click(&page, "#lesson-vote-show").await;
        wait_for(&page, "td.vote-round-2 .vote-bar-label").await;
        assert_eq!(page.text("#clock strong").await, "0.0 s");
        page.screenshot("lesson-vote-two-rounds-1920").await;
        // The question alone, for docs/teaching.md.
        let question = page.client.find(Locator::Css(".lesson-vote")).await.expect("the vote");
        let png = question.screenshot().await.expect("a screenshot of the vote");
        std::fs::write(browser::artefacts_dir().join("lesson-vote-question.png"), png)
            .expect("write the screenshot");
        // A reload shows the rounds again.
        page.open(&address, "td.vote-round-2 .vote-bar-label").await;
        assert_eq!(
            page.eval(&spread(2)).await,
            serde_json::json!(["5 of 60: 8%", "15 of 60: 25%", "40 of 60: 67%"])
        );
        assert_eq!(page.eval(&spread(1)).await.as_array().map(Vec::len), Some(3));
        // While the class votes, the join code opens the answer cards.
        let join = page.eval("return document.getElementById('join-link').textContent").await;
        assert!(join.as_str().unwrap_or_default().ends_with("&cards=on"), "{join}");
        // The reveal plays the run; at the moment, the verdict quotes it and both rounds.
        page.eval(&browser::set_value("speed", "5")).await;
        click(&page, "#lesson-vote-reveal").await;
        let want = host_outcome(here);
        assert!(want.contains("Round 1: 10 of 60 (17%) chose C; round 2: 40 of 60 (67%)."), "{want}");
        let start = Instant::now();
        loop {
            let got = page.eval("const v = document.getElementById('lesson-vote-outcome'); return v ? v.textContent : null").await;
            if got.as_str().is_some() {
                assert_eq!(got, serde_json::json!(want));
                break;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "no outcome");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(page.text("#clock strong").await, clock(here.step().moment(), None));
        page.screenshot("lesson-vote-revealed-1920").await;
        fits_both_projector_screens(&page).await;
        // A revealed step comes back revealed; clearing its votes asks afresh, the run at 0.
        page.open(&address, "#lesson-vote-outcome").await;
        click(&page, "#lesson-vote-clear").await;
        wait_for(&page, "[id$='lesson-votes-0']").await;
        assert_eq!(
            page.eval("return [...document.querySelectorAll('.vote-count')].map(i => i.value)").await,
            serde_json::json!(["", "", ""])
        );
        assert!(page.text("#lesson-vote-title").await.ends_with("round 1"));
        assert_eq!(page.text("#clock strong").await, "0.0 s");
        type_votes(&page, &["30", "20", "10"]).await;
        click(&page, "#lesson-vote-again").await;
        type_votes(&page, &["5", "15", "40"]).await;
        click(&page, "#lesson-vote-reveal").await;
        wait_for(&page, "#lesson-vote-outcome").await;
        // The recap offers the votes as CSV; another lesson keeps its own (none).
        page.open("lesson.html?lesson=km0&step=end&vote=on", "#lesson-votes-download").await;
        let csv = page
            .eval("const a = document.getElementById('lesson-votes-download');
                   return [a.getAttribute('download'), decodeURIComponent(a.href.split(',').slice(1).join(','))]")
            .await;
        assert_eq!(csv[0], serde_json::json!("votes-km0.csv"));
        let text = csv[1].as_str().unwrap_or_default();
        for row in [
            "lesson,step,round,choice,votes,right",
            "km0,slow-inventory,1,A,30,no",
            "km0,slow-inventory,1,C,10,yes",
            "km0,slow-inventory,2,C,40,yes",
        ] {
            assert!(text.lines().any(|l| l == row), "no row {row} in {text}");
        }
        page.open("lesson.html?lesson=northwind&step=end&vote=on", "[data-lesson-step='end']").await;
        assert_eq!(
            page.eval("return !!document.getElementById('lesson-votes-download')").await,
            serde_json::json!(false)
        );
        // A number question takes the class's guesses as a list; the verdict counts those
        // within its tolerance.
        let capacity = named(Lesson::Km0, "capacity");
        page.open(&format!("lesson.html?{}&vote=on", capacity.query()), "[id$='lesson-vote-guesses']").await;
        let kept = page.eval(&browser::set_value("lesson-vote-guesses", "300, lots")).await;
        assert_eq!(kept, serde_json::json!(""));
        let problem = page.text("#lesson-vote-problem").await;
        assert!(problem.starts_with("The class's guesses, in requests:"), "{problem}");
        page.eval(&browser::set_value("lesson-vote-guesses", "300, 600, 620, 1000")).await;
        page.eval(&browser::set_value("speed", "20")).await;
        click(&page, "#lesson-vote-reveal").await;
        wait_for(&page, "#lesson-vote-outcome").await;
        let outcome = page.text("#lesson-vote-outcome").await;
        assert!(outcome.contains("Round 1: 2 of 4 (50%) guesses within"), "{outcome}");
        // A wrong value is named, and the lesson shows without the class vote.
        let breaker = named(Lesson::Km0, "circuit-breaker");
        page.open(&format!("lesson.html?{}&vote=yes", breaker.query()), "[id$='lesson-choice-0']").await;
        let notice = page.text(".lesson-page-notices").await;
        assert!(notice.contains("vote: `yes` is not one of on or off"), "{notice}");
        assert_eq!(
            page.eval("return [!!document.querySelector('.vote-table'), document.getElementById('lesson-vote-switch').checked]").await,
            serde_json::json!([false, false])
        );
    })
    .await;
}
