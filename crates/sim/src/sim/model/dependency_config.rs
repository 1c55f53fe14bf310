//! One dependency behind `orders`, as a value: its name, how it answers (latency and fault
//! schedule) and the stack `orders` calls it through. A config lists as many as it calls.

use serde::{Deserialize, Serialize};

use super::grpc::GrpcStack;
use super::polly::PollyStack;
use super::profile::Profile;
use super::{RoomLayers, HOUR, SECOND};
use crate::resilience::{
    envoy_retry::DEFAULT_BASE, BreakerConfig, BulkheadConfig, EnvoyRetryRules, HalfOpenRule,
    Jitter, ParamError, RetryBudgetConfig, RetryPolicy,
};
use crate::sim::latency::{LatencyModel, Micros};
use crate::sim::pattern::{Descriptor, Pattern, Place};

/// A dependency `POST /orders` calls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DependencyConfig {
    /// Its name (unique in the config): `inventory`, `payments`, ...
    pub name: String,
    /// How it answers, and when it turns slow or failing.
    pub faults: FaultSchedule,
    /// The layers `orders` calls it through.
    #[serde(default)]
    pub stack: StackConfig,
    /// How much it can serve at once (`None`: without limit, as lesson 000's scenarios assume).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<CapacityConfig>,
    /// Several hosts behind a balancer, one of which may fail (`None`: one host, as before).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<HostsConfig>,
}

/// A dependency run on several hosts behind a balancer that sends each call to the host with
/// the fewest calls in flight (least outstanding requests; ties to one drawn at random).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostsConfig {
    /// How many hosts (2..=64).
    pub count: u32,
    /// From this moment one host fails every call at once (UNAVAILABLE in 1 ms), if ever
    /// (0..=3600 s).
    #[serde(default)]
    pub one_fails_at: Option<Micros>,
    /// The balancer ejects a host that failed calls in a row (`None`: it never does).
    #[serde(default)]
    pub outlier_detection: Option<OutlierDetection>,
}

/// Envoy's outlier detection by consecutive errors: a host whose calls failed
/// `consecutive_errors` times in a row is ejected for `base_ejection` times the number of times
/// it has been ejected (at most 300 s), and at most a tenth of the hosts (at least one) are
/// ejected at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutlierDetection {
    /// Failed calls in a row that eject a host (1..=1000; Envoy's default 5).
    pub consecutive_errors: u32,
    /// The first ejection's length (1 ms..=600 s; Envoy's default 30 s).
    pub base_ejection: Micros,
}

impl OutlierDetection {
    /// Envoy's defaults: 5 errors in a row, 30 s.
    pub fn envoy() -> Self {
        OutlierDetection {
            consecutive_errors: 5,
            base_ejection: 30_000_000,
        }
    }
}

impl HostsConfig {
    /// `hosts`.
    pub const COUNT: (u64, u64) = (2, 64);
    /// `host_fails_at`.
    pub const FAILS_AT: (Micros, Micros) = (0, 3_600_000_000);
    /// `outlier_errors`.
    pub const ERRORS: (u64, u64) = (1, 1_000);
    /// `outlier_ejection`.
    pub const EJECTION: (Micros, Micros) = (1_000, 600_000_000);

    /// Four hosts, one failing from 5 s, no outlier detection.
    pub fn zoo() -> Self {
        HostsConfig {
            count: 4,
            one_fails_at: Some(5_000_000),
            outlier_detection: None,
        }
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::COUNT;
        ParamError::check_u64("hosts", self.count.into(), min, max, "")?;
        if let Some(at) = self.one_fails_at {
            let (min, max) = Self::FAILS_AT;
            ParamError::check_micros("host_fails_at", at, min, max)?;
        }
        if let Some(o) = &self.outlier_detection {
            let (min, max) = Self::ERRORS;
            ParamError::check_u64("outlier_errors", o.consecutive_errors.into(), min, max, "")?;
            let (min, max) = Self::EJECTION;
            ParamError::check_micros("outlier_ejection", o.base_ejection, min, max)?;
        }
        Ok(())
    }
}

