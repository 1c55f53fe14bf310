//! The playground page's state and what it derives: the settings, the runs, playback and the view (`state.rs` and its rooms), the knobs, links, A/B, exports, the spoken summary and the request tracer.

pub mod action;
pub mod announce;
pub mod compare;
pub mod export;
pub mod knobs;
pub mod life_story;
pub mod permalink;
pub mod playback;
pub mod replay;
pub mod requests;
pub mod runs;
pub mod settings;
pub mod state;
pub mod traced;
pub mod view;
