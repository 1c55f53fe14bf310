//! A control inside a sentence ("with [96] workers ..."): the step's "Try it" knob as a number
//! the student drags sideways or steps with the arrow keys, an ARIA slider with the panel's
//! range, whose changes go through the same action (and so the same notices).

use yew::prelude::*;

use crate::page::action::Action;
use crate::page::knobs::Knob;

/// Properties of [`InlineKnob`].
#[derive(Properties, PartialEq)]
pub struct InlineKnobProps {
    /// The element id.
    pub id: AttrValue,
    /// The knob.
    pub knob: &'static Knob,
    /// Its value now, in its unit.
    pub value: f64,
    /// Where its changes go.
    pub on_action: Callback<Action>,
}

/// Pixels of a drag that make one step.
const PIXELS_PER_STEP: f64 = 8.0;

/// The knob inside its sentence.
#[function_component(InlineKnob)]
pub fn inline_knob(props: &InlineKnobProps) -> Html {
    let knob = props.knob;
    let value = props.value;
    // Where a drag started: the pointer's x and the value then.
    let drag = use_mut_ref(|| None::<(f64, f64)>);
    let set = {
        let on_action = props.on_action.clone();
        Callback::from(move |to: f64| {
            if (to - value).abs() > f64::EPSILON {
                on_action.emit(Action::SetKnob(knob.key, to));
            }
        })
    };
    let onkeydown = {
        let set = set.clone();
        Callback::from(move |e: KeyboardEvent| {
            let to = match e.key().as_str() {
                "ArrowRight" | "ArrowUp" => knob.stepped(value, 1.0),
                "ArrowLeft" | "ArrowDown" => knob.stepped(value, -1.0),
                "Home" => knob.panel.min,
                "End" => knob.panel.max,
                // PageUp / PageDown stay the clicker's: they change step.
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            set.emit(to);
        })
    };
    let onpointerdown = {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(target) = e.target_dyn_into::<web_sys::Element>() {
                let _ = target.set_pointer_capture(e.pointer_id());
            }
            *drag.borrow_mut() = Some((f64::from(e.client_x()), value));
        })
    };
    let onpointermove = {
        let (drag, set) = (drag.clone(), set.clone());
        Callback::from(move |e: PointerEvent| {
            let Some((x0, v0)) = *drag.borrow() else {
                return;
            };
            let steps = ((f64::from(e.client_x()) - x0) / PIXELS_PER_STEP).trunc();
            set.emit(knob.stepped(v0, steps));
        })
    };
    let onpointerup = {
        let drag = drag.clone();
        Callback::from(move |_: PointerEvent| *drag.borrow_mut() = None)
    };
    let text = knob.value_text(value);
    html! {
        <span id={props.id.clone()} class="inline-knob" role="slider" tabindex="0"
            aria-label={knob.panel.label} aria-valuemin={knob.panel.min.to_string()}
            aria-valuemax={knob.panel.max.to_string()} aria-valuenow={value.to_string()}
            aria-valuetext={text.clone()} title="Drag sideways, or use the arrow keys"
            {onkeydown} {onpointerdown} {onpointermove} onpointerup={onpointerup.clone()}
            onpointercancel={onpointerup}>
            <span class="inline-knob-arrow" aria-hidden="true">{ "\u{2039}" }</span>
            { text }
            <span class="inline-knob-arrow" aria-hidden="true">{ "\u{203a}" }</span>
        </span>
    }
}
