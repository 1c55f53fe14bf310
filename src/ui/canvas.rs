//! A chart drawn on a canvas: its backing store sized to the canvas's width on the page times
//! the device pixel ratio (crisp on any screen), redrawn after a render whenever what it shows
//! or that width has changed.

use plotters::style::RGBColor;

use super::palette::outcome_colour;
use crate::page::glossary::outcome_words;
use crate::page::hatch::{hatch_segments, marked_points, Hatch, LineMark};
use crate::page::outcome_look::outcome_hatch;
use crate::sim::trace::Outcome;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ResizeObserver, ResizeObserverEntry};
use yew::prelude::*;

/// How a chart laid out for a design size maps onto its canvas's backing store.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChartScale {
    /// Backing-store pixels per design pixel.
    pub k: f64,
    /// Backing-store pixels per CSS pixel (the device pixel ratio).
    pub dpr: f64,
}

impl ChartScale {
    /// A design length (margins, label areas, line widths) in backing-store pixels.
    pub fn px(&self, design: f64) -> u32 {
        (design * self.k).round().max(1.0) as u32
    }

    /// A font size in backing-store pixels: `design` scaled like the rest of the chart, and
    /// never under `min_css` CSS pixels on the page (a 640 px chart in a 340 px phone column
    /// would halve its text).
    pub fn text(&self, design: f64, min_css: f64) -> f64 {
        (design * self.k).max(min_css * self.dpr).ceil()
    }
}

/// The smallest chart text, in CSS pixels: 20 in projector mode (a number read from the back
/// of a classroom), 12 otherwise.
pub fn min_text_css(projector: bool) -> f64 {
    if projector {
        20.0
    } else {
        12.0
    }
}

/// While playing, the shortest time between two draws of one chart (ms): at 20x the data
/// change every frame, and a chart drawn every frame (its raster included) costs more than
/// a frame's budget on a busy machine. Ten draws a second still move at 1x, where a slice
/// of the load chart is 100 ms anyway.
const LIVE_MIN_INTERVAL_MS: f64 = 100.0;

/// While playing, charts draw in different frames: one drawn less than this long ago (ms)
/// puts the next one off by a frame.
const ONE_CHART_PER_FRAME_MS: f64 = 12.0;

thread_local! {
    /// When a chart of this page last drew (`performance.now()`, ms).
    static LAST_CHART_DRAW: std::cell::Cell<f64> = const { std::cell::Cell::new(f64::NEG_INFINITY) };
}

