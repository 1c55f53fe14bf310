//! End-to-end tests at a phone's size (390 x 844 CSS px, touch, no mouse): nothing scrolls
//! sideways, the controls live in a drawer, the topology stacks with its arrows pointing
//! down, chart text is at least 11 CSS px, touch targets at least 44 px, and the keyboard
//! line is gone. Saves `target/e2e/phone-*.png`. Run by `make test` after the release build
//! (`cargo test --features e2e --test e2e_phone`).

#[path = "support/browser.rs"]
mod browser;

use std::time::{Duration, Instant};

use serde_json::{json, Value};

const WIDTH: u32 = 390;
const HEIGHT: u32 = 844;

/// How far the page reaches past the screen's right edge, and what reaches furthest.
const OVERFLOW: &str = "
    const width = document.documentElement.clientWidth;
    let worst = null;
    for (const el of document.querySelectorAll('body *')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1 && getComputedStyle(el).position !== 'fixed'
          && (!worst || r.right > worst.right)) {
        worst = { right: r.right, what: el.tagName + '#' + el.id + '.' + el.className };
      }
    }
    return { scroll: document.documentElement.scrollWidth, width, worst };";

/// Visible controls smaller than 44 px in either direction (buttons, selects, text fields,
/// sliders; a checkbox or radio counts by its label).
const SMALL_TARGETS: &str = "
    const small = [];
    for (const el of document.querySelectorAll('button, select, input')) {
      const target = (el.type === 'checkbox' || el.type === 'radio') ? (el.closest('label') || el) : el;
      const r = target.getBoundingClientRect();
      const shown = r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
      const narrow = el.tagName === 'BUTTON' && r.width < 44;
      if (shown && (r.height < 44 || narrow)) small.push((el.id || el.type) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    return small;";

/// The smallest text of the SVG charts on screen, in CSS px once the SVG is scaled.
const SMALLEST_SVG_TEXT: &str = "
    let smallest = 1000, what = '';
    for (const text of document.querySelectorAll('svg text')) {
      const svg = text.ownerSVGElement;
      const box = svg.viewBox.baseVal;
      const shown = svg.getBoundingClientRect().width;
      if (!box || box.width === 0 || shown === 0 || !text.textContent.trim()) continue;
      const px = parseFloat(getComputedStyle(text).fontSize) * shown / box.width;
      if (px < smallest) { smallest = px; what = text.textContent; }
    }
    return [smallest, what];";

/// Every problem with the text of the exercise charts on screen: two labels whose boxes
/// overlap, a label cut by its chart's edge, text under 12 CSS px. Empty when all is well.
const EXERCISE_LABEL_PROBLEMS: &str = "
    const problems = [];
    for (const svg of document.querySelectorAll('.exercise-figure svg')) {
      const frame = svg.getBoundingClientRect();
      const box = svg.viewBox.baseVal;
      const figure = svg.closest('figure').id;
      const labels = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
        .map(t => ({ text: t.textContent.trim(), r: t.getBoundingClientRect(),
                     px: parseFloat(getComputedStyle(t).fontSize) * frame.width / box.width }));
      for (const a of labels) {
        if (a.r.left < frame.left - 0.5 || a.r.right > frame.right + 0.5)
          problems.push(figure + ': ' + a.text + ' is cut by the edge');
        if (a.px < 12) problems.push(figure + ': ' + a.text + ' at ' + a.px.toFixed(1) + ' px');
      }
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const [a, b] = [labels[i].r, labels[j].r];
          const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
          const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
          if (w > 1 && h > 1)
            problems.push(figure + ': ' + labels[i].text + ' over ' + labels[j].text);
        }
      }
    }
    return problems;";

/// Tables cut by the screen's edge that do not say that they scroll.
const SILENT_CUT_TABLES: &str = "
    return [...document.querySelectorAll('.exercise table')].filter(table => {
      const room = table.closest('.table-scroll');
      const cut = room ? room.scrollWidth > room.clientWidth + 1
                       : table.getBoundingClientRect().right > document.documentElement.clientWidth;
      const hint = table.closest('.wide-table')?.querySelector('.scroll-hint');
      return cut && !(hint && hint.getBoundingClientRect().height > 0);
    }).map(table => table.id);";

