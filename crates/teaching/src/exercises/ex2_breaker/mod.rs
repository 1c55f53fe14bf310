//! Lesson 000, exercise 2: a circuit breaker whose client counts "out of stock" answers as
//! failures, the temptation to lower `min_calls`, and an alert for a circuit stuck open.
//!
//! One hour of virtual time at a steady rate is driven through the resilience module's
//! [`CircuitBreaker`]: a call every `1 / calls_per_sec`, each answered `call_duration` later.
//! Every answer is drawn before the breaker is asked, so runs that differ only in the breaker
//! see exactly the same traffic. The traffic, all of it from a healthy inventory:
//!
//! * `out_of_stock` of the answers are a business "no" (the dependency worked);
//! * background noise: each call fails transiently with probability `noise.background`;
//! * blips: `noise.blips_per_hour` moments (a Poisson process) during which every call fails
//!   for `noise.blip_length` (a burst of lost packets, a replica restarting).
//!
//! Since inventory is healthy throughout, every opening of the circuit is a false one.
//!
//! Calls take 5 ms by default, less than the 10 ms between two calls, so each half-open probe
//! has returned before the next call arrives. That is a deliberate choice: the lesson's
//! half-open rule (which [`CircuitBreaker`] reproduces) closes only when the count of probes
//! in flight comes back to zero, and under steady traffic with overlapping calls (40 ms each,
//! say, at 100 calls/s) a new probe takes every slot a returning one frees. The count never
//! reaches zero, so the circuit can only leave half open through a failed probe: after one
//! false opening it stays half open or open for the rest of the hour. A student can see this
//! by raising `call_duration`; `overlapping_calls_keep_the_circuit_half_open` pins it down.
//!
//! The alert is ours: it pages when the circuit spent at least `open_share` of the last
//! `lookback` not closed (open or half open), and that has stayed true for `hold`, evaluated
//! every `every`, as a metrics system would evaluate a rule on the state gauge.

pub mod setup;

use std::collections::VecDeque;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Exp};
use serde::{Deserialize, Serialize};

use super::{fmt_ms, Answer, Exercise, Part, Tolerance};
use crate::resilience::{
    Admission, BreakerConfig, BreakerState, CallResult, CircuitBreaker, Micros, ParamError,
    Transition, TransitionReason, Window, MS, SECOND,
};

/// Most calls one run may simulate (an hour at 1,000 calls/s).
pub const MAX_CALLS: u64 = 3_600_000;

/// Transient failures of a healthy dependency.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Noise {
    /// Chance that any one call fails on its own (0..=0.5).
    pub background: f64,
    /// Blips per hour, on average (0..=3600).
    pub blips_per_hour: f64,
    /// How long every call fails during a blip (0..=60 s).
    pub blip_length: Micros,
}

impl Default for Noise {
    /// 0.5% of calls, plus a 100 ms blip about every five minutes.
    fn default() -> Self {
        Noise {
            background: 0.005,
            blips_per_hour: 12.0,
            blip_length: 100 * MS,
        }
    }
}

/// When to page about a circuit: it has been mostly not closed for a while.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlertRule {
    /// The trailing span the time not closed is measured over (1 s..=24 h).
    pub lookback: Micros,
    /// Share of the lookback not closed at or above which the condition holds (0..=1).
    pub open_share: f64,
    /// How long the condition must hold, evaluation after evaluation, before paging (0..=24 h).
    pub hold: Micros,
    /// Time between evaluations (1 s..=1 h).
    pub every: Micros,
}

impl Default for AlertRule {
    /// Not closed for 70% of the last 5 minutes, for 2 minutes running, checked every 15 s.
    fn default() -> Self {
        AlertRule {
            lookback: 300 * SECOND,
            open_share: 0.7,
            hold: 120 * SECOND,
            every: 15 * SECOND,
        }
    }
}

/// One evaluation of the alert rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AlertSample {
    /// When it was evaluated.
    pub at: Micros,
    /// Share of the lookback (or of the time so far, early on) spent not closed.
    pub not_closed_share: f64,
    /// Whether the alert was firing after this evaluation.
    pub firing: bool,
}

/// The alert rule applied to one breaker-state series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlertReport {
    /// The first evaluation at which it fired, if any.
    pub first_fired_at: Option<Micros>,
    /// Evaluations at which it was firing.
    pub firing_evaluations: u32,
    /// Every evaluation, for a chart.
    pub samples: Vec<AlertSample>,
}

impl AlertReport {
    /// True if it fired at least once.
    pub fn fired(&self) -> bool {
        self.first_fired_at.is_some()
    }
}

