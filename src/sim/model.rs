//! The lesson's cascade as a discrete-event model: open-loop arrivals into `orders` (a pool of
//! workers behind an unbounded FIFO queue), each request making one call to `inventory` through
//! bulkhead -> circuit breaker -> timeout, with inventory turning slow at `degrade_at`.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::engine::{EngineError, EventQueue};
use super::latency::Micros;
use super::trace::{
    BreakerChange, Bucket, Outcome, OutcomeCounts, Percentiles, RequestRecord, Trace, BUCKET,
};
use crate::resilience::{
    Acquire, Admission, BreakerConfig, BreakerState, Bulkhead, BulkheadConfig, CallResult,
    CircuitBreaker, ParamError,
};

const SECOND: Micros = 1_000_000;
/// Most requests one run may send (`rate × duration`).
pub const MAX_REQUESTS: u64 = 1_000_000;
/// Most 100 ms buckets one trace keeps (10 000 s of virtual time); later events are counted
/// in the totals but not in the series.
pub const MAX_BUCKETS: usize = 100_000;

/// The parameters of one cascade run. Times are microseconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CascadeConfig {
    /// Requests per second, sent every `1/rate` s (0.1..=10000).
    pub rate: f64,
    /// Workers in `orders` (1..=10000).
    pub threads: u32,
    /// How long requests keep arriving (1 ms..=600 s).
    pub duration: Micros,
    /// Inventory turns slow for calls starting strictly after this (0..=3600 s).
    pub degrade_at: Micros,
    /// Inventory's latency before `degrade_at` (0..=3600 s).
    pub fast: Micros,
    /// Inventory's latency after `degrade_at` (0..=3600 s).
    pub slow: Micros,
    /// Timeout on the call to inventory; `None` waits as long as it takes (1 ms..=3600 s).
    pub timeout: Option<Micros>,
    /// Circuit breaker around the call, if any.
    pub breaker: Option<BreakerConfig>,
    /// Bulkhead around the breaker, if any.
    pub bulkhead: Option<BulkheadConfig>,
    /// Seed of the run's random stream (the lesson's model draws nothing; kept for permalinks).
    pub seed: u64,
    /// True: run until every request finishes (the lesson). False: stop at `duration` and
    /// count what is left as unfinished.
    pub drain: bool,
    /// Keep one [`RequestRecord`] per request in [`Trace::requests`] (memory grows with the
    /// request count; off by default).
    #[serde(default)]
    pub record_requests: bool,
}

impl CascadeConfig {
    /// Checks every field against its range, naming the first one that is off.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_f64("rate", self.rate, 0.1, 10_000.0, "requests/s")?;
        ParamError::check_u64("threads", self.threads.into(), 1, 10_000, "")?;
        ParamError::check_u64("duration", self.duration, 1_000, 600 * SECOND, "µs")?;
        ParamError::check_u64("degrade_at", self.degrade_at, 0, 3_600 * SECOND, "µs")?;
        ParamError::check_u64("fast", self.fast, 0, 3_600 * SECOND, "µs")?;
        ParamError::check_u64("slow", self.slow, 0, 3_600 * SECOND, "µs")?;
        if let Some(t) = self.timeout {
            ParamError::check_u64("timeout", t, 1_000, 3_600 * SECOND, "µs")?;
        }
        if let Some(b) = &self.breaker {
            b.validate()?;
        }
        if let Some(b) = &self.bulkhead {
            b.validate()?;
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

    /// Time between two arrivals, in whole microseconds (at least 1).
    pub fn interval(&self) -> Micros {
        if self.rate.is_finite() && self.rate > 0.0 {
            ((1_000_000.0 / self.rate).round() as Micros).max(1)
        } else {
            Micros::MAX
        }
    }

    /// Requests sent: one at each multiple of the interval strictly before `duration`.
    pub fn requests(&self) -> u64 {
        let i = self.interval();
        if i == Micros::MAX {
            return 1;
        }
        self.duration.div_ceil(i)
    }
}

/// What a request is doing.
#[derive(Debug, Clone, Copy)]
struct Request {
    arrived: Micros,
    started: Option<Micros>,
    admission: Option<Admission>,
    call_started: Micros,
    call_result: CallResult,
    done: bool,
    finished: Option<Micros>,
    outcome: Outcome,
}

#[derive(Debug, Clone, Copy)]
enum Event {
    /// Request `n` arrives.
    Arrival(u64),
    /// A worker reserved for request `n` starts on it.
    Start(u64),
    /// Request `n` holds a bulkhead permit (or needs none): on to the breaker.
    Proceed(u64),
    /// Request `n`'s wait for a bulkhead permit has run out.
    BulkheadExpire(u64),
    /// Request `n`'s call to inventory returns.
    CallDone(u64),
}

struct Sim<'a> {
    cfg: &'a CascadeConfig,
    q: EventQueue<Event>,
    requests: Vec<Request>,
    queue: VecDeque<u64>,
    busy: u32,
    breaker: Option<CircuitBreaker>,
    bulkhead: Option<Bulkhead>,
    counts: OutcomeCounts,
    service: Vec<Micros>,
    end_to_end: Vec<Micros>,
    series: Vec<Bucket>,
    gauges_filled: usize,
    truncated: bool,
}

