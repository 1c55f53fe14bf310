//! Lesson 004 (Northwind): the worst-case latency of the inventory client's Resilience4j
//! settings, confirmed by stepping one request through the retry machine against a slow
//! inventory, and the provisional orders its fallback leaves behind, with and without a
//! reconciliation job.
//!
//! * Worst case: [`WorstCaseInput::analyse`] on the time limiter and retry settings.
//! * Confirmation: one request stepped in virtual time through [`Retry`] (no jitter, as
//!   Resilience4j's plain exponential backoff), each attempt cut by the time limiter, against an
//!   inventory that answers after `slow_latency`. The two totals must agree.
//! * Backlog (a small model of ours): orders arrive at a steady rate; while inventory is sick
//!   every order takes the fallback and becomes provisional. A reconciliation job, if there is
//!   one, wakes every `every` and, once inventory is healthy again, confirms up to `batch` of the
//!   oldest provisional orders. We report the backlog every minute.
//! * Shared pool vs separate bulkheads: the simulator's business (presets `northwind-shared` and
//!   `northwind-separate`). [`BulkheadHook`] is where a view puts the order-history success rate
//!   read from those runs' Traces; this module never fills it.

pub mod setup;

use std::collections::VecDeque;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{fmt_ms, Answer, Bar, BarKind, Exercise, Part, Timeline, Tolerance};
use crate::resilience::{
    Backoff, CallError, GiveUpReason, Micros, ParamError, Retry, RetryDecision, RetryPolicy,
    WorstCaseInput, MS, SECOND,
};

const MINUTE: Micros = 60 * SECOND;

/// The reconciliation job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reconciliation {
    /// How often it runs (1 s..=1 h).
    pub every: Micros,
    /// Provisional orders it confirms per run at most (1..=1_000_000).
    pub batch: u32,
}

/// The provisional-order model's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Backlog {
    /// Orders per minute (0..=1_000_000).
    pub orders_per_min: u32,
    /// When inventory turns slow.
    pub sick_from: Micros,
    /// When it is healthy again (after `sick_from`).
    pub sick_until: Micros,
    /// How long to follow the backlog (1 min..=7 days; after `sick_until`).
    pub horizon: Micros,
    /// The job; `None` for none.
    pub job: Option<Reconciliation>,
    /// A provisional order older than this is flagged for a person to look at (1 s..=30 days).
    pub stale_after: Micros,
}

impl Default for Backlog {
    /// 120 orders a minute; inventory slow from minute 5 to minute 15; a job every 30 s
    /// confirming up to 100 orders; flagged after 30 min; followed for an hour.
    fn default() -> Self {
        Backlog {
            orders_per_min: 120,
            sick_from: 5 * MINUTE,
            sick_until: 15 * MINUTE,
            horizon: 60 * MINUTE,
            job: Some(Reconciliation {
                every: 30 * SECOND,
                batch: 100,
            }),
            stale_after: 30 * MINUTE,
        }
    }
}

/// The order-history success rate with one shared pool and with separate bulkheads, to be
/// filled from the simulator's Traces (presets `northwind-shared`, `northwind-separate`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct BulkheadHook {
    /// Share of order-history requests that succeeded with one shared pool (0..=1).
    pub shared_success: Option<f64>,
    /// The same with separate bulkheads (0..=1).
    pub separate_success: Option<f64>,
}

/// Order service's request pool in the lesson's incident, before the fix: no time limiter and
/// no breaker, so a reservation holds its thread for as long as inventory takes. Part (e)
/// follows this model (the lesson's section 1), not the simulator's fixed client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolModel {
    /// Request threads of the order service (1..=100_000; the flash sale's Tomcat: 200).
    pub threads: u32,
    /// Stock reservations arriving per second (0..=100_000; 80, four fifths of 100).
    pub reservations_per_sec: f64,
    /// Order-history lookups arriving per second (0..=100_000; 20, a fifth of 100).
    pub history_per_sec: f64,
    /// How long a lookup holds its thread (1 µs..=60 s; 20 ms).
    pub history_latency: Micros,
    /// Threads the inventory reservations may hold with a bulkhead of their own (1..=threads;
    /// the lesson's `inventoryReservation` bulkhead: 20).
    pub reservation_bulkhead: u32,
}

impl Default for PoolModel {
    fn default() -> Self {
        PoolModel {
            threads: 200,
            reservations_per_sec: 80.0,
            history_per_sec: 20.0,
            history_latency: 20 * MS,
            reservation_bulkhead: 20,
        }
    }
}

impl PoolModel {
    /// Threads busy on average if every request got one at once (Little's law: arrivals per
    /// second times the seconds each holds a thread), for reservations held `hold` each.
    pub fn threads_wanted(&self, hold: Micros) -> f64 {
        self.reservations_per_sec * hold as f64 / SECOND as f64 + self.history_threads()
    }

    fn history_threads(&self) -> f64 {
        self.history_per_sec * self.history_latency as f64 / SECOND as f64
    }

