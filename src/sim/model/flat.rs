//! The flat config: every parameter in one struct, as configs, presets and permalinks were
//! written before the model was split into rooms. It still loads and runs: [`CascadeConfig::to_sim`]
//! turns it into the grouped [`SimConfig`], inventory first and payments (when on) second.

use serde::{Deserialize, Serialize};

use super::config::{
    fallback_policy, Arrivals, GatewayConfig, HistoryBulkhead, OrdersIdempotency, PriorityMix,
    RoutesConfig, RunSettings, ServiceConfig, SimConfig, Traffic,
};
use super::dependency_config::{
    DependencyConfig, FaultSchedule, HedgeConfig, LayerKind, SidecarConfig, StackConfig,
};
use super::SECOND;
use crate::resilience::{
    BreakerConfig, BulkheadConfig, FallbackPolicy, LoadShedConfig, ParamError, RetryBudgetConfig,
    RetryPolicy,
};
use crate::sim::latency::Micros;

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

impl CascadeConfig {
    /// The same run, grouped: inventory is the first dependency, payments (when on) the
    /// second.
    pub fn to_sim(&self) -> SimConfig {
        let inventory = DependencyConfig {
            name: "inventory".to_string(),
            faults: FaultSchedule {
                fast: self.fast,
                fast_p99: self.fast_p99,
                slow: self.slow,
                slow_p99: self.slow_p99,
                degrade_at: Some(self.degrade_at),
                recover_at: self.recover_at,
                error_rate: self.error_rate,
                business_error_rate: self.business_error_rate,
            },
            stack: StackConfig {
                order: LayerKind::LESSON_000.to_vec(),
                bulkhead: self.bulkhead.clone(),
                breaker: self.breaker.clone(),
                business_errors_trip_breaker: self.business_errors_trip_breaker,
                retry: self.retry,
                retry_budget: self.retry_budget.clone(),
                timeout: self.timeout,
                sidecar: self.sidecar.clone(),
                hedge: self.hedge.clone(),
            },
        };
        let mut dependencies = vec![inventory];
        dependencies.extend(self.payments.as_ref().map(PaymentsConfig::to_dependency));
        SimConfig {
            run: RunSettings {
                seed: self.seed,
                drain: self.drain,
                record_requests: self.record_requests,
            },
            traffic: Traffic {
                rate: self.rate,
                duration: self.duration,
                arrivals: self.arrivals,
                priority_mix: self.priority_mix,
                client_give_up: self.client_give_up,
                frontend_retries: self.frontend_retries,
                frontend_backoff: self.frontend_backoff,
            },
            gateway: self.gateway.clone(),
            service: ServiceConfig {
                threads: self.threads,
                queue_limit: self.queue_limit,
                load_shed: self.load_shed.clone(),
                request_budget: self.request_budget,
                fallback: self.fallback.clone(),
                idempotency: self.idempotency.clone(),
            },
            routes: RoutesConfig {
                catalog_share: self.catalog_share,
                catalog_latency: self.catalog_latency,
                history_share: self.history_share,
                history_latency: self.history_latency,
                history_bulkhead: self.history_bulkhead.clone(),
            },
            dependencies,
        }
    }

    /// Checks every field against its range, naming the first one that is off by its `--set`
    /// key (`payments_...` for payments).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.to_sim().validate()
    }
}

impl PaymentsConfig {
    /// Payments as the second dependency.
    pub fn to_dependency(&self) -> DependencyConfig {
        DependencyConfig {
            name: "payments".to_string(),
            faults: FaultSchedule {
                fast: self.fast,
                fast_p99: self.fast_p99,
                slow: self.slow,
                slow_p99: self.slow_p99,
                degrade_at: self.degrade_at,
                recover_at: self.recover_at,
                error_rate: self.error_rate,
                business_error_rate: 0.0,
            },
            stack: StackConfig {
                bulkhead: self.bulkhead.clone(),
                breaker: self.breaker.clone(),
                retry: self.retry,
                timeout: self.timeout,
                ..StackConfig::default()
            },
        }
    }
}

/// A config file as written: the grouped form, or the flat one from before the rooms.
#[derive(Debug, Clone, PartialEq)]
pub enum ConfigFile {
    /// A [`CascadeConfig`]: every field at the top level.
    Flat(Box<CascadeConfig>),
    /// A [`SimConfig`]: sections and a list of dependencies.
    Grouped(Box<SimConfig>),
}

impl ConfigFile {
    /// Reads a config's JSON: grouped when it has `dependencies` (or any other section of
    /// [`SimConfig`]), flat otherwise. A malformed one is an error naming the field.
    pub fn parse(text: &str) -> Result<Self, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let Some(fields) = value.as_object() else {
            return Err("expected a JSON object".to_string());
        };
        let sections = ["run", "traffic", "service", "routes", "dependencies"];
        if sections.iter().any(|s| fields.contains_key(*s)) {
            serde_json::from_str(text)
                .map(|grouped| ConfigFile::Grouped(Box::new(grouped)))
                .map_err(|e| format!("{e} (a grouped config: run, traffic, service, dependencies)"))
        } else {
            serde_json::from_str(text)
                .map(|flat| ConfigFile::Flat(Box::new(flat)))
                .map_err(|e| format!("{e} (a flat config: the fields of CascadeConfig)"))
        }
    }

    /// The config grouped, as the model runs it.
    pub fn into_sim(self) -> SimConfig {
        match self {
            ConfigFile::Flat(flat) => flat.to_sim(),
            ConfigFile::Grouped(grouped) => *grouped,
        }
    }
}

/// Reads and checks a config's JSON, flat or grouped: the grouped config it describes, or an
/// error naming the field.
pub fn load_config_json(text: &str) -> Result<SimConfig, String> {
    let config = ConfigFile::parse(text)?.into_sim();
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
}
