//! The service `orders`: its workers and their queue (oldest or newest first), a rate limit and load shedding at
//! the door, the
//! idempotency keys of `POST /orders`, and what it answers when a worker is done.

use std::collections::{BTreeMap, VecDeque};

use super::config::{HistoryBulkhead, QueueOrder, ServiceConfig};
use super::dependency_config::Abandon;
use super::events::{Event, Id};
use super::follow::trail;
use super::heap::Heap;
use super::part;
use super::slab::{Pool, Server};
use super::Sim;
use crate::resilience::{
    Bulkhead, FallbackPolicy, IdempotencyStore, LoadShedConfig, LoadShedder, ParamError, Priority,
    TimeBudget, TokenBucket, TokenBucketConfig,
};
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop};
use crate::sim::pattern::{Descriptor, Pattern, Place};
use crate::sim::trace::{Outcome, Route};

impl Pattern {
    /// Load shedding by priority at the door of `orders`.
    pub const LOAD_SHED: Pattern = Pattern::new(&Descriptor {
        written: "load_shed",
        key: "load_shed",
        label: "Load shedding",
        name: "load shedding",
        missing: "no load shedding",
        place: Place::Door,
        switch: true,
        order: [None; 4],
    });

    /// A rate limit at the door of `orders`: a token bucket, 429 with `Retry-After`.
    pub const RATE_LIMIT: Pattern = Pattern::new(&Descriptor {
        written: "rate_limit",
        key: "rate_limit",
        label: "Rate limit",
        name: "rate limit",
        missing: "no rate limit",
        place: Place::Door,
        switch: true,
        order: [None; 4],
    });
}

/// Load shedding as a part of the config: on with lesson 000's limits.
pub(super) const LOAD_SHED: part::Door = part::Door {
    pattern: Pattern::LOAD_SHED,
    label: "load shedding",
    is_on: |s| s.load_shed.is_some(),
    switch_on: |s| {
        s.load_shed.get_or_insert_with(LoadShedConfig::lesson_000);
    },
    switch_off: |s| s.load_shed = None,
};

/// The rate limit as a part of the config: on with 80 orders a second, a burst of 20.
pub(super) const RATE_LIMIT: part::Door = part::Door {
    pattern: Pattern::RATE_LIMIT,
    label: "the rate limit at the door of orders",
    is_on: |s| s.rate_limit.is_some(),
    switch_on: |s| {
        s.rate_limit
            .get_or_insert_with(TokenBucketConfig::orders_door);
    },
    switch_off: |s| s.rate_limit = None,
};

/// What the idempotency store holds for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum KeyState {
    /// A copy of the order is being worked on.
    InProgress,
    /// The answer given (an order was created, or a definite "no").
    Done(Outcome),
}

/// An order that still has a copy alive or a front-end retry pending.
#[derive(Debug, Clone, Copy, Default)]
struct OpState {
    /// Copies alive plus front-end retries scheduled.
    refs: u32,
    /// Orders its copies created.
    created: u32,
}

/// Where a request arriving at the door goes.
enum Door {
    /// No token in the rate limit's bucket: 429.
    RateLimited,
    /// Shed, or the queue is full.
    Refused,
    /// A worker was free and is now reserved for it.
    Start,
    /// It waits in the queue.
    Queued,
}

/// What the key lookup found for a copy of an order.
enum KeyLookup {
    /// No keys modelled, or the key is new: this copy does the work.
    Work { owner: bool },
    /// Answered before: this answer, at once.
    Answered(Outcome),
    /// Being worked on by another copy: wait for its answer.
    Wait,
}

/// The state of `orders`.
pub(super) struct Service {
    threads: u32,
    queue_limit: Option<u64>,
    queue_order: QueueOrder,
    heap: Option<Heap>,
    busy: u32,
    queue: VecDeque<Id>,
    shedder: Option<LoadShedder>,
    limiter: Option<TokenBucket>,
    pub history_bulkhead: Option<Bulkhead>,
    /// The idempotency keys of `POST /orders` (with `idempotency.key`).
    keys: Option<IdempotencyStore<KeyState>>,
    /// The store's size that triggers its next purge of expired keys.
    keys_purge_at: usize,
    /// Copies waiting for the copy that owns their key, by order.
    key_waiters: BTreeMap<u64, Vec<Id>>,
    /// Orders still alive, for the duplicate count (with `idempotency`).
    ops: Option<BTreeMap<u64, OpState>>,
}

