//! The explorers: the jitter explorer and the metastability explorer with its worker's messages.

pub mod jitter;
pub mod libraries;
pub mod metastability;
pub mod metastability_wire;