/// A dependency that can be overloaded: `slots` calls served at once, the others waiting in its
/// FIFO queue; the fault schedule's latency is then the service time of one call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapacityConfig {
    /// Calls served at once (1..=10000).
    pub slots: u32,
    /// Longest its queue may get; a call finding it full is answered UNAVAILABLE at once
    /// (0..=1000000; `None`: unbounded).
    #[serde(default)]
    pub queue: Option<u32>,
    /// What it does with a call whose caller stopped waiting.
    #[serde(default)]
    pub abandon: Abandon,
    /// It recovers by restarting (at its fault schedule's `recover_at`): every call queued or
    /// in service then fails at once with UNAVAILABLE, and their callers fail together.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart_at_recovery: bool,
    /// Optimistic concurrency on a few hot items (a sale: many orders reserve the same few
    /// products): each call reserves one of this many items, reads its version when a slot
    /// starts on it, and fails as UNAVAILABLE at its end if another call committed that item
    /// meanwhile (1..=100000; `None`: calls never conflict).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hot_items: Option<u32>,
    /// A cache in front of the servers (a database behind its cache): a call whose item is
    /// cached is answered by the cache and never reaches a slot (`None`: no cache).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheConfig>,
}

/// A cache in front of a dependency's servers. It starts warm, with every item; a miss is
/// fetched from the servers, and the answer fills the cache as `fill` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CacheConfig {
    /// Items the calls look up, each call one drawn uniformly (1..=1000000).
    pub items: u32,
    /// How long a hit takes (0..=60 s).
    pub hit: Micros,
    /// When the cache is emptied, if it is (0..=3600 s).
    #[serde(default)]
    pub flush_at: Option<Micros>,
    /// Who fills the cache after a miss.
    #[serde(default)]
    pub fill: CacheFill,
}

/// Who fills a cache after a miss.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheFill {
    /// The caller, with the answer it got: a caller that stopped waiting (its try timed out)
    /// never fills it, and every miss goes to the servers.
    #[default]
    Caller,
    /// The cache itself, once per item: a miss for an item already being fetched waits for
    /// that fetch, and the fetch fills the cache whether its first caller still waits or not.
    Coalesce,
}

impl CacheFill {
    /// Every way, by its `--set cache_fill=` value.
    pub const NAMES: [&'static str; 2] = ["caller", "coalesce"];
    /// Every way, in the order of [`CacheFill::NAMES`].
    pub const ALL: [CacheFill; 2] = [CacheFill::Caller, CacheFill::Coalesce];
}

impl CacheConfig {
    /// `cache_items`.
    pub const ITEMS: (u64, u64) = (1, 1_000_000);
    /// `cache_hit`.
    pub const HIT: (Micros, Micros) = (0, 60_000_000);
    /// `cache_flush_at`.
    pub const FLUSH_AT: (Micros, Micros) = (0, 3_600_000_000);

    /// 300 items answered in 1 ms, emptied at 5 s, filled by the callers.
    pub fn zoo() -> Self {
        CacheConfig {
            items: 300,
            hit: 1_000,
            flush_at: Some(5_000_000),
            fill: CacheFill::Caller,
        }
    }

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::ITEMS;
        ParamError::check_u64("cache_items", self.items.into(), min, max, "")?;
        let (min, max) = Self::HIT;
        ParamError::check_micros("cache_hit", self.hit, min, max)?;
        if let Some(at) = self.flush_at {
            let (min, max) = Self::FLUSH_AT;
            ParamError::check_micros("cache_flush_at", at, min, max)?;
        }
        Ok(())
    }
}

/// What a server does with work nobody waits for any more.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Abandon {
    /// It does the work anyway and holds its slot (a Python `sleep`, a `supplyAsync` under a
    /// time limiter, most HTTP clients).
    #[default]
    Keep,
    /// The caller's deadline travels with the call: work still queued at its deadline is
    /// skipped, work in progress is stopped there (lesson 000's deadline propagation).
    Drop,
}

impl Abandon {
    /// True for the default, [`Abandon::Keep`] (left out of a config's JSON).
    pub fn is_keep(&self) -> bool {
        *self == Abandon::Keep
    }

    /// Its `--set` value.
    pub fn name(self) -> &'static str {
        match self {
            Abandon::Keep => "keep",
            Abandon::Drop => "drop",
        }
    }

    /// The value `--set` names, if it is one.
    pub fn parse(value: &str) -> Option<Abandon> {
        match value {
            "keep" => Some(Abandon::Keep),
            "drop" => Some(Abandon::Drop),
            _ => None,
        }
    }
}