impl Service {
    pub fn new(cfg: &ServiceConfig, history: &HistoryBulkhead) -> Result<Self, ParamError> {
        Ok(Service {
            threads: cfg.threads,
            queue_limit: cfg.queue_limit,
            queue_order: cfg.queue_order,
            heap: cfg.gc.as_ref().map(Heap::new),
            busy: 0,
            queue: VecDeque::new(),
            shedder: cfg.load_shed.clone().map(LoadShedder::new).transpose()?,
            limiter: cfg
                .rate_limit
                .clone()
                .map(|c| TokenBucket::new(c, 0))
                .transpose()?,
            history_bulkhead: match history {
                HistoryBulkhead::Own(b) => Some(Bulkhead::new(b.clone())?),
                _ => None,
            },
            keys: cfg
                .idempotency
                .as_ref()
                .filter(|i| i.key)
                .map(|i| IdempotencyStore::new(i.store.clone()))
                .transpose()?,
            keys_purge_at: 1_024,
            key_waiters: BTreeMap::new(),
            ops: cfg.idempotency.is_some().then(BTreeMap::new),
        })
    }

    /// Workers busy and requests queued.
    pub fn load(&self) -> (u32, u64) {
        (self.busy, self.queue.len() as u64)
    }

    /// The garbage collection pause a worker waits out before the request it starts now.
    fn gc_pause(&self) -> Micros {
        self.heap.as_ref().map_or(0, |h| {
            h.pause(u64::from(self.busy) + self.queue.len() as u64)
        })
    }

    /// Requests refused by load shedding, by priority: `[low, normal, high]`.
    pub fn shed_by_priority(&self) -> [u64; 3] {
        self.shedder.as_ref().map_or([0; 3], |s| {
            [Priority::Low, Priority::Normal, Priority::High].map(|p| s.shed_count(p))
        })
    }

    /// Copies the key store recognised, when the config models idempotency.
    pub fn recognised(&self) -> Option<u64> {
        self.ops
            .as_ref()
            .map(|_| self.keys.as_ref().map_or(0, |k| k.duplicates_avoided()))
    }

    /// The `Retry-After` of a 429 at `now`, with a rate limit.
    pub fn retry_after(&mut self, now: Micros) -> Option<Micros> {
        self.limiter.as_mut().map(|l| l.retry_after(now))
    }

    /// The door: rate-limited, shed, or a worker reserved, or queued (in flight = busy +
    /// queued).
    fn door(&mut self, now: Micros, id: Id, priority: Priority) -> Door {
        if self.limiter.as_mut().is_some_and(|l| !l.try_take(now)) {
            return Door::RateLimited;
        }
        let in_flight = self.busy.saturating_add(self.queue.len() as u32);
        let shed = self
            .shedder
            .as_mut()
            .is_some_and(|s| s.admit(priority, in_flight).is_err());
        let worker_free = self.busy < self.threads && self.queue.is_empty();
        let queue_full = !worker_free
            && self
                .queue_limit
                .is_some_and(|l| self.queue.len() as u64 >= l);
        if shed || queue_full {
            Door::Refused
        } else if worker_free {
            self.busy += 1;
            Door::Start
        } else {
            self.queue.push_back(id);
            Door::Queued
        }
    }

    /// A worker is free: the next queued request (the oldest, or the newest as the queue's
    /// order says), or one worker fewer busy.
    fn next_queued(&mut self) -> Option<Id> {
        let newest_first = match self.queue_order {
            QueueOrder::Fifo => false,
            QueueOrder::Lifo => true,
            QueueOrder::Adaptive => self.queue.len() > self.threads as usize,
        };
        let next = if newest_first {
            self.queue.pop_back()
        } else {
            self.queue.pop_front()
        };
        if next.is_none() {
            self.busy = self.busy.saturating_sub(1);
        }
        next
    }

