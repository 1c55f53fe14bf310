//! What can happen in a run: the events of the queue, and the id they carry.

use crate::resilience::Priority;
use crate::sim::trace::Route;

/// A request's id in events: slot in the slab (low 32 bits) and the slot's generation (high
/// 32 bits), so an event for a request that is over never touches the one reusing its slot.
pub(super) type Id = u64;

#[derive(Debug, Clone, Copy)]
pub(super) enum Event {
    /// The `n`-th request of the open loop arrives (first class: arrivals win ties).
    Arrival(u64),
    /// The front end sends a request again.
    FrontendRetry {
        route: Route,
        priority: Priority,
        attempt: u32,
        op: u64,
    },
    /// A worker reserved for the request starts on it.
    Start(Id),
    /// The worker that took the request has waited out a garbage collection pause.
    Resume(Id),
    /// The request holds its bulkhead permit (or needs none): on to the breaker.
    Proceed(Id),
    /// The request's wait for a bulkhead permit has run out.
    BulkheadExpire(Id),
    /// The request's call to its dependency (or its history lookup) returns.
    CallDone(Id),
    /// The backoff before a library retry is over.
    RetryCall(Id),
    /// A call its caller stopped waiting for (Resilience4j's time limiter) answers at last and
    /// gives back its permit of dependency `n`'s bulkhead.
    PermitFreed(usize),
    /// The backoff before a sidecar retry is over.
    SidecarTry(Id),
    /// The route's timeout fires while an Envoy sidecar waits to retry.
    RouteTimedOut(Id),
    /// A copy of request `id`'s try goes out to dependency `dep` (counted when it goes, so a
    /// run stopped at `duration` counts only the copies sent by then).
    CopySent { id: Id, dep: u32 },
    /// A slot of dependency `dep` is done with its call (served, or stopped at its deadline).
    Served { dep: u32, slot: u32, epoch: u32 },
    /// Dependency `n` restarts: the calls it held fail at once.
    Restart(usize),
    /// The caller's try number `try_no` at a dependency with a capacity runs out of time.
    TryTimedOut { id: Id, try_no: u32 },
    /// A copy of try `try_no` is due at a dependency with a capacity.
    CopyDue { id: Id, try_no: u32 },
    /// The cache of a dependency answers try `try_no` of the request (a hit).
    CacheHit { id: Id, try_no: u32 },
    /// The cache of dependency `n` is emptied.
    CacheFlush(usize),
    /// A call to host `host` of dependency `dep` is over there (`failed`, or answered).
    HostDone { dep: u32, host: u32, failed: bool },
    /// The catalog service answers.
    CatalogDone(Id),
    /// The gateway's route timeout.
    GatewayTimeout(Id),
    /// The client stops waiting.
    ClientGiveUp(Id),
}
