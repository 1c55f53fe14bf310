//! The page: Yew function components, one view per file, state in one reducer.

mod app;
mod controls;
mod exercises;
mod histogram;
mod ids;
mod knob_panel;
mod lesson_table;
mod load_chart;
mod palette;
mod playback;
mod share;
mod state;
mod state_diagram;
mod timeline;
mod toolbar;
mod topology;

pub use app::App;
pub use exercises::ExerciseView;

use wasm_bindgen::JsValue;

/// The id of the element the full playground mounts into. Namespaced, because course pages
/// often have an `#app` of their own.
pub const ROOT_ID: &str = "resilience-app";

/// Entry point of the page: routes panics to the console and mounts the playground when the
/// page has its root element.
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!(
            "resilience-playground panicked: {info}"
        )));
    }));
    let Some(window) = web_sys::window() else {
        return;
    };
    let _ = js_sys::Reflect::set(
        &window,
        &JsValue::from_str("__resiliencePlaygroundStarted"),
        &JsValue::TRUE,
    );
    let Some(root) = window
        .document()
        .and_then(|document| document.get_element_by_id(ROOT_ID))
    else {
        return;
    };
    root.set_inner_html("");
    yew::Renderer::<App>::with_root(root).render();
}
