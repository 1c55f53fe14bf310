//! The whole module (`resilience-playground.js`): mounts the playground or the lesson, whichever
//! root element the page has (inside the metastability explorer's Web Worker there is no page,
//! and nothing is mounted), and gives `widgets.js` the function that mounts a widget of any
//! kind. The playground's and the lesson's pages load smaller modules of their own
//! (src/bin/playground_page.rs, lesson_page.rs).

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::wasm_bindgen;

    resilience_playground::export_metastability_cell!();

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
    resilience_playground::not_a_terminal_program("resilience-playground");
}
