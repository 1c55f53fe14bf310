//! The page's settings room: what the runs are simulated from, and what a link carries of them
//! (the preset, every parameter, which patterns are on, the table's window, A/B's one change).
//! [`Settings::apply`] is the only place they change; it never simulates.

use super::action::Action;
use super::compare::{Change, Control, Side};
use super::knobs::{knob, switched_on_by, with_every_pattern, with_patterns, Pattern, Patterns};
use super::runs::RunInputs;
use crate::library_config::resilience4j::{Notice, Parsed};
use crate::library_config::resilience4j_run;
use crate::page::numbers::refused;
use crate::sim::model::{Profile, SimConfig};
use crate::sim::params::{param, Value};
use crate::sim::pick::Pick;
use crate::sim::scenario::Preset;
use std::cell::Cell;

/// Breaker windows the lesson table's slider offers, in seconds.
pub const TABLE_WINDOW_RANGE: (f64, f64) = (0.5, 30.0);

/// A/B mode's settings: how B differs from A, and which run the controls change.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ab {
    /// How B differs from A (empty: B is a copy).
    pub change: Change,
    /// Which run the controls change.
    pub edits: Side,
}

/// Everything the runs derive from.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    /// The preset picked last.
    pub preset: Preset,
    /// The parameters with every pattern present (the values of switched-off patterns are
    /// kept for when they come back on).
    pub full: SimConfig,
    /// Which patterns are on.
    pub patterns: Patterns,
    /// The breaker window of the lesson table (seconds).
    pub table_window: f64,
    /// A/B mode, when it is on.
    pub ab: Option<Ab>,
    /// The request followed hop by hop, if any.
    pub trace: Option<Pick>,
}

thread_local! {
    static APPLIED: Cell<u64> = const { Cell::new(0) };
}

/// How many actions [`Settings::apply`] has taken on this thread (tests check that playback
/// does no settings work).
pub fn settings_actions_on_this_thread() -> u64 {
    APPLIED.with(Cell::get)
}

impl Settings {
    /// `preset`'s own settings.
    pub fn new(preset: Preset) -> Settings {
        let cfg = preset.config();
        Settings {
            preset,
            full: with_every_pattern(&cfg),
            patterns: Patterns::of(&cfg),
            table_window: 10.0,
            ab: None,
            trace: None,
        }
    }

    /// The config run A uses.
    pub fn config(&self) -> SimConfig {
        with_patterns(&self.full, self.patterns)
    }

    /// B's parameters and patterns (A's with the change on top), while A/B is on.
    pub fn b(&self) -> Option<(SimConfig, Patterns)> {
        self.ab
            .as_ref()
            .map(|ab| ab.change.on(&self.full, self.patterns))
    }

    /// The config run B uses, while A/B is on.
    pub fn b_config(&self) -> Option<SimConfig> {
        self.b().map(|(full, on)| with_patterns(&full, on))
    }

    /// The line that says how B differs from A, while A/B is on.
    pub fn ab_summary(&self) -> Option<String> {
        self.ab
            .as_ref()
            .map(|ab| ab.change.summary(&self.full, self.patterns))
    }

    /// Whether the run is no longer the preset's own: a control, a pattern or the seed has
    /// changed it (the scenario selector then says "modified").
    pub fn modified(&self) -> bool {
        self.config() != self.preset.config()
    }

    /// What the runs are simulated from, and what the views read of B's settings.
    pub fn run_inputs(&self) -> RunInputs {
        let b_settings = self.b();
        RunInputs {
            a: self.config(),
            b: b_settings
                .as_ref()
                .map(|(full, on)| with_patterns(full, *on)),
            ab_summary: self.ab_summary(),
            b_settings,
            table: (self.full.run.seed, self.table_window),
            trace: self.trace,
        }
    }

    /// Whether the next tuning action goes to B.
    pub fn edits_b(&self, action: &Action) -> bool {
        action.tunes() && self.ab.as_ref().is_some_and(|ab| ab.edits == Side::B)
    }

    /// The settings after `action`; `notice` says what had to be corrected or refused. Never
    /// simulates: a refusal that only a run can tell is [`super::state::Page::apply`]'s.
    pub fn apply(&mut self, action: Action, notice: &mut Option<String>) {
        APPLIED.with(|n| n.set(n.get() + 1));
        let before = action.tunes().then(|| self.clone());
        let to_b = self.edits_b(&action);
        self.apply_unchecked(action, notice);
        // A setting the simulator refuses (a layer the stack's library has no place for, ...)
        // leaves the settings as they were and says why.
        if let Some(before) = before.filter(|b| b.check().is_ok()) {
            if let Err(e) = self.check() {
                *notice = Some(unchanged(notice.take().filter(|_| to_b), &e));
                *self = before;
            }
        }
    }

