//! Figures of the built page in headless Chromium, printed, never asserted: a benchmark, not a
//! test (these machines are shared, so read medians and ratios).
//!
//! `make measure-page` runs `page` (a slider moved: to the end of its task and to the next
//! paint, on the playground, with A/B on and on a lesson step; playback's frame intervals; the
//! jitter sweep's frames, then `explorer`: the metastability grid in its worker and on the
//! page's thread); `make measure-load` runs `load` (the time to the first drawn view on a slow
//! link, served plain and precompressed). Both serve `dist/` (`make dist` first).
//!
//! `cargo run --features e2e --example measure_page -- page|load|explorer [lesson=km0&step=NAME]`;
//! `... -- load [playground|lesson|course|exercises] [br]` measures some pages of `load` alone;
//! `... -- sliders [lesson=km0&step=NAME]` the three sliders and playback of `page` alone.

#[allow(dead_code)]
#[path = "../tests/support/browser.rs"]
mod browser;

use std::time::Duration;

use fantoccini::Locator;
use resilience_playground::sim::model::Profile;

/// Slider moves per measurement.
const MOVES: usize = 30;

/// `[task, paint]`: for each of `MOVES` inputs to the slider `id`, the milliseconds from the
/// input event to the end of the task that handles it, and to the next paint after it (the
/// first task after the next animation frame).
fn slider_script(id: &str) -> String {
    format!(
        "return (async () => {{
           const el = document.getElementById('{id}');
           const task = [], paint = [];
           const lo = Number(el.min), hi = Number(el.max), step = Number(el.step) || 1;
           for (let i = 0; i < {MOVES}; i++) {{
             const share = (i % 2 ? 0.7 : 0.3) + i / 1000;
             el.value = String(Math.round((lo + (hi - lo) * share) / step) * step);
             const t0 = performance.now();
             el.dispatchEvent(new Event('input', {{ bubbles: true }}));
             await new Promise(r => setTimeout(r, 0));
             task.push(performance.now() - t0);
             await new Promise(r => requestAnimationFrame(() => setTimeout(r, 0)));
             paint.push(performance.now() - t0);
             await new Promise(r => setTimeout(r, 50));
           }}
           return [task, paint];
         }})()"
    )
}

/// "median M ms, p90 P ms (min .. max, N)" of `values` (milliseconds).
fn summary(values: &serde_json::Value) -> String {
    let v = browser::sorted_millis(values);
    let n = v.len();
    if n == 0 {
        return "no figures".to_string();
    }
    let median = if n.is_multiple_of(2) {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    } else {
        v[n / 2]
    };
    let p90 = v[(n * 9).div_ceil(10) - 1];
    format!(
        "median {median:.2} ms, p90 {p90:.2} ms ({:.2} .. {:.2}, {n} moves)",
        v[0],
        v[n - 1]
    )
}

async fn slider(page: &browser::Page, what: &str, address: &str, id: &str) {
    page.open(address, &format!("#{id}")).await;
    let times = page.eval(&slider_script(id)).await;
    println!("{what}: slider {id} -> re-simulated and redrawn");
    for (name, list) in ["to the end of the task", "to the next paint"]
        .iter()
        .zip(times.as_array().cloned().unwrap_or_default())
    {
        println!("  {name}: {}", summary(&list));
    }
}

/// The cooldown slider on the playground, with A/B on and on the lesson step `step`; then
/// playback's frames.
async fn sliders(page: &browser::Page, step: &str) {
    slider(page, "playground", "?preset=cb&t=12", "cooldown").await;
    slider(
        page,
        "playground with A/B",
        "?preset=cb&ab=on&t=12",
        "cooldown",
    )
    .await;
    let address = format!("lesson.html?{step}");
    slider(page, "lesson step (breaker)", &address, "cooldown").await;
    playback(page).await;
}

/// The same slider on the same scenario under each stack profile, alternated three times so
/// that a drift of the machine falls on all of them alike. The timeout's slider, which every
/// profile has (a gRPC channel has no breaker, so no cool-down).
async fn profiles(page: &browser::Page) {
    for round in 1..=3 {
        for stack in Profile::KEYS {
            let address = format!("?preset=cb&stack={stack}&t=12");
            let what = format!("round {round}, playground with stack={stack}");
            slider(page, &what, &address, "timeout").await;
        }
    }
}

async fn click(page: &browser::Page, css: &str) {
    if let Ok(e) = page.client.find(Locator::Css(css)).await {
        let _ = e.click().await;
    }
}

