//! A dependency at run time: how it answers (its fault schedule drawn from the run's random
//! stream), its servers when it has a capacity, and the stack `orders` calls it through.
//!
//! With a capacity a call is answered when a slot has served it, after its wait in the queue;
//! the caller stops waiting at its try's deadline whatever the dependency is doing, and the
//! work it leaves behind goes on or is dropped as the capacity's [`Abandon`] says. With hot
//! items, an answer is a conditional write: it fails as UNAVAILABLE (a transient error the
//! caller's retries retry) when another call committed its item while it was being served.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::cache::{Cache, Lookup};
use super::call_end::{CallEnd, Failure};
use super::dependency_config::{Abandon, DependencyConfig, FaultSchedule};
use super::events::{Event, Id};
use super::follow::trail;
use super::hosts::{Hosts, FAIL_FAST};
use super::servers::{Admit, InService, Job, Servers};
use super::stack::{Stack, TryAt};
use super::Sim;
use crate::resilience::ParamError;
use crate::sim::engine::EventQueue;
use crate::sim::latency::{LatencyModel, Micros};
use crate::sim::life::{Activity, Happening, Hop};

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
    /// Its servers, when it has a capacity.
    pub servers: Option<Servers>,
    /// The cache in front of its servers, if it has one.
    pub cache: Option<Cache>,
    /// Its hosts behind a balancer, if it has several.
    pub hosts: Option<Hosts>,
}

impl Dependency {
    pub fn new(cfg: &DependencyConfig) -> Result<Self, ParamError> {
        Ok(Dependency {
            name: cfg.name.clone(),
            faults: Faults::new(&cfg.faults),
            stack: Stack::new(&cfg.stack)?,
            servers: cfg.capacity.as_ref().map(Servers::new),
            cache: cfg
                .capacity
                .as_ref()
                .and_then(|c| c.cache.as_ref())
                .map(Cache::new),
            hosts: cfg.hosts.as_ref().map(Hosts::new),
        })
    }

    /// The first answer of request `id`'s try that starts at `now`: its latency, how it ended and whether
    /// a copy of it gave it (the stack decides the copies; no copy is due once the try has
    /// timed out at `try_ends`). Without copies, one call.
    pub fn answer_of_try(
        &mut self,
        id: Id,
        me: usize,
        now: Micros,
        try_ends: Micros,
        rng: &mut ChaCha8Rng,
        q: &mut EventQueue<Event>,
    ) -> (Micros, CallEnd, bool) {
        let Dependency {
            faults,
            hosts,
            stack,
            ..
        } = self;
        // One call going out at `at`: to the host the balancer picks, when there are hosts.
        let mut call = |at: Micros, rng: &mut ChaCha8Rng, q: &mut EventQueue<Event>| {
            let Some(hosts) = hosts.as_mut() else {
                return faults.draw(at, rng);
            };
            let host = hosts.pick(at, rng);
            let (latency, end) = if hosts.failing(host, at) {
                (FAIL_FAST, CallEnd::Failed(Failure::Unavailable))
            } else {
                faults.draw(at, rng)
            };
            let event = Event::HostDone {
                dep: me as u32,
                host: host as u32,
                failed: matches!(end, CallEnd::Failed(_)),
            };
            q.schedule(at.saturating_add(latency), event);
            (latency, end)
        };
        let at = TryAt {
            id,
            dep: me,
            now,
            ends: try_ends,
        };
        if let Some(answer) = stack.first_of_copies(at, rng, q, &mut call) {
            return answer;
        }
        let (latency, end) = call(now, rng, q);
        (latency, end, false)
    }
}

