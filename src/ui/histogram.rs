//! The latency histogram: finished requests up to the playhead on a log axis from 1 ms to 10 s,
//! bars stacked by outcome, p50 and p99 marked; drawn with plotters on a canvas.

use super::chart_backend::ChartBackend;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::canvas::{
    chart_legend, min_text_css, run_line, use_canvas, ChartScale, Hatcher, LegendKey,
};
use super::chart_keys::{ChartKeys, ChartParts};
use super::compare::ab_legend;
use super::ids::use_ids;
use super::palette::{chart_theme, outcome_colour};
use crate::page::axis::tick_label;
use crate::page::chart_table::{histogram_table, ChartTable};
use crate::page::latency::{LatencyKind, OutcomeHistogram};
use crate::page::outcome_look::outcome_hatch;
use crate::sim::histogram::{HIGHEST_MS, LOWEST_MS};
use crate::sim::latency::Micros;
use crate::sim::trace::Outcome;
use std::cell::Cell;
use std::rc::Rc;

/// The size the chart is laid out for (its canvas's `width` and `height`).
const DESIGN: (u32, u32) = (640, 400);
const P99: RGBColor = RGBColor(0, 0, 0);

/// Properties of [`Histogram`].
#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub data: Rc<OutcomeHistogram>,
    /// The A/B mode's run B on the same axes (its bars beside A's, its lines dashed).
    #[prop_or_default]
    pub b: Option<Rc<OutcomeHistogram>>,
    pub kind: LatencyKind,
    pub dark: bool,
    /// Projector mode: larger chart text.
    #[prop_or_default]
    pub projector: bool,
    /// Playing: redraws are spaced (see `use_canvas`).
    #[prop_or_default]
    pub playing: bool,
    /// The bulkhead's longest wait for a permit, when the run has a bulkhead.
    #[prop_or_default]
    pub bulkhead_wait: Option<u64>,
    /// A click on the chart, at this latency (a bar's request is then followed).
    #[prop_or_default]
    pub on_latency: Option<Callback<Micros>>,
}

/// Where the last drawing put the x axis, in canvas pixels, for a click to read a latency
/// from (compared by identity: it is the same cell for the chart's life).
#[derive(Clone, Default)]
struct PlotArea(Rc<Cell<Option<(i32, i32)>>>);

