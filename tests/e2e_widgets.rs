//! End-to-end tests of what leaves the playground: widgets in a course page, the iframe
//! embed, the permalink, and the CSV / JSON downloads. Run by `make test` after the release
//! build (`cargo test --features e2e --test e2e_widgets`).

#[path = "support/browser.rs"]
mod browser;

use browser::set_value;
use serde_json::Value;
use std::time::Duration;

/// Text of the element `inner` (an id without the widget's prefix) inside the widget `host`.
fn in_widget(host: &str, inner: &str) -> String {
    format!("#{host} [id$='-{inner}']")
}

/// Sets an input's value inside a widget and fires `input` and `change`.
fn set_in_widget(host: &str, inner: &str, value: &str) -> String {
    format!(
        "const el = document.querySelector(\"{}\");
         el.value = '{value}';
         el.dispatchEvent(new Event('input', {{ bubbles: true }}));
         el.dispatchEvent(new Event('change', {{ bubbles: true }}));
         return el.value;",
        in_widget(host, inner)
    )
}

#[tokio::test]
async fn the_course_page_shows_three_widgets_each_with_its_own_state() {
    browser::run("widgets-demo", |page| async move {
        page.open("course-demo.html", "#demo-table table").await;
        page.client
            .wait()
            .for_element(fantoccini::Locator::Css(&in_widget("demo-histogram", "latency-chart")))
            .await
            .expect("the histogram widget draws");
        // Each widget shows its kind, and the page's own text and styles stay.
        assert!(page
            .eval(&format!("return !!document.querySelector(\"{}\")", in_widget("demo-diagram", "breaker-state")))
            .await
            .as_bool()
            .unwrap());
        let body_font = page
            .eval("return getComputedStyle(document.body).fontFamily")
            .await;
        assert!(body_font.as_str().unwrap().contains("Georgia"), "{body_font}");
        // The attributes were applied: a 5 s cool-down on the diagram, end-to-end time on the
        // histogram.
        let label = page.text(&in_widget("demo-diagram", "arrow-label-1")).await;
        assert!(label.contains("5 s"), "cool-down label: {label}");
        let e2e = page
            .eval(&format!(
                "return document.querySelector(\"{}\").checked",
                in_widget("demo-histogram", "latency-end-to-end")
            ))
            .await;
        assert_eq!(e2e, Value::Bool(true));
        // Ids are unique on the page even with three widgets.
        let duplicates = page.eval(browser::DUPLICATE_IDS)
            .await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
        // A view widget opens where it shows something: the histogram at its run's end.
        let histogram_opened = page.text(&in_widget("demo-histogram", "clock")).await;
        let (at, of) = histogram_opened.split_once(" / ").unwrap();
        assert_eq!(at, of, "the histogram opens at its run's end: {histogram_opened}");
        let total = page.text(&in_widget("demo-histogram", "hist-total")).await;
        assert_ne!(total, "0", "and shows its requests");
        // Moving one widget's playhead leaves the other alone.
        page.eval(&set_in_widget("demo-diagram", "scrub", "80")).await;
        let diagram_clock = page.text(&in_widget("demo-diagram", "clock")).await;
        let histogram_clock = page.text(&in_widget("demo-histogram", "clock")).await;
        assert!(diagram_clock.contains("8.0"), "diagram clock: {diagram_clock}");
        assert_eq!(histogram_clock, histogram_opened, "histogram clock");
        let state = page.text(&in_widget("demo-diagram", "breaker-state")).await;
        assert_eq!(state, "OPEN", "the cb scenario's breaker is open at 8 s with a 5 s cool-down");
        // The keyboard drives only the focused widget: back to the start (r), then a second on.
        page.eval("document.getElementById('demo-histogram').querySelector('.widget-body').focus()")
            .await;
        page.eval(
            "const body = document.getElementById('demo-histogram').querySelector('.widget-body');
             body.dispatchEvent(new KeyboardEvent('keydown', { key: 'r', bubbles: true }));
             body.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', shiftKey: true, bubbles: true }))",
        )
        .await;
        let histogram_clock = page.text(&in_widget("demo-histogram", "clock")).await;
        let diagram_clock = page.text(&in_widget("demo-diagram", "clock")).await;
        assert!(histogram_clock.contains("1.0"), "histogram clock: {histogram_clock}");
        assert!(diagram_clock.contains("8.0"), "diagram clock: {diagram_clock}");
        // From a button inside the widget too; and its focusable body says what it is.
        page.eval(
            "const w = document.getElementById('demo-histogram');
             const b = w.querySelector('.widget-body button');
             b.focus();
             b.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', shiftKey: true, bubbles: true }))",
        )
        .await;
        let histogram_clock = page.text(&in_widget("demo-histogram", "clock")).await;
        assert!(histogram_clock.contains("2.0"), "histogram clock: {histogram_clock}");
        let named = page
            .eval("return document.getElementById('demo-histogram').querySelector('.widget-body').getAttribute('aria-label')")
            .await;
        assert!(named.as_str().unwrap_or_default().contains("space plays or pauses"), "{named}");
        page.client
            .set_window_size(1300, 3900)
            .await
            .expect("window size");
        page.eval("window.scrollTo(0, 0)").await;
        page.screenshot("course-demo").await;
        // A second widget of the same kind, added later, gets ids of its own too (the SVG
        // arrowhead marker included).
        page.eval(
            "const w = document.createElement('resilience-widget');
             w.id = 'late-diagram';
             w.setAttribute('kind', 'circuit-diagram');
             document.body.append(w);",
        )
        .await;
        page.client
            .wait()
            .for_element(fantoccini::Locator::Css(&in_widget("late-diagram", "breaker-state")))
            .await
            .expect("a widget added after load mounts");
        let duplicates = page.eval(browser::DUPLICATE_IDS)
            .await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids with two diagrams");
    })
    .await;
}

#[tokio::test]
async fn a_bad_attribute_is_named_and_the_widget_still_works() {
    browser::run("widgets-bad", |page| async move {
        page.open(
            "embed.html?kind=histogram&cooldown=soon&colour=red&preset=%3Cimg%20src%3Dx%3E",
            "[id$='-widget-notices']",
        )
        .await;
        let notices = page.text("[id$='-widget-notices']").await;
        for named in ["cooldown", "colour", "preset", "<img src=x>"] {
            assert!(notices.contains(named), "notice should name {named}: {notices}");
        }
        let images = page.eval("return document.querySelectorAll('img').length").await;
        assert_eq!(images, 0, "attribute text reached the page as HTML");
        // Still a working histogram on the default scenario.
        page.eval(&format!(
            "return ({})",
            "document.querySelector(\"[id$='-scrub']\").value = '120',
             document.querySelector(\"[id$='-scrub']\").dispatchEvent(new Event('input', { bubbles: true }))"
        ))
        .await;
        let total: u64 = page
            .text("[id$='-hist-total']")
            .await
            .trim()
            .parse()
            .expect("a count of finished requests");
        assert!(total > 1000, "requests finished by 12 s: {total}");
        page.screenshot("embed-bad-attributes").await;
    })
    .await;
}

/// Captures what the page hands to `URL.createObjectURL` instead of downloading it.
const CAPTURE_DOWNLOADS: &str = "
    window.__saved = [];
    URL.createObjectURL = (blob) => { window.__saved.push(blob); return 'blob:captured'; };
    URL.revokeObjectURL = () => {};
    HTMLAnchorElement.prototype.click = function () { window.__savedNames = (window.__savedNames || []).concat(this.download); };
";

async fn download(page: &browser::Page, button: &str) -> String {
    page.eval(CAPTURE_DOWNLOADS).await;
    page.eval(&format!("document.getElementById('{button}').click()"))
        .await;
    page.eval("return window.__saved.length ? window.__saved[0].text() : null")
        .await
        .as_str()
        .unwrap_or_else(|| panic!("{button} saved nothing"))
        .to_string()
}

async fn counters(page: &browser::Page) -> Value {
    page.eval(
        "return Object.fromEntries([...document.querySelectorAll('[id^=count-]')]
           .map(e => [e.id, e.textContent.replace(/[^0-9]/g, '')]))",
    )
    .await
}

