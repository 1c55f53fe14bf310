//! The exercises module (`widget-exercises.js`): the lessons' four exercises as widgets, for
//! the exercises' page and course pages whose widgets are all exercises (`widgets.js` picks
//! it). It holds no lesson, explorer or playground, which other modules draw.

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_widgets!(resilience_playground::ui::ExerciseKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("widget-exercises");
}
