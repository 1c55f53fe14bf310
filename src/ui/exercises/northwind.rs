//! Exercise 4: one shared pool or separate bulkheads, the reconciliation job on or off; and the
//! run: the worst case computed and stepped, order history's success in the simulator with
//! each design, the provisional orders over the hour with and without the job.

use yew::prelude::*;

use super::gantt::{Gantt, GanttRow};
use crate::exercises::charts::{
    fraction, keep_inside, layout_width, nice_ticks, text_width, thousands, tick_target,
};
use crate::exercises::setups::{NorthwindControl, NorthwindResults, NorthwindSetup};
use crate::exercises::view::Computed;
use crate::exercises::{fmt_ms, BacklogRun};
use crate::page::runs::Shared;
use crate::resilience::SECOND;
use crate::sim::trace::RouteCounts;
use crate::ui::canvas::use_content_width;
use crate::ui::controls::Switch;
use crate::ui::ids::use_ids;

/// The style sheet's size of the axis text (`style.css`), in drawing units.
const TICK_TEXT: f64 = 13.0;

/// Properties of [`NorthwindControls`].
#[derive(Properties, PartialEq)]
pub struct NorthwindControlsProps {
    pub setup: NorthwindSetup,
    pub on_action: Callback<NorthwindControl>,
}

/// The settings of exercise 4.
#[function_component(NorthwindControls)]
pub fn northwind_controls(props: &NorthwindControlsProps) -> Html {
    let ids = use_ids();
    let group = ids.id("ex4-pool");
    let radio = |shared: bool, key: &str, label: &str| {
        let id = ids.id(&format!("ex4-pool-{key}"));
        let onchange = props
            .on_action
            .reform(move |_: Event| NorthwindControl::SharedPool(shared));
        html! {
            <label class="choice" for={id.clone()}>
                <input type="radio" id={id} name={group.clone()} value={key.to_string()}
                    checked={props.setup.shared_pool == shared} {onchange} />
                { format!(" {label}") }
            </label>
        }
    };
    html! {
        <div class="control-grid">
            <fieldset class="choices">
                <legend>{ "Threads for order history" }</legend>
                { radio(true, "shared", "one pool shared with inventory reservations") }
                { radio(false, "separate", "a bulkhead of its own") }
            </fieldset>
            <Switch id="ex4-job" label="A reconciliation job confirms provisional orders"
                on={props.setup.exercise.backlog.job.is_some()}
                on_change={props.on_action.reform(NorthwindControl::Job)} />
        </div>
    }
}

/// Properties of [`NorthwindResult`].
#[derive(Properties, PartialEq)]
pub struct NorthwindResultProps {
    pub computed: Shared<Computed<NorthwindResults>>,
    /// Highlight the shared pool (else the separate bulkheads).
    pub shared_pool: bool,
    /// When inventory turns slow in the backlog model, µs.
    pub sick_from: u64,
    /// When it is healthy again, µs.
    pub sick_until: u64,
}

fn n(v: f64) -> String {
    format!("{v:.1}")
}

fn answered(r: &RouteCounts) -> u64 {
    r.outcomes.ok + r.outcomes.business_rejected + r.outcomes.fallback
}

const MINUTE: u64 = 60 * SECOND;

