//! Reliability and security in the browser: every page's Content-Security-Policy and no
//! request once it has loaded, axe-core's audit in light, dark and projector modes, the
//! keyboard alone, a panic that stays inside its widget, and every widget attribute swept with
//! awkward values. Run by `make test` after the release build.

#[path = "support/browser.rs"]
mod browser;

use std::collections::BTreeSet;
use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::Locator;
use resilience_playground::page::knobs::KNOBS;
use resilience_playground::page::permalink::OTHER_KEYS;
use serde_json::{json, Value};

/// The policy every page carries (and the README gives to hosts as a header).
const POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
                      style-src 'self'; style-src-attr 'unsafe-inline'; object-src 'none'; \
                      base-uri 'none'";

/// Each page, and an element it shows once its views are drawn.
const PAGES: [(&str, &str); 7] = [
    ("index.html", "#scrub"),
    ("index.html?preset=cb&ab=window%3D1", "#ab-counters"),
    ("lesson.html?lesson=km0&step=8", "[data-lesson-step]"),
    ("exercises.html", "#exercise-4 [id$='-ex4-run']"),
    ("course-demo.html", "#demo-table table"),
    (
        "embed.html?kind=histogram&preset=cb",
        "[id$='-latency-chart']",
    ),
    (
        "embed.html?kind=compare-libraries",
        "[id$='libraries-table']",
    ),
];

/// Every page's policy, read from the page, and what it loaded: all from its own origin,
/// and nothing more while it plays and changes preset.
#[tokio::test]
async fn every_page_carries_the_policy_and_requests_nothing_once_loaded() {
    browser::run("csp", |page| async move {
        for (path, ready) in PAGES {
            page.open(path, ready).await;
            let policy = page
                .eval(
                    "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]');
                     return m ? m.content : null;",
                )
                .await;
            assert_eq!(policy, json!(POLICY.split_whitespace().collect::<Vec<_>>().join(" ")), "{path}");
            let inline = page
                .eval("return [...document.scripts].filter(s => !s.src).length + document.querySelectorAll('style').length")
                .await;
            assert_eq!(inline, json!(0), "{path}: inline scripts or style elements");
            let loaded = resources(&page).await;
            let origin = page.base_url.trim_end_matches('/').to_string();
            for url in &loaded {
                assert!(url.starts_with(&origin), "{path} loaded {url} from elsewhere");
            }
            // Play for a while and change the preset (or the exercise's answer): the page works
            // from what it has.
            page.eval(
                "const play = document.querySelector(\"[id$='play'], #play, [id$='-ex1-run']\");
                 if (play) play.click();
                 const pick = document.querySelector('#scenario');
                 if (pick) { pick.value = 'bulkhead'; pick.dispatchEvent(new Event('change', { bubbles: true })); }",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(1500)).await;
            let after = resources(&page).await;
            assert_eq!(after, loaded, "{path} made requests after it loaded");
        }
    })
    .await;
}

/// The URLs of every resource the page has fetched so far.
async fn resources(page: &browser::Page) -> Vec<String> {
    let value = page
        .eval("return performance.getEntriesByType('resource').map(e => e.name)")
        .await;
    serde_json::from_value(value).expect("a list of URLs")
}

/// axe-core, as `make browser-tools` installed it from npm.
fn axe_source() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".tools/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run `make browser-tools` to install axe-core",
            path.display()
        )
    })
}

/// Runs axe-core on the open page and returns its serious and critical violations, one line
/// each (rule, impact, how many nodes, the first few of them).
async fn serious_violations(page: &browser::Page, axe: &str) -> Vec<String> {
    page.eval(&format!("{axe}\nreturn typeof window.axe;"))
        .await;
    let found = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then(r => done(r.violations
                 .filter(v => v.impact === 'serious' || v.impact === 'critical')
                 .map(v => v.id + ' (' + v.impact + ', ' + v.nodes.length + ' nodes): ' +
                   v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(' | '))))
               .catch(e => done(['axe failed: ' + e]));",
            vec![],
        )
        .await
        .expect("axe runs");
    serde_json::from_value(found).expect("a list of violations")
}

