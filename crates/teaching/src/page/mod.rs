//! The pages without the browser, a folder per product: the playground (its state, knobs,
//! links, A/B), the lessons, the explorers, what embedding takes (widgets, snippets, the join
//! code) and the charts' models every view shares. Pure and tested on the host; `ui/` only
//! draws them. The exercises are a module of their own beside this one
//! (`crate::exercises`: each from its logic to its view model), which uses the page and is
//! not used by it.

pub mod charts;
pub mod embedding;
pub mod explorers;
pub mod json;
pub mod lessons;
pub mod playground;

// The old paths (`crate::page::state`) still name each module.
pub use charts::{
    axis, breaker_labels, chart_table, feedback_loop, glossary, hatch, latency, markers, numbers,
    outcome_look, pool, topology,
};
pub use embedding::{embed, join, site, widget, widget_look};
pub use explorers::{jitter, libraries, metastability, metastability_wire};
pub use playground::{
    action, announce, compare, export, knobs, life_story, permalink, playback, replay, requests,
    runs, settings, state, traced, view,
};
