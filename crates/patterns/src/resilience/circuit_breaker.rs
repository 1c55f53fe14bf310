//! The circuit breaker: a switch that, once a dependency fails often enough, stops calling it
//! for a cool-down, then lets a few probe calls through to see whether it has recovered.
//!
//! The mechanics follow lesson 000's `CircuitBreaker` class:
//!
//! * Every result is kept with the instant it was recorded. Before deciding, entries older than
//!   the window are dropped (an entry goes once `now - its instant > window`, strictly).
//! * In CLOSED, after a result is recorded, the circuit opens when the window holds at least
//!   `min_calls` results and the failure ratio is at least `failure_ratio`.
//! * OPEN rejects while less than `cooldown` has passed since it opened; the first call after
//!   that moves it to HALF_OPEN with no probe in flight, and becomes its first probe.
//! * HALF_OPEN lets up to `half_open_probes` calls be in flight at once and rejects the rest.
//!   A failure reopens the circuit (a new cool-down from that result's instant); a successful
//!   probe lowers the count in flight and, when it reaches zero, the window is emptied and the
//!   circuit closes. Results arriving in HALF_OPEN never enter the window.
//! * Results arriving in OPEN (calls admitted before it opened) enter the window, with no
//!   transition.
//! * Only failures of the dependency count as failures: transient errors and timeouts. A
//!   business "no" (out of stock, not found...) is a correct answer: it counts as a success.
//!
//! On top of that, from Resilience4j: a count-based window, a slow-call rate, the modes
//! disabled / forced open / metrics only, and its half-open rule as an option
//! ([`HalfOpenRule::RateOverPermitted`]): a fixed number of trial calls per half-open period,
//! judged together once all of them have answered.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};

use super::{CallError, Micros, ParamError, SECOND};

/// Which results the failure ratio is computed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Window {
    /// The results of the last `Micros` (1 ms..=3600 s; lesson 000: 10 s).
    Time(Micros),
    /// The last `n` results (1..=100_000; Resilience4j in lesson 004: 20).
    Count(u32),
}

/// How much of the breaker is switched on (the operating modes Resilience4j offers).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mode {
    /// The state machine as described in the module documentation.
    Normal,
    /// Admits every call and records nothing: as if there were no breaker.
    Disabled,
    /// Rejects every call, whatever the results.
    ForcedOpen,
    /// Records results and computes ratios for display, but never rejects or changes state.
    MetricsOnly,
}

/// How a half-open breaker decides between closing and reopening.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum HalfOpenRule {
    /// Lesson 000's class: up to `half_open_probes` probes in flight at once (a finished probe
    /// frees its slot); the first failure reopens; when every probe in flight has succeeded the
    /// circuit closes.
    #[default]
    FirstFailureReopens,
    /// Resilience4j's `HalfOpenState`: exactly `half_open_probes` calls are admitted in one
    /// half-open period (a finished call does not free a slot); nothing is decided until all of
    /// their results are in; then a failure ratio (or slow-call ratio) at or over the threshold
    /// reopens, anything else closes.
    RateOverPermitted,
}

impl HalfOpenRule {
    /// True for lesson 000's rule, which configs leave out of their JSON.
    pub fn is_default(&self) -> bool {
        *self == HalfOpenRule::FirstFailureReopens
    }
}

/// A breaker's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakerConfig {
    /// The results the ratios are computed over.
    pub window: Window,
    /// Results needed in the window before the circuit may open (1..=100_000).
    pub min_calls: u32,
    /// Failure ratio at or above which it opens (greater than 0, at most 1).
    pub failure_ratio: f64,
    /// How long it stays open before probing (1 ms..=3600 s).
    pub cooldown: Micros,
    /// Probe calls allowed in flight at once while half open (1..=1000).
    pub half_open_probes: u32,
    /// A call slower than this (strictly) is slow; `None` turns the slow-call rule off
    /// (1 µs..=3600 s).
    pub slow_call_threshold: Option<Micros>,
    /// Slow ratio at or above which it opens (greater than 0, at most 1); only used with a
    /// threshold.
    pub slow_call_rate: f64,
    /// Which parts are switched on.
    pub mode: Mode,
    /// How half open decides; lesson 000's rule unless a config says otherwise.
    #[serde(default, skip_serializing_if = "HalfOpenRule::is_default")]
    pub half_open_rule: HalfOpenRule,
    /// Closed, the thresholds are judged after a failure only (Polly's rule), not after every
    /// result (lesson 000's and Resilience4j's).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub judged_after_failures_only: bool,
}

impl BreakerConfig {
    /// Lesson 000's `cascade.py`: 10 s window, 20 calls, 50%, cool-down 2 s, 3 probes.
    pub fn cascade_sim() -> Self {
        BreakerConfig {
            cooldown: 2 * SECOND,
            ..Self::lesson_000()
        }
    }

    /// Lesson 000's `resilience.py` defaults and summary table: 50% failures over at least 20
    /// calls in 10 s, cool-down 10 s, 3 probes.
    pub fn lesson_000() -> Self {
        BreakerConfig {
            window: Window::Time(10 * SECOND),
            min_calls: 20,
            failure_ratio: 0.5,
            cooldown: 10 * SECOND,
            half_open_probes: 3,
            slow_call_threshold: None,
            slow_call_rate: 1.0,
            mode: Mode::Normal,
            half_open_rule: HalfOpenRule::FirstFailureReopens,
            judged_after_failures_only: false,
        }
    }

    /// Lesson 004 (Northwind, Resilience4j): a window of the last 20 calls, 50% failures, 30 s
    /// open, 5 calls in half open.
    ///
    /// The lesson sets no minimum number of calls; 20 is the window's size (what Resilience4j
    /// uses when a count window's minimum is set larger than the window). It sets no slow-call
    /// values either, so the slow-call rule stays off (Resilience4j's defaults, 60 s at 100%,
    /// could never fire behind its 2 s time limiter). Half open follows lesson 000's rule (one
    /// failure reopens), not Resilience4j's (the rate over all permitted calls).
    pub fn northwind() -> Self {
        BreakerConfig {
            window: Window::Count(20),
            min_calls: 20,
            failure_ratio: 0.5,
            cooldown: 30 * SECOND,
            half_open_probes: 5,
            slow_call_threshold: None,
            slow_call_rate: 1.0,
            mode: Mode::Normal,
            half_open_rule: HalfOpenRule::FirstFailureReopens,
            judged_after_failures_only: false,
        }
    }

