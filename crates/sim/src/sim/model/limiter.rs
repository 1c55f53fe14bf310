//! The adaptive concurrency limit in the simulator: when a call enters its stack, the limit
//! lets it in or refuses it at once; when the call is over, how it ended moves the limit. The
//! policy and the mechanism are [`crate::resilience::adaptive_limit`]'s; what the limit did
//! reaches the Trace as the level [`LIMIT`].

use super::call_end::{CallEnd, Refusal};
use super::dependency_config::{layer, Layer};
use super::param::{Kind, Needs, Panel, Param, Unit, Value};
use super::part::{Dep, Part};
use super::stack::{Admitted, Outermost};
use super::{SimConfig, StackConfig};
use crate::resilience::adaptive_limit::{BACKOFF_RANGE, LIMIT_RANGE, SLOW_AFTER_RANGE};
use crate::resilience::{AdaptiveLimit, AdaptiveLimitConfig, ParamError, Sample};
use crate::sim::latency::Micros;
use crate::sim::pattern::{self, Descriptor, Pattern};
use crate::sim::trace::{LayerLevel, LayerRefusal, Level, LevelChange, Outcome, RefusalFacts};

/// The limit on the calls in flight to the dependency.
pub const LIMIT: Level = Level {
    name: "limit",
    figure: "limit",
    label: "concurrency limit",
    what: "the adaptive concurrency limit",
    refuses: Outcome::CONCURRENCY_LIMITED,
    refused_figure: "limited",
    refused_what: "the number of calls the adaptive limit refused",
};

/// How the limit refuses a call while it is used up: at once, with a 503.
pub const REFUSED: LayerRefusal = LayerRefusal::new(&RefusalFacts {
    name: "concurrency_limited",
    words: "refused by the concurrency limit (503)",
    story: "was refused at once (503): the calls already in flight to {dependency} had used up \
            the adaptive concurrency limit",
    slot: 0,
});

impl Outcome {
    /// Refused at once by the adaptive concurrency limit on the call (503): it was used up.
    pub const CONCURRENCY_LIMITED: Outcome = Outcome::Refused(REFUSED);
}

impl Pattern {
    /// An adaptive concurrency limit on the calls in flight (AIMD on latency), outside every
    /// other layer.
    pub const ADAPTIVE_LIMIT: Pattern = Pattern::new(&Descriptor {
        written: "adaptive_limit",
        key: "adaptive_limit",
        label: "Adaptive concurrency limit",
        name: "adaptive concurrency limit",
        missing: "no adaptive concurrency limit",
        place: pattern::Place::Outermost,
        switch: true,
        order: [None; 4],
    });
}

/// The limit as a layer of the stack: on while the stack has one, checked under
/// `adaptive_limit`, switched on with the Saturday cascade's.
pub(super) const LAYER: Layer = layer!(
    Pattern::ADAPTIVE_LIMIT,
    rooms.adaptive_limit,
    AdaptiveLimitConfig::validate,
    |s| {
        s.rooms
            .adaptive_limit
            .get_or_insert_with(AdaptiveLimitConfig::saturday);
    }
);

fn limit(c: &SimConfig) -> Option<&AdaptiveLimitConfig> {
    Dep::First
        .find(c)
        .and_then(|d| d.stack.rooms.adaptive_limit.as_ref())
}

fn limit_mut(c: &mut SimConfig) -> Option<&mut AdaptiveLimitConfig> {
    Dep::First.stack(c).rooms.adaptive_limit.as_mut()
}

/// The most calls an adaptive limit takes: a value moved along by another stays in range.
const LIMIT_MAX: u32 = LIMIT_RANGE.1 as u32;

/// The highest backoff a row takes: the range's upper end is excluded.
const BACKOFF_MAX_ACCEPTED: f64 = 0.99;

