//! A window's events for a component, listened to only while it asks for them.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Hands each `event` of the window to `on_event` while `listening`; the listener goes when
/// `listening` turns false or the component leaves. The first `on_event` of each listening
/// stretch is the one called: give it only handles that stay valid (state setters, node refs).
#[hook]
pub fn use_window_event<E>(event: &'static str, listening: bool, on_event: Callback<E>)
where
    E: JsCast + 'static,
{
    use_effect_with(listening, move |&listening| {
        let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |e: web_sys::Event| {
            if let Ok(e) = e.dyn_into::<E>() {
                on_event.emit(e);
            }
        });
        let window = web_sys::window().filter(|_| listening);
        if let Some(w) = &window {
            let _ = w.add_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(w) = &window {
                let _ =
                    w.remove_event_listener_with_callback(event, listener.as_ref().unchecked_ref());
            }
        }
    });
}
