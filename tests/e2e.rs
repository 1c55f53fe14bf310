//! End-to-end tests of the built page (`dist/`) in headless Chromium. Run by `make test`
//! (`cargo test --features e2e --test e2e`) after `trunk build --release`.

#[path = "support/browser.rs"]
mod browser;

use browser::set_value;

use std::time::{Duration, Instant};

use fantoccini::key::Key;
use fantoccini::Locator;
use resilience_playground::page::knobs::{Pattern, KNOBS};
use resilience_playground::page::replay::{clock, frame, layer_counts, route_at, span};
use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::{Preset, Scenario};
use resilience_playground::sim::trace::{Outcome, Route};

/// A script that hashes the pixels of the canvas matching a selector.
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

/// Moves the playhead to `seconds` with the scrub bar.
fn seek(seconds: f64) -> String {
    set_value("scrub", &format!("{}", (seconds * 10.0).round() as u64))
}

async fn count(page: &browser::Page, outcome: &str) -> u64 {
    let text = page
        .text(&format!("#count-{outcome} strong, strong#count-{outcome}"))
        .await;
    text.trim()
        .parse()
        .unwrap_or_else(|_| panic!("#count-{outcome} is not a number: {text:?}"))
}

/// Every outcome the counters show (all but `unfinished`, which a drained run never has).
fn every_counted_outcome() -> impl Iterator<Item = Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|&o| o != Outcome::Unfinished)
}

/// An outcome's counter, or 0 when the page shows none for it (a run shows the lesson's four
/// outcomes and only those others it produced).
async fn count_or_zero(page: &browser::Page, outcome: &str) -> u64 {
    let shown = page
        .eval(&format!(
            "return document.getElementById('count-{outcome}') !== null"
        ))
        .await;
    if shown == true {
        count(page, outcome).await
    } else {
        0
    }
}

/// Requests finished at the playhead by the counters, and in service or queued.
async fn counted(page: &browser::Page) -> u64 {
    let mut done = count(page, "in-flight").await;
    for o in every_counted_outcome() {
        done += count_or_zero(page, o.name()).await;
    }
    done
}

/// Switches every pattern on, so that each knob's effect reaches the run.
const EVERY_PATTERN_ON: &str =
    "for (const s of document.querySelectorAll('input[role=switch][id^=switch-]')) {
       if (!s.checked) s.click();
     }";

#[tokio::test]
async fn every_view_is_on_the_page() {
    browser::run("views", |page| async move {
        page.open("", "#scrub").await;
        let title = page.eval("return document.title").await;
        assert!(title.as_str().unwrap().contains("Resilience Playground"));
        let headings = page
            .eval("return [...document.querySelectorAll('h2')].map(h => h.textContent)")
            .await;
        for region in [
            "Controls",
            "Timeline",
            "Where the requests are",
            "Circuit breaker",
            "Latency",
            "Load over time",
            "The lesson's table",
        ] {
            assert!(
                headings.as_array().unwrap().iter().any(|h| h == region),
                "region {region} missing: {headings}"
            );
        }
        for knob in KNOBS {
            let label = page
                .eval(&format!(
                    "const el = document.getElementById('{}');
                     return el && el.labels.length ? el.labels[0].textContent : null",
                    knob.key
                ))
                .await;
            assert_eq!(
                label, knob.panel.label,
                "the {} slider has no label",
                knob.key
            );
        }
        for canvas in ["#latency-chart", "#load-chart"] {
            assert!(
                page.eval(&canvas_hash(canvas)).await.is_number(),
                "{canvas}"
            );
        }
        // The lesson's table is computed by the page: its breaker row is the simulator's.
        let cb = run(&Scenario::Cb.config()).unwrap();
        let row = page.text("#table-cb").await;
        assert!(
            row.contains(&cb.outcomes.circuit_open.to_string()),
            "table row {row:?} lacks {}",
            cb.outcomes.circuit_open
        );
    })
    .await;
}

