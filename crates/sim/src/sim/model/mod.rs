//! The cascade as a discrete-event model. Clients send requests (evenly spaced or Poisson) on
//! three routes through an optional gateway with a connection pool; `orders` serves `/orders`
//! and order history with a pool of workers behind a FIFO queue (optionally bounded, with
//! load shedding by priority); each `/orders` request calls its dependencies in order
//! (inventory, then payments when there is payments), each through a stack of its own
//! (bulkhead -> circuit breaker -> retries (+ retry budget) -> timeout (+ request budget) ->
//! sidecar -> call, with an optional hedge), composed from the state machines of
//! [`crate::resilience`]. A dependency follows a fault schedule: slow (and maybe failing) for
//! calls starting strictly after `degrade_at`, fast again strictly after `recover_at`.
//!
//! The model is split into rooms, each owning its state: `arrivals` (the open loop),
//! `gateway` (the edge and the client's answer), `service` (workers, queue, shedding,
//! idempotency), `heap` (its garbage collection pauses), `stack` (the layers around a call),
//! `hedging` (when a try gets copies), `dependency` (how a dependency answers, and the copies
//! of a try), the request `slab`, and the `recorder`, which owns every figure. This file
//! holds the run loop and dispatches each event to its room.
//!
//! Memory does not grow with the number of requests: arrivals are generated one at a time,
//! a request's state is freed when it is over, and latencies go to histograms. Only the
//! optional per-request log grows.

mod arrivals;
mod cache;
pub mod call_end;
pub mod config;
mod dependency;
pub mod dependency_config;
mod envoy;
mod events;
mod follow;
mod gateway;
pub mod grpc;
mod heap;
mod hedging;
mod hosts;
mod hot_items;
mod library_rules;
mod limiter;
mod load_recorder;
pub mod param;
pub mod part;
pub mod polly;
pub mod profile;

mod profile_file;
mod recorder;
pub mod resilience4j;
mod servers;
mod service;
mod slab;
mod stack;
mod stack_library;
#[cfg(test)]
mod tests;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use crate::sim::pattern::{Descriptor, Pattern, Place};
use crate::sim::trace::{LayerRefusal, RefusedCounts};
pub use config::{
    fallback_policy, own_field, Arrivals, ClosedLoop, GatewayConfig, GcConfig, HistoryBulkhead,
    KeyOf, OrdersIdempotency, PriorityMix, QueueOrder, RouteTimeouts, RoutesConfig, RunSettings,
    ServiceConfig, SimConfig, Traffic, MAX_DEPENDENCIES,
};
pub use dependency_config::{
    Abandon, CacheConfig, CacheFill, CapacityConfig, DependencyConfig, FaultSchedule, HostsConfig,
    OutlierDetection, SidecarConfig, StackConfig,
};
pub use envoy::RETRY_OVERFLOW;
pub use follow::follow;
pub use grpc::{GrpcStack, RETRIES_THROTTLED};
pub use hedging::{HedgeConfig, COPIES_SENT, COPIES_WON};
pub use limiter::{LIMIT, REFUSED};
pub use polly::PollyStack;
pub use profile::Profile;
pub(crate) use profile_file::naming_the_path;
pub use resilience4j::{Exception, FallbackPlace, Resilience4jStack};
pub use stack::RETRIES_OVER_BUDGET;

impl Pattern {
    /// Every pattern, each declared in its own room.
    pub const ALL: [Pattern; 10] = [
        Pattern::TIMEOUT,
        Pattern::RETRY,
        Pattern::RETRY_BUDGET,
        Pattern::BREAKER,
        Pattern::BULKHEAD,
        Pattern::SIDECAR,
        Pattern::HEDGE,
        Pattern::LOAD_SHED,
        Pattern::RATE_LIMIT,
        Pattern::ADAPTIVE_LIMIT,
    ];

    /// The patterns the page's panel switches, in its order (those whose descriptor says
    /// `switch`; a test checks).
    pub const SWITCHES: [Pattern; 9] = [
        Pattern::TIMEOUT,
        Pattern::RETRY,
        Pattern::RETRY_BUDGET,
        Pattern::BREAKER,
        Pattern::BULKHEAD,
        Pattern::LOAD_SHED,
        Pattern::RATE_LIMIT,
        Pattern::HEDGE,
        Pattern::ADAPTIVE_LIMIT,
    ];