async fn controls(page: &browser::Page) -> Value {
    page.eval(
        "return Object.fromEntries([...document.querySelectorAll('.controls input, .toolbar input, .toolbar select, #speed')]
           .map(e => [e.id, e.type === 'checkbox' ? e.checked : e.value]))",
    )
    .await
}

#[tokio::test]
async fn a_permalink_restores_every_control_and_the_identical_run() {
    browser::run("permalink", |page| async move {
        page.open("?preset=bulkhead", "#scrub").await;
        for (id, value) in [
            ("cooldown", "3500"),
            ("permits", "5"),
            ("seed", "4242"),
            ("speed", "5"),
        ] {
            page.eval(&set_value(id, value)).await;
        }
        page.eval("document.getElementById('switch-timeout').click()")
            .await;
        page.eval("document.getElementById('latency-end-to-end').click()")
            .await;
        page.eval(&set_value("scrub", "73")).await;
        let before_controls = controls(&page).await;
        let before_counts = counters(&page).await;
        let before_run = download(&page, "download-json").await;
        let link = page
            .eval("return document.getElementById('permalink').value")
            .await;
        let link = link.as_str().unwrap().to_string();
        assert!(link.contains("seed=4242"), "{link}");
        // A fresh load of the link, as a student opening it would.
        page.client.goto("about:blank").await.unwrap();
        page.client.goto(&link).await.unwrap();
        page.client
            .wait()
            .for_element(fantoccini::Locator::Css("#scrub"))
            .await
            .unwrap();
        assert_eq!(controls(&page).await, before_controls);
        assert_eq!(counters(&page).await, before_counts);
        let clock = page.text("#clock").await;
        assert!(clock.contains("7.3"), "clock after restore: {clock}");
        let after_run = download(&page, "download-json").await;
        assert_eq!(after_run, before_run, "the restored run differs");
        let e2e = page
            .eval("return document.getElementById('latency-end-to-end').checked")
            .await;
        assert_eq!(e2e, Value::Bool(true));
    })
    .await;
}

#[tokio::test]
async fn the_csv_and_json_downloads_parse_and_match_the_counters_on_screen() {
    browser::run("downloads", |page| async move {
        page.open("?preset=cb&t=12.5", "#scrub").await;
        page.eval(&set_value("scrub", "100000")).await;
        let on_screen = counters(&page).await;
        let count = |name: &str| -> u64 {
            on_screen[format!("count-{name}")]
                .as_str()
                .unwrap_or_else(|| panic!("no counter {name}: {on_screen}"))
                .parse()
                .unwrap()
        };
        let json: Value = serde_json::from_str(&download(&page, "download-json").await)
            .expect("the JSON download parses");
        for outcome in ["ok", "timeout", "circuit_open", "bulkhead_full"] {
            assert_eq!(
                json["outcomes"][outcome],
                count(outcome),
                "{outcome} in the JSON"
            );
        }
        assert_eq!(json["sent"], count("arrived"));
        let csv = download(&page, "download-csv").await;
        let mut lines = csv.lines();
        let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert!(rows.len() >= 120, "{} rows", rows.len());
        for outcome in ["ok", "timeout", "circuit_open", "bulkhead_full"] {
            let column = header.iter().position(|h| *h == outcome).expect("a column");
            let total: u64 = rows.iter().map(|r| r[column].parse::<u64>().unwrap()).sum();
            assert_eq!(total, count(outcome), "{outcome} summed over the CSV");
        }
        let names = page.eval("return window.__savedNames").await;
        assert_eq!(
            names,
            serde_json::json!(["resilience-run.json", "resilience-run.csv"])
        );
    })
    .await;
}

/// Whether each widget of the course page wears the dark theme.
const DARK_WIDGETS: &str = "return [...document.querySelectorAll('resilience-widget')]
    .map(w => { const r = w.querySelector('.rp.widget'); return r ? r.classList.contains('theme-dark') : null; });";

