//! Every figure a run reports, in one room: the mechanism code tells the recorder what
//! happened and never touches a count, a bucket or a histogram itself.

use super::call_end::{CallEnd, Failure, Refusal};
use super::load_recorder::LoadTally;
use super::MAX_BUCKETS;
use crate::resilience::{BreakerState, Bulkhead, CircuitBreaker};
use crate::sim::latency::Micros;
use crate::sim::load::Recovery;
use crate::sim::trace::{
    BreakerChange, Bucket, Counter, DependencyTotals, DependencyTrace, HistogramsByOutcome,
    LayerCount, LayerLevel, LessonPercentiles, OrderCounts, Outcome, OutcomeCounts, Percentiles,
    RequestRecord, Route, RouteCounts, Trace, BUCKET,
};

/// What the gauges of a bucket read: the state of the rooms at the bucket's end. The
/// breaker's and the bulkhead's are the first dependency's.
pub(super) struct Gauges<'a> {
    pub busy: u32,
    pub queue_len: u64,
    pub connections: u32,
    pub breaker: Option<&'a CircuitBreaker>,
    pub bulkhead: Option<&'a Bulkhead>,
}

/// The figures of one run as they accumulate.
pub(super) struct Recorder {
    record_requests: bool,
    sent: u64,
    counts: OutcomeCounts,
    routes: [RouteCounts; 3],
    /// End-to-end times by route, kept only when more than one route has traffic (else the
    /// run's own are the route's).
    route_end_to_end: Option<[LessonPercentiles; 3]>,
    service: LessonPercentiles,
    end_to_end: LessonPercentiles,
    service_histograms: HistogramsByOutcome,
    end_to_end_histograms: HistogramsByOutcome,
    records: Vec<RequestRecord>,
    series: Vec<Bucket>,
    /// Calls per bucket, one series per dependency.
    calls: Vec<Vec<u64>>,
    /// Tries sent to the first dependency whose worker still waits for them.
    first_in_progress: u32,
    gauges_filled: usize,
    truncated: bool,
    stale_work: u64,
    frontend_retries: u64,
    gateway_retries: u64,
    library_retries: u64,
    sidecar_retries: u64,
    /// What the layers' counters counted, in the order they were declared.
    layer_counts: Vec<LayerCount>,
    orders: OrderCounts,
    dependencies: Vec<DependencyTotals>,
    /// Each dependency's servers, for those with a capacity.
    loads: Vec<Option<LoadTally>>,
    /// Per bucket of arrival, the requests that ended ok or with a fallback, for the
    /// recovery.
    good_by_arrival: Vec<u64>,
    stale_skipped: u64,
}

/// What the recorder needs from the rest of the model to write the Trace.
pub(super) struct Ending {
    pub end: Micros,
    pub events: u64,
    pub peak_live_requests: u64,
    pub shed_by_priority: [u64; 3],
    /// Copies the idempotency store recognised, when the config models idempotency.
    pub recognised: Option<u64>,
    /// Each dependency's name, in call order.
    pub names: Vec<String>,
    /// Each dependency's breaker transitions, in call order.
    pub transitions: Vec<Vec<BreakerChange>>,
    /// What the levels the first dependency's layers keep did.
    pub levels: Vec<LayerLevel>,
    /// Calls still queued or in service at each dependency (0 without a capacity).
    pub left_at_servers: Vec<u64>,
    /// When the trigger ended (`None`: never), and when arrivals stopped.
    pub trigger_end: Option<Micros>,
    pub arrivals_end: Micros,
}

fn route_index(route: Route) -> usize {
    match route {
        Route::Orders => 0,
        Route::Catalog => 1,
        Route::OrderHistory => 2,
    }
}

fn bucket_index(at: Micros) -> Option<usize> {
    let idx = usize::try_from(at / BUCKET).unwrap_or(usize::MAX);
    (idx < MAX_BUCKETS).then_some(idx)
}