    /// Its place in [`Pattern::ALL`].
    pub fn index(self) -> usize {
        Pattern::ALL
            .iter()
            .position(|p| *p == self)
            .expect("every pattern is listed in ALL")
    }
}

/// Every pattern's name in a file, in [`Pattern::ALL`]'s order.
const WRITTEN: [&str; Pattern::ALL.len()] = {
    let mut names = [""; Pattern::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Pattern::ALL[i].describe().written;
        i += 1;
    }
    names
};

/// A pattern is read by the name it is written with (`"retry"`, as in a stack's `order`).
impl<'de> serde::Deserialize<'de> for Pattern {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_by_name(deserializer, &Pattern::ALL, &WRITTEN)
    }
}

/// The one of `all` whose name (its place in `names`, which lists them in order) a file
/// writes, or an error listing `names`.
fn read_by_name<'de, D: serde::Deserializer<'de>, T: Copy>(
    deserializer: D,
    all: &[T],
    names: &'static [&'static str],
) -> Result<T, D::Error> {
    let name = <String as serde::Deserialize>::deserialize(deserializer)?;
    let at = names.iter().position(|n| *n == name);
    at.map(|i| all[i])
        .ok_or_else(|| serde::de::Error::unknown_variant(&name, names))
}

impl Outcome {
    /// The ways the layers refuse a call that no plain outcome names, each declared in its
    /// room.
    pub const REFUSALS: [LayerRefusal; 1] = [limiter::REFUSED];

    /// Every outcome, in the order the lesson's table sorts them (by name).
    pub const ALL: [Outcome; Outcome::PLAIN.len() + Outcome::REFUSALS.len()] = {
        let mut all = [Outcome::Ok; Outcome::PLAIN.len() + Outcome::REFUSALS.len()];
        let mut i = 0;
        while i < all.len() {
            let next = if i < Outcome::PLAIN.len() {
                Outcome::PLAIN[i]
            } else {
                Outcome::Refused(Outcome::REFUSALS[i - Outcome::PLAIN.len()])
            };
            // Insertion: shift the names after `next` one place on.
            let mut at = i;
            while at > 0 && comes_before(next.name(), all[at - 1].name()) {
                all[at] = all[at - 1];
                at -= 1;
            }
            all[at] = next;
            i += 1;
        }
        all
    };
}

/// Whether `a` sorts before `b`, byte by byte (a `const` comparison of names).
const fn comes_before(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

/// An outcome is read by its name, a layer's refusal among [`Outcome::REFUSALS`].
impl<'de> serde::Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_by_name(deserializer, &Outcome::ALL, &OUTCOME_NAMES)
    }
}

/// Every outcome's name, in [`Outcome::ALL`]'s order.
const OUTCOME_NAMES: [&str; Outcome::ALL.len()] = {
    let mut names = [""; Outcome::ALL.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = Outcome::ALL[i].name();
        i += 1;
    }
    names
};

/// The layers' refusals are written each under its name, left out when 0.
impl serde::Serialize for RefusedCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let counted = Outcome::REFUSALS.map(|r| (r.facts().name, self.get(r)));
        let counted = counted.iter().filter(|(_, count)| *count > 0);
        let mut map = serializer.serialize_map(Some(counted.clone().count()))?;
        for (name, count) in counted {
            map.serialize_entry(name, count)?;
        }
        map.end()
    }
}