    /// `orders` looks the order's key up before doing any work; a new key is this copy's.
    fn lookup_key(&mut self, now: Micros, id: Id, op: u64) -> KeyLookup {
        let Some(store) = self.keys.as_mut() else {
            return KeyLookup::Work { owner: false };
        };
        let key = op.to_string();
        let found = store.lookup(now, &key);
        if found.is_none() {
            store.store(now, &key, KeyState::InProgress);
            if store.len() >= self.keys_purge_at {
                store.purge_expired(now);
                self.keys_purge_at = (2 * store.len()).max(1_024);
            }
        }
        match found {
            None => KeyLookup::Work { owner: true },
            Some(KeyState::Done(outcome)) => KeyLookup::Answered(outcome),
            Some(KeyState::InProgress) => {
                self.key_waiters.entry(op).or_default().push(id);
                KeyLookup::Wait
            }
        }
    }

    /// The copy owning an order's key is done: an answer is kept for the key's TTL, a failure
    /// forgets the key (a later copy does the work again). Returns the copies waiting for it.
    fn settle_key(&mut self, now: Micros, op: u64, outcome: Outcome) -> Vec<Id> {
        if let Some(store) = self.keys.as_mut() {
            let key = op.to_string();
            if outcome.is_answer() {
                store.store(now, &key, KeyState::Done(outcome));
            } else {
                store.remove(&key);
            }
        }
        self.key_waiters.remove(&op).unwrap_or_default()
    }

    /// A first copy of order `op` arrived.
    pub fn order_arrived(&mut self, op: u64) {
        if let Some(ops) = self.ops.as_mut() {
            ops.entry(op).or_default().refs += 1;
        }
    }

    /// Another copy (or a scheduled front-end retry) of order `op` holds on to it.
    pub fn order_copied(&mut self, op: u64) {
        if let Some(state) = self.ops.as_mut().and_then(|o| o.get_mut(&op)) {
            state.refs += 1;
        }
    }

    /// A copy of order `op` is over.
    pub fn order_released(&mut self, op: u64) {
        let Some(ops) = self.ops.as_mut() else {
            return;
        };
        if let Some(state) = ops.get_mut(&op) {
            state.refs = state.refs.saturating_sub(1);
            if state.refs == 0 {
                ops.remove(&op);
            }
        }
    }

    /// A copy of order `op` created an order: `Some(duplicate)` while the order is tracked.
    fn order_created(&mut self, op: u64) -> Option<bool> {
        let state = self.ops.as_mut()?.get_mut(&op)?;
        state.created += 1;
        Some(state.created > 1)
    }
}

