//! The live requests: a slab of slots reused once a request is over. A request is its head
//! (who sent it, where it stands, what it holds) and the state of its current call to a
//! dependency, which a new call replaces whole.

use super::call_end::CallEnd;
use super::events::Id;
use super::stack::Admitted;
use crate::resilience::{Admission, JitterState, Priority, Retry, TimeBudget};
use crate::sim::latency::Micros;
use crate::sim::trace::{Outcome, Route};

/// Where a request stands inside `orders`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Server {
    /// Never entered (catalog, gateway 503, shed) or not yet.
    Outside,
    /// Waiting for a worker, or a worker reserved for it.
    Queued,
    /// A worker is on it.
    Running,
    /// Its worker is free again.
    Done,
}

/// Which bulkhead a request holds (or waits for) a permit of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pool {
    /// The bulkhead of the dependency its call is to (the first one for a lookup of order
    /// history that shares it).
    Dependency,
    /// The order-history lookups' own.
    History,
}

/// One request alive in the model.
#[derive(Debug, Clone)]
pub(super) struct Request {
    pub arrived: Micros,
    pub started: Option<Micros>,
    pub route: Route,
    pub priority: Priority,
    pub frontend_attempt: u32,
    pub outcome: Option<Outcome>,
    pub server: Server,
    pub holds_connection: bool,
    pub record: Option<usize>,
    /// The bulkhead it holds a permit of, or waits at.
    pub permit: Option<Pool>,
    /// Its time budget, from its arrival at `orders`.
    pub budget: Option<TimeBudget>,
    /// The order this request carries (the open loop's arrival number; the front end's copies
    /// of one order share it): the idempotency key, when there is one.
    pub op: u64,
    /// This copy put the key "in progress" in the store and answers for it.
    pub key_owner: bool,
    /// The key was found: this copy is answered from the store (or waits for the copy that
    /// owns the key) and creates no order.
    pub replay: bool,
    /// Tries of the gateway before this one (its retries after a route timeout).
    pub gateway_try: u32,
    /// Its current (or last) call to a dependency.
    pub call: Call,
}

/// A request's call to one dependency, through that dependency's stack.
#[derive(Debug, Clone)]
pub(super) struct Call {
    /// The dependency's index.
    pub dep: usize,
    pub admission: Option<Admission>,
    /// When the breaker let it through (what the breaker's slow-call rule measures).
    pub started: Micros,
    /// How the current try ended (or will end, once its `CallDone` comes).
    pub try_end: CallEnd,
    pub retry: Option<Retry>,
    /// The sidecar's retry state for the current library attempt.
    pub sidecar: Option<Retry>,
    /// When the current library attempt times out.
    pub attempt_deadline: Option<Micros>,
    /// When a gRPC call's deadline passes, over all its attempts and waits.
    pub call_deadline: Option<Micros>,
    /// When the current try went on the wire.
    pub try_started: Micros,
    /// The current try's answer came from a copy of it, not from the original.
    pub copy_won: bool,
    /// The current try's number at a dependency with a capacity.
    pub try_no: u32,
    /// The caller still waits for that try's answer.
    pub waiting: bool,
    /// When the caller stops waiting for that try, if it ever does.
    pub try_deadline: Option<Micros>,
    /// Attempts made so far (a library profile's Retry counts them here).
    pub attempts: u32,
    /// Where a library's jittered back-off left off, for its next wait.
    pub jitter_state: JitterState,
    /// What the outermost layer of its dependency's stack keeps of it, once let in.
    pub admitted: Option<Admitted>,
    /// Retries an Envoy sidecar made in the current library attempt.
    pub route_retries: u32,
    /// The current try is an Envoy retry, counted in flight by its cluster.
    pub retry_in_flight: bool,
}

impl Call {
    /// A call to dependency `dep` that has not started yet.
    pub fn new(dep: usize) -> Self {
        Call {
            dep,
            admission: None,
            started: 0,
            try_end: CallEnd::Answered,
            retry: None,
            sidecar: None,
            attempt_deadline: None,
            call_deadline: None,
            try_started: 0,
            copy_won: false,
            try_no: 0,
            waiting: false,
            try_deadline: None,
            attempts: 0,
            jitter_state: 0.0,
            admitted: None,
            route_retries: 0,
            retry_in_flight: false,
        }
    }
}

impl Request {
    /// A request that just arrived at `now`.
    pub fn new(
        now: Micros,
        route: Route,
        priority: Priority,
        frontend_attempt: u32,
        op: u64,
    ) -> Self {
        Request {
            arrived: now,
            started: None,
            route,
            priority,
            frontend_attempt,
            outcome: None,
            server: Server::Outside,
            holds_connection: false,
            record: None,
            permit: None,
            budget: None,
            op,
            key_owner: false,
            replay: false,
            gateway_try: 0,
            call: Call::new(0),
        }
    }

    /// The gateway's next try of this request: the same client, connection and record, from
    /// the start of `orders` again.
    pub fn next_gateway_try(&self) -> Self {
        Request {
            holds_connection: self.holds_connection,
            record: self.record,
            gateway_try: self.gateway_try + 1,
            ..Request::new(
                self.arrived,
                self.route,
                self.priority,
                self.frontend_attempt,
                self.op,
            )
        }
    }

    /// True once nothing is left to happen to it: the client has its answer, no worker is on
    /// it and it holds no gateway connection.
    fn is_over(&self) -> bool {
        self.outcome.is_some()
            && matches!(self.server, Server::Outside | Server::Done)
            && !self.holds_connection
    }
}

struct Slot {
    generation: u32,
    request: Option<Request>,
}

/// The live requests.
#[derive(Default)]
pub(super) struct Slab {
    slots: Vec<Slot>,
    free: Vec<u32>,
}

impl Slab {
    /// Stores a new request and returns its id.
    pub fn alloc(&mut self, request: Request) -> Id {
        if let Some(slot) = self.free.pop() {
            let s = &mut self.slots[slot as usize];
            s.request = Some(request);
            (u64::from(s.generation) << 32) | u64::from(slot)
        } else {
            let slot = self.slots.len() as u64;
            self.slots.push(Slot {
                generation: 0,
                request: Some(request),
            });
            slot
        }
    }

    /// The live request `id` names, if it is still the one in its slot.
    // Every event looks its request up, and the size-optimised build would not inline it.
    #[inline(always)]
    pub fn get(&mut self, id: Id) -> Option<&mut Request> {
        let s = self.slots.get_mut((id & 0xffff_ffff) as usize)?;
        if u64::from(s.generation) != id >> 32 {
            return None;
        }
        s.request.as_mut()
    }

    /// Frees the request if it is over (in place: a request is large), and returns its route
    /// and order.
    pub fn free_if_over(&mut self, id: Id) -> Option<(Route, u64)> {
        let slot = (id & 0xffff_ffff) as usize;
        let s = self.slots.get_mut(slot)?;
        if u64::from(s.generation) != id >> 32 {
            return None;
        }
        let freed = s
            .request
            .as_ref()
            .filter(|r| r.is_over())
            .map(|r| (r.route, r.op))?;
        s.request = None;
        s.generation = s.generation.wrapping_add(1);
        self.free.push(slot as u32);
        Some(freed)
    }

    /// Most requests alive at once so far.
    pub fn peak(&self) -> u64 {
        self.slots.len() as u64
    }

    /// The routes of the requests still without an answer.
    pub fn unanswered(&self) -> impl Iterator<Item = Route> + '_ {
        self.slots
            .iter()
            .filter_map(|s| s.request.as_ref())
            .filter(|r| r.outcome.is_none())
            .map(|r| r.route)
    }
}
