//! `key=value` overrides of a flat config, as the command line, permalinks and the page's
//! knobs give them (times in seconds, or with an `ms` suffix).

use super::latency::Micros;
use super::model::{
    Arrivals, CascadeConfig, GatewayConfig, HedgeConfig, OrdersIdempotency, PaymentsConfig,
    SidecarConfig,
};
use crate::resilience::{
    BreakerConfig, BulkheadConfig, Fallback, FallbackPolicy, HedgeDelay, HedgePolicy,
    IdempotencyConfig, Jitter, LoadShedConfig, ParamError, RetryBudgetConfig, RetryPolicy, Window,
};

const MS: Micros = 1_000;
const SECOND: Micros = 1_000_000;

/// Keys [`apply_set`] accepts.
pub const SET_KEYS: [&str; 66] = [
    "rate",
    "threads",
    "duration",
    "degrade_at",
    "fast",
    "slow",
    "timeout",
    "window",
    "min_calls",
    "failure_ratio",
    "cooldown",
    "probes",
    "permits",
    "max_wait",
    "seed",
    "arrivals",
    "recover_at",
    "error_rate",
    "business_error_rate",
    "fast_p99",
    "slow_p99",
    "attempts",
    "request_budget",
    "client_give_up",
    "frontend_retries",
    "gateway_pool",
    "route_timeout",
    "orders_timeout",
    "catalog_timeout",
    "history_timeout",
    "gateway_retries",
    "catalog_share",
    "history_share",
    "queue_limit",
    "sidecar_retries",
    "hedge",
    "hedge_delay",
    "max_hedges",
    "jitter",
    "retry_base",
    "retry_cap",
    "retry_budget_ratio",
    "retry_budget_min",
    "shed_normal",
    "shed_low",
    "shed_high",
    "priority_low",
    "priority_high",
    "fallback",
    "idempotency_key",
    "idempotency_ttl",
    "payments",
    "payments_fast",
    "payments_slow",
    "payments_fast_p99",
    "payments_slow_p99",
    "payments_degrade_at",
    "payments_recover_at",
    "payments_error_rate",
    "payments_timeout",
    "payments_attempts",
    "payments_permits",
    "payments_max_wait",
    "payments_min_calls",
    "payments_cooldown",
    "payments_window",
];

/// Jitter modes by the name [`apply_set`]'s `jitter` key takes, in the order a list shows them.
pub const JITTER_NAMES: [(&str, Jitter); 4] = [
    ("none", Jitter::None),
    ("full", Jitter::Full),
    ("equal", Jitter::Equal),
    ("decorrelated", Jitter::Decorrelated),
];

fn err(field: &'static str, range: &str, value: &str) -> ParamError {
    ParamError {
        field,
        range: range.to_string(),
        value: value.to_string(),
    }
}

/// Parses a time in seconds (`0.3`) or milliseconds (`300ms`) into microseconds, within
/// `min..=max` microseconds.
pub fn parse_time(
    field: &'static str,
    value: &str,
    min: Micros,
    max: Micros,
) -> Result<Micros, ParamError> {
    let range = format!(
        "{}..={} s (or a number with an ms suffix)",
        fmt_secs(min),
        fmt_secs(max)
    );
    let (number, scale) = match value.strip_suffix("ms") {
        Some(n) => (n, 1_000.0),
        None => (value.strip_suffix('s').unwrap_or(value), 1_000_000.0),
    };
    let v: f64 = number
        .trim()
        .parse()
        .map_err(|_| err(field, &range, value))?;
    let micros = v * scale;
    if !micros.is_finite() || micros < min as f64 - 0.5 || micros > max as f64 + 0.5 {
        return Err(err(field, &range, value));
    }
    Ok(micros.round() as Micros)
}

fn fmt_secs(m: Micros) -> String {
    if m.is_multiple_of(SECOND) {
        (m / SECOND).to_string()
    } else {
        format!("{}", m as f64 / SECOND as f64)
    }
}

/// Parses a whole number within `min..=max`, naming `field` when it is not one.
pub fn parse_int(field: &'static str, value: &str, min: u64, max: u64) -> Result<u64, ParamError> {
    let range = format!("{min}..={max}");
    match value.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(err(field, &range, value)),
    }
}

fn parse_float(field: &'static str, value: &str, min: f64, max: f64) -> Result<f64, ParamError> {
    let range = format!("{min}..={max}");
    match value.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= max => Ok(v),
        _ => Err(err(field, &range, value)),
    }
}

