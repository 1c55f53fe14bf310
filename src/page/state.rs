//! The page's state and every change to it, as one pure `apply(action)`: the Yew reducer in
//! `ui/state.rs` only wraps it. Each change of a parameter re-runs the whole simulation; the
//! playhead keeps its place.

use std::rc::Rc;

use super::compare::{Compare, Side};
use super::knobs::{knob, with_every_pattern, with_patterns, Pattern, Patterns};
use super::latency::{Finished, LatencyKind};
use super::replay::{breaker_bands, shown_outcomes, span, Band};
use crate::library_config::resilience4j_run::apply_yaml;
use crate::resilience::Window;
use crate::sim::latency::Micros;
use crate::sim::model::{run, CascadeConfig};
use crate::sim::scenario::{apply_set, Preset, Scenario};
use crate::sim::trace::{Outcome, Trace, BUCKET};

/// Playback speeds the timeline offers.
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0];

/// A shared value that compares by identity, so handing the same trace to a view twice does
/// not compare its contents.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// One run of the simulator and what the views derive from it once.
#[derive(Debug)]
pub struct Run {
    /// The config that produced it.
    pub config: CascadeConfig,
    /// What the simulator produced.
    pub trace: Trace,
    /// The timeline's length.
    pub span: Micros,
    /// Finished requests in order of finishing, for the histograms.
    pub finished: Vec<Finished>,
    /// The breaker's states over the whole run (empty without a breaker), for the timeline.
    pub bands: Vec<Band>,
    /// The outcomes the counters show (see [`shown_outcomes`]).
    pub outcomes: Vec<Outcome>,
    /// The events the timeline marks (see [`super::markers::markers`]).
    pub markers: Vec<super::markers::Marker>,
}

impl Run {
    /// `config` simulated, with what the views derive from it.
    pub(super) fn of(config: CascadeConfig) -> Result<Run, String> {
        let trace = run(&CascadeConfig {
            record_requests: true,
            ..config.clone()
        })
        .map_err(|e| e.to_string())?;
        let span = span(&trace, config.duration);
        let finished = super::requests::finished(&trace);
        let bands = if config.breaker.is_some() {
            breaker_bands(&trace, span)
        } else {
            Vec::new()
        };
        let outcomes = shown_outcomes(&trace);
        let markers = super::markers::markers(&trace, &config);
        Ok(Run {
            config,
            trace,
            span,
            finished,
            bands,
            outcomes,
            markers,
        })
    }
}

/// One line of the lesson's table, computed now.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// The scenario.
    pub scenario: Scenario,
    /// Its label as the lesson prints it.
    pub label: String,
    /// Its trace.
    pub trace: Rc<Trace>,
}

/// Everything the page shows derives from this.
#[derive(Debug, Clone)]
pub struct Page {
    /// The preset picked last.
    pub preset: Preset,
    /// The parameters with every pattern present (the values of switched-off patterns are
    /// kept for when they come back on).
    pub full: CascadeConfig,
    /// Which patterns are on.
    pub patterns: Patterns,
    /// The current run, or why there is none.
    pub run: Result<Shared<Run>, String>,
    /// A message about the last value that had to be corrected.
    pub notice: Option<String>,
    /// Simulated time shown.
    pub playhead: Micros,
    /// Playing or paused.
    pub playing: bool,
    /// Simulated seconds per real second.
    pub speed: f64,
    /// Which latency the histogram shows.
    pub latency: LatencyKind,
    /// Dark theme.
    pub dark: bool,
    /// Large type, high contrast.
    pub projector: bool,
    /// The breaker window of the lesson table (seconds).
    pub table_window: f64,
    /// The lesson's four scenarios with `table_window` and the current seed.
    pub table: Shared<Vec<TableRow>>,
    /// The A/B mode's run B, when it is on (see [`super::compare`]).
    pub ab: Option<Compare>,
    /// Simulated seconds on every clock, even for a preset that tells its story at a time of
    /// day (a lesson keeps one notation).
    pub plain_clock: bool,
    /// The stretch of time the timeline and the charts span, when it is not the whole run (a
    /// lesson step's window); playing stops at its end.
    pub window: Option<Micros>,
}