/// The page's clock (`performance.now()`), in milliseconds.
pub(super) fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The canvas's ref; `draw` paints it from `deps` each time they change or the canvas's size
/// on the page does. `design` is the size the chart is laid out for (its `width` and
/// `height` attributes); the backing store gets the same shape at the page's width times the
/// device pixel ratio, or, when `fill` (the lesson's projector, whose cells give each canvas
/// a height of its own), the canvas's own height on the page, up to a square. The width comes from a `ResizeObserver`, so drawing never asks the
/// page for its layout (which, after a render, costs a layout of the whole page). While
/// `live` (playing), draws are spaced (see [`LIVE_MIN_INTERVAL_MS`]); the last change is
/// always drawn. A chart that cannot be drawn says why on the console (naming it `what`)
/// and leaves the page working.
#[hook]
pub fn use_canvas<D>(
    deps: D,
    live: bool,
    what: &'static str,
    design: (u32, u32),
    fill: bool,
    draw: fn(HtmlCanvasElement, ChartScale, &D) -> Result<(), String>,
) -> NodeRef
where
    D: PartialEq + Clone + 'static,
{
    let canvas_ref = use_node_ref();
    let (css_width, css_height) = use_content_size(canvas_ref.clone());
    let css_width = (css_width, fill.then_some(css_height));
    let last_drawn = use_mut_ref(|| f64::NEG_INFINITY);
    let pending = use_mut_ref(|| None::<gloo_timers::callback::Timeout>);
    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with((deps, css_width), move |(deps, css_width)| {
            let (deps, css_width) = (deps.clone(), *css_width);
            let drawn = last_drawn.clone();
            let paint = move || {
                let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() else {
                    return;
                };
                let Some(scale) = fit_backing_store(&canvas, design, css_width) else {
                    return;
                };
                if let Err(message) = draw(canvas, scale, &deps) {
                    web_sys::console::warn_1(&format!("{what} not drawn: {message}").into());
                }
                let now = now_ms();
                *drawn.borrow_mut() = now;
                LAST_CHART_DRAW.with(|t| t.set(now));
            };
            // A newer change replaces the draw still waiting (dropping a Timeout cancels it).
            pending.borrow_mut().take();
            let wait = if live {
                let now = now_ms();
                let own = *last_drawn.borrow() + LIVE_MIN_INTERVAL_MS - now;
                let other = LAST_CHART_DRAW.with(|t| t.get()) + ONE_CHART_PER_FRAME_MS - now;
                if other > 0.0 {
                    own.max(ONE_CHART_PER_FRAME_MS)
                } else {
                    own
                }
            } else {
                0.0
            };
            // A chart's first draw waits for a task of its own, so the page's text and frames
            // are painted before the charts are (docs/measurements.md: first view).
            let first = last_drawn.borrow().is_infinite();
            if wait <= 0.0 && !first {
                paint();
            } else {
                *pending.borrow_mut() = Some(gloo_timers::callback::Timeout::new(
                    wait.max(0.0).ceil() as u32,
                    paint,
                ));
            }
            || ()
        });
    }
    canvas_ref
}

/// The content width, in CSS pixels, of the element `node` refers to, kept current by a
/// `ResizeObserver` (no layout asked for); 0 until it is laid out.
#[hook]
pub fn use_content_width(node: NodeRef) -> f64 {
    use_content_size(node).0
}

/// The content width and height, in CSS pixels, of the element `node` refers to, kept
/// current by a `ResizeObserver` (no layout asked for); 0 until it is laid out.
#[hook]
pub fn use_content_size(node: NodeRef) -> (f64, f64) {
    let css_size = use_state_eq(|| (0.0f64, 0.0f64));
    {
        let css_size = css_size.clone();
        use_effect_with((), move |_| {
            let observer = node
                .cast::<web_sys::Element>()
                .and_then(|element| observe_size(&element, css_size));
            move || {
                if let Some((observer, callback)) = observer {
                    observer.disconnect();
                    drop(callback);
                }
            }
        });
    }
    *css_size
}

/// What a `ResizeObserver` calls with its entries.
type ResizeCallback = Closure<dyn Fn(js_sys::Array)>;

/// A `ResizeObserver` keeping `css_size` at the element's content width and height; the
/// callback is returned with it, to live as long as the observer.
fn observe_size(
    element: &web_sys::Element,
    css_size: UseStateHandle<(f64, f64)>,
) -> Option<(ResizeObserver, ResizeCallback)> {
    let callback = ResizeCallback::new(move |entries: js_sys::Array| {
        if let Ok(entry) = entries.get(0).dyn_into::<ResizeObserverEntry>() {
            let rect = entry.content_rect();
            css_size.set((rect.width(), rect.height()));
        }
    });
    let observer = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
    observer.observe(element);
    Some((observer, callback))
}

