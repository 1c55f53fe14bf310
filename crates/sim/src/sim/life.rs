//! One request's life, hop by hop: what [`crate::sim::model::follow`] records when it re-runs a
//! seeded simulation for a single arrival. Spans are stretches of time in one lane (waiting,
//! working, or holding a resource while another hop works); marks are the moments between
//! them (the breaker's decision, a timeout firing, the answer).

use serde::Serialize;

use super::latency::Micros;
use super::pattern::Pattern;
use super::trace::{Outcome, Route};
use crate::resilience::BreakerState;

/// Where in the system a span or a mark happens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case", tag = "hop", content = "dependency")]
pub enum Hop {
    /// The client (the front end): its answers and its back-off before sending again.
    Client,
    /// The gateway (Kong) and its pool of connections.
    Gateway,
    /// The queue of `orders`, in front of its workers.
    Queue,
    /// A worker of `orders`.
    Worker,
    /// The bulkhead in front of dependency `n`.
    Bulkhead(u8),
    /// The circuit breaker in front of dependency `n`: its decisions.
    Breaker(u8),
    /// The order-history lookups' own bulkhead.
    HistoryBulkhead,
    /// The calls to dependency `n`: its tries, their back-offs.
    Dependency(u8),
    /// The catalog service (`GET /catalog`).
    Catalog,
    /// `orders`' own store, read by an order-history lookup.
    HistoryStore,
}

/// A lane of the drawing: one hop of one copy of the request (a gateway retry or a front-end
/// retry is a new copy; its hops get lanes of their own, since an old copy may still hold a
/// worker while the new one waits for another).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Lane {
    pub hop: Hop,
    /// 0 for the request as the client first sent it.
    pub copy: u32,
}

/// How a span is drawn: waiting and working apart, and holding a resource while waiting for
/// another hop as a third kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fill {
    /// Nothing is done for the request: it waits in a queue, for a permit, or sleeps.
    Waiting,
    /// Someone works on it: a dependency serving the call, a store answering.
    Working,
    /// It holds a worker, a permit or a connection while another hop does the work.
    Holding,
}

/// Who waited before sending again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Retrier {
    /// The `orders` library's retries.
    Library,
    /// The sidecar's retries, inside one library attempt.
    Sidecar,
}

/// What the request does during a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Activity {
    /// The client waits before sending the request again.
    ClientBackoff,
    /// It holds one of the gateway's connections.
    Connection,
    /// It waits in `orders`' queue for a worker.
    Queued,
    /// A worker of `orders` is held by it.
    Worker,
    /// It waits for a bulkhead permit.
    PermitWait,
    /// It holds a bulkhead permit.
    Permit,
    /// Try `attempt` waits in the dependency's own queue for a free slot.
    QueuedAtDependency { attempt: u32 },
    /// The dependency works on try `attempt`.
    InService { attempt: u32 },
    /// The back-off before try `attempt`.
    Backoff { attempt: u32, by: Retrier },
    /// The catalog service answers.
    Catalog,
    /// `orders` reads its own store.
    HistoryRead,
}

impl Activity {
    /// How the span is drawn.
    pub fn fill(self) -> Fill {
        match self {
            Activity::ClientBackoff
            | Activity::Queued
            | Activity::PermitWait
            | Activity::QueuedAtDependency { .. }
            | Activity::Backoff { .. } => Fill::Waiting,
            Activity::InService { .. } | Activity::Catalog | Activity::HistoryRead => Fill::Working,
            Activity::Connection | Activity::Worker | Activity::Permit => Fill::Holding,
        }
    }
}

/// A stretch of time in one lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Span {
    pub lane: Lane,
    pub activity: Activity,
    pub from: Micros,
    pub to: Micros,
}

impl Span {
    /// How long it lasted.
    pub fn length(&self) -> Micros {
        self.to.saturating_sub(self.from)
    }
}

