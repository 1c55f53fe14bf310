//! The jitter view without the browser: its settings (from sliders or a widget's attributes),
//! the sweep of the contention experiment over 10..=100 clients that the view computes a
//! slice at a time, and the geometry of its charts and strips. Pure and tested on the host.

use std::fmt::Write as _;
use std::rc::Rc;

use crate::page::axis::tick_label;
use crate::page::charts::axis::nice_ticks;
use crate::page::permalink::bad;
use crate::page::runs::Shared;
use crate::resilience::{Micros, MS, SECOND};
use crate::sim::experiments::contention::{
    one_run, Batch, Call, ContentionConfig, Strategy, Tally,
};
use crate::sim::scenario::{parse_int, parse_time};

/// The numbers of clients the charts plot.
pub const SWEEP_CLIENTS: [u32; 10] = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100];

/// Range of the clients slider.
pub const CLIENTS_RANGE: (u32, u32) = (10, 100);
/// Range of the base slider, in µs.
pub const BASE_RANGE: (Micros, Micros) = (MS, 100 * MS);
/// Range of the cap slider, in µs.
pub const CAP_RANGE: (Micros, Micros) = (100 * MS, 10 * SECOND);
/// Range of the runs per point.
pub const RUNS_RANGE: (u64, u64) = (1, 100);

/// What the student can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct JitterSettings {
    /// Clients of the strips' run, and the column the table reads.
    pub clients: u32,
    /// Backoff base.
    pub base: Micros,
    /// Longest wait.
    pub cap: Micros,
    /// Runs averaged per point of the charts.
    pub runs: u64,
    /// Seed of the random streams.
    pub seed: u64,
    /// The strategies of the two strips, top then bottom.
    pub strips: [Strategy; 2],
    /// Completion time on a logarithmic axis.
    pub log_time: bool,
}

impl Default for JitterSettings {
    /// The blog's settings: base 5 ms, cap 2 s, 100 runs; 50 clients in the strips, which
    /// compare un-jittered exponential backoff with full jitter.
    fn default() -> Self {
        JitterSettings {
            clients: 50,
            base: 5 * MS,
            cap: 2 * SECOND,
            runs: 100,
            seed: 1,
            strips: [Strategy::Exponential, Strategy::FullJitter],
            log_time: false,
        }
    }
}

/// The keys a `jitter` widget reads.
pub const JITTER_KEYS: [&str; 8] = [
    "clients",
    "base",
    "cap",
    "runs",
    "seed",
    "strip",
    "strip2",
    "time_axis",
];

impl JitterSettings {
    /// Settings from a widget's attributes, with one notice per value it could not use (the
    /// default stays in its place).
    pub fn from_pairs(pairs: &[(String, String)]) -> (JitterSettings, Vec<String>) {
        let mut s = JitterSettings::default();
        let mut notices = Vec::new();
        let strategies = Strategy::ALL.map(Strategy::key).join(", ");
        for (key, value) in pairs {
            let ok = match key.as_str() {
                "clients" => parse_int("clients", value, 10, 100).map(|v| s.clients = v as u32),
                "base" => parse_time("base", value, BASE_RANGE.0, BASE_RANGE.1).map(|v| s.base = v),
                "cap" => parse_time("cap", value, CAP_RANGE.0, CAP_RANGE.1).map(|v| s.cap = v),
                "runs" => parse_int("runs", value, 1, 100).map(|v| s.runs = v),
                "seed" => parse_int("seed", value, 0, u64::MAX).map(|v| s.seed = v),
                "strip" | "strip2" => {
                    let slot = usize::from(key == "strip2");
                    match Strategy::parse(value) {
                        Some(st) => s.strips[slot] = st,
                        None => notices.push(bad(key, value, &format!("one of {strategies}"))),
                    }
                    Ok(())
                }
                "time_axis" => {
                    match value.trim() {
                        "linear" => s.log_time = false,
                        "log" => s.log_time = true,
                        _ => notices.push(bad(key, value, "linear or log")),
                    }
                    Ok(())
                }
                _ => {
                    notices.push(bad(
                        key,
                        value,
                        &format!("a jitter widget reads {}", JITTER_KEYS.join(", ")),
                    ));
                    Ok(())
                }
            };
            if let Err(e) = ok {
                notices.push(bad(key, value, &e.range));
            }
        }
        (s, notices)
    }