#[tokio::test]
async fn the_cb_scenario_plays_to_the_end_and_opens_when_the_simulator_says() {
    let cfg = Scenario::Cb.config();
    let trace = run(&cfg).unwrap();
    let opened = trace.first_open().expect("the cb scenario opens");
    let timeline = span(&trace, cfg.traffic.duration);
    browser::run("cb-replay", |page| async move {
        page.open("", "#scrub").await;
        page.eval(&set_value("scenario", "cb")).await;
        page.eval(&set_value("speed", "20")).await;
        page.client
            .find(Locator::Css("#play"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let started = Instant::now();
        loop {
            let playing = page.text("#play").await.contains("Pause");
            if !playing {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "12 s at 20x did not finish in 30 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let clock = page.text("#clock strong").await;
        assert_eq!(clock, format!("{:.1} s", timeline as f64 / 1e6));
        assert_eq!(count(&page, "arrived").await, trace.sent);
        let mut finished = 0;
        for o in every_counted_outcome() {
            finished += count_or_zero(&page, o.name()).await;
        }
        assert_eq!(
            finished, trace.sent,
            "every request counted once at the end"
        );

        // The band turns OPEN where the simulator says (one band pixel = span / 1000).
        let x = page
            .eval("return Number(document.querySelector('svg.band rect.open').getAttribute('x'))")
            .await
            .as_f64()
            .unwrap();
        let band_open = x / 1000.0 * timeline as f64;
        assert!(
            (band_open - opened as f64).abs() <= timeline as f64 / 1000.0,
            "band opens at {band_open} µs, simulator at {opened} µs"
        );
        // Just before the slice holding the opening: closed; after it: open, with the reason.
        let before = (opened / 100_000) as f64 / 10.0;
        page.eval(&seek(before)).await;
        assert_eq!(page.text("#breaker-state").await, "CLOSED");
        page.eval(&seek(before + 0.1)).await;
        assert_eq!(page.text("#breaker-state").await, "OPEN");
        let change = page.text("#last-change").await;
        assert!(
            change.starts_with(&format!("{:.2} s", opened as f64 / 1e6)),
            "{change}"
        );

        // Keyboard: r back to the start, space plays, space pauses, arrows step. At 1x, so that
        // the run cannot reach its end between the two presses on a busy machine.
        page.eval(&set_value("speed", "1")).await;
        let body = page.client.find(Locator::Css("body")).await.unwrap();
        body.send_keys("r").await.unwrap();
        assert_eq!(page.text("#clock strong").await, "0.0 s");
        body.send_keys(&Key::Right.to_string()).await.unwrap();
        body.send_keys(&Key::Right.to_string()).await.unwrap();
        assert_eq!(page.text("#clock strong").await, "0.2 s");
        body.send_keys(" ").await.unwrap();
        assert!(page.text("#play").await.contains("Pause"));
        body.send_keys(" ").await.unwrap();
        assert!(page.text("#play").await.contains("Play"));
        // With the focus on a button, the arrows and r still work (space stays the button's).
        body.send_keys("r").await.unwrap();
        let play = page.client.find(Locator::Css("#play")).await.unwrap();
        play.send_keys(&Key::Right.to_string()).await.unwrap();
        assert_eq!(page.text("#clock strong").await, "0.1 s");
        play.send_keys("r").await.unwrap();
        assert_eq!(page.text("#clock strong").await, "0.0 s");
    })
    .await;
}

#[tokio::test]
async fn the_cool_down_slider_changes_the_diagram_and_the_histogram() {
    browser::run("cooldown", |page| async move {
        page.open("?preset=cb", "#scrub").await;
        page.eval(&seek(12.0)).await;
        let label_before = page.text("#arrow-label-1").await;
        assert_eq!(label_before, "after 2 s");
        let pixels_before = page.eval(&canvas_hash("#latency-chart")).await;
        let open_before = count(&page, "circuit_open").await;
        page.eval(&set_value("cooldown-number", "500")).await;
        assert_eq!(page.text("#arrow-label-1").await, "after 0.5 s");
        let pixels_after = page.eval(&canvas_hash("#latency-chart")).await;
        assert_ne!(pixels_before, pixels_after, "the histogram was not redrawn");
        assert_ne!(open_before, count(&page, "circuit_open").await);
        assert_eq!(
            page.text("#clock strong").await,
            "12.0 s",
            "the playhead kept its place"
        );
        // With too few workers requests queue, and the end-to-end switch shows the wait.
        page.eval(&set_value("threads-number", "10")).await;
        let service = page.eval(&canvas_hash("#latency-chart")).await;
        page.client
            .find(Locator::Css("#latency-end-to-end"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_ne!(page.eval(&canvas_hash("#latency-chart")).await, service);
        let label = page
            .eval("return document.getElementById('latency-chart').getAttribute('aria-label')")
            .await;
        assert!(label.as_str().unwrap().contains("End-to-end"), "{label}");
    })
    .await;
}

#[tokio::test]
async fn the_bulkhead_switch_changes_the_counters() {
    browser::run("bulkhead", |page| async move {
        page.open("?preset=cb", "#scrub").await;
        page.eval(&seek(12.0)).await;
        assert_eq!(count(&page, "bulkhead_full").await, 0);
        let ok_timeout = (
            count(&page, "timeout").await,
            count(&page, "circuit_open").await,
        );
        page.client
            .find(Locator::Css("#switch-bulkhead"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let expected = run(&Scenario::Bulkhead.config()).unwrap();
        assert_eq!(
            count(&page, "bulkhead_full").await,
            expected.outcomes.bulkhead_full
        );
        assert_ne!(
            (
                count(&page, "timeout").await,
                count(&page, "circuit_open").await
            ),
            ok_timeout
        );
        assert!(page.text("#meter-bulkhead").await.is_empty());
        page.client
            .find(Locator::Css("#switch-bulkhead"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert_eq!(count(&page, "bulkhead_full").await, 0);
    })
    .await;
}

#[tokio::test]
async fn every_control_goes_to_both_ends_without_an_error() {
    browser::run("sweep", |page| async move {
        page.open("", "#scrub").await;
        page.eval(&set_value("scenario", "bulkhead")).await;
        page.eval(EVERY_PATTERN_ON).await;
        for knob in KNOBS {
            if knob.is_choice() {
                let tag = page
                    .eval(&format!(
                        "return document.getElementById('{}').tagName",
                        knob.key
                    ))
                    .await;
                assert_eq!(tag, "SELECT", "{} is a choice", knob.key);
            }
            let disabled = page
                .eval(&format!(
                    "return document.getElementById('{}').disabled",
                    knob.key
                ))
                .await;
            assert_eq!(
                disabled, false,
                "{} is off though every pattern is on",
                knob.key
            );
            for value in [knob.panel.min, knob.panel.max] {
                page.eval(&set_value(knob.key, &value.to_string())).await;
                page.eval(&seek(1_000_000.0)).await;
                let body = page.text("body").await;
                assert!(
                    !body.contains("NaN"),
                    "NaN on screen at {}={value}",
                    knob.key
                );
                assert!(
                    !body.contains("cannot start"),
                    "{}={value}: {body}",
                    knob.key
                );
                let arrived = count(&page, "arrived").await;
                assert_eq!(
                    counted(&page).await,
                    arrived,
                    "{}={value}: counters do not add up",
                    knob.key
                );
            }
            page.client
                .find(Locator::Css("#reset"))
                .await
                .unwrap()
                .click()
                .await
                .unwrap();
            page.eval(EVERY_PATTERN_ON).await;
        }
        // A knob whose pattern is off is greyed out.
        page.client
            .find(Locator::Css("#switch-retries"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        for id in ["jitter", "retry_base", "attempts-number"] {
            let off = page
                .eval(&format!("return document.getElementById('{id}').disabled"))
                .await;
            assert_eq!(off, true, "{id} stays live with retries off");
        }
        for switch in Pattern::SWITCHES.map(|p| p.key()) {
            for _ in 0..2 {
                page.client
                    .find(Locator::Css(&format!("#switch-{switch}")))
                    .await
                    .unwrap()
                    .click()
                    .await
                    .unwrap();
                assert!(!page.text("body").await.contains("NaN"));
            }
        }
        for (id, value) in [
            ("table-window", "0.5"),
            ("table-window", "30"),
            ("speed", "0.25"),
            ("seed", "18446744073709551615"),
        ] {
            page.eval(&set_value(id, value)).await;
            assert!(!page.text("body").await.contains("NaN"), "{id}={value}");
        }
        // Values typed outside a control's range are clamped, with a notice naming it.
        page.eval(&set_value("timeout-number", "99999")).await;
        let notice = page.text(".control .notice").await;
        assert!(
            notice.contains("Timeout") && notice.contains("10000"),
            "{notice}"
        );
        assert_eq!(
            page.eval("return document.getElementById('timeout-number').value")
                .await,
            "10000"
        );
        page.eval(&set_value("seed", "minus one")).await;
        assert!(page.text(".toolbar .notice").await.contains("seed"));
    })
    .await;
}

#[tokio::test]
async fn every_preset_is_offered_and_runs() {
    browser::run("presets", |page| async move {
        page.open("", "#scrub").await;
        let offered = page
            .eval("return [...document.querySelectorAll('#scenario option')].map(o => o.value)")
            .await;
        let keys: Vec<&str> = Preset::ALL.iter().map(|p| p.key()).collect();
        assert_eq!(offered, serde_json::json!(keys));
        for preset in Preset::ALL {
            page.eval(&set_value("scenario", preset.key())).await;
            page.eval(&seek(1_000_000.0)).await;
            let body = page.text("body").await;
            assert!(!body.contains("cannot start"), "{preset:?}: {body}");
            assert!(!body.contains("NaN"), "{preset:?}");
            let trace = run(&preset.config()).unwrap();
            assert_eq!(count(&page, "arrived").await, trace.sent, "{preset:?}");
            for o in every_counted_outcome() {
                assert_eq!(
                    count_or_zero(&page, o.name()).await,
                    trace.outcomes.get(o),
                    "{preset:?}: {}",
                    o.name()
                );
            }
            // A drained run answers everyone; one stopped at its duration shows who still waits.
            assert_eq!(
                count(&page, "in-flight").await,
                trace.outcomes.unfinished,
                "{preset:?}"
            );
            // The link field follows at once (the address bar after a short settle delay).
            let address = page
                .eval("return document.getElementById('permalink').value")
                .await;
            assert!(
                address
                    .as_str()
                    .unwrap()
                    .contains(&format!("preset={}", preset.key())),
                "{address}"
            );
        }
    })
    .await;
}

#[tokio::test]
async fn the_saturday_cascade_runs_on_the_wall_clock_with_kongs_pool() {
    let preset = Preset::Saturday;
    let start = preset.clock_start();
    browser::run("saturday", |page| async move {
        page.client.set_window_size(1600, 2300).await.unwrap();
        page.open("?preset=saturday", "#scrub").await;
        assert_eq!(page.text("#clock strong").await, "10:11:50.0");
        // 10:12:15: inventory has been slow for 15 s and Kong's pool is full.
        page.eval(&seek(25.0)).await;
        let at = page.text("#clock strong").await;
        assert_eq!(at, clock(25_000_000, start));
        assert!(at.starts_with("10:12:"), "{at}");
        let pool = page
            .eval(
                "const m = document.getElementById('meter-gateway');
                   return m && [m.getAttribute('aria-valuenow'), m.getAttribute('aria-valuemax')]",
            )
            .await;
        assert_eq!(pool[1], "200", "{pool}");
        assert_eq!(pool[0], "200", "the pool is full at 10:12:15: {pool}");
        assert!(count(&page, "gateway_rejected").await > 0);
        let label = page
            .eval("return document.getElementById('load-chart').getAttribute('aria-label')")
            .await;
        assert!(label.as_str().unwrap().contains("gateway pool"), "{label}");
        page.screenshot("saturday-10-12-15").await;
        page.eval("document.getElementById('load-chart').scrollIntoView()")
            .await;
        page.screenshot("saturday-10-12-15-load").await;
        // The lesson's scenarios have no gateway and plain simulated seconds.
        page.eval(&set_value("scenario", "cb")).await;
        assert!(page.text("#clock strong").await.ends_with(" s"));
        assert!(page
            .text("#gateway-not-modelled")
            .await
            .contains("not modelled"));
        let meter = page
            .eval("return document.getElementById('meter-gateway') === null")
            .await;
        assert_eq!(meter, true);
    })
    .await;
}

#[tokio::test]
async fn the_retries_switch_changes_the_counters() {
    // The cb scenario with the lesson's retries: every failed call is tried three times
    // inside the breaker, so the breaker's window fills at another pace.
    let without = run(&Scenario::Cb.config()).unwrap();
    let mut with_retries = Scenario::Cb.config();
    with_retries.first_stack_mut().retry =
        Some(resilience_playground::resilience::RetryPolicy::lesson_000());
    let with = run(&with_retries).unwrap();
    assert_ne!(
        with.outcomes, without.outcomes,
        "pick a case where retries matter"
    );
    browser::run("retries", |page| async move {
        page.open("?preset=cb", "#scrub").await;
        page.eval(&seek(1_000_000.0)).await;
        let before: Vec<u64> = {
            let mut v = Vec::new();
            for o in every_counted_outcome() {
                v.push(count_or_zero(&page, o.name()).await);
            }
            v
        };
        assert_eq!(
            before[..],
            every_counted_outcome()
                .map(|o| without.outcomes.get(o))
                .collect::<Vec<_>>()[..]
        );
        page.client
            .find(Locator::Css("#switch-retries"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let mut after = Vec::new();
        for o in every_counted_outcome() {
            after.push(count_or_zero(&page, o.name()).await);
        }
        assert_eq!(
            after,
            every_counted_outcome()
                .map(|o| with.outcomes.get(o))
                .collect::<Vec<_>>()
        );
        assert_ne!(after, before, "the retries switch changed no counter");
        // The jitter select reaches the run too: no jitter makes the retries of one wave
        // leave together.
        page.eval(&set_value("jitter", "0")).await;
        let link = page
            .eval("return document.getElementById('permalink').value")
            .await;
        assert!(link.as_str().unwrap().contains("jitter=none"), "{link}");
        // The address bar follows once the settings have been still for a moment.
        let search = page
            .eval("return new Promise(r => setTimeout(() => r(location.search), 600))")
            .await;
        assert!(search.as_str().unwrap().contains("jitter=none"), "{search}");
    })
    .await;
}

#[tokio::test]
async fn screenshots_of_the_cb_scenario() {
    browser::run("screens", |page| async move {
        page.client.set_window_size(1600, 2300).await.unwrap();
        page.open("?preset=cb", "#scrub").await;
        for (seconds, name) in [(2.0, "cb-2s"), (5.0, "cb-5s"), (12.0, "cb-12s")] {
            page.eval(&seek(seconds)).await;
            page.screenshot(name).await;
        }
        page.client
            .find(Locator::Css("#dark"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        page.client
            .find(Locator::Css("#projector"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        let classes = page.eval("return document.documentElement.className").await;
        assert!(
            classes.as_str().unwrap().contains("theme-dark")
                && classes.as_str().unwrap().contains("projector"),
            "{classes}"
        );
        page.screenshot("cb-12s-projector-dark").await;
    })
    .await;
}

/// A script that types `text` into the text area `id` and presses the button `button`.
fn paste_and_press(id: &str, text: &str, button: &str) -> String {
    format!(
        "const el = document.getElementById('{id}');
         el.value = {text};
         el.dispatchEvent(new Event('input', {{ bubbles: true }}));
         document.getElementById('{button}').click();
         return true;",
        text = serde_json::to_string(text).unwrap()
    )
}

#[tokio::test]
async fn pasting_the_lessons_resilience4j_yaml_gives_the_as_written_separate_run() {
    const LESSON_YAML: &str = include_str!("fixtures/northwind-resilience4j.yml");
    browser::run("resilience4j-paste", |page| async move {
        page.client.set_window_size(1366, 2000).await.unwrap();
        page.open("?preset=northwind-shared", "#r4j-yaml").await;
        page.eval(&seek(1_000_000.0)).await;
        let lesson = run(&Preset::NorthwindShared.config()).unwrap();
        assert_eq!(
            count_or_zero(&page, "bulkhead_full").await,
            lesson.outcomes.bulkhead_full
        );
        page.eval(&paste_and_press("r4j-yaml", LESSON_YAML, "r4j-run"))
            .await;
        page.eval(&seek(1_000_000.0)).await;
        let expected = run(&Preset::NorthwindAsWrittenSeparate.config()).unwrap();
        assert_ne!(expected.outcomes, lesson.outcomes);
        assert_eq!(count(&page, "arrived").await, expected.sent);
        for o in every_counted_outcome() {
            assert_eq!(
                count_or_zero(&page, o.name()).await,
                expected.outcomes.get(o),
                "{}",
                o.name()
            );
        }
        let notice = page.text("#page-notice").await;
        assert!(notice.contains("Resilience4j's semantics"), "{notice}");
        page.eval("document.getElementById('r4j-yaml').scrollIntoView(); return true;")
            .await;
        page.screenshot("resilience4j-paste").await;
        // A value the simulator cannot take is named by its path, and the run stays.
        let bad = LESSON_YAML.replace("max-attempts: 3", "max-attempts: 50");
        page.eval(&paste_and_press("r4j-yaml", &bad, "r4j-run"))
            .await;
        let notice = page.text("#page-notice").await;
        assert!(
            notice.contains("resilience4j.retry.instances.inventoryReservation.max-attempts"),
            "{notice}"
        );
        assert_eq!(count(&page, "arrived").await, expected.sent);
        let body = page.text("body").await;
        assert!(!body.contains("NaN") && !body.contains("cannot start"));
    })
    .await;
}

#[tokio::test]
async fn the_favicon_is_served() {
    browser::run("favicon", |page| async move {
        page.open("", "#scrub").await;
        let status = page
            .eval("return fetch('favicon.ico').then(r => r.status)")
            .await;
        assert_eq!(status, 200);
    })
    .await;
}

/// The selected scenario's text in the picker.
async fn scenario_shown(page: &browser::Page) -> String {
    page.eval(
        "const s = document.getElementById('scenario'); return s.options[s.selectedIndex].text",
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

#[tokio::test]
async fn the_page_opens_on_the_cascade_with_the_lookups_and_the_clients_still_waiting() {
    let cfg = Preset::OPENING.config();
    let mut recorded = cfg.clone();
    recorded.run.record_requests = true;
    let trace = run(&recorded).unwrap();
    browser::run("story-opening", |page| async move {
        page.open("", "#scrub").await;
        let picked = page.eval("return document.getElementById('scenario').value").await;
        assert_eq!(picked, Preset::OPENING.key());
        assert!(!scenario_shown(&page).await.contains("modified"));
        page.eval(&seek(12.0)).await;
        assert_eq!(count(&page, "in-flight").await, trace.outcomes.unfinished);
        assert!(page.text(".counters").await.contains("still waiting when the run stopped"));
        let lookups = route_at(&trace, Route::OrderHistory, cfg.traffic.duration).unwrap();
        let shown = page.text("#lookups").await;
        assert!(
            shown.contains(&format!("{} answered, {} waiting", lookups.ok, lookups.waiting)),
            "{shown}"
        );
        // Inventory: the calls its workers wait on, not the calls started lately.
        let slice = frame(&trace, 12_000_000).slice;
        assert!(slice.inventory_in_progress > 0);
        assert_eq!(
            page.text("#inventory-in-progress").await,
            format!("{} calls in progress", slice.inventory_in_progress)
        );
        assert!(page.text("#traffic-mix").await.contains("order lookups/s"));
        // The pool as slots: every cell filled, the queue's column at its peak.
        let busy = page.eval("return document.querySelectorAll('#pool rect.slot.busy').length").await;
        assert_eq!(busy, serde_json::json!(slice.workers_busy), "one filled cell per busy worker");
        let caption = page.text("#pool-caption").await;
        assert!(caption.contains(&format!("queue {}", slice.queue_len)), "{caption}");
        // The summary is spoken once paused, and the app itself is no live region.
        let live = page
            .eval("return [...document.querySelectorAll('[aria-live]')].filter(e => e.getAttribute('aria-live') !== 'off').map(e => e.id)")
            .await;
        assert!(!live.to_string().contains("resilience-app"), "{live}");
        let summary = page
            .eval("return document.getElementById('run-summary').textContent")
            .await;
        assert!(
            summary.as_str().unwrap().contains(&format!("{} still waiting", trace.outcomes.unfinished)),
            "{summary}"
        );
        page.eval(&seek(0.0)).await;
        page.client.find(Locator::Css("#play")).await.unwrap().click().await.unwrap();
        let playing = page
            .eval("return document.getElementById('run-summary').textContent")
            .await;
        assert_eq!(playing, "", "nothing is announced while it plays");
        page.client.find(Locator::Css("#play")).await.unwrap().click().await.unwrap();
        // Every control has a whole name: none ends in "()".
        let names = page
            .eval("return [...document.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label')).concat([...document.querySelectorAll('label')].map(l => l.textContent.trim()))")
            .await;
        for name in names.as_array().unwrap() {
            assert!(!name.as_str().unwrap().trim_end().ends_with("()"), "{name}");
        }
    })
    .await;
}

#[tokio::test]
async fn the_scenario_name_follows_the_controls_and_the_notices() {
    browser::run("scenario-name", |page| async move {
        page.open("?preset=cb", "#scrub").await;
        assert_eq!(
            scenario_shown(&page).await,
            Preset::Lesson(Scenario::Cb).title()
        );
        page.eval(&set_value("threads-number", "40")).await;
        assert!(scenario_shown(&page).await.ends_with("(modified)"));
        page.client
            .find(Locator::Css("#reset"))
            .await
            .unwrap()
            .click()
            .await
            .unwrap();
        assert!(!scenario_shown(&page).await.contains("modified"));
        // Unknown patterns: a notice names them, the scenario keeps its patterns and its name.
        page.open("?preset=cb&patterns=foo,bar", "#scrub").await;
        let body = page.text("body").await;
        assert!(body.contains("foo") && body.contains("bar"), "no notice");
        assert!(!scenario_shown(&page).await.contains("modified"));
        let breaker_on = page
            .eval("return document.getElementById('switch-breaker').checked")
            .await;
        assert_eq!(breaker_on, true);
        // Saturday after its failover: inventory is healthy again.
        page.open("?preset=saturday&t=45", "#scrub").await;
        let health = page.text("#inventory-latency").await;
        assert!(health.contains("healthy again"), "{health}");
        // The bulkhead's refusals are drawn at their wait, and the note says so.
        page.open("?preset=bulkhead&t=12", "#scrub").await;
        let note = page.text("section.histogram .hint").await;
        assert!(
            note.contains("refused by the full bulkhead") && note.contains("50 ms"),
            "{note}"
        );
        let legend = page.text("[id$='latency-legend']").await;
        assert!(
            legend.contains("refused by the full bulkhead") && legend.contains("p99"),
            "{legend}"
        );
    })
    .await;
}

/// The A/B table's figure of `side` (`a`, `b` or `diff`) in row `key`.
async fn ab_cell(page: &browser::Page, side: &str, key: &str) -> String {
    page.text(&format!("#ab-{side}-{key}"))
        .await
        .trim()
        .to_string()
}

/// Clicks the element `css`.
async fn click(page: &browser::Page, css: &str) {
    page.client
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no {css}: {e}"))
        .click()
        .await
        .unwrap();
}

#[tokio::test]
async fn the_ab_mode_compares_one_change_and_its_link_brings_it_back() {
    use resilience_playground::page::action::Action;
    use resilience_playground::page::state::Page;
    browser::run("ab", |page| async move {
        // The cascade with no protection, read at 12 s.
        page.open("?preset=none&t=12", "#scrub").await;
        assert!(
            page.eval("return document.getElementById('ab-counters') === null")
                .await
                == true
        );
        click(&page, "#ab-switch").await;
        assert!(page.text("#ab-summary").await.contains("copy of A"));
        assert_eq!(
            ab_cell(&page, "a", "ok").await,
            ab_cell(&page, "b", "ok").await
        );
        assert!(page.text("#ab-editing").await.contains("run B"));
        // The controls now change B: a timeout in B only.
        click(&page, "#switch-timeout").await;
        assert_eq!(page.text("#ab-summary").await, "B: Timeout off → on");
        let b_timeouts = {
            let expected = Page::new(Preset::Lesson(Scenario::None), false)
                .apply(Action::SetAb(true))
                .apply(Action::SetPattern(Pattern::TIMEOUT, true));
            let b = expected.b_run().unwrap();
            frame(&b.trace, 12_000_000).finished.timeout
        };
        assert!(b_timeouts > 0);
        assert_eq!(
            ab_cell(&page, "a", "timeout").await,
            "0",
            "A has no timeout"
        );
        assert_eq!(ab_cell(&page, "b", "timeout").await, b_timeouts.to_string());
        assert_eq!(
            ab_cell(&page, "diff", "timeout").await,
            format!("+{b_timeouts}")
        );
        // A timeout gives the workers back: B answers more and keeps fewer clients waiting.
        let waiting = |s: String| s.parse::<u64>().unwrap();
        assert!(
            waiting(ab_cell(&page, "b", "waiting").await)
                < waiting(ab_cell(&page, "a", "waiting").await)
        );
        assert!(
            page.eval("return !!document.getElementById('readout-b-p99')")
                .await
                == true
        );
        page.screenshot("ab-timeout").await;
        // The address bar follows, and the link brings B and its change back.
        tokio::time::sleep(Duration::from_millis(600)).await;
        let search = page.eval("return location.search").await;
        let search = search.as_str().unwrap().to_string();
        assert!(search.contains("ab=patterns%3Dtimeout"), "{search}");
        page.open(&format!("index.html{search}"), "#ab-counters")
            .await;
        assert_eq!(page.text("#ab-summary").await, "B: Timeout off → on");
        assert_eq!(ab_cell(&page, "b", "timeout").await, b_timeouts.to_string());
        assert!(
            page.eval("return document.getElementById('ab-switch').checked")
                .await
                == true
        );
        // A second control puts the first back, and says so.
        page.eval(&set_value("threads", "96")).await;
        assert_eq!(page.text("#ab-summary").await, "B: Worker threads 32 → 96");
        assert!(page
            .text("#page-notice")
            .await
            .contains("is back to A's value"));
        assert_eq!(ab_cell(&page, "b", "timeout").await, "0");
        // Switched off, the counters are the page's own again.
        click(&page, "#ab-switch").await;
        assert!(
            page.eval("return document.getElementById('ab-counters') === null")
                .await
                == true
        );
        assert_eq!(count(&page, "timeout").await, 0);
        // A breaker in both: B's band under A's, each of its own run (1 s window in B opens
        // more often than A's 10 s).
        page.open("?preset=cb&ab=window%3D1&t=12", "#ab-counters")
            .await;
        let rects = page
            .eval(
                "return ['band', 'band-b'].map(id =>
                   document.querySelectorAll('#' + id + ' rect.open').length);",
            )
            .await;
        let (a_open, b_open) = (rects[0].as_u64().unwrap(), rects[1].as_u64().unwrap());
        assert!(b_open > a_open && a_open > 0, "{rects}");
        // A bad value is named with what it allows.
        // Refused, it leaves A/B off.
        page.open("?preset=cb&ab=nope%3D3", "#page-notice").await;
        let notice = page.text("#page-notice").await;
        assert!(
            notice.contains("ab:") && notice.contains("rate, threads"),
            "{notice}"
        );
        let counters: bool = page
            .eval("return document.querySelector('#ab-counters') !== null;")
            .await
            .as_bool()
            .unwrap();
        assert!(!counters, "a refused ab value switched A/B on");
    })
    .await;
}

/// The followed request's sentence and its spans in words, as the page shows them.
const LIFE: &str = "return { story: [...document.querySelectorAll('.life-story')].map(p => p.textContent),
    words: [...document.querySelectorAll('.life-words')].map(ol => [...ol.children].map(li => li.textContent)) };";

/// Follow one request: for the same link the page shows the very sentence and spans the CLI
/// prints (the cascade's slowest order, a request the open breaker refused, a retried request
/// of the storm), at 1366 and at 1920 in projector mode; a bar says its times on focus; a
/// button and a click on the histogram pick a request, and the link keeps it.
#[tokio::test]
async fn a_followed_request_reads_as_the_cli_prints_it() {
    use resilience_playground::page::life_story::{lines, story};
    use resilience_playground::sim::pick::{follow_pick, Pick};
    browser::run("follow", |page| async move {
        let cases = [
            (Preset::StoryNone, Pick::Slowest, (1366u32, 768u32), false),
            (Preset::Lesson(Scenario::Cb), Pick::RefusedByBreaker, (1920, 1080), true),
            (Preset::RetryStorm, Pick::Retried, (1366, 768), false),
            (Preset::RetryStorm, Pick::Retried, (1920, 1080), true),
            (Preset::StoryNone, Pick::Slowest, (1920, 1080), true),
        ];
        for (preset, pick, (width, height), projector) in cases {
            page.devtools(
                "Emulation.setDeviceMetricsOverride",
                serde_json::json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}),
            )
            .await;
            let projector_key = if projector { "&projector=on" } else { "" };
            let link = format!("?preset={}&trace={}{projector_key}", preset.key(), pick.key());
            page.open(&link, ".life-story").await;
            let life = follow_pick(&preset.config(), pick).unwrap().unwrap();
            let shown = page.eval(LIFE).await;
            assert_eq!(shown["story"], serde_json::json!([story(&life)]), "{link}");
            assert_eq!(shown["words"], serde_json::json!([lines(&life)]), "{link}");
            // Nothing spills out of the region.
            let over = page
                .eval("const r = document.querySelector('.follow-region');
                       r.scrollIntoView({block: 'start'});
                       return [r.scrollWidth - r.clientWidth, Math.max(0, document.documentElement.scrollWidth - innerWidth)];")
                .await;
            assert_eq!(over, serde_json::json!([0, 0]), "{link}");
            page.screenshot(&format!("follow-{}-{}-{width}", preset.key(), pick.key())).await;
        }
        // A bar says its times when the keyboard reaches it.
        let focused = page
            .eval("const bar = document.querySelector('.life-bar'); bar.focus();
                   return [bar.getAttribute('aria-label'), document.activeElement === bar];")
            .await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let readout = page.text(".life-readout").await;
        assert_eq!(serde_json::json!([readout, true]), focused);
        // A button picks another request, and the address bar keeps it.
        page.open("?preset=cb&t=12", ".life-picks").await;
        click(&page, ".life-picks button:first-child").await;
        for _ in 0..50 {
            if page.eval("return !!document.querySelector('.life-story')").await == true {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let cb = Preset::Lesson(Scenario::Cb).config();
        let slowest = follow_pick(&cb, Pick::Slowest).unwrap().unwrap();
        assert_eq!(page.text(".life-story").await, story(&slowest));
        tokio::time::sleep(Duration::from_millis(600)).await;
        let href = page.eval("return location.href").await;
        assert!(href.as_str().unwrap().contains("trace=slowest"), "{href}");
        // A click on the 300 ms bar of the histogram (the timeouts) follows one of them.
        page.eval(
            "const c = document.querySelector('canvas[data-axis]');
             const [left, right] = c.dataset.axis.split(' ').map(Number);
             const share = Math.log10(300) / 4;
             const r = c.getBoundingClientRect();
             const x = r.left + (left + share * (right - left)) * r.width / c.width;
             c.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: x, clientY: r.top + r.height / 2}));
             return null;",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let text = page.text(".life-story").await;
        assert!(text.contains("ran into the timeout of 300 ms"), "{text}");
    })
    .await;
}

/// A zoo preset draws its feedback loop, lit while the loop drives at the playhead and still
/// once the cure is on; other presets draw none.
#[tokio::test]
async fn a_zoo_preset_lights_its_loop_while_it_drives() {
    browser::run("zoo-loop", |page| async move {
        let state = "const f = document.querySelector('.feedback-loop');
                     return f ? [f.classList.contains('driving'), f.querySelectorAll('li').length,
                                 document.querySelector('.loop-region h2').textContent] : null;";
        page.open("?preset=zoo-gc-spiral&t=1", ".feedback-loop").await;
        assert_eq!(
            page.eval(state).await,
            serde_json::json!([false, 4, "The loop: collection pauses"])
        );
        page.eval(&seek(40.0)).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(page.eval(state).await[0], serde_json::json!(true));
        page.screenshot("zoo-loop-driving-1366").await;
        // The cure from a link: the loop stays still at the same moment.
        page.open("?preset=zoo-gc-spiral&queue_limit=50&t=40", ".feedback-loop")
            .await;
        assert_eq!(page.eval(state).await[0], serde_json::json!(false));
        page.open("?preset=zoo-fifo-overload&t=40", ".feedback-loop").await;
        assert_eq!(page.eval(state).await[0], serde_json::json!(true));
        page.open("?preset=cb&t=5", "#scrub").await;
        assert_eq!(page.eval(state).await, serde_json::Value::Null);
        // On the projector the loop sits under the topology, on the first screen.
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            serde_json::json!({"width": 1920, "height": 1080, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        page.open("?preset=zoo-open-loop&t=40&projector=on", ".feedback-loop")
            .await;
        let bottom = page
            .eval("return document.querySelector('.loop-region').getBoundingClientRect().bottom")
            .await;
        assert!(bottom.as_f64().unwrap() <= 1080.0, "{bottom}");
        page.screenshot("zoo-loop-projector-1920").await;
    })
    .await;
}

/// A layer that counts shows its counts beside the timeline, what the host counts by the
/// playhead, and a layer that keeps a level shows where it stood; a run without such a layer
/// shows none.
#[tokio::test]
async fn a_hedges_counts_sit_beside_the_timeline_as_the_host_counts_them() {
    use resilience_playground::page::permalink::{from_pairs, parse_query};
    let settings = "preset=none&degrade_at=3600&fast_p99=400ms&duration=20&hedge_after=200ms";
    // What the host counts at 10 s and 20 s for the link (the page's own run of it).
    let expected: Vec<(f64, serde_json::Value)> = {
        let (host_page, _) = from_pairs(&parse_query(settings).0);
        let trace = &host_page.runs.a.as_ref().expect("the link runs").trace;
        [10.0, 20.0]
            .into_iter()
            .map(|seconds| {
                let chips: Vec<serde_json::Value> = layer_counts(trace, (seconds * 1e6) as u64)
                    .into_iter()
                    .map(|(c, n)| {
                        serde_json::json!([format!("layer-count-{}", c.name), n.to_string()])
                    })
                    .collect();
                (seconds, serde_json::Value::from(chips))
            })
            .collect()
    };
    let limit_at_10s = {
        use resilience_playground::page::replay::layer_levels;
        let (host_page, _) = from_pairs(&parse_query("preset=story-adaptive-limit").0);
        let trace = &host_page.runs.a.as_ref().expect("the story runs").trace;
        let levels = layer_levels(trace, 10_000_000);
        assert_eq!(levels.len(), 1, "the story keeps one level");
        let chips: Vec<serde_json::Value> = levels
            .into_iter()
            .map(|(l, v)| serde_json::json!([format!("layer-level-{}", l.name), v.to_string()]))
            .collect();
        serde_json::Value::from(chips)
    };
    browser::run("layer-counts", |page| async move {
        let chips = "return [...document.querySelectorAll('.layer-counts .chip')]
                       .map(c => [c.id, c.querySelector('strong').textContent])";
        for (seconds, host) in expected {
            page.open(&format!("?{settings}&t={seconds}"), ".layer-counts")
                .await;
            assert_eq!(page.eval(chips).await, host, "at {seconds} s");
        }
        page.screenshot("layer-counts-1366").await;
        page.open("?preset=cb&t=12", "#scrub").await;
        assert_eq!(page.eval(chips).await, serde_json::json!([]));
        // A layer's level reads where it stood at the playhead, as the host has it.
        page.open("?preset=story-adaptive-limit&t=10", ".layer-counts")
            .await;
        assert_eq!(page.eval(chips).await, limit_at_10s);
    })
    .await;
}
