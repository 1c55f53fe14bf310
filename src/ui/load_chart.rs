//! Load over time, up to the playhead: requests finished per second by outcome (stacked) with
//! the calls per second reaching inventory, and below it the workers busy, the queue and, when
//! the run has a gateway, its connection pool in use.

use super::chart_backend::ChartBackend;
use plotters::prelude::*;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::canvas::{
    chart_legend, css_colour, line_marks, min_text_css, run_line, use_canvas, ChartScale, Hatcher,
    LegendKey,
};
use super::chart_keys::{ChartKeys, ChartParts};
use super::compare::ab_legend;
use super::ids::use_ids;
use super::palette::{chart_theme, outcome_colour};
use crate::page::axis::{tick_label, ticks_that_fit, widest_tick};
use crate::page::chart_table::{load_description, load_table, ChartTable};
use crate::page::hatch::LineMark;
use crate::page::outcome_look::outcome_hatch;
use crate::page::runs::{Run, Shared};
use crate::sim::latency::Micros;
use crate::sim::trace::{Outcome, BUCKET};

/// Most bars the upper panel draws; longer runs merge neighbouring slices.
const MAX_BARS: usize = 200;
/// The size the chart is laid out for (its canvas's `width` and `height`).
const DESIGN: (u32, u32) = (800, 380);
const INVENTORY: RGBColor = RGBColor(0, 114, 178);
const QUEUE: RGBColor = RGBColor(213, 94, 0);
const GATEWAY: RGBColor = RGBColor(204, 121, 167);
const SERVED: RGBColor = RGBColor(230, 159, 0);
/// Olive: apart from ok's green bars, which goodput would otherwise hide in.
const GOODPUT: RGBColor = RGBColor(120, 120, 0);
/// Purple: apart from every outcome's colour and the gateway's pink, at least 3:1 against the
/// light (4.3:1) and the dark (3.8:1) chart background.
const CONFLICTS: RGBColor = RGBColor(148, 103, 189);

/// The marks of the lines beside their colours: the two main lines (calls to inventory and
/// the workers) plain, the others each a shape of its own within their panel.
const SERVED_MARK: LineMark = LineMark::Circle;
const GOODPUT_MARK: LineMark = LineMark::Square;
const CONFLICTS_MARK: LineMark = LineMark::Ring;
const QUEUE_MARK: LineMark = LineMark::Circle;
const GATEWAY_MARK: LineMark = LineMark::Square;

/// Properties of [`LoadChart`].
#[derive(Properties, PartialEq)]
pub struct LoadChartProps {
    pub run: Shared<Run>,
    /// The A/B mode's run B, drawn on the same axes (its bars beside A's, its lines dashed).
    #[prop_or_default]
    pub b: Option<Shared<Run>>,
    /// The time axis' length, when it is not the run's own (A/B: the longer run).
    #[prop_or_default]
    pub span: Option<Micros>,
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
    let span = props.span.unwrap_or(props.run.span);
    let canvas_ref = use_canvas(
        (
            props.run.clone(),
            props.b.clone(),
            span,
            props.playhead / BUCKET,
            props.dark,
            props.projector,
        ),
        props.playing,
        "load chart",
        DESIGN,
        props.projector,
        |canvas, scale, (run, b, span, slice, dark, projector)| {
            let runs: Vec<&Run> = std::iter::once(&**run).chain(b.as_deref()).collect();
            draw(canvas, scale, &runs, *span, *slice, *dark, *projector)
        },
    );
    let label = if props.run.config.gateway.is_some() {
        "Requests per second by outcome, calls per second reaching inventory, workers busy, queue length and the gateway pool in use, up to the playhead"
    } else {
        "Requests per second by outcome, calls per second reaching inventory, workers busy and queue length, up to the playhead"
    };
    let label = if props.b.is_some() {
        format!("{label}; runs A and B on the same axes, B's bars to the right of A's and its lines dashed")
    } else {
        label.to_string()
    };
    let label = format!("{label}. {}", load_description(&props.run, props.playhead));
    let run = &props.run;
    let runs: Vec<&Run> = std::iter::once(&**run).chain(props.b.as_deref()).collect();
    let mut upper: Vec<LegendKey> = shown_outcomes(&runs)
        .into_iter()
        .map(LegendKey::outcome)
        .collect();
    upper.push(LegendKey::line("calls to inventory", css_colour(INVENTORY)));
    if let Some(load) = run.trace.dependencies.first().and_then(|d| d.load.as_ref()) {
        upper.push(
            LegendKey::line("inventory served (throughput)", css_colour(SERVED))
                .marked(SERVED_MARK),
        );
        upper.push(
            LegendKey::line("answers still awaited (goodput)", css_colour(GOODPUT))
                .marked(GOODPUT_MARK),
        );
        if load.conflicts.is_some() {
            upper.push(
                LegendKey::line(
                    "conflicts on hot items (work wasted)",
                    css_colour(CONFLICTS),
                )
                .marked(CONFLICTS_MARK),
            );
        }
    }
    let mut lower = vec![
        LegendKey::line(
            format!(
                "workers busy (of {}, right axis)",
                run.config.service.threads
            ),
            "var(--ink)",
        ),
        LegendKey::line("queue length", css_colour(QUEUE)).marked(QUEUE_MARK),
    ];
    if let Some(g) = &run.config.gateway {
        lower.push(
            LegendKey::line(
                format!("gateway pool in use (of {})", g.pool),
                css_colour(GATEWAY),
            )
            .marked(GATEWAY_MARK),
        );
    }
    html! {
        <>
            <p class="chart-caption">{ "Requests finished per second, and calls reaching inventory; below, workers busy and the queue" }</p>
            if props.b.is_some() {
                { ab_legend(ids.id("load-ab-legend"), "bars on the left of each pair", "bars on the right") }
            }
            { chart_legend(ids.id("load-legend"), &upper) }
            <ChartKeys<LoadParts> id={ids.id("load-keys")} name="Load over time"
                source={LoadParts { run: props.run.clone(), until: props.playhead }}>
                <canvas id={ids.id("load-chart")} class="chart" ref={canvas_ref} width="800" height="380" role="img"
                    aria-label={label} />
                { chart_legend(ids.id("load-legend-lower"), &lower) }
            </ChartKeys<LoadParts>>
        </>
    }
}

