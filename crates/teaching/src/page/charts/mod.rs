//! The charts' models: axes, markers, the breaker's labels, histograms, the pool, the topology, the lesson's table, a zoo preset's feedback loop, and the words, looks and numbers every view shares.

pub mod axis;
pub mod breaker_labels;
pub mod chart_table;
pub mod feedback_loop;
pub mod glossary;
pub mod hatch;
pub mod latency;
pub mod markers;
pub mod numbers;
pub mod outcome_look;
pub mod pool;
pub mod topology;