/// A refusal is read by its name; the other keys beside it (the plain outcomes') are left to
/// the counts around it.
impl<'de> serde::Deserialize<'de> for RefusedCounts {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Counts;
        impl<'de> serde::de::Visitor<'de> for Counts {
            type Value = RefusedCounts;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("counts by outcome")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Self::Value, M::Error> {
                let mut counts = RefusedCounts::default();
                while let Some(name) = map.next_key::<String>()? {
                    match Outcome::REFUSALS
                        .into_iter()
                        .find(|r| r.facts().name == name)
                    {
                        Some(refusal) => counts.add(refusal, map.next_value()?),
                        None => {
                            map.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(counts)
            }
        }
        deserializer.deserialize_map(Counts)
    }
}

/// The rows of the parameter table a pattern's room declares beside its mechanism, in the
/// table's order: the table (`params::PARAMS`) sets them after the call's other layers.
pub const ROOM_ROWS: [&[param::Param]; 2] = [hedging::ROWS, limiter::ROWS];

/// The settings of the layers whose room declares them (`None`: the layer is off), each
/// written in a stack's file under its own key beside the other layers'.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct RoomLayers {
    /// A hedge on each try.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hedge: Option<HedgeConfig>,
    /// An adaptive concurrency limit outside every other layer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub adaptive_limit: Option<crate::resilience::AdaptiveLimitConfig>,
}

/// The layers whose row (whether it is on, its check, its defaults) a pattern's room declares
/// beside its descriptor, in the order a stack's check takes them after the others.
const ROOM_LAYERS: [dependency_config::Layer; 2] = [hedging::LAYER, limiter::LAYER];

/// The patterns at the door of `orders`, each a [`part::Door`] its room declares.
const DOORS: [part::Door; 2] = [service::LOAD_SHED, service::RATE_LIMIT];

/// What builds each layer that acts inside a stack's tries, from the stack's config.
type MakeInsideTry = fn(&StackConfig) -> Result<Option<Box<dyn stack::InsideTry>>, ParamError>;

/// The layers that act inside each try, each built by its room (`None` while it is off).
const INSIDE_TRY: [MakeInsideTry; 1] = [hedging::of];

/// What builds the layer outside every other of a stack, from the stack's config.
type MakeOutermost = fn(&StackConfig) -> Result<Option<Box<dyn stack::Outermost>>, ParamError>;

/// The layers that may stand outside every other, each built by its room (`None` while it is
/// off); a stack has the first that is on.
const OUTERMOST: [MakeOutermost; 1] = [limiter::of];

/// Keys renamed since links and lessons were first written, each with the row's key now: an
/// old name is read as the new one everywhere a key is read (`--set`, links, widget
/// attributes, lessons), so what was written with it keeps working. Nothing writes it.
pub const OLD_NAMES: [(&str, &str); 1] = [hedging::OLD_NAME];

/// Every counter a layer keeps, in the order a lesson's vocabulary lists them.
pub const COUNTERS: [Counter; 5] = [
    COPIES_SENT,
    COPIES_WON,
    RETRY_OVERFLOW,
    RETRIES_THROTTLED,
    RETRIES_OVER_BUDGET,
];

/// Every level a layer keeps, in the order a lesson's vocabulary lists them.
pub const LEVELS: [Level; 1] = [LIMIT];

use super::engine::{EngineError, EventQueue, DEFAULT_EVENT_CAP};
use super::latency::Micros;
use super::trace::{Counter, Level, Outcome, Trace, BUCKET};
use crate::resilience::ParamError;
use arrivals::ArrivalProcess;
use dependency::Dependency;
use events::{Event, Id};
use gateway::Gateway;
use recorder::{Ending, Gauges, Recorder};
use service::Service;
use slab::Slab;

const SECOND: Micros = 1_000_000;
const HOUR: Micros = 3_600 * SECOND;
/// Most requests one run may send (`rate × duration`, its expected value for Poisson).
pub const MAX_REQUESTS: u64 = 1_000_000;
/// Most 100 ms buckets one trace keeps (10 000 s of virtual time); later events are counted
/// in the totals but not in the series.
pub const MAX_BUCKETS: usize = 100_000;

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

/// The model while it runs: the event queue, the random stream and the rooms.
struct Sim<'a> {
    cfg: &'a SimConfig,
    q: EventQueue<Event>,
    rng: ChaCha8Rng,
    requests: Slab,
    arrivals: ArrivalProcess,
    gateway: Option<Gateway<'a>>,
    service: Service,
    deps: Vec<Dependency>,
    recorder: Recorder,
    /// Tries sent to dependencies with a capacity so far, all dependencies together: each
    /// try's number, so an answer, a hedge or a timeout reaches the request only while it
    /// still waits for that very try.
    tries_sent: u32,
    /// The recorder of one request's life, when the run follows one.
    follow: Option<Box<follow::Follow>>,
}

/// Runs the cascade described by `cfg`, with [`DEFAULT_EVENT_CAP`].
pub fn run(cfg: &SimConfig) -> Result<Trace, RunError> {
    run_with_cap(cfg, DEFAULT_EVENT_CAP)
}