impl AlertRule {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_micros("lookback", self.lookback, SECOND, 86_400 * SECOND)?;
        ParamError::check_f64("open_share", self.open_share, 0.0, 1.0, "")?;
        ParamError::check_micros("hold", self.hold, 0, 86_400 * SECOND)?;
        ParamError::check_micros("every", self.every, SECOND, 3_600 * SECOND)
    }

    /// Evaluates the rule every `every` up to `end`, on a breaker that starts closed at 0 and
    /// changes state as `transitions` say (in time order).
    pub fn evaluate(&self, transitions: &[Transition], end: Micros) -> AlertReport {
        let spans = not_closed_spans(transitions, end);
        let mut samples = Vec::new();
        let mut pending_since: Option<Micros> = None;
        let mut first_fired_at = None;
        let mut firing_evaluations = 0;
        let mut at = self.every;
        while at <= end {
            let from = at.saturating_sub(self.lookback);
            let not_closed: Micros = spans
                .iter()
                .map(|&(s, e)| e.min(at).saturating_sub(s.max(from)))
                .sum();
            let share = not_closed as f64 / (at - from) as f64;
            let holds = share >= self.open_share;
            let firing = if holds {
                let since = *pending_since.get_or_insert(at);
                at - since >= self.hold
            } else {
                pending_since = None;
                false
            };
            if firing {
                firing_evaluations += 1;
                first_fired_at.get_or_insert(at);
            }
            samples.push(AlertSample {
                at,
                not_closed_share: share,
                firing,
            });
            at += self.every;
        }
        AlertReport {
            first_fired_at,
            firing_evaluations,
            samples,
        }
    }
}

/// The spans `[start, end)` during which the breaker was not closed.
fn not_closed_spans(transitions: &[Transition], end: Micros) -> Vec<(Micros, Micros)> {
    let mut spans = Vec::new();
    let mut since: Option<Micros> = None;
    for t in transitions {
        match (t.to == BreakerState::Closed, since) {
            (false, None) => since = Some(t.at),
            (true, Some(s)) => {
                spans.push((s, t.at));
                since = None;
            }
            _ => {}
        }
    }
    if let Some(s) = since {
        spans.push((s, end.max(s)));
    }
    spans
}

/// The exercise's parameters; [`Default`] gives the lesson's (and our noise and alert).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BusinessErrors {
    /// The breaker (lesson 000: 10 s window, 20 calls, 50%, 10 s cool-down, 3 probes).
    pub breaker: BreakerConfig,
    /// The bug: business answers counted as failures.
    pub bug: bool,
    /// Calls per second to inventory (1..=10_000; lesson: 100).
    pub calls_per_sec: u32,
    /// How long each call takes to answer (1 µs..=10 s; default 5 ms, shorter than the gap
    /// between calls: see the module documentation).
    pub call_duration: Micros,
    /// Share of answers that are "out of stock" (0..=1; lesson: 60%).
    pub out_of_stock: f64,
    /// Transient failures of the healthy dependency.
    pub noise: Noise,
    /// A window much shorter than the lesson's, for the `min_calls` comparison (1 ms..=3600 s).
    pub short_window: Micros,
    /// The two `min_calls` compared (lesson: 5 and 20).
    pub min_calls_compared: [u32; 2],
    /// Virtual time simulated (1 s..=24 h; default one hour).
    pub duration: Micros,
    /// The alert of part (c).
    pub alert: AlertRule,
    /// Seed of the traffic.
    pub seed: u64,
}

impl Default for BusinessErrors {
    fn default() -> Self {
        BusinessErrors {
            breaker: BreakerConfig::lesson_000(),
            bug: true,
            calls_per_sec: 100,
            call_duration: 5 * MS,
            out_of_stock: 0.6,
            noise: Noise::default(),
            short_window: 100 * MS,
            min_calls_compared: [5, 20],
            duration: 3_600 * SECOND,
            alert: AlertRule::default(),
            seed: 1,
        }
    }
}

/// One hour (or `duration`) of traffic through one breaker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakerRun {
    /// Whether business answers counted as failures.
    pub bug: bool,
    /// The breaker's window, µs (a time window).
    pub window: Micros,
    /// Its `min_calls`.
    pub min_calls: u32,
    /// Calls the producers wanted to make.
    pub calls_offered: u64,
    /// Calls the breaker let through.
    pub calls_made: u64,
    /// Calls refused because the circuit was not closed (orders left pending confirmation).
    pub rejected: u64,
    /// Calls made that the breaker recorded as failures.
    pub counted_as_failures: u64,
    /// Closed -> open transitions: since inventory is healthy, all false.
    pub openings: u32,
    /// Half open -> open transitions (a probe failed).
    pub reopenings: u32,
    /// Total time not closed, µs.
    pub time_not_closed: Micros,
    /// Every change of state, in order (the breaker-state series).
    pub transitions: Vec<Transition>,
    /// The gauge per second (0 closed, 1 half open, 2 open; the highest seen in that second).
    pub gauge_per_second: Vec<u8>,
    /// The alert rule on this series.
    pub alert: AlertReport,
}

impl BreakerRun {
    /// Openings per hour of simulated time.
    pub fn openings_per_hour(&self, duration: Micros) -> f64 {
        f64::from(self.openings) * 3_600.0 * SECOND as f64 / duration as f64
    }

    /// Share of the time not closed.
    pub fn not_closed_share(&self, duration: Micros) -> f64 {
        self.time_not_closed as f64 / duration as f64
    }
}