impl Sim<'_> {
    /// Try `try_no` of request `id` reaches dependency `dep`'s servers: served at once, queued,
    /// or answered UNAVAILABLE at once when the queue is full. `deadline` is when the caller
    /// stops waiting, if it ever does; `copy` when it is a copy of the try, not the try.
    pub(super) fn send_to_servers(
        &mut self,
        now: Micros,
        id: Id,
        dep: usize,
        try_no: u32,
        deadline: Option<Micros>,
        copy: bool,
    ) {
        let mut item = None;
        let op = self.requests.get(id).map_or(0, |r| r.op);
        if let Some(cache) = self.deps[dep].cache.as_mut() {
            let drawn = cache.item_of(op);
            match cache.lookup(drawn, id, try_no) {
                Lookup::Hit => {
                    let at = now.saturating_add(cache.hit);
                    self.q.schedule(at, Event::CacheHit { id, try_no });
                    self.recorder.dependency_cached(dep);
                    return;
                }
                Lookup::Wait => {
                    self.recorder.dependency_cached(dep);
                    return;
                }
                Lookup::Fetch => item = Some(drawn),
            }
        }
        let Some(servers) = self.deps[dep].servers.as_mut() else {
            return;
        };
        let job = Job {
            caller: id,
            try_no,
            arrived: now,
            deadline,
            copy,
            item,
        };
        match servers.admit(job) {
            Admit::Serve => self.serve(now, dep, job),
            Admit::Queued => {}
            Admit::Full if copy => self.recorder.dependency_refused(dep),
            Admit::Full => {
                self.recorder.dependency_refused(dep);
                if let Some(mut t) = self.trail(id) {
                    t.mark(Hop::Dependency(dep as u8), now, Happening::DependencyFull);
                }
                if let Some(r) = self.requests.get(id) {
                    r.call.try_end = CallEnd::Failed(Failure::Unavailable);
                    r.call.waiting = false;
                }
                self.q.schedule(now, Event::CallDone(id));
            }
        }
    }

    /// A slot of dependency `dep` starts on `job`: its answer is drawn from the regime in force
    /// now; with its deadline travelling along, the slot stops at the deadline.
    fn serve(&mut self, now: Micros, dep: usize, job: Job) {
        let Sim {
            deps,
            rng,
            q,
            recorder,
            requests,
            follow,
            ..
        } = self;
        if follow.is_some() && !job.copy {
            let waiting = requests
                .get(job.caller)
                .is_some_and(|r| r.call.waiting && r.call.try_no == job.try_no);
            if let (true, Some(mut t)) = (waiting, trail(follow, job.caller)) {
                let hop = Hop::Dependency(dep as u8);
                let attempt = t.tries(hop);
                t.open(hop, Activity::InService { attempt }, now);
            }
        }
        let d = &mut deps[dep];
        let Some(servers) = d.servers.as_mut() else {
            return;
        };
        let (latency, end) = d.faults.draw(now, rng);
        let read = servers.hot.as_ref().map(|h| h.read(rng));
        let finish = now.saturating_add(latency);
        let (at, stopped) = match job.deadline {
            Some(deadline) if deadline < finish && servers.abandon == Abandon::Drop => {
                (deadline, true)
            }
            _ => (finish, false),
        };
        let slot = servers.occupy(InService {
            job,
            end,
            stopped,
            read,
        });
        recorder.dependency_waited(dep, now.saturating_sub(job.arrived));
        q.schedule(
            at,
            Event::Served {
                dep: dep as u32,
                slot,
                epoch: servers.epoch,
            },
        );
    }

    /// A slot of dependency `dep` is done: the next queued call takes it, and the answer goes
    /// to its caller if the caller still waits for it.
    pub(super) fn served(&mut self, now: Micros, dep: usize, slot: u32, epoch: u32) {
        let Some(servers) = self.deps[dep].servers.as_mut().filter(|s| s.epoch == epoch) else {
            return;
        };
        let Some(work) = servers.vacate(slot) else {
            return;
        };
        // The write is checked as the service ends, before a freed slot reads the next call's
        // version: only an answer writes (a "no", an error or a stopped call leaves it alone).
        let conflict = match (work.read, servers.hot.as_mut()) {
            (Some(read), Some(hot)) if !work.stopped && work.end == CallEnd::Answered => {
                !hot.commit(read)
            }
            _ => false,
        };
        let (next, skipped) = servers.next(now);
        self.recorder.dependency_dropped(dep, skipped);
        if let Some(job) = next {
            self.serve(now, dep, job);
        }
        let caller = work.job.caller;
        let waiting = self.requests.get(caller).is_some_and(|r| {
            r.call.waiting && r.call.dep == dep && r.call.try_no == work.job.try_no
        });
        if let Some(item) = work.job.item {
            let answered = !work.stopped && !conflict && work.end == CallEnd::Answered;
            let end = if work.stopped {
                CallEnd::Failed(Failure::Unavailable)
            } else {
                work.end
            };
            self.fetch_over(now, dep, item, answered, waiting, end);
        }
        if work.stopped {
            self.recorder.dependency_dropped(dep, 1);
            return;
        }
        let late = work.job.deadline.is_some_and(|d| now > d);
        self.recorder
            .dependency_served(now, dep, waiting && !conflict, late);
        let end = if conflict {
            self.recorder.dependency_conflict(now, dep);
            CallEnd::Failed(Failure::Unavailable)
        } else {
            work.end
        };
        if let (true, Some(r)) = (waiting, self.requests.get(caller)) {
            r.call.try_end = end;
            r.call.waiting = false;
            r.call.copy_won = work.job.copy;
            self.call_done(now, caller);
        }
    }

    /// The fetch of `item` by dependency `dep`'s cache is over (`answered`, or not; its caller
    /// `waiting` for it, or not): the cache is filled as it fills, and the tries that waited
    /// for the fetch get its answer (`end`) if they still wait.
    fn fetch_over(
        &mut self,
        now: Micros,
        dep: usize,
        item: u32,
        answered: bool,
        waiting: bool,
        end: CallEnd,
    ) {
        let Some(cache) = self.deps[dep].cache.as_mut() else {
            return;
        };
        for (caller, try_no) in cache.fetched(item, answered, waiting) {
            self.cache_answer(now, caller, try_no, end);
        }
    }

    /// Try `try_no` of `id` gets `end` from the cache (a hit, or the fetch it waited for), if
    /// it still waits for it.
    pub(super) fn cache_answer(&mut self, now: Micros, id: Id, try_no: u32, end: CallEnd) {
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if !(r.call.waiting && r.call.try_no == try_no) {
            return;
        }
        r.call.try_end = end;
        r.call.waiting = false;
        self.call_done(now, id);
    }

    /// Dependency `dep` restarts: every call it held fails at once with UNAVAILABLE (counted
    /// as refused), and every caller still waiting hears it now.
    pub(super) fn restart(&mut self, now: Micros, dep: usize) {
        let Some(servers) = self.deps[dep].servers.as_mut() else {
            return;
        };
        let jobs = servers.restart();
        for job in &jobs {
            if let Some(item) = job.item {
                self.fetch_over(
                    now,
                    dep,
                    item,
                    false,
                    false,
                    CallEnd::Failed(Failure::Unavailable),
                );
            }
        }
        for job in jobs {
            self.recorder.dependency_refused(dep);
            let waiting = self.requests.get(job.caller).is_some_and(|r| {
                r.call.waiting && r.call.dep == dep && r.call.try_no == job.try_no
            });
            if let Some(mut t) = self.trail(job.caller).filter(|_| waiting) {
                t.mark(Hop::Dependency(dep as u8), now, Happening::Restarted);
            }
            if let (true, Some(r)) = (waiting, self.requests.get(job.caller)) {
                r.call.try_end = CallEnd::Failed(Failure::Unavailable);
                r.call.waiting = false;
                self.call_done(now, job.caller);
            }
        }
    }

    /// The caller's try `try_no` has run out of time: it stops waiting (what it left behind
    /// at the servers goes on, or is dropped there at the same deadline).
    pub(super) fn try_timed_out(&mut self, now: Micros, id: Id, try_no: u32) {
        let waiting = self
            .requests
            .get(id)
            .is_some_and(|r| r.call.waiting && r.call.try_no == try_no);
        if waiting {
            if let Some(r) = self.requests.get(id) {
                r.call.waiting = false;
            }
            self.call_done(now, id);
        }
    }
}
