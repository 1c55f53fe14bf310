//! The page's state and every change to it, as one pure `apply(action)`: the Yew reducer in
//! `ui/state.rs` only wraps it. The state is four rooms (settings, the runs derived from them,
//! playback, view) and the notice. An action changes one room; when the settings change, the
//! runs are derived again once, and only the runs whose config changed are simulated.

use std::rc::Rc;

use super::action::Action;
use super::playback::Playback;
use super::runs::{Run, Runs, Shared, Simulated, TableRow};
use super::settings::{unchanged, Settings};
use super::view::View;
use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;
use crate::sim::scenario::{Preset, Scenario};
use crate::sim::trace::BUCKET;

/// Everything the page shows derives from this.
#[derive(Debug, Clone)]
pub struct Page {
    /// What the runs are simulated from (what a link carries of them); shared, so a playback
    /// frame's copy of the page does not copy them, and compared by identity where a view
    /// only needs to know that they changed.
    pub settings: Shared<Settings>,
    /// The runs, derived from the settings.
    pub runs: Runs,
    /// The playhead and its motion.
    pub playback: Playback,
    /// How the runs are shown.
    pub view: View,
    /// A message about the last value that had to be corrected.
    pub notice: Option<String>,
}

impl Default for Page {
    fn default() -> Self {
        Page::new(Preset::Lesson(Scenario::Cb), false)
    }
}

impl Page {
    /// A page showing `preset`, paused at 0.
    pub fn new(preset: Preset, dark: bool) -> Page {
        Page::of(Settings::new(preset), dark)
    }

    /// A page showing `settings`, paused at 0: their runs simulated once.
    pub fn of(settings: Settings, dark: bool) -> Page {
        Page {
            runs: Runs::of(settings.run_inputs()),
            settings: Shared(Rc::new(settings)),
            playback: Playback::default(),
            view: View {
                dark,
                ..View::default()
            },
            notice: None,
        }
    }

    /// The config run A uses.
    pub fn config(&self) -> SimConfig {
        self.settings.config()
    }

    /// Whether the run is no longer the preset's own (see [`Settings::modified`]).
    pub fn modified(&self) -> bool {
        self.settings.modified()
    }

    /// Run A, or why there is none.
    pub fn run(&self) -> &Simulated {
        &self.runs.a
    }

    /// Run B, while A/B is on and B can run.
    pub fn b_run(&self) -> Option<&Shared<Run>> {
        self.runs.b_run()
    }

    /// The lesson's four scenarios with the table's window and the seed.
    pub fn table(&self) -> Shared<Vec<TableRow>> {
        self.runs.table()
    }

    /// The wall-clock time of simulated time 0 (seconds after midnight), when the preset
    /// tells its story at a time of day; `None` for plain simulated seconds.
    pub fn clock_start(&self) -> Option<u64> {
        self.settings
            .preset
            .clock_start()
            .filter(|_| !self.view.plain_clock)
    }

    /// The timeline's length (the duration when there is no run); with A/B on, the longer
    /// of the two runs, so both are drawn on the same axis.
    pub fn span(&self) -> Micros {
        if let Some(window) = self.view.window {
            return window.max(BUCKET);
        }
        let a = self
            .runs
            .a
            .as_ref()
            .map_or(self.settings.full.traffic.duration, |r| r.span);
        let b = self.b_run().map_or(0, |r| r.span);
        a.max(b)
    }

    /// The page after `action`.
    pub fn apply(mut self, action: Action) -> Page {
        if Playback::takes(&action) {
            let span = self.span();
            self.playback.apply(&action, span);
        } else if View::takes(&action) {
            self.view.apply(&action);
            self.playback.playhead = self.playback.playhead.min(self.span());
        } else {
            self.change_settings(action);
        }
        self
    }

