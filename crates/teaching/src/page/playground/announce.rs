//! What a listener hears while a run plays: the events the timeline marks (inventory slows,
//! every worker busy, the breaker opens ...) and, on a lesson's step, each sentence of "What
//! to notice" once the run reaches it; at most one announcement every few seconds of wall
//! time (the step's sentences each in turn, of the marks the latest when several came in
//! between); nothing on each frame (WCAG 2.2.2, and a pace a listener can follow). Pure: the
//! page hands in the playhead and the wall clock.

use super::replay::clock;
use crate::page::markers::Marker;
use crate::sim::latency::Micros;

/// The least wall time between two announcements, in milliseconds.
pub const MIN_GAP_MS: f64 = 3_000.0;

/// Where the announcements stand in a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Announcer {
    /// The playhead up to which the marks have been taken in.
    heard_up_to: Micros,
    /// When the last announcement was made (wall clock, ms).
    last_spoken_ms: f64,
    /// The latest mark not yet announced, and how many came before it unannounced.
    pending: Option<(usize, usize)>,
    /// Each of the step's rules taken in (by its place in the step), with the shape of its
    /// sentence then: the sentence without its figures.
    noticed: Vec<(usize, String)>,
    /// Sentences of the step taken in and not yet said, by rule, first come first; a waiting
    /// one keeps its latest figures.
    notices_due: std::collections::VecDeque<(usize, String)>,
}

impl Default for Announcer {
    fn default() -> Announcer {
        Announcer {
            heard_up_to: 0,
            last_spoken_ms: f64::NEG_INFINITY,
            pending: None,
            noticed: Vec::new(),
            notices_due: std::collections::VecDeque::new(),
        }
    }
}

impl Announcer {
    /// Takes in the marks up to `playhead` without announcing them (while paused or when
    /// the switch is off: what happened then is not said later).
    pub fn skip_to(&mut self, playhead: Micros) {
        self.heard_up_to = playhead;
        self.pending = None;
        self.notices_due.clear();
    }

    /// [`Announcer::advance`] on a lesson's step: `notices` are the step's sentences the run
    /// says at the playhead, each with its rule's place in the step. A rule's sentence is said
    /// when it first appears, and again only when it says something else (not when only its
    /// figures moved: "the breaker has stayed closed" then "the breaker first opened at ..."),
    /// one per announcement; the marks are said when no sentence waits.
    pub fn advance_with_notices(
        &mut self,
        markers: &[Marker],
        notices: &[(usize, String)],
        playhead: Micros,
        now_ms: f64,
        clock_start: Option<Micros>,
    ) -> Option<String> {
        if playhead < self.heard_up_to {
            self.noticed.clear();
            self.notices_due.clear();
        }
        for (rule, sentence) in notices {
            let now_shape = shape(sentence);
            let changed = match self.noticed.iter_mut().find(|(r, _)| r == rule) {
                Some((_, last)) if *last == now_shape => false,
                Some((_, last)) => {
                    *last = now_shape;
                    true
                }
                None => {
                    self.noticed.push((*rule, now_shape));
                    true
                }
            };
            if let Some((_, waiting)) = self.notices_due.iter_mut().find(|(r, _)| r == rule) {
                waiting.clone_from(sentence);
            } else if changed {
                self.notices_due.push_back((*rule, sentence.clone()));
            }
        }
        // The step's sentences carry the lesson: a mark is said when none waits (the marks
        // reached meanwhile are taken in, and wait).
        if self.notices_due.is_empty() {
            return self.advance(markers, playhead, now_ms, clock_start);
        }
        self.take_in(markers, playhead);
        // (Paused, `now_ms` is minus infinity: nothing is said, whatever was said last.)
        let since = now_ms - self.last_spoken_ms;
        if since.is_nan() || since < MIN_GAP_MS {
            return None;
        }
        self.last_spoken_ms = now_ms;
        self.notices_due.pop_front().map(|(_, sentence)| sentence)
    }

    /// Takes in the marks up to `playhead` (the latest waits, with how many came before it);
    /// a playhead moved back starts over from there.
    fn take_in(&mut self, markers: &[Marker], playhead: Micros) {
        if playhead < self.heard_up_to {
            self.heard_up_to = playhead;
            self.pending = None;
        }
        for (i, m) in markers.iter().enumerate() {
            if m.at > self.heard_up_to && m.at <= playhead {
                let skipped = self.pending.map_or(0, |(_, n)| n + 1);
                self.pending = Some((i, skipped));
            }
        }
        self.heard_up_to = playhead;
    }

    /// The playhead is at `playhead` at wall time `now_ms`: the sentence to announce now, if
    /// one is due. A playhead moved back (a seek, the start again) starts over from there.
    pub fn advance(
        &mut self,
        markers: &[Marker],
        playhead: Micros,
        now_ms: f64,
        clock_start: Option<Micros>,
    ) -> Option<String> {
        self.take_in(markers, playhead);
        let (i, skipped) = self.pending?;
        if now_ms - self.last_spoken_ms < MIN_GAP_MS {
            return None;
        }
        self.pending = None;
        self.last_spoken_ms = now_ms;
        let m = &markers[i];
        let mut sentence = format!("{}: {}", clock(m.at, clock_start), m.label);
        match skipped {
            0 => {}
            1 => sentence.push_str(" (and 1 earlier event)"),
            n => sentence.push_str(&format!(" (and {n} earlier events)")),
        }
        Some(sentence)
    }
}

