//! The stack `orders` calls a dependency through, outside in (lesson 000's order):
//! bulkhead -> circuit breaker -> retries (+ retry budget) -> timeout (+ request budget) ->
//! sidecar -> the layers inside each try ([`InsideTry`]) -> the call, each layer a state
//! machine of [`crate::resilience`]. The request's [`Call`] carries its place in it; the
//! layers' shared state lives here.

use rand_chacha::ChaCha8Rng;

use super::call_end::{CallEnd, Failure, Refusal};
use super::dependency_config::{SidecarConfig, StackConfig};
use super::envoy::{AfterTry, EnvoyCluster, RETRY_OVERFLOW};
use super::events::{Event, Id};
use super::follow::{trail, Trail};
use super::grpc::RETRIES_THROTTLED;
use super::library_rules::LibraryRules;
use super::recorder::Recorder;
use super::slab::{Call, Pool};
use super::Sim;
use crate::resilience::{
    Acquire, Admission, Bulkhead, CallError, CircuitBreaker, GiveUpReason, ParamError, Retry,
    RetryBudget, RetryDecision, RetryPolicy, RetryThrottle, TimeBudget,
};
use crate::sim::engine::EventQueue;
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop, LayerMark, Retrier};
use crate::sim::pattern::Pattern;
use crate::sim::trace::{BreakerChange, Counter, LayerLevel, Outcome, Route};

/// Retries the retry budget refused: the try failed, the policy would retry, and the budget
/// had no credit left.
pub const RETRIES_OVER_BUDGET: Counter = Counter {
    name: "retries_over_budget",
    figure: "retries-over-budget",
    label: "retries over budget",
    what: "the number of retries the retry budget refused",
};

/// The retry budget refused the retry this try would have had.
const NO_CREDIT: LayerMark = LayerMark {
    pattern: Pattern::RETRY_BUDGET,
    words: "the retry budget has no credit left: no retry",
};

/// What sends one copy of a try at a time and draws its answer: its latency and how it ends.
pub(super) type SendTry<'a> =
    dyn FnMut(Micros, &mut ChaCha8Rng, &mut EventQueue<Event>) -> (Micros, CallEnd) + 'a;

/// A layer outside every other (a limit on the calls in flight): it lets a call into the stack
/// or refuses it, and hears how each call it let in ended. The stack holds it as a value,
/// built by its room ([`super::OUTERMOST`]).
pub(super) trait Outermost {
    /// Lets a call in at `now` (what it keeps of the call until it is over), or refuses it.
    fn let_in(&mut self, now: Micros) -> Result<Admitted, Refusal>;

    /// The call it let in as `admitted` ended so at `now`.
    fn release(&mut self, admitted: Admitted, now: Micros, end: CallEnd);

    /// What the level it keeps did so far.
    fn level(&self) -> LayerLevel;
}

/// What the outermost layer keeps of a call it let in, until the call is over.
#[derive(Debug, Clone, Copy)]
pub struct Admitted {
    /// Calls in flight with it, itself included, as it went in.
    pub in_flight: u32,
    /// When it went in.
    pub since: Micros,
}

/// A try as the layers inside it see it: request `id`'s try to dependency `dep`, leaving at
/// `now`, which its caller gives up on at `ends`.
#[derive(Debug, Clone, Copy)]
pub(super) struct TryAt {
    pub id: Id,
    pub dep: usize,
    pub now: Micros,
    pub ends: Micros,
}

/// A layer that acts inside each try of the call (copies of a slow try): the stack holds it
/// as a value, built by its room ([`super::INSIDE_TRY`]), and asks it at each moment of a try.
pub(super) trait InsideTry {
    /// The counters it keeps.
    fn counters(&self) -> &'static [Counter];

