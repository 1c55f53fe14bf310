//! The playground's layout: wires the state to the views.

use yew::prelude::*;

use super::controls::Slider;
use super::histogram::Histogram;
use super::state::{Action, PlaygroundState, P99_RANGE_MS};

/// The whole playground.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(PlaygroundState::default);
    let on_p99 = {
        let state = state.clone();
        Callback::from(move |ms: f64| state.dispatch(Action::SetInventoryP99(ms)))
    };
    let preview = state.preview.clone();
    html! {
        <div class="playground">
            <div class="layout">
                <section class="region controls" aria-labelledby="controls-title">
                    <h2 id="controls-title">{ "Controls" }</h2>
                    <Slider id="inventory-p99" label="Inventory p99 latency" unit="ms"
                        min={P99_RANGE_MS.0} max={P99_RANGE_MS.1} step={10.0}
                        value={state.inventory_p99_ms} on_change={on_p99}
                        hint={AttrValue::from("Inventory answers in 40 ms at the median; drag to fatten its tail.")} />
                </section>
                <section class="region timeline" aria-labelledby="timeline-title">
                    <h2 id="timeline-title">{ "Timeline" }</h2>
                    <p class="placeholder">{ "The replay of the cascade, second by second, will play here." }</p>
                </section>
                <section class="region diagram" aria-labelledby="diagram-title">
                    <h2 id="diagram-title">{ "Circuit breaker" }</h2>
                    <p class="placeholder">{ "The breaker's states CLOSED, OPEN and HALF_OPEN will light up here as the run replays." }</p>
                </section>
                <section class="region histogram" aria-labelledby="histogram-title">
                    <h2 id="histogram-title">{ "Latency of calls to inventory" }</h2>
                    <div class="readout">
                        <span>{ "p50 " }<strong id="readout-p50">{ format!("{:.1} ms", preview.p50 as f64 / 1000.0) }</strong></span>
                        <span>{ "p99 " }<strong id="readout-p99">{ format!("{:.1} ms", preview.p99 as f64 / 1000.0) }</strong></span>
                        <span>{ "calls " }<strong>{ preview.buckets.total() }</strong></span>
                    </div>
                    <Histogram preview={preview.clone()}
                        label={format!("Histogram of {} sampled inventory latencies; p50 {:.1} ms, p99 {:.1} ms",
                            preview.buckets.total(), preview.p50 as f64 / 1000.0, preview.p99 as f64 / 1000.0)} />
                </section>
            </div>
        </div>
    }
}