/// Runs the cascade described by `cfg`, stopping with [`RunError::Engine`] after `cap` events.
pub fn run_with_cap(cfg: &SimConfig, cap: u64) -> Result<Trace, RunError> {
    cfg.validate_naming(own_field)?;
    let mut sim = Sim::new(cfg, cap)?;
    let end = sim.run()?;
    Ok(sim.finish(end))
}

impl<'a> Sim<'a> {
    fn new(cfg: &'a SimConfig, cap: u64) -> Result<Self, ParamError> {
        let deps = cfg
            .dependencies
            .iter()
            .map(Dependency::new)
            .collect::<Result<Vec<_>, _>>()?;
        let mut recorder = Recorder::new(
            cfg.run.record_requests,
            deps.len(),
            cfg.routes.catalog_share > 0.0 || cfg.routes.history_share > 0.0,
        );
        for counter in deps.iter().flat_map(|d| d.stack.counters()) {
            recorder.declare(counter);
        }
        for (index, dep) in deps.iter().enumerate() {
            if let Some(servers) = &dep.servers {
                let (slots, hot) = (servers.slots(), servers.hot.is_some());
                recorder.watch_load(index, slots, hot, dep.cache.is_some());
            }
        }
        Ok(Sim {
            cfg,
            q: EventQueue::with_cap(cap),
            rng: ChaCha8Rng::seed_from_u64(cfg.run.seed),
            requests: Slab::default(),
            arrivals: ArrivalProcess::new(&cfg.traffic, &cfg.routes)?,
            gateway: cfg.gateway.as_ref().map(Gateway::new),
            service: Service::new(&cfg.service, &cfg.routes.history_bulkhead)?,
            recorder,
            deps,
            tries_sent: 0,
            follow: None,
        })
    }

    /// Runs every event (or those before `duration`, without draining); returns the end.
    fn run(&mut self) -> Result<Micros, EngineError> {
        self.arrivals.schedule_first(&mut self.q, &mut self.rng);
        for (dep, d) in self.cfg.dependencies.iter().enumerate() {
            let restarts = d.capacity.as_ref().is_some_and(|c| c.restart_at_recovery);
            if let (true, Some(at)) = (restarts, d.faults.recover_at) {
                self.q.schedule(at, Event::Restart(dep));
            }
            if let Some(at) = d.capacity.as_ref().and_then(|c| c.cache?.flush_at) {
                self.q.schedule(at, Event::CacheFlush(dep));
            }
        }
        let duration = self.cfg.traffic.duration;
        let mut end = 0;
        loop {
            if !self.cfg.run.drain && self.q.peek_time().is_some_and(|t| t >= duration) {
                end = duration;
                break;
            }
            let Some((now, event)) = self.q.pop()? else {
                break;
            };
            end = now;
            self.fill_gauges(now);
            self.handle(now, event);
        }
        Ok(end)
    }

    #[inline]
    fn fill_gauges(&mut self, now: Micros) {
        let Some(idx) = self.recorder.gauges_due(now) else {
            return;
        };
        for (dep, d) in self.deps.iter().enumerate() {
            if let Some((busy, queued)) = d.servers.as_ref().map(|s| s.load()) {
                self.recorder.fill_load_gauges(dep, idx, busy, queued);
            }
        }
        let (busy, queue_len) = self.service.load();
        let first = self.deps.first().map(|d| &d.stack);
        self.recorder.fill_gauges(
            idx,
            Gauges {
                busy,
                queue_len,
                connections: self.gateway.as_ref().map_or(0, Gateway::in_use),
                breaker: first.and_then(|s| s.breaker.as_ref()),
                bulkhead: first.and_then(|s| s.bulkhead.as_ref()),
            },
        );
    }

    /// The Trace, once the run has stopped at `end`.
    fn finish(mut self, end: Micros) -> Trace {
        self.fill_gauges(end.saturating_add(BUCKET));
        let unanswered: Vec<_> = self.requests.unanswered().collect();
        for route in unanswered {
            self.recorder.unfinished(route);
        }
        let ending = Ending {
            end,
            events: self.q.processed(),
            peak_live_requests: self.requests.peak(),
            shed_by_priority: self.service.shed_by_priority(),
            recognised: self.service.recognised(),
            names: self.deps.iter().map(|d| d.name.clone()).collect(),
            transitions: self.deps.iter().map(|d| d.stack.transitions()).collect(),
            levels: self
                .deps
                .first()
                .map(|d| d.stack.levels().collect())
                .unwrap_or_default(),
            left_at_servers: self
                .deps
                .iter()
                .map(|d| {
                    d.servers.as_ref().map_or(0, |s| {
                        let (busy, queued) = s.load();
                        u64::from(busy) + queued
                    })
                })
                .collect(),
            trigger_end: self.trigger_end(),
            arrivals_end: self.cfg.traffic.duration,
        };
        self.recorder.finish(ending)
    }

