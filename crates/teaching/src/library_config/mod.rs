//! Configurations written for real resilience libraries, read into the playground's terms so
//! that a student can paste the settings of their own service and watch them run.

pub mod by_name;
pub mod compare;
pub mod envoy;
pub mod grpc;
mod json;
pub mod pasted;
pub mod polly;
pub mod resilience4j;
pub mod resilience4j_run;
pub mod yaml;