/// On the first screen, with the controls' sheet closed and then open: the load chart whole
/// and the transport, both above what the sheet covers; the scenario's settings below.
async fn assert_first_screen_is_the_run(page: &browser::Page, name: &str) {
    let first = page
        .eval(
            "window.scrollTo(0, 0);
             const box = (css) => document.querySelector(css).getBoundingClientRect();
             const [play, chart, toolbar, bar] =
               [box('#play'), box('.rp .load canvas'), box('.rp .toolbar'), box('.rp .drawer-toggle')];
             return [play.bottom, chart.top, chart.bottom, toolbar.top, bar.top];",
        )
        .await;
    let at = |i: usize| first[i].as_f64().unwrap();
    assert!(
        at(1) >= 0.0 && at(2) <= at(4),
        "{name}: the chart is not whole on the first screen: {first}"
    );
    assert!(
        at(0) <= at(4),
        "{name}: the transport is not on the first screen: {first}"
    );
    assert!(at(3) > at(2), "{name}: settings above the chart: {first}");
    // The sheet open: the chart a slider changes is still in view above it.
    page.eval("document.querySelector('.rp .drawer-toggle').click(); return true;")
        .await;
    let sheet = page
        .eval(
            "const chart = document.querySelector('.rp .load canvas').getBoundingClientRect();
             const sheet = document.querySelector('.rp .controls').getBoundingClientRect();
             return [chart.bottom, sheet.top];",
        )
        .await;
    page.eval("document.querySelector('.rp .drawer-toggle').click(); return true;")
        .await;
    assert!(
        sheet[0].as_f64().unwrap() <= sheet[1].as_f64().unwrap(),
        "{name}: the open sheet covers the chart: {sheet}"
    );
}

async fn assert_fits(page: &browser::Page, name: &str) {
    let fit = page.eval(OVERFLOW).await;
    assert!(
        fit["scroll"].as_f64().unwrap() <= f64::from(WIDTH),
        "{name} scrolls sideways: {fit}"
    );
}

#[tokio::test]
async fn the_playground_fits_a_phone() {
    browser::run("phone-playground", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open("index.html", "#resilience-app .topology").await;
        assert_fits(&page, "the playground").await;
        // The announcements' switch waits out of sight, all of it, until it has the focus.
        let right = page
            .eval("return document.querySelector('.announce-switch').getBoundingClientRect().right")
            .await;
        assert!(right.as_f64().unwrap() <= 0.0, "the switch shows before its focus: {right}");
        page.eval("document.getElementById('announce-events').focus(); return null")
            .await;
        let shown = page
            .eval("const r = document.querySelector('.announce-switch').getBoundingClientRect(); return [r.left, r.right]")
            .await;
        assert!(
            shown[0].as_f64().unwrap() >= 0.0 && shown[1].as_f64().unwrap() <= f64::from(WIDTH),
            "the focused switch is on the screen: {shown}"
        );
        page.eval("document.activeElement.blur(); return null").await;

        // The controls: a bar at the foot of the screen that opens a drawer.
        let drawer = page
            .eval(
                "const region = document.querySelector('.rp .controls');
                 const body = region.querySelector('.drawer-body');
                 const bar = region.querySelector('.drawer-toggle');
                 return [getComputedStyle(region).position, getComputedStyle(body).display,
                         bar.getBoundingClientRect().bottom, bar.getBoundingClientRect().height];",
            )
            .await;
        assert_eq!(drawer[0], "fixed", "{drawer}");
        assert_eq!(drawer[1], "none", "the drawer starts closed: {drawer}");
        assert!((drawer[2].as_f64().unwrap() - f64::from(HEIGHT)).abs() <= 2.0, "{drawer}");
        assert!(drawer[3].as_f64().unwrap() >= 44.0, "{drawer}");
        page.eval("document.querySelector('.rp .drawer-toggle').click(); return true;")
            .await;
        let open = page
            .eval(
                "const body = document.querySelector('.rp .drawer-body');
                 const r = body.getBoundingClientRect();
                 return [getComputedStyle(body).display, getComputedStyle(body).overflowY, r.top, r.bottom];",
            )
            .await;
        assert_eq!(open[0], "block", "the drawer opens: {open}");
        assert!(open[2].as_f64().unwrap() >= 0.0, "the drawer stays on screen: {open}");
        page.screenshot("phone-playground-drawer").await;
        page.eval("document.querySelector('.rp .drawer-toggle').click(); return true;")
            .await;

        // The topology stacks, and its arrows point down.
        let topology = page
            .eval(
                "const t = document.querySelector('.rp .topology');
                 const boxes = [...t.querySelectorAll('.node-box')].map(b => b.getBoundingClientRect());
                 const link = t.querySelector('.link');
                 return [getComputedStyle(t).flexDirection, boxes[1].top >= boxes[0].bottom,
                         getComputedStyle(link).transform];",
            )
            .await;
        assert_eq!(topology[0], "column", "{topology}");
        assert_eq!(topology[1], Value::Bool(true), "{topology}");
        // rotate(90deg) as a matrix: cos 0, sin 1.
        let transform = topology[2].as_str().unwrap();
        assert!(transform.starts_with("matrix(6.12") || transform.starts_with("matrix(0, 1"), "{transform}");

        // Chart text and touch targets.
        let smallest = page.eval(SMALLEST_SVG_TEXT).await;
        assert!(smallest[0].as_f64().unwrap() >= 11.0, "SVG text too small: {smallest}");
        let small = page.eval(SMALL_TARGETS).await;
        assert_eq!(small, Value::Array(vec![]), "touch targets under 44 px: {small}");
        // The first screen is the run: the story's chart whole and the transport under it,
        // above the controls' bar, and the settings below them.
        assert_first_screen_is_the_run(&page, "the cascade").await;
        // The breaker diagram's words are 14 px or more.
        page.open("index.html?preset=cb&t=12", "#resilience-app .state-diagram").await;
        assert_first_screen_is_the_run(&page, "cb (its marked moments)").await;
        let smallest = page
            .eval(&SMALLEST_SVG_TEXT.replace("'svg text'", "'svg.state-diagram text'"))
            .await;
        assert!(smallest[0].as_f64().unwrap() >= 14.0, "diagram text too small: {smallest}");
        page.screenshot("phone-playground-cb").await;
        page.open("index.html", "#resilience-app .topology").await;
        // No keyboard on a phone: no keyboard line.
        let keys = page
            .eval("const k = document.querySelector('.rp .keys'); return k ? getComputedStyle(k).display : 'absent';")
            .await;
        assert_eq!(keys, "none");
        page.screenshot("phone-playground").await;
    })
    .await;
}

