//! The libraries module (`widget-libraries.js`): "Four libraries, one failure" and nothing
//! else, with the four libraries' readers, for course pages that show it and for the
//! playground's page when the student opens it (`widgets.js` picks it). The explorers' module
//! stays without the readers.

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_widgets!(resilience_playground::ui::LibraryKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("widget-libraries");
}
