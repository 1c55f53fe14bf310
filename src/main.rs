//! The web entry point: mounts the playground when the page has its root element.

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
