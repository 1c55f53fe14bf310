//! The whole module (`resilience-playground.js`): mounts the playground or the lesson, whichever
//! root element the page has (inside the metastability explorer's Web Worker there is no page,
//! and nothing is mounted), and gives `widgets.js` the function that mounts a widget of any
//! kind. The playground's and the lesson's pages load smaller modules of their own
//! (src/bin/playground_page.rs, lesson_page.rs).

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_metastability_cell!();
    resilience_playground::export_widgets!(resilience_playground::ui::AllKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {
    resilience_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("resilience-playground");
}