    /// Whether both runs' configs are ones the simulator takes; why not, when not.
    pub fn check(&self) -> Result<(), String> {
        self.config().validate().map_err(|e| refused(&e))?;
        if let Some(b) = self.b_config() {
            b.validate().map_err(|e| format!("B: {}", refused(&e)))?;
        }
        Ok(())
    }

    fn apply_unchecked(&mut self, action: Action, notice: &mut Option<String>) {
        if self.edits_b(&action) {
            self.apply_to_b(action, notice);
            return;
        }
        match action {
            Action::SetKnob(key, value) => match knob(key) {
                Some(k) => {
                    let written = k.write_checked(&mut self.full, value);
                    *notice = written.notice;
                    if written.set {
                        self.switch_on_for(key, notice);
                    }
                }
                None => *notice = Some(format!("there is no control named {key}")),
            },
            Action::SetParam(key, value) => {
                *notice = set_param(&mut self.full, key, value);
                if notice.is_none() {
                    self.switch_on_for(key, notice);
                }
            }
            Action::SetPattern(p, on) => match library_refusal(&self.full, p).filter(|_| on) {
                Some(refusal) => *notice = Some(refusal),
                None => self.patterns.set(p, on),
            },
            Action::PickPreset(preset) => {
                *notice = None;
                let edits = self.ab.as_ref().map(|ab| ab.edits);
                *self = Settings::new(preset);
                self.ab = edits.map(|edits| Ab {
                    change: Change::default(),
                    edits,
                });
            }
            Action::Reset => {
                let seed = self.full.run.seed;
                let fresh = Settings::new(self.preset);
                (self.full, self.patterns) = (fresh.full, fresh.patterns);
                self.full.run.seed = seed;
                *notice = None;
            }
            Action::SetSeed(seed) => self.full.run.seed = seed,
            Action::SetTableWindow(seconds) => {
                let (lo, hi) = TABLE_WINDOW_RANGE;
                *notice = None;
                if seconds.is_finite() {
                    if !(lo..=hi).contains(&seconds) {
                        *notice = Some(format!(
                            "The table's breaker window must be between {lo} and {hi} s; using {}.",
                            seconds.clamp(lo, hi)
                        ));
                    }
                    self.table_window = seconds.clamp(lo, hi);
                }
            }
            Action::PasteResilience4j(read) => self.paste_resilience4j(read, notice),
            Action::SetAb(true) => {
                self.ab.get_or_insert_with(Ab::default);
            }
            Action::SetAb(false) => self.ab = None,
            Action::Follow(pick) => self.trace = pick,
            Action::SetAbEdits(side) => {
                if let Some(ab) = self.ab.as_mut() {
                    ab.edits = side;
                }
            }
            _ => {}
        }
    }

    /// Switches on the pattern a value of `key` needs, as `--set` does (a key of a pattern
    /// that is off switches it on, with the values it has).
    fn switch_on_for(&mut self, key: &str, notice: &mut Option<String>) {
        switch_on(&self.full, &mut self.patterns, key, notice);
    }

    /// The pasted settings on the current config, with their notices as the page's notice;
    /// or, when they cannot be read, the settings unchanged and the reason.
    fn paste_resilience4j(&mut self, read: Result<Parsed, Notice>, notice: &mut Option<String>) {
        let mut cfg = self.config();
        match read.and_then(|parsed| resilience4j_run::apply(&parsed, &mut cfg)) {
            Ok(notices) => {
                self.full = with_every_pattern(&cfg);
                self.patterns = Patterns::of(&cfg);
                let read = "Resilience4j configuration running (Resilience4j's semantics).";
                *notice = Some(if notices.is_empty() {
                    read.to_string()
                } else {
                    let list: Vec<String> = notices.iter().map(ToString::to_string).collect();
                    format!("{read} Not used as written: {}.", list.join("; "))
                });
            }
            Err(e) => {
                *notice = Some(format!(
                    "Resilience4j configuration: {e}; the setting is unchanged."
                ));
            }
        }
    }

