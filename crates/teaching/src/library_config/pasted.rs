//! A configuration pasted into the page's box, told apart by its shape: a gRPC service config
//! (JSON with a `methodConfig` or `retryThrottling`), the options of Polly's HTTP handler (JSON
//! with a `Retry`, `CircuitBreaker`, ... section), an Envoy route and cluster (YAML naming
//! `retry_policy`, `circuit_breakers` or `outlier_detection`), or else a `resilience4j:` block.

use super::envoy::{self, EnvoySettings};
use super::grpc::{self, GrpcSettings};
use super::polly::{self, PollySettings};
use super::resilience4j::{self, Notice, Parsed};
use super::resilience4j_run;
use crate::sim::model::SimConfig;

/// One library's settings, as read from the pasted text.
#[derive(Debug, Clone, PartialEq)]
pub enum Pasted {
    Resilience4j(Parsed),
    Envoy(EnvoySettings),
    Polly(PollySettings),
    Grpc(GrpcSettings),
}

/// A pasted text as read: whose it looks like, and its settings or why they cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub struct Read {
    /// The library its shape names.
    pub library: &'static str,
    pub settings: Result<Pasted, Notice>,
}

impl Pasted {
    /// Reads `text` with the reader its shape calls for.
    pub fn read(text: &str) -> Read {
        let (library, settings) = if grpc::looks_like_grpc(text) {
            ("gRPC", grpc::parse(text).map(Pasted::Grpc))
        } else if polly::looks_like_polly(text) {
            ("Polly", polly::parse(text).map(Pasted::Polly))
        } else if envoy::looks_like_envoy(text) {
            ("Envoy", envoy::parse(text).map(Pasted::Envoy))
        } else {
            let settings = resilience4j::parse(text).map(Pasted::Resilience4j);
            ("Resilience4j", settings)
        };
        Read { library, settings }
    }

    /// The library's name, for the page's notice.
    pub fn library(&self) -> &'static str {
        match self {
            Pasted::Resilience4j(_) => "Resilience4j",
            Pasted::Envoy(_) => "Envoy",
            Pasted::Polly(_) => "Polly",
            Pasted::Grpc(_) => "gRPC",
        }
    }

    /// Puts the settings into `cfg` as that library's flag of `cascade` does: the notices, or
    /// the error naming the field the simulator cannot take.
    pub fn apply(&self, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
        match self {
            Pasted::Resilience4j(parsed) => resilience4j_run::apply(parsed, cfg),
            Pasted::Envoy(settings) => envoy::apply(settings, cfg),
            Pasted::Polly(settings) => polly::apply(settings, cfg),
            Pasted::Grpc(settings) => grpc::apply(settings, cfg),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_library_is_told_by_its_shape() {
        let grpc = r#"{"methodConfig":[{"timeout":"1s"}]}"#;
        let polly = r#"{"Retry":{"MaxRetryAttempts":2}}"#;
        let envoy = "retry_policy:\n  retry_on: 5xx\n  num_retries: 2\n";
        let r4j = "resilience4j:\n  retry:\n    instances:\n      inventoryReservation:\n        max-attempts: 3\n";
        let read: Vec<_> = [grpc, polly, envoy, r4j]
            .iter()
            .map(|t| Pasted::read(t).settings.map(|p| p.library()))
            .collect();
        assert_eq!(
            read,
            [Ok("gRPC"), Ok("Polly"), Ok("Envoy"), Ok("Resilience4j")]
        );
    }
}