#[tokio::test]
async fn axe_finds_no_serious_or_critical_violation_in_light_dark_and_projector_modes() {
    browser::run("axe", |page| async move {
        let axe = axe_source();
        let mut report = Vec::new();
        for mode in ["light", "dark", "projector"] {
            let scheme = if mode == "dark" { "dark" } else { "light" };
            page.devtools(
                "Emulation.setEmulatedMedia",
                json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
            )
            .await;
            for (path, ready) in PAGES {
                // The playground with a request followed, in dark and projector modes.
                let path = match (mode, path) {
                    ("projector", "index.html") => {
                        "index.html?projector=on&trace=slowest".to_string()
                    }
                    ("dark", "index.html") => {
                        "index.html?preset=retry-storm&trace=retried".to_string()
                    }
                    _ => path.to_string(),
                };
                page.open(&path, ready).await;
                if mode == "projector" {
                    // The widgets' pages have no switch of their own: the class the
                    // playground's switch sets.
                    page.eval("document.documentElement.classList.add('projector')")
                        .await;
                }
                tokio::time::sleep(Duration::from_millis(300)).await;
                for v in serious_violations(&page, &axe).await {
                    report.push(format!("{mode} {path}: {v}"));
                }
            }
        }
        println!("axe, serious and critical:\n{}", report.join("\n"));
        assert!(report.is_empty(), "axe found:\n{}", report.join("\n"));
    })
    .await;
}

/// A control's name for the Tab walk: a radio button stands for its group (Tab enters a group
/// once, the arrows move inside it), anything else for itself.
const CONTROL_NAME: &str = "const name = e => e.type === 'radio' ? 'radio group ' + e.name
     : (e.id || (e.tagName + ':' + e.textContent.trim().slice(0, 30)));";

/// What has the focus: its name, whether it shows a focus ring, and whether it is the player's
/// play button.
fn focused() -> String {
    format!(
        "{CONTROL_NAME}
         const el = document.activeElement;
         const style = getComputedStyle(el);
         const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
           || style.boxShadow !== 'none';
         return {{ name: name(el), ring, play: el.id === 'play' }};"
    )
}

/// Presses Tab once, as a keyboard would.
async fn tab(page: &browser::Page) -> Value {
    page.client
        .active_element()
        .await
        .expect("an active element")
        .send_keys("\u{E004}")
        .await
        .expect("Tab");
    page.eval(&focused()).await
}