#[tokio::test]
async fn the_exercises_fit_a_phone_with_legible_charts() {
    browser::run("phone-exercises", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open("exercises.html", "#exercise-4 [id$='-ex4-run']")
            .await;
        for n in 1..=4 {
            page.eval(&format!(
                "document.querySelector(\"#exercise-{n} [id$='-ex{n}-run']\").click(); return true;"
            ))
            .await;
        }
        page.client
            .wait()
            .for_element(fantoccini::Locator::Css(
                "#exercise-4 [id$='-ex4-backlog'] svg",
            ))
            .await
            .expect("exercise 4 runs");
        assert_fits(&page, "the exercises").await;
        let smallest = page.eval(SMALLEST_SVG_TEXT).await;
        assert!(
            smallest[0].as_f64().unwrap() >= 11.0,
            "SVG text too small: {smallest}"
        );
        // Every chart of the four runs: its labels apart, inside it, and legible.
        let charts = page
            .eval("return document.querySelectorAll('.exercise-figure svg').length")
            .await;
        assert_eq!(charts, serde_json::json!(5), "the runs' charts");
        let problems = page.eval(EXERCISE_LABEL_PROBLEMS).await;
        assert_eq!(problems, serde_json::json!([]), "exercise chart labels");
        let silent = page.eval(SILENT_CUT_TABLES).await;
        assert_eq!(silent, serde_json::json!([]), "tables cut without a word");
        let hinted = page
            .eval("return document.querySelectorAll('.wide-table .scroll-hint').length")
            .await;
        assert!(hinted.as_u64() >= Some(1), "the min_calls table scrolls on a phone and says so");
        let small = page.eval(SMALL_TARGETS).await;
        assert_eq!(
            small,
            Value::Array(vec![]),
            "touch targets under 44 px: {small}"
        );
        page.eval("document.querySelector(\"[id$='ex2-min-calls-table']\").scrollIntoView({ block: 'center' }); return true;")
            .await;
        page.screenshot("phone-exercise-2").await;
        page.eval("document.querySelector('#exercise-4').scrollIntoView(); return true;")
            .await;
        page.screenshot("phone-exercises").await;
        page.eval("document.querySelector(\"#exercise-4 [id$='-ex4-backlog']\").scrollIntoView(); return true;")
            .await;
        page.screenshot("phone-exercise-chart").await;
    })
    .await;
}

#[tokio::test]
async fn the_course_page_widgets_fit_a_phone_and_the_table_folds() {
    browser::run("phone-widgets", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open("course-demo.html", "#demo-table table").await;
        assert_fits(&page, "the course page").await;
        // Every column of the lesson table is on screen, p99 included.
        let p99 = page
            .eval(
                "const cell = document.querySelector('#demo-table td[data-label=\"p99 ms\"]');
                 const r = cell.getBoundingClientRect();
                 return [r.left, r.right, getComputedStyle(cell, '::before').content];",
            )
            .await;
        assert!(p99[1].as_f64().unwrap() <= f64::from(WIDTH), "{p99}");
        assert_eq!(
            p99[2], "\"p99 ms\"",
            "each folded value carries its column's name"
        );
        page.eval("document.querySelector('#demo-table').scrollIntoView(); return true;")
            .await;
        page.screenshot("phone-course-demo").await;
    })
    .await;
}

