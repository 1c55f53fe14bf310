//! The soak: the playground playing at 20x in a loop in headless Chromium, a preset change
//! every minute, for `SOAK_MINUTES` (30 unless set). Checks that the JS heap after garbage
//! collection ends within 10% of where it started, that frames keep a p95 under 20 ms, and
//! (the harness) that the console stays free of errors. Not part of `make test`: `make soak`.

#[path = "support/browser.rs"]
mod browser;

use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::json;

/// Presets the soak goes through, one a minute.
const PRESETS: [&str; 5] = ["cb", "bulkhead", "saturday", "timeout", "none"];

/// The JS heap in use after a full garbage collection, in bytes.
async fn heap_after_gc(page: &browser::Page) -> f64 {
    page.devtools("HeapProfiler.collectGarbage", json!({}))
        .await;
    let usage = page.devtools("Runtime.getHeapUsage", json!({})).await;
    usage["usedSize"].as_f64().expect("usedSize")
}

/// The WebAssembly memory of the page's simulator, in bytes.
async fn wasm_memory(page: &browser::Page) -> f64 {
    page.eval("return window.resiliencePlaygroundMemory ? window.resiliencePlaygroundMemory.buffer.byteLength : 0")
        .await
        .as_f64()
        .unwrap_or(0.0)
}

/// Frame intervals (ms) since the last call, from a requestAnimationFrame loop in the page.
async fn frame_intervals(page: &browser::Page) -> Vec<f64> {
    let value = page
        .eval(
            "const t = window.__soakFrames; window.__soakFrames = t.slice(-1);
             const out = []; for (let i = 1; i < t.length; i++) out.push(t[i] - t[i - 1]);
             return out;",
        )
        .await;
    serde_json::from_value(value).expect("a list of intervals")
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

async fn play_if_stopped(page: &browser::Page) {
    if page.text("#play").await.contains("Play") {
        page.client
            .find(Locator::Css("#play"))
            .await
            .expect("the play button")
            .click()
            .await
            .expect("click play");
    }
}

#[tokio::test]
#[ignore = "30 minutes by default: run it with `make soak` (SOAK_MINUTES=2 make soak for a short one)"]
async fn soak_looped_playback_at_20x_with_a_preset_change_every_minute() {
    let minutes: f64 = std::env::var("SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(30.0);
    browser::run("soak", move |page| async move {
        page.open("index.html?speed=20", "#scrub").await;
        page.eval(
            "window.__soakFrames = [];
             const frame = now => { window.__soakFrames.push(now); requestAnimationFrame(frame); };
             requestAnimationFrame(frame);",
        )
        .await;
        play_if_stopped(&page).await;
        // The start is taken once the page has played for a few seconds (its first runs,
        // caches and closures made), then every minute after a preset change.
        tokio::time::sleep(Duration::from_secs(5)).await;
        let start_heap = heap_after_gc(&page).await;
        let start_wasm = wasm_memory(&page).await;
        frame_intervals(&page).await;
        let began = Instant::now();
        let total = Duration::from_secs_f64(minutes * 60.0);
        let mut intervals = Vec::new();
        let mut heaps = vec![start_heap];
        let mut minute = 0;
        while began.elapsed() < total {
            tokio::time::sleep(Duration::from_secs(1)).await;
            play_if_stopped(&page).await;
            let due = (began.elapsed().as_secs() / 60) as usize;
            if due > minute {
                minute = due;
                intervals.extend(frame_intervals(&page).await);
                let preset = PRESETS[minute % PRESETS.len()];
                page.eval(&format!(
                    "const pick = document.getElementById('scenario');
                     pick.value = '{preset}';
                     pick.dispatchEvent(new Event('change', {{ bubbles: true }}));"
                ))
                .await;
                play_if_stopped(&page).await;
                let heap = heap_after_gc(&page).await;
                println!(
                    "minute {minute}: preset {preset}, JS heap after GC {:.2} MB, wasm memory {:.1} MB",
                    heap / 1e6,
                    wasm_memory(&page).await / 1e6
                );
                heaps.push(heap);
                frame_intervals(&page).await;
            }
        }
        intervals.extend(frame_intervals(&page).await);
        // Back on the preset it started with, as at the start.
        page.eval(
            "const pick = document.getElementById('scenario');
             pick.value = 'cb'; pick.dispatchEvent(new Event('change', { bubbles: true }));",
        )
        .await;
        play_if_stopped(&page).await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        let end_heap = heap_after_gc(&page).await;
        let end_wasm = wasm_memory(&page).await;
        intervals.sort_by(f64::total_cmp);
        let peak = heaps.iter().copied().fold(0.0, f64::max);
        println!(
            "soak {minutes} min: JS heap after GC {:.2} MB at the start, {:.2} MB at the end \
             ({:+.1}%), peak {:.2} MB; wasm memory {:.1} -> {:.1} MB; {} frames: interval \
             median {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.1} ms",
            start_heap / 1e6,
            end_heap / 1e6,
            (end_heap / start_heap - 1.0) * 100.0,
            peak / 1e6,
            start_wasm / 1e6,
            end_wasm / 1e6,
            intervals.len(),
            percentile(&intervals, 0.5),
            percentile(&intervals, 0.95),
            percentile(&intervals, 0.99),
            intervals.last().copied().unwrap_or(0.0),
        );
        page.screenshot("soak-end").await;
        assert!(end_heap <= start_heap * 1.10, "the JS heap grew more than 10%");
        assert!(percentile(&intervals, 0.95) < 20.0, "frame interval p95 at 20 ms or more");
    })
    .await;
}
