//! The discrete-event queue: events wait in a min-heap keyed by (time, sequence number), so the
//! earliest event comes out first and events at the same instant come out in the order they
//! were scheduled. A cap on the number of events turns a run that would never end into an error.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use thiserror::Error;

use super::latency::Micros;

/// The default cap on events processed in one run.
pub const DEFAULT_EVENT_CAP: u64 = 50_000_000;

/// Why a run stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum EngineError {
    /// More events than the cap were taken out of the queue.
    #[error("event cap of {cap} events reached; the run was stopped")]
    EventCapExceeded {
        /// The cap that was reached.
        cap: u64,
    },
}

/// One scheduled event.
#[derive(Debug)]
struct Entry<E> {
    at: Micros,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.seq == other.seq
    }
}

impl<E> Eq for Entry<E> {}

impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Entry<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        (self.at, self.seq).cmp(&(other.at, other.seq))
    }
}

/// A queue of future events, earliest first, ties broken by scheduling order.
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    next_seq: u64,
    popped: u64,
    cap: u64,
    now: Micros,
}

impl<E> EventQueue<E> {
    /// An empty queue that refuses to hand out more than `cap` events.
    pub fn with_cap(cap: u64) -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            next_seq: 0,
            popped: 0,
            cap,
            now: 0,
        }
    }

    /// An empty queue with [`DEFAULT_EVENT_CAP`].
    pub fn new() -> Self {
        Self::with_cap(DEFAULT_EVENT_CAP)
    }

    /// Schedules `event` at `at`. An instant in the past is moved to the current time, so time
    /// never runs backwards.
    pub fn schedule(&mut self, at: Micros, event: E) {
        let at = at.max(self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { at, seq, event }));
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Micros> {
        self.heap.peek().map(|Reverse(e)| e.at)
    }

    /// Takes the next event out and advances the clock to it; `Ok(None)` when the queue is
    /// empty, an error once the cap has been reached.
    pub fn pop(&mut self) -> Result<Option<(Micros, E)>, EngineError> {
        if self.heap.is_empty() {
            return Ok(None);
        }
        if self.popped >= self.cap {
            return Err(EngineError::EventCapExceeded { cap: self.cap });
        }
        match self.heap.pop() {
            Some(Reverse(entry)) => {
                self.popped += 1;
                self.now = entry.at;
                Ok(Some((entry.at, entry.event)))
            }
            None => Ok(None),
        }
    }

    /// The time of the last event taken out (0 before the first).
    pub fn now(&self) -> Micros {
        self.now
    }

    /// Events taken out so far.
    pub fn processed(&self) -> u64 {
        self.popped
    }

    /// Events still waiting.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when no event is waiting.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn earliest_first_then_scheduling_order() {
        let mut q = EventQueue::new();
        q.schedule(30, "c");
        q.schedule(10, "a1");
        q.schedule(20, "b");
        q.schedule(10, "a2");
        let mut out = Vec::new();
        while let Some((t, e)) = q.pop().unwrap() {
            out.push((t, e));
        }
        assert_eq!(out, vec![(10, "a1"), (10, "a2"), (20, "b"), (30, "c")]);
        assert_eq!(q.now(), 30);
        assert_eq!(q.processed(), 4);
    }

    #[test]
    fn past_events_run_now() {
        let mut q = EventQueue::new();
        q.schedule(100, 1);
        assert_eq!(q.pop().unwrap(), Some((100, 1)));
        q.schedule(50, 2);
        assert_eq!(q.pop().unwrap(), Some((100, 2)));
    }

    #[test]
    fn cap_is_an_error_not_a_hang() {
        let mut q = EventQueue::with_cap(3);
        let mut t = 0;
        q.schedule(t, ());
        let err = loop {
            match q.pop() {
                Ok(Some(_)) => {
                    t += 1;
                    q.schedule(t, ());
                }
                Ok(None) => panic!("queue should never empty"),
                Err(e) => break e,
            }
        };
        assert_eq!(err, EngineError::EventCapExceeded { cap: 3 });
        assert_eq!(q.processed(), 3);
    }
}