impl CapacityConfig {
    /// Most calls a dependency may serve at once.
    pub const MAX_SLOTS: u32 = 10_000;
    /// Longest bound of its queue.
    pub const MAX_QUEUE: u32 = 1_000_000;
    /// Most hot items: a version each is kept for the run, and past this many items the
    /// playground's rates (at most 10,000 calls/s) hardly ever make two calls meet on one.
    pub const MAX_HOT_ITEMS: u32 = 100_000;

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("capacity", self.slots.into(), 1, Self::MAX_SLOTS.into(), "")?;
        if let Some(q) = self.queue {
            ParamError::check_u64("inventory_queue", q.into(), 0, Self::MAX_QUEUE.into(), "")?;
        }
        if let Some(k) = self.hot_items {
            ParamError::check_u64("hot_items", k.into(), 1, Self::MAX_HOT_ITEMS.into(), "")?;
        }
        if let Some(c) = &self.cache {
            c.validate()?;
        }
        Ok(())
    }
}

/// How a dependency answers: healthy, then degraded for calls starting strictly after
/// `degrade_at`, healthy again strictly after `recover_at`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaultSchedule {
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
    /// Slow for calls starting strictly after this (0..=3600 s; `None`: never).
    #[serde(default)]
    pub degrade_at: Option<Micros>,
    /// Healthy again for calls starting strictly after this (`degrade_at..=3600 s`).
    #[serde(default)]
    pub recover_at: Option<Micros>,
    /// While degraded, the share of calls that fail with a transient error (0..=1).
    #[serde(default)]
    pub error_rate: f64,
    /// At any time, the share of calls answered with a business "no" (0..=1).
    #[serde(default)]
    pub business_error_rate: f64,
}

/// The stack around a dependency's call: whose semantics it follows (and so the order the
/// layers wrap the call in, outside in) and each layer's settings (`None`: the layer is off).
/// A file writes the profile as `order` and the library's settings beside the layers
/// (`profile_file.rs`), and any other key is refused there.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StackConfig {
    /// The layers their rooms declare. Before the profile: serde hands the flattened parts
    /// the keys in this order, and the profile refuses any key still left.
    #[serde(flatten, deserialize_with = "super::profile_file::naming_the_path")]
    pub rooms: RoomLayers,
    /// Lesson 000's semantics and order (the default), or a library's.
    #[serde(flatten)]
    pub profile: Profile,
    /// Its bulkhead, if any.
    pub bulkhead: Option<BulkheadConfig>,
    /// Its circuit breaker, if any.
    pub breaker: Option<BreakerConfig>,
    /// Exercise 2's bug: the client treats the business "no" as a transient failure, so the
    /// breaker counts it as one.
    pub business_errors_trip_breaker: bool,
    /// Retries in the `orders` library, inside the breaker (attempts 1..=10).
    pub retry: Option<RetryPolicy>,
    /// The retry budget shared by every request's retries of this dependency.
    pub retry_budget: Option<RetryBudgetConfig>,
    /// Timeout on each attempt (1 ms..=3600 s; `None`: waits as long as it takes, or what is
    /// left of the request budget).
    pub timeout: Option<Micros>,
    /// An Envoy sidecar retrying inside each library attempt.
    pub sidecar: Option<SidecarConfig>,
}

/// A sidecar proxy (Envoy) between `orders` and inventory: it retries on its own, inside each
/// attempt of the library, with a per-try timeout (lesson 000: 2 retries, 300 ms per try,
/// back-off 50 ms to 200 ms with jitter).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SidecarConfig {
    /// Retries after the first try (0..=10; Istio's default: 2, Envoy's: 1).
    pub retries: u32,
    /// Each try's timeout (1 ms..=3600 s; `None`: only the library's timeout applies).
    #[serde(default)]
    pub per_try_timeout: Option<Micros>,
    /// Back-off base (1 µs..=60 s); the wait is full jitter up to `min(cap, base × 2^n)`.
    pub base: Micros,
    /// Longest back-off (base..=600 s).
    pub cap: Micros,
    /// Envoy's own rules for the route and its cluster: the failures it retries, its back-off
    /// (from `base`, at most `cap`) and the cluster's cap on retries in flight (`None`: lesson
    /// 000's sidecar, which retries every transient failure with the lesson's jitter).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub envoy: Option<EnvoyRetryRules>,
}