async fn playback(page: &browser::Page) {
    page.open("?preset=cb", "#scrub").await;
    for speed in ["1", "10"] {
        page.eval(&browser::set_value("scrub", "0")).await;
        page.eval(&browser::set_value("speed", speed)).await;
        click(page, "#play").await;
        let gaps = page
            .eval(
                "return new Promise(done => {
                   const t = [];
                   function frame(now) {
                     t.push(now);
                     if (t.length < 121) requestAnimationFrame(frame);
                     else done(t.slice(1).map((x, i) => x - t[i]));
                   }
                   requestAnimationFrame(frame);
                 })",
            )
            .await;
        if page.text("#play").await.contains("Pause") {
            click(page, "#play").await;
        }
        println!(
            "playback at {speed}x, frame interval: {}",
            summary(&gaps).replace("moves", "frames")
        );
    }
}

/// Following a request: from a click on a pick to its sentence drawn (the request traced by a
/// re-run of the seeded simulation, then shown), alternating two picks that name different
/// requests.
async fn follow(page: &browser::Page, address: &str, picks: [&str; 2]) {
    page.open(address, ".life-picks").await;
    let script = format!(
        "return (async () => {{
           const times = [];
           const picks = {picks:?};
           for (let i = 0; i < 20; i++) {{
             const label = picks[i % 2];
             times.push(await new Promise(done => {{
               const button = [...document.querySelectorAll('.life-picks button')]
                 .find(b => b.textContent.trim() === label);
               const region = document.querySelector('.follow-region');
               const before = region.querySelector('.life-story')?.textContent;
               const start = performance.now();
               const seen = new MutationObserver(() => {{
                 const now = region.querySelector('.life-story')?.textContent;
                 if (now && now !== before) {{
                   seen.disconnect();
                   requestAnimationFrame(() => done(performance.now() - start));
                 }}
               }});
               seen.observe(region, {{ subtree: true, childList: true, characterData: true }});
               button.click();
             }}));
             await new Promise(r => setTimeout(r, 100));
           }}
           return times;
         }})()"
    );
    let times = page.eval(&script).await;
    println!(
        "follow a request, {address} ({} / {}): click to its sentence drawn: {}",
        picks[0],
        picks[1],
        summary(&times).replace("moves", "picks")
    );
}

async fn jitter_sweep(page: &browser::Page) {
    page.open("", "#jitter-start").await;
    page.eval(
        "window.__frames = [];
         let last = performance.now();
         const tick = (t) => { window.__frames.push(t - last); last = t; requestAnimationFrame(tick); };
         requestAnimationFrame(tick);
         document.getElementById('jitter-start').click();",
    )
    .await;
    for _ in 0..600 {
        // The explorer's module may still be downloading: no view yet.
        let text = page
            .eval("return document.querySelector(\"[id$='jitter-progress']\")?.textContent.trim() ?? ''")
            .await;
        if text
            .as_str()
            .unwrap_or("")
            .starts_with("All 50 points computed")
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let frames = page.eval("return window.__frames.slice(1)").await;
    println!(
        "jitter sweep in a worker, frame interval meanwhile: {}",
        summary(&frames).replace("moves", "frames")
    );
}

/// What [`time_to_first_view`] measured: the milliseconds from navigation to the first drawn
/// view of each load, the wasm bytes the last load fetched (as sent, so compressed when served
/// `.br`), and that load's resources in the order they started.
struct Loads {
    times: serde_json::Value,
    wasm_bytes: u64,
    waterfall: Vec<String>,
}

/// Loads `address` `runs` times on a slow link (1.6 Mbit/s, 150 ms round trip, CPU 4x
/// slower), cache off, each until `drawn` appears.
async fn time_to_first_view(
    page: &browser::Page,
    runs: usize,
    address: &str,
    drawn: &str,
) -> Loads {
    let c = &page.client;
    browser::devtools(c, "Network.enable", serde_json::json!({})).await;
    browser::devtools(
        c,
        "Network.setCacheDisabled",
        serde_json::json!({"cacheDisabled": true}),
    )
    .await;
    browser::devtools(
        c,
        "Network.emulateNetworkConditions",
        serde_json::json!({"offline": false, "latency": 150,
            "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 1_600_000 / 8}),
    )
    .await;
    browser::devtools(
        c,
        "Emulation.setCPUThrottlingRate",
        serde_json::json!({"rate": 4}),
    )
    .await;
    browser::devtools(
        c,
        "Page.addScriptToEvaluateOnNewDocument",
        serde_json::json!({"source": format!("new MutationObserver((_, o) => {{
            if (document.querySelector(\"{drawn}\")) {{
              window.__viewAt = performance.now(); o.disconnect(); }}
          }}).observe(document, {{ childList: true, subtree: true }});")}),
    )
    .await;
    let mut times = Vec::new();
    let mut last = serde_json::Value::Null;
    for _ in 0..runs {
        page.open(address, drawn).await;
        times.push(page.eval("return window.__viewAt || null").await);
        last = page
            .eval(
                "return performance.getEntriesByType('resource').map((e) => [
                   e.name.split('?')[0].split('/').pop(), Math.round(e.startTime),
                   Math.round(e.responseEnd), e.encodedBodySize]).concat(
                   performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime),
                   Math.round(m.startTime), 0]), [['first view', Math.round(window.__viewAt),
                   Math.round(window.__viewAt), 0]])",
            )
            .await;
        let _ = page.client.goto("about:blank").await;
    }
    let resources = last.as_array().cloned().unwrap_or_default();
    let wasm_bytes = resources
        .iter()
        .filter(|r| r[0].as_str().is_some_and(|n| n.ends_with(".wasm")))
        .filter_map(|r| r[3].as_u64())
        .sum();
    let waterfall = resources
        .iter()
        .map(|r| {
            format!(
                "{} {}..{} ms, {} B",
                r[0].as_str().unwrap_or("?"),
                r[1],
                r[2],
                r[3]
            )
        })
        .collect();
    Loads {
        times: serde_json::Value::Array(times),
        wasm_bytes,
        waterfall,
    }
}

