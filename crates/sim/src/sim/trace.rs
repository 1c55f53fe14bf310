//! What a cascade run produces: counts by outcome, the lesson's percentiles of service and
//! end-to-end time, the breaker's transitions and time series in 100 ms buckets.

use serde::{Deserialize, Serialize};

use super::latency::Micros;
use crate::resilience::{BreakerState, TransitionReason};

/// Width of one time-series bucket: 100 ms.
pub const BUCKET: Micros = 100_000;

/// How one request ended, as its client saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Answered in time (for `/orders`: inventory reserved the stock).
    Ok,
    /// The call to inventory ran out of its timeout (the last attempt, with retries).
    Timeout,
    /// The circuit breaker refused the call.
    CircuitOpen,
    /// No bulkhead permit within `max_wait`.
    BulkheadFull,
    /// The request's time budget ran out before the next attempt could start.
    BudgetExhausted,
    /// Refused at the door of `orders`: load shedding by priority, or its queue was full.
    Shed,
    /// Refused at the door of `orders` by its rate limit: 429 with a `Retry-After`.
    RateLimited,
    /// Inventory answered a business "no" (out of stock): a correct answer, not a failure.
    BusinessRejected,
    /// Inventory could not be used; the order was accepted as "pending confirmation".
    Fallback,
    /// Inventory failed with a transient error (the fault schedule's error rate).
    DependencyError,
    /// The client stopped waiting before any answer came (the work may still go on).
    ClientGaveUp,
    /// The gateway answered 503: every connection of its pool was in use.
    GatewayRejected,
    /// The gateway's route timeout ran out first: 504 to the client.
    GatewayTimeout,
    /// Still queued or running when the run stopped (only when not draining).
    Unfinished,
    /// Refused at once by a layer of the call's stack, in the way its module declares (a limit
    /// on the calls in flight that is used up answers 503).
    Refused(LayerRefusal),
}

/// A way a layer of a call's stack refuses a call that no other outcome names, declared in
/// the layer's module as a [`Counter`] is: an outcome's name, its words and the sentence a
/// followed request tells, so the Trace, the views and `cascade --json` name none.
#[derive(Debug, Clone, Copy)]
pub struct LayerRefusal(&'static RefusalFacts);

/// What a [`LayerRefusal`] is.
#[derive(Debug)]
pub struct RefusalFacts {
    /// Its name as an outcome, in tables and JSON.
    pub name: &'static str,
    /// Its words on a counter and in a sentence.
    pub words: &'static str,
    /// What a followed request so refused tells after who it was (`{dependency}` is the
    /// dependency's name).
    pub story: &'static str,
    /// Its place among a run's counts of refusals: each its own, below
    /// [`LayerRefusal::ROOM`] (a test checks).
    pub slot: usize,
}

impl LayerRefusal {
    /// How many ways of refusing a run can count.
    pub const ROOM: usize = 4;

    /// The refusal `facts` describe.
    pub const fn new(facts: &'static RefusalFacts) -> Self {
        LayerRefusal(facts)
    }

    /// What it is.
    pub fn facts(self) -> &'static RefusalFacts {
        self.0
    }
}

impl PartialEq for LayerRefusal {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for LayerRefusal {}

impl std::hash::Hash for LayerRefusal {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.name.hash(state)
    }
}

impl PartialOrd for LayerRefusal {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for LayerRefusal {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.name.cmp(other.0.name)
    }
}

impl Outcome {
    /// Whether a request answered so had its call to a dependency fail or refused by a layer
    /// of its stack, so that a fallback may answer instead: the outcomes
    /// [`crate::sim::model::call_end::CallEnd::outcome`] gives a call that falls back.
    pub fn failed_a_call(self) -> bool {
        matches!(
            self,
            Outcome::Timeout
                | Outcome::DependencyError
                | Outcome::BulkheadFull
                | Outcome::CircuitOpen
                | Outcome::BudgetExhausted
                | Outcome::Refused(_)
        )
    }

    /// The outcomes the Trace itself names, the layers' refusals left out (`Outcome::ALL`,
    /// where the model lists those, has every one).
    pub const PLAIN: [Outcome; 14] = [
        Outcome::BudgetExhausted,
        Outcome::BulkheadFull,
        Outcome::BusinessRejected,
        Outcome::CircuitOpen,
        Outcome::ClientGaveUp,
        Outcome::DependencyError,
        Outcome::Fallback,
        Outcome::GatewayRejected,
        Outcome::GatewayTimeout,
        Outcome::Ok,
        Outcome::RateLimited,
        Outcome::Shed,
        Outcome::Timeout,
        Outcome::Unfinished,
    ];

