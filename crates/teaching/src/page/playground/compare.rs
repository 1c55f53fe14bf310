//! The playground's A/B mode: run B is run A with one control changed, on the same seed, both
//! simulated and read at the same playhead. B is never stored on its own: it is A's settings
//! with [`Change`] on top, so a change to A (a seed, a preset's reset) reaches B too.
//!
//! One control means one knob, or one pattern's switch together with that pattern's own
//! knobs (switching the bulkhead on in B and giving it 16 permits is one change). Changing a
//! second control in B puts the first back to A's value, and the notice says so: the point of
//! the comparison is that only one thing differs.

use super::knobs::{knob, Knob, Pattern, Patterns, KNOBS};
use super::replay::frame;
use super::runs::Run;
use crate::page::latency::{histogram_until, LatencyKind, OutcomeHistogram};
use crate::page::numbers::duration;
use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;
use crate::sim::params::Value;
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
    /// Knobs B sets, each to a value of its row.
    pub knobs: Vec<(&'static str, Value)>,
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
    pub fn on(&self, full: &SimConfig, patterns: Patterns) -> (SimConfig, Patterns) {
        let mut full = full.clone();
        let mut patterns = patterns;
        for (key, value) in &self.knobs {
            // The values were read from a valid config; one that A's values now refuse is
            // left out rather than breaking B.
            let mut scratch = full.clone();
            let taken = knob(key)
                .and_then(|k| k.param())
                .map(|row| row.set(&mut scratch, *value));
            if matches!(taken, Some(Ok(_))) && scratch.validate().is_ok() {
                full = scratch;
            }
        }
        if let Some((p, on)) = self.pattern {
            patterns.set(p, on);
        }
        (full, patterns)
    }

    /// What `control` changes from `a` to `b`, read back from the two settings.
    pub(super) fn between(
        control: Control,
        (a, a_on): (&SimConfig, Patterns),
        (b, b_on): (&SimConfig, Patterns),
    ) -> Change {
        let differs = |k: &Knob| k.read(a) != k.read(b);
        let value = |k: &'static Knob| {
            let read = k.param().and_then(|row| (row.read)(b));
            read.map(|v| (k.key, v))
        };
        match control {
            Control::Knob(key) => Change {
                pattern: None,
                knobs: knob(key)
                    .filter(|k| differs(k))
                    .and_then(value)
                    .into_iter()
                    .collect(),
            },
            Control::Pattern(p) => Change {
                pattern: (a_on.get(p) != b_on.get(p)).then_some((p, b_on.get(p))),
                knobs: KNOBS
                    .iter()
                    .filter(|k| k.pattern() == Some(p) && differs(k))
                    .filter_map(value)
                    .collect(),
            },
        }
    }

    /// What differs from A (`a_full`, `a_on`), one phrase per setting: "Timeout 300 ms → 1 s".
    pub fn differences(&self, a_full: &SimConfig, a_on: Patterns) -> Vec<String> {
        let (b_full, _) = self.on(a_full, a_on);
        let mut out = Vec::new();
        if let Some((p, on)) = self.pattern {
            let word = |on: bool| if on { "on" } else { "off" };
            out.push(format!(
                "{} {} → {}",
                p.label(),
                word(a_on.get(p)),
                word(on)
            ));
        }
        for (key, _) in &self.knobs {
            if let Some(k) = knob(key) {
                out.push(format!(
                    "{} {} → {}",
                    k.panel.label,
                    k.shown(k.read(a_full)),
                    k.shown(k.read(&b_full))
                ));
            }
        }
        out
    }

    /// The line that says how B differs from A.
    pub fn summary(&self, a_full: &SimConfig, a_on: Patterns) -> String {
        let list = self.differences(a_full, a_on);
        if list.is_empty() {
            "B is a copy of A (same seed): change one control to compare.".to_string()
        } else {
            format!("B: {}", list.join(", "))
        }
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

/// The outcomes A and B count on the playground: A's in their order (the lesson's four
/// first), then any B has besides.
pub fn ab_outcomes(a: &Run, b: &Run) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = a.outcomes.clone();
    outcomes.extend(b.outcomes.iter().filter(|o| !a.outcomes.contains(o)));
    outcomes
}