impl PartialEq for PlotArea {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// The latency on the log axis at `x` canvas pixels, when `x` is on it.
fn latency_at(x: f64, (left, right): (i32, i32)) -> Option<Micros> {
    let share = (x - f64::from(left)) / f64::from((right - left).max(1));
    (0.0..=1.0).contains(&share).then(|| {
        let (lo, hi) = (LOWEST_MS.log10(), HIGHEST_MS.log10());
        (10f64.powf(lo + share * (hi - lo)) * 1000.0).round() as Micros
    })
}

/// The stacked histogram; redrawn only when its data or the theme change.
#[function_component(Histogram)]
pub fn histogram(props: &HistogramProps) -> Html {
    let ids = use_ids();
    let area = use_memo((), |_| PlotArea::default());
    let canvas_ref = use_canvas(
        (
            props.data.clone(),
            props.b.clone(),
            props.dark,
            props.projector,
            (*area).clone(),
        ),
        props.playing,
        "histogram",
        DESIGN,
        props.projector,
        |canvas, scale, (data, b, dark, projector, area)| {
            let runs: Vec<&OutcomeHistogram> =
                std::iter::once(&**data).chain(b.as_deref()).collect();
            draw(canvas, scale, &runs, *dark, *projector, area)
        },
    );
    let onclick = props.on_latency.clone().map(|pick| {
        let area = (*area).clone();
        Callback::from(move |e: MouseEvent| {
            let canvas: HtmlCanvasElement = e.target_unchecked_into();
            let css_width = f64::from(canvas.client_width().max(1));
            let x = f64::from(e.offset_x()) * f64::from(canvas.width()) / css_width;
            if let Some(latency) = area.0.get().and_then(|a| latency_at(x, a)) {
                pick.emit(latency);
            }
        })
    });
    let d = &props.data;
    let ms = |v: Option<u64>| {
        v.map_or("—".to_string(), |m| {
            format!("{:.1} ms", m as f64 / 1000.0)
        })
    };
    let shape = d.shape();
    let label = format!(
        "Histogram of the {} of {} finished requests, stacked by outcome; p50 {}, p99 {}{}{}",
        props.kind.label(),
        d.total,
        ms(d.percentiles.p50),
        ms(d.percentiles.p99),
        if shape.is_empty() { "" } else { "; " },
        shape
    );
    let runs: Vec<&OutcomeHistogram> = std::iter::once(&**d).chain(props.b.as_deref()).collect();
    let mut legend: Vec<LegendKey> = outcomes(&runs)
        .into_iter()
        .map(LegendKey::outcome)
        .collect();
    let label = match &props.b {
        Some(b) => format!(
            "{label}; run B on the same axes, its bars to the right of A's: {} finished, p50 {}, p99 {}",
            b.total,
            ms(b.percentiles.p50),
            ms(b.percentiles.p99)
        ),
        None => label,
    };
    if runs.iter().any(|h| h.total > 0) {
        legend.push(LegendKey::line("p50", "var(--accent)"));
        legend.push(LegendKey::line(
            "p99",
            if props.dark { "#ffffff" } else { "#000000" },
        ));
    }
    html! {
        <>
            <div class={classes!("readout", props.b.is_some().then_some("ab-readout"))}>
                if props.b.is_some() { <span class="ab-tag">{ "A" }</span> }
                <span>{ "finished " }<strong id={ids.id("hist-total")}>{ d.total }</strong></span>
                <span>{ "p50 " }<strong id={ids.id("readout-p50")}>{ ms(d.percentiles.p50) }</strong></span>
                <span>{ "p99 " }<strong id={ids.id("readout-p99")}>{ ms(d.percentiles.p99) }</strong></span>
            </div>
            if let Some(b) = &props.b {
                <div class="readout ab-readout">
                    <span class="ab-tag">{ "B" }</span>
                    <span>{ "finished " }<strong id={ids.id("hist-b-total")}>{ b.total }</strong></span>
                    <span>{ "p50 " }<strong id={ids.id("readout-b-p50")}>{ ms(b.percentiles.p50) }</strong></span>
                    <span>{ "p99 " }<strong id={ids.id("readout-b-p99")}>{ ms(b.percentiles.p99) }</strong></span>
                </div>
                { ab_legend(ids.id("latency-ab-legend"), "bars on the left of each pair", "bars on the right") }
            }
            { chart_legend(ids.id("latency-legend"), &legend) }
            <ChartKeys<HistogramParts> id={ids.id("latency-keys")} name="Latency histogram"
                source={HistogramParts { data: props.data.clone(), kind: props.kind }}>
                <canvas id={ids.id("latency-chart")} class={classes!("chart", onclick.is_some().then_some("pickable"))}
                    ref={canvas_ref} width="640" height="400" role="img" aria-label={label} {onclick} />
            </ChartKeys<HistogramParts>>
            <p class="hint">{ crate::page::latency::refusal_note(props.kind, props.bulkhead_wait) }</p>
        </>
    }
}

/// The histogram's bars, for the keyboard and the data table (run A's, in A/B).
#[derive(Clone, PartialEq)]
struct HistogramParts {
    data: Rc<OutcomeHistogram>,
    kind: LatencyKind,
}

impl ChartParts for HistogramParts {
    fn table(&self) -> ChartTable {
        histogram_table(&self.data, self.kind.label())
    }

    fn part(&self) -> &'static str {
        "bar"
    }
}

/// The outcomes either run has, in [`Outcome::ALL`] order.
fn outcomes(runs: &[&OutcomeHistogram]) -> Vec<Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|o| runs.iter().any(|h| h.stacks.iter().any(|(s, _)| s == o)))
        .collect()
}

