//! Work done a slice per animation frame, so the page keeps drawing between slices: the jitter
//! sweep, and the metastability explorer when no Web Worker can run it.

use std::cell::Cell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// While `working`, calls `on_frame` at the next animation frame; the view's state then moves
/// `progress`, which asks for the frame after. Unmounting, or `working` turning false, cancels
/// the frame asked for.
#[hook]
pub fn use_frame_work(working: bool, progress: u64, on_frame: Callback<()>) {
    use_effect_with((working, progress), move |&(working, _)| {
        let handle = Rc::new(Cell::new(None::<i32>));
        if working {
            let frame = Closure::once_into_js(move |_: f64| on_frame.emit(()));
            if let Some(w) = web_sys::window() {
                handle.set(w.request_animation_frame(frame.unchecked_ref()).ok());
            }
        }
        move || {
            if let (Some(w), Some(h)) = (web_sys::window(), handle.get()) {
                let _ = w.cancel_animation_frame(h);
            }
        }
    });
}
