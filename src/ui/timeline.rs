//! The Timeline region: play / pause, step, speed, scrub, the simulated clock, the breaker's
//! state as a band, and the counters at the playhead.

use wasm_bindgen::JsCast;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::ids::use_ids;
use super::palette::outcome_class;
use crate::page::glossary::outcome_words;
use std::borrow::Cow;

use crate::page::action::Action;
use crate::page::chart_table::{band_description, moved};
use crate::page::playback::SPEEDS;
use crate::page::replay::{clock, layer_counts, layer_levels, Band, Frame};
use crate::page::runs::{Run, Shared};
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::trace::BUCKET;

/// Properties of [`Timeline`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    pub playhead: Micros,
    /// The run it plays: its length, when arrivals stop, the breaker's states and the
    /// outcomes to count.
    pub run: Shared<Run>,
    pub playing: bool,
    pub speed: f64,
    /// The wall-clock time of simulated time 0 (seconds after midnight), for a preset that
    /// has one; `None` shows simulated seconds.
    #[prop_or_default]
    pub clock_start: Option<u64>,
    /// Counts at the playhead.
    pub frame: Frame,
    pub on_action: Callback<Action>,
    /// The outcomes to count, when not the run's usual ones; set, the keyboard line is left
    /// out too (a compact widget).
    #[prop_or_default]
    pub counted: Option<Vec<crate::sim::trace::Outcome>>,
    /// The timeline's length, when it is not the run's own (A/B: the longer of two runs).
    #[prop_or_default]
    pub span: Option<Micros>,
    /// The A/B mode's run B: its breaker band is drawn under A's.
    #[prop_or_default]
    pub b: Option<Shared<Run>>,
    /// Whether to show the counters (A/B shows both runs' in a table instead).
    #[prop_or(true)]
    pub counters: bool,
    /// Show the marked events and the breaker's band only as far as the playhead (a lesson
    /// step, which must not tell its outcome before it plays).
    #[prop_or_default]
    pub reveal: bool,
}

fn state_class(state: BreakerState) -> &'static str {
    match state {
        BreakerState::Closed => "closed",
        BreakerState::Open => "open",
        BreakerState::HalfOpen => "half-open",
    }
}

