//! The page's view room: how the runs are shown, which changes no run.

use crate::sim::latency::Micros;

use super::action::Action;
use crate::page::latency::LatencyKind;

/// How the page shows its runs.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct View {
    /// Which latency the histogram shows.
    pub latency: LatencyKind,
    /// Dark theme.
    pub dark: bool,
    /// Large type, high contrast.
    pub projector: bool,
    /// Simulated seconds on every clock, even for a preset that tells its story at a time of
    /// day (a lesson keeps one notation).
    pub plain_clock: bool,
    /// The stretch of time the timeline and the charts span, when it is not the whole run (a
    /// lesson step's window); playing stops at its end.
    pub window: Option<Micros>,
}

impl View {
    /// Whether `action` is the view's.
    pub fn takes(action: &Action) -> bool {
        matches!(
            action,
            Action::SetLatency(_)
                | Action::SetDark(_)
                | Action::SetProjector(_)
                | Action::SetWindow(_)
                | Action::SetPlainClock(_)
        )
    }

    /// The view after `action`.
    pub fn apply(&mut self, action: &Action) {
        match *action {
            Action::SetLatency(kind) => self.latency = kind,
            Action::SetDark(on) => self.dark = on,
            Action::SetProjector(on) => self.projector = on,
            Action::SetWindow(window) => self.window = window,
            Action::SetPlainClock(on) => self.plain_clock = on,
            _ => {}
        }
    }
}