impl Sim<'_> {
    /// The request reaches `orders`: shed, queued, or a worker is reserved for it.
    pub(super) fn enter_orders(&mut self, now: Micros, id: Id, priority: Priority) {
        let (busy, ahead) = self.service.load();
        let door = self.service.door(now, id, priority);
        let refused = match door {
            Door::RateLimited => Some(Outcome::RateLimited),
            Door::Refused => Some(Outcome::Shed),
            Door::Start | Door::Queued => None,
        };
        if let Some(mut t) = self.trail(id) {
            match refused {
                Some(outcome) => t.mark(
                    Hop::Queue,
                    now,
                    Happening::RefusedAtDoor {
                        outcome,
                        queued: ahead,
                    },
                ),
                None => t.queued(now, busy, ahead),
            }
        }
        if let Some(outcome) = refused {
            self.answer(now, id, outcome);
            self.release_connection(now, id);
            self.maybe_free(id);
            return;
        }
        if let Some(r) = self.requests.get(id) {
            r.server = Server::Queued;
        }
        if let Door::Start = door {
            self.q.schedule(now, Event::Start(id));
        }
    }

    /// A worker takes the request: after the key lookup, on to its first bulkhead.
    pub(super) fn start(&mut self, now: Micros, id: Id) {
        let request_budget = self.cfg.service.request_budget;
        let skip_stale = self.cfg.service.abandon == Abandon::Drop;
        let Some(r) = self.requests.get(id) else {
            return;
        };
        let stale = skip_stale && r.outcome.is_some();
        if let Some(mut t) = trail(&mut self.follow, id) {
            t.left_queue(now);
            if stale {
                t.mark(Hop::Queue, now, Happening::Skipped);
            } else {
                t.open(Hop::Worker, Activity::Worker, now);
            }
        }
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if stale {
            // Its client has gone: the worker moves on to the next request.
            r.server = Server::Done;
            self.recorder.stale_skipped();
            if let Some(next) = self.service.next_queued() {
                self.q.schedule(now, Event::Start(next));
            }
            self.release_connection(now, id);
            self.maybe_free(id);
            return;
        }
        r.started = Some(now);
        r.server = Server::Running;
        // The budget runs from the request's arrival, as the lesson creates it "when the
        // request comes in": time spent queued for a worker is spent from it.
        r.budget = request_budget.map(|b| TimeBudget::from_duration(r.arrived, b));
        let (record, route, op) = (r.record, r.route, r.op);
        let pool = self.pool_of(route);
        self.recorder.started(record, now);
        if route == Route::Orders {
            match self.service.lookup_key(now, id, op) {
                KeyLookup::Work { owner } => {
                    if let Some(r) = self.requests.get(id) {
                        r.key_owner = owner;
                    }
                }
                KeyLookup::Answered(outcome) => {
                    if let Some(r) = self.requests.get(id) {
                        r.replay = true;
                    }
                    if let Some(mut t) = self.trail(id) {
                        t.mark(Hop::Worker, now, Happening::KeyAnswered);
                    }
                    self.server_finish(now, id, outcome);
                    return;
                }
                KeyLookup::Wait => {
                    if let Some(r) = self.requests.get(id) {
                        r.replay = true;
                    }
                    if let Some(mut t) = self.trail(id) {
                        t.mark(Hop::Worker, now, Happening::KeyWait);
                    }
                    return;
                }
            }
        }
        let pause = self.service.gc_pause();
        if pause > 0 {
            self.q
                .schedule(now.saturating_add(pause), Event::Resume(id));
        } else {
            self.enter_stack(now, id, pool);
        }
    }

    /// The worker has waited out the collector's pause: on to the request's first bulkhead.
    pub(super) fn resume(&mut self, now: Micros, id: Id) {
        let Some(route) = self.requests.get(id).map(|r| r.route) else {
            return;
        };
        let pool = self.pool_of(route);
        self.enter_stack(now, id, pool);
    }

    /// The permits a request of `route` takes: order history's own bulkhead when it has one,
    /// else the dependency's.
    fn pool_of(&self, route: Route) -> Pool {
        let shared_history = matches!(self.cfg.routes.history_bulkhead, HistoryBulkhead::Shared);
        match route {
            Route::OrderHistory if !shared_history => Pool::History,
            _ => Pool::Dependency,
        }
    }

    /// The worker is done with the request (`outcome` is what `orders` answers): it takes the
    /// next queued request; the answer goes back through the gateway to the client.
    pub(super) fn server_finish(&mut self, now: Micros, id: Id, outcome: Outcome) {
        let fallback = self
            .cfg
            .service
            .fallback
            .as_ref()
            .and_then(FallbackPolicy::on_failure);
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if r.server != Server::Running {
            return;
        }
        r.server = Server::Done;
        let stale = r.outcome.is_some();
        let first_dependency_failed = r.call.dep == 0 && outcome.failed_a_call();
        let outcome = if fallback.is_some() && r.route == Route::Orders && first_dependency_failed {
            Outcome::Fallback
        } else {
            outcome
        };
        let (route, op, key_owner, replay) = (r.route, r.op, r.key_owner, r.replay);
        r.key_owner = false;
        let service = now.saturating_sub(r.started.unwrap_or(now));
        let created =
            route == Route::Orders && !replay && matches!(outcome, Outcome::Ok | Outcome::Fallback);
        if let Some(duplicate) = created.then(|| self.service.order_created(op)).flatten() {
            self.recorder.order_created(now, duplicate);
        }
        self.recorder.worked(now, service, outcome, stale);
        if let Some(f) = self.follow.as_deref_mut() {
            f.worker_freed(service);
        }
        if let Some(mut t) = self.trail(id) {
            t.close(Hop::Worker, now);
            if outcome == Outcome::Fallback {
                t.mark(Hop::Worker, now, Happening::Fallback);
            }
        }
        self.answer(now, id, outcome);
        if let Some(next) = self.service.next_queued() {
            self.q.schedule(now, Event::Start(next));
        }
        self.release_connection(now, id);
        self.maybe_free(id);
        if key_owner {
            for waiter in self.service.settle_key(now, op, outcome) {
                self.server_finish(now, waiter, outcome);
            }
        }
    }
}