impl SidecarConfig {
    /// Lesson 000's Envoy route: 2 retries, 300 ms per try, back-off 50 ms .. 200 ms.
    pub fn lesson_000() -> Self {
        SidecarConfig {
            retries: 2,
            per_try_timeout: Some(300_000),
            base: 50_000,
            cap: 200_000,
            envoy: None,
        }
    }

    /// Envoy's defaults for a route that retries: 1 retry, no per-try timeout, a back-off of
    /// 25 ms doubling up to 250 ms, retrying 5xx answers and per-try timeouts, with the
    /// cluster's `max_retries` of 3 retries in flight.
    pub fn envoy() -> Self {
        SidecarConfig {
            retries: 1,
            per_try_timeout: None,
            base: DEFAULT_BASE,
            cap: 10 * DEFAULT_BASE,
            envoy: Some(EnvoyRetryRules::on_5xx()),
        }
    }

    pub(super) fn policy(&self) -> RetryPolicy {
        RetryPolicy {
            attempts: self.retries + 1,
            base: self.base,
            cap: self.cap,
            jitter: Jitter::Full,
        }
    }

    /// The ranges `validate` accepts, which the parameter rows offer too: `sidecar_retries`.
    pub const RETRIES: (u64, u64) = (0, 10);
    /// `per_try_timeout`.
    pub const PER_TRY_TIMEOUT: (Micros, Micros) = (1_000, HOUR);
    /// `sidecar_base`.
    pub const BASE: (Micros, Micros) = (1, 60 * SECOND);
    /// `sidecar_cap` (and at least the base).
    pub const CAP: (Micros, Micros) = (1, 600 * SECOND);

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::RETRIES;
        ParamError::check_u64("retries", self.retries.into(), min, max, "")?;
        if let Some(t) = self.per_try_timeout {
            let (min, max) = Self::PER_TRY_TIMEOUT;
            ParamError::check_micros("per_try_timeout", t, min, max)?;
        }
        ParamError::check_micros("base", self.base, Self::BASE.0, Self::BASE.1)?;
        let least = self.base.max(Self::CAP.0);
        ParamError::check_micros("cap", self.cap, least, Self::CAP.1)?;
        if let Some(rules) = &self.envoy {
            rules.limit.validate()?;
        }
        Ok(())
    }
}

fn latency(p50: Micros, p99: Option<Micros>) -> LatencyModel {
    match p99 {
        Some(p99) if p50 > 0 => LatencyModel::LogNormal { p50, p99 },
        _ => LatencyModel::Fixed { micros: p50 },
    }
}

impl FaultSchedule {
    /// The latency of a call while healthy.
    pub fn healthy(&self) -> LatencyModel {
        latency(self.fast, self.fast_p99)
    }

    /// The latency of a call while degraded.
    pub fn degraded(&self) -> LatencyModel {
        latency(self.slow, self.slow_p99)
    }

    /// The range of each time the schedule holds (`fast`, `slow`, `degrade_at`, `recover_at`),
    /// which `validate` and the parameter rows share.
    pub const TIME: (Micros, Micros) = (0, HOUR);
    /// A p99's (and at least its median).
    pub const P99: (Micros, Micros) = (1, HOUR);

    /// Checks every field against its range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::TIME;
        ParamError::check_micros("fast", self.fast, min, max)?;
        ParamError::check_micros("slow", self.slow, min, max)?;
        if let Some(d) = self.degrade_at {
            ParamError::check_micros("degrade_at", d, min, max)?;
        }
        if let Some(p) = self.fast_p99 {
            ParamError::check_micros("fast_p99", p, self.fast.max(Self::P99.0), Self::P99.1)?;
        }
        if let Some(p) = self.slow_p99 {
            ParamError::check_micros("slow_p99", p, self.slow.max(Self::P99.0), Self::P99.1)?;
        }
        if let Some(r) = self.recover_at {
            let from = self.degrade_at.unwrap_or(min);
            ParamError::check_micros("recover_at", r, from, max)?;
        }
        ParamError::check_share("error_rate", self.error_rate)?;
        ParamError::check_share("business_error_rate", self.business_error_rate)?;
        Ok(())
    }
}

impl StackConfig {
    /// The timeout's range, which `validate` and the parameter rows share.
    pub const TIMEOUT: (Micros, Micros) = (1_000, HOUR);