    /// A try answered at once (no servers): the answer of the first of the copies it sends
    /// (`call` sends each, the original first), with whether a copy gave it; `None` while it
    /// sends no copies of this try.
    fn first_of_copies(
        &self,
        at: TryAt,
        rng: &mut ChaCha8Rng,
        q: &mut EventQueue<Event>,
        call: &mut SendTry<'_>,
    ) -> Option<(Micros, CallEnd, bool)>;

    /// The try numbered `try_no` went to the servers: the copies it will send.
    fn try_sent(&self, q: &mut EventQueue<Event>, at: TryAt, try_no: u32);

    /// A try is over after `waited`, answered by a copy when `copy_won`.
    fn try_over(&mut self, now: Micros, waited: Micros, copy_won: bool, rec: &mut Recorder);

    /// What a followed request shows when a copy answered its try.
    fn copy_won(&self) -> LayerMark;
}

/// The layers' state for one dependency, shared by every request calling it.
pub(super) struct Stack {
    pub timeout: Option<Micros>,
    retry: Option<RetryPolicy>,
    sidecar: Option<SidecarConfig>,
    trip_on_business: bool,
    pub breaker: Option<CircuitBreaker>,
    pub bulkhead: Option<Bulkhead>,
    retry_budget: Option<RetryBudget>,
    /// The layers that act inside each try (copies of a slow one), built by their rooms.
    inside_try: Vec<Box<dyn InsideTry>>,
    /// The Envoy cluster behind the sidecar, when the sidecar runs Envoy's rules.
    pub envoy: Option<EnvoyCluster>,
    /// The layer outside every other, if any, built by its room.
    outermost: Option<Box<dyn Outermost>>,
    /// A library profile's rules, when the stack runs in a library's order.
    pub library: Option<LibraryRules>,
    /// The channel's retry throttle, when a gRPC profile has one.
    pub throttle: Option<RetryThrottle>,
}

impl Stack {
    pub fn new(cfg: &StackConfig) -> Result<Self, ParamError> {
        Ok(Stack {
            timeout: cfg.timeout,
            retry: cfg.retry,
            sidecar: cfg.sidecar.clone(),
            trip_on_business: cfg.business_errors_trip_breaker,
            breaker: cfg.breaker.clone().map(CircuitBreaker::new).transpose()?,
            bulkhead: cfg.bulkhead.clone().map(Bulkhead::new).transpose()?,
            retry_budget: cfg.retry_budget.clone().map(RetryBudget::new).transpose()?,
            inside_try: super::INSIDE_TRY
                .iter()
                .filter_map(|make| make(cfg).transpose())
                .collect::<Result<_, _>>()?,
            envoy: cfg
                .sidecar
                .as_ref()
                .and_then(|s| s.envoy)
                .map(EnvoyCluster::new),
            outermost: super::OUTERMOST
                .iter()
                .find_map(|make| make(cfg).transpose())
                .transpose()?,
            library: cfg.profile.rules(cfg.retry.as_ref()),
            throttle: cfg
                .profile
                .grpc()
                .and_then(|g| g.throttling)
                .map(RetryThrottle::new),
        })
    }

    /// A try that goes out with copies of it: `call` sends each (the original first), and the
    /// first answer is the try's, with whether a copy gave it. `None` while the stack sends no
    /// copies of this try.
    pub fn first_of_copies(
        &self,
        at: TryAt,
        rng: &mut ChaCha8Rng,
        q: &mut EventQueue<Event>,
        call: &mut SendTry<'_>,
    ) -> Option<(Micros, CallEnd, bool)> {
        self.inside_try
            .iter()
            .find_map(|l| l.first_of_copies(at, rng, q, call))
    }

    /// What a followed request shows of a try a copy answered (`copy_won`), if one did.
    pub fn won_by(&self, copy_won: bool) -> Option<LayerMark> {
        let layer = self.inside_try.first().filter(|_| copy_won)?;
        Some(layer.copy_won())
    }