/// A sentence without its figures: what it says, whatever the numbers.
fn shape(sentence: &str) -> String {
    sentence
        .split_whitespace()
        .filter_map(|word| {
            let w: String = word
                .chars()
                .filter(|c| c.is_alphabetic() || *c == '\'' || *c == '-')
                .collect();
            (!w.is_empty()).then_some(w)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::markers::MarkerKind;

    fn mark(at_s: u64, label: &str) -> Marker {
        Marker {
            at: at_s * 1_000_000,
            kind: MarkerKind::Degraded,
            label: label.into(),
        }
    }

    #[test]
    fn at_most_one_announcement_every_few_seconds_the_latest_first() {
        let marks = [
            mark(3, "slows"),
            mark(6, "opens"),
            mark(8, "half-open"),
            mark(9, "opens"),
        ];
        let mut a = Announcer::default();
        // Frames at 10x: 100 ms of wall time is 1 s of the run.
        let mut heard = Vec::new();
        for frame in 0..=100u64 {
            let now_ms = frame as f64 * 100.0;
            let playhead = frame * 1_000_000;
            if let Some(s) = a.advance(&marks, playhead.min(12_000_000), now_ms, None) {
                heard.push((now_ms, s));
            }
        }
        assert_eq!(heard.len(), 2, "{heard:?}");
        assert!(heard[0].1.contains("slows"), "{heard:?}");
        assert!(
            heard[1].1.contains("opens") && heard[1].1.contains("and 2 earlier events"),
            "{heard:?}"
        );
        assert!(heard[1].0 - heard[0].0 >= MIN_GAP_MS);
        // Skipped while paused: not said later.
        a.skip_to(10_000_000);
        assert!(a.advance(&marks, 11_000_000, 30_000.0, None).is_none());
        // Back to the start: the marks are heard again.
        assert!(a.advance(&marks, 0, 20_000.0, None).is_none());
        assert!(a
            .advance(&marks, 4_000_000, 20_100.0, None)
            .is_some_and(|s| s.contains("slows")));
    }

    #[test]
    fn without_sentences_a_step_hears_its_marks_as_the_playground_does() {
        let marks = [mark(3, "slows"), mark(6, "opens")];
        let (mut plain, mut step) = (Announcer::default(), Announcer::default());
        for frame in 0..=120u64 {
            let (now_ms, playhead) = (frame as f64 * 100.0, frame * 100_000);
            assert_eq!(
                step.advance_with_notices(&marks, &[], playhead, now_ms, None),
                plain.advance(&marks, playhead, now_ms, None),
                "at {playhead}"
            );
        }
        assert!(
            plain.advance(&marks, 13_000_000, 1e9, None).is_none(),
            "all said"
        );
    }

    #[test]
    fn each_sentence_of_a_step_is_said_once_in_turn_with_the_marks_after() {
        let marks = [mark(3, "slows"), mark(5, "opens")];
        let mut a = Announcer::default();
        let mut heard = Vec::new();
        // The step's first sentence from 4 s on, its second from 5 s (the same rule's figure
        // changes as the run goes on: it is said once).
        for frame in 0..=120u64 {
            let now_ms = frame as f64 * 100.0;
            let playhead = frame * 100_000;
            let mut notices = Vec::new();
            if playhead >= 4_000_000 {
                notices.push((0, format!("The queue reached {} requests.", frame * 10)));
            }
            if (2_000_000..6_000_000).contains(&playhead) {
                notices.push((
                    1,
                    format!("By {}.0 s, the breaker stayed closed.", frame / 10),
                ));
            } else if playhead >= 6_000_000 {
                notices.push((1, "The breaker first opened at 6.0 s.".to_string()));
            }
            if playhead >= 5_000_000 {
                notices.push((2, "The breaker opened at 5.0 s.".to_string()));
            }
            if let Some(s) = a.advance_with_notices(&marks, &notices, playhead, now_ms, None) {
                heard.push((now_ms, s));
            }
        }
        let said: Vec<&str> = heard.iter().map(|(_, s)| s.as_str()).collect();
        assert_eq!(
            said,
            [
                "By 2.0 s, the breaker stayed closed.",
                "The queue reached 500 requests.",
                "The breaker opened at 5.0 s.",
                "The breaker first opened at 6.0 s.",
            ],
            "the sentences first, each waiting one with its latest figures"
        );
        assert!(heard.windows(2).all(|w| w[1].0 - w[0].0 >= MIN_GAP_MS));
        // The marks come when no sentence waits; a rule's figures moving alone are not said.
        let next = a.advance_with_notices(
            &marks,
            &[(1, "The breaker first opened at 6.5 s.".into())],
            12_000_000,
            20_000.0,
            None,
        );
        assert!(next.is_some_and(|s| s.contains("opens")));
        let same = a.advance_with_notices(
            &marks,
            &[(1, "The breaker first opened at 7.5 s.".into())],
            12_000_000,
            40_000.0,
            None,
        );
        assert_eq!(same, None);
        // From the start again: the sentences are said again.
        assert!(a
            .advance_with_notices(&marks, &[], 0, 200_000.0, None)
            .is_none());
        let again = a.advance_with_notices(
            &marks,
            &[(0, "The queue reached 10 requests.".into())],
            100_000,
            300_000.0,
            None,
        );
        assert_eq!(again.as_deref(), Some("The queue reached 10 requests."));
    }
}