    /// The ranges `validate` accepts, which the parameter rows offer too.
    pub const WINDOW_SPAN: (Micros, Micros) = (1_000, 3_600 * SECOND);
    /// A window counted in calls.
    pub const WINDOW_CALLS: (u64, u64) = (1, 100_000);
    /// `min_calls`.
    pub const MIN_CALLS: (u64, u64) = (1, 100_000);
    /// `cooldown`.
    pub const COOLDOWN: (Micros, Micros) = (1_000, 3_600 * SECOND);
    /// `half_open_probes`.
    pub const PROBES: (u64, u64) = (1, 1_000);
    /// `failure_ratio` and `slow_call_rate`, the low end excluded.
    pub const RATIO: (f64, f64) = (0.0, 1.0);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        match self.window {
            Window::Time(w) => {
                ParamError::check_micros("window", w, Self::WINDOW_SPAN.0, Self::WINDOW_SPAN.1)?
            }
            Window::Count(n) => ParamError::check_u64(
                "window",
                n.into(),
                Self::WINDOW_CALLS.0,
                Self::WINDOW_CALLS.1,
                "calls",
            )?,
        }
        let (min, max) = Self::MIN_CALLS;
        ParamError::check_u64("min_calls", self.min_calls.into(), min, max, "")?;
        check_ratio("failure_ratio", self.failure_ratio)?;
        let (min, max) = Self::COOLDOWN;
        ParamError::check_micros("cooldown", self.cooldown, min, max)?;
        ParamError::check_u64(
            "half_open_probes",
            self.half_open_probes.into(),
            Self::PROBES.0,
            Self::PROBES.1,
            "",
        )?;
        if let Some(t) = self.slow_call_threshold {
            ParamError::check_micros("slow_call_threshold", t, 1, 3_600 * SECOND)?;
        }
        check_ratio("slow_call_rate", self.slow_call_rate)?;
        Ok(())
    }
}

impl Default for BreakerConfig {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// A ratio in [`BreakerConfig::RATIO`], its low end excluded.
fn check_ratio(field: &'static str, value: f64) -> Result<(), ParamError> {
    let (low, high) = BreakerConfig::RATIO;
    if value.is_finite() && value > low && value <= high {
        Ok(())
    } else {
        Err(ParamError::new(
            field,
            format!("{low} (exclusive)..={high}"),
            value.to_string(),
        ))
    }
}

/// The three states of the diagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BreakerState {
    /// Calls pass; results are counted.
    Closed,
    /// Calls fail at once, without touching the dependency.
    Open,
    /// A few probe calls pass; the rest fail at once.
    HalfOpen,
}

impl BreakerState {
    /// The lesson's gauge value (`km0_circuit_state`): 0 closed, 1 half open, 2 open.
    pub fn gauge(self) -> u8 {
        match self {
            BreakerState::Closed => 0,
            BreakerState::HalfOpen => 1,
            BreakerState::Open => 2,
        }
    }
}

/// Why the breaker changed state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TransitionReason {
    /// Closed -> Open: the window's failure ratio reached the threshold.
    FailureRatio {
        /// Failures in the window.
        failures: u32,
        /// Results in the window.
        calls: u32,
    },
    /// Closed -> Open: the window's slow-call ratio reached the slow-call rate.
    SlowCallRate {
        /// Slow calls in the window.
        slow: u32,
        /// Results in the window.
        calls: u32,
    },
    /// Open -> HalfOpen: the cool-down passed and a call arrived.
    CooldownElapsed,
    /// HalfOpen -> Open: a probe failed.
    ProbeFailed,
    /// HalfOpen -> Open: a call admitted before the circuit opened failed while it was half open.
    LateFailure,
    /// HalfOpen -> Closed: every probe in flight succeeded.
    ProbesSucceeded,
    /// HalfOpen -> Open or Closed under [`HalfOpenRule::RateOverPermitted`]: every permitted
    /// trial call has answered, and this is how many of them failed (or were slow).
    TrialsJudged {
        /// Trial calls that failed.
        failures: u32,
        /// Trial calls that were slow.
        slow: u32,
        /// Trial calls judged (the number permitted).
        calls: u32,
    },
}

/// One change of state, for the timeline and the log.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transition {
    /// When it happened.
    pub at: Micros,
    /// State before.
    pub from: BreakerState,
    /// State after.
    pub to: BreakerState,
    /// Why.
    pub reason: TransitionReason,
}

/// Permission to make one call; hand it back to [`CircuitBreaker::record`] with the result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Admission {
    /// An ordinary call (closed, or a mode that does not probe).
    Call,
    /// A half-open probe; `epoch` tells which half-open period it belongs to.
    Probe {
        /// Counts the half-open periods; a probe from an earlier one is treated as a late call.
        epoch: u32,
    },
}

impl Admission {
    /// True for a half-open probe.
    pub fn is_probe(&self) -> bool {
        matches!(self, Admission::Probe { .. })
    }
}

/// The call was refused without being made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("circuit open; retry in {retry_in} µs")]
pub struct CircuitOpen {
    /// Cool-down left when open; 1 s when half open with every probe slot taken (as the lesson
    /// answers); the cool-down when forced open.
    pub retry_in: Micros,
}

/// How a call went, as far as the dependency's health is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CallResult {
    /// It answered.
    Success,
    /// It failed in a way that says it is unwell: a transient error or a timeout.
    Failure,
    /// It answered "no" (out of stock, not found...): counted as a success of the dependency.
    BusinessError,
}

impl CallResult {
    /// Classifies an error: transient ones are failures, the rest are business answers.
    pub fn from_error(err: CallError) -> Self {
        if err.is_transient() {
            CallResult::Failure
        } else {
            CallResult::BusinessError
        }
    }
}

/// What a state diagram needs to draw the breaker at one instant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BreakerSnapshot {
    /// Current state.
    pub state: BreakerState,
    /// Results in the window (those too old at `now` left out).
    pub calls_in_window: u32,
    /// Failures among them.
    pub failures_in_window: u32,
    /// Slow calls among them.
    pub slow_in_window: u32,
    /// `failures / calls`, 0 for an empty window.
    pub failure_ratio: f64,
    /// The ratio that opens it.
    pub threshold: f64,
    /// Results needed before it may open.
    pub min_calls: u32,
    /// Cool-down left (0 unless open).
    pub cooldown_left: Micros,
    /// Probes in flight (half open).
    pub probes_in_flight: u32,
    /// Probes allowed at once.
    pub probes_allowed: u32,
    /// Calls rejected so far.
    pub rejections: u64,
}

/// One recorded result in the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    at: Micros,
    failure: bool,
    slow: bool,
}

/// The trial calls of one half-open period under [`HalfOpenRule::RateOverPermitted`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Trials {
    admitted: u32,
    answered: u32,
    failures: u32,
    slow: u32,
}

/// The breaker's state for one dependency.
///
/// One deliberate difference from the lesson's Python: there, any success landing in HALF_OPEN
/// lowers the probe count, even one from a call admitted while CLOSED (the count can then go
/// negative). Here only the probes of the current half-open period touch the count; a success
/// from any other call is ignored, and its failure still reopens the circuit.
#[derive(Debug, Clone)]
pub struct CircuitBreaker {
    config: BreakerConfig,
    state: BreakerState,
    open_since: Micros,
    probes_in_flight: u32,
    trials: Trials,
    epoch: u32,
    window: VecDeque<Entry>,
    failures: u32,
    slow: u32,
    rejections: u64,
    transitions: Vec<Transition>,
}