    /// The name printed in tables and JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Timeout => "timeout",
            Outcome::CircuitOpen => "circuit_open",
            Outcome::BulkheadFull => "bulkhead_full",
            Outcome::BudgetExhausted => "budget_exhausted",
            Outcome::Shed => "shed",
            Outcome::RateLimited => "rate_limited",
            Outcome::BusinessRejected => "business_rejected",
            Outcome::Fallback => "fallback",
            Outcome::DependencyError => "dependency_error",
            Outcome::ClientGaveUp => "client_gave_up",
            Outcome::GatewayRejected => "gateway_rejected",
            Outcome::GatewayTimeout => "gateway_timeout",
            Outcome::Unfinished => "unfinished",
            Outcome::Refused(refusal) => refusal.0.name,
        }
    }

    /// True when the client got what it asked for: ok, a business answer, or the fallback.
    pub fn is_answer(self) -> bool {
        matches!(
            self,
            Outcome::Ok | Outcome::BusinessRejected | Outcome::Fallback
        )
    }
}

/// An outcome is written by its name (`"circuit_open"`; the model reads one back, as it
/// lists the layers' refusals).
impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Requests by how they ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeCounts {
    /// Answered in time.
    pub ok: u64,
    /// Timed out.
    pub timeout: u64,
    /// Refused by the breaker.
    pub circuit_open: u64,
    /// Refused by the bulkhead.
    pub bulkhead_full: u64,
    /// Out of request budget.
    #[serde(default)]
    pub budget_exhausted: u64,
    /// Shed at the door of `orders`.
    #[serde(default)]
    pub shed: u64,
    /// Refused by the rate limit at the door of `orders` (429).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rate_limited: u64,
    /// A business "no".
    #[serde(default)]
    pub business_rejected: u64,
    /// Accepted as pending confirmation.
    #[serde(default)]
    pub fallback: u64,
    /// A transient error from inventory.
    #[serde(default)]
    pub dependency_error: u64,
    /// The client had left.
    #[serde(default)]
    pub client_gave_up: u64,
    /// 503 from the gateway.
    #[serde(default)]
    pub gateway_rejected: u64,
    /// 504 from the gateway.
    #[serde(default)]
    pub gateway_timeout: u64,
    /// Not finished when the run stopped.
    pub unfinished: u64,
    /// Calls the layers of a stack refused in a way of their own, each under its
    /// [`LayerRefusal`]'s name (left out of the JSON when 0).
    #[serde(flatten)]
    pub refused: RefusedCounts,
}

/// How many calls each [`LayerRefusal`] refused, by its slot. The model, which lists the
/// refusals, writes each under its name and reads it back.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RefusedCounts(pub [u64; LayerRefusal::ROOM]);

impl RefusedCounts {
    /// The calls `refusal` refused.
    pub fn get(&self, refusal: LayerRefusal) -> u64 {
        self.0[refusal.0.slot]
    }

    /// Counts `calls` more refused by `refusal`.
    pub fn add(&mut self, refusal: LayerRefusal, calls: u64) {
        self.0[refusal.0.slot] += calls;
    }
}

impl OutcomeCounts {
    fn slot(&mut self, outcome: Outcome) -> &mut u64 {
        match outcome {
            Outcome::Ok => &mut self.ok,
            Outcome::Timeout => &mut self.timeout,
            Outcome::CircuitOpen => &mut self.circuit_open,
            Outcome::BulkheadFull => &mut self.bulkhead_full,
            Outcome::BudgetExhausted => &mut self.budget_exhausted,
            Outcome::Shed => &mut self.shed,
            Outcome::RateLimited => &mut self.rate_limited,
            Outcome::BusinessRejected => &mut self.business_rejected,
            Outcome::Fallback => &mut self.fallback,
            Outcome::DependencyError => &mut self.dependency_error,
            Outcome::ClientGaveUp => &mut self.client_gave_up,
            Outcome::GatewayRejected => &mut self.gateway_rejected,
            Outcome::GatewayTimeout => &mut self.gateway_timeout,
            Outcome::Unfinished => &mut self.unfinished,
            Outcome::Refused(refusal) => &mut self.refused.0[refusal.0.slot],
        }
    }

