//! The resilience patterns, one file per pattern. Nothing here reads a clock: every method
//! that needs the time takes `now`, in microseconds of whatever clock the caller keeps.
//!
//! Each file keeps the policy (a plain, serialisable config with the lessons' values as named
//! presets and a validating constructor) apart from the mechanism (the state that a simulator
//! drives event by event). Randomness, where a pattern needs it, comes from an `Rng` the caller
//! passes in, so a seeded run replays exactly.

pub mod adaptive_limit;
pub mod budget;
pub mod bulkhead;
pub mod circuit_breaker;
pub mod delay;
pub mod envoy_retry;
pub mod error;
pub mod fallback;
pub mod grpc_retry;
pub mod hedge;
pub mod idempotency;
pub mod load_shed;
pub mod polly_retry;
pub mod rate_limit;
pub mod retry;
pub mod retry_budget;
pub mod worst_case;

pub use adaptive_limit::{AdaptiveLimit, AdaptiveLimitConfig, LimitChange, Sample};
pub use budget::{BudgetExhausted, TimeBudget};
pub use bulkhead::{Acquire, Bulkhead, BulkheadConfig, BulkheadFull};
pub use circuit_breaker::{
    Admission, BreakerConfig, BreakerSnapshot, BreakerState, CallResult, CircuitBreaker,
    CircuitOpen, HalfOpenRule, Mode, Transition, TransitionReason, Window,
};
pub use delay::{Delay, SeenLatencies};
pub use envoy_retry::{
    backoff_interval, envoy_backoff, EnvoyRetryRules, ParsedRetryOn, RetriesInFlight, RetryLimit,
    RetryOn,
};
pub use error::ParamError;
pub use fallback::{Fallback, FallbackPolicy, Served};
pub use grpc_retry::{GrpcBackoff, RetryThrottle, StatusCode, ThrottleConfig};
pub use hedge::{HedgeOutcome, HedgePlan, HedgePolicy, Hedger, NotIdempotent};
pub use idempotency::{IdempotencyConfig, IdempotencyStore, Lookup};
pub use load_shed::{LoadShedConfig, LoadShedder, Priority, Shed};
pub use polly_retry::{BackoffType, JitterState, PollyDelay};
pub use rate_limit::{TokenBucket, TokenBucketConfig};
pub use retry::{CallError, GiveUpReason, Jitter, Retry, RetryDecision, RetryEvent, RetryPolicy};
pub use retry_budget::{RetryBudget, RetryBudgetConfig};
pub use worst_case::{Backoff, LayerStorm, Segment, WorstCase, WorstCaseInput};

/// Microseconds; the unit of every time in this module.
pub type Micros = u64;

/// One millisecond, in [`Micros`].
pub const MS: Micros = 1_000;

/// One second, in [`Micros`].
pub const SECOND: Micros = 1_000_000;
