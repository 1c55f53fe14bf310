//! The parameters of one run, grouped by the room that uses them: the run itself, the traffic
//! and its clients, the gateway, the service `orders`, the routes besides `/orders`, and the
//! dependencies `/orders` calls, in call order. This is the one configuration the simulator,
//! the page, the CLI and the exercises hold; [`crate::sim::config_file::CascadeConfig`], the flat form it grew
//! out of, is only read from old files and turned into this one.

use serde::{Deserialize, Serialize};

use super::dependency_config::{Abandon, DependencyConfig, FaultSchedule, StackConfig};
use super::{HOUR, MAX_REQUESTS, SECOND};
use crate::resilience::{
    BreakerConfig, BulkheadConfig, FallbackPolicy, IdempotencyConfig, LoadShedConfig, ParamError,
    TokenBucketConfig,
};
use crate::sim::latency::Micros;
use crate::sim::trace::Route;

/// How requests arrive.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arrivals {
    /// One every `1/rate` s from time 0, as the lesson's loop sends them.
    #[default]
    Even,
    /// A Poisson process of intensity `rate` (exponential gaps, from the run's seeded stream).
    Poisson,
    /// A closed loop: [`ClosedLoop::clients`] clients, each sending its next request only once
    /// the last one is over (answered, or given up on after the front end's resends), after a
    /// think time; `rate` is not used.
    Closed,
}

/// The clients of a closed loop ([`Arrivals::Closed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClosedLoop {
    /// How many clients (1..=100000).
    pub clients: u32,
    /// The mean of a client's think time between the end of one request and its next
    /// (exponential, from the run's seeded stream; 0..=600 s). The first request of each
    /// client goes out within one think time of the start.
    pub think_time: Micros,
}

impl Default for ClosedLoop {
    /// 50 clients thinking 0.5 s: about 92 requests a second while answers take 40 ms.
    fn default() -> Self {
        ClosedLoop {
            clients: 50,
            think_time: SECOND / 2,
        }
    }
}

impl ClosedLoop {
    /// `clients`.
    pub const CLIENTS: (u64, u64) = (1, 100_000);
    /// `think_time`.
    pub const THINK_TIME: (Micros, Micros) = (0, 600 * SECOND);

    /// True for the default (left out of a config's JSON).
    pub fn is_default(&self) -> bool {
        *self == ClosedLoop::default()
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::CLIENTS;
        ParamError::check_u64("clients", self.clients.into(), min, max, "")?;
        let (min, max) = Self::THINK_TIME;
        ParamError::check_micros("think_time", self.think_time, min, max)
    }
}

/// Which queued request a free worker of `orders` takes next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueOrder {
    /// The oldest first, as the lesson's service (and most thread pools) do.
    #[default]
    Fifo,
    /// The newest first: after an overload, the requests whose clients are still waiting are
    /// served before those whose clients have likely left.
    Lifo,
    /// Oldest first while the queue holds no more requests than there are workers, newest
    /// first beyond that (the adaptive LIFO of Facebook's queues, with the workers' count as
    /// its line).
    Adaptive,
}

impl QueueOrder {
    /// Every order, by its `--set queue_order=` value.
    pub const NAMES: [&'static str; 3] = ["fifo", "lifo", "adaptive"];
    /// Every order, in the order of [`QueueOrder::NAMES`].
    pub const ALL: [QueueOrder; 3] = [QueueOrder::Fifo, QueueOrder::Lifo, QueueOrder::Adaptive];

    /// True for the default, [`QueueOrder::Fifo`] (left out of a config's JSON).
    pub fn is_fifo(&self) -> bool {
        *self == QueueOrder::Fifo
    }
}

/// The heap of `orders` and its garbage collector: every request `orders` holds (busy or
/// queued) keeps memory; beyond `threshold` requests, collections pause the workers, and each
/// request a worker starts waits out its share of the pause first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GcConfig {
    /// Requests held (busy or queued) from which collections pause work (1..=1000000).
    pub threshold: u64,
    /// The pause a worker waits out before each request it starts, for every `threshold`
    /// requests held beyond `threshold` (1 ms..=60 s); at most 10 s a request.
    pub pause: Micros,
}

impl GcConfig {
    /// `gc_threshold`.
    pub const THRESHOLD: (u64, u64) = (1, 1_000_000);
    /// `gc_pause`.
    pub const PAUSE: (Micros, Micros) = (1_000, 60 * SECOND);