/// The counters of A and B at `at`: arrivals, each of `outcomes`, the clients still waiting,
/// then p50 and p99 of `hist` (A's and B's histograms).
pub fn counters(
    a: &Run,
    b: &Run,
    outcomes: &[Outcome],
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
    for &o in outcomes {
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
    use crate::page::action::Action;
    use crate::page::state::Page;
    use crate::sim::scenario::{Preset, Scenario};

    fn cascade() -> Page {
        Page::new(Preset::Lesson(Scenario::None), false).apply(Action::SetAb(true))
    }

    fn b(p: &Page) -> &Run {
        p.b_run().unwrap()
    }

    fn a(p: &Page) -> &Run {
        p.runs.a.as_ref().unwrap()
    }

    #[test]
    fn b_starts_as_a_copy_on_the_same_seed() {
        let p = cascade();
        assert_eq!(a(&p).trace, b(&p).trace);
        let c = p.settings.ab.as_ref().unwrap();
        assert!(c.change.is_empty());
        assert!(p.settings.ab_summary().unwrap().contains("copy of A"));
    }

    #[test]
    fn a_timeout_in_b_times_out_where_a_does_not() {
        let p = cascade().apply(Action::SetPattern(Pattern::TIMEOUT, true));
        assert_eq!(a(&p).trace.outcomes.timeout, 0);
        assert!(b(&p).trace.outcomes.timeout > 0);
        assert!(
            !p.settings.patterns.get(Pattern::TIMEOUT),
            "A keeps no timeout"
        );
        assert_eq!(p.settings.ab_summary().unwrap(), "B: Timeout off → on");
        // Its knob belongs to the same change.
        let p = p.apply(Action::SetKnob("timeout", 1_000.0));
        assert_eq!(
            p.settings.ab_summary().unwrap(),
            "B: Timeout off → on, Timeout 300 ms → 1 s"
        );
        assert_eq!(p.notice, None);
        let rows = counters(
            a(&p),
            b(&p),
            &ab_outcomes(a(&p), b(&p)),
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

    /// A switch put back as A has it ends the pattern's change: while it is off its knobs do
    /// nothing (B is a copy of A again), while it is on the knob moved is the one change.
    #[test]
    fn a_switch_back_as_in_a_leaves_one_control_at_most() {
        // The adaptive limit's start at 0 is taken as 1 and moves its floor along: two knobs.
        let p = cascade().apply(Action::SetKnob("limit_initial", 0.0));
        let change = &p.settings.ab.as_ref().unwrap().change;
        assert_eq!(change.pattern, Some((Pattern::ADAPTIVE_LIMIT, true)));
        assert_eq!(change.knobs.len(), 2, "{change:?}");
        let p = p.apply(Action::SetPattern(Pattern::ADAPTIVE_LIMIT, false));
        assert!(p.settings.ab.as_ref().unwrap().change.is_empty());
        assert_eq!(a(&p).trace, b(&p).trace);

        let story = Page::new(Preset::StoryAdaptiveLimit, false).apply(Action::SetAb(true));
        let p = story
            .apply(Action::SetPattern(Pattern::ADAPTIVE_LIMIT, false))
            .apply(Action::SetKnob("limit_initial", 0.0));
        let change = &p.settings.ab.as_ref().unwrap().change;
        assert_eq!(change.pattern, None, "the limit is on in A and B");
        assert_eq!(change.knobs.len(), 1, "{change:?}");
        assert_eq!(change.knobs[0].0, "limit_initial");
    }

    #[test]
    fn a_second_control_puts_the_first_back_and_says_so() {
        let p = Page::new(Preset::Lesson(Scenario::Cb), false)
            .apply(Action::SetAb(true))
            .apply(Action::SetKnob("timeout", 1_000.0))
            .apply(Action::SetKnob("window", 1.0));
        assert_eq!(
            p.settings.ab_summary().unwrap(),
            "B: Breaker window 10 s → 1 s"
        );
        let notice = p.notice.as_deref().unwrap();
        assert!(notice.contains("Timeout 300 ms → 1 s is back"), "{notice}");
        assert_eq!(
            p.settings.b().unwrap().0.first_stack().unwrap().timeout,
            Some(300_000)
        );
        // The notice stays while the same control goes on moving.
        let p = p.apply(Action::SetKnob("window", 2.0));
        assert!(p.notice.as_deref().unwrap().contains("is back"));
        // Moving it back to A's value leaves B a copy again.
        let p = p.apply(Action::SetKnob("window", 10.0));
        assert!(p.settings.ab.as_ref().unwrap().change.is_empty());
        assert_eq!(a(&p).trace, b(&p).trace);
    }

    #[test]
    fn controls_can_change_a_and_b_follows_with_its_change() {
        let p = cascade()
            .apply(Action::SetPattern(Pattern::TIMEOUT, true))
            .apply(Action::SetAbEdits(Side::A))
            .apply(Action::SetKnob("threads", 96.0));
        assert_eq!(p.config().service.threads, 96);
        let (b_full, b_on) = p.settings.b().unwrap();
        assert_eq!(b_full.service.threads, 96, "B follows A");
        assert!(b_on.get(Pattern::TIMEOUT));
        let p = p.apply(Action::SetSeed(5));
        assert_eq!(b(&p).config.run.seed, 5);
        // A new preset starts B over as a copy.
        let p = p.apply(Action::PickPreset(Preset::Lesson(Scenario::Cb)));
        assert!(p.settings.ab.as_ref().unwrap().change.is_empty());
        assert!(p.apply(Action::SetAb(false)).settings.ab.is_none());
    }

    #[test]
    fn the_playhead_runs_over_the_longer_run() {
        // Timeout in A, none in B: B drains for two minutes, A in about 12 s.
        let p = Page::new(Preset::Lesson(Scenario::Timeout), false)
            .apply(Action::SetAb(true))
            .apply(Action::SetPattern(Pattern::TIMEOUT, false))
            .apply(Action::Seek(u64::MAX));
        assert!(b(&p).span > a(&p).span);
        assert_eq!(p.playback.playhead, b(&p).span);
    }
}