#[tokio::test]
async fn the_keyboard_alone_reaches_every_control_with_a_visible_focus_and_the_player_in_five_tabs()
{
    browser::run("keyboard", |page| async move {
        page.open("index.html", "#scrub").await;
        // The skip link comes first; Enter on it, and the player is a few Tabs on.
        let first = tab(&page).await;
        assert!(first["name"].as_str().unwrap().contains("Skip"), "{first}");
        assert_eq!(first["ring"], json!(true), "the skip link shows its focus");
        page.client
            .active_element()
            .await
            .unwrap()
            .send_keys("\u{E007}")
            .await
            .expect("Enter");
        let mut stops = 1;
        loop {
            stops += 1;
            let now = tab(&page).await;
            if now["play"] == json!(true) {
                break;
            }
            assert!(stops < 5, "the play button is not within 5 Tab stops: {now}");
        }
        println!("the play button is Tab stop {stops} (Enter on the skip link between)");
        // Every control on the page, in Tab order from the top, each with a visible focus.
        page.open("index.html", "#scrub").await;
        let controls: BTreeSet<String> = serde_json::from_value(
            page.eval(&format!(
                "{CONTROL_NAME}
                 return [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')]
                   .filter(e => !e.disabled && e.tabIndex >= 0 && e.offsetParent !== null)
                   .map(name)"
            ))
            .await,
        )
        .unwrap();
        let mut reached = BTreeSet::new();
        let mut without_ring = Vec::new();
        for _ in 0..(controls.len() * 2 + 10) {
            let now = tab(&page).await;
            let name = now["name"].as_str().unwrap().to_string();
            // Past the last control the focus wraps to the document itself.
            if now["ring"] != json!(true) && !name.starts_with("BODY") {
                without_ring.push(name.clone());
            }
            if !reached.insert(name) && controls.is_subset(&reached) {
                break;
            }
        }
        let missed: Vec<&String> = controls.difference(&reached).collect();
        println!("{} controls, {} reached by Tab", controls.len(), reached.len());
        assert!(missed.is_empty(), "not reachable by Tab: {missed:?}");
        assert!(without_ring.is_empty(), "no visible focus: {without_ring:?}");
    })
    .await;
}

/// The test may see these errors: the forced panic, reported by the widget that failed.
fn only_the_forced_panic(errors: &[String]) {
    for e in errors {
        assert!(
            e.contains("panic") || e.contains("unreachable") || e.contains("RuntimeError"),
            "an error besides the forced panic: {e}"
        );
    }
}

#[tokio::test]
async fn a_panic_stays_inside_its_widget_and_the_others_still_play() {
    browser::run("panic", |page| async move {
        page.open("course-demo.html", "#demo-table table").await;
        page.eval(
            "const w = document.createElement('resilience-widget');
             w.id = 'doomed';
             w.setAttribute('kind', 'circuit-diagram');
             w.setAttribute('debug', 'panic');
             document.body.prepend(w);",
        )
        .await;
        page.client
            .wait()
            .for_element(Locator::Css("#doomed [id$='-play']"))
            .await
            .expect("the widget to fail mounts");
        let memory = page
            .eval(
                "return [...document.querySelectorAll('resilience-widget')]
                   .map(w => w.simulatorMemory ? w.simulatorMemory.buffer.byteLength : 0)",
            )
            .await;
        println!("WebAssembly memory per widget instance, bytes: {memory}");
        page.eval("document.querySelector(\"#doomed [id$='-play']\").click()")
            .await;
        page.client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::Css("#doomed .widget-failed"))
            .await
            .expect("the failed widget says so");
        let message = page.text("#doomed .widget-failed").await;
        assert!(message.contains("stopped working"), "{message}");
        only_the_forced_panic(&browser::console_errors(&page.client).await);
        // The other widgets still play: the diagram's clock runs, the histogram scrubs.
        page.eval("document.querySelector(\"#demo-diagram [id$='-play']\").click()")
            .await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let clock = page.text("#demo-diagram [id$='-clock']").await;
        assert!(
            !clock.contains("0.0 s") || clock.contains("10.0"),
            "the diagram plays: {clock}"
        );
        let playing = page.text("#demo-diagram [id$='-play']").await;
        assert!(
            playing.contains("Pause"),
            "the diagram is playing: {playing}"
        );
        page.eval(
            "const el = document.querySelector(\"#demo-histogram [id$='-scrub']\");
             el.value = '120'; el.dispatchEvent(new Event('input', { bubbles: true }));",
        )
        .await;
        let total: u64 = page
            .text("#demo-histogram [id$='-hist-total']")
            .await
            .trim()
            .parse()
            .expect("a count of finished requests");
        assert!(total > 1000, "the histogram still answers: {total}");
        page.eval("window.scrollTo(0, 0)").await;
        page.screenshot("panic-in-one-widget").await;
        only_the_forced_panic(&browser::console_errors(&page.client).await);
    })
    .await;
}

/// The awkward values of the sweep: empty, huge, negative, NaN, HTML and 10 KB.
fn awkward_values() -> Vec<String> {
    vec![
        String::new(),
        "99999999999999999999999".into(),
        "-1".into(),
        "NaN".into(),
        "<img src=x onerror=alert(1)><b>bold</b>".into(),
        "9".repeat(10 * 1024),
    ]
}

#[tokio::test]
async fn every_attribute_with_every_awkward_value_is_named_never_run_as_html() {
    browser::run("sweep", |page| async move {
        let mut names = vec!["kind", "theme"];
        names.extend(OTHER_KEYS);
        names.extend(KNOBS.iter().map(|k| k.key));
        page.open("course-demo.html", "#demo-table table").await;
        let values = awkward_values();
        for (i, value) in values.iter().enumerate() {
            let script = format!(
                "const w = document.createElement('resilience-widget');
                 w.id = 'sweep-{i}';
                 for (const name of {names}) w.setAttribute(name, {value});
                 document.body.append(w);",
                names = json!(names),
                value = json!(value),
            );
            page.eval(&script).await;
        }
        for (i, value) in values.iter().enumerate() {
            page.client
                .wait()
                .at_most(Duration::from_secs(30))
                .for_element(Locator::Css(&format!("#sweep-{i} [id$='-widget-notices']")))
                .await
                .unwrap_or_else(|e| panic!("sweep-{i}: no notices: {e}"));
            let named: Vec<String> = serde_json::from_value(
                page.eval(&format!(
                    "return [...document.querySelectorAll(\"#sweep-{i} [id$='-widget-notices'] li\")]
                       .map(li => li.textContent.split(':')[0])"
                ))
                .await,
            )
            .unwrap();
            let named: BTreeSet<&str> = named.iter().map(String::as_str).collect();
            // An empty theme is `auto`; every other attribute refuses every awkward value.
            let expected: BTreeSet<&str> = names
                .iter()
                .copied()
                .filter(|n| !(value.is_empty() && *n == "theme"))
                .collect();
            let short: String = value.chars().take(12).collect();
            assert_eq!(named, expected, "value {short:?}");
            let injected = page
                .eval(&format!("return document.querySelectorAll('#sweep-{i} img, #sweep-{i} b').length"))
                .await;
            assert_eq!(injected, json!(0), "value {short:?} reached the page as HTML");
            // The widget still shows its view (the default circuit diagram's timeline).
            let widget = page
                .eval(&format!("return !!document.querySelector(\"#sweep-{i} [id$='-scrub']\")"))
                .await;
            assert_eq!(widget, json!(true), "value {short:?}: the widget shows its view");
        }
        page.client.set_window_size(1300, 2000).await.expect("window size");
        page.eval("document.getElementById('sweep-4').scrollIntoView()").await;
        page.screenshot("attribute-sweep").await;
    })
    .await;
}