/// One cell of the `min_calls` comparison (bug fixed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MinCallsRun {
    /// Window length, µs.
    pub window: Micros,
    /// `min_calls`.
    pub min_calls: u32,
    /// Results the window holds at a steady rate: calls per second x window.
    pub results_in_window: f64,
    /// False openings in the run.
    pub openings: u32,
    /// The same, per hour.
    pub openings_per_hour: f64,
    /// Share of the time not closed.
    pub not_closed_share: f64,
    /// Whether the alert fired.
    pub alert_fired: bool,
}

/// What a run of exercise 2 produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakersRun {
    /// The breaker as configured, with the bug switch as set.
    pub current: BreakerRun,
    /// The same breaker, same traffic, with the other setting of the bug switch.
    pub other: BreakerRun,
    /// Bug fixed: `min_calls_compared` x {the breaker's window, `short_window`}.
    pub min_calls: Vec<MinCallsRun>,
    /// Blips that happened in the traffic.
    pub blips: u32,
    /// Simulated time, µs.
    pub duration: Micros,
}

impl BusinessErrors {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.breaker.validate()?;
        if !matches!(self.breaker.window, Window::Time(_)) {
            return Err(ParamError::new("window", "a time window", "a count window"));
        }
        ParamError::check_u64("calls_per_sec", self.calls_per_sec.into(), 1, 10_000, "/s")?;
        ParamError::check_micros("call_duration", self.call_duration, 1, 10 * SECOND)?;
        ParamError::check_f64("out_of_stock", self.out_of_stock, 0.0, 1.0, "")?;
        ParamError::check_f64("background", self.noise.background, 0.0, 0.5, "")?;
        ParamError::check_f64(
            "blips_per_hour",
            self.noise.blips_per_hour,
            0.0,
            3_600.0,
            "",
        )?;
        ParamError::check_micros("blip_length", self.noise.blip_length, 0, 60 * SECOND)?;
        ParamError::check_micros("short_window", self.short_window, MS, 3_600 * SECOND)?;
        for m in self.min_calls_compared {
            ParamError::check_u64("min_calls_compared", m.into(), 1, 100_000, "")?;
        }
        ParamError::check_micros("duration", self.duration, SECOND, 86_400 * SECOND)?;
        // Each run keeps every call's draw: bound the calls, not just each factor.
        let calls = u64::from(self.calls_per_sec).saturating_mul(self.duration / SECOND);
        ParamError::check_u64("calls_per_sec x duration", calls, 1, MAX_CALLS, "calls")?;
        self.alert.validate()
    }

    /// The blips: `(start, end)` in time order.
    fn blips(&self, rng: &mut ChaCha8Rng) -> Vec<(Micros, Micros)> {
        let mut blips = Vec::new();
        if self.noise.blips_per_hour <= 0.0 || self.noise.blip_length == 0 {
            return blips;
        }
        let per_us = self.noise.blips_per_hour / (3_600.0 * SECOND as f64);
        let Ok(gap) = Exp::new(per_us) else {
            return blips;
        };
        let mut t = 0.0f64;
        loop {
            t += gap.sample(rng);
            if t >= self.duration as f64 {
                break;
            }
            let start = t as Micros;
            blips.push((start, start + self.noise.blip_length));
        }
        blips
    }

    /// The traffic: for each offered call, in order, whether it fails transiently and whether
    /// it is a business "no". Drawn once, so every breaker sees the same calls.
    fn traffic(&self) -> (Vec<(bool, bool)>, u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let blips = self.blips(&mut rng);
        let interval = SECOND / u64::from(self.calls_per_sec);
        let n = self.duration / interval;
        let mut next_blip = 0;
        let mut calls = Vec::with_capacity(usize::try_from(n).unwrap_or(0));
        for i in 0..n {
            let t = i * interval;
            while next_blip < blips.len() && blips[next_blip].1 <= t {
                next_blip += 1;
            }
            let in_blip = blips.get(next_blip).is_some_and(|&(s, _)| s <= t);
            // Draw both every time, so the stream does not depend on the outcome.
            let noisy = rng.gen_bool(self.noise.background);
            let no = rng.gen_bool(self.out_of_stock);
            let transient = in_blip || noisy;
            calls.push((transient, !transient && no));
        }
        (calls, u32::try_from(blips.len()).unwrap_or(u32::MAX))
    }

    /// Drives `breaker` with `traffic`, counting business answers as failures when `bug`.
    fn simulate(
        &self,
        breaker: BreakerConfig,
        bug: bool,
        traffic: &[(bool, bool)],
    ) -> Result<BreakerRun, ParamError> {
        let window = match breaker.window {
            Window::Time(w) => w,
            Window::Count(_) => 0,
        };
        let min_calls = breaker.min_calls;
        let mut cb = CircuitBreaker::new(breaker)?;
        let interval = SECOND / u64::from(self.calls_per_sec);
        let seconds = usize::try_from(self.duration.div_ceil(SECOND)).unwrap_or(0);
        let mut gauge_per_second = vec![0u8; seconds];
        let mut in_flight: VecDeque<(Micros, Admission, CallResult)> = VecDeque::new();
        let (mut made, mut rejected, mut failures) = (0u64, 0u64, 0u64);
        let mut note = |cb: &CircuitBreaker, at: Micros| {
            if let Some(g) = gauge_per_second.get_mut(usize::try_from(at / SECOND).unwrap_or(0)) {
                *g = (*g).max(cb.state().gauge());
            }
        };
        let record = |cb: &mut CircuitBreaker,
                      in_flight: &mut VecDeque<(Micros, Admission, CallResult)>,
                      until: Micros,
                      note: &mut dyn FnMut(&CircuitBreaker, Micros)| {
            while let Some(&(at, admission, result)) = in_flight.front() {
                if at > until {
                    break;
                }
                in_flight.pop_front();
                cb.record(at, admission, result, self.call_duration);
                note(cb, at);
            }
        };
        for (i, &(transient, no)) in traffic.iter().enumerate() {
            let t = i as Micros * interval;
            record(&mut cb, &mut in_flight, t, &mut note);
            let Ok(admission) = cb.try_acquire(t) else {
                rejected += 1;
                note(&cb, t);
                continue;
            };
            note(&cb, t);
            made += 1;
            let result = if transient || (bug && no) {
                failures += 1;
                CallResult::Failure
            } else if no {
                CallResult::BusinessError
            } else {
                CallResult::Success
            };
            in_flight.push_back((t + self.call_duration, admission, result));
        }
        record(&mut cb, &mut in_flight, Micros::MAX, &mut note);
        let end = self.duration;
        let transitions = cb.drain_transitions();
        let openings = count(&transitions, |t| {
            t.from == BreakerState::Closed && t.to == BreakerState::Open
        });
        let reopenings = count(&transitions, |t| {
            matches!(
                t.reason,
                TransitionReason::ProbeFailed | TransitionReason::LateFailure
            )
        });
        let time_not_closed = not_closed_spans(&transitions, end)
            .iter()
            .map(|&(s, e)| e.min(end).saturating_sub(s))
            .sum();
        Ok(BreakerRun {
            bug,
            window,
            min_calls,
            calls_offered: traffic.len() as u64,
            calls_made: made,
            rejected,
            counted_as_failures: failures,
            openings,
            reopenings,
            time_not_closed,
            alert: self.alert.evaluate(&transitions, end),
            transitions,
            gauge_per_second,
        })
    }
}