/// The run of exercise 4.
#[function_component(NorthwindResult)]
pub fn northwind_result(props: &NorthwindResultProps) -> Html {
    let ids = use_ids();
    let backlog_figure = use_node_ref();
    let backlog_width = use_content_width(backlog_figure.clone());
    let r = &props.computed.results;
    let run = &r.run;
    let rows = vec![
        GanttRow {
            label: "Computed worst case".to_string(),
            timeline: run.worst_case.clone(),
        },
        GanttRow {
            label: format!("Inventory at {}", fmt_ms(run.slow.inventory_latency)),
            timeline: run.slow.timeline.clone(),
        },
        GanttRow {
            label: format!("Inventory at {}", fmt_ms(run.healthy.inventory_latency)),
            timeline: run.healthy.timeline.clone(),
        },
    ];

    // Order history with each design.
    let designs = [
        (true, "one shared pool", &r.shared),
        (false, "a bulkhead of its own", &r.separate),
    ];
    let history = designs.iter().map(|&(shared, label, counts)| {
        let rate = counts.success_rate() * 100.0;
        let current = shared == props.shared_pool;
        let key = if shared { "shared" } else { "separate" };
        html! {
            <li class={classes!("load-row", current.then_some("current"))}
                id={ids.id(&format!("ex4-history-{key}"))} data-success={format!("{rate:.1}")}
                aria-current={current.then_some("true")}>
                <span class="load-label">{ label }</span>
                <span class="load-track">
                    <span class="load-bar" style={format!("width: {rate:.2}%")}></span>
                </span>
                <span class="load-value">
                    <strong>{ format!("{rate:.1}% answered") }</strong>
                    { format!(" ({} of {}; {} turned away by a full bulkhead, {} timed out)",
                        thousands(answered(counts)), thousands(counts.sent),
                        thousands(counts.outcomes.bulkhead_full), thousands(counts.outcomes.timeout)) }
                </span>
            </li>
        }
    });

    // Part (e)'s own figures, from the parts of this run.
    let expected = |id: &str| {
        props
            .computed
            .parts
            .iter()
            .find(|p| p.id == id)
            .and_then(|p| p.answer.as_ref())
            .map(|a| a.expected)
    };
    let model = match (expected("e1"), expected("e2")) {
        (Some(shared), Some(separate)) => {
            format!("{shared:.0}% answered with one shared pool, {separate:.0}% with a bulkhead.")
        }
        _ => String::new(),
    };

    // The backlog over time.
    let w = layout_width(backlog_width);
    const H: f64 = 260.0;
    const LEFT: f64 = 70.0;
    const RIGHT: f64 = 36.0;
    const TOP: f64 = 20.0;
    const BOTTOM: f64 = 40.0;
    let horizon = run
        .backlog_without_job
        .points
        .last()
        .map_or(MINUTE, |p| p.at.max(MINUTE));
    let peak = run.backlog.peak.max(run.backlog_without_job.peak).max(1) as f64;
    let y_ticks = nice_ticks(peak, 4);
    let y_end = y_ticks.last().copied().unwrap_or(peak).max(1.0);
    let x = |at: u64| LEFT + fraction(at as f64, horizon as f64) * (w - LEFT - RIGHT);
    let y = |v: f64| TOP + (1.0 - fraction(v, y_end)) * (H - TOP - BOTTOM);
    let line = |b: &BacklogRun| -> String {
        b.points
            .iter()
            .map(|p| format!("{},{} ", n(x(p.at)), n(y(p.provisional as f64))))
            .collect()
    };
    let backlog = &run.backlog;
    let with_job = backlog.with_job;
    let minutes = horizon as f64 / MINUTE as f64;
    let widest = text_width("60 min", TICK_TEXT);
    let x_marks = nice_ticks(minutes, tick_target(w - LEFT - RIGHT, widest, 6))
        .into_iter()
        .filter(|&m| m <= minutes + 1e-9)
        .map(|m| {
            let tx = x((m * MINUTE as f64) as u64);
            let label = format!("{m} min");
            let label_x = keep_inside(tx, text_width(&label, TICK_TEXT), 0.0, w);
            html! {
                <g class="tick">
                    <line x1={n(tx)} x2={n(tx)} y1={n(TOP)} y2={n(H - BOTTOM + 4.0)} />
                    <text x={n(label_x)} y={n(H - BOTTOM + 22.0)} text-anchor="middle">{ label }</text>
                </g>
            }
        });
    let y_marks = y_ticks.iter().map(|&v| {
        html! {
            <g class="tick">
                <line x1={n(LEFT - 4.0)} x2={n(w - RIGHT)} y1={n(y(v))} y2={n(y(v))} />
                <text x={n(LEFT - 8.0)} y={n(y(v) + 5.0)} text-anchor="end">{ thousands(v as u64) }</text>
            </g>
        }
    });
    let sick_rect = {
        let (a, b) = (props.sick_from.min(horizon), props.sick_until.min(horizon));
        html! {
            <g class="sick-span">
                <rect x={n(x(a))} y={n(TOP)} width={n((x(b) - x(a)).max(1.0))} height={n(H - TOP - BOTTOM)} />
                <text x={n(x(a) + 4.0)} y={n(TOP + 16.0)}>{ "inventory slow" }</text>
            </g>
        }
    };
    let drained = |b: &BacklogRun| match b.drained_at {
        Some(t) => format!("empty again at minute {:.1}", t as f64 / MINUTE as f64),
        None => format!(
            "{} still provisional at the end",
            thousands(b.left_at_horizon)
        ),
    };

    html! {
        <div class="exercise-run-result">
            <Gantt id={ids.id("ex4-gantt")} rows={rows}
                caption="One reservation at its worst, computed from the settings, then stepped through the retry machine." />
            <figure class="exercise-figure">
                <ul class="load-bars history-bars" id={ids.id("ex4-history")}>{ for history }</ul>
                <figcaption>
                    { "Order-history requests answered in the simulator's 60 s run of the flash sale, with each design. " }
                    { "The simulator runs the fixed client (time limiter, retries, breaker), which gives threads back; " }
                    { "part (e) asks about the incident before the fix, with nothing cutting a reservation short: " }
                    <strong id={ids.id("ex4-history-model")}>{ model }</strong>
                </figcaption>
            </figure>
            <figure class="exercise-figure" id={ids.id("ex4-backlog")} ref={backlog_figure}>
                <svg viewBox={format!("0 0 {} {H}", n(w))} role="img"
                    aria-label={format!(
                        "Provisional orders over the hour, with and without the reconciliation job: with it, at most {} and {}; without it, at most {} and {}",
                        thousands(run.backlog.peak), drained(&run.backlog),
                        thousands(run.backlog_without_job.peak), drained(&run.backlog_without_job))}>
                    { sick_rect }
                    { for y_marks }
                    { for x_marks }
                    if with_job {
                        <polyline class="backlog-with" points={line(backlog)} />
                    }
                    // Dashed, on top: visible where the two lines run together.
                    <polyline class="backlog-without" points={line(&run.backlog_without_job)} />
                </svg>
                <figcaption>
                    { format!("Provisional orders, minute by minute. Without a job: {}.", drained(&run.backlog_without_job)) }
                    if with_job {
                        { format!(" With the job: {}.", drained(backlog)) }
                    } else {
                        { " The job is switched off." }
                    }
                    <span class="legend">
                        if with_job {
                            <span class="key key-with-job">{ "with the job" }</span>
                        }
                        <span class="key key-without-job">{ "no job" }</span>
                        <span class="key key-sick">{ "inventory slow" }</span>
                    </span>
                </figcaption>
            </figure>
            <p class="exercise-summary" id={ids.id("ex4-backlog-summary")}
                data-peak={backlog.peak.to_string()}>
                { format!("Peak: {} provisional orders.", thousands(backlog.peak)) }
            </p>
        </div>
    }
}

impl super::ExerciseUi for NorthwindSetup {
    fn controls(&self, on_control: Callback<NorthwindControl>) -> Html {
        html! { <NorthwindControls setup={self.clone()} on_action={on_control} /> }
    }

    fn result(&self, computed: &Shared<Computed<NorthwindResults>>) -> Html {
        let backlog = &self.exercise.backlog;
        html! {
            <NorthwindResult computed={computed.clone()} shared_pool={self.shared_pool}
                sick_from={backlog.sick_from} sick_until={backlog.sick_until} />
        }
    }
}
