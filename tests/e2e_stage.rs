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

/// The screenshot's QR codes, read as a phone's camera would (rqrr stands in for it).
fn qr_codes_in(png_bytes: &[u8]) -> Vec<String> {
    let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut pixels = vec![0; reader.output_buffer_size()];
    let frame = reader.next_frame(&mut pixels).expect("its pixels");
    let channels = frame.color_type.samples();
    let (width, height) = (frame.width as usize, frame.height as usize);
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
        let at = (y * width + x) * channels;
        let rgb = &pixels[at..at + channels.min(3)];
        (rgb.iter().map(|&v| u32::from(v)).sum::<u32>() / rgb.len() as u32) as u8
    });
    image
        .detect_grids()
        .into_iter()
        .filter_map(|grid| grid.decode().ok().map(|(_, text)| text))
        .collect()
}

/// On the stage, "Join on a phone" shows the run's QR code: read from a screenshot of the
/// 1920 x 1080 projector, it is the run's link without the projector, the link is written
/// under it, and a phone that opens it gets the same run at its own size. Served from
/// 127.0.0.1, the dialog says a phone cannot reach that address.
#[tokio::test]
async fn the_stage_shows_a_code_a_phone_reads_back_to_the_run() {
    browser::run("stage-join", |page| async move {
        emulate_screen(&page, 1920, 1080, 1.0).await;
        page.open(
            "index.html?preset=cb&timeout=0.1&cooldown=3&projector=on",
            "#join-open",
        )
        .await;
        let permalink = page
            .eval("return document.getElementById('permalink').value")
            .await;
        let permalink = permalink.as_str().unwrap().to_string();
        assert!(permalink.contains("projector=on"), "{permalink}");
        // The page's module holds no encoder: the QR module comes when the dialog opens.
        let wasm = "return performance.getEntriesByType('resource').map(e => e.name.split('?')[0])
            .filter(n => n.endsWith('.wasm')).map(n => n.split('/').pop()).sort()";
        assert_eq!(page.eval(wasm).await, json!(["playground-page_bg.wasm"]));
        page.eval("document.getElementById('join-open').click(); return null")
            .await;
        let open = page
            .eval("return document.getElementById('join-code').open")
            .await;
        assert_eq!(open, json!(true));
        page.wait_for("#join-qr", "index.html").await;
        assert_eq!(
            page.eval(wasm).await,
            json!(["playground-page_bg.wasm", "qr-code_bg.wasm"])
        );
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let shot = page.client.screenshot().await.expect("a screenshot");
        std::fs::write(browser::artefacts_dir().join("stage-join.png"), &shot).unwrap();
        let read = qr_codes_in(&shot);
        assert_eq!(read.len(), 1, "one code on the stage: {read:?}");
        let link = &read[0];
        assert!(
            link.starts_with(&page.base_url) && link.contains("index.html?"),
            "{link}"
        );
        assert!(
            !link.contains("projector"),
            "the phone gets no projector: {link}"
        );
        for setting in ["preset=cb", "timeout=0.1", "cooldown=3"] {
            assert!(link.contains(setting), "{link} lacks {setting}");
        }
        assert_eq!(
            page.text("#join-link").await,
            *link,
            "the link under the code"
        );
        let notice = page.text("#join-unreachable").await;
        assert!(notice.contains("localhost"), "{notice}");
        // Escape closes it.
        browser::press_keys(&page, &['\u{E00C}']).await;
        let open = page
            .eval("return document.getElementById('join-code').open")
            .await;
        assert_eq!(open, json!(false));
        // A lesson on the projector: its code opens the same step.
        page.open(
            "lesson.html?lesson=km0&step=timeout&projector=on",
            "#join-open",
        )
        .await;
        page.eval("document.getElementById('join-open').click(); return null")
            .await;
        page.wait_for("#join-qr", "lesson.html").await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        let shot = page.client.screenshot().await.expect("a screenshot");
        std::fs::write(
            browser::artefacts_dir().join("stage-join-lesson.png"),
            &shot,
        )
        .unwrap();
        assert_eq!(
            qr_codes_in(&shot),
            vec![format!(
                "{}lesson.html?lesson=km0&step=timeout",
                page.base_url
            )]
        );
        browser::press_keys(&page, &['\u{E00C}']).await;
        // The phone: the same run, at its own size.
        page.devtools(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": true}),
        )
        .await;
        let relative = link.trim_start_matches(&page.base_url).to_string();
        page.open(&relative, "#timeout").await;
        let phone = page
            .eval(
                "return [document.getElementById('timeout').value,
                         document.getElementById('cooldown').value,
                         document.documentElement.classList.contains('projector')]",
            )
            .await;
        assert_eq!(phone, json!(["100", "3000", false]), "{link}");
    })
    .await;
}
