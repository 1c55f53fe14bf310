//! What a listener hears while a run plays: the events the timeline marks (inventory slows,
//! every worker busy, the breaker opens ...), at most one every few seconds of wall time, the
//! latest when several came in between; nothing on each frame (WCAG 2.2.2, and a pace a
//! listener can follow). Pure: the page hands in the playhead and the wall clock.

use super::markers::Marker;
use super::replay::clock;
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
}

impl Default for Announcer {
    fn default() -> Announcer {
        Announcer {
            heard_up_to: 0,
            last_spoken_ms: f64::NEG_INFINITY,
            pending: None,
        }
    }
}

impl Announcer {
    /// Takes in the marks up to `playhead` without announcing them (while paused or when
    /// the switch is off: what happened then is not said later).
    pub fn skip_to(&mut self, playhead: Micros) {
        self.heard_up_to = playhead;
        self.pending = None;
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
}
