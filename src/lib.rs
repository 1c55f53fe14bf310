//! Resilience Playground: the resilience patterns of distributed systems as pure state
//! machines, a deterministic simulator of the cascade they stop, and (in the browser) the
//! views that replay it.
//!
//! Data flows one way: config -> [`resilience`] (pure state machines, `now` passed in) ->
//! [`sim`] (virtual time, seeded) -> trace -> `ui` (wasm only).

pub mod exercises;
pub mod library_config;
pub mod page;
pub mod resilience;
pub mod sim;
pub mod sort;

#[cfg(target_arch = "wasm32")]
pub mod ui;