impl CircuitBreaker {
    /// A closed breaker with an empty window.
    pub fn new(config: BreakerConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(CircuitBreaker {
            config,
            state: BreakerState::Closed,
            open_since: 0,
            probes_in_flight: 0,
            trials: Trials::default(),
            epoch: 0,
            window: VecDeque::new(),
            failures: 0,
            slow: 0,
            rejections: 0,
            transitions: Vec::new(),
        })
    }

    /// The parameters it was built with.
    pub fn config(&self) -> &BreakerConfig {
        &self.config
    }

    /// Current state (an open breaker whose cool-down has passed stays open until the next call).
    pub fn state(&self) -> BreakerState {
        self.state
    }

    /// Calls rejected so far.
    pub fn rejections(&self) -> u64 {
        self.rejections
    }

    /// Every transition so far (since the last drain), oldest first.
    pub fn transitions(&self) -> &[Transition] {
        &self.transitions
    }

    /// Takes the transitions recorded so far, leaving none.
    pub fn drain_transitions(&mut self) -> Vec<Transition> {
        std::mem::take(&mut self.transitions)
    }

    /// Asks to make a call at `now`: admitted (possibly as a probe) or rejected.
    // Called for every call; the size-optimised build would not inline it on its own.
    #[inline(always)]
    pub fn try_acquire(&mut self, now: Micros) -> Result<Admission, CircuitOpen> {
        match self.config.mode {
            Mode::Disabled | Mode::MetricsOnly => return Ok(Admission::Call),
            Mode::ForcedOpen => {
                self.rejections += 1;
                return Err(CircuitOpen {
                    retry_in: self.config.cooldown,
                });
            }
            Mode::Normal => {}
        }
        if self.state == BreakerState::Open {
            let elapsed = now.saturating_sub(self.open_since);
            if elapsed < self.config.cooldown {
                self.rejections += 1;
                return Err(CircuitOpen {
                    retry_in: self.config.cooldown - elapsed,
                });
            }
            self.epoch = self.epoch.wrapping_add(1);
            self.probes_in_flight = 0;
            self.trials = Trials::default();
            self.transition(
                now,
                BreakerState::HalfOpen,
                TransitionReason::CooldownElapsed,
            );
        }
        match self.state {
            BreakerState::HalfOpen => {
                let taken = match self.config.half_open_rule {
                    HalfOpenRule::FirstFailureReopens => self.probes_in_flight,
                    HalfOpenRule::RateOverPermitted => self.trials.admitted,
                };
                if taken >= self.config.half_open_probes {
                    self.rejections += 1;
                    return Err(CircuitOpen { retry_in: SECOND });
                }
                self.probes_in_flight += 1;
                self.trials.admitted += 1;
                Ok(Admission::Probe { epoch: self.epoch })
            }
            _ => Ok(Admission::Call),
        }
    }

    /// Records how an admitted call went, at `now`, after taking `duration`.
    pub fn record(
        &mut self,
        now: Micros,
        admission: Admission,
        result: CallResult,
        duration: Micros,
    ) {
        let failure = result == CallResult::Failure;
        match self.config.mode {
            Mode::Disabled | Mode::ForcedOpen => return,
            Mode::MetricsOnly => {
                self.push(now, failure, duration);
                return;
            }
            Mode::Normal => {}
        }
        match self.state {
            BreakerState::HalfOpen
                if self.config.half_open_rule == HalfOpenRule::RateOverPermitted =>
            {
                self.judge_trial(now, admission, failure, duration)
            }
            BreakerState::HalfOpen => {
                let current_probe = admission == Admission::Probe { epoch: self.epoch };
                if failure {
                    self.open_since = now;
                    let reason = if current_probe {
                        TransitionReason::ProbeFailed
                    } else {
                        TransitionReason::LateFailure
                    };
                    self.transition(now, BreakerState::Open, reason);
                } else if current_probe {
                    self.probes_in_flight = self.probes_in_flight.saturating_sub(1);
                    if self.probes_in_flight == 0 {
                        self.clear_window();
                        self.transition(
                            now,
                            BreakerState::Closed,
                            TransitionReason::ProbesSucceeded,
                        );
                    }
                }
            }
            BreakerState::Open => self.push(now, failure, duration),
            BreakerState::Closed => {
                self.push(now, failure, duration);
                if !failure && self.config.judged_after_failures_only {
                    return;
                }
                if let Some(reason) = self.trip_reason() {
                    self.open_since = now;
                    self.transition(now, BreakerState::Open, reason);
                }
            }
        }
    }

    /// Gives back an admitted call's place without a result (Resilience4j's
    /// `releasePermission`, for an exception its ignore list names): a half-open trial slot
    /// of the current period is free again; a call admitted while closed leaves nothing to undo.
    pub fn release(&mut self, admission: Admission) {
        if self.state == BreakerState::HalfOpen
            && admission == (Admission::Probe { epoch: self.epoch })
        {
            self.probes_in_flight = self.probes_in_flight.saturating_sub(1);
            self.trials.admitted = self.trials.admitted.saturating_sub(1);
        }
    }

    /// Counts one result under [`HalfOpenRule::RateOverPermitted`] and, once every permitted
    /// trial has answered, closes or reopens. As in Resilience4j, a result is judged by the state
    /// it arrives in: one from a call admitted before the circuit opened counts as a trial result.
    fn judge_trial(&mut self, now: Micros, admission: Admission, failure: bool, duration: Micros) {
        if admission == (Admission::Probe { epoch: self.epoch }) {
            self.probes_in_flight = self.probes_in_flight.saturating_sub(1);
        }
        let slow = self
            .config
            .slow_call_threshold
            .is_some_and(|t| duration > t);
        self.trials.answered += 1;
        self.trials.failures += u32::from(failure);
        self.trials.slow += u32::from(slow);
        let t = self.trials;
        if t.answered < self.config.half_open_probes {
            return;
        }
        let reason = TransitionReason::TrialsJudged {
            failures: t.failures,
            slow: t.slow,
            calls: t.answered,
        };
        let too_slow = self.config.slow_call_threshold.is_some()
            && ratio(t.slow, t.answered) >= self.config.slow_call_rate;
        if ratio(t.failures, t.answered) >= self.config.failure_ratio || too_slow {
            self.open_since = now;
            self.transition(now, BreakerState::Open, reason);
        } else {
            self.clear_window();
            self.transition(now, BreakerState::Closed, reason);
        }
    }

