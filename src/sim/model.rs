//! The cascade as a discrete-event model. Clients send requests (evenly spaced or Poisson) on
//! three routes through an optional gateway with a connection pool; `orders` serves `/orders`
//! and order history with a pool of workers behind a FIFO queue (optionally bounded, with
//! load shedding by priority); each `/orders` request calls inventory through bulkhead ->
//! circuit breaker -> retries (+ retry budget) -> timeout (+ request budget) -> call (with an
//! optional hedge), composed from the state machines of [`crate::resilience`]. Inventory follows a fault schedule: slow
//! (and maybe failing) for calls starting strictly after `degrade_at`, fast again strictly
//! after `recover_at`. With [`CascadeConfig::payments`], an order inventory reserved goes on
//! to payments through a stack of its own: the same `DepStack` type, a second value.
//!
//! Memory does not grow with the number of requests: arrivals are generated one at a time,
//! a request's state is freed when it is over, and latencies go to histograms. Only the
//! optional per-request log grows.

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Exp};
use serde::{Deserialize, Serialize};

use super::engine::{EngineError, EventQueue, DEFAULT_EVENT_CAP};
use super::latency::{LatencyModel, Micros};
use super::trace::{
    BreakerChange, Bucket, DependencyTotals, HedgeCounts, HistogramsByOutcome, LessonPercentiles,
    OrderCounts, Outcome, OutcomeCounts, RequestRecord, Route, RouteCounts, Trace, BUCKET,
};
use crate::resilience::{
    Acquire, Admission, BreakerConfig, BreakerState, Bulkhead, BulkheadConfig, CallError,
    CallResult, CircuitBreaker, FallbackPolicy, HedgeDelay, HedgePolicy, Hedger, IdempotencyConfig,
    IdempotencyStore, Jitter, LoadShedConfig, LoadShedder, ParamError, Priority, Retry,
    RetryBudget, RetryBudgetConfig, RetryDecision, RetryPolicy, TimeBudget,
};

const SECOND: Micros = 1_000_000;
const HOUR: Micros = 3_600 * SECOND;
/// Most requests one run may send (`rate × duration`, its expected value for Poisson).
pub const MAX_REQUESTS: u64 = 1_000_000;
/// Most 100 ms buckets one trace keeps (10 000 s of virtual time); later events are counted
/// in the totals but not in the series.
pub const MAX_BUCKETS: usize = 100_000;

/// How requests arrive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// One every `1/rate` s from time 0, as the lesson's loop sends them.
    #[default]
    Even,
    /// A Poisson process of intensity `rate` (exponential gaps, from the run's seeded stream).
    Poisson,
}

/// The gateway (Kong) in front of every route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GatewayConfig {
    /// Connections towards the services (1..=100000; lesson 000: 200). A request holds one
    /// from arrival until its answer comes back or the route timeout; none free -> 503.
    pub pool: u32,
    /// The route timeout of every route without one of its own in `route_timeouts`: past it
    /// (each try of the request counts it afresh) the client gets a 504 and the connection is
    /// freed, while the service may go on working (1 ms..=3600 s; `None`: waits as long as it
    /// takes).
    #[serde(default)]
    pub route_timeout: Option<Micros>,
    /// Timeouts of single routes, overriding `route_timeout` (each 1 ms..=3600 s).
    #[serde(default)]
    pub route_timeouts: RouteTimeouts,
    /// Kong's `retries` (0..=10; Kong's default is 5, the model's 0): when a try's route
    /// timeout runs out while the client still waits, the gateway sends the request to the
    /// service again at once, on every route, `POST /orders` included (Kong retries on
    /// `error` and `timeout`, whatever the method). A 503 is not retried: the pool's is
    /// Kong's own answer, and a refusal by `orders` (shed) is an HTTP 503, which Kong's
    /// default `proxy_next_upstream error timeout` passes back.
    #[serde(default)]
    pub retries: u32,
}

/// Route timeouts of single routes (`None`: the gateway's `route_timeout`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteTimeouts {
    /// `POST /orders`.
    #[serde(default)]
    pub orders: Option<Micros>,
    /// `GET /catalog`.
    #[serde(default)]
    pub catalog: Option<Micros>,
    /// Order history.
    #[serde(default)]
    pub order_history: Option<Micros>,
}

impl GatewayConfig {
    /// A pool of `pool` connections, one route timeout for every route, no retries.
    pub fn new(pool: u32, route_timeout: Option<Micros>) -> Self {
        GatewayConfig {
            pool,
            route_timeout,
            route_timeouts: RouteTimeouts::default(),
            retries: 0,
        }
    }

    /// The route timeout of `route`: its own, else the default.
    pub fn timeout_for(&self, route: Route) -> Option<Micros> {
        let own = match route {
            Route::Orders => self.route_timeouts.orders,
            Route::Catalog => self.route_timeouts.catalog,
            Route::OrderHistory => self.route_timeouts.order_history,
        };
        own.or(self.route_timeout)
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("gateway_pool", self.pool.into(), 1, 100_000, "")?;
        let timeouts = [
            ("route_timeout", self.route_timeout),
            ("orders_timeout", self.route_timeouts.orders),
            ("catalog_timeout", self.route_timeouts.catalog),
            ("history_timeout", self.route_timeouts.order_history),
        ];
        for (field, t) in timeouts {
            if let Some(t) = t {
                ParamError::check_u64(field, t, 1_000, HOUR, "µs")?;
            }
        }
        ParamError::check_u64("gateway_retries", self.retries.into(), 0, 10, "")?;
        Ok(())
    }
}

/// A sidecar proxy (Envoy) between `orders` and inventory: it retries on its own, inside each
/// attempt of the library, with a per-try timeout (lesson 000: 2 retries, 300 ms per try,
/// back-off 50 ms to 200 ms with jitter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SidecarConfig {
    /// Retries after the first try (0..=5; Istio's default: 2).
    pub retries: u32,
    /// Each try's timeout (1 ms..=3600 s; `None`: only the library's timeout applies).
    #[serde(default)]
    pub per_try_timeout: Option<Micros>,
    /// Back-off base (1 µs..=60 s); the wait is full jitter up to `min(cap, base × 2^n)`.
    pub base: Micros,
    /// Longest back-off (base..=600 s).
    pub cap: Micros,
}

impl SidecarConfig {
    /// Lesson 000's Envoy route: 2 retries, 300 ms per try, back-off 50 ms .. 200 ms.
    pub fn lesson_000() -> Self {
        SidecarConfig {
            retries: 2,
            per_try_timeout: Some(300_000),
            base: 50_000,
            cap: 200_000,
        }
    }

    fn policy(&self) -> RetryPolicy {
        RetryPolicy {
            attempts: self.retries + 1,
            base: self.base,
            cap: self.cap,
            jitter: Jitter::Full,
        }
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("sidecar_retries", self.retries.into(), 0, 5, "")?;
        if let Some(t) = self.per_try_timeout {
            ParamError::check_u64("per_try_timeout", t, 1_000, HOUR, "µs")?;
        }
        ParamError::check_u64("sidecar_base", self.base, 1, 60 * SECOND, "µs")?;
        ParamError::check_u64("sidecar_cap", self.cap, self.base, 600 * SECOND, "µs")?;
        Ok(())
    }
}

/// A hedge on the call to inventory: inside each try, once the hedge delay has passed with no
/// answer yet, another copy of the call goes out; the first answer is used and the copies still
/// outstanding are cancelled. Only for an idempotent call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HedgeConfig {
    /// When copies go out and how many (see [`HedgePolicy`]).
    pub policy: HedgePolicy,
    /// The reservation carries an idempotency key, so inventory applies a duplicate once and
    /// the call may be hedged (default true). `false` describes a plain write, which the
    /// hedger refuses: the config is then out of range.
    #[serde(default = "idempotent_by_default")]
    pub idempotency_key: bool,
}

/// `fallback` in JSON: a [`FallbackPolicy`], `null`, or a bool as before the policy
/// (`true`: lesson 000's pending confirmation).
fn fallback_policy<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<FallbackPolicy>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Bool(bool),
        Policy(FallbackPolicy),
    }
    Ok(match Option::<Written>::deserialize(deserializer)? {
        None | Some(Written::Bool(false)) => None,
        Some(Written::Bool(true)) => Some(FallbackPolicy::reserve_stock()),
        Some(Written::Policy(p)) => Some(p),
    })
}

fn idempotent_by_default() -> bool {
    true
}

/// Idempotency keys on `POST /orders` as the front end re-sends it (off by default, and then
/// not modelled: [`Trace::orders`] is absent). With it, the simulator counts the orders
/// created and the duplicates among them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrdersIdempotency {
    /// True: every copy of one order carries the same `Idempotency-Key`, and `orders` keeps the
    /// key in an [`IdempotencyStore`]: a copy arriving while the first is being worked on waits
    /// for its answer, one arriving after gets the stored answer, neither is processed again.
    /// False: no key; a copy is processed again and may create a second order.
    pub key: bool,
    /// How long `orders` keeps a key's answer (1 s..=30 days; lesson 000: 24 h).
    #[serde(default)]
    pub store: IdempotencyConfig,
}

impl HedgeConfig {
    /// One copy more after a fixed delay.
    pub fn fixed(delay: Micros) -> Self {
        HedgeConfig {
            policy: HedgePolicy {
                delay: HedgeDelay::Fixed(delay),
                max_hedges: 1,
            },
            idempotency_key: true,
        }
    }

    /// Checks the policy (naming the `--set` keys: `hedge_delay`, `max_hedges`) and that the
    /// call may be hedged at all.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.policy.validate().map_err(|e| ParamError {
            field: match e.field {
                "max_hedges" => "max_hedges",
                _ => "hedge_delay",
            },
            ..e
        })?;
        let hedger = Hedger::new(self.policy.clone())?;
        hedger
            .plan(self.idempotency_key)
            .map_err(|refused| ParamError {
                field: "hedge",
                range: "only for an idempotent call (idempotency_key: true)".to_string(),
                value: refused.to_string(),
            })?;
        Ok(())
    }
}

