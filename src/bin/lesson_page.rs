//! The lesson page's module (`lesson-page.js`): the guided lessons' views alone. The whole module
//! (`resilience-playground`, src/main.rs) serves the widgets.

#[cfg(target_arch = "wasm32")]
fn main() {
    resilience_playground::ui::start_lesson();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("lesson-page");
}