    /// A tuning action applied to B. A second control puts the first back to A's value; the
    /// notice says which.
    fn apply_to_b(&mut self, action: Action, notice: &mut Option<String>) {
        let Some(ab) = self.ab.clone() else {
            return;
        };
        let Some(control) = control_of(&action, &ab.change) else {
            return;
        };
        let mut notices = Vec::new();
        let mut change = ab.change.clone();
        if change.control().is_some_and(|c| c != control) {
            notices.push(format!(
                "B differs from A in one control: {} is back to A's value.",
                ab.change.differences(&self.full, self.patterns).join(", ")
            ));
            change = Change::default();
        }
        let moved_before = ab.change.control();
        let key = match action {
            Action::SetKnob(key, _) | Action::SetParam(key, _) => Some(key),
            _ => None,
        };
        let (mut full, mut patterns) = change.on(&self.full, self.patterns);
        match action {
            Action::SetKnob(key, value) => {
                if let Some(k) = knob(key) {
                    let written = k.write_checked(&mut full, value);
                    notices.extend(written.notice);
                    if written.set {
                        let mut said = None;
                        switch_on(&full, &mut patterns, key, &mut said);
                        notices.extend(said);
                    }
                }
            }
            Action::SetParam(key, value) => match set_param(&mut full, key, value) {
                Some(refused) => notices.push(refused),
                None => {
                    let mut said = None;
                    switch_on(&full, &mut patterns, key, &mut said);
                    notices.extend(said);
                }
            },
            Action::SetPattern(p, on) => match library_refusal(&full, p).filter(|_| on) {
                Some(refusal) => notices.push(refusal),
                None => patterns.set(p, on),
            },
            _ => {}
        }
        // A key that switched B's pattern on makes the switch B's one change, with the value.
        let control = match control {
            Control::Knob(key) => switched_on_by(key)
                .filter(|p| patterns.get(*p) != self.patterns.get(*p))
                .map_or(control, Control::Pattern),
            pattern => pattern,
        };
        let a = (&self.full, self.patterns);
        let mut change = Change::between(control, a, (&full, patterns));
        if let (Control::Pattern(p), None) = (control, change.pattern) {
            // The switch is as in A again: while it is off its knobs do nothing, and while it
            // is on the knob just moved is B's one change.
            change = match key.filter(|_| patterns.get(p)) {
                Some(key) => Change::between(Control::Knob(key), a, (&full, patterns)),
                None => Change::default(),
            };
        }
        self.ab = Some(Ab {
            change,
            edits: ab.edits,
        });
        // A notice stays while the same control goes on moving (a drag sends many inputs).
        if !notices.is_empty() {
            *notice = Some(notices.join(" "));
        } else if moved_before != Some(control) {
            *notice = None;
        }
    }
}

/// The notice of a setting refused for `why`, after what the action itself said (`said`).
pub(super) fn unchanged(said: Option<String>, why: &str) -> String {
    match said {
        Some(n) => format!("{n} {why}; the setting is unchanged."),
        None => format!("{why}; the setting is unchanged."),
    }
}

/// Switches on in `patterns` the pattern a value of `key` needs (see
/// [`switched_on_by`]); a pattern the stack has no place for stays off, and `notice` says so.
fn switch_on(full: &SimConfig, patterns: &mut Patterns, key: &str, notice: &mut Option<String>) {
    let Some(p) = switched_on_by(key).filter(|p| !patterns.get(*p)) else {
        return;
    };
    if let Some(refusal) = library_refusal(full, p) {
        *notice = Some(refusal);
    } else {
        patterns.set(p, true);
    }
}

/// Why pattern `p` stays off, when the stack runs a library's profile with no place for it.
fn library_refusal(full: &SimConfig, p: Pattern) -> Option<String> {
    let profile = &full.first_stack()?.profile;
    (!profile.has_place_for(p)).then(|| not_an_aspect(p, profile))
}

/// Writes `value` to the row `key` of `full`; the notice when it is refused (`full` is then
/// unchanged).
fn set_param(full: &mut SimConfig, key: &str, value: Value) -> Option<String> {
    let Some(row) = param(key) else {
        return Some(format!("there is no setting named {key}"));
    };
    row.set(full, value)
        .err()
        .map(|e| format!("{}; the setting is unchanged.", refused(&e)))
}

fn not_an_aspect(p: Pattern, profile: &Profile) -> String {
    format!(
        "{} is not one of the library's strategies (stack={}); it stays off.",
        p.label(),
        profile.key()
    )
}

/// The control `action` changes, given the change B has: a knob of the pattern B switches
/// belongs to that switch.
fn control_of(action: &Action, change: &Change) -> Option<Control> {
    let of_knob = |key: &'static str| match (change.pattern, knob(key).and_then(|k| k.pattern())) {
        (Some((p, _)), Some(q)) if p == q => Control::Pattern(p),
        _ => Control::Knob(key),
    };
    match action {
        Action::SetKnob(key, _) | Action::SetParam(key, _) => Some(of_knob(key)),
        Action::SetPattern(p, _) => Some(Control::Pattern(*p)),
        _ => None,
    }
}