/// Payments, the second dependency of `POST /orders`: called once inventory has answered
/// "reserved", through a stack of its own (bulkhead -> circuit breaker -> retries -> timeout
/// -> call), built from the same machines as inventory's. Off by default
/// ([`CascadeConfig::payments`] is `None`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentsConfig {
    /// Latency while healthy (0..=3600 s); the median when `fast_p99` is set.
    pub fast: Micros,
    /// With it, healthy latency is lognormal with median `fast` and this p99 (`fast..=3600 s`).
    #[serde(default)]
    pub fast_p99: Option<Micros>,
    /// Latency while degraded (0..=3600 s); the median when `slow_p99` is set.
    pub slow: Micros,
    /// With it, degraded latency is lognormal with median `slow` and this p99 (`slow..=3600 s`).
    #[serde(default)]
    pub slow_p99: Option<Micros>,
    /// Payments turns slow for calls starting strictly after this (0..=3600 s; `None`: never).
    #[serde(default)]
    pub degrade_at: Option<Micros>,
    /// Healthy again for calls starting strictly after this (`degrade_at..=3600 s`).
    #[serde(default)]
    pub recover_at: Option<Micros>,
    /// While degraded, the share of calls that fail with a transient error (0..=1).
    #[serde(default)]
    pub error_rate: f64,
    /// Timeout on each call (1 ms..=3600 s; `None`: waits as long as it takes).
    #[serde(default)]
    pub timeout: Option<Micros>,
    /// Its circuit breaker, if any.
    #[serde(default)]
    pub breaker: Option<BreakerConfig>,
    /// Its bulkhead, if any.
    #[serde(default)]
    pub bulkhead: Option<BulkheadConfig>,
    /// Its retries in the `orders` library, inside its breaker (attempts 1..=10).
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
}

impl Default for PaymentsConfig {
    /// A healthy payments service behind the lesson's protections: 60 ms, 2 s once degraded
    /// (never, until `degrade_at` is set), a 300 ms timeout, the lesson's breaker and a
    /// bulkhead of 8 permits; no retries.
    fn default() -> Self {
        PaymentsConfig {
            fast: 60_000,
            fast_p99: None,
            slow: 2 * SECOND,
            slow_p99: None,
            degrade_at: None,
            recover_at: None,
            error_rate: 0.0,
            timeout: Some(300_000),
            breaker: Some(BreakerConfig::lesson_000()),
            bulkhead: Some(BulkheadConfig::cascade_sim()),
            retry: None,
        }
    }
}

impl PaymentsConfig {
    /// Checks every field against its range, naming it as its `--set` key (`payments_...`).
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("payments_fast", self.fast, 0, HOUR, "µs")?;
        ParamError::check_u64("payments_slow", self.slow, 0, HOUR, "µs")?;
        if let Some(p) = self.fast_p99 {
            ParamError::check_u64("payments_fast_p99", p, self.fast.max(1), HOUR, "µs")?;
        }
        if let Some(p) = self.slow_p99 {
            ParamError::check_u64("payments_slow_p99", p, self.slow.max(1), HOUR, "µs")?;
        }
        if let Some(d) = self.degrade_at {
            ParamError::check_u64("payments_degrade_at", d, 0, HOUR, "µs")?;
        }
        if let Some(r) = self.recover_at {
            let from = self.degrade_at.unwrap_or(0);
            ParamError::check_u64("payments_recover_at", r, from, HOUR, "µs")?;
        }
        check_share("payments_error_rate", self.error_rate)?;
        if let Some(t) = self.timeout {
            ParamError::check_u64("payments_timeout", t, 1_000, HOUR, "µs")?;
        }
        let prefixed = |e: ParamError| ParamError {
            field: match e.field {
                "attempts" => "payments_attempts",
                "permits" => "payments_permits",
                "max_wait" => "payments_max_wait",
                "min_calls" => "payments_min_calls",
                "cooldown" => "payments_cooldown",
                "window" => "payments_window",
                "failure_ratio" => "payments_failure_ratio",
                _ => "payments",
            },
            ..e
        };
        if let Some(b) = &self.breaker {
            b.validate().map_err(prefixed)?;
        }
        if let Some(b) = &self.bulkhead {
            b.validate().map_err(prefixed)?;
        }
        if let Some(r) = &self.retry {
            r.validate().map_err(prefixed)?;
        }
        Ok(())
    }
}

/// Which bulkhead order-history lookups go through.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryBulkhead {
    /// None: only the workers limit them.
    #[default]
    None,
    /// The same bulkhead as the inventory calls (one shared pool: lesson 004's incident).
    Shared,
    /// A bulkhead of their own (lesson 004's fix: `orderHistoryLookup`, 20 permits).
    Own(BulkheadConfig),
}

/// Shares of requests marked high and low priority; the rest are normal.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct PriorityMix {
    /// Share marked high (0..=1).
    pub high: f64,
    /// Share marked low (0..=1, with `high + low <= 1`).
    pub low: f64,
}

/// The parameters of one cascade run. Times are microseconds. Every field added after the
/// lesson's four has a serde default, so older configs keep loading; an unknown field is an
/// error naming it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CascadeConfig {
    /// Requests per second (0.1..=10000).
    pub rate: f64,
    /// Workers in `orders` (1..=10000).
    pub threads: u32,
    /// How long requests keep arriving (1 ms..=600 s).
    pub duration: Micros,
    /// Inventory turns slow for calls starting strictly after this (0..=3600 s).
    pub degrade_at: Micros,
    /// Inventory's latency before `degrade_at` (0..=3600 s); the median when `fast_p99` is set.
    pub fast: Micros,
    /// Inventory's latency after `degrade_at` (0..=3600 s); the median when `slow_p99` is set.
    pub slow: Micros,
    /// Timeout on each call to inventory; `None` waits as long as it takes (1 ms..=3600 s).
    pub timeout: Option<Micros>,
    /// Circuit breaker around the calls (around the retries), if any.
    pub breaker: Option<BreakerConfig>,
    /// Bulkhead around the breaker, if any.
    pub bulkhead: Option<BulkheadConfig>,
    /// Seed of the run's one random stream (ChaCha8). The lesson's model draws nothing.
    pub seed: u64,
    /// True: run until every request finishes (the lesson). False: stop at `duration` and
    /// count what is left as unfinished.
    pub drain: bool,
    /// Keep one [`RequestRecord`] per request in [`Trace::requests`] (memory grows with the
    /// request count; off by default).
    #[serde(default)]
    pub record_requests: bool,
    /// Evenly spaced (the lesson) or Poisson arrivals.
    #[serde(default)]
    pub arrivals: Arrivals,
    /// With it, healthy latency is lognormal with median `fast` and this p99 (`fast..=3600 s`).
    #[serde(default)]
    pub fast_p99: Option<Micros>,
    /// With it, degraded latency is lognormal with median `slow` and this p99 (`slow..=3600 s`).
    #[serde(default)]
    pub slow_p99: Option<Micros>,
    /// Inventory is healthy again for calls starting strictly after this (`degrade_at..=3600 s`;
    /// the failover of 10:12:30).
    #[serde(default)]
    pub recover_at: Option<Micros>,
    /// While degraded, the share of calls that fail with a transient error (0..=1).
    #[serde(default)]
    pub error_rate: f64,
    /// At any time, the share of calls answered with a business "no" (0..=1; exercise 2: 0.6).
    #[serde(default)]
    pub business_error_rate: f64,
    /// Exercise 2's bug: the client treats the business "no" as a transient failure, so it
    /// counts against the breaker.
    #[serde(default)]
    pub business_errors_trip_breaker: bool,
    /// Retries in the `orders` library, inside the breaker (attempts 1..=10).
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
    /// The retry budget shared by every request's retries.
    #[serde(default)]
    pub retry_budget: Option<RetryBudgetConfig>,
    /// An Envoy sidecar retrying inside each library attempt (exercise 3's third layer).
    #[serde(default)]
    pub sidecar: Option<SidecarConfig>,
    /// Each request's time budget, from its arrival at `orders` (1 ms..=3600 s): queue wait
    /// spends it too.
    #[serde(default)]
    pub request_budget: Option<Micros>,
    /// What `POST /orders` answers when inventory cannot be used (timeout, error, breaker,
    /// bulkhead, budget): with [`FallbackPolicy::Use`], that degraded answer (the order is
    /// accepted "pending confirmation", lesson 000's `reserve_stock`, or provisional,
    /// Northwind's) instead of the failure; with [`FallbackPolicy::None`] or `None`, the
    /// failure. In JSON also `true` (lesson 000's `reserve_stock`) or `false`, as configs
    /// written before the policy said it.
    #[serde(default, deserialize_with = "fallback_policy")]
    pub fallback: Option<FallbackPolicy>,
    /// The client leaves after this long without an answer (1 ms..=3600 s); the request, if
    /// still queued, becomes stale work.
    #[serde(default)]
    pub client_give_up: Option<Micros>,
    /// Times the front end sends a request again after a failure or giving up (0..=5).
    #[serde(default)]
    pub frontend_retries: u32,
    /// Wait before a front-end retry (0..=600 s).
    #[serde(default)]
    pub frontend_backoff: Micros,
    /// The gateway in front of every route, if any.
    #[serde(default)]
    pub gateway: Option<GatewayConfig>,
    /// Share of requests that are `GET /catalog` (0..=1).
    #[serde(default)]
    pub catalog_share: f64,
    /// How long the catalog service takes (0..=3600 s).
    #[serde(default)]
    pub catalog_latency: Micros,
    /// Share of requests that are order-history lookups (0..=1, with the catalog share <= 1).
    #[serde(default)]
    pub history_share: f64,
    /// How long a history lookup takes once it holds its permit (0..=3600 s).
    #[serde(default)]
    pub history_latency: Micros,
    /// The bulkhead history lookups go through.
    #[serde(default)]
    pub history_bulkhead: HistoryBulkhead,
    /// Load shedding by priority at the door of `orders` (in flight = busy + queued).
    #[serde(default)]
    pub load_shed: Option<LoadShedConfig>,
    /// Priorities of the requests.
    #[serde(default)]
    pub priority_mix: PriorityMix,
    /// Longest the queue of `orders` may get; arrivals past it are shed (1..=10000000;
    /// `None`: unbounded, as in the lesson).
    #[serde(default)]
    pub queue_limit: Option<u64>,
    /// A hedge on each try of the inventory call (off by default).
    #[serde(default)]
    pub hedge: Option<HedgeConfig>,
    /// Idempotency keys on the front end's copies of `POST /orders`, and the count of
    /// duplicate orders (off by default).
    #[serde(default)]
    pub idempotency: Option<OrdersIdempotency>,
    /// Payments, called after inventory on `POST /orders` with a stack of its own (off by
    /// default).
    #[serde(default)]
    pub payments: Option<PaymentsConfig>,
}

impl Default for CascadeConfig {
    /// The lesson's `cascade.py` with no protection: 100 requests/s for 12 s into 32 workers,
    /// inventory 40 ms, then 4 s for calls starting after 3 s; drained. Everything added since
    /// is off.
    fn default() -> Self {
        CascadeConfig {
            rate: 100.0,
            threads: 32,
            duration: 12 * SECOND,
            degrade_at: 3 * SECOND,
            fast: 40_000,
            slow: 4 * SECOND,
            timeout: None,
            breaker: None,
            bulkhead: None,
            seed: 0,
            drain: true,
            record_requests: false,
            arrivals: Arrivals::Even,
            fast_p99: None,
            slow_p99: None,
            recover_at: None,
            error_rate: 0.0,
            business_error_rate: 0.0,
            business_errors_trip_breaker: false,
            retry: None,
            retry_budget: None,
            sidecar: None,
            request_budget: None,
            fallback: None,
            client_give_up: None,
            frontend_retries: 0,
            frontend_backoff: 0,
            gateway: None,
            catalog_share: 0.0,
            catalog_latency: 0,
            history_share: 0.0,
            history_latency: 0,
            history_bulkhead: HistoryBulkhead::None,
            load_shed: None,
            priority_mix: PriorityMix::default(),
            queue_limit: None,
            hedge: None,
            idempotency: None,
            payments: None,
        }
    }
}