    /// The breaker as a diagram shows it at `now`.
    pub fn snapshot(&self, now: Micros) -> BreakerSnapshot {
        // Leave out, without mutating, the entries a record at `now` would prune.
        let (mut calls, mut failures, mut slow) = (self.len(), self.failures, self.slow);
        if let Window::Time(w) = self.config.window {
            for e in self.window.iter() {
                if now.saturating_sub(e.at) <= w {
                    break;
                }
                calls -= 1;
                failures -= u32::from(e.failure);
                slow -= u32::from(e.slow);
            }
        }
        let cooldown_left = if self.state == BreakerState::Open {
            self.config
                .cooldown
                .saturating_sub(now.saturating_sub(self.open_since))
        } else {
            0
        };
        BreakerSnapshot {
            state: self.state,
            calls_in_window: calls,
            failures_in_window: failures,
            slow_in_window: slow,
            failure_ratio: ratio(failures, calls),
            threshold: self.config.failure_ratio,
            min_calls: self.config.min_calls,
            cooldown_left,
            probes_in_flight: self.probes_in_flight,
            probes_allowed: self.config.half_open_probes,
            rejections: self.rejections,
        }
    }

    fn len(&self) -> u32 {
        u32::try_from(self.window.len()).unwrap_or(u32::MAX)
    }

    /// Appends a result and drops whatever falls out of the window.
    fn push(&mut self, now: Micros, failure: bool, duration: Micros) {
        let slow = self
            .config
            .slow_call_threshold
            .is_some_and(|t| duration > t);
        self.window.push_back(Entry {
            at: now,
            failure,
            slow,
        });
        self.failures += u32::from(failure);
        self.slow += u32::from(slow);
        match self.config.window {
            Window::Time(w) => {
                while self
                    .window
                    .front()
                    .is_some_and(|e| now.saturating_sub(e.at) > w)
                {
                    self.pop_front();
                }
            }
            Window::Count(n) => {
                while self.window.len() > n as usize {
                    self.pop_front();
                }
            }
        }
    }

    fn pop_front(&mut self) {
        if let Some(e) = self.window.pop_front() {
            self.failures -= u32::from(e.failure);
            self.slow -= u32::from(e.slow);
        }
    }

    fn clear_window(&mut self) {
        self.window.clear();
        self.failures = 0;
        self.slow = 0;
    }

    /// Whether the window, as it stands, should open a closed circuit, and why.
    fn trip_reason(&self) -> Option<TransitionReason> {
        let calls = self.len();
        if calls < self.config.min_calls {
            return None;
        }
        if ratio(self.failures, calls) >= self.config.failure_ratio {
            return Some(TransitionReason::FailureRatio {
                failures: self.failures,
                calls,
            });
        }
        if self.config.slow_call_threshold.is_some()
            && ratio(self.slow, calls) >= self.config.slow_call_rate
        {
            return Some(TransitionReason::SlowCallRate {
                slow: self.slow,
                calls,
            });
        }
        None
    }

    fn transition(&mut self, at: Micros, to: BreakerState, reason: TransitionReason) {
        if to != self.state {
            self.transitions.push(Transition {
                at,
                from: self.state,
                to,
                reason,
            });
            self.state = to;
        }
    }
}

