//! The inputs every panel uses: a labelled slider with an exact numeric field, a labelled
//! choice of a few names, and a switch.

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::ids::use_ids;

/// Properties of a [`Slider`].
#[derive(Properties, PartialEq, Clone)]
pub struct SliderProps {
    /// Element id, also what the label points at.
    pub id: AttrValue,
    /// What the screen reader and the student read.
    pub label: AttrValue,
    /// Unit shown after the number.
    pub unit: AttrValue,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    pub value: f64,
    /// Called with a value already inside `min..=max`.
    pub on_change: Callback<f64>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    /// Greyed out (its pattern is switched off).
    #[prop_or_default]
    pub disabled: bool,
}

/// A number field's accessible name: the label, with the unit when there is one.
fn labelled(label: &str, unit: &str) -> String {
    if unit.trim().is_empty() {
        label.to_string()
    } else {
        format!("{label} ({unit})")
    }
}

/// A slider and a number field kept in step; a value outside the range is clamped and the
/// student is told the range.
#[function_component(Slider)]
pub fn slider(props: &SliderProps) -> Html {
    let ids = use_ids();
    let notice = use_state(|| None::<String>);
    let on_input = {
        let props = props.clone();
        let notice = notice.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let parsed: Option<f64> = input
                .value()
                .trim()
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite());
            match parsed {
                Some(v) if (props.min..=props.max).contains(&v) => {
                    notice.set(None);
                    props.on_change.emit(v);
                }
                Some(v) => {
                    let clamped = v.clamp(props.min, props.max);
                    notice.set(Some(format!(
                        "{} must be between {} and {} {}; using {}.",
                        props.label, props.min, props.max, props.unit, clamped
                    )));
                    input.set_value(&clamped.to_string());
                    props.on_change.emit(clamped);
                }
                None => {
                    notice.set(Some(format!(
                        "{} needs a number between {} and {} {}.",
                        props.label, props.min, props.max, props.unit
                    )));
                    input.set_value(&props.value.to_string());
                }
            }
        })
    };
    let number_id = ids.id(&format!("{}-number", props.id));
    html! {
        <div class={classes!("control", props.disabled.then_some("off"))}>
            <label for={ids.id(&props.id)}>{ &props.label }</label>
            <div class="inputs">
                <input type="range" id={ids.id(&props.id)} disabled={props.disabled}
                    min={props.min.to_string()} max={props.max.to_string()} step={props.step.to_string()}
                    value={props.value.to_string()}
                    oninput={on_input.reform(|e: InputEvent| Event::from(e))}
                    onchange={on_input.clone()} />
                <input type="number" id={number_id} disabled={props.disabled}
                    aria-label={labelled(&props.label, &props.unit)}
                    min={props.min.to_string()} max={props.max.to_string()} step={props.step.to_string()}
                    value={props.value.to_string()}
                    onchange={on_input} />
                <span class="unit">{ &props.unit }</span>
            </div>
            if let Some(hint) = &props.hint {
                <p class="hint">{ hint }</p>
            }
            if let Some(text) = &*notice {
                <p class="notice" role="alert">{ text }</p>
            }
        </div>
    }
}

/// Properties of a [`Choice`].
#[derive(Properties, PartialEq, Clone)]
pub struct ChoiceProps {
    /// Element id, also what the label points at.
    pub id: AttrValue,
    /// What the screen reader and the student read.
    pub label: AttrValue,
    /// The names offered, in order.
    pub options: &'static [&'static str],
    /// Index of the name picked.
    pub value: usize,
    /// Called with the index of the name picked.
    pub on_change: Callback<f64>,
    #[prop_or_default]
    pub hint: Option<AttrValue>,
    /// Greyed out (its pattern is switched off).
    #[prop_or_default]
    pub disabled: bool,
}

/// A select of a few names; its value is the index of the one picked, so it travels as any
/// other knob's number does.
#[function_component(Choice)]
pub fn choice(props: &ChoiceProps) -> Html {
    let ids = use_ids();
    let onchange = props.on_change.reform(|e: Event| {
        let select: HtmlSelectElement = e.target_unchecked_into();
        // Every option's value is its index; the page clamps anything else.
        select.value().parse::<f64>().unwrap_or(f64::NAN)
    });
    html! {
        <div class={classes!("control", props.disabled.then_some("off"))}>
            <label for={ids.id(&props.id)}>{ &props.label }</label>
            <div class="inputs">
                <select id={ids.id(&props.id)} disabled={props.disabled} {onchange}>
                    { for props.options.iter().enumerate().map(|(i, name)| html! {
                        <option value={i.to_string()} selected={i == props.value}>{ *name }</option>
                    }) }
                </select>
            </div>
            if let Some(hint) = &props.hint {
                <p class="hint">{ hint }</p>
            }
        </div>
    }
}

/// Properties of a [`Switch`].
#[derive(Properties, PartialEq, Clone)]
pub struct SwitchProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub on: bool,
    pub on_change: Callback<bool>,
}

/// An on/off switch (a checkbox with the switch role, so screen readers say "on" and "off").
#[function_component(Switch)]
pub fn switch(props: &SwitchProps) -> Html {
    let ids = use_ids();
    let onchange = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            cb.emit(input.checked());
        })
    };
    html! {
        <label class="switch" for={ids.id(&props.id)}>
            <input type="checkbox" role="switch" id={ids.id(&props.id)} checked={props.on} {onchange} />
            <span>{ &props.label }</span>
        </label>
    }
}
