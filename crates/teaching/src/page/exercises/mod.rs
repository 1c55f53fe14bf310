//! The lessons' exercises on the page: each exercise's setup (`setups.rs`), its charts' arithmetic (`charts.rs`) and the view model the widget draws (`view.rs`).

pub mod charts;
pub mod setups;
pub mod view;