    /// The count for one outcome.
    pub fn get(&self, outcome: Outcome) -> u64 {
        match outcome {
            Outcome::Ok => self.ok,
            Outcome::Timeout => self.timeout,
            Outcome::CircuitOpen => self.circuit_open,
            Outcome::BulkheadFull => self.bulkhead_full,
            Outcome::BudgetExhausted => self.budget_exhausted,
            Outcome::Shed => self.shed,
            Outcome::RateLimited => self.rate_limited,
            Outcome::BusinessRejected => self.business_rejected,
            Outcome::Fallback => self.fallback,
            Outcome::DependencyError => self.dependency_error,
            Outcome::ClientGaveUp => self.client_gave_up,
            Outcome::GatewayRejected => self.gateway_rejected,
            Outcome::GatewayTimeout => self.gateway_timeout,
            Outcome::Unfinished => self.unfinished,
            Outcome::Refused(refusal) => self.refused.0[refusal.0.slot],
        }
    }

    /// Adds one request with `outcome`.
    pub fn add(&mut self, outcome: Outcome) {
        *self.slot(outcome) += 1;
    }

    /// Adds every count of `other` to this one.
    pub fn add_all(&mut self, other: &OutcomeCounts) {
        for outcome in Outcome::PLAIN {
            *self.slot(outcome) += other.get(outcome);
        }
        for (mine, theirs) in self.refused.0.iter_mut().zip(other.refused.0) {
            *mine += theirs;
        }
    }

    /// Every request counted.
    pub fn total(&self) -> u64 {
        let plain: u64 = Outcome::PLAIN.iter().map(|&o| self.get(o)).sum();
        plain + self.refused.0.iter().sum::<u64>()
    }
}

/// The routes clients call through the gateway.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// `POST /orders`: a worker of `orders` reserves stock in inventory.
    #[default]
    Orders,
    /// `GET /catalog`: served by another service; it only shares the gateway's pool.
    Catalog,
    /// Order history: a worker of `orders` reads its own store (lesson 004's
    /// `orderHistoryLookup`); it shares the workers, and maybe the bulkhead, with `/orders`.
    OrderHistory,
}

impl Route {
    /// All three, in this order.
    pub const ALL: [Route; 3] = [Route::Orders, Route::Catalog, Route::OrderHistory];

    /// The name used in JSON and tables.
    pub fn name(self) -> &'static str {
        match self {
            Route::Orders => "orders",
            Route::Catalog => "catalog",
            Route::OrderHistory => "order_history",
        }
    }
}

/// Requests of one route and how they ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouteCounts {
    /// The route.
    pub route: Route,
    /// Requests sent on it (front-end retries included).
    pub sent: u64,
    /// How they ended.
    pub outcomes: OutcomeCounts,
    /// End-to-end p50 and p99 of the route's answered requests (from arrival, queue wait
    /// included), by the lesson's rule.
    #[serde(default)]
    pub end_to_end: Percentiles,
}

impl RouteCounts {
    /// Share of `sent` that got an answer (ok, business answer or fallback); 0 when none sent.
    pub fn success_rate(&self) -> f64 {
        if self.sent == 0 {
            return 0.0;
        }
        let o = &self.outcomes;
        (o.ok + o.business_rejected + o.fallback) as f64 / self.sent as f64
    }
}

/// The lesson's two percentiles over finished requests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Percentiles {
    /// `sorted[n / 2]`; `None` when nothing finished.
    pub p50: Option<Micros>,
    /// `sorted[floor(n * 0.99)]`; `None` when nothing finished.
    pub p99: Option<Micros>,
    /// True when there were too many distinct values to count exactly and the two figures
    /// come from an HdrHistogram (within 1%); see [`LessonPercentiles`].
    #[serde(default)]
    pub approximate: bool,
}

impl Percentiles {
    /// The lesson's rule: sort, then take `sorted[n/2]` and `sorted[floor(n*0.99)]` (computed
    /// in integers as `99n/100`).
    pub fn lesson_rule(mut values: Vec<Micros>) -> Self {
        if values.is_empty() {
            return Percentiles::default();
        }
        values.sort_unstable();
        let n = values.len();
        Percentiles {
            p50: values.get(n / 2).copied(),
            p99: values.get(p99_rank(n as u64) as usize).copied(),
            approximate: false,
        }
    }
}

/// The lesson's p99 index, `floor(n * 0.99)`, in integers, within `0..n`.
fn p99_rank(n: u64) -> u64 {
    (n.saturating_mul(99) / 100).min(n.saturating_sub(1))
}