    /// When the trigger ends: the latest `recover_at` of a dependency that degrades, or the
    /// latest flush of a cache or failure of a host if later (`None` when one degrades and
    /// never recovers; 0 when nothing happens).
    fn trigger_end(&self) -> Option<Micros> {
        let deps = &self.cfg.dependencies;
        let flushed = deps
            .iter()
            .filter_map(|d| d.capacity.as_ref()?.cache?.flush_at)
            .chain(deps.iter().filter_map(|d| d.hosts?.one_fails_at))
            .max()
            .unwrap_or(0);
        deps.iter()
            .filter(|d| d.faults.degrade_at.is_some())
            .try_fold(flushed, |end: Micros, d| {
                Some(end.max(d.faults.recover_at?))
            })
    }

    /// Frees the request once nothing is left to happen to it.
    fn maybe_free(&mut self, id: Id) {
        if let Some((route, op)) = self.requests.free_if_over(id) {
            if route == super::trace::Route::Orders {
                self.service.order_released(op);
            }
        }
    }

    /// Hands the event to the room it is for.
    // Called once per event from `run`: kept inline there, where the event never leaves
    // registers (out of line, copying it costs a third of the run).
    #[inline(always)]
    fn handle(&mut self, now: Micros, event: Event) {
        match event {
            Event::Arrival(n) => {
                self.arrivals
                    .schedule_next(&mut self.q, &mut self.rng, now, n);
                let route = self.arrivals.draw_route(&mut self.rng);
                let priority = self.arrivals.draw_priority(&mut self.rng);
                self.arrive(now, route, priority, 0, n);
            }
            Event::FrontendRetry {
                route,
                priority,
                attempt,
                op,
            } => self.arrive(now, route, priority, attempt, op),
            Event::Start(id) => self.start(now, id),
            Event::Resume(id) => self.resume(now, id),
            Event::BulkheadExpire(id) => self.bulkhead_expire(now, id),
            Event::Proceed(id) => self.proceed(now, id),
            Event::RetryCall(id) => self.retry_call(now, id),
            Event::PermitFreed(dep) => self.permit_freed(now, dep),
            Event::SidecarTry(id) => self.try_call(now, id),
            Event::RouteTimedOut(id) => self.route_timed_out(now, id),
            Event::CopySent { id, dep } => self.copy_sent(now, id, dep as usize),
            Event::CallDone(id) => self.call_done(now, id),
            Event::Served { dep, slot, epoch } => self.served(now, dep as usize, slot, epoch),
            Event::Restart(dep) => self.restart(now, dep),
            Event::TryTimedOut { id, try_no } => self.try_timed_out(now, id, try_no),
            Event::CopyDue { id, try_no } => self.copy_due(now, id, try_no),
            Event::CacheHit { id, try_no } => {
                self.cache_answer(now, id, try_no, call_end::CallEnd::Answered)
            }
            Event::HostDone { dep, host, failed } => {
                if let Some(hosts) = self
                    .deps
                    .get_mut(dep as usize)
                    .and_then(|d| d.hosts.as_mut())
                {
                    hosts.done(host as usize, now, failed);
                }
            }
            Event::CacheFlush(dep) => {
                if let Some(cache) = self.deps.get_mut(dep).and_then(|d| d.cache.as_mut()) {
                    cache.flush();
                }
            }
            Event::CatalogDone(id) => {
                self.answer(now, id, Outcome::Ok);
                self.release_connection(now, id);
                self.maybe_free(id);
            }
            Event::GatewayTimeout(id) => self.gateway_timeout(now, id),
            Event::ClientGiveUp(id) => {
                if self.requests.get(id).is_some_and(|r| r.outcome.is_none()) {
                    self.answer(now, id, Outcome::ClientGaveUp);
                    self.maybe_free(id);
                }
            }
        }
    }
}