/// Lesson 000's hedge (`GetStock`): one copy more at the observed p95, after 100 samples; the
/// reservation carries an idempotency key.
pub(crate) fn lesson_hedge() -> HedgeConfig {
    HedgeConfig {
        policy: HedgePolicy::lesson_000(),
        idempotency_key: true,
    }
}

/// A hedge delay: a time (`80ms`, `0.08`; 1 µs..=60 s) or a percentile of the latencies seen
/// so far (`p95`; above 0, at most 100).
fn parse_hedge_delay(value: &str) -> Result<HedgeDelay, ParamError> {
    let range = "a time 0.000001..=60 s (or with an ms suffix), or pN for a percentile of the \
                 latencies seen, 0 < N <= 100";
    let bad = || err("hedge_delay", range, value);
    if let Some(p) = value.trim().strip_prefix('p') {
        let percentile: f64 = p.parse().map_err(|_| bad())?;
        if !(percentile.is_finite() && percentile > 0.0 && percentile <= 100.0) {
            return Err(bad());
        }
        return Ok(HedgeDelay::Percentile {
            percentile,
            min_samples: 100,
        });
    }
    parse_time("hedge_delay", value, 1, 60 * SECOND)
        .map(HedgeDelay::Fixed)
        .map_err(|_| bad())
}

/// The error for a key [`apply_set`] does not know.
fn unknown_key(key: &str) -> ParamError {
    ParamError {
        field: "key",
        range: SET_KEYS.join(", "),
        value: key.to_string(),
    }
}

/// Applies one `payments_*` override: payments is switched on (with
/// [`PaymentsConfig::default`]) if it was off, then the field is set. `payments_permits` and
/// `payments_max_wait` give payments a bulkhead if it had none, `payments_min_calls`,
/// `payments_cooldown` and `payments_window` a breaker, `payments_attempts` retries.
fn apply_payments_set(cfg: &mut CascadeConfig, key: &str, value: &str) -> Result<(), ParamError> {
    const HOUR: Micros = 3_600 * SECOND;
    let field: &'static str = SET_KEYS
        .iter()
        .find(|k| **k == key)
        .copied()
        .ok_or_else(|| unknown_key(key))?;
    let time = |min, max| parse_time(field, value, min, max);
    // Parse first, so a bad value leaves the config untouched.
    enum V {
        T(Micros),
        F(f64),
        I(u64),
    }
    let v = match field {
        "payments_fast" | "payments_slow" | "payments_degrade_at" | "payments_recover_at" => {
            V::T(time(0, HOUR)?)
        }
        "payments_fast_p99" | "payments_slow_p99" => V::T(time(1, HOUR)?),
        "payments_timeout" | "payments_cooldown" | "payments_window" => V::T(time(MS, HOUR)?),
        "payments_max_wait" => V::T(time(0, 60 * SECOND)?),
        "payments_error_rate" => V::F(parse_float(field, value, 0.0, 1.0)?),
        "payments_attempts" => V::I(parse_int(field, value, 1, 10)?),
        "payments_permits" => V::I(parse_int(field, value, 1, 10_000)?),
        "payments_min_calls" => V::I(parse_int(field, value, 1, 100_000)?),
        _ => return Err(unknown_key(key)),
    };
    let p = cfg.payments.get_or_insert_with(PaymentsConfig::default);
    match (field, v) {
        ("payments_fast", V::T(t)) => p.fast = t,
        ("payments_slow", V::T(t)) => p.slow = t,
        ("payments_fast_p99", V::T(t)) => p.fast_p99 = Some(t),
        ("payments_slow_p99", V::T(t)) => p.slow_p99 = Some(t),
        ("payments_degrade_at", V::T(t)) => p.degrade_at = Some(t),
        ("payments_recover_at", V::T(t)) => p.recover_at = Some(t),
        ("payments_timeout", V::T(t)) => p.timeout = Some(t),
        ("payments_cooldown", V::T(t)) => {
            p.breaker
                .get_or_insert_with(BreakerConfig::lesson_000)
                .cooldown = t
        }
        ("payments_window", V::T(t)) => {
            p.breaker
                .get_or_insert_with(BreakerConfig::lesson_000)
                .window = Window::Time(t)
        }
        ("payments_max_wait", V::T(t)) => {
            p.bulkhead
                .get_or_insert_with(BulkheadConfig::cascade_sim)
                .max_wait = t
        }
        ("payments_error_rate", V::F(r)) => p.error_rate = r,
        ("payments_attempts", V::I(n)) => {
            p.retry.get_or_insert_with(RetryPolicy::lesson_000).attempts = n as u32
        }
        ("payments_permits", V::I(n)) => {
            p.bulkhead
                .get_or_insert_with(BulkheadConfig::cascade_sim)
                .permits = n as u32
        }
        ("payments_min_calls", V::I(n)) => {
            p.breaker
                .get_or_insert_with(BreakerConfig::lesson_000)
                .min_calls = n as u32
        }
        _ => {}
    }
    Ok(())
}

