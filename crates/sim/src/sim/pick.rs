//! Which request to follow: one named by its arrival number, or the slowest of a kind, found
//! in a run's per-request log. The same seed and settings give the same request, in the page,
//! in a link (`trace=`) and on the command line (`--trace`).

use super::latency::Micros;
use super::life::RequestLife;
use super::model::{follow, run, RunError, SimConfig};
use super::trace::{Outcome, RequestRecord, Route};

/// A request to follow.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pick {
    /// The slowest request, end to end.
    Slowest,
    /// The request whose calls were retried most (the slowest of those).
    Retried,
    /// The slowest request the fallback answered.
    FellBack,
    /// The slowest request the circuit breaker refused.
    RefusedByBreaker,
    /// The slowest lookup of order history: a cheap read that waited behind orders.
    StuckLookup,
    /// The request the open loop sent as its `n`-th (0 is the first).
    Arrival(u64),
}

impl Pick {
    /// The picks named by a kind, in the order the page offers them.
    pub const NAMED: [Pick; 5] = [
        Pick::Slowest,
        Pick::Retried,
        Pick::FellBack,
        Pick::RefusedByBreaker,
        Pick::StuckLookup,
    ];

    /// What the accepted text is, for messages.
    pub const ALLOWED: &'static str =
        "slowest, retried, fell-back, refused-by-breaker, stuck-lookup, or an arrival number";

    /// Its text in a link and on the command line.
    pub fn key(self) -> String {
        match self {
            Pick::Slowest => "slowest".into(),
            Pick::Retried => "retried".into(),
            Pick::FellBack => "fell-back".into(),
            Pick::RefusedByBreaker => "refused-by-breaker".into(),
            Pick::StuckLookup => "stuck-lookup".into(),
            Pick::Arrival(n) => n.to_string(),
        }
    }

    /// The button's words.
    pub fn label(self) -> String {
        match self {
            Pick::Slowest => "slowest".into(),
            Pick::Retried => "retried".into(),
            Pick::FellBack => "fell back".into(),
            Pick::RefusedByBreaker => "refused by the breaker".into(),
            Pick::StuckLookup => "a lookup stuck behind orders".into(),
            Pick::Arrival(n) => format!("request #{n}"),
        }
    }

    /// Reads a key (or an arrival number).
    pub fn parse(text: &str) -> Result<Pick, String> {
        let text = text.trim();
        if let Some(named) = Pick::NAMED.into_iter().find(|p| p.key() == text) {
            return Ok(named);
        }
        match text.parse::<u64>() {
            Ok(n) => Ok(Pick::Arrival(n)),
            Err(_) => Err(format!(
                "\"{text}\" is not a request to follow (allowed: {})",
                Pick::ALLOWED
            )),
        }
    }

    /// The arrival number of the request this pick names in a run's log (`None` when the run
    /// has none of that kind). A request still without an answer when the run stopped at `end`
    /// counts as taking until `end`. Ties go to the earlier arrival.
    pub fn find(self, records: &[RequestRecord], end: Micros) -> Option<u64> {
        let took = |r: &RequestRecord| Some(r.finished.unwrap_or(end).saturating_sub(r.arrived));
        let slowest = |keep: &dyn Fn(&RequestRecord) -> bool| {
            records
                .iter()
                .filter(|r| keep(r))
                .filter_map(|r| Some((took(r)?, r)))
                .min_by_key(|(t, r)| (std::cmp::Reverse(*t), r.arrived))
                .map(|(_, r)| r.id)
        };
        match self {
            Pick::Arrival(n) => records.iter().any(|r| r.id == n).then_some(n),
            Pick::Slowest => slowest(&|_| true),
            Pick::FellBack => slowest(&|r| r.outcome == Outcome::Fallback),
            Pick::RefusedByBreaker => slowest(&|r| r.outcome == Outcome::CircuitOpen),
            Pick::StuckLookup => slowest(&|r| r.route == Route::OrderHistory),
            Pick::Retried => {
                let most = records.iter().map(|r| r.retries).max().filter(|&m| m > 0)?;
                slowest(&|r| r.retries == most)
            }
        }
    }
}

/// The request in flight at `at` that had waited longest by then (a point on the timeline).
pub fn in_flight_at(records: &[RequestRecord], at: Micros) -> Option<u64> {
    records
        .iter()
        .filter(|r| r.arrived <= at && r.finished.is_none_or(|f| f > at))
        .min_by_key(|r| r.arrived)
        .map(|r| r.id)
}

/// Runs `cfg`, finds the request `pick` names and follows it (`None` when the run has no such
/// request). A named pick needs one run more than an arrival number: the one that finds it.
pub fn follow_pick(cfg: &SimConfig, pick: Pick) -> Result<Option<RequestLife>, RunError> {
    let id = match pick {
        Pick::Arrival(n) => n,
        named => {
            let mut logged = cfg.clone();
            logged.run.record_requests = true;
            let trace = run(&logged)?;
            match named.find(&trace.requests, trace.end) {
                Some(id) => id,
                None => return Ok(None),
            }
        }
    };
    Ok(follow(cfg, id)?.1)
}