/// Runs the cascade described by `cfg`.
pub fn run(cfg: &CascadeConfig) -> Result<Trace, RunError> {
    cfg.validate()?;
    let breaker = cfg.breaker.clone().map(CircuitBreaker::new).transpose()?;
    let bulkhead = cfg.bulkhead.clone().map(Bulkhead::new).transpose()?;
    let sent = cfg.requests();
    let interval = cfg.interval();
    let mut sim = Sim {
        cfg,
        q: EventQueue::new(),
        requests: Vec::with_capacity(usize::try_from(sent).unwrap_or(0)),
        queue: VecDeque::new(),
        busy: 0,
        breaker,
        bulkhead,
        counts: OutcomeCounts::default(),
        service: Vec::new(),
        end_to_end: Vec::new(),
        series: Vec::new(),
        gauges_filled: 0,
        truncated: false,
    };
    for n in 0..sent {
        let at = n.saturating_mul(interval);
        sim.requests.push(Request {
            arrived: at,
            started: None,
            admission: None,
            call_started: 0,
            call_result: CallResult::Success,
            done: false,
            finished: None,
            outcome: Outcome::Unfinished,
        });
        sim.q.schedule(at, Event::Arrival(n));
    }
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
    for r in &sim.requests {
        if !r.done {
            sim.counts.add(Outcome::Unfinished);
        }
    }
    let requests = if cfg.record_requests {
        sim.requests
            .iter()
            .map(|r| RequestRecord {
                arrived: r.arrived,
                started: r.started,
                finished: r.finished,
                outcome: r.outcome,
            })
            .collect()
    } else {
        Vec::new()
    };
    let transitions = sim
        .breaker
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
        .unwrap_or_default();
    Ok(Trace {
        sent,
        outcomes: sim.counts,
        service: Percentiles::lesson_rule(sim.service),
        end_to_end: Percentiles::lesson_rule(sim.end_to_end),
        transitions,
        series: sim.series,
        series_truncated: sim.truncated,
        end,
        events: sim.q.processed(),
        requests,
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

impl Sim<'_> {
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
            .breaker
            .as_ref()
            .map_or(0, |b| BreakerState::gauge(b.state()));
        let (busy, queue_len) = (self.busy, self.queue.len() as u64);
        let (in_use, waiting) = self.bulkhead.as_ref().map_or((0, 0), |b| {
            (b.in_use(), u32::try_from(b.waiting()).unwrap_or(u32::MAX))
        });
        let first = self.gauges_filled;
        for (i, b) in self.series[first..idx].iter_mut().enumerate() {
            b.workers_busy = busy;
            b.queue_len = queue_len;
            b.breaker_state = state;
            b.bulkhead_in_use = in_use;
            b.bulkhead_waiting = waiting;
            if let Some(breaker) = self.breaker.as_ref() {
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

    fn handle(&mut self, now: Micros, event: Event) {
        match event {
            Event::Arrival(n) => {
                if let Some(b) = self.bucket(now) {
                    b.arrivals += 1;
                }
                if self.busy < self.cfg.threads && self.queue.is_empty() {
                    self.busy += 1;
                    self.q.schedule(now, Event::Start(n));
                } else {
                    self.queue.push_back(n);
                }
            }
            Event::Start(n) => {
                if let Some(r) = self.requests.get_mut(n as usize) {
                    r.started = Some(now);
                }
                match self.bulkhead.as_mut().map(|b| b.try_acquire(now, n)) {
                    None | Some(Acquire::Granted) => self.q.schedule(now, Event::Proceed(n)),
                    Some(Acquire::Queued { give_up_at }) => {
                        self.q.schedule(give_up_at, Event::BulkheadExpire(n))
                    }
                    Some(Acquire::Rejected(_)) => self.finish(now, n, Outcome::BulkheadFull),
                }
            }
            Event::BulkheadExpire(n) => {
                if let Some(b) = self.bulkhead.as_mut() {
                    if b.expire(now, n).is_some() {
                        self.finish(now, n, Outcome::BulkheadFull);
                    }
                }
            }
            Event::Proceed(n) => {
                let admission = match self.breaker.as_mut().map(|b| b.try_acquire(now)) {
                    None => Admission::Call,
                    Some(Ok(a)) => a,
                    Some(Err(_)) => {
                        if let Some(b) = self.bucket(now) {
                            b.breaker_rejections += 1;
                        }
                        self.release_permit(now);
                        self.finish(now, n, Outcome::CircuitOpen);
                        return;
                    }
                };
                if let Some(b) = self.bucket(now) {
                    b.inventory_calls += 1;
                }
                let latency = if now > self.cfg.degrade_at {
                    self.cfg.slow
                } else {
                    self.cfg.fast
                };
                let (held, result) = match self.cfg.timeout {
                    Some(t) if latency > t => (t, CallResult::Failure),
                    _ => (latency, CallResult::Success),
                };
                if let Some(r) = self.requests.get_mut(n as usize) {
                    r.admission = Some(admission);
                    r.call_started = now;
                    r.call_result = result;
                }
                self.q
                    .schedule(now.saturating_add(held), Event::CallDone(n));
            }
            Event::CallDone(n) => {
                let Some(r) = self.requests.get(n as usize).copied() else {
                    return;
                };
                if let (Some(b), Some(a)) = (self.breaker.as_mut(), r.admission) {
                    b.record(now, a, r.call_result, now.saturating_sub(r.call_started));
                }
                self.release_permit(now);
                let outcome = match r.call_result {
                    CallResult::Failure => Outcome::Timeout,
                    _ => Outcome::Ok,
                };
                self.finish(now, n, outcome);
            }
        }
    }

    /// Gives back a bulkhead permit; a waiter that receives it proceeds now.
    fn release_permit(&mut self, now: Micros) {
        if let Some(b) = self.bulkhead.as_mut() {
            if let Some(waiter) = b.release(now) {
                self.q.schedule(now, Event::Proceed(waiter));
            }
        }
    }

    /// Request `n` ends with `outcome`; its worker takes the next queued request.
    fn finish(&mut self, now: Micros, n: u64, outcome: Outcome) {
        let Some(r) = self.requests.get_mut(n as usize) else {
            return;
        };
        if r.done {
            return;
        }
        r.done = true;
        r.finished = Some(now);
        r.outcome = outcome;
        let (arrived, started) = (r.arrived, r.started.unwrap_or(now));
        self.counts.add(outcome);
        self.service.push(now.saturating_sub(started));
        self.end_to_end.push(now.saturating_sub(arrived));
        if let Some(b) = self.bucket(now) {
            b.completions.add(outcome);
        }
        if let Some(next) = self.queue.pop_front() {
            self.q.schedule(now, Event::Start(next));
        } else {
            self.busy = self.busy.saturating_sub(1);
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
