//! A bulkhead: a fixed number of permits for calls towards one dependency, so a slow
//! dependency can hold at most that many workers. A caller that finds no permit waits in a FIFO
//! line for at most `max_wait`, then is rejected.
//!
//! Built for a discrete-event simulator: [`Bulkhead::try_acquire`] grants, queues or rejects;
//! [`Bulkhead::release`] hands a freed permit straight to the oldest waiter; the caller
//! schedules [`Bulkhead::expire`] at each waiter's `give_up_at`.

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Micros, ParamError, MS, SECOND};

/// A bulkhead's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BulkheadConfig {
    /// The dependency it protects (named in rejections).
    pub dependency: String,
    /// Calls allowed at once (1..=10000).
    pub permits: u32,
    /// Longest a caller waits for a permit (0..=60 s; 0 rejects at once when full).
    pub max_wait: Micros,
}

impl BulkheadConfig {
    /// Lesson 000's inventory bulkhead in `orders`: 24 permits, 50 ms wait.
    pub fn lesson_000() -> Self {
        Self::named("inventory", 24, 50 * MS)
    }

    /// Lesson 000's payments bulkhead: 16 permits, 50 ms wait.
    pub fn lesson_000_payments() -> Self {
        Self::named("payments", 16, 50 * MS)
    }

    /// Lesson 000's Redis bulkhead: 8 permits, 50 ms wait.
    pub fn lesson_000_redis() -> Self {
        Self::named("redis", 8, 50 * MS)
    }

    /// Lesson 000's `cascade.py`: 8 permits towards inventory, 50 ms wait.
    pub fn cascade_sim() -> Self {
        Self::named("inventory", 8, 50 * MS)
    }

    /// Lesson 004 (Northwind): `inventoryReservation`, 20 concurrent calls, 100 ms wait.
    pub fn northwind() -> Self {
        Self::named("inventoryReservation", 20, 100 * MS)
    }

    /// Lesson 004 (Northwind): `orderHistoryLookup`, its own 20 calls, 100 ms wait.
    pub fn northwind_order_history() -> Self {
        Self::named("orderHistoryLookup", 20, 100 * MS)
    }

    fn named(dependency: &str, permits: u32, max_wait: Micros) -> Self {
        BulkheadConfig {
            dependency: dependency.to_string(),
            permits,
            max_wait,
        }
    }

    /// `permits`' range, which `validate` and the parameter rows share.
    pub const PERMITS: (u64, u64) = (1, 10_000);
    /// `max_wait`'s.
    pub const MAX_WAIT: (Micros, Micros) = (0, 60 * SECOND);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let ((min, max), (least, most)) = (Self::PERMITS, Self::MAX_WAIT);
        ParamError::check_u64("permits", self.permits.into(), min, max, "")?;
        ParamError::check_micros("max_wait", self.max_wait, least, most)?;
        Ok(())
    }
}

impl Default for BulkheadConfig {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// No permit within the wait allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Error)]
#[error("bulkhead for {dependency} is full")]
pub struct BulkheadFull {
    /// The dependency whose bulkhead was full.
    pub dependency: String,
}

/// The answer to a request for a permit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Acquire {
    /// A permit is taken now.
    Granted,
    /// In line; the caller gets a permit from a later `release`, or gives up at `give_up_at`.
    Queued {
        /// When to call [`Bulkhead::expire`] for this waiter.
        give_up_at: Micros,
    },
    /// Full and no waiting allowed.
    Rejected(BulkheadFull),
}

/// The permits and the line of one bulkhead.
#[derive(Debug, Clone)]
pub struct Bulkhead {
    config: BulkheadConfig,
    in_use: u32,
    waiters: VecDeque<(u64, Micros)>,
    /// Waiters passed over by a release after their wait had run out; rejected when expired.
    lapsed: Vec<u64>,
    rejections: u64,
    peak_in_use: u32,
}

impl Bulkhead {
    /// An empty bulkhead.
    pub fn new(config: BulkheadConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(Bulkhead {
            config,
            in_use: 0,
            waiters: VecDeque::new(),
            lapsed: Vec::new(),
            rejections: 0,
            peak_in_use: 0,
        })
    }

    /// The parameters it was built with.
    pub fn config(&self) -> &BulkheadConfig {
        &self.config
    }

    /// Permits taken now.
    pub fn in_use(&self) -> u32 {
        self.in_use
    }

    /// Most permits ever taken at once.
    pub fn peak_in_use(&self) -> u32 {
        self.peak_in_use
    }

    /// Callers waiting in line now.
    pub fn waiting(&self) -> usize {
        self.waiters.len()
    }

    /// Callers rejected so far (at once, or when their wait ran out).
    pub fn rejections(&self) -> u64 {
        self.rejections
    }

