//! End-to-end tests of the built page (`dist/`) in headless Chromium. Run by `make test`
//! (`cargo test --features e2e --test e2e`) after `trunk build --release`.

#[path = "support/browser.rs"]
mod browser;

use fantoccini::key::Key;
use fantoccini::Locator;

/// A script that hashes the pixels of the first canvas matching a selector.
fn canvas_hash(css: &str) -> String {
    format!(
        "const c = document.querySelector('{css}');
         if (!c) return null;
         const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
         let h = 2166136261;
         for (let i = 0; i < d.length; i += 7) {{ h = Math.imul(h ^ d[i], 16777619) >>> 0; }}
         return h;"
    )
}

#[tokio::test]
async fn the_page_loads_and_the_slider_redraws_the_histogram() {
    browser::run("shell", |page| async move {
        page.open("", "#inventory-p99").await;
        let title = page.eval("return document.title").await;
        assert!(title
            .as_str()
            .unwrap_or_default()
            .contains("Resilience Playground"));
        for region in [
            "Controls",
            "Timeline",
            "Circuit breaker",
            "Latency of calls to inventory",
        ] {
            let headings = page
                .eval("return [...document.querySelectorAll('h2')].map(h => h.textContent)")
                .await;
            assert!(
                headings.as_array().unwrap().iter().any(|h| h == region),
                "region {region} missing: {headings}"
            );
        }
        let p99_before = page.text("#readout-p99").await;
        let pixels_before = page.eval(&canvas_hash("canvas.chart")).await;
        assert!(
            pixels_before.is_number(),
            "the histogram canvas was not drawn"
        );
        page.screenshot("shell-before").await;

        // Drag the slider to its far end with the keyboard, as a student could.
        let slider = page
            .client
            .find(Locator::Css("#inventory-p99"))
            .await
            .unwrap();
        slider.send_keys(&Key::End.to_string()).await.unwrap();

        let p99_after = page.text("#readout-p99").await;
        let pixels_after = page.eval(&canvas_hash("canvas.chart")).await;
        assert_ne!(
            p99_before, p99_after,
            "the p99 readout did not follow the slider"
        );
        assert_ne!(pixels_before, pixels_after, "the histogram was not redrawn");
        let field = page
            .eval("return document.querySelector('#inventory-p99-number').value")
            .await;
        assert_eq!(field, "4000", "the number field did not follow the slider");
        page.screenshot("shell-after").await;
    })
    .await;
}

#[tokio::test]
async fn a_value_typed_out_of_range_is_clamped_with_a_notice() {
    browser::run("clamp", |page| async move {
        page.open("", "#inventory-p99-number").await;
        let field = page
            .client
            .find(Locator::Css("#inventory-p99-number"))
            .await
            .unwrap();
        field.clear().await.unwrap();
        field
            .send_keys(&format!("99999{}", Key::Tab))
            .await
            .unwrap();
        let notice = page.text(".control .notice").await;
        assert!(notice.contains("between 40 and 4000"), "notice: {notice}");
        assert_eq!(page.text("#readout-p99").await.is_empty(), false);
        let value = page
            .eval("return document.querySelector('#inventory-p99-number').value")
            .await;
        assert_eq!(value, "4000");
    })
    .await;
}

#[tokio::test]
async fn the_favicon_is_served() {
    browser::run("favicon", |page| async move {
        page.open("", "#inventory-p99").await;
        let status = page
            .eval("return fetch('favicon.ico').then(r => r.status)")
            .await;
        assert_eq!(status, 200);
    })
    .await;
}