fn ratio(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        f64::from(part) / f64::from(whole)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use BreakerState::*;
    use CallResult::*;

    fn breaker(config: BreakerConfig) -> CircuitBreaker {
        CircuitBreaker::new(config).unwrap()
    }

    /// Admits and records one call at `now`; panics if it is rejected.
    fn call(cb: &mut CircuitBreaker, now: Micros, result: CallResult) {
        let a = cb.try_acquire(now).expect("admitted");
        cb.record(now, a, result, 0);
    }

    /// A breaker of the lesson (10 s window, 20 calls, 50%, 10 s cool-down, 3 probes) opened at
    /// t = 1 s by 20 failures.
    fn opened() -> CircuitBreaker {
        let mut cb = breaker(BreakerConfig::lesson_000());
        for _ in 0..20 {
            call(&mut cb, SECOND, Failure);
        }
        assert_eq!(cb.state(), Open);
        cb
    }

    #[test]
    fn closed_opens_at_min_calls_and_ratio() {
        let mut cb = breaker(BreakerConfig::lesson_000());
        // 19 failures: all failing, but fewer than min_calls.
        for _ in 0..19 {
            call(&mut cb, SECOND, Failure);
        }
        assert_eq!(cb.state(), Closed);
        call(&mut cb, SECOND, Failure);
        assert_eq!(cb.state(), Open);
        assert_eq!(
            cb.transitions(),
            &[Transition {
                at: SECOND,
                from: Closed,
                to: Open,
                reason: TransitionReason::FailureRatio {
                    failures: 20,
                    calls: 20
                },
            }]
        );
    }

    #[test]
    fn ratio_exactly_at_threshold_opens_and_just_under_does_not() {
        let mut cb = breaker(BreakerConfig::lesson_000());
        for i in 0..20 {
            call(&mut cb, SECOND, if i % 2 == 0 { Success } else { Failure });
            if i < 19 {
                // 10 failures of 20 arrive only at the last call.
                assert_eq!(cb.state(), Closed, "call {i}");
            }
        }
        assert_eq!(cb.state(), Open, "10/20 = 50% opens");

        let mut cb = breaker(BreakerConfig::lesson_000());
        for i in 0..21 {
            call(&mut cb, SECOND, if i < 11 { Success } else { Failure });
        }
        assert_eq!(cb.state(), Closed, "10/21 < 50% stays closed");
    }

    #[test]
    fn entries_older_than_the_window_are_pruned_strictly() {
        let mut cb = breaker(BreakerConfig::lesson_000());
        for _ in 0..19 {
            call(&mut cb, 0, Failure);
        }
        // Exactly 10 s later the old entries are still in the window: 20 calls, opens.
        let mut at_edge = cb.clone();
        call(&mut at_edge, 10 * SECOND, Failure);
        assert_eq!(at_edge.state(), Open);
        // One microsecond later they are gone: one call in the window.
        call(&mut cb, 10 * SECOND + 1, Failure);
        assert_eq!(cb.state(), Closed);
        assert_eq!(cb.snapshot(10 * SECOND + 1).calls_in_window, 1);
    }

    #[test]
    fn open_rejects_until_the_cooldown_has_passed() {
        let mut cb = opened();
        assert_eq!(
            cb.try_acquire(SECOND),
            Err(CircuitOpen {
                retry_in: 10 * SECOND
            })
        );
        assert_eq!(
            cb.try_acquire(11 * SECOND - 1),
            Err(CircuitOpen { retry_in: 1 })
        );
        assert_eq!(cb.rejections(), 2);
        assert_eq!(cb.state(), Open);
        // elapsed == cooldown: no longer rejected.
        let a = cb.try_acquire(11 * SECOND).unwrap();
        assert!(a.is_probe());
        assert_eq!(cb.state(), HalfOpen);
        let t = cb.transitions().last().unwrap();
        assert_eq!(
            (t.from, t.to, t.reason),
            (Open, HalfOpen, TransitionReason::CooldownElapsed)
        );
        assert_eq!(t.at, 11 * SECOND);
    }

    #[test]
    fn results_landing_in_open_enter_the_window_without_transition() {
        let mut cb = opened();
        let before = cb.snapshot(SECOND).calls_in_window;
        cb.record(2 * SECOND, Admission::Call, Success, 0);
        cb.record(2 * SECOND, Admission::Call, Failure, 0);
        assert_eq!(cb.state(), Open);
        assert_eq!(cb.snapshot(2 * SECOND).calls_in_window, before + 2);
        assert_eq!(cb.transitions().len(), 1);
    }

    #[test]
    fn half_open_admits_up_to_probes_and_rejects_the_rest() {
        let mut cb = opened();
        let probes: Vec<_> = (0..3)
            .map(|_| cb.try_acquire(11 * SECOND).unwrap())
            .collect();
        assert!(probes.iter().all(Admission::is_probe));
        assert_eq!(
            cb.try_acquire(11 * SECOND),
            Err(CircuitOpen { retry_in: SECOND })
        );
        assert_eq!(cb.snapshot(11 * SECOND).probes_in_flight, 3);
    }

    #[test]
    fn a_failed_probe_reopens_with_a_new_cooldown() {
        let mut cb = opened();
        let p = cb.try_acquire(11 * SECOND).unwrap();
        cb.record(11 * SECOND + 300 * MS, p, Failure, 300 * MS);
        assert_eq!(cb.state(), Open);
        let t = cb.transitions().last().unwrap();
        assert_eq!(
            (t.from, t.to, t.reason),
            (HalfOpen, Open, TransitionReason::ProbeFailed)
        );
        // The new cool-down counts from the failed probe's result.
        let s = cb.snapshot(12 * SECOND);
        assert_eq!(s.cooldown_left, 9 * SECOND + 300 * MS);
        assert!(cb.try_acquire(21 * SECOND).is_err());
        assert!(cb.try_acquire(21 * SECOND + 300 * MS).is_ok());
    }

    #[test]
    fn all_probes_succeeding_clears_the_window_and_closes() {
        let mut cb = opened();
        let probes: Vec<_> = (0..3)
            .map(|_| cb.try_acquire(11 * SECOND).unwrap())
            .collect();
        cb.record(11 * SECOND + 40 * MS, probes[0], Success, 40 * MS);
        cb.record(11 * SECOND + 41 * MS, probes[1], BusinessError, 41 * MS);
        assert_eq!(cb.state(), HalfOpen);
        // A freed slot admits another probe.
        let extra = cb.try_acquire(11 * SECOND + 42 * MS).unwrap();
        cb.record(11 * SECOND + 50 * MS, probes[2], Success, 0);
        assert_eq!(cb.state(), HalfOpen);
        cb.record(11 * SECOND + 60 * MS, extra, Success, 0);
        assert_eq!(cb.state(), Closed);
        let t = cb.transitions().last().unwrap();
        assert_eq!(
            (t.from, t.to, t.reason),
            (HalfOpen, Closed, TransitionReason::ProbesSucceeded)
        );
        assert_eq!(cb.snapshot(11 * SECOND + 60 * MS).calls_in_window, 0);
    }

    #[test]
    fn closing_forgets_the_failures_that_opened_it() {
        // A 2 s cool-down: when the probes close the circuit, the 20 failures that opened it
        // are still inside the 10 s window; closing must empty it, or one more failure reopens.
        let mut cb = breaker(BreakerConfig::cascade_sim());
        for _ in 0..20 {
            call(&mut cb, SECOND, Failure);
        }
        let p = cb.try_acquire(3 * SECOND).unwrap();
        cb.record(3 * SECOND, p, Success, 0);
        assert_eq!(cb.state(), Closed);
        assert_eq!(cb.snapshot(3 * SECOND).calls_in_window, 0);
        for _ in 0..19 {
            call(&mut cb, 3 * SECOND, Failure);
        }
        assert_eq!(cb.state(), Closed, "19 calls are under min_calls again");
    }

    #[test]
    fn results_in_half_open_do_not_enter_the_window() {
        let mut cb = opened();
        let p = cb.try_acquire(11 * SECOND).unwrap();
        let _q = cb.try_acquire(11 * SECOND).unwrap();
        let before = cb.snapshot(11 * SECOND).calls_in_window;
        cb.record(11 * SECOND, p, Success, 0);
        cb.record(11 * SECOND, Admission::Call, Success, 0);
        assert_eq!(cb.snapshot(11 * SECOND).calls_in_window, before);
    }

    #[test]
    fn a_late_success_in_half_open_leaves_the_probe_count_alone() {
        let mut cb = opened();
        let p = cb.try_acquire(11 * SECOND).unwrap();
        // A call admitted long ago (while closed) answers now, in half open.
        cb.record(11 * SECOND, Admission::Call, Success, 0);
        assert_eq!(cb.snapshot(11 * SECOND).probes_in_flight, 1);
        assert_eq!(cb.state(), HalfOpen);
        cb.record(11 * SECOND, p, Success, 0);
        assert_eq!(cb.state(), Closed);
    }

    #[test]
    fn a_late_failure_in_half_open_reopens() {
        let mut cb = opened();
        let _p = cb.try_acquire(11 * SECOND).unwrap();
        cb.record(11 * SECOND + 5, Admission::Call, Failure, 0);
        assert_eq!(cb.state(), Open);
        assert_eq!(
            cb.transitions().last().unwrap().reason,
            TransitionReason::LateFailure
        );
    }

    #[test]
    fn a_probe_from_an_earlier_half_open_period_is_not_counted() {
        let mut cb = opened();
        let old = cb.try_acquire(11 * SECOND).unwrap();
        let failing = cb.try_acquire(11 * SECOND).unwrap();
        cb.record(11 * SECOND, failing, Failure, 0);
        let fresh = cb.try_acquire(21 * SECOND).unwrap();
        // The old probe's success lands in the new half-open period: ignored.
        cb.record(21 * SECOND, old, Success, 0);
        assert_eq!(cb.state(), HalfOpen);
        assert_eq!(cb.snapshot(21 * SECOND).probes_in_flight, 1);
        cb.record(21 * SECOND, fresh, Success, 0);
        assert_eq!(cb.state(), Closed);
    }

    #[test]
    fn business_errors_are_successes_of_the_dependency() {
        assert_eq!(
            CallResult::from_error(CallError::FailedPrecondition),
            BusinessError
        );
        assert_eq!(CallResult::from_error(CallError::NotFound), BusinessError);
        assert_eq!(CallResult::from_error(CallError::Unavailable), Failure);
        assert_eq!(CallResult::from_error(CallError::DeadlineExceeded), Failure);
    }

    /// Lesson 000, exercise 2(a): a Saturday offer, 60% of reservations answer "out of stock".
    /// Classified correctly they never open the circuit; counted as failures they do, and every
    /// order ends up pending.
    #[test]
    fn sixty_percent_business_errors_open_only_when_miscounted() {
        fn run(miscount: bool) -> (BreakerState, usize) {
            let mut cb = breaker(BreakerConfig::lesson_000());
            let mut rng = ChaCha8Rng::seed_from_u64(2);
            // 100 calls/s for 60 s.
            for i in 0..6_000u64 {
                let now = i * 10 * MS;
                let Ok(a) = cb.try_acquire(now) else { continue };
                let out_of_stock = rng.gen_bool(0.6);
                let err = if out_of_stock {
                    Some(CallError::FailedPrecondition)
                } else {
                    None
                };
                let result = match err {
                    None => Success,
                    Some(_) if miscount => Failure,
                    Some(e) => CallResult::from_error(e),
                };
                cb.record(now + 40 * MS, a, result, 40 * MS);
            }
            let opens = cb.transitions().iter().filter(|t| t.to == Open).count();
            (cb.state(), opens)
        }
        assert_eq!(run(false), (Closed, 0));
        let (_, opens) = run(true);
        assert!(opens >= 1, "miscounted business errors open the circuit");
    }

    /// Count how often noise opens a breaker: 100 calls/s for an hour, each failing
    /// independently with probability `p`.
    fn openings_on_noise(config: BreakerConfig, p: f64, seed: u64) -> usize {
        let mut cb = breaker(config);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for i in 0..360_000u64 {
            let now = i * 10 * MS;
            let Ok(a) = cb.try_acquire(now) else { continue };
            let r = if rng.gen_bool(p) { Failure } else { Success };
            cb.record(now, a, r, 0);
        }
        cb.transitions().iter().filter(|t| t.to == Open).count()
    }

    /// Lesson 000, exercise 2(b): at 100 calls/s, 5 calls are 50 ms of traffic. With the
    /// decision taken over the last `min_calls` calls, 2% random failures open a breaker that
    /// needs 5 calls dozens of times an hour; one that needs 20 essentially never.
    #[test]
    fn min_calls_five_opens_on_noise() {
        let with_min = |n: u32| BreakerConfig {
            window: Window::Count(n),
            min_calls: n,
            ..BreakerConfig::lesson_000()
        };
        let five = openings_on_noise(with_min(5), 0.02, 1);
        let twenty = openings_on_noise(with_min(20), 0.02, 1);
        assert!(five >= 10, "min 5 opened {five} times");
        assert_eq!(twenty, 0, "min 20 opened {twenty} times");
    }

    /// With the lesson's 10 s window the window is full at 100 calls/s; `min_calls` matters
    /// right after it has been emptied (at start, or after closing). Three failures among the
    /// first five calls (a replica restarting) open a breaker needing 5, not one needing 20.
    #[test]
    fn min_calls_five_opens_on_a_blip_after_the_window_empties() {
        for (min, expect) in [(5, Open), (20, Closed)] {
            let mut cb = breaker(BreakerConfig {
                min_calls: min,
                ..BreakerConfig::lesson_000()
            });
            for (i, r) in [Failure, Success, Failure, Success, Failure]
                .into_iter()
                .enumerate()
            {
                call(&mut cb, i as u64 * 10 * MS, r);
            }
            assert_eq!(cb.state(), expect, "min_calls {min}");
        }
    }

    /// "Five failures in a row" as a threshold: the comparator the lesson warns against.
    struct ConsecutiveFailures {
        threshold: u32,
        run: u32,
        opened: usize,
    }

    impl ConsecutiveFailures {
        fn record(&mut self, failure: bool) {
            self.run = if failure { self.run + 1 } else { 0 };
            if self.run == self.threshold {
                self.opened += 1;
                self.run = 0;
            }
        }
    }

    /// At 100 calls/s, 15% background failures put five in a row together many times an hour;
    /// the lesson's ratio over a 10 s window with at least 20 calls never opens on them.
    #[test]
    fn consecutive_failure_threshold_opens_on_noise() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut streak = ConsecutiveFailures {
            threshold: 5,
            run: 0,
            opened: 0,
        };
        for _ in 0..360_000 {
            streak.record(rng.gen_bool(0.15));
        }
        let ratio = openings_on_noise(BreakerConfig::lesson_000(), 0.15, 5);
        assert!(
            streak.opened >= 10,
            "five in a row happened {} times",
            streak.opened
        );
        assert_eq!(ratio, 0);
    }

    #[test]
    fn slow_calls_open_by_rate() {
        let config = BreakerConfig {
            slow_call_threshold: Some(SECOND),
            slow_call_rate: 0.8,
            ..BreakerConfig::lesson_000()
        };
        let mut cb = breaker(config);
        // Exactly at the threshold is not slow.
        for _ in 0..20 {
            let a = cb.try_acquire(0).unwrap();
            cb.record(0, a, Success, SECOND);
        }
        assert_eq!(cb.state(), Closed);
        assert_eq!(cb.snapshot(0).slow_in_window, 0);
        // 80 slow of 100 (slow successes and slow failures alike, as Resilience4j counts them).
        for i in 0..80 {
            let a = cb.try_acquire(0).unwrap();
            let r = if i % 10 == 0 { Failure } else { Success };
            cb.record(0, a, r, SECOND + 1);
        }
        assert_eq!(cb.state(), Open);
        assert_eq!(
            cb.transitions()[0].reason,
            TransitionReason::SlowCallRate {
                slow: 80,
                calls: 100
            }
        );
    }

    #[test]
    fn count_window_keeps_the_last_n() {
        let mut cb = breaker(BreakerConfig::northwind());
        for _ in 0..100 {
            call(&mut cb, 0, Success);
        }
        assert_eq!(cb.snapshot(0).calls_in_window, 20);
        for _ in 0..9 {
            call(&mut cb, 3_600 * SECOND, Failure);
        }
        assert_eq!(cb.state(), Closed, "age does not matter in a count window");
        call(&mut cb, 3_600 * SECOND, Failure);
        assert_eq!(cb.state(), Open, "10 of the last 20");
        // Lesson 004: 30 s open, then 5 half-open calls.
        assert!(cb.try_acquire(3_630 * SECOND - 1).is_err());
        for _ in 0..5 {
            assert!(cb.try_acquire(3_630 * SECOND).unwrap().is_probe());
        }
        assert!(cb.try_acquire(3_630 * SECOND).is_err());
    }

    #[test]
    fn northwind_opens_after_twenty_failures() {
        // As the lesson's own test does: 20 failed calls, circuit open.
        let mut cb = breaker(BreakerConfig::northwind());
        for _ in 0..19 {
            call(&mut cb, 0, Failure);
        }
        assert_eq!(cb.state(), Closed);
        call(&mut cb, 0, Failure);
        assert_eq!(cb.state(), Open);
    }

    #[test]
    fn modes() {
        let failing = |mode| {
            let mut cb = breaker(BreakerConfig {
                mode,
                ..BreakerConfig::lesson_000()
            });
            for _ in 0..100 {
                if let Ok(a) = cb.try_acquire(0) {
                    cb.record(0, a, Failure, 0);
                }
            }
            cb
        };
        let cb = failing(Mode::Disabled);
        assert_eq!((cb.state(), cb.rejections()), (Closed, 0));
        assert_eq!(cb.snapshot(0).calls_in_window, 0);
        let cb = failing(Mode::MetricsOnly);
        assert_eq!((cb.state(), cb.rejections()), (Closed, 0));
        let s = cb.snapshot(0);
        assert_eq!(
            (s.calls_in_window, s.failures_in_window, s.failure_ratio),
            (100, 100, 1.0)
        );
        assert!(cb.transitions().is_empty());
        let cb = failing(Mode::ForcedOpen);
        assert_eq!(cb.rejections(), 100);
        assert!(cb.transitions().is_empty());
    }

    #[test]
    fn snapshot_leaves_out_expired_entries() {
        let mut cb = breaker(BreakerConfig::lesson_000());
        for i in 0..10 {
            call(&mut cb, i * SECOND, if i < 5 { Failure } else { Success });
        }
        let s = cb.snapshot(9 * SECOND);
        assert_eq!((s.calls_in_window, s.failures_in_window), (10, 5));
        assert_eq!(s.failure_ratio, 0.5);
        let s = cb.snapshot(12 * SECOND);
        assert_eq!((s.calls_in_window, s.failures_in_window), (8, 3));
        assert_eq!((s.threshold, s.min_calls, s.probes_allowed), (0.5, 20, 3));
    }

    #[test]
    fn drain_transitions_empties_the_log() {
        let mut cb = opened();
        assert_eq!(cb.drain_transitions().len(), 1);
        assert!(cb.transitions().is_empty());
    }

    #[test]
    fn presets() {
        let c = BreakerConfig::cascade_sim();
        assert_eq!(
            (
                c.window,
                c.min_calls,
                c.failure_ratio,
                c.cooldown,
                c.half_open_probes
            ),
            (Window::Time(10 * SECOND), 20, 0.5, 2 * SECOND, 3)
        );
        let l = BreakerConfig::lesson_000();
        assert_eq!((l.cooldown, l.half_open_probes), (10 * SECOND, 3));
        let n = BreakerConfig::northwind();
        assert_eq!(
            (n.window, n.failure_ratio, n.cooldown, n.half_open_probes),
            (Window::Count(20), 0.5, 30 * SECOND, 5)
        );
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |c: BreakerConfig| CircuitBreaker::new(c).unwrap_err().field;
        let c = BreakerConfig::lesson_000();
        assert_eq!(
            bad(BreakerConfig {
                window: Window::Time(0),
                ..c.clone()
            }),
            "window"
        );
        assert_eq!(
            bad(BreakerConfig {
                window: Window::Count(0),
                ..c.clone()
            }),
            "window"
        );
        assert_eq!(
            bad(BreakerConfig {
                min_calls: 0,
                ..c.clone()
            }),
            "min_calls"
        );
        assert_eq!(
            bad(BreakerConfig {
                failure_ratio: 0.0,
                ..c.clone()
            }),
            "failure_ratio"
        );
        assert_eq!(
            bad(BreakerConfig {
                failure_ratio: 1.01,
                ..c.clone()
            }),
            "failure_ratio"
        );
        assert_eq!(
            bad(BreakerConfig {
                failure_ratio: f64::NAN,
                ..c.clone()
            }),
            "failure_ratio"
        );
        assert_eq!(
            bad(BreakerConfig {
                cooldown: 0,
                ..c.clone()
            }),
            "cooldown"
        );
        assert_eq!(
            bad(BreakerConfig {
                half_open_probes: 0,
                ..c.clone()
            }),
            "half_open_probes"
        );
        assert_eq!(
            bad(BreakerConfig {
                slow_call_threshold: Some(0),
                ..c.clone()
            }),
            "slow_call_threshold"
        );
        assert_eq!(
            bad(BreakerConfig {
                slow_call_rate: 0.0,
                ..c
            }),
            "slow_call_rate"
        );
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod props {
    use super::*;
    use proptest::prelude::*;

    /// One step of a random event sequence.
    #[derive(Debug, Clone)]
    enum Step {
        Advance(Micros),
        Acquire,
        /// Finish the admitted call at this index (modulo the number pending).
        Finish(usize, u8),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (0u64..3_000_000).prop_map(Step::Advance),
            Just(Step::Acquire),
            (any::<usize>(), 0u8..3).prop_map(|(i, r)| Step::Finish(i, r)),
        ]
    }

    fn allowed(from: BreakerState, to: BreakerState) -> bool {
        use BreakerState::*;
        matches!(
            (from, to),
            (Closed, Open) | (Open, HalfOpen) | (HalfOpen, Closed) | (HalfOpen, Open)
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(192))]
        /// Random parameters and events: half open never has more probes in flight than
        /// allowed, and the state only moves along the diagram's arrows.
        #[test]
        fn probes_bounded_and_transitions_follow_the_diagram(
            time_window in any::<bool>(),
            window in 1u32..50,
            min_calls in 1u32..30,
            failure_ratio in 0.05f64..=1.0,
            cooldown in 1_000u64..2_000_000,
            probes in 1u32..6,
            steps in proptest::collection::vec(step(), 1..400),
            resilience4j in any::<bool>(),
        ) {
            let config = BreakerConfig {
                window: if time_window { Window::Time(u64::from(window) * 100_000) } else { Window::Count(window) },
                min_calls,
                failure_ratio,
                cooldown,
                half_open_probes: probes,
                slow_call_threshold: Some(500_000),
                slow_call_rate: 0.9,
                mode: Mode::Normal,
                half_open_rule: if resilience4j { HalfOpenRule::RateOverPermitted } else { HalfOpenRule::FirstFailureReopens },
                judged_after_failures_only: false,
            };
            let mut cb = CircuitBreaker::new(config).unwrap();
            let mut now = 0;
            let mut pending: Vec<(Admission, Micros)> = Vec::new();
            for s in steps {
                match s {
                    Step::Advance(d) => now += d,
                    Step::Acquire => {
                        if let Ok(a) = cb.try_acquire(now) {
                            pending.push((a, now));
                        }
                    }
                    Step::Finish(i, r) if !pending.is_empty() => {
                        let (a, started) = pending.swap_remove(i % pending.len());
                        let r = [CallResult::Success, CallResult::Failure, CallResult::BusinessError][r as usize];
                        cb.record(now, a, r, now - started);
                    }
                    Step::Finish(..) => {}
                }
                let snap = cb.snapshot(now);
                prop_assert!(snap.probes_in_flight <= probes);
                if cb.state() == BreakerState::HalfOpen {
                    let current = pending.iter().filter(|(a, _)| *a == Admission::Probe { epoch: cb.epoch }).count();
                    prop_assert!(current <= probes as usize);
                }
            }
            let mut state = BreakerState::Closed;
            for t in cb.transitions() {
                prop_assert_eq!(t.from, state);
                prop_assert!(allowed(t.from, t.to), "{:?} -> {:?}", t.from, t.to);
                state = t.to;
            }
            prop_assert_eq!(state, cb.state());
        }
    }
}

