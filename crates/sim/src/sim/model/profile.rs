//! Whose semantics a dependency's stack follows: lesson 000's, or a library's. A profile
//! fixes the order the layers wrap the call in and carries the library's own settings, so
//! an order without its settings (or settings without their order) cannot be written.

use super::resilience4j::Resilience4jStack;
use crate::sim::pattern::Pattern;

/// The stack's semantics and, with them, its order.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Profile {
    /// Lesson 000's `resilience.py`: one admission and one permit per request, the retries
    /// inside the breaker.
    #[default]
    Lesson000,
    /// Spring Boot's Resilience4j aspects, with these settings.
    Resilience4j(Resilience4jStack),
}

impl Profile {
    /// Every profile's `stack=` key, in the order the `stack` parameter lists them.
    pub const KEYS: [&'static str; 2] = ["lesson", "resilience4j"];

    /// Lesson 000's `resilience.py`, outside in: bulkhead -> breaker -> retry (+ budget) ->
    /// timeout (+ request budget) -> sidecar -> hedge -> the call.
    pub const LESSON_000_ORDER: [Pattern; 6] = [
        Pattern::Bulkhead,
        Pattern::Breaker,
        Pattern::Retry,
        Pattern::Timeout,
        Pattern::Sidecar,
        Pattern::Hedge,
    ];

    /// Spring Boot's default aspect order for Resilience4j, outside in: Retry ->
    /// CircuitBreaker -> (RateLimiter, not simulated) -> TimeLimiter -> Bulkhead -> the call.
    /// Every attempt passes the breaker and takes a permit of its own.
    pub const RESILIENCE4J_ORDER: [Pattern; 4] = [
        Pattern::Retry,
        Pattern::Breaker,
        Pattern::Timeout,
        Pattern::Bulkhead,
    ];

    /// The layers it has a place for, outside in.
    pub fn order(&self) -> &'static [Pattern] {
        match self {
            Profile::Lesson000 => &Self::LESSON_000_ORDER,
            Profile::Resilience4j(_) => &Self::RESILIENCE4J_ORDER,
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
        }
    }

    /// Its name in a sentence, and whose order the layers are in.
    pub fn order_words(&self) -> &'static str {
        match self {
            Profile::Lesson000 => "lesson 000's order",
            Profile::Resilience4j(_) => "Resilience4j's aspect order",
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
            Profile::Lesson000 => None,
        }
    }
}