    /// Checks the profile and every layer that is on (each by its row: `layers`); a layer's
    /// field is named under the layer's name in the stack (`breaker`, then
    /// `half_open_probes`).
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.profile.is_library() {
            self.validate_library()?;
        }
        layers().try_for_each(|l| (l.check)(self))
    }
}

/// Lesson 000's timeout on the call to inventory, as `cascade.py` has it.
const LESSON_TIMEOUT: Micros = 300_000;

impl Pattern {
    /// A timeout on each attempt, cut to what is left of the request budget.
    pub const TIMEOUT: Pattern = Pattern::new(&Descriptor {
        written: "timeout",
        key: "timeout",
        label: "Timeout",
        name: "timeout",
        missing: "no timeout",
        place: Place::Layer,
        switch: true,
        order: [Some(3), Some(2), Some(2), Some(0)],
    });

    /// Retries of a failed call, with back-off and jitter.
    pub const RETRY: Pattern = Pattern::new(&Descriptor {
        written: "retry",
        key: "retries",
        label: "Retries",
        name: "retries",
        missing: "no retries",
        place: Place::Layer,
        switch: true,
        order: [Some(2), Some(0), Some(0), Some(1)],
    });

    /// A budget shared by every request's retries. It has no place of its own in a stack's
    /// order: the retry layer asks it before each retry.
    pub const RETRY_BUDGET: Pattern = Pattern::new(&Descriptor {
        written: "retry_budget",
        key: "retry_budget",
        label: "Retry budget",
        name: "retry budget",
        missing: "no retry budget",
        place: Place::WithinRetries,
        switch: true,
        order: [None; 4],
    });

    /// A circuit breaker around the call.
    pub const BREAKER: Pattern = Pattern::new(&Descriptor {
        written: "breaker",
        key: "breaker",
        label: "Circuit breaker",
        name: "circuit breaker",
        missing: "no circuit breaker",
        place: Place::Layer,
        switch: true,
        order: [Some(1), Some(1), Some(1), None],
    });

    /// A bulkhead: a permit per call in flight.
    pub const BULKHEAD: Pattern = Pattern::new(&Descriptor {
        written: "bulkhead",
        key: "bulkhead",
        label: "Bulkhead",
        name: "bulkhead",
        missing: "no bulkhead",
        place: Place::Layer,
        switch: true,
        order: [Some(0), Some(3), Some(3), None],
    });

    /// An Envoy sidecar retrying each try with a per-try timeout.
    pub const SIDECAR: Pattern = Pattern::new(&Descriptor {
        written: "sidecar",
        key: "sidecar",
        label: "Sidecar retries",
        name: "sidecar",
        missing: "no sidecar",
        place: Place::Layer,
        switch: false,
        order: [Some(4), None, None, None],
    });
}

/// A layer's own check of its field, if it is on, naming a bad field under `section`.
pub(super) fn check_in<T>(
    layer: Option<&T>,
    section: &'static str,
    check: fn(&T) -> Result<(), ParamError>,
) -> Result<(), ParamError> {
    layer.map_or(Ok(()), |l| check(l).map_err(|e| e.within(section)))
}

/// A layer of the stack as one row: whether its field is on, its check, switching it on with its
/// defaults (the lesson's, or the stack's library's own flavour: no jitter in Resilience4j's
/// waits and half open judged by the rate over the permitted calls, the HTTP standard
/// handler's values for Polly, the typical `retryPolicy` for gRPC), and switching it off,
/// keeping nothing of its settings. The one place a layer's defaults are written, for `--set`,
/// links, widget attributes and the page's switches alike.
pub(super) struct Layer {
    pub pattern: Pattern,
    pub is_on: fn(&StackConfig) -> bool,
    /// Its own check while it is on, naming a bad field under the layer's name in the stack.
    pub check: fn(&StackConfig) -> Result<(), ParamError>,
    pub switch_on: fn(&mut StackConfig),
    pub switch_off: fn(&mut StackConfig),
}

