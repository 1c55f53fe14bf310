//! A dependency's own servers, when it has a capacity: `slots` calls served at once, the others
//! waiting in a FIFO queue (bounded or not), and what becomes of work whose caller stopped
//! waiting. Without a capacity a dependency has no servers and answers every call in its
//! latency, however many arrive.

use std::collections::VecDeque;

use super::call_end::CallEnd;
use super::dependency_config::{Abandon, CapacityConfig};
use super::events::Id;
use super::hot_items::{HotItems, Read};
use crate::sim::latency::Micros;

/// One call (a try) sent to the dependency.
#[derive(Debug, Clone, Copy)]
pub(super) struct Job {
    /// The request that sent it.
    pub caller: Id,
    /// Which of the caller's tries it is (the caller waits only for its latest).
    pub try_no: u32,
    /// When it reached the dependency.
    pub arrived: Micros,
    /// When the caller stops waiting, if it ever does (with [`Abandon::Drop`] the deadline
    /// travels with the call and the servers honour it).
    pub deadline: Option<Micros>,
    /// A copy of the try, not the try itself.
    pub copy: bool,
    /// The item it fetches for the dependency's cache, when it missed there.
    pub item: Option<u32>,
}

/// A call being served: its answer, and whether the server stops it at its deadline instead
/// of finishing it.
#[derive(Debug, Clone, Copy)]
pub(super) struct InService {
    pub job: Job,
    pub end: CallEnd,
    pub stopped: bool,
    /// The hot item it reserves and the version it read, when the servers have hot items.
    pub read: Option<Read>,
}

/// What the servers did with a call that reached them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Admit {
    /// A slot was free: serve it now.
    Serve,
    /// It waits in the queue.
    Queued,
    /// The queue is full: it is answered UNAVAILABLE at once.
    Full,
}

/// The servers' state.
#[derive(Debug)]
pub(super) struct Servers {
    slots: u32,
    queue_bound: Option<u32>,
    pub abandon: Abandon,
    serving: Vec<Option<InService>>,
    free_slots: Vec<u32>,
    busy: u32,
    queue: VecDeque<Job>,
    /// Restarts so far: a slot's end scheduled before a restart is for work that is gone.
    pub epoch: u32,
    /// The hot items calls contend for, if any.
    pub hot: Option<HotItems>,
}

impl Servers {
    pub fn new(cfg: &CapacityConfig) -> Self {
        Servers {
            slots: cfg.slots,
            queue_bound: cfg.queue,
            abandon: cfg.abandon,
            serving: Vec::new(),
            free_slots: Vec::new(),
            busy: 0,
            queue: VecDeque::new(),
            epoch: 0,
            hot: cfg.hot_items.map(HotItems::new),
        }
    }

    /// A restart: every call queued or in service is gone, returned so its caller hears of it.
    pub fn restart(&mut self) -> Vec<Job> {
        self.epoch = self.epoch.wrapping_add(1);
        let mut jobs: Vec<Job> = self
            .serving
            .iter_mut()
            .filter_map(Option::take)
            .map(|w| w.job)
            .collect();
        jobs.extend(self.queue.drain(..));
        self.free_slots = (0..self.serving.len() as u32).rev().collect();
        self.busy = 0;
        jobs
    }

    /// Slots and calls served at once.
    pub fn slots(&self) -> u32 {
        self.slots
    }

    /// Slots busy and calls queued.
    pub fn load(&self) -> (u32, u64) {
        (self.busy, self.queue.len() as u64)
    }

    /// A call arrives: served at once, queued, or refused.
    pub fn admit(&mut self, job: Job) -> Admit {
        if self.busy < self.slots && self.queue.is_empty() {
            return Admit::Serve;
        }
        if self
            .queue_bound
            .is_some_and(|b| self.queue.len() >= b as usize)
        {
            return Admit::Full;
        }
        self.queue.push_back(job);
        Admit::Queued
    }

