//! The stage: projector mode on a 1920 x 1080 screen (at a device pixel ratio of 2, as a
//! laptop driving a projector often has). The timeline, the topology and the breaker diagram
//! all on the first screen, the controls in a drawer, the diagram at least 600 px wide with
//! its state names at least 24 px tall, no text under 18 px, and the charts' canvases drawn
//! at the device pixel ratio. Also 1366 x 768 without projector mode: the diagram's names still
//! legible (12 px or more) and the charts still crisp. Saves `target/e2e/stage-*.png`. Run by `make test`
//! (`cargo test --features e2e --test e2e_stage`).

#[path = "support/browser.rs"]
mod browser;

use serde_json::{json, Value};

/// Makes the page a desktop screen of `width` x `height` CSS px at `dpr` device pixels each.
async fn emulate_screen(page: &browser::Page, width: u32, height: u32, dpr: f64) {
    page.devtools(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": width, "height": height, "deviceScaleFactor": dpr, "mobile": false}),
    )
    .await;
}

/// The breaker diagram's width on screen and, for each state name, the height of its text
/// on screen and its font size once the SVG is scaled (CSS px).
const DIAGRAM: &str = "
    const svg = document.querySelector('.rp svg.state-diagram');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const names = [...svg.querySelectorAll('.node text')].map(t => ({
      name: t.textContent,
      height: t.getBoundingClientRect().height,
      font: parseFloat(getComputedStyle(t).fontSize) * scale,
    }));
    return { width: svg.getBoundingClientRect().width, names };";

/// Where the regions end, in CSS px from the top of the page (scrolled to the top).
const REGION_BOTTOMS: &str = "
    window.scrollTo(0, 0);
    const bottom = css => {
      const el = document.querySelector(css);
      return el ? el.getBoundingClientRect().bottom : -1;
    };
    return { timeline: bottom('.rp .timeline'), topology: bottom('.rp .topology-region'),
             diagram: bottom('.rp .diagram') };";

/// The smallest text on screen outside the controls' drawer, in CSS px: HTML text by its
/// computed size, SVG text scaled by its SVG's size on screen.
const SMALLEST_TEXT: &str = "
    let smallest = 1000, what = '';
    const consider = (px, el) => {
      if (px < smallest) { smallest = px; what = el.tagName + '.' + el.getAttribute('class') + ': ' + el.textContent.trim().slice(0, 40); }
    };
    for (const el of document.querySelectorAll('body *')) {
      if (el.closest('.drawer-body') || el.closest('svg')) continue;
      const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      const r = el.getBoundingClientRect();
      if (!own || r.width <= 1 || r.height <= 1 || r.bottom < 0 || r.top > innerHeight) continue;
      consider(parseFloat(getComputedStyle(el).fontSize), el);
    }
    for (const text of document.querySelectorAll('svg text')) {
      const svg = text.ownerSVGElement;
      const box = svg.viewBox.baseVal;
      const r = svg.getBoundingClientRect();
      if (!box || box.width === 0 || r.width === 0 || r.top > innerHeight || !text.textContent.trim()) continue;
      consider(parseFloat(getComputedStyle(text).fontSize) * r.width / box.width, text);
    }
    return [smallest, what];";

/// Each chart canvas's backing-store width against its width on screen times the device
/// pixel ratio.
const CANVAS_RESOLUTION: &str = "
    return [...document.querySelectorAll('.rp canvas.chart')].map(c => ({
      id: c.id, backing: c.width, wanted: Math.round(c.getBoundingClientRect().width * devicePixelRatio),
    }));";

