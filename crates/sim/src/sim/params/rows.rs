//! The rows of the parameter table, grouped by the part of the config they tune. Each row says
//! where its value lives (`read`, and `write` in its kind), so the command line, the page and
//! the error messages all take their keys, ranges and units from here.
//!
//! A new parameter is one row: its key, doc and unit; its kind (range, and how a parsed value is
//! written into the [`SimConfig`]); what it needs (`Needs::Nothing`, `SwitchesOn(part)` or
//! `OnlyWith(part)`); how it is read. `--set`, `cascade --help`, permalinks and widget
//! attributes take it at once, the playground's panel shows it as a slider when it has a
//! `panel` (its label and the stretch of its range the slider covers), and the row tests walk
//! it. A payments row is the inventory row with `PAY` and a `payments_` key: the config's
//! errors for payments' fields name it by that prefix.

use super::{Dep, Kind, Needs, Panel, Param, Part, Unit, Value, JITTER_KEYS, JITTER_NAMES};
use crate::resilience::{
    BreakerConfig, BulkheadConfig, EnvoyRetryRules, Fallback, FallbackPolicy, HalfOpenRule,
    IdempotencyConfig, Jitter, LoadShedConfig, ParamError, RetryBudgetConfig, RetryLimit,
    RetryPolicy, TokenBucketConfig, Window,
};
use crate::sim::model::param::ON_OFF;
use crate::sim::model::{
    Abandon, Arrivals, CacheConfig, CacheFill, CapacityConfig, ClosedLoop, DependencyConfig,
    FaultSchedule, GatewayConfig, GcConfig, GrpcStack, HistoryBulkhead, HostsConfig,
    OutlierDetection, Pattern, PollyStack, Profile, QueueOrder, Resilience4jStack, ServiceConfig,
    SidecarConfig, SimConfig, StackConfig, Traffic, ROOM_ROWS,
};

const INV: Dep = Dep::First;
const PAY: Dep = Dep::Payments;
const ABANDON_NAMES: &[&str] = &["keep", "drop"];
const HISTORY_BULKHEADS: &[&str] = &["none", "shared", "own"];

/// Runs the stack with the semantics of profile `index` in [`Profile::KEYS`]: lesson 000's,
/// Resilience4j's (its order, its half-open rule, no jitter; the settings it has, or lesson
/// 004's as written), Polly's (its order, one probe, the standard handler's delays) or a gRPC
/// channel's (deadline and retry policy, the typical service config). A library's stack drops
/// the layers it has no place for (the page's full config holds every layer, so a slider
/// would otherwise be refused after `stack=` in a link).
fn set_stack(s: &mut StackConfig, index: usize) {
    if s.profile.index() != index {
        s.profile = match index {
            1 => Profile::Resilience4j(Resilience4jStack::default()),
            2 => Profile::Polly(PollyStack::default()),
            3 => Profile::Grpc(GrpcStack::default()),
            _ => Profile::Lesson000,
        };
    }
    for p in Pattern::ALL {
        if !s.profile.has_place_for(p) {
            s.switch_off(p);
        }
    }
    if index != 0 {
        s.business_errors_trip_breaker = false;
    }
    if let Some(r) = s.retry.as_mut().filter(|_| index != 0) {
        r.jitter = Jitter::None;
    }
    if let Some(b) = s.breaker.as_mut() {
        b.half_open_rule = match index {
            1 => HalfOpenRule::RateOverPermitted,
            _ => HalfOpenRule::FirstFailureReopens,
        };
        b.judged_after_failures_only = index == 2;
        if index == 2 {
            b.half_open_probes = 1;
        }
    }
}

fn abandon(i: usize) -> Abandon {
    if i == 0 {
        Abandon::Keep
    } else {
        Abandon::Drop
    }
}

fn capacity(c: &SimConfig, d: Dep) -> Option<&CapacityConfig> {
    dep(c, d).and_then(|d| d.capacity.as_ref())
}

fn capacity_mut(c: &mut SimConfig, d: Dep) -> Option<&mut CapacityConfig> {
    d.get(c).capacity.as_mut()
}

fn hosts_of(c: &SimConfig) -> Option<HostsConfig> {
    dep(c, INV)?.hosts
}

fn set_hosts(c: &mut SimConfig, count: Option<u64>) {
    let inventory = INV.get(c);
    inventory.hosts = count.map(|n| HostsConfig {
        count: u32::try_from(n).unwrap_or(u32::MAX),
        ..inventory.hosts.unwrap_or(HostsConfig {
            one_fails_at: None,
            ..HostsConfig::zoo()
        })
    });
}

/// Inventory's outlier detection, switched on (with Envoy's defaults) when its hosts have none.
fn detection_mut(c: &mut SimConfig) -> Option<&mut OutlierDetection> {
    let hosts = INV.get(c).hosts.as_mut()?;
    Some(
        hosts
            .outlier_detection
            .get_or_insert_with(OutlierDetection::envoy),
    )
}

fn cache_of(c: &SimConfig) -> Option<CacheConfig> {
    capacity(c, INV)?.cache
}

fn cache_mut(c: &mut SimConfig) -> Option<&mut CacheConfig> {
    capacity_mut(c, INV)?.cache.as_mut()
}

fn set_cache_items(c: &mut SimConfig, items: Option<u64>) {
    if let Some(k) = capacity_mut(c, INV) {
        k.cache = items.map(|n| CacheConfig {
            items: u32::try_from(n).unwrap_or(u32::MAX),
            ..k.cache.unwrap_or(CacheConfig {
                flush_at: None,
                ..CacheConfig::zoo()
            })
        });
    }
}

fn capacity_of(c: &SimConfig, d: Dep) -> Option<Value> {
    dep(c, d)?;
    Some(capacity(c, d).map_or(Value::Off, |k| Value::Count(k.slots.into())))
}

fn queue_of(c: &SimConfig, d: Dep) -> Option<Value> {
    capacity(c, d).map(|k| k.queue.map_or(Value::Off, |q| Value::Count(q.into())))
}

fn hot_items_of(c: &SimConfig, d: Dep) -> Option<Value> {
    capacity(c, d).map(|k| k.hot_items.map_or(Value::Off, |n| Value::Count(n.into())))
}

fn set_hot_items(c: &mut SimConfig, d: Dep, items: Option<u64>) {
    if let Some(k) = capacity_mut(c, d) {
        k.hot_items = items.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    }
}

/// Sets a dependency's slots (keeping its queue and abandon), or takes its capacity away.
fn set_capacity(c: &mut SimConfig, d: Dep, slots: Option<u64>) {
    let dep = d.get(c);
    dep.capacity = slots.map(|n| CapacityConfig {
        slots: u32::try_from(n).unwrap_or(u32::MAX),
        ..dep.capacity.clone().unwrap_or(CapacityConfig {
            slots: 1,
            queue: None,
            abandon: Abandon::Keep,
            restart_at_recovery: false,
            hot_items: None,
            cache: None,
        })
    });
}

/// `fallback`'s names: on (lesson 000's pending confirmation), off, none (an explicit "no
/// degraded answer"), then every [`Fallback`] by its label, in [`Fallback::ALL`]'s order.
pub(super) const FALLBACK_NAMES: &[&str] = &[
    "on",
    "off",
    "none",
    "cached_stock",
    "pending_confirmation",
    "pending_retry_async",
    "charge_later",
    "last_known_position",
    "database_direct",
];
const FALLBACK_FIRST_KIND: usize = 3;

fn dep(c: &SimConfig, d: Dep) -> Option<&DependencyConfig> {
    d.find(c)
}

fn stack(c: &SimConfig, d: Dep) -> Option<&StackConfig> {
    d.find(c).map(|d| &d.stack)
}

fn breaker(c: &SimConfig, d: Dep) -> Option<&BreakerConfig> {
    stack(c, d).and_then(|s| s.breaker.as_ref())
}

fn breaker_mut(c: &mut SimConfig, d: Dep) -> Option<&mut BreakerConfig> {
    d.stack(c).breaker.as_mut()
}