    /// The settings after `action`, and the runs derived from them once. A tuning the runs
    /// refuse (a value the simulator cannot take) leaves settings and runs as they were and
    /// says why.
    fn change_settings(&mut self, action: Action) {
        let before = self.settings.clone();
        let notice_before = self.notice.clone();
        let tunes = action.tunes();
        let picks = matches!(action, Action::PickPreset(_));
        Rc::make_mut(&mut self.settings.0).apply(action, &mut self.notice);
        if picks {
            self.notice = None;
            self.playback = Playback {
                speed: self.playback.speed,
                ..Playback::default()
            };
            (self.view.window, self.view.plain_clock) = (None, false);
        }
        if *self.settings == *before {
            // Unchanged: the same shared settings, so what is keyed on them stays.
            self.settings = before;
            return;
        }
        let runs = self
            .runs
            .after(&before.run_inputs(), self.settings.run_inputs());
        let refused = tunes.then(|| refusal(&self.runs, &runs)).flatten();
        if let Some(why) = refused {
            let said = self
                .notice
                .take()
                .filter(|n| Some(n) != notice_before.as_ref());
            self.notice = Some(unchanged(said, &why));
            self.settings = before;
            return;
        }
        self.runs = runs;
        self.playback.playhead = self.playback.playhead.min(self.span());
    }
}

/// Whether `action` changes the settings: every action that is neither playback's nor the
/// view's.
pub fn changes_settings(action: &Action) -> bool {
    !Playback::takes(action) && !View::takes(action)
}