    /// The experiment's settings at `clients`.
    pub fn config(&self, clients: u32) -> ContentionConfig {
        ContentionConfig {
            clients,
            base: self.base,
            cap: self.cap.max(self.base),
            ..ContentionConfig::default()
        }
    }
}

/// One point of the charts: a strategy at a number of clients, over the runs made so far.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub strategy: Strategy,
    pub clients: u32,
    pub tally: Tally,
}

/// The experiment at every number of clients of [`SWEEP_CLIENTS`] for every strategy,
/// made a slice at a time: fewest clients first, so the charts fill from the left.
#[derive(Debug, Clone)]
pub struct Sweep {
    done: Vec<Point>,
    pending: Vec<Batch>,
    error: Option<String>,
    handled: u64,
}

impl Sweep {
    /// A sweep of `settings`, nothing run yet.
    pub fn new(settings: &JitterSettings) -> Sweep {
        let mut pending: Vec<Batch> = SWEEP_CLIENTS
            .iter()
            .flat_map(|&clients| {
                Strategy::ALL
                    .map(|s| Batch::new(settings.config(clients), s, settings.runs, settings.seed))
            })
            .collect();
        pending.reverse();
        Sweep {
            done: Vec::new(),
            pending,
            error: None,
            handled: 0,
        }
    }

    /// Makes runs until they have handled at least `events` events (at least one run), or the
    /// sweep is complete. Returns the events handled.
    pub fn advance(&mut self, events: u64) -> u64 {
        self.advance_while(|handled| handled < events)
    }

    /// Makes runs while `more(events handled so far)` says so (at least one run), or until the
    /// sweep is complete. Returns the events handled.
    pub fn advance_while(&mut self, mut more: impl FnMut(u64) -> bool) -> u64 {
        let mut handled = 0;
        while let Some(batch) = self.pending.last_mut() {
            match batch.step() {
                Ok(Some(n)) => {
                    handled += n;
                    if !more(handled) {
                        break;
                    }
                }
                Ok(None) => {
                    let point = Point {
                        strategy: batch.strategy(),
                        clients: batch.config().clients,
                        tally: batch.tally(),
                    };
                    self.done.push(point);
                    self.pending.pop();
                }
                Err(e) => {
                    self.error = Some(format!("The experiment stopped: {e}."));
                    self.pending.clear();
                }
            }
        }
        self.handled += handled;
        handled
    }

    /// Events handled since the sweep began (it grows with every slice of work).
    pub fn handled(&self) -> u64 {
        self.handled
    }

    /// True once every point is made (or the sweep stopped on an error).
    pub fn is_complete(&self) -> bool {
        self.pending.is_empty()
    }

    /// The points made, in the order they were made.
    pub fn points(&self) -> &[Point] {
        &self.done
    }

    /// Points made and points in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.done.len(), self.done.len() + self.pending.len())
    }

    /// Why the sweep stopped early, if it did.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The point of `strategy` at `clients`, once made.
    pub fn point(&self, strategy: Strategy, clients: u32) -> Option<&Point> {
        self.done
            .iter()
            .find(|p| p.strategy == strategy && p.clients == clients)
    }
}

/// What a chart plots.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    /// Mean writes per run.
    Calls,
    /// Mean completion time, ms.
    TimeMs,
}

impl Metric {
    fn of(self, tally: &Tally) -> f64 {
        match self {
            Metric::Calls => tally.mean_calls(),
            Metric::TimeMs => tally.mean_time_ms(),
        }
    }
}

/// Where a chart's plot area lies in its SVG, in user units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

/// A chart ready to draw: one polyline per strategy, and the ticks of both axes.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// Per strategy with at least one point: the `points` attribute of its polyline.
    pub lines: Vec<(Strategy, String)>,
    /// Ticks of the clients axis: (x, label).
    pub x_ticks: Vec<(f64, String)>,
    /// Ticks of the value axis: (y, label).
    pub y_ticks: Vec<(f64, String)>,
    /// The chart in words: each strategy's value at the most clients computed so far, the
    /// lowest named (empty before the first point).
    pub description: String,
}

/// A tick's label: thousands as `20k` once the axis reaches 10,000, so one axis never mixes
/// `1500` and `2k`.
fn label(v: f64, axis_top: f64) -> String {
    if axis_top >= 10_000.0 {
        format!("{}k", tick_label(v / 1_000.0))
    } else {
        tick_label(v)
    }
}

