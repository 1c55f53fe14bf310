//! The flat config: every parameter in one struct, as configs, presets and permalinks were
//! written before the model was split into rooms. It still loads and runs: [`CascadeConfig::to_sim`]
//! turns it into the grouped [`SimConfig`], inventory first and payments (when on) second.
//! It is only read: nothing writes it, and no preset keeps a flat twin (the old files in
//! `tests/fixtures/old_configs/` are what it must go on reading).

use serde::Deserialize;

use crate::resilience::{
    BreakerConfig, BulkheadConfig, FallbackPolicy, LoadShedConfig, ParamError, RetryBudgetConfig,
    RetryPolicy, TokenBucketConfig, SECOND,
};
use crate::sim::latency::Micros;
use crate::sim::model::{
    fallback_policy, naming_the_path, Abandon, Arrivals, CapacityConfig, ClosedLoop,
    DependencyConfig, FaultSchedule, GatewayConfig, HistoryBulkhead, OrdersIdempotency,
    PriorityMix, Profile, QueueOrder, Resilience4jStack, RoomLayers, RoutesConfig, RunSettings,
    ServiceConfig, SidecarConfig, SimConfig, StackConfig, Traffic,
};

/// The parameters of one cascade run. Times are microseconds. Every field added after the
/// lesson's four has a serde default, so older configs keep loading; an unknown field is an
/// error naming it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CascadeConfig {
    /// [`Traffic::rate`].
    pub rate: f64,
    /// [`ServiceConfig::threads`].
    pub threads: u32,
    /// [`Traffic::duration`].
    pub duration: Micros,
    /// [`FaultSchedule::degrade_at`] of inventory, the first dependency.
    pub degrade_at: Micros,
    /// [`FaultSchedule::fast`] of inventory, the first dependency.
    pub fast: Micros,
    /// [`FaultSchedule::slow`] of inventory, the first dependency.
    pub slow: Micros,
    /// [`StackConfig::timeout`] of inventory, the first dependency.
    pub timeout: Option<Micros>,
    /// [`StackConfig::breaker`] of inventory, the first dependency.
    pub breaker: Option<BreakerConfig>,
    /// [`StackConfig::bulkhead`] of inventory, the first dependency.
    pub bulkhead: Option<BulkheadConfig>,
    /// [`RunSettings::seed`].
    pub seed: u64,
    /// [`RunSettings::drain`].
    pub drain: bool,
    /// [`RunSettings::record_requests`].
    #[serde(default)]
    pub record_requests: bool,
    /// [`Traffic::arrivals`].
    #[serde(default)]
    pub arrivals: Arrivals,
    /// [`FaultSchedule::fast_p99`] of inventory, the first dependency.
    #[serde(default)]
    pub fast_p99: Option<Micros>,
    /// [`FaultSchedule::slow_p99`] of inventory, the first dependency.
    #[serde(default)]
    pub slow_p99: Option<Micros>,
    /// [`FaultSchedule::recover_at`] of inventory, the first dependency.
    #[serde(default)]
    pub recover_at: Option<Micros>,
    /// [`FaultSchedule::error_rate`] of inventory, the first dependency.
    #[serde(default)]
    pub error_rate: f64,
    /// [`FaultSchedule::business_error_rate`] of inventory, the first dependency.
    #[serde(default)]
    pub business_error_rate: f64,
    /// [`StackConfig::business_errors_trip_breaker`] of inventory, the first dependency.
    #[serde(default)]
    pub business_errors_trip_breaker: bool,
    /// [`StackConfig::retry`] of inventory, the first dependency.
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
    /// [`StackConfig::retry_budget`] of inventory, the first dependency.
    #[serde(default)]
    pub retry_budget: Option<RetryBudgetConfig>,
    /// [`StackConfig::sidecar`] of inventory, the first dependency.
    #[serde(default)]
    pub sidecar: Option<SidecarConfig>,
    /// [`ServiceConfig::request_budget`].
    #[serde(default)]
    pub request_budget: Option<Micros>,
    /// [`ServiceConfig::fallback`]; in JSON also `true` (lesson 000's `reserve_stock`) or `false`,
    /// as configs written before the policy said it.
    #[serde(default, deserialize_with = "fallback_policy")]
    pub fallback: Option<FallbackPolicy>,
    /// [`Traffic::client_give_up`].
    #[serde(default)]
    pub client_give_up: Option<Micros>,
    /// [`Traffic::frontend_retries`].
    #[serde(default)]
    pub frontend_retries: u32,
    /// [`Traffic::frontend_backoff`].
    #[serde(default)]
    pub frontend_backoff: Micros,
    /// [`SimConfig::gateway`].
    #[serde(default)]
    pub gateway: Option<GatewayConfig>,
    /// [`RoutesConfig::catalog_share`].
    #[serde(default)]
    pub catalog_share: f64,
    /// [`RoutesConfig::catalog_latency`].
    #[serde(default)]
    pub catalog_latency: Micros,
    /// [`RoutesConfig::history_share`].
    #[serde(default)]
    pub history_share: f64,
    /// [`RoutesConfig::history_latency`].
    #[serde(default)]
    pub history_latency: Micros,
    /// [`RoutesConfig::history_bulkhead`].
    #[serde(default)]
    pub history_bulkhead: HistoryBulkhead,
    /// [`ServiceConfig::load_shed`].
    #[serde(default)]
    pub load_shed: Option<LoadShedConfig>,
    /// [`ServiceConfig::rate_limit`].
    #[serde(default)]
    pub rate_limit: Option<TokenBucketConfig>,
    /// [`Traffic::priority_mix`].
    #[serde(default)]
    pub priority_mix: PriorityMix,
    /// [`ServiceConfig::queue_limit`].
    #[serde(default)]
    pub queue_limit: Option<u64>,
    /// [`StackConfig::rooms`] of inventory, the first dependency: each layer its room declares,
    /// under its own key.
    #[serde(flatten, deserialize_with = "naming_the_path")]
    pub rooms: RoomLayers,
    /// [`ServiceConfig::idempotency`].
    #[serde(default)]
    pub idempotency: Option<OrdersIdempotency>,
    /// Payments, called after inventory on `POST /orders` with a stack of its own (off by
    /// default).
    #[serde(default)]
    pub payments: Option<PaymentsConfig>,
    /// With it, inventory's stack runs in Resilience4j's order with these settings
    /// ([`Profile::Resilience4j`]); without it, lesson 000's stack.
    #[serde(default)]
    pub resilience4j: Option<Resilience4jStack>,
    /// [`DependencyConfig::capacity`] of inventory.
    #[serde(default)]
    pub capacity: Option<CapacityConfig>,
    /// [`ServiceConfig::abandon`].
    #[serde(default)]
    pub orders_abandon: Abandon,
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
            rate_limit: None,
            priority_mix: PriorityMix::default(),
            queue_limit: None,
            rooms: RoomLayers::default(),
            idempotency: None,
            payments: None,
            capacity: None,
            orders_abandon: Abandon::Keep,
            resilience4j: None,
        }
    }
}

