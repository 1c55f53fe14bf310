//! Every change the page can make, as one value the reducer takes (see
//! [`super::state::Page::apply`]): settings, playback and view each take their own.

use super::compare::Side;
use super::knobs::Pattern;
use crate::library_config::resilience4j::{self, Notice, Parsed};
use crate::page::latency::LatencyKind;
use crate::sim::latency::Micros;
use crate::sim::params::Value;
use crate::sim::pick::Pick;
use crate::sim::scenario::Preset;

/// Every change the page can make.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Sets the knob with this key (see [`super::knobs::KNOBS`]) to a value in its unit.
    SetKnob(&'static str, f64),
    /// Sets the knob with this key to a value of its row, on the row's range rather than the
    /// slider's: what a permalink or a widget attribute says, parsed once at that edge, is
    /// taken as it is (the number field shows a value past the slider's end), or refused with a
    /// notice.
    SetParam(&'static str, Value),
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
    /// Runs a pasted `resilience4j:` YAML block on the current scenario: the block as read
    /// (see [`Action::paste_resilience4j`]), or why it could not be.
    PasteResilience4j(Result<Parsed, Notice>),
    /// A/B mode on (B starts as a copy of A) or off.
    SetAb(bool),
    /// Which run the controls change while A/B is on.
    SetAbEdits(Side),
    /// Spans the timeline and the charts over this stretch (`None`: the whole run).
    SetWindow(Option<Micros>),
    /// Simulated seconds on every clock (on), or the preset's time of day (off).
    SetPlainClock(bool),
    /// Follows a request hop by hop (`None`: none).
    Follow(Option<Pick>),
}

impl Action {
    /// Whether it tunes the run (and so goes to B while the controls change B).
    pub fn tunes(&self) -> bool {
        matches!(
            self,
            Action::SetKnob(..) | Action::SetParam(..) | Action::SetPattern(..)
        )
    }

    /// Reads a pasted YAML block here, at the page's edge, so that a module without the paste
    /// box (the lesson page's) holds no YAML reader.
    pub fn paste_resilience4j(text: &str) -> Action {
        Action::PasteResilience4j(resilience4j::parse(text))
    }
}