/// Prints the functions a load of `address` spent the most CPU in (self time, CPU 4x slower,
/// the link not throttled) until `drawn` appears: names where the wasm keeps them.
async fn first_view_profile(page: &browser::Page, address: &str, drawn: &str) {
    let c = &page.client;
    browser::devtools(
        c,
        "Emulation.setCPUThrottlingRate",
        serde_json::json!({"rate": 4}),
    )
    .await;
    browser::devtools(c, "Profiler.enable", serde_json::json!({})).await;
    browser::devtools(
        c,
        "Profiler.setSamplingInterval",
        serde_json::json!({"interval": 200}),
    )
    .await;
    browser::devtools(c, "Profiler.start", serde_json::json!({})).await;
    page.open(address, drawn).await;
    let profile = browser::devtools(c, "Profiler.stop", serde_json::json!({})).await;
    let profile = &profile["profile"];
    let nodes = profile["nodes"].as_array().cloned().unwrap_or_default();
    let name_of: std::collections::HashMap<u64, String> = nodes
        .iter()
        .map(|n| {
            let f = &n["callFrame"];
            let url = f["url"]
                .as_str()
                .unwrap_or("")
                .rsplit('/')
                .next()
                .unwrap_or("");
            (
                n["id"].as_u64().unwrap_or(0),
                format!("{} ({url})", f["functionName"].as_str().unwrap_or("")),
            )
        })
        .collect();
    let parent_of: std::collections::HashMap<u64, u64> = nodes
        .iter()
        .flat_map(|n| {
            let id = n["id"].as_u64().unwrap_or(0);
            n["children"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter_map(move |c| Some((c.as_u64()?, id)))
        })
        .collect();
    let mut self_ms: std::collections::HashMap<String, f64> = Default::default();
    // A function's time with its callees', each sample counted once per function on its stack.
    let mut total_ms: std::collections::HashMap<String, f64> = Default::default();
    let samples = profile["samples"].as_array().cloned().unwrap_or_default();
    let deltas = profile["timeDeltas"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    for (sample, delta) in samples
        .iter()
        .zip(deltas.iter().skip(1).chain([&serde_json::json!(0)]))
    {
        let name = name_of
            .get(&sample.as_u64().unwrap_or(0))
            .cloned()
            .unwrap_or_default();
        let ms = delta.as_f64().unwrap_or(0.0) / 1000.0;
        *self_ms.entry(name).or_default() += ms;
        let mut on_stack = std::collections::HashSet::new();
        let mut node = sample.as_u64();
        while let Some(id) = node {
            if let Some(name) = name_of.get(&id).filter(|n| on_stack.insert(n.as_str())) {
                *total_ms.entry(name.clone()).or_default() += ms;
            }
            node = parent_of.get(&id).copied();
        }
    }
    let mut top: Vec<_> = self_ms.into_iter().collect();
    top.sort_by(|a, b| b.1.total_cmp(&a.1));
    let total: f64 = top.iter().map(|t| t.1).sum();
    println!("{address}: {total:.0} ms sampled until {drawn}");
    for (name, ms) in top.iter().take(40) {
        println!("  {ms:8.1} ms  {name}");
    }
    let mut with_callees: Vec<_> = total_ms.into_iter().collect();
    with_callees.sort_by(|a, b| b.1.total_cmp(&a.1));
    println!("with their callees:");
    for (name, ms) in with_callees.iter().take(60) {
        println!("  {ms:8.1} ms  {name}");
    }
}

/// Waits until the explorer's grid has `cells` cells done.
async fn metastability_complete(page: &browser::Page, cells: u64) {
    for _ in 0..1_200 {
        let done = page
            .eval("return +(document.querySelector(\"[id$='meta-grid']\")?.dataset.done ?? 0)")
            .await;
        if done.as_u64() == Some(cells) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!("the metastability grid did not complete in 120 s");
}

/// Installed before the page's own scripts: records the explorer's start (the grid appears,
/// or `window.__metaStart` set by a click), its end (144 cells) and every long task (a
/// main-thread task over 50 ms), for [`metastability_explorer`]. No animation-frame
/// loop: one of its own made the playground paint every frame and showed long tasks the page
/// alone does not have.
const EXPLORER_PROBE: &str = "
  window.__meta = { start: null, end: null, long: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__meta.long.push([e.startTime, e.duration]);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver(() => {
    const grid = document.querySelector(\"[id$='meta-grid']\");
    if (!grid) return;
    const m = window.__meta;
    const button = document.querySelector(\"[id$='meta-start']\");
    if (m.start === null && !button) m.start = window.__metaStart ?? performance.now();
    if (m.end === null && grid.dataset.done === '144') m.end = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-done'] });
";

/// What one run of the explorer measured: wall time from its start to 144 cells, ms; the long
/// tasks that began in that time; the longest of them, ms.
async fn explorer_run(page: &browser::Page, path: &str, click: bool) -> (f64, usize, f64) {
    let ready = if click {
        "[id$='meta-start']"
    } else {
        "[id$='meta-grid']"
    };
    page.open(path, ready).await;
    if click {
        // As a student would: once the page has drawn, not in the middle of its loading.
        tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
        page.eval("window.__metaStart = performance.now(); document.getElementById('meta-start').click();")
            .await;
    }
    metastability_complete(page, 144).await;
    let m = page
        .eval(
            "const m = window.__meta;
             const during = (t) => t >= m.start && t <= m.end;
             const long = m.long.filter(([t]) => during(t));
             return [m.end - m.start, long.length, Math.max(0, ...long.map(([, d]) => d))];",
        )
        .await;
    let v: Vec<f64> = m
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap_or(f64::NAN))
        .collect();
    (v[0], v[1] as usize, v[2])
}

/// The explorer's 12 x 12 grid at 1920 x 1080, three runs each of the widget and the
/// playground (worker) and of the widget served without its worker script (the page's own
/// thread, as before the worker): the time to the full grid, and the main-thread tasks over
/// 50 ms while it ran. Prints medians.
async fn metastability_explorer() {
    const NO_WORKER: &[&str] = &["metastability-worker.js"];
    let cases = [
        (
            "widget, worker",
            "embed.html?kind=metastability",
            false,
            &[][..],
        ),
        ("playground, worker", "index.html", true, &[][..]),
        (
            "widget, no worker script (page thread)",
            "embed.html?kind=metastability",
            false,
            NO_WORKER,
        ),
    ];
    for (name, path, click, missing) in cases {
        browser::run_without("measure-metastability", missing, move |page| async move {
            page.devtools(
                "Emulation.setDeviceMetricsOverride",
                serde_json::json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
            )
            .await;
            page.devtools("Page.enable", serde_json::json!({})).await;
            page.devtools(
                "Page.addScriptToEvaluateOnNewDocument",
                serde_json::json!({"source": EXPLORER_PROBE}),
            )
            .await;
            let mut runs = Vec::new();
            for _ in 0..3 {
                runs.push(explorer_run(&page, path, click).await);
            }
            let median = |f: fn(&(f64, usize, f64)) -> f64| {
                let mut v: Vec<f64> = runs.iter().map(f).collect();
                v.sort_by(f64::total_cmp);
                v[1]
            };
            println!(
                "{name}: grid in {:.0} ms (median of 3: {:?}), long tasks median {} (runs {:?}), \
                 longest long task median {:.0} ms (runs {:?})",
                median(|r| r.0),
                runs.iter().map(|r| r.0.round()).collect::<Vec<_>>(),
                median(|r| r.1 as f64),
                runs.iter().map(|r| r.1).collect::<Vec<_>>(),
                median(|r| r.2),
                runs.iter().map(|r| r.2.round()).collect::<Vec<_>>(),
            );
            // The missing worker script's 404 is expected here.
            let _ = browser::console_errors(&page.client).await;
        })
        .await;
    }
}

#[tokio::main]
async fn main() {
    let what = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "page".to_string());
    // The lesson step to move a slider on (an older build of the page numbered its steps).
    let step = std::env::args()
        .nth(2)
        .unwrap_or_else(|| "lesson=km0&step=circuit-breaker".to_string());
    match what.as_str() {
        "profiles" => {
            browser::run(
                "measure-profiles",
                |page| async move { profiles(&page).await },
            )
            .await;
        }
        // The three sliders and playback alone, which every build since the page modules has:
        // for alternating with a build from before the library profiles and the explorers.
        "sliders" => {
            browser::run("measure-sliders", move |page| async move {
                sliders(&page, &step).await;
            })
            .await;
        }
        "page" => {
            browser::run("measure-page", move |page| async move {
                sliders(&page, &step).await;
                profiles(&page).await;
                jitter_sweep(&page).await;
                follow(
                    &page,
                    "?preset=story-none&t=12",
                    ["slowest", "a lookup stuck behind orders"],
                )
                .await;
                follow(
                    &page,
                    "?preset=cb&t=12",
                    ["slowest", "refused by the breaker"],
                )
                .await;
                follow(
                    &page,
                    "?preset=retry-storm&t=30",
                    ["retried", "in flight at the playhead"],
                )
                .await;
            })
            .await;
        }
        "load" => {
            // Each page loads its own module: the playground's, the lesson's, the exercises';
            // the course page those of its widgets. Its first drawn widget is the diagram's or
            // the histogram's canvas.
            let pages = [
                (
                    "the playground",
                    "index.html",
                    "#resilience-app section.region",
                ),
                (
                    "the lesson",
                    "lesson.html?lesson=km0",
                    "[data-lesson-step] [id$='scrub']",
                ),
                (
                    "a course page with two widgets",
                    "",
                    "resilience-widget canvas",
                ),
                ("the exercises", "exercises.html", "resilience-widget .rp"),
            ];
            // `load lesson` measures the pages whose name holds "lesson"; `load lesson br`
            // only as precompressed.
            let only = std::env::args().nth(2).unwrap_or_default();
            let served = match std::env::args().nth(3).as_deref() {
                Some("br") => vec![true],
                _ => vec![false, true],
            };
            for (name, address, drawn) in pages {
                if !name.contains(&only) {
                    continue;
                }
                for precompressed in served.clone() {
                    browser::run_serving("measure-load", precompressed, move |page| async move {
                        // The course page is of another origin, as a course platform's is.
                        let (_widgets, _course, address) = if address.is_empty() {
                            let dist =
                                std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
                            let widgets =
                                browser::StaticServer::start_for(dist, precompressed, &[], true);
                            let dir = browser::artefacts_dir().join("measure-load-course");
                            browser::course_page(
                                &dir,
                                &format!("http://127.0.0.1:{}/", widgets.port),
                                browser::TWO_WIDGETS,
                            );
                            let course = browser::StaticServer::start(dir, false, &[]);
                            let address = format!("http://127.0.0.1:{}/index.html", course.port);
                            (Some(widgets), Some(course), address)
                        } else {
                            (None, None, address.to_string())
                        };
                        let loads = time_to_first_view(&page, 5, &address, drawn).await;
                        let served = if precompressed {
                            "precompressed (.br)"
                        } else {
                            "uncompressed"
                        };
                        println!(
                            "{name}: time to the first drawn view on a slow link, {served}: {}; \
                             wasm fetched: {} B",
                            summary(&loads.times).replace("moves", "loads"),
                            loads.wasm_bytes
                        );
                        println!("  the last load: {}", loads.waterfall.join("; "));
                    })
                    .await;
                }
            }
        }
        "explorer" => metastability_explorer().await,
        "profile" => {
            // Where a page's first view spends the CPU: `profile ADDRESS SELECTOR`.
            let address = std::env::args()
                .nth(2)
                .unwrap_or_else(|| "index.html".into());
            let drawn = std::env::args()
                .nth(3)
                .unwrap_or_else(|| "#resilience-app section.region".into());
            browser::run_serving("measure-profile", true, move |page| async move {
                first_view_profile(&page, &address, &drawn).await;
            })
            .await;
        }
        other => {
            eprintln!(
                "measure_page: unknown measurement '{other}' (allowed: page, load, explorer)"
            );
            std::process::exit(2);
        }
    }
}