    /// A slot takes the call; returns the slot's number.
    pub fn occupy(&mut self, work: InService) -> u32 {
        self.busy += 1;
        if let Some(slot) = self.free_slots.pop() {
            self.serving[slot as usize] = Some(work);
            slot
        } else {
            self.serving.push(Some(work));
            (self.serving.len() - 1) as u32
        }
    }

    /// The slot is done with its call (served, or stopped at its deadline).
    pub fn vacate(&mut self, slot: u32) -> Option<InService> {
        let work = self.serving.get_mut(slot as usize)?.take()?;
        self.busy -= 1;
        self.free_slots.push(slot);
        Some(work)
    }

    /// The next queued call a free slot takes at `now`, with the calls skipped because their
    /// deadline had passed ([`Abandon::Drop`]); `None` when the queue is empty.
    pub fn next(&mut self, now: Micros) -> (Option<Job>, u64) {
        let mut skipped = 0;
        while let Some(job) = self.queue.pop_front() {
            if self.abandon == Abandon::Drop && job.deadline.is_some_and(|d| d <= now) {
                skipped += 1;
                continue;
            }
            return (Some(job), skipped);
        }
        (None, skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn servers(slots: u32, queue: Option<u32>) -> Servers {
        Servers::new(&CapacityConfig {
            slots,
            queue,
            abandon: Abandon::Drop,
            restart_at_recovery: true,
            hot_items: None,
            cache: None,
        })
    }

    fn job(caller: Id, deadline: Option<Micros>) -> Job {
        Job {
            caller,
            try_no: 1,
            arrived: 0,
            deadline,
            copy: false,
            item: None,
        }
    }

    fn serve(s: &mut Servers, j: Job) -> u32 {
        s.occupy(InService {
            job: j,
            end: CallEnd::Answered,
            stopped: false,
            read: None,
        })
    }

    #[test]
    fn calls_past_the_slots_queue_and_past_the_bound_are_refused() {
        let mut s = servers(2, Some(1));
        for caller in 0..2 {
            assert_eq!(s.admit(job(caller, None)), Admit::Serve);
            serve(&mut s, job(caller, None));
        }
        assert_eq!(s.admit(job(2, None)), Admit::Queued);
        assert_eq!(s.admit(job(3, None)), Admit::Full);
        assert_eq!(s.load(), (2, 1));
    }

    #[test]
    fn a_freed_slot_takes_the_oldest_call_still_in_time() {
        let mut s = servers(1, None);
        let first = serve(&mut s, job(0, None));
        s.admit(job(1, Some(5)));
        s.admit(job(2, Some(50)));
        assert_eq!(s.vacate(first).map(|w| w.job.caller), Some(0));
        let (next, skipped) = s.next(10);
        assert_eq!((next.map(|j| j.caller), skipped), (Some(2), 1));
        assert_eq!(s.next(10).0.map(|j| j.caller), None);
    }

    #[test]
    fn a_restart_returns_every_call_and_frees_every_slot() {
        let mut s = servers(2, None);
        let first = serve(&mut s, job(0, None));
        serve(&mut s, job(1, None));
        s.admit(job(2, None));
        let gone: Vec<Id> = s.restart().iter().map(|j| j.caller).collect();
        assert_eq!(gone, vec![0, 1, 2]);
        assert_eq!((s.load(), s.epoch), ((0, 0), 1));
        assert!(s.vacate(first).is_none(), "the slot's work is gone");
        assert_eq!(s.admit(job(3, None)), Admit::Serve);
    }

    #[test]
    fn a_slot_is_reused_once_vacated() {
        let mut s = servers(3, None);
        let a = serve(&mut s, job(0, None));
        serve(&mut s, job(1, None));
        assert!(s.vacate(a).is_some());
        assert!(s.vacate(a).is_none(), "a slot is vacated once");
        assert_eq!(serve(&mut s, job(2, None)), a);
        assert_eq!(s.load(), (2, 0));
    }
}
