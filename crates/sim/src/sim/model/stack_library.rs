//! A library profile's path through a stack (Resilience4j's aspects, Polly's pipeline):
//! Retry -> CircuitBreaker -> Timeout -> Bulkhead -> the call. Each attempt asks the
//! breaker, takes a permit of its own and is recorded by the breaker; at the timeout the
//! caller is answered while the call keeps its permit until the dependency answers (unless
//! the library cancels it); the fallback sits on the breaker (Retry then sees a normal result)
//! or outside Retry. The profile's [`LibraryRules`] say what each exception does.

use super::call_end::{CallEnd, Failure, Refusal};
use super::events::{Event, Id};
use super::follow::trail;
use super::grpc::RETRIES_THROTTLED;
use super::library_rules::BreakerSees;
use super::resilience4j::{Exception, FallbackPlace};
use super::slab::Pool;
use super::stack::{backed_off, breaker_decided, try_ended};
use super::Sim;
use crate::resilience::{CallResult, FallbackPolicy};
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop, Retrier};
use crate::sim::trace::Outcome;

impl Sim<'_> {
    /// One attempt of Retry: the breaker admits it or throws `CallNotPermittedException`;
    /// admitted, it waits for a bulkhead permit.
    pub(super) fn library_attempt(&mut self, now: Micros, id: Id) {
        let Sim {
            requests,
            deps,
            follow,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        if r.call.call_deadline.is_some_and(|d| now >= d) {
            let dep = r.call.dep;
            if let (Some(mut t), Some(after)) = (trail(follow, id), deps[dep].stack.timeout) {
                t.mark(
                    Hop::Dependency(dep as u8),
                    now,
                    Happening::TimedOut { after },
                );
            }
            self.library_gave_up(now, id, CallEnd::Failed(Failure::Timeout));
            return;
        }
        let stack = &deps[r.call.dep].stack;
        if r.call.attempts == 0
            && stack
                .library
                .as_ref()
                .is_some_and(|l| l.deadline_spans_attempts)
        {
            r.call.call_deadline = stack.timeout.map(|t| now.saturating_add(t));
        }
        r.call.attempts += 1;
        let admission = match deps[r.call.dep].stack.breaker.as_mut() {
            None => None,
            Some(b) => match b.try_acquire(now) {
                Ok(a) => {
                    if let Some(mut t) = trail(follow, id) {
                        breaker_decided(&mut t, Hop::Breaker(r.call.dep as u8), now, b, false);
                    }
                    Some(a)
                }
                Err(_) => {
                    if let Some(mut t) = trail(follow, id) {
                        breaker_decided(&mut t, Hop::Breaker(r.call.dep as u8), now, b, true);
                    }
                    self.library_attempt_over(now, id, CallEnd::Refused(Refusal::Breaker));
                    return;
                }
            },
        };
        r.call.admission = admission;
        r.call.started = now;
        self.acquire_permit(now, id, Pool::Dependency);
    }

    /// The attempt holds its permit: the time limiter starts and the call goes out. Past the
    /// timeout the caller is answered with a `TimeoutException`, but the call keeps its permit
    /// until the dependency answers (unless the profile's time limiter frees it).
    pub(super) fn library_call(&mut self, now: Micros, id: Id) {
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
        let dep = r.call.dep;
        recorder.call_sent(now, dep);
        let (latency, end, copy_won) = deps[dep].answer_of_try(id, dep, now, Micros::MAX, rng, q);
        let dependency = &deps[dep];
        let timeout = match r.call.call_deadline {
            Some(deadline) => Some(deadline.saturating_sub(now)),
            None => dependency.stack.timeout,
        };
        r.call.try_started = now;
        let hop = Hop::Dependency(dep as u8);
        let mut t = trail(follow, id);
        if let Some(t) = t.as_mut() {
            let attempt = t.next_try(hop);
            let held = timeout.map_or(latency, |l| l.min(latency));
            t.span(
                hop,
                Activity::InService { attempt },
                now,
                now.saturating_add(held),
            );
        }
        match timeout {
            Some(timeout) if latency > timeout => {
                r.call.try_end = CallEnd::Failed(Failure::Timeout);
                let over = now.saturating_add(timeout);
                q.schedule(over, Event::CallDone(id));
                let frees = dependency
                    .stack
                    .library
                    .as_ref()
                    .is_some_and(|p| p.frees_permit);
                let left_behind = !frees && r.permit.is_some();
                if let Some(t) = t.as_mut() {
                    t.mark(hop, over, Happening::TimedOut { after: timeout });
                    if left_behind {
                        let until = now.saturating_add(latency);
                        t.close(Hop::Bulkhead(dep as u8), over);
                        t.mark(
                            Hop::Bulkhead(dep as u8),
                            over,
                            Happening::PermitLeftBehind { until },
                        );
                    }
                }
                if left_behind {
                    r.permit = None;
                    q.schedule(now.saturating_add(latency), Event::PermitFreed(dep));
                }
            }
            _ => {
                if let Some(t) = t.as_mut() {
                    let won_by = dependency.stack.won_by(copy_won);
                    try_ended(t, hop, now.saturating_add(latency), latency, end, won_by);
                }
                r.call.try_end = end;
                q.schedule(now.saturating_add(latency), Event::CallDone(id));
            }
        }
    }

    /// The attempt's result reaches its caller: the permit goes back if it still holds it.
    pub(super) fn library_call_done(&mut self, now: Micros, id: Id) {
        let Some((end, dep)) = self.requests.get(id).map(|r| (r.call.try_end, r.call.dep)) else {
            return;
        };
        self.recorder.try_over(dep);
        self.release_permit(now, id);
        self.library_attempt_over(now, id, end);
    }

    /// A call its caller gave up on answers: its permit goes to the next waiter, if any.
    pub(super) fn permit_freed(&mut self, now: Micros, dep: usize) {
        let waiter = self
            .deps
            .get_mut(dep)
            .and_then(|d| d.stack.bulkhead.as_mut())
            .and_then(|b| b.release(now));
        if let Some(waiter) = waiter {
            self.q.schedule(now, Event::Proceed(waiter));
        }
    }

    /// The attempt ended so, as the breaker's advice sees it: the breaker records it (a full
    /// bulkhead and a timeout are failures like any exception), then the fallback on the
    /// breaker, Retry, or the fallback on Retry decides what comes next.
    pub(super) fn library_attempt_over(&mut self, now: Micros, id: Id, end: CallEnd) {
        let Some(dep) = self.requests.get(id).map(|r| r.call.dep) else {
            return;
        };
        let fallback = self.falls_back(dep);
        let Sim {
            requests,
            deps,
            recorder,
            q,
            follow,
            rng,
            ..
        } = self;
        let Some(r) = requests.get(id) else {
            return;
        };
        let stack = &mut deps[dep].stack;
        let Some(rules) = stack.library.as_ref() else {
            return;
        };
        let exception = Exception::of(end);
        if let (Some(b), Some(a)) = (stack.breaker.as_mut(), r.call.admission.take()) {
            let took = now.saturating_sub(r.call.started);
            match rules.breaker_sees(exception) {
                BreakerSees::Success => b.record(now, a, CallResult::Success, took),
                BreakerSees::Failure => b.record(now, a, CallResult::Failure, took),
                BreakerSees::Ignored => b.release(a),
            }
        }
        let Some(exception) = exception else {
            if let Some(throttle) = stack.throttle.as_mut() {
                throttle.succeeded();
            }
            self.stack_over(now, id, end);
            return;
        };
        if fallback && rules.fallback_on == FallbackPlace::CircuitBreaker {
            self.library_fallback(now, id, end);
            return;
        }
        // A retryable failure takes a throttle token even when no attempt is left.
        let mut retryable = rules.retries(exception);
        let attempts_left = r.call.attempts < rules.attempts;
        if let Some(throttle) = stack.throttle.as_mut().filter(|_| retryable) {
            retryable = throttle.failed();
            if !retryable && attempts_left {
                recorder.count(RETRIES_THROTTLED, now);
            }
        }
        if attempts_left && retryable {
            let wait = rules.wait_before(r.call.attempts, &mut r.call.jitter_state, rng);
            if let Some(deadline) = r
                .call
                .call_deadline
                .filter(|d| now.saturating_add(wait) >= *d)
            {
                // The deadline passes during the wait: the call ends then, without a retry.
                q.schedule(deadline, Event::RetryCall(id));
                return;
            }
            recorder.library_retry(now);
            recorder.retried(r.record);
            if let Some(mut t) = trail(follow, id) {
                backed_off(
                    &mut t,
                    Hop::Dependency(dep as u8),
                    now,
                    wait,
                    Retrier::Library,
                );
            }
            q.schedule(now.saturating_add(wait), Event::RetryCall(id));
            return;
        }
        self.library_gave_up(now, id, end);
    }

    /// Whether a failed call to dependency `dep` goes to the fallback method:
    /// `reserveStockFallback` is the first dependency's (the method the lesson annotates).
    fn falls_back(&self, dep: usize) -> bool {
        dep == 0
            && self
                .cfg
                .service
                .fallback
                .as_ref()
                .and_then(FallbackPolicy::on_failure)
                .is_some()
    }

    /// No attempt follows a call that ended so: the fallback answers, if there is one.
    fn library_gave_up(&mut self, now: Micros, id: Id, end: CallEnd) {
        let Some(dep) = self.requests.get(id).map(|r| r.call.dep) else {
            return;
        };
        if self.falls_back(dep) {
            self.library_fallback(now, id, end);
        } else {
            self.stack_over(now, id, end);
        }
    }

    /// The fallback method answers for a call that ended so (it takes `Throwable`: the
    /// business 409 too). The order is accepted provisionally and `orders` answers.
    fn library_fallback(&mut self, now: Micros, id: Id, end: CallEnd) {
        let Some(dep) = self.requests.get(id).map(|r| r.call.dep) else {
            return;
        };
        self.recorder.call_ended(now, dep, end);
        self.release_permit(now, id);
        self.server_finish(now, id, Outcome::Fallback);
    }
}