/// Transport buttons, speed, scrub bar with the breaker band, clock and counters.
#[function_component(Timeline)]
pub fn timeline(props: &TimelineProps) -> Html {
    let ids = use_ids();
    // The marked event the Tab key lands on (the last one moved to).
    let roving = use_state(|| 0usize);
    let a = &props.on_action;
    let on_play = a.reform(|_: MouseEvent| Action::TogglePlay);
    let on_back = a.reform(|_: MouseEvent| Action::Step(-1));
    let on_forward = a.reform(|_: MouseEvent| Action::Step(1));
    let on_rewind = a.reform(|_: MouseEvent| Action::Seek(0));
    let on_speed = a.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        Action::SetSpeed(select.value().parse().unwrap_or(1.0))
    });
    let on_scrub = a.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let step: Micros = input.value().parse().unwrap_or(0);
        Action::Seek(step.saturating_mul(BUCKET))
    });
    let span_of_axis = props.span.unwrap_or(props.run.span);
    let span = span_of_axis.max(1);
    let pct = |t: Micros| t as f64 * 100.0 / span as f64;
    let band_of = |bands: &[Band], label: &str, id: &str| {
        (!bands.is_empty()).then(|| {
            html! {
                <svg class="band" id={ids.id(id)} viewBox="0 0 1000 16" preserveAspectRatio="none" role="img"
                    aria-label={label.to_string()}>
                    // Open and half-open are patterned as well as coloured (as the legend's keys).
                    <defs>
                        <pattern id={ids.id(&format!("{id}-open-lines"))} patternUnits="userSpaceOnUse" width="8" height="8">
                            <path class="band-hatch-lines" d="M -2 -2 L 10 10 M -2 6 L 2 10 M 6 -2 L 10 2" />
                        </pattern>
                        <pattern id={ids.id(&format!("{id}-half-open-lines"))} patternUnits="userSpaceOnUse" width="8" height="8">
                            <path class="band-hatch-lines" d="M 4 0 L 4 8" />
                        </pattern>
                    </defs>
                    { for bands.iter().map(|b| {
                        let (x, width) = (format!("{:.2}", pct(b.from) * 10.0), format!("{:.2}", (pct(b.to) - pct(b.from)) * 10.0));
                        let lines = match b.state {
                            BreakerState::Closed => None,
                            BreakerState::Open => Some("open"),
                            BreakerState::HalfOpen => Some("half-open"),
                        };
                        html! {
                            <>
                                <rect class={state_class(b.state)} x={x.clone()} y="0" width={width.clone()} height="16" />
                                if let Some(lines) = lines {
                                    <rect class="band-hatch" x={x} y="0" width={width} height="16"
                                        fill={format!("url(#{})", ids.id(&format!("{id}-{lines}-lines")))} />
                                }
                            </>
                        }
                    }) }
                    <line class="playhead" x1={format!("{:.2}", pct(props.playhead) * 10.0)}
                        x2={format!("{:.2}", pct(props.playhead) * 10.0)} y1="0" y2="16" />
                </svg>
            }
        })
    };
    // Revealing, the bands stop at the playhead; otherwise they are the run's own, borrowed.
    fn upto(bands: &[Band], reveal: bool, playhead: Micros) -> Cow<'_, [Band]> {
        if !reveal {
            return Cow::Borrowed(bands);
        }
        bands
            .iter()
            .filter(|b| b.from <= playhead)
            .map(|b| Band {
                to: b.to.min(playhead),
                ..*b
            })
            .collect()
    }
    let b_bands = upto(
        props.b.as_ref().map(|b| b.bands.as_slice()).unwrap_or(&[]),
        props.reveal,
        props.playhead,
    );
    let b_bands: &[Band] = &b_bands;
    let two = !b_bands.is_empty();
    let bands: &[Band] = &upto(&props.run.bands, props.reveal, props.playhead);
    let until = if props.reveal {
        props.playhead
    } else {
        span_of_axis
    };
    let described =
        |what: &str, bands: &[Band]| band_description(what, bands, until, props.clock_start);
    let band = band_of(
        bands,
        &described(
            if two {
                "Run A's breaker state over time"
            } else {
                "The breaker's state over time"
            },
            bands,
        ),
        "band",
    );
    let band_b = band_of(
        b_bands,
        &described("Run B's breaker state over time", b_bands),
        "band-b",
    );
    let markers: Vec<&crate::page::markers::Marker> = props
        .run
        .markers
        .iter()
        .filter(|m| !props.reveal || m.at <= props.playhead)
        .collect();
    let marks_strip = (!markers.is_empty()).then(|| {
        html! {
            <svg class="marks-strip" viewBox="0 0 1000 10" preserveAspectRatio="none" aria-hidden="true">
                { for markers.iter().map(|m| {
                    let x = format!("{:.2}", pct(m.at) * 10.0);
                    html! { <line class={classes!("mark-line", m.kind.key())} x1={x.clone()} x2={x} y1="0" y2="10" /> }
                }) }
            </svg>
        }
    });
    let legend = (!bands.is_empty() || two).then(|| {
        html! {
            <p class="band-legend" id={ids.id("band-legend")}>
                <span class="band-key band-closed">{ "closed" }</span>
                <span class="band-key band-open">{ "open" }</span>
                <span class="band-key band-half-open">{ "half-open" }</span>
                <span class="band-what">{ if two {
                    "the breaker's state over time: run A above, run B below"
                } else {
                    "the breaker's state over time"
                } }</span>
            </p>
        }
    });
    // One stop for the Tab key; the arrows, Home and End move among the events.
    let current = (*roving).min(markers.len().saturating_sub(1));
    let on_marker_keys = {
        let roving = roving.clone();
        let count = markers.len();
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let Some(next) = moved(&e.key(), Some(current), count) else {
                return;
            };
            e.prevent_default();
            e.stop_propagation();
            roving.set(next);
            let list = e
                .current_target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            if let Some(button) = list
                .and_then(|list| list.query_selector_all("button.marker-seek").ok())
                .and_then(|buttons| buttons.get(next as u32))
                .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = button.focus();
            }
        })
    };
    let marker_list = (!markers.is_empty()).then(|| {
        html! {
            <ol class="timeline-markers" id={ids.id("timeline-markers")} data-own-keys="true"
                aria-label="Marked events: the arrow keys move among them, Enter moves the playhead there"
                onkeydown={on_marker_keys}>
                { for markers.iter().enumerate().map(|(i, m)| {
                    let at = m.at;
                    let onclick = a.reform(move |_: MouseEvent| Action::Seek(at));
                    let onfocus = {
                        let roving = roving.clone();
                        Callback::from(move |_: FocusEvent| roving.set(i))
                    };
                    html! {
                        <li class={classes!("marker", m.kind.key())} data-marker={m.kind.key()}
                            data-at={format!("{:.1}", m.at as f64 / 1e6)}>
                            <button type="button" class="marker-seek" {onclick} {onfocus}
                                tabindex={if i == current { "0" } else { "-1" }}
                                aria-label={format!("{}: {}; move the playhead there", clock(m.at, props.clock_start), m.label)}>
                                <strong>{ clock(m.at, props.clock_start) }</strong>{ " " }{ &m.label }
                            </button>
                        </li>
                    }
                }) }
            </ol>
        }
    });
    let f = &props.frame;
    let in_flight = f.waiting();
    let stopped = !props.run.config.run.drain;
    // A run that stops at its duration leaves clients waiting for good: say so at the end.
    let waiting_label = if stopped && props.playhead >= props.run.config.traffic.duration {
        "still waiting when the run stopped "
    } else {
        "in service or queued "
    };
    let counted = props.counted.as_ref().unwrap_or(&props.run.outcomes);
    let counters = counted.iter().map(|&o| {
            html! {
                <span class={classes!("chip", outcome_class(o))} id={ids.id(&format!("count-{}", o.name()))}
                    title={format!("{} in the JSON and the CSV", o.name())} data-outcome={o.name()}>
                    { outcome_words(o) }{ " " }<strong>{ f.finished.get(o) }</strong>
                </span>
            }
        });
    let layers = layer_counts(&props.run.trace, props.playhead);
    let levels = layer_levels(&props.run.trace, props.playhead);
    let layer_chips = layers.iter().map(|(counter, n)| {
        html! {
            <span class="chip" id={ids.id(&format!("layer-count-{}", counter.name))}
                title={format!("{} ({} in the JSON)", counter.what, counter.name)}>
                { counter.label }{ " " }<strong>{ *n }</strong>
            </span>
        }
    });
    let level_chips = levels.iter().map(|(level, value)| {
        html! {
            <span class="chip" id={ids.id(&format!("layer-level-{}", level.name))}
                title={format!("{} now, in calls in flight", level.what)}>
                { level.label }{ " " }<strong>{ *value }</strong>
            </span>
        }
    });
    html! {
        <>
            <div class="transport">
                <button id={ids.id("rewind")} onclick={on_rewind} aria-label="Back to the start (r)">{ "|◀ Start" }</button>
                <button id={ids.id("step-back")} onclick={on_back} aria-label="Step back 0.1 s (left arrow)">{ "◀" }</button>
                <button id={ids.id("play")} class="play" onclick={on_play}
                    aria-label={if props.playing { "Pause (space)" } else { "Play (space)" }}>
                    { if props.playing { "❚❚ Pause" } else { "▶ Play" } }
                </button>
                <button id={ids.id("step-forward")} onclick={on_forward} aria-label="Step forward 0.1 s (right arrow)">{ "▶|" }</button>
                <label>{ "Speed " }
                    <select id={ids.id("speed")} onchange={on_speed}>
                        { for SPEEDS.iter().map(|&s| html! {
                            <option value={s.to_string()} selected={s == props.speed}>{ format!("{s}×") }</option>
                        }) }
                    </select>
                </label>
                <span class="clock" id={ids.id("clock")} aria-live="off">
                    <strong>{ clock(props.playhead, props.clock_start) }</strong>{ " / " }{ clock(span_of_axis, props.clock_start) }
                </span>
            </div>
            <input type="range" id={ids.id("scrub")} class="scrub" aria-label="Simulated time"
                min="0" max={(span_of_axis / BUCKET).to_string()} step="1"
                value={(props.playhead / BUCKET).to_string()} oninput={on_scrub} />
            { band.unwrap_or_default() }
            { band_b.unwrap_or_default() }
            { marks_strip.unwrap_or_default() }
            { legend.unwrap_or_default() }
            <div class="marks">
                <span style={format!("left: {:.2}%", pct(props.run.config.traffic.duration))}
                    class={classes!("mark", (pct(props.run.config.traffic.duration) > 80.0).then_some("from-right"))}>
                    { if stopped { "arrivals and the run stop" } else { "arrivals stop" } }</span>
            </div>
            { marker_list.unwrap_or_default() }
            if props.counters {
                <div class="counters" aria-label="Requests so far">
                    <span class="chip">{ "arrived " }<strong id={ids.id("count-arrived")}>{ f.arrived }</strong></span>
                    { for counters }
                    <span class="chip">{ waiting_label }<strong id={ids.id("count-in-flight")}>{ in_flight }</strong></span>
                </div>
            }
            if props.counters && !(layers.is_empty() && levels.is_empty()) {
                <div class="counters layer-counts" aria-label="What the layers did so far">
                    { for layer_chips }
                    { for level_chips }
                </div>
            }
            if props.counted.is_none() {
                <p class="hint keys">{ "Keys: space plays or pauses, ← → step 0.1 s (with Shift 1 s), r goes back to the start, ? lists them." }</p>
            }
        </>
    }
}
