//! Load over time, up to the playhead: requests finished per second by outcome (stacked) with
//! the calls per second reaching inventory, and below it the workers busy, the queue and, when
//! the run has a gateway, its connection pool in use.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::canvas::{chart_legend, css_colour, min_text_css, use_canvas, ChartScale, LegendKey};
use super::ids::use_ids;
use super::palette::{chart_theme, outcome_colour};
use crate::page::state::{Run, Shared};
use crate::sim::latency::Micros;
use crate::sim::trace::{Outcome, BUCKET};

/// Most bars the upper panel draws; longer runs merge neighbouring slices.
const MAX_BARS: usize = 150;
/// The size the chart is laid out for (its canvas's `width` and `height`).
const DESIGN: (u32, u32) = (800, 380);
const INVENTORY: RGBColor = RGBColor(0, 114, 178);
const QUEUE: RGBColor = RGBColor(213, 94, 0);
const GATEWAY: RGBColor = RGBColor(204, 121, 167);
const SERVED: RGBColor = RGBColor(230, 159, 0);
const GOODPUT: RGBColor = RGBColor(0, 158, 115);
const CONFLICTS: RGBColor = RGBColor(204, 121, 167);

/// Properties of [`LoadChart`].
#[derive(Properties, PartialEq)]
pub struct LoadChartProps {
    pub run: Shared<Run>,
    pub playhead: Micros,
    pub dark: bool,
    /// Projector mode: larger chart text.
    #[prop_or_default]
    pub projector: bool,
    /// Playing: redraws are spaced (see `use_canvas`).
    #[prop_or_default]
    pub playing: bool,
}

/// The two panels; redrawn when the playhead enters a new slice.
#[function_component(LoadChart)]
pub fn load_chart(props: &LoadChartProps) -> Html {
    let ids = use_ids();
    let canvas_ref = use_canvas(
        (
            props.run.clone(),
            props.playhead / BUCKET,
            props.dark,
            props.projector,
        ),
        props.playing,
        "load chart",
        DESIGN,
        |canvas, scale, (run, slice, dark, projector)| {
            draw(canvas, scale, run, *slice, *dark, *projector)
        },
    );
    let label = if props.run.config.gateway.is_some() {
        "Requests per second by outcome, calls per second reaching inventory, workers busy, queue length and the gateway pool in use, up to the playhead"
    } else {
        "Requests per second by outcome, calls per second reaching inventory, workers busy and queue length, up to the playhead"
    };
    let run = &props.run;
    let mut upper: Vec<LegendKey> = shown_outcomes(run)
        .into_iter()
        .map(|o| LegendKey::bar(o.name(), outcome_colour(o)))
        .collect();
    upper.push(LegendKey::line("calls to inventory", css_colour(INVENTORY)));
    if let Some(load) = run.trace.dependencies.first().and_then(|d| d.load.as_ref()) {
        upper.push(LegendKey::line(
            "inventory served (throughput)",
            css_colour(SERVED),
        ));
        upper.push(LegendKey::line(
            "answers still awaited (goodput)",
            css_colour(GOODPUT),
        ));
        if load.conflicts.is_some() {
            upper.push(LegendKey::line(
                "conflicts on hot items (work wasted)",
                css_colour(CONFLICTS),
            ));
        }
    }
    let mut lower = vec![
        LegendKey::line(
            format!("workers busy (of {})", run.config.threads),
            "var(--ink)",
        ),
        LegendKey::line("queue length", css_colour(QUEUE)),
    ];
    if let Some(g) = &run.config.gateway {
        lower.push(LegendKey::line(
            format!("gateway pool in use (of {})", g.pool),
            css_colour(GATEWAY),
        ));
    }
    html! {
        <>
            <p class="chart-caption">{ "Requests finished per second, and calls reaching inventory; below, workers busy and the queue" }</p>
            { chart_legend(ids.id("load-legend"), &upper) }
            <canvas id={ids.id("load-chart")} class="chart" ref={canvas_ref} width="800" height="380" role="img"
                aria-label={label} />
            { chart_legend(ids.id("load-legend-lower"), &lower) }
        </>
    }
}

/// The outcomes the upper panel stacks: those the run had, unfinished left out.
fn shown_outcomes(run: &Run) -> Vec<Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|&o| o != Outcome::Unfinished && run.trace.outcomes.get(o) > 0)
        .collect()
}

