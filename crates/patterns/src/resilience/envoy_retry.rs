//! Envoy's retries, as a route and its upstream cluster configure them: which failures the
//! route retries (`retry_on`), the fully jittered exponential back-off between its tries, and
//! the cluster's cap on retries in flight at once (the `max_retries` circuit breaker, or a retry
//! budget that follows the requests in flight). Read from Envoy's router
//! (`retry_state_impl.cc`), its back-off (`backoff_strategy.cc`) and its resource manager
//! (`resource_manager_impl.h`).
//!
//! The policy ([`EnvoyRetryRules`]) is plain data; the mechanism ([`RetriesInFlight`]) is the
//! cluster's count of retries in flight, told when one starts and when it is over.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, MS, SECOND};

/// The failures a route's `retry_on` retries, in the simulator's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RetryOn {
    /// `5xx` or `gateway-error`: a 503 answer, and a try cut by the per-try timeout (Envoy
    /// answers that one 504 itself).
    pub gateway_errors: bool,
    /// `retriable-4xx`: a 409 answer (inventory's "out of stock", which no retry changes).
    pub conflicts: bool,
}

/// What [`RetryOn::parse`] made of a `retry_on` list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedRetryOn {
    /// The conditions the simulator has a failure for.
    pub retry_on: RetryOn,
    /// Envoy's conditions that no failure of the simulator meets (`reset`, `connect-failure`,
    /// ...): kept by Envoy, never met here.
    pub never_met: Vec<String>,
    /// Names Envoy does not know: Envoy ignores them too.
    pub unknown: Vec<String>,
}

/// Envoy's `retry_on` conditions for HTTP that no failure of the simulator meets.
const NEVER_MET: [&str; 8] = [
    "reset",
    "reset-before-request",
    "connect-failure",
    "envoy-ratelimited",
    "refused-stream",
    "retriable-status-codes",
    "retriable-headers",
    "http3-post-connect-failure",
];

impl RetryOn {
    /// Reads a `retry_on` list as Envoy writes it (`"5xx,retriable-4xx"`; spaces around the
    /// names are allowed).
    pub fn parse(list: &str) -> ParsedRetryOn {
        let mut parsed = ParsedRetryOn::default();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "5xx" | "gateway-error" => parsed.retry_on.gateway_errors = true,
                "retriable-4xx" => parsed.retry_on.conflicts = true,
                known if NEVER_MET.contains(&known) => parsed.never_met.push(known.to_string()),
                other => parsed.unknown.push(other.to_string()),
            }
        }
        parsed
    }
}

/// How many retries may be in flight at once across the cluster.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RetryLimit {
    /// The `max_retries` circuit breaker: at most this many (Envoy's default: 3).
    MaxRetries(u32),
    /// A retry budget, which replaces `max_retries` when a cluster has one: `percent` of the
    /// requests active or pending, never below `min_concurrency` (Envoy's defaults: 20 and 3).
    Budget { percent: f64, min_concurrency: u32 },
}

impl RetryLimit {
    /// Envoy's default: the `max_retries` circuit breaker at 3.
    pub const DEFAULT_MAX_RETRIES: u32 = 3;
    /// A retry budget's defaults: 20% and 3.
    pub const DEFAULT_BUDGET_PERCENT: f64 = 20.0;
    /// `min_retry_concurrency`'s default.
    pub const DEFAULT_MIN_CONCURRENCY: u32 = 3;
    /// `max_retries`' and `min_retry_concurrency`'s range here (Envoy takes any 32-bit count).
    pub const COUNT: (u64, u64) = (0, 1_000_000);
    /// A budget's percentage of the requests in flight.
    pub const BUDGET_PERCENT: (f64, f64) = (0.0, 100.0);

    /// Retries allowed in flight while `requests` are active or pending: for a budget, its
    /// percentage of them rounded down, or its minimum if that is more.
    pub fn max(&self, requests: u64) -> u64 {
        match *self {
            RetryLimit::MaxRetries(n) => n.into(),
            RetryLimit::Budget {
                percent,
                min_concurrency,
            } => ((percent / 100.0 * requests as f64) as u64).max(min_concurrency.into()),
        }
    }

