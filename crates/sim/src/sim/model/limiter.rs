//! The adaptive concurrency limit in the simulator: when a call enters its stack, the limit
//! lets it in or refuses it at once; when the call is over, how it ended moves the limit. The
//! policy and the mechanism are [`crate::resilience::adaptive_limit`]'s; what the limit did
//! reaches the Trace as the level [`LIMIT`].

use super::call_end::{CallEnd, Refusal};
use super::events::Id;
use super::Sim;
use crate::resilience::{AdaptiveLimit, Sample};
use crate::sim::latency::Micros;
use crate::sim::pattern::{self, Descriptor, Pattern};
use crate::sim::trace::{LayerLevel, Level, LevelChange, Outcome};

/// The limit on the calls in flight to the dependency.
pub const LIMIT: Level = Level {
    name: "limit",
    figure: "limit",
    label: "concurrency limit",
    what: "the adaptive concurrency limit",
    refuses: Outcome::ConcurrencyLimited,
    refused_figure: "limited",
    refused_what: "the number of calls the adaptive limit refused",
};

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

/// The place a call the limit let in holds until it is over.
#[derive(Debug, Clone, Copy)]
pub struct Place {
    /// Calls in flight with it, itself included, as it went in.
    in_flight: u32,
    /// When it went in.
    since: Micros,
}

/// What `limit` did so far, as the Trace keeps it.
pub(super) fn level(limit: &AdaptiveLimit) -> LayerLevel {
    LayerLevel {
        name: LIMIT.name.into(),
        initial: limit.config().initial,
        lowest: limit.lowest(),
        last: limit.limit(),
        changes: limit
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

/// The call holding `place` ended so at `now`: an answer is a latency sample, a failure a
/// drop, a refusal by a layer inside says nothing of the dependency.
pub(super) fn release(limit: &mut AdaptiveLimit, place: Place, now: Micros, end: CallEnd) {
    let sample = match end {
        CallEnd::Answered | CallEnd::Business => Sample::Answered(now.saturating_sub(place.since)),
        CallEnd::Failed(_) => Sample::Dropped,
        CallEnd::Refused(_) => Sample::Ignored,
    };
    limit.release(now, place.in_flight, sample);
}

impl Sim<'_> {
    /// Whether the adaptive limit of the request's dependency lets its call in (always,
    /// without one); a call it refuses ends at once.
    pub(super) fn let_in_by_limit(&mut self, now: Micros, id: Id) -> bool {
        let Sim { requests, deps, .. } = self;
        let Some(r) = requests.get(id) else {
            return false;
        };
        let Some(limit) = deps
            .get_mut(r.call.dep)
            .and_then(|d| d.stack.limiter.as_mut())
        else {
            return true;
        };
        match limit.try_acquire() {
            Some(in_flight) => {
                r.call.limit = Some(Place {
                    in_flight,
                    since: now,
                });
                true
            }
            None => {
                self.stack_done(now, id, CallEnd::Refused(Refusal::Level(LIMIT)));
                false
            }
        }
    }
}
