//! The discrete-event simulator of the cascade: the rooms of the simulated world in virtual
//! time from one seeded stream, the parameter table, the presets, the trace. It depends on the
//! patterns alone; nothing here knows there is a browser or a page.

pub use resilience_patterns::resilience;

pub mod sim;
pub mod sort;
