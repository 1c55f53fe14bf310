//! The clients: when the next request arrives, on which route, with which priority. An open
//! loop (evenly spaced or Poisson) schedules its own arrivals, one at a time, so memory does
//! not grow with the number of requests; a closed loop's client sends its next request once
//! its last one is over.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Exp};

use super::config::{Arrivals, ClosedLoop, PriorityMix, RoutesConfig, Traffic};
use super::events::Event;
use super::{HOUR, MAX_REQUESTS};
use crate::resilience::{ParamError, Priority};
use crate::sim::engine::EventQueue;
use crate::sim::latency::Micros;
use crate::sim::trace::Route;

const SECOND_F: f64 = 1_000_000.0;

/// The arrival process and the mix of routes and priorities.
pub(super) struct ArrivalProcess {
    interval: Micros,
    open_loop_requests: u64,
    duration: Micros,
    poisson: Option<Exp<f64>>,
    catalog_share: f64,
    history_share: f64,
    priority_mix: PriorityMix,
    closed: Option<Clients>,
}

/// A closed loop's clients: how long each thinks, and the next request's number.
struct Clients {
    loop_: ClosedLoop,
    think: Option<Exp<f64>>,
    next_op: u64,
}

impl Clients {
    fn think_time(&self, rng: &mut ChaCha8Rng) -> Micros {
        self.think
            .map_or(0, |exp| ArrivalProcess::exp_gap(exp, rng))
    }
}

impl ArrivalProcess {
    pub fn new(traffic: &Traffic, routes: &RoutesConfig) -> Result<Self, ParamError> {
        let poisson = match traffic.arrivals {
            Arrivals::Even | Arrivals::Closed => None,
            Arrivals::Poisson => Some(Exp::new(traffic.rate).map_err(|_| {
                ParamError::new("rate", "0.1..=10000 requests/s", traffic.rate.to_string())
            })?),
        };
        let closed = (traffic.arrivals == Arrivals::Closed).then(|| Clients {
            loop_: traffic.closed_loop,
            think: (traffic.closed_loop.think_time > 0)
                .then(|| Exp::new(SECOND_F / traffic.closed_loop.think_time as f64).ok())
                .flatten(),
            next_op: u64::from(traffic.closed_loop.clients),
        });
        Ok(ArrivalProcess {
            closed,
            interval: traffic.interval(),
            open_loop_requests: traffic.requests(),
            duration: traffic.duration,
            poisson,
            catalog_share: routes.catalog_share,
            history_share: routes.history_share,
            priority_mix: traffic.priority_mix,
        })
    }

    fn exp_gap(exp: Exp<f64>, rng: &mut ChaCha8Rng) -> Micros {
        let seconds: f64 = exp.sample(rng);
        (seconds * 1_000_000.0).round().clamp(0.0, HOUR as f64) as Micros
    }

    /// Schedules the first arrival (a closed loop's: each client's first).
    pub fn schedule_first(&self, q: &mut EventQueue<Event>, rng: &mut ChaCha8Rng) {
        if let Some(clients) = &self.closed {
            for op in 0..u64::from(clients.loop_.clients) {
                let at = clients.think_time(rng);
                if at < self.duration {
                    q.schedule_first(at, Event::Arrival(op));
                }
            }
            return;
        }
        match self.poisson {
            None => {
                if self.open_loop_requests > 0 {
                    q.schedule_first(0, Event::Arrival(0));
                }
            }
            Some(exp) => {
                let gap = Self::exp_gap(exp, rng);
                if gap < self.duration {
                    q.schedule_first(gap, Event::Arrival(0));
                }
            }
        }
    }

    /// Schedules the open loop's arrival after number `n` (which arrived at `now`).
    pub fn schedule_next(
        &self,
        q: &mut EventQueue<Event>,
        rng: &mut ChaCha8Rng,
        now: Micros,
        n: u64,
    ) {
        if self.closed.is_some() {
            return;
        }
        let next = n + 1;
        match self.poisson {
            None => {
                if next < self.open_loop_requests {
                    q.schedule_first(next.saturating_mul(self.interval), Event::Arrival(next));
                }
            }
            Some(exp) => {
                let at = now.saturating_add(Self::exp_gap(exp, rng));
                if at < self.duration && next < 2 * MAX_REQUESTS {
                    q.schedule_first(at, Event::Arrival(next));
                }
            }
        }
    }

    /// A client's request is over at `now` (answered, or given up on for good): in a closed
    /// loop, that client sends its next one after thinking, while arrivals last.
    pub fn client_done(&mut self, q: &mut EventQueue<Event>, rng: &mut ChaCha8Rng, now: Micros) {
        let duration = self.duration;
        let Some(clients) = self.closed.as_mut() else {
            return;
        };
        let at = now.saturating_add(clients.think_time(rng));
        if at < duration && clients.next_op < 2 * MAX_REQUESTS {
            q.schedule_first(at, Event::Arrival(clients.next_op));
            clients.next_op += 1;
        }
    }

    /// The route of a new request.
    pub fn draw_route(&self, rng: &mut ChaCha8Rng) -> Route {
        let (catalog, history) = (self.catalog_share, self.history_share);
        if catalog <= 0.0 && history <= 0.0 {
            return Route::Orders;
        }
        let u: f64 = rng.gen();
        if u < catalog {
            Route::Catalog
        } else if u < catalog + history {
            Route::OrderHistory
        } else {
            Route::Orders
        }
    }

    /// The priority of a new request.
    pub fn draw_priority(&self, rng: &mut ChaCha8Rng) -> Priority {
        let PriorityMix { high, low } = self.priority_mix;
        if high <= 0.0 && low <= 0.0 {
            return Priority::Normal;
        }
        let u: f64 = rng.gen();
        if u < high {
            Priority::High
        } else if u < high + low {
            Priority::Low
        } else {
            Priority::Normal
        }
    }
}
