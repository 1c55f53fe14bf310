//! The resilience patterns of distributed systems as pure state machines, one file per
//! pattern, each policy apart from its mechanism. Nothing here reads a clock or knows of a
//! simulator or a browser: `now` and the rng are passed in.

pub mod resilience;
