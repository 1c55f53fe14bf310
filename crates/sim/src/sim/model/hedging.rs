//! Hedging in the simulator, all of it: its config, its state at run time, and when a try gets
//! copies. The policy is the hedger of [`crate::resilience::hedge`] (a fixed delay, or a
//! percentile of the waits the caller saw); the mechanism is the dependency's copies of a try,
//! each a call of its own whose first answer is the try's. Without a capacity, a try's copies
//! are drawn as it starts; with one, each copy is an event that reaches the servers while the
//! try still waits.

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::call_end::CallEnd;
use super::events::{Event, Id};
use super::recorder::Recorder;
use super::Sim;
use crate::resilience::{Delay, HedgePlan, HedgePolicy, Hedger, ParamError};
use crate::sim::engine::EventQueue;
use crate::sim::latency::Micros;
use crate::sim::life::{Happening, Hop, LayerMark};
use crate::sim::pattern::{Descriptor, Pattern, Place};
use crate::sim::trace::Counter;

/// Copies of a try sent beyond the original (each is also one of the series' calls, in the
/// slice it went out).
pub const COPIES_SENT: Counter = Counter {
    name: "hedges_sent",
    figure: "hedges-sent",
    label: "hedges sent",
    what: "the number of hedges sent (copies of a try beyond the original)",
};

/// Tries a copy answered before the original did.
pub const COPIES_WON: Counter = Counter {
    name: "hedges_won",
    figure: "hedges-won",
    label: "hedges won",
    what: "the number of tries a hedge answered before the original",
};

impl Pattern {
    /// A hedge: another copy of a slow try, the first answer wins.
    pub const HEDGE: Pattern = Pattern::new(&Descriptor {
        written: "hedge",
        key: "hedge",
        label: "Hedging",
        name: "hedge",
        missing: "no hedge",
        place: Place::Layer,
        switch: true,
        order: [Some(5), None, None, None],
    });
}

/// A copy of a try went out.
const COPY_SENT: LayerMark = LayerMark {
    pattern: Pattern::HEDGE,
    words: "a hedge (a copy of the try) goes out",
};

/// A copy answered before the original did.
pub(super) const COPY_WON: LayerMark = LayerMark {
    pattern: Pattern::HEDGE,
    words: "the hedge answers first",
};

/// A hedge on the call to a dependency: inside each try, once the hedge delay has passed with no
/// answer yet, another copy of the call goes out; the first answer is used and the copies still
/// outstanding are cancelled. Only for an idempotent call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HedgeConfig {
    /// When copies go out and how many (see [`HedgePolicy`]).
    pub policy: HedgePolicy,
    /// The reservation carries an idempotency key, so inventory applies a duplicate once and
    /// the call may be hedged (default true). `false` describes a plain write, which the
    /// hedger refuses: the config is then out of range.
    #[serde(default = "idempotent_by_default")]
    pub idempotency_key: bool,
}

fn idempotent_by_default() -> bool {
    true
}

impl HedgeConfig {
    /// Lesson 000's hedge (`GetStock`): one copy more at the observed p95, after 100 samples;
    /// the reservation carries an idempotency key. What switching hedging on gives.
    pub fn lesson_000() -> Self {
        HedgeConfig {
            policy: HedgePolicy::lesson_000(),
            idempotency_key: true,
        }
    }

    /// One copy more after a fixed delay.
    pub fn fixed(delay: Micros) -> Self {
        HedgeConfig {
            policy: HedgePolicy {
                delay: Delay::Fixed(delay),
                max_hedges: 1,
            },
            idempotency_key: true,
        }
    }

    /// Checks the policy and that the call may be hedged at all.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.policy.validate()?;
        let hedger = Hedger::new(self.policy.clone())?;
        hedger.plan(self.idempotency_key).map_err(|refused| {
            ParamError::new(
                "idempotency_key",
                "only for an idempotent call (idempotency_key: true)",
                refused.to_string(),
            )
        })?;
        Ok(())
    }
}

/// A stack's hedging while the run goes: the hedger, which learns the waits its percentile
/// delay is taken over, and whether the call may be hedged.
pub(super) struct Hedging {
    hedger: Hedger,
    idempotent: bool,
}

impl Hedging {
    pub fn new(cfg: &HedgeConfig) -> Result<Self, ParamError> {
        Ok(Hedging {
            hedger: Hedger::new(cfg.policy.clone())?,
            idempotent: cfg.idempotency_key,
        })
    }

