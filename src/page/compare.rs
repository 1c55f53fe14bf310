//! The playground's A/B mode: run B is run A with one control changed, on the same seed, both
//! simulated and read at the same playhead. B is never stored on its own: it is A's settings
//! with [`Change`] on top, so a change to A (a seed, a preset's reset) reaches B too.
//!
//! One control means one knob, or one pattern's switch together with that pattern's own
//! knobs (switching the bulkhead on in B and giving it 16 permits is one change). Changing a
//! second control in B puts the first back to A's value, and the notice says so: the point of
//! the comparison is that only one thing differs.

use super::knobs::{knob, Knob, Pattern, Patterns, Unit, KNOBS};
use super::latency::{histogram_until, LatencyKind, OutcomeHistogram};
use super::lessons::rules::duration;
use super::replay::frame;
use super::state::{Action, Page, Run, Shared};
use crate::sim::latency::Micros;
use crate::sim::model::CascadeConfig;
use crate::sim::scenario::apply_set;
use crate::sim::trace::Outcome;

/// Which run the controls change while A/B is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Side {
    /// The control run (B follows it, with its one change on top).
    A,
    /// The run with one control changed.
    #[default]
    B,
}

/// The one control B changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// A knob, by key.
    Knob(&'static str),
    /// A pattern's switch, with that pattern's knobs.
    Pattern(Pattern),
}

/// How B differs from A: a pattern switched (with its knobs), or one knob; empty while B is
/// still a copy of A.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Change {
    /// A pattern B switches, and to what.
    pub pattern: Option<(Pattern, bool)>,
    /// Knobs B sets, as `key=value` override text (the CLI's units).
    pub knobs: Vec<(&'static str, String)>,
}

impl Change {
    /// B is a copy of A.
    pub fn is_empty(&self) -> bool {
        self.pattern.is_none() && self.knobs.is_empty()
    }

    /// The control it changes.
    pub fn control(&self) -> Option<Control> {
        match (&self.pattern, self.knobs.first()) {
            (Some((p, _)), _) => Some(Control::Pattern(*p)),
            (None, Some((key, _))) => Some(Control::Knob(key)),
            (None, None) => None,
        }
    }

    /// A's settings with the change on top: B's settings, or why they cannot be made.
    pub fn on(&self, full: &CascadeConfig, patterns: Patterns) -> (CascadeConfig, Patterns) {
        let mut full = full.clone();
        let mut patterns = patterns;
        for (key, text) in &self.knobs {
            // The texts were read from a valid config; one that A's values now refuse is
            // left out rather than breaking B.
            let mut scratch = full.clone();
            if apply_set(&mut scratch, key, text).is_ok() && scratch.validate().is_ok() {
                full = scratch;
            }
        }
        if let Some((p, on)) = self.pattern {
            patterns.set(p, on);
        }
        (full, patterns)
    }

    /// What `control` changes from `a` to `b`, read back from the two settings.
    fn between(
        control: Control,
        (a, a_on): (&CascadeConfig, Patterns),
        (b, b_on): (&CascadeConfig, Patterns),
    ) -> Change {
        let differs = |k: &Knob| k.read(a) != k.read(b);
        let text = |k: &'static Knob| (k.key, k.link_text(b));
        match control {
            Control::Knob(key) => Change {
                pattern: None,
                knobs: knob(key)
                    .filter(|k| differs(k))
                    .map(text)
                    .into_iter()
                    .collect(),
            },
            Control::Pattern(p) => Change {
                pattern: (a_on.get(p) != b_on.get(p)).then_some((p, b_on.get(p))),
                knobs: KNOBS
                    .iter()
                    .filter(|k| k.pattern == Some(p) && differs(k))
                    .map(text)
                    .collect(),
            },
        }
    }
}

/// Run B of the A/B mode.
#[derive(Debug, Clone)]
pub struct Compare {
    /// How B differs from A.
    pub change: Change,
    /// Which run the controls change.
    pub edits: Side,
    /// B's parameters, every pattern present (A's with the change).
    pub full: CascadeConfig,
    /// B's patterns.
    pub patterns: Patterns,
    /// B's run, or why there is none.
    pub run: Result<Shared<Run>, String>,
}

impl Compare {
    /// B with `change` on A's settings, simulated.
    pub fn new(change: Change, edits: Side, a_full: &CascadeConfig, a_on: Patterns) -> Compare {
        let (full, patterns) = change.on(a_full, a_on);
        let run = Run::of(super::knobs::with_patterns(&full, patterns)).map(|r| Shared(r.into()));
        Compare {
            change,
            edits,
            full,
            patterns,
            run,
        }
    }