/// The regions below the stage, drawn only near the screen, are still in the accessibility
/// tree with their names and headings when far off screen, so a screen reader finds them by
/// heading from the top of the page.
#[tokio::test]
async fn regions_off_screen_keep_their_names_and_headings_for_assistive_technology() {
    browser::run("ax-regions", |page| async move {
        page.open("index.html", "#scrub").await;
        page.eval("window.scrollTo(0, 0); return null").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let tree = page
            .devtools("Accessibility.getFullAXTree", json!({}))
            .await;
        let nodes = tree["nodes"].as_array().cloned().unwrap_or_default();
        let named = |role: &str, name: &str| {
            nodes.iter().any(|n| {
                n["ignored"] != true
                    && n["role"]["value"] == role
                    && n["name"]["value"].as_str() == Some(name)
            })
        };
        for title in [
            "The lesson's table",
            "Backoff and jitter, side by side",
            "Metastability explorer: does it come back?",
        ] {
            assert!(named("heading", title), "no heading {title:?} in the tree");
            assert!(
                named("region", title),
                "no region named {title:?} in the tree"
            );
        }
    })
    .await;
}

/// Records every change of text in the page's live regions, with its time and element.
const RECORD_LIVE_REGIONS: &str = "
    window.__liveChanges = [];
    const regions = document.querySelectorAll('[aria-live]:not([aria-live=off]), [role=status], [role=alert]');
    for (const region of regions) {
      new MutationObserver(() => window.__liveChanges.push(
        [performance.now(), region.id, region.textContent.trim()]
      )).observe(region, { childList: true, subtree: true, characterData: true });
    }
    return regions.length;";

#[tokio::test]
async fn while_a_run_plays_the_live_regions_speak_at_most_once_every_three_seconds() {
    browser::run("announcements", |page| async move {
        page.open("index.html?preset=cb", "#scrub").await;
        let regions = page.eval(RECORD_LIVE_REGIONS).await;
        assert!(regions.as_u64() >= Some(2), "{regions}");
        // cb at 2x: its 12 s take 6 s of wall time, with six marked events in them.
        page.eval(&browser::set_value("speed", "2")).await;
        let started = page.eval("return performance.now()").await.as_f64().unwrap();
        page.eval("document.getElementById('play').click(); return null").await;
        let start = std::time::Instant::now();
        while page.eval("return document.getElementById('play').textContent").await
            != json!("▶ Play")
        {
            assert!(start.elapsed() < Duration::from_secs(30), "the run did not end");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        let changes = page.eval("return window.__liveChanges").await;
        let all: Vec<(f64, String, String)> = changes
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c[0].as_f64().unwrap(),
                    c[1].as_str().unwrap_or_default().to_string(),
                    c[2].as_str().unwrap_or_default().to_string(),
                )
            })
            .collect();
        // The run's summary speaks once, when it stops: what came before was said while it
        // played.
        let ended = all
            .iter()
            .find(|(_, id, text)| id == "run-summary" && !text.is_empty())
            .map(|c| c.0)
            .expect("the summary speaks at the end");
        let said: Vec<(f64, String, String)> = all
            .into_iter()
            .filter(|(at, _, text)| *at > started && *at < ended && !text.is_empty())
            .collect();
        assert!(said.len() >= 2, "the events are announced: {said:?}");
        assert!(said.iter().all(|(_, id, _)| id == "announcements"), "{said:?}");
        assert!(said[0].2.contains("inventory"), "{said:?}");
        for pair in said.windows(2) {
            assert!(pair[1].0 - pair[0].0 >= 2_900.0, "closer than 3 s: {said:?}");
        }
        println!(
            "{} announcements in {:.1} s of play: {said:?}",
            said.len(),
            (ended - started) / 1000.0
        );
        // The switch stops them.
        page.eval("document.getElementById('announce-events').click(); window.__liveChanges = []; return null")
            .await;
        page.eval(&browser::set_value("scrub", "0")).await;
        page.eval("document.getElementById('play').click(); return null").await;
        tokio::time::sleep(Duration::from_millis(4000)).await;
        let quiet = page
            .eval("return window.__liveChanges.filter(c => c[1] === 'announcements' && c[2] !== '').length")
            .await;
        assert_eq!(quiet, json!(0));
    })
    .await;
}

