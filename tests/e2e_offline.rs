//! End-to-end test of the single-file build for a classroom with no network:
//! `dist-single/resilience-playground.html` (written by `make dist-single`) is opened from disk
//! (`file://`), starts, and plays a preset to its end, with no request to any server; the same
//! file opens the KM0 lesson (`?lesson=km0`) and the exercises (`?exercises`), whose links lead
//! back into it. Saves `target/e2e/offline-single-file.png`, `offline-lesson.png` and
//! `offline-exercises.png`.

#[path = "support/browser.rs"]
mod browser;

use std::path::Path;
use std::time::{Duration, Instant};

use browser::set_value;
use fantoccini::Locator;

/// The single file's address, `file://...`.
fn single_file() -> String {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist-single/resilience-playground.html");
    assert!(
        file.is_file(),
        "{} is missing: build it with `make dist-single`",
        file.display()
    );
    format!("file://{}", file.display())
}

/// What the page loaded from anywhere but itself (nothing, for the single file).
const LOADED_FROM_ELSEWHERE: &str =
    "return performance.getEntriesByType('resource').map(e => e.name)
     .concat([...document.querySelectorAll('script[src], link[href]')].map(e => e.src || e.href));";

/// Waits until `script` returns true.
async fn wait_until(page: &browser::Page, script: &str, what: &str) {
    let started = Instant::now();
    while page.eval(script).await != serde_json::json!(true) {
        assert!(started.elapsed() < Duration::from_secs(30), "{what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn the_single_file_opens_from_disk_and_plays_a_preset() {
    let url = single_file();
    browser::run("offline-single-file", |page| async move {
        page.client.goto(&url).await.expect("the file opens");
        page.client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#play"))
            .await
            .expect("the playground starts from file://");
        // One file: no script, style or wasm comes from anywhere else.
        let outside = page.eval(LOADED_FROM_ELSEWHERE).await;
        assert_eq!(
            outside,
            serde_json::json!([]),
            "loaded from elsewhere: {outside}"
        );
        let modules = page
            .eval("return document.querySelectorAll('script[type=module]').length")
            .await;
        assert_eq!(modules, 0);
        page.eval(&set_value("scenario", "cb")).await;
        page.eval(&set_value("speed", "10")).await;
        page.client
            .find(Locator::Css("#play"))
            .await
            .expect("play")
            .click()
            .await
            .expect("click play");
        let started = Instant::now();
        loop {
            let clock = page.text("#clock strong").await;
            let total = page.text("#clock").await;
            if total.ends_with(&format!("/ {clock}")) && clock != "0.0 s" {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the cb preset did not play to its end: {total}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let opened = page.text("[id$='breaker-state'], #breaker-state").await;
        assert!(!opened.is_empty());
        page.screenshot("offline-single-file").await;
        // The metastability explorer computes on the page here, and says why in words (not the
        // browser's message about origins and file URLs).
        page.eval("document.getElementById('meta-start').click(); return null")
            .await;
        page.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#meta-engine-notice"))
            .await
            .expect("the explorer says where it computes");
        let notice = page.text("#meta-engine-notice").await;
        assert!(notice.contains("opened from a file"), "{notice}");
        assert!(
            !notice.contains("origin") && !notice.contains("file://"),
            "{notice}"
        );
        // On the stage, the file draws its join code itself: it has no QR module to fetch.
        page.client
            .goto(&format!("{url}?projector=on"))
            .await
            .expect("the file opens on the stage");
        page.client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#join-open"))
            .await
            .expect("the stage's join button");
        page.eval("document.getElementById('join-open').click(); return null")
            .await;
        wait_until(
            &page,
            "return document.querySelectorAll('#join-qr path').length === 1",
            "the file draws its join code",
        )
        .await;
        assert_eq!(
            page.eval(LOADED_FROM_ELSEWHERE).await,
            serde_json::json!([])
        );
    })
    .await;
}

#[tokio::test]
async fn the_single_file_carries_the_lessons_and_the_exercises() {
    let url = single_file();
    browser::run("offline-lesson", |page| async move {
        page.client
            .set_window_size(1366, 768)
            .await
            .expect("window size");
        // The playground's links lead to the lesson and the exercises inside the file.
        page.client.goto(&url).await.expect("the file opens");
        wait_until(&page, "return !!document.getElementById('play')", "no playground").await;
        let links = page
            .eval("return [...document.querySelectorAll('nav.pages a')].map(a => a.getAttribute('href'))")
            .await;
        assert_eq!(
            links,
            serde_json::json!([
                "resilience-playground.html?lesson=km0",
                "resilience-playground.html?exercises"
            ])
        );

        page.client
            .goto(&format!("{url}?lesson=km0"))
            .await
            .expect("the lesson opens");
        wait_until(
            &page,
            "const s = document.querySelector('[data-lesson-step]'); return !!s && s.dataset.lesson === 'km0';",
            "the KM0 lesson did not start from the file",
        )
        .await;
        assert_eq!(page.eval(LOADED_FROM_ELSEWHERE).await, serde_json::json!([]));
        // Its first step plays: shown without a prediction (which plays it), or by Play.
        page.eval(
            "const skip = document.querySelector(\"[id$='lesson-skip']\");
             (skip || document.getElementById('play')).click();
             return null;",
        )
        .await;
        wait_until(
            &page,
            "return document.querySelector('#clock strong').textContent !== '0.0 s'",
            "the lesson's run did not play",
        )
        .await;
        let open = page
            .eval("return document.getElementById('lesson-open-playground').getAttribute('href')")
            .await;
        assert!(
            open.as_str()
                .is_some_and(|href| href.starts_with("resilience-playground.html?preset=")),
            "{open}"
        );
        page.screenshot("offline-lesson").await;
        // The recap's links stay inside the file too.
        page.client
            .goto(&format!("{url}?lesson=km0&step=end"))
            .await
            .expect("the recap opens");
        wait_until(&page, "return !!document.querySelector(\"[id$='lesson-recap-next']\")", "no recap").await;
        let next = page
            .eval("return [...document.querySelectorAll(\"[id$='lesson-recap-next'] a\")].map(a => a.getAttribute('href'))")
            .await;
        assert_eq!(
            next,
            serde_json::json!([
                "resilience-playground.html?exercises",
                "resilience-playground.html?lesson=northwind&step=the-incident",
                "resilience-playground.html",
                "resilience-playground.html?lesson=km0&step=end&worksheet=on"
            ])
        );
        // The worksheet opens inside the file as well.
        page.client
            .goto(&format!("{url}?lesson=km0&step=end&worksheet=on"))
            .await
            .expect("the worksheet opens");
        wait_until(&page, "return document.querySelectorAll('.worksheet-step').length > 10", "no worksheet").await;

        // The exercises: four of them, each on its own instance, answering from the file.
        page.client
            .goto(&format!("{url}?exercises"))
            .await
            .expect("the exercises open");
        wait_until(
            &page,
            "return document.querySelectorAll(\"resilience-widget [id$='-run']\").length === 4",
            "the four exercises did not start from the file",
        )
        .await;
        assert_eq!(page.eval(LOADED_FROM_ELSEWHERE).await, serde_json::json!([]));
        page.eval(
            "const input = document.querySelector(\"#exercise-1 [id$='ex1-part-a1-input']\");
             input.value = '1050';
             input.dispatchEvent(new Event('input', { bubbles: true }));
             document.querySelector(\"#exercise-1 [id$='ex1-part-a1-check']\").click();
             return null;",
        )
        .await;
        wait_until(
            &page,
            "const v = document.querySelector(\"#exercise-1 [id$='ex1-part-a1-verdict']\");
             return !!v && v.dataset.verdict === 'right';",
            "exercise 1 (a1) did not judge 1050 ms right",
        )
        .await;
        page.eval("document.querySelector(\"#exercise-1 [id$='ex1-run']\").click(); return null")
            .await;
        wait_until(
            &page,
            "return !!document.querySelector('#exercise-1 .exercise-run-result')",
            "exercise 1's run gave no result",
        )
        .await;
        page.screenshot("offline-exercises").await;
    })
    .await;
}

/// `make dist` puts the offline file beside the pages (`dist/offline.html`), and each page's
/// footer links to it, so a teacher who copies `dist/` to a stick has it; the offline file
/// itself carries no such link.
#[test]
fn the_offline_file_is_in_dist_and_the_pages_link_to_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let offline = std::fs::read_to_string(root.join("dist/offline.html"))
        .expect("make dist writes dist/offline.html");
    assert!(offline.contains("data-one-file"), "the one-file page");
    assert!(
        offline.len() > 500_000,
        "with its module inlined: {} B",
        offline.len()
    );
    assert!(
        !offline.contains("class=\"page-footer\""),
        "no link to itself"
    );
    for page in ["index.html", "lesson.html", "exercises.html"] {
        let html = std::fs::read_to_string(root.join("dist").join(page)).unwrap();
        assert!(
            html.contains("href=\"offline.html\""),
            "{page} links the offline file"
        );
    }
}
