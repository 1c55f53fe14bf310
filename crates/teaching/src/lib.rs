//! The teaching logic, browser-free and tested on the host: the page's state and its rooms,
//! the guided lessons, the exercises, the explorers, embedding, the charts' models and
//! Resilience4j's YAML. It reads runs of the simulator and never draws them.

pub use resilience_sim::{resilience, sim, sort};

pub mod exercises;
pub mod library_config;
pub mod page;