    /// A heap that starts pausing at 100 requests held: 200 ms a request at 200 held.
    pub fn spiral() -> Self {
        GcConfig {
            threshold: 100,
            pause: 200_000,
        }
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::THRESHOLD;
        ParamError::check_u64("gc_threshold", self.threshold, min, max, "")?;
        let (min, max) = Self::PAUSE;
        ParamError::check_micros("gc_pause", self.pause, min, max)
    }
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

    /// The ranges `validate` accepts, which the parameter rows offer too: `gateway_pool`.
    pub const POOL: (u64, u64) = (1, 100_000);
    /// A route's timeout.
    pub const TIMEOUT: (Micros, Micros) = (1_000, HOUR);
    /// `gateway_retries`.
    pub const RETRIES: (u64, u64) = (0, 10);

    /// Checks every field against its range, naming it under `gateway` (`gateway.pool`).
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check_fields().map_err(|e| e.within("gateway"))
    }

    fn check_fields(&self) -> Result<(), ParamError> {
        ParamError::check_u64("pool", self.pool.into(), Self::POOL.0, Self::POOL.1, "")?;
        let timeouts = [
            ("route_timeout", self.route_timeout),
            ("route_timeouts.orders", self.route_timeouts.orders),
            ("route_timeouts.catalog", self.route_timeouts.catalog),
            (
                "route_timeouts.order_history",
                self.route_timeouts.order_history,
            ),
        ];
        for (field, t) in timeouts {
            if let Some(t) = t {
                ParamError::check_micros(field, t, Self::TIMEOUT.0, Self::TIMEOUT.1)?;
            }
        }
        let (min, max) = Self::RETRIES;
        ParamError::check_u64("retries", self.retries.into(), min, max, "")?;
        Ok(())
    }
}

/// `fallback` in JSON: a [`FallbackPolicy`], `null`, or a bool as before the policy
/// (`true`: lesson 000's pending confirmation).
pub fn fallback_policy<'de, D: serde::Deserializer<'de>>(
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

/// Idempotency keys on `POST /orders` as the front end re-sends it (off by default, and then
/// not modelled: [`Trace::orders`](crate::sim::trace::Trace::orders) is absent). With it, the simulator counts the orders
/// created and the duplicates among them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrdersIdempotency {
    /// True: every copy of one order carries the same `Idempotency-Key`, and `orders` keeps the
    /// key in an [`IdempotencyStore`](crate::resilience::idempotency::IdempotencyStore): a copy arriving while the first is being worked on waits
    /// for its answer, one arriving after gets the stored answer, neither is processed again.
    /// False: no key; a copy is processed again and may create a second order.
    pub key: bool,
    /// How long `orders` keeps a key's answer (1 s..=30 days; lesson 000: 24 h).
    #[serde(default)]
    pub store: IdempotencyConfig,
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

/// One run's parameters, grouped. Times are microseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimConfig {
    /// Seed, draining and the per-request log.
    pub run: RunSettings,
    /// How clients send requests, and what they do when one fails.
    pub traffic: Traffic,
    /// The gateway in front of every route, if any.
    #[serde(default)]
    pub gateway: Option<GatewayConfig>,
    /// The service `orders`: workers, queue, shedding, idempotency, budget, fallback.
    pub service: ServiceConfig,
    /// The routes besides `POST /orders`.
    #[serde(default)]
    pub routes: RoutesConfig,
    /// What `POST /orders` calls, in order: the next one once the one before answered
    /// (inventory, then payments, in the lesson's shop). At least one.
    pub dependencies: Vec<DependencyConfig>,
}

/// How the run itself goes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSettings {
    /// Seed of the run's one random stream (ChaCha8). The lesson's model draws nothing.
    pub seed: u64,
    /// True: run until every request finishes (the lesson). False: stop at the traffic's
    /// `duration` and count what is left as unfinished.
    pub drain: bool,
    /// Keep one record per request in the Trace (memory grows with the request count).
    #[serde(default)]
    pub record_requests: bool,
}

/// The clients: how many requests, how they arrive, and how they insist.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Traffic {
    /// Requests per second (0.1..=10000).
    pub rate: f64,
    /// How long requests keep arriving (1 ms..=600 s).
    pub duration: Micros,
    /// Evenly spaced (the lesson) or Poisson arrivals, or a closed loop of clients.
    #[serde(default)]
    pub arrivals: Arrivals,
    /// The clients when `arrivals` is a closed loop.
    #[serde(default, skip_serializing_if = "ClosedLoop::is_default")]
    pub closed_loop: ClosedLoop,
    /// Priorities of the requests.
    #[serde(default)]
    pub priority_mix: PriorityMix,
    /// The client leaves after this long without an answer (1 ms..=3600 s).
    #[serde(default)]
    pub client_give_up: Option<Micros>,
    /// Times the front end sends a request again after a failure or giving up (0..=5).
    #[serde(default)]
    pub frontend_retries: u32,
    /// Wait before a front-end retry (0..=600 s).
    #[serde(default)]
    pub frontend_backoff: Micros,
}