fn bulkhead(c: &SimConfig, d: Dep) -> Option<&BulkheadConfig> {
    stack(c, d).and_then(|s| s.bulkhead.as_ref())
}

fn bulkhead_mut(c: &mut SimConfig, d: Dep) -> Option<&mut BulkheadConfig> {
    d.stack(c).bulkhead.as_mut()
}

fn retry(c: &SimConfig, d: Dep) -> Option<&RetryPolicy> {
    stack(c, d).and_then(|s| s.retry.as_ref())
}

fn retry_mut(c: &mut SimConfig, d: Dep) -> Option<&mut RetryPolicy> {
    d.stack(c).retry.as_mut()
}

fn budget(c: &SimConfig) -> Option<&RetryBudgetConfig> {
    stack(c, INV).and_then(|s| s.retry_budget.as_ref())
}

fn budget_mut(c: &mut SimConfig) -> Option<&mut RetryBudgetConfig> {
    INV.stack(c).retry_budget.as_mut()
}

/// The Envoy rules of a stack's sidecar, if it runs them.
fn envoy_rules(s: &StackConfig) -> Option<&EnvoyRetryRules> {
    s.sidecar.as_ref().and_then(|s| s.envoy.as_ref())
}

/// The Envoy rules of the stack's sidecar, switched on first: Envoy's defaults for a sidecar
/// that was off, Envoy's rules (retry 5xx, `max_retries` 3) on a lesson sidecar.
fn envoy_rules_mut(s: &mut StackConfig) -> &mut EnvoyRetryRules {
    s.sidecar
        .get_or_insert_with(SidecarConfig::envoy)
        .envoy
        .get_or_insert_with(EnvoyRetryRules::on_5xx)
}

/// A limit's retry budget, or Envoy's default budget for a `max_retries` limit.
fn budget_of(limit: RetryLimit) -> (f64, u32) {
    match limit {
        RetryLimit::Budget {
            percent,
            min_concurrency,
        } => (percent, min_concurrency),
        RetryLimit::MaxRetries(_) => (
            RetryLimit::DEFAULT_BUDGET_PERCENT,
            RetryLimit::DEFAULT_MIN_CONCURRENCY,
        ),
    }
}

fn shed(c: &SimConfig) -> Option<&LoadShedConfig> {
    c.service.load_shed.as_ref()
}

fn shed_mut(c: &mut SimConfig) -> Option<&mut LoadShedConfig> {
    c.service.load_shed.as_mut()
}

fn gateway(c: &SimConfig) -> Option<&GatewayConfig> {
    c.gateway.as_ref()
}

fn gateway_mut(c: &mut SimConfig) -> Option<&mut GatewayConfig> {
    c.gateway.as_mut()
}

fn window(w: Window) -> Value {
    match w {
        Window::Time(t) => Value::Time(t),
        Window::Count(n) => Value::Count(n.into()),
    }
}

/// A time row with no part to switch.
const fn time(
    key: &'static str,
    doc: &'static str,
    min: u64,
    max: u64,
    write: fn(&mut SimConfig, u64),
    read: fn(&SimConfig) -> Option<Value>,
) -> Param {
    Param {
        key,
        doc,
        unit: "s",
        kind: Kind::Time { min, max, write },
        needs: Needs::Nothing,
        read,
        fields: &[],
        panel: None,
    }
}

/// A share (0..=1) with no part to switch.
const fn share(
    key: &'static str,
    doc: &'static str,
    write: fn(&mut SimConfig, f64),
    read: fn(&SimConfig) -> Option<Value>,
) -> Param {
    Param {
        key,
        doc,
        unit: "share",
        kind: Kind::Number {
            min: ParamError::SHARE.0,
            max: ParamError::SHARE.1,
            above_min: false,
            write,
        },
        needs: Needs::Nothing,
        read,
        fields: &[],
        panel: None,
    }
}

/// Every parameter, in the order the usage lists them: the traffic, the call's layers, the
/// rows the patterns' rooms declare, then the service and the dependencies.
pub static PARAMS: &[Param] = &JOINED;

static JOINED: [Param; CALL_ROWS.len() + room_rows() + SERVICE_ROWS.len()] =
    join(CALL_ROWS, &ROOM_ROWS, SERVICE_ROWS);

/// How many rows the rooms declare.
const fn room_rows() -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < ROOM_ROWS.len() {
        n += ROOM_ROWS[i].len();
        i += 1;
    }
    n
}

/// `first`, the groups of `rooms` in turn, then `last`, as one table of `N` rows.
const fn join<const N: usize>(first: &[Param], rooms: &[&[Param]], last: &[Param]) -> [Param; N] {
    let mut out = [first[0]; N];
    let mut at = 0;
    let mut group = 0;
    while group < rooms.len() + 2 {
        let rows = match group {
            0 => first,
            g if g <= rooms.len() => rooms[g - 1],
            _ => last,
        };
        let mut i = 0;
        while i < rows.len() {
            out[at] = rows[i];
            at += 1;
            i += 1;
        }
        group += 1;
    }
    assert!(at == N, "the table holds every row once");
    out
}