/// Most distinct values [`LessonPercentiles`] counts exactly before it hands over to its
/// histogram: about 3 MB at most, whatever the number of requests.
pub const EXACT_DISTINCT_VALUES: usize = 65_536;

/// The lesson's percentile rule without keeping every value: a count per distinct value,
/// which gives the exact order statistics `sorted[n/2]` and `sorted[floor(0.99 n)]` while
/// there are at most [`EXACT_DISTINCT_VALUES`] distinct values (the lesson's scenarios have a
/// few hundred: fixed latencies, timeouts, waits). Past that it keeps only an HdrHistogram and
/// reports its value at the same rank, marked approximate (within 1%).
#[derive(Debug, Clone)]
pub struct LessonPercentiles {
    exact: Option<std::collections::BTreeMap<Micros, u64>>,
    all: LatencyHistogram,
}

impl Default for LessonPercentiles {
    fn default() -> Self {
        LessonPercentiles {
            exact: Some(std::collections::BTreeMap::new()),
            all: LatencyHistogram::new(),
        }
    }
}

impl LessonPercentiles {
    /// Counts one value.
    pub fn record(&mut self, value: Micros) {
        self.all.record(value);
        if let Some(map) = self.exact.as_mut() {
            *map.entry(value).or_insert(0) += 1;
            if map.len() > EXACT_DISTINCT_VALUES {
                self.exact = None;
            }
        }
    }

    /// p50 and p99 by the lesson's rule.
    pub fn percentiles(&self) -> Percentiles {
        let n = self.all.count();
        if n == 0 {
            return Percentiles::default();
        }
        let ranks = [n / 2, p99_rank(n)];
        let at = |rank: u64| -> Option<Micros> {
            match &self.exact {
                Some(map) => {
                    let mut seen = 0;
                    map.iter().find_map(|(&v, &c)| {
                        seen += c;
                        (seen > rank).then_some(v)
                    })
                }
                None => self.all.value_at_rank(rank),
            }
        };
        Percentiles {
            p50: at(ranks[0]),
            p99: at(ranks[1]),
            approximate: self.exact.is_none(),
        }
    }
}

/// Highest latency a histogram tells apart (about 12.7 days); longer ones are counted there.
pub const HISTOGRAM_HIGHEST: Micros = 1 << 40;

/// An HdrHistogram of latencies in microseconds (2 significant digits: within 1%), written as
/// the list of its non-empty buckets, `[highest value of the bucket, count]`, lowest first.
#[derive(Debug, Clone)]
pub struct LatencyHistogram(hdrhistogram::Histogram<u64>);

impl LatencyHistogram {
    /// An empty histogram.
    pub fn new() -> Self {
        // The bounds are constants that hdrhistogram accepts: this cannot fail.
        let h = hdrhistogram::Histogram::new_with_bounds(1, HISTOGRAM_HIGHEST, 2)
            .unwrap_or_else(|_| unreachable!("constant histogram bounds"));
        LatencyHistogram(h)
    }

    /// Counts one latency (longer than [`HISTOGRAM_HIGHEST`] counts as that).
    pub fn record(&mut self, value: Micros) {
        self.record_n(value, 1);
    }

    fn record_n(&mut self, value: Micros, count: u64) {
        // Within bounds by construction, so recording cannot fail.
        let _ = self.0.record_n(value.min(HISTOGRAM_HIGHEST), count);
    }

    /// Latencies counted.
    pub fn count(&self) -> u64 {
        self.0.len()
    }

    /// The value at a quantile in `0..=1` (HdrHistogram's rule); `None` when empty.
    pub fn value_at_quantile(&self, q: f64) -> Option<Micros> {
        (self.count() > 0).then(|| self.0.value_at_quantile(q.clamp(0.0, 1.0)))
    }

    /// The value of the `rank`-th smallest latency (0-based), to the histogram's precision.
    pub fn value_at_rank(&self, rank: u64) -> Option<Micros> {
        let mut seen = 0;
        self.0.iter_recorded().find_map(|v| {
            seen += v.count_at_value();
            (seen > rank).then(|| v.value_iterated_to())
        })
    }

    /// The non-empty buckets, lowest first: `(highest value of the bucket, count)`.
    pub fn buckets(&self) -> Vec<(Micros, u64)> {
        self.0
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect()
    }
}

impl Default for LatencyHistogram {
    fn default() -> Self {
        Self::new()
    }
}

