//! The web entry point: mounts the playground when the page has its root element, and gives
//! `widgets.js` the function that mounts a widget.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts widget number `number` of the page into `host`; see
    /// `resilience_playground::ui::mount_widget`.
    #[wasm_bindgen(js_name = mountWidget)]
    pub fn mount_widget(
        host: web_sys::Element,
        attributes: &str,
        playground_url: &str,
        number: u32,
    ) {
        resilience_playground::ui::mount_widget(host, attributes, playground_url, number);
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