/// Sizes the canvas's backing store for `css_width` CSS pixels at the device pixel ratio, in
/// the shape of `design` (or `css_height` tall, up to a square, when given), and says how the
/// design maps onto it; `None` while the canvas is not laid out (hidden, or not measured yet).
fn fit_backing_store(
    canvas: &HtmlCanvasElement,
    (design_w, design_h): (u32, u32),
    (css_width, css_height): (f64, Option<f64>),
) -> Option<ChartScale> {
    if css_width.is_nan() || css_width <= 0.0 {
        return None;
    }
    let dpr = web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0);
    let width = (css_width * dpr).round().max(1.0);
    let height = match css_height.filter(|h| h.is_finite() && *h >= 1.0) {
        Some(h) => (h * dpr).min(width).round(),
        None => (width * f64::from(design_h) / f64::from(design_w)).round(),
    };
    // Setting a size clears the canvas even when it is unchanged: only when it changes.
    if f64::from(canvas.width()) != width || f64::from(canvas.height()) != height {
        canvas.set_width(width as u32);
        canvas.set_height(height as u32);
    }
    Some(ChartScale {
        k: width / f64::from(design_w),
        dpr,
    })
}

/// One key of a chart's legend.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendKey {
    /// What it names.
    pub label: String,
    /// Its colour, as CSS (`#rrggbb`, or a variable such as `var(--ink)`).
    pub colour: String,
    /// A line on the chart (else a filled bar).
    pub line: bool,
    /// A bar's fill pattern (else plain).
    pub hatch: Option<Hatch>,
    /// A line's marks.
    pub mark: Option<LineMark>,
}

impl LegendKey {
    /// A bar of `colour`.
    pub fn bar(label: impl Into<String>, colour: RGBColor) -> LegendKey {
        LegendKey {
            label: label.into(),
            colour: css_colour(colour),
            line: false,
            hatch: None,
            mark: None,
        }
    }

    /// This line with its marks.
    pub fn marked(self, mark: LineMark) -> LegendKey {
        LegendKey {
            mark: Some(mark),
            ..self
        }
    }

    /// The bar of an outcome: its colour and its pattern.
    pub fn outcome(outcome: Outcome) -> LegendKey {
        LegendKey {
            hatch: Some(outcome_hatch(outcome)),
            ..LegendKey::bar(outcome_words(outcome), outcome_colour(outcome))
        }
    }

    /// A line of `colour` (CSS).
    pub fn line(label: impl Into<String>, colour: impl Into<String>) -> LegendKey {
        LegendKey {
            label: label.into(),
            colour: colour.into(),
            line: true,
            hatch: None,
            mark: None,
        }
    }
}

/// `#rrggbb` of a chart colour.
pub fn css_colour(RGBColor(r, g, b): RGBColor) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// A chart's legend in HTML beside its canvas: as crisp and as large as the page's text, and
/// no text measured while drawing (plotters measures a label by laying out a span in the
/// document, which forced a layout of the whole page per label on every frame of playback).
pub fn chart_legend(id: AttrValue, keys: &[LegendKey]) -> Html {
    html! {
        <ul class="legend chart-legend" {id}>
            { for keys.iter().map(|k| html! {
                <li class={classes!("key", k.line.then_some("key-line"), k.hatch.map(Hatch::class), k.mark.map(LineMark::class))}
                    style={format!("--key: {}", k.colour)}>{ &k.label }</li>
            }) }
        </ul>
    }
}

/// A line of one run of an A/B pair on `chart`: solid for A (`dashed` false), dashed for B.
pub fn run_line<X, Y>(
    chart: &mut plotters::chart::ChartContext<
        '_,
        super::chart_backend::ChartBackend,
        plotters::coord::cartesian::Cartesian2d<X, Y>,
    >,
    points: Vec<(X::ValueType, Y::ValueType)>,
    style: plotters::style::ShapeStyle,
    dashed: bool,
    scale: ChartScale,
) -> Result<(), String>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    use plotters::element::{DashedPathElement, PathElement};
    if dashed {
        chart.draw_series(std::iter::once(DashedPathElement::new(
            points,
            scale.px(9.0),
            scale.px(6.0),
            style,
        )))
    } else {
        chart.draw_series(std::iter::once(PathElement::new(points, style)))
    }
    .map(|_| ())
    .map_err(|e| e.to_string())
}