async fn wait_until(page: &browser::Page, script: &str, want: &Value) {
    let start = std::time::Instant::now();
    loop {
        let got = page.eval(script).await;
        if &got == want {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "still {got}, waiting for {want}: {script}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// `theme="auto"` follows the host page, not the system; attributes set after mount apply;
/// compact chrome counts only outcomes that occur; `scale` enlarges; `chrome` full and none.
#[tokio::test]
async fn widgets_follow_the_host_page_and_attributes_set_later() {
    browser::run("widgets-host", |page| async move {
        // The reader's system is dark; the course page is cream.
        browser::devtools(
            &page.client,
            "Emulation.setEmulatedMedia",
            serde_json::json!({"features": [{"name": "prefers-color-scheme", "value": "dark"}]}),
        )
        .await;
        page.open("course-demo.html", "#demo-table table").await;
        let widgets = page
            .eval("return document.querySelectorAll('resilience-widget').length")
            .await
            .as_u64()
            .unwrap() as usize;
        assert!(widgets >= 3, "the course demo has its widgets: {widgets}");
        let light = Value::Array(vec![Value::Bool(false); widgets]);
        wait_until(&page, DARK_WIDGETS, &light).await;
        // Compact by default: no keyboard line, and no counter for an outcome the run cannot
        // have (the timeout preset has no breaker and no bulkhead).
        let chrome = page
            .eval(&format!(
                "return [document.querySelectorAll('resilience-widget .keys').length,
                         !!document.querySelector(\"{}\"), !!document.querySelector(\"{}\"),
                         !!document.querySelector(\"{}\")]",
                in_widget("demo-histogram", "count-circuit_open"),
                in_widget("demo-histogram", "count-bulkhead_full"),
                in_widget("demo-histogram", "count-ok"),
            ))
            .await;
        assert_eq!(chrome, serde_json::json!([0, false, false, true]));
        page.screenshot("course-demo-light-host").await;

        // The page turns dark, as a site's own theme switch does it: the widgets follow with
        // no attribute of theirs changed.
        page.eval(
            "document.body.style.background = '#16181d'; document.body.style.color = '#eee';
             return true;",
        )
        .await;
        let dark = Value::Array(vec![Value::Bool(true); widgets]);
        wait_until(&page, DARK_WIDGETS, &dark).await;
        page.screenshot("course-demo-dark-host").await;

        // An attribute set after mount is applied: a 9 s cool-down, twice the size.
        let before = page
            .eval("return document.querySelector('#demo-diagram h2').getBoundingClientRect().height")
            .await
            .as_f64()
            .unwrap();
        page.eval(
            "const w = document.getElementById('demo-diagram');
             w.setAttribute('cooldown', '9s'); w.setAttribute('scale', '2'); return true;",
        )
        .await;
        wait_until(
            &page,
            &format!(
                "const l = document.querySelector(\"{}\"); return !!l && l.textContent.includes('9 s');",
                in_widget("demo-diagram", "arrow-label-1")
            ),
            &Value::Bool(true),
        )
        .await;
        let after = page
            .eval("return document.querySelector('#demo-diagram h2').getBoundingClientRect().height")
            .await
            .as_f64()
            .unwrap();
        assert!(after > before * 1.8, "scale 2: heading {before} -> {after}");
        // Full chrome has the keyboard line and the lesson's four counters; none has no
        // transport at all.
        page.eval("document.getElementById('demo-histogram').setAttribute('chrome', 'full'); return true;")
            .await;
        wait_until(
            &page,
            &format!("return !!document.querySelector(\"{}\")", in_widget("demo-histogram", "count-circuit_open")),
            &Value::Bool(true),
        )
        .await;
        page.eval("document.getElementById('demo-diagram').setAttribute('chrome', 'none'); return true;")
            .await;
        wait_until(
            &page,
            &format!(
                "return [!!document.querySelector(\"{}\"), !!document.querySelector(\"{}\")]",
                in_widget("demo-diagram", "play"),
                in_widget("demo-diagram", "breaker-state")
            ),
            &serde_json::json!([false, true]),
        )
        .await;
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
    })
    .await;
}

/// Waits until the jitter view inside `scope` (a CSS prefix, "" for the page) says every
/// point is computed; returns its progress line.
async fn jitter_complete(page: &browser::Page, scope: &str) -> String {
    for _ in 0..600 {
        // The view may still be on its way (its module downloading).
        let text = page
            .eval(&format!(
                "return document.querySelector(\"{scope}[id$='jitter-progress']\")?.textContent ?? ''"
            ))
            .await
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string();
        if text.starts_with("All 50 points computed") {
            return text;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the jitter sweep did not complete in 60 s");
}

/// The figures table of the jitter view, as (strategy, calls, time ms) rows.
async fn jitter_rows(page: &browser::Page) -> Vec<(String, f64, f64)> {
    let rows = page
        .eval(
            "return [...document.querySelectorAll(\"[id$='jitter-table'] tbody tr\")]
               .map(r => [r.dataset.strategy, ...[...r.querySelectorAll('td')].map(td => td.textContent)])",
        )
        .await;
    rows.as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let number = |i: usize| r[i].as_str().unwrap().parse::<f64>().unwrap_or(f64::NAN);
            (r[0].as_str().unwrap().to_string(), number(1), number(2))
        })
        .collect()
}

#[tokio::test]
async fn the_jitter_widget_runs_the_five_strategies_and_names_bad_attributes() {
    browser::run("widgets-jitter", |page| async move {
        page.open(
            "embed.html?kind=jitter&clients=30&runs=10&colour=red&cap=forever",
            "[id$='-jitter-table']",
        )
        .await;
        let notices = page.text("[id$='-widget-notices']").await;
        for named in ["colour", "cap", "forever", "0.1 to 10 s"] {
            assert!(notices.contains(named), "notice should name {named}: {notices}");
        }
        let progress = jitter_complete(&page, "").await;
        assert!(progress.contains("10 runs each"), "{progress}");
        // The table at 30 clients: five strategies, the blog's ordering.
        let rows = jitter_rows(&page).await;
        let keys: Vec<&str> = rows.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(
            keys,
            ["no-backoff", "exponential", "full-jitter", "equal-jitter", "decorrelated"]
        );
        let (none, expo, full, equal, decor) = (&rows[0], &rows[1], &rows[2], &rows[3], &rows[4]);
        assert!(rows.iter().all(|r| r.1 > 30.0 && r.2 > 0.0), "{rows:?}");
        assert!(none.1 > equal.1 && expo.1 > equal.1, "{rows:?}");
        assert!(expo.2 > 4.0 * equal.2 && none.2 < decor.2, "{rows:?}");
        assert!(decor.2 < full.2 && full.2 < equal.2, "{rows:?}");
        // Every chart has its five lines; the strips draw the default pair.
        let lines = page
            .eval("return document.querySelectorAll('.jitter-figure polyline').length")
            .await;
        assert_eq!(lines, 10);
        let strips = page
            .eval("return [...document.querySelectorAll('.jitter-strip')].map(f => f.dataset.strategy)")
            .await;
        assert_eq!(strips, serde_json::json!(["exponential", "full-jitter"]));
        let caption = page.text("[id$='-jitter-strip-chart-1'] figcaption").await;
        assert!(caption.contains("30 clients"), "{caption}");
        // The clients slider moves the strips and the table, not the sweep.
        page.eval(&set_in_widget("widget", "jitter-clients", "60"))
            .await;
        let caption = page.text("[id$='-jitter-strip-chart-1'] figcaption").await;
        assert!(caption.contains("60 clients"), "{caption}");
        let table = page.text("[id$='-jitter-table'] caption").await;
        assert!(table.contains("At 60 clients"), "{table}");
        assert!(page.text("[id$='-jitter-progress']").await.starts_with("All 50"));
        // A strip can show any strategy.
        page.eval(&set_in_widget("widget", "jitter-strip-2", "0"))
            .await;
        let bottom = page
            .eval("return document.querySelector(\"[id$='-jitter-strip-chart-2']\").dataset.strategy")
            .await;
        assert_eq!(bottom, "no-backoff");
        page.screenshot("widget-jitter").await;
        // Base restarts the sweep: it completes again, with longer waits, fewer jittered calls.
        page.eval(&set_in_widget("widget", "jitter-clients", "30")).await;
        page.eval(&set_in_widget("widget", "jitter-base", "20")).await;
        jitter_complete(&page, "").await;
        let after = jitter_rows(&page).await;
        assert!(after[1].2 > expo.2, "base 20 ms: {after:?} vs 5 ms: {rows:?}");
        assert!(after[2].1 < 0.9 * full.1, "base 20 ms: {after:?} vs 5 ms: {rows:?}");
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
    })
    .await;
}

/// Screenshots of the jitter view for looking at (`target/e2e/jitter-*.png`): the playground's
/// section at 1920x1080 (projector mode) and 1366x768, the widget at 390 px wide.
#[tokio::test]
#[ignore]
async fn jitter_screenshots() {
    browser::run("jitter-shots", |page| async move {
        for (w, h, query, name) in [
            (1920, 1080, "?projector=on", "jitter-1920"),
            (1366, 768, "", "jitter-1366"),
        ] {
            page.client.set_window_size(w, h).await.expect("window size");
            page.open(query, "#jitter-start").await;
            page.eval("document.getElementById('jitter-start').click()").await;
            jitter_complete(&page, "").await;
            page.eval("document.querySelector('.jitter-region').scrollIntoView()").await;
            page.screenshot(name).await;
            page.eval("document.querySelector('.jitter-strips').scrollIntoView()").await;
            page.screenshot(&format!("{name}-strips")).await;
        }
        page.client.set_window_size(405, 844).await.expect("window size");
        page.open("embed.html?kind=jitter&clients=30", "[id$='-jitter-table']").await;
        jitter_complete(&page, "").await;
        let width = page.eval("return document.documentElement.clientWidth").await;
        let overflow = page
            .eval("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
            .await;
        println!("390 px: viewport {width} px wide, horizontal overflow {overflow}");
        page.screenshot("jitter-390").await;
        page.eval("document.querySelector('.jitter-charts').scrollIntoView()").await;
        page.screenshot("jitter-390-charts").await;
        page.eval("document.querySelector('.jitter-strips').scrollIntoView()").await;
        page.screenshot("jitter-390-strips").await;
    })
    .await;
}

/// Waits until the metastability grid inside the page has `cells` cells computed; returns the
/// status line.
async fn metastability_complete(page: &browser::Page, cells: u64) -> String {
    for _ in 0..1_200 {
        let done = page
            .eval("return +(document.querySelector(\"[id$='meta-grid']\")?.dataset.done ?? 0)")
            .await;
        if done.as_u64() == Some(cells) {
            return page.text("[id$='meta-status']").await;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("the metastability grid did not complete in 120 s");
}

/// Where the explorer computed its cells: its `data-engine` (`worker` or `main-thread`).
async fn engine(page: &browser::Page) -> Value {
    page.eval("return document.querySelector('.metastability').dataset.engine")
        .await
}

/// The resources the page fetched whose URL ends with `file`.
async fn fetched(page: &browser::Page, file: &str) -> usize {
    page.eval(&format!(
        "return performance.getEntriesByType('resource').filter(e => e.name.split('?')[0].endsWith('/{file}')).length"
    ))
    .await
    .as_u64()
    .unwrap_or(0) as usize
}

/// The grid's cells that never recovered.
async fn never_recovered(page: &browser::Page) -> u64 {
    page.eval("return document.querySelectorAll(\"[id$='meta-grid'] td.meta-never\").length")
        .await
        .as_u64()
        .unwrap_or(0)
}

/// The WebAssembly modules the page fetched, by file name.
async fn wasm_fetched(page: &browser::Page) -> Value {
    page.eval(
        "return performance.getEntriesByType('resource').map(e => e.name.split('?')[0])
           .filter(n => n.endsWith('.wasm')).map(n => n.split('/').pop()).sort()",
    )
    .await
}

/// Each page loads the module with its own views alone: the playground's and the lesson's
/// pages their own, the exercises' page the exercises' one (the playground's explorers, which
/// come with a module of their own when started, are
/// `the_playground_explorer_starts_its_worker_when_asked`).
#[tokio::test]
async fn each_page_loads_the_module_with_its_own_views() {
    browser::run("modules", |page| async move {
        page.open("", "#scrub").await;
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm"])
        );
        page.open("lesson.html?lesson=km0", "[data-lesson-step]")
            .await;
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["lesson-page_bg.wasm"])
        );
        page.open("exercises.html", "resilience-widget .rp").await;
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["widget-exercises_bg.wasm"])
        );
    })
    .await;
}

/// A course page on another origin fetches the modules its widgets need, each once: a circuit
/// diagram and a histogram the charts module alone, and both draw; add a lesson's step and the
/// lessons module alone serves all three; add an exercise and the page fetches the charts' and
/// the exercises' modules; add the whole playground and the page fetches the whole module
/// alone, whose charts serve the other two.
#[tokio::test]
async fn a_course_page_fetches_only_the_modules_its_widgets_need() {
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    browser::run("widgets-modules", |page| async move {
        let playground = browser::StaticServer::start_for(dist, false, &[], true);
        let base = format!("http://127.0.0.1:{}/", playground.port);
        let exercise = "<resilience-widget kind=\"exercise-1\"></resilience-widget>";
        let step =
            "<resilience-widget kind=\"lesson-step\" lesson=\"km0\" step=\"timeout\"></resilience-widget>";
        let whole = "<resilience-widget kind=\"playground\"></resilience-widget>";
        for (widgets, modules) in [
            (browser::TWO_WIDGETS.to_string(), &["widget-charts_bg.wasm"][..]),
            (
                format!("{}{step}", browser::TWO_WIDGETS),
                &["widget-lessons_bg.wasm"],
            ),
            (
                format!("{}{exercise}", browser::TWO_WIDGETS),
                &["widget-charts_bg.wasm", "widget-exercises_bg.wasm"],
            ),
            (
                format!("{}{whole}", browser::TWO_WIDGETS),
                &["resilience-playground_bg.wasm"],
            ),
        ] {
            let dir = browser::artefacts_dir().join("widgets-modules-course");
            browser::course_page(&dir, &base, &widgets);
            let course = browser::StaticServer::start(dir, false, &[]);
            page.open(
                &format!("http://127.0.0.1:{}/index.html", course.port),
                "resilience-widget [id$='-latency-chart']",
            )
            .await;
            wait_until(
                &page,
                "return [...document.querySelectorAll('resilience-widget')]
                   .filter((w) => w.querySelector('canvas, svg')).length >= 2",
                &Value::Bool(true),
            )
            .await;
            assert_eq!(wasm_fetched(&page).await, serde_json::json!(modules), "{widgets}");
            let charts = page
                .eval(
                    "return [...document.querySelectorAll('resilience-widget')].slice(0, 2)
                       .map((w) => !!w.querySelector('canvas, svg') && !w.querySelector('.widget-notices'))",
                )
                .await;
            assert_eq!(charts, serde_json::json!([true, true]), "{widgets}");
            // A lesson's step shows its step, with the run's timeline.
            wait_until(
                &page,
                "return [...document.querySelectorAll('resilience-widget[kind=lesson-step]')]
                   .every((w) => w.querySelector(\"[data-step-name='timeout'] [id$='scrub']\"))",
                &Value::Bool(true),
            )
            .await;
        }
        page.screenshot("widgets-modules-course").await;
    })
    .await;
}

#[tokio::test]
async fn the_metastability_widget_fills_its_grid_and_a_retry_budget_moves_the_boundary() {
    browser::run("widgets-metastability", |page| async move {
        page.open("embed.html?kind=metastability", "[id$='meta-grid']")
            .await;
        let status = metastability_complete(&page, 144).await;
        assert!(status.starts_with("Done: 144 runs"), "{status}");
        let storm = never_recovered(&page).await;
        // The storm: most of the grid stays down, the lightest load comes back.
        assert!(storm > 72, "{storm} cells never recovered");
        let light = page
            .eval("return document.querySelector(\"[id$='meta-grid'] tbody tr:last-child td\").className")
            .await;
        assert_eq!(light, Value::from("meta-quick"));
        // Every cell came from the Web Worker (the page falls back for good once it cannot),
        // which the widget started from its script beside the glue, with no second wasm.
        assert_eq!(engine(&page).await, Value::from("worker"));
        assert_eq!(fetched(&page, "metastability-worker.js").await, 1);
        // A page of explorers alone gets the explorers' module, never the whole one.
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["widget-explorers_bg.wasm"])
        );
        page.screenshot("widget-metastability").await;
        page.eval(
            "const el = document.querySelector(\"[id$='meta-budget']\");
             el.click();
             return el.checked;",
        )
        .await;
        // The switch starts a new grid: wait for it to restart, then to finish.
        for _ in 0..50 {
            let done = page
                .eval("return +document.querySelector(\"[id$='meta-grid']\").dataset.done")
                .await;
            if done.as_u64() != Some(144) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        metastability_complete(&page, 144).await;
        let budget = never_recovered(&page).await;
        assert!(budget < storm, "with a retry budget {budget}, without {storm}");
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
    })
    .await;
}

/// Without its worker script (a host that lacks the file), the explorer computes the grid on
/// the page, says so, and gets the same grid.
#[tokio::test]
async fn the_metastability_explorer_falls_back_to_the_page_when_its_worker_cannot_start() {
    let missing = &["metastability-worker.js"];
    browser::run_without(
        "widgets-metastability-fallback",
        missing,
        |page| async move {
            page.open("embed.html?kind=metastability", "[id$='meta-grid']")
                .await;
            let status = metastability_complete(&page, 144).await;
            assert!(status.starts_with("Done: 144 runs"), "{status}");
            assert_eq!(engine(&page).await, Value::from("main-thread"));
            let notice = page.text("[id$='meta-engine-notice']").await;
            assert!(
                notice
                    .starts_with("Computed on the page itself, as no Web Worker could run here: "),
                "{notice}"
            );
            // The same storm as through the worker.
            let storm = never_recovered(&page).await;
            assert!(storm > 72, "{storm} cells never recovered");
            page.screenshot("widget-metastability-fallback").await;
            // The missing script is the one error the console may hold.
            let errors = browser::console_errors(&page.client).await;
            let others: Vec<_> = errors
                .iter()
                .filter(|e| !e.contains("metastability-worker.js"))
                .collect();
            assert!(others.is_empty(), "console errors: {others:?}");
        },
    )
    .await;
}

/// The playground's explorers fetch nothing until the student starts one; then the explorers'
/// module comes, once for both, and the grid is computed in its worker.
#[tokio::test]
async fn the_playground_explorer_starts_its_worker_when_asked() {
    browser::run("playground-metastability", |page| async move {
        page.open("index.html", ".metastability-region #meta-start")
            .await;
        assert_eq!(fetched(&page, "metastability-worker.js").await, 0);
        // The page's module holds no explorer: the explorers' module comes when one starts.
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm"])
        );
        page.eval("document.getElementById('meta-start').click()")
            .await;
        let status = metastability_complete(&page, 144).await;
        assert!(status.starts_with("Done: 144 runs"), "{status}");
        assert_eq!(engine(&page).await, Value::from("worker"));
        assert_eq!(fetched(&page, "metastability-worker.js").await, 1);
        // The worker runs the explorers' module, already compiled: it is fetched once.
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm", "widget-explorers_bg.wasm"])
        );
        // The other explorer shares it.
        page.eval("document.getElementById('jitter-start').click()")
            .await;
        jitter_complete(&page, "").await;
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm", "widget-explorers_bg.wasm"])
        );
        assert_eq!(
            fetched(&page, "style.css").await,
            1,
            "the page's own style sheet serves"
        );
        page.eval("document.querySelector('.metastability-region').scrollIntoView()")
            .await;
        page.screenshot("playground-explorer-on-demand").await;
    })
    .await;
}

/// "Four libraries, one failure" on the playground's page: nothing until asked; then the
/// explorers' module runs the intent under each library, side by side, and a pasted Polly
/// configuration runs in a last column; a wrong gRPC one is named by its field and runs nothing.
#[tokio::test]
async fn the_playground_compares_the_libraries_and_runs_a_pasted_config_beside_them() {
    browser::run("playground-libraries", |page| async move {
        // A channel's stack has no breaker to switch on, and the diagram's place says so.
        page.open("index.html?preset=saturday-grpc", "#no-breaker").await;
        let no_breaker = page.text("#no-breaker").await;
        assert!(no_breaker.contains("(stack=grpc) has no circuit breaker"), "{no_breaker}");
        page.open("index.html", "#libraries-start").await;
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm"])
        );
        page.eval("document.getElementById('libraries-start').click()")
            .await;
        page.wait_for("[id$='libraries-table']", "index.html").await;
        let headers = "return [...document.querySelectorAll(\"[id$='libraries-table'] thead th\")].map(th => th.textContent)";
        assert_eq!(
            page.eval(headers).await,
            serde_json::json!(["At the run's end", "lesson 000", "Resilience4j", "Polly", "Envoy", "gRPC"])
        );
        // The libraries' own module, with the readers: not the explorers' one.
        assert_eq!(
            wasm_fetched(&page).await,
            serde_json::json!(["playground-page_bg.wasm", "widget-libraries_bg.wasm"])
        );
        let differences = page.text("[id$='libraries-differences']").await;
        assert!(differences.contains("gRPC never (a channel has no breaker"), "{differences}");
        let paste = |text: &str| {
            format!(
                "const area = document.querySelector(\"[id$='libraries-paste']\"); area.value = {}; \
                 document.querySelector(\"[id$='libraries-run']\").click(); return null",
                serde_json::json!(text)
            )
        };
        page.eval(&paste(include_str!("fixtures/polly-standard.json"))).await;
        page.wait_for("[id$='libraries-table'] thead th:nth-child(7)", "index.html").await;
        let last = "return document.querySelector(\"[id$='libraries-table'] thead th:last-child\").textContent";
        assert_eq!(page.eval(last).await, Value::from("Yours: Polly"));
        let said = page.text(".libraries-read").await;
        assert!(said.starts_with("Yours: Polly runs in the last column"), "{said}");
        page.eval("document.querySelector('.libraries-region').scrollIntoView()").await;
        page.screenshot("playground-libraries").await;
        let bad = r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":1,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}"#;
        page.eval(&paste(bad)).await;
        page.wait_for(".library-compare .notice", "index.html").await;
        let refused = page.text(".library-compare .notice").await;
        assert!(
            refused.starts_with("gRPC configuration:") && refused.contains("maxAttempts"),
            "{refused}"
        );
        assert_eq!(page.eval(last).await, Value::from("gRPC"), "nothing of the refused one runs");
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
        // On a phone the libraries scroll sideways inside their table, not the page.
        page.client.set_window_size(405, 844).await.expect("window size");
        page.open("embed.html?kind=compare-libraries", "[id$='libraries-table']")
            .await;
        let overflow = page
            .eval("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
            .await;
        assert_eq!(overflow, Value::from(0), "the page scrolls sideways at 390 px");
    })
    .await;
}

/// Screenshots of the libraries' comparison for looking at (`target/e2e/libraries-*.png`): the
/// playground's section at 1920x1080 and 1280x800 (projector mode) and 1366x768, the widget at
/// 390 px.
#[tokio::test]
#[ignore]
async fn libraries_screenshots() {
    browser::run("libraries-shots", |page| async move {
        for (w, h, query, name) in [
            (1920, 1080, "index.html?projector=on", "libraries-1920"),
            (1280, 800, "index.html?projector=on", "libraries-1280"),
            (1366, 768, "index.html", "libraries-1366"),
        ] {
            page.client.set_window_size(w, h).await.expect("window size");
            page.open(query, "#libraries-start").await;
            page.eval("document.getElementById('libraries-start').click()").await;
            page.wait_for("[id$='libraries-table']", "index.html").await;
            page.eval("document.querySelector('.libraries-region').scrollIntoView()").await;
            page.screenshot(name).await;
            page.eval("document.querySelector('.libraries-paste').scrollIntoView()").await;
            page.screenshot(&format!("{name}-paste")).await;
        }
        page.client.set_window_size(405, 844).await.expect("window size");
        page.open("embed.html?kind=compare-libraries", "[id$='libraries-table']").await;
        let overflow = page
            .eval("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
            .await;
        println!("390 px: horizontal overflow {overflow}");
        page.screenshot("libraries-390").await;
    })
    .await;
}

/// The iframes' heights and whether each page inside scrolls, as `[[height, scrolls], ...]`.
const FRAME_HEIGHTS: &str = "return [...document.querySelectorAll('iframe')].map(f => {
       const inside = f.contentDocument && f.contentDocument.documentElement;
       return [f.getBoundingClientRect().height,
               !!inside && inside.scrollHeight > inside.clientHeight + 1];
     });";