/// The value axis of a chart: linear from 0 to a round number, or logarithmic between powers
/// of ten.
#[derive(Debug, Clone, Copy)]
struct ValueAxis {
    frame: Frame,
    log: bool,
    /// Linear: the top value. Logarithmic: the exponents at the bottom and at the top.
    low: f64,
    high: f64,
}

impl ValueAxis {
    fn fit(values: &[f64], log: bool, frame: Frame) -> ValueAxis {
        let max = values.iter().copied().fold(0.0, f64::max);
        if log {
            let min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let low = if min.is_finite() {
                min.log10().floor()
            } else {
                0.0
            };
            let high = if max > 0.0 { max.log10().ceil() } else { 0.0 };
            ValueAxis {
                frame,
                log,
                low,
                high: high.max(low + 1.0),
            }
        } else {
            let top = nice_ticks(max, 5).last().copied().unwrap_or(1.0);
            ValueAxis {
                frame,
                log,
                low: 0.0,
                high: top.max(f64::MIN_POSITIVE),
            }
        }
    }

    fn y(&self, v: f64) -> f64 {
        let share = if self.log {
            let e = if v > 0.0 { v.log10() } else { self.low };
            (e - self.low) / (self.high - self.low)
        } else {
            v / self.high
        };
        self.frame.top + self.frame.height * (1.0 - share.clamp(0.0, 1.0))
    }

    fn ticks(&self) -> Vec<(f64, String)> {
        let values: Vec<f64> = if self.log {
            (self.low as i32..=self.high as i32)
                .map(|e| 10f64.powi(e))
                .collect()
        } else {
            nice_ticks(self.high, 5)
        };
        let top = values.last().copied().unwrap_or(0.0);
        values
            .into_iter()
            .map(|v| (self.y(v), label(v, top)))
            .collect()
    }
}

/// The chart of `metric` against clients, in `frame`; logarithmic values when `log`.
pub fn line_chart(points: &[Point], metric: Metric, log: bool, frame: Frame) -> LineChart {
    let (first, last) = (SWEEP_CLIENTS[0] as f64, SWEEP_CLIENTS[9] as f64);
    let x = |clients: u32| frame.left + (clients as f64 - first) / (last - first) * frame.width;
    let values: Vec<f64> = points
        .iter()
        .map(|p| metric.of(&p.tally))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let axis = ValueAxis::fit(&values, log, frame);
    let y = |v: f64| axis.y(v);
    let y_ticks = axis.ticks();
    let lines = Strategy::ALL
        .iter()
        .filter_map(|&strategy| {
            let mut mine: Vec<&Point> = points.iter().filter(|p| p.strategy == strategy).collect();
            crate::sort::by_rank(&mut mine, |p| u64::from(p.clients));
            let mut attr = String::new();
            for p in &mine {
                let v = metric.of(&p.tally);
                let _ = write!(attr, "{:.1},{:.1} ", x(p.clients), y(v));
            }
            (!mine.is_empty()).then(|| (strategy, attr.trim_end().to_string()))
        })
        .collect();
    let x_ticks = SWEEP_CLIENTS
        .iter()
        .map(|&c| (x(c), c.to_string()))
        .collect();
    LineChart {
        lines,
        x_ticks,
        y_ticks,
        description: describe(points, metric),
    }
}

/// Each strategy's value at the most clients any point has, and which is lowest there.
fn describe(points: &[Point], metric: Metric) -> String {
    let Some(most) = points.iter().map(|p| p.clients).max() else {
        return String::new();
    };
    let at: Vec<(Strategy, f64)> = Strategy::ALL
        .iter()
        .filter_map(|&s| {
            points
                .iter()
                .find(|p| p.strategy == s && p.clients == most)
                .map(|p| (s, metric.of(&p.tally)))
        })
        .collect();
    let value = |v: f64| match metric {
        Metric::Calls => format!("{} calls", crate::page::numbers::count(v.round() as u64)),
        Metric::TimeMs => format!("{} ms", crate::page::numbers::count(v.round() as u64)),
    };
    let each: Vec<String> = at
        .iter()
        .map(|(s, v)| format!("{} {}", s.label(), value(*v)))
        .collect();
    let lowest = at
        .iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(s, _)| format!("; the lowest: {}", s.label()))
        .unwrap_or_default();
    format!(
        "At {most} clients, the most computed so far: {}{lowest}.",
        each.join(", ")
    )
}

