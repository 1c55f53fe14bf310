//! The page's playback room: where the playhead is, whether it moves, and how fast.

use crate::sim::latency::Micros;
use crate::sim::trace::BUCKET;

use super::action::Action;

/// Playback speeds the timeline offers.
pub const SPEEDS: [f64; 7] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0];

/// The most real time one tick moves the playhead by, in milliseconds: a tick comes every
/// animation frame, or once a second when the reader asks for reduced motion (the playhead
/// then jumps instead of gliding).
pub const LONGEST_TICK_MS: f64 = 1_000.0;

/// The playhead and its motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Playback {
    /// Simulated time shown.
    pub playhead: Micros,
    /// Playing or paused.
    pub playing: bool,
    /// Simulated seconds per real second.
    pub speed: f64,
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            playhead: 0,
            playing: false,
            speed: 1.0,
        }
    }
}

impl Playback {
    /// Whether `action` is playback's.
    pub fn takes(action: &Action) -> bool {
        matches!(
            action,
            Action::TogglePlay
                | Action::Step(_)
                | Action::Seek(_)
                | Action::SetSpeed(_)
                | Action::Tick(_)
        )
    }

    /// Playback after `action`, on a timeline `span` long.
    pub fn apply(&mut self, action: &Action, span: Micros) {
        match *action {
            Action::TogglePlay => {
                if !self.playing && self.playhead >= span {
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
                self.playhead = (at / BUCKET * BUCKET).min(span);
            }
            Action::Seek(at) => self.playhead = at.min(span),
            Action::SetSpeed(speed) => {
                self.speed = SPEEDS
                    .iter()
                    .copied()
                    .min_by(|a, b| (a - speed).abs().total_cmp(&(b - speed).abs()))
                    .unwrap_or(1.0);
            }
            Action::Tick(real_ms) if self.playing && real_ms.is_finite() && real_ms > 0.0 => {
                // A tab back from the background sends one huge tick: never more than
                // `LONGEST_TICK_MS` of real time at once.
                let advance =
                    (real_ms.min(LONGEST_TICK_MS) * 1_000.0 * self.speed).round() as Micros;
                self.playhead = self.playhead.saturating_add(advance).min(span);
                if self.playhead >= span {
                    self.playing = false;
                }
            }
            _ => {}
        }
    }
}
