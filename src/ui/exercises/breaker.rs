//! Exercise 2: the bug switch, min_calls 5 or 20, the inventory's noise; and the run: the
//! breaker's state over the hour, the alert's measure and where it fires, the min_calls table.

use yew::prelude::*;

use super::wide_table::WideTable;

use crate::exercises::charts::{
    firing_spans, fraction, keep_inside, layout_width, narrow, nice_ticks, state_spans, text_width,
    thousands, tick_target,
};
use crate::exercises::setups::{
    BreakerControl, BreakerSetup, MAX_BLIPS_PER_HOUR, MIN_CALLS_CHOICES,
};
use crate::exercises::view::Computed;
use crate::exercises::{fmt_ms, AlertRule, BreakersRun};
use crate::page::runs::Shared;
use crate::resilience::SECOND;
use crate::ui::canvas::use_content_width;
use crate::ui::controls::{Slider, Switch};
use crate::ui::ids::use_ids;

/// Properties of [`BreakerControls`].
#[derive(Properties, PartialEq)]
pub struct BreakerControlsProps {
    pub setup: BreakerSetup,
    pub on_action: Callback<BreakerControl>,
}

/// The settings of exercise 2.
#[function_component(BreakerControls)]
pub fn breaker_controls(props: &BreakerControlsProps) -> Html {
    let ids = use_ids();
    let s = &props.setup;
    let group = ids.id("ex2-min-calls");
    let radios = MIN_CALLS_CHOICES.iter().map(|&m| {
        let id = ids.id(&format!("ex2-min-calls-{m}"));
        let onchange = props
            .on_action
            .reform(move |_: Event| BreakerControl::MinCalls(m));
        html! {
            <label class="choice" for={id.clone()}>
                <input type="radio" id={id} name={group.clone()} value={m.to_string()}
                    checked={s.exercise.breaker.min_calls == m} {onchange} />
                { format!(" {m}") }
            </label>
        }
    });
    html! {
        <div class="control-grid">
            <Switch id="ex2-bug" label="The client as the lesson wrote it (switch it off once you have found its bug)"
                on={s.bug} on_change={props.on_action.reform(BreakerControl::Bug)} />
            <fieldset class="choices">
                <legend>{ "min_calls of the breaker" }</legend>
                { for radios }
            </fieldset>
            <Switch id="ex2-noise" label="Noise on a healthy inventory (random failures, blips)"
                on={s.noise} on_change={props.on_action.reform(BreakerControl::Noise)} />
            <Slider id="ex2-blips" label="Blips per hour" unit="/h"
                min={0.0} max={MAX_BLIPS_PER_HOUR} step={1.0} value={s.blips_per_hour}
                disabled={!s.noise}
                on_change={props.on_action.reform(BreakerControl::BlipsPerHour)} />
        </div>
    }
}

/// Properties of [`BreakerResult`].
#[derive(Properties, PartialEq)]
pub struct BreakerResultProps {
    pub computed: Shared<Computed<BreakersRun>>,
    /// Show the client with the bug.
    pub bug_shown: bool,
    /// The breaker's min_calls, to mark its rows in the table.
    pub min_calls: u32,
    /// The alert rule the run was evaluated with.
    pub rule: AlertRule,
}

/// Room for the row labels beside the rows, on a wide chart.
const LABELS: f64 = 150.0;
const RIGHT: f64 = 36.0;
/// The style sheet's sizes of the chart's text (`style.css`), in drawing units.
const TEXT: f64 = 15.0;
const TICK_TEXT: f64 = 13.0;

fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// The run of exercise 2.
#[function_component(BreakerResult)]
pub fn breaker_result(props: &BreakerResultProps) -> Html {
    let ids = use_ids();
    let figure = use_node_ref();
    let w = layout_width(use_content_width(figure.clone()));
    // On a narrow chart each row's label stands above it, and the plot takes the width.
    let narrow = narrow(w);
    let left = if narrow { 8.0 } else { LABELS };
    let run = &props.computed.results;
    let shown = if run.current.bug == props.bug_shown {
        &run.current
    } else {
        &run.other
    };
    let duration = run.duration.max(1);
    let plot = w - left - RIGHT;
    let x = |us: u64| left + fraction(us as f64, duration as f64) * plot;

    // The state band: one rect per stretch of equal state.
    let band_y = if narrow { 24.0 } else { 28.0 };
    let band_h = 34.0;
    let spans = state_spans(&shown.gauge_per_second);
    let band = spans.iter().map(|sp| {
        let class = match sp.gauge {
            0 => "state-closed",
            1 => "state-half-open",
            _ => "state-open",
        };
        let (x0, x1) = (x(sp.start as u64 * SECOND), x(sp.end as u64 * SECOND));
        html! {
            <rect class={class} x={n(x0)} y={n(band_y)} width={n((x1 - x0).max(0.6))} height={n(band_h)} />
        }
    });

    // The alert's measure: the share of the lookback not closed, the threshold, firing spans.
    let rule = &props.rule;
    let share_top = if narrow { 112.0 } else { 100.0 };
    let share_h = 120.0;
    let y_of = |share: f64| share_top + (1.0 - share.clamp(0.0, 1.0)) * share_h;
    let points: String = shown
        .alert
        .samples
        .iter()
        .map(|s| format!("{},{} ", n(x(s.at)), n(y_of(s.not_closed_share))))
        .collect();
    let firing = firing_spans(&shown.alert.samples, rule.every, duration);
    let firing_rects = firing.iter().map(|&(a, b)| {
        html! {
            <rect class="alert-firing" x={n(x(a))} y={n(share_top)} width={n((x(b) - x(a)).max(1.5))} height={n(share_h)} />
        }
    });
    let minutes = duration as f64 / (60.0 * SECOND as f64);
    let ticks = nice_ticks(
        minutes,
        tick_target(plot, text_width("60 min", TICK_TEXT), 6),
    );
    let tick_marks = ticks.iter().filter(|&&m| m <= minutes + 1e-9).map(|&m| {
        let tx = x((m * 60.0 * SECOND as f64) as u64);
        let label = format!("{m} min");
        let label_x = keep_inside(tx, text_width(&label, TICK_TEXT), 0.0, w);
        html! {
            <g class="tick">
                <line x1={n(tx)} x2={n(tx)} y1={n(band_y - 4.0)} y2={n(share_top + share_h + 4.0)} />
                <text x={n(label_x)} y={n(share_top + share_h + 22.0)} text-anchor="middle">{ label }</text>
            </g>
        }
    });
    let threshold_y = y_of(rule.open_share);
    let first = shown.alert.first_fired_at.map(|at| {
        let fx = x(at);
        let label = format!("pages at {}", fmt_ms(at));
        // Right of the line, or left of it when it would run off the chart.
        let (label_x, anchor) = if fx + 6.0 + text_width(&label, TEXT) <= w {
            (fx + 6.0, "start")
        } else {
            ((fx - 6.0).max(text_width(&label, TEXT)), "end")
        };
        html! {
            <g class="alert-first">
                <line x1={n(fx)} x2={n(fx)} y1={n(band_y - 6.0)} y2={n(share_top + share_h)} />
                <text x={n(label_x)} y={n(share_top - 8.0)} text-anchor={anchor}>{ label }</text>
            </g>
        }
    });

    let alert_text = match shown.alert.first_fired_at {
        Some(at) => format!(
            "The alert pages at {} and is firing at {} of {} evaluations.",
            fmt_ms(at),
            shown.alert.firing_evaluations,
            shown.alert.samples.len()
        ),
        None => "The alert stays silent all hour.".to_string(),
    };
    let client = if shown.bug {
        "Client with the bug"
    } else {
        "Client fixed"
    };
    let rows = run.min_calls.iter().map(|c| {
        html! {
            <tr class={classes!((c.min_calls == props.min_calls).then_some("current"))}>
                <td>{ fmt_ms(c.window) }</td>
                <td>{ c.min_calls }</td>
                <td>{ format!("{:.0}", c.results_in_window) }</td>
                <td>{ format!("{:.1}", c.openings_per_hour) }</td>
                <td>{ format!("{:.2}%", c.not_closed_share * 100.0) }</td>
                <td>{ if c.alert_fired { "fires" } else { "silent" } }</td>
            </tr>
        }
    });

    html! {
        <div class="exercise-run-result">
            <figure class="exercise-figure" id={ids.id("ex2-states")} ref={figure}>
                <svg viewBox={format!("0 0 {} {}", n(w), n(share_top + share_h + 30.0))} role="img"
                    aria-label={format!("{client}: the breaker's state over {} and the alert's measure. {alert_text}", fmt_ms(duration))}>
                    { for tick_marks }
                    { for band }
                    <rect class="plot-frame" x={n(left)} y={n(share_top)} width={n(plot)} height={n(share_h)} />
                    { for firing_rects }
                    <line class="threshold" x1={n(left)} x2={n(w - RIGHT)} y1={n(threshold_y)} y2={n(threshold_y)} />
                    <text class="threshold-label" x={n(left + 4.0)} y={n(threshold_y - 5.0)}>{ format!("{:.0}%", rule.open_share * 100.0) }</text>
                    <polyline class="share-line" points={points} />
                    { for first }
                    // Last, over the lines they may cross on a narrow chart.
                    if narrow {
                        <text class="row-label" x={n(left)} y={n(band_y - 8.0)}>{ "breaker state" }</text>
                    } else {
                        <text class="row-label" x={n(left - 10.0)} y={n(band_y + band_h / 2.0 + 5.0)} text-anchor="end">{ "breaker state" }</text>
                    }
                    if narrow {
                        <text class="row-label" x={n(left)} y={n(share_top - 30.0)}>{ format!("not closed, last {}", fmt_ms(rule.lookback)) }</text>
                    } else {
                        <text class="row-label" x={n(left - 10.0)} y={n(share_top + 14.0)} text-anchor="end">{ "not closed," }</text>
                        <text class="row-label" x={n(left - 10.0)} y={n(share_top + 32.0)} text-anchor="end">{ format!("last {}", fmt_ms(rule.lookback)) }</text>
                    }
                </svg>
                <figcaption>
                    { format!("{client}, over {} of traffic. Top: the breaker's state each second. Bottom: the share of the last {} the circuit was not closed, which the alert watches; it pages once that share has stayed at or above the line for {}.",
                        fmt_ms(duration), fmt_ms(rule.lookback), fmt_ms(rule.hold)) }
                    <span class="legend">
                        <span class="key key-closed">{ "closed" }</span>
                        <span class="key key-half-open">{ "half open" }</span>
                        <span class="key key-open">{ "open" }</span>
                        <span class="key key-firing">{ "alert firing" }</span>
                    </span>
                </figcaption>
            </figure>
            <p class="exercise-alert-summary" id={ids.id("ex2-alert")}
                data-fired={shown.alert.fired().to_string()}>{ alert_text }</p>
            <dl class="exercise-figures">
                <dt>{ "Calls made / offered" }</dt>
                <dd>{ format!("{} / {}", thousands(shown.calls_made), thousands(shown.calls_offered)) }</dd>
                <dt>{ "Counted as failures" }</dt>
                <dd>{ format!("{:.1}% of calls made", fraction(shown.counted_as_failures as f64, shown.calls_made.max(1) as f64) * 100.0) }</dd>
                <dt>{ "Openings (all false: inventory is healthy)" }</dt>
                <dd id={ids.id("ex2-openings")}>{ format!("{} ({} failed probes)", shown.openings, shown.reopenings) }</dd>
                <dt>{ "Time not closed" }</dt>
                <dd>{ format!("{:.1}% of the hour", shown.not_closed_share(duration) * 100.0) }</dd>
                <dt>{ "Calls refused" }</dt>
                <dd>{ thousands(shown.rejected) }</dd>
            </dl>
            <WideTable label="False openings by window and min_calls">
                <table class="exercise-table" id={ids.id("ex2-min-calls-table")}>
                    <caption>{ format!("Bug fixed, same traffic ({} blips): false openings by window and min_calls", run.blips) }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "window" }</th>
                            <th scope="col">{ "min_calls" }</th>
                            <th scope="col">{ "results in window" }</th>
                            <th scope="col">{ "openings / hour" }</th>
                            <th scope="col">{ "not closed" }</th>
                            <th scope="col">{ "alert" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </WideTable>
        </div>
    }
}

impl super::ExerciseUi for BreakerSetup {
    fn controls(&self, on_control: Callback<BreakerControl>) -> Html {
        html! { <BreakerControls setup={self.clone()} on_action={on_control} /> }
    }

    fn result(&self, computed: &Shared<Computed<BreakersRun>>) -> Html {
        html! {
            <BreakerResult computed={computed.clone()} bug_shown={self.bug}
                min_calls={self.exercise.breaker.min_calls} rule={self.exercise.alert.clone()} />
        }
    }
}