/// One run drawn as a strip: a row per client, a mark per write at its time.
#[derive(Debug, Clone, PartialEq)]
pub struct Strip {
    pub strategy: Strategy,
    pub clients: u32,
    /// Writes made.
    pub calls: u64,
    /// When the last client was done.
    pub completion: Micros,
    /// Every write, in time order.
    pub writes: Vec<Call>,
}

impl Strip {
    /// The run the settings give for `strategy` (the seed's first run at their clients).
    pub fn of(settings: &JitterSettings, strategy: Strategy) -> Result<Strip, String> {
        let config = settings.config(settings.clients);
        let (outcome, writes) =
            one_run(&config, strategy, settings.seed).map_err(|e| format!("{e}"))?;
        Ok(Strip {
            strategy,
            clients: settings.clients,
            calls: outcome.calls,
            completion: outcome.completion,
            writes,
        })
    }

    /// SVG path data for the failed writes and for the winning ones, in `frame`: each write a
    /// short vertical mark on its client's row.
    pub fn paths(&self, frame: Frame) -> (String, String) {
        let end = self.completion.max(1) as f64;
        let row = frame.height / f64::from(self.clients.max(1));
        let mark = (row * 0.8).max(0.6);
        let (mut lost, mut won) = (String::new(), String::new());
        for w in &self.writes {
            let x = frame.left + w.at as f64 / end * frame.width;
            let y = frame.top + row * f64::from(w.client) + (row - mark) / 2.0;
            let path = if w.won { &mut won } else { &mut lost };
            let _ = write!(path, "M{x:.1} {y:.1}v{mark:.1}");
        }
        (lost, won)
    }

    /// Writes per slice of the run, `slices` slices from 0 to the completion: how bunched the
    /// calls are (waves) or how spread.
    pub fn per_slice(&self, slices: usize) -> Vec<u32> {
        let slices = slices.max(1);
        let mut counts = vec![0; slices];
        let end = self.completion.max(1);
        for w in &self.writes {
            let i = (u128::from(w.at) * slices as u128 / u128::from(end)) as usize;
            counts[i.min(slices - 1)] += 1;
        }
        counts
    }

    /// Ticks of the strip's time axis: (x, label in seconds or ms).
    pub fn time_ticks(&self, frame: Frame) -> Vec<(f64, String)> {
        let end_ms = self.completion as f64 / MS as f64;
        nice_ticks(end_ms, 6)
            .into_iter()
            .filter(|&t| t <= end_ms)
            .map(|t| {
                let x = frame.left + t / end_ms.max(f64::MIN_POSITIVE) * frame.width;
                let text = if end_ms >= 2_000.0 {
                    format!("{} s", tick_label(t / 1_000.0))
                } else {
                    format!("{} ms", tick_label(t))
                };
                (x, text)
            })
            .collect()
    }
}

/// What the view shows and computes.
#[derive(Debug, Clone)]
pub struct JitterState {
    pub settings: JitterSettings,
    pub sweep: Sweep,
    /// The two strips, or why a run could not be made.
    pub strips: [Result<Shared<Strip>, String>; 2],
    /// Whether the sweep may use frames (the playground waits to be asked; a widget starts).
    pub started: bool,
}

/// What the student does.
#[derive(Debug, Clone, Copy)]
pub enum JitterAction {
    /// The clients slider (clamped to 10..=100).
    SetClients(f64),
    /// The base slider, in ms (clamped to 1..=100).
    SetBaseMs(f64),
    /// The cap slider, in seconds (clamped to 0.1..=10, and never below the base).
    SetCapSeconds(f64),
    /// Which strategy strip 0 or 1 shows.
    SetStrip(usize, Strategy),
    /// Logarithmic time axis on or off.
    SetLogTime(bool),
    /// Make runs worth about this many events; nothing before [`JitterAction::Start`].
    Work(u64),
    /// Make runs for about `ms` of `clock` (an animation frame's share of the work; the run
    /// under way when the time is up is finished); nothing before [`JitterAction::Start`].
    WorkFor { ms: f64, clock: fn() -> f64 },
    /// Let the sweep run.
    Start,
}

fn shared_strip(settings: &JitterSettings, strategy: Strategy) -> Result<Shared<Strip>, String> {
    Strip::of(settings, strategy).map(|s| Shared(Rc::new(s)))
}

