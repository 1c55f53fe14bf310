//! The web entry point: mounts the playground when the page has its root element (inside the
//! metastability explorer's Web Worker there is no page, and nothing is mounted), gives
//! `widgets.js` the function that mounts a widget, and the worker the one that runs a cell.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// A mounted widget, for `widgets.js` to unmount when the element's attributes change.
    #[wasm_bindgen]
    pub struct WidgetHandle(Option<yew::AppHandle<resilience_playground::ui::Widget>>);

    #[wasm_bindgen]
    impl WidgetHandle {
        /// Unmounts the widget (its timers and listeners go with it); twice is harmless.
        pub fn destroy(&mut self) {
            if let Some(app) = self.0.take() {
                app.destroy();
            }
        }
    }

    /// The metastability explorer's worker (`metastability-worker.js`) calls this for each
    /// cell: a request line in, a reply line out; see
    /// `resilience_playground::page::metastability_wire`.
    #[wasm_bindgen(js_name = metastabilityCell)]
    pub fn metastability_cell(request: &str) -> String {
        resilience_playground::page::metastability_wire::answer(request)
    }

    /// Mounts widget number `number` of the page into `host`; see
    /// `resilience_playground::ui::mount_widget`.
    #[wasm_bindgen(js_name = mountWidget)]
    pub fn mount_widget(
        host: web_sys::Element,
        attributes: &str,
        playground_url: &str,
        number: u32,
    ) -> WidgetHandle {
        WidgetHandle(Some(resilience_playground::ui::mount_widget(
            host,
            attributes,
            playground_url,
            number,
        )))
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    resilience_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!(
        "resilience-playground is the web page; build it with `trunk build` or run `make serve`.\n\
         For the simulator on the command line, run `cargo run --bin cascade -- --help`."
    );
}