/// Payments, the second dependency of `POST /orders`: called once inventory has answered
/// "reserved", through a stack of its own (bulkhead -> circuit breaker -> retries -> timeout
/// -> call), built from the same machines as inventory's. Off by default
/// ([`CascadeConfig::payments`] is `None`).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentsConfig {
    /// [`FaultSchedule::fast`] of payments.
    pub fast: Micros,
    /// [`FaultSchedule::fast_p99`] of payments.
    #[serde(default)]
    pub fast_p99: Option<Micros>,
    /// [`FaultSchedule::slow`] of payments.
    pub slow: Micros,
    /// [`FaultSchedule::slow_p99`] of payments.
    #[serde(default)]
    pub slow_p99: Option<Micros>,
    /// [`FaultSchedule::degrade_at`] of payments.
    #[serde(default)]
    pub degrade_at: Option<Micros>,
    /// [`FaultSchedule::recover_at`] of payments.
    #[serde(default)]
    pub recover_at: Option<Micros>,
    /// [`FaultSchedule::error_rate`] of payments.
    #[serde(default)]
    pub error_rate: f64,
    /// [`StackConfig::timeout`] of payments.
    #[serde(default)]
    pub timeout: Option<Micros>,
    /// [`StackConfig::breaker`] of payments.
    #[serde(default)]
    pub breaker: Option<BreakerConfig>,
    /// [`StackConfig::bulkhead`] of payments.
    #[serde(default)]
    pub bulkhead: Option<BulkheadConfig>,
    /// [`StackConfig::retry`] of payments.
    #[serde(default)]
    pub retry: Option<RetryPolicy>,
    /// [`DependencyConfig::capacity`] of payments.
    #[serde(default)]
    pub capacity: Option<CapacityConfig>,
}

