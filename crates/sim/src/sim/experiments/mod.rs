//! Experiments beside the cascade: small, published models run many times on the same event
//! queue, seeded, in virtual microseconds.

pub mod cli;
pub mod contention;
pub mod metastability;
pub mod settings;
