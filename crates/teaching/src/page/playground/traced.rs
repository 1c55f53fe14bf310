//! The traced request: one more derived run. With a request picked (`trace=` in a link, a
//! button), run A is simulated again with a recorder for it, and with A/B on the same arrival
//! is followed in run B.

use std::rc::Rc;

use crate::sim::life::RequestLife;
use crate::sim::model::{follow, SimConfig};
use crate::sim::pick::Pick;
use crate::sim::trace::Trace;

/// A followed request, in A and (while A/B is on) in B.
#[derive(Debug, Clone)]
pub struct Traced {
    /// What was asked for.
    pub pick: Pick,
    /// The arrival it names in run A (`None`: run A has no such request).
    pub id: Option<u64>,
    /// Its life in run A.
    pub a: Option<Rc<RequestLife>>,
    /// The same arrival's life in run B.
    pub b: Option<Rc<RequestLife>>,
}

impl Traced {
    /// Follows `pick` in run A (its config and the Trace with its log) and the same arrival in
    /// run B (its config).
    pub fn of(pick: Pick, a: Option<(&SimConfig, &Trace)>, b: Option<&SimConfig>) -> Traced {
        let id = a.and_then(|(_, trace)| pick.find(&trace.requests, trace.end));
        let life = |config: Option<&SimConfig>| -> Option<Rc<RequestLife>> {
            let (_, life) = follow(config?, id?).ok()?;
            life.map(Rc::new)
        };
        Traced {
            pick,
            id,
            a: life(a.map(|(config, _)| config)),
            b: life(b),
        }
    }
}