impl Default for PaymentsConfig {
    /// Payments as a `--set payments=on` switches it on
    /// ([`DependencyConfig::lesson_payments`]).
    fn default() -> Self {
        PaymentsConfig::from_dependency(&DependencyConfig::lesson_payments())
            .expect("lesson 000's payments has a flat form")
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
                profile: self
                    .resilience4j
                    .clone()
                    .map_or(Profile::Lesson000, Profile::Resilience4j),
                bulkhead: self.bulkhead.clone(),
                breaker: self.breaker.clone(),
                business_errors_trip_breaker: self.business_errors_trip_breaker,
                retry: self.retry,
                retry_budget: self.retry_budget.clone(),
                timeout: self.timeout,
                sidecar: self.sidecar.clone(),
                rooms: self.rooms.clone(),
            },
            capacity: self.capacity.clone(),
            hosts: None,
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
                closed_loop: ClosedLoop::default(),
                priority_mix: self.priority_mix,
                client_give_up: self.client_give_up,
                frontend_retries: self.frontend_retries,
                frontend_backoff: self.frontend_backoff,
            },
            gateway: self.gateway.clone(),
            service: ServiceConfig {
                threads: self.threads,
                queue_limit: self.queue_limit,
                queue_order: QueueOrder::Fifo,
                gc: None,
                load_shed: self.load_shed.clone(),
                rate_limit: self.rate_limit.clone(),
                request_budget: self.request_budget,
                fallback: self.fallback.clone(),
                idempotency: self.idempotency.clone(),
                abandon: self.orders_abandon,
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
    /// Payments as the flat form holds it, when `dep` is payments and has nothing more.
    fn from_dependency(dep: &DependencyConfig) -> Option<PaymentsConfig> {
        let (faults, stack) = (&dep.faults, &dep.stack);
        let payments = PaymentsConfig {
            fast: faults.fast,
            fast_p99: faults.fast_p99,
            slow: faults.slow,
            slow_p99: faults.slow_p99,
            degrade_at: faults.degrade_at,
            recover_at: faults.recover_at,
            error_rate: faults.error_rate,
            timeout: stack.timeout,
            breaker: stack.breaker.clone(),
            bulkhead: stack.bulkhead.clone(),
            retry: stack.retry,
            capacity: dep.capacity.clone(),
        };
        (payments.to_dependency() == *dep).then_some(payments)
    }

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
            capacity: self.capacity.clone(),
            hosts: None,
        }
    }
}

/// Deserialises `text`; an error starts with the field's path in the JSON (`breaker.cooldown`).
pub fn from_json_naming_the_field<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let reader = &mut serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(reader).map_err(|e| {
        let path = e.path().to_string();
        if path == "." || path == "?" {
            e.inner().to_string()
        } else {
            format!("{path}: {}", e.inner())
        }
    })
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
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| format!("{e} (allowed: a JSON object, grouped or flat)"))?;
        let Some(fields) = value.as_object() else {
            return Err(
                "expected a JSON object (allowed: a grouped config, or a flat one)".to_string(),
            );
        };
        let sections = ["run", "traffic", "service", "routes", "dependencies"];
        if sections.iter().any(|s| fields.contains_key(*s)) {
            from_json_naming_the_field(text)
                .map(|grouped| ConfigFile::Grouped(Box::new(grouped)))
                .map_err(|e| {
                    format!("{e} (allowed: a grouped config: run, traffic, service, dependencies)")
                })
        } else {
            from_json_naming_the_field(text)
                .map(|flat| ConfigFile::Flat(Box::new(flat)))
                .map_err(|e| format!("{e} (allowed: a flat config: the fields of CascadeConfig)"))
        }
    }

    /// Checks every field against its range. A duration's range is given in seconds, as
    /// everywhere else; the message adds that the file holds it in µs.
    pub fn validate(&self) -> Result<(), String> {
        let checked = match self {
            ConfigFile::Flat(flat) => flat.to_sim().validate(),
            ConfigFile::Grouped(grouped) => grouped.validate(),
        };
        checked.map_err(|e| {
            if e.is_duration() {
                format!("{e} (a config file gives durations in µs)")
            } else {
                e.to_string()
            }
        })
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
    let config = ConfigFile::parse(text)?;
    config.validate()?;
    Ok(config.into_sim())
}
