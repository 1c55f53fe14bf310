//! Exercise 3: which layer retries, each layer's attempts, the idempotency key; and the run:
//! calls per second reaching the dead inventory for every choice of layer, and the duplicate
//! orders without and with the key.

use yew::prelude::*;

use super::wide_table::WideTable;

use crate::exercises::charts::{fraction, thousands};
use crate::exercises::setups::{retrying_key, Layer, LayersControl, LayersSetup, MAX_ATTEMPTS};
use crate::exercises::view::Computed;
use crate::exercises::{fmt_ms, DuplicateReport, RetryingLayer, ThreeLayersRun};
use crate::page::runs::Shared;
use crate::ui::controls::{Slider, Switch};
use crate::ui::ids::use_ids;

/// Properties of [`LayersControls`].
#[derive(Properties, PartialEq)]
pub struct LayersControlsProps {
    pub setup: LayersSetup,
    pub on_action: Callback<LayersControl>,
}

/// The settings of exercise 3.
#[function_component(LayersControls)]
pub fn layers_controls(props: &LayersControlsProps) -> Html {
    let ids = use_ids();
    let e = &props.setup.exercise;
    let group = ids.id("ex3-retrying");
    let radios = RetryingLayer::ALL.iter().map(|&layer| {
        let id = ids.id(&format!("ex3-retrying-{}", retrying_key(layer)));
        let onchange = props
            .on_action
            .reform(move |_: Event| LayersControl::Retrying(layer));
        html! {
            <label class="choice" for={id.clone()}>
                <input type="radio" id={id} name={group.clone()} value={retrying_key(layer)}
                    checked={e.retrying == layer} {onchange} />
                { format!(" {}", layer.name()) }
            </label>
        }
    });
    let sliders = Layer::ALL.iter().map(|&layer| {
        let value = match layer {
            Layer::FrontEnd => e.front_end_attempts,
            Layer::Library => e.library_attempts,
            Layer::Sidecar => e.sidecar_attempts,
        };
        html! {
            <Slider id={format!("ex3-{}-attempts", layer.key())} label={layer.label()}
                unit="attempts" min={1.0} max={f64::from(MAX_ATTEMPTS)} step={1.0}
                value={f64::from(value)}
                on_change={props.on_action.reform(move |v| LayersControl::Attempts(layer, v))} />
        }
    });
    html! {
        <div class="control-grid">
            <fieldset class="choices">
                <legend>{ "Which layer retries" }</legend>
                { for radios }
            </fieldset>
            <div>{ for sliders }</div>
            <Switch id="ex3-key" label="The front end sends an idempotency key"
                on={props.setup.idempotency_key}
                on_change={props.on_action.reform(LayersControl::IdempotencyKey)} />
        </div>
    }
}

/// Properties of [`LayersResult`].
#[derive(Properties, PartialEq)]
pub struct LayersResultProps {
    pub computed: Shared<Computed<ThreeLayersRun>>,
    /// Highlight the duplicates with the key.
    pub key_shown: bool,
}

fn duplicates_column(r: &DuplicateReport) -> [String; 6] {
    [
        thousands(u64::from(r.requests)),
        thousands(u64::from(r.orders_written)),
        thousands(u64::from(r.duplicate_orders)),
        thousands(u64::from(r.customers_charged_twice)),
        thousands(r.replayed),
        thousands(u64::from(r.customers_left_unsure)),
    ]
}

/// The run of exercise 3.
#[function_component(LayersResult)]
pub fn layers_result(props: &LayersResultProps) -> Html {
    let ids = use_ids();
    let run = &props.computed.results;
    let most = run
        .choices
        .iter()
        .map(|c| c.calls_per_sec)
        .fold(run.normal_calls_per_sec, f64::max);
    let normal_at = fraction(run.normal_calls_per_sec, most) * 100.0;
    let bars = run.choices.iter().map(|c| {
        let current = c.retrying == run.current.retrying;
        let width = fraction(c.calls_per_sec, most) * 100.0;
        let attempts: Vec<String> = c.attempts_per_layer.iter().map(u32::to_string).collect();
        html! {
            <li class={classes!("load-row", current.then_some("current"))}
                id={ids.id(&format!("ex3-load-{}", retrying_key(c.retrying)))}
                aria-current={current.then_some("true")}>
                <span class="load-label">{ c.retrying.name() }</span>
                <span class="load-track">
                    <span class="load-bar" style={format!("width: {width:.2}%")}></span>
                    <span class="load-normal" style={format!("left: {normal_at:.2}%")} title="inventory's normal load"></span>
                </span>
                <span class="load-value">
                    <strong>{ format!("{} calls/s", thousands(c.calls_per_sec.round() as u64)) }</strong>
                    { format!(" ({} = {} per order; gives up after {})",
                        attempts.join(" × "), c.calls_per_order, fmt_ms(c.time_to_give_up)) }
                </span>
            </li>
        }
    });
    let without = duplicates_column(&run.without_key);
    let with = duplicates_column(&run.with_key);
    let labels = [
        "POST /orders requests",
        "orders written",
        "duplicate orders",
        "customers charged twice or more",
        "repeats answered from the key's store",
        "customers who never got an answer",
    ];
    let key_class = |with_key: bool| classes!((with_key == props.key_shown).then_some("current"));
    let rows = labels.iter().enumerate().map(|(i, label)| {
        html! {
            <tr>
                <th scope="row">{ *label }</th>
                <td class={key_class(false)}>{ &without[i] }</td>
                <td class={key_class(true)}>{ &with[i] }</td>
            </tr>
        }
    });
    let shown = if props.key_shown {
        &run.with_key
    } else {
        &run.without_key
    };

    html! {
        <div class="exercise-run-result">
            <figure class="exercise-figure">
                <ul class="load-bars" id={ids.id("ex3-load")}>{ for bars }</ul>
                <figcaption>
                    { format!("Calls per second reaching the dead inventory, for each choice of retrying layer. The thin mark is its normal load: {} calls/s, one per order.",
                        thousands(run.normal_calls_per_sec.round() as u64)) }
                </figcaption>
            </figure>
            <p class="exercise-summary" id={ids.id("ex3-duplicates")}
                data-duplicates={shown.duplicate_orders.to_string()}>
                { format!("{}: {} duplicate orders among {}.",
                    if props.key_shown { "With the key" } else { "Without a key" },
                    thousands(u64::from(shown.duplicate_orders)),
                    thousands(u64::from(shown.orders_meant))) }
            </p>
            <WideTable label="Duplicate orders with and without a key">
                <table class="exercise-table" id={ids.id("ex3-duplicates-table")}>
                    <caption>{ format!("{} orders, some responses lost after the order was written; the front end retrying as chosen",
                        thousands(u64::from(run.without_key.orders_meant))) }</caption>
                    <thead>
                        <tr>
                            <th scope="col"></th>
                            <th scope="col" class={key_class(false)}>{ "no key" }</th>
                            <th scope="col" class={key_class(true)}>{ "idempotency key" }</th>
                        </tr>
                    </thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </WideTable>
        </div>
    }
}

impl super::ExerciseUi for LayersSetup {
    fn controls(&self, on_control: Callback<LayersControl>) -> Html {
        html! { <LayersControls setup={self.clone()} on_action={on_control} /> }
    }

    fn result(&self, computed: &Shared<Computed<ThreeLayersRun>>) -> Html {
        html! { <LayersResult computed={computed.clone()} key_shown={self.idempotency_key} /> }
    }
}
