//! A configuration's named entries (Resilience4j's instances and configs): few, looked up by
//! name, listed in name order.
//!
//! A sorted vector rather than a `BTreeMap`: a map's node code is compiled again for every
//! value type, and the page's wasm carried it for each of the four sections.

use std::ops::Index;

/// Entries by name, in name order; a name inserted again replaces its value.
#[derive(Debug, Clone, PartialEq)]
pub struct ByName<V>(Vec<(String, V)>);

impl<V> Default for ByName<V> {
    fn default() -> Self {
        ByName(Vec::new())
    }
}

impl<V> ByName<V> {
    /// Adds `value` under `name`, replacing what that name held.
    pub fn insert(&mut self, name: String, value: V) {
        match self.0.binary_search_by(|(n, _)| n.as_str().cmp(&name)) {
            Ok(at) => self.0[at].1 = value,
            Err(at) => self.0.insert(at, (name, value)),
        }
    }

    /// The value named `name`.
    pub fn get(&self, name: &str) -> Option<&V> {
        self.0
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|at| &self.0[at].1)
    }

    /// Each name and its value, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &V)> {
        self.0.iter().map(|(n, v)| (n.as_str(), v))
    }
}

impl<V> Index<&str> for ByName<V> {
    type Output = V;

    /// The value named `name`; panics when there is none, as a map's index does.
    fn index(&self, name: &str) -> &V {
        self.get(name)
            .unwrap_or_else(|| panic!("no entry named `{name}`"))
    }
}

impl<V> Extend<(String, V)> for ByName<V> {
    fn extend<I: IntoIterator<Item = (String, V)>>(&mut self, entries: I) {
        for (name, value) in entries {
            self.insert(name, value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_answers_as_a_map() {
        // Names inserted out of order and some twice: the later value wins, listing is sorted.
        let entries = [
            ("b", 1),
            ("a", 2),
            ("c", 3),
            ("a", 4),
            ("bb", 5),
            ("", 6),
            ("b", 7),
        ];
        let mut ours = ByName::default();
        let mut map = std::collections::BTreeMap::new();
        for (n, v) in entries {
            ours.insert(n.to_string(), v);
            map.insert(n.to_string(), v);
        }
        let listed: Vec<(String, i32)> = ours.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        let expected: Vec<(String, i32)> = map.clone().into_iter().collect();
        assert_eq!(listed, expected);
        for name in ["a", "b", "bb", "c", "", "d", "ab"] {
            assert_eq!(ours.get(name), map.get(name), "{name}");
        }
        assert_eq!(ours["bb"], 5);
        assert_eq!(ours.iter().count(), map.len());
    }
}
