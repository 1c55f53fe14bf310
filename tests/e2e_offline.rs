//! End-to-end test of the single-file build for a classroom with no network:
//! `dist-single/resilience-playground.html` (written by `make dist-single`) is opened from disk
//! (`file://`), starts, and plays a preset to its end, with no request to any server.
//! Saves `target/e2e/offline-single-file.png`.

#[path = "support/browser.rs"]
mod browser;

use std::path::Path;
use std::time::{Duration, Instant};

use browser::set_value;
use fantoccini::Locator;

#[tokio::test]
async fn the_single_file_opens_from_disk_and_plays_a_preset() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist-single/resilience-playground.html");
    assert!(
        file.is_file(),
        "{} is missing: build it with `make dist-single`",
        file.display()
    );
    let url = format!("file://{}", file.display());
    browser::run("offline-single-file", |page| async move {
        page.client.goto(&url).await.expect("the file opens");
        page.client
            .wait()
            .at_most(Duration::from_secs(30))
            .for_element(Locator::Css("#play"))
            .await
            .expect("the playground starts from file://");
        // One file: no script, style or wasm comes from anywhere else.
        let outside = page
            .eval(
                "return performance.getEntriesByType('resource').map(e => e.name)
                   .concat([...document.querySelectorAll('script[src], link[href]')].map(e => e.src || e.href));",
            )
            .await;
        assert_eq!(outside, serde_json::json!([]), "loaded from elsewhere: {outside}");
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
        page.eval("document.getElementById('meta-start').click(); return null").await;
        page.client
            .wait()
            .at_most(Duration::from_secs(20))
            .for_element(Locator::Css("#meta-engine-notice"))
            .await
            .expect("the explorer says where it computes");
        let notice = page.text("#meta-engine-notice").await;
        assert!(notice.contains("opened from a file"), "{notice}");
        assert!(!notice.contains("origin") && !notice.contains("file://"), "{notice}");
    })
    .await;
}
