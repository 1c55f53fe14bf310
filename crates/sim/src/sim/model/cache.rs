//! A cache in front of a dependency's servers (a database behind its cache). It starts warm;
//! once flushed, every call misses until its item is fetched again. Who fills it decides
//! whether it ever warms up under load: a caller fills it only with an answer it still waits
//! for, so when the misses queue at the servers past the callers' timeouts, nothing fills it
//! and it stays cold (the loop of a cold cache); a cache that fetches each item once and keeps
//! whatever comes back warms up whatever the callers do.

use std::collections::BTreeMap;

use super::dependency_config::{CacheConfig, CacheFill};
use super::events::Id;
use crate::sim::latency::Micros;

/// What a call's lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lookup {
    /// Cached: answered by the cache after its hit time.
    Hit,
    /// Not cached: this call fetches it from the servers.
    Fetch,
    /// Not cached, and already being fetched by the cache: the call waits for that fetch.
    Wait,
}

/// The cache's items and the fetches it has in flight.
pub(super) struct Cache {
    fill: CacheFill,
    pub hit: Micros,
    cached: Vec<bool>,
    /// With [`CacheFill::Coalesce`]: each item being fetched, and the tries waiting for it.
    fetching: BTreeMap<u32, Vec<(Id, u32)>>,
}

impl Cache {
    pub fn new(cfg: &CacheConfig) -> Self {
        Cache {
            fill: cfg.fill,
            hit: cfg.hit,
            cached: vec![true; cfg.items.max(1) as usize],
            fetching: BTreeMap::new(),
        }
    }

    /// The item order `op` looks up: the same for each of its tries, resends and copies, and
    /// spread evenly over the items (SplitMix64's finaliser of the order's number).
    pub fn item_of(&self, op: u64) -> u32 {
        let mut z = op.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % self.cached.len() as u64) as u32
    }

    /// Try `try_no` of `caller` looks `item` up.
    pub fn lookup(&mut self, item: u32, caller: Id, try_no: u32) -> Lookup {
        if self.cached.get(item as usize).copied().unwrap_or(false) {
            return Lookup::Hit;
        }
        if self.fill == CacheFill::Coalesce {
            if let Some(waiting) = self.fetching.get_mut(&item) {
                waiting.push((caller, try_no));
                return Lookup::Wait;
            }
            self.fetching.insert(item, Vec::new());
        }
        Lookup::Fetch
    }

    /// The fetch of `item` is over: `answered` when the servers answered it, `caller_waits`
    /// when its caller still waited for that answer. Returns the tries that waited for it.
    pub fn fetched(&mut self, item: u32, answered: bool, caller_waits: bool) -> Vec<(Id, u32)> {
        let fills = answered
            && match self.fill {
                CacheFill::Caller => caller_waits,
                CacheFill::Coalesce => true,
            };
        if let (true, Some(slot)) = (fills, self.cached.get_mut(item as usize)) {
            *slot = true;
        }
        self.fetching.remove(&item).unwrap_or_default()
    }

    /// Every item is gone.
    pub fn flush(&mut self) {
        self.cached.fill(false);
    }

    /// Items cached.
    #[cfg(test)]
    pub fn warm(&self) -> usize {
        self.cached.iter().filter(|c| **c).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cache(fill: CacheFill) -> Cache {
        Cache::new(&CacheConfig {
            items: 4,
            hit: 1_000,
            flush_at: None,
            fill,
        })
    }

    #[test]
    fn a_caller_fills_the_cache_only_with_an_answer_it_still_waits_for() {
        let mut c = cache(CacheFill::Caller);
        assert_eq!(c.lookup(1, 10, 1), Lookup::Hit);
        c.flush();
        assert_eq!(c.warm(), 0);
        assert_eq!(c.lookup(1, 10, 1), Lookup::Fetch);
        // A second miss of the same item fetches it again.
        assert_eq!(c.lookup(1, 11, 2), Lookup::Fetch);
        assert!(c.fetched(1, true, false).is_empty());
        assert_eq!(
            c.lookup(1, 12, 3),
            Lookup::Fetch,
            "a late answer fills nothing"
        );
        c.fetched(1, true, true);
        assert_eq!(c.lookup(1, 13, 4), Lookup::Hit);
    }

    #[test]
    fn a_coalescing_cache_fetches_an_item_once_and_keeps_a_late_answer() {
        let mut c = cache(CacheFill::Coalesce);
        c.flush();
        assert_eq!(c.lookup(2, 10, 1), Lookup::Fetch);
        assert_eq!(c.lookup(2, 11, 2), Lookup::Wait);
        assert_eq!(c.lookup(2, 12, 3), Lookup::Wait);
        assert_eq!(c.fetched(2, true, false), vec![(11, 2), (12, 3)]);
        assert_eq!(c.lookup(2, 13, 4), Lookup::Hit);
        // A failed fetch fills nothing, and the next miss fetches again.
        assert_eq!(c.lookup(3, 14, 5), Lookup::Fetch);
        c.fetched(3, false, true);
        assert_eq!(c.lookup(3, 15, 6), Lookup::Fetch);
    }

    #[test]
    fn an_order_always_looks_up_the_same_item_and_orders_spread_over_all() {
        let c = cache(CacheFill::Caller);
        assert_eq!(c.item_of(7), c.item_of(7));
        let mut seen = [0u32; 4];
        for op in 0..4_000 {
            seen[c.item_of(op) as usize] += 1;
        }
        assert!(seen.iter().all(|&n| (900..=1_100).contains(&n)), "{seen:?}");
    }
}
