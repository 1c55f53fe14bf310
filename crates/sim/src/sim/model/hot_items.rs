//! Optimistic concurrency on a dependency's few hot items: a version per item. A call reads
//! the version of its item when a slot starts on it and writes conditionally when its
//! service ends: if another call committed the same item in between, the write is refused (a
//! conflict, and the work was wasted); otherwise it commits and the version moves on.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// What a call read when a slot started on it: its item and that item's version then.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Read {
    item: u32,
    version: u64,
}

/// The versions of the hot items.
#[derive(Debug)]
pub(super) struct HotItems {
    versions: Vec<u64>,
}

impl HotItems {
    /// `items` items (at least one), every version 0.
    pub fn new(items: u32) -> Self {
        HotItems {
            versions: vec![0; items.max(1) as usize],
        }
    }

    /// A call starts: it reserves an item drawn from the run's stream and reads its version.
    pub fn read(&self, rng: &mut ChaCha8Rng) -> Read {
        let item = rng.gen_range(0..self.versions.len() as u32);
        self.read_item(item)
    }

    fn read_item(&self, item: u32) -> Read {
        Read {
            item,
            version: self.versions[item as usize],
        }
    }

    /// The call's conditional write: true when it commits (no one committed its item since
    /// its read; the version moves on), false on a conflict.
    pub fn commit(&mut self, read: Read) -> bool {
        let version = &mut self.versions[read.item as usize];
        if *version != read.version {
            return false;
        }
        *version += 1;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn of_two_calls_that_read_one_version_the_first_to_end_commits() {
        let mut items = HotItems::new(2);
        let (a, b) = (items.read_item(1), items.read_item(1));
        let other = items.read_item(0);
        assert!(items.commit(b));
        assert!(!items.commit(a), "b committed item 1 after a read it");
        assert!(items.commit(other), "item 0 did not move");
        let c = items.read_item(1);
        assert!(
            items.commit(c),
            "a read after the commit sees the new version"
        );
    }

    #[test]
    fn items_are_drawn_over_all_of_them() {
        let items = HotItems::new(3);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut seen = [false; 3];
        for _ in 0..100 {
            seen[items.read(&mut rng).item as usize] = true;
        }
        assert_eq!(seen, [true; 3]);
    }
}