impl Recorder {
    /// An empty record for `dependencies` dependencies; `several_routes` when requests come
    /// on more than one route.
    pub fn new(record_requests: bool, dependencies: usize, several_routes: bool) -> Self {
        let route_counts = |route| RouteCounts {
            route,
            sent: 0,
            outcomes: OutcomeCounts::default(),
            end_to_end: Percentiles::default(),
        };
        Recorder {
            record_requests,
            sent: 0,
            counts: OutcomeCounts::default(),
            routes: Route::ALL.map(route_counts),
            route_end_to_end: several_routes.then(Default::default),
            service: LessonPercentiles::default(),
            end_to_end: LessonPercentiles::default(),
            service_histograms: HistogramsByOutcome::new(),
            end_to_end_histograms: HistogramsByOutcome::new(),
            records: Vec::new(),
            series: Vec::new(),
            calls: vec![Vec::new(); dependencies],
            first_in_progress: 0,
            gauges_filled: 0,
            truncated: false,
            stale_work: 0,
            frontend_retries: 0,
            gateway_retries: 0,
            library_retries: 0,
            sidecar_retries: 0,
            layer_counts: Vec::new(),
            orders: OrderCounts::default(),
            dependencies: vec![DependencyTotals::default(); dependencies],
            loads: (0..dependencies).map(|_| None).collect(),
            good_by_arrival: Vec::new(),
            stale_skipped: 0,
        }
    }

    /// Dependency `dep` has `slots` servers (and hot items calls may conflict on): its load is
    /// recorded.
    pub fn watch_load(&mut self, dep: usize, slots: u32, hot_items: bool, cache: bool) {
        self.loads[dep] = Some(LoadTally::new(slots, hot_items, cache));
    }

    fn load(&mut self, dep: usize) -> Option<&mut LoadTally> {
        self.loads.get_mut(dep)?.as_mut()
    }

    /// A slot of `dep` finished a call; `waited_for` when its caller still waited, `late` when
    /// it finished past the caller's deadline.
    pub fn dependency_served(&mut self, now: Micros, dep: usize, waited_for: bool, late: bool) {
        if let Some(l) = self.load(dep) {
            l.served(now, waited_for, late);
        }
    }

    /// A call `dep` served at `now` lost its item to another call's commit.
    pub fn dependency_conflict(&mut self, now: Micros, dep: usize) {
        if let Some(l) = self.load(dep) {
            l.conflict(now);
        }
    }

    /// `calls` calls were dropped at their deadline at `dep`.
    pub fn dependency_dropped(&mut self, dep: usize, calls: u64) {
        if let Some(l) = self.load(dep).filter(|_| calls > 0) {
            l.dropped(calls);
        }
    }

    /// `dep`'s cache took a call (a hit, or a wait for its fetch).
    pub fn dependency_cached(&mut self, dep: usize) {
        if let Some(l) = self.load(dep) {
            l.cached();
        }
    }

    /// A call found `dep`'s queue full.
    pub fn dependency_refused(&mut self, dep: usize) {
        if let Some(l) = self.load(dep) {
            l.refused();
        }
    }

    /// A call waited `wait` in `dep`'s queue.
    pub fn dependency_waited(&mut self, dep: usize, wait: Micros) {
        if let Some(l) = self.load(dep) {
            l.waited(wait);
        }
    }

    /// Fills `dep`'s gauges up to bucket `idx` with its slots busy and calls queued.
    pub fn fill_load_gauges(&mut self, dep: usize, idx: usize, busy: u32, queued: u64) {
        if let Some(l) = self.load(dep) {
            l.fill_gauges(idx, busy, queued);
        }
    }

    /// A worker skipped a queued request whose client had already gone.
    pub fn stale_skipped(&mut self) {
        self.stale_skipped += 1;
    }

    /// The bucket holding `at`; `None` (and the series marked truncated) past [`MAX_BUCKETS`].
    fn bucket(&mut self, at: Micros) -> Option<&mut Bucket> {
        let Some(idx) = bucket_index(at) else {
            self.truncated = true;
            return None;
        };
        if self.series.len() <= idx {
            self.series.resize(idx + 1, Bucket::default());
        }
        self.series.get_mut(idx)
    }

