//! The soak: the playground playing at 20x in a loop in headless Chromium, a preset change
//! every minute, for `SOAK_MINUTES` (30 unless set). Checks that the JS heap after garbage
//! collection ends within 10% of where it started, that frames keep a p95 under 20 ms, and
//! (the harness) that the console stays free of errors. Not part of `make test`: `make soak`.

#[path = "support/browser.rs"]
mod browser;

use std::time::{Duration, Instant};

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

/// Frame intervals counted so far, per 0.1 ms bucket (the last bucket: 500 ms and more).
/// Read once, at the end: every script result chromedriver sends back stays in the page's
/// heap (a minute of intervals as a list grew it by 45 KB a minute).
async fn frame_counts(page: &browser::Page) -> Vec<u64> {
    let value = page
        .eval("return Array.from(window.__soakFrames.all)")
        .await;
    serde_json::from_value(value).expect("a list of counts")
}

/// The interval (ms) at `p` (0..=1) of the frames `counts` holds (see [`frame_counts`]).
fn percentile(counts: &[u64], p: f64) -> f64 {
    let total: u64 = counts.iter().sum();
    let rank = ((total.saturating_sub(1)) as f64 * p).round() as u64;
    let mut seen = 0;
    for (bucket, &n) in counts.iter().enumerate() {
        seen += n;
        if seen > rank {
            return bucket as f64 / 10.0;
        }
    }
    0.0
}

/// Installs the soak's driver in the page: a requestAnimationFrame loop that counts each
/// frame's interval (in arrays made once, so the counting itself does not grow the heap) and,
/// in the same frame the run reaches its end (the play button says Play
/// again), presses Play, which starts the run over from 0. Playback so loops without a gap
/// (a 12 s run lasts 0.6 s at 20x), where a check once a second from the test would leave
/// the page idle most of the time.
const LOOP_DRIVER: &str = "const buckets = 5001;
     window.__soakFrames = { all: new Uint32Array(buckets), minute: new Uint32Array(buckets), last: null };
     window.__soakLoops = 0;
     const frame = now => {
       const f = window.__soakFrames;
       if (f.last !== null) {
         const b = Math.min(buckets - 1, Math.round((now - f.last) * 10));
         f.all[b]++; f.minute[b]++;
       }
       f.last = now;
       const play = document.getElementById('play');
       if (play && !play.textContent.includes('Pause')) { window.__soakLoops++; play.click(); }
       requestAnimationFrame(frame);
     };
     requestAnimationFrame(frame);";

/// How many times the driver has pressed Play.
async fn loops(page: &browser::Page) -> u64 {
    page.eval("return window.__soakLoops")
        .await
        .as_u64()
        .unwrap_or(0)
}

/// The frames counted since the last call and their interval p95 (ms), computed in the page
/// so that only two numbers come back.
async fn minute_frames(page: &browser::Page) -> (u64, f64) {
    let value = page
        .eval(
            "const m = window.__soakFrames.minute;
             let n = 0; for (const c of m) n += c;
             const rank = Math.round(Math.max(0, n - 1) * 0.95);
             let seen = 0, p95 = 0;
             for (let b = 0; b < m.length; b++) { seen += m[b]; if (seen > rank) { p95 = b / 10; break; } }
             m.fill(0);
             return [n, p95];",
        )
        .await;
    (
        value[0].as_u64().unwrap_or(0),
        value[1].as_f64().unwrap_or(0.0),
    )
}

/// True while the page is playing.
async fn playing(page: &browser::Page) -> bool {
    page.text("#play").await.contains("Pause")
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
        page.eval(LOOP_DRIVER).await;
        // The start is taken once the page has looped for a few seconds (its first runs,
        // caches and closures made), then every minute after a preset change.
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(playing(&page).await, "the driver started playback");
        let start_heap = heap_after_gc(&page).await;
        let start_wasm = wasm_memory(&page).await;
        page.eval("window.__soakFrames.all.fill(0); window.__soakFrames.minute.fill(0);")
            .await;
        let start_loops = loops(&page).await;
        let began = Instant::now();
        let total = Duration::from_secs_f64(minutes * 60.0);
        let mut heaps = vec![start_heap];
        let mut minute = 0;
        let mut minute_loops = start_loops;
        while began.elapsed() < total {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let due = (began.elapsed().as_secs() / 60) as usize;
            if due > minute {
                minute = due;
                let (frames, p95) = minute_frames(&page).await;
                let looped = loops(&page).await;
                let preset = PRESETS[minute % PRESETS.len()];
                let before = PRESETS[(minute - 1) % PRESETS.len()];
                page.eval(&pick_preset(preset)).await;
                let heap = heap_after_gc(&page).await;
                println!(
                    "minute {minute}: {} runs of {before} played, {frames} frames, interval \
                     p95 {p95:.1} ms, load average {}; now {preset}, JS heap after GC {:.3} \
                     MB, wasm memory {:.1} MB",
                    looped - minute_loops,
                    load_average(),
                    heap / 1e6,
                    wasm_memory(&page).await / 1e6
                );
                minute_loops = looped;
                heaps.push(heap);
            }
        }
        let played = loops(&page).await - start_loops;
        // Back on the preset it started with, as at the start.
        page.eval(&pick_preset("cb")).await;
        tokio::time::sleep(Duration::from_secs(5)).await;
        assert!(playing(&page).await, "still playing at the end");
        let end_heap = heap_after_gc(&page).await;
        let end_wasm = wasm_memory(&page).await;
        // Read after the heap: the 5,001 counts sent back stay in the page's heap (about
        // 0.12 MB, which a soak that read them first counted as growth).
        let intervals = frame_counts(&page).await;
        let peak = heaps.iter().copied().fold(0.0, f64::max);
        println!(
            "soak {minutes} min, {played} runs played at 20x: JS heap after GC {:.3} MB at the \
             start, {:.3} MB at the end ({:+.1}%), peak {:.3} MB; wasm memory {:.1} -> {:.1} MB; \
             {} frames: interval median {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms; load average at the \
             end {}",
            start_heap / 1e6,
            end_heap / 1e6,
            (end_heap / start_heap - 1.0) * 100.0,
            peak / 1e6,
            start_wasm / 1e6,
            end_wasm / 1e6,
            intervals.iter().sum::<u64>(),
            percentile(&intervals, 0.5),
            percentile(&intervals, 0.95),
            percentile(&intervals, 0.99),
            percentile(&intervals, 1.0),
            load_average(),
        );
        page.screenshot("soak-end").await;
        // Every preset's run lasts at most a few seconds at 20x: a soak that played less than
        // once per 10 s measured an idle page.
        assert!(
            played as f64 >= minutes * 6.0,
            "only {played} runs played in {minutes} min: playback did not loop"
        );
        assert!(end_heap <= start_heap * 1.10, "the JS heap grew more than 10%");
        assert!(percentile(&intervals, 0.95) < 20.0, "frame interval p95 at 20 ms or more");
    })
    .await;
}

/// The machine's load averages over 1, 5 and 15 minutes (`/proc/loadavg`): the soak's frame
/// times depend on what else runs beside it.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// A script that picks `preset` in the scenario selector, as a user does.
fn pick_preset(preset: &str) -> String {
    format!(
        "const pick = document.getElementById('scenario');
         pick.value = '{preset}';
         pick.dispatchEvent(new Event('change', {{ bubbles: true }}));"
    )
}
