//! The page: Yew function components, one view per file, state in one reducer.

mod app;
mod canvas;
mod controls;
mod drawer;
mod exercises;
mod histogram;
mod ids;
mod knob_panel;
mod lesson;
mod lesson_table;
mod load_chart;
mod palette;
mod playback;
mod regions;
mod share;
mod state;
mod state_diagram;
mod timeline;
mod toolbar;
mod topology;
mod widget;

pub use app::App;
pub use exercises::ExerciseView;
pub use widget::Widget;

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
    let document = window.document();
    if let Some(root) = document
        .as_ref()
        .and_then(|d| d.get_element_by_id(lesson::LESSON_ROOT_ID))
    {
        root.set_inner_html("");
        yew::Renderer::<lesson::LessonApp>::with_root(root).render();
        return;
    }
    let Some(root) = document.and_then(|document| document.get_element_by_id(ROOT_ID)) else {
        return;
    };
    root.set_inner_html("");
    yew::Renderer::<App>::with_root(root).render();
}

/// Mounts one widget into `host` (a `<resilience-widget>` element, or `embed.html`'s root),
/// described by its attributes as a query string. `playground_url` is the full playground's
/// address for the widget's "open in the playground" link. Never fails: bad attributes become
/// notices inside the widget. The handle unmounts it (to mount it again with new attributes).
pub fn mount_widget(
    host: web_sys::Element,
    attributes: &str,
    playground_url: &str,
) -> yew::AppHandle<widget::Widget> {
    thread_local! {
        static MOUNTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    }
    let n = MOUNTED.with(|m| {
        m.set(m.get() + 1);
        m.get()
    });
    let spec = crate::page::widget::WidgetSpec::from_query(attributes);
    let props = widget::WidgetProps {
        spec: crate::page::state::Shared(std::rc::Rc::new(spec)),
        scope: ids::IdScope(format!("rw{n}-").into()),
        playground_url: playground_url.to_string().into(),
    };
    host.set_inner_html("");
    yew::Renderer::<widget::Widget>::with_root_and_props(host, props).render()
}