/// A row for the layer held in `field` of the stack (`rooms.field` for one its room declares):
/// on while the field is, checked by `check` under the field's name, switched on by
/// `switch_on`, switched off by emptying it.
macro_rules! layer {
    ($pattern:expr, rooms . $field:ident, $check:expr, $switch_on:expr $(,)?) => {
        $crate::sim::model::dependency_config::Layer {
            pattern: $pattern,
            is_on: |s| s.rooms.$field.is_some(),
            check: |s| {
                $crate::sim::model::dependency_config::check_in(
                    s.rooms.$field.as_ref(),
                    stringify!($field),
                    $check,
                )
            },
            switch_on: $switch_on,
            switch_off: |s| s.rooms.$field = None,
        }
    };
    ($pattern:expr, $field:ident, $check:expr, $switch_on:expr $(,)?) => {
        $crate::sim::model::dependency_config::Layer {
            pattern: $pattern,
            is_on: |s| s.$field.is_some(),
            check: |s| {
                $crate::sim::model::dependency_config::check_in(
                    s.$field.as_ref(),
                    stringify!($field),
                    $check,
                )
            },
            switch_on: $switch_on,
            switch_off: |s| s.$field = None,
        }
    };
}
pub(super) use layer;

/// The layers a stack has a field for whose rows are written here, in the order
/// `StackConfig::validate` checks them, before the rows the patterns' rooms declare
/// ([`super::ROOM_LAYERS`]); a guard at the door of `orders` has none.
const OWN_LAYERS: [Layer; 6] = [
    Layer {
        pattern: Pattern::TIMEOUT,
        is_on: |s| s.timeout.is_some(),
        check: |s| {
            let (min, max) = StackConfig::TIMEOUT;
            s.timeout
                .map_or(Ok(()), |t| ParamError::check_micros("timeout", t, min, max))
        },
        switch_on: |s| {
            let polly = s.profile.polly().is_some();
            let timeout = if polly {
                PollyStack::STANDARD_ATTEMPT_TIMEOUT
            } else {
                LESSON_TIMEOUT
            };
            s.timeout.get_or_insert(timeout);
        },
        switch_off: |s| s.timeout = None,
    },
    layer!(Pattern::BREAKER, breaker, BreakerConfig::validate, |s| {
        let breaker = match &s.profile {
            Profile::Polly(_) => PollyStack::standard_breaker(),
            Profile::Resilience4j(_) => BreakerConfig {
                half_open_rule: HalfOpenRule::RateOverPermitted,
                ..BreakerConfig::cascade_sim()
            },
            Profile::Lesson000 | Profile::Grpc(_) => BreakerConfig::cascade_sim(),
        };
        s.breaker.get_or_insert(breaker);
    }),
    layer!(Pattern::BULKHEAD, bulkhead, BulkheadConfig::validate, |s| {
        s.bulkhead.get_or_insert_with(BulkheadConfig::cascade_sim);
    }),
    layer!(Pattern::RETRY, retry, RetryPolicy::validate, |s| {
        let retry = match &s.profile {
            Profile::Grpc(_) => GrpcStack::typical_retry(),
            Profile::Polly(_) => PollyStack::standard_retry(),
            Profile::Resilience4j(_) => RetryPolicy {
                jitter: Jitter::None,
                ..RetryPolicy::northwind()
            },
            Profile::Lesson000 => RetryPolicy::lesson_000(),
        };
        s.retry.get_or_insert(retry);
    }),
    layer!(
        Pattern::RETRY_BUDGET,
        retry_budget,
        RetryBudgetConfig::validate,
        |s| {
            s.retry_budget
                .get_or_insert_with(RetryBudgetConfig::lesson_000);
        }
    ),
    layer!(Pattern::SIDECAR, sidecar, SidecarConfig::validate, |s| {
        s.sidecar.get_or_insert_with(SidecarConfig::lesson_000);
    }),
];

/// Every layer a stack has a field for, in the order `StackConfig::validate` checks them.
fn layers() -> impl Iterator<Item = &'static Layer> {
    OWN_LAYERS.iter().chain(&super::ROOM_LAYERS)
}

impl StackConfig {
    fn layer(pattern: Pattern) -> Option<&'static Layer> {
        layers().find(|l| l.pattern == pattern)
    }

    /// Whether the layer `pattern` is on (false for a guard at the door of `orders`).
    pub fn has(&self, pattern: Pattern) -> bool {
        Self::layer(pattern).is_some_and(|l| (l.is_on)(self))
    }

    /// Switches the layer on with its defaults (its row: `layers`), if it is off.
    pub fn switch_on(&mut self, pattern: Pattern) {
        if let Some(l) = Self::layer(pattern) {
            (l.switch_on)(self);
        }
    }

    /// Switches the layer off, keeping nothing of its settings.
    pub fn switch_off(&mut self, pattern: Pattern) {
        if let Some(l) = Self::layer(pattern) {
            (l.switch_off)(self);
        }
    }
}