/// The traffic, the service's size and the call's layers.
// Laid out as a table, three lines a row (key; kind; needs and read) and a fourth for a row
// the panel shows, not as rustfmt would.
#[rustfmt::skip]
const CALL_ROWS: &[Param] = &[
    // The traffic and the service.
    Param { key: "rate", doc: "Orders per second sent to the service.", unit: "requests/s",
        kind: Kind::Number { min: Traffic::RATE.0, max: Traffic::RATE.1, above_min: false, write: |c, v| c.traffic.rate = v },
        needs: Needs::Nothing, read: |c| Some(Value::Number(c.traffic.rate)),
        fields: &[], panel: Some(Panel { label: "Arrival rate", unit: Unit::PerSecond, min: 10.0, max: 500.0, step: 10.0, shown_with: None }) },
    Param { key: "threads", doc: "Workers in orders; a request waits in the queue until one is free.", unit: "workers",
        kind: Kind::Count { min: ServiceConfig::THREADS.0, max: ServiceConfig::THREADS.1, write: |c, v| c.service.threads = v as u32 },
        needs: Needs::Nothing, read: |c| Some(Value::Count(c.service.threads.into())),
        fields: &[], panel: Some(Panel { label: "Worker threads", unit: Unit::Count, min: 1.0, max: 1000.0, step: 1.0, shown_with: None }) },
    time("duration", "How long requests keep arriving.", Traffic::DURATION.0, Traffic::DURATION.1,
        |c, t| c.traffic.duration = t, |c| Some(Value::Time(c.traffic.duration))),
    Param { key: "seed", doc: "Seed of the run's one random stream.", unit: "",
        kind: Kind::Count { min: 0, max: u64::MAX, write: |c, v| c.run.seed = v },
        needs: Needs::Nothing, read: |c| Some(Value::Count(c.run.seed)), fields: &[], panel: None },
    Param { key: "arrivals", doc: "Evenly spaced arrivals (the lesson), a Poisson process (both an open loop at `rate`), or a closed loop of `clients` that each wait for their answer and think before sending again.", unit: "",
        kind: Kind::Choice { names: &["even", "poisson", "closed"], write: |c, i| c.traffic.arrivals = [Arrivals::Even, Arrivals::Poisson, Arrivals::Closed][i] },
        needs: Needs::Nothing, read: |c| Some(Value::Choice(match c.traffic.arrivals { Arrivals::Even => 0, Arrivals::Poisson => 1, Arrivals::Closed => 2 })),
        fields: &[], panel: Some(Panel { label: "Arrivals", unit: Unit::Count, min: 0.0, max: 2.0, step: 1.0, shown_with: None }) },
    Param { key: "clients", doc: "Clients of a closed loop (`arrivals=closed`): each sends its next request once its last one is over.", unit: "clients",
        kind: Kind::Count { min: ClosedLoop::CLIENTS.0, max: ClosedLoop::CLIENTS.1, write: |c, n| c.traffic.closed_loop.clients = n as u32 },
        needs: Needs::Nothing, read: |c| Some(Value::Count(c.traffic.closed_loop.clients.into())), fields: &[], panel: None },
    time("think_time", "The mean pause of a closed loop's client between the end of one request and its next (exponential).", ClosedLoop::THINK_TIME.0, ClosedLoop::THINK_TIME.1,
        |c, t| c.traffic.closed_loop.think_time = t, |c| Some(Value::Time(c.traffic.closed_loop.think_time))),
    // Inventory, the first dependency: how it answers.
    Param { key: "degrade_at", doc: "Calls that start after this time get the degraded latency.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| INV.get(c).faults.degrade_at = Some(t) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).and_then(|d| d.faults.degrade_at).map(Value::Time),
        fields: &[], panel: Some(Panel { label: "Inventory degrades at", unit: Unit::Seconds, min: 0.0, max: 60.0, step: 0.5, shown_with: None }) },
    Param { key: "fast", doc: "How long inventory takes before it degrades.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| INV.get(c).faults.fast = t },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).map(|d| Value::Time(d.faults.fast)),
        fields: &[], panel: Some(Panel { label: "Healthy latency", unit: Unit::Millis, min: 1.0, max: 500.0, step: 1.0, shown_with: None }) },
    Param { key: "slow", doc: "How long inventory takes once it is sick.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| INV.get(c).faults.slow = t },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).map(|d| Value::Time(d.faults.slow)),
        fields: &[], panel: Some(Panel { label: "Degraded latency", unit: Unit::Millis, min: 1.0, max: 10_000.0, step: 1.0, shown_with: None }) },
    Param { key: "recover_at", doc: "Calls that start after this time are healthy again.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| INV.get(c).faults.recover_at = Some(t) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).and_then(|d| d.faults.recover_at).map(Value::Time),
        fields: &[], panel: Some(Panel { label: "Inventory recovers at", unit: Unit::Seconds, min: 0.0, max: 120.0, step: 0.5, shown_with: None }) },
    Param { key: "error_rate", doc: "While degraded, the share of calls failing with a transient error.", unit: "share",
        kind: Kind::Number { min: ParamError::SHARE.0, max: ParamError::SHARE.1, above_min: false, write: |c, v| INV.get(c).faults.error_rate = v },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).map(|d| Value::Number(d.faults.error_rate)), fields: &[], panel: None },
    Param { key: "business_error_rate", doc: "The share of calls answered with a business \"no\".", unit: "share",
        kind: Kind::Number { min: ParamError::SHARE.0, max: ParamError::SHARE.1, above_min: false, write: |c, v| INV.get(c).faults.business_error_rate = v },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).map(|d| Value::Number(d.faults.business_error_rate)), fields: &[], panel: None },
    Param { key: "fast_p99", doc: "With it, healthy latency is lognormal: `fast` its median, this its p99.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::P99.0, max: FaultSchedule::P99.1, write: |c, t| INV.get(c).faults.fast_p99 = Some(t) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).and_then(|d| d.faults.fast_p99).map(Value::Time), fields: &[], panel: None },
    Param { key: "slow_p99", doc: "With it, degraded latency is lognormal: `slow` its median, this its p99.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::P99.0, max: FaultSchedule::P99.1, write: |c, t| INV.get(c).faults.slow_p99 = Some(t) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).and_then(|d| d.faults.slow_p99).map(Value::Time), fields: &[], panel: None },
    // Inventory's stack.
    Param { key: "timeout", doc: "A call slower than this gives up and holds its worker exactly this long.", unit: "s",
        kind: Kind::Time { min: StackConfig::TIMEOUT.0, max: StackConfig::TIMEOUT.1, write: |c, t| INV.stack(c).timeout = Some(t) },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::TIMEOUT)), read: |c| stack(c, INV).and_then(|s| s.timeout).map(Value::Time),
        fields: &[], panel: Some(Panel { label: "Timeout", unit: Unit::Millis, min: 10.0, max: 10_000.0, step: 10.0, shown_with: None }) },
    Param { key: "window", doc: "Results younger than this count towards the failure ratio.", unit: "s",
        kind: Kind::Time { min: BreakerConfig::WINDOW_SPAN.0, max: BreakerConfig::WINDOW_SPAN.1, write: |c, t| if let Some(b) = breaker_mut(c, INV) { b.window = Window::Time(t) } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BREAKER)), read: |c| breaker(c, INV).map(|b| window(b.window)),
        fields: &[], panel: Some(Panel { label: "Breaker window", unit: Unit::Seconds, min: 0.5, max: 30.0, step: 0.5, shown_with: None }) },
    Param { key: "min_calls", doc: "The circuit may open only with at least this many results in the window.", unit: "calls",
        kind: Kind::Count { min: BreakerConfig::MIN_CALLS.0, max: BreakerConfig::MIN_CALLS.1, write: |c, n| if let Some(b) = breaker_mut(c, INV) { b.min_calls = n as u32 } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BREAKER)), read: |c| breaker(c, INV).map(|b| Value::Count(b.min_calls.into())),
        fields: &[], panel: Some(Panel { label: "Minimum calls", unit: Unit::Count, min: 1.0, max: 200.0, step: 1.0, shown_with: None }) },
    Param { key: "failure_ratio", doc: "The circuit opens when this share of the window's results failed.", unit: "share",
        kind: Kind::Number { min: BreakerConfig::RATIO.0, max: BreakerConfig::RATIO.1, above_min: true, write: |c, v| if let Some(b) = breaker_mut(c, INV) { b.failure_ratio = v } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BREAKER)), read: |c| breaker(c, INV).map(|b| Value::Number(b.failure_ratio)),
        fields: &[], panel: Some(Panel { label: "Failure ratio", unit: Unit::Percent, min: 5.0, max: 100.0, step: 5.0, shown_with: None }) },
    Param { key: "cooldown", doc: "How long the circuit stays open before it lets probes through.", unit: "s",
        kind: Kind::Time { min: BreakerConfig::COOLDOWN.0, max: BreakerConfig::COOLDOWN.1, write: |c, t| if let Some(b) = breaker_mut(c, INV) { b.cooldown = t } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BREAKER)), read: |c| breaker(c, INV).map(|b| Value::Time(b.cooldown)),
        fields: &[], panel: Some(Panel { label: "Cool-down", unit: Unit::Millis, min: 100.0, max: 30_000.0, step: 100.0, shown_with: None }) },
    Param { key: "probes", doc: "Calls let through at once to test a recovering inventory.", unit: "calls",
        kind: Kind::Count { min: BreakerConfig::PROBES.0, max: BreakerConfig::PROBES.1, write: |c, n| if let Some(b) = breaker_mut(c, INV) { b.half_open_probes = n as u32 } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BREAKER)), read: |c| breaker(c, INV).map(|b| Value::Count(b.half_open_probes.into())),
        fields: &["breaker.half_open_probes"], panel: Some(Panel { label: "Half-open probes", unit: Unit::Count, min: 1.0, max: 20.0, step: 1.0, shown_with: None }) },
    Param { key: "permits", doc: "Calls to inventory allowed in flight at once.", unit: "calls",
        kind: Kind::Count { min: BulkheadConfig::PERMITS.0, max: BulkheadConfig::PERMITS.1, write: |c, n| if let Some(b) = bulkhead_mut(c, INV) { b.permits = n as u32 } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BULKHEAD)), read: |c| bulkhead(c, INV).map(|b| Value::Count(b.permits.into())),
        fields: &[], panel: Some(Panel { label: "Bulkhead permits", unit: Unit::Count, min: 1.0, max: 64.0, step: 1.0, shown_with: None }) },
    Param { key: "max_wait", doc: "How long a call waits for a permit before it is turned away.", unit: "s",
        kind: Kind::Time { min: BulkheadConfig::MAX_WAIT.0, max: BulkheadConfig::MAX_WAIT.1, write: |c, t| if let Some(b) = bulkhead_mut(c, INV) { b.max_wait = t } },
        needs: Needs::OnlyWith(Part::Layer(INV, Pattern::BULKHEAD)), read: |c| bulkhead(c, INV).map(|b| Value::Time(b.max_wait)),
        fields: &[], panel: Some(Panel { label: "Bulkhead max wait", unit: Unit::Millis, min: 0.0, max: 1_000.0, step: 5.0, shown_with: None }) },
    Param { key: "attempts", doc: "Calls per request in all, the first one included; 1 means no retry.", unit: "calls",
        kind: Kind::Count { min: RetryPolicy::ATTEMPTS.0, max: RetryPolicy::ATTEMPTS.1, write: |c, n| if let Some(r) = retry_mut(c, INV) { r.attempts = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY)), read: |c| retry(c, INV).map(|r| Value::Count(r.attempts.into())),
        fields: &[], panel: Some(Panel { label: "Attempts", unit: Unit::Count, min: 1.0, max: 10.0, step: 1.0, shown_with: None }) },
    Param { key: "jitter", doc: "How each back-off is randomised, so that callers who failed together do not retry together.", unit: "",
        kind: Kind::Choice { names: &JITTER_KEYS, write: |c, i| if let Some(r) = retry_mut(c, INV) { r.jitter = JITTER_NAMES[i].1 } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY)), read: |c| retry(c, INV).and_then(|r| JITTER_NAMES.iter().position(|(_, j)| *j == r.jitter)).map(Value::Choice),
        fields: &[], panel: Some(Panel { label: "Jitter", unit: Unit::Count, min: 0.0, max: 3.0, step: 1.0, shown_with: None }) },
    Param { key: "retry_base", doc: "The longest wait before the first retry; it doubles for each retry after that (the cap follows a base raised past it).", unit: "s",
        kind: Kind::Time { min: RetryPolicy::BASE.0, max: RetryPolicy::BASE.1, write: |c, t| if let Some(r) = retry_mut(c, INV) { r.base = t; r.cap = r.cap.max(t) } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY)), read: |c| retry(c, INV).map(|r| Value::Time(r.base)),
        fields: &["retry.base"], panel: Some(Panel { label: "Back-off base", unit: Unit::Millis, min: 5.0, max: 2_000.0, step: 5.0, shown_with: None }) },
    Param { key: "retry_cap", doc: "No wait between retries is ever longer than this (the base follows a cap lowered under it).", unit: "s",
        kind: Kind::Time { min: RetryPolicy::CAP.0, max: RetryPolicy::CAP.1, write: |c, t| if let Some(r) = retry_mut(c, INV) { r.cap = t; r.base = r.base.min(t) } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY)), read: |c| retry(c, INV).map(|r| Value::Time(r.cap)),
        fields: &["retry.cap"], panel: Some(Panel { label: "Back-off cap", unit: Unit::Millis, min: 5.0, max: 60_000.0, step: 5.0, shown_with: None }) },
    Param { key: "retry_budget_ratio", doc: "Each call earns this share of a retry; retries stay near this share of all calls.", unit: "share",
        kind: Kind::Number { min: RetryBudgetConfig::RATIO.0, max: RetryBudgetConfig::RATIO.1, above_min: false, write: |c, v| if let Some(b) = budget_mut(c) { b.ratio = v } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY_BUDGET)), read: |c| budget(c).map(|b| Value::Number(b.ratio)),
        fields: &["retry_budget.ratio"], panel: Some(Panel { label: "Retry budget ratio", unit: Unit::Percent, min: 0.0, max: 100.0, step: 1.0, shown_with: None }) },
    Param { key: "retry_budget_min", doc: "Retries the budget holds before any call has earned one (the saving cap follows).", unit: "retries",
        kind: Kind::Count { min: 0, max: RetryBudgetConfig::CAP.1, write: |c, n| if let Some(b) = budget_mut(c) { b.minimum = n as u32; b.cap = b.cap.max(b.minimum).max(1) } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::RETRY_BUDGET)), read: |c| budget(c).map(|b| Value::Count(b.minimum.into())),
        fields: &["retry_budget.minimum"], panel: Some(Panel { label: "Retry budget at start", unit: Unit::Count, min: 0.0, max: 1_000.0, step: 1.0, shown_with: None }) },
    Param { key: "sidecar_retries", doc: "Retries of an Envoy sidecar inside each library attempt.", unit: "retries",
        kind: Kind::Count { min: SidecarConfig::RETRIES.0, max: SidecarConfig::RETRIES.1, write: |c, n| if let Some(s) = INV.stack(c).sidecar.as_mut() { s.retries = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(INV, Pattern::SIDECAR)), read: |c| stack(c, INV).and_then(|s| s.sidecar.as_ref()).map(|s| Value::Count(s.retries.into())), fields: &["sidecar.retries"], panel: None },
    Param { key: "envoy", doc: "The sidecar runs Envoy's rules (retries 5xx and per-try timeouts, 25 ms back-off doubling to 250 ms, at most 3 retries in flight), or lesson 000's.", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| { let s = INV.stack(c); if i == 0 { envoy_rules_mut(s); } else if let Some(sidecar) = s.sidecar.as_mut() { sidecar.envoy = None } } },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| stack(c, INV).map(|s| Value::on_off(envoy_rules(s).is_some())), fields: &[], panel: None },
    Param { key: "max_retries", doc: "Envoy's max_retries circuit breaker: retries in flight at once to inventory (Envoy's default 3).", unit: "retries",
        kind: Kind::Count { min: RetryLimit::COUNT.0, max: RetryLimit::COUNT.1, write: |c, n| envoy_rules_mut(INV.stack(c)).limit = RetryLimit::MaxRetries(n as u32) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| match stack(c, INV).and_then(envoy_rules)?.limit { RetryLimit::MaxRetries(n) => Some(Value::Count(n.into())), RetryLimit::Budget { .. } => None }, fields: &[], panel: None },
    Param { key: "retry_budget_percent", doc: "Envoy's retry budget: retries in flight as a percentage of the requests in flight (it replaces max_retries).", unit: "%",
        kind: Kind::Number { min: RetryLimit::BUDGET_PERCENT.0, max: RetryLimit::BUDGET_PERCENT.1, above_min: false, write: |c, v| { let rules = envoy_rules_mut(INV.stack(c)); let (_, min) = budget_of(rules.limit); rules.limit = RetryLimit::Budget { percent: v, min_concurrency: min } } },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| match stack(c, INV).and_then(envoy_rules)?.limit { RetryLimit::Budget { percent, .. } => Some(Value::Number(percent)), RetryLimit::MaxRetries(_) => None }, fields: &[], panel: None },
    Param { key: "min_retry_concurrency", doc: "The fewest retries Envoy's retry budget lets be in flight, however few requests are (Envoy's default 3).", unit: "retries",
        kind: Kind::Count { min: RetryLimit::COUNT.0, max: RetryLimit::COUNT.1, write: |c, n| { let rules = envoy_rules_mut(INV.stack(c)); let (percent, _) = budget_of(rules.limit); rules.limit = RetryLimit::Budget { percent, min_concurrency: n as u32 } } },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| match stack(c, INV).and_then(envoy_rules)?.limit { RetryLimit::Budget { min_concurrency, .. } => Some(Value::Count(min_concurrency.into())), RetryLimit::MaxRetries(_) => None }, fields: &[], panel: None },
];