/// The load chart's seconds up to the playhead, for the keyboard and the data table (run A's,
/// in A/B).
#[derive(Clone, PartialEq)]
struct LoadParts {
    run: Shared<Run>,
    until: Micros,
}

impl ChartParts for LoadParts {
    fn table(&self) -> ChartTable {
        load_table(&self.run, self.until)
    }

    fn part(&self) -> &'static str {
        "second"
    }
}

/// The outcomes the upper panel stacks: those either run had, unfinished left out.
fn shown_outcomes(runs: &[&Run]) -> Vec<Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|&o| o != Outcome::Unfinished && runs.iter().any(|r| r.trace.outcomes.get(o) > 0))
        .collect()
}

fn draw(
    canvas: HtmlCanvasElement,
    scale: ChartScale,
    runs: &[&Run],
    span: Micros,
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
    // The family named, not spelled: plotters lowercases a spelled name, which brings
    // Unicode's case tables (about 12 KB) into the wasm.
    let text = (FontFamily::SansSerif, text_px).into_font().color(&ink);
    let cut = Hatcher::cutting(&canvas, scale, theme.background);
    let element = canvas.clone();
    let backend = ChartBackend::new(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&theme.background).map_err(|e| e.to_string())?;
    // The panels share the height as the design does (230 of 380), whatever the canvas's
    // shape (on the projector it fills its cell).
    let upper_px = f64::from(root.dim_in_pixel().1) * 230.0 / f64::from(DESIGN.1);
    let (upper, lower) = root.split_vertically(upper_px.round() as u32);
    let slices = usize::try_from(span / BUCKET).unwrap_or(1).max(1);
    // Two runs draw a pair per bar: half as many pairs, so each half stays as wide.
    let per_bar = slices.div_ceil(MAX_BARS / runs.len().max(1)).max(1);
    let span_s = span as f64 / 1e6;
    let bar_s = per_bar as f64 * BUCKET as f64 / 1e6;
    // With two runs each bar is a pair: A's on the left half, B's on the right.
    let width_s = bar_s / runs.len() as f64;
    let outcomes = shown_outcomes(runs);
    // Slices the playhead has passed, as the counters count them.
    let shown_of = |run: &Run| {
        usize::try_from(slice)
            .unwrap_or(usize::MAX)
            .min(run.trace.series.len())
    };
    // The axes fit what the chart's span holds (a lesson step's window, not the drain after it).
    fn in_span(run: &Run, slices: usize) -> &[crate::sim::trace::Bucket] {
        &run.trace.series[..slices.min(run.trace.series.len())]
    }
    let peak = runs
        .iter()
        .flat_map(|run| {
            in_span(run, slices).chunks(per_bar).map(|c| {
                let done: u64 = c.iter().map(|b| b.completions.total()).sum();
                let calls: u64 = c.iter().map(|b| b.inventory_calls).sum();
                done.max(calls) as f64 / bar_s
            })
        })
        .fold(1.0, f64::max);
    // The lower panel: the queue and the gateway's pool on the left axis, the workers on an
    // axis of their own on the right (32 workers beside a queue of 1,000 would lie flat).
    let height = runs
        .iter()
        .map(|run| {
            let queue_peak = in_span(run, slices)
                .iter()
                .map(|b| b.queue_len)
                .max()
                .unwrap_or(0);
            let pool = run.config.gateway.as_ref().map_or(0, |g| g.pool);
            (queue_peak as f64).max(f64::from(pool))
        })
        .fold(1.0, f64::max);
    let threads = runs
        .iter()
        .map(|run| f64::from(run.config.service.threads))
        .fold(1.0, f64::max);
    // Both panels' label areas fit the widest tick of either (their time axes line up), and
    // the rotated "per second" beside it.
    let widest = widest_tick((peak * 1.1).max(height * 1.1)) as f64;
    let y_labels = y_labels.max((text_px * (0.62 * widest + 2.0)) as u32);
    // As many value ticks as each panel's plot is tall enough for (a phone's lower panel
    // has room for two), each panel less its margins and, below, the time axis' labels.
    let plot_height =
        |panel_px: u32, below: u32| f64::from(panel_px.saturating_sub(below + 2 * scale.px(10.0)));
    let top_ticks = ticks_that_fit(plot_height(upper.dim_in_pixel().1, x_labels), text_px, 6);
    let bottom_ticks = ticks_that_fit(
        plot_height(lower.dim_in_pixel().1, x_labels + scale.px(4.0)),
        text_px,
        6,
    );
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
        .y_labels(top_ticks)
        .bold_line_style(ink.mix(0.2))
        .axis_style(ink)
        .y_desc("per second")
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    for (r, run) in runs.iter().enumerate() {
        let series = &run.trace.series;
        let shown = shown_of(run);
        let offset = r as f64 * width_s;
        // Per bar: completions per second by outcome, and inventory calls per second.
        let bars: Vec<(f64, Vec<f64>, f64)> = series[..shown]
            .chunks(per_bar)
            .enumerate()
            .map(|(i, chunk)| {
                let by = outcomes
                    .iter()
                    .map(|&o| {
                        chunk.iter().map(|b| b.completions.get(o)).sum::<u64>() as f64 / bar_s
                    })
                    .collect();
                let calls = chunk.iter().map(|b| b.inventory_calls).sum::<u64>() as f64 / bar_s;
                (i as f64 * bar_s, by, calls)
            })
            .collect();
        for (k, &outcome) in outcomes.iter().enumerate() {
            let colour = outcome_colour(outcome);
            // Empty pieces draw nothing but still cost a canvas call each.
            let pieces = bars
                .iter()
                .filter(|(_, by, _)| by[k] > 0.0)
                .map(|(x, by, _)| {
                    let below: f64 = by[..k].iter().sum();
                    [(x + offset, below), (x + offset + width_s, below + by[k])]
                });
            let pieces: Vec<_> = pieces.collect();
            let rects: Vec<_> = pieces
                .iter()
                .map(|[a, b]| (top.backend_coord(a), top.backend_coord(b)))
                .collect();
            let hatch = outcome_hatch(outcome);
            if r == 0 {
                top.draw_series(pieces.iter().map(|&c| Rectangle::new(c, colour.filled())))
                    .map_err(|e| e.to_string())?;
                if let Some(cut) = &cut {
                    for &(a, b) in &rects {
                        cut.fill(hatch, a, b);
                    }
                }
            } else {
                // B's bars: light, outlined in the outcome's colour, its pattern in that colour.
                top.draw_series(
                    pieces
                        .iter()
                        .map(|&c| Rectangle::new(c, colour.mix(0.35).filled())),
                )
                .map_err(|e| e.to_string())?;
                top.draw_series(
                    pieces
                        .iter()
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
        let calls = bars
            .iter()
            .map(|(x, _, calls)| (x + bar_s / 2.0, *calls))
            .collect();
        run_line(
            &mut top,
            calls,
            INVENTORY.stroke_width(scale.px(3.0)),
            r > 0,
            scale,
        )?;
        // With a capacity: what inventory served, how much of it someone still waited for
        // and, with hot items, how much lost its item to another call's commit (empty without).
        if let Some(load) = run.trace.dependencies.first().and_then(|d| d.load.as_ref()) {
            let lines = [
                (&load.served_per_bucket, SERVED, SERVED_MARK),
                (&load.goodput_per_bucket, GOODPUT, GOODPUT_MARK),
                (&load.conflicts_per_bucket, CONFLICTS, CONFLICTS_MARK),
            ];
            for (series, (per_bucket, colour, mark)) in lines.into_iter().enumerate() {
                let shown_part = &per_bucket[..shown.min(per_bucket.len())];
                let points = shown_part
                    .chunks(per_bar)
                    .enumerate()
                    .map(|(i, chunk)| {
                        let rate = chunk.iter().sum::<u64>() as f64 / bar_s;
                        (i as f64 * bar_s + bar_s / 2.0, rate)
                    })
                    .collect::<Vec<_>>();
                line_marks(&mut top, &points, mark, colour, series, scale)?;
                run_line(
                    &mut top,
                    points,
                    colour.stroke_width(scale.px(2.5)),
                    r > 0,
                    scale,
                )?;
            }
        }
    }

    let right_labels = (text_px * (0.62 * widest_tick(threads * 1.1) as f64 + 2.0)) as u32;
    let mut bottom = ChartBuilder::on(&lower)
        .margin(scale.px(10.0))
        .margin_right(scale.px(6.0))
        .x_label_area_size(x_labels + scale.px(4.0))
        .y_label_area_size(y_labels)
        .right_y_label_area_size(right_labels.max(scale.px(40.0)))
        .build_cartesian_2d(0f64..span_s, 0f64..height * 1.1)
        .map_err(|e| e.to_string())?
        .set_secondary_coord(0f64..span_s, 0f64..threads * 1.1);
    bottom
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(ink.mix(0.08))
        .max_light_lines(1)
        .x_labels(7)
        .y_labels(bottom_ticks)
        .bold_line_style(ink.mix(0.2))
        .axis_style(ink)
        .x_desc("simulated time (s)")
        .x_label_formatter(&|v| tick_label(*v))
        .y_label_formatter(&|v| tick_label(*v))
        .label_style(text.clone())
        .axis_desc_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    bottom
        .configure_secondary_axes()
        .y_labels(bottom_ticks)
        .axis_style(ink)
        .y_label_formatter(&|v| tick_label(*v))
        .label_style(text.clone())
        .draw()
        .map_err(|e| e.to_string())?;
    let at = |i: usize| (i as f64 + 1.0) * BUCKET as f64 / 1e6;
    for (r, run) in runs.iter().enumerate() {
        let shown = &run.trace.series[..shown_of(run)];
        let gauge = |read: fn(&crate::sim::trace::Bucket) -> f64| {
            shown
                .iter()
                .enumerate()
                .map(|(i, b)| (at(i), read(b)))
                .collect::<Vec<_>>()
        };
        let workers = gauge(|b| f64::from(b.workers_busy));
        let style = ink.stroke_width(scale.px(2.0));
        if r > 0 {
            bottom.draw_secondary_series(std::iter::once(
                plotters::element::DashedPathElement::new(
                    workers,
                    scale.px(9.0),
                    scale.px(6.0),
                    style,
                ),
            ))
        } else {
            bottom.draw_secondary_series(std::iter::once(plotters::element::PathElement::new(
                workers, style,
            )))
        }
        .map_err(|e| e.to_string())?;
        let queue = gauge(|b| b.queue_len as f64);
        line_marks(&mut bottom, &queue, QUEUE_MARK, QUEUE, 0, scale)?;
        run_line(
            &mut bottom,
            queue,
            QUEUE.stroke_width(scale.px(2.0)),
            r > 0,
            scale,
        )?;
        if run.config.gateway.is_some() {
            let pool = gauge(|b| f64::from(b.gateway_in_use));
            line_marks(&mut bottom, &pool, GATEWAY_MARK, GATEWAY, 1, scale)?;
            run_line(
                &mut bottom,
                pool,
                GATEWAY.stroke_width(scale.px(2.0)),
                r > 0,
                scale,
            )?;
        }
    }
    root.present().map_err(|e| e.to_string())
}