/// A moment of the request's life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Happening {
    /// The client sent it (`attempt` 0) or sent it again.
    Sent { attempt: u32 },
    /// The client got its answer.
    Answered { outcome: Outcome },
    /// Every connection of the gateway's pool was taken.
    GatewayFull { pool: u32 },
    /// The gateway's route timeout ran out.
    RouteTimeout,
    /// The gateway sent a new copy of it.
    GatewayRetry,
    /// Refused at the door of `orders` (shed, queue full, rate-limited).
    RefusedAtDoor { outcome: Outcome, queued: u64 },
    /// Its client had gone when a worker reached it: the worker skipped it.
    Skipped,
    /// The idempotency store already had this order's answer.
    KeyAnswered,
    /// Another copy was working on this order: it waited for that copy's answer.
    KeyWait,
    /// No bulkhead permit came within the wait.
    BulkheadFull { permits: u32 },
    /// The circuit breaker let the call through in this state.
    BreakerAdmits { state: BreakerState },
    /// The circuit breaker refused the call; it had been open (or half-open) since `since`.
    BreakerRefuses { state: BreakerState, since: Micros },
    /// The request's time budget was spent before the next attempt.
    BudgetSpent,
    /// The try's timeout ran out.
    TimedOut { after: Micros },
    /// The try failed with a transient error.
    Failed,
    /// The dependency's own queue was full.
    DependencyFull,
    /// The dependency restarted and dropped the call.
    Restarted,
    /// A layer did something it tells in its own words ([`LayerMark`]).
    Layer(LayerMark),
    /// Envoy would retry, but its cluster already has as many retries in flight as its limit
    /// allows (`max_retries`, or its retry budget): the failure goes back at once.
    RetryOverflow { in_flight: u64 },
    /// The try timed out but its permit stays taken until the dependency answers, at `until`.
    PermitLeftBehind { until: Micros },
    /// The fallback answered for the dependency.
    Fallback,
}

/// Something a layer of the stack did to the request, written by the layer's own module: a
/// new layer shows its moments on the timeline and in its words without a variant here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LayerMark {
    /// The layer that did it.
    pub pattern: Pattern,
    /// What happened, as a line of the timeline says it after the time and the lane.
    pub words: &'static str,
}

/// A moment, where it happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub lane: Lane,
    pub at: Micros,
    pub happening: Happening,
}

/// What the rest of the system was doing when the request queued for a worker.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct QueueScene {
    /// Workers busy when it arrived at `orders`.
    pub busy: u32,
    /// Requests ahead of it in the queue.
    pub ahead: u64,
    /// Requests whose workers freed up while it waited.
    pub freed: u32,
    /// The median time those workers had been held by them.
    pub held_median: Micros,
}

/// The life of one request of a run: every copy the client and the gateway sent of it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RequestLife {
    /// The open loop's arrival number: what a link's `trace=` names.
    pub id: u64,
    pub route: Route,
    /// When the client first sent it.
    pub arrived: Micros,
    /// When the client had its last answer, and what it was (`None`: no answer by the end).
    pub answered: Option<(Micros, Outcome)>,
    /// Spans in the order they began.
    pub spans: Vec<Span>,
    /// Marks in time order.
    pub marks: Vec<Mark>,
    /// The scene in the queue, for its first copy that queued.
    pub queue: Option<QueueScene>,
    /// The run's workers, bulkhead permits, gateway connections (when there are any).
    pub workers: u32,
    pub permits: Option<u32>,
    pub connections: Option<u32>,
    /// The dependencies' names, in call order.
    pub dependencies: Vec<String>,
    /// Each dependency's layers that are on, outside in (in their profile's order).
    pub stacks: Vec<Vec<Pattern>>,
    /// Whose order the first dependency's layers are in (`lesson 000's order`).
    pub order_words: &'static str,
}

impl RequestLife {
    /// When the last span or mark ends.
    pub fn end(&self) -> Micros {
        let spans = self.spans.iter().map(|s| s.to);
        let marks = self.marks.iter().map(|m| m.at);
        spans.chain(marks).fold(self.arrived, Micros::max)
    }