/// The service `orders`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServiceConfig {
    /// Workers (1..=10000).
    pub threads: u32,
    /// Longest the queue may get; arrivals past it are shed (1..=10000000; `None`: unbounded).
    #[serde(default)]
    pub queue_limit: Option<u64>,
    /// Which queued request a free worker takes: the oldest (FIFO), the newest (LIFO) or
    /// adaptive.
    #[serde(default, skip_serializing_if = "QueueOrder::is_fifo")]
    pub queue_order: QueueOrder,
    /// Garbage collection pauses that grow with the requests held (`None`: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gc: Option<GcConfig>,
    /// Load shedding by priority at the door (in flight = busy + queued).
    #[serde(default)]
    pub load_shed: Option<LoadShedConfig>,
    /// A rate limit at the door: a token bucket; a request without a token gets 429 with a
    /// `Retry-After`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_limit: Option<TokenBucketConfig>,
    /// Each request's time budget from its arrival (1 ms..=3600 s): queue wait spends it, and
    /// every dependency's timeout layer is cut to what is left of it.
    #[serde(default)]
    pub request_budget: Option<Micros>,
    /// What `POST /orders` answers when its first dependency cannot be used.
    #[serde(default, deserialize_with = "fallback_policy")]
    pub fallback: Option<FallbackPolicy>,
    /// Idempotency keys on the front end's copies of `POST /orders`, and the duplicate count.
    #[serde(default)]
    pub idempotency: Option<OrdersIdempotency>,
    /// What a worker does with a queued request whose client has already gone (given up or
    /// answered by the gateway's timeout): work on it anyway, or skip it.
    #[serde(default, skip_serializing_if = "Abandon::is_keep")]
    pub abandon: Abandon,
}

/// `GET /catalog` and order history: shares of the traffic and how long they take.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutesConfig {
    /// Share of requests that are `GET /catalog` (0..=1).
    #[serde(default)]
    pub catalog_share: f64,
    /// How long the catalog service takes (0..=3600 s).
    #[serde(default)]
    pub catalog_latency: Micros,
    /// Share of requests that are order-history lookups (0..=1, with the catalog share <= 1).
    #[serde(default)]
    pub history_share: f64,
    /// How long a lookup takes once it holds its permit (0..=3600 s).
    #[serde(default)]
    pub history_latency: Micros,
    /// The bulkhead lookups go through (`Shared`: the first dependency's).
    #[serde(default)]
    pub history_bulkhead: HistoryBulkhead,
}

impl Default for SimConfig {
    /// The lesson's `cascade.py` with no protection: 100 requests/s for 12 s into 32 workers,
    /// inventory 40 ms, then 4 s for calls starting after 3 s; drained. Everything added since
    /// is off.
    fn default() -> Self {
        SimConfig {
            run: RunSettings {
                seed: 0,
                drain: true,
                record_requests: false,
            },
            traffic: Traffic {
                rate: 100.0,
                duration: 12 * SECOND,
                arrivals: Arrivals::Even,
                closed_loop: ClosedLoop::default(),
                priority_mix: PriorityMix::default(),
                client_give_up: None,
                frontend_retries: 0,
                frontend_backoff: 0,
            },
            gateway: None,
            service: ServiceConfig {
                threads: 32,
                queue_limit: None,
                queue_order: QueueOrder::Fifo,
                gc: None,
                load_shed: None,
                rate_limit: None,
                request_budget: None,
                fallback: None,
                idempotency: None,
                abandon: Abandon::Keep,
            },
            routes: RoutesConfig::default(),
            dependencies: vec![DependencyConfig::lesson_inventory()],
        }
    }
}

impl DependencyConfig {
    /// Inventory as the lesson's `cascade.py` has it: 40 ms, then 4 s for calls starting after
    /// 3 s, called with no protection.
    pub fn lesson_inventory() -> Self {
        DependencyConfig {
            name: "inventory".to_string(),
            faults: FaultSchedule {
                fast: 40_000,
                fast_p99: None,
                slow: 4 * SECOND,
                slow_p99: None,
                degrade_at: Some(3 * SECOND),
                recover_at: None,
                error_rate: 0.0,
                business_error_rate: 0.0,
            },
            stack: StackConfig::default(),
            capacity: None,
            hosts: None,
        }
    }
}