/// Draws `mark` at about a dozen of a line's `points` (the `series`-th line of its chart), in
/// `colour`: beside the colour, the shape tells the lines apart.
pub fn line_marks<X, Y>(
    chart: &mut plotters::chart::ChartContext<
        '_,
        super::chart_backend::ChartBackend,
        plotters::coord::cartesian::Cartesian2d<X, Y>,
    >,
    points: &[(X::ValueType, Y::ValueType)],
    mark: LineMark,
    colour: RGBColor,
    series: usize,
    scale: ChartScale,
) -> Result<(), String>
where
    X: plotters::coord::ranged1d::Ranged,
    Y: plotters::coord::ranged1d::Ranged,
    X::ValueType: Clone + 'static,
    Y::ValueType: Clone + 'static,
{
    use plotters::element::{Circle, EmptyElement, Rectangle};
    use plotters::style::Color;
    let at: Vec<_> = marked_points(points.len(), 12, series)
        .into_iter()
        .map(|i| points[i].clone())
        .collect();
    let size = scale.px(4.5) as i32;
    match mark {
        LineMark::Plain => Ok(()),
        LineMark::Circle => chart
            .draw_series(
                at.into_iter()
                    .map(|c| Circle::new(c, size, colour.filled())),
            )
            .map(|_| ()),
        LineMark::Ring => chart
            .draw_series(
                at.into_iter()
                    .map(|c| Circle::new(c, size, colour.stroke_width(scale.px(2.0)))),
            )
            .map(|_| ()),
        LineMark::Square => chart
            .draw_series(at.into_iter().map(|c| {
                EmptyElement::at(c)
                    + Rectangle::new([(-size, -size), (size, size)], colour.filled())
            }))
            .map(|_| ()),
    }
    .map_err(|e| e.to_string())
}

/// Draws fill patterns over bars already drawn on a canvas, straight on its 2D context (one
/// path per bar), in the colour and width it was made with.
pub struct Hatcher {
    context: CanvasRenderingContext2d,
    colour: String,
    width: f64,
    gap: i32,
}

impl Hatcher {
    /// A hatcher for `canvas`, its lines `width` canvas pixels wide and `gap` apart; `None`
    /// without a 2D context.
    pub fn new(
        canvas: &HtmlCanvasElement,
        colour: String,
        width: f64,
        gap: i32,
    ) -> Option<Hatcher> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(Hatcher {
            context,
            colour,
            width,
            gap,
        })
    }

    /// The patterns of a run's solid bars: lines of the chart's `background` cut across them.
    pub fn cutting(
        canvas: &HtmlCanvasElement,
        scale: ChartScale,
        background: RGBColor,
    ) -> Option<Hatcher> {
        Hatcher::new(
            canvas,
            css_colour(background),
            f64::from(scale.px(2.0)),
            scale.px(7.0) as i32,
        )
    }

    /// The patterns of A/B's run B, whose bars are light: thin lines of the outcome's `colour`.
    pub fn drawing(
        canvas: &HtmlCanvasElement,
        scale: ChartScale,
        colour: RGBColor,
    ) -> Option<Hatcher> {
        Hatcher::new(
            canvas,
            css_colour(colour),
            f64::from(scale.px(1.2)),
            scale.px(7.0) as i32,
        )
    }

    /// Patterns the bar between the canvas points `a` and `b` with `hatch`.
    pub fn fill(&self, hatch: Hatch, a: (i32, i32), b: (i32, i32)) {
        let segments = hatch_segments(hatch, a, b, self.gap);
        if segments.is_empty() {
            return;
        }
        let c = &self.context;
        c.save();
        c.set_stroke_style_str(&self.colour);
        c.set_line_width(self.width);
        c.begin_path();
        for [(ax, ay), (bx, by)] in segments {
            c.move_to(f64::from(ax), f64::from(ay));
            c.line_to(f64::from(bx), f64::from(by));
        }
        c.stroke();
        c.restore();
    }
}