    /// What differs, one phrase per setting: "Timeout 300 ms → 1 s".
    pub fn differences(&self, a_full: &CascadeConfig, a_on: Patterns) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((p, on)) = self.change.pattern {
            let word = |on: bool| if on { "on" } else { "off" };
            out.push(format!(
                "{} {} → {}",
                p.label(),
                word(a_on.get(p)),
                word(on)
            ));
        }
        for (key, _) in &self.change.knobs {
            if let Some(k) = knob(key) {
                out.push(format!(
                    "{} {} → {}",
                    k.label,
                    shown(k, k.read(a_full)),
                    shown(k, k.read(&self.full))
                ));
            }
        }
        out
    }

    /// The line that says how B differs from A.
    pub fn summary(&self, a_full: &CascadeConfig, a_on: Patterns) -> String {
        let list = self.differences(a_full, a_on);
        if list.is_empty() {
            "B is a copy of A (same seed): change one control to compare.".to_string()
        } else {
            format!("B: {}", list.join(", "))
        }
    }
}

/// A knob's value as the page prints it, in its unit.
fn shown(k: &Knob, value: f64) -> String {
    let choices = k.choices();
    if !choices.is_empty() {
        return k.override_text(value);
    }
    match k.unit {
        Unit::Millis => duration((value * 1_000.0).round() as Micros),
        Unit::Seconds => format!("{value} s"),
        Unit::Percent => format!("{value} %"),
        Unit::PerSecond => format!("{value} req/s"),
        Unit::Count => k.override_text(value),
    }
}

/// Whether `action` tunes the run (and so goes to B while the controls change B).
fn tunes(action: &Action) -> bool {
    matches!(
        action,
        Action::SetKnob(..) | Action::SetKnobText(..) | Action::SetPattern(..)
    )
}

/// The control `action` changes, given the change B has: a knob of the pattern B switches
/// belongs to that switch.
fn control_of(action: &Action, change: &Change) -> Option<Control> {
    let of_knob = |key: &'static str| match (change.pattern, knob(key).and_then(|k| k.pattern)) {
        (Some((p, _)), Some(q)) if p == q => Control::Pattern(p),
        _ => Control::Knob(key),
    };
    match action {
        Action::SetKnob(key, _) | Action::SetKnobText(key, _) => Some(of_knob(key)),
        Action::SetPattern(p, _) => Some(Control::Pattern(*p)),
        _ => None,
    }
}

impl Page {
    /// Whether the next tuning action goes to B.
    pub(super) fn edits_b(&self, action: &Action) -> bool {
        tunes(action) && self.ab.as_ref().is_some_and(|c| c.edits == Side::B)
    }

    /// A/B on (B a copy of A) or off.
    pub(super) fn set_ab(&mut self, on: bool) {
        self.ab = match (on, self.ab.take()) {
            (true, Some(kept)) => Some(kept),
            (true, None) => Some(Compare::new(
                Change::default(),
                Side::B,
                &self.full,
                self.patterns,
            )),
            (false, _) => None,
        };
        self.playhead = self.playhead.min(self.span());
    }

    /// Which run the controls change.
    pub(super) fn set_ab_edits(&mut self, side: Side) {
        if let Some(c) = self.ab.as_mut() {
            c.edits = side;
        }
    }

    /// B again from A's settings (after A changed), its change kept.
    pub(super) fn follow_a(&mut self) {
        if let Some(c) = self.ab.take() {
            self.ab = Some(Compare::new(c.change, c.edits, &self.full, self.patterns));
        }
    }

