//! The pages without the browser, a folder per product: the playground (its state, knobs,
//! links, A/B), the lessons, the exercises, the explorers, what embedding takes (widgets,
//! snippets, the join code) and the charts' models every view shares. Pure and tested on the
//! host; `ui/` only draws them.

pub mod charts;
pub mod embedding;
pub mod exercises;
pub mod explorers;
pub mod json;
pub mod lessons;
pub mod playground;

// The old paths (`crate::page::state`, `crate::page::exercise_setups`) still name each module.
pub use charts::{
    axis, breaker_labels, chart_table, feedback_loop, glossary, hatch, latency, markers, numbers,
    outcome_look, pool, topology,
};
pub use embedding::{embed, join, site, widget, widget_look};
pub use exercises::{charts as exercise_charts, setups as exercise_setups, view as exercise_view};
pub use explorers::{jitter, libraries, metastability, metastability_wire};
pub use playground::{
    action, announce, compare, export, knobs, life_story, permalink, playback, replay, requests,
    runs, settings, state, traced, view,
};
