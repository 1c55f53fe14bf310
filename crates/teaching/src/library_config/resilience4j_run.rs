//! A read `resilience4j:` block put to work on a scenario: lesson 004's annotated method
//! (`reserveStock`, its four aspects all named `inventoryReservation`) calls inventory through
//! the `resilience4j` stack profile with those settings; a bulkhead instance named
//! `orderHistoryLookup` gives order history a bulkhead of its own.

use super::resilience4j::{Aspect, AspectOrder, Notice, Parsed, SlidingWindowType};
use crate::resilience::{Jitter, RetryPolicy, SECOND};
use crate::sim::model::{HistoryBulkhead, Profile, Resilience4jStack, SimConfig};

/// The instance name the lesson's annotations on `reserveStock` use.
pub const INVENTORY_INSTANCE: &str = "inventoryReservation";
/// The bulkhead instance of order-history lookups.
pub const HISTORY_INSTANCE: &str = "orderHistoryLookup";

/// Resilience4j sets no cap on an exponential wait; this stands in for "none" (as
/// [`RetryPolicy::northwind`] does).
const NO_CAP: u64 = 60 * SECOND;

/// Puts the settings into `cfg` (its traffic, faults and service stay): the time limiter, the
/// retry, the breaker and the bulkhead of `inventoryReservation`, the history bulkhead, and
/// Resilience4j's semantics with the fallback where `cfg` had it (on `@CircuitBreaker`, as the
/// lesson writes it, unless `cfg` says otherwise). Gives the reader's notices plus what was
/// not simulated; an error names the YAML property whose value the simulator cannot take.
pub fn apply(parsed: &Parsed, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    let mut notices = parsed.notices.clone();
    let c = &parsed.config;
    let mut note = |path: String, message: &str| {
        notices.push(Notice {
            path,
            message: message.to_string(),
        })
    };
    let missing = "no instance of this name: the library's defaults (the annotation names it)";
    let limiter = c
        .time_limiters
        .get(INVENTORY_INSTANCE)
        .cloned()
        .unwrap_or_else(|| {
            note(path("timelimiter"), missing);
            Default::default()
        });
    let retry = c
        .retries
        .get(INVENTORY_INSTANCE)
        .cloned()
        .unwrap_or_else(|| {
            note(path("retry"), missing);
            Default::default()
        });
    let breaker = c
        .circuit_breakers
        .get(INVENTORY_INSTANCE)
        .cloned()
        .unwrap_or_else(|| {
            note(path("circuitbreaker"), missing);
            Default::default()
        });
    let bulkhead = c
        .bulkheads
        .get(INVENTORY_INSTANCE)
        .cloned()
        .unwrap_or_else(|| {
            note(path("bulkhead"), missing);
            Default::default()
        });
    if retry.enable_randomized_wait {
        note(
            format!("{}.enable-randomized-wait", path("retry")),
            "a randomized wait is not simulated; the fixed wait is used",
        );
    }
    if breaker.sliding_window_type == SlidingWindowType::TimeBased {
        note(
            format!("{}.sliding-window-type", path("circuitbreaker")),
            "a time window counts the calls of its last seconds whole (no buckets)",
        );
    }
    if c.aspect_order.outside_in() != AspectOrder::default().outside_in() {
        note(
            "resilience4j.*.*-aspect-order".to_string(),
            &format!(
                "only Spring Boot's default order is simulated (Retry, CircuitBreaker, \
                 TimeLimiter, Bulkhead); the order given was {}",
                order_text(c.aspect_order.outside_in())
            ),
        );
    }
    let settings = Resilience4jStack {
        fallback_on: cfg
            .first_stack()
            .and_then(|s| s.profile.resilience4j())
            .map_or(Resilience4jStack::default().fallback_on, |s| s.fallback_on),
        retry_exceptions: retry.retry_exceptions.clone(),
        retry_ignore_exceptions: retry.ignore_exceptions.clone(),
        breaker_record_exceptions: breaker.record_exceptions.clone(),
        breaker_ignore_exceptions: breaker.ignore_exceptions.clone(),
        backoff_multiplier: retry
            .enable_exponential_backoff
            .then_some(retry.exponential_backoff_multiplier),
        time_limiter_frees_permit: false,
    };
    let stack = cfg.first_stack_mut();
    stack.timeout = Some(limiter.timeout_duration);
    stack.retry = Some(RetryPolicy {
        attempts: retry.max_attempts,
        base: retry.wait_duration,
        cap: retry
            .exponential_max_wait_duration
            .unwrap_or(NO_CAP.max(retry.wait_duration)),
        jitter: Jitter::None,
    });
    stack.breaker = Some(breaker.breaker_config());
    stack.bulkhead = Some(bulkhead.bulkhead_config(INVENTORY_INSTANCE));
    stack.business_errors_trip_breaker = false;
    stack.profile = Profile::Resilience4j(settings);
    let routes = &mut cfg.routes;
    if let Some(history) = c.bulkheads.get(HISTORY_INSTANCE) {
        routes.history_bulkhead = HistoryBulkhead::Own(history.bulkhead_config(HISTORY_INSTANCE));
    } else if routes.history_share > 0.0 {
        routes.history_bulkhead = HistoryBulkhead::Shared;
    }
    cfg.validate().map_err(|e| Notice {
        path: yaml_path(e.field),
        message: format!("{} is out of the simulator's range ({})", e.value, e.range),
    })?;
    Ok(notices)
}

fn path(section: &str) -> String {
    format!("resilience4j.{section}.instances.{INVENTORY_INSTANCE}")
}

/// The YAML property a simulator parameter comes from.
fn yaml_path(field: &str) -> String {
    let (section, property) = match field {
        "attempts" | "retry_attempts" => ("retry", "max-attempts"),
        "retry_base" => ("retry", "wait-duration"),
        "retry_cap" => ("retry", "exponential-max-wait-duration"),
        "backoff_multiplier" => ("retry", "exponential-backoff-multiplier"),
        "retry_exceptions" => ("retry", "retry-exceptions"),
        "retry_ignore_exceptions" => ("retry", "ignore-exceptions"),
        "timeout" => ("timelimiter", "timeout-duration"),
        "window" => ("circuitbreaker", "sliding-window-size"),
        "min_calls" => ("circuitbreaker", "minimum-number-of-calls"),
        "failure_ratio" => ("circuitbreaker", "failure-rate-threshold"),
        "cooldown" => ("circuitbreaker", "wait-duration-in-open-state"),
        "probes" => (
            "circuitbreaker",
            "permitted-number-of-calls-in-half-open-state",
        ),
        "slow_call_threshold" => ("circuitbreaker", "slow-call-duration-threshold"),
        "slow_call_rate" => ("circuitbreaker", "slow-call-rate-threshold"),
        "breaker_record_exceptions" => ("circuitbreaker", "record-exceptions"),
        "breaker_ignore_exceptions" => ("circuitbreaker", "ignore-exceptions"),
        "permits" => ("bulkhead", "max-concurrent-calls"),
        "max_wait" => ("bulkhead", "max-wait-duration"),
        other => return other.to_string(),
    };
    format!("{}.{property}", path(section))
}

fn order_text(order: [Aspect; 5]) -> String {
    order
        .iter()
        .map(|a| format!("{a:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads `text` and applies it to `cfg`: the notices, or the one error that stops the run.
pub fn apply_yaml(text: &str, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    let parsed = super::resilience4j::parse(text)?;
    apply(&parsed, cfg)
}