fn draw(
    canvas: HtmlCanvasElement,
    scale: ChartScale,
    run: &Run,
    slice: u64,
    dark: bool,
    projector: bool,
) -> Result<(), String> {
    let theme = chart_theme(dark);
    let text_px = scale.text(15.0, min_text_css(projector));
    // Label areas fit their text, which may be larger than the design's (a phone, a projector).
    let x_labels = scale.px(30.0).max((text_px * 2.0) as u32);
    let y_labels = scale.px(60.0).max((text_px * 4.0) as u32);
    let ink = theme.ink;
    let text = ("sans-serif", text_px).into_font().color(&ink);
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&theme.background).map_err(|e| e.to_string())?;
    let (upper, lower) = root.split_vertically(scale.px(230.0));
    let series = &run.trace.series;
    let slices = usize::try_from(run.span / BUCKET).unwrap_or(1).max(1);
    let per_bar = slices.div_ceil(MAX_BARS).max(1);
    // Slices the playhead has passed, as the counters count them.
    let shown = usize::try_from(slice)
        .unwrap_or(usize::MAX)
        .min(series.len());
    let span_s = run.span as f64 / 1e6;
    let bar_s = per_bar as f64 * BUCKET as f64 / 1e6;
    let outcomes = shown_outcomes(run);
    // Per bar: completions per second by outcome, and inventory calls per second.
    let bars: Vec<(f64, Vec<f64>, f64)> = series[..shown]
        .chunks(per_bar)
        .enumerate()
        .map(|(i, chunk)| {
            let by = outcomes
                .iter()
                .map(|&o| chunk.iter().map(|b| b.completions.get(o)).sum::<u64>() as f64 / bar_s)
                .collect();
            let calls = chunk.iter().map(|b| b.inventory_calls).sum::<u64>() as f64 / bar_s;
            (i as f64 * bar_s, by, calls)
        })
        .collect();
    let peak = series
        .chunks(per_bar)
        .map(|c| {
            let done: u64 = c.iter().map(|b| b.completions.total()).sum();
            let calls: u64 = c.iter().map(|b| b.inventory_calls).sum();
            done.max(calls) as f64 / bar_s
        })
        .fold(1.0, f64::max);
    let mut top = ChartBuilder::on(&upper)
        .margin(scale.px(10.0))
        .margin_right(scale.px(24.0))
        .x_label_area_size(x_labels)
        .y_label_area_size(y_labels)
        .build_cartesian_2d(0f64..span_s, 0f64..peak * 1.1)
        .map_err(|e| e.to_string())?;
    top.configure_mesh()
        .disable_x_mesh()
        .light_line_style(ink.mix(0.08))
        .max_light_lines(1)
        .x_labels(7)
        .y_labels(6)
        .bold_line_style(ink.mix(0.2))
        .axis_style(ink)
        .y_desc("per second")
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, &outcome) in outcomes.iter().enumerate() {
        let colour = outcome_colour(outcome);
        // Empty pieces draw nothing but still cost a canvas call each.
        top.draw_series(
            bars.iter()
                .filter(|(_, by, _)| by[k] > 0.0)
                .map(|(x, by, _)| {
                    let below: f64 = by[..k].iter().sum();
                    Rectangle::new([(*x, below), (x + bar_s, below + by[k])], colour.filled())
                }),
        )
        .map_err(|e| e.to_string())?;
    }
    top.draw_series(LineSeries::new(
        bars.iter().map(|(x, _, calls)| (x + bar_s / 2.0, *calls)),
        INVENTORY.stroke_width(scale.px(3.0)),
    ))
    .map_err(|e| e.to_string())?;
    // With a capacity: what inventory served, how much of it someone still waited for and,
    // with hot items, how much lost its item to another call's commit (empty without).
    if let Some(load) = run.trace.dependencies.first().and_then(|d| d.load.as_ref()) {
        let lines = [
            (&load.served_per_bucket, SERVED),
            (&load.goodput_per_bucket, GOODPUT),
            (&load.conflicts_per_bucket, CONFLICTS),
        ];
        for (per_bucket, colour) in lines {
            let shown_part = &per_bucket[..shown.min(per_bucket.len())];
            top.draw_series(LineSeries::new(
                shown_part.chunks(per_bar).enumerate().map(|(i, chunk)| {
                    let rate = chunk.iter().sum::<u64>() as f64 / bar_s;
                    (i as f64 * bar_s + bar_s / 2.0, rate)
                }),
                colour.stroke_width(scale.px(2.5)),
            ))
            .map_err(|e| e.to_string())?;
        }
    }

    let threads = f64::from(run.config.threads);
    let queue_peak = series.iter().map(|b| b.queue_len).max().unwrap_or(0) as f64;
    let pool = run.config.gateway.as_ref().map(|g| g.pool);
    let pool_height = f64::from(pool.unwrap_or(0));
    let mut bottom = ChartBuilder::on(&lower)
        .margin(scale.px(10.0))
        .margin_right(scale.px(24.0))
        .x_label_area_size(x_labels + scale.px(4.0))
        .y_label_area_size(y_labels)
        .build_cartesian_2d(
            0f64..span_s,
            0f64..threads.max(queue_peak).max(pool_height).max(1.0) * 1.1,
        )
        .map_err(|e| e.to_string())?;
    bottom
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(ink.mix(0.08))
        .max_light_lines(1)
        .x_labels(7)
        .y_labels(6)
        .bold_line_style(ink.mix(0.2))
        .axis_style(ink)
        .x_desc("simulated time (s)")
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    let at = |i: usize| (i as f64 + 1.0) * BUCKET as f64 / 1e6;
    bottom
        .draw_series(LineSeries::new(
            series[..shown]
                .iter()
                .enumerate()
                .map(|(i, b)| (at(i), f64::from(b.workers_busy))),
            ink.stroke_width(scale.px(2.0)),
        ))
        .map_err(|e| e.to_string())?;
    bottom
        .draw_series(LineSeries::new(
            series[..shown]
                .iter()
                .enumerate()
                .map(|(i, b)| (at(i), b.queue_len as f64)),
            QUEUE.stroke_width(scale.px(2.0)),
        ))
        .map_err(|e| e.to_string())?;
    if pool.is_some() {
        bottom
            .draw_series(LineSeries::new(
                series[..shown]
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (at(i), f64::from(b.gateway_in_use))),
                GATEWAY.stroke_width(scale.px(2.0)),
            ))
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())
}
