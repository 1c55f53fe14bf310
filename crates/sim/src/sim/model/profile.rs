//! Whose semantics a dependency's stack follows: lesson 000's, or a library's. A profile
//! fixes the order the layers wrap the call in and carries the library's own settings, so
//! an order without its settings (or settings without their order) cannot be written.

use super::grpc::GrpcStack;
use super::library_rules::LibraryRules;
use super::polly::PollyStack;
use super::resilience4j::Resilience4jStack;
use crate::resilience::RetryPolicy;
use crate::sim::pattern::{Pattern, Place};

/// The stack's semantics and, with them, its order.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Profile {
    /// Lesson 000's `resilience.py`: one admission and one permit per request, the retries
    /// inside the breaker.
    #[default]
    Lesson000,
    /// Spring Boot's Resilience4j aspects, with these settings.
    Resilience4j(Resilience4jStack),
    /// A .NET client's Polly v8 pipeline, as `Microsoft.Extensions.Http.Resilience` adds it.
    Polly(PollyStack),
    /// A gRPC client's channel under a service config's retry policy and throttle.
    Grpc(GrpcStack),
}

impl Profile {
    /// Every profile's `stack=` key, in the order the `stack` parameter lists them.
    pub const KEYS: [&'static str; 4] = ["lesson", "resilience4j", "polly", "grpc"];

    /// Lesson 000's `resilience.py`, outside in: one admission and one permit per request,
    /// the retries inside the breaker, the call's own copies innermost. Each pattern's
    /// descriptor gives its place in every profile's order ([`crate::sim::model::Descriptor`]).
    pub const LESSON_000_ORDER: [Pattern; 6] = Pattern::order_of(0);

    /// Spring Boot's default aspect order for Resilience4j, outside in: Retry ->
    /// CircuitBreaker -> (RateLimiter, not simulated) -> TimeLimiter -> Bulkhead -> the call.
    /// Every attempt passes the breaker and takes a permit of its own.
    pub const RESILIENCE4J_ORDER: [Pattern; 4] = Pattern::order_of(1);

    /// Polly's pipeline as the HTTP handler adds it, outside in: Retry -> CircuitBreaker ->
    /// attempt Timeout -> (a concurrency limiter added last) -> the call. Its total-request
    /// timeout and its outermost rate limiter are not simulated.
    pub const POLLY_ORDER: [Pattern; 4] = Pattern::order_of(2);

    /// A gRPC channel's call, outside in: the deadline (`timeout`, over every attempt and
    /// wait) -> the retry policy -> the call. No breaker, no bulkhead.
    pub const GRPC_ORDER: [Pattern; 2] = Pattern::order_of(3);

    /// One of each profile, with its default settings, in [`Profile::KEYS`]' order.
    pub fn every() -> [Profile; 4] {
        [
            Profile::Lesson000,
            Profile::Resilience4j(Resilience4jStack::default()),
            Profile::Polly(PollyStack::default()),
            Profile::Grpc(GrpcStack::default()),
        ]
    }

    /// The layers it has a place for, outside in.
    pub fn order(&self) -> &'static [Pattern] {
        match self {
            Profile::Lesson000 => &Self::LESSON_000_ORDER,
            Profile::Resilience4j(_) => &Self::RESILIENCE4J_ORDER,
            Profile::Polly(_) => &Self::POLLY_ORDER,
            Profile::Grpc(_) => &Self::GRPC_ORDER,
        }
    }

    /// Its `stack=` key.
    pub fn key(&self) -> &'static str {
        Self::KEYS[self.index()]
    }

    /// Its place in [`Profile::KEYS`].
    pub fn index(&self) -> usize {
        match self {
            Profile::Lesson000 => 0,
            Profile::Resilience4j(_) => 1,
            Profile::Polly(_) => 2,
            Profile::Grpc(_) => 3,
        }
    }

    /// Its name in a sentence, and whose order the layers are in.
    pub fn order_words(&self) -> &'static str {
        match self {
            Profile::Lesson000 => "lesson 000's order",
            Profile::Resilience4j(_) => "Resilience4j's aspect order",
            Profile::Polly(_) => "Polly's pipeline order",
            Profile::Grpc(_) => "a gRPC channel's order",
        }
    }

    /// True for a library's semantics (each attempt passes the breaker and takes a permit),
    /// false for lesson 000's.
    pub fn is_library(&self) -> bool {
        !matches!(self, Profile::Lesson000)
    }

    /// The Resilience4j settings, when it is Resilience4j's.
    pub fn resilience4j(&self) -> Option<&Resilience4jStack> {
        match self {
            Profile::Resilience4j(s) => Some(s),
            _ => None,
        }
    }

    /// Whether pattern `p` has a place in a stack of this profile: every pattern in lesson
    /// 000's, a library's strategies in a library's (a guard at the door of `orders` is
    /// outside every stack).
    pub fn has_place_for(&self, p: Pattern) -> bool {
        !self.is_library() || p.describe().place == Place::Door || self.order().contains(&p)
    }

    /// The gRPC settings, when it is gRPC's.
    pub fn grpc(&self) -> Option<&GrpcStack> {
        match self {
            Profile::Grpc(s) => Some(s),
            _ => None,
        }
    }

    /// The Polly settings, when it is Polly's.
    pub fn polly(&self) -> Option<&PollyStack> {
        match self {
            Profile::Polly(s) => Some(s),
            _ => None,
        }
    }

    /// A library's rules, with the attempts and waits of `retry` (`None` for lesson 000's).
    pub(super) fn rules(&self, retry: Option<&RetryPolicy>) -> Option<LibraryRules> {
        match self {
            Profile::Lesson000 => None,
            Profile::Resilience4j(s) => Some(s.rules(retry)),
            Profile::Polly(s) => Some(s.rules(retry)),
            Profile::Grpc(s) => Some(s.rules(retry)),
        }
    }
}
