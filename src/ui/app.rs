//! The playground's layout: holds the state and wires it to the views.

use std::rc::Rc;

use yew::prelude::*;

use super::histogram::Histogram;
use super::knob_panel::KnobPanel;
use super::lesson_table::LessonTable;
use super::load_chart::LoadChart;
use super::playback::{use_playback, use_shortcuts};
use super::share::{Export, Share};
use super::state::PageState;
use super::state_diagram::StateDiagram;
use super::timeline::Timeline;
use super::toolbar::Toolbar;
use super::topology::Topology;
use crate::page::export::{run_json, series_csv};
use crate::page::latency::{histogram_until, LatencyKind};
use crate::page::permalink::to_query;
use crate::page::replay::{breaker_at, breaker_bands, frame};
use crate::page::state::Action;

/// The whole playground.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(PageState::from_location);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    use_playback(state.0.playing, dispatch.clone());
    use_shortcuts(dispatch.clone());
    {
        let (dark, projector) = (state.0.dark, state.0.projector);
        use_effect_with((dark, projector), move |&(dark, projector)| {
            if let Some(root) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let list = root.class_list();
                let _ = list.toggle_with_force("theme-dark", dark);
                let _ = list.toggle_with_force("projector", projector);
            }
        });
    }
    let page = &state.0;
    let config = page.config();
    let query = to_query(page);
    {
        // Keep the address bar a permalink; not while playing (browsers limit how often it may
        // change).
        let playing = page.playing;
        use_effect_with((query.clone(), playing), move |(query, playing)| {
            if !*playing {
                if let Some(w) = web_sys::window() {
                    if let Ok(history) = w.history() {
                        let _ = history.replace_state_with_url(
                            &wasm_bindgen::JsValue::NULL,
                            "",
                            Some(&format!("?{query}")),
                        );
                    }
                }
            }
        });
    }
    let export = {
        let state = state.clone();
        Callback::from(move |what: Export| match what {
            Export::SeriesCsv => series_csv(&state.0),
            Export::RunJson => run_json(&state.0),
        })
    };
    let toolbar = html! {
        <>
            <Toolbar preset={page.preset} seed={page.full.seed} dark={page.dark}
                projector={page.projector} on_action={dispatch.clone()} />
            <Share export={export} query={AttrValue::from(query.clone())} />
        </>
    };
    let controls = html! {
        <section class="region controls" aria-labelledby="controls-title">
            <h2 id="controls-title">{ "Controls" }</h2>
            if let Some(text) = &page.notice {
                <p class="notice" role="alert" id="page-notice">{ text }</p>
            }
            <KnobPanel full={page.full.clone()} patterns={page.patterns} on_action={dispatch.clone()} />
        </section>
    };
    let table = html! {
        <section class="region table" aria-labelledby="table-title">
            <h2 id="table-title">{ "The lesson's table" }</h2>
            <LessonTable rows={page.table.clone()} window={page.table_window} on_action={dispatch.clone()} />
        </section>
    };
    let run = match &page.run {
        Ok(run) => run.clone(),
        Err(message) => {
            return html! {
                <div class="playground">
                    { toolbar }
                    <div class="layout">
                        { controls }
                        <section class="region timeline">
                            <h2>{ "Timeline" }</h2>
                            <p class="notice" role="alert" id="run-error">{ format!("This run cannot start: {message}") }</p>
                        </section>
                    </div>
                </div>
            };
        }
    };
    let at = page.playhead;
    let has_breaker = config.breaker.is_some();
    let now = frame(&run.trace, at);
    let bands = has_breaker.then(|| breaker_bands(&run.trace, run.span));
    let histogram = Rc::new(histogram_until(&run.finished, at, page.latency));
    let latency_switch = [LatencyKind::Service, LatencyKind::EndToEnd].map(|kind| {
        let onchange = dispatch.reform(move |_: Event| Action::SetLatency(kind));
        let id = match kind {
            LatencyKind::Service => "latency-service",
            LatencyKind::EndToEnd => "latency-end-to-end",
        };
        html! {
            <label for={id}>
                <input type="radio" name="latency-kind" id={id} checked={page.latency == kind} {onchange} />
                { kind.label() }
            </label>
        }
    });
    html! {
        <div class="playground">
            { toolbar }
            <div class="layout">
                { controls }
                <section class="region timeline" aria-labelledby="timeline-title">
                    <h2 id="timeline-title">{ "Timeline" }</h2>
                    <Timeline playhead={at} span={run.span} duration={config.duration}
                        playing={page.playing} speed={page.speed} bands={bands} frame={now}
                        clock_start={page.clock_start()} on_action={dispatch.clone()} />
                </section>
                <section class="region topology-region" aria-labelledby="topology-title">
                    <h2 id="topology-title">{ "Where the requests are" }</h2>
                    <Topology config={config.clone()} frame={now} />
                </section>
                <section class="region diagram" aria-labelledby="diagram-title">
                    <h2 id="diagram-title">{ "Circuit breaker" }</h2>
                    <StateDiagram config={config.breaker.clone()} at={breaker_at(&run.trace, has_breaker, at)}
                        slice={now.slice} rejections={now.finished.circuit_open} playhead={at} />
                </section>
                <section class="region histogram" aria-labelledby="histogram-title">
                    <h2 id="histogram-title">{ "Latency" }</h2>
                    <fieldset class="latency-kind">
                        <legend class="visually-hidden">{ "Which latency" }</legend>
                        { for latency_switch }
                    </fieldset>
                    <Histogram data={histogram} kind={page.latency} dark={page.dark} />
                </section>
                <section class="region load" aria-labelledby="load-title">
                    <h2 id="load-title">{ "Load over time" }</h2>
                    <LoadChart run={run.clone()} playhead={at} dark={page.dark} />
                </section>
                { table }
            </div>
        </div>
    }
}
