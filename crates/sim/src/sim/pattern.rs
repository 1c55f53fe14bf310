//! What a user switches on: each resilience pattern the simulator has, by one name, and one
//! descriptor of what the rest of the code asks of it ([`Descriptor`]): its key in links, its
//! words, where it sits (a layer of a dependency's stack, in the order list or outside it, or a
//! guard at the door of `orders`), whether the page offers a switch for it and its place in
//! each profile's order ([`crate::sim::model::Profile`] reads them). A stack
//! switches each of its layers on with its defaults, written once
//! ([`crate::sim::model::StackConfig::switch_on`]).

use serde::Serialize;

/// A resilience pattern: a name for its [`Descriptor`], which the pattern's own room of the
/// model declares beside its mechanism, as an associated constant of this type. Two patterns
/// are the same when their keys are; the model's `mod.rs` lists every one ([`Pattern::ALL`]).
#[derive(Clone, Copy)]
pub struct Pattern(&'static Descriptor);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.key == other.0.key
    }
}

impl Eq for Pattern {}

impl std::hash::Hash for Pattern {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.key.hash(state);
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({})", self.0.key)
    }
}

impl Serialize for Pattern {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.written)
    }
}

/// Where a pattern sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A layer of a dependency's stack, in its order list.
    Layer,
    /// A layer outside every layer of the order list.
    Outermost,
    /// Asked by another layer (by the retries, before each retry): no place of its own.
    WithinRetries,
    /// A guard at the door of `orders`.
    Door,
}

/// What the code outside a pattern's own files asks of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// Its name in a Trace's JSON and a stack's `order` (`retry`, `breaker`).
    pub written: &'static str,
    /// Its key in links (`patterns=timeout,retries`) and element ids.
    pub key: &'static str,
    /// Its name on a switch.
    pub label: &'static str,
    /// Its name inside a sentence (`inventory's circuit breaker`).
    pub name: &'static str,
    /// What a config lacks while it is off (`no circuit breaker`): the words a key that needs it
    /// is refused with.
    pub missing: &'static str,
    /// Where it sits.
    pub place: Place,
    /// Whether the page's panel offers a switch for it.
    pub switch: bool,
    /// Its place, outside in, in each profile's order (in `Profile::KEYS`' order: lesson
    /// 000's, Resilience4j's, Polly's, a gRPC channel's); `None` where that order has no place
    /// for it.
    pub order: [Option<u8>; 4],
}

impl Pattern {
    /// The pattern `descriptor` describes; its room declares it once, as an associated
    /// constant (`Pattern::TIMEOUT`, beside the timeout's config).
    pub const fn new(descriptor: &'static Descriptor) -> Pattern {
        Pattern(descriptor)
    }

    /// The patterns profile `profile` (its index in `Profile::KEYS`) has a place for, outside
    /// in, as their descriptors place them. Refused while compiling unless exactly `N`
    /// descriptors take the places `0..N`, one each.
    pub const fn order_of<const N: usize>(profile: usize) -> [Pattern; N] {
        let mut order = [Pattern::ALL[0]; N];
        let mut taken = [false; N];
        let mut i = 0;
        while i < Pattern::ALL.len() {
            if let Some(place) = Pattern::ALL[i].0.order[profile] {
                let place = place as usize;
                assert!(
                    place < N && !taken[place],
                    "two patterns, or none, in one place"
                );
                order[place] = Pattern::ALL[i];
                taken[place] = true;
            }
            i += 1;
        }
        let mut place = 0;
        while place < N {
            assert!(taken[place], "a place of the order is empty");
            place += 1;
        }
        order
    }

    /// What the rest of the code asks of it.
    pub const fn describe(self) -> &'static Descriptor {
        self.0
    }

    /// Its key in links (`patterns=timeout,retries`) and element ids.
    pub fn key(self) -> &'static str {
        self.describe().key
    }

    /// Its name on a switch.
    pub fn label(self) -> &'static str {
        self.describe().label
    }

    /// Its name inside a sentence (`inventory's circuit breaker`, `no timeout`).
    pub fn name(self) -> &'static str {
        self.describe().name
    }

    /// True for a layer of a dependency's stack; false for a guard at the door of `orders`.
    pub fn is_a_layer(self) -> bool {
        self.describe().place != Place::Door
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_descriptor_names_its_pattern_once() {
        let mut keys = Vec::new();
        let mut written = Vec::new();
        for p in Pattern::ALL {
            let d = p.describe();
            assert!(!d.key.is_empty() && !d.label.is_empty() && !d.name.is_empty());
            assert!(!d.written.is_empty(), "{}", d.key);
            assert_eq!(d.missing, format!("no {}", d.name), "{}", d.key);
            assert_eq!(Pattern::SWITCHES.contains(&p), d.switch, "{}", d.key);
            keys.push(d.key);
            written.push(d.written);
        }
        for names in [&mut keys, &mut written] {
            names.sort_unstable();
            names.dedup();
            assert_eq!(
                names.len(),
                Pattern::ALL.len(),
                "names are unique: {names:?}"
            );
        }
    }

    /// A pattern is written in a Trace by the name it had as a variant of the old enum, so
    /// traces and their digests read as before.
    #[test]
    fn a_pattern_is_written_by_its_old_name() {
        let written: Vec<String> = Pattern::ALL
            .iter()
            .map(|p| serde_json::to_string(p).unwrap())
            .collect();
        assert_eq!(
            written.join(","),
            "\"timeout\",\"retry\",\"retry_budget\",\"breaker\",\"bulkhead\",\"sidecar\",\
             \"hedge\",\"load_shed\",\"rate_limit\",\"adaptive_limit\""
        );
    }

    /// The orders the descriptors' places make, as each library documents its own: a place
    /// moved in a descriptor moves a layer of every stack of that profile.
    #[test]
    fn the_descriptors_places_make_each_profiles_order() {
        let (bulkhead, breaker, retry, timeout) = (
            Pattern::BULKHEAD,
            Pattern::BREAKER,
            Pattern::RETRY,
            Pattern::TIMEOUT,
        );
        assert_eq!(
            Pattern::order_of::<6>(0),
            [
                bulkhead,
                breaker,
                retry,
                timeout,
                Pattern::SIDECAR,
                Pattern::HEDGE
            ]
        );
        assert_eq!(
            Pattern::order_of::<4>(1),
            [retry, breaker, timeout, bulkhead]
        );
        assert_eq!(Pattern::order_of::<4>(2), Pattern::order_of::<4>(1));
        assert_eq!(Pattern::order_of::<2>(3), [timeout, retry]);
        for p in Pattern::ALL {
            let d = p.describe();
            if d.place != Place::Layer {
                assert_eq!(d.order, [None; 4], "{} has no place in an order", d.key);
            }
        }
    }
}
