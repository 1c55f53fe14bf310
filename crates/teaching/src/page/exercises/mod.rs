//! The lessons' exercises on the page: each exercise's setup (in its own folder under
//! `exercises/`, named here by `setups.rs`), the charts' arithmetic (`charts.rs`) and the view
//! model every widget draws (`exercises/view.rs`, named here as `view`).

pub mod charts;
pub mod setups;
pub use crate::exercises::view;