/// Applies one `key=value` override to `cfg`. `timeout` only touches a scenario with a timeout,
/// breaker keys one with a breaker and bulkhead keys one with a bulkhead, so `window=1` or
/// `timeout=0.2` can be applied to all four and "no protection" stays unprotected.
/// An unknown key, a malformed number or a value out of range is an error naming the key.
pub fn apply_set(cfg: &mut CascadeConfig, key: &str, value: &str) -> Result<(), ParamError> {
    match key {
        "rate" => cfg.rate = parse_float("rate", value, 0.1, 10_000.0)?,
        "threads" => cfg.threads = parse_int("threads", value, 1, 10_000)? as u32,
        "duration" => cfg.duration = parse_time("duration", value, MS, 600 * SECOND)?,
        "degrade_at" => cfg.degrade_at = parse_time("degrade_at", value, 0, 3_600 * SECOND)?,
        "fast" => cfg.fast = parse_time("fast", value, 0, 3_600 * SECOND)?,
        "slow" => cfg.slow = parse_time("slow", value, 0, 3_600 * SECOND)?,
        "timeout" => {
            let t = parse_time("timeout", value, MS, 3_600 * SECOND)?;
            if cfg.timeout.is_some() {
                cfg.timeout = Some(t);
            }
        }
        "window" => {
            let w = parse_time("window", value, MS, 3_600 * SECOND)?;
            if let Some(b) = cfg.breaker.as_mut() {
                b.window = Window::Time(w);
            }
        }
        "min_calls" => {
            let v = parse_int("min_calls", value, 1, 100_000)? as u32;
            if let Some(b) = cfg.breaker.as_mut() {
                b.min_calls = v;
            }
        }
        "failure_ratio" => {
            let v = parse_float("failure_ratio", value, 0.0, 1.0)?;
            if v <= 0.0 {
                return Err(err("failure_ratio", "0 (exclusive)..=1", value));
            }
            if let Some(b) = cfg.breaker.as_mut() {
                b.failure_ratio = v;
            }
        }
        "cooldown" => {
            let v = parse_time("cooldown", value, MS, 3_600 * SECOND)?;
            if let Some(b) = cfg.breaker.as_mut() {
                b.cooldown = v;
            }
        }
        "probes" => {
            let v = parse_int("probes", value, 1, 1_000)? as u32;
            if let Some(b) = cfg.breaker.as_mut() {
                b.half_open_probes = v;
            }
        }
        "permits" => {
            let v = parse_int("permits", value, 1, 10_000)? as u32;
            if let Some(b) = cfg.bulkhead.as_mut() {
                b.permits = v;
            }
        }
        "max_wait" => {
            let v = parse_time("max_wait", value, 0, 60 * SECOND)?;
            if let Some(b) = cfg.bulkhead.as_mut() {
                b.max_wait = v;
            }
        }
        "seed" => cfg.seed = parse_int("seed", value, 0, u64::MAX)?,
        "arrivals" => {
            cfg.arrivals = match value.trim() {
                "even" => Arrivals::Even,
                "poisson" => Arrivals::Poisson,
                _ => return Err(err("arrivals", "even, poisson", value)),
            }
        }
        "recover_at" => cfg.recover_at = Some(parse_time("recover_at", value, 0, 3_600 * SECOND)?),
        "error_rate" => cfg.error_rate = parse_float("error_rate", value, 0.0, 1.0)?,
        "business_error_rate" => {
            cfg.business_error_rate = parse_float("business_error_rate", value, 0.0, 1.0)?
        }
        "fast_p99" => cfg.fast_p99 = Some(parse_time("fast_p99", value, 1, 3_600 * SECOND)?),
        "slow_p99" => cfg.slow_p99 = Some(parse_time("slow_p99", value, 1, 3_600 * SECOND)?),
        "attempts" => {
            let n = parse_int("attempts", value, 1, 10)? as u32;
            cfg.retry
                .get_or_insert_with(RetryPolicy::lesson_000)
                .attempts = n;
        }
        "request_budget" => {
            cfg.request_budget = Some(parse_time("request_budget", value, MS, 3_600 * SECOND)?)
        }
        "jitter" => {
            let names: Vec<&str> = JITTER_NAMES.iter().map(|(n, _)| *n).collect();
            let jitter = JITTER_NAMES
                .iter()
                .find(|(n, _)| *n == value.trim())
                .map(|(_, j)| *j)
                .ok_or_else(|| err("jitter", &names.join(", "), value))?;
            cfg.retry.get_or_insert_with(RetryPolicy::lesson_000).jitter = jitter;
        }
        "retry_base" => {
            // The cap follows a base raised past it, so the back-off stays valid.
            let base = parse_time("retry_base", value, 1, 60 * SECOND)?;
            let retry = cfg.retry.get_or_insert_with(RetryPolicy::lesson_000);
            retry.base = base;
            retry.cap = retry.cap.max(base);
        }
        "retry_cap" => {
            // The base follows a cap lowered under it.
            let cap = parse_time("retry_cap", value, 1, 600 * SECOND)?;
            let retry = cfg.retry.get_or_insert_with(RetryPolicy::lesson_000);
            retry.cap = cap;
            retry.base = retry.base.min(cap);
        }
        "retry_budget_ratio" => {
            let ratio = parse_float("retry_budget_ratio", value, 0.0, 1.0)?;
            cfg.retry_budget
                .get_or_insert_with(RetryBudgetConfig::lesson_000)
                .ratio = ratio;
        }
        "retry_budget_min" => {
            // The saving cap follows a starting credit raised past it.
            let minimum = parse_int("retry_budget_min", value, 0, 1_000_000)? as u32;
            let budget = cfg
                .retry_budget
                .get_or_insert_with(RetryBudgetConfig::lesson_000);
            budget.minimum = minimum;
            budget.cap = budget.cap.max(minimum).max(1);
        }
        "shed_normal" => {
            // Limits stay ordered low <= normal <= high: the others move with this one.
            let limit = parse_int("shed_normal", value, 0, 1_000_000)? as u32;
            let shed = cfg.load_shed.get_or_insert_with(LoadShedConfig::lesson_000);
            shed.normal = limit;
            shed.low = shed.low.min(limit);
            shed.high = shed.high.max(limit);
        }
        "shed_low" => {
            let limit = parse_int("shed_low", value, 0, 1_000_000)? as u32;
            let shed = cfg.load_shed.get_or_insert_with(LoadShedConfig::lesson_000);
            shed.low = limit;
            shed.normal = shed.normal.max(limit);
            shed.high = shed.high.max(limit);
        }
        "shed_high" => {
            let limit = parse_int("shed_high", value, 0, 1_000_000)? as u32;
            let shed = cfg.load_shed.get_or_insert_with(LoadShedConfig::lesson_000);
            shed.high = limit;
            shed.normal = shed.normal.min(limit);
            shed.low = shed.low.min(limit);
        }
        "priority_low" => {
            // The other share gives way so that the two still add up to at most 1.
            let low = parse_float("priority_low", value, 0.0, 1.0)?;
            cfg.priority_mix.low = low;
            cfg.priority_mix.high = cfg.priority_mix.high.min(1.0 - low);
        }
        "priority_high" => {
            let high = parse_float("priority_high", value, 0.0, 1.0)?;
            cfg.priority_mix.high = high;
            cfg.priority_mix.low = cfg.priority_mix.low.min(1.0 - high);
        }
        "client_give_up" => {
            cfg.client_give_up = Some(parse_time("client_give_up", value, MS, 3_600 * SECOND)?)
        }
        "frontend_retries" => {
            cfg.frontend_retries = parse_int("frontend_retries", value, 0, 5)? as u32
        }
        "gateway_pool" => {
            let pool = parse_int("gateway_pool", value, 1, 100_000)? as u32;
            cfg.gateway
                .get_or_insert(GatewayConfig::new(pool, None))
                .pool = pool;
        }
        "route_timeout" => {
            let t = parse_time("route_timeout", value, MS, 3_600 * SECOND)?;
            if let Some(g) = cfg.gateway.as_mut() {
                g.route_timeout = Some(t);
            }
        }
        "orders_timeout" | "catalog_timeout" | "history_timeout" => {
            let field = match key {
                "orders_timeout" => "orders_timeout",
                "catalog_timeout" => "catalog_timeout",
                _ => "history_timeout",
            };
            let t = parse_time(field, value, MS, 3_600 * SECOND)?;
            if let Some(g) = cfg.gateway.as_mut() {
                let slot = match field {
                    "orders_timeout" => &mut g.route_timeouts.orders,
                    "catalog_timeout" => &mut g.route_timeouts.catalog,
                    _ => &mut g.route_timeouts.order_history,
                };
                *slot = Some(t);
            }
        }
        "gateway_retries" => {
            let n = parse_int("gateway_retries", value, 0, 10)? as u32;
            if let Some(g) = cfg.gateway.as_mut() {
                g.retries = n;
            }
        }
        "catalog_share" => cfg.catalog_share = parse_float("catalog_share", value, 0.0, 1.0)?,
        "history_share" => cfg.history_share = parse_float("history_share", value, 0.0, 1.0)?,
        "sidecar_retries" => {
            let n = parse_int("sidecar_retries", value, 0, 5)? as u32;
            cfg.sidecar
                .get_or_insert_with(SidecarConfig::lesson_000)
                .retries = n;
        }
        "queue_limit" => cfg.queue_limit = Some(parse_int("queue_limit", value, 1, 10_000_000)?),
        "hedge" => match value.trim() {
            "on" => {
                cfg.hedge.get_or_insert_with(lesson_hedge);
            }
            "off" => cfg.hedge = None,
            _ => return Err(err("hedge", "on, off", value)),
        },
        "hedge_delay" => {
            let delay = parse_hedge_delay(value)?;
            let hedge = cfg.hedge.get_or_insert_with(lesson_hedge);
            hedge.policy.delay = match (delay, hedge.policy.delay) {
                // A new percentile keeps the samples the old one waited for.
                (
                    HedgeDelay::Percentile { percentile, .. },
                    HedgeDelay::Percentile { min_samples, .. },
                ) => HedgeDelay::Percentile {
                    percentile,
                    min_samples,
                },
                (delay, _) => delay,
            };
        }
        "max_hedges" => {
            let n = parse_int("max_hedges", value, 1, 8)? as u32;
            cfg.hedge.get_or_insert_with(lesson_hedge).policy.max_hedges = n;
        }
        "fallback" => {
            let v = value.trim();
            cfg.fallback = match v {
                "on" => Some(FallbackPolicy::reserve_stock()),
                "off" => None,
                "none" => Some(FallbackPolicy::None {
                    reason: "switched off on the command line".to_string(),
                }),
                _ => Some(FallbackPolicy::Use(
                    Fallback::ALL
                        .into_iter()
                        .find(|f| f.label() == v)
                        .ok_or_else(|| {
                            let labels: Vec<&str> =
                                Fallback::ALL.iter().map(|f| f.label()).collect();
                            err(
                                "fallback",
                                &format!("on, off, none, {}", labels.join(", ")),
                                value,
                            )
                        })?,
                )),
            };
        }
        "idempotency_key" => {
            let key = match value.trim() {
                "on" => true,
                "off" => false,
                _ => return Err(err("idempotency_key", "on, off", value)),
            };
            cfg.idempotency
                .get_or_insert_with(|| OrdersIdempotency {
                    key,
                    store: IdempotencyConfig::lesson_000(),
                })
                .key = key;
        }
        "idempotency_ttl" => {
            let ttl = parse_time("idempotency_ttl", value, SECOND, 30 * 24 * 3_600 * SECOND)?;
            cfg.idempotency
                .get_or_insert_with(|| OrdersIdempotency {
                    key: true,
                    store: IdempotencyConfig::lesson_000(),
                })
                .store
                .ttl = ttl;
        }
        "payments" => match value.trim() {
            "on" => {
                cfg.payments.get_or_insert_with(PaymentsConfig::default);
            }
            "off" => cfg.payments = None,
            _ => return Err(err("payments", "on, off", value)),
        },
        k if k.starts_with("payments_") => apply_payments_set(cfg, k, value)?,
        _ => return Err(unknown_key(key)),
    }
    Ok(())
}