    /// A tuning action applied to B. A second control puts the first back to A's value; a
    /// setting B's run cannot take leaves B as it was; the notice says which.
    pub(super) fn apply_to_b(mut self, action: Action) -> Page {
        let Some(before) = self.ab.take() else {
            return self;
        };
        let Some(control) = control_of(&action, &before.change) else {
            self.ab = Some(before);
            return self;
        };
        let mut notices = Vec::new();
        let mut change = before.change.clone();
        if change.control().is_some_and(|c| c != control) {
            notices.push(format!(
                "B differs from A in one control: {} is back to A's value.",
                before.differences(&self.full, self.patterns).join(", ")
            ));
            change = Change::default();
        }
        let moved_before = before.change.control();
        let (mut full, mut patterns) = change.on(&self.full, self.patterns);
        match action {
            Action::SetKnob(key, value) => {
                if let Some(n) = knob(key).and_then(|k| k.write(&mut full, value)) {
                    notices.push(n);
                }
            }
            Action::SetKnobText(key, text) => {
                if let Err(e) = apply_set(&mut full, key, &text) {
                    notices.push(format!("{e}; the setting is unchanged."));
                }
            }
            Action::SetPattern(p, on) => {
                if on
                    && full.resilience4j.is_some()
                    && matches!(p, Pattern::Hedge | Pattern::RetryBudget)
                {
                    notices.push(format!(
                        "{} is not one of Resilience4j's aspects (stack=resilience4j); it stays off.",
                        p.label()
                    ));
                } else {
                    patterns.set(p, on);
                }
            }
            _ => {}
        }
        let change = Change::between(control, (&self.full, self.patterns), (&full, patterns));
        let after = Compare::new(change, before.edits, &self.full, self.patterns);
        self.ab = Some(match (&after.run, &before.run) {
            (Err(e), Ok(_)) => {
                notices.push(format!("B: {e}; the setting is unchanged."));
                before
            }
            _ => after,
        });
        // A notice stays while the same control goes on moving (a drag sends many inputs).
        if !notices.is_empty() {
            self.notice = Some(notices.join(" "));
        } else if moved_before != Some(control) {
            self.notice = None;
        }
        self.playhead = self.playhead.min(self.span());
        self
    }
}

/// One line of the A/B counters: a figure of both runs at the playhead and B minus A.
#[derive(Debug, Clone, PartialEq)]
pub struct CounterRow {
    /// A key for element ids (`ok`, `timeout`, `p99`...).
    pub key: String,
    /// What it counts.
    pub label: String,
    /// A's figure as shown.
    pub a: String,
    /// B's figure as shown.
    pub b: String,
    /// B minus A as shown (`+12`, `−3`, `0`, or `—` when one side has none).
    pub diff: String,
}

/// Both runs' histograms at the playhead, for the latency chart and the counters.
pub fn histograms(
    a: &Run,
    b: &Run,
    at: Micros,
    kind: LatencyKind,
) -> (OutcomeHistogram, OutcomeHistogram) {
    (
        histogram_until(&a.finished, at, kind),
        histogram_until(&b.finished, at, kind),
    )
}

fn signed(d: i128, unit: &str) -> String {
    match d {
        0 => "0".to_string(),
        d if d > 0 => format!("+{d}{unit}"),
        d => format!("−{}{unit}", d.unsigned_abs()),
    }
}