    /// Seconds until the shared pool is full from the moment reservations start holding
    /// their threads for `hold` (infinite if it never fills).
    pub fn seconds_to_fill(&self, hold: Micros) -> f64 {
        let wanted = self.threads_wanted(hold);
        if wanted <= f64::from(self.threads) {
            return f64::INFINITY;
        }
        // Each second adds the reservations that arrive and none leaves before `hold`; the
        // lookups come and go, holding their few threads throughout.
        (f64::from(self.threads) - self.history_threads())
            / self.reservations_per_sec.max(f64::MIN_POSITIVE)
    }

    /// Share of order-history lookups answered (0..=1) once things have settled, with one
    /// pool shared with reservations each holding a thread for `hold`. When the pool cannot
    /// hold all that is wanted, the requests waiting for a thread queue up faster than threads
    /// free up, the wait grows without end, and every lookup waits longer than any customer:
    /// none is answered. Otherwise all are.
    pub fn shared_success(&self, hold: Micros) -> f64 {
        if self.threads_wanted(hold) > f64::from(self.threads) {
            0.0
        } else {
            1.0
        }
    }

    /// The same with a bulkhead for reservations: they hold at most `reservation_bulkhead`
    /// threads (the rest are refused at once and take the fallback), and lookups have the
    /// other threads.
    pub fn separate_success(&self) -> f64 {
        let left = f64::from(self.threads.saturating_sub(self.reservation_bulkhead));
        if self.history_threads() > left {
            0.0
        } else {
            1.0
        }
    }
}

/// The exercise's parameters; [`Default`] gives the lesson's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Northwind {
    /// The retry settings (lesson: 3 attempts, 200 ms doubling, no jitter).
    pub retry: RetryPolicy,
    /// The time limiter on each attempt (1 ms..=600 s; lesson: 2 s).
    pub time_limit: Micros,
    /// Inventory's latency when healthy (1 µs..=600 s; lesson: 80 ms).
    pub healthy_latency: Micros,
    /// Inventory's latency when slow (1 µs..=600 s; lesson: 8 s).
    pub slow_latency: Micros,
    /// The provisional-order model.
    pub backlog: Backlog,
    /// The request pool of the incident, for part (e).
    #[serde(default)]
    pub pool: PoolModel,
    /// Filled by the view from the simulator; `None` until then.
    pub order_history: BulkheadHook,
}

impl Default for Northwind {
    fn default() -> Self {
        Northwind {
            retry: RetryPolicy::northwind(),
            time_limit: 2 * SECOND,
            healthy_latency: 80 * MS,
            slow_latency: 8 * SECOND,
            backlog: Backlog::default(),
            pool: PoolModel::default(),
            order_history: BulkheadHook::default(),
        }
    }
}

/// One attempt of the stepped request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SteppedAttempt {
    /// 0-based.
    pub index: u32,
    /// When it started, µs from the request's start.
    pub start: Micros,
    /// When it ended.
    pub end: Micros,
    /// True if the time limiter cut it.
    pub timed_out: bool,
    /// The wait the retry machine chose after it, if it retried.
    pub wait_after: Option<Micros>,
}

/// One request stepped through the retry machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SteppedRequest {
    /// Inventory's latency for every attempt.
    pub inventory_latency: Micros,
    /// The attempts, in order.
    pub attempts: Vec<SteppedAttempt>,
    /// When the request ended (answer, or fallback).
    pub total: Micros,
    /// Why it stopped retrying; `None` if an attempt answered.
    pub gave_up: Option<GiveUpReason>,
    /// The same, as Gantt bars.
    pub timeline: Timeline,
}

/// The backlog at one instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BacklogPoint {
    /// When.
    pub at: Micros,
    /// Orders still provisional.
    pub provisional: u64,
    /// Age of the oldest of them, µs (0 if none).
    pub oldest_age: Micros,
    /// How many of them are older than `stale_after`.
    pub stale: u64,
}

/// The backlog over time, for one setting of the job.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BacklogRun {
    /// Whether there was a job.
    pub with_job: bool,
    /// One point a minute, from 0 to the horizon.
    pub points: Vec<BacklogPoint>,
    /// Orders that became provisional.
    pub became_provisional: u64,
    /// Most provisional orders at once.
    pub peak: u64,
    /// When the backlog was empty again after the sickness, if it was.
    pub drained_at: Option<Micros>,
    /// Still provisional at the horizon.
    pub left_at_horizon: u64,
}

/// What a run of exercise 4 produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NorthwindRun {
    /// The worst case computed from the settings.
    pub worst_case: Timeline,
    /// One request stepped against the slow inventory.
    pub slow: SteppedRequest,
    /// One request stepped against the healthy inventory.
    pub healthy: SteppedRequest,
    /// The backlog with the job as configured (none if `backlog.job` is `None`).
    pub backlog: BacklogRun,
    /// The backlog with no job at all, for comparison.
    pub backlog_without_job: BacklogRun,
    /// Order-history success rates, as the view filled them.
    pub order_history: BulkheadHook,
}