#[cfg(test)]
mod resilience4j_half_open_tests {
    use super::*;
    use crate::resilience::MS;
    use BreakerState::*;
    use CallResult::*;

    fn breaker(config: BreakerConfig) -> CircuitBreaker {
        CircuitBreaker::new(config).unwrap()
    }

    fn call(cb: &mut CircuitBreaker, now: Micros, result: CallResult) {
        let a = cb.try_acquire(now).expect("admitted");
        cb.record(now, a, result, 0);
    }

    /// Resilience4j's breaker of lesson 004 (5 trial calls, 30 s open) opened at t = 1 s.
    fn opened_resilience4j() -> CircuitBreaker {
        let mut cb = breaker(BreakerConfig {
            half_open_rule: HalfOpenRule::RateOverPermitted,
            ..BreakerConfig::northwind()
        });
        for _ in 0..20 {
            call(&mut cb, SECOND, Failure);
        }
        assert_eq!(cb.state(), Open);
        cb
    }

    /// Admits the five trial calls of a half-open period at 31 s and records `results` in order,
    /// checking the state after each; returns the breaker.
    fn trials(results: [CallResult; 5]) -> (CircuitBreaker, Vec<BreakerState>) {
        let mut cb = opened_resilience4j();
        let admitted: Vec<_> = (0..5)
            .map(|_| cb.try_acquire(31 * SECOND).unwrap())
            .collect();
        assert!(admitted.iter().all(Admission::is_probe));
        let states = admitted
            .iter()
            .zip(results)
            .enumerate()
            .map(|(i, (a, r))| {
                cb.record(31 * SECOND + (i as u64 + 1) * MS, *a, r, MS);
                cb.state()
            })
            .collect();
        (cb, states)
    }

