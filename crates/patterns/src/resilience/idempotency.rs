//! Idempotency keys: the client sends the same key with every retry of one operation; the
//! service keeps (key -> response) for a while and answers a repeated key with the stored
//! response instead of doing the work again (creating a second order, charging twice).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, SECOND};

/// How long responses are kept.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IdempotencyConfig {
    /// Time a stored response answers repeats of its key (1 s..=30 days; lesson: 24 h).
    pub ttl: Micros,
}

impl IdempotencyConfig {
    /// Lesson 000: `Idempotency-Key` on `POST /orders`, kept 24 h (in Redis there).
    pub fn lesson_000() -> Self {
        IdempotencyConfig {
            ttl: 24 * 3_600 * SECOND,
        }
    }

    /// `ttl`'s range, which `validate` and the parameter rows share.
    pub const TTL: (Micros, Micros) = (SECOND, 30 * 24 * 3_600 * SECOND);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_micros("ttl", self.ttl, Self::TTL.0, Self::TTL.1)
    }
}

impl Default for IdempotencyConfig {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// The result of presenting a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lookup<R> {
    /// First time (or the old entry had expired): the work was done and its response stored.
    Fresh(R),
    /// A repeat within the TTL: the stored response, the work not done again.
    Replayed(R),
}

impl<R> Lookup<R> {
    /// The response, whichever way it was obtained.
    pub fn into_inner(self) -> R {
        match self {
            Lookup::Fresh(r) | Lookup::Replayed(r) => r,
        }
    }

    /// True for a repeat answered from the store.
    pub fn is_replayed(&self) -> bool {
        matches!(self, Lookup::Replayed(_))
    }
}

/// Stored responses by key, with the instant each was stored.
#[derive(Debug, Clone)]
pub struct IdempotencyStore<R> {
    config: IdempotencyConfig,
    entries: BTreeMap<String, (Micros, R)>,
    duplicates_avoided: u64,
}

impl<R: Clone> IdempotencyStore<R> {
    /// An empty store.
    pub fn new(config: IdempotencyConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(IdempotencyStore {
            config,
            entries: BTreeMap::new(),
            duplicates_avoided: 0,
        })
    }

    /// Repeats answered from the store so far (work, orders, charges not duplicated).
    pub fn duplicates_avoided(&self) -> u64 {
        self.duplicates_avoided
    }

    /// Keys held (expired ones included until replaced or purged).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The stored response for `key` if it is still within its TTL at `now`. Finding one counts
    /// as a duplicate avoided.
    pub fn lookup(&mut self, now: Micros, key: &str) -> Option<R> {
        let (stored_at, response) = self.entries.get(key)?;
        if now.saturating_sub(*stored_at) < self.config.ttl {
            self.duplicates_avoided += 1;
            Some(response.clone())
        } else {
            None
        }
    }

    /// Stores `response` for `key` at `now`, replacing anything held.
    pub fn store(&mut self, now: Micros, key: &str, response: R) {
        self.entries.insert(key.to_string(), (now, response));
    }

    /// Forgets `key` (what a service does when the work behind it failed, so that a retry with
    /// the same key does the work again); returns what was held.
    pub fn remove(&mut self, key: &str) -> Option<R> {
        self.entries.remove(key).map(|(_, r)| r)
    }

    /// Answers a repeat from the store, or runs `make_response` (the real work) and stores its
    /// result.
    pub fn check_or_store(
        &mut self,
        key: &str,
        now: Micros,
        make_response: impl FnOnce() -> R,
    ) -> Lookup<R> {
        if let Some(r) = self.lookup(now, key) {
            return Lookup::Replayed(r);
        }
        let r = make_response();
        self.store(now, key, r.clone());
        Lookup::Fresh(r)
    }

    /// Drops every entry expired at `now`.
    pub fn purge_expired(&mut self, now: Micros) {
        let ttl = self.config.ttl;
        self.entries
            .retain(|_, (stored_at, _)| now.saturating_sub(*stored_at) < ttl);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: Micros = 3_600 * SECOND;

    #[test]
    fn a_repeated_key_returns_the_stored_response_without_redoing_the_work() {
        let mut s = IdempotencyStore::new(IdempotencyConfig::lesson_000()).unwrap();
        let mut orders_created = 0;
        let mut create = |s: &mut IdempotencyStore<u32>, now| {
            s.check_or_store("k-1", now, || {
                orders_created += 1;
                1000 + orders_created
            })
        };
        assert_eq!(create(&mut s, 0), Lookup::Fresh(1001));
        // The front end timed out and retries with the same key.
        assert_eq!(create(&mut s, 5 * SECOND), Lookup::Replayed(1001));
        assert_eq!(create(&mut s, 24 * HOUR - 1), Lookup::Replayed(1001));
        assert_eq!(s.duplicates_avoided(), 2);
        assert_eq!(orders_created, 1);
    }

    #[test]
    fn expired_entries_are_replaced() {
        let mut s = IdempotencyStore::new(IdempotencyConfig::lesson_000()).unwrap();
        s.check_or_store("k", 0, || "first");
        let again = s.check_or_store("k", 24 * HOUR, || "second");
        assert_eq!(again, Lookup::Fresh("second"));
        assert!(!again.is_replayed());
        assert_eq!(s.lookup(24 * HOUR + 1, "k"), Some("second"));
        assert_eq!(s.duplicates_avoided(), 1);
    }

    #[test]
    fn different_keys_are_independent_and_purge_drops_expired() {
        let mut s = IdempotencyStore::new(IdempotencyConfig { ttl: 10 * SECOND }).unwrap();
        s.store(0, "a", 1);
        s.store(5 * SECOND, "b", 2);
        assert_eq!(s.lookup(SECOND, "c"), None);
        s.purge_expired(10 * SECOND);
        assert_eq!(s.len(), 1);
        assert_eq!(s.lookup(10 * SECOND, "b"), Some(2));
        assert_eq!(s.check_or_store("b", 11 * SECOND, || 9).into_inner(), 2);
    }

    #[test]
    fn a_removed_key_is_fresh_again() {
        let mut s = IdempotencyStore::new(IdempotencyConfig::lesson_000()).unwrap();
        s.store(0, "k", 1);
        assert_eq!(s.remove("k"), Some(1));
        assert_eq!(s.remove("k"), None);
        assert_eq!(s.check_or_store("k", SECOND, || 2), Lookup::Fresh(2));
        assert_eq!(s.duplicates_avoided(), 0);
    }

    #[test]
    fn bad_params_name_the_field() {
        let e = IdempotencyStore::<u8>::new(IdempotencyConfig { ttl: 0 }).unwrap_err();
        assert_eq!(e.field, "ttl");
    }
}