impl PartialEq for LatencyHistogram {
    fn eq(&self, other: &Self) -> bool {
        self.buckets() == other.buckets()
    }
}

impl Serialize for LatencyHistogram {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.buckets().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for LatencyHistogram {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let buckets: Vec<(Micros, u64)> = Vec::deserialize(deserializer)?;
        let mut h = LatencyHistogram::new();
        for (value, count) in buckets {
            h.record_n(value, count);
        }
        Ok(h)
    }
}

/// HdrHistograms of one kind of latency, one per outcome that occurred.
pub type HistogramsByOutcome = std::collections::BTreeMap<Outcome, LatencyHistogram>;

/// One change of the breaker's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerChange {
    /// When it happened.
    pub at: Micros,
    /// State before.
    pub from: BreakerState,
    /// State after.
    pub to: BreakerState,
    /// Why, as the breaker recorded it (for a trip: the failures and calls in its window).
    pub reason: TransitionReason,
}

/// One request, for "follow one request" and for histograms that grow with the playhead.
/// Kept only when [`crate::sim::model::RunSettings::record_requests`] is true.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestRecord {
    /// When it arrived at `orders`.
    pub arrived: Micros,
    /// When a worker took it; `None` if none ever did.
    pub started: Option<Micros>,
    /// When it ended; `None` if it had not when the run stopped.
    pub finished: Option<Micros>,
    /// How it ended ([`Outcome::Unfinished`] when `finished` is `None`).
    pub outcome: Outcome,
    /// The route it came on.
    #[serde(default)]
    pub route: Route,
    /// The open loop's arrival number it carries (a front-end retry carries its first
    /// copy's): what following a request names it by.
    #[serde(default)]
    pub id: u64,
    /// Retries of its calls, by the library and the sidecar.
    #[serde(default)]
    pub retries: u32,
}

/// One 100 ms slice of the run. Counters count events inside the slice; gauges (workers busy,
/// queue length, breaker state, bulkhead, breaker window, probes, gateway pool) are their value
/// at the end of the slice, i.e. after every event strictly before its end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// Requests that arrived.
    pub arrivals: u64,
    /// Requests finished, by outcome (`unfinished` stays 0 here).
    pub completions: OutcomeCounts,
    /// Calls that reached the first dependency, inventory (every attempt counts).
    pub inventory_calls: u64,
    /// Workers busy.
    pub workers_busy: u32,
    /// Requests waiting for a worker.
    pub queue_len: u64,
    /// The breaker's gauge: 0 closed, 1 half open, 2 open (0 without a breaker).
    pub breaker_state: u8,
    /// Bulkhead permits taken (0 without a bulkhead).
    #[serde(default)]
    pub bulkhead_in_use: u32,
    /// Callers waiting for a bulkhead permit (0 without a bulkhead).
    #[serde(default)]
    pub bulkhead_waiting: u32,
    /// Results in the breaker's window, as its snapshot counts them (0 without a breaker).
    #[serde(default)]
    pub window_calls: u32,
    /// Failures among those results.
    #[serde(default)]
    pub window_failures: u32,
    /// Half-open probes in flight.
    #[serde(default)]
    pub probes_in_flight: u32,
    /// Gateway connections to `orders` in use (0 while the model has no gateway).
    #[serde(default)]
    pub gateway_in_use: u32,
    /// Calls the breaker refused inside the slice (a counter, not a gauge).
    #[serde(default)]
    pub breaker_rejections: u64,
    /// Tries at inventory in progress: sent by a worker of `orders` that is still waiting
    /// for their answer (a gauge; 0 without any).
    #[serde(default)]
    pub inventory_in_progress: u32,
    /// Calls that reached payments (every try counts); always 0, and left out of the JSON,
    /// when the config has no payments.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub payments_calls: u64,
    /// Requests the front end sent again inside the slice (a counter; left out of the JSON
    /// when 0, as the next ones).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub frontend_retries: u64,
    /// Calls the library retried inside the slice.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub library_retries: u64,
    /// Tries the sidecar retried inside the slice.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sidecar_retries: u64,
    /// Requests a worker finished inside the slice for a client who already had an answer.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stale_work: u64,
    /// Orders created inside the slice for a client order that already had one.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub duplicate_orders: u64,
}