#[tokio::test]
async fn a_question_mark_lists_the_shortcuts_and_escape_closes_the_list() {
    browser::run("shortcuts-help", |page| async move {
        const OPEN: &str =
            "const d = document.querySelector('dialog.shortcuts-help'); return !!d && d.open;";
        for (path, ready, says) in [
            ("index.html", "#scrub", "back to the start"),
            (
                "lesson.html?lesson=km0",
                "[data-lesson-step]",
                "presenter's clicker",
            ),
        ] {
            page.open(path, ready).await;
            page.eval("document.getElementById('play').focus(); return null")
                .await;
            browser::press_keys(&page, &['?']).await;
            assert_eq!(
                page.eval(OPEN).await,
                json!(true),
                "{path}: ? opened nothing"
            );
            let list = page.text("dialog.shortcuts-help").await;
            assert!(
                list.contains(says) && list.contains("play or pause"),
                "{path}: {list}"
            );
            browser::press_keys(&page, &['\u{E00C}']).await; // Escape
            assert_eq!(
                page.eval(OPEN).await,
                json!(false),
                "{path}: Escape left it open"
            );
        }
        // In a text field "?" is a character, not a shortcut.
        page.open("index.html", "#scrub").await;
        page.eval("document.getElementById('threads-number').focus(); return null")
            .await;
        browser::press_keys(&page, &['?']).await;
        assert_eq!(page.eval(OPEN).await, json!(false));
    })
    .await;
}

/// The histogram's name in the accessibility tree, as a screen reader reads it.
async fn histogram_in_the_tree(page: &browser::Page) -> String {
    let tree = page
        .devtools("Accessibility.getFullAXTree", json!({}))
        .await;
    tree["nodes"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|n| n["name"]["value"].as_str())
        .find(|name| name.starts_with("Histogram of the"))
        .unwrap_or_default()
        .to_string()
}

/// What the host makes of the same link at its end: the histogram's count, p50, p99, shape.
fn host_histogram(query: &str) -> (u64, String) {
    use resilience_playground::page::latency::{histogram_until, LatencyKind};
    use resilience_playground::page::permalink::{from_pairs, parse_query};
    let (page, _) = from_pairs(&parse_query(query).0);
    let run = page.runs.a.as_ref().expect("the run");
    let h = histogram_until(&run.0.finished, u64::MAX, LatencyKind::Service);
    (h.total, h.shape())
}

#[tokio::test]
async fn the_histograms_description_in_the_tree_says_its_shape_and_follows_the_knob() {
    let (total, shape) = host_histogram("preset=cb");
    let (_, shorter) = host_histogram("preset=cb&timeout=0.1");
    assert_ne!(shape, shorter, "the timeout changes the histogram's shape");
    browser::run("ax-histogram", |page| async move {
        page.open("index.html?preset=cb", "#scrub").await;
        page.eval(&browser::set_value("scrub", "1200")).await;
        let start = std::time::Instant::now();
        let mut said = histogram_in_the_tree(&page).await;
        while !said.contains(&shape) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "{said:?} lacks {shape:?}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
            said = histogram_in_the_tree(&page).await;
        }
        assert!(
            said.contains(&format!("of {total} finished requests")),
            "{said}"
        );
        // The breaker's diagram says where it is, since when and why, and each arrow.
        let tree = page
            .devtools("Accessibility.getFullAXTree", json!({}))
            .await;
        let diagram = tree["nodes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|n| n["name"]["value"].as_str())
            .find(|name| name.starts_with("Circuit breaker state diagram:"))
            .unwrap_or_default()
            .to_string();
        assert!(
            diagram.contains(" since ") && diagram.contains(", because "),
            "{diagram}"
        );
        assert!(diagram.contains("Arrows: CLOSED to OPEN: "), "{diagram}");
        // The timeout moved: the description moves with it.
        page.eval(&browser::set_value("timeout-number", "100"))
            .await;
        page.eval(&browser::set_value("scrub", "1200")).await;
        let start = std::time::Instant::now();
        while !histogram_in_the_tree(&page).await.contains(&shorter) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "the description did not follow the knob"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    })
    .await;
}

