//! A Gantt-style chart of attempts and waits, one row per timeline, with the budget (if any) as
//! a line across every row. Attempts are tall bars, waits thin ones, attempts never made a
//! dashed mark: the kinds differ in shape, not only in colour.

use yew::prelude::*;

use crate::exercises::{fmt_ms, BarKind, Timeline};
use crate::page::exercise_charts::nice_ticks;
use crate::resilience::Micros;

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

const WIDTH: f64 = 900.0;
const LABEL: f64 = 200.0;
const RIGHT: f64 = 70.0;
const ROW: f64 = 50.0;
const TOP: f64 = 26.0;
const AXIS: f64 = 34.0;
const DROPPED_WIDTH: f64 = 40.0;

fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// The chart.
#[function_component(Gantt)]
pub fn gantt(props: &GanttProps) -> Html {
    let longest = props
        .rows
        .iter()
        .map(|r| r.timeline.total)
        .chain(props.budget)
        .max()
        .unwrap_or(0);
    let ticks = nice_ticks(longest as f64, 6);
    let end = ticks.last().copied().unwrap_or(1.0).max(1.0);
    let plot = WIDTH - LABEL - RIGHT;
    let x = |t: Micros| LABEL + t as f64 / end * plot;
    let height = TOP + ROW * props.rows.len() as f64 + AXIS;
    let axis_y = TOP + ROW * props.rows.len() as f64;

    let rows = props.rows.iter().enumerate().map(|(i, row)| {
        let mid = TOP + ROW * i as f64 + ROW / 2.0;
        let bars = row.timeline.bars.iter().map(|bar| {
            let (x0, x1) = (x(bar.start), x(bar.end));
            let w = (x1 - x0).max(1.0);
            match bar.kind {
                BarKind::Attempt => {
                    let fits = w > bar.label.len() as f64 * 6.6 + 8.0;
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
                <text class="gantt-label" x={n(LABEL - 10.0)} y={n(mid + 5.0)} text-anchor="end">{ &row.label }</text>
                { for bars }
                <text class="gantt-total" x={n(total_x + 6.0)} y={n(mid + 5.0)}>
                    { fmt_ms(row.timeline.total) }
                </text>
            </g>
        }
    });

    let tick_marks = ticks.iter().map(|&t| {
        let tx = x(t as Micros);
        html! {
            <g class="gantt-tick">
                <line x1={n(tx)} x2={n(tx)} y1={n(TOP - 4.0)} y2={n(axis_y + 4.0)} />
                <text x={n(tx)} y={n(axis_y + 22.0)} text-anchor="middle">{ fmt_ms(t as Micros) }</text>
            </g>
        }
    });

    let budget = props.budget.map(|b| {
        let bx = x(b);
        html! {
            <g class="gantt-budget">
                <line x1={n(bx)} x2={n(bx)} y1={n(TOP - 8.0)} y2={n(axis_y)} />
                <text x={n(bx)} y={n(TOP - 12.0)} text-anchor="middle">{ format!("budget {}", fmt_ms(b)) }</text>
            </g>
        }
    });

    html! {
        <figure class="exercise-figure gantt" id={props.id.clone()}>
            <svg viewBox={format!("0 0 {WIDTH} {}", n(height))} role="img" aria-label={props.caption.clone()}>
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
