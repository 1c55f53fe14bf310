//! The lessons module (`widget-lessons.js`): a lesson's step as a widget, with the charts of
//! one run beside it (circuit diagram, histogram, lesson table), for course pages whose
//! widgets are all of these (`widgets.js` picks it). It holds no exercise, explorer or
//! playground, which only the whole module draws.

#[cfg(target_arch = "wasm32")]
mod web {
    resilience_playground::export_widgets!(resilience_playground::ui::LessonKinds);
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("widget-lessons");
}