fn count(transitions: &[Transition], f: impl Fn(&Transition) -> bool) -> u32 {
    u32::try_from(transitions.iter().filter(|t| f(t)).count()).unwrap_or(u32::MAX)
}

impl Exercise for BusinessErrors {
    type Run = BreakersRun;

    fn id(&self) -> &'static str {
        "breaker-business-errors"
    }

    fn title(&self) -> &'static str {
        "A circuit breaker that mistakes \"out of stock\" for an outage"
    }

    fn question(&self) -> String {
        let b = &self.breaker;
        let window = match b.window {
            Window::Time(w) => fmt_ms(w),
            Window::Count(n) => format!("{n} calls"),
        };
        let [m_low, m_high] = self.min_calls_compared;
        format!(
            "A winery runs a promotion and {oos:.0}% of stock reservations come back \"out of \
             stock\". Soon the inventory circuit breaker in orders is open and every order, from \
             every producer, waits as \"pending confirmation\", yet inventory is perfectly \
             healthy. The breaker opens when at least {ratio:.0}% of the calls in its {window} \
             window failed, once the window holds at least {min} calls; it then stays open for \
             {cool} before letting {probes} probe calls through. Orders calls inventory {rate} \
             times a second; apart from the business answers, inventory has a little noise: \
             {bg:.1}% of calls fail at random, and about {blips:.0} times an hour every call \
             fails for {blip} (lost packets, a replica restarting).\n\
             (a) What is wrong in the client? With that bug, what share of the calls does the \
             breaker count as failures, and what share of the hour is the circuit not closed?\n\
             (b) Fixing the bug, someone proposes min_calls = {m_low} instead of {m_high} \"to \
             react faster\". How many false openings per hour do you expect with {m_low}, with \
             the {window} window? And if the window were {short} long, with {m_low}, and with \
             {m_high}?\n\
             (c) Write an alert that pages when the circuit stays open for long, but keeps quiet \
             about short, harmless openings.",
            oos = self.out_of_stock * 100.0,
            ratio = b.failure_ratio * 100.0,
            min = b.min_calls,
            cool = fmt_ms(b.cooldown),
            probes = b.half_open_probes,
            rate = self.calls_per_sec,
            bg = self.noise.background * 100.0,
            blips = self.noise.blips_per_hour,
            blip = fmt_ms(self.noise.blip_length),
            short = fmt_ms(self.short_window),
        )
    }

    fn run(&self) -> Result<BreakersRun, ParamError> {
        self.validate()?;
        let (traffic, blips) = self.traffic();
        let current = self.simulate(self.breaker.clone(), self.bug, &traffic)?;
        let other = self.simulate(self.breaker.clone(), !self.bug, &traffic)?;
        let lesson_window = match self.breaker.window {
            Window::Time(w) => w,
            Window::Count(_) => 0,
        };
        let mut min_calls = Vec::new();
        for window in [lesson_window, self.short_window] {
            for m in self.min_calls_compared {
                let config = BreakerConfig {
                    window: Window::Time(window),
                    min_calls: m,
                    ..self.breaker.clone()
                };
                let run = self.simulate(config, false, &traffic)?;
                min_calls.push(MinCallsRun {
                    window,
                    min_calls: m,
                    results_in_window: f64::from(self.calls_per_sec) * window as f64
                        / SECOND as f64,
                    openings: run.openings,
                    openings_per_hour: run.openings_per_hour(self.duration),
                    not_closed_share: run.not_closed_share(self.duration),
                    alert_fired: run.alert.fired(),
                });
            }
        }
        Ok(BreakersRun {
            current,
            other,
            min_calls,
            blips,
            duration: self.duration,
        })
    }

    fn parts_for(&self, run: &BreakersRun) -> Vec<Part> {
        let buggy = if run.current.bug {
            &run.current
        } else {
            &run.other
        };
        let failure_share = buggy.counted_as_failures as f64 / buggy.calls_made.max(1) as f64;
        let [m_low, m_high] = self.min_calls_compared;
        let per_hour = |window: Micros, m: u32| {
            run.min_calls
                .iter()
                .find(|c| c.window == window && c.min_calls == m)
                .map(|c| c.openings_per_hour)
                .unwrap_or(0.0)
        };
        let lesson_window = run.min_calls.first().map(|c| c.window).unwrap_or(0);
        let lesson_low = per_hour(lesson_window, m_low);
        let short_low = per_hour(self.short_window, m_low);
        let short_high = per_hour(self.short_window, m_high);
        let lesson_reading = format!(
            "Right by the lesson's reading: with only the last {m_low} calls or so \
                         deciding, every blip opens the circuit (this page measures that reading \
                         with the {} window of part b2). With the full {} window the simulator \
                         counts far fewer: a blip fails only a small share of it.",
            fmt_ms(self.short_window),
            fmt_ms(lesson_window)
        );
        vec![
            Part::open("a1", "What is wrong in the client?".to_string()),
            Part::numeric(
                "a2",
                "With the bug, the share of calls made that the breaker counts as failures, in %?"
                    .to_string(),
                Answer::two_sided(
                    failure_share * 100.0,
                    Tolerance::Absolute(4.0),
                    "%",
                    "With the bug every \"out of stock\" answer is a failure in the breaker's \
                     eyes, on top of the genuine noise.",
                    "Most answers that are not \"out of stock\" are plain successes; only the \
                     noise adds failures to the business answers.",
                ),
            ),
            Part::numeric(
                "a3",
                "With the bug, the share of the hour the circuit is not closed, in %?".to_string(),
                Answer::two_sided(
                    buggy.not_closed_share(self.duration) * 100.0,
                    Tolerance::Absolute(5.0),
                    "%",
                    "To close, every probe must come back fine, and each has the same chance of \
                     meeting \"out of stock\"; once closed, a handful of calls is enough to open \
                     it again.",
                    "The circuit does close now and then: think about how long it needs, after \
                     a close, to collect enough results to open again.",
                ),
            ),
            Part::numeric(
                "b1",
                format!(
                    "Bug fixed, min_calls = {m_low}, window {}: false openings per hour?",
                    fmt_ms(lesson_window)
                ),
                Answer::two_sided(
                    lesson_low,
                    Tolerance::Absolute(1.0),
                    "openings/h",
                    "Count what a blip does to the failure ratio of a full window.",
                    "How many results does that window hold at this rate? min_calls only \
                     matters while the window holds fewer than that; compare a blip's failures \
                     with the whole window.",
                )
                .explained(&format!(
                    "Right by this page's reading: its breaker keeps a full {window} window, \
                     about {held} results, and once it is full min_calls no longer decides \
                     anything. The lesson's solution answers as if the {m_low} calls, \
                     {lesson_span} of traffic here, were all the breaker looked at, so that \
                     every blip opens the circuit; that reading is accepted too.",
                    window = fmt_ms(lesson_window),
                    lesson_span =
                        fmt_ms(u64::from(m_low) * SECOND / u64::from(self.calls_per_sec.max(1))),
                    held = u64::from(self.calls_per_sec) * lesson_window / SECOND,
                ))
                .also_accept(
                    self.noise.blips_per_hour,
                    Tolerance::Absolute((0.25 * self.noise.blips_per_hour).max(1.5)),
                    &lesson_reading,
                )
                .also_accept(
                    short_low,
                    Tolerance::Absolute((0.35 * short_low).max(1.5)),
                    &lesson_reading,
                ),
            ),
            Part::numeric(
                "b2",
                format!(
                    "Same, but with a {} window and min_calls = {m_low}: false openings per hour?",
                    fmt_ms(self.short_window)
                ),
                Answer::two_sided(
                    short_low,
                    Tolerance::Absolute((0.35 * short_low).max(1.5)),
                    "openings/h",
                    "A short window holds only a few results: compare the calls failing in one \
                     blip with the calls the window holds.",
                    "The random background noise alone almost never fails half a window; the \
                     openings come from the blips, at most one per blip.",
                )
                .wide_because(
                    "the blips come at random, so an hour has a few more or fewer of them than \
                     their average; the run measured one such hour.",
                ),
            ),
            Part::numeric(
                "b3",
                format!(
                    "And with the {} window and min_calls = {m_high}?",
                    fmt_ms(self.short_window)
                ),
                Answer::new(
                    short_high,
                    Tolerance::Absolute((0.35 * short_high).max(1.0)),
                    "openings/h",
                    "Can a window that short ever hold that many results at this rate?",
                )
                .wide_because(
                    "the blips come at random, so an hour has a few more or fewer of them than \
                     their average; the run measured one such hour.",
                ),
            ),
            Part::open(
                "c",
                "Your alert rule: what does it measure, over what span, and when does it page?"
                    .to_string(),
            ),
        ]
    }

    fn solution_for(&self, run: &BreakersRun) -> String {
        let buggy = if run.current.bug {
            &run.current
        } else {
            &run.other
        };
        let fixed = if run.current.bug {
            &run.other
        } else {
            &run.current
        };
        let d = self.duration;
        let mut table = String::new();
        for c in &run.min_calls {
            table.push_str(&format!(
                "\n  window {}, min_calls {}: {:.0} results in the window, {} false opening(s) \
                 ({:.1} per hour), alert {}",
                fmt_ms(c.window),
                c.min_calls,
                c.results_in_window,
                c.openings,
                c.openings_per_hour,
                if c.alert_fired { "fired" } else { "silent" }
            ));
        }
        let r = &self.alert;
        format!(
            "(a) The client turns the business answer (gRPC FAILED_PRECONDITION, out of stock) \
             into a failure of the dependency: either that code was put among the transient ones, \
             or every error is wrapped as transient. Only unavailable, deadline exceeded and \
             resource exhausted say the dependency is unwell; any other answer means it worked, \
             and the breaker must record it as a success. With the bug, {fs:.0}% of the calls made \
             count as failures, over the {ratio:.0}% threshold, so the circuit opens within \
             {min} calls and keeps reopening: a close needs all {probes} probes to avoid an \
             \"out of stock\", and after a close the window fills again in a fraction of a \
             second. Over {dur} it was not closed {bshare:.1}% of the time ({bopen} openings, \
             {breopen} failed probes, {brej} calls refused). Fixed, with the same traffic: \
             {fopen} openings, not closed {fshare:.2}% of the time.\n\
             (b) What min_calls guards is the moment the window holds few results. With the \
             {window} window at {rate} calls per second the window always holds hundreds of \
             results, and a {blip} blip cannot fail half of them: min_calls 5 or 20 makes no \
             difference here, except right after a start or a close (the window is emptied \
             then, and the first few calls decide alone). The danger is real when the window \
             holds few results (a short window, quiet traffic, just after a close): then a single \
             blip is half the window. This run, bug fixed, {blips} blips in {dur}:{table}\n\
             A min_calls larger than the window can ever hold switches the breaker off \
             altogether, even for a real outage. Choose it from the traffic: enough results for \
             a ratio to mean something (a few dozen), and a window long enough to collect them.\n\
             (c) Page when the circuit has been not closed (open or half open) for at least \
             {share:.0}% of the last {lookback}, and that has stayed true for {hold}, evaluated \
             every {every}. A healthy opening lasts one cool-down ({cool}) and barely moves a \
             {lookback} share; a stuck circuit fills it. Here the alert {bfired} on the buggy \
             client's series{bwhen} and stayed {ffired} on the fixed one. For a slower signal, \
             add a ticket (not a page) when rejected calls over an hour are unusually many.",
            fs = buggy.counted_as_failures as f64 / buggy.calls_made.max(1) as f64 * 100.0,
            ratio = self.breaker.failure_ratio * 100.0,
            min = self.breaker.min_calls,
            probes = self.breaker.half_open_probes,
            dur = fmt_ms(d),
            bshare = buggy.not_closed_share(d) * 100.0,
            bopen = buggy.openings,
            breopen = buggy.reopenings,
            brej = buggy.rejected,
            fopen = fixed.openings,
            fshare = fixed.not_closed_share(d) * 100.0,
            window = run
                .min_calls
                .first()
                .map(|c| fmt_ms(c.window))
                .unwrap_or_default(),
            rate = self.calls_per_sec,
            blip = fmt_ms(self.noise.blip_length),
            blips = run.blips,
            share = r.open_share * 100.0,
            lookback = fmt_ms(r.lookback),
            hold = fmt_ms(r.hold),
            every = fmt_ms(r.every),
            cool = fmt_ms(self.breaker.cooldown),
            bfired = if buggy.alert.fired() {
                "fired"
            } else {
                "did not fire"
            },
            bwhen = buggy
                .alert
                .first_fired_at
                .map(|t| format!(" (first at {})", fmt_ms(t)))
                .unwrap_or_default(),
            ffired = if fixed.alert.fired() {
                "firing"
            } else {
                "silent"
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::check_part;

    fn ex() -> BusinessErrors {
        BusinessErrors::default()
    }

    fn transition(at: Micros, from: BreakerState, to: BreakerState) -> Transition {
        Transition {
            at,
            from,
            to,
            reason: TransitionReason::CooldownElapsed,
        }
    }

    /// Opens for `open` every `period`, starting at `period`, until `end`.
    fn brief_openings(open: Micros, period: Micros, end: Micros) -> Vec<Transition> {
        use BreakerState::*;
        let mut ts = Vec::new();
        let mut t = period;
        while t + open < end {
            ts.push(transition(t, Closed, Open));
            ts.push(transition(t + open, Open, HalfOpen));
            ts.push(transition(t + open + 50 * MS, HalfOpen, Closed));
            t += period;
        }
        ts
    }

    #[test]
    fn alert_fires_on_a_stuck_circuit() {
        use BreakerState::*;
        let rule = AlertRule::default();
        let hour = 3_600 * SECOND;
        let stuck = vec![transition(600 * SECOND, Closed, Open)];
        let report = rule.evaluate(&stuck, hour);
        // Open from 10 min: 70% of 5 min is reached at 13.5 min, then held 2 min.
        assert_eq!(report.first_fired_at, Some(930 * SECOND));
        assert!(report.fired());
        assert_eq!(report.samples.len(), 240);
        assert!(report.samples.last().unwrap().firing);
        // Flapping with short closes in between is still stuck.
        let mut flapping = Vec::new();
        for k in 0..300 {
            let t = k * 12 * SECOND;
            flapping.push(transition(t + SECOND, Closed, Open));
            flapping.push(transition(t + 11 * SECOND, Open, HalfOpen));
            flapping.push(transition(t + 12 * SECOND - 100 * MS, HalfOpen, Closed));
        }
        assert!(rule.evaluate(&flapping, hour).fired());
    }

    #[test]
    fn alert_is_silent_on_brief_openings() {
        let rule = AlertRule::default();
        let hour = 3_600 * SECOND;
        // A 10 s opening every 5 minutes: healthy breakers doing their job.
        let report = rule.evaluate(&brief_openings(10 * SECOND, 300 * SECOND, hour), hour);
        assert!(!report.fired());
        let max = report
            .samples
            .iter()
            .map(|s| s.not_closed_share)
            .fold(0.0, f64::max);
        assert!(max < 0.1, "{max}");
        // Even a two-minute opening is not paged: it never holds for two minutes at 70%.
        let long_blip = brief_openings(120 * SECOND, 1_200 * SECOND, hour);
        assert!(!rule.evaluate(&long_blip, hour).fired());
        // Nothing at all: silent, and the share is zero.
        let quiet = rule.evaluate(&[], hour);
        assert!(!quiet.fired());
        assert!(quiet.samples.iter().all(|s| s.not_closed_share == 0.0));
    }

    #[test]
    fn the_bug_keeps_the_circuit_open_and_the_alert_fires() {
        let run = ex().run().unwrap();
        let buggy = &run.current;
        assert!(buggy.bug);
        let d = run.duration;
        let share = buggy.not_closed_share(d);
        assert!(share > 0.9, "{share}");
        let failures = buggy.counted_as_failures as f64 / buggy.calls_made as f64;
        assert!(failures > 0.55 && failures < 0.7, "{failures}");
        assert!(buggy.openings >= 1);
        assert!(buggy.rejected > buggy.calls_made);
        assert!(buggy.alert.fired());
        // The gauge series shows it open most seconds.
        let open_secs = buggy.gauge_per_second.iter().filter(|&&g| g == 2).count();
        assert!(open_secs > 3_000, "{open_secs}");
        // The fixed client, same traffic: not closed for at most a sliver, alert silent.
        let fixed = &run.other;
        assert!(!fixed.bug);
        assert!(fixed.not_closed_share(d) < 0.05);
        assert!(!fixed.alert.fired());
        assert_eq!(fixed.calls_offered, buggy.calls_offered);
        assert_eq!(fixed.calls_offered, 360_000);
    }

    #[test]
    fn min_calls_matters_only_when_the_window_holds_few_results() {
        let run = ex().run().unwrap();
        assert!(run.blips > 0);
        let cell = |w: Micros, m: u32| {
            run.min_calls
                .iter()
                .find(|c| c.window == w && c.min_calls == m)
                .unwrap()
                .clone()
        };
        // The lesson's 10 s window at 100 calls/s holds about 1,000 results: no blip opens it.
        let long5 = cell(10 * SECOND, 5);
        let long20 = cell(10 * SECOND, 20);
        assert_eq!(long5.results_in_window, 1_000.0);
        assert_eq!(long5.openings, 0);
        assert_eq!(long20.openings, 0);
        // A 100 ms window holds about 10: with min_calls 5 a 50 ms blip fails half of it.
        let short5 = cell(100 * MS, 5);
        let short20 = cell(100 * MS, 20);
        assert!(short5.openings >= run.blips / 2, "{short5:?}");
        assert!(short5.openings <= run.blips, "{short5:?}");
        // With 20 it can never open at all: the window never holds 20 results.
        assert_eq!(short20.openings, 0);
        // Brief openings: the alert stays silent.
        assert!(!short5.alert_fired);
    }

    #[test]
    fn deterministic_with_a_seed_and_fast() {
        let start = std::time::Instant::now();
        let a = ex().run().unwrap();
        let elapsed = start.elapsed();
        // Six runs of an hour at 100 calls/s (2.16 million calls); printed for the record.
        eprintln!("exercise 2 run (6 x 1 h of virtual time): {elapsed:?}");
        let b = ex().run().unwrap();
        assert_eq!(a, b);
        let c = BusinessErrors { seed: 5, ..ex() }.run().unwrap();
        assert_ne!(a.current.transitions, c.current.transitions);
    }

    #[test]
    fn right_answers_pass_and_wrong_ones_get_a_hint() {
        let e = ex();
        let parts = e.parts().unwrap();
        let expected = |id: &str| {
            parts
                .iter()
                .find(|p| p.id == id)
                .unwrap()
                .answer
                .as_ref()
                .unwrap()
                .expected
        };
        let v = |part: &str, x: f64| check_part(&parts, part, x).unwrap();
        assert!(v("a2", 60.0).correct);
        assert!(v("a3", expected("a3").round()).correct);
        assert!(v("b1", 0.0).correct);
        // The lesson's reading, every blip opening the circuit, is right too, with a note.
        let lesson = v("b1", 12.0);
        assert!(lesson.correct && lesson.note.unwrap().contains("lesson's reading"));
        assert!(v("b2", expected("b2").round()).correct);
        assert!(v("b3", 0.0).correct);
        for (part, wrong) in [
            ("a2", 0.5),
            ("a2", 100.0),
            ("a3", 20.0),
            ("b1", 30.0),
            ("b2", 0.0),
            ("b2", 200.0),
            ("b3", 12.0),
        ] {
            let verdict = v(part, wrong);
            assert!(!verdict.correct, "{part} {wrong}");
            assert!(!verdict.hint.unwrap().is_empty());
        }
        assert_eq!(check_part(&parts, "a1", 1.0), None);
        assert_eq!(check_part(&parts, "c", 1.0), None);
    }

    #[test]
    fn overlapping_calls_keep_the_circuit_half_open() {
        // Calls of 40 ms at 100/s overlap: after the first false opening the circuit never
        // closes again, since a new probe takes each slot a returning one frees.
        let e = BusinessErrors {
            bug: false,
            call_duration: 40 * MS,
            breaker: BreakerConfig {
                window: Window::Time(100 * MS),
                min_calls: 5,
                ..BreakerConfig::lesson_000()
            },
            ..ex()
        };
        let run = e.run().unwrap().current;
        assert_eq!(run.openings, 1);
        assert!(!run.transitions.iter().any(|t| t.to == BreakerState::Closed));
        assert!(run.not_closed_share(e.duration) > 0.5);
        // With 5 ms calls the same breaker closes after every opening.
        let short = BusinessErrors {
            call_duration: 5 * MS,
            ..e
        };
        let run = short.run().unwrap().current;
        assert!(run.openings > 1);
        let closes = count(&run.transitions, |t| t.to == BreakerState::Closed);
        assert!(closes + 1 >= run.openings);
    }

    #[test]
    fn switching_the_bug_swaps_current_and_other() {
        let on = ex().run().unwrap();
        let off = BusinessErrors { bug: false, ..ex() }.run().unwrap();
        assert_eq!(on.current, off.other);
        assert_eq!(on.other, off.current);
    }

    #[test]
    fn texts_and_serialisation() {
        let e = ex();
        assert!(e.question().contains("60% of stock reservations"));
        let run = e.run().unwrap();
        let s = e.solution_for(&run);
        assert!(
            s.contains("FAILED_PRECONDITION") && s.contains("fired"),
            "{s}"
        );
        let json = serde_json::to_string(&run).unwrap();
        let back: BreakersRun = serde_json::from_str(&json).unwrap();
        // (serde_json may read the last digit of a float differently; compare the rest.)
        assert_eq!(back.current.transitions, run.current.transitions);
        assert_eq!(back.current.gauge_per_second, run.current.gauge_per_second);
        assert_eq!(
            back.other.alert.first_fired_at,
            run.other.alert.first_fired_at
        );
        assert_eq!(back.min_calls.len(), run.min_calls.len());
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = BusinessErrors {
            calls_per_sec: 0,
            ..ex()
        };
        assert_eq!(bad.run().unwrap_err().field, "calls_per_sec");
        let bad = BusinessErrors {
            alert: AlertRule {
                every: 0,
                ..AlertRule::default()
            },
            ..ex()
        };
        assert_eq!(bad.run().unwrap_err().field, "every");
        let huge = BusinessErrors {
            calls_per_sec: 10_000,
            duration: 86_400 * SECOND,
            ..ex()
        };
        assert_eq!(huge.run().unwrap_err().field, "calls_per_sec x duration");
    }
}
