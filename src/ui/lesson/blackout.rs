//! A presenter's black screen: `b` or `.` (the keys presentation software and clickers use)
//! blacks the whole screen; any key, or a click, brings the same step back.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

/// Whether the screen is black, and the callback that brings it back. The keys are read
/// before any other handler (on the window, capturing), so a key that ends the black screen
/// does nothing else; `active` is false in a widget, which leaves the course page's keys alone.
#[hook]
pub fn use_blackout(active: bool) -> (bool, Callback<()>) {
    let black = use_state_eq(|| false);
    let now = use_mut_ref(|| false);
    {
        let black = black.setter();
        let now = now.clone();
        use_effect_with(active, move |&active| {
            let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                let dark = *now.borrow();
                if !dark && !asks_for_black(&e) {
                    return;
                }
                e.prevent_default();
                e.stop_immediate_propagation();
                *now.borrow_mut() = !dark;
                black.set(!dark);
            });
            let window = web_sys::window().filter(|_| active);
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback_and_bool(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                    true,
                );
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback_and_bool(
                        "keydown",
                        listener.as_ref().unchecked_ref(),
                        true,
                    );
                }
            }
        });
    }
    let back = {
        let black = black.setter();
        Callback::from(move |()| {
            *now.borrow_mut() = false;
            black.set(false);
        })
    };
    (*black, back)
}

/// `b` or `.` alone, outside a field where they are text.
fn asks_for_black(e: &KeyboardEvent) -> bool {
    if e.ctrl_key() || e.meta_key() || e.alt_key() || !matches!(e.key().as_str(), "b" | "B" | ".") {
        return false;
    }
    let typing = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| match el.tag_name().as_str() {
            "TEXTAREA" | "SELECT" => true,
            "INPUT" => !matches!(
                el.get_attribute("type").as_deref(),
                Some("checkbox" | "radio" | "range" | "button")
            ),
            _ => el.closest("[contenteditable]").ok().flatten().is_some(),
        });
    !typing
}