    /// Asks for a permit at `now` on behalf of `waiter` (any id unique among those waiting).
    pub fn try_acquire(&mut self, now: Micros, waiter: u64) -> Acquire {
        if self.in_use < self.config.permits && self.waiters.is_empty() {
            self.take();
            return Acquire::Granted;
        }
        if self.config.max_wait == 0 {
            return Acquire::Rejected(self.reject());
        }
        let give_up_at = now.saturating_add(self.config.max_wait);
        self.waiters.push_back((waiter, give_up_at));
        Acquire::Queued { give_up_at }
    }

    /// Gives back a permit at `now`. If someone is waiting, the permit passes straight to the
    /// oldest waiter still within its wait (the permit count stays the same) and its id is
    /// returned; that caller now holds a permit.
    // Called for every call; the size-optimised build would not inline it on its own.
    #[inline(always)]
    pub fn release(&mut self, now: Micros) -> Option<u64> {
        while let Some((id, give_up_at)) = self.waiters.pop_front() {
            if give_up_at >= now {
                return Some(id);
            }
            // Its wait ran out before this release: it is rejected when its expiry arrives.
            self.lapsed.push(id);
        }
        self.in_use = self.in_use.saturating_sub(1);
        None
    }

    /// The wait of `waiter` has run out at `now`: if it is still waiting it is removed and
    /// rejected. `None` means it is no longer waiting (a release gave it a permit).
    pub fn expire(&mut self, _now: Micros, waiter: u64) -> Option<BulkheadFull> {
        if let Some(pos) = self.lapsed.iter().position(|&id| id == waiter) {
            self.lapsed.swap_remove(pos);
            return Some(self.reject());
        }
        let pos = self.waiters.iter().position(|&(id, _)| id == waiter)?;
        self.waiters.remove(pos);
        Some(self.reject())
    }

    fn take(&mut self) {
        self.in_use += 1;
        self.peak_in_use = self.peak_in_use.max(self.in_use);
    }

