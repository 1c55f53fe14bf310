//! Following one request: a recorder for a single arrival of the open loop, and the run that
//! uses it. An ordinary run has no follower and records nothing per request; a followed run
//! is the same seeded run with this recorder listening, so it draws the same numbers and gives
//! the same Trace.

use super::events::Id;
use super::{Pattern, Profile, RunError, Sim, SimConfig, StackConfig, DEFAULT_EVENT_CAP};
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop, Lane, Mark, QueueScene, RequestLife, Span};
use crate::sim::pattern::Place;
use crate::sim::trace::{Route, Trace};

/// The recorder of one request's life while the run goes on.
pub(super) struct Follow {
    /// The arrival number followed.
    target: u64,
    /// The ids of its copies, by copy number.
    copies: Vec<Id>,
    /// Spans begun and not yet over: at most one per lane.
    open: Vec<(Lane, Activity, Micros)>,
    /// Tries made so far in a lane (a dependency's lane of one copy).
    tries: Vec<(Lane, u32)>,
    /// While a copy waits in the queue: how long the workers that freed up had been held.
    held: Option<Vec<Micros>>,
    life: RequestLife,
}

impl Follow {
    fn new(target: u64, cfg: &SimConfig) -> Self {
        Follow {
            target,
            copies: Vec::new(),
            open: Vec::new(),
            tries: Vec::new(),
            held: None,
            life: RequestLife {
                id: target,
                workers: cfg.service.threads,
                permits: cfg
                    .first_stack()
                    .and_then(|s| s.bulkhead.as_ref())
                    .map(|b| b.permits),
                connections: cfg.gateway.as_ref().map(|g| g.pool),
                dependencies: cfg.dependencies.iter().map(|d| d.name.clone()).collect(),
                stacks: cfg
                    .dependencies
                    .iter()
                    .map(|d| layers_on(&d.stack))
                    .collect(),
                order_words: cfg
                    .first_stack()
                    .map_or(Profile::Lesson000.order_words(), |s| {
                        s.profile.order_words()
                    }),
                ..RequestLife::default()
            },
        }
    }

    /// A request arrived as `id`: when it carries the followed order, it is one more copy.
    #[cold]
    #[inline(never)]
    pub fn arrived(&mut self, id: Id, op: u64, now: Micros, route: Route, attempt: u32) {
        if op != self.target {
            return;
        }
        if self.copies.is_empty() {
            self.life.arrived = now;
            self.life.route = route;
        }
        let copy = self.copies.len() as u32;
        self.copies.push(id);
        // The client sends it again: it waits for a new answer.
        self.life.answered = None;
        let mut t = Trail { f: self, copy };
        if copy > 0 {
            t.close(Hop::Client, now);
        }
        t.mark(Hop::Client, now, Happening::Sent { attempt });
    }

    /// The gateway sent copy `new` in place of `old`.
    #[cold]
    #[inline(never)]
    pub fn gateway_copy(&mut self, old: Id, new: Id, now: Micros) {
        if self.copy_of(old).is_some() {
            self.copies.push(new);
            let copy = self.copies.len() as u32 - 1;
            Trail { f: self, copy }.open(Hop::Gateway, Activity::Connection, now);
        }
    }

    #[cold]
    #[inline(never)]
    fn copy_of(&self, id: Id) -> Option<u32> {
        self.copies.iter().position(|&c| c == id).map(|c| c as u32)
    }

    /// A worker of `orders` freed up after `held`; counted while a copy waits in the queue.
    #[cold]
    #[inline(never)]
    pub fn worker_freed(&mut self, held: Micros) {
        if let Some(h) = self.held.as_mut() {
            h.push(held);
        }
    }

    /// The life, once the run stopped at `end`: spans still open end there, and nothing
    /// planned for later (a call's answer, a back-off's end) is kept past it.
    fn finish(mut self, end: Micros) -> Option<RequestLife> {
        if self.copies.is_empty() {
            return None;
        }
        for (lane, activity, from) in std::mem::take(&mut self.open) {
            self.push(lane, activity, from, end.max(from));
        }
        if let (Some(mut held), Some(scene)) = (self.held.take(), self.life.queue.as_mut()) {
            // Still queued when the run stopped: the scene as it was by then.
            held.sort_unstable();
            scene.freed = held.len() as u32;
            scene.held_median = held.get(held.len() / 2).copied().unwrap_or(0);
        }
        let mut life = self.life;
        life.spans.retain(|s| s.from < end);
        for s in &mut life.spans {
            s.to = s.to.min(end);
        }
        life.marks.retain(|m| m.at <= end);
        if life.answered.is_some_and(|(at, _)| at > end) {
            life.answered = None;
        }
        crate::sort::by_key(&mut life.spans, |s| (s.from, s.lane));
        crate::sort::by_rank(&mut life.marks, |m| m.at);
        Some(life)
    }

    fn push(&mut self, lane: Lane, activity: Activity, from: Micros, to: Micros) {
        if to > from {
            self.life.spans.push(Span {
                lane,
                activity,
                from,
                to,
            });
        }
    }
}

/// The layers of `stack` that are on, outside in.
fn layers_on(stack: &StackConfig) -> Vec<Pattern> {
    let outermost = Pattern::ALL
        .into_iter()
        .filter(|p| p.describe().place == Place::Outermost);
    outermost
        .chain(stack.profile.order().iter().copied())
        .filter(|p| stack.has(*p))
        .collect()
}