impl StackConfig {
    /// True when the stack runs Resilience4j's semantics.
    pub fn is_resilience4j(&self) -> bool {
        matches!(self.profile, Profile::Resilience4j(_))
    }

    /// True when the stack runs a library's semantics (Resilience4j's, Polly's, gRPC's).
    pub fn is_library(&self) -> bool {
        self.profile.is_library()
    }

    /// The layers a library's stack has no place for are off, its settings in range, and its
    /// retry waits without the lesson's jitter (the library's own settings decide).
    fn validate_library(&self) -> Result<(), ParamError> {
        let key = self.profile.key();
        let outside = |field: &'static str| {
            ParamError::new(
                field,
                format!("off with stack={key} (not one of its strategies)"),
                "on",
            )
        };
        let misplaced = Pattern::ALL
            .into_iter()
            .find(|p| self.has(*p) && !self.profile.has_place_for(*p));
        if let Some(p) = misplaced {
            return Err(outside(p.key()));
        }
        if self.business_errors_trip_breaker {
            return Err(ParamError::new(
                "business_errors_trip_breaker",
                format!("off with stack={key} (the library decides what its breaker counts)"),
                "true",
            ));
        }
        if self.retry.is_some_and(|r| r.jitter != Jitter::None) {
            return Err(ParamError::new(
                "jitter",
                format!("none with stack={key} (the library's own settings decide)"),
                "set",
            ));
        }
        match &self.profile {
            Profile::Resilience4j(settings) => settings.validate(),
            Profile::Grpc(settings) => settings.validate(),
            _ => Ok(()),
        }
    }
}

impl DependencyConfig {
    /// Checks its name, its fault schedule and its stack.
    pub fn validate(&self) -> Result<(), ParamError> {
        if self.name.is_empty() || self.name.len() > 40 {
            return Err(ParamError::new(
                "name",
                "1..=40 characters",
                format!("{:?}", self.name),
            ));
        }
        self.faults.validate()?;
        self.stack.validate()?;
        if let Some(h) = &self.hosts {
            h.validate()?;
        }
        if let Some(c) = &self.capacity {
            c.validate()?;
            if self.stack.is_library() {
                return Err(ParamError::new(
                    "capacity",
                    format!(
                        "off with stack={} (a library's stack in front of a dependency with a \
                         capacity is not simulated yet)",
                        self.stack.profile.key()
                    ),
                    c.slots.to_string(),
                ));
            }
        }
        if let Some(h) = &self.hosts {
            let clash = if self.capacity.is_some() {
                Some(
                    "off with a capacity (hosts are simulated for a dependency without one)".into(),
                )
            } else if self.stack.is_library() {
                Some(format!("off with stack={}", self.stack.profile.key()))
            } else {
                None
            };
            if let Some(range) = clash {
                return Err(ParamError::new("hosts", range, h.count.to_string()));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern that is a layer has one row, and a door has none; each row switches its
    /// own field on and off, on a stack of every profile, and leaves the other layers as
    /// they were.
    #[test]
    fn every_layer_is_one_row_that_switches_its_own_field() {
        for p in Pattern::ALL {
            let rows = layers().filter(|l| l.pattern == p).count();
            assert_eq!(rows, usize::from(p.is_a_layer()), "{}", p.key());
        }
        for profile in Profile::every() {
            for layer in layers() {
                let mut stack = StackConfig {
                    profile: profile.clone(),
                    ..StackConfig::default()
                };
                let others = |s: &StackConfig| {
                    let on = layers().filter(|l| l.pattern != layer.pattern);
                    on.map(|l| s.has(l.pattern)).collect::<Vec<bool>>()
                };
                let before = others(&stack);
                assert!(!stack.has(layer.pattern), "{}", layer.pattern.key());
                stack.switch_on(layer.pattern);
                assert!(stack.has(layer.pattern), "{}", layer.pattern.key());
                assert_eq!(others(&stack), before, "{}", layer.pattern.key());
                stack.switch_off(layer.pattern);
                assert!(!stack.has(layer.pattern), "{}", layer.pattern.key());
            }
        }
    }
}