/// Waits until `check` holds for the iframes' heights, returning them.
async fn frames_until(
    page: &browser::Page,
    what: &str,
    check: impl Fn(&[(f64, bool)]) -> bool,
) -> Vec<(f64, bool)> {
    let start = std::time::Instant::now();
    loop {
        let got = page.eval(FRAME_HEIGHTS).await;
        let frames: Vec<(f64, bool)> = got
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| (f[0].as_f64().unwrap_or(0.0), f[1].as_bool().unwrap_or(true)))
            .collect();
        if check(&frames) {
            return frames;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(20),
            "{what}: {got}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn framed_widgets_size_their_iframes_through_the_host_script() {
    browser::run("iframe-host", |page| async move {
        // A course page of this host: two widgets in iframes of a fixed, too small height, and
        // the host script.
        page.open("course-demo.html", "#demo-table table").await;
        page.eval(
            "document.body.innerHTML =
               '<iframe title=\"Histogram\" src=\"embed.html?kind=histogram&preset=cb\" style=\"width:100%;height:120px;border:0\"></iframe>' +
               '<iframe title=\"Diagram\" src=\"embed.html?kind=circuit-diagram&preset=cb\" style=\"width:100%;height:120px;border:0\"></iframe>';
             const s = document.createElement('script');
             s.src = 'iframe-host.js';
             document.head.append(s);
             return null;",
        )
        .await;
        // Both grow to their content: taller than 120 px, and nothing scrolls inside.
        let fitted = frames_until(&page, "the iframes did not fit their widgets", |f| {
            f.len() == 2 && f.iter().all(|(h, scrolls)| *h > 200.0 && !scrolls)
        })
        .await;
        // Settled: the widgets have drawn (two reads 1 s apart agree).
        let mut fitted = fitted;
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
            let again = frames_until(&page, "heights", |f| f.len() == 2).await;
            if again == fitted {
                break;
            }
            fitted = again;
        }
        // The widget's content grows (a panel opens), then shrinks back: the iframe follows.
        let before = fitted[0].0;
        page.eval(
            "const doc = document.querySelector('iframe').contentDocument;
             const panel = doc.createElement('div');
             panel.id = 'opened-panel';
             panel.style.height = '400px';
             doc.getElementById('widget').append(panel);
             return null;",
        )
        .await;
        let grown = frames_until(&page, "the iframe did not grow", |f| {
            f[0].0 >= before + 399.0 && !f[0].1
        })
        .await[0]
            .0;
        page.eval(
            "document.querySelector('iframe').contentDocument.getElementById('opened-panel').remove(); return null;",
        )
        .await;
        // Back to its content's height (within a pixel: the widget may have moved on meanwhile).
        let shrunk = frames_until(&page, &format!("the iframe did not shrink from {grown}"), |f| {
            f[0].0 <= grown - 350.0 && !f[0].1
        })
        .await[0]
            .0;
        // The frame and its page agree once the widget has settled (it may still be drawing:
        // both are read together, again until they agree).
        let both = "const f = document.querySelector('iframe');
             return [f.getBoundingClientRect().height,
                     Math.ceil(f.contentDocument.documentElement.getBoundingClientRect().height)];";
        let start = std::time::Instant::now();
        let shrunk = loop {
            let now = page.eval(both).await;
            let (frame, content) = (now[0].as_f64().unwrap_or(0.0), now[1].as_f64().unwrap_or(-9.0));
            if (frame - content).abs() <= 1.0 {
                break frame;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(10),
                "iframe {frame} px, its page {content} px (shrunk to {shrunk})"
            );
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        };
        // A message that is not from one of the page's iframes changes nothing.
        page.eval(
            "window.postMessage({ type: 'resilience-playground:height', height: 5 }, '*'); return null;",
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let after = frames_until(&page, "heights", |f| f.len() == 2).await;
        assert!((after[0].0 - shrunk).abs() <= 1.0, "{after:?}");
        assert!(after[1].0 > 200.0, "{after:?}");
        // Every height the script sets from here on, per frame (the frames' own script may
        // post its content's height again at once: the record keeps what came between).
        let record = "window.setHeights = [];
             document.querySelectorAll('iframe').forEach((f, i) => {
               window.setHeights[i] = [];
               new MutationObserver(() => window.setHeights[i].push(f.style.height))
                 .observe(f, { attributes: true, attributeFilter: ['style'] });
             });
             return null;";
        // Messages from inside the playground's own frame that are not a height above 0
        // change nothing; one under the floor sets the floor, a huge one the ceiling.
        let post_from_frame = |index: u16, heights: &'static str| {
            let client = page.client.clone();
            async move {
                client.enter_frame(index).await.expect("into the frame");
                client
                    .execute(
                        &format!(
                            "for (const height of {heights}) \
                             parent.postMessage({{ type: 'resilience-playground:height', height }}, '*');"
                        ),
                        vec![],
                    )
                    .await
                    .expect("messages posted");
                client.enter_parent_frame().await.expect("back out");
            }
        };
        // A frame that is not the playground's (no address of its folder, no mark) stays as
        // its page made it, whatever it posts.
        page.eval(
            "const other = document.createElement('iframe');
             other.srcdoc = '<p>another site\\'s frame</p>';
             other.style.height = '90px';
             document.body.append(other);
             return null;",
        )
        .await;
        frames_until(&page, "the third frame", |f| f.len() == 3).await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        page.eval(record).await;
        post_from_frame(
            0,
            "[0, -1, NaN, Infinity, -Infinity, '900', null, {}, [700], true, undefined]",
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        let set = page.eval("return window.setHeights").await;
        assert_eq!(set, serde_json::json!([[], [], []]), "not a height, yet set");
        post_from_frame(0, "[3, 149.5]").await;
        post_from_frame(1, "[1e12]").await;
        post_from_frame(2, "[900, 10, 1e12]").await;
        tokio::time::sleep(std::time::Duration::from_millis(600)).await;
        let set = page.eval("return window.setHeights").await;
        let px = |frame: usize| -> Vec<f64> {
            set[frame]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h.as_str().unwrap().trim_end_matches("px").parse().unwrap())
                .collect()
        };
        assert!(px(0).contains(&150.0), "the floor: {set}");
        assert!(px(1).contains(&100_000.0), "the ceiling: {set}");
        assert!(
            px(0).iter().chain(&px(1)).all(|h| (150.0..=100_000.0).contains(h)),
            "{set}"
        );
        assert!(px(2).is_empty(), "another site's frame was sized: {set}");
        page.screenshot("iframe-host").await;
    })
    .await;
}

