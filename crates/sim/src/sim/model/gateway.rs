//! The edge of the system: a client's request arrives, goes through the gateway (its pool of
//! connections, route timeouts and retries) to its service, and the client gets its answer
//! (and may send the request again).

use super::config::GatewayConfig;
use super::events::{Event, Id};
use super::slab::Request;
use super::Sim;
use crate::resilience::Priority;
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop};
use crate::sim::trace::{Outcome, Route};

/// The gateway's connections in use.
pub(super) struct Gateway<'a> {
    config: &'a GatewayConfig,
    connections: u32,
}

impl<'a> Gateway<'a> {
    pub fn new(config: &'a GatewayConfig) -> Self {
        Gateway {
            config,
            connections: 0,
        }
    }

    /// Takes a connection, if one is free.
    fn connect(&mut self) -> bool {
        let free = self.connections < self.config.pool;
        self.connections += u32::from(free);
        free
    }

    /// Connections in use.
    pub fn in_use(&self) -> u32 {
        self.connections
    }
}

impl Sim<'_> {
    /// A request reaches the system (through the gateway, if there is one).
    pub(super) fn arrive(
        &mut self,
        now: Micros,
        route: Route,
        priority: Priority,
        frontend_attempt: u32,
        op: u64,
    ) {
        if route == Route::Orders && frontend_attempt == 0 {
            // A front-end copy takes over the reference its scheduled retry held.
            self.service.order_arrived(op);
        }
        let record = self.recorder.arrival(now, route, frontend_attempt, op);
        let id = self.requests.alloc(Request {
            record,
            ..Request::new(now, route, priority, frontend_attempt, op)
        });
        if let Some(f) = self.follow.as_deref_mut() {
            f.arrived(id, op, now, route, frontend_attempt);
        }
        if let Some(g) = self.cfg.traffic.client_give_up {
            self.q
                .schedule(now.saturating_add(g), Event::ClientGiveUp(id));
        }
        if let Some(gateway) = self.gateway.as_mut() {
            if !gateway.connect() {
                let pool = gateway.config.pool;
                if let Some(mut t) = self.trail(id) {
                    t.mark(Hop::Gateway, now, Happening::GatewayFull { pool });
                }
                self.answer(now, id, Outcome::GatewayRejected);
                self.maybe_free(id);
                return;
            }
            if let Some(r) = self.requests.get(id) {
                r.holds_connection = true;
            }
            if let Some(mut t) = self.trail(id) {
                t.open(Hop::Gateway, Activity::Connection, now);
            }
        }
        self.send_upstream(now, id, route, priority);
    }

    /// The request (or the gateway's new try of it) goes to its service, under its route's
    /// timeout.
    fn send_upstream(&mut self, now: Micros, id: Id, route: Route, priority: Priority) {
        if let Some(t) = self.cfg.gateway.as_ref().and_then(|g| g.timeout_for(route)) {
            self.q
                .schedule(now.saturating_add(t), Event::GatewayTimeout(id));
        }
        match route {
            Route::Catalog => {
                let at = now.saturating_add(self.cfg.routes.catalog_latency);
                if let Some(mut t) = self.trail(id) {
                    t.span(Hop::Catalog, Activity::Catalog, now, at);
                }
                self.q.schedule(at, Event::CatalogDone(id));
            }
            Route::Orders | Route::OrderHistory => self.enter_orders(now, id, priority),
        }
    }

    /// The route timeout ran out: the gateway tries again while it may, else answers 504.
    pub(super) fn gateway_timeout(&mut self, now: Micros, id: Id) {
        let retries = self.cfg.gateway.as_ref().map_or(0, |g| g.retries);
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if !r.holds_connection {
            return;
        }
        let retry = r.outcome.is_none() && r.gateway_try < retries;
        if let Some(mut t) = self.trail(id) {
            t.mark(Hop::Gateway, now, Happening::RouteTimeout);
        }
        if retry {
            self.gateway_retry(now, id);
            return;
        }
        self.answer(now, id, Outcome::GatewayTimeout);
        self.release_connection(now, id);
        self.maybe_free(id);
    }

    /// The gateway tries again: a new copy of the request goes to the service, taking over
    /// the client, its connection and its record; the old copy goes on with nobody to answer
    /// (stale work if a worker finishes it).
    fn gateway_retry(&mut self, now: Micros, id: Id) {
        let give_up = self.cfg.traffic.client_give_up;
        let Some(old) = self.requests.get(id) else {
            return;
        };
        let copy = old.next_gateway_try();
        // Answered to nobody: the client's outcome is the new copy's; nothing is counted here.
        old.outcome = Some(Outcome::GatewayTimeout);
        old.holds_connection = false;
        old.record = None;
        let (route, priority, op, arrived) = (copy.route, copy.priority, copy.op, copy.arrived);
        let new = self.requests.alloc(copy);
        if let Some(mut t) = self.trail(id) {
            t.close(Hop::Gateway, now);
            t.mark(Hop::Gateway, now, Happening::GatewayRetry);
        }
        if let Some(f) = self.follow.as_deref_mut() {
            f.gateway_copy(id, new, now);
        }
        self.recorder.gateway_retry();
        if route == Route::Orders {
            self.service.order_copied(op);
        }
        if let Some(g) = give_up {
            let at = arrived.saturating_add(g).max(now);
            self.q.schedule(at, Event::ClientGiveUp(new));
        }
        self.maybe_free(id);
        self.send_upstream(now, new, route, priority);
    }

    /// Gives the request's gateway connection back, if it holds one.
    pub(super) fn release_connection(&mut self, now: Micros, id: Id) {
        if let Some(r) = self.requests.get(id) {
            if r.holds_connection {
                r.holds_connection = false;
                if let Some(g) = self.gateway.as_mut() {
                    g.connections = g.connections.saturating_sub(1);
                }
                if let Some(mut t) = self.trail(id) {
                    t.close(Hop::Gateway, now);
                }
            }
        }
    }

    /// The client gets its answer, if it has none yet: the request is counted, once; a
    /// failure may send it again from the front end.
    pub(super) fn answer(&mut self, now: Micros, id: Id, outcome: Outcome) {
        let frontend_retries = self.cfg.traffic.frontend_retries;
        let backoff = self.cfg.traffic.frontend_backoff;
        let Some(r) = self.requests.get(id) else {
            return;
        };
        if r.outcome.is_some() {
            return;
        }
        r.outcome = Some(outcome);
        let (arrived, route, priority, attempt, record, op) = (
            r.arrived,
            r.route,
            r.priority,
            r.frontend_attempt,
            r.record,
            r.op,
        );
        self.recorder.answered(now, arrived, route, record, outcome);
        let again = !outcome.is_answer() && attempt < frontend_retries;
        if let Some(mut t) = self.trail(id) {
            t.answered(now, outcome);
            if again {
                t.open(Hop::Client, Activity::ClientBackoff, now);
            }
        }
        if !again {
            self.arrivals.client_done(&mut self.q, &mut self.rng, now);
        } else {
            if route == Route::Orders {
                self.service.order_copied(op);
            }
            // A 429 says when to come back, and the client waits at least that long.
            let retry_after = match outcome {
                Outcome::RateLimited => self.service.retry_after(now).unwrap_or(0),
                _ => 0,
            };
            self.q.schedule(
                now.saturating_add(backoff.max(retry_after)),
                Event::FrontendRetry {
                    route,
                    priority,
                    attempt: attempt + 1,
                    op,
                },
            );
        }
    }
}