#[tokio::test]
async fn the_ab_mode_fits_a_phone() {
    browser::run("phone-ab", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open(
            "index.html?preset=none&ab=patterns%3Dtimeout&t=12",
            "#ab-counters",
        )
        .await;
        assert_fits(&page, "the A/B playground").await;
        let table = page
            .eval(
                "const t = document.getElementById('ab-counters').getBoundingClientRect();
                 return [t.left, t.right];",
            )
            .await;
        assert!(
            table[0].as_f64().unwrap() >= 0.0 && table[1].as_f64().unwrap() <= f64::from(WIDTH),
            "the A/B table is on screen: {table}"
        );
        page.screenshot("phone-ab").await;
    })
    .await;
}

/// Points of the screen, every 15 px, that lie outside the widget `#w`'s own rectangle yet
/// show one of its elements: what of the widget is drawn where the course page's text is.
const DRAWN_OUTSIDE: &str = "const w = document.getElementById('w');
     const box = w.getBoundingClientRect();
     const out = [];
     for (let y = 1; y < innerHeight; y += 15) {
       for (let x = 1; x < innerWidth; x += 15) {
         if (x >= box.left - 1 && x <= box.right + 1 && y >= box.top - 1 && y <= box.bottom + 1) continue;
         const hit = document.elementFromPoint(x, y);
         if (hit && w.contains(hit)) out.push([x, y, hit.className.baseVal ?? hit.className]);
       }
     }
     return out.slice(0, 5);";

/// A course page on a phone, with the author's text above and below a playground widget: at
/// the page's top, with the widget in view (its controls opened), and at the bottom, nothing
/// of the widget is drawn outside its own rectangle; its controls open inside it.
#[tokio::test]
async fn a_playground_widget_stays_inside_its_box_on_a_phone() {
    browser::run("phone-widget-box", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open("course-demo.html", "#demo-table table").await;
        page.eval(
            "const text = (n) => Array.from({ length: n }, (_, i) =>
               '<p>The author writes paragraph ' + i + ' of the course, about timeouts and retries, \
                 long enough to fill the line.</p>').join('');
             document.querySelector('main, body').innerHTML = text(60) +
               '<resilience-widget id=\"w\" kind=\"playground\" preset=\"cb\"></resilience-widget>' + text(60);
             return null;",
        )
        .await;
        let start = Instant::now();
        while page
            .eval("return !!document.querySelector('#w .drawer-toggle')")
            .await
            != json!(true)
        {
            assert!(start.elapsed() < Duration::from_secs(30), "the widget did not start");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let top = page.eval(&format!("scrollTo(0, 0); {DRAWN_OUTSIDE}")).await;
        assert_eq!(top, json!([]), "at the page's top");
        page.screenshot("phone-widget-box-top").await;
        page.eval("document.querySelector('#w .drawer-toggle').scrollIntoView({ block: 'center' }); \
                   document.querySelector('#w .drawer-toggle').click(); return null")
            .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let opened = page
            .eval(&format!(
                "const body = document.querySelector('#w .drawer-body').getBoundingClientRect();
                 const w = document.getElementById('w').getBoundingClientRect();
                 const inside = body.height > 100 && body.top >= w.top && body.bottom <= w.bottom
                   && body.left >= w.left && body.right <= w.right;
                 const drawn = (() => {{ {DRAWN_OUTSIDE} }})();
                 return [inside, drawn];"
            ))
            .await;
        assert_eq!(opened, json!([true, []]), "the controls open inside the widget");
        page.screenshot("phone-widget-box-open").await;
        let bottom = page
            .eval(&format!("scrollTo(0, document.documentElement.scrollHeight); {DRAWN_OUTSIDE}"))
            .await;
        assert_eq!(bottom, json!([]), "at the page's bottom");
        page.screenshot("phone-widget-box-bottom").await;
    })
    .await;
}