fn clamp_finite(v: f64, min: f64, max: f64) -> f64 {
    if v.is_finite() {
        v.clamp(min, max)
    } else {
        min
    }
}

impl JitterState {
    /// The view for `settings`: strips made, the sweep started or waiting for
    /// [`JitterAction::Start`].
    pub fn new(settings: JitterSettings, started: bool) -> JitterState {
        JitterState {
            sweep: Sweep::new(&settings),
            strips: settings.strips.map(|s| shared_strip(&settings, s)),
            settings,
            started,
        }
    }

    /// True while the sweep wants more frames.
    pub fn is_working(&self) -> bool {
        self.started && !self.sweep.is_complete()
    }

    /// The state after `action`. Settings that change the sweep start it again; the strips
    /// are remade when what they show changes.
    pub fn apply(mut self, action: JitterAction) -> JitterState {
        let mut s = self.settings;
        match action {
            JitterAction::Work(events) => {
                if self.started {
                    self.sweep.advance(events);
                }
                return self;
            }
            JitterAction::WorkFor { ms, clock } => {
                if self.started {
                    let start = clock();
                    self.sweep.advance_while(|_| clock() - start < ms);
                }
                return self;
            }
            JitterAction::Start => {
                self.started = true;
                return self;
            }
            JitterAction::SetClients(v) => {
                let (lo, hi) = CLIENTS_RANGE;
                s.clients = clamp_finite(v, lo as f64, hi as f64).round() as u32;
            }
            JitterAction::SetBaseMs(v) => {
                let (lo, hi) = (BASE_RANGE.0 / MS, BASE_RANGE.1 / MS);
                s.base = clamp_finite(v, lo as f64, hi as f64).round() as Micros * MS;
                s.cap = s.cap.max(s.base);
            }
            JitterAction::SetCapSeconds(v) => {
                let (lo, hi) = (CAP_RANGE.0 as f64, CAP_RANGE.1 as f64);
                s.cap = (clamp_finite(v * SECOND as f64, lo, hi).round() as Micros).max(s.base);
            }
            JitterAction::SetStrip(slot, strategy) => {
                if let Some(st) = s.strips.get_mut(slot) {
                    *st = strategy;
                }
            }
            JitterAction::SetLogTime(on) => s.log_time = on,
        }
        if s == self.settings {
            return self;
        }
        let old = self.settings;
        if (s.base, s.cap, s.runs, s.seed) != (old.base, old.cap, old.runs, old.seed) {
            self.sweep = Sweep::new(&s);
        }
        for slot in 0..2 {
            let same_run = (s.clients, s.base, s.cap, s.seed, s.strips[slot])
                == (old.clients, old.base, old.cap, old.seed, old.strips[slot]);
            if !same_run {
                self.strips[slot] = shared_strip(&s, s.strips[slot]);
            }
        }
        self.settings = s;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    const FRAME: Frame = Frame {
        left: 50.0,
        top: 10.0,
        width: 400.0,
        height: 200.0,
    };

    #[test]
    fn attributes_set_the_settings_and_bad_ones_are_named() {
        let (s, notices) = JitterSettings::from_pairs(&pairs(&[
            ("clients", "30"),
            ("base", "10ms"),
            ("cap", "1s"),
            ("runs", "20"),
            ("strip", "no-backoff"),
            ("strip2", "decorrelated"),
            ("time_axis", "log"),
        ]));
        assert!(notices.is_empty(), "{notices:?}");
        assert_eq!(
            (s.clients, s.base, s.cap, s.runs),
            (30, 10 * MS, SECOND, 20)
        );
        assert_eq!(s.strips, [Strategy::NoBackoff, Strategy::Decorrelated]);
        assert!(s.log_time);
        let (s, notices) = JitterSettings::from_pairs(&pairs(&[
            ("clients", "5000"),
            ("base", "NaN"),
            ("strip", "wavy"),
            ("colour", "red"),
            ("time_axis", "cubic"),
        ]));
        assert_eq!(s, JitterSettings::default());
        assert_eq!(notices.len(), 5, "{notices:?}");
        for (n, named) in notices
            .iter()
            .zip(["clients", "base", "strip", "colour", "time_axis"])
        {
            assert!(n.starts_with(named), "{n}");
        }
        assert!(notices[0].contains("10 to 100"), "{}", notices[0]);
    }

    #[test]
    fn a_sweep_made_in_slices_equals_the_experiment_made_at_once() {
        let settings = JitterSettings {
            runs: 3,
            ..JitterSettings::default()
        };
        let mut sweep = Sweep::new(&settings);
        let mut slices = 0;
        while !sweep.is_complete() {
            assert!(sweep.advance(5_000) > 0 || sweep.is_complete());
            slices += 1;
        }
        assert!(slices > 50, "{slices} slices");
        assert_eq!(sweep.progress(), (50, 50));
        assert_eq!(sweep.points()[0].clients, 10, "fewest clients first");
        let alone = Batch::new(settings.config(70), Strategy::EqualJitter, 3, 1)
            .finish()
            .unwrap();
        assert_eq!(sweep.point(Strategy::EqualJitter, 70).unwrap().tally, alone);
    }

    #[test]
    fn a_slice_is_at_least_one_run_and_stops_soon_after_its_share() {
        let mut sweep = Sweep::new(&JitterSettings::default());
        let handled = sweep.advance(0);
        assert!(handled > 0);
        let handled = sweep.advance(20_000);
        assert!((20_000..40_000).contains(&handled), "{handled}");
    }

    #[test]
    fn timed_work_stops_when_the_clock_says_so() {
        thread_local! {
            static TICKS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
        }
        // A clock that moves 1 ms each time it is read: 5 ms of work is a handful of runs.
        fn clock() -> f64 {
            TICKS.with(|t| {
                t.set(t.get() + 1.0);
                t.get()
            })
        }
        let state = JitterState::new(JitterSettings::default(), true);
        let state = state.apply(JitterAction::WorkFor { ms: 5.0, clock });
        let one_run = Batch::new(
            JitterSettings::default().config(10),
            Strategy::NoBackoff,
            1,
            1,
        )
        .finish()
        .unwrap();
        let handled = state.sweep.handled();
        assert!(handled > 0);
        assert!(
            handled < 10 * one_run.calls * 4,
            "{handled} events for 5 clock reads"
        );
    }

    #[test]
    fn lines_rise_with_clients_inside_the_frame() {
        let settings = JitterSettings {
            runs: 2,
            ..JitterSettings::default()
        };
        let mut sweep = Sweep::new(&settings);
        sweep.advance(u64::MAX);
        for log in [false, true] {
            let chart = line_chart(sweep.points(), Metric::Calls, log, FRAME);
            assert_eq!(chart.lines.len(), 5);
            for (_, attr) in &chart.lines {
                let pts: Vec<(f64, f64)> = attr
                    .split(' ')
                    .map(|p| {
                        let (x, y) = p.split_once(',').unwrap();
                        (x.parse().unwrap(), y.parse().unwrap())
                    })
                    .collect();
                assert_eq!(pts.len(), 10);
                assert_eq!(pts[0].0, 50.0);
                assert_eq!(pts[9].0, 450.0);
                assert!(pts.iter().all(|&(_, y)| (10.0..=210.0).contains(&y)));
                assert!(pts[9].1 < pts[0].1, "more clients, more calls: higher up");
            }
            assert!(chart.y_ticks.len() >= 2);
            let labels: Vec<&str> = chart.y_ticks.iter().map(|(_, l)| l.as_str()).collect();
            let in_k = labels.iter().filter(|l| l.ends_with('k')).count();
            assert!(in_k == 0 || in_k == labels.len(), "{labels:?}");
        }
        let chart = line_chart(sweep.points(), Metric::Calls, false, FRAME);
        let most = *SWEEP_CLIENTS.iter().max().unwrap();
        let no_backoff = sweep
            .points()
            .iter()
            .find(|p| p.strategy == Strategy::ALL[0] && p.clients == most)
            .unwrap();
        let said = format!(
            "{} {} calls",
            Strategy::ALL[0].label(),
            crate::page::numbers::count(no_backoff.tally.mean_calls().round() as u64)
        );
        assert!(
            chart
                .description
                .starts_with(&format!("At {most} clients, the most computed so far: ")),
            "{}",
            chart.description
        );
        assert!(
            chart.description.contains(&said),
            "{} lacks {said}",
            chart.description
        );
        assert!(
            chart.description.contains("; the lowest: "),
            "{}",
            chart.description
        );
        let empty = line_chart(&[], Metric::TimeMs, true, FRAME);
        assert!(empty.description.is_empty());
        assert!(empty.lines.is_empty());
        assert!(empty.y_ticks.iter().all(|(y, _)| y.is_finite()));
    }

    #[test]
    fn un_jittered_calls_come_in_waves_and_full_jitter_spreads_them() {
        let settings = JitterSettings::default();
        // After the first tenth of the run: the mean writes in a slice that has any.
        let wave_size = |strategy| {
            let strip = Strip::of(&settings, strategy).unwrap();
            let slices = strip.per_slice(100);
            assert_eq!(
                slices.iter().map(|&c| u64::from(c)).sum::<u64>(),
                strip.calls
            );
            let busy: Vec<u32> = slices[10..].iter().copied().filter(|&c| c > 0).collect();
            busy.iter().sum::<u32>() as f64 / busy.len() as f64
        };
        let waves = wave_size(Strategy::Exponential);
        let spread = wave_size(Strategy::FullJitter);
        assert!(
            waves > 4.0 * spread,
            "exponential {waves}, full jitter {spread}"
        );
    }

    #[test]
    fn strip_marks_stay_in_the_frame() {
        let strip = Strip::of(&JitterSettings::default(), Strategy::FullJitter).unwrap();
        let (lost, won) = strip.paths(FRAME);
        assert_eq!(won.matches('M').count(), 50);
        assert_eq!(lost.matches('M').count() as u64, strip.calls - 50);
        for mark in lost.split('M').skip(1) {
            let (x, rest) = mark.split_once(' ').unwrap();
            let x: f64 = x.parse().unwrap();
            let y: f64 = rest.split('v').next().unwrap().parse().unwrap();
            assert!(
                (50.0..=450.0).contains(&x) && (10.0..=210.0).contains(&y),
                "{mark}"
            );
        }
        let ticks = strip.time_ticks(FRAME);
        assert!(ticks.len() >= 2 && ticks.iter().all(|(x, _)| *x <= 450.0 + 1e-9));
    }

    #[test]
    fn sliders_are_clamped_and_only_what_changed_is_remade() {
        let state = JitterState::new(
            JitterSettings {
                runs: 1,
                ..JitterSettings::default()
            },
            false,
        );
        let state = state.apply(JitterAction::Work(u64::MAX));
        assert_eq!(state.sweep.handled(), 0, "not started: no work");
        assert!(!state.is_working());
        let state = state
            .apply(JitterAction::Start)
            .apply(JitterAction::Work(u64::MAX));
        assert!(state.sweep.is_complete() && !state.is_working());
        // The clients of the strips do not restart the sweep.
        let state = state.apply(JitterAction::SetClients(f64::NAN));
        assert_eq!(state.settings.clients, 10);
        assert!(state.sweep.is_complete());
        assert_eq!(state.strips[0].as_ref().unwrap().clients, 10);
        let state = state.apply(JitterAction::SetClients(1e9));
        assert_eq!(state.settings.clients, 100);
        // Base and cap do, and the cap never falls below the base.
        let state = state.apply(JitterAction::SetBaseMs(100.0));
        assert!(!state.sweep.is_complete() && state.is_working());
        let state = state.apply(JitterAction::SetCapSeconds(0.0));
        assert_eq!(state.settings.cap, 100 * MS);
        let state = state.apply(JitterAction::SetCapSeconds(-1.0 / 0.0));
        assert_eq!(state.settings.cap, 100 * MS);
        let state = state.apply(JitterAction::SetStrip(1, Strategy::NoBackoff));
        assert_eq!(
            state.strips[1].as_ref().unwrap().strategy,
            Strategy::NoBackoff
        );
        let state = state.apply(JitterAction::SetStrip(7, Strategy::NoBackoff));
        assert_eq!(state.settings.strips[1], Strategy::NoBackoff);
    }

    #[test]
    fn tick_labels_carry_no_float_noise() {
        // 0.2 * 3 is 0.6000000000000001 in floating point: the axis says 0.6.
        assert_eq!(label(0.2 * 3.0, 1.0), "0.6");
        assert_eq!(label(1_500.0 * 3.0, 20_000.0), "4.5k");
        assert_eq!(label(0.1 + 0.2, 20_000.0), "0k");
        for top in [0.7, 1.3, 7.0, 0.07, 123.0] {
            for (_, text) in ValueAxis::fit(&[top], false, FRAME).ticks() {
                assert!(text.len() <= 6, "{top}: {text}");
            }
        }
    }
}
