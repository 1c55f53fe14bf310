//! The playground page's module (`playground-page.js`): the playground's views alone. The whole module
//! (`resilience-playground`, src/main.rs) serves the widgets.

#[cfg(target_arch = "wasm32")]
resilience_playground::export_metastability_cell!();

#[cfg(target_arch = "wasm32")]
fn main() {
    resilience_playground::ui::start_playground(resilience_playground::ui::Glue::Playground);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("playground-page");
}