/// The rows of the service and of what the call's dependencies can do, after the rows the
/// patterns' rooms declare ([`crate::sim::model::ROOM_ROWS`]).
#[rustfmt::skip]
const SERVICE_ROWS: &[Param] = &[
    // The service `orders`.
    // Overload: inventory's capacity, its queue, and what becomes of abandoned work.
    Param { key: "capacity", doc: "Calls inventory serves at once; the others wait in its queue (off: every call at once, as in the lesson).", unit: "calls",
        kind: Kind::CountOrOff { min: 1, max: CapacityConfig::MAX_SLOTS as u64, write: |c, n| set_capacity(c, INV, n) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| capacity_of(c, INV),
        fields: &[], panel: Some(Panel { label: "Inventory capacity (calls at once; 0: unlimited)", unit: Unit::Count, min: 0.0, max: 1000.0, step: 1.0, shown_with: None }) },
    Param { key: "inventory_queue", doc: "Longest inventory's queue may get; a call finding it full is answered UNAVAILABLE at once (off: unbounded).", unit: "calls",
        kind: Kind::CountOrOff { min: 0, max: CapacityConfig::MAX_QUEUE as u64, write: |c, n| if let Some(k) = capacity_mut(c, INV) { k.queue = n.map(|n| n as u32) } },
        needs: Needs::OnlyWith(Part::Capacity(INV)), read: |c| queue_of(c, INV),
        fields: &[], panel: Some(Panel { label: "Inventory queue bound (0: unbounded)", unit: Unit::Count, min: 0.0, max: 1000.0, step: 10.0, shown_with: None }) },
    Param { key: "abandon", doc: "What inventory does with a call its caller stopped waiting for: keep working on it, or drop it at the deadline the call carries.", unit: "",
        kind: Kind::Choice { names: ABANDON_NAMES, write: |c, i| if let Some(k) = capacity_mut(c, INV) { k.abandon = abandon(i) } },
        needs: Needs::OnlyWith(Part::Capacity(INV)), read: |c| capacity(c, INV).map(|k| Value::Choice(usize::from(k.abandon == Abandon::Drop))),
        fields: &[], panel: Some(Panel { label: "Inventory's abandoned work", unit: Unit::Count, min: 0.0, max: 1.0, step: 1.0, shown_with: None }) },
    Param { key: "inventory_restart", doc: "Inventory recovers by restarting at recover_at: every call it holds fails at once, and their callers retry together.", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| if let Some(k) = capacity_mut(c, INV) { k.restart_at_recovery = i == 0 } },
        needs: Needs::OnlyWith(Part::Capacity(INV)), read: |c| capacity(c, INV).map(|k| Value::on_off(k.restart_at_recovery)), fields: &[], panel: None },
    Param { key: "hot_items", doc: "Hot items inventory's calls reserve (a sale): a call whose item another call committed while it was served fails as UNAVAILABLE, its work wasted (off: calls never conflict).", unit: "items",
        kind: Kind::CountOrOff { min: 1, max: CapacityConfig::MAX_HOT_ITEMS as u64, write: |c, n| set_hot_items(c, INV, n) },
        needs: Needs::OnlyWith(Part::Capacity(INV)), read: |c| hot_items_of(c, INV),
        fields: &[], panel: Some(Panel { label: "Inventory hot items (0: none)", unit: Unit::Count, min: 0.0, max: 100.0, step: 1.0, shown_with: None }) },
    Param { key: "cache_items", doc: "A cache in front of inventory's servers: the items calls look up, each order one of them (off: no cache).", unit: "items",
        kind: Kind::CountOrOff { min: CacheConfig::ITEMS.0, max: CacheConfig::ITEMS.1, write: |c, n| set_cache_items(c, n) },
        needs: Needs::OnlyWith(Part::Capacity(INV)), read: |c| capacity(c, INV).map(|k| k.cache.map_or(Value::Off, |h| Value::Count(h.items.into()))), fields: &[], panel: None },
    Param { key: "cache_hit", doc: "How long inventory's cache takes to answer a call whose item it holds.", unit: "s",
        kind: Kind::Time { min: CacheConfig::HIT.0, max: CacheConfig::HIT.1, write: |c, t| if let Some(h) = cache_mut(c) { h.hit = t } },
        needs: Needs::SwitchesOn(Part::Cache(INV)), read: |c| cache_of(c).map(|h| Value::Time(h.hit)), fields: &[], panel: None },
    Param { key: "cache_flush_at", doc: "When inventory's cache is emptied (it starts with every item).", unit: "s",
        kind: Kind::Time { min: CacheConfig::FLUSH_AT.0, max: CacheConfig::FLUSH_AT.1, write: |c, t| if let Some(h) = cache_mut(c) { h.flush_at = Some(t) } },
        needs: Needs::SwitchesOn(Part::Cache(INV)), read: |c| cache_of(c).and_then(|h| h.flush_at).map(Value::Time), fields: &[], panel: None },
    Param { key: "cache_fill", doc: "Who fills inventory's cache after a miss: the caller with the answer it still waits for (caller), or the cache itself, fetching each item once for every caller and keeping a late answer (coalesce).", unit: "",
        kind: Kind::Choice { names: &CacheFill::NAMES, write: |c, i| if let Some(h) = cache_mut(c) { h.fill = CacheFill::ALL[i] } },
        needs: Needs::SwitchesOn(Part::Cache(INV)), read: |c| cache_of(c).map(|h| Value::Choice(usize::from(h.fill == CacheFill::Coalesce))), fields: &[], panel: None },
    Param { key: "hosts", doc: "Inventory on this many hosts behind a balancer that sends each call to the host with the fewest calls in flight (off: one host).", unit: "hosts",
        kind: Kind::CountOrOff { min: HostsConfig::COUNT.0, max: HostsConfig::COUNT.1, write: |c, n| set_hosts(c, n) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| dep(c, INV).map(|d| d.hosts.map_or(Value::Off, |h| Value::Count(h.count.into()))), fields: &[], panel: None },
    Param { key: "host_fails_at", doc: "From this moment one of inventory's hosts fails every call at once (UNAVAILABLE in 1 ms).", unit: "s",
        kind: Kind::Time { min: HostsConfig::FAILS_AT.0, max: HostsConfig::FAILS_AT.1, write: |c, t| if let Some(h) = INV.get(c).hosts.as_mut() { h.one_fails_at = Some(t) } },
        needs: Needs::SwitchesOn(Part::Hosts(INV)), read: |c| hosts_of(c).and_then(|h| h.one_fails_at).map(Value::Time), fields: &[], panel: None },
    Param { key: "outlier_detection", doc: "The balancer in front of inventory's hosts ejects a host whose calls failed several times in a row, for a while (Envoy's outlier detection).", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| if let Some(h) = INV.get(c).hosts.as_mut() { h.outlier_detection = (i == 0).then(|| h.outlier_detection.unwrap_or_else(OutlierDetection::envoy)) } },
        needs: Needs::SwitchesOn(Part::Hosts(INV)), read: |c| hosts_of(c).map(|h| Value::on_off(h.outlier_detection.is_some())), fields: &[], panel: None },
    Param { key: "outlier_errors", doc: "Failed calls in a row that eject a host of inventory (with outlier detection).", unit: "errors",
        kind: Kind::Count { min: HostsConfig::ERRORS.0, max: HostsConfig::ERRORS.1, write: |c, n| if let Some(o) = detection_mut(c) { o.consecutive_errors = n as u32 } },
        needs: Needs::SwitchesOn(Part::Hosts(INV)), read: |c| hosts_of(c).and_then(|h| h.outlier_detection).map(|o| Value::Count(o.consecutive_errors.into())), fields: &[], panel: None },
    Param { key: "outlier_ejection", doc: "How long a host of inventory is ejected the first time (each later ejection lasts that much longer, at most 300 s).", unit: "s",
        kind: Kind::Time { min: HostsConfig::EJECTION.0, max: HostsConfig::EJECTION.1, write: |c, t| if let Some(o) = detection_mut(c) { o.base_ejection = t } },
        needs: Needs::SwitchesOn(Part::Hosts(INV)), read: |c| hosts_of(c).and_then(|h| h.outlier_detection).map(|o| Value::Time(o.base_ejection)), fields: &[], panel: None },
    Param { key: "orders_abandon", doc: "What a worker of orders does with a queued request whose client has gone: work on it anyway (keep) or skip it (drop).", unit: "",
        kind: Kind::Choice { names: ABANDON_NAMES, write: |c, i| c.service.abandon = abandon(i) },
        needs: Needs::Nothing, read: |c| Some(Value::Choice(usize::from(c.service.abandon == Abandon::Drop))),
        fields: &[], panel: Some(Panel { label: "Orders' requests whose client left", unit: Unit::Count, min: 0.0, max: 1.0, step: 1.0, shown_with: None }) },
    Param { key: "request_budget", doc: "Each request's time budget from its arrival; every timeout is cut to what is left.", unit: "s",
        kind: Kind::Time { min: ServiceConfig::REQUEST_BUDGET.0, max: ServiceConfig::REQUEST_BUDGET.1, write: |c, t| c.service.request_budget = Some(t) },
        needs: Needs::Nothing, read: |c| c.service.request_budget.map(Value::Time), fields: &[], panel: None },
    Param { key: "queue_limit", doc: "Longest the queue of orders may get; arrivals past it are shed (off: unbounded).", unit: "requests",
        kind: Kind::CountOrOff { min: ServiceConfig::QUEUE_LIMIT.0, max: ServiceConfig::QUEUE_LIMIT.1, write: |c, n| c.service.queue_limit = n },
        needs: Needs::Nothing, read: |c| Some(c.service.queue_limit.map_or(Value::Off, Value::Count)),
        fields: &[], panel: Some(Panel { label: "Orders' queue bound (0: unbounded)", unit: Unit::Count, min: 0.0, max: 1000.0, step: 10.0, shown_with: None }) },
    Param { key: "queue_order", doc: "Which queued request a free worker of orders takes: the oldest (fifo), the newest (lifo), or the oldest until the queue is longer than the workers and the newest beyond (adaptive).", unit: "",
        kind: Kind::Choice { names: &QueueOrder::NAMES, write: |c, i| c.service.queue_order = QueueOrder::ALL[i] },
        needs: Needs::Nothing, read: |c| QueueOrder::ALL.iter().position(|o| *o == c.service.queue_order).map(Value::Choice),
        fields: &[], panel: Some(Panel { label: "Orders' queue order", unit: Unit::Count, min: 0.0, max: 2.0, step: 1.0, shown_with: None }) },
    Param { key: "gc_threshold", doc: "Requests orders holds (working or queued) from which garbage collection pauses its workers (off: no pauses).", unit: "requests",
        kind: Kind::CountOrOff { min: GcConfig::THRESHOLD.0, max: GcConfig::THRESHOLD.1, write: |c, n| c.service.gc = n.map(|threshold| GcConfig { threshold, ..c.service.gc.unwrap_or_else(GcConfig::spiral) }) },
        needs: Needs::Nothing, read: |c| Some(c.service.gc.map_or(Value::Off, |g| Value::Count(g.threshold))), fields: &[], panel: None },
    Param { key: "gc_pause", doc: "The pause a worker of orders waits out before each request it starts, for every gc_threshold requests held beyond gc_threshold (at most 10 s a request).", unit: "s",
        kind: Kind::Time { min: GcConfig::PAUSE.0, max: GcConfig::PAUSE.1, write: |c, t| if let Some(g) = c.service.gc.as_mut() { g.pause = t } },
        needs: Needs::SwitchesOn(Part::Gc), read: |c| c.service.gc.map(|g| Value::Time(g.pause)), fields: &[], panel: None },
    Param { key: "shed_normal", doc: "With this many requests in orders (busy or queued), a normal request is turned away at once.", unit: "requests",
        kind: Kind::Count { min: LoadShedConfig::LIMIT.0, max: LoadShedConfig::LIMIT.1, write: |c, n| if let Some(s) = shed_mut(c) { let n = n as u32; s.normal = n; s.low = s.low.min(n); s.high = s.high.max(n) } },
        needs: Needs::SwitchesOn(Part::Door(Pattern::LOAD_SHED)), read: |c| shed(c).map(|s| Value::Count(s.normal.into())),
        fields: &["load_shed.normal"], panel: Some(Panel { label: "Shedding limit", unit: Unit::Count, min: 1.0, max: 1_000.0, step: 1.0, shown_with: None }) },
    Param { key: "shed_low", doc: "Low-priority requests are turned away from this many in orders on: they go first.", unit: "requests",
        kind: Kind::Count { min: LoadShedConfig::LIMIT.0, max: LoadShedConfig::LIMIT.1, write: |c, n| if let Some(s) = shed_mut(c) { let n = n as u32; s.low = n; s.normal = s.normal.max(n); s.high = s.high.max(n) } },
        needs: Needs::SwitchesOn(Part::Door(Pattern::LOAD_SHED)), read: |c| shed(c).map(|s| Value::Count(s.low.into())),
        fields: &["load_shed.low"], panel: Some(Panel { label: "Low-priority limit", unit: Unit::Count, min: 0.0, max: 1_000.0, step: 1.0, shown_with: None }) },
    Param { key: "shed_high", doc: "High-priority requests are turned away only from this many in orders on.", unit: "requests",
        kind: Kind::Count { min: LoadShedConfig::LIMIT.0, max: LoadShedConfig::LIMIT.1, write: |c, n| if let Some(s) = shed_mut(c) { let n = n as u32; s.high = n; s.normal = s.normal.min(n); s.low = s.low.min(n) } },
        needs: Needs::SwitchesOn(Part::Door(Pattern::LOAD_SHED)), read: |c| shed(c).map(|s| Value::Count(s.high.into())),
        fields: &["load_shed.high"], panel: Some(Panel { label: "High-priority limit", unit: Unit::Count, min: 1.0, max: 1_000.0, step: 1.0, shown_with: None }) },
    Param { key: "rate_limit", doc: "Orders per second the rate limit at the door of orders lets in; the others get 429 with a Retry-After.", unit: "requests/s",
        kind: Kind::Number { min: TokenBucketConfig::RATE.0, max: TokenBucketConfig::RATE.1, above_min: true, write: |c, v| if let Some(r) = c.service.rate_limit.as_mut() { r.rate_per_sec = v } },
        needs: Needs::SwitchesOn(Part::Door(Pattern::RATE_LIMIT)), read: |c| c.service.rate_limit.as_ref().map(|r| Value::Number(r.rate_per_sec)),
        fields: &["rate_limit.rate_per_sec"], panel: Some(Panel { label: "Rate limit", unit: Unit::PerSecond, min: 10.0, max: 500.0, step: 10.0, shown_with: None }) },
    Param { key: "rate_limit_burst", doc: "Most orders the rate limit lets in at once after a quiet spell (its bucket's size).", unit: "requests",
        kind: Kind::Count { min: TokenBucketConfig::BURST.0, max: TokenBucketConfig::BURST.1, write: |c, n| if let Some(r) = c.service.rate_limit.as_mut() { r.burst = n as u32 } },
        needs: Needs::SwitchesOn(Part::Door(Pattern::RATE_LIMIT)), read: |c| c.service.rate_limit.as_ref().map(|r| Value::Count(r.burst.into())),
        fields: &["rate_limit.burst"], panel: Some(Panel { label: "Rate limit burst", unit: Unit::Count, min: 1.0, max: 500.0, step: 1.0, shown_with: None }) },
    share("priority_low", "The share of requests marked low priority (the high share gives way to keep the sum at most 1).",
        |c, v| { let mix = &mut c.traffic.priority_mix; mix.low = v; mix.high = mix.high.min(1.0 - v) },
        |c| Some(Value::Number(c.traffic.priority_mix.low)))
        .on_panel(Panel { label: "Low-priority share", unit: Unit::Percent, min: 0.0, max: 100.0, step: 5.0, shown_with: Some(Pattern::LOAD_SHED) }),
    share("priority_high", "The share of requests marked high priority (the low share gives way).",
        |c, v| { let mix = &mut c.traffic.priority_mix; mix.high = v; mix.low = mix.low.min(1.0 - v) },
        |c| Some(Value::Number(c.traffic.priority_mix.high)))
        .on_panel(Panel { label: "High-priority share", unit: Unit::Percent, min: 0.0, max: 100.0, step: 5.0, shown_with: Some(Pattern::LOAD_SHED) }),
    Param { key: "fallback", doc: "What POST /orders answers when inventory cannot be used: on (pending confirmation), off, none, or a kind.", unit: "",
        kind: Kind::Choice { names: FALLBACK_NAMES, write: |c, i| c.service.fallback = match i {
            0 => Some(FallbackPolicy::reserve_stock()),
            1 => None,
            2 => Some(FallbackPolicy::None { reason: "switched off on the command line".to_string() }),
            _ => Fallback::ALL.get(i - FALLBACK_FIRST_KIND).map(|f| FallbackPolicy::Use(*f)),
        } },
        needs: Needs::Nothing, read: |c| Some(Value::Choice(match &c.service.fallback {
            None => 1,
            Some(FallbackPolicy::None { .. }) => 2,
            Some(FallbackPolicy::Use(f)) => FALLBACK_FIRST_KIND + Fallback::ALL.iter().position(|k| k == f).unwrap_or(0),
        })), fields: &[], panel: None },
    Param { key: "idempotency_key", doc: "Count duplicate orders; on: the front end's copies carry one Idempotency-Key, off: none.", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| if let Some(o) = c.service.idempotency.as_mut() { o.key = i == 0 } },
        needs: Needs::SwitchesOn(Part::Idempotency), read: |c| c.service.idempotency.as_ref().map(|o| Value::on_off(o.key)),
        fields: &[], panel: Some(Panel { label: "Idempotency key on resends", unit: Unit::Count, min: 0.0, max: 1.0, step: 1.0, shown_with: None }) },
    Param { key: "idempotency_ttl", doc: "How long orders keeps a key's answer.", unit: "s",
        kind: Kind::Time { min: IdempotencyConfig::TTL.0, max: IdempotencyConfig::TTL.1, write: |c, t| if let Some(o) = c.service.idempotency.as_mut() { o.store.ttl = t } },
        needs: Needs::SwitchesOn(Part::Idempotency), read: |c| c.service.idempotency.as_ref().map(|o| Value::Time(o.store.ttl)), fields: &[], panel: None },
    // The clients.
    Param { key: "client_give_up", doc: "The client leaves after this long without an answer.", unit: "s",
        kind: Kind::Time { min: Traffic::GIVE_UP.0, max: Traffic::GIVE_UP.1, write: |c, t| c.traffic.client_give_up = Some(t) },
        needs: Needs::Nothing, read: |c| c.traffic.client_give_up.map(Value::Time), fields: &[], panel: None },
    Param { key: "frontend_retries", doc: "Times the front end sends a request again after a failure or giving up.", unit: "retries",
        kind: Kind::Count { min: Traffic::FRONTEND_RETRIES.0, max: Traffic::FRONTEND_RETRIES.1, write: |c, n| c.traffic.frontend_retries = n as u32 },
        needs: Needs::Nothing, read: |c| Some(Value::Count(c.traffic.frontend_retries.into())), fields: &[], panel: None },
    // The gateway and the other routes.
    Param { key: "gateway_pool", doc: "The gateway's connections towards the services; none free: 503.", unit: "connections",
        kind: Kind::Count { min: GatewayConfig::POOL.0, max: GatewayConfig::POOL.1, write: |c, n| if let Some(g) = gateway_mut(c) { g.pool = n as u32 } },
        needs: Needs::SwitchesOn(Part::Gateway), read: |c| gateway(c).map(|g| Value::Count(g.pool.into())), fields: &["gateway.pool"], panel: None },
    Param { key: "route_timeout", doc: "The gateway's timeout of every route without one of its own: 504 past it.", unit: "s",
        kind: Kind::Time { min: GatewayConfig::TIMEOUT.0, max: GatewayConfig::TIMEOUT.1, write: |c, t| if let Some(g) = gateway_mut(c) { g.route_timeout = Some(t) } },
        needs: Needs::OnlyWith(Part::Gateway), read: |c| gateway(c).and_then(|g| g.route_timeout).map(Value::Time), fields: &[], panel: None },
    Param { key: "orders_timeout", doc: "The gateway's timeout of POST /orders.", unit: "s",
        kind: Kind::Time { min: GatewayConfig::TIMEOUT.0, max: GatewayConfig::TIMEOUT.1, write: |c, t| if let Some(g) = gateway_mut(c) { g.route_timeouts.orders = Some(t) } },
        needs: Needs::OnlyWith(Part::Gateway), read: |c| gateway(c).and_then(|g| g.route_timeouts.orders).map(Value::Time), fields: &["gateway.route_timeouts.orders"], panel: None },
    Param { key: "catalog_timeout", doc: "The gateway's timeout of GET /catalog.", unit: "s",
        kind: Kind::Time { min: GatewayConfig::TIMEOUT.0, max: GatewayConfig::TIMEOUT.1, write: |c, t| if let Some(g) = gateway_mut(c) { g.route_timeouts.catalog = Some(t) } },
        needs: Needs::OnlyWith(Part::Gateway), read: |c| gateway(c).and_then(|g| g.route_timeouts.catalog).map(Value::Time), fields: &["gateway.route_timeouts.catalog"], panel: None },
    Param { key: "history_timeout", doc: "The gateway's timeout of order-history lookups.", unit: "s",
        kind: Kind::Time { min: GatewayConfig::TIMEOUT.0, max: GatewayConfig::TIMEOUT.1, write: |c, t| if let Some(g) = gateway_mut(c) { g.route_timeouts.order_history = Some(t) } },
        needs: Needs::OnlyWith(Part::Gateway), read: |c| gateway(c).and_then(|g| g.route_timeouts.order_history).map(Value::Time), fields: &["gateway.route_timeouts.order_history"], panel: None },
    Param { key: "gateway_retries", doc: "Kong's retries: a try whose route timeout ran out is sent again at once.", unit: "retries",
        kind: Kind::Count { min: GatewayConfig::RETRIES.0, max: GatewayConfig::RETRIES.1, write: |c, n| if let Some(g) = gateway_mut(c) { g.retries = n as u32 } },
        needs: Needs::OnlyWith(Part::Gateway), read: |c| gateway(c).map(|g| Value::Count(g.retries.into())), fields: &["gateway.retries"], panel: None },
    share("catalog_share", "Share of requests that are GET /catalog.",
        |c, v| c.routes.catalog_share = v, |c| Some(Value::Number(c.routes.catalog_share))),
    share("history_share", "Share of requests that are order-history lookups.",
        |c, v| c.routes.history_share = v, |c| Some(Value::Number(c.routes.history_share))),
    Param { key: "history_bulkhead", doc: "Which bulkhead order-history lookups go through: none (only the workers limit them), shared (inventory's, lesson 004's incident) or own (orderHistoryLookup's 20 permits, its fix).", unit: "",
        kind: Kind::Choice { names: HISTORY_BULKHEADS, write: |c, i| c.routes.history_bulkhead = match i {
            0 => HistoryBulkhead::None,
            1 => HistoryBulkhead::Shared,
            _ => HistoryBulkhead::Own(BulkheadConfig::northwind_order_history()),
        } },
        needs: Needs::Nothing, read: |c| Some(Value::Choice(match c.routes.history_bulkhead {
            HistoryBulkhead::None => 0,
            HistoryBulkhead::Shared => 1,
            HistoryBulkhead::Own(_) => 2,
        })),
        fields: &[], panel: Some(Panel { label: "Order history's bulkhead", unit: Unit::Count, min: 0.0, max: 2.0, step: 1.0, shown_with: None }) },
    // Payments, the second dependency: every key switches it on.
    // Which library's semantics inventory's stack runs with.
    Param { key: "stack", doc: "Inventory's stack: lesson (lesson 000's order, one admission and one permit per request), resilience4j (Spring Boot's aspect order and Resilience4j's semantics; lesson 004's annotations as written unless the config has its own settings), polly (a .NET client's Polly v8 pipeline as the HTTP standard resilience handler adds it: retry, breaker, attempt timeout; exponential jittered delays; timeouts and failures retried, a refused call not) or grpc (a gRPC channel under a service config: the timeout is the deadline over every attempt, at most 5 attempts, fully random exponential back-off, UNAVAILABLE retried, a retry throttle of 10 tokens; no breaker, no bulkhead).", unit: "",
        kind: Kind::Choice { names: &Profile::KEYS, write: |c, i| set_stack(INV.stack(c), i) },
        needs: Needs::OnlyWith(Part::Dependency(INV)), read: |c| stack(c, INV).map(|s| Value::Choice(s.profile.index())), fields: &[], panel: None },
    Param { key: "payments", doc: "A second dependency after inventory on POST /orders: 60 ms, with a 300 ms timeout, the lesson's breaker and a bulkhead of 8.", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| if i == 0 { PAY.get(c); } else { c.dependencies.retain(|d| d.name != "payments") } },
        needs: Needs::Nothing, read: |c| Some(Value::on_off(dep(c, PAY).is_some())), fields: &[], panel: None },
    Param { key: "payments_fast", doc: "How long payments takes while healthy.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| PAY.get(c).faults.fast = t },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).map(|d| Value::Time(d.faults.fast)), fields: &[], panel: None },
    Param { key: "payments_slow", doc: "How long payments takes once degraded.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| PAY.get(c).faults.slow = t },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).map(|d| Value::Time(d.faults.slow)), fields: &[], panel: None },
    Param { key: "payments_fast_p99", doc: "Payments' healthy p99 (lognormal latency).", unit: "s",
        kind: Kind::Time { min: FaultSchedule::P99.0, max: FaultSchedule::P99.1, write: |c, t| PAY.get(c).faults.fast_p99 = Some(t) },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).and_then(|d| d.faults.fast_p99).map(Value::Time), fields: &[], panel: None },
    Param { key: "payments_slow_p99", doc: "Payments' degraded p99 (lognormal latency).", unit: "s",
        kind: Kind::Time { min: FaultSchedule::P99.0, max: FaultSchedule::P99.1, write: |c, t| PAY.get(c).faults.slow_p99 = Some(t) },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).and_then(|d| d.faults.slow_p99).map(Value::Time), fields: &[], panel: None },
    Param { key: "payments_degrade_at", doc: "Payments calls that start after this time are slow.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| PAY.get(c).faults.degrade_at = Some(t) },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).and_then(|d| d.faults.degrade_at).map(Value::Time), fields: &[], panel: None },
    Param { key: "payments_recover_at", doc: "Payments calls that start after this time are healthy again.", unit: "s",
        kind: Kind::Time { min: FaultSchedule::TIME.0, max: FaultSchedule::TIME.1, write: |c, t| PAY.get(c).faults.recover_at = Some(t) },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).and_then(|d| d.faults.recover_at).map(Value::Time), fields: &[], panel: None },
    Param { key: "payments_error_rate", doc: "While degraded, the share of payments calls failing with a transient error.", unit: "share",
        kind: Kind::Number { min: ParamError::SHARE.0, max: ParamError::SHARE.1, above_min: false, write: |c, v| PAY.get(c).faults.error_rate = v },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| dep(c, PAY).map(|d| Value::Number(d.faults.error_rate)), fields: &[], panel: None },
    Param { key: "payments_timeout", doc: "Timeout on each call to payments.", unit: "s",
        kind: Kind::Time { min: StackConfig::TIMEOUT.0, max: StackConfig::TIMEOUT.1, write: |c, t| PAY.stack(c).timeout = Some(t) },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::TIMEOUT)), read: |c| stack(c, PAY).and_then(|s| s.timeout).map(Value::Time), fields: &[], panel: None },
    Param { key: "payments_attempts", doc: "Calls to payments per request in all, the first one included.", unit: "calls",
        kind: Kind::Count { min: RetryPolicy::ATTEMPTS.0, max: RetryPolicy::ATTEMPTS.1, write: |c, n| if let Some(r) = retry_mut(c, PAY) { r.attempts = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::RETRY)), read: |c| retry(c, PAY).map(|r| Value::Count(r.attempts.into())), fields: &[], panel: None },
    Param { key: "payments_permits", doc: "Calls to payments allowed in flight at once.", unit: "calls",
        kind: Kind::Count { min: BulkheadConfig::PERMITS.0, max: BulkheadConfig::PERMITS.1, write: |c, n| if let Some(b) = bulkhead_mut(c, PAY) { b.permits = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::BULKHEAD)), read: |c| bulkhead(c, PAY).map(|b| Value::Count(b.permits.into())), fields: &[], panel: None },
    Param { key: "payments_max_wait", doc: "How long a payments call waits for a permit.", unit: "s",
        kind: Kind::Time { min: BulkheadConfig::MAX_WAIT.0, max: BulkheadConfig::MAX_WAIT.1, write: |c, t| if let Some(b) = bulkhead_mut(c, PAY) { b.max_wait = t } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::BULKHEAD)), read: |c| bulkhead(c, PAY).map(|b| Value::Time(b.max_wait)), fields: &[], panel: None },
    Param { key: "payments_min_calls", doc: "Results payments' breaker needs in its window before it may open.", unit: "calls",
        kind: Kind::Count { min: BreakerConfig::MIN_CALLS.0, max: BreakerConfig::MIN_CALLS.1, write: |c, n| if let Some(b) = breaker_mut(c, PAY) { b.min_calls = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::BREAKER)), read: |c| breaker(c, PAY).map(|b| Value::Count(b.min_calls.into())), fields: &[], panel: None },
    Param { key: "payments_cooldown", doc: "How long payments' circuit stays open.", unit: "s",
        kind: Kind::Time { min: BreakerConfig::COOLDOWN.0, max: BreakerConfig::COOLDOWN.1, write: |c, t| if let Some(b) = breaker_mut(c, PAY) { b.cooldown = t } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::BREAKER)), read: |c| breaker(c, PAY).map(|b| Value::Time(b.cooldown)), fields: &[], panel: None },
    Param { key: "payments_capacity", doc: "Calls payments serves at once; the others wait in its queue (off: every call at once).", unit: "calls",
        kind: Kind::CountOrOff { min: 1, max: CapacityConfig::MAX_SLOTS as u64, write: |c, n| set_capacity(c, PAY, n) },
        needs: Needs::SwitchesOn(Part::Dependency(PAY)), read: |c| capacity_of(c, PAY), fields: &[], panel: None },
    Param { key: "payments_queue", doc: "Longest payments' queue may get (off: unbounded).", unit: "calls",
        kind: Kind::CountOrOff { min: 0, max: CapacityConfig::MAX_QUEUE as u64, write: |c, n| if let Some(k) = capacity_mut(c, PAY) { k.queue = n.map(|n| n as u32) } },
        needs: Needs::OnlyWith(Part::Capacity(PAY)), read: |c| queue_of(c, PAY), fields: &[], panel: None },
    Param { key: "payments_abandon", doc: "What payments does with a call its caller stopped waiting for: keep or drop.", unit: "",
        kind: Kind::Choice { names: ABANDON_NAMES, write: |c, i| if let Some(k) = capacity_mut(c, PAY) { k.abandon = abandon(i) } },
        needs: Needs::OnlyWith(Part::Capacity(PAY)), read: |c| capacity(c, PAY).map(|k| Value::Choice(usize::from(k.abandon == Abandon::Drop))), fields: &[], panel: None },
    Param { key: "payments_hot_items", doc: "Hot items payments' calls contend for; a call losing its item to another's commit fails (off: never).", unit: "items",
        kind: Kind::CountOrOff { min: 1, max: CapacityConfig::MAX_HOT_ITEMS as u64, write: |c, n| set_hot_items(c, PAY, n) },
        needs: Needs::OnlyWith(Part::Capacity(PAY)), read: |c| hot_items_of(c, PAY), fields: &[], panel: None },
    Param { key: "payments_window", doc: "The window of payments' breaker.", unit: "s",
        kind: Kind::Time { min: BreakerConfig::WINDOW_SPAN.0, max: BreakerConfig::WINDOW_SPAN.1, write: |c, t| if let Some(b) = breaker_mut(c, PAY) { b.window = Window::Time(t) } },
        needs: Needs::SwitchesOn(Part::Layer(PAY, Pattern::BREAKER)), read: |c| breaker(c, PAY).map(|b| window(b.window)), fields: &[], panel: None },
];