    /// Checks the counts and the percentage (0..=100).
    pub fn validate(&self) -> Result<(), ParamError> {
        let (min, max) = Self::COUNT;
        match *self {
            RetryLimit::MaxRetries(n) => {
                ParamError::check_u64("max_retries", n.into(), min, max, "")
            }
            RetryLimit::Budget {
                percent,
                min_concurrency,
            } => {
                let (least, most) = Self::BUDGET_PERCENT;
                ParamError::check_f64("retry_budget_percent", percent, least, most, "%")?;
                ParamError::check_u64(
                    "min_retry_concurrency",
                    min_concurrency.into(),
                    min,
                    max,
                    "",
                )
            }
        }
    }
}

impl Default for RetryLimit {
    fn default() -> Self {
        RetryLimit::MaxRetries(Self::DEFAULT_MAX_RETRIES)
    }
}

/// What Envoy adds to a route's retries: the failures it retries and the cluster's limit on
/// retries in flight. Its back-off ([`envoy_backoff`]) takes the route's base and maximum.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnvoyRetryRules {
    /// The failures the route retries.
    pub retry_on: RetryOn,
    /// The cluster's limit on retries in flight.
    #[serde(default)]
    pub limit: RetryLimit,
}

impl EnvoyRetryRules {
    /// A route that retries 5xx answers (and per-try timeouts), with the cluster's default
    /// `max_retries` of 3: the commonest configuration.
    pub fn on_5xx() -> Self {
        EnvoyRetryRules {
            retry_on: RetryOn {
                gateway_errors: true,
                conflicts: false,
            },
            limit: RetryLimit::default(),
        }
    }
}

/// Envoy's default back-off base (`upstream.base_retry_backoff_ms`): 25 ms; its maximum is 10
/// times the base unless given.
pub const DEFAULT_BASE: Micros = 25 * MS;

/// Envoy's route timeout when a route gives none: 15 s, over every try and wait.
pub const DEFAULT_ROUTE_TIMEOUT: Micros = 15 * SECOND;

/// Envoy's `max_requests` when a cluster gives none: requests in flight to it at once.
pub const DEFAULT_MAX_REQUESTS: u32 = 1024;

/// The interval retry number `retry` (1 for the first) draws its wait below: `base` before the
/// first retry and doubled before each next one while the interval is under half of `max`;
/// from then on `max`.
pub fn backoff_interval(base: Micros, max: Micros, retry: u32) -> Micros {
    let mut interval = base.max(1);
    for _ in 1..retry {
        interval = if interval < max / 2 {
            interval.saturating_mul(2)
        } else {
            max.max(1)
        };
    }
    interval
}

/// Envoy's fully jittered wait before retry number `retry`: uniform in
/// `[0, backoff_interval)`.
pub fn envoy_backoff<R: Rng + ?Sized>(
    base: Micros,
    max: Micros,
    retry: u32,
    rng: &mut R,
) -> Micros {
    rng.gen_range(0..backoff_interval(base, max, retry))
}

/// The cluster's retries in flight: a retry counts from the moment it is granted (its wait
/// included) until its try is over or its request ends.
#[derive(Debug, Clone, PartialEq)]
pub struct RetriesInFlight {
    limit: RetryLimit,
    active: u64,
    overflowed: u64,
}

impl RetriesInFlight {
    /// None in flight yet.
    pub fn new(limit: RetryLimit) -> Self {
        RetriesInFlight {
            limit,
            active: 0,
            overflowed: 0,
        }
    }

    /// A retry is asked for while `requests` are active or pending at the cluster: granted, and
    /// counted in flight, if fewer than the limit are; otherwise it overflows (Envoy's
    /// `upstream_rq_retry_overflow`) and the failure goes back to the caller.
    pub fn try_start(&mut self, requests: u64) -> bool {
        if self.active < self.limit.max(requests) {
            self.active += 1;
            true
        } else {
            self.overflowed += 1;
            false
        }
    }