impl DependencyConfig {
    /// A healthy payments service behind the lesson's protections, as `payments=on` adds it
    /// after inventory: 60 ms, 2 s once degraded (never, until `degrade_at` is set), a 300 ms
    /// timeout, the lesson's breaker and a bulkhead of 8 permits; no retries.
    pub fn lesson_payments() -> Self {
        DependencyConfig {
            name: "payments".to_string(),
            faults: FaultSchedule {
                fast: 60_000,
                fast_p99: None,
                slow: 2 * SECOND,
                slow_p99: None,
                degrade_at: None,
                recover_at: None,
                error_rate: 0.0,
                business_error_rate: 0.0,
            },
            stack: StackConfig {
                timeout: Some(300_000),
                breaker: Some(BreakerConfig::lesson_000()),
                bulkhead: Some(BulkheadConfig::cascade_sim()),
                ..StackConfig::default()
            },
            capacity: None,
            hosts: None,
        }
    }
}

impl SimConfig {
    /// The first dependency `POST /orders` calls (inventory, in the lesson's shop), whose
    /// parameters the plain keys (`timeout`, `fast`) name; `None` only in a config that
    /// [`SimConfig::validate`] refuses.
    pub fn first(&self) -> Option<&DependencyConfig> {
        self.dependencies.first()
    }

    /// The first dependency's stack, if there is one.
    pub fn first_stack(&self) -> Option<&StackConfig> {
        self.first().map(|d| &d.stack)
    }

    /// The first dependency's circuit breaker, if it has one.
    pub fn first_breaker(&self) -> Option<&BreakerConfig> {
        self.first_stack().and_then(|s| s.breaker.as_ref())
    }

    /// The first dependency, lesson 000's inventory put in first if the list is empty.
    pub fn first_mut(&mut self) -> &mut DependencyConfig {
        if self.dependencies.is_empty() {
            self.dependencies.push(DependencyConfig::lesson_inventory());
        }
        &mut self.dependencies[0]
    }

    /// The first dependency's stack (see [`SimConfig::first_mut`]).
    pub fn first_stack_mut(&mut self) -> &mut StackConfig {
        &mut self.first_mut().stack
    }
}

/// Most dependencies one config may list.
pub const MAX_DEPENDENCIES: usize = 8;

/// How a check names a dependency's parameter, from the dependency's place in the list, its
/// name and the error its check gave: the error named by a key, or `None` for a field that
/// has none.
pub type KeyOf = fn(usize, &str, &ParamError) -> Option<ParamError>;

/// The model's own naming: the first dependency's fields are named where they sit in its
/// config (`timeout`, `breaker.half_open_probes`), the others' have none. The parameter table
/// names them all by key at the text edge (`SimConfig::validate` in `params`: `probes`,
/// `payments_timeout`).
pub fn own_field(index: usize, _name: &str, e: &ParamError) -> Option<ParamError> {
    (index == 0).then(|| e.clone())
}

impl SimConfig {
    /// Checks every field against its range, naming the first one that is off by its key:
    /// the first dependency's keys are plain (`timeout`); another dependency's parameter is
    /// named by `key_of`, or by the dependency (payments) with the field beside the value.
    pub fn validate_naming(&self, key_of: KeyOf) -> Result<(), ParamError> {
        self.traffic.validate()?;
        self.service.validate()?;
        if let Some(g) = &self.gateway {
            g.validate()?;
        }
        self.routes.validate()?;
        let count = self.dependencies.len();
        if !(1..=MAX_DEPENDENCIES).contains(&count) {
            return Err(ParamError::new(
                "dependencies",
                format!("1..={MAX_DEPENDENCIES} dependencies"),
                count.to_string(),
            ));
        }
        for (index, dep) in self.dependencies.iter().enumerate() {
            let named_before = self.dependencies[..index]
                .iter()
                .any(|d| d.name == dep.name);
            if named_before {
                return Err(ParamError::new(
                    "name",
                    "a name no other dependency has",
                    dep.name.clone(),
                ));
            }
            dep.validate()
                .map_err(|e| dependency_error(index, &dep.name, e, key_of))?;
        }
        let library = self.dependencies.iter().find(|d| d.stack.is_library());
        if let (Some(d), Some(_)) = (library, self.service.request_budget) {
            return Err(ParamError::new(
                "request_budget",
                format!(
                    "off with stack={} (lesson 000's request budget is not one of its strategies)",
                    d.stack.profile.key()
                ),
                "set",
            ));
        }
        Ok(())
    }
}

