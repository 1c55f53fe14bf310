//! The discrete-event simulator: virtual time in integer microseconds, one seeded random
//! stream per run. Nothing here knows there is a browser.

pub mod config_file;
pub mod engine;
pub mod experiments;
pub mod histogram;
pub mod latency;
pub mod life;
pub mod load;
pub mod model;
pub mod params;
pub mod pattern;
pub mod pick;
pub mod scenario;
pub mod trace;