    /// The lanes that have a span or a mark, in drawing order.
    pub fn lanes(&self) -> Vec<Lane> {
        let mut lanes: Vec<Lane> = self
            .spans
            .iter()
            .map(|s| s.lane)
            .chain(self.marks.iter().map(|m| m.lane))
            .collect();
        crate::sort::by_key(&mut lanes, |l| (l.copy, self.rank(l.hop)));
        lanes.dedup();
        lanes
    }

    /// Where a hop's lane goes: the edge, `orders`, then each dependency's layers in its
    /// stack's own order (outside in), its tries last.
    fn rank(&self, hop: Hop) -> (u8, u8, usize) {
        let layer = |n: u8, pattern: Pattern| {
            let order = self.stacks.get(usize::from(n));
            let at = order.and_then(|o| o.iter().position(|&p| p == pattern));
            (2, n, at.unwrap_or(0))
        };
        match hop {
            Hop::Client => (0, 0, 0),
            Hop::Gateway => (0, 1, 0),
            Hop::Catalog => (0, 2, 0),
            Hop::Queue => (1, 0, 0),
            Hop::Worker => (1, 1, 0),
            Hop::HistoryBulkhead => (1, 2, 0),
            Hop::HistoryStore => (1, 3, 0),
            Hop::Bulkhead(n) => layer(n, Pattern::BULKHEAD),
            Hop::Breaker(n) => layer(n, Pattern::BREAKER),
            Hop::Dependency(n) => (2, n, usize::MAX),
        }
    }

    /// Time spent in spans of `activity`'s kind, over every lane (`pick` chooses them).
    pub fn total(&self, pick: impl Fn(&Activity) -> bool) -> Micros {
        self.spans
            .iter()
            .filter(|s| pick(&s.activity))
            .map(Span::length)
            .sum()
    }

    /// The life of copy `copy` alone (the client's lane stays: it speaks for every copy).
    pub fn only_copy(&self, copy: u32) -> RequestLife {
        let keep = |lane: &Lane| lane.copy == copy || lane.hop == Hop::Client;
        RequestLife {
            spans: self
                .spans
                .iter()
                .filter(|s| keep(&s.lane))
                .copied()
                .collect(),
            marks: self
                .marks
                .iter()
                .filter(|m| keep(&m.lane))
                .copied()
                .collect(),
            ..self.clone()
        }
    }

    /// The number of the last copy sent (0 when there was one).
    pub fn last_copy(&self) -> u32 {
        self.lanes().iter().map(|l| l.copy).max().unwrap_or(0)
    }

    /// When the first span of `activity` began, and when it ended.
    pub fn first(&self, activity: Activity) -> Option<(Micros, Micros)> {
        self.spans
            .iter()
            .find(|s| s.activity == activity)
            .map(|s| (s.from, s.to))
    }

    /// The first mark that `pick` accepts.
    pub fn find(&self, pick: impl Fn(&Happening) -> bool) -> Option<&Mark> {
        self.marks.iter().find(|m| pick(&m.happening))
    }

    /// The first stretch of `[arrived, end]` that no span covers (`None` for a sound life).
    pub fn first_gap(&self) -> Option<(Micros, Micros)> {
        let mut by_start = self.spans.clone();
        crate::sort::by_key(&mut by_start, |s| (s.from, s.to));
        let mut covered = self.arrived;
        for s in &by_start {
            if s.from > covered {
                return Some((covered, s.from));
            }
            covered = covered.max(s.to);
        }
        let end = self.end();
        (covered < end).then_some((covered, end))
    }

    /// The first two spans of one lane that overlap (`None` for a sound life).
    pub fn first_overlap(&self) -> Option<(Span, Span)> {
        self.lanes().into_iter().find_map(|lane| {
            let mut in_lane: Vec<Span> = self
                .spans
                .iter()
                .filter(|s| s.lane == lane)
                .copied()
                .collect();
            crate::sort::by_rank(&mut in_lane, |s| s.from);
            in_lane
                .windows(2)
                .find(|w| w[1].from < w[0].to)
                .map(|w| (w[0], w[1]))
        })
    }
}