/// Counts the pointer's presses on the page, so a keyboard-only test can show it sent none.
const COUNT_MICE: &str = "window.__mice = 0;
    for (const t of ['mousedown', 'pointerdown', 'touchstart']) {
      addEventListener(t, () => { window.__mice += 1; }, true);
    }
    return null;";

/// The focused element, as a test names it.
const ACTIVE: &str = "const e = document.activeElement;
    return e.id || (e.className + ':' + e.textContent.trim().slice(0, 40));";

/// Presses keys until `check` (a script) returns true, at most 80 times.
async fn press_until(page: &browser::Page, key: char, check: &str) {
    for _ in 0..80 {
        if page.eval(check).await == json!(true) {
            return;
        }
        browser::press_keys(page, &[key]).await;
    }
    let at = page.eval(ACTIVE).await;
    panic!("never reached {check}; the focus is on {at}");
}

/// Waits until the text of `css` is `wanted`.
async fn wait_for_text(page: &browser::Page, css: &str, wanted: &str) {
    let start = std::time::Instant::now();
    loop {
        let now = page.text(css).await;
        if now == wanted {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{css} says {now:?}, not {wanted:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The playground and a KM0 step, with the keyboard alone: Tab order through the timeline
/// and the charts (the marked events one stop), the histogram's bars read with their counts
/// as the host counts them, an event's Enter moving the playhead, a knob moved; not one
/// pointer press.
#[tokio::test]
async fn the_charts_and_the_timeline_are_read_and_moved_with_the_keyboard_alone() {
    use resilience_playground::page::chart_table::histogram_table;
    use resilience_playground::page::latency::{histogram_until, LatencyKind};
    use resilience_playground::page::permalink::{from_pairs, parse_query};
    let (host, _) = from_pairs(&parse_query("preset=cb").0);
    let run = host.runs.a.as_ref().expect("the run");
    let bars = histogram_table(
        &histogram_until(&run.0.finished, run.0.span, LatencyKind::Service),
        LatencyKind::Service.label(),
    );
    let (first_bar, last_bar) = (
        bars.reading(0).unwrap(),
        bars.reading(bars.rows.len() - 1).unwrap(),
    );
    let second_event = run.0.markers[1].clone();
    browser::run("keyboard-charts", |page| async move {
        page.open("index.html?preset=cb", "#latency-keys").await;
        page.eval(COUNT_MICE).await;
        // Tab order from the top: the play button, the scrub bar, the events (one stop),
        // and each chart.
        let mut order: Vec<String> = Vec::new();
        for _ in 0..250 {
            browser::press_keys(&page, &[Key::Tab.into()]).await;
            let now = page
                .eval(ACTIVE)
                .await
                .as_str()
                .unwrap_or_default()
                .to_string();
            order.push(now);
            let charts = ["load-keys", "latency-keys", "diagram-keys"];
            if charts.iter().all(|c| order.iter().any(|n| n == c)) {
                break;
            }
        }
        let at = |name: &str| {
            order
                .iter()
                .position(|n| n == name || n.starts_with(name))
                .unwrap_or_else(|| panic!("Tab never reached {name}: {order:?}"))
        };
        assert!(at("play") < at("scrub"), "{order:?}");
        assert!(at("scrub") < at("marker-seek"), "{order:?}");
        let events = order
            .iter()
            .filter(|n| n.starts_with("marker-seek"))
            .count();
        assert_eq!(events, 1, "the marked events are one Tab stop: {order:?}");
        for chart in ["load-keys", "latency-keys", "diagram-keys"] {
            at(chart);
        }
        // The histogram's bars at the run's end, read by the arrows: the host's first and
        // last bar.
        page.eval(&browser::set_value("scrub", "1200")).await;
        wait_for_text(&page, "#clock", "12.0 s / 12.0 s").await;
        page.eval("document.getElementById('play').focus(); return null")
            .await;
        press_until(
            &page,
            Key::Tab.into(),
            "return document.activeElement.id === 'latency-keys'",
        )
        .await;
        browser::press_keys(&page, &[Key::Right.into()]).await;
        wait_for_text(&page, "#latency-keys-reading", &first_bar).await;
        browser::press_keys(&page, &[Key::End.into()]).await;
        wait_for_text(&page, "#latency-keys-reading", &last_bar).await;
        // The arrows stayed in the chart: the playhead did not move.
        assert_eq!(page.text("#clock").await, "12.0 s / 12.0 s");
        // The events: one stop, the arrow to the second, Enter moves the playhead there.
        page.eval("document.getElementById('play').focus(); return null")
            .await;
        press_until(
            &page,
            Key::Tab.into(),
            "return document.activeElement.classList.contains('marker-seek')",
        )
        .await;
        browser::press_keys(&page, &[Key::Right.into()]).await;
        let label = page.eval("return document.activeElement.textContent").await;
        assert!(
            label
                .as_str()
                .unwrap_or_default()
                .contains(&second_event.label),
            "{label} is not {second_event:?}"
        );
        browser::press_keys(&page, &[Key::Enter.into()]).await;
        let clock = format!(
            "{} / 12.0 s",
            resilience_playground::page::replay::clock(second_event.at, None)
        );
        wait_for_text(&page, "#clock", &clock).await;
        // A knob: Tab to the timeout's slider, the arrow moves it.
        press_until(
            &page,
            Key::Tab.into(),
            "return document.activeElement.id === 'timeout'",
        )
        .await;
        let before = page
            .eval("return document.getElementById('timeout').value")
            .await;
        browser::press_keys(&page, &[Key::Right.into()]).await;
        let after = page
            .eval("return document.getElementById('timeout').value")
            .await;
        assert_ne!(before, after, "the arrow moved the timeout");
        assert_eq!(
            page.eval("return window.__mice").await,
            json!(0),
            "no pointer press"
        );

        // A KM0 step: play it with space, then its events and its diagram by the keys.
        page.open(
            "lesson.html?lesson=km0&step=breaker-window",
            "[data-lesson-step]",
        )
        .await;
        page.eval(COUNT_MICE).await;
        page.eval(&browser::set_value("speed", "20")).await;
        page.eval("document.getElementById('play').focus(); return null")
            .await;
        browser::press_keys(&page, &[' ']).await;
        let start = std::time::Instant::now();
        while page
            .eval("return document.querySelectorAll('.marker-seek').length")
            .await
            == json!(0)
            || page.text("#play").await.contains("Pause")
        {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the step did not play"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        press_until(
            &page,
            Key::Tab.into(),
            "return document.activeElement.classList.contains('marker-seek')",
        )
        .await;
        browser::press_keys(&page, &[Key::End.into(), Key::Enter.into()]).await;
        let last = page
            .eval("return [...document.querySelectorAll('.marker-seek strong')].pop().textContent")
            .await;
        let last = format!("{} /", last.as_str().unwrap());
        let start = std::time::Instant::now();
        while !page.text("#clock").await.starts_with(&last) {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "Enter did not seek to {last}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        press_until(
            &page,
            Key::Tab.into(),
            "return document.activeElement.id === 'diagram-keys'",
        )
        .await;
        browser::press_keys(&page, &[Key::Home.into()]).await;
        let reading = page.text("#diagram-keys-reading").await;
        assert!(reading.starts_with("state 1 of 3, CLOSED: "), "{reading}");
        assert_eq!(
            page.eval("return window.__mice").await,
            json!(0),
            "no pointer press"
        );
    })
    .await;
}

/// A knob dragged through several values while paused: the status says nothing during the
/// drag, then once, a second after it ends, the outcome of the run it ended on (the host's
/// summary for the same link).
#[tokio::test]
async fn a_dragged_knob_says_its_new_outcome_once_the_run_settles() {
    use resilience_playground::page::permalink::{from_pairs, parse_query};
    use resilience_playground::page::replay::{frame, spoken_summary};
    let (host, _) = from_pairs(&parse_query("preset=cb&timeout=0.1").0);
    let run = host.runs.a.as_ref().expect("the run");
    let expected = format!(
        "New outcome. {}",
        spoken_summary(&frame(&run.0.trace, run.0.span), &run.0.outcomes, None)
    );
    browser::run("settled-outcome", |page| async move {
        page.open("index.html?preset=cb", "#scrub").await;
        page.eval(&browser::set_value("scrub", "1200")).await;
        wait_for_text(&page, "#clock", "12.0 s / 12.0 s").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        page.eval(RECORD_LIVE_REGIONS).await;
        // A drag of the slider: input events 100 ms apart, the last on 100 ms.
        for value in ["250", "200", "150", "100"] {
            page.eval(&format!(
                "const el = document.getElementById('timeout');
                 el.value = '{value}';
                 el.dispatchEvent(new Event('input', {{ bubbles: true }}));
                 return null"
            ))
            .await;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        tokio::time::sleep(Duration::from_millis(2_500)).await;
        let said: Vec<String> = page
            .eval(
                "return window.__liveChanges.filter(c => c[1] === 'run-summary' && c[2] !== '')
                   .map(c => c[2])",
            )
            .await
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(said, vec![expected.clone()], "one sentence, after the drag");
    })
    .await;
}

/// With reduced motion asked for, the playhead jumps a second of real time at a time rather
/// than gliding frame by frame.
#[tokio::test]
async fn with_reduced_motion_the_playhead_jumps() {
    browser::run("reduced-motion", |page| async move {
        page.devtools(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]}),
        )
        .await;
        page.open("index.html?preset=cb", "#scrub").await;
        page.eval(&browser::set_value("scrub", "0")).await;
        page.eval("document.getElementById('play').click(); return null")
            .await;
        let mut seen: Vec<String> = Vec::new();
        for _ in 0..40 {
            let now = page.text("#clock").await;
            if seen.last() != Some(&now) {
                seen.push(now);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // 4 s of wall time at 1x: a handful of whole-second jumps, never a tenth.
        let seconds: Vec<f64> = seen
            .iter()
            .map(|c| c.split(' ').next().unwrap().parse().unwrap())
            .collect();
        assert!(seconds.len() >= 3, "it played: {seen:?}");
        for pair in seconds.windows(2) {
            assert!(pair[1] - pair[0] >= 0.9, "a jump under a second: {seen:?}");
        }
    })
    .await;
}

/// Outcomes differ by pattern as well as colour: each outcome's legend key carries its
/// pattern (as the canvas hatches its bars), the band patterns the breaker's open and
/// half-open stretches; screenshots through Chromium's colour-vision filters to look at.
#[tokio::test]
async fn outcomes_and_breaker_states_differ_by_pattern_as_well_as_colour() {
    use resilience_playground::page::glossary::outcome_words;
    use resilience_playground::page::outcome_look::outcome_hatch;
    use resilience_playground::page::permalink::{from_pairs, parse_query};
    use resilience_playground::resilience::BreakerState;
    use resilience_playground::sim::trace::Outcome;
    let (host, _) = from_pairs(&parse_query("preset=cb").0);
    let run = host.runs.a.as_ref().expect("the run");
    let patterned = run
        .0
        .bands
        .iter()
        .filter(|b| b.state != BreakerState::Closed)
        .count();
    assert!(patterned >= 3);
    browser::run("colour-vision", |page| async move {
        page.open("index.html?preset=cb", "#scrub").await;
        page.eval(&browser::set_value("scrub", "1200")).await;
        wait_for_text(&page, "#clock", "12.0 s / 12.0 s").await;
        for legend in ["latency-legend", "load-legend"] {
            let keys = page
                .eval(&format!(
                    "return [...document.querySelectorAll('#{legend} li:not(.key-line)')]
                       .map(k => [k.textContent.trim(), k.className])"
                ))
                .await;
            let keys = keys.as_array().unwrap();
            assert!(keys.len() >= 3, "{legend}: {keys:?}");
            for key in keys {
                let (label, class) = (key[0].as_str().unwrap(), key[1].as_str().unwrap());
                let outcome = Outcome::ALL
                    .into_iter()
                    .find(|&o| outcome_words(o) == label)
                    .unwrap_or_else(|| panic!("{legend}: {label} is no outcome"));
                assert!(
                    class.contains(outcome_hatch(outcome).class()),
                    "{legend}: {label} has {class}"
                );
            }
        }
        let hatched = page
            .eval("return document.querySelectorAll('#band rect.band-hatch').length")
            .await;
        assert_eq!(
            hatched,
            json!(patterned),
            "each open or half-open stretch is patterned"
        );
        for filter in ["achromatopsia", "deuteranopia", "protanopia"] {
            page.devtools(
                "Emulation.setEmulatedVisionDeficiency",
                json!({ "type": filter }),
            )
            .await;
            tokio::time::sleep(Duration::from_millis(300)).await;
            page.screenshot(&format!("colour-vision-{filter}")).await;
        }
    })
    .await;
}