/// The counters of A and B at `at`: arrivals, each outcome either run has, the clients still
/// waiting, then p50 and p99 of `hist` (A's and B's histograms).
pub fn counters(
    a: &Run,
    b: &Run,
    at: Micros,
    hist: (&OutcomeHistogram, &OutcomeHistogram),
) -> Vec<CounterRow> {
    let (fa, fb) = (frame(&a.trace, at), frame(&b.trace, at));
    let count = |key: &str, label: &str, x: u64, y: u64| CounterRow {
        key: key.to_string(),
        label: label.to_string(),
        a: x.to_string(),
        b: y.to_string(),
        diff: signed(i128::from(y) - i128::from(x), ""),
    };
    let mut rows = vec![count("arrived", "arrived", fa.arrived, fb.arrived)];
    // A's counters in their order (the lesson's four first), then any B has besides.
    let mut outcomes: Vec<Outcome> = a.outcomes.clone();
    outcomes.extend(b.outcomes.iter().filter(|o| !a.outcomes.contains(o)));
    for o in outcomes {
        rows.push(count(
            o.name(),
            crate::page::glossary::outcome_words(o),
            fa.finished.get(o),
            fb.finished.get(o),
        ));
    }
    rows.push(count(
        "waiting",
        "still waiting",
        fa.waiting(),
        fb.waiting(),
    ));
    let ms = |v: Option<Micros>| v.map_or("—".to_string(), duration);
    for (key, pick) in [
        (
            "p50",
            (|h: &OutcomeHistogram| h.percentiles.p50) as fn(&_) -> _,
        ),
        ("p99", |h: &OutcomeHistogram| h.percentiles.p99),
    ] {
        let (x, y) = (pick(hist.0), pick(hist.1));
        let diff = match (x, y) {
            (Some(x), Some(y)) if y >= x => format!("+{}", duration(y - x)),
            (Some(x), Some(y)) => format!("−{}", duration(x - y)),
            _ => "—".to_string(),
        };
        let diff = if x == y && x.is_some() {
            "0".into()
        } else {
            diff
        };
        rows.push(CounterRow {
            key: key.to_string(),
            label: key.to_string(),
            a: ms(x),
            b: ms(y),
            diff,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::{Preset, Scenario};

    fn cascade() -> Page {
        Page::new(Preset::Lesson(Scenario::None), false).apply(Action::SetAb(true))
    }

    fn b(p: &Page) -> &Run {
        p.ab.as_ref().unwrap().run.as_ref().unwrap()
    }

    fn a(p: &Page) -> &Run {
        p.run.as_ref().unwrap()
    }

    #[test]
    fn b_starts_as_a_copy_on_the_same_seed() {
        let p = cascade();
        assert_eq!(a(&p).trace, b(&p).trace);
        let c = p.ab.as_ref().unwrap();
        assert!(c.change.is_empty());
        assert!(c.summary(&p.full, p.patterns).contains("copy of A"));
    }

    #[test]
    fn a_timeout_in_b_times_out_where_a_does_not() {
        let p = cascade().apply(Action::SetPattern(Pattern::Timeout, true));
        assert_eq!(a(&p).trace.outcomes.timeout, 0);
        assert!(b(&p).trace.outcomes.timeout > 0);
        assert!(!p.patterns.timeout, "A keeps no timeout");
        let c = p.ab.as_ref().unwrap();
        assert_eq!(c.summary(&p.full, p.patterns), "B: Timeout off → on");
        // Its knob belongs to the same change.
        let p = p.apply(Action::SetKnob("timeout", 1_000.0));
        let c = p.ab.as_ref().unwrap();
        assert_eq!(
            c.summary(&p.full, p.patterns),
            "B: Timeout off → on, Timeout 300 ms → 1 s"
        );
        assert_eq!(p.notice, None);
        let rows = counters(
            a(&p),
            b(&p),
            a(&p).span,
            (
                &histogram_until(&a(&p).finished, u64::MAX, LatencyKind::Service),
                &histogram_until(&b(&p).finished, u64::MAX, LatencyKind::Service),
            ),
        );
        let timeout = rows.iter().find(|r| r.key == "timeout").unwrap();
        assert_eq!(timeout.a, "0");
        assert!(timeout.diff.starts_with('+'), "{timeout:?}");
    }

    #[test]
    fn a_second_control_puts_the_first_back_and_says_so() {
        let p = Page::new(Preset::Lesson(Scenario::Cb), false)
            .apply(Action::SetAb(true))
            .apply(Action::SetKnob("timeout", 1_000.0))
            .apply(Action::SetKnob("window", 1.0));
        let c = p.ab.as_ref().unwrap();
        assert_eq!(
            c.summary(&p.full, p.patterns),
            "B: Breaker window 10 s → 1 s"
        );
        let notice = p.notice.as_deref().unwrap();
        assert!(notice.contains("Timeout 300 ms → 1 s is back"), "{notice}");
        assert_eq!(c.full.timeout, Some(300_000));
        // The notice stays while the same control goes on moving.
        let p = p.apply(Action::SetKnob("window", 2.0));
        assert!(p.notice.as_deref().unwrap().contains("is back"));
        // Moving it back to A's value leaves B a copy again.
        let p = p.apply(Action::SetKnob("window", 10.0));
        assert!(p.ab.as_ref().unwrap().change.is_empty());
        assert_eq!(a(&p).trace, b(&p).trace);
    }

    #[test]
    fn controls_can_change_a_and_b_follows_with_its_change() {
        let p = cascade()
            .apply(Action::SetPattern(Pattern::Timeout, true))
            .apply(Action::SetAbEdits(Side::A))
            .apply(Action::SetKnob("threads", 96.0));
        assert_eq!(p.config().threads, 96);
        let c = p.ab.as_ref().unwrap();
        assert_eq!(c.full.threads, 96, "B follows A");
        assert!(c.patterns.timeout);
        let p = p.apply(Action::SetSeed(5));
        assert_eq!(b(&p).config.seed, 5);
        // A new preset starts B over as a copy.
        let p = p.apply(Action::PickPreset(Preset::Lesson(Scenario::Cb)));
        assert!(p.ab.as_ref().unwrap().change.is_empty());
        assert!(p.apply(Action::SetAb(false)).ab.is_none());
    }

    #[test]
    fn the_playhead_runs_over_the_longer_run() {
        // Timeout in A, none in B: B drains for two minutes, A in about 12 s.
        let p = Page::new(Preset::Lesson(Scenario::Timeout), false)
            .apply(Action::SetAb(true))
            .apply(Action::SetPattern(Pattern::Timeout, false))
            .apply(Action::Seek(u64::MAX));
        assert!(b(&p).span > a(&p).span);
        assert_eq!(p.playhead, b(&p).span);
    }
}
