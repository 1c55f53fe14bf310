//! A request's time budget: one absolute deadline, fixed when the request arrives and handed
//! down every hop (client -> gateway -> service -> dependency). Each call may only use what is
//! left of it, so an inner timeout can never outlive the caller that is waiting for it.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::Micros;

/// The deadline by which a whole request must be finished, on the caller's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeBudget {
    /// The instant (µs on the caller's clock) after which nobody is waiting for the answer.
    pub deadline: Micros,
}

/// Nothing is left of the budget: the call must not be made at all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("request time budget exhausted")]
pub struct BudgetExhausted;

impl TimeBudget {
    /// A budget of `duration` starting at `now` (e.g. 500 ms for `POST /orders`).
    pub fn from_duration(now: Micros, duration: Micros) -> Self {
        TimeBudget {
            deadline: now.saturating_add(duration),
        }
    }

    /// Time left at `now`; zero once the deadline has passed.
    pub fn remaining(&self, now: Micros) -> Micros {
        self.deadline.saturating_sub(now)
    }

    /// True when nothing is left at `now`.
    pub fn is_exhausted(&self, now: Micros) -> bool {
        self.remaining(now) == 0
    }

    /// The timeout for one call: its own `max` or what is left, whichever is smaller.
    ///
    /// Fails with [`BudgetExhausted`] when nothing is left, so the call is never started.
    pub fn timeout_for(&self, max: Micros, now: Micros) -> Result<Micros, BudgetExhausted> {
        match self.remaining(now) {
            0 => Err(BudgetExhausted),
            left => Ok(left.min(max)),
        }
    }

    /// The budget to hand to the next hop: what is left at `now`, less `margin` (time this hop
    /// keeps for itself to answer once the inner call returns; 0 for none).
    pub fn child(&self, now: Micros, margin: Micros) -> TimeBudget {
        Self::from_duration(now, self.remaining(now).saturating_sub(margin))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::{MS, SECOND};

    #[test]
    fn remaining_counts_down_and_saturates() {
        let b = TimeBudget::from_duration(1_000, 500 * MS);
        assert_eq!(b.deadline, 501_000);
        assert_eq!(b.remaining(1_000), 500 * MS);
        assert_eq!(b.remaining(301_000), 200 * MS);
        assert_eq!(b.remaining(501_000), 0);
        assert_eq!(b.remaining(900_000), 0);
        assert!(b.is_exhausted(501_000));
        assert!(!b.is_exhausted(500_999));
    }

    #[test]
    fn timeout_is_the_smaller_of_max_and_remaining() {
        let b = TimeBudget::from_duration(0, 500 * MS);
        assert_eq!(b.timeout_for(300 * MS, 0), Ok(300 * MS));
        assert_eq!(b.timeout_for(300 * MS, 350 * MS), Ok(150 * MS));
        assert_eq!(b.timeout_for(300 * MS, 500 * MS), Err(BudgetExhausted));
    }

    #[test]
    fn charge_gets_what_the_reservation_left() {
        // Lesson 000, exercise 1(b): a 500 ms budget, 280 ms spent reserving stock; Charge's own
        // 2 s timeout is cut to 220 ms.
        let b = TimeBudget::from_duration(0, 500 * MS);
        assert_eq!(b.timeout_for(2 * SECOND, 280 * MS), Ok(220 * MS));
    }

    #[test]
    fn inner_timeouts_larger_than_outer_ones_are_cut_to_the_outer() {
        // The gateway gives up after 500 ms; orders is configured with 600 ms and its inventory
        // call with 2 s. With the deadline propagated, neither can outlive the gateway.
        let gateway = TimeBudget::from_duration(0, 500 * MS);
        let orders = gateway.child(10 * MS, 0);
        assert_eq!(orders.timeout_for(600 * MS, 10 * MS), Ok(490 * MS));
        let inventory = orders.child(40 * MS, 0);
        let t = inventory.timeout_for(2 * SECOND, 40 * MS).unwrap();
        assert_eq!(t, 460 * MS);
        assert!(40 * MS + t <= gateway.deadline);
    }

    #[test]
    fn child_keeps_a_margin_for_the_hop() {
        let b = TimeBudget::from_duration(0, 220 * MS);
        // inventory hands its SQL query 200 ms of a 220 ms deadline.
        let sql = b.child(0, 20 * MS);
        assert_eq!(sql.remaining(0), 200 * MS);
        // A margin larger than what is left leaves an exhausted child, never an underflow.
        let late = b.child(210 * MS, 20 * MS);
        assert!(late.is_exhausted(210 * MS));
        assert_eq!(late.timeout_for(SECOND, 210 * MS), Err(BudgetExhausted));
    }
}