/// Why the runs `after` a tuning cannot stand, when a run that ran `before` now fails.
fn refusal(before: &Runs, after: &Runs) -> Option<String> {
    if let (Ok(_), Err(e)) = (&before.a, &after.a) {
        return Some(e.clone());
    }
    match (&before.b, &after.b) {
        (Some(Ok(_)), Some(Err(e))) => Some(format!("B: {e}")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::compare::Side;
    use crate::page::knobs::{knob, with_every_pattern, Pattern};
    use crate::page::playback::SPEEDS;
    use crate::resilience::BreakerState;
    use crate::sim::params::Value;
    use crate::sim::trace::Trace;

    fn trace(p: &Page) -> &Trace {
        &p.runs.a.as_ref().unwrap().trace
    }

    const LESSON_YAML: &str =
        include_str!("../../../../../tests/fixtures/northwind-resilience4j.yml");

    #[test]
    fn a_pattern_a_resilience4j_stack_refuses_leaves_the_run_and_says_why() {
        let page = Page::new(Preset::NorthwindAsWrittenShared, false);
        let before = trace(&page).clone();
        for action in [
            Action::SetPattern(Pattern::HEDGE, true),
            Action::SetPattern(Pattern::RETRY_BUDGET, true),
            Action::SetParam("jitter", Value::Choice(1)),
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
            .apply(Action::paste_resilience4j(LESSON_YAML));
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
        let after = before.clone().apply(Action::paste_resilience4j(&bad));
        assert_eq!(trace(&after), trace(&before));
        let notice = after.notice.unwrap();
        assert!(
            notice.contains("retry.instances.inventoryReservation.max-attempts"),
            "{notice}"
        );
        // A bad value the reader replaces by the default runs, and the notice names it.
        let odd = LESSON_YAML.replace("failure-rate-threshold: 50", "failure-rate-threshold: 0");
        let after = before.clone().apply(Action::paste_resilience4j(&odd));
        assert_eq!(trace(&after), trace(&preset));
        let notice = after.notice.unwrap();
        assert!(notice.contains("failure-rate-threshold"), "{notice}");
        let after = before.clone().apply(Action::paste_resilience4j("{"));
        assert!(after.notice.unwrap().contains("not valid YAML"));
    }

    #[test]
    fn a_knob_reruns_and_the_playhead_keeps_its_place() {
        let p = Page::default().apply(Action::Seek(5_000_000));
        let before = trace(&p).outcomes;
        let p = p.apply(Action::SetKnob("cooldown", 500.0));
        assert_eq!(p.playback.playhead, 5_000_000);
        assert_ne!(trace(&p).outcomes, before);
        assert_eq!(
            p.config()
                .first_stack()
                .unwrap()
                .breaker
                .clone()
                .unwrap()
                .cooldown,
            500_000
        );
        assert_eq!(p.notice, None);
    }

    #[test]
    fn switching_the_bulkhead_on_changes_the_counts() {
        let p = Page::default();
        let before = trace(&p).outcomes;
        let p = p.apply(Action::SetPattern(Pattern::BULKHEAD, true));
        assert!(trace(&p).outcomes.bulkhead_full > 0);
        assert_ne!(trace(&p).outcomes, before);
        let p = p.apply(Action::SetPattern(Pattern::BULKHEAD, false));
        assert_eq!(trace(&p).outcomes, before);
    }

    #[test]
    fn playback_runs_to_the_end_and_stops() {
        let mut p = Page::default().apply(Action::SetSpeed(20.0));
        assert_eq!(p.playback.speed, 20.0);
        p = p.apply(Action::TogglePlay);
        let mut ticks = 0;
        while p.playback.playing && ticks < 10_000 {
            p = p.apply(Action::Tick(16.7));
            ticks += 1;
        }
        assert_eq!(p.playback.playhead, p.span());
        // 12 s at 20x in 16.7 ms frames: about 36 frames.
        assert!((30..=40).contains(&ticks), "{ticks}");
        // Playing again starts over.
        p = p.apply(Action::TogglePlay);
        assert_eq!(p.playback.playhead, 0);
        assert!(p.playback.playing);
        p = p.apply(Action::Tick(f64::NAN)).apply(Action::Tick(-5.0));
        assert_eq!(p.playback.playhead, 0);
        p = p.apply(Action::SetSpeed(2.0)).apply(Action::Tick(1e12));
        assert_eq!(
            p.playback.playhead, 2_000_000,
            "one huge tick moves at most 1 s x speed"
        );
    }

    #[test]
    fn steps_and_seeks_stay_on_the_timeline() {
        let p = Page::default().apply(Action::Step(3));
        assert_eq!(p.playback.playhead, 300_000);
        let p = p.apply(Action::Step(-10));
        assert_eq!(p.playback.playhead, 0);
        let p = p.apply(Action::Seek(u64::MAX));
        assert_eq!(p.playback.playhead, p.span());
    }

    #[test]
    fn bad_values_leave_a_notice_and_a_working_run() {
        let p = Page::default().apply(Action::SetKnob("threads", 1e9));
        assert!(p.notice.as_ref().unwrap().contains("Worker threads"));
        // Clamped to the slider's end.
        assert_eq!(
            p.config().service.threads as f64,
            knob("threads").unwrap().panel.max
        );
        assert!(p.runs.a.is_ok());
        let p = p.apply(Action::SetKnob("nope", 1.0));
        assert!(p.notice.unwrap().contains("nope"));
        let p = Page::default().apply(Action::SetTableWindow(f64::INFINITY));
        assert_eq!(p.settings.table_window, 10.0);
        let p = p.apply(Action::SetTableWindow(0.0));
        assert_eq!(p.settings.table_window, 0.5);
        assert!(p.notice.is_some());
    }

    #[test]
    fn the_table_window_moves_the_breaker_rows_toward_the_printed_table() {
        let ten = Page::default();
        let one = ten.clone().apply(Action::SetTableWindow(1.0));
        let cb = |p: &Page| p.table()[2].trace.outcomes.circuit_open;
        assert_eq!(ten.table().len(), 4);
        assert!(cb(&one) > cb(&ten) + 200, "{} vs {}", cb(&one), cb(&ten));
        assert_eq!(ten.table()[2].label, "timeout + circuit breaker");
    }

    #[test]
    fn a_changed_control_marks_the_scenario_modified_and_reset_clears_it() {
        for preset in Preset::ALL {
            let p = Page::new(preset, false);
            assert!(!p.modified(), "{preset:?}");
            let threads = p.config().service.threads;
            let p = p.apply(Action::SetKnob("threads", f64::from(threads - 1)));
            assert!(p.modified(), "{preset:?}");
            let p = p.apply(Action::Reset);
            assert!(!p.modified(), "{preset:?}");
        }
        let p = Page::default();
        assert!(p
            .clone()
            .apply(Action::SetPattern(Pattern::BREAKER, false))
            .modified());
        assert!(p
            .clone()
            .apply(Action::SetSeed(p.settings.full.run.seed + 1))
            .modified());
        assert!(!p.apply(Action::SetDark(true)).modified());
    }

    #[test]
    fn presets_and_reset() {
        let p = Page::default()
            .apply(Action::SetSeed(7))
            .apply(Action::SetKnob("timeout", 100.0))
            .apply(Action::SetPattern(Pattern::BREAKER, false));
        let p = p.apply(Action::Reset);
        assert_eq!(p.config().first_stack().unwrap().timeout, Some(300_000));
        assert!(p.settings.patterns.get(Pattern::BREAKER));
        assert_eq!(p.settings.full.run.seed, 7, "reset keeps the seed");
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
            assert_eq!(p.settings.preset, preset);
            assert_eq!(p.config(), preset.config(), "{preset:?}");
            assert_eq!(trace(&p).sent, frame_at_end(&p).arrived, "{preset:?}");
            assert_eq!(p.clock_start(), preset.clock_start());
            let p = p
                .apply(Action::SetPattern(Pattern::RETRY, true))
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
        let run = p.runs.a.as_ref().unwrap();
        crate::page::replay::frame(&run.trace, run.span)
    }

    #[test]
    fn the_retries_switch_changes_the_run_where_retries_matter() {
        let p = Page::default().apply(Action::PickPreset(Preset::Ex3RetryLayers));
        assert!(p.settings.patterns.get(Pattern::RETRY));
        let with = trace(&p).library_retries;
        let p = p.apply(Action::SetPattern(Pattern::RETRY, false));
        assert!(p.config().first_stack().unwrap().retry.is_none());
        assert!(with > 0 && trace(&p).library_retries == 0, "{with}");
        // The budget caps the retries once it is switched on.
        let p = p
            .apply(Action::SetPattern(Pattern::RETRY, true))
            .apply(Action::SetPattern(Pattern::RETRY_BUDGET, true));
        assert!(
            trace(&p).library_retries < with,
            "{} vs {with}",
            trace(&p).library_retries
        );
        // Load shedding with a small limit turns requests away.
        let p = Page::default()
            .apply(Action::SetPattern(Pattern::LOAD_SHED, true))
            .apply(Action::SetKnob("shed_normal", 20.0));
        assert!(trace(&p).outcomes.shed > 0);
    }

    /// A link that switches every pattern on and sets ten knobs, with A/B on, costs one
    /// simulation per side; a knob costs one for A alone, and one for B when B follows A.
    #[test]
    fn a_link_and_a_knob_cost_one_simulation_per_side() {
        use crate::page::permalink::{from_pairs, parse_query};
        use crate::page::runs::simulations_on_this_thread as sims;
        let query = "preset=none\
                     &patterns=timeout,retries,retry_budget,breaker,bulkhead,load_shed,rate_limit,hedge,adaptive_limit\
                     &threads=40&timeout=250ms&cooldown=3s&window=5&attempts=3&permits=12\
                     &retry_base=50ms&slow=900ms&rate=150&failure_ratio=0.4&ab=timeout=400ms";
        let (pairs, bad) = parse_query(query);
        assert!(bad.is_empty());
        let before = sims();
        let (page, notices) = from_pairs(&pairs);
        assert!(notices.is_empty(), "{notices:?}");
        assert!(page.runs.a.is_ok() && page.b_run().is_some());
        assert_eq!(sims() - before, 2, "one simulation per side");
        assert!(Pattern::SWITCHES
            .iter()
            .all(|p| page.settings.patterns.get(*p)));
        // A knob moved in B (where the controls start): B alone again.
        let before = sims();
        let page = page.apply(Action::SetKnob("threads", 41.0));
        assert_eq!(sims() - before, 1);
        // A knob moved in A: A again, and B, which follows A.
        let page = page.apply(Action::SetAbEdits(Side::A));
        let before = sims();
        let page = page.apply(Action::SetKnob("permits", 13.0));
        assert_eq!(sims() - before, 2);
        // Without A/B, one.
        let page = page.apply(Action::SetAb(false));
        let before = sims();
        let page = page.apply(Action::SetKnob("threads", 42.0));
        assert_eq!(sims() - before, 1);
        // A value that changes nothing, and the view and playback, simulate nothing.
        let before = sims();
        let page = page
            .apply(Action::SetKnob("threads", 42.0))
            .apply(Action::SetDark(true))
            .apply(Action::SetLatency(
                crate::page::latency::LatencyKind::EndToEnd,
            ))
            .apply(Action::TogglePlay)
            .apply(Action::Tick(16.0));
        assert_eq!(sims() - before, 0);
        assert!(page.playback.playing);
    }

    /// Playback frames touch neither the settings nor the runs.
    #[test]
    fn playback_does_no_settings_work() {
        use crate::page::runs::simulations_on_this_thread as sims;
        use crate::page::settings::settings_actions_on_this_thread as settings_work;
        let mut p = Page::default()
            .apply(Action::SetAb(true))
            .apply(Action::TogglePlay);
        let (work, runs) = (settings_work(), sims());
        for _ in 0..200 {
            p = p.apply(Action::Tick(16.7));
        }
        p = p.apply(Action::Seek(1_000_000)).apply(Action::Step(3));
        assert_eq!(p.playback.playhead, 1_300_000);
        assert_eq!((settings_work(), sims()), (work, runs));
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
                2 => (0..Pattern::SWITCHES.len(), any::<bool>())
                    .prop_map(|(i, on)| Action::SetPattern(Pattern::SWITCHES[i], on)),
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
                    let run = page.runs.a.as_ref().map_err(|e| TestCaseError::fail(e.clone()))?;
                    prop_assert!(page.playback.playhead <= page.span());
                    prop_assert!(run.span <= page.span());
                    prop_assert!(SPEEDS.contains(&page.playback.speed));
                    // B, when on, runs on A's seed and differs in one control at most.
                    if let (Some(c), Some(b)) = (&page.settings.ab, &page.runs.b) {
                        let b = b.as_ref().map_err(|e| TestCaseError::fail(e.clone()))?;
                        prop_assert_eq!(b.config.run.seed, run.config.run.seed);
                        prop_assert!(b.span <= page.span());
                        prop_assert!(c.change.knobs.len() <= 1 || c.change.pattern.is_some());
                        prop_assert!(c.change.differences(&page.settings.full, page.settings.patterns).len() == c.change.knobs.len() + usize::from(c.change.pattern.is_some()));
                    }
                    let end = frame(&run.trace, run.span);
                    prop_assert_eq!(end.arrived, run.trace.sent);
                    // A run stopped at its duration leaves some clients still waiting.
                    let waiting = run.trace.outcomes.unfinished;
                    prop_assert_eq!(end.finished.total() + waiting, run.trace.sent);
                    prop_assert_eq!(run.finished.len() as u64 + waiting, run.trace.sent);
                    // A knob is on its slider, or still at its preset's value (some presets
                    // go past a slider's end, e.g. a degradation an hour away).
                    let preset = with_every_pattern(&page.settings.preset.config());
                    for k in KNOBS {
                        let v = k.read(&page.settings.full);
                        let on_slider = v >= k.panel.min && v <= k.panel.max;
                        prop_assert!(v.is_finite() && (on_slider || v == k.read(&preset)), "{} = {}", k.key, v);
                    }
                }
            }
        }
    }
}
