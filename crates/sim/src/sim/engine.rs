//! The discrete-event queue: events wait in a min-heap keyed by (time, class, sequence number),
//! so the earliest event comes out first. At one instant, events of the *first* class (arrivals,
//! see [`EventQueue::schedule_first`]) come out before ordinary ones; within a class, in the order
//! they were scheduled. A cap on the number of events turns a run that would never end into an
//! error.
//!
//! Ordinary events scheduled for the current instant skip the heap: they wait in a FIFO line,
//! which gives the same order (each was scheduled after every heap entry for this instant)
//! at a fraction of the cost.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

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

/// A queue of future events, earliest first, ties broken by class then scheduling order.
#[derive(Debug)]
pub struct EventQueue<E> {
    heap: BinaryHeap<Reverse<Entry<E>>>,
    /// Events of the first class (arrivals), kept apart so they win ties.
    first: BinaryHeap<Reverse<Entry<E>>>,
    /// Ordinary events scheduled for `now` while the clock stood at `now`.
    immediate: VecDeque<E>,
    next_seq: u64,
    popped: u64,
    cap: u64,
    now: Micros,
}

/// Where the next event comes from.
#[derive(Clone, Copy)]
enum Source {
    First,
    Heap,
    Immediate,
}

impl<E> EventQueue<E> {
    /// An empty queue that refuses to hand out more than `cap` events.
    pub fn with_cap(cap: u64) -> Self {
        EventQueue {
            heap: BinaryHeap::new(),
            first: BinaryHeap::new(),
            immediate: VecDeque::new(),
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
        if at <= self.now {
            self.immediate.push_back(event);
            return;
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Reverse(Entry { at, seq, event }));
    }

    /// Schedules `event` at `at` in the first class: at its instant it comes out before every
    /// ordinary event, whenever those were scheduled (as if it had been scheduled before all of
    /// them). Arrivals use it, so generating them one at a time keeps the order that scheduling
    /// them all up front would give.
    pub fn schedule_first(&mut self, at: Micros, event: E) {
        let at = at.max(self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.first.push(Reverse(Entry { at, seq, event }));
    }

    fn next_source(&self) -> Option<(Micros, Source)> {
        let ordinary = if self.heap.peek().is_some_and(|Reverse(e)| e.at <= self.now) {
            Some((self.now, Source::Heap))
        } else if !self.immediate.is_empty() {
            Some((self.now, Source::Immediate))
        } else {
            self.heap.peek().map(|Reverse(e)| (e.at, Source::Heap))
        };
        match (self.first.peek(), ordinary) {
            (Some(Reverse(f)), Some((at, _))) if f.at <= at => Some((f.at, Source::First)),
            (Some(Reverse(f)), None) => Some((f.at, Source::First)),
            (_, ordinary) => ordinary,
        }
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Micros> {
        self.next_source().map(|(at, _)| at)
    }

    /// Takes the next event out and advances the clock to it; `Ok(None)` when the queue is
    /// empty, an error once the cap has been reached.
    pub fn pop(&mut self) -> Result<Option<(Micros, E)>, EngineError> {
        let Some((at, source)) = self.next_source() else {
            return Ok(None);
        };
        if self.popped >= self.cap {
            return Err(EngineError::EventCapExceeded { cap: self.cap });
        }
        let event = match source {
            Source::First => self.first.pop().map(|Reverse(e)| e.event),
            Source::Heap => self.heap.pop().map(|Reverse(e)| e.event),
            Source::Immediate => self.immediate.pop_front(),
        };
        let Some(event) = event else {
            return Ok(None);
        };
        self.popped += 1;
        self.now = at;
        Ok(Some((at, event)))
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
        self.heap.len() + self.first.len() + self.immediate.len()
    }

    /// True when no event is waiting.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
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
    fn first_class_wins_ties_whenever_it_was_scheduled() {
        let mut q = EventQueue::new();
        q.schedule(10, "b1");
        q.schedule(20, "c");
        q.schedule_first(10, "a");
        assert_eq!(q.pop().unwrap(), Some((10, "a")));
        // Scheduled for the current instant: after b1 (already waiting), before c.
        q.schedule(10, "b2");
        q.schedule_first(10, "a2");
        q.schedule(10, "b3");
        let mut out = Vec::new();
        while let Some((t, e)) = q.pop().unwrap() {
            out.push((t, e));
        }
        assert_eq!(
            out,
            vec![(10, "a2"), (10, "b1"), (10, "b2"), (10, "b3"), (20, "c")]
        );
    }

    #[test]
    fn same_order_as_one_heap_with_sequence_numbers() {
        // A reference queue: (time, sequence) in a sorted vector, against random schedules
        // made while popping.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut q = EventQueue::new();
        let mut reference: Vec<(Micros, u64)> = Vec::new();
        let (mut seq, mut now) = (0u64, 0);
        for _ in 0..2_000 {
            if rng.gen_bool(0.6) || reference.is_empty() {
                let at = now + rng.gen_range(0..3);
                q.schedule(at, seq);
                reference.push((at, seq));
                seq += 1;
            } else {
                reference.sort_unstable();
                let expected = reference.remove(0);
                let (t, e) = q.pop().unwrap().unwrap();
                assert_eq!((t, e), expected);
                now = t;
            }
        }
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