    #[test]
    fn resilience4j_half_open_closes_on_one_failure_in_five_at_the_fifth_result() {
        let (cb, states) = trials([Failure, Success, Success, Success, Success]);
        assert_eq!(states, [HalfOpen, HalfOpen, HalfOpen, HalfOpen, Closed]);
        let t = cb.transitions().last().unwrap();
        assert_eq!(t.at, 31 * SECOND + 5 * MS);
        assert_eq!(
            t.reason,
            TransitionReason::TrialsJudged {
                failures: 1,
                slow: 0,
                calls: 5
            }
        );
        // Closing empties the window: the 20 failures that opened it are forgotten.
        assert_eq!(cb.snapshot(32 * SECOND).calls_in_window, 0);
    }

    #[test]
    fn resilience4j_half_open_reopens_on_three_failures_in_five_at_the_fifth_result() {
        let (cb, states) = trials([Success, Success, Failure, Failure, Failure]);
        assert_eq!(states, [HalfOpen, HalfOpen, HalfOpen, HalfOpen, Open]);
        let t = cb.transitions().last().unwrap();
        assert_eq!((t.from, t.to, t.at), (HalfOpen, Open, 31 * SECOND + 5 * MS));
        // A new 30 s open period counts from the fifth result.
        assert_eq!(cb.snapshot(32 * SECOND).cooldown_left, 29 * SECOND + 5 * MS);
    }