fn draw(
    canvas: HtmlCanvasElement,
    scale: ChartScale,
    runs: &[&OutcomeHistogram],
    dark: bool,
    projector: bool,
    area: &PlotArea,
) -> Result<(), String> {
    let theme = chart_theme(dark);
    let text_px = scale.text(16.0, min_text_css(projector));
    let element = canvas.clone();
    let backend = ChartBackend::new(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&theme.background).map_err(|e| e.to_string())?;
    let heights = |data: &OutcomeHistogram| -> Vec<u64> {
        let buckets = data
            .stacks
            .first()
            .map(|(_, b)| b.counts().len())
            .unwrap_or(0);
        (0..buckets)
            .map(|i| data.stacks.iter().map(|(_, b)| b.counts()[i]).sum())
            .collect()
    };
    let tallest = runs
        .iter()
        .flat_map(|d| heights(d))
        .max()
        .unwrap_or(0)
        .max(1);
    let ink = theme.ink;
    // The family named, not spelled: plotters lowercases a spelled name, which brings
    // Unicode's case tables (about 12 KB) into the wasm.
    let text = (FontFamily::SansSerif, text_px).into_font().color(&ink);
    let mut chart = ChartBuilder::on(&root)
        .margin(scale.px(12.0))
        // Room for half of the last tick's label ("10000") past the axis' end.
        .margin_right(scale.px(36.0).max((text_px * 2.2).ceil() as u32))
        .x_label_area_size(scale.px(44.0).max((text_px * 2.8) as u32))
        .y_label_area_size(scale.px(60.0).max((text_px * 4.0) as u32))
        .build_cartesian_2d(
            (LOWEST_MS..HIGHEST_MS).log_scale(),
            0u64..tallest + tallest / 8 + 1,
        )
        .map_err(|e| e.to_string())?;
    let (x, _) = chart.plotting_area().get_pixel_range();
    area.0.set(Some((x.start, x.end)));
    // Where the axis runs, in canvas pixels, for whoever clicks on it by script (the tests).
    let _ = element.set_attribute("data-axis", &format!("{} {}", x.start, x.end));
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(ink.mix(0.08))
        .max_light_lines(1)
        .x_labels(7)
        .y_labels(6)
        .bold_line_style(ink.mix(0.2))
        .axis_style(ink)
        .x_desc("latency (ms, log scale)")
        .x_label_formatter(&|v| tick_label(*v))
        .y_desc("requests")
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    let pair = runs.len() > 1;
    // The patterns: lines of the background across A's bars, of the outcome's colour across
    // B's light ones.
    let cut = Hatcher::cutting(&element, scale, theme.background);
    for (r, data) in runs.iter().enumerate() {
        let buckets = heights(data).len();
        let mut base = vec![0u64; buckets];
        for (outcome, b) in &data.stacks {
            let colour = outcome_colour(*outcome);
            let bars: Vec<[(f64, u64); 2]> = b
                .counts()
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(i, &c)| {
                    let (low, high) = b.edges_ms(i);
                    // A pair splits the bucket at its middle on the log axis.
                    let mid = (low * high).sqrt();
                    let (from, to) = match (pair, r) {
                        (false, _) => (low, high),
                        (true, 0) => (low, mid),
                        _ => (mid, high),
                    };
                    let corners = [(from, base[i]), (to, base[i] + c)];
                    base[i] += c;
                    corners
                })
                .collect();
            let hatch = outcome_hatch(*outcome);
            let rects: Vec<_> = bars
                .iter()
                .map(|[a, b]| (chart.backend_coord(a), chart.backend_coord(b)))
                .collect();
            if r == 0 {
                chart
                    .draw_series(bars.iter().map(|&c| Rectangle::new(c, colour.filled())))
                    .map_err(|e| e.to_string())?;
                if let Some(cut) = &cut {
                    for &(a, b) in &rects {
                        cut.fill(hatch, a, b);
                    }
                }
            } else {
                chart
                    .draw_series(
                        bars.iter()
                            .map(|&c| Rectangle::new(c, colour.mix(0.35).filled())),
                    )
                    .map_err(|e| e.to_string())?;
                chart
                    .draw_series(
                        bars.iter()
                            .map(|&c| Rectangle::new(c, colour.stroke_width(scale.px(1.5)))),
                    )
                    .map_err(|e| e.to_string())?;
                if let Some(lines) = Hatcher::drawing(&element, scale, colour) {
                    for &(a, b) in &rects {
                        lines.fill(hatch, a, b);
                    }
                }
            }
        }
        // A bar too short to see (a slow tail of a few requests beside a peak of hundreds)
        // gets its count written above it, so the tail is never invisible.
        if let Some((_, b)) = data.stacks.first().filter(|_| r == 0) {
            let short: Vec<(f64, u64)> = heights(data)
                .iter()
                .enumerate()
                .filter(|&(_, &n)| n > 0 && n * 40 < tallest)
                .map(|(i, &n)| {
                    let (low, high) = b.edges_ms(i);
                    ((low * high).sqrt(), n)
                })
                .collect();
            chart
                .draw_series(short.iter().map(|&(x, n)| {
                    Text::new(
                        n.to_string(),
                        (x, n + tallest / 20 + 1),
                        text.clone().pos(Pos::new(HPos::Center, VPos::Bottom)),
                    )
                }))
                .map_err(|e| e.to_string())?;
        }
        let p99_colour = if dark { WHITE } else { P99 };
        for (value, colour) in [
            (data.percentiles.p50, theme.marker),
            (data.percentiles.p99, p99_colour),
        ] {
            let Some(micros) = value else { continue };
            let ms = (micros as f64 / 1000.0).clamp(LOWEST_MS, HIGHEST_MS);
            let style = colour.stroke_width(scale.px(3.0));
            run_line(
                &mut chart,
                vec![(ms, 0), (ms, tallest)],
                style,
                r > 0,
                scale,
            )?;
        }
    }
    root.present().map_err(|e| e.to_string())
}
