//! The charts module (`widget-charts.js`): the widgets that show one run (circuit diagram,
//! histogram, lesson table) and nothing else, for course pages whose widgets are all of these
//! (`widgets.js` picks it). Every other widget kind is the whole module's (src/main.rs).

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_widgets!(resilience_playground::ui::ChartKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("widget-charts");
}
