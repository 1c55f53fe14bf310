//! The explorers module (`widget-explorers.js`): the jitter sweep's and the metastability
//! grid's widgets and nothing else, for course pages whose widgets are all explorers and for the
//! playground's page when the student starts one (`widgets.js` picks it). Its worker runs this
//! module too (`metastabilityCell`).

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_metastability_cell!();
    resilience_playground::export_widgets!(resilience_playground::ui::ExplorerKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("widget-explorers");
}
