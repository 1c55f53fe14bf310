//! The latency histogram: finished requests up to the playhead on a log axis from 1 ms to 10 s,
//! bars stacked by outcome, p50 and p99 marked; drawn with plotters on a canvas.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::canvas::use_canvas;
use super::ids::use_ids;
use super::palette::{chart_theme, outcome_colour};
use crate::page::latency::{LatencyKind, OutcomeHistogram};
use crate::sim::histogram::{HIGHEST_MS, LOWEST_MS};
use std::rc::Rc;

const P99: RGBColor = RGBColor(0, 0, 0);

/// Properties of [`Histogram`].
#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub data: Rc<OutcomeHistogram>,
    pub kind: LatencyKind,
    pub dark: bool,
    /// The bulkhead's longest wait for a permit, when the run has a bulkhead.
    #[prop_or_default]
    pub bulkhead_wait: Option<u64>,
}

fn css(c: RGBColor) -> String {
    format!("rgb({}, {}, {})", c.0, c.1, c.2)
}

/// The legend under the chart, as text: each outcome drawn, then the two percentile lines.
fn legend(data: &OutcomeHistogram, dark: bool) -> Html {
    let outcomes = data
        .stacks
        .iter()
        .filter(|(_, b)| b.counts().iter().any(|&c| c > 0))
        .map(|(o, _)| {
            html! {
                <li><span class="swatch" aria-hidden="true"
                    style={format!("background: {}", css(outcome_colour(*o)))} />{ o.name() }</li>
            }
        });
    let theme = chart_theme(dark);
    let lines = [
        ("p50", data.percentiles.p50, theme.marker),
        ("p99", data.percentiles.p99, p99_colour(dark)),
    ]
    .into_iter()
    .filter_map(|(name, v, colour)| {
        let v = v?;
        Some(html! {
            <li><span class="swatch line" aria-hidden="true"
                style={format!("border-color: {}", css(colour))} />
                { format!("{name} {}", crate::page::lessons::rules::duration(v)) }</li>
        })
    });
    html! { <ul class="hist-legend">{ for outcomes }{ for lines }</ul> }
}

fn p99_colour(dark: bool) -> RGBColor {
    if dark {
        WHITE
    } else {
        P99
    }
}

/// The stacked histogram; redrawn only when its data or the theme change.
#[function_component(Histogram)]
pub fn histogram(props: &HistogramProps) -> Html {
    let ids = use_ids();
    let canvas_ref = use_canvas(
        (props.data.clone(), props.dark),
        "histogram",
        |canvas, (data, dark)| draw(canvas, data, *dark),
    );
    let d = &props.data;
    let ms = |v: Option<u64>| {
        v.map_or("—".to_string(), |m| {
            format!("{:.1} ms", m as f64 / 1000.0)
        })
    };
    let label = format!(
        "Histogram of the {} of {} finished requests, stacked by outcome; p50 {}, p99 {}",
        props.kind.label(),
        d.total,
        ms(d.percentiles.p50),
        ms(d.percentiles.p99)
    );
    html! {
        <>
            <div class="readout">
                <span>{ "finished " }<strong id={ids.id("hist-total")}>{ d.total }</strong></span>
                <span>{ "p50 " }<strong id={ids.id("readout-p50")}>{ ms(d.percentiles.p50) }</strong></span>
                <span>{ "p99 " }<strong id={ids.id("readout-p99")}>{ ms(d.percentiles.p99) }</strong></span>
            </div>
            <canvas id={ids.id("latency-chart")} class="chart" ref={canvas_ref} width="640" height="400"
                role="img" aria-label={label} />
            { legend(d, props.dark) }
            <p class="hint">{ crate::page::latency::refusal_note(props.kind, props.bulkhead_wait) }</p>
        </>
    }
}

fn draw(canvas: HtmlCanvasElement, data: &OutcomeHistogram, dark: bool) -> Result<(), String> {
    let theme = chart_theme(dark);
    let text_px = super::canvas::legible_px(&canvas, 16.0, 12.0);
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&theme.background).map_err(|e| e.to_string())?;
    let buckets = data
        .stacks
        .first()
        .map(|(_, b)| b.counts().len())
        .unwrap_or(0);
    let heights: Vec<u64> = (0..buckets)
        .map(|i| data.stacks.iter().map(|(_, b)| b.counts()[i]).sum())
        .collect();
    let tallest = heights.iter().copied().max().unwrap_or(0).max(1);
    let ink = theme.ink;
    let text = ("sans-serif", text_px).into_font().color(&ink);
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        // Room for half of the last tick's label ("10000") past the axis' end.
        .margin_right((text_px * 2.2).ceil() as u32)
        .x_label_area_size(44)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (LOWEST_MS..HIGHEST_MS).log_scale(),
            0u64..tallest + tallest / 8 + 1,
        )
        .map_err(|e| e.to_string())?;
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
        .y_desc("requests")
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    let mut base = vec![0u64; buckets];
    for (outcome, b) in &data.stacks {
        let colour = outcome_colour(*outcome);
        let bars: Vec<Rectangle<(f64, u64)>> = b
            .counts()
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(i, &c)| {
                let (low, high) = b.edges_ms(i);
                let r = Rectangle::new([(low, base[i]), (high, base[i] + c)], colour.filled());
                base[i] += c;
                r
            })
            .collect();
        chart.draw_series(bars).map_err(|e| e.to_string())?;
    }
    for (value, colour) in [
        (data.percentiles.p50, theme.marker),
        (data.percentiles.p99, p99_colour(dark)),
    ] {
        let Some(micros) = value else { continue };
        let ms = (micros as f64 / 1000.0).clamp(LOWEST_MS, HIGHEST_MS);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(ms, 0), (ms, tallest)],
                colour.stroke_width(3),
            )))
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