fn check_share(field: &'static str, v: f64) -> Result<(), ParamError> {
    ParamError::check_f64(field, v, 0.0, 1.0, "")
}

impl CascadeConfig {
    /// Checks every field against its range, naming the first one that is off.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_f64("rate", self.rate, 0.1, 10_000.0, "requests/s")?;
        ParamError::check_u64("threads", self.threads.into(), 1, 10_000, "")?;
        ParamError::check_u64("duration", self.duration, 1_000, 600 * SECOND, "µs")?;
        ParamError::check_u64("degrade_at", self.degrade_at, 0, HOUR, "µs")?;
        ParamError::check_u64("fast", self.fast, 0, HOUR, "µs")?;
        ParamError::check_u64("slow", self.slow, 0, HOUR, "µs")?;
        if let Some(t) = self.timeout {
            ParamError::check_u64("timeout", t, 1_000, HOUR, "µs")?;
        }
        if let Some(b) = &self.breaker {
            b.validate()?;
        }
        if let Some(b) = &self.bulkhead {
            b.validate()?;
        }
        if let Some(p) = self.fast_p99 {
            ParamError::check_u64("fast_p99", p, self.fast.max(1), HOUR, "µs")?;
        }
        if let Some(p) = self.slow_p99 {
            ParamError::check_u64("slow_p99", p, self.slow.max(1), HOUR, "µs")?;
        }
        if let Some(r) = self.recover_at {
            ParamError::check_u64("recover_at", r, self.degrade_at, HOUR, "µs")?;
        }
        check_share("error_rate", self.error_rate)?;
        check_share("business_error_rate", self.business_error_rate)?;
        if let Some(r) = &self.retry {
            r.validate()?;
        }
        if let Some(r) = &self.retry_budget {
            r.validate()?;
        }
        if let Some(s) = &self.sidecar {
            s.validate()?;
        }
        if let Some(b) = self.request_budget {
            ParamError::check_u64("request_budget", b, 1_000, HOUR, "µs")?;
        }
        if let Some(g) = self.client_give_up {
            ParamError::check_u64("client_give_up", g, 1_000, HOUR, "µs")?;
        }
        ParamError::check_u64("frontend_retries", self.frontend_retries.into(), 0, 5, "")?;
        ParamError::check_u64(
            "frontend_backoff",
            self.frontend_backoff,
            0,
            600 * SECOND,
            "µs",
        )?;
        if let Some(g) = &self.gateway {
            g.validate()?;
        }
        check_share("catalog_share", self.catalog_share)?;
        check_share("history_share", self.history_share)?;
        ParamError::check_f64(
            "history_share",
            self.history_share,
            0.0,
            1.0 - self.catalog_share,
            "(catalog_share + history_share <= 1)",
        )?;
        ParamError::check_u64("catalog_latency", self.catalog_latency, 0, HOUR, "µs")?;
        ParamError::check_u64("history_latency", self.history_latency, 0, HOUR, "µs")?;
        if let HistoryBulkhead::Own(b) = &self.history_bulkhead {
            b.validate()?;
        }
        if let Some(l) = &self.load_shed {
            l.validate()?;
        }
        check_share("priority_high", self.priority_mix.high)?;
        check_share("priority_low", self.priority_mix.low)?;
        ParamError::check_f64(
            "priority_low",
            self.priority_mix.low,
            0.0,
            1.0 - self.priority_mix.high,
            "(priority_high + priority_low <= 1)",
        )?;
        if let Some(q) = self.queue_limit {
            ParamError::check_u64("queue_limit", q, 1, 10_000_000, "")?;
        }
        if let Some(h) = &self.hedge {
            h.validate()?;
        }
        if let Some(i) = &self.idempotency {
            ParamError::check_u64("idempotency_ttl", i.store.ttl, SECOND, 30 * 24 * HOUR, "µs")?;
        }
        if let Some(p) = &self.payments {
            p.validate()?;
        }
        let sent = self.requests();
        if sent > MAX_REQUESTS {
            return Err(ParamError {
                field: "rate",
                range: format!("rate × duration <= {MAX_REQUESTS} requests"),
                value: format!("{} requests/s for {} µs", self.rate, self.duration),
            });
        }
        Ok(())
    }

    /// Time between two evenly spaced arrivals, in whole microseconds (at least 1).
    pub fn interval(&self) -> Micros {
        if self.rate.is_finite() && self.rate > 0.0 {
            ((1_000_000.0 / self.rate).round() as Micros).max(1)
        } else {
            Micros::MAX
        }
    }

    /// Requests the open loop sends when evenly spaced: one at each multiple of the interval
    /// strictly before `duration` (for Poisson arrivals, the same figure is the mean).
    pub fn requests(&self) -> u64 {
        let i = self.interval();
        if i == Micros::MAX {
            return 1;
        }
        self.duration.div_ceil(i)
    }

    fn latency_model(&self, degraded: bool) -> LatencyModel {
        if degraded {
            latency(self.slow, self.slow_p99)
        } else {
            latency(self.fast, self.fast_p99)
        }
    }
}

fn latency(p50: Micros, p99: Option<Micros>) -> LatencyModel {
    match p99 {
        Some(p99) if p50 > 0 => LatencyModel::LogNormal { p50, p99 },
        _ => LatencyModel::Fixed { micros: p50 },
    }
}

/// A dependency behind `orders`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dep {
    Inventory,
    Payments,
}

/// How a dependency answers: its latencies and its fault schedule.
#[derive(Debug, Clone)]
struct Faults {
    /// Slow (and maybe failing) for calls starting strictly after this (`None`: never).
    degrade_at: Option<Micros>,
    /// Healthy again for calls starting strictly after this.
    recover_at: Option<Micros>,
    healthy: LatencyModel,
    degraded: LatencyModel,
    error_rate: f64,
    business_error_rate: f64,
}

/// The stack `orders` calls one dependency through: bulkhead -> circuit breaker -> retries
/// (+ retry budget) -> timeout -> (sidecar) -> call, with the state machines of
/// [`crate::resilience`]. Inventory's and payments' are two values of this one type.
struct DepStack {
    faults: Faults,
    timeout: Option<Micros>,
    retry: Option<RetryPolicy>,
    sidecar: Option<SidecarConfig>,
    trip_on_business: bool,
    breaker: Option<CircuitBreaker>,
    bulkhead: Option<Bulkhead>,
    retry_budget: Option<RetryBudget>,
    totals: DependencyTotals,
}

impl DepStack {
    fn inventory(cfg: &CascadeConfig) -> Result<Self, ParamError> {
        Ok(DepStack {
            faults: Faults {
                degrade_at: Some(cfg.degrade_at),
                recover_at: cfg.recover_at,
                healthy: cfg.latency_model(false),
                degraded: cfg.latency_model(true),
                error_rate: cfg.error_rate,
                business_error_rate: cfg.business_error_rate,
            },
            timeout: cfg.timeout,
            retry: cfg.retry,
            sidecar: cfg.sidecar.clone(),
            trip_on_business: cfg.business_errors_trip_breaker,
            breaker: cfg.breaker.clone().map(CircuitBreaker::new).transpose()?,
            bulkhead: cfg.bulkhead.clone().map(Bulkhead::new).transpose()?,
            retry_budget: cfg.retry_budget.clone().map(RetryBudget::new).transpose()?,
            totals: DependencyTotals::default(),
        })
    }

    fn payments(p: &PaymentsConfig) -> Result<Self, ParamError> {
        Ok(DepStack {
            faults: Faults {
                degrade_at: p.degrade_at,
                recover_at: p.recover_at,
                healthy: latency(p.fast, p.fast_p99),
                degraded: latency(p.slow, p.slow_p99),
                error_rate: p.error_rate,
                business_error_rate: 0.0,
            },
            timeout: p.timeout,
            retry: p.retry,
            sidecar: None,
            trip_on_business: false,
            breaker: p.breaker.clone().map(CircuitBreaker::new).transpose()?,
            bulkhead: p.bulkhead.clone().map(Bulkhead::new).transpose()?,
            retry_budget: None,
            totals: DependencyTotals::default(),
        })
    }

