//! What a user switches on: each resilience pattern the simulator has, by one name, and one
//! descriptor of what the rest of the code asks of it ([`Descriptor`]): its key in links, its
//! words, where it sits (a layer of a dependency's stack, in the order list or outside it, or a
//! guard at the door of `orders`), whether the page offers a switch for it and its place in
//! each profile's order ([`crate::sim::model::Profile`] reads them). A stack
//! switches each of its layers on with its defaults, written once
//! ([`crate::sim::model::StackConfig::switch_on`]).

use serde::{Deserialize, Serialize};

/// A resilience pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pattern {
    /// A timeout on each attempt, cut to what is left of the request budget.
    Timeout,
    /// Retries of a failed call, with back-off and jitter.
    Retry,
    /// A budget shared by every request's retries. It has no place of its own in a stack's
    /// order: the retry layer asks it before each retry.
    RetryBudget,
    /// A circuit breaker around the call.
    Breaker,
    /// A bulkhead: a permit per call in flight.
    Bulkhead,
    /// An Envoy sidecar retrying each try with a per-try timeout.
    Sidecar,
    /// A hedge: another copy of a slow try, the first answer wins.
    Hedge,
    /// Load shedding by priority at the door of `orders`.
    LoadShed,
    /// A rate limit at the door of `orders`: a token bucket, 429 with `Retry-After`.
    RateLimit,
    /// An adaptive concurrency limit on the calls in flight (AIMD on latency), outside every
    /// other layer.
    AdaptiveLimit,
}

/// Where a pattern sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A layer of a dependency's stack, in its order list.
    Layer,
    /// A layer outside every layer of the order list.
    Outermost,
    /// Asked by another layer (the retry budget, by the retries): no place of its own.
    WithinRetries,
    /// A guard at the door of `orders`.
    Door,
}

/// What the code outside a pattern's own files asks of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor {
    /// The pattern described.
    pub pattern: Pattern,
    /// Its key in links (`patterns=timeout,retries`) and element ids.
    pub key: &'static str,
    /// Its name on a switch.
    pub label: &'static str,
    /// Its name inside a sentence (`inventory's circuit breaker`).
    pub name: &'static str,
    /// What a config lacks while it is off (`no retry budget`): the words a key that needs it
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

/// Every pattern's descriptor, in [`Pattern::ALL`]'s order.
const DESCRIPTORS: [Descriptor; 10] = [
    Descriptor {
        pattern: Pattern::Timeout,
        key: "timeout",
        label: "Timeout",
        name: "timeout",
        missing: "no timeout",
        place: Place::Layer,
        switch: true,
        order: [Some(3), Some(2), Some(2), Some(0)],
    },
    Descriptor {
        pattern: Pattern::Retry,
        key: "retries",
        label: "Retries",
        name: "retries",
        missing: "no retries",
        place: Place::Layer,
        switch: true,
        order: [Some(2), Some(0), Some(0), Some(1)],
    },
    Descriptor {
        pattern: Pattern::RetryBudget,
        key: "retry_budget",
        label: "Retry budget",
        name: "retry budget",
        missing: "no retry budget",
        place: Place::WithinRetries,
        switch: true,
        order: [None; 4],
    },
    Descriptor {
        pattern: Pattern::Breaker,
        key: "breaker",
        label: "Circuit breaker",
        name: "circuit breaker",
        missing: "no circuit breaker",
        place: Place::Layer,
        switch: true,
        order: [Some(1), Some(1), Some(1), None],
    },
    Descriptor {
        pattern: Pattern::Bulkhead,
        key: "bulkhead",
        label: "Bulkhead",
        name: "bulkhead",
        missing: "no bulkhead",
        place: Place::Layer,
        switch: true,
        order: [Some(0), Some(3), Some(3), None],
    },
    // The sidecar is set by its keys only: exercise 3's, not a pattern the playground offers.
    Descriptor {
        pattern: Pattern::Sidecar,
        key: "sidecar",
        label: "Sidecar retries",
        name: "sidecar",
        missing: "no sidecar",
        place: Place::Layer,
        switch: false,
        order: [Some(4), None, None, None],
    },
    Descriptor {
        pattern: Pattern::Hedge,
        key: "hedge",
        label: "Hedging",
        name: "hedge",
        missing: "no hedge",
        place: Place::Layer,
        switch: true,
        order: [Some(5), None, None, None],
    },
    Descriptor {
        pattern: Pattern::LoadShed,
        key: "load_shed",
        label: "Load shedding",
        name: "load shedding",
        missing: "no load shedding",
        place: Place::Door,
        switch: true,
        order: [None; 4],
    },
    Descriptor {
        pattern: Pattern::RateLimit,
        key: "rate_limit",
        label: "Rate limit",
        name: "rate limit",
        missing: "no rate limit",
        place: Place::Door,
        switch: true,
        order: [None; 4],
    },
    Descriptor {
        pattern: Pattern::AdaptiveLimit,
        key: "adaptive_limit",
        label: "Adaptive concurrency limit",
        name: "adaptive concurrency limit",
        missing: "no adaptive concurrency limit",
        place: Place::Outermost,
        switch: true,
        order: [None; 4],
    },
];