impl Northwind {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.retry.validate()?;
        ParamError::check_micros("time_limit", self.time_limit, MS, 600 * SECOND)?;
        ParamError::check_micros("healthy_latency", self.healthy_latency, 1, 600 * SECOND)?;
        ParamError::check_micros("slow_latency", self.slow_latency, 1, 600 * SECOND)?;
        let b = &self.backlog;
        ParamError::check_u64("orders_per_min", b.orders_per_min.into(), 0, 1_000_000, "")?;
        ParamError::check_micros("sick_from", b.sick_from, 0, 7 * 24 * 60 * MINUTE)?;
        ParamError::check_micros(
            "sick_until",
            b.sick_until,
            b.sick_from,
            7 * 24 * 60 * MINUTE,
        )?;
        ParamError::check_micros(
            "horizon",
            b.horizon,
            b.sick_until.max(MINUTE),
            7 * 24 * 60 * MINUTE,
        )?;
        if let Some(job) = &b.job {
            ParamError::check_micros("every", job.every, SECOND, 60 * MINUTE)?;
            ParamError::check_u64("batch", job.batch.into(), 1, 1_000_000, "")?;
        }
        ParamError::check_micros("stale_after", b.stale_after, SECOND, 30 * 24 * 60 * MINUTE)?;
        // The model walks every order: bound their number, not just each factor.
        let orders = u64::from(b.orders_per_min).saturating_mul(b.horizon / MINUTE + 1);
        ParamError::check_u64("orders_per_min x horizon", orders, 0, 10_000_000, "orders")?;
        let p = &self.pool;
        ParamError::check_u64("threads", p.threads.into(), 1, 100_000, "")?;
        ParamError::check_f64(
            "reservations_per_sec",
            p.reservations_per_sec,
            0.0,
            100_000.0,
            "/s",
        )?;
        ParamError::check_f64("history_per_sec", p.history_per_sec, 0.0, 100_000.0, "/s")?;
        ParamError::check_micros("history_latency", p.history_latency, 1, 60 * SECOND)?;
        ParamError::check_u64(
            "reservation_bulkhead",
            p.reservation_bulkhead.into(),
            1,
            p.threads.into(),
            "",
        )?;
        for (field, v) in [
            ("shared_success", self.order_history.shared_success),
            ("separate_success", self.order_history.separate_success),
        ] {
            if let Some(v) = v {
                ParamError::check_f64(field, v, 0.0, 1.0, "")?;
            }
        }
        Ok(())
    }

    /// The settings as a worst-case input: the time limiter cuts every attempt, the waits grow
    /// as the retry policy's ceiling does.
    pub fn worst_case_input(&self) -> WorstCaseInput {
        WorstCaseInput {
            per_attempt_timeout: self.time_limit,
            attempts: self.retry.attempts,
            backoff: Backoff::Exponential {
                base: self.retry.base,
                cap: self.retry.cap,
            },
            budget: None,
        }
    }

    /// Steps one request through the retry machine against an inventory answering after
    /// `latency`, each attempt cut by the time limiter.
    pub fn step_one(&self, latency: Micros) -> Result<SteppedRequest, ParamError> {
        let mut retry = Retry::new(&self.retry)?;
        // The policy may have jitter; the seed keeps the stepping reproducible either way.
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let mut now: Micros = 0;
        let mut attempts = Vec::new();
        let mut bars = Vec::new();
        let gave_up = loop {
            let index = retry.begin_attempt(None);
            let start = now;
            let timed_out = latency > self.time_limit;
            now += latency.min(self.time_limit);
            bars.push(Bar {
                kind: BarKind::Attempt,
                attempt: index,
                start,
                end: now,
                label: format!(
                    "attempt {}: {}{}",
                    index + 1,
                    fmt_ms(now - start),
                    if timed_out {
                        ", cut by the time limiter"
                    } else {
                        ""
                    }
                ),
            });
            let mut attempt = SteppedAttempt {
                index,
                start,
                end: now,
                timed_out,
                wait_after: None,
            };
            if !timed_out {
                attempts.push(attempt);
                break None;
            }
            match retry.after_failure(CallError::DeadlineExceeded, true, now, None, None, &mut rng)
            {
                RetryDecision::RetryAfter { wait, .. } => {
                    attempt.wait_after = Some(wait);
                    attempts.push(attempt);
                    bars.push(Bar {
                        kind: BarKind::Wait,
                        attempt: index,
                        start: now,
                        end: now + wait,
                        label: format!("wait {}", fmt_ms(wait)),
                    });
                    now += wait;
                }
                RetryDecision::GiveUp(reason) => {
                    attempts.push(attempt);
                    break Some(reason);
                }
            }
        };
        Ok(SteppedRequest {
            inventory_latency: latency,
            attempts,
            total: now,
            gave_up,
            timeline: Timeline { total: now, bars },
        })
    }

    /// Follows the provisional orders minute by minute, with `job` reconciling them.
    pub fn backlog_with(&self, job: Option<&Reconciliation>) -> BacklogRun {
        let b = &self.backlog;
        let sick = |t: Micros| t >= b.sick_from && t < b.sick_until;
        // Arrivals evenly spaced: order k at k * gap.
        let gap = if b.orders_per_min == 0 {
            Micros::MAX
        } else {
            MINUTE / u64::from(b.orders_per_min)
        };
        let mut provisional: VecDeque<Micros> = VecDeque::new();
        let mut next_order: Micros = 0;
        let mut next_job = job.map(|j| j.every);
        let mut points = Vec::new();
        let (mut became, mut peak) = (0u64, 0u64);
        let mut drained_at = None;
        let mut minute: Micros = 0;
        while minute <= b.horizon {
            // Everything that happens up to this minute mark, in time order: arrivals, then
            // job runs.
            loop {
                // A job due exactly at the mark runs after the point is taken, so the chart
                // shows the backlog the job finds (its peak included), not what it leaves.
                let job_at = next_job.filter(|&t| t < minute);
                let order_at = Some(next_order).filter(|&t| t <= minute && gap != Micros::MAX);
                match (order_at, job_at) {
                    (Some(o), j) if j.is_none_or(|j| o <= j) => {
                        if sick(o) {
                            provisional.push_back(o);
                            became += 1;
                            peak = peak.max(provisional.len() as u64);
                        }
                        next_order = o.saturating_add(gap);
                    }
                    (_, Some(j)) => {
                        if let Some(job) = job {
                            if !sick(j) {
                                let n = provisional.len().min(job.batch as usize);
                                provisional.drain(..n);
                                if n > 0 && provisional.is_empty() && j >= b.sick_until {
                                    drained_at.get_or_insert(j);
                                }
                            }
                            next_job = Some(j.saturating_add(job.every));
                        }
                    }
                    _ => break,
                }
            }
            let oldest_age = provisional.front().map_or(0, |&t| minute - t);
            let stale = provisional
                .iter()
                .take_while(|&&t| minute - t > b.stale_after)
                .count() as u64;
            points.push(BacklogPoint {
                at: minute,
                provisional: provisional.len() as u64,
                oldest_age,
                stale,
            });
            minute += MINUTE;
        }
        BacklogRun {
            with_job: job.is_some(),
            points,
            became_provisional: became,
            peak,
            drained_at,
            left_at_horizon: provisional.len() as u64,
        }
    }
}