    /// The breaker's changes of state, as the Trace gives them.
    fn transitions(&self) -> Vec<BreakerChange> {
        self.breaker
            .as_ref()
            .map(|b| {
                b.transitions()
                    .iter()
                    .map(|t| BreakerChange {
                        at: t.at,
                        from: t.from,
                        to: t.to,
                        reason: t.reason,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A request's id in events: slot in the slab (low 32 bits) and the slot's generation (high
/// 32 bits), so an event for a request that is over never touches the one reusing its slot.
type Id = u64;

/// Where a request stands inside `orders`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Server {
    /// Never entered (catalog, gateway 503, shed) or not yet.
    Outside,
    /// Waiting for a worker, or a worker reserved for it.
    Queued,
    /// A worker is on it.
    Running,
    /// Its worker is free again.
    Done,
}

/// How the latest call to a dependency went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CallKind {
    Ok,
    Business,
    /// The library's timeout for this attempt ran out.
    TimedOut,
    /// The sidecar's per-try timeout ran out (the attempt still has time).
    TryTimedOut,
    Unavailable,
}

/// How the whole inventory stack (retries included) ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StackEnd {
    Ok,
    Business,
    TimedOut,
    Unavailable,
    BudgetExhausted,
}

/// Which bulkhead a request uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    Inventory,
    History,
    Payments,
}

#[derive(Debug, Clone)]
struct Request {
    arrived: Micros,
    started: Option<Micros>,
    route: Route,
    priority: Priority,
    frontend_attempt: u32,
    outcome: Option<Outcome>,
    server: Server,
    holds_connection: bool,
    record: Option<usize>,
    bulkhead: Option<Which>,
    admission: Option<Admission>,
    stack_started: Micros,
    call: CallKind,
    retry: Option<Retry>,
    budget: Option<TimeBudget>,
    /// The sidecar's retry state for the current library attempt.
    sidecar: Option<Retry>,
    /// When the current library attempt times out.
    attempt_deadline: Option<Micros>,
    /// When the current try went on the wire.
    try_started: Micros,
    /// The current try's answer came from a hedge, not from the original.
    hedge_won: bool,
    /// The order this request carries (the open loop's arrival number; the front end's copies
    /// of one order share it): the idempotency key, when there is one.
    op: u64,
    /// This copy put the key "in progress" in the store and answers for it.
    key_owner: bool,
    /// The key was found: this copy is answered from the store (or waits for the copy that
    /// owns the key) and creates no order.
    replay: bool,
    /// Tries of the gateway before this one (its retries after a route timeout).
    gateway_try: u32,
    /// The dependency the stack is calling (or last called).
    dep: Dep,
}

/// What the idempotency store holds for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyState {
    /// A copy of the order is being worked on.
    InProgress,
    /// The answer given (an order was created, or a definite "no").
    Done(Outcome),
}

/// An order that still has a copy alive or a front-end retry pending.
#[derive(Debug, Clone, Copy, Default)]
struct OpState {
    /// Copies alive plus front-end retries scheduled.
    refs: u32,
    /// Orders its copies created.
    created: u32,
}

struct Slot {
    generation: u32,
    request: Option<Request>,
}

#[derive(Debug, Clone, Copy)]
enum Event {
    /// The `n`-th request of the open loop arrives (first class: arrivals win ties).
    Arrival(u64),
    /// The front end sends a request again.
    FrontendRetry {
        route: Route,
        priority: Priority,
        attempt: u32,
        op: u64,
    },
    /// A worker reserved for the request starts on it.
    Start(Id),
    /// The request holds its bulkhead permit (or needs none): on to the breaker.
    Proceed(Id),
    /// The request's wait for a bulkhead permit has run out.
    BulkheadExpire(Id),
    /// The request's call to its dependency returns.
    CallDone(Id),
    /// The backoff before a library retry is over.
    RetryCall(Id),
    /// The backoff before a sidecar retry is over.
    SidecarTry(Id),
    /// A hedge goes out to inventory (counted when it goes, so a run stopped at `duration`
    /// counts only the hedges sent by then).
    HedgeSent,
    /// The catalog service answers.
    CatalogDone(Id),
    /// The gateway's route timeout.
    GatewayTimeout(Id),
    /// The client stops waiting.
    ClientGiveUp(Id),
}

struct Sim<'a> {
    cfg: &'a CascadeConfig,
    q: EventQueue<Event>,
    rng: ChaCha8Rng,
    slots: Vec<Slot>,
    free: Vec<u32>,
    queue: VecDeque<Id>,
    busy: u32,
    connections: u32,
    inventory: DepStack,
    payments: Option<DepStack>,
    history_bulkhead: Option<Bulkhead>,
    shedder: Option<LoadShedder>,
    hedger: Option<Hedger>,
    hedges: HedgeCounts,
    /// The idempotency keys of `POST /orders` (with `idempotency.key`).
    keys: Option<IdempotencyStore<KeyState>>,
    /// The store's size that triggers its next purge of expired keys.
    keys_purge_at: usize,
    /// Copies waiting for the copy that owns their key, by order.
    key_waiters: std::collections::BTreeMap<u64, Vec<Id>>,
    /// Orders still alive, for the duplicate count (with `idempotency`).
    ops: Option<std::collections::BTreeMap<u64, OpState>>,
    orders: OrderCounts,
    sent: u64,
    counts: OutcomeCounts,
    routes: [RouteCounts; 3],
    service: LessonPercentiles,
    end_to_end: LessonPercentiles,
    service_histograms: HistogramsByOutcome,
    end_to_end_histograms: HistogramsByOutcome,
    records: Vec<RequestRecord>,
    series: Vec<Bucket>,
    gauges_filled: usize,
    truncated: bool,
    stale_work: u64,
    frontend_retries: u64,
    gateway_retries: u64,
    library_retries: u64,
    sidecar_retries: u64,
    interval: Micros,
    open_loop_requests: u64,
    poisson: Option<Exp<f64>>,
}

/// Runs the cascade described by `cfg`, with [`DEFAULT_EVENT_CAP`].
pub fn run(cfg: &CascadeConfig) -> Result<Trace, RunError> {
    run_with_cap(cfg, DEFAULT_EVENT_CAP)
}

/// Runs the cascade described by `cfg`, stopping with [`RunError::Engine`] after `cap` events.
pub fn run_with_cap(cfg: &CascadeConfig, cap: u64) -> Result<Trace, RunError> {
    cfg.validate()?;
    let inventory = DepStack::inventory(cfg)?;
    let payments = cfg.payments.as_ref().map(DepStack::payments).transpose()?;
    let history_bulkhead = match &cfg.history_bulkhead {
        HistoryBulkhead::Own(b) => Some(Bulkhead::new(b.clone())?),
        _ => None,
    };
    let shedder = cfg.load_shed.clone().map(LoadShedder::new).transpose()?;
    let hedger = cfg
        .hedge
        .as_ref()
        .map(|h| Hedger::new(h.policy.clone()))
        .transpose()?;
    let keys = cfg
        .idempotency
        .as_ref()
        .filter(|i| i.key)
        .map(|i| IdempotencyStore::new(i.store.clone()))
        .transpose()?;
    let poisson = match cfg.arrivals {
        Arrivals::Even => None,
        Arrivals::Poisson => Some(Exp::new(cfg.rate).map_err(|_| ParamError {
            field: "rate",
            range: "0.1..=10000 requests/s".to_string(),
            value: cfg.rate.to_string(),
        })?),
    };
    let route_counts = |route| RouteCounts {
        route,
        sent: 0,
        outcomes: OutcomeCounts::default(),
    };
    let mut sim = Sim {
        cfg,
        q: EventQueue::with_cap(cap),
        rng: ChaCha8Rng::seed_from_u64(cfg.seed),
        slots: Vec::new(),
        free: Vec::new(),
        queue: VecDeque::new(),
        busy: 0,
        connections: 0,
        inventory,
        payments,
        history_bulkhead,
        shedder,
        hedger,
        hedges: HedgeCounts::default(),
        keys,
        keys_purge_at: 1_024,
        key_waiters: std::collections::BTreeMap::new(),
        ops: cfg
            .idempotency
            .is_some()
            .then(std::collections::BTreeMap::new),
        orders: OrderCounts::default(),
        sent: 0,
        counts: OutcomeCounts::default(),
        routes: Route::ALL.map(route_counts),
        service: LessonPercentiles::default(),
        end_to_end: LessonPercentiles::default(),
        service_histograms: HistogramsByOutcome::new(),
        end_to_end_histograms: HistogramsByOutcome::new(),
        records: Vec::new(),
        series: Vec::new(),
        gauges_filled: 0,
        truncated: false,
        stale_work: 0,
        frontend_retries: 0,
        gateway_retries: 0,
        library_retries: 0,
        sidecar_retries: 0,
        interval: cfg.interval(),
        open_loop_requests: cfg.requests(),
        poisson,
    };
    sim.schedule_first_arrival();
    let mut end = 0;
    loop {
        if !cfg.drain && sim.q.peek_time().is_some_and(|t| t >= cfg.duration) {
            end = cfg.duration;
            break;
        }
        let Some((now, event)) = sim.q.pop()? else {
            break;
        };
        end = now;
        sim.fill_gauges(now);
        sim.handle(now, event);
    }
    sim.fill_gauges(end.saturating_add(BUCKET));
    let unfinished: Vec<Route> = sim
        .slots
        .iter()
        .filter_map(|s| s.request.as_ref())
        .filter(|r| r.outcome.is_none())
        .map(|r| r.route)
        .collect();
    for route in unfinished {
        sim.counts.add(Outcome::Unfinished);
        sim.routes[route_index(route)]
            .outcomes
            .add(Outcome::Unfinished);
    }
    let transitions = sim.inventory.transitions();
    let payments = sim.payments.as_ref().map(|p| DependencyTotals {
        transitions: p.transitions(),
        ..p.totals.clone()
    });
    Ok(Trace {
        sent: sim.sent,
        outcomes: sim.counts,
        service: sim.service.percentiles(),
        end_to_end: sim.end_to_end.percentiles(),
        transitions,
        series: sim.series,
        series_truncated: sim.truncated,
        end,
        events: sim.q.processed(),
        requests: sim.records,
        service_histograms: sim.service_histograms,
        end_to_end_histograms: sim.end_to_end_histograms,
        routes: sim.routes.into_iter().filter(|r| r.sent > 0).collect(),
        stale_work: sim.stale_work,
        frontend_retries: sim.frontend_retries,
        gateway_retries: sim.gateway_retries,
        library_retries: sim.library_retries,
        sidecar_retries: sim.sidecar_retries,
        peak_live_requests: sim.slots.len() as u64,
        shed_by_priority: sim.shedder.as_ref().map_or([0; 3], |s| {
            [Priority::Low, Priority::Normal, Priority::High].map(|p| s.shed_count(p))
        }),
        hedges: sim.hedger.is_some().then_some(sim.hedges),
        orders: cfg.idempotency.as_ref().map(|_| OrderCounts {
            recognised: sim.keys.as_ref().map_or(0, |k| k.duplicates_avoided()),
            ..sim.orders
        }),
        payments,
    })
}

/// Why a run could not produce a trace.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RunError {
    /// A parameter was out of range.
    #[error("{0}")]
    Param(#[from] ParamError),
    /// The run hit the event cap.
    #[error("{0}")]
    Engine(#[from] EngineError),
}

fn route_index(route: Route) -> usize {
    match route {
        Route::Orders => 0,
        Route::Catalog => 1,
        Route::OrderHistory => 2,
    }
}

/// True for the outcomes a fallback replaces: inventory could not be used.
fn inventory_failure(outcome: Outcome) -> bool {
    matches!(
        outcome,
        Outcome::Timeout
            | Outcome::DependencyError
            | Outcome::CircuitOpen
            | Outcome::BulkheadFull
            | Outcome::BudgetExhausted
    )
}

/// The live request `id` names, if it is still the one in its slot.
fn request_mut(slots: &mut [Slot], id: Id) -> Option<&mut Request> {
    let s = slots.get_mut((id & 0xffff_ffff) as usize)?;
    if u64::from(s.generation) != id >> 32 {
        return None;
    }
    s.request.as_mut()
}

impl Sim<'_> {
    // ---- the slab of live requests -------------------------------------------------------

    fn alloc(&mut self, request: Request) -> Id {
        if let Some(slot) = self.free.pop() {
            let s = &mut self.slots[slot as usize];
            s.request = Some(request);
            (u64::from(s.generation) << 32) | u64::from(slot)
        } else {
            let slot = self.slots.len() as u64;
            self.slots.push(Slot {
                generation: 0,
                request: Some(request),
            });
            slot
        }
    }

    fn get(&mut self, id: Id) -> Option<&mut Request> {
        request_mut(&mut self.slots, id)
    }

    /// Frees the request once nothing is left to happen to it: the client has its answer,
    /// no worker is on it and it holds no gateway connection.
    fn maybe_free(&mut self, id: Id) {
        let slot = (id & 0xffff_ffff) as usize;
        let Some(s) = self.slots.get_mut(slot) else {
            return;
        };
        if u64::from(s.generation) != id >> 32 {
            return;
        }
        let over = s.request.as_ref().is_some_and(|r| {
            r.outcome.is_some()
                && matches!(r.server, Server::Outside | Server::Done)
                && !r.holds_connection
        });
        if over {
            let order = s
                .request
                .as_ref()
                .filter(|r| r.route == Route::Orders)
                .map(|r| r.op);
            s.request = None;
            s.generation = s.generation.wrapping_add(1);
            self.free.push(slot as u32);
            if let (Some(op), Some(ops)) = (order, self.ops.as_mut()) {
                if let Some(state) = ops.get_mut(&op) {
                    state.refs = state.refs.saturating_sub(1);
                    if state.refs == 0 {
                        ops.remove(&op);
                    }
                }
            }
        }
    }

    // ---- the time series -------------------------------------------------------------------

    /// The bucket holding `at`; `None` (and the series marked truncated) past [`MAX_BUCKETS`].
    fn bucket(&mut self, at: Micros) -> Option<&mut Bucket> {
        let idx = usize::try_from(at / BUCKET).unwrap_or(usize::MAX);
        if idx >= MAX_BUCKETS {
            self.truncated = true;
            return None;
        }
        if self.series.len() <= idx {
            self.series.resize(idx + 1, Bucket::default());
        }
        self.series.get_mut(idx)
    }

    /// Sets the gauges of every bucket that ended at or before `now` to the current values.
    fn fill_gauges(&mut self, now: Micros) {
        let idx = usize::try_from(now / BUCKET)
            .unwrap_or(usize::MAX)
            .min(MAX_BUCKETS);
        if idx == 0 || self.gauges_filled >= idx {
            return;
        }
        if self.series.len() < idx {
            self.series.resize(idx, Bucket::default());
        }
        let state = self
            .inventory
            .breaker
            .as_ref()
            .map_or(0, |b| BreakerState::gauge(b.state()));
        let (busy, queue_len) = (self.busy, self.queue.len() as u64);
        let (in_use, waiting) = self.inventory.bulkhead.as_ref().map_or((0, 0), |b| {
            (b.in_use(), u32::try_from(b.waiting()).unwrap_or(u32::MAX))
        });
        let connections = self.connections;
        let first = self.gauges_filled;
        for (i, b) in self.series[first..idx].iter_mut().enumerate() {
            b.workers_busy = busy;
            b.queue_len = queue_len;
            b.breaker_state = state;
            b.bulkhead_in_use = in_use;
            b.bulkhead_waiting = waiting;
            b.gateway_in_use = connections;
            if let Some(breaker) = self.inventory.breaker.as_ref() {
                // The window as it stands at the slice's end: entries that have aged out by
                // then are left out even though the breaker prunes only on its next record.
                let end = ((first + i + 1) as Micros).saturating_mul(BUCKET);
                let snap = breaker.snapshot(end);
                b.window_calls = snap.calls_in_window;
                b.window_failures = snap.failures_in_window;
                // The breaker resets its probe count only when it next turns half open, so
                // outside HALF_OPEN the count it reports is stale: show 0 there.
                b.probes_in_flight = if snap.state == BreakerState::HalfOpen {
                    snap.probes_in_flight
                } else {
                    0
                };
            }
        }
        self.gauges_filled = idx;
    }

    // ---- arrivals --------------------------------------------------------------------------

    fn schedule_first_arrival(&mut self) {
        match self.poisson {
            None => {
                if self.open_loop_requests > 0 {
                    self.q.schedule_first(0, Event::Arrival(0));
                }
            }
            Some(exp) => {
                let gap = self.exp_gap(exp);
                if gap < self.cfg.duration {
                    self.q.schedule_first(gap, Event::Arrival(0));
                }
            }
        }
    }

    fn exp_gap(&mut self, exp: Exp<f64>) -> Micros {
        let seconds: f64 = exp.sample(&mut self.rng);
        (seconds * 1_000_000.0).round().clamp(0.0, HOUR as f64) as Micros
    }

    /// Schedules the open loop's arrival after number `n` (which arrived at `now`).
    fn schedule_next_arrival(&mut self, now: Micros, n: u64) {
        let next = n + 1;
        match self.poisson {
            None => {
                if next < self.open_loop_requests {
                    self.q
                        .schedule_first(next.saturating_mul(self.interval), Event::Arrival(next));
                }
            }
            Some(exp) => {
                let at = now.saturating_add(self.exp_gap(exp));
                if at < self.cfg.duration && next < 2 * MAX_REQUESTS {
                    self.q.schedule_first(at, Event::Arrival(next));
                }
            }
        }
    }

    fn draw_route(&mut self) -> Route {
        let (catalog, history) = (self.cfg.catalog_share, self.cfg.history_share);
        if catalog <= 0.0 && history <= 0.0 {
            return Route::Orders;
        }
        let u: f64 = self.rng.gen();
        if u < catalog {
            Route::Catalog
        } else if u < catalog + history {
            Route::OrderHistory
        } else {
            Route::Orders
        }
    }

    fn draw_priority(&mut self) -> Priority {
        let PriorityMix { high, low } = self.cfg.priority_mix;
        if high <= 0.0 && low <= 0.0 {
            return Priority::Normal;
        }
        let u: f64 = self.rng.gen();
        if u < high {
            Priority::High
        } else if u < high + low {
            Priority::Low
        } else {
            Priority::Normal
        }
    }

    /// A request reaches the system (through the gateway, if there is one).
    fn arrive(
        &mut self,
        now: Micros,
        route: Route,
        priority: Priority,
        frontend_attempt: u32,
        op: u64,
    ) {
        self.sent += 1;
        if route == Route::Orders && frontend_attempt == 0 {
            // A front-end copy takes over the reference its scheduled retry held.
            if let Some(ops) = self.ops.as_mut() {
                ops.entry(op).or_default().refs += 1;
            }
        }
        self.routes[route_index(route)].sent += 1;
        if frontend_attempt > 0 {
            self.frontend_retries += 1;
        }
        if let Some(b) = self.bucket(now) {
            b.arrivals += 1;
        }
        let record = self.cfg.record_requests.then(|| {
            self.records.push(RequestRecord {
                arrived: now,
                started: None,
                finished: None,
                outcome: Outcome::Unfinished,
            });
            self.records.len() - 1
        });
        let id = self.alloc(Request {
            arrived: now,
            started: None,
            route,
            priority,
            frontend_attempt,
            outcome: None,
            server: Server::Outside,
            holds_connection: false,
            record,
            bulkhead: None,
            admission: None,
            stack_started: now,
            call: CallKind::Ok,
            retry: None,
            budget: None,
            sidecar: None,
            attempt_deadline: None,
            try_started: now,
            hedge_won: false,
            op,
            key_owner: false,
            replay: false,
            gateway_try: 0,
            dep: Dep::Inventory,
        });
        if let Some(g) = self.cfg.client_give_up {
            self.q
                .schedule(now.saturating_add(g), Event::ClientGiveUp(id));
        }
        if let Some(gateway) = &self.cfg.gateway {
            if self.connections >= gateway.pool {
                self.answer(now, id, Outcome::GatewayRejected);
                self.maybe_free(id);
                return;
            }
            self.connections += 1;
            if let Some(r) = self.get(id) {
                r.holds_connection = true;
            }
        }
        self.send_upstream(now, id, route, priority);
    }

    /// The request (or the gateway's new try of it) goes to its service, under its route's
    /// timeout.
    fn send_upstream(&mut self, now: Micros, id: Id, route: Route, priority: Priority) {
        if let Some(t) = self.cfg.gateway.as_ref().and_then(|g| g.timeout_for(route)) {
            self.q
                .schedule(now.saturating_add(t), Event::GatewayTimeout(id));
        }
        match route {
            Route::Catalog => {
                let at = now.saturating_add(self.cfg.catalog_latency);
                self.q.schedule(at, Event::CatalogDone(id));
            }
            Route::Orders | Route::OrderHistory => self.enter_orders(now, id, priority),
        }
    }

    /// The request reaches `orders`: shed, queued, or a worker is reserved for it.
    fn enter_orders(&mut self, now: Micros, id: Id, priority: Priority) {
        let in_flight = self.busy.saturating_add(self.queue.len() as u32);
        let shed = self
            .shedder
            .as_mut()
            .is_some_and(|s| s.admit(priority, in_flight).is_err());
        let worker_free = self.busy < self.cfg.threads && self.queue.is_empty();
        let queue_full = !worker_free
            && self
                .cfg
                .queue_limit
                .is_some_and(|l| self.queue.len() as u64 >= l);
        if shed || queue_full {
            self.answer(now, id, Outcome::Shed);
            self.release_connection(id);
            self.maybe_free(id);
            return;
        }
        if let Some(r) = self.get(id) {
            r.server = Server::Queued;
        }
        if worker_free {
            self.busy += 1;
            self.q.schedule(now, Event::Start(id));
        } else {
            self.queue.push_back(id);
        }
    }

    // ---- the events ------------------------------------------------------------------------

    fn handle(&mut self, now: Micros, event: Event) {
        match event {
            Event::Arrival(n) => {
                self.schedule_next_arrival(now, n);
                let route = self.draw_route();
                let priority = self.draw_priority();
                self.arrive(now, route, priority, 0, n);
            }
            Event::FrontendRetry {
                route,
                priority,
                attempt,
                op,
            } => self.arrive(now, route, priority, attempt, op),
            Event::Start(id) => self.start(now, id),
            Event::BulkheadExpire(id) => {
                let Some(which) = self.get(id).and_then(|r| r.bulkhead) else {
                    return;
                };
                let rejected = self.bulkhead_mut(which).and_then(|b| b.expire(now, id));
                if rejected.is_some() {
                    self.refused_at(id);
                    self.server_finish(now, id, Outcome::BulkheadFull);
                }
            }
            Event::Proceed(id) => self.proceed(now, id),
            Event::RetryCall(id) => self.attempt(now, id),
            Event::SidecarTry(id) => self.try_call(now, id),
            Event::HedgeSent => {
                self.hedges.sent += 1;
                if let Some(b) = self.bucket(now) {
                    b.inventory_calls += 1;
                }
            }
            Event::CallDone(id) => self.call_done(now, id),
            Event::CatalogDone(id) => {
                self.answer(now, id, Outcome::Ok);
                self.release_connection(id);
                self.maybe_free(id);
            }
            Event::GatewayTimeout(id) => {
                let retries = self.cfg.gateway.as_ref().map_or(0, |g| g.retries);
                let Some(r) = self.get(id) else {
                    return;
                };
                if !r.holds_connection {
                    return;
                }
                if r.outcome.is_none() && r.gateway_try < retries {
                    self.gateway_retry(now, id);
                    return;
                }
                self.answer(now, id, Outcome::GatewayTimeout);
                self.release_connection(id);
                self.maybe_free(id);
            }
            Event::ClientGiveUp(id) => {
                if self.get(id).is_some_and(|r| r.outcome.is_none()) {
                    self.answer(now, id, Outcome::ClientGaveUp);
                    self.maybe_free(id);
                }
            }
        }
    }

    /// The route timeout ran out and the gateway tries again: a new copy of the request goes
    /// to the service, taking over the client, its connection and its record; the old copy
    /// goes on with nobody to answer (stale work if a worker finishes it).
    fn gateway_retry(&mut self, now: Micros, id: Id) {
        let give_up = self.cfg.client_give_up;
        let Some(old) = self.get(id) else {
            return;
        };
        let mut copy = old.clone();
        // Answered to nobody: the client's outcome is the new copy's; nothing is counted here.
        old.outcome = Some(Outcome::GatewayTimeout);
        old.holds_connection = false;
        old.record = None;
        copy.started = None;
        copy.server = Server::Outside;
        copy.bulkhead = None;
        copy.admission = None;
        copy.stack_started = now;
        copy.call = CallKind::Ok;
        copy.retry = None;
        copy.budget = None;
        copy.sidecar = None;
        copy.attempt_deadline = None;
        copy.try_started = now;
        copy.hedge_won = false;
        copy.key_owner = false;
        copy.replay = false;
        copy.gateway_try += 1;
        copy.dep = Dep::Inventory;
        let (route, priority, op, arrived) = (copy.route, copy.priority, copy.op, copy.arrived);
        let new = self.alloc(copy);
        self.gateway_retries += 1;
        if route == Route::Orders {
            if let Some(state) = self.ops.as_mut().and_then(|o| o.get_mut(&op)) {
                state.refs += 1;
            }
        }
        if let Some(g) = give_up {
            let at = arrived.saturating_add(g).max(now);
            self.q.schedule(at, Event::ClientGiveUp(new));
        }
        self.maybe_free(id);
        self.send_upstream(now, new, route, priority);
    }

    fn bulkhead_mut(&mut self, which: Which) -> Option<&mut Bulkhead> {
        match which {
            Which::Inventory => self.inventory.bulkhead.as_mut(),
            Which::History => self.history_bulkhead.as_mut(),
            Which::Payments => self.payments.as_mut().and_then(|p| p.bulkhead.as_mut()),
        }
    }

    fn stack(&self, dep: Dep) -> &DepStack {
        match (dep, self.payments.as_ref()) {
            (Dep::Payments, Some(p)) => p,
            _ => &self.inventory,
        }
    }

    fn stack_mut(&mut self, dep: Dep) -> &mut DepStack {
        match (dep, self.payments.as_mut()) {
            (Dep::Payments, Some(p)) => p,
            _ => &mut self.inventory,
        }
    }

    /// The dependency the request's stack is at (inventory for a request that has none).
    fn dep_of(&mut self, id: Id) -> Dep {
        self.get(id).map_or(Dep::Inventory, |r| r.dep)
    }

    /// The request's bulkhead or breaker refused it: counted against its dependency.
    fn refused_at(&mut self, id: Id) {
        let dep = self.dep_of(id);
        self.stack_mut(dep).totals.rejected += 1;
    }

    /// Inventory answered "reserved": the request goes on to payments, through its bulkhead.
    fn start_payments(&mut self, now: Micros, id: Id) {
        let Some(r) = self.get(id) else {
            return;
        };
        r.dep = Dep::Payments;
        r.admission = None;
        r.retry = None;
        r.sidecar = None;
        r.attempt_deadline = None;
        r.hedge_won = false;
        r.call = CallKind::Ok;
        self.acquire_permit(now, id, Which::Payments);
    }

    /// A worker takes the request: on to its bulkhead.
    fn start(&mut self, now: Micros, id: Id) {
        let request_budget = self.cfg.request_budget;
        let shared_history = self.cfg.history_bulkhead == HistoryBulkhead::Shared;
        let Some(r) = self.get(id) else {
            return;
        };
        r.started = Some(now);
        r.server = Server::Running;
        // The budget runs from the request's arrival, as the lesson creates it "when the
        // request comes in": time spent queued for a worker is spent from it.
        r.budget = request_budget.map(|b| TimeBudget::from_duration(r.arrived, b));
        let which = match r.route {
            Route::OrderHistory if !shared_history => Which::History,
            _ => Which::Inventory,
        };
        let (record, route, op) = (r.record, r.route, r.op);
        if let Some(rec) = record.and_then(|i| self.records.get_mut(i)) {
            rec.started = Some(now);
        }
        if route == Route::Orders && self.check_key(now, id, op) {
            return;
        }
        self.acquire_permit(now, id, which);
    }

    /// The request asks `which` bulkhead for a permit (none: it goes on at once).
    fn acquire_permit(&mut self, now: Micros, id: Id, which: Which) {
        let acquire = self.bulkhead_mut(which).map(|b| b.try_acquire(now, id));
        if acquire.is_some() {
            if let Some(r) = self.get(id) {
                r.bulkhead = Some(which);
            }
        }
        match acquire {
            None | Some(Acquire::Granted) => self.q.schedule(now, Event::Proceed(id)),
            Some(Acquire::Queued { give_up_at }) => {
                self.q.schedule(give_up_at, Event::BulkheadExpire(id))
            }
            Some(Acquire::Rejected(_)) => {
                if let Some(r) = self.get(id) {
                    r.bulkhead = None;
                }
                self.refused_at(id);
                self.server_finish(now, id, Outcome::BulkheadFull)
            }
        }
    }

    /// `orders` looks the order's idempotency key up before doing any work. Found and answered:
    /// the stored answer, at once. Found in progress: the copy waits, holding its worker, for
    /// the answer of the copy that owns the key. Not found: this copy owns it from now on.
    /// Returns true when the copy is not to be processed.
    fn check_key(&mut self, now: Micros, id: Id, op: u64) -> bool {
        let Some(store) = self.keys.as_mut() else {
            return false;
        };
        let key = op.to_string();
        let found = store.lookup(now, &key);
        if found.is_none() {
            store.store(now, &key, KeyState::InProgress);
            if store.len() >= self.keys_purge_at {
                store.purge_expired(now);
                self.keys_purge_at = (2 * store.len()).max(1_024);
            }
        }
        let Some(r) = self.get(id) else {
            return true;
        };
        match found {
            None => {
                r.key_owner = true;
                false
            }
            Some(KeyState::Done(outcome)) => {
                r.replay = true;
                self.server_finish(now, id, outcome);
                true
            }
            Some(KeyState::InProgress) => {
                r.replay = true;
                self.key_waiters.entry(op).or_default().push(id);
                true
            }
        }
    }

    /// The request holds its permit: history reads its store; `/orders` asks the breaker.
    fn proceed(&mut self, now: Micros, id: Id) {
        let Some(route) = self.get(id).map(|r| r.route) else {
            return;
        };
        if route == Route::OrderHistory {
            let at = now.saturating_add(self.cfg.history_latency);
            self.q.schedule(at, Event::CallDone(id));
            return;
        }
        let dep = self.dep_of(id);
        let stack = self.stack_mut(dep);
        let admission = match stack.breaker.as_mut().map(|b| b.try_acquire(now)) {
            None => Admission::Call,
            Some(Ok(a)) => a,
            Some(Err(_)) => {
                stack.totals.rejected += 1;
                if dep == Dep::Inventory {
                    if let Some(b) = self.bucket(now) {
                        b.breaker_rejections += 1;
                    }
                }
                self.release_permit(now, id);
                self.server_finish(now, id, Outcome::CircuitOpen);
                return;
            }
        };
        let retry = stack.retry.as_ref().and_then(|p| Retry::new(p).ok());
        if let Some(r) = self.get(id) {
            r.admission = Some(admission);
            r.stack_started = now;
            r.retry = retry;
        }
        self.attempt(now, id);
    }

    /// One attempt at the call to inventory, within the timeout and what is left of the budget.
    fn attempt(&mut self, now: Micros, id: Id) {
        let dep = self.dep_of(id);
        let mut timeout = self.stack(dep).timeout;
        let mut retry_budget = self.stack_mut(dep).retry_budget.take();
        let Some(r) = self.get(id) else {
            self.stack_mut(dep).retry_budget = retry_budget;
            return;
        };
        if let Some(retry) = r.retry.as_mut() {
            retry.begin_attempt(retry_budget.as_mut());
        }
        let budget = r.budget;
        self.stack_mut(dep).retry_budget = retry_budget;
        if let Some(b) = budget {
            match b.timeout_for(timeout.unwrap_or(Micros::MAX), now) {
                Ok(t) => timeout = Some(t),
                Err(_) => {
                    self.stack_done(now, id, StackEnd::BudgetExhausted);
                    return;
                }
            }
        }
        let sidecar = self
            .stack(dep)
            .sidecar
            .as_ref()
            .and_then(|s| Retry::new(&s.policy()).ok());
        if let Some(r) = self.get(id) {
            r.attempt_deadline = timeout.map(|t| now.saturating_add(t));
            r.sidecar = sidecar;
        }
        self.try_call(now, id);
    }

    /// One try on the wire: through the sidecar when there is one (its per-try timeout), always
    /// within the library attempt's deadline; hedged when the config asks for it.
    fn try_call(&mut self, now: Micros, id: Id) {
        let dep = self.dep_of(id);
        let per_try = self
            .stack(dep)
            .sidecar
            .as_ref()
            .and_then(|s| s.per_try_timeout);
        let Some(r) = self.get(id) else {
            return;
        };
        if let Some(s) = r.sidecar.as_mut() {
            s.begin_attempt(None);
        }
        let attempt_left = r.attempt_deadline.map(|d| d.saturating_sub(now));
        self.stack_mut(dep).totals.calls += 1;
        if let Some(b) = self.bucket(now) {
            match dep {
                Dep::Inventory => b.inventory_calls += 1,
                Dep::Payments => b.payments_calls += 1,
            }
        }
        let (latency, kind, hedge_won) = self.answer_of_try(now, dep, attempt_left, per_try);
        let (held, kind) = match (attempt_left, per_try) {
            (Some(left), Some(t)) if t < left && latency > t => (t, CallKind::TryTimedOut),
            (None, Some(t)) if latency > t => (t, CallKind::TryTimedOut),
            (Some(left), _) if latency > left => (left, CallKind::TimedOut),
            _ => (latency, kind),
        };
        let hedge_won = hedge_won && !matches!(kind, CallKind::TimedOut | CallKind::TryTimedOut);
        if let Some(r) = self.get(id) {
            r.call = kind;
            r.try_started = now;
            r.hedge_won = hedge_won;
        }
        self.q
            .schedule(now.saturating_add(held), Event::CallDone(id));
    }

    /// The first answer of a try that starts at `now`: its latency, its kind and whether a
    /// hedge gave it. Without a hedge, one call; with one, the hedger's plan for this try (no
    /// copy due once the try has timed out), each copy drawn as it goes out, and a
    /// [`Event::HedgeSent`] for each hedge actually sent.
    fn answer_of_try(
        &mut self,
        now: Micros,
        dep: Dep,
        attempt_left: Option<Micros>,
        per_try: Option<Micros>,
    ) -> (Micros, CallKind, bool) {
        let idempotent = self.cfg.hedge.as_ref().is_some_and(|h| h.idempotency_key);
        let plan = self
            .hedger
            .as_ref()
            .filter(|_| dep == Dep::Inventory)
            .and_then(|h| h.plan(idempotent).ok())
            .filter(|p| p.offsets.len() > 1);
        let Some(plan) = plan else {
            let (latency, kind) = self.draw_call(dep, now);
            return (latency, kind, false);
        };
        let try_ends = match (attempt_left, per_try) {
            (Some(left), Some(t)) => left.min(t),
            (Some(left), None) => left,
            (None, Some(t)) => t,
            (None, None) => Micros::MAX,
        };
        let plan = plan.before(try_ends);
        let mut kinds = Vec::with_capacity(plan.offsets.len());
        let outcome = plan.resolve_with(|_, offset| {
            let (latency, kind) = self.draw_call(dep, now.saturating_add(offset));
            kinds.push(kind);
            latency
        });
        let Some(outcome) = outcome else {
            let (latency, kind) = self.draw_call(dep, now);
            return (latency, kind, false);
        };
        for &offset in plan.offsets.iter().take(outcome.copies_sent).skip(1) {
            self.q
                .schedule(now.saturating_add(offset), Event::HedgeSent);
        }
        let kind = kinds.get(outcome.winner).copied().unwrap_or(CallKind::Ok);
        (outcome.latency, kind, outcome.winner > 0)
    }

    /// One call to `dep` that starts at `at`: its latency and how it answers, drawn from the
    /// regime in force at `at` (degraded strictly after `degrade_at`, until `recover_at`).
    fn draw_call(&mut self, dep: Dep, at: Micros) -> (Micros, CallKind) {
        let f = match (dep, self.payments.as_ref()) {
            (Dep::Payments, Some(p)) => &p.faults,
            _ => &self.inventory.faults,
        };
        let degraded = f.degrade_at.is_some_and(|d| at > d) && f.recover_at.is_none_or(|r| at <= r);
        let model = if degraded { f.degraded } else { f.healthy };
        let (error_rate, business_error_rate) = (f.error_rate, f.business_error_rate);
        let latency = model.sample(&mut self.rng);
        let kind = if degraded && error_rate > 0.0 && self.rng.gen_bool(error_rate) {
            CallKind::Unavailable
        } else if business_error_rate > 0.0 && self.rng.gen_bool(business_error_rate) {
            CallKind::Business
        } else {
            CallKind::Ok
        };
        (latency, kind)
    }

    fn call_done(&mut self, now: Micros, id: Id) {
        let Some(r) = self.get(id) else {
            return;
        };
        if r.route == Route::OrderHistory {
            self.release_permit(now, id);
            self.server_finish(now, id, Outcome::Ok);
            return;
        }
        let (call, dep) = (r.call, r.dep);
        let (tried_for, hedge_won) = (now.saturating_sub(r.try_started), r.hedge_won);
        if let Some(h) = self.hedger.as_mut().filter(|_| dep == Dep::Inventory) {
            // What this service saw of the try: its first answer, or the time it waited
            // before giving up. The percentile delay is taken over these.
            h.record(tried_for);
            self.hedges.won += u64::from(hedge_won);
        }
        if matches!(call, CallKind::TryTimedOut | CallKind::Unavailable) {
            let Some(r) = request_mut(&mut self.slots, id) else {
                return;
            };
            // The sidecar sees the failed try first and may retry it within the attempt.
            let err = if call == CallKind::Unavailable {
                CallError::Unavailable
            } else {
                CallError::DeadlineExceeded
            };
            let deadline = r.attempt_deadline.map(|deadline| TimeBudget { deadline });
            let decision = r
                .sidecar
                .as_mut()
                .map(|s| s.after_failure(err, true, now, deadline.as_ref(), None, &mut self.rng));
            if let Some(RetryDecision::RetryAfter { wait, .. }) = decision {
                self.sidecar_retries += 1;
                self.q
                    .schedule(now.saturating_add(wait), Event::SidecarTry(id));
                return;
            }
        }
        let end = match call {
            CallKind::Ok => StackEnd::Ok,
            CallKind::Business => StackEnd::Business,
            CallKind::TimedOut | CallKind::TryTimedOut | CallKind::Unavailable => {
                let err = if call == CallKind::Unavailable {
                    CallError::Unavailable
                } else {
                    CallError::DeadlineExceeded
                };
                let mut retry_budget = self.stack_mut(dep).retry_budget.take();
                let Some(r) = request_mut(&mut self.slots, id) else {
                    self.stack_mut(dep).retry_budget = retry_budget;
                    return;
                };
                let budget = r.budget;
                let decision = r.retry.as_mut().map(|retry| {
                    retry.after_failure(
                        err,
                        true,
                        now,
                        budget.as_ref(),
                        retry_budget.as_mut(),
                        &mut self.rng,
                    )
                });
                self.stack_mut(dep).retry_budget = retry_budget;
                if let Some(RetryDecision::RetryAfter { wait, .. }) = decision {
                    self.library_retries += 1;
                    self.q
                        .schedule(now.saturating_add(wait), Event::RetryCall(id));
                    return;
                }
                if call == CallKind::Unavailable {
                    StackEnd::Unavailable
                } else {
                    StackEnd::TimedOut
                }
            }
        };
        self.stack_done(now, id, end);
    }

    /// The stack around a dependency's call is over: tell its breaker, give back the permit;
    /// after inventory's "reserved", on to payments when there is payments.
    fn stack_done(&mut self, now: Micros, id: Id, end: StackEnd) {
        let Some(r) = self.get(id) else {
            return;
        };
        let (admission, started, dep) = (r.admission, r.stack_started, r.dep);
        let has_payments = self.payments.is_some();
        let stack = self.stack_mut(dep);
        let trip_on_business = stack.trip_on_business;
        let result = match end {
            StackEnd::Ok => CallResult::Success,
            StackEnd::Business if trip_on_business => CallResult::Failure,
            StackEnd::Business => CallResult::BusinessError,
            StackEnd::TimedOut | StackEnd::Unavailable => CallResult::Failure,
            // The lesson's breaker lets `TimedOut` (the budget) through as a non-transient
            // exception, which it records as a success of the dependency.
            StackEnd::BudgetExhausted => CallResult::BusinessError,
        };
        if let (Some(b), Some(a)) = (stack.breaker.as_mut(), admission) {
            b.record(now, a, result, now.saturating_sub(started));
        }
        match end {
            StackEnd::TimedOut => stack.totals.timeouts += 1,
            StackEnd::Unavailable => stack.totals.errors += 1,
            _ => {}
        }
        self.release_permit(now, id);
        if end == StackEnd::Ok && dep == Dep::Inventory && has_payments {
            self.start_payments(now, id);
            return;
        }
        let outcome = match end {
            StackEnd::Ok => Outcome::Ok,
            StackEnd::Business => Outcome::BusinessRejected,
            StackEnd::TimedOut => Outcome::Timeout,
            StackEnd::Unavailable => Outcome::DependencyError,
            StackEnd::BudgetExhausted => Outcome::BudgetExhausted,
        };
        self.server_finish(now, id, outcome);
    }

    /// Gives back the request's bulkhead permit; a waiter that receives it proceeds now.
    fn release_permit(&mut self, now: Micros, id: Id) {
        let Some(which) = self.get(id).and_then(|r| r.bulkhead.take()) else {
            return;
        };
        if let Some(waiter) = self.bulkhead_mut(which).and_then(|b| b.release(now)) {
            self.q.schedule(now, Event::Proceed(waiter));
        }
    }

    fn release_connection(&mut self, id: Id) {
        if let Some(r) = self.get(id) {
            if r.holds_connection {
                r.holds_connection = false;
                self.connections = self.connections.saturating_sub(1);
            }
        }
    }

    /// The worker is done with the request (`outcome` is what `orders` answers): it takes the
    /// next queued request; the answer goes back through the gateway to the client.
    fn server_finish(&mut self, now: Micros, id: Id, outcome: Outcome) {
        let fallback = self
            .cfg
            .fallback
            .as_ref()
            .and_then(FallbackPolicy::on_failure);
        let Some(r) = self.get(id) else {
            return;
        };
        if r.server != Server::Running {
            return;
        }
        r.server = Server::Done;
        let stale = r.outcome.is_some();
        let outcome = if fallback.is_some()
            && r.route == Route::Orders
            && r.dep == Dep::Inventory
            && inventory_failure(outcome)
        {
            Outcome::Fallback
        } else {
            outcome
        };
        let (route, op, key_owner, replay) = (r.route, r.op, r.key_owner, r.replay);
        r.key_owner = false;
        let service = now.saturating_sub(r.started.unwrap_or(now));
        let created =
            route == Route::Orders && !replay && matches!(outcome, Outcome::Ok | Outcome::Fallback);
        if let (true, Some(state)) = (created, self.ops.as_mut().and_then(|o| o.get_mut(&op))) {
            self.orders.created += 1;
            if state.created > 0 {
                self.orders.duplicates += 1;
            }
            state.created += 1;
        }
        if stale {
            self.stale_work += 1;
        }
        self.service.record(service);
        self.service_histograms
            .entry(outcome)
            .or_default()
            .record(service);
        self.answer(now, id, outcome);
        if let Some(next) = self.queue.pop_front() {
            self.q.schedule(now, Event::Start(next));
        } else {
            self.busy = self.busy.saturating_sub(1);
        }
        self.release_connection(id);
        self.maybe_free(id);
        if key_owner {
            self.settle_key(now, op, outcome);
        }
    }

    /// The copy owning an order's key is done: an answer is kept for the key's TTL, a failure
    /// forgets the key (a later copy does the work again); the copies waiting for it get the
    /// same answer.
    fn settle_key(&mut self, now: Micros, op: u64, outcome: Outcome) {
        if let Some(store) = self.keys.as_mut() {
            let key = op.to_string();
            if outcome.is_answer() {
                store.store(now, &key, KeyState::Done(outcome));
            } else {
                store.remove(&key);
            }
        }
        for waiter in self.key_waiters.remove(&op).unwrap_or_default() {
            self.server_finish(now, waiter, outcome);
        }
    }

    /// The client gets its answer, if it has none yet: the request is counted, once.
    fn answer(&mut self, now: Micros, id: Id, outcome: Outcome) {
        let frontend_retries = self.cfg.frontend_retries;
        let backoff = self.cfg.frontend_backoff;
        let Some(r) = self.get(id) else {
            return;
        };
        if r.outcome.is_some() {
            return;
        }
        r.outcome = Some(outcome);
        let (arrived, route, priority, attempt, record, op) = (
            r.arrived,
            r.route,
            r.priority,
            r.frontend_attempt,
            r.record,
            r.op,
        );
        self.counts.add(outcome);
        self.routes[route_index(route)].outcomes.add(outcome);
        let e2e = now.saturating_sub(arrived);
        self.end_to_end.record(e2e);
        self.end_to_end_histograms
            .entry(outcome)
            .or_default()
            .record(e2e);
        if let Some(b) = self.bucket(now) {
            b.completions.add(outcome);
        }
        if let Some(rec) = record.and_then(|i| self.records.get_mut(i)) {
            rec.finished = Some(now);
            rec.outcome = outcome;
        }
        if !outcome.is_answer() && attempt < frontend_retries {
            if route == Route::Orders {
                if let Some(state) = self.ops.as_mut().and_then(|o| o.get_mut(&op)) {
                    state.refs += 1;
                }
            }
            self.q.schedule(
                now.saturating_add(backoff),
                Event::FrontendRetry {
                    route,
                    priority,
                    attempt: attempt + 1,
                    op,
                },
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::TransitionReason;
    use crate::sim::scenario::{apply_set, Scenario};

    #[test]
    fn same_config_same_trace() {
        for s in Scenario::ALL {
            let c = s.config();
            assert_eq!(run(&c).unwrap(), run(&c).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn every_request_counted_once() {
        let sets: &[&[(&str, &str)]] = &[
            &[],
            &[("window", "1")],
            &[("threads", "3"), ("rate", "250")],
            &[("permits", "1"), ("max_wait", "0")],
            &[("max_wait", "5"), ("fast", "100ms")],
            &[("degrade_at", "0"), ("duration", "2")],
            &[("slow", "10ms"), ("timeout", "5ms")],
        ];
        for s in Scenario::ALL {
            for set in sets {
                for drain in [true, false] {
                    let mut c = s.config();
                    c.drain = drain;
                    for (k, v) in *set {
                        apply_set(&mut c, k, v).unwrap();
                    }
                    let t = run(&c).unwrap();
                    assert_eq!(t.outcomes.total(), t.sent, "{s:?} {set:?} drain {drain}");
                    let arrivals: u64 = t.series.iter().map(|b| b.arrivals).sum();
                    let done: u64 = t.series.iter().map(|b| b.completions.total()).sum();
                    assert_eq!(arrivals, t.sent);
                    assert_eq!(done + t.outcomes.unfinished, t.sent);
                    if drain {
                        assert_eq!(t.outcomes.unfinished, 0);
                    }
                }
            }
        }
    }

    #[test]
    fn degrade_is_strictly_after() {
        let mut c = Scenario::Timeout.config();
        c.rate = 1.0;
        c.duration = 4 * SECOND;
        c.degrade_at = 3 * SECOND;
        // Calls start at 0, 1, 2 and 3 s: the one at exactly 3 s is still fast.
        let t = run(&c).unwrap();
        assert_eq!((t.outcomes.ok, t.outcomes.timeout), (4, 0));
        c.degrade_at = 3 * SECOND - 1;
        let t = run(&c).unwrap();
        assert_eq!((t.outcomes.ok, t.outcomes.timeout), (3, 1));
        assert_eq!(t.service.p99, Some(300_000));
    }

    #[test]
    fn timeout_holds_the_worker_exactly_the_timeout() {
        let mut c = Scenario::Timeout.config();
        c.degrade_at = 0;
        c.rate = 10.0;
        let t = run(&c).unwrap();
        assert_eq!(t.outcomes.ok, 1);
        assert_eq!(t.service.p50, Some(300_000));
        assert_eq!(t.end_to_end.p50, Some(300_000));
    }

    #[test]
    fn queue_wait_is_end_to_end_not_service() {
        let mut c = Scenario::None.config();
        c.threads = 1;
        c.rate = 10.0;
        c.duration = SECOND;
        c.fast = 200_000;
        let t = run(&c).unwrap();
        assert_eq!(t.service.p99, Some(200_000));
        assert!(t.end_to_end.p99.unwrap() > SECOND);
        assert!(t
            .series
            .iter()
            .any(|b| b.queue_len > 0 && b.workers_busy == 1));
    }

    #[test]
    fn bulkhead_limits_calls_in_flight() {
        let mut c = Scenario::Bulkhead.config();
        c.breaker = None;
        let t = run(&c).unwrap();
        assert!(t.outcomes.bulkhead_full > 0);
        // At most 8 slow calls hold a permit; each holds it 300 ms: under ~27 calls/s.
        let slow_calls: u64 = t.series[40..100].iter().map(|b| b.inventory_calls).sum();
        assert!(slow_calls <= 8 * 60 / 3 + 8, "{slow_calls}");
        assert_eq!(t.outcomes.total(), t.sent);
    }

    #[test]
    fn very_long_drains_keep_a_bounded_series() {
        let mut c = Scenario::None.config();
        c.threads = 1;
        c.slow = 3_600 * SECOND;
        c.rate = 10.0;
        c.duration = 5 * SECOND;
        let t = run(&c).unwrap();
        assert_eq!(t.outcomes.total(), t.sent);
        assert!(t.series_truncated);
        assert!(t.series.len() <= MAX_BUCKETS);
    }

    #[test]
    fn bucket_gauges_follow_the_bulkhead_and_the_breaker() {
        let t = run(&Scenario::Bulkhead.config()).unwrap();
        let permits = Scenario::Bulkhead.config().bulkhead.unwrap().permits;
        assert!(t.series.iter().all(|b| b.bulkhead_in_use <= permits));
        assert!(t.series.iter().any(|b| b.bulkhead_in_use == permits));
        assert!(t.series.iter().any(|b| b.bulkhead_waiting > 0));
        assert!(t.series.iter().all(|b| b.gateway_in_use == 0));
        assert!(t.series.iter().all(|b| b.window_failures <= b.window_calls));
        // In the lesson's model every refusal of the breaker ends a request as circuit_open.
        let refused: u64 = t.series.iter().map(|b| b.breaker_rejections).sum();
        assert_eq!(refused, t.outcomes.circuit_open);
        assert!(refused > 0);
        // In `cb` the probes hold a worker for the 300 ms timeout, so some slices end with
        // the three of them in flight, and only while half open.
        let t = run(&Scenario::Cb.config()).unwrap();
        assert!(t.series.iter().any(|b| b.probes_in_flight == 3));
        assert!(t
            .series
            .iter()
            .all(|b| (b.probes_in_flight > 0) == (b.breaker_state == 1)));
    }

    #[test]
    fn the_window_gauge_explains_the_first_trip() {
        let c = Scenario::Cb.config();
        let t = run(&c).unwrap();
        let open = t.first_open().unwrap();
        let change = t.transitions.iter().find(|c| c.at == open).unwrap();
        let TransitionReason::FailureRatio { failures, calls } = change.reason else {
            panic!("{change:?}");
        };
        assert!(calls >= 20 && 2 * failures >= calls, "{change:?}");
        // The slice that ended just before the trip: enough calls, ratio still under 50%.
        let before = &t.series[(open / BUCKET) as usize - 1];
        assert!(before.window_calls >= 20, "{before:?}");
        assert!(
            2 * before.window_failures < before.window_calls,
            "{before:?}"
        );
        // Failures have been landing at 100/s since 3.3 s: nearly 300 of them by then.
        assert!(before.window_failures > 250, "{before:?}");
        assert_eq!(before.breaker_state, 0);
        // Without a breaker the window gauges stay at 0.
        let t = run(&Scenario::Timeout.config()).unwrap();
        assert!(t
            .series
            .iter()
            .all(|b| b.window_calls == 0 && b.breaker_rejections == 0));
    }

    #[test]
    fn request_records_only_when_asked_and_consistent_with_the_counts() {
        let mut c = Scenario::Bulkhead.config();
        assert!(run(&c).unwrap().requests.is_empty());
        for drain in [true, false] {
            c.drain = drain;
            c.record_requests = true;
            let t = run(&c).unwrap();
            assert_eq!(t.requests.len() as u64, t.sent);
            let mut counts = OutcomeCounts::default();
            for r in &t.requests {
                counts.add(r.outcome);
                assert_eq!(
                    r.finished.is_none(),
                    r.outcome == Outcome::Unfinished,
                    "{r:?}"
                );
                if let Some(s) = r.started {
                    assert!(s >= r.arrived);
                    assert!(r.finished.is_none_or(|f| f >= s), "{r:?}");
                }
            }
            assert_eq!(counts, t.outcomes);
            assert!(t.requests.windows(2).all(|w| w[0].arrived <= w[1].arrived));
        }
        let mut c = Scenario::None.config();
        c.drain = false;
        c.record_requests = true;
        let t = run(&c).unwrap();
        assert!(t.outcomes.unfinished > 0);
        assert!(t
            .requests
            .iter()
            .any(|r| r.started.is_none() && r.outcome == Outcome::Unfinished));
    }

    #[test]
    fn memory_follows_requests_alive_not_requests_sent() {
        // 100,000 requests; with a 300 ms timeout at most ~300 are alive at once.
        let mut c = Scenario::Timeout.config();
        c.rate = 1_000.0;
        c.duration = 100 * SECOND;
        c.threads = 1_000;
        let t = run(&c).unwrap();
        assert_eq!(t.sent, 100_000);
        assert!(t.peak_live_requests < 1_000, "{}", t.peak_live_requests);
        assert!(t.requests.is_empty());
        // Without protection they pile up in the queue: alive grows, as it should.
        let t = run(&Scenario::None.config()).unwrap();
        assert!(t.peak_live_requests > 500, "{}", t.peak_live_requests);
    }

    #[test]
    fn bad_config_is_an_error() {
        let mut c = Scenario::None.config();
        c.threads = 0;
        match run(&c) {
            Err(RunError::Param(e)) => assert_eq!(e.field, "threads"),
            other => panic!("{other:?}"),
        }
        let mut c = Scenario::None.config();
        c.rate = 10_000.0;
        c.duration = 600 * SECOND;
        assert!(matches!(run(&c), Err(RunError::Param(e)) if e.field == "rate"));
    }
}
