//! The Controls region: the load and inventory knobs, then one group per pattern with its
//! switch and its knobs (a slider with a number field, or a select for a choice of names).

use yew::prelude::*;

use super::controls::{Choice, Slider, Switch};
use crate::page::action::Action;
use crate::page::knobs::{Knob, Pattern, Patterns, KNOBS};
use crate::sim::model::SimConfig;

/// Properties of [`KnobPanel`].
#[derive(Properties, PartialEq)]
pub struct KnobPanelProps {
    /// The parameters, every pattern present.
    pub full: SimConfig,
    /// Which patterns are on.
    pub patterns: Patterns,
    pub on_action: Callback<Action>,
}

/// The control of one knob: a slider with its number field, or a select for a choice.
pub(super) fn slider(
    knob: &'static Knob,
    full: &SimConfig,
    disabled: bool,
    on_action: &Callback<Action>,
) -> Html {
    html! {
        <KnobControl key={knob.key} knob={KnobRef(knob)} value={knob.read(full)} {disabled}
            on_action={on_action.clone()} />
    }
}

/// A knob of the table, equal to another when it is the same row.
#[derive(Clone, Copy)]
struct KnobRef(&'static Knob);

impl PartialEq for KnobRef {
    fn eq(&self, other: &KnobRef) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

#[derive(Properties, PartialEq)]
struct KnobControlProps {
    knob: KnobRef,
    value: f64,
    disabled: bool,
    on_action: Callback<Action>,
}

/// One knob's control, a component of its own so that moving one slider renders that one
/// alone: the others' properties are unchanged (the page's callback lives as long as it does).
#[function_component(KnobControl)]
fn knob_control(props: &KnobControlProps) -> Html {
    let knob = props.knob.0;
    let key = knob.key;
    let disabled = props.disabled;
    let on_change = props
        .on_action
        .reform(move |v: f64| Action::SetKnob(key, v));
    if knob.is_choice() {
        let value = props.value.round().max(0.0) as usize;
        return html! {
            <Choice id={key} label={knob.panel.label} options={knob.choices()} {value}
                hint={AttrValue::from(knob.hint())} {disabled} {on_change} />
        };
    }
    html! {
        <Slider id={key} label={knob.panel.label} unit={knob.panel.unit.symbol()}
            min={knob.panel.min} max={knob.panel.max} step={knob.panel.step} value={props.value}
            hint={AttrValue::from(knob.hint())} {disabled} {on_change} />
    }
}

/// Every knob, grouped, with a switch per pattern.
#[function_component(KnobPanel)]
pub fn knob_panel(props: &KnobPanelProps) -> Html {
    let unpatterned = KNOBS
        .iter()
        .filter(|k| k.pattern().is_none())
        .map(|k| slider(k, &props.full, false, &props.on_action));
    let groups = Pattern::SWITCHES.iter().map(|&pattern| {
        let on = props.patterns.get(pattern);
        let on_change = props
            .on_action
            .reform(move |v: bool| Action::SetPattern(pattern, v));
        let id = format!("switch-{}", pattern.key());
        let knobs = KNOBS
            .iter()
            .filter(|k| k.pattern() == Some(pattern))
            .map(|k| slider(k, &props.full, !on, &props.on_action));
        html! {
            <fieldset class="pattern" key={pattern.key()}>
                <legend><Switch id={id} label={pattern.label()} {on} {on_change} /></legend>
                { for knobs }
            </fieldset>
        }
    });
    html! {
        <>
            <fieldset class="pattern">
                <legend>{ "Load and inventory" }</legend>
                { for unpatterned }
            </fieldset>
            { for groups }
        </>
    }
}
