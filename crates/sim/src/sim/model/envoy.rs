//! The sidecar as Envoy runs a route's retries, when its config carries Envoy's rules
//! ([`EnvoyRetryRules`]): the failures the route retries (a 409 too, with `retriable-4xx`), its
//! fully jittered back-off, and the cluster's cap on retries in flight, which follows the tries
//! in flight at the dependency. The route's timeout is the stack's timeout: a back-off that
//! would pass it leaves the request waiting until it fires. Lesson 000's sidecar, without
//! rules, is `stack.rs`'s.

use rand_chacha::ChaCha8Rng;

use super::call_end::{CallEnd, Failure};
use super::dependency_config::SidecarConfig;
use super::slab::Call;
use crate::resilience::{envoy_backoff, EnvoyRetryRules, RetriesInFlight, RetryOn};
use crate::sim::latency::Micros;
use crate::sim::trace::Counter;

/// Retries an Envoy cluster's limit (`max_retries`, or its retry budget) refused.
pub const RETRY_OVERFLOW: Counter = Counter {
    name: "retry_overflow",
    figure: "retry-overflow",
    label: "retries Envoy refused",
    what: "the number of retries an Envoy cluster's limit refused",
};

/// One dependency's Envoy cluster while the run goes: the route's rules, the tries in flight
/// to it and the retries among them.
pub(super) struct EnvoyCluster {
    retry_on: RetryOn,
    retries: RetriesInFlight,
    tries_in_flight: u64,
}

/// What Envoy does after a try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AfterTry {
    /// The failure goes back to the caller (or the answer does).
    Over,
    /// The route would retry, but the cluster's limit refused: `in_flight` retries already.
    Overflowed { in_flight: u64 },
    /// Another try after `wait`.
    RetryAfter(Micros),
    /// The route's timeout fires at `at`, during the back-off: the request ends then, timed out.
    TimesOutAt(Micros),
}

impl EnvoyCluster {
    pub fn new(rules: EnvoyRetryRules) -> Self {
        EnvoyCluster {
            retry_on: rules.retry_on,
            retries: RetriesInFlight::new(rules.limit),
            tries_in_flight: 0,
        }
    }

    /// A try went out to the dependency.
    pub fn try_sent(&mut self) {
        self.tries_in_flight += 1;
    }

    /// Whether the route retries a try that ended so: a 503 or a per-try timeout (a 504) under
    /// `5xx`, a 409 under `retriable-4xx`; never the route's own timeout.
    fn retries(&self, end: CallEnd) -> bool {
        let on = self.retry_on;
        match end {
            CallEnd::Failed(Failure::Unavailable | Failure::TryTimeout) => on.gateway_errors,
            CallEnd::Business => on.conflicts,
            _ => false,
        }
    }

    /// Try `call` is over at `now`, ended so: the retry it was, if any, is over too; then a
    /// retry if the route retries this end, retries are left (`sidecar.retries` per request) and
    /// the cluster lets one more be in flight.
    pub fn after_try(
        &mut self,
        call: &mut Call,
        sidecar: &SidecarConfig,
        now: Micros,
        rng: &mut ChaCha8Rng,
    ) -> AfterTry {
        self.tries_in_flight = self.tries_in_flight.saturating_sub(1);
        if std::mem::take(&mut call.retry_in_flight) {
            self.retries.finish();
        }
        if !self.retries(call.try_end) || call.route_retries >= sidecar.retries {
            return AfterTry::Over;
        }
        // Envoy spends the retry before it asks the cluster, as its router does.
        call.route_retries += 1;
        if !self.retries.try_start(self.tries_in_flight) {
            return AfterTry::Overflowed {
                in_flight: self.retries.active(),
            };
        }
        let wait = envoy_backoff(sidecar.base, sidecar.cap, call.route_retries, rng);
        match call.attempt_deadline {
            Some(deadline) if now.saturating_add(wait) >= deadline => {
                self.retries.finish();
                AfterTry::TimesOutAt(deadline)
            }
            _ => {
                call.retry_in_flight = true;
                AfterTry::RetryAfter(wait)
            }
        }
    }
}
