//! A Gantt-style chart of attempts and waits, one row per timeline, with the budget (if any) as
//! a line across every row. Attempts are tall bars, waits thin ones, attempts never made a
//! dashed mark: the kinds differ in shape, not only in colour.

use yew::prelude::*;

use crate::exercises::charts::{
    keep_inside, layout_width, narrow, nice_ticks, text_width, tick_target,
};
use crate::exercises::{fmt_ms, BarKind, Timeline};
use crate::resilience::Micros;
use crate::ui::canvas::use_content_width;

/// One row of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct GanttRow {
    /// What the row shows ("No budget").
    pub label: String,
    pub timeline: Timeline,
}

/// Properties of [`Gantt`].
#[derive(Properties, PartialEq)]
pub struct GanttProps {
    /// The element id of the figure.
    pub id: AttrValue,
    pub rows: Vec<GanttRow>,
    /// A deadline to draw across every row.
    #[prop_or_default]
    pub budget: Option<Micros>,
    /// One sentence saying what the chart shows.
    pub caption: AttrValue,
}

/// Room for the row labels beside the rows, on a wide chart.
const LABEL: f64 = 200.0;
/// Height of a row's bars and the gap around them.
const ROW: f64 = 50.0;
/// Height of a row's label above it, on a narrow chart.
const LABEL_ABOVE: f64 = 20.0;
const TOP: f64 = 26.0;
const AXIS: f64 = 34.0;
const DROPPED_WIDTH: f64 = 40.0;
/// The style sheet's sizes of the chart's text (`style.css`), in drawing units.
const TEXT: f64 = 15.0;
const TICK_TEXT: f64 = 13.0;
const BAR_TEXT: f64 = 14.0;

fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart.
#[function_component(Gantt)]
pub fn gantt(props: &GanttProps) -> Html {
    let figure = use_node_ref();
    let width = layout_width(use_content_width(figure.clone()));
    let narrow = narrow(width);
    let longest = props
        .rows
        .iter()
        .map(|r| r.timeline.total)
        .chain(props.budget)
        .max()
        .unwrap_or(0);
    // Room after the bars for each row's total.
    let right = props
        .rows
        .iter()
        .map(|r| text_width(&fmt_ms(r.timeline.total), TEXT))
        .fold(20.0, f64::max)
        + 12.0;
    let left = if narrow { 8.0 } else { LABEL };
    let plot = (width - left - right).max(1.0);
    let widest_tick = text_width(&fmt_ms(longest), TICK_TEXT).max(text_width("1.05 s", TICK_TEXT));
    let ticks = nice_ticks(longest as f64, tick_target(plot, widest_tick, 6));
    let end = ticks.last().copied().unwrap_or(1.0).max(1.0);
    let x = |t: Micros| left + t as f64 / end * plot;
    let row_height = if narrow { ROW + LABEL_ABOVE } else { ROW };
    let height = TOP + row_height * props.rows.len() as f64 + AXIS;
    let axis_y = TOP + row_height * props.rows.len() as f64;

    let rows = props.rows.iter().enumerate().map(|(i, row)| {
        let row_top = TOP + row_height * i as f64;
        let mid = row_top + row_height - ROW / 2.0;
        let bars = row.timeline.bars.iter().map(|bar| {
            let (x0, x1) = (x(bar.start), x(bar.end));
            let w = (x1 - x0).max(1.0);
            match bar.kind {
                BarKind::Attempt => {
                    let fits = w > text_width(&bar.label, BAR_TEXT) + 8.0;
                    html! {
                        <g class="gantt-attempt">
                            <rect x={n(x0)} y={n(mid - 14.0)} width={n(w)} height="28" rx="3">
                                <title>{ &bar.label }</title>
                            </rect>
                            if fits {
                                <text x={n(x0 + w / 2.0)} y={n(mid + 5.0)} text-anchor="middle">{ &bar.label }</text>
                            }
                        </g>
                    }
                }
                BarKind::Wait => html! {
                    <g class="gantt-wait">
                        <rect x={n(x0)} y={n(mid - 5.0)} width={n(w)} height="10">
                            <title>{ &bar.label }</title>
                        </rect>
                    </g>
                },
                BarKind::Dropped => html! {
                    <g class="gantt-dropped">
                        <rect x={n(x0)} y={n(mid - 14.0)} width={n(DROPPED_WIDTH)} height="28" rx="3">
                            <title>{ &bar.label }</title>
                        </rect>
                        <text x={n(x0 + DROPPED_WIDTH / 2.0)} y={n(mid + 5.0)} text-anchor="middle">{ "✕" }</text>
                    </g>
                },
            }
        });
        // The total goes after the last mark, a ghost of an attempt never made included.
        let total_x = row
            .timeline
            .bars
            .iter()
            .map(|b| match b.kind {
                BarKind::Dropped => x(b.end) + DROPPED_WIDTH,
                _ => x(b.end),
            })
            .fold(x(row.timeline.total), f64::max);
        html! {
            <g class="gantt-row">
                if narrow {
                    <text class="gantt-label" x={n(left)} y={n(row_top + 14.0)}>{ &row.label }</text>
                } else {
                    <text class="gantt-label" x={n(LABEL - 10.0)} y={n(mid + 5.0)} text-anchor="end">{ &row.label }</text>
                }
                { for bars }
                <text class="gantt-total" x={n(total_x + 6.0)} y={n(mid + 5.0)}>
                    { fmt_ms(row.timeline.total) }
                </text>
            </g>
        }
    });

    let tick_marks = ticks.iter().map(|&t| {
        let tx = x(t as Micros);
        let label = fmt_ms(t as Micros);
        let label_x = keep_inside(tx, text_width(&label, TICK_TEXT), 0.0, width);
        html! {
            <g class="gantt-tick">
                <line x1={n(tx)} x2={n(tx)} y1={n(TOP - 4.0)} y2={n(axis_y + 4.0)} />
                <text x={n(label_x)} y={n(axis_y + 22.0)} text-anchor="middle">{ label }</text>
            </g>
        }
    });

    let budget = props.budget.map(|b| {
        let bx = x(b);
        let label = format!("budget {}", fmt_ms(b));
        let label_x = keep_inside(bx, text_width(&label, BAR_TEXT), 0.0, width);
        html! {
            <g class="gantt-budget">
                <line x1={n(bx)} x2={n(bx)} y1={n(TOP - 8.0)} y2={n(axis_y)} />
                <text x={n(label_x)} y={n(TOP - 12.0)} text-anchor="middle">{ label }</text>
            </g>
        }
    });

    html! {
        <figure class="exercise-figure gantt" id={props.id.clone()} ref={figure}>
            <svg viewBox={format!("0 0 {} {}", n(width), n(height))} role="img" aria-label={props.caption.clone()}>
                { for tick_marks }
                { for rows }
                { for budget }
            </svg>
            <figcaption>
                { &props.caption }
                <span class="legend">
                    <span class="key key-attempt">{ "attempt" }</span>
                    <span class="key key-wait">{ "wait before a retry" }</span>
                    <span class="key key-dropped">{ "attempt never made" }</span>
                    if props.budget.is_some() {
                        <span class="key key-budget">{ "the budget's deadline" }</span>
                    }
                </span>
            </figcaption>
        </figure>
    }
}
