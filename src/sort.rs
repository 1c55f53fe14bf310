//! One stable sort for the whole crate, so the wasm holds one copy of it.
//!
//! Every `sort_by_key` on a new item type or key closure compiles the standard library's
//! stable sort once more (about 4 KB of wasm each). [`by_rank`] sorts plain
//! `(rank, position)` pairs instead, which all callers share, and then moves the items into
//! that order.

/// Sorts `items` by `rank`, smallest first; items of equal rank keep their order (a stable
/// sort, the same order `sort_by_key` gives).
pub fn by_rank<T>(items: &mut [T], rank: impl Fn(&T) -> u64) {
    let mut order: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(position, item)| (rank(item), position))
        .collect();
    // The position breaks every tie, so the unstable sort gives the stable order.
    order.sort_unstable();
    // Slot `at` takes the item from `order[at].1`: follow each cycle of moves once.
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at].1;
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// A rank for a signed key: the same order as the `i64`s themselves.
pub fn signed(key: i64) -> u64 {
    (key as u64) ^ (1 << 63)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn the_same_order_as_the_standard_stable_sort(
            items in proptest::collection::vec((0u64..6, any::<u32>()), 0..60)
        ) {
            let mut ours = items.clone();
            by_rank(&mut ours, |&(key, _)| key);
            let mut standard = items;
            standard.sort_by_key(|&(key, _)| key);
            prop_assert_eq!(ours, standard);
        }

        #[test]
        fn signed_ranks_keep_the_order_of_their_keys(a in any::<i64>(), b in any::<i64>()) {
            prop_assert_eq!(signed(a).cmp(&signed(b)), a.cmp(&b));
        }
    }
}