impl Pattern {
    /// Every pattern.
    pub const ALL: [Pattern; 10] = [
        Pattern::Timeout,
        Pattern::Retry,
        Pattern::RetryBudget,
        Pattern::Breaker,
        Pattern::Bulkhead,
        Pattern::Sidecar,
        Pattern::Hedge,
        Pattern::LoadShed,
        Pattern::RateLimit,
        Pattern::AdaptiveLimit,
    ];

    /// The patterns the page's panel switches, in its order (those whose descriptor says
    /// `switch`; a test checks).
    pub const SWITCHES: [Pattern; 9] = [
        Pattern::Timeout,
        Pattern::Retry,
        Pattern::RetryBudget,
        Pattern::Breaker,
        Pattern::Bulkhead,
        Pattern::LoadShed,
        Pattern::RateLimit,
        Pattern::Hedge,
        Pattern::AdaptiveLimit,
    ];

    /// The patterns profile `profile` (its index in `Profile::KEYS`) has a place for, outside
    /// in, as their descriptors place them. Refused while compiling unless exactly `N`
    /// descriptors take the places `0..N`, one each.
    pub const fn order_of<const N: usize>(profile: usize) -> [Pattern; N] {
        let mut order = [Pattern::Timeout; N];
        let mut taken = [false; N];
        let mut i = 0;
        while i < DESCRIPTORS.len() {
            if let Some(place) = DESCRIPTORS[i].order[profile] {
                let place = place as usize;
                assert!(
                    place < N && !taken[place],
                    "two patterns, or none, in one place"
                );
                order[place] = DESCRIPTORS[i].pattern;
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
        &DESCRIPTORS[self as usize]
    }

    /// Its key in links (`patterns=timeout,retries`) and element ids.
    pub fn key(self) -> &'static str {
        self.describe().key
    }

    /// Its name on a switch.
    pub fn label(self) -> &'static str {
        self.describe().label
    }

    /// Its name inside a sentence (`inventory's circuit breaker`, `no retry budget`).
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
    fn every_descriptor_is_its_patterns_and_names_it_once() {
        let mut keys = Vec::new();
        for (i, p) in Pattern::ALL.into_iter().enumerate() {
            let d = p.describe();
            assert_eq!(d.pattern, p, "DESCRIPTORS is in ALL's order");
            assert_eq!(p as usize, i);
            assert!(!d.key.is_empty() && !d.label.is_empty() && !d.name.is_empty());
            assert_eq!(d.missing, format!("no {}", d.name), "{}", d.key);
            assert_eq!(Pattern::SWITCHES.contains(&p), d.switch, "{}", d.key);
            keys.push(d.key);
        }
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Pattern::ALL.len(), "keys are unique");
    }

    /// The orders the descriptors' places make, as each library documents its own: a place
    /// moved in a descriptor moves a layer of every stack of that profile.
    #[test]
    fn the_descriptors_places_make_each_profiles_order() {
        use Pattern::*;
        assert_eq!(
            Pattern::order_of::<6>(0),
            [Bulkhead, Breaker, Retry, Timeout, Sidecar, Hedge]
        );
        assert_eq!(
            Pattern::order_of::<4>(1),
            [Retry, Breaker, Timeout, Bulkhead]
        );
        assert_eq!(Pattern::order_of::<4>(2), Pattern::order_of::<4>(1));
        assert_eq!(Pattern::order_of::<2>(3), [Timeout, Retry]);
        for d in DESCRIPTORS {
            if d.place != Place::Layer {
                assert_eq!(d.order, [None; 4], "{} has no place in an order", d.key);
            }
        }
    }
}
