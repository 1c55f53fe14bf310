//! The playground page without the browser: its state, the knobs it offers, and how it reads a
//! trace at the playhead. Pure and tested on the host; `ui/` only draws it.

pub mod action;
pub mod announce;
pub mod axis;
pub mod breaker_labels;
pub mod chart_table;
pub mod compare;
pub mod exercise_charts;
pub mod exercise_setups;
pub mod exercise_view;
pub mod export;
pub mod glossary;
pub mod hatch;
pub mod jitter;
pub mod knobs;
pub mod latency;
pub mod lessons;
pub mod life_story;
pub mod markers;
pub mod metastability;
pub mod metastability_wire;
pub mod numbers;
pub mod permalink;
pub mod playback;
pub mod pool;
pub mod replay;
pub mod requests;
pub mod runs;
pub mod settings;
pub mod site;
pub mod state;
pub mod topology;
pub mod traced;
pub mod view;
pub mod widget;
pub mod widget_look;
