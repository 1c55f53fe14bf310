//! Exercise 1's run: the reservation's worst case with and without the budget as a Gantt
//! chart, and the gateway's latencies against the timeout Charge is left with.

use yew::prelude::*;

use super::gantt::{Gantt, GanttRow};
use crate::exercises::fmt_ms;
use crate::exercises::BudgetRun;
use crate::page::exercise_charts::{fraction, thousands};
use crate::page::exercise_view::Computed;
use crate::page::runs::Shared;
use crate::ui::ids::use_ids;

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
    const W: f64 = 900.0;
    const H: f64 = 190.0;
    const LEFT: f64 = 20.0;
    const BOTTOM: f64 = 34.0;
    let bins = g.histogram.len().max(1) as f64;
    let tallest = g.histogram.iter().map(|b| b.1).max().unwrap_or(1).max(1) as f64;
    let bin_width = (W - 2.0 * LEFT) / bins;
    let bin_us = match g.histogram.as_slice() {
        [a, b, ..] => b.0.saturating_sub(a.0).max(1),
        _ => 20_000,
    };
    let span = g.histogram.last().map_or(bin_us, |b| b.0 + bin_us);
    let x_of = |us: u64| LEFT + fraction(us as f64, span as f64) * (W - 2.0 * LEFT);
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
    let axis_marks = (0..=span / 200_000).map(|k| {
        let t = k * 200_000;
        html! {
            <text class="axis" x={n(x_of(t))} y={n(H - 10.0)} text-anchor="middle">{ fmt_ms(t) }</text>
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
            <figure class="exercise-figure" id={ids.id("ex1-gateway")}>
                <svg viewBox={format!("0 0 {W} {H}")} role="img"
                    aria-label="How long the payment gateway takes, with the timeout Charge is left with">
                    { for bars }
                    <line class="threshold" x1={n(timeout_x)} x2={n(timeout_x)} y1="8" y2={n(H - BOTTOM)} />
                    <text class="threshold-label" x={n(timeout_x + 6.0)} y="20">
                        { format!("Charge gives up at {}", fmt_ms(g.timeout)) }
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

    fn controls(&self, _: Callback<crate::page::exercise_setups::NoControl>) -> Html {
        Html::default()
    }

    fn result(&self, computed: &Shared<Computed<BudgetRun>>) -> Html {
        html! { <BudgetResult computed={computed.clone()} /> }
    }
}
