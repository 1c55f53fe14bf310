//! What a user switches on: each resilience pattern the simulator has, by one name. A pattern
//! is a layer of a dependency's stack (and the stack's order lists them) or a guard at the
//! door of `orders`; the parameter table switches each on with its defaults, written once
//! ([`crate::sim::params::Part::switch_on`]).

use serde::{Deserialize, Serialize};

/// A resilience pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// A timeout on each attempt, cut to what is left of the request budget.
    Timeout,
    /// Retries of a failed call, with back-off and jitter.
    Retry,
    /// A budget shared by every request's retries. It has no place of its own in a stack's
    /// order: the retry layer asks it before each retry.
    RetryBudget,
    /// A circuit breaker around the call.
    Breaker,
    /// A bulkhead: a permit per call in flight.
    Bulkhead,
    /// An Envoy sidecar retrying each try with a per-try timeout.
    Sidecar,
    /// A hedge: another copy of a slow try, the first answer wins.
    Hedge,
    /// Load shedding by priority at the door of `orders`.
    LoadShed,
    /// A rate limit at the door of `orders`: a token bucket, 429 with `Retry-After`.
    RateLimit,
    /// An adaptive concurrency limit on the calls in flight (AIMD on latency). Like the retry
    /// budget it has no place in the order list: it sits outside every other layer.
    AdaptiveLimit,
}

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 10] = [
        Pattern::Timeout,
        Pattern::Retry,
        Pattern::RetryBudget,
        Pattern::Breaker,
        Pattern::Bulkhead,
        Pattern::Sidecar,
        Pattern::Hedge,
        Pattern::LoadShed,
        Pattern::RateLimit,
        Pattern::AdaptiveLimit,
    ];

    /// The patterns the page's panel switches, in its order (the sidecar is set by its keys
    /// only: it is exercise 3's, not a pattern the playground offers on its own).
    pub const SWITCHES: [Pattern; 9] = [
        Pattern::Timeout,
        Pattern::Retry,
        Pattern::RetryBudget,
        Pattern::Breaker,
        Pattern::Bulkhead,
        Pattern::LoadShed,
        Pattern::RateLimit,
        Pattern::Hedge,
        Pattern::AdaptiveLimit,
    ];

    /// Its key in links (`patterns=timeout,retries`) and element ids.
    pub fn key(self) -> &'static str {
        match self {
            Pattern::Timeout => "timeout",
            Pattern::Retry => "retries",
            Pattern::RetryBudget => "retry_budget",
            Pattern::Breaker => "breaker",
            Pattern::Bulkhead => "bulkhead",
            Pattern::Sidecar => "sidecar",
            Pattern::Hedge => "hedge",
            Pattern::LoadShed => "load_shed",
            Pattern::RateLimit => "rate_limit",
            Pattern::AdaptiveLimit => "adaptive_limit",
        }
    }

    /// Its name on a switch.
    pub fn label(self) -> &'static str {
        match self {
            Pattern::Timeout => "Timeout",
            Pattern::Retry => "Retries",
            Pattern::RetryBudget => "Retry budget",
            Pattern::Breaker => "Circuit breaker",
            Pattern::Bulkhead => "Bulkhead",
            Pattern::Sidecar => "Sidecar retries",
            Pattern::Hedge => "Hedging",
            Pattern::LoadShed => "Load shedding",
            Pattern::RateLimit => "Rate limit",
            Pattern::AdaptiveLimit => "Adaptive concurrency limit",
        }
    }

    /// Its name inside a sentence (`inventory's circuit breaker`, `no retry budget`).
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Timeout => "timeout",
            Pattern::Retry => "retries",
            Pattern::RetryBudget => "retry budget",
            Pattern::Breaker => "circuit breaker",
            Pattern::Bulkhead => "bulkhead",
            Pattern::Sidecar => "sidecar",
            Pattern::Hedge => "hedge",
            Pattern::LoadShed => "load shedding",
            Pattern::RateLimit => "rate limit",
            Pattern::AdaptiveLimit => "adaptive concurrency limit",
        }
    }

    /// True for a layer of a dependency's stack; false for a guard at the door of `orders`.
    pub fn is_a_layer(self) -> bool {
        !matches!(self, Pattern::LoadShed | Pattern::RateLimit)
    }
}