/// Names an error of the dependency at `index` as `key_of` says it.
fn dependency_error(index: usize, name: &str, e: ParamError, key_of: KeyOf) -> ParamError {
    if let Some(named) = key_of(index, name, &e) {
        return named;
    }
    let field = e.path();
    match name {
        "payments" => ParamError {
            field: "payments",
            section: None,
            value: format!("{} ({field})", e.value),
            ..e
        },
        _ => ParamError {
            value: format!("{} (dependency {name})", e.value),
            ..e
        },
    }
}

impl Traffic {
    /// The ranges `validate` accepts, which the parameter rows offer too: `rate`.
    pub const RATE: (f64, f64) = (0.1, 10_000.0);
    /// `duration`.
    pub const DURATION: (Micros, Micros) = (1_000, 600 * SECOND);
    /// `client_give_up`.
    pub const GIVE_UP: (Micros, Micros) = (1_000, HOUR);
    /// `frontend_retries`.
    pub const FRONTEND_RETRIES: (u64, u64) = (0, 5);
    /// `frontend_backoff`.
    pub const FRONTEND_BACKOFF: (Micros, Micros) = (0, 600 * SECOND);

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::RATE;
        ParamError::check_f64("rate", self.rate, min, max, "requests/s")?;
        let (min, max) = Self::DURATION;
        ParamError::check_micros("duration", self.duration, min, max)?;
        self.closed_loop.validate()?;
        if let Some(g) = self.client_give_up {
            ParamError::check_micros("client_give_up", g, Self::GIVE_UP.0, Self::GIVE_UP.1)?;
        }
        let (min, max) = Self::FRONTEND_RETRIES;
        ParamError::check_u64(
            "frontend_retries",
            self.frontend_retries.into(),
            min,
            max,
            "",
        )?;
        let (min, max) = Self::FRONTEND_BACKOFF;
        ParamError::check_micros("frontend_backoff", self.frontend_backoff, min, max)?;
        ParamError::check_share("priority_high", self.priority_mix.high)?;
        ParamError::check_share("priority_low", self.priority_mix.low)?;
        ParamError::check_f64(
            "priority_low",
            self.priority_mix.low,
            0.0,
            1.0 - self.priority_mix.high,
            "(priority_high + priority_low <= 1)",
        )?;
        if self.requests() > MAX_REQUESTS {
            return Err(ParamError::new(
                "rate",
                format!("rate × duration <= {MAX_REQUESTS} requests"),
                format!(
                    "{} requests/s for {} s",
                    self.rate,
                    crate::resilience::error::seconds(self.duration)
                ),
            ));
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
}

impl ServiceConfig {
    /// The ranges `validate` accepts, which the parameter rows offer too: `threads`.
    pub const THREADS: (u64, u64) = (1, 10_000);
    /// `request_budget`.
    pub const REQUEST_BUDGET: (Micros, Micros) = (1_000, HOUR);
    /// `queue_limit`.
    pub const QUEUE_LIMIT: (u64, u64) = (1, 10_000_000);

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::THREADS;
        ParamError::check_u64("threads", self.threads.into(), min, max, "")?;
        if let Some(b) = self.request_budget {
            let (min, max) = Self::REQUEST_BUDGET;
            ParamError::check_micros("request_budget", b, min, max)?;
        }
        if let Some(r) = &self.rate_limit {
            r.validate().map_err(|e| e.within("rate_limit"))?;
        }
        if let Some(l) = &self.load_shed {
            l.validate().map_err(|e| e.within("load_shed"))?;
        }
        if let Some(gc) = &self.gc {
            gc.validate()?;
        }
        if let Some(q) = self.queue_limit {
            let (min, max) = Self::QUEUE_LIMIT;
            ParamError::check_u64("queue_limit", q, min, max, "")?;
        }
        if let Some(i) = &self.idempotency {
            let (min, max) = crate::resilience::IdempotencyConfig::TTL;
            ParamError::check_micros("idempotency_ttl", i.store.ttl, min, max)?;
        }
        Ok(())
    }
}

impl RoutesConfig {
    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_share("catalog_share", self.catalog_share)?;
        ParamError::check_share("history_share", self.history_share)?;
        ParamError::check_f64(
            "history_share",
            self.history_share,
            0.0,
            1.0 - self.catalog_share,
            "(catalog_share + history_share <= 1)",
        )?;
        ParamError::check_micros("catalog_latency", self.catalog_latency, 0, HOUR)?;
        ParamError::check_micros("history_latency", self.history_latency, 0, HOUR)?;
        if let HistoryBulkhead::Own(b) = &self.history_bulkhead {
            b.validate()?;
        }
        Ok(())
    }
}