    fn reject(&mut self) -> BulkheadFull {
        self.rejections += 1;
        BulkheadFull {
            dependency: self.config.dependency.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bulkhead(permits: u32, max_wait: Micros) -> Bulkhead {
        Bulkhead::new(BulkheadConfig {
            dependency: "inventory".into(),
            permits,
            max_wait,
        })
        .unwrap()
    }

    #[test]
    fn grants_up_to_permits_then_queues() {
        let mut b = bulkhead(2, 50 * MS);
        assert_eq!(b.try_acquire(0, 1), Acquire::Granted);
        assert_eq!(b.try_acquire(0, 2), Acquire::Granted);
        assert_eq!(
            b.try_acquire(10, 3),
            Acquire::Queued {
                give_up_at: 10 + 50 * MS
            }
        );
        assert_eq!((b.in_use(), b.waiting()), (2, 1));
    }

    #[test]
    fn zero_wait_rejects_at_once_when_full() {
        let mut b = bulkhead(1, 0);
        assert_eq!(b.try_acquire(0, 1), Acquire::Granted);
        assert_eq!(
            b.try_acquire(0, 2),
            Acquire::Rejected(BulkheadFull {
                dependency: "inventory".into()
            })
        );
        assert_eq!(b.rejections(), 1);
    }

    #[test]
    fn release_hands_the_permit_to_the_oldest_waiter() {
        let mut b = bulkhead(1, 50 * MS);
        b.try_acquire(0, 1);
        b.try_acquire(1, 2);
        b.try_acquire(2, 3);
        assert_eq!(b.release(10), Some(2));
        assert_eq!((b.in_use(), b.waiting()), (1, 1));
        assert_eq!(b.release(20), Some(3));
        assert_eq!(b.release(30), None);
        assert_eq!(b.in_use(), 0);
        // A granted waiter's expiry finds nothing to reject.
        assert_eq!(b.expire(50 * MS, 2), None);
        assert_eq!(b.rejections(), 0);
    }

    #[test]
    fn newcomers_do_not_jump_the_line() {
        let mut b = bulkhead(1, 50 * MS);
        b.try_acquire(0, 1);
        b.try_acquire(0, 2);
        // Even at the instant of a release the line is served first.
        assert_eq!(b.release(5), Some(2));
        assert!(matches!(b.try_acquire(5, 3), Acquire::Queued { .. }));
    }

    #[test]
    fn expire_rejects_a_waiter_still_in_line() {
        let mut b = bulkhead(1, 50 * MS);
        b.try_acquire(0, 1);
        let Acquire::Queued { give_up_at } = b.try_acquire(0, 2) else {
            panic!()
        };
        assert_eq!(
            b.expire(give_up_at, 2),
            Some(BulkheadFull {
                dependency: "inventory".into()
            })
        );
        assert_eq!((b.waiting(), b.rejections()), (0, 1));
        assert_eq!(b.expire(give_up_at, 2), None, "rejected once only");
        assert_eq!(b.release(give_up_at), None);
        assert_eq!(b.in_use(), 0);
    }

    #[test]
    fn a_release_after_a_waiters_deadline_skips_it() {
        let mut b = bulkhead(1, 50 * MS);
        b.try_acquire(0, 1);
        b.try_acquire(0, 2);
        b.try_acquire(40 * MS, 3);
        // The release comes after waiter 2 gave up but before its expiry was processed.
        assert_eq!(b.release(60 * MS), Some(3));
        assert!(b.expire(50 * MS, 2).is_some());
        assert_eq!(b.rejections(), 1);
        // A release exactly at the deadline still serves the waiter.
        let mut b = bulkhead(1, 50 * MS);
        b.try_acquire(0, 1);
        b.try_acquire(0, 2);
        assert_eq!(b.release(50 * MS), Some(2));
    }

    #[test]
    fn presets() {
        assert_eq!(BulkheadConfig::lesson_000().permits, 24);
        assert_eq!(BulkheadConfig::lesson_000().max_wait, 50 * MS);
        assert_eq!(BulkheadConfig::lesson_000_payments().permits, 16);
        assert_eq!(BulkheadConfig::lesson_000_redis().permits, 8);
        assert_eq!(BulkheadConfig::cascade_sim().permits, 8);
        let n = BulkheadConfig::northwind();
        assert_eq!((n.permits, n.max_wait), (20, 100 * MS));
        assert_eq!(BulkheadConfig::northwind_order_history().permits, 20);
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |permits, max_wait| {
            Bulkhead::new(BulkheadConfig {
                dependency: "x".into(),
                permits,
                max_wait,
            })
            .unwrap_err()
            .field
        };
        assert_eq!(bad(0, 0), "permits");
        assert_eq!(bad(10_001, 0), "permits");
        assert_eq!(bad(1, 60 * SECOND + 1), "max_wait");
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod props {
    use super::*;
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Fate {
        Granted,
        Rejected,
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(192))]
        /// Random arrivals, releases and clock steps, with expiries processed in time order as
        /// a simulator would: permits in use never exceed the limit, and every caller ends
        /// granted or rejected exactly once.
        #[test]
        fn permits_bounded_and_every_waiter_settled_once(
            permits in 1u32..6,
            max_wait in 0u64..100,
            ops in proptest::collection::vec((0u8..3, 0u64..40), 1..300),
        ) {
            let mut b = Bulkhead::new(BulkheadConfig { dependency: "d".into(), permits, max_wait }).unwrap();
            let mut fate: BTreeMap<u64, Fate> = BTreeMap::new();
            let mut holders: Vec<u64> = Vec::new();
            let mut expiries: BTreeSet<(Micros, u64)> = BTreeSet::new();
            let mut now = 0;
            let mut next_id = 0;
            let settle = |fate: &mut BTreeMap<u64, Fate>, id: u64, f: Fate| -> Result<(), TestCaseError> {
                prop_assert!(fate.insert(id, f).is_none(), "waiter {} settled twice", id);
                Ok(())
            };
            for (op, dt) in ops {
                let target = now + dt;
                // Expiries due up to the new instant come first.
                while let Some(&(at, id)) = expiries.iter().next() {
                    if at > target { break; }
                    expiries.remove(&(at, id));
                    if b.expire(at, id).is_some() {
                        settle(&mut fate, id, Fate::Rejected)?;
                    }
                }
                now = target;
                match op {
                    0 | 1 => {
                        let id = next_id;
                        next_id += 1;
                        match b.try_acquire(now, id) {
                            Acquire::Granted => { settle(&mut fate, id, Fate::Granted)?; holders.push(id); }
                            Acquire::Queued { give_up_at } => { expiries.insert((give_up_at, id)); }
                            Acquire::Rejected(_) => settle(&mut fate, id, Fate::Rejected)?,
                        }
                    }
                    _ => {
                        if !holders.is_empty() {
                            holders.remove(0);
                            if let Some(id) = b.release(now) {
                                settle(&mut fate, id, Fate::Granted)?;
                                holders.push(id);
                            }
                        }
                    }
                }
                prop_assert!(b.in_use() <= permits);
                prop_assert_eq!(b.in_use() as usize, holders.len());
            }
            // Let every remaining wait run out.
            for (at, id) in std::mem::take(&mut expiries) {
                if b.expire(at, id).is_some() {
                    settle(&mut fate, id, Fate::Rejected)?;
                }
            }
            prop_assert_eq!(fate.len() as u64, next_id);
            let rejected = fate.values().filter(|f| **f == Fate::Rejected).count() as u64;
            prop_assert_eq!(rejected, b.rejections());
        }
    }
}