impl Exercise for Northwind {
    type Run = NorthwindRun;

    fn id(&self) -> &'static str {
        "northwind"
    }

    fn title(&self) -> &'static str {
        "Northwind: a slow inventory, its worst case, and the orders left provisional"
    }

    fn question(&self) -> String {
        let b = &self.backlog;
        let job = match &b.job {
            Some(j) => format!(
                "a reconciliation job that wakes every {} and confirms up to {} of the oldest \
                 provisional orders",
                fmt_ms(j.every),
                j.batch
            ),
            None => "no reconciliation job yet".to_string(),
        };
        format!(
            "Northwind's order service reserves stock through a client with a {limit} time \
             limiter on each attempt, {attempts} attempts in all, and a wait of {base} before \
             the first retry that doubles each time. When the call fails for good, a fallback \
             accepts the order as provisional, to be confirmed later. Inventory's database \
             turns slow, not down: reservations that took {healthy} now take {slow}, and still \
             succeed eventually.\n\
             The client is lesson 004's: Spring Boot applies its four annotations as \
             Retry ( CircuitBreaker ( TimeLimiter ( Bulkhead ( call ) ) ) ), whatever order \
             they are written in; `fallbackMethod` sits on @CircuitBreaker; retry-exceptions \
             lists only TransientInventoryException; the multiplier is set but \
             enable-exponential-backoff is not.\n\
             (a) As written, with the breaker closed and a bulkhead permit free, how long can \
             one reservation take, at worst, before the fallback answers? And with the two \
             fixes the lesson's own sum assumes (the fallback on @Retry, TimeoutException \
             retried, the backoff enabled)?\n\
             (b) {rate} orders a minute arrive; inventory is slow from minute {from} to minute \
             {until}, and every order in that time ends provisional. How many provisional orders \
             are there at the peak?\n\
             (c) {drain}And with no job at all, how many orders are still provisional at \
             minute {horizon}?\n\
             (d) Who should own reconciling provisional orders, how do you spot one that has \
             been provisional too long, and what happens to it?\n\
             (e) Back to the incident itself, before any of these settings: no time limiter and \
             no breaker, so every reservation holds one of the order service's {threads} \
             request threads for the full {slow}. {reservations} reservations and {lookups} \
             order-history lookups arrive each second; a lookup needs no inventory and holds a \
             thread for {lookup}. Once things have settled, what share of order-history lookups \
             is answered if both endpoints share the {threads} threads? And if reservations \
             get a bulkhead of {bulkhead} threads (the rest refused at once, to the fallback) \
             and lookups keep the others?",
            limit = fmt_ms(self.time_limit),
            attempts = self.retry.attempts,
            base = fmt_ms(self.retry.base),
            healthy = fmt_ms(self.healthy_latency),
            slow = fmt_ms(self.slow_latency),
            rate = b.orders_per_min,
            from = b.sick_from / MINUTE,
            until = b.sick_until / MINUTE,
            drain = match &b.job {
                Some(_) => format!(
                    "With {job}, how many minutes after inventory recovers is the backlog \
                     empty? "
                ),
                None => String::new(),
            },
            horizon = b.horizon / MINUTE,
            threads = self.pool.threads,
            reservations = crate::exercises::number::plain(self.pool.reservations_per_sec),
            lookups = crate::exercises::number::plain(self.pool.history_per_sec),
            lookup = fmt_ms(self.pool.history_latency),
            bulkhead = self.pool.reservation_bulkhead,
        )
    }

    fn run(&self) -> Result<NorthwindRun, ParamError> {
        self.validate()?;
        let worst = self.worst_case_input().analyse()?;
        Ok(NorthwindRun {
            worst_case: Timeline::from_worst_case(&worst),
            slow: self.step_one(self.slow_latency)?,
            healthy: self.step_one(self.healthy_latency)?,
            backlog: self.backlog_with(self.backlog.job.as_ref()),
            backlog_without_job: self.backlog_with(None),
            order_history: self.order_history.clone(),
        })
    }

    fn parts_for(&self, run: &NorthwindRun) -> Vec<Part> {
        let until = self.backlog.sick_until;
        let drain_minutes = run
            .backlog
            .drained_at
            .map_or(f64::INFINITY, |t| (t - until) as f64 / MINUTE as f64);
        let as_written = self.time_limit as f64 / SECOND as f64;
        let mut parts = vec![
            Part::numeric(
                "a1",
                "As written: worst-case time before the fallback answers, in seconds?".to_string(),
                Answer::two_sided(
                    as_written,
                    Tolerance::Relative(0.03),
                    "s",
                    "Follow the first attempt's timeout outwards: which aspect meets it first, \
                     and what does the outer Retry then see?",
                    "The fallback on @CircuitBreaker turns the timeout into a normal result \
                     inside Retry, so there is no second attempt (and TimeoutException is not \
                     on the whitelist anyway).",
                )
                .on_misreading(
                    run.worst_case.total as f64 / SECOND as f64,
                    "That is the lesson's sum, which needs the fallback on @Retry and the \
                     timeout retried: as written, Retry never sees the failure.",
                ),
            ),
            Part::numeric(
                "a2",
                "With the two fixes: worst-case time before the fallback answers, in seconds?"
                    .to_string(),
                Answer::two_sided(
                    run.worst_case.total as f64 / SECOND as f64,
                    Tolerance::Relative(0.03),
                    "s",
                    "Every attempt is cut by the time limiter, not by inventory's latency, and \
                     the waits between attempts add up too.",
                    &format!(
                        "Inventory's slow latency never runs to the end: each attempt stops at \
                         the time limiter. And {} attempts have only {} waits between them.",
                        self.retry.attempts,
                        self.retry.attempts.saturating_sub(1)
                    ),
                )
                .on_misreading(
                    f64::from(self.retry.attempts) * self.slow_latency as f64 / SECOND as f64,
                    "That is every attempt waiting for inventory's full slow answer: the time \
                     limiter cuts each attempt long before.",
                ),
            ),
            Part::numeric(
                "b",
                "Provisional orders at the peak?".to_string(),
                Answer::new(
                    run.backlog.peak as f64,
                    Tolerance::Relative(0.05),
                    "orders",
                    "Every order that arrives while inventory is slow becomes provisional, and \
                     none is confirmed before inventory is healthy again.",
                ),
            ),
        ];
        if run.backlog.with_job && drain_minutes.is_finite() {
            parts.push(Part::numeric(
                "c1",
                "Minutes from recovery until the backlog is empty, with the job?".to_string(),
                Answer::two_sided(
                    drain_minutes,
                    Tolerance::Absolute(1.0),
                    "min",
                    "The job confirms a fixed batch per run: divide the peak by what it clears \
                     in a minute.",
                    "New orders after recovery are confirmed at once and never join the \
                     backlog; only the peak has to be worked off.",
                ),
            ));
        }
        parts.push(Part::numeric(
            "c2",
            format!(
                "With no job at all: orders still provisional at minute {}?",
                self.backlog.horizon / MINUTE
            ),
            Answer::two_sided(
                run.backlog_without_job.left_at_horizon as f64,
                Tolerance::Relative(0.05),
                "orders",
                "Without a job nothing ever confirms a provisional order: count every order \
                 that took the fallback.",
                "Orders that arrive once inventory is healthy are confirmed at once; only \
                 those from the slow stretch stay provisional.",
            ),
        ));
        parts.push(Part::open(
            "d",
            "Who owns reconciliation, and how are orders provisional for too long handled?"
                .to_string(),
        ));
        let hold = self.slow_latency;
        parts.push(Part::numeric(
            "e1",
            "Order-history lookups answered with one shared pool, in %?".to_string(),
            Answer::two_sided(
                self.pool.shared_success(hold) * 100.0,
                Tolerance::Absolute(5.0),
                "%",
                "Compare the threads the two endpoints would need at once (arrivals per \
                 second times the seconds each holds a thread) with the threads there are.",
                "Reservations arrive faster than their threads come back: the requests \
                 waiting for a thread pile up without end, and a lookup waits behind all of \
                 them.",
            )
            .on_misreading(
                self.pool.history_per_sec
                    / (self.pool.history_per_sec + self.pool.reservations_per_sec).max(1e-9)
                    * 100.0,
                "Lookups do not get their share of the threads: the queue in front of the pool \
                 grows without end, so every request in it waits longer than any customer.",
            ),
        ));
        parts.push(Part::numeric(
            "e2",
            format!(
                "And with a bulkhead of {} threads for reservations, in %?",
                self.pool.reservation_bulkhead
            ),
            Answer::new(
                self.pool.separate_success() * 100.0,
                Tolerance::Absolute(5.0),
                "%",
                "With the bulkhead, reservations can hold only their own threads; how many \
                 threads do the lookups need, and how many are left for them?",
            ),
        ));
        parts
    }

    fn solution_for(&self, run: &NorthwindRun) -> String {
        let b = &self.backlog;
        let w = &run.worst_case;
        let pieces: Vec<String> = w
            .bars
            .iter()
            .filter(|bar| bar.kind != BarKind::Dropped)
            .map(|bar| fmt_ms(bar.end - bar.start))
            .collect();
        let drain = |r: &BacklogRun| match r.drained_at {
            Some(t) => format!(
                "empty {} after recovery",
                fmt_ms(t.saturating_sub(b.sick_until))
            ),
            None => format!(
                "never empty: {} still provisional at minute {}, {} of them flagged as stale",
                r.left_at_horizon,
                b.horizon / MINUTE,
                r.points.last().map_or(0, |p| p.stale)
            ),
        };
        let job = match &b.job {
            Some(j) => format!(
                "With a job confirming up to {} orders every {}, the backlog is {}.",
                j.batch,
                fmt_ms(j.every),
                drain(&run.backlog)
            ),
            None => "No job is configured.".to_string(),
        };
        let history = match (
            self.order_history.shared_success,
            self.order_history.separate_success,
        ) {
            (Some(s), Some(p)) => format!(
                " The playground's simulator runs the same flash sale with the fixed client \
                 (the {limit} time limiter, the retries and the breaker of the lesson's \
                 section 5) and the pool still shared: there order history is answered {:.0}% \
                 of the minute with one shared pool and {:.0}% with separate bulkheads, because \
                 the time limiter gives threads back after {total} at most and the open breaker \
                 sends reservations to the fallback at once. That is the fix at work, not the \
                 incident the question asks about.",
                s * 100.0,
                p * 100.0,
                limit = fmt_ms(self.time_limit),
                total = fmt_ms(w.total),
            ),
            _ => String::new(),
        };
        format!(
            "(a) As written, the worst case is one attempt: {limit}. Spring Boot orders the \
             aspects by their precedence, not by the order of the annotations, so the call runs \
             as Retry ( CircuitBreaker ( TimeLimiter ( Bulkhead ( call ) ) ) ). The time \
             limiter completes the attempt with a TimeoutException at {limit}; the breaker's \
             advice records it and its fallbackMethod answers PendingRetryAsync at once. Retry, \
             outside, sees a normal result and never retries; TimeoutException is not in \
             retry-exceptions either, and without enable-exponential-backoff the multiplier \
             would not be read. (A full bulkhead adds its wait before the attempt starts.) \
             The lesson's figure is what two fixes give: the fallback moved to @Retry and \
             TimeoutException retried, with the backoff enabled: every attempt runs until the \
             time limiter cuts it, and every wait is as long as the backoff allows: {pieces} = \
             {total}. Stepping one request through the retry machine against an inventory \
             answering in {slow} gives the same: {attempts} attempts cut at {limit}, giving up \
             after {stepped}. A healthy inventory answers in {healthy} on the first attempt. \
             Whoever calls the order service must be ready to wait {total} once the fixes are \
             in, or the settings must shrink.\n\
             (b) Orders arrive at {rate} a minute for {sick} of slowness: {became} become \
             provisional, and the backlog peaks at {peak}.\n\
             (c) {job} With no job, the backlog is {nojob}.\n\
             (d) The order service owns its provisional orders, since it created them: the \
             fallback writes the provisional order and, in the same transaction, an outbox \
             record asking for the reservation to be retried. A reconciliation step of the order \
             saga consumes those records once inventory is healthy (its circuit closed), \
             reserves the stock with the order's idempotency key, and confirms the order. Each \
             provisional order carries the time it was created; a periodic check flags any \
             older than {stale} (a metric and an alert on the oldest one's age). A flagged order \
             gets a final attempt and, if stock cannot be reserved, the saga's compensation: \
             cancel it, refund if anything was charged, and tell the customer.\n\
             (e) With one shared pool and nothing cutting a reservation short, the two \
             endpoints would need {wanted} threads at once ({reservations}/s x {slow} plus \
             {lookups}/s x {lookup}) and there are {threads}: the pool is full after about \
             {fill}, and from then on requests wait for a thread faster than threads come back. \
             The queue grows without end, so order history, which needs no inventory, finds no \
             thread in time and fails: {shared:.0}% answered, as in the lesson's incident. With \
             a bulkhead of {bulkhead} for reservations, inventory can only fill its own \
             threads (the rest of the reservations are refused at once and take the fallback), \
             and lookups, needing {lookup_threads} threads on average, keep succeeding: \
             {separate:.0}%.{history}",
            pieces = pieces.join(" + "),
            wanted = crate::exercises::number::plain(
                self.pool.threads_wanted(self.slow_latency).round()
            ),
            reservations = crate::exercises::number::plain(self.pool.reservations_per_sec),
            lookups = crate::exercises::number::plain(self.pool.history_per_sec),
            lookup = fmt_ms(self.pool.history_latency),
            threads = self.pool.threads,
            fill = match self.pool.seconds_to_fill(self.slow_latency) {
                s if s.is_finite() => format!("{s:.1} s"),
                _ => "never".to_string(),
            },
            shared = self.pool.shared_success(self.slow_latency) * 100.0,
            bulkhead = self.pool.reservation_bulkhead,
            lookup_threads = crate::exercises::number::plain(
                (self.pool.history_per_sec * self.pool.history_latency as f64 / SECOND as f64
                    * 10.0)
                    .round()
                    / 10.0
            ),
            separate = self.pool.separate_success() * 100.0,
            total = fmt_ms(w.total),
            slow = fmt_ms(self.slow_latency),
            attempts = run.slow.attempts.len(),
            limit = fmt_ms(self.time_limit),
            stepped = fmt_ms(run.slow.total),
            healthy = fmt_ms(run.healthy.total),
            rate = b.orders_per_min,
            sick = fmt_ms(b.sick_until - b.sick_from),
            became = run.backlog.became_provisional,
            peak = run.backlog.peak,
            nojob = drain(&run.backlog_without_job),
            stale = fmt_ms(b.stale_after),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::check_part;

    fn ex() -> Northwind {
        Northwind::default()
    }

    #[test]
    fn worst_case_is_about_6_6_s_and_stepping_agrees() {
        let run = ex().run().unwrap();
        // Computed.
        assert_eq!(run.worst_case.total, 6_600 * MS);
        // It matches the lesson's preset analysed directly.
        let preset = WorstCaseInput::northwind().analyse().unwrap();
        assert_eq!(run.worst_case.total, preset.total);
        // Stepped through the retry machine against an 8 s inventory.
        let slow = &run.slow;
        assert_eq!(slow.total, run.worst_case.total);
        assert_eq!(slow.gave_up, Some(GiveUpReason::AttemptsExhausted));
        assert_eq!(slow.attempts.len(), 3);
        assert!(slow.attempts.iter().all(|a| a.timed_out));
        let waits: Vec<_> = slow.attempts.iter().map(|a| a.wait_after).collect();
        assert_eq!(waits, vec![Some(200 * MS), Some(400 * MS), None]);
        let spans: Vec<_> = slow
            .timeline
            .bars
            .iter()
            .map(|b| (b.start, b.end))
            .collect();
        let expected: Vec<_> = run
            .worst_case
            .bars
            .iter()
            .map(|b| (b.start, b.end))
            .collect();
        assert_eq!(spans, expected);
        // A healthy inventory: one attempt, 80 ms.
        assert_eq!(run.healthy.total, 80 * MS);
        assert_eq!(run.healthy.gave_up, None);
        assert_eq!(run.healthy.attempts.len(), 1);
    }

    #[test]
    fn stepping_follows_other_settings_too() {
        // Five attempts of 1 s, 100 ms doubling: 5 + 0.1 + 0.2 + 0.4 + 0.8 = 6.5 s.
        let e = Northwind {
            retry: RetryPolicy {
                attempts: 5,
                base: 100 * MS,
                ..RetryPolicy::northwind()
            },
            time_limit: SECOND,
            ..ex()
        };
        let run = e.run().unwrap();
        assert_eq!(run.worst_case.total, 6_500 * MS);
        assert_eq!(run.slow.total, run.worst_case.total);
        // An inventory just under the limit answers on the first attempt.
        assert_eq!(e.step_one(SECOND).unwrap().total, SECOND);
    }

    #[test]
    fn provisional_orders_pile_up_and_drain_only_with_a_job() {
        let run = ex().run().unwrap();
        // 120 a minute for 10 minutes.
        assert_eq!(run.backlog.became_provisional, 1_200);
        assert_eq!(run.backlog.peak, 1_200);
        // 100 every 30 s = 200 a minute: 6 minutes after recovery at minute 15.
        assert_eq!(run.backlog.drained_at, Some(21 * MINUTE - 30 * SECOND));
        assert_eq!(run.backlog.left_at_horizon, 0);
        let at = |r: &BacklogRun, m: u64| r.points[m as usize];
        assert_eq!(at(&run.backlog, 5).provisional, 1);
        // Orders from 5:00 to 14:00 inclusive, one every 0.5 s.
        assert_eq!(at(&run.backlog, 14).provisional, 1_081);
        // The point at a mark is what the job due then finds: the peak at 15:00, then the
        // runs at 15:00 and 15:30 have confirmed 200 by 16:00.
        assert_eq!(at(&run.backlog, 15).provisional, 1_200);
        assert_eq!(at(&run.backlog, 16).provisional, 1_000);
        // The chart's highest point is the peak the text states.
        let highest = run.backlog.points.iter().map(|p| p.provisional).max();
        assert_eq!(highest, Some(run.backlog.peak));
        assert_eq!(at(&run.backlog, 25).provisional, 0);
        // Without a job they stay, and age past the stale mark.
        let none = &run.backlog_without_job;
        assert_eq!(none.peak, 1_200);
        assert_eq!(none.drained_at, None);
        assert_eq!(none.left_at_horizon, 1_200);
        let last = none.points.last().unwrap();
        assert_eq!(last.at, 60 * MINUTE);
        assert_eq!(last.provisional, 1_200);
        assert_eq!(last.oldest_age, 55 * MINUTE);
        assert_eq!(last.stale, 1_200);
        assert_eq!(none.points.len(), 61);
        // The job never runs while inventory is sick.
        assert!(run.backlog.points[5..15]
            .windows(2)
            .all(|w| w[1].provisional >= w[0].provisional));
    }

    #[test]
    fn the_pool_model_follows_its_inputs() {
        let p = PoolModel::default();
        // 80/s x 8 s + 20/s x 20 ms = 640.4 threads wanted, 200 there.
        assert!((p.threads_wanted(8 * SECOND) - 640.4).abs() < 1e-9);
        assert_eq!(p.shared_success(8 * SECOND), 0.0);
        assert!((p.seconds_to_fill(8 * SECOND) - 2.495).abs() < 1e-9);
        // At the healthy 80 ms, 6.8 threads are enough.
        assert_eq!(p.shared_success(80 * MS), 1.0);
        assert!(p.seconds_to_fill(80 * MS).is_infinite());
        assert_eq!(p.separate_success(), 1.0);
        let tiny = PoolModel {
            threads: 20,
            ..PoolModel::default()
        };
        assert_eq!(tiny.separate_success(), 0.0);
    }

    #[test]
    fn deterministic() {
        assert_eq!(ex().run().unwrap(), ex().run().unwrap());
    }

    #[test]
    fn right_answers_pass_and_wrong_ones_get_a_hint() {
        let e = ex();
        let run = e.run().unwrap();
        let parts = e.parts_for(&run);
        let v = |id: &str, x: f64| check_part(&parts, id, x).unwrap();
        assert!(v("a1", 2.0).correct);
        assert!(v("a2", 6.6).correct);
        // The lesson's sum is a slip for the configuration as written.
        assert!(v("a1", 6.6).hint.unwrap().contains("@Retry"));
        assert!(v("b", 1_200.0).correct);
        assert!(v("c1", 6.0).correct);
        assert!(v("c2", 1_200.0).correct);
        // The lesson's incident: a shared pool answers no lookup, a bulkhead all of them.
        assert!(v("e1", 0.0).correct);
        assert!(v("e2", 100.0).correct);
        for (id, wrong) in [
            ("a1", 6.0),
            ("a1", 8.0),
            ("a2", 24.6),
            ("a2", 6.0),
            ("a2", 8.0),
            ("b", 600.0),
            ("c1", 12.0),
            ("c1", 2.0),
            ("c2", 0.0),
            ("e1", 89.0),
            ("e1", 20.0),
            ("e2", 0.0),
        ] {
            let verdict = v(id, wrong);
            assert!(!verdict.correct, "{id} {wrong}");
            assert!(!verdict.hint.unwrap().is_empty());
        }
        // Every attempt waiting for the full 8 s is a slip with its own hint.
        assert!(v("a2", 24.0).hint.unwrap().contains("time limiter cuts"));
        let filled = Northwind {
            order_history: BulkheadHook {
                shared_success: Some(0.12),
                separate_success: Some(1.0),
            },
            ..ex()
        };
        let run = filled.run().unwrap();
        let parts = filled.parts_for(&run);
        // The simulator's figures go to the solution, beside the lesson's model.
        assert!(check_part(&parts, "e1", 0.0).unwrap().correct);
        let solution = filled.solution_for(&run);
        assert!(
            solution.contains("12%") && solution.contains("0% answered"),
            "{solution}"
        );
    }

    #[test]
    fn texts_and_serialisation() {
        let e = ex();
        let run = e.run().unwrap();
        let s = e.solution_for(&run);
        assert!(
            s.contains("2 s + 200 ms + 2 s + 400 ms + 2 s = 6.6 s"),
            "{s}"
        );
        assert!(
            s.contains("worst case is one attempt: 2 s") && s.contains("never retries"),
            "{s}"
        );
        assert!(s.contains("never empty"));
        assert!(e.question().contains("8 s") && e.question().contains("80 ms"));
        let json = serde_json::to_string(&run).unwrap();
        let back: NorthwindRun = serde_json::from_str(&json).unwrap();
        assert_eq!(back, run);
    }

    #[test]
    fn bad_params_name_the_field() {
        let mut bad = ex();
        bad.backlog.sick_until = MINUTE;
        assert_eq!(bad.run().unwrap_err().field, "sick_until");
        let bad = Northwind {
            order_history: BulkheadHook {
                shared_success: Some(1.5),
                separate_success: None,
            },
            ..ex()
        };
        assert_eq!(bad.run().unwrap_err().field, "shared_success");
        let mut pool = ex();
        pool.pool.reservation_bulkhead = 500;
        assert_eq!(pool.run().unwrap_err().field, "reservation_bulkhead");
        let mut huge = ex();
        huge.backlog.orders_per_min = 1_000_000;
        huge.backlog.horizon = 7 * 24 * 60 * MINUTE;
        assert_eq!(huge.run().unwrap_err().field, "orders_per_min x horizon");
    }
}