/// Waits until every chart's backing store matches its width on screen (the canvases are
/// resized by a ResizeObserver after layout) and returns the last reading.
async fn crisp_canvases(page: &browser::Page) -> Value {
    let mut reading = Value::Null;
    for _ in 0..50 {
        reading = page.eval(CANVAS_RESOLUTION).await;
        let all_match = reading.as_array().is_some_and(|list| {
            !list.is_empty()
                && list.iter().all(|c| {
                    (c["backing"].as_f64().unwrap_or(0.0) - c["wanted"].as_f64().unwrap_or(-9.0))
                        .abs()
                        <= 1.0
                })
        });
        if all_match {
            return reading;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    panic!("a chart is not drawn at the device pixel ratio: {reading}");
}

#[tokio::test]
async fn the_stage_puts_timeline_topology_and_diagram_on_one_projector_screen() {
    browser::run("stage-projector", |page| async move {
        emulate_screen(&page, 1920, 1080, 2.0).await;
        page.open(
            "index.html?preset=cb&projector=on&t=6.5",
            ".rp svg.state-diagram",
        )
        .await;

        let diagram = page.eval(DIAGRAM).await;
        println!("stage at 1920x1080, projector: diagram {diagram}");
        assert!(
            diagram["width"].as_f64().unwrap() >= 600.0,
            "the diagram is under 600 px wide: {diagram}"
        );
        let names = diagram["names"].as_array().unwrap();
        assert_eq!(names.len(), 3, "{diagram}");
        for name in names {
            assert!(
                name["height"].as_f64().unwrap() >= 24.0 && name["font"].as_f64().unwrap() >= 24.0,
                "a state name under 24 px: {name}"
            );
        }

        let bottoms = page.eval(REGION_BOTTOMS).await;
        println!("stage at 1920x1080, projector: region bottoms {bottoms}");
        for region in ["timeline", "topology", "diagram"] {
            let bottom = bottoms[region].as_f64().unwrap();
            assert!(
                (0.0..=1080.0).contains(&bottom),
                "the {region} is not on the first screen: {bottoms}"
            );
        }

        // The controls: a closed drawer at the foot of the screen.
        let drawer = page
            .eval(
                "const region = document.querySelector('.rp .controls');
                 const bar = region.querySelector('.drawer-toggle').getBoundingClientRect();
                 return [getComputedStyle(region).position,
                         getComputedStyle(region.querySelector('.drawer-body')).display,
                         bar.bottom, bar.height];",
            )
            .await;
        assert_eq!(drawer[0], "fixed", "{drawer}");
        assert_eq!(drawer[1], "none", "the drawer starts closed: {drawer}");
        assert!(
            (drawer[2].as_f64().unwrap() - 1080.0).abs() <= 2.0,
            "the drawer's bar sits at the foot of the screen: {drawer}"
        );

        let smallest = page.eval(SMALLEST_TEXT).await;
        println!("stage at 1920x1080, projector: smallest text {smallest}");
        assert!(
            smallest[0].as_f64().unwrap() >= 18.0,
            "text under 18 px in projector mode: {smallest}"
        );

        let canvases = crisp_canvases(&page).await;
        println!("stage at 1920x1080, projector: canvases {canvases}");
        page.screenshot("stage-1920-projector").await;

        page.eval("document.querySelector('.rp .drawer-toggle').click(); return true;")
            .await;
        let open = page
            .eval(
                "const body = document.querySelector('.rp .drawer-body');
                 const r = body.getBoundingClientRect();
                 return [getComputedStyle(body).display, r.top, r.bottom];",
            )
            .await;
        assert_eq!(open[0], "block", "the drawer opens: {open}");
        assert!(
            open[1].as_f64().unwrap() >= 0.0,
            "the open drawer stays on screen: {open}"
        );
        page.screenshot("stage-1920-projector-drawer").await;
    })
    .await;
}

#[tokio::test]
async fn at_1366_by_768_the_charts_stay_crisp_and_the_diagram_legible() {
    browser::run("stage-1366", |page| async move {
        emulate_screen(&page, 1366, 768, 1.5).await;
        page.open("index.html?preset=cb&t=6.5", ".rp svg.state-diagram")
            .await;
        let diagram = page.eval(DIAGRAM).await;
        println!("stage at 1366x768: diagram {diagram}");
        for name in diagram["names"].as_array().unwrap() {
            assert!(
                name["font"].as_f64().unwrap() >= 12.0,
                "a state name under 12 px: {name}"
            );
        }
        let canvases = crisp_canvases(&page).await;
        println!("stage at 1366x768: canvases {canvases}");
        page.screenshot("stage-1366").await;
    })
    .await;
}
