//! Resilience Playground: the resilience patterns of distributed systems as pure state
//! machines, a deterministic simulator of the cascade they stop, and (in the browser) the
//! views that replay it.
//!
//! Data flows one way: config -> [`resilience`] (pure state machines, `now` passed in) ->
//! [`sim`] (virtual time, seeded) -> trace -> `ui` (wasm only).

//!
//! The layers are crates, so Cargo keeps the flow one way: `resilience-patterns` (no
//! dependency) <- `resilience-sim` <- `resilience-teaching` <- this crate (the browser's views
//! and the binaries). Their modules are re-exported here under the names they always had.

pub use resilience_teaching::{exercises, library_config, page, resilience, sim, sort};

#[cfg(target_arch = "wasm32")]
pub mod ui;

/// A module of one family of widgets (`src/bin/widget_*.rs`): in the browser it exports
/// `mountWidget` for the kinds `ui::$kinds` holds (`export_widgets!`); started in a terminal,
/// it says where the page is.
#[macro_export]
macro_rules! widget_family_module {
    ($kinds:ident, $name:literal) => {
        #[cfg(target_arch = "wasm32")]
        mod web {
            $crate::export_widgets!($crate::ui::$kinds);
        }

        #[cfg(target_arch = "wasm32")]
        fn main() {}

        #[cfg(not(target_arch = "wasm32"))]
        fn main() {
            $crate::not_a_terminal_program($name);
        }
    };
}

/// What the page's binaries do when started in a terminal: say where the page and the
/// simulator's command line are.
#[cfg(not(target_arch = "wasm32"))]
pub fn not_a_terminal_program(name: &str) {
    eprintln!(
        "{name} is part of the web page; build it with `trunk build` or run `make serve`.\n\
         For the simulator on the command line, run `cargo run --bin cascade -- --help`."
    );
}