/// What happened at one dependency behind `orders` (the request's outcome says how it ended,
/// this says where).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DependencyTotals {
    /// Calls that went out to it (every try counts).
    pub calls: u64,
    /// Requests `orders` answered `timeout` because their call to it timed out (after any
    /// retries), whether or not the client still waited for the answer.
    pub timeouts: u64,
    /// Requests its bulkhead or its breaker refused (`bulkhead_full`, `circuit_open`).
    pub rejected: u64,
    /// Requests `orders` answered `dependency_error` because of its transient error (after
    /// any retries).
    pub errors: u64,
    /// Its breaker's changes of state, in order (empty without a breaker).
    #[serde(default)]
    pub transitions: Vec<BreakerChange>,
}

impl DependencyTotals {
    /// The first time its breaker opened, if it did.
    pub fn first_open(&self) -> Option<Micros> {
        self.transitions
            .iter()
            .find(|c| c.to == BreakerState::Open)
            .map(|c| c.at)
    }
}

/// One dependency's part in a run, as every dependency has it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DependencyTrace {
    /// Its name in the config (`inventory`, `payments`, ...).
    pub name: String,
    /// Its calls, the requests that failed there and its breaker's transitions.
    pub totals: DependencyTotals,
    /// Calls that reached it in each bucket of the series (tries and their copies).
    pub calls_per_bucket: Vec<u64>,
    /// What its servers did, when it has a capacity (left out of the JSON otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<DependencyLoad>,
}

/// A count a layer keeps over a run, declared by the layer's own module: the names
/// `cascade --json`, the Trace and a lesson read it by, and what it counts. The Trace holds
/// what each counted ([`LayerCount`]), so a layer's counts need no field of their own, and
/// every one is a figure a lesson can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counter {
    /// Its name, as `cascade --json` prints it.
    pub name: &'static str,
    /// Its name as a lesson's figure: the name with dashes (`{NAME}`, `@goal NAME < 100`).
    pub figure: &'static str,
    /// Its words on a counter beside the timeline, before the count.
    pub label: &'static str,
    /// What it counts, in words a sentence can carry (`the number of ...`).
    pub what: &'static str,
}

/// What one [`Counter`] counted over a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerCount {
    /// The counter's name.
    pub name: String,
    /// Its count over the run.
    pub total: u64,
    /// Its count in each bucket of the series (empty, and left out of the JSON, when it
    /// counted nothing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_bucket: Vec<u64>,
}

impl LayerCount {
    /// Its count in the first `buckets` buckets of the series.
    pub fn in_first(&self, buckets: usize) -> u64 {
        self.per_bucket.iter().take(buckets).sum()
    }
}

/// A level a layer keeps and moves as it works, in calls in flight (a limit on them),
/// declared in the layer's module as a [`Counter`] is. The Trace holds what each level of the
/// layers that were on did ([`LayerLevel`]), so a layer's level needs no field of its own, and
/// every one is a figure a lesson can name and a reading beside the timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Its name: `cascade --json` prints `NAME_lowest`, `NAME_last` and `NAME_changes`.
    pub name: &'static str,
    /// Its name as a lesson's figure (`{NAME}`, `@goal NAME >= 4`).
    pub figure: &'static str,
    /// Its words beside the timeline, before the value.
    pub label: &'static str,
    /// What it is, in words a sentence can carry (`the ...`).
    pub what: &'static str,
    /// The outcome of the calls the layer refuses while the level is used up: a run ends
    /// requests in it only when the layer is on.
    pub refuses: Outcome,
    /// The name of the lesson's figure counting those refusals so far.
    pub refused_figure: &'static str,
    /// What that figure counts, in words a sentence can carry (`the number of ...`).
    pub refused_what: &'static str,
}

/// One move of a [`Level`]: from `at` on, it stood at `value`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelChange {
    /// When it moved.
    pub at: Micros,
    /// Where it stood from then on.
    pub value: u32,
}

/// What one [`Level`] did over a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayerLevel {
    /// The level's name.
    pub name: String,
    /// Where it stood when the run started.
    pub initial: u32,
    /// The lowest it fell to.
    pub lowest: u32,
    /// Where it stood when the run stopped.
    pub last: u32,
    /// Its moves, in order.
    pub changes: Vec<LevelChange>,
    /// The outcome of the calls its layer refuses.
    pub refuses: Outcome,
}

impl LayerLevel {
    /// Its moves made by `at` (the moves are in time order, so a search finds where they stop:
    /// the readings beside the timeline ask at every frame).
    fn moves_by(&self, at: Micros) -> &[LevelChange] {
        &self.changes[..self.changes.partition_point(|c| c.at <= at)]
    }

