//! One stable sort for the whole crate, so the wasm holds one copy of it.
//!
//! Every `sort_by_key` on a new item type or key closure compiles the standard library's
//! stable sort once more (about 4 KB of wasm each). [`by_rank`] and [`by_key`] sort the
//! items' positions instead, with one comparison type that all callers share, and then move
//! the items into that order.

use std::cmp::Ordering;

/// Sorts `items` by `rank`, smallest first; items of equal rank keep their order (a stable
/// sort, the same order `sort_by_key` gives).
pub fn by_rank<T>(items: &mut [T], rank: impl Fn(&T) -> u64) {
    let mut ranked: Vec<(u64, usize)> = items
        .iter()
        .enumerate()
        .map(|(position, item)| (rank(item), position))
        .collect();
    // The position breaks every tie, so the unstable sort gives the stable order.
    ranked.sort_unstable();
    let order: Vec<usize> = ranked.into_iter().map(|(_, position)| position).collect();
    place(items, &order);
}

/// Sorts `items` by `key`, smallest first; items of equal keys keep their order (the order
/// `sort_by_key` gives), for keys that are not one number, such as a time and a lane.
pub fn by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    let keys: Vec<K> = items.iter().map(key).collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    // Behind a reference to `dyn Fn`, every caller's comparison has the same type, so the
    // standard stable sort is compiled once for all of them.
    let by_keys: &dyn Fn(&usize, &usize) -> Ordering = &|a, b| keys[*a].cmp(&keys[*b]);
    order.sort_by(by_keys);
    place(items, &order);
}

/// Moves the items so that slot `at` holds the one that was at `order[at]`, following each
/// cycle of moves once.
fn place<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
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
        fn by_key_gives_the_order_of_the_standard_stable_sort(
            items in proptest::collection::vec((0u8..4, 0u16..3, any::<u32>()), 0..60)
        ) {
            let mut ours = items.clone();
            by_key(&mut ours, |&(a, b, _)| (a, b));
            let mut standard = items;
            standard.sort_by_key(|&(a, b, _)| (a, b));
            prop_assert_eq!(ours, standard);
        }

        #[test]
        fn signed_ranks_keep_the_order_of_their_keys(a in any::<i64>(), b in any::<i64>()) {
            prop_assert_eq!(signed(a).cmp(&signed(b)), a.cmp(&b));
        }
    }
}