/// "Embed this" on the playground, a lesson step and an exercise: the snippets name exactly
/// what is on screen (kind, settings, a title, 100% wide with a maximum), the preview shows
/// that widget, and the playground's can be switched to its histogram alone.
#[tokio::test]
async fn embed_this_gives_the_snippets_of_what_is_on_screen_with_a_preview() {
    browser::run("embed-this", |page| async move {
        page.open("index.html?preset=cb&timeout=0.1", "#embed-open")
            .await;
        page.eval("document.getElementById('embed-open').click(); return null")
            .await;
        let element = page
            .eval("return document.getElementById('embed-element').value")
            .await;
        let element = element.as_str().unwrap().to_string();
        for part in [
            &format!(
                "<script type=\"module\" src=\"{}widgets.js\"></script>",
                page.base_url
            ),
            "kind=\"playground\"",
            "preset=\"cb\"",
            "timeout=\"0.1\"",
            "title=\"Resilience Playground: the playground\"",
        ] {
            assert!(element.contains(part), "{element} lacks {part}");
        }
        let iframe = page
            .eval("return document.getElementById('embed-iframe').value")
            .await;
        let iframe = iframe.as_str().unwrap().to_string();
        assert!(
            iframe.contains("embed.html?kind=playground&amp;preset=cb&amp;timeout=0.1"),
            "{iframe}"
        );
        assert!(
            iframe.contains("width: 100%; max-width: 1200px"),
            "{iframe}"
        );
        assert!(iframe.contains("iframe-host.js"), "{iframe}");
        // The preview is that widget, with that timeout.
        let preview_timeout = "const f = document.getElementById('embed-preview');
            const d = f && f.contentDocument;
            const t = d && d.querySelector('[id$=\"timeout\"][type=range]');
            return t ? t.value : null;";
        let start = std::time::Instant::now();
        while page.eval(preview_timeout).await != "100" {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the preview did not show the run"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        // The preview reported its content's height, and the iframe's snippet asks for it
        // (a platform that keeps no script leaves the iframe at that height).
        let measured = "const f = document.getElementById('embed-preview');
            const d = f && f.contentDocument;
            const h = d && Math.ceil(d.documentElement.getBoundingClientRect().height);
            const snippet = document.getElementById('embed-iframe').value;
            const said = document.getElementById('embed-measured').textContent;
            return [h, (snippet.match(/height: (\\d+)px/) || [])[1] || null, said];";
        let start = std::time::Instant::now();
        loop {
            let got = page.eval(measured).await;
            let content = got[0].as_u64().unwrap_or(0);
            let written = got[1].as_str().unwrap_or("").to_string();
            if content > 720 && written == content.to_string() {
                let said = got[2].as_str().unwrap_or("");
                assert!(
                    said.starts_with(&format!("Its content is {content} px tall")),
                    "{said}"
                );
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the iframe's snippet does not ask for its content's height: {got}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        page.screenshot("embed-this-playground").await;
        // The histogram alone, with the same settings.
        page.eval(&browser::set_value("embed-kind", "histogram"))
            .await;
        let element = page
            .eval("return document.getElementById('embed-element').value")
            .await;
        assert!(
            element
                .as_str()
                .unwrap()
                .contains("kind=\"histogram\" preset=\"cb\" timeout=\"0.1\""),
            "{element}"
        );
        let start = std::time::Instant::now();
        while page
            .eval(
                "const d = document.getElementById('embed-preview').contentDocument;
                   return !!(d && d.querySelector('.rp.widget[data-kind=histogram] canvas'))",
            )
            .await
            != true
        {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "the preview did not switch"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        // A lesson step.
        page.open("lesson.html?lesson=km0&step=timeout", "#embed-open")
            .await;
        page.eval("document.getElementById('embed-open').click(); return null")
            .await;
        let element = page
            .eval("return document.getElementById('embed-element').value")
            .await;
        assert!(
            element
                .as_str()
                .unwrap()
                .contains("kind=\"lesson-step\" lesson=\"km0\" step=\"timeout\""),
            "{element}"
        );
        // An exercise, on the exercises page only.
        page.open("exercises.html", "#exercise-2 [id$='-embed-open']")
            .await;
        page.eval(
            "document.querySelector(\"#exercise-2 [id$='-embed-open']\").click(); return null",
        )
        .await;
        let element = page
            .eval("return document.querySelector(\"#exercise-2 [id$='-embed-element']\").value")
            .await;
        assert!(
            element.as_str().unwrap().contains("kind=\"exercise-2\""),
            "{element}"
        );
        page.open(
            "embed.html?kind=exercise-2",
            "[id$='-ex2-check'], .exercise",
        )
        .await;
        let offered = page
            .eval("return document.querySelectorAll('.embed-open').length")
            .await;
        assert_eq!(
            offered,
            Value::from(0),
            "an embedded exercise offers no embedding"
        );
    })
    .await;
}

/// Two widgets on one page keep their landmarks apart (each region named with what its
/// widget shows), and `heading-level` puts a widget's headings under the course page's.
#[tokio::test]
async fn widgets_name_their_landmarks_by_kind_and_take_the_pages_heading_level() {
    browser::run("widgets-landmarks", |page| async move {
        page.open("course-demo.html", "#demo-histogram [id$='-latency-chart']")
            .await;
        let names = page
            .eval(
                "return [...document.querySelectorAll('resilience-widget section.region')].map(s =>
                   s.getAttribute('aria-label')
                   || document.getElementById(s.getAttribute('aria-labelledby')).textContent)",
            )
            .await;
        let names: Vec<String> = serde_json::from_value(names).unwrap();
        assert!(names.len() >= 4, "{names:?}");
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "two landmarks share a name: {names:?}");
        assert!(names.iter().any(|n| n == "Timeline, latency histogram"), "{names:?}");
        assert!(names.iter().any(|n| n == "Timeline, circuit breaker diagram"), "{names:?}");
        // A level asked for; a bad one named, with the default kept.
        page.open("embed.html?kind=histogram&heading-level=4", "#widget section.region")
            .await;
        let tags = page
            .eval("return [...document.querySelectorAll('#widget section.region > :first-child')].map(h => h.tagName)")
            .await;
        assert!(
            tags.as_array().unwrap().iter().all(|t| t == "H4"),
            "{tags}"
        );
        page.open("embed.html?kind=histogram&heading-level=9", "[id$='-widget-notices']")
            .await;
        let notice = page.text("[id$='-widget-notices']").await;
        assert!(notice.contains("heading-level") && notice.contains("2 to 6"), "{notice}");
        let tags = page
            .eval("return [...document.querySelectorAll('#widget section.region > :first-child')].map(h => h.tagName)")
            .await;
        assert!(tags.as_array().unwrap().iter().all(|t| t == "H2"), "{tags}");
    })
    .await;
}

/// A course page on another origin, as "Embed this" writes its snippet: with
/// `Access-Control-Allow-Origin` on the playground's host the widget runs; without it, the
/// element's own text says why in place of a blank.
#[tokio::test]
async fn a_course_page_on_another_origin_gets_widgets_with_the_header_and_a_reason_without() {
    use resilience_playground::page::embed::Embed;
    use resilience_playground::page::widget::WidgetKind;
    let dist = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dist");
    let course = browser::artefacts_dir().join("cross-origin-course");
    std::fs::create_dir_all(&course).unwrap();
    // The refused script is what the second round tests: the browser logs it.
    const REFUSED: &[&str] = &[
        "blocked by CORS policy",
        "widgets.js - Failed to load resource",
    ];
    browser::run_expecting("widgets-cross-origin", REFUSED, |page| async move {
        for allowed in [true, false] {
            let playground = browser::StaticServer::start_for(dist.clone(), false, &[], allowed);
            let base = format!("http://127.0.0.1:{}/", playground.port);
            let snippet = Embed::new(WidgetKind::Histogram, "preset=cb").element(&base);
            std::fs::write(
                course.join("index.html"),
                format!(
                    "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
                     <title>A course page</title><link rel=\"icon\" href=\"data:,\"></head><body><h1>Week 3</h1>{snippet}</body></html>"
                ),
            )
            .unwrap();
            let host = browser::StaticServer::start(course.clone(), false, &[]);
            assert_ne!(host.port, playground.port, "two origins");
            page.client
                .goto(&format!("http://127.0.0.1:{}/index.html", host.port))
                .await
                .expect("the course page opens");
            let start = std::time::Instant::now();
            let shown = loop {
                let now = page
                    .eval(
                        "const w = document.querySelector('resilience-widget');
                         return [!!w.querySelector('[id$=\"-latency-chart\"]'), w.textContent.trim().slice(0, 200)]",
                    )
                    .await;
                let done = if allowed { now[0] == true } else { start.elapsed() > Duration::from_secs(4) };
                if done {
                    break now;
                }
                assert!(start.elapsed() < Duration::from_secs(20), "allowed {allowed}: {now}");
                tokio::time::sleep(Duration::from_millis(200)).await;
            };
            if allowed {
                assert_eq!(shown[0], true, "the widget runs across origins: {shown}");
            } else {
                let text = shown[1].as_str().unwrap();
                assert!(
                    text.contains("Access-Control-Allow-Origin") && text.contains(&base),
                    "without the header, a reason in place: {text}"
                );
                page.screenshot("widgets-cross-origin-refused").await;
            }
        }
    })
    .await;
}

/// A course page themes its widgets with CSS custom properties (accent, background, panel,
/// text, font) on the element or an ancestor; unset, the widget keeps its theme's colours.
#[tokio::test]
async fn a_course_page_themes_its_widgets_with_custom_properties() {
    browser::run("widgets-theming", |page| async move {
        page.open(
            "embed.html?kind=histogram&preset=cb&theme=light",
            "#widget .rp.widget",
        )
        .await;
        const LOOK: &str = "const w = document.querySelector('#widget .rp.widget');
            const s = getComputedStyle(w);
            const scrub = getComputedStyle(w.querySelector('[id$=scrub]'));
            return [scrub.accentColor, s.backgroundColor, s.color, scrub.fontFamily];";
        let before = page.eval(LOOK).await;
        assert_eq!(before[0], "rgb(0, 114, 178)", "{before}");
        page.eval(
            "const host = document.getElementById('widget');
             host.style.setProperty('--rp-accent', 'rgb(200, 0, 0)');
             host.style.setProperty('--rp-background', 'rgb(250, 240, 220)');
             host.style.setProperty('--rp-text', 'rgb(40, 30, 20)');
             host.style.setProperty('--rp-font', 'Georgia, serif');
             return null",
        )
        .await;
        let after = page.eval(LOOK).await;
        assert_eq!(
            after,
            serde_json::json!([
                "rgb(200, 0, 0)",
                "rgb(250, 240, 220)",
                "rgb(40, 30, 20)",
                "Georgia, serif"
            ]),
            "before: {before}"
        );
        page.screenshot("widget-themed").await;
    })
    .await;
}

/// The mdBook recipe, for real: `mdbook` (pinned in the Makefile) builds `tests/mdbook`, a
/// chapter with a widget and an iframe; served with `dist/` under `playground/`, both render
/// and fit the book's column, the iframe sized by its host script with no inner scrollbar.
#[tokio::test]
async fn a_book_built_by_mdbook_shows_a_widget_and_an_iframe_that_fit() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let book = browser::artefacts_dir().join("mdbook");
    let _ = std::fs::remove_dir_all(&book);
    let built = std::process::Command::new("mdbook")
        .arg("build")
        .arg(root.join("tests/mdbook"))
        .arg("--dest-dir")
        .arg(&book)
        .output()
        .expect("mdbook runs (make test installs it)");
    assert!(
        built.status.success(),
        "mdbook build: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let copied = std::process::Command::new("cp")
        .arg("-r")
        .arg(root.join("dist"))
        .arg(book.join("playground"))
        .status()
        .expect("cp");
    assert!(copied.success());
    browser::run("widgets-mdbook", |page| async move {
        let server = browser::StaticServer::start(book.clone(), false, &[]);
        page.client
            .goto(&format!("http://127.0.0.1:{}/timeouts.html", server.port))
            .await
            .expect("the chapter opens");
        const STATE: &str = "
            const w = document.querySelector('#book-histogram .rp.widget');
            const f = document.getElementById('book-diagram');
            const d = f.contentDocument;
            const inner = d && d.documentElement;
            return {
              widget: !!(w && w.querySelector('[id$=\"-latency-chart\"]')),
              widget_fits: !!w && w.scrollWidth <= w.clientWidth + 1,
              frame: !!(d && d.querySelector('.state-diagram')),
              frame_fits: !!inner && inner.scrollHeight <= f.clientHeight + 2
                && inner.scrollWidth <= f.clientWidth + 1,
              page_fits: document.documentElement.scrollWidth <= window.innerWidth,
              heading: w ? (w.querySelector('section.region > :first-child') || {}).tagName : null,
              root_px: parseFloat(getComputedStyle(document.documentElement).fontSize),
              marks_px: w && w.querySelector('.marks')
                ? parseFloat(getComputedStyle(w.querySelector('.marks')).fontSize) : null,
              title_margin: w && w.querySelector('section.region > :first-child')
                ? getComputedStyle(w.querySelector('section.region > :first-child')).marginTop : null,
            };";
        let start = std::time::Instant::now();
        let state = loop {
            let now = page.eval(STATE).await;
            if now["widget"] == true && now["frame"] == true && now["frame_fits"] == true {
                break now;
            }
            assert!(start.elapsed() < Duration::from_secs(30), "{now}");
            tokio::time::sleep(Duration::from_millis(300)).await;
        };
        assert_eq!(state["widget_fits"], true, "{state}");
        assert_eq!(state["page_fits"], true, "{state}");
        assert_eq!(
            state["heading"], "H3",
            "heading-level=3 under the chapter's h1: {state}"
        );
        // mdBook's root font is 62.5% (10 px): the widget's sizes still follow the browser's
        // 16 px (0.8 rem for the timeline's marks), and the book's heading margins stay out.
        assert_eq!(state["root_px"], 10.0, "{state}");
        assert_eq!(state["marks_px"], 12.8, "{state}");
        assert_eq!(state["title_margin"], "0px", "{state}");
        page.screenshot("widgets-mdbook").await;
    })
    .await;
}