    /// Where it stood at `at`.
    pub fn at(&self, at: Micros) -> u32 {
        self.moves_by(at).last().map_or(self.initial, |c| c.value)
    }

    /// The lowest move it made by `at`, if it fell below where it started.
    pub fn lowest_by(&self, at: Micros) -> Option<LevelChange> {
        self.moves_by(at)
            .iter()
            .min_by_key(|c| (c.value, c.at))
            .copied()
            .filter(|c| c.value < self.initial)
    }
}

/// Orders `POST /orders` created, when the config models idempotency keys
/// ([`crate::sim::model::ServiceConfig::idempotency`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrderCounts {
    /// Orders created: copies `orders` processed to an order (`ok` or `fallback`), wherever
    /// their answer went (a client that had left, a front-end copy).
    pub created: u64,
    /// Of those, the second, third... order of one client order: its front-end copies
    /// processed again (none with a key, unless the key had expired).
    pub duplicates: u64,
    /// Copies `orders` recognised by their key and did not process again (answered from the
    /// store, or made to wait for the copy being worked on); 0 without a key.
    pub recognised: u64,
}

/// Everything one run produced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// Requests sent.
    pub sent: u64,
    /// Requests by outcome; every request is counted exactly once.
    pub outcomes: OutcomeCounts,
    /// Service time (from when a worker takes the request), over finished requests.
    pub service: Percentiles,
    /// End-to-end time (from arrival, queue wait included), over finished requests.
    pub end_to_end: Percentiles,
    /// The first dependency's breaker's changes of state, in order (the page's view of
    /// `dependencies[0]`).
    pub transitions: Vec<BreakerChange>,
    /// Time series, one bucket per [`BUCKET`] from time 0.
    pub series: Vec<Bucket>,
    /// True when the run outlasted the series' limit and later buckets were left out.
    pub series_truncated: bool,
    /// When the last processed event happened.
    pub end: Micros,
    /// How many events the simulator processed (for benchmarks: events per second).
    pub events: u64,
    /// One record per request in arrival order, when the config asked for them; else empty.
    #[serde(default)]
    pub requests: Vec<RequestRecord>,
    /// Service time by the outcome of the work `orders` did (requests a worker took up).
    #[serde(default)]
    pub service_histograms: HistogramsByOutcome,
    /// End-to-end time by the outcome the client saw (from arrival to its answer).
    #[serde(default)]
    pub end_to_end_histograms: HistogramsByOutcome,
    /// Requests and outcomes per route (only the routes that were sent any).
    #[serde(default)]
    pub routes: Vec<RouteCounts>,
    /// Requests a worker of `orders` finished after their client already had an answer (it
    /// gave up, or the gateway timed out): work done for nobody.
    #[serde(default)]
    pub stale_work: u64,
    /// Of `sent`, the requests that were front-end retries.
    #[serde(default)]
    pub frontend_retries: u64,
    /// Tries the gateway sent again after a route timeout (Kong's `retries`); each is a copy
    /// of a request already in `sent`, not a request of its own.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub gateway_retries: u64,
    /// Retries the `orders` library made towards inventory (and payments, when there is
    /// payments).
    #[serde(default)]
    pub library_retries: u64,
    /// Retries the sidecar made inside the library's attempts.
    #[serde(default)]
    pub sidecar_retries: u64,
    /// Requests refused by load shedding, by priority: `[low, normal, high]` (a full queue's
    /// refusals are not in here).
    #[serde(default)]
    pub shed_by_priority: [u64; 3],
    /// Most requests alive at once (arrived, not yet over): what the simulator's memory
    /// follows, rather than the number of requests sent.
    #[serde(default)]
    pub peak_live_requests: u64,
    /// What the counters of the layers that were on counted, in the order the run declared
    /// them (a layer that was off declares none: left out of the JSON when none was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer_counts: Vec<LayerCount>,
    /// Orders created and duplicated; `None` (and left out of the JSON) unless the config
    /// models idempotency keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub orders: Option<OrderCounts>,
    /// Payments' calls and the requests that failed there; `None` (and left out of the JSON)
    /// unless the config has payments (the view of the dependency named `payments`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payments: Option<DependencyTotals>,
    /// Every dependency in call order: its totals, its breaker's transitions and its calls per
    /// bucket.
    #[serde(default)]
    pub dependencies: Vec<DependencyTrace>,
    /// How long the platform took to recover after its trigger (every run has it; a trace
    /// written before that may not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recovery: Option<Recovery>,
    /// Queued requests a worker skipped because their client had gone (`orders_abandon=drop`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stale_skipped: u64,
    /// The levels the layers of the first dependency kept that were on, in the order the
    /// stack declared them (left out of the JSON when none was).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layer_levels: Vec<LayerLevel>,
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Trace {
    /// What the layers with figures of their own did, by the names `cascade --json` prints
    /// them under; a layer that was off says nothing (so a run without it reads as before).
    pub fn pattern_figures(&self) -> Vec<(String, u64)> {
        let counts = self.layer_counts.iter().map(|c| (c.name.clone(), c.total));
        let levels = self.layer_levels.iter().flat_map(|l| {
            [
                (format!("{}_lowest", l.name), u64::from(l.lowest)),
                (format!("{}_last", l.name), u64::from(l.last)),
                (format!("{}_changes", l.name), l.changes.len() as u64),
            ]
        });
        counts.chain(levels).collect()
    }

    /// What `level` did; `None` when no layer of the run keeps it.
    pub fn level(&self, level: Level) -> Option<&LayerLevel> {
        self.layer_levels.iter().find(|l| l.name == level.name)
    }

    /// What `counter` counted; `None` when no layer of the run keeps it.
    pub fn counted(&self, counter: Counter) -> Option<&LayerCount> {
        self.layer_counts.iter().find(|c| c.name == counter.name)
    }

    /// `counter`'s count over the run; `None` when no layer of the run keeps it.
    pub fn total(&self, counter: Counter) -> Option<u64> {
        self.counted(counter).map(|c| c.total)
    }

    /// Whether the run could end a request in `outcome`: the refusals of a layer that keeps a
    /// level only with that layer on (a run without it reads as before it existed), every
    /// other outcome always.
    pub fn could_end_in(&self, outcome: Outcome) -> bool {
        let a_levels_refusal = matches!(outcome, Outcome::Refused(_));
        !a_levels_refusal || self.layer_levels.iter().any(|l| l.refuses == outcome)
    }

    /// The first time the breaker opened, if it did.
    pub fn first_open(&self) -> Option<Micros> {
        self.transitions
            .iter()
            .find(|c| c.to == BreakerState::Open)
            .map(|c| c.at)
    }
}

