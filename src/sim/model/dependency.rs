//! A dependency at run time: how it answers (its fault schedule drawn from the run's random
//! stream) and the stack `orders` calls it through.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::call_end::{CallEnd, Failure};
use super::dependency_config::{DependencyConfig, FaultSchedule};
use super::events::Event;
use super::stack::Stack;
use crate::resilience::ParamError;
use crate::sim::engine::EventQueue;
use crate::sim::latency::{LatencyModel, Micros};

/// How a dependency answers: its latencies and its fault schedule.
#[derive(Debug, Clone)]
struct Faults {
    degrade_at: Option<Micros>,
    recover_at: Option<Micros>,
    healthy: LatencyModel,
    degraded: LatencyModel,
    error_rate: f64,
    business_error_rate: f64,
}

impl Faults {
    fn new(f: &FaultSchedule) -> Self {
        Faults {
            degrade_at: f.degrade_at,
            recover_at: f.recover_at,
            healthy: f.healthy(),
            degraded: f.degraded(),
            error_rate: f.error_rate,
            business_error_rate: f.business_error_rate,
        }
    }

    /// One call that starts at `at`: its latency and how it answers, drawn from the regime in
    /// force at `at` (degraded strictly after `degrade_at`, until `recover_at`).
    fn draw(&self, at: Micros, rng: &mut ChaCha8Rng) -> (Micros, CallEnd) {
        let degraded =
            self.degrade_at.is_some_and(|d| at > d) && self.recover_at.is_none_or(|r| at <= r);
        let model = if degraded {
            self.degraded
        } else {
            self.healthy
        };
        let latency = model.sample(rng);
        let end = if degraded && self.error_rate > 0.0 && rng.gen_bool(self.error_rate) {
            CallEnd::Failed(Failure::Unavailable)
        } else if self.business_error_rate > 0.0 && rng.gen_bool(self.business_error_rate) {
            CallEnd::Business
        } else {
            CallEnd::Answered
        };
        (latency, end)
    }
}

/// One dependency of `POST /orders`.
pub(super) struct Dependency {
    pub name: String,
    faults: Faults,
    pub stack: Stack,
}

impl Dependency {
    pub fn new(cfg: &DependencyConfig) -> Result<Self, ParamError> {
        Ok(Dependency {
            name: cfg.name.clone(),
            faults: Faults::new(&cfg.faults),
            stack: Stack::new(&cfg.stack)?,
        })
    }

    /// The first answer of a try that starts at `now`: its latency, how it ended and whether
    /// a hedge gave it. Without a hedge, one call; with one, the hedger's plan for this try (no
    /// copy due once the try has timed out), each copy drawn as it goes out, and a
    /// [`Event::HedgeSent`] for each hedge actually sent.
    pub fn answer_of_try(
        &self,
        me: usize,
        now: Micros,
        try_ends: Micros,
        rng: &mut ChaCha8Rng,
        q: &mut EventQueue<Event>,
    ) -> (Micros, CallEnd, bool) {
        let Some(plan) = self.stack.hedge_plan() else {
            let (latency, end) = self.faults.draw(now, rng);
            return (latency, end, false);
        };
        let plan = plan.before(try_ends);
        let mut ends = Vec::with_capacity(plan.offsets.len());
        let outcome = plan.resolve_with(|_, offset| {
            let (latency, end) = self.faults.draw(now.saturating_add(offset), rng);
            ends.push(end);
            latency
        });
        let Some(outcome) = outcome else {
            let (latency, end) = self.faults.draw(now, rng);
            return (latency, end, false);
        };
        for &offset in plan.offsets.iter().take(outcome.copies_sent).skip(1) {
            q.schedule(now.saturating_add(offset), Event::HedgeSent(me));
        }
        let end = ends
            .get(outcome.winner)
            .copied()
            .unwrap_or(CallEnd::Answered);
        (outcome.latency, end, outcome.winner > 0)
    }
}
