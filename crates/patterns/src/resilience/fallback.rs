//! Fallbacks: the answer given when the primary one cannot be had (circuit open, bulkhead full,
//! budget spent, dependency failing). Which fallback, if any, is a business decision made per
//! operation; every use is counted so that a silent degradation cannot go unnoticed.

use serde::{Deserialize, Serialize};

/// The degraded answers the lessons describe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Fallback {
    /// Catalogue stock from the cache, labelled "approximate availability".
    CachedStock,
    /// The order is accepted "pending confirmation" and the saga completes it later.
    PendingConfirmation,
    /// Northwind's provisional order, reconciled asynchronously once inventory is back.
    PendingRetryAsync,
    /// The payment intent is saved and charged later (the order has a fallback, the charge none).
    ChargeLater,
    /// The last known delivery position, shown with its age.
    LastKnownPosition,
    /// The cache is down: read the database directly, behind a small bulkhead.
    DatabaseDirect,
}

impl Fallback {
    /// Every kind, in a fixed order (for counters and legends).
    pub const ALL: [Fallback; 6] = [
        Fallback::CachedStock,
        Fallback::PendingConfirmation,
        Fallback::PendingRetryAsync,
        Fallback::ChargeLater,
        Fallback::LastKnownPosition,
        Fallback::DatabaseDirect,
    ];

    /// A stable label for metrics and logs (`km0_fallback_total{operation}` style).
    pub fn label(self) -> &'static str {
        match self {
            Fallback::CachedStock => "cached_stock",
            Fallback::PendingConfirmation => "pending_confirmation",
            Fallback::PendingRetryAsync => "pending_retry_async",
            Fallback::ChargeLater => "charge_later",
            Fallback::LastKnownPosition => "last_known_position",
            Fallback::DatabaseDirect => "database_direct",
        }
    }
}

/// Who answered a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Served {
    /// The real answer.
    Primary,
    /// A degraded one.
    Fallback(Fallback),
}

/// What an operation does when its primary answer is unavailable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum FallbackPolicy {
    /// Serve this degraded answer.
    Use(Fallback),
    /// No honest degraded answer exists: let the failure through, plainly.
    None {
        /// Why not (shown next to the operation).
        reason: String,
    },
}

impl FallbackPolicy {
    /// Lesson 000, catalogue reading stock: cached stock, "approximate availability".
    pub fn catalog_stock() -> Self {
        FallbackPolicy::Use(Fallback::CachedStock)
    }

    /// Lesson 000, `ReserveStock` while creating an order: pending confirmation.
    pub fn reserve_stock() -> Self {
        FallbackPolicy::Use(Fallback::PendingConfirmation)
    }

    /// Lesson 004 (Northwind), `reserveStock`: a provisional order reconciled later.
    pub fn northwind_reserve_stock() -> Self {
        FallbackPolicy::Use(Fallback::PendingRetryAsync)
    }

    /// Charging a card: no fallback. Faking success would lie about whether money moved.
    pub fn charge() -> Self {
        FallbackPolicy::None {
            reason: "no honest degraded answer for taking money: fail the request plainly"
                .to_string(),
        }
    }

    /// The fallback to serve when the primary fails, if there is one.
    pub fn on_failure(&self) -> Option<Fallback> {
        match self {
            FallbackPolicy::Use(f) => Some(*f),
            FallbackPolicy::None { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for k in Fallback::ALL {
            assert!(seen.insert(k.label()));
        }
    }

    #[test]
    fn charging_has_no_fallback() {
        assert_eq!(FallbackPolicy::charge().on_failure(), None);
        assert!(
            matches!(FallbackPolicy::charge(), FallbackPolicy::None { reason } if !reason.is_empty())
        );
        assert_eq!(
            FallbackPolicy::reserve_stock().on_failure(),
            Some(Fallback::PendingConfirmation)
        );
        assert_eq!(
            FallbackPolicy::northwind_reserve_stock().on_failure(),
            Some(Fallback::PendingRetryAsync)
        );
        assert_eq!(
            FallbackPolicy::catalog_stock().on_failure(),
            Some(Fallback::CachedStock)
        );
    }
}