    /// The copies of a try the caller gives up on at `try_ends` (the original first, at offset
    /// 0); `None` while the hedger sends none (too few waits seen yet).
    pub fn plan(&self, try_ends: Micros) -> Option<HedgePlan> {
        self.hedger
            .plan(self.idempotent)
            .ok()
            .filter(|p| p.offsets.len() > 1)
            .map(|p| p.before(try_ends))
    }

    /// At a dependency with a capacity: each copy of try `try_no` is due at its offset from
    /// `now`, and goes out then only if the try still waits ([`Sim::copy_due`]).
    pub fn schedule_copies(
        &self,
        q: &mut EventQueue<Event>,
        now: Micros,
        try_ends: Micros,
        id: Id,
        try_no: u32,
    ) {
        if let Some(plan) = self.plan(try_ends) {
            for &offset in plan.offsets.iter().skip(1) {
                q.schedule(now.saturating_add(offset), Event::CopyDue { id, try_no });
            }
        }
    }

    /// The counters it keeps.
    pub const COUNTERS: [Counter; 2] = [COPIES_SENT, COPIES_WON];

    /// A hedged try is over after the caller `waited` (its first answer, or the time it gave
    /// up after): the delay learns it, and the recorder counts whether a copy answered first.
    pub fn try_over(&mut self, now: Micros, waited: Micros, copy_won: bool, rec: &mut Recorder) {
        self.hedger.record(waited);
        if copy_won {
            rec.count(COPIES_WON, now);
        }
    }
}

/// The first answer of a try that starts at `now` at dependency `dep`, with `plan`'s copies,
/// each drawn by `call` as it goes out: its latency, how it ended and whether a copy gave it.
/// A [`Event::CopySent`] counts each copy of request `id` actually sent, when it goes. `None`
/// when the plan sends nothing.
pub(super) fn first_answer(
    plan: &HedgePlan,
    id: Id,
    dep: usize,
    now: Micros,
    rng: &mut ChaCha8Rng,
    q: &mut EventQueue<Event>,
    call: &mut impl FnMut(Micros, &mut ChaCha8Rng, &mut EventQueue<Event>) -> (Micros, CallEnd),
) -> Option<(Micros, CallEnd, bool)> {
    // One end per copy the plan can send (the original and at most `MAX_HEDGES` copies),
    // kept on the stack: this runs for every hedged try.
    let mut ends = [CallEnd::Answered; HedgePolicy::MAX_HEDGES.1 as usize + 1];
    let outcome = plan.resolve_with(|k, offset| {
        let (latency, end) = call(now.saturating_add(offset), rng, q);
        if let Some(slot) = ends.get_mut(k) {
            *slot = end;
        }
        latency
    })?;
    for &offset in plan.offsets.iter().take(outcome.copies_sent).skip(1) {
        q.schedule(
            now.saturating_add(offset),
            Event::CopySent {
                id,
                dep: dep as u32,
            },
        );
    }
    let end = ends
        .get(outcome.winner)
        .copied()
        .unwrap_or(CallEnd::Answered);
    Some((outcome.latency, end, outcome.winner > 0))
}

impl Sim<'_> {
    /// A copy of try `try_no` is due: it goes out only while the caller still waits for that
    /// try (the first answer, from the original or a copy, is the one used; the copies still
    /// out are kept or dropped as the servers' abandon says).
    pub(super) fn copy_due(&mut self, now: Micros, id: Id, try_no: u32) {
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if !(r.call.waiting && r.call.try_no == try_no) {
            return;
        }
        let (dep, deadline) = (r.call.dep, r.call.try_deadline);
        self.copy_sent(now, id, dep);
        self.send_to_servers(now, id, dep, try_no, deadline, true);
    }

    /// A copy of request `id`'s try went out to dependency `dep`: counted, and shown on the
    /// request's timeline when it is followed.
    pub(super) fn copy_sent(&mut self, now: Micros, id: Id, dep: usize) {
        self.recorder.count(COPIES_SENT, now);
        self.recorder.copy_sent(now, dep);
        if let Some(mut t) = self.trail(id) {
            t.mark(Hop::Dependency(dep as u8), now, Happening::Layer(COPY_SENT));
        }
    }
}
