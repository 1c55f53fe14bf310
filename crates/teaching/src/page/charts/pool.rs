//! orders' worker pool as the slots view draws it: a cell per worker (or per few workers when
//! there are many), the queue against its peak over the run, and the requests refused at
//! once in the 100 ms before the playhead.

use crate::page::replay::Frame;
use crate::sim::trace::Trace;

/// Most cells drawn; past it a cell stands for several workers.
pub const MOST_CELLS: u32 = 128;

/// The pool at a playhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolAt {
    /// Cells drawn.
    pub cells: u32,
    /// Workers per cell (1 up to [`MOST_CELLS`] workers).
    pub per_cell: u32,
    /// Workers busy.
    pub busy: u32,
    /// Cells filled: a cell is filled when any of its workers is busy.
    pub busy_cells: u32,
    /// Requests queued for a worker.
    pub queue: u64,
    /// The longest the queue has been so far, up to the playhead (the column's full height).
    pub queue_peak: u64,
    /// Requests refused at once (shed, bulkhead_full, circuit_open) in the last slice.
    pub refused: u64,
}

/// The pool of `threads` workers at the frame `f` of `trace`.
pub fn pool_at(trace: &Trace, threads: u32, f: &Frame) -> PoolAt {
    let threads = threads.max(1);
    let per_cell = threads.div_ceil(MOST_CELLS);
    let busy = f.slice.workers_busy.min(threads);
    let c = &f.slice.completions;
    PoolAt {
        cells: threads.div_ceil(per_cell),
        per_cell,
        busy,
        busy_cells: busy.div_ceil(per_cell),
        queue: f.slice.queue_len,
        queue_peak: {
            crate::page::replay::passed(trace, f.at)
                .iter()
                .map(|b| b.queue_len)
                .max()
                .unwrap_or(0)
        },
        refused: c.shed + c.bulkhead_full + c.circuit_open,
    }
}

impl PoolAt {
    /// The queue's share of its peak, 0..=1 (0 when it never formed).
    pub fn queue_share(&self) -> f64 {
        if self.queue_peak == 0 {
            0.0
        } else {
            (self.queue as f64 / self.queue_peak as f64).min(1.0)
        }
    }

    /// What the view says in words, for a screen reader.
    pub fn describe(&self) -> String {
        format!(
            "{} of {} workers busy; {} requests queued (at most {} so far); {} refused at \
             once in the last 0.1 s",
            self.busy,
            self.cells * self.per_cell,
            self.queue,
            self.queue_peak,
            self.refused
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::replay::frame;
    use crate::sim::model::run;
    use crate::sim::scenario::{Preset, Scenario};

    #[test]
    fn the_cells_fill_as_the_workers_get_stuck_and_the_queue_grows_to_its_peak() {
        let cfg = Scenario::None.config();
        let t = run(&cfg).unwrap();
        let before = pool_at(
            &t,
            cfg.service.threads,
            &frame(&t, cfg.first().unwrap().faults.degrade_at.unwrap()),
        );
        assert_eq!(before.cells, cfg.service.threads);
        assert!(before.busy_cells < cfg.service.threads, "{before:?}");
        assert_eq!(before.queue_share(), 0.0);
        let later = pool_at(&t, cfg.service.threads, &frame(&t, cfg.traffic.duration));
        assert_eq!(later.busy_cells, cfg.service.threads);
        assert!(later.queue > 0 && later.queue <= later.queue_peak);
        let peak_at = t
            .series
            .iter()
            .position(|b| b.queue_len == later.queue_peak)
            .unwrap();
        let at_peak = pool_at(
            &t,
            cfg.service.threads,
            &frame(&t, (peak_at as u64 + 1) * 100_000),
        );
        assert_eq!(at_peak.queue_share(), 1.0);
    }

    #[test]
    fn refusals_are_counted_in_the_slice_they_happen() {
        let cfg = Preset::StoryBulkhead.config();
        let t = run(&cfg).unwrap();
        let refused: u64 = (1..=t.series.len() as u64)
            .map(|i| pool_at(&t, cfg.service.threads, &frame(&t, i * 100_000)).refused)
            .sum();
        assert_eq!(refused, t.outcomes.bulkhead_full);
    }

    #[test]
    fn many_workers_share_a_cell() {
        let cfg = Preset::Ex3RetryLayers.config();
        let t = run(&cfg).unwrap();
        let p = pool_at(&t, cfg.service.threads, &frame(&t, 1_000_000));
        assert!(
            p.cells <= MOST_CELLS && p.cells * p.per_cell >= cfg.service.threads,
            "{p:?}"
        );
        assert!(p.busy_cells <= p.cells);
    }
}