    /// A retry granted earlier is over.
    pub fn finish(&mut self) {
        self.active = self.active.saturating_sub(1);
    }

    /// Retries in flight now.
    pub fn active(&self) -> u64 {
        self.active
    }

    /// Retries refused by the limit so far.
    pub fn overflowed(&self) -> u64 {
        self.overflowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn the_interval_doubles_from_the_base_until_it_reaches_the_maximum() {
        // The defaults: 25 ms, at most 250 ms.
        let intervals: Vec<u64> = (1..=7)
            .map(|n| backoff_interval(25 * MS, 250 * MS, n) / MS)
            .collect();
        assert_eq!(intervals, [25, 50, 100, 200, 250, 250, 250]);
        // Doubling stops once the interval is half the maximum or more.
        let intervals: Vec<u64> = (1..=4)
            .map(|n| backoff_interval(100 * MS, 300 * MS, n) / MS)
            .collect();
        assert_eq!(intervals, [100, 200, 300, 300]);
    }

    #[test]
    fn a_wait_is_drawn_below_its_interval_and_covers_it() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let waits: Vec<u64> = (0..2_000)
            .map(|_| envoy_backoff(25 * MS, 250 * MS, 2, &mut rng))
            .collect();
        assert!(waits.iter().all(|&w| w < 50 * MS));
        assert!(waits.iter().any(|&w| w < 5 * MS) && waits.iter().any(|&w| w >= 45 * MS));
    }

    #[test]
    fn max_retries_caps_the_retries_in_flight_whatever_the_load() {
        let mut in_flight = RetriesInFlight::new(RetryLimit::default());
        let granted = (0..10).filter(|_| in_flight.try_start(10_000)).count();
        assert_eq!(granted, 3);
        assert_eq!(in_flight.overflowed(), 7);
        in_flight.finish();
        assert!(in_flight.try_start(0), "one slot came back");
        assert!(!in_flight.try_start(0));
    }

    #[test]
    fn a_budget_caps_active_retries_at_its_percentage_never_below_its_minimum() {
        let budget = RetryLimit::Budget {
            percent: 25.0,
            min_concurrency: 3,
        };
        assert_eq!(budget.max(100), 25);
        assert_eq!(budget.max(1_000), 250);
        assert_eq!(budget.max(8), 3, "2 is below the minimum");
        assert_eq!(budget.max(0), 3);
        let mut in_flight = RetriesInFlight::new(budget);
        let granted = (0..40).filter(|_| in_flight.try_start(100)).count();
        assert_eq!(granted, 25);
        // With fewer requests active, the granted retries stay until they are over.
        assert!(!in_flight.try_start(12));
        for _ in 0..23 {
            in_flight.finish();
        }
        assert_eq!(in_flight.active(), 2);
        assert!(in_flight.try_start(12), "2 in flight, 3 allowed");
        assert!(!in_flight.try_start(12));
    }

    #[test]
    fn retry_on_reads_envoys_names_and_says_which_are_never_met() {
        let parsed = RetryOn::parse("5xx, retriable-4xx,reset,bogus");
        assert!(parsed.retry_on.gateway_errors && parsed.retry_on.conflicts);
        assert_eq!(parsed.never_met, ["reset"]);
        assert_eq!(parsed.unknown, ["bogus"]);
        let gateway = RetryOn::parse("gateway-error");
        assert!(gateway.retry_on.gateway_errors && !gateway.retry_on.conflicts);
        assert_eq!(RetryOn::parse("").retry_on, RetryOn::default());
    }

    #[test]
    fn the_limits_ranges_are_checked() {
        assert!(RetryLimit::MaxRetries(0).validate().is_ok());
        let over = RetryLimit::Budget {
            percent: 120.0,
            min_concurrency: 3,
        };
        assert_eq!(over.validate().unwrap_err().field, "retry_budget_percent");
    }
}