/// The adaptive limit's keys, on the call to inventory: where it starts, its floor and
/// ceiling, how far a slow call moves it, and what counts as slow.
// Laid out as the parameter table is, three lines a row and a fourth for the panel.
#[rustfmt::skip]
pub(super) const ROWS: &[Param] = &[
    Param { key: "limit_initial", doc: "Calls to inventory the adaptive limit lets in flight at the start; it then learns (limit_min and limit_max move to keep it between them).", unit: "calls",
        kind: Kind::Count { min: LIMIT_RANGE.0, max: LIMIT_RANGE.1, write: |c, n| if let Some(l) = limit_mut(c) { l.initial = n as u32; l.min = l.min.min(l.initial); l.max = l.max.max(l.initial).min(LIMIT_MAX) } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::ADAPTIVE_LIMIT)), read: |c| limit(c).map(|l| Value::Count(l.initial.into())),
        fields: &["adaptive_limit.initial"], panel: Some(Panel { label: "Adaptive limit at the start (calls in flight)", unit: Unit::Count, min: 1.0, max: 100.0, step: 1.0, shown_with: None }) },
    Param { key: "limit_min", doc: "The adaptive limit never falls below this many calls in flight.", unit: "calls",
        kind: Kind::Count { min: LIMIT_RANGE.0, max: LIMIT_RANGE.1, write: |c, n| if let Some(l) = limit_mut(c) { l.min = n as u32; l.initial = l.initial.max(l.min).min(LIMIT_MAX); l.max = l.max.max(l.min).min(LIMIT_MAX) } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::ADAPTIVE_LIMIT)), read: |c| limit(c).map(|l| Value::Count(l.min.into())),
        fields: &["adaptive_limit.min"], panel: Some(Panel { label: "Adaptive limit's floor (calls in flight)", unit: Unit::Count, min: 1.0, max: 100.0, step: 1.0, shown_with: None }) },
    Param { key: "limit_max", doc: "The adaptive limit never rises above this many calls in flight.", unit: "calls",
        kind: Kind::Count { min: LIMIT_RANGE.0, max: LIMIT_RANGE.1, write: |c, n| if let Some(l) = limit_mut(c) { l.max = n as u32; l.initial = l.initial.min(l.max); l.min = l.min.min(l.max) } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::ADAPTIVE_LIMIT)), read: |c| limit(c).map(|l| Value::Count(l.max.into())), fields: &["adaptive_limit.max"], panel: None },
    Param { key: "limit_backoff", doc: "What a slow or failed call multiplies the adaptive limit by (Netflix's AIMD: 0.9); a call back in time while half the limit was used adds one.", unit: "factor",
        kind: Kind::Number { min: BACKOFF_RANGE.0, max: BACKOFF_MAX_ACCEPTED, above_min: false, write: |c, v| if let Some(l) = limit_mut(c) { l.backoff = v } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::ADAPTIVE_LIMIT)), read: |c| limit(c).map(|l| Value::Number(l.backoff)), fields: &["adaptive_limit.backoff"], panel: None },
    Param { key: "limit_slow_after", doc: "A call to inventory slower than this counts as a sign of overload for the adaptive limit, as a failure does.", unit: "s",
        kind: Kind::Time { min: SLOW_AFTER_RANGE.0, max: SLOW_AFTER_RANGE.1, write: |c, t| if let Some(l) = limit_mut(c) { l.slow_after = t } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::ADAPTIVE_LIMIT)), read: |c| limit(c).map(|l| Value::Time(l.slow_after)),
        fields: &["adaptive_limit.slow_after"], panel: Some(Panel { label: "Slower than this counts as overload", unit: Unit::Millis, min: 50.0, max: 5000.0, step: 50.0, shown_with: None }) },
];

/// The adaptive limit a stack with `cfg` has, as its outermost layer.
pub(super) fn of(cfg: &StackConfig) -> Result<Option<Box<dyn Outermost>>, ParamError> {
    let Some(limit) = cfg.rooms.adaptive_limit.clone() else {
        return Ok(None);
    };
    Ok(Some(Box::new(AdaptiveLimit::new(limit)?)))
}

impl Outermost for AdaptiveLimit {
    /// A call over the limit is refused at once.
    fn let_in(&mut self, now: Micros) -> Result<Admitted, Refusal> {
        let in_flight = self.try_acquire().ok_or(Refusal::Level(&LIMIT))?;
        Ok(Admitted {
            in_flight,
            since: now,
        })
    }

    /// An answer is a latency sample, a failure a drop, a refusal by a layer inside says
    /// nothing of the dependency.
    fn release(&mut self, admitted: Admitted, now: Micros, end: CallEnd) {
        let sample = match end {
            CallEnd::Answered | CallEnd::Business => {
                Sample::Answered(now.saturating_sub(admitted.since))
            }
            CallEnd::Failed(_) => Sample::Dropped,
            CallEnd::Refused(_) => Sample::Ignored,
        };
        AdaptiveLimit::release(self, now, admitted.in_flight, sample);
    }

    fn level(&self) -> LayerLevel {
        LayerLevel {
            name: LIMIT.name.into(),
            initial: self.config().initial,
            lowest: self.lowest(),
            last: self.limit(),
            changes: self
                .changes()
                .iter()
                .map(|c| LevelChange {
                    at: c.at,
                    value: c.limit,
                })
                .collect(),
            refuses: LIMIT.refuses,
        }
    }
}