/// Every change the page can make.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Sets the knob with this key (see [`super::knobs::KNOBS`]) to a value in its unit.
    SetKnob(&'static str, f64),
    /// Sets the knob with this key from its `key=value` text, on the CLI's range rather than
    /// the slider's: what a permalink or a widget attribute says is taken as it is (the number
    /// field shows a value past the slider's end), or refused with a notice.
    SetKnobText(&'static str, String),
    /// Switches a pattern on or off.
    SetPattern(Pattern, bool),
    /// Loads a preset (its parameters and patterns).
    PickPreset(Preset),
    /// Back to the current preset's values.
    Reset,
    /// Sets the seed of the random stream.
    SetSeed(u64),
    /// Play if paused, pause if playing.
    TogglePlay,
    /// Moves the playhead by this many 100 ms steps (negative: back).
    Step(i64),
    /// Puts the playhead at a time (clamped to the timeline).
    Seek(Micros),
    /// Sets the playback speed (snapped to the nearest offered speed).
    SetSpeed(f64),
    /// Real time passed while playing, in milliseconds.
    Tick(f64),
    /// Shows service or end-to-end latency.
    SetLatency(LatencyKind),
    /// Dark theme on or off.
    SetDark(bool),
    /// Projector mode on or off.
    SetProjector(bool),
    /// Sets the lesson table's breaker window (seconds, 0.5..=30).
    SetTableWindow(f64),
    /// Runs a pasted `resilience4j:` YAML block on the current scenario.
    PasteResilience4j(String),
    /// A/B mode on (B starts as a copy of A) or off.
    SetAb(bool),
    /// Which run the controls change while A/B is on.
    SetAbEdits(Side),
    /// Spans the timeline and the charts over this stretch (`None`: the whole run).
    SetWindow(Option<Micros>),
    /// Simulated seconds on every clock (on), or the preset's time of day (off).
    SetPlainClock(bool),
}

/// Breaker windows the lesson table's slider offers, in seconds.
pub const TABLE_WINDOW_RANGE: (f64, f64) = (0.5, 30.0);

impl Default for Page {
    fn default() -> Self {
        Page::new(Preset::Lesson(Scenario::Cb), false)
    }
}

impl Page {
    /// A page showing `preset`, paused at 0.
    pub fn new(preset: Preset, dark: bool) -> Page {
        let cfg = preset.config();
        let full = with_every_pattern(&cfg);
        let patterns = Patterns::of(&cfg);
        let table_window = 10.0;
        let mut page = Page {
            preset,
            table: Shared(Rc::new(lesson_table(cfg.seed, table_window))),
            full,
            patterns,
            run: Err(String::new()),
            notice: None,
            playhead: 0,
            playing: false,
            speed: 1.0,
            latency: LatencyKind::Service,
            dark,
            projector: false,
            table_window,
            ab: None,
            plain_clock: false,
            window: None,
        };
        page.rerun();
        page
    }

    /// The config the current run uses.
    pub fn config(&self) -> CascadeConfig {
        with_patterns(&self.full, self.patterns)
    }

    /// Whether the run is no longer the preset's own: a control, a pattern or the seed has
    /// changed it (the scenario selector then says "modified").
    pub fn modified(&self) -> bool {
        self.config() != self.preset.config()
    }

    /// The wall-clock time of simulated time 0 (seconds after midnight), when the preset
    /// tells its story at a time of day; `None` for plain simulated seconds.
    pub fn clock_start(&self) -> Option<u64> {
        self.preset.clock_start().filter(|_| !self.plain_clock)
    }

    /// The timeline's length (the duration when there is no run); with A/B on, the longer
    /// of the two runs, so both are drawn on the same axis.
    pub fn span(&self) -> Micros {
        if let Some(window) = self.window {
            return window.max(BUCKET);
        }
        let a = self.run.as_ref().map_or(self.full.duration, |r| r.span);
        let b = self
            .ab
            .as_ref()
            .and_then(|c| c.run.as_ref().ok())
            .map_or(0, |r| r.span);
        a.max(b)
    }

    fn rerun(&mut self) {
        self.run = Run::of(self.config()).map(|r| Shared(Rc::new(r)));
        self.follow_a();
        self.playhead = self.playhead.min(self.span());
    }

    /// The page after `action`.
    pub fn apply(self, action: Action) -> Page {
        if self.edits_b(&action) {
            return self.apply_to_b(action);
        }
        let tunes = matches!(
            action,
            Action::SetKnob(..) | Action::SetKnobText(..) | Action::SetPattern(..)
        );
        let before = (tunes && self.run.is_ok()).then(|| (self.full.clone(), self.patterns));
        let mut page = self.apply_now(action);
        // A setting the config refuses (a hedge on a Resilience4j stack, ...) leaves the run
        // as it was and says why.
        if let (Some((full, patterns)), Err(e)) = (before, page.run.as_ref()) {
            page.notice = Some(format!("{e}; the setting is unchanged."));
            (page.full, page.patterns) = (full, patterns);
            page.rerun();
        }
        page
    }

    fn apply_now(mut self, action: Action) -> Page {
        match action {
            Action::SetKnob(key, value) => match knob(key) {
                Some(k) => {
                    self.notice = k.write(&mut self.full, value);
                    self.rerun();
                }
                None => self.notice = Some(format!("there is no control named {key}")),
            },
            Action::SetKnobText(key, text) => {
                self.notice = apply_set(&mut self.full, key, &text)
                    .err()
                    .map(|e| format!("{e}; the setting is unchanged."));
                self.rerun();
            }
            Action::SetPattern(p, true)
                if self.full.resilience4j.is_some()
                    && matches!(p, Pattern::Hedge | Pattern::RetryBudget) =>
            {
                self.notice = Some(format!(
                    "{} is not one of Resilience4j's aspects (stack=resilience4j); it stays off.",
                    p.label()
                ));
            }
            Action::SetPattern(p, on) => {
                self.patterns.set(p, on);
                self.rerun();
            }
            Action::PickPreset(preset) => {
                let keep = (self.dark, self.projector, self.speed, self.latency);
                let ab = self.ab.as_ref().map(|c| c.edits);
                self = Page::new(preset, keep.0);
                (self.projector, self.speed, self.latency) = (keep.1, keep.2, keep.3);
                if let Some(edits) = ab {
                    self.set_ab(true);
                    self.set_ab_edits(edits);
                }
            }
            Action::Reset => {
                let seed = self.full.seed;
                let cfg = self.preset.config();
                self.full = with_every_pattern(&cfg);
                self.full.seed = seed;
                self.patterns = Patterns::of(&cfg);
                self.notice = None;
                self.rerun();
            }
            Action::SetSeed(seed) => {
                self.full.seed = seed;
                self.table = Shared(Rc::new(lesson_table(seed, self.table_window)));
                self.rerun();
            }
            Action::TogglePlay => {
                if !self.playing && self.playhead >= self.span() {
                    self.playhead = 0;
                }
                self.playing = !self.playing;
            }
            Action::Step(steps) => {
                self.playing = false;
                let delta = steps.unsigned_abs().saturating_mul(BUCKET);
                let at = if steps < 0 {
                    self.playhead.saturating_sub(delta)
                } else {
                    self.playhead.saturating_add(delta)
                };
                self.playhead = (at / BUCKET * BUCKET).min(self.span());
            }
            Action::Seek(at) => self.playhead = at.min(self.span()),
            Action::SetSpeed(speed) => {
                self.speed = SPEEDS
                    .iter()
                    .copied()
                    .min_by(|a, b| (a - speed).abs().total_cmp(&(b - speed).abs()))
                    .unwrap_or(1.0);
            }
            Action::Tick(real_ms) => {
                if self.playing && real_ms.is_finite() && real_ms > 0.0 {
                    // A tab in the background sends one huge tick: never jump more than 0.1 s of
                    // real time at once.
                    let advance = (real_ms.min(100.0) * 1_000.0 * self.speed).round() as Micros;
                    self.playhead = self.playhead.saturating_add(advance).min(self.span());
                    if self.playhead >= self.span() {
                        self.playing = false;
                    }
                }
            }
            Action::PasteResilience4j(text) => self.paste_resilience4j(&text),
            Action::SetLatency(kind) => self.latency = kind,
            Action::SetDark(on) => self.dark = on,
            Action::SetProjector(on) => self.projector = on,
            Action::SetAb(on) => self.set_ab(on),
            Action::SetAbEdits(side) => self.set_ab_edits(side),
            Action::SetWindow(window) => {
                self.window = window;
                self.playhead = self.playhead.min(self.span());
            }
            Action::SetPlainClock(on) => self.plain_clock = on,
            Action::SetTableWindow(seconds) => {
                let (lo, hi) = TABLE_WINDOW_RANGE;
                self.notice = None;
                let w = if seconds.is_finite() {
                    if !(lo..=hi).contains(&seconds) {
                        self.notice = Some(format!(
                            "The table's breaker window must be between {lo} and {hi} s; using {}.",
                            seconds.clamp(lo, hi)
                        ));
                    }
                    seconds.clamp(lo, hi)
                } else {
                    self.table_window
                };
                self.table_window = w;
                self.table = Shared(Rc::new(lesson_table(self.full.seed, w)));
            }
        }
        self
    }
}

impl Page {
    /// The pasted settings on the current config: run, with their notices as the page's
    /// notice; or, when they cannot run, the setting unchanged and the reason.
    fn paste_resilience4j(&mut self, text: &str) {
        let mut cfg = self.config();
        match apply_yaml(text, &mut cfg) {
            Ok(notices) => {
                self.full = with_every_pattern(&cfg);
                self.patterns = Patterns::of(&cfg);
                let read = "Resilience4j configuration running (Resilience4j's semantics).";
                self.notice = Some(if notices.is_empty() {
                    read.to_string()
                } else {
                    let list: Vec<String> = notices.iter().map(ToString::to_string).collect();
                    format!("{read} Not used as written: {}.", list.join("; "))
                });
                self.rerun();
            }
            Err(e) => {
                self.notice = Some(format!(
                    "Resilience4j configuration: {e}; the setting is unchanged."
                ));
            }
        }
    }
}

/// The lesson's four scenarios with the breaker window `window_s` (seconds) and `seed`.
pub fn lesson_table(seed: u64, window_s: f64) -> Vec<TableRow> {
    Scenario::ALL
        .iter()
        .filter_map(|&s| {
            let mut cfg = s.config();
            cfg.seed = seed;
            if let Some(b) = cfg.breaker.as_mut() {
                b.window = Window::Time((window_s * 1_000_000.0).round() as Micros);
            }
            run(&cfg).ok().map(|t| TableRow {
                scenario: s,
                label: s.label(&cfg),
                trace: Rc::new(t),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::BreakerState;

    fn trace(p: &Page) -> &Trace {
        &p.run.as_ref().unwrap().trace
    }

    const LESSON_YAML: &str = include_str!("../../tests/fixtures/northwind-resilience4j.yml");

    #[test]
    fn a_pattern_a_resilience4j_stack_refuses_leaves_the_run_and_says_why() {
        let page = Page::new(Preset::NorthwindAsWrittenShared, false);
        let before = trace(&page).clone();
        for action in [
            Action::SetPattern(Pattern::Hedge, true),
            Action::SetPattern(Pattern::RetryBudget, true),
            Action::SetKnobText("jitter", "full".to_string()),
        ] {
            let after = page.clone().apply(action.clone());
            assert_eq!(trace(&after), &before, "{action:?}");
            let notice = after.notice.unwrap();
            assert!(notice.contains("stack=resilience4j"), "{notice}");
        }
    }

    #[test]
    fn pasting_the_lessons_yaml_runs_the_as_written_separate_preset() {
        let pasted = Page::new(Preset::NorthwindShared, false)
            .apply(Action::PasteResilience4j(LESSON_YAML.to_string()));
        let preset = Page::new(Preset::NorthwindAsWrittenSeparate, false);
        assert_eq!(trace(&pasted), trace(&preset));
        assert!(pasted
            .notice
            .as_deref()
            .unwrap()
            .contains("Resilience4j's semantics"));
        // A value out of range is named by its path, and nothing changes.
        let before = Page::new(Preset::NorthwindShared, false);
        let bad = LESSON_YAML.replace("max-attempts: 3", "max-attempts: 50");
        let after = before.clone().apply(Action::PasteResilience4j(bad));
        assert_eq!(trace(&after), trace(&before));
        let notice = after.notice.unwrap();
        assert!(
            notice.contains("retry.instances.inventoryReservation.max-attempts"),
            "{notice}"
        );
        // A bad value the reader replaces by the default runs, and the notice names it.
        let odd = LESSON_YAML.replace("failure-rate-threshold: 50", "failure-rate-threshold: 0");
        let after = before.clone().apply(Action::PasteResilience4j(odd));
        assert_eq!(trace(&after), trace(&preset));
        let notice = after.notice.unwrap();
        assert!(notice.contains("failure-rate-threshold"), "{notice}");
        let after = before
            .clone()
            .apply(Action::PasteResilience4j("{".to_string()));
        assert!(after.notice.unwrap().contains("not valid YAML"));
    }

    #[test]
    fn a_knob_reruns_and_the_playhead_keeps_its_place() {
        let p = Page::default().apply(Action::Seek(5_000_000));
        let before = trace(&p).outcomes;
        let p = p.apply(Action::SetKnob("cooldown", 500.0));
        assert_eq!(p.playhead, 5_000_000);
        assert_ne!(trace(&p).outcomes, before);
        assert_eq!(p.config().breaker.unwrap().cooldown, 500_000);
        assert_eq!(p.notice, None);
    }

    #[test]
    fn switching_the_bulkhead_on_changes_the_counts() {
        let p = Page::default();
        let before = trace(&p).outcomes;
        let p = p.apply(Action::SetPattern(Pattern::Bulkhead, true));
        assert!(trace(&p).outcomes.bulkhead_full > 0);
        assert_ne!(trace(&p).outcomes, before);
        let p = p.apply(Action::SetPattern(Pattern::Bulkhead, false));
        assert_eq!(trace(&p).outcomes, before);
    }

    #[test]
    fn playback_runs_to_the_end_and_stops() {
        let mut p = Page::default().apply(Action::SetSpeed(20.0));
        assert_eq!(p.speed, 20.0);
        p = p.apply(Action::TogglePlay);
        let mut ticks = 0;
        while p.playing && ticks < 10_000 {
            p = p.apply(Action::Tick(16.7));
            ticks += 1;
        }
        assert_eq!(p.playhead, p.span());
        // 12 s at 20x in 16.7 ms frames: about 36 frames.
        assert!((30..=40).contains(&ticks), "{ticks}");
        // Playing again starts over.
        p = p.apply(Action::TogglePlay);
        assert_eq!(p.playhead, 0);
        assert!(p.playing);
        p = p.apply(Action::Tick(f64::NAN)).apply(Action::Tick(-5.0));
        assert_eq!(p.playhead, 0);
        p = p.apply(Action::Tick(1e12));
        assert_eq!(
            p.playhead, 2_000_000,
            "one huge tick moves at most 0.1 s x speed"
        );
    }

    #[test]
    fn steps_and_seeks_stay_on_the_timeline() {
        let p = Page::default().apply(Action::Step(3));
        assert_eq!(p.playhead, 300_000);
        let p = p.apply(Action::Step(-10));
        assert_eq!(p.playhead, 0);
        let p = p.apply(Action::Seek(u64::MAX));
        assert_eq!(p.playhead, p.span());
    }

    #[test]
    fn bad_values_leave_a_notice_and_a_working_run() {
        let p = Page::default().apply(Action::SetKnob("threads", 1e9));
        assert!(p.notice.as_ref().unwrap().contains("Worker threads"));
        // Clamped to the slider's end.
        assert_eq!(p.config().threads as f64, knob("threads").unwrap().max);
        assert!(p.run.is_ok());
        let p = p.apply(Action::SetKnob("nope", 1.0));
        assert!(p.notice.unwrap().contains("nope"));
        let p = Page::default().apply(Action::SetTableWindow(f64::INFINITY));
        assert_eq!(p.table_window, 10.0);
        let p = p.apply(Action::SetTableWindow(0.0));
        assert_eq!(p.table_window, 0.5);
        assert!(p.notice.is_some());
    }

    #[test]
    fn the_table_window_moves_the_breaker_rows_toward_the_printed_table() {
        let ten = Page::default();
        let one = ten.clone().apply(Action::SetTableWindow(1.0));
        let cb = |p: &Page| p.table[2].trace.outcomes.circuit_open;
        assert_eq!(ten.table.len(), 4);
        assert!(cb(&one) > cb(&ten) + 200, "{} vs {}", cb(&one), cb(&ten));
        assert_eq!(ten.table[2].label, "timeout + circuit breaker");
    }

    #[test]
    fn a_changed_control_marks_the_scenario_modified_and_reset_clears_it() {
        for preset in Preset::ALL {
            let p = Page::new(preset, false);
            assert!(!p.modified(), "{preset:?}");
            let threads = p.config().threads;
            let p = p.apply(Action::SetKnob("threads", f64::from(threads - 1)));
            assert!(p.modified(), "{preset:?}");
            let p = p.apply(Action::Reset);
            assert!(!p.modified(), "{preset:?}");
        }
        let p = Page::default();
        assert!(p
            .clone()
            .apply(Action::SetPattern(Pattern::Breaker, false))
            .modified());
        assert!(p.clone().apply(Action::SetSeed(p.full.seed + 1)).modified());
        assert!(!p.apply(Action::SetDark(true)).modified());
    }

    #[test]
    fn presets_and_reset() {
        let p = Page::default()
            .apply(Action::SetSeed(7))
            .apply(Action::SetKnob("timeout", 100.0))
            .apply(Action::SetPattern(Pattern::Breaker, false));
        let p = p.apply(Action::Reset);
        assert_eq!(p.config().timeout, Some(300_000));
        assert!(p.patterns.breaker);
        assert_eq!(p.full.seed, 7, "reset keeps the seed");
        let p = p.apply(Action::PickPreset(Preset::Lesson(Scenario::None)));
        assert_eq!(p.config(), Scenario::None.config());
        assert!(trace(&p).transitions.is_empty());
        let p = p.apply(Action::PickPreset(Preset::Lesson(Scenario::Cb)));
        assert_eq!(trace(&p).transitions[0].to, BreakerState::Open);
    }

    #[test]
    fn every_preset_can_be_picked_and_reset_to() {
        for preset in Preset::ALL {
            let p = Page::default().apply(Action::PickPreset(preset));
            assert_eq!(p.preset, preset);
            assert_eq!(p.config(), preset.config(), "{preset:?}");
            assert_eq!(trace(&p).sent, frame_at_end(&p).arrived, "{preset:?}");
            assert_eq!(p.clock_start(), preset.clock_start());
            let p = p
                .apply(Action::SetPattern(Pattern::Retries, true))
                .apply(Action::SetKnob("threads", 7.0))
                .apply(Action::Reset);
            assert_eq!(p.config(), preset.config(), "{preset:?} after reset");
        }
        assert_eq!(
            Page::default()
                .apply(Action::PickPreset(Preset::Saturday))
                .clock_start(),
            Some(10 * 3_600 + 11 * 60 + 50)
        );
        assert_eq!(Page::default().clock_start(), None);
    }

    fn frame_at_end(p: &Page) -> crate::page::replay::Frame {
        let run = p.run.as_ref().unwrap();
        crate::page::replay::frame(&run.trace, run.span)
    }

    #[test]
    fn the_retries_switch_changes_the_run_where_retries_matter() {
        let p = Page::default().apply(Action::PickPreset(Preset::Ex3RetryLayers));
        assert!(p.patterns.retries);
        let with = trace(&p).library_retries;
        let p = p.apply(Action::SetPattern(Pattern::Retries, false));
        assert!(p.config().retry.is_none());
        assert!(with > 0 && trace(&p).library_retries == 0, "{with}");
        // The budget caps the retries once it is switched on.
        let p = p
            .apply(Action::SetPattern(Pattern::Retries, true))
            .apply(Action::SetPattern(Pattern::RetryBudget, true));
        assert!(
            trace(&p).library_retries < with,
            "{} vs {with}",
            trace(&p).library_retries
        );
        // Load shedding with a small limit turns requests away.
        let p = Page::default()
            .apply(Action::SetPattern(Pattern::LoadShed, true))
            .apply(Action::SetKnob("shed_normal", 20.0));
        assert!(trace(&p).outcomes.shed > 0);
    }

    mod any_sequence {
        use super::*;
        use crate::page::knobs::KNOBS;
        use crate::page::replay::frame;
        use proptest::prelude::*;

        fn value() -> impl Strategy<Value = f64> {
            prop_oneof![
                -1e12f64..1e12,
                0f64..20_000.0,
                Just(f64::NAN),
                Just(f64::INFINITY),
                Just(f64::NEG_INFINITY),
                Just(0.0),
            ]
        }

        fn action() -> impl Strategy<Value = Action> {
            prop_oneof![
                4 => (0..KNOBS.len(), value()).prop_map(|(i, v)| Action::SetKnob(KNOBS[i].key, v)),
                2 => (0..Pattern::ALL.len(), any::<bool>())
                    .prop_map(|(i, on)| Action::SetPattern(Pattern::ALL[i], on)),
                1 => (0..Preset::ALL.len()).prop_map(|i| Action::PickPreset(Preset::ALL[i])),
                1 => any::<u64>().prop_map(Action::SetSeed),
                1 => Just(Action::TogglePlay),
                1 => value().prop_map(Action::Tick),
                1 => any::<i64>().prop_map(Action::Step),
                1 => any::<u64>().prop_map(Action::Seek),
                1 => value().prop_map(Action::SetSpeed),
                1 => Just(Action::Reset),
                1 => any::<bool>().prop_map(Action::SetAb),
                1 => prop_oneof![Just(Side::A), Just(Side::B)].prop_map(Action::SetAbEdits),
            ]
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(24))]

            /// Whatever a student does with the controls, the page keeps a valid run whose
            /// counters add up, and its playhead stays on the timeline.
            #[test]
            fn any_sequence_of_actions_keeps_a_working_page(
                actions in proptest::collection::vec(action(), 1..8)
            ) {
                let mut page = Page::default();
                for a in actions {
                    page = page.apply(a);
                    let run = page.run.as_ref().map_err(|e| TestCaseError::fail(e.clone()))?;
                    prop_assert!(page.playhead <= page.span());
                    prop_assert!(run.span <= page.span());
                    prop_assert!(SPEEDS.contains(&page.speed));
                    // B, when on, runs on A's seed and differs in one control at most.
                    if let Some(c) = &page.ab {
                        let b = c.run.as_ref().map_err(|e| TestCaseError::fail(e.clone()))?;
                        prop_assert_eq!(b.config.seed, run.config.seed);
                        prop_assert!(b.span <= page.span());
                        prop_assert!(c.change.knobs.len() <= 1 || c.change.pattern.is_some());
                        prop_assert!(c.differences(&page.full, page.patterns).len() == c.change.knobs.len() + usize::from(c.change.pattern.is_some()));
                    }
                    let end = frame(&run.trace, run.span);
                    prop_assert_eq!(end.arrived, run.trace.sent);
                    // A run stopped at its duration leaves some clients still waiting.
                    let waiting = run.trace.outcomes.unfinished;
                    prop_assert_eq!(end.finished.total() + waiting, run.trace.sent);
                    prop_assert_eq!(run.finished.len() as u64 + waiting, run.trace.sent);
                    // A knob is on its slider, or still at its preset's value (some presets
                    // go past a slider's end, e.g. a degradation an hour away).
                    let preset = with_every_pattern(&page.preset.config());
                    for k in KNOBS {
                        let v = k.read(&page.full);
                        let on_slider = v >= k.min && v <= k.max;
                        prop_assert!(v.is_finite() && (on_slider || v == k.read(&preset)), "{} = {}", k.key, v);
                    }
                }
            }
        }
    }
}
