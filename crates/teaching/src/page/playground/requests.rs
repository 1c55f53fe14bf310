//! The per-request log of a trace turned into what the histograms count.

use crate::page::latency::Finished;
use crate::sim::trace::Trace;

/// Every finished request of `trace`, in order of finishing; empty when the run kept no
/// per-request log.
pub fn finished(trace: &Trace) -> Vec<Finished> {
    let mut log: Vec<Finished> = trace
        .requests
        .iter()
        .filter_map(|r| {
            let at = r.finished?;
            Some(Finished {
                at,
                outcome: r.outcome,
                service: at.saturating_sub(r.started.unwrap_or(at)),
                end_to_end: at.saturating_sub(r.arrived),
                id: r.id,
            })
        })
        .collect();
    crate::sort::by_rank(&mut log, |f| f.at);
    log
}
