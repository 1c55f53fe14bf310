//! Exercise 1's run: the reservation's worst case with and without the budget as a Gantt
//! chart, and the gateway's latencies against the timeout Charge is left with.

use yew::prelude::*;

use super::gantt::{Gantt, GanttRow};
use crate::exercises::charts::{
    fraction, keep_inside, layout_width, nice_ticks, text_width, thousands, tick_target,
};
use crate::exercises::fmt_ms;
use crate::exercises::view::Computed;
use crate::exercises::BudgetRun;
use crate::page::runs::Shared;
use crate::ui::canvas::use_content_width;
use crate::ui::ids::use_ids;

/// The style sheet's sizes of the chart's text (`style.css`), in drawing units.
const TICK_TEXT: f64 = 13.0;
const LABEL_TEXT: f64 = 14.0;

/// Properties of [`BudgetResult`].
#[derive(Properties, PartialEq)]
pub struct BudgetResultProps {
    pub computed: Shared<Computed<BudgetRun>>,
}

fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// The run of exercise 1.
#[function_component(BudgetResult)]
pub fn budget_result(props: &BudgetResultProps) -> Html {
    let ids = use_ids();
    let gateway_figure = use_node_ref();
    let gateway_width = use_content_width(gateway_figure.clone());
    let run = &props.computed.results;
    let budget_text = run.budget.map(fmt_ms).unwrap_or_else(|| "no".into());
    let rows = vec![
        GanttRow {
            label: "No budget".to_string(),
            timeline: run.without_budget.clone(),
        },
        GanttRow {
            label: format!("{budget_text} budget"),
            timeline: run.with_budget.clone(),
        },
    ];
    let g = &run.gateway;

    // The gateway's latencies, 20 ms bins, with the timeout Charge gets.
    const H: f64 = 190.0;
    const LEFT: f64 = 20.0;
    const BOTTOM: f64 = 34.0;
    let w = layout_width(gateway_width);
    let bins = g.histogram.len().max(1) as f64;
    let tallest = g.histogram.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let bin_width = (w - 2.0 * LEFT) / bins;
    let bin_us = match g.histogram.as_slice() {
        [a, b, ..] => b.0.saturating_sub(a.0).max(1),
        _ => 20_000,
    };
    let span = g.histogram.last().map_or(bin_us, |b| b.0 + bin_us);
    let x_of = |us: u64| LEFT + fraction(us as f64, span as f64) * (w - 2.0 * LEFT);
    let bars = g.histogram.iter().enumerate().map(|(i, &(start, count))| {
        let h = fraction(count as f64, tallest) * (H - BOTTOM - 16.0);
        let slow = start >= g.timeout;
        html! {
            <rect class={classes!("hist-bar", slow.then_some("late"))}
                x={n(LEFT + i as f64 * bin_width + 0.5)} y={n(H - BOTTOM - h)}
                width={n((bin_width - 1.0).max(0.5))} height={n(h)}>
                <title>{ format!("{}–{}: {} calls", fmt_ms(start), fmt_ms(start + bin_us), count) }</title>
            </rect>
        }
    });
    let timeout_x = x_of(g.timeout);
    let timeout_label = format!("Charge gives up at {}", fmt_ms(g.timeout));
    // Right of the line, or left of it when it would run off the chart.
    let label_right = timeout_x + 6.0 + text_width(&timeout_label, LABEL_TEXT) <= w;
    let (label_x, label_anchor) = if label_right {
        (timeout_x + 6.0, "start")
    } else {
        (
            (timeout_x - 6.0).max(text_width(&timeout_label, LABEL_TEXT)),
            "end",
        )
    };
    let span_ms = span as f64 / 1_000.0;
    let widest = text_width("1,200 ms", TICK_TEXT);
    let axis_marks = nice_ticks(span_ms, tick_target(w - 2.0 * LEFT, widest, 7))
        .into_iter()
        .filter(|&t| t <= span_ms + 1e-9)
        .map(|t| {
            let at = (t * 1_000.0) as u64;
            let label = fmt_ms(at);
            let x = keep_inside(x_of(at), text_width(&label, TICK_TEXT), 0.0, w);
            html! {
                <text class="axis" x={n(x)} y={n(H - 10.0)} text-anchor="middle">{ label }</text>
            }
        });

    html! {
        <div class="exercise-run-result">
            <Gantt id={ids.id("ex1-gantt")} rows={rows} budget={run.budget}
                caption="The reservation at its worst: every attempt hangs until its timeout." />
            <dl class="exercise-figures">
                <dt>{ "Worst case, no budget" }</dt>
                <dd id={ids.id("ex1-figure-without")}>{ fmt_ms(run.without_budget.total) }</dd>
                <dt>{ format!("Worst case, {budget_text} budget") }</dt>
                <dd id={ids.id("ex1-figure-with")}>
                    { format!("{} ({} attempts made, {} not made)",
                        fmt_ms(run.with_budget.total),
                        run.with_budget.attempts_made(),
                        run.with_budget.attempts_dropped()) }
                </dd>
                <dt>{ format!("Charge's timeout after {} of reservation", fmt_ms(run.reservation_used)) }</dt>
                <dd>{ format!("{} (its own is {})", fmt_ms(g.timeout), fmt_ms(run.charge_timeout_configured)) }</dd>
                <dt>{ "Charge calls slower than that" }</dt>
                <dd>{ format!("{:.0}% under the model; {:.1}% of {} sampled calls",
                    g.share_closed_form * 100.0, g.share_sampled * 100.0, thousands(u64::from(g.samples))) }</dd>
            </dl>
            <figure class="exercise-figure" id={ids.id("ex1-gateway")} ref={gateway_figure}>
                <svg viewBox={format!("0 0 {} {H}", n(w))} role="img"
                    aria-label={format!(
                        "How long the payment gateway takes, with the timeout Charge is left with: Charge gives up at {}; {:.1}% of {} sampled calls take longer",
                        fmt_ms(g.timeout), g.share_sampled * 100.0, thousands(u64::from(g.samples)))}>
                    { for bars }
                    <line class="threshold" x1={n(timeout_x)} x2={n(timeout_x)} y1="8" y2={n(H - BOTTOM)} />
                    <text class="threshold-label" x={n(label_x)} y="20" text-anchor={label_anchor}>
                        { timeout_label }
                    </text>
                    { for axis_marks }
                </svg>
                <figcaption>
                    { format!("The gateway's answer times in {} sampled calls ({}). Bars right of the line are charges that run out of time.",
                        thousands(u64::from(g.samples)), g.assumption) }
                </figcaption>
            </figure>
        </div>
    }
}

impl super::ExerciseUi for crate::exercises::BudgetAndRetries {
    const HAS_CONTROLS: bool = false;

    fn controls(&self, _: Callback<crate::exercises::setups::NoControl>) -> Html {
        Html::default()
    }

    fn result(&self, computed: &Shared<Computed<BudgetRun>>) -> Html {
        html! { <BudgetResult computed={computed.clone()} /> }
    }
}
