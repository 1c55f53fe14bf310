//! The playground page's module (`playground-page.js`): the playground's views alone. Its two
//! explorers come from the explorers module when the student starts one
//! (src/bin/widget_explorers.rs); the whole module (`resilience-playground`, src/main.rs) serves
//! the other widgets.

#[cfg(target_arch = "wasm32")]
fn main() {
    use resilience_playground::ui;
    ui::start_playground(ui::Glue::Playground, ui::EXPLORERS_ON_DEMAND);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("playground-page");
}