/// A dependency with a capacity, over the run. Every call that reached it is counted once:
/// `served + dropped + refused + left` is its `calls`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DependencyLoad {
    /// Calls it serves at once.
    pub slots: u32,
    /// Calls a slot finished (throughput).
    pub served: u64,
    /// Of those, the answers the caller still waited for (goodput), conflicts excepted.
    pub goodput: u64,
    /// Of those, with hot items, the calls whose write lost to another call's commit: the
    /// slot's work was wasted and the caller hears UNAVAILABLE (`None`: no hot items).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conflicts: Option<u64>,
    /// With a cache in front of it, the calls the cache took: answered from it, or held for an
    /// item it was fetching; none of them reached a slot (`None`: no cache).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached: Option<u64>,
    /// Of those, the calls finished after their caller's deadline: work nobody could use.
    pub served_late: u64,
    /// Calls dropped at their deadline, still queued or in service (deadline propagation).
    pub dropped: u64,
    /// Calls refused because the queue was full.
    pub refused: u64,
    /// Calls still queued or in service when the run stopped.
    pub left: u64,
    /// How long served calls waited in the queue.
    pub wait: Percentiles,
    /// Calls served in each bucket of the series.
    pub served_per_bucket: Vec<u64>,
    /// Answers someone still waited for, in each bucket.
    pub goodput_per_bucket: Vec<u64>,
    /// Conflicts in each bucket (empty without hot items).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts_per_bucket: Vec<u64>,
    /// Slots busy at each bucket's end.
    pub busy_per_bucket: Vec<u32>,
    /// Calls queued at each bucket's end.
    pub queue_per_bucket: Vec<u64>,
}

/// How long the platform took to recover once its trigger was over.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recovery {
    /// When the trigger ended: the latest `recover_at` of the dependencies.
    pub trigger_end: Micros,
    /// From `trigger_end` to the first moment from which, for [`Recovery::HEALTHY_SECONDS`]
    /// seconds in a row, at least 90% of each second's arrivals were answered ok or by a
    /// fallback; `None` when that did not happen before arrivals stopped.
    pub recovered_after: Option<Micros>,
}

#[cfg(test)]
#[path = "trace_tests.rs"]
mod tests;