    /// The buckets up to which gauges are due at `now`, if any bucket is still to fill.
    #[inline]
    pub fn gauges_due(&self, now: Micros) -> Option<usize> {
        let idx = usize::try_from(now / BUCKET)
            .unwrap_or(usize::MAX)
            .min(MAX_BUCKETS);
        (idx > 0 && self.gauges_filled < idx).then_some(idx)
    }

    /// Sets the gauges of every bucket up to `idx` (see [`Recorder::gauges_due`]) that is not
    /// filled yet to the current values.
    pub fn fill_gauges(&mut self, idx: usize, gauges: Gauges<'_>) {
        if self.series.len() < idx {
            self.series.resize(idx, Bucket::default());
        }
        let state = gauges.breaker.map_or(0, |b| BreakerState::gauge(b.state()));
        let (in_use, waiting) = gauges.bulkhead.map_or((0, 0), |b| {
            (b.in_use(), u32::try_from(b.waiting()).unwrap_or(u32::MAX))
        });
        let first = self.gauges_filled;
        for (i, b) in self.series[first..idx].iter_mut().enumerate() {
            b.workers_busy = gauges.busy;
            b.queue_len = gauges.queue_len;
            b.breaker_state = state;
            b.bulkhead_in_use = in_use;
            b.bulkhead_waiting = waiting;
            b.gateway_in_use = gauges.connections;
            b.inventory_in_progress = self.first_in_progress;
            if let Some(breaker) = gauges.breaker {
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

    /// A request (or a front-end copy) arrives on `route`; returns its record, if kept.
    pub fn arrival(
        &mut self,
        now: Micros,
        route: Route,
        frontend_attempt: u32,
        op: u64,
    ) -> Option<usize> {
        self.sent += 1;
        self.routes[route_index(route)].sent += 1;
        if frontend_attempt > 0 {
            self.frontend_retries += 1;
        }
        if let Some(b) = self.bucket(now) {
            b.arrivals += 1;
            b.frontend_retries += u64::from(frontend_attempt > 0);
        }
        self.record_requests.then(|| {
            self.records.push(RequestRecord {
                arrived: now,
                started: None,
                finished: None,
                outcome: Outcome::Unfinished,
                route,
                id: op,
                retries: 0,
            });
            self.records.len() - 1
        })
    }

    /// The request's call was tried again (by the library or the sidecar).
    pub fn retried(&mut self, record: Option<usize>) {
        if let Some(rec) = record.and_then(|i| self.records.get_mut(i)) {
            rec.retries += 1;
        }
    }

    /// A worker took the request.
    pub fn started(&mut self, record: Option<usize>, now: Micros) {
        if let Some(rec) = record.and_then(|i| self.records.get_mut(i)) {
            rec.started = Some(now);
        }
    }

    /// One call (a try) went out to dependency `dep`.
    pub fn call_sent(&mut self, now: Micros, dep: usize) {
        self.dependencies[dep].calls += 1;
        if dep == 0 {
            self.first_in_progress += 1;
        }
        self.count_call(now, dep);
    }

    /// The worker stopped waiting for a try at dependency `dep`: its answer came, or its
    /// timeout ran out.
    pub fn try_over(&mut self, dep: usize) {
        if dep == 0 {
            self.first_in_progress = self.first_in_progress.saturating_sub(1);
        }
    }

    fn count_call(&mut self, now: Micros, dep: usize) {
        let Some(idx) = bucket_index(now) else {
            self.truncated = true;
            return;
        };
        let series = &mut self.calls[dep];
        if series.len() <= idx {
            series.resize(idx + 1, 0);
        }
        series[idx] += 1;
    }

    /// A copy of a try went out to dependency `dep`: one more call in the series' calls,
    /// not in the dependency's total.
    pub fn copy_sent(&mut self, now: Micros, dep: usize) {
        self.count_call(now, dep);
    }

    /// A layer of the run keeps `counter`: the Trace reports it, 0 if nothing is counted.
    pub fn declare(&mut self, counter: Counter) {
        if !self.layer_counts.iter().any(|c| c.name == counter.name) {
            self.layer_counts.push(LayerCount {
                name: counter.name.to_string(),
                ..LayerCount::default()
            });
        }
    }

    /// `counter` counts one more at `now` (declared first).
    pub fn count(&mut self, counter: Counter, now: Micros) {
        let idx = bucket_index(now);
        self.truncated |= idx.is_none();
        let Some(count) = self
            .layer_counts
            .iter_mut()
            .find(|c| c.name == counter.name)
        else {
            debug_assert!(false, "{} counted before it was declared", counter.name);
            return;
        };
        count.total += 1;
        if let Some(idx) = idx {
            if count.per_bucket.len() <= idx {
                count.per_bucket.resize(idx + 1, 0);
            }
            count.per_bucket[idx] += 1;
        }
    }

    /// The library retried a call.
    pub fn library_retry(&mut self, now: Micros) {
        self.library_retries += 1;
        if let Some(b) = self.bucket(now) {
            b.library_retries += 1;
        }
    }

    /// The sidecar retried a try.
    pub fn sidecar_retry(&mut self, now: Micros) {
        self.sidecar_retries += 1;
        if let Some(b) = self.bucket(now) {
            b.sidecar_retries += 1;
        }
    }

    /// The gateway sent a request again after its route timeout.
    pub fn gateway_retry(&mut self) {
        self.gateway_retries += 1;
    }

    /// The stack of dependency `dep` ended a request's call so.
    #[inline(always)]
    pub fn call_ended(&mut self, now: Micros, dep: usize, end: CallEnd) {
        let totals = &mut self.dependencies[dep];
        match end {
            CallEnd::Failed(Failure::Timeout | Failure::TryTimeout) => totals.timeouts += 1,
            CallEnd::Failed(Failure::Unavailable) => totals.errors += 1,
            CallEnd::Refused(Refusal::Bulkhead | Refusal::Level(_)) => totals.rejected += 1,
            CallEnd::Refused(Refusal::Breaker) => {
                totals.rejected += 1;
                if dep == 0 {
                    if let Some(b) = self.bucket(now) {
                        b.breaker_rejections += 1;
                    }
                }
            }
            CallEnd::Answered | CallEnd::Business | CallEnd::Refused(Refusal::Budget) => {}
        }
    }

    /// `orders` created an order; `duplicate` when its client order already had one.
    pub fn order_created(&mut self, now: Micros, duplicate: bool) {
        self.orders.created += 1;
        self.orders.duplicates += u64::from(duplicate);
        if let Some(b) = self.bucket(now).filter(|_| duplicate) {
            b.duplicate_orders += 1;
        }
    }

    /// A worker finished a request after `service` µs, answering `outcome`; `stale` when its
    /// client already had an answer.
    pub fn worked(&mut self, now: Micros, service: Micros, outcome: Outcome, stale: bool) {
        self.stale_work += u64::from(stale);
        if let Some(b) = self.bucket(now).filter(|_| stale) {
            b.stale_work += 1;
        }
        self.service.record(service);
        self.service_histograms
            .entry(outcome)
            .or_default()
            .record(service);
    }

    /// The client of a request that arrived at `arrived` got `outcome` at `now`.
    pub fn answered(
        &mut self,
        now: Micros,
        arrived: Micros,
        route: Route,
        record: Option<usize>,
        outcome: Outcome,
    ) {
        self.counts.add(outcome);
        self.routes[route_index(route)].outcomes.add(outcome);
        let e2e = now.saturating_sub(arrived);
        self.end_to_end.record(e2e);
        if let Some(by_route) = self.route_end_to_end.as_mut() {
            by_route[route_index(route)].record(e2e);
        }
        self.end_to_end_histograms
            .entry(outcome)
            .or_default()
            .record(e2e);
        if let Some(b) = self.bucket(now) {
            b.completions.add(outcome);
        }
        if matches!(outcome, Outcome::Ok | Outcome::Fallback) {
            if let Some(idx) = bucket_index(arrived) {
                let good = &mut self.good_by_arrival;
                if good.len() <= idx {
                    good.resize(idx + 1, 0);
                }
                good[idx] += 1;
            }
        }
        if let Some(rec) = record.and_then(|i| self.records.get_mut(i)) {
            rec.finished = Some(now);
            rec.outcome = outcome;
        }
    }

    /// A request on `route` had no answer when the run stopped.
    pub fn unfinished(&mut self, route: Route) {
        self.counts.add(Outcome::Unfinished);
        self.routes[route_index(route)]
            .outcomes
            .add(Outcome::Unfinished);
    }

    /// The Trace of the run.
    pub fn finish(mut self, ending: Ending) -> Trace {
        let len = self
            .calls
            .iter()
            .map(Vec::len)
            .fold(self.series.len(), usize::max);
        self.series.resize(len, Bucket::default());
        let end_to_end = self.end_to_end.percentiles();
        for (i, r) in self.routes.iter_mut().enumerate() {
            r.end_to_end = match &self.route_end_to_end {
                Some(by_route) => by_route[i].percentiles(),
                None if r.sent > 0 => end_to_end,
                None => Percentiles::default(),
            };
        }
        let layer_counts: Vec<LayerCount> = self
            .layer_counts
            .into_iter()
            .map(|mut count| {
                if count.total == 0 {
                    count.per_bucket.clear();
                } else {
                    count.per_bucket.resize(len, 0);
                }
                count
            })
            .collect();
        let payments = ending.names.iter().position(|name| name == "payments");
        let calls = &self.calls;
        let at = |dep: usize, i: usize| calls[dep].get(i).copied().unwrap_or(0);
        for (i, b) in self.series.iter_mut().enumerate() {
            b.inventory_calls = at(0, i);
            b.payments_calls = payments.map_or(0, |dep| at(dep, i));
        }
        for (totals, changes) in self.dependencies.iter_mut().zip(ending.transitions) {
            totals.transitions = changes;
        }
        let transitions = self
            .dependencies
            .first()
            .map(|d| d.transitions.clone())
            .unwrap_or_default();
        let payments = payments.and_then(|i| self.dependencies.get(i).cloned());
        let recovery = Some(Recovery::find(
            &self.series,
            &self.good_by_arrival,
            ending.trigger_end,
            ending.arrivals_end,
        ));
        let dependencies = ending
            .names
            .into_iter()
            .zip(self.dependencies)
            .zip(self.calls)
            .zip(self.loads)
            .zip(ending.left_at_servers)
            .map(|((((name, totals), mut calls_per_bucket), load), left)| {
                calls_per_bucket.resize(len, 0);
                DependencyTrace {
                    name,
                    totals,
                    calls_per_bucket,
                    load: load.map(|l| l.finish(left, len)),
                }
            })
            .collect();
        Trace {
            sent: self.sent,
            outcomes: self.counts,
            service: self.service.percentiles(),
            end_to_end,
            transitions,
            series: self.series,
            series_truncated: self.truncated,
            end: ending.end,
            events: ending.events,
            requests: self.records,
            service_histograms: self.service_histograms,
            end_to_end_histograms: self.end_to_end_histograms,
            routes: self.routes.into_iter().filter(|r| r.sent > 0).collect(),
            stale_work: self.stale_work,
            frontend_retries: self.frontend_retries,
            gateway_retries: self.gateway_retries,
            library_retries: self.library_retries,
            sidecar_retries: self.sidecar_retries,
            peak_live_requests: ending.peak_live_requests,
            shed_by_priority: ending.shed_by_priority,
            layer_counts,
            orders: ending.recognised.map(|recognised| OrderCounts {
                recognised,
                ..self.orders
            }),
            payments,
            dependencies,
            recovery,
            stale_skipped: self.stale_skipped,
            layer_levels: ending.levels,
        }
    }
}