/// A student alone on a phone (touch, 390 px): answering a step's question brings the step's
/// run into sight (it comes after the text), and the verdict when the run reaches its moment;
/// with reduced motion asked for, without an animation.
#[tokio::test]
async fn on_a_phone_the_run_and_then_the_verdict_come_into_sight() {
    browser::run("phone-lesson-sight", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.devtools(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] }),
        )
        .await;
        page.open(
            "lesson.html?lesson=km0&step=circuit-breaker",
            "[id$='lesson-choice-0']",
        )
        .await;
        page.eval(&browser::set_value("speed", "5")).await;
        let views_top = "const r = document.querySelector('.lesson-views').getBoundingClientRect();
                         return [r.top, innerHeight];";
        let before = page.eval(views_top).await;
        assert!(
            before[0].as_f64().unwrap() > before[1].as_f64().unwrap(),
            "the views start below the fold: {before}"
        );
        page.eval("document.getElementById('lesson-choice-0').click(); return null")
            .await;
        let start = Instant::now();
        loop {
            let now = page.eval(views_top).await;
            let (top, height) = (now[0].as_f64().unwrap(), now[1].as_f64().unwrap());
            if (-2.0..height * 0.6).contains(&top) {
                break;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "the run stayed out of sight: {now}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        page.screenshot("phone-lesson-answered").await;
        let verdict_in_sight = "const v = document.querySelector('.lesson-verdict');
             if (!v) return null;
             const r = v.getBoundingClientRect();
             return r.bottom > 0 && r.top < innerHeight;";
        let start = Instant::now();
        while page.eval(verdict_in_sight).await != json!(true) {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "the verdict stayed out of sight"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        page.screenshot("phone-lesson-verdict").await;
        // Every checkbox and radio button shown is a target of at least 24 x 24 px.
        let small = page
            .eval(
                "return [...document.querySelectorAll('input[type=checkbox], input[type=radio]')]
                   .filter((i) => i.getClientRects().length > 0)
                   .map((i) => i.getBoundingClientRect())
                   .filter((r) => r.width < 24 || r.height < 24)
                   .map((r) => [r.width, r.height]);",
            )
            .await;
        assert_eq!(small, json!([]), "targets under 24 px");
    })
    .await;
}

/// Answer cards (`&cards=on`): a question step's choices as large cards on a phone; a tap fills
/// the screen with that letter, in its own colour and pattern, and plays nothing; a tap goes
/// back to the cards. A step without a choice question says so and shows as usual.
#[tokio::test]
async fn answer_cards_fill_a_phone_with_the_letter_tapped() {
    browser::run("phone-cards", |page| async move {
        browser::emulate_phone(&page.client, WIDTH, HEIGHT).await;
        page.open(
            "lesson.html?lesson=km0&step=slow-inventory&cards=on",
            "[id$='answer-card-0']",
        )
        .await;
        let cards = page
            .eval("return [...document.querySelectorAll('.answer-card')].map(c => {
                       const r = c.getBoundingClientRect();
                       return [c.querySelector('.answer-card-letter').textContent, r.height >= 64, r.width >= 300];
                   })")
            .await;
        assert_eq!(
            cards,
            json!([["A", true, true], ["B", true, true], ["C", true, true]])
        );
        assert_eq!(page.eval("return !!document.querySelector('.lesson-views, canvas')").await, json!(false), "no run");
        assert_fits(&page, "phone-cards").await;
        page.screenshot("phone-cards").await;
        let looks = "const h = document.querySelector('.answer-card-held');
            if (!h) return null;
            const r = h.getBoundingClientRect(), s = getComputedStyle(h);
            return [h.textContent.trim(), r.width >= innerWidth, r.height >= innerHeight,
                    s.backgroundColor, s.backgroundImage !== 'none'];";
        let mut seen = Vec::new();
        for i in 0..3 {
            page.eval(&format!("document.querySelector(\"[id$='answer-card-{i}']\").click(); return null"))
                .await;
            let held = page.eval(looks).await;
            assert_eq!(held[0], json!(["A", "B", "C"][i]), "{held}");
            assert_eq!((held[1].clone(), held[2].clone(), held[4].clone()), (json!(true), json!(true), json!(true)), "{held}");
            seen.push(held[3].clone());
            if i == 2 {
                page.screenshot("phone-card-held").await;
            }
            page.eval("document.querySelector('.answer-card-held').click(); return null")
                .await;
            assert_eq!(page.eval(looks).await, Value::Null, "a tap goes back to the cards");
        }
        assert!(seen[0] != seen[1] && seen[1] != seen[2] && seen[0] != seen[2], "{seen:?}");
        // The capacity step asks for a number: no cards, a notice, the step as usual.
        page.open(
            "lesson.html?lesson=km0&step=capacity&cards=on",
            "[data-lesson-step]",
        )
        .await;
        let notice = page.text(".lesson-page-notices").await;
        assert!(notice.contains("cards: step `capacity` asks no choice question"), "{notice}");
    })
    .await;
}
