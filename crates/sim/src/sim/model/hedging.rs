//! Hedging in the simulator, all of it: its config, its state at run time, and when a try gets
//! copies. The policy is the hedger of [`crate::resilience::hedge`] (a fixed delay, or a
//! percentile of the waits the caller saw); the mechanism is the dependency's copies of a try,
//! each a call of its own whose first answer is the try's. Without a capacity, a try's copies
//! are drawn as it starts; with one, each copy is an event that reaches the servers while the
//! try still waits.

use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::call_end::CallEnd;
use super::dependency_config::{layer, Layer};
use super::events::{Event, Id};
use super::param::{Kind, Needs, Panel, Param, Unit, Value, ON_OFF};
use super::part::{Dep, Part};
use super::recorder::Recorder;
use super::stack::{InsideTry, SendTry, TryAt};
use super::{Sim, SimConfig, StackConfig};
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

/// The hedge as a layer of the stack: on while the stack has one, checked under `hedge`,
/// switched on with lesson 000's.
pub(super) const LAYER: Layer = layer!(Pattern::HEDGE, rooms.hedge, HedgeConfig::validate, |s| {
    s.rooms.hedge.get_or_insert_with(HedgeConfig::lesson_000);
});

/// The key the hedge's delay had before it took a percentile too: read as `hedge_after`.
pub(super) const OLD_NAME: (&str, &str) = ("hedge_delay", "hedge_after");

fn hedge(c: &SimConfig) -> Option<&HedgeConfig> {
    Dep::First
        .find(c)
        .and_then(|d| d.stack.rooms.hedge.as_ref())
}

fn hedge_mut(c: &mut SimConfig) -> Option<&mut HedgeConfig> {
    Dep::First.stack(c).rooms.hedge.as_mut()
}

/// The hedge's keys, on the call to inventory: switching it on with the lesson's hedge, when
/// a copy leaves, and how many may.
// Laid out as the parameter table is, three lines a row and a fourth for the panel.
#[rustfmt::skip]
pub(super) const ROWS: &[Param] = &[
    Param { key: "hedge", doc: "Lesson 000's hedge on inventory: one more copy of a call slower than the p95 seen.", unit: "",
        kind: Kind::Choice { names: ON_OFF, write: |c, i| { let s = Dep::First.stack(c); if i == 0 { s.rooms.hedge.get_or_insert_with(HedgeConfig::lesson_000); } else { s.rooms.hedge = None } } },
        needs: Needs::OnlyWith(Part::Dependency(Dep::First)), read: |c| Dep::First.find(c).map(|d| Value::on_off(d.stack.rooms.hedge.is_some())), fields: &["hedge.idempotency_key"], panel: None },
    Param { key: "hedge_after", doc: "When a hedge copy leaves: after a fixed time, or pN, a percentile of the latencies seen (its old name, hedge_delay, is read as this key).", unit: "",
        kind: Kind::Delay { write: |c, delay| if let Some(h) = hedge_mut(c) {
            h.policy.delay = match (delay, h.policy.delay) {
                // A new percentile keeps the samples the old one waited for.
                (Delay::Percentile { percentile, .. }, Delay::Percentile { min_samples, .. }) =>
                    Delay::Percentile { percentile, min_samples },
                (delay, _) => delay,
            }
        } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::HEDGE)), read: |c| hedge(c).map(|h| Value::Delay(h.policy.delay)), fields: &["hedge.delay", "hedge.percentile", "hedge.min_samples"], panel: None },
    Param { key: "max_hedges", doc: "Copies of a slow call sent at most; the k-th leaves after k times the hedge delay (the lesson's p95 of the latencies seen).", unit: "copies",
        kind: Kind::Count { min: HedgePolicy::MAX_HEDGES.0, max: HedgePolicy::MAX_HEDGES.1, write: |c, n| if let Some(h) = hedge_mut(c) { h.policy.max_hedges = n as u32 } },
        needs: Needs::SwitchesOn(Part::Layer(Dep::First, Pattern::HEDGE)), read: |c| hedge(c).map(|h| Value::Count(h.policy.max_hedges.into())),
        fields: &[], panel: Some(Panel { label: "Extra copies", unit: Unit::Count, min: 1.0, max: 8.0, step: 1.0, shown_with: None }) },
];

/// A copy of a try went out.
const COPY_SENT: LayerMark = LayerMark {
    pattern: Pattern::HEDGE,
    words: "a hedge (a copy of the try) goes out",
};

/// A copy answered before the original did.
const COPY_WON: LayerMark = LayerMark {
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

/// The hedge a stack with `cfg` has, as a layer inside each of its tries.
pub(super) fn of(cfg: &StackConfig) -> Result<Option<Box<dyn InsideTry>>, ParamError> {
    let Some(hedge) = cfg.rooms.hedge.as_ref() else {
        return Ok(None);
    };
    let hedging = Hedging {
        hedger: Hedger::new(hedge.policy.clone())?,
        idempotent: hedge.idempotency_key,
    };
    Ok(Some(Box::new(hedging)))
}

impl Hedging {
    /// The copies of a try the caller gives up on at `try_ends` (the original first, at offset
    /// 0); `None` while the hedger sends none (too few waits seen yet).
    fn plan(&self, try_ends: Micros) -> Option<HedgePlan> {
        self.hedger
            .plan(self.idempotent)
            .ok()
            .filter(|p| p.offsets.len() > 1)
            .map(|p| p.before(try_ends))
    }
}

impl InsideTry for Hedging {
    fn counters(&self) -> &'static [Counter] {
        &[COPIES_SENT, COPIES_WON]
    }

    fn first_of_copies(
        &self,
        at: TryAt,
        rng: &mut ChaCha8Rng,
        q: &mut EventQueue<Event>,
        call: &mut SendTry<'_>,
    ) -> Option<(Micros, CallEnd, bool)> {
        let plan = self.plan(at.ends)?;
        first_answer(&plan, at, rng, q, call)
    }

    /// At a dependency with a capacity: each copy of try `try_no` is due at its offset from
    /// the try's start, and goes out then only if the try still waits ([`Sim::copy_due`]).
    fn try_sent(&self, q: &mut EventQueue<Event>, at: TryAt, try_no: u32) {
        if let Some(plan) = self.plan(at.ends) {
            for &offset in plan.offsets.iter().skip(1) {
                let id = at.id;
                q.schedule(at.now.saturating_add(offset), Event::CopyDue { id, try_no });
            }
        }
    }

    /// A hedged try is over after the caller `waited` (its first answer, or the time it gave
    /// up after): the delay learns it, and the recorder counts whether a copy answered first.
    fn try_over(&mut self, now: Micros, waited: Micros, copy_won: bool, rec: &mut Recorder) {
        self.hedger.record(waited);
        if copy_won {
            rec.count(COPIES_WON, now);
        }
    }

    fn copy_won(&self) -> LayerMark {
        COPY_WON
    }
}

/// The first answer of the try `at`, with `plan`'s copies, each drawn by `call` as it goes
/// out: its latency, how it ended and whether a copy gave it. A [`Event::CopySent`] counts
/// each copy actually sent, when it goes. `None` when the plan sends nothing.
fn first_answer(
    plan: &HedgePlan,
    TryAt { id, dep, now, .. }: TryAt,
    rng: &mut ChaCha8Rng,
    q: &mut EventQueue<Event>,
    call: &mut SendTry<'_>,
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