    /// The counters its layers keep.
    pub fn counters(&self) -> impl Iterator<Item = Counter> + '_ {
        let copies = self
            .inside_try
            .iter()
            .flat_map(|l| l.counters().iter().copied());
        let overflow = self.envoy.as_ref().map(|_| RETRY_OVERFLOW);
        let throttled = self.throttle.as_ref().map(|_| RETRIES_THROTTLED);
        let over_budget = self.retry_budget.as_ref().map(|_| RETRIES_OVER_BUDGET);
        copies.chain(overflow).chain(throttled).chain(over_budget)
    }

    /// What the levels its layers keep did so far.
    pub fn levels(&self) -> impl Iterator<Item = LayerLevel> + '_ {
        self.outermost.iter().map(|l| l.level())
    }

    /// The breaker's changes of state, as the Trace gives them.
    pub fn transitions(&self) -> Vec<BreakerChange> {
        self.breaker
            .as_ref()
            .map(|b| {
                b.transitions()
                    .iter()
                    .map(|t| BreakerChange {
                        at: t.at,
                        from: t.from,
                        to: t.to,
                        reason: t.reason,
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Sim<'_> {
    /// The bulkhead `pool` names for a request whose call is to dependency `dep`.
    fn bulkhead_mut(&mut self, pool: Pool, dep: usize) -> Option<&mut Bulkhead> {
        match pool {
            Pool::Dependency => self.deps.get_mut(dep)?.stack.bulkhead.as_mut(),
            Pool::History => self.service.history_bulkhead.as_mut(),
        }
    }

    /// True when the request's call runs through a `resilience4j` stack (a history lookup
    /// only ever takes a permit).
    #[inline(always)]
    pub(super) fn in_library(&mut self, id: Id) -> bool {
        let Sim { requests, deps, .. } = self;
        match requests.get(id) {
            Some(r) if r.route != Route::OrderHistory => {
                matches!(deps.get(r.call.dep), Some(d) if d.stack.library.is_some())
            }
            _ => false,
        }
    }

    /// Whether the outermost layer of the request's dependency lets its call in (always,
    /// without one); a call it refuses ends at once.
    fn let_in_by_the_outermost(&mut self, now: Micros, id: Id) -> bool {
        let Sim { requests, deps, .. } = self;
        let Some(r) = requests.get(id) else {
            return false;
        };
        let Some(layer) = deps
            .get_mut(r.call.dep)
            .and_then(|d| d.stack.outermost.as_mut())
        else {
            return true;
        };
        match layer.let_in(now) {
            Ok(admitted) => {
                r.call.admitted = Some(admitted);
                true
            }
            Err(refusal) => {
                self.stack_done(now, id, CallEnd::Refused(refusal));
                false
            }
        }
    }

    /// A worker starts on the request: the first layer of its stack (for a history lookup,
    /// its bulkhead `pool`).
    #[inline(always)]
    pub(super) fn enter_stack(&mut self, now: Micros, id: Id, pool: Pool) {
        if pool == Pool::Dependency && !self.let_in_by_the_outermost(now, id) {
            return;
        }
        if self.in_library(id) {
            self.library_attempt(now, id);
        } else {
            self.acquire_permit(now, id, pool);
        }
    }

    /// The request goes on to dependency `dep`: a new call, through its outermost layer.
    pub(super) fn start_call(&mut self, now: Micros, id: Id, dep: usize) {
        let Some(r) = self.requests.get(id) else {
            return;
        };
        r.call = Call::new(dep);
        self.enter_stack(now, id, Pool::Dependency);
    }

    /// The backoff before a library retry is over: the next attempt.
    pub(super) fn retry_call(&mut self, now: Micros, id: Id) {
        if self.in_library(id) {
            self.library_attempt(now, id);
        } else {
            self.attempt(now, id);
        }
    }

    /// The request asks `pool` for a permit (no bulkhead: it goes on at once).
    pub(super) fn acquire_permit(&mut self, now: Micros, id: Id, pool: Pool) {
        let Some(dep) = self.requests.get(id).map(|r| r.call.dep) else {
            return;
        };
        let acquire = self.bulkhead_mut(pool, dep).map(|b| b.try_acquire(now, id));
        if acquire.is_some() {
            if let Some(r) = self.requests.get(id) {
                r.permit = Some(pool);
            }
        }
        if let Some(mut t) = self.trail(id) {
            let hop = bulkhead_hop(pool, dep);
            match acquire {
                Some(Acquire::Granted) => t.open(hop, Activity::Permit, now),
                Some(Acquire::Queued { .. }) => t.open(hop, Activity::PermitWait, now),
                _ => {}
            }
        }
        match acquire {
            None | Some(Acquire::Granted) => self.q.schedule(now, Event::Proceed(id)),
            Some(Acquire::Queued { give_up_at }) => {
                self.q.schedule(give_up_at, Event::BulkheadExpire(id))
            }
            Some(Acquire::Rejected(_)) => self.refused_by_bulkhead(now, id),
        }
    }

    /// The bulkhead the request holds (or waits for) a permit of, and its call's dependency.
    fn permit_of(&mut self, id: Id) -> Option<(Pool, usize)> {
        self.requests
            .get(id)
            .and_then(|r| Some((r.permit?, r.call.dep)))
    }

    /// The request's wait for a permit ran out.
    pub(super) fn bulkhead_expire(&mut self, now: Micros, id: Id) {
        let Some((pool, dep)) = self.permit_of(id) else {
            return;
        };
        if self
            .bulkhead_mut(pool, dep)
            .and_then(|b| b.expire(now, id))
            .is_some()
        {
            self.refused_by_bulkhead(now, id);
        }
    }

    /// No permit: a lookup of order history ends there; a call ends as refused.
    fn refused_by_bulkhead(&mut self, now: Micros, id: Id) {
        let Some(r) = self.requests.get(id) else {
            return;
        };
        let (pool, dep) = (r.permit.take().unwrap_or(Pool::Dependency), r.call.dep);
        let permits = self
            .bulkhead_mut(pool, dep)
            .map_or(0, |b| b.config().permits);
        if let Some(mut t) = self.trail(id) {
            let hop = bulkhead_hop(pool, dep);
            t.close(hop, now);
            t.mark(hop, now, Happening::BulkheadFull { permits });
        }
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if r.route == Route::OrderHistory {
            self.server_finish(now, id, Outcome::BulkheadFull);
        } else if self.in_library(id) {
            self.library_attempt_over(now, id, CallEnd::Refused(Refusal::Bulkhead));
        } else {
            self.stack_done(now, id, CallEnd::Refused(Refusal::Bulkhead));
        }
    }

    /// Gives back the request's bulkhead permit; a waiter that receives it proceeds now.
    pub(super) fn release_permit(&mut self, now: Micros, id: Id) {
        let Some((pool, dep)) = self
            .requests
            .get(id)
            .and_then(|r| Some((r.permit.take()?, r.call.dep)))
        else {
            return;
        };
        if let Some(mut t) = self.trail(id) {
            t.close(bulkhead_hop(pool, dep), now);
        }
        if let Some(waiter) = self.bulkhead_mut(pool, dep).and_then(|b| b.release(now)) {
            self.q.schedule(now, Event::Proceed(waiter));
        }
    }

    /// A followed request's wait for a permit is over: it holds one now.
    fn permit_came(&mut self, now: Micros, id: Id) {
        let Some((pool, dep)) = self.permit_of(id) else {
            return;
        };
        if let Some(mut t) = self.trail(id) {
            let hop = bulkhead_hop(pool, dep);
            if t.is_open(hop) == Some(Activity::PermitWait) {
                t.open(hop, Activity::Permit, now);
            }
        }
    }

    /// The request holds its permit: history reads its store; a call asks the breaker (in
    /// Resilience4j's order, the breaker was asked first and the call goes out).
    pub(super) fn proceed(&mut self, now: Micros, id: Id) {
        if self.follow.is_some() {
            self.permit_came(now, id);
        }
        if self.in_library(id) {
            self.library_call(now, id);
            return;
        }
        let Sim {
            requests,
            deps,
            follow,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        if r.route == Route::OrderHistory {
            let at = now.saturating_add(self.cfg.routes.history_latency);
            if let Some(mut t) = trail(follow, id) {
                t.span(Hop::HistoryStore, Activity::HistoryRead, now, at);
            }
            self.q.schedule(at, Event::CallDone(id));
            return;
        }
        let stack = &mut deps[r.call.dep].stack;
        let decision = stack.breaker.as_mut().map(|b| b.try_acquire(now));
        if let (Some(mut t), Some(b), Some(d)) =
            (trail(follow, id), stack.breaker.as_ref(), &decision)
        {
            breaker_decided(&mut t, Hop::Breaker(r.call.dep as u8), now, b, d.is_err());
        }
        let admission = match decision {
            None => Admission::Call,
            Some(Ok(a)) => a,
            Some(Err(_)) => {
                self.stack_done(now, id, CallEnd::Refused(Refusal::Breaker));
                return;
            }
        };
        r.call.admission = Some(admission);
        r.call.started = now;
        r.call.retry = stack.retry.as_ref().and_then(|p| Retry::new(p).ok());
        self.attempt(now, id);
    }

    /// One attempt at the call, within the timeout and what is left of the request budget.
    pub(super) fn attempt(&mut self, now: Micros, id: Id) {
        let Sim { requests, deps, .. } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let stack = &mut deps[r.call.dep].stack;
        if let Some(retry) = r.call.retry.as_mut() {
            retry.begin_attempt(stack.retry_budget.as_mut());
        }
        let mut timeout = stack.timeout;
        if let Some(b) = r.budget {
            match b.timeout_for(timeout.unwrap_or(Micros::MAX), now) {
                Ok(t) => timeout = Some(t),
                Err(_) => {
                    let dep = r.call.dep;
                    if let Some(mut t) = self.trail(id) {
                        t.mark(Hop::Dependency(dep as u8), now, Happening::BudgetSpent);
                    }
                    self.stack_done(now, id, CallEnd::Refused(Refusal::Budget));
                    return;
                }
            }
        }
        r.call.attempt_deadline = timeout.map(|t| now.saturating_add(t));
        r.call.sidecar = stack
            .sidecar
            .as_ref()
            .filter(|s| s.envoy.is_none())
            .and_then(|s| Retry::new(&s.policy()).ok());
        r.call.route_retries = 0;
        self.try_call(now, id);
    }

    /// One try on the wire: through the sidecar when there is one (its per-try timeout), always
    /// within the library attempt's deadline; with the copies the layers inside the try send.
    pub(super) fn try_call(&mut self, now: Micros, id: Id) {
        let Sim {
            requests,
            deps,
            rng,
            q,
            recorder,
            tries_sent,
            follow,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let dep = r.call.dep;
        if let Some(envoy) = deps[dep].stack.envoy.as_mut() {
            envoy.try_sent();
        }
        let dependency = &deps[dep];
        let per_try = dependency
            .stack
            .sidecar
            .as_ref()
            .and_then(|s| s.per_try_timeout);
        if let Some(s) = r.call.sidecar.as_mut() {
            s.begin_attempt(None);
        }
        let attempt_left = r.call.attempt_deadline.map(|d| d.saturating_sub(now));
        recorder.call_sent(now, dep);
        let try_ends = match (attempt_left, per_try) {
            (Some(left), Some(t)) => left.min(t),
            (Some(left), None) => left,
            (None, Some(t)) => t,
            (None, None) => Micros::MAX,
        };
        if dependency.servers.is_some() {
            let limit = match (attempt_left, per_try) {
                (Some(left), Some(t)) if t < left => Some((t, Failure::TryTimeout)),
                (None, Some(t)) => Some((t, Failure::TryTimeout)),
                (Some(left), _) => Some((left, Failure::Timeout)),
                (None, None) => None,
            };
            *tries_sent = tries_sent.wrapping_add(1);
            let try_no = *tries_sent;
            r.call.try_no = try_no;
            r.call.waiting = true;
            r.call.try_started = now;
            r.call.copy_won = false;
            r.call.try_end = limit.map_or(CallEnd::Answered, |(_, f)| CallEnd::Failed(f));
            let deadline = limit.map(|(t, _)| now.saturating_add(t));
            r.call.try_deadline = deadline;
            if let Some(mut t) = trail(follow, id) {
                let hop = Hop::Dependency(dep as u8);
                let attempt = t.next_try(hop);
                t.open(hop, Activity::QueuedAtDependency { attempt }, now);
            }
            if let Some(at) = deadline {
                q.schedule(at, Event::TryTimedOut { id, try_no });
            }
            let at = TryAt {
                id,
                dep,
                now,
                ends: try_ends,
            };
            for layer in &deps[dep].stack.inside_try {
                layer.try_sent(q, at, try_no);
            }
            self.send_to_servers(now, id, dep, try_no, deadline, false);
            return;
        }
        let (latency, end, copy_won) = deps[dep].answer_of_try(id, dep, now, try_ends, rng, q);
        let (held, end) = match (attempt_left, per_try) {
            (Some(left), Some(t)) if t < left && latency > t => {
                (t, CallEnd::Failed(Failure::TryTimeout))
            }
            (None, Some(t)) if latency > t => (t, CallEnd::Failed(Failure::TryTimeout)),
            (Some(left), _) if latency > left => (left, CallEnd::Failed(Failure::Timeout)),
            _ => (latency, end),
        };
        let timed_out = matches!(end, CallEnd::Failed(Failure::Timeout | Failure::TryTimeout));
        if let Some(mut t) = trail(follow, id) {
            let hop = Hop::Dependency(dep as u8);
            let attempt = t.next_try(hop);
            let over = now.saturating_add(held);
            t.span(hop, Activity::InService { attempt }, now, over);
            try_ended(
                &mut t,
                hop,
                over,
                held,
                end,
                deps[dep].stack.won_by(copy_won),
            );
        }
        r.call.try_end = end;
        r.call.try_started = now;
        r.call.copy_won = copy_won && !timed_out;
        q.schedule(now.saturating_add(held), Event::CallDone(id));
    }

    /// A try (or a history lookup) returns: the sidecar, then the library's retries, may try
    /// again; else the stack is over.
    pub(super) fn call_done(&mut self, now: Micros, id: Id) {
        let Sim {
            requests,
            deps,
            rng,
            q,
            recorder,
            follow,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        if r.route == Route::OrderHistory {
            self.release_permit(now, id);
            self.server_finish(now, id, Outcome::Ok);
            return;
        }
        if deps[r.call.dep].stack.library.is_some() {
            self.library_call_done(now, id);
            return;
        }
        let call = &mut r.call;
        recorder.try_over(call.dep);
        if let Some(mut t) = trail(follow, id) {
            let hop = Hop::Dependency(call.dep as u8);
            if t.close(hop, now).is_some() {
                let held = now.saturating_sub(call.try_started);
                let won_by = deps[call.dep].stack.won_by(call.copy_won);
                try_ended(&mut t, hop, now, held, call.try_end, won_by);
            }
        }
        let stack = &mut deps[call.dep].stack;
        let end = call.try_end;
        for layer in &mut stack.inside_try {
            let waited = now.saturating_sub(call.try_started);
            layer.try_over(now, waited, call.copy_won, recorder);
        }
        if let (Some(envoy), Some(sidecar)) = (stack.envoy.as_mut(), stack.sidecar.as_ref()) {
            match envoy.after_try(call, sidecar, now, rng) {
                AfterTry::Over => {}
                AfterTry::Overflowed { in_flight } => {
                    recorder.count(RETRY_OVERFLOW, now);
                    if let Some(mut t) = trail(follow, id) {
                        let hop = Hop::Dependency(call.dep as u8);
                        t.mark(hop, now, Happening::RetryOverflow { in_flight });
                    }
                }
                AfterTry::RetryAfter(wait) => {
                    recorder.sidecar_retry(now);
                    recorder.retried(r.record);
                    if let Some(mut t) = trail(follow, id) {
                        let hop = Hop::Dependency(call.dep as u8);
                        backed_off(&mut t, hop, now, wait, Retrier::Sidecar);
                    }
                    q.schedule(now.saturating_add(wait), Event::SidecarTry(id));
                    return;
                }
                AfterTry::TimesOutAt(at) => {
                    q.schedule(at, Event::RouteTimedOut(id));
                    return;
                }
            }
        }
        let Some(err) = end.error() else {
            self.stack_done(now, id, end);
            return;
        };
        if matches!(
            end,
            CallEnd::Failed(Failure::TryTimeout | Failure::Unavailable)
        ) {
            // The sidecar sees the failed try first and may retry it within the attempt.
            let deadline = call
                .attempt_deadline
                .map(|deadline| TimeBudget { deadline });
            let decision = call
                .sidecar
                .as_mut()
                .map(|s| s.after_failure(err, true, now, deadline.as_ref(), None, rng));
            if let Some(RetryDecision::RetryAfter { wait, .. }) = decision {
                recorder.sidecar_retry(now);
                recorder.retried(r.record);
                if let Some(mut t) = trail(follow, id) {
                    backed_off(
                        &mut t,
                        Hop::Dependency(call.dep as u8),
                        now,
                        wait,
                        Retrier::Sidecar,
                    );
                }
                q.schedule(now.saturating_add(wait), Event::SidecarTry(id));
                return;
            }
        }
        self.library_retry(now, id, end, err);
    }

    /// The library attempt failed so (`err`): the library's retries may try again after their
    /// wait; else the stack is over.
    fn library_retry(&mut self, now: Micros, id: Id, end: CallEnd, err: CallError) {
        let Sim {
            requests,
            deps,
            rng,
            q,
            recorder,
            follow,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let stack = &mut deps[r.call.dep].stack;
        let budget = r.budget;
        let decision = r.call.retry.as_mut().map(|retry| {
            retry.after_failure(
                err,
                true,
                now,
                budget.as_ref(),
                stack.retry_budget.as_mut(),
                rng,
            )
        });
        if let Some(RetryDecision::RetryAfter { wait, .. }) = decision {
            recorder.library_retry(now);
            recorder.retried(r.record);
            if let Some(mut t) = trail(follow, id) {
                backed_off(
                    &mut t,
                    Hop::Dependency(r.call.dep as u8),
                    now,
                    wait,
                    Retrier::Library,
                );
            }
            q.schedule(now.saturating_add(wait), Event::RetryCall(id));
            return;
        }
        if let Some(RetryDecision::GiveUp(GiveUpReason::RetryBudgetEmpty)) = decision {
            recorder.count(RETRIES_OVER_BUDGET, now);
            if let Some(mut t) = trail(follow, id) {
                t.mark(
                    Hop::Dependency(r.call.dep as u8),
                    now,
                    Happening::Layer(NO_CREDIT),
                );
            }
        }
        self.stack_done(now, id, end.of_stack());
    }

    /// The route's timeout fired while an Envoy sidecar waited to retry: the library attempt
    /// is over, timed out.
    pub(super) fn route_timed_out(&mut self, now: Micros, id: Id) {
        let Some((dep, started)) = self.requests.get(id).map(|r| (r.call.dep, r.call.started))
        else {
            return;
        };
        if let Some(mut t) = self.trail(id) {
            let after = now.saturating_sub(started);
            t.mark(
                Hop::Dependency(dep as u8),
                now,
                Happening::TimedOut { after },
            );
        }
        let end = CallEnd::Failed(Failure::Timeout);
        self.library_retry(now, id, end, CallError::DeadlineExceeded);
    }

    /// The stack around a dependency's call is over: its breaker records how, then
    /// [`Self::stack_over`].
    #[inline(always)]
    pub(super) fn stack_done(&mut self, now: Micros, id: Id, end: CallEnd) {
        let Sim { requests, deps, .. } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let stack = &mut deps[r.call.dep].stack;
        let record = end.breaker_record(stack.trip_on_business);
        if let (Some(b), Some(a), Some(result)) = (stack.breaker.as_mut(), r.call.admission, record)
        {
            b.record(now, a, result, now.saturating_sub(r.call.started));
        }
        self.stack_over(now, id, end);
    }

    /// The call ended so: the permit goes back; an answer goes on to the next dependency,
    /// anything else is what `orders` answers.
    #[inline(always)]
    pub(super) fn stack_over(&mut self, now: Micros, id: Id, end: CallEnd) {
        let Sim {
            requests,
            deps,
            recorder,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let dep = r.call.dep;
        if let (Some(admitted), Some(layer)) =
            (r.call.admitted.take(), deps[dep].stack.outermost.as_mut())
        {
            layer.release(admitted, now, end);
        }
        recorder.call_ended(now, dep, end);
        let next = dep + 1;
        let has_next = next < deps.len();
        self.release_permit(now, id);
        if end == CallEnd::Answered && has_next {
            self.start_call(now, id, next);
            return;
        }
        self.server_finish(now, id, end.outcome());
    }
}

/// The lane of the bulkhead `pool` names, for a call to dependency `dep`.
fn bulkhead_hop(pool: Pool, dep: usize) -> Hop {
    match pool {
        Pool::Dependency => Hop::Bulkhead(dep as u8),
        Pool::History => Hop::HistoryBulkhead,
    }
}

/// The breaker `b` has just decided on a call in `hop`: let through, or `refused` (in the state
/// it has been in since its last change).
pub(super) fn breaker_decided(
    t: &mut Trail<'_>,
    hop: Hop,
    now: Micros,
    b: &CircuitBreaker,
    refused: bool,
) {
    let state = b.state();
    let happening = if refused {
        Happening::BreakerRefuses {
            state,
            since: b.transitions().last().map_or(0, |c| c.at),
        }
    } else {
        Happening::BreakerAdmits { state }
    };
    t.mark(hop, now, happening);
}

/// A try in `hop` ended at `at` after `held`, so (answered by a copy of it, as `won_by` shows,
/// when one did).
pub(super) fn try_ended(
    t: &mut Trail<'_>,
    hop: Hop,
    at: Micros,
    held: Micros,
    end: CallEnd,
    won_by: Option<LayerMark>,
) {
    match end {
        CallEnd::Failed(Failure::Timeout | Failure::TryTimeout) => {
            t.mark(hop, at, Happening::TimedOut { after: held })
        }
        CallEnd::Failed(Failure::Unavailable) => t.mark(hop, at, Happening::Failed),
        _ => {
            if let Some(mark) = won_by {
                t.mark(hop, at, Happening::Layer(mark));
            }
        }
    }
}

/// The caller sleeps `wait` in `hop` before its next try.
pub(super) fn backed_off(t: &mut Trail<'_>, hop: Hop, now: Micros, wait: Micros, by: Retrier) {
    let attempt = t.tries(hop) + 1;
    t.span(
        hop,
        Activity::Backoff { attempt, by },
        now,
        now.saturating_add(wait),
    );
}