    #[test]
    fn resilience4j_half_open_refuses_a_sixth_call_while_the_five_are_out_and_after() {
        let mut cb = opened_resilience4j();
        let admitted: Vec<_> = (0..5)
            .map(|_| cb.try_acquire(31 * SECOND).unwrap())
            .collect();
        assert!(cb.try_acquire(31 * SECOND).is_err());
        // A finished trial frees no slot: four answers in, the sixth is still refused.
        for (i, a) in admitted.iter().take(4).enumerate() {
            cb.record(31 * SECOND + i as u64 * MS, *a, Success, MS);
        }
        assert_eq!(cb.state(), HalfOpen);
        assert!(cb.try_acquire(31 * SECOND + 10 * MS).is_err());
        // Lesson 000's rule, by contrast, frees the slot as soon as a probe answers.
        let mut lesson = breaker(BreakerConfig::northwind());
        for _ in 0..20 {
            call(&mut lesson, SECOND, Failure);
        }
        let first = lesson.try_acquire(31 * SECOND).unwrap();
        let _others: Vec<_> = (0..4)
            .map(|_| lesson.try_acquire(31 * SECOND).unwrap())
            .collect();
        assert!(lesson.try_acquire(31 * SECOND).is_err());
        lesson.record(31 * SECOND + MS, first, Success, MS);
        assert!(lesson.try_acquire(31 * SECOND + MS).is_ok());
    }

    #[test]
    fn resilience4j_half_open_judges_late_results_too_and_does_not_reopen_on_one_failure() {
        let mut cb = opened_resilience4j();
        let trials: Vec<_> = (0..5)
            .map(|_| cb.try_acquire(31 * SECOND).unwrap())
            .collect();
        // One failed trial of five: lesson 000 would reopen here, Resilience4j waits.
        cb.record(31 * SECOND + MS, trials[0], Failure, MS);
        assert_eq!(cb.state(), HalfOpen);
        // Results of calls admitted before the opening land in the half-open count as well.
        for i in 0..3 {
            cb.record(
                31 * SECOND + (2 + i) * MS,
                Admission::Call,
                Success,
                8 * SECOND,
            );
        }
        assert_eq!(cb.state(), HalfOpen);
        cb.record(31 * SECOND + 9 * MS, trials[1], Failure, MS);
        // Five results, two failed: 40% is under 50%, so it closes with three trials still out.
        assert_eq!(cb.state(), Closed);
        assert_eq!(
            cb.transitions().last().unwrap().reason,
            TransitionReason::TrialsJudged {
                failures: 2,
                slow: 0,
                calls: 5
            }
        );
    }

    #[test]
    fn resilience4j_half_open_release_frees_the_trial_slot_without_judging() {
        let mut cb = opened_resilience4j();
        let admitted: Vec<_> = (0..5)
            .map(|_| cb.try_acquire(31 * SECOND).unwrap())
            .collect();
        assert!(cb.try_acquire(31 * SECOND).is_err());
        // An ignored exception: no result, the slot is given back and a sixth call may go.
        cb.release(admitted[0]);
        assert_eq!(cb.state(), HalfOpen);
        let sixth = cb.try_acquire(31 * SECOND + MS).unwrap();
        for (i, a) in admitted.iter().skip(1).chain([&sixth]).enumerate() {
            cb.record(31 * SECOND + (2 + i as u64) * MS, *a, Success, MS);
        }
        assert_eq!(cb.state(), Closed);
    }
}