/// The recorder, for one copy of the followed request.
pub(super) struct Trail<'a> {
    f: &'a mut Follow,
    copy: u32,
}

impl Trail<'_> {
    /// The lane of `hop` for this copy (the client is one lane: it sends every copy).
    fn lane(&self, hop: Hop) -> Lane {
        let copy = if hop == Hop::Client { 0 } else { self.copy };
        Lane { hop, copy }
    }

    /// A span begins in `hop` (ending the one still open there).
    #[cold]
    #[inline(never)]
    pub fn open(&mut self, hop: Hop, activity: Activity, now: Micros) {
        self.close(hop, now);
        let lane = self.lane(hop);
        self.f.open.push((lane, activity, now));
    }

    /// The span open in `hop` ends at `at`; returns what it was.
    #[cold]
    #[inline(never)]
    pub fn close(&mut self, hop: Hop, at: Micros) -> Option<Activity> {
        let lane = self.lane(hop);
        let i = self.f.open.iter().position(|(l, ..)| *l == lane)?;
        let (_, activity, from) = self.f.open.swap_remove(i);
        self.f.push(lane, activity, from, at.max(from));
        Some(activity)
    }

    /// The span open in `hop`, if any.
    #[cold]
    #[inline(never)]
    pub fn is_open(&self, hop: Hop) -> Option<Activity> {
        let lane = self.lane(hop);
        self.f.open.iter().find(|(l, ..)| *l == lane).map(|o| o.1)
    }

    /// A span already over.
    #[cold]
    #[inline(never)]
    pub fn span(&mut self, hop: Hop, activity: Activity, from: Micros, to: Micros) {
        let lane = self.lane(hop);
        self.f.push(lane, activity, from, to);
    }

    /// A moment.
    #[cold]
    #[inline(never)]
    pub fn mark(&mut self, hop: Hop, at: Micros, happening: Happening) {
        let lane = self.lane(hop);
        self.f.life.marks.push(Mark {
            lane,
            at,
            happening,
        });
    }

    /// The number of the next try in `hop` (from 1).
    #[cold]
    #[inline(never)]
    pub fn next_try(&mut self, hop: Hop) -> u32 {
        let lane = self.lane(hop);
        match self.f.tries.iter_mut().find(|(l, _)| *l == lane) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                self.f.tries.push((lane, 1));
                1
            }
        }
    }

    /// The tries made so far in `hop`.
    #[cold]
    #[inline(never)]
    pub fn tries(&self, hop: Hop) -> u32 {
        let lane = self.lane(hop);
        self.f
            .tries
            .iter()
            .find(|(l, _)| *l == lane)
            .map_or(0, |t| t.1)
    }

    /// The copy waits in the queue, with `busy` workers busy and `ahead` requests before it.
    #[cold]
    #[inline(never)]
    pub fn queued(&mut self, now: Micros, busy: u32, ahead: u64) {
        self.open(Hop::Queue, Activity::Queued, now);
        if self.f.life.queue.is_none() {
            self.f.life.queue = Some(QueueScene {
                busy,
                ahead,
                ..QueueScene::default()
            });
            self.f.held = Some(Vec::new());
        }
    }

    /// A worker took the copy: the queue's scene is complete.
    #[cold]
    #[inline(never)]
    pub fn left_queue(&mut self, now: Micros) {
        self.close(Hop::Queue, now);
        if let (Some(mut held), Some(scene)) = (self.f.held.take(), self.f.life.queue.as_mut()) {
            held.sort_unstable();
            scene.freed = held.len() as u32;
            scene.held_median = held.get(held.len() / 2).copied().unwrap_or(0);
        }
    }

    /// The client's last answer so far.
    #[cold]
    #[inline(never)]
    pub fn answered(&mut self, now: Micros, outcome: crate::sim::trace::Outcome) {
        self.f.life.answered = Some((now, outcome));
        self.mark(Hop::Client, now, Happening::Answered { outcome });
    }
}

impl Sim<'_> {
    /// The recorder for copy `id`, when the run follows the request it is a copy of.
    #[inline(always)]
    pub(super) fn trail(&mut self, id: Id) -> Option<Trail<'_>> {
        trail(&mut self.follow, id)
    }
}

/// The recorder for copy `id` (for code that has split the simulator's borrows).
#[inline(always)]
pub(super) fn trail(follow: &mut Option<Box<Follow>>, id: Id) -> Option<Trail<'_>> {
    let f = follow.as_deref_mut()?;
    let copy = f.copy_of(id)?;
    Some(Trail { f, copy })
}

/// Runs `cfg` and follows arrival number `id` of its open loop (0 is the first request): the
/// run's Trace, and the request's life (`None` when the run has no such arrival).
pub fn follow(cfg: &SimConfig, id: u64) -> Result<(Trace, Option<RequestLife>), RunError> {
    cfg.validate_naming(super::own_field)?;
    let mut sim = Sim::new(cfg, DEFAULT_EVENT_CAP)?;
    sim.follow = Some(Box::new(Follow::new(id, cfg)));
    let end = sim.run()?;
    let follow = sim.follow.take();
    let life = follow.and_then(|f| f.finish(end));
    Ok((sim.finish(end), life))
}
