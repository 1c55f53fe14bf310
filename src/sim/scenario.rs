//! The lesson's four cascade scenarios as presets, and `key=value` overrides as the command
//! line and permalinks give them (times in seconds, or with an `ms` suffix).

use super::latency::Micros;
use super::model::{
    Arrivals, CascadeConfig, GatewayConfig, HedgeConfig, HistoryBulkhead, OrdersIdempotency,
    PaymentsConfig, SidecarConfig,
};
use crate::resilience::{
    BreakerConfig, BulkheadConfig, Fallback, FallbackPolicy, HedgeDelay, HedgePolicy,
    IdempotencyConfig, Jitter, LoadShedConfig, ParamError, RetryBudgetConfig, RetryPolicy, Window,
};

const MS: Micros = 1_000;
const SECOND: Micros = 1_000_000;

/// One of the lesson's four runs of `cascade.py`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// No protection: every call waits as long as it takes.
    None,
    /// A 300 ms timeout on the call.
    Timeout,
    /// Timeout and circuit breaker.
    Cb,
    /// Timeout, circuit breaker and a bulkhead of 8.
    Bulkhead,
}

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

impl Scenario {
    /// All four, in the lesson's order.
    pub const ALL: [Scenario; 4] = [
        Scenario::None,
        Scenario::Timeout,
        Scenario::Cb,
        Scenario::Bulkhead,
    ];

    /// The short name used on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Scenario::None => "none",
            Scenario::Timeout => "timeout",
            Scenario::Cb => "cb",
            Scenario::Bulkhead => "bulkhead",
        }
    }

    /// The label the lesson's table prints, with the timeout and permits of `cfg`.
    pub fn label(self, cfg: &CascadeConfig) -> String {
        let timeout_ms = cfg.timeout.unwrap_or(0) / MS;
        let permits = cfg.bulkhead.as_ref().map_or(0, |b| b.permits);
        match self {
            Scenario::None => "no protection".to_string(),
            Scenario::Timeout => format!("timeout {timeout_ms}ms"),
            Scenario::Cb => "timeout + circuit breaker".to_string(),
            Scenario::Bulkhead => format!("timeout + CB + bulkhead({permits})"),
        }
    }

    /// Looks a scenario up by its short name.
    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.key() == name)
    }

    /// The lesson's parameters for this scenario.
    pub fn config(self) -> CascadeConfig {
        let base = CascadeConfig {
            rate: 100.0,
            threads: 32,
            duration: 12 * SECOND,
            degrade_at: 3 * SECOND,
            fast: 40 * MS,
            slow: 4 * SECOND,
            ..CascadeConfig::default()
        };
        let timeout = Some(300 * MS);
        match self {
            Scenario::None => base,
            Scenario::Timeout => CascadeConfig { timeout, ..base },
            Scenario::Cb => CascadeConfig {
                timeout,
                breaker: Some(BreakerConfig::cascade_sim()),
                ..base
            },
            Scenario::Bulkhead => CascadeConfig {
                timeout,
                breaker: Some(BreakerConfig::cascade_sim()),
                bulkhead: Some(BulkheadConfig::cascade_sim()),
                ..base
            },
        }
    }
}

/// Every preset the page and the CLI offer: the lesson's four scenarios, the Saturday cascade,
/// one per exercise of lesson 000 and lesson 004's Northwind incident (shared pool and
/// separate bulkheads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// One of the lesson's four `cascade.py` runs.
    Lesson(Scenario),
    /// Lesson 000's opening: Kong pool 200, orders 96 workers, inventory 40 ms -> 4 s at
    /// 10:12:00, failover at 10:12:30, `/catalog` collateral damage, front-end retries,
    /// stale queued requests.
    Saturday,
    /// Exercise 1: a 500 ms request budget over ReserveStock's 300 ms timeout and 3 attempts.
    Ex1Budget,
    /// Exercise 2: 60% "out of stock" counted as failures by a buggy client.
    Ex2BusinessErrors,
    /// Exercise 3: inventory down for 30 s, retries in three layers: front end, library and
    /// Envoy sidecar.
    Ex3RetryLayers,
    /// Lesson 004: inventory 80 ms -> 8 s, Resilience4j values, one bulkhead shared by
    /// inventoryReservation and orderHistoryLookup.
    NorthwindShared,
    /// Lesson 004: the same incident with separate bulkheads of 20.
    NorthwindSeparate,
}

impl Preset {
    /// Every preset, in the order a list shows them.
    pub const ALL: [Preset; 10] = [
        Preset::Lesson(Scenario::None),
        Preset::Lesson(Scenario::Timeout),
        Preset::Lesson(Scenario::Cb),
        Preset::Lesson(Scenario::Bulkhead),
        Preset::Saturday,
        Preset::Ex1Budget,
        Preset::Ex2BusinessErrors,
        Preset::Ex3RetryLayers,
        Preset::NorthwindShared,
        Preset::NorthwindSeparate,
    ];

    /// The short name used in URLs and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Preset::Lesson(s) => s.key(),
            Preset::Saturday => "saturday",
            Preset::Ex1Budget => "ex1-budget",
            Preset::Ex2BusinessErrors => "ex2-business-errors",
            Preset::Ex3RetryLayers => "ex3-retry-layers",
            Preset::NorthwindShared => "northwind-shared",
            Preset::NorthwindSeparate => "northwind-separate",
        }
    }

    /// A title for a list or a heading.
    pub fn title(self) -> &'static str {
        match self {
            Preset::Lesson(Scenario::None) => "Lesson 000: no protection",
            Preset::Lesson(Scenario::Timeout) => "Lesson 000: timeout 300 ms",
            Preset::Lesson(Scenario::Cb) => "Lesson 000: timeout + circuit breaker",
            Preset::Lesson(Scenario::Bulkhead) => "Lesson 000: timeout + breaker + bulkhead(8)",
            Preset::Saturday => "Saturday of Grape Harvest Week: the cascade through Kong",
            Preset::Ex1Budget => "Exercise 1: a 500 ms budget over three attempts",
            Preset::Ex2BusinessErrors => "Exercise 2: \"out of stock\" opens the breaker",
            Preset::Ex3RetryLayers => {
                "Exercise 3: retries in three layers against a dead inventory"
            }
            Preset::NorthwindShared => "Northwind: one bulkhead shared with order history",
            Preset::NorthwindSeparate => "Northwind: separate bulkheads of 20",
        }
    }

    /// Looks a preset up by its key.
    pub fn parse(key: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The wall-clock time of the run's time 0, in seconds after midnight, for presets that
    /// tell a story at a time of day (the Saturday cascade starts at 10:11:50); `None` for
    /// those measured in seconds from the start.
    pub fn clock_start(self) -> Option<u64> {
        match self {
            Preset::Saturday => Some(SATURDAY_CLOCK_START),
            _ => None,
        }
    }

    /// The preset's parameters.
    pub fn config(self) -> CascadeConfig {
        match self {
            Preset::Lesson(s) => s.config(),
            Preset::Saturday => saturday(),
            Preset::Ex1Budget => CascadeConfig {
                timeout: Some(300 * MS),
                retry: Some(RetryPolicy::reserve_stock()),
                request_budget: Some(500 * MS),
                seed: 1,
                ..Scenario::Timeout.config()
            },
            Preset::Ex2BusinessErrors => CascadeConfig {
                // Inventory is healthy all along; 60% of its answers are "out of stock".
                degrade_at: 3_600 * SECOND,
                timeout: Some(300 * MS),
                breaker: Some(BreakerConfig::lesson_000()),
                business_error_rate: 0.6,
                business_errors_trip_breaker: true,
                fallback: Some(FallbackPolicy::reserve_stock()),
                seed: 2,
                ..Scenario::None.config()
            },
            Preset::Ex3RetryLayers => CascadeConfig {
                // Dead: every call fails at once with UNAVAILABLE, from 0 to 30 s. Workers are
                // plentiful so that the retries, not the pool, set the load on inventory.
                threads: 1_000,
                duration: 40 * SECOND,
                degrade_at: 0,
                slow: MS,
                recover_at: Some(30 * SECOND),
                error_rate: 1.0,
                timeout: Some(300 * MS),
                retry: Some(RetryPolicy::reserve_stock()),
                sidecar: Some(SidecarConfig::lesson_000()),
                frontend_retries: 2,
                frontend_backoff: 100 * MS,
                seed: 3,
                ..Scenario::None.config()
            },
            Preset::NorthwindShared => northwind(HistoryBulkhead::Shared),
            Preset::NorthwindSeparate => northwind(HistoryBulkhead::Own(
                BulkheadConfig::northwind_order_history(),
            )),
        }
    }
}

/// 10:11:50 in seconds after midnight: time 0 of the Saturday cascade.
const SATURDAY_CLOCK_START: u64 = 10 * 3_600 + 11 * 60 + 50;

/// Time 0 is 10:11:50; inventory degrades at 10:12:00 and fails over at 10:12:30.
fn saturday() -> CascadeConfig {
    CascadeConfig {
        // 100 POST /orders per second, plus 25 GET /catalog (a fifth of 125).
        rate: 125.0,
        catalog_share: 0.2,
        catalog_latency: 20 * MS,
        threads: 96,
        duration: 60 * SECOND,
        degrade_at: 10 * SECOND,
        recover_at: Some(40 * SECOND),
        fast: 40 * MS,
        slow: 4 * SECOND,
        gateway: Some(GatewayConfig::new(200, Some(60 * SECOND))),
        // Anna gives up after 5 s; the front end retries twice, 1 s apart.
        client_give_up: Some(5 * SECOND),
        frontend_retries: 2,
        frontend_backoff: SECOND,
        seed: 4,
        ..CascadeConfig::default()
    }
}

/// Lesson 004's flash sale: 200 Tomcat workers, 100 requests/s of which a fifth are
/// order-history lookups (20 ms), inventory 80 ms -> 8 s at 10 s; time limiter 2 s, 3 attempts
/// 200 ms doubling, a count window of 20 at 50%, 30 s open, 5 half-open calls,
/// inventoryReservation bulkhead 20 / 100 ms, fallback PendingRetryAsync.
fn northwind(history: HistoryBulkhead) -> CascadeConfig {
    CascadeConfig {
        rate: 100.0,
        threads: 200,
        duration: 60 * SECOND,
        degrade_at: 10 * SECOND,
        fast: 80 * MS,
        slow: 8 * SECOND,
        timeout: Some(2 * SECOND),
        retry: Some(RetryPolicy::northwind()),
        breaker: Some(BreakerConfig::northwind()),
        bulkhead: Some(BulkheadConfig::northwind()),
        history_share: 0.2,
        history_latency: 20 * MS,
        history_bulkhead: history,
        fallback: Some(FallbackPolicy::northwind_reserve_stock()),
        seed: 5,
        ..CascadeConfig::default()
    }
}

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
fn lesson_hedge() -> HedgeConfig {
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
        .ok_or_else(|| ParamError {
            field: "key",
            range: SET_KEYS.join(", "),
            value: key.to_string(),
        })?;
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
        _ => V::I(parse_int(field, value, 1, 100_000)?),
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
        (_, V::I(n)) => {
            p.breaker
                .get_or_insert_with(BreakerConfig::lesson_000)
                .min_calls = n as u32
        }
        _ => {}
    }
    Ok(())
}

/// A whole [`CascadeConfig`] from JSON text (`cascade --config`), checked against every range.
/// An error names the field, by its path in the JSON (`breaker.cooldown`), and what it allows.
pub fn config_from_json(text: &str) -> Result<CascadeConfig, String> {
    let reader = &mut serde_json::Deserializer::from_str(text);
    let config: CascadeConfig = serde_path_to_error::deserialize(reader).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." || path == "?" {
            "the config"
        } else {
            &path
        };
        format!(
            "{field}: {} (allowed: a JSON object with the fields of CascadeConfig)",
            e.inner()
        )
    })?;
    config.validate().map_err(|e| e.to_string())?;
    Ok(config)
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
        _ => {
            return Err(ParamError {
                field: "key",
                range: SET_KEYS.join(", "),
                value: key.to_string(),
            })
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::model::run;
    use crate::sim::trace::Outcome;

    fn share(n: u64, of: u64) -> f64 {
        n as f64 / of as f64
    }

    #[test]
    fn a_timeout_override_leaves_no_protection_unprotected() {
        let mut none = Scenario::None.config();
        apply_set(&mut none, "timeout", "0.2").unwrap();
        assert_eq!(none.timeout, None);
        let mut cb = Scenario::Cb.config();
        apply_set(&mut cb, "timeout", "0.2").unwrap();
        assert_eq!(cb.timeout, Some(200 * MS));
        assert_eq!(Scenario::Timeout.label(&cb), "timeout 200ms");
        assert_eq!(
            Scenario::Bulkhead.label(&Scenario::Bulkhead.config()),
            "timeout + CB + bulkhead(8)"
        );
    }

    #[test]
    fn presets_are_valid() {
        for s in Scenario::ALL {
            s.config().validate().unwrap();
            assert_eq!(Scenario::parse(s.key()), Some(s));
        }
        assert_eq!(Scenario::parse("nope"), None);
    }

    #[test]
    fn sets_parse_seconds_and_ms() {
        let mut c = Scenario::Bulkhead.config();
        apply_set(&mut c, "timeout", "0.5").unwrap();
        assert_eq!(c.timeout, Some(500 * MS));
        apply_set(&mut c, "timeout", "250ms").unwrap();
        assert_eq!(c.timeout, Some(250 * MS));
        apply_set(&mut c, "window", "1").unwrap();
        assert_eq!(c.breaker.as_ref().unwrap().window, Window::Time(SECOND));
        apply_set(&mut c, "probes", "5").unwrap();
        apply_set(&mut c, "permits", "4").unwrap();
        assert_eq!(c.bulkhead.as_ref().unwrap().permits, 4);
        c.validate().unwrap();
    }

    #[test]
    fn bad_sets_name_the_key() {
        let mut c = Scenario::Cb.config();
        for (k, v) in [
            ("threads", "0"),
            ("threads", "abc"),
            ("rate", "-1"),
            ("rate", "NaN"),
            ("timeout", "0"),
            ("failure_ratio", "0"),
            ("failure_ratio", "1.5"),
            ("window", "x"),
            ("seed", "-3"),
        ] {
            let e = apply_set(&mut c, k, v).unwrap_err();
            assert_eq!(e.field, k);
        }
        let e = apply_set(&mut c, "colour", "1").unwrap_err();
        assert_eq!(e.value, "colour");
        assert_eq!(c, Scenario::Cb.config());
    }

    #[test]
    fn hedge_keys_switch_it_on_and_set_it() {
        let mut c = Scenario::Timeout.config();
        apply_set(&mut c, "hedge", "on").unwrap();
        assert_eq!(c.hedge, Some(lesson_hedge()));
        apply_set(&mut c, "hedge_delay", "80ms").unwrap();
        apply_set(&mut c, "max_hedges", "2").unwrap();
        let policy = &c.hedge.as_ref().unwrap().policy;
        assert_eq!(
            (policy.delay, policy.max_hedges),
            (HedgeDelay::Fixed(80 * MS), 2)
        );
        apply_set(&mut c, "hedge_delay", "p99.5").unwrap();
        assert_eq!(
            c.hedge.as_ref().unwrap().policy.delay,
            HedgeDelay::Percentile {
                percentile: 99.5,
                min_samples: 100
            }
        );
        c.validate().unwrap();
        apply_set(&mut c, "hedge", "off").unwrap();
        assert_eq!(c.hedge, None);
        // A delay alone switches it on.
        apply_set(&mut c, "hedge_delay", "0.2").unwrap();
        assert_eq!(c.hedge.unwrap().policy.delay, HedgeDelay::Fixed(200 * MS));
        let mut c = Scenario::Timeout.config();
        for (k, v) in [
            ("hedge", "yes"),
            ("hedge_delay", "0"),
            ("hedge_delay", "61"),
            ("hedge_delay", "p0"),
            ("hedge_delay", "p101"),
            ("hedge_delay", "pNaN"),
            ("hedge_delay", "soon"),
            ("max_hedges", "0"),
            ("max_hedges", "9"),
        ] {
            assert_eq!(apply_set(&mut c, k, v).unwrap_err().field, k, "{k}={v}");
        }
        assert_eq!(c, Scenario::Timeout.config());
    }

    #[test]
    fn the_newer_keys_keep_their_configs_valid() {
        let mut c = Scenario::None.config();
        apply_set(&mut c, "jitter", "decorrelated").unwrap();
        assert_eq!(c.retry.as_ref().unwrap().jitter, Jitter::Decorrelated);
        apply_set(&mut c, "retry_base", "3").unwrap();
        let r = c.retry.as_ref().unwrap();
        assert_eq!(
            (r.base, r.cap),
            (3 * SECOND, 3 * SECOND),
            "the cap follows the base"
        );
        apply_set(&mut c, "retry_cap", "20ms").unwrap();
        let r = c.retry.as_ref().unwrap();
        assert_eq!(
            (r.base, r.cap),
            (20 * MS, 20 * MS),
            "the base follows the cap"
        );
        apply_set(&mut c, "retry_budget_ratio", "0.25").unwrap();
        apply_set(&mut c, "retry_budget_min", "500").unwrap();
        let b = c.retry_budget.as_ref().unwrap();
        assert_eq!((b.ratio, b.minimum, b.cap), (0.25, 500, 500));
        apply_set(&mut c, "shed_normal", "10").unwrap();
        let s = c.load_shed.as_ref().unwrap();
        assert_eq!((s.low, s.normal, s.high), (10, 10, 90));
        apply_set(&mut c, "shed_low", "200").unwrap();
        let s = c.load_shed.as_ref().unwrap();
        assert_eq!((s.low, s.normal, s.high), (200, 200, 200));
        apply_set(&mut c, "shed_high", "50").unwrap();
        let s = c.load_shed.as_ref().unwrap();
        assert_eq!((s.low, s.normal, s.high), (50, 50, 50));
        apply_set(&mut c, "priority_high", "0.5").unwrap();
        apply_set(&mut c, "priority_low", "0.75").unwrap();
        assert_eq!((c.priority_mix.low, c.priority_mix.high), (0.75, 0.25));
        apply_set(&mut c, "priority_high", "0.5").unwrap();
        assert_eq!((c.priority_mix.low, c.priority_mix.high), (0.5, 0.5));
        c.validate().unwrap();
        for (k, v) in [
            ("jitter", "wobbly"),
            ("retry_base", "0"),
            ("priority_low", "2"),
        ] {
            assert_eq!(apply_set(&mut c, k, v).unwrap_err().field, k);
        }
        for key in SET_KEYS {
            assert!(
                !matches!(apply_set(&mut c.clone(), key, "1"), Err(e) if e.field == "key"),
                "{key} is listed but not applied"
            );
        }
    }

    #[test]
    fn only_the_saturday_cascade_runs_on_a_wall_clock() {
        assert_eq!(Preset::Saturday.clock_start(), Some(36_710), "10:11:50");
        for p in Preset::ALL.into_iter().filter(|&p| p != Preset::Saturday) {
            assert_eq!(p.clock_start(), None, "{p:?}");
        }
    }

    #[test]
    fn timeout_scenario_matches_the_lesson() {
        let t = run(&Scenario::Timeout.config()).unwrap();
        assert_eq!(t.sent, 1200);
        assert!((290..=310).contains(&t.outcomes.ok), "{:?}", t.outcomes);
        assert!(
            (890..=910).contains(&t.outcomes.timeout),
            "{:?}",
            t.outcomes
        );
        assert_eq!(t.outcomes.total(), t.sent);
    }

    #[test]
    fn none_scenario_drains_and_queues() {
        let t = run(&Scenario::None.config()).unwrap();
        assert_eq!(t.outcomes.ok, 1200);
        // 900 slow calls on 32 workers: the queue takes close to two minutes to drain.
        assert!(t.end > 100 * SECOND, "end {}", t.end);
        assert!(t.series.iter().any(|b| b.queue_len > 500));
        let mut c = Scenario::None.config();
        c.drain = false;
        let t = run(&c).unwrap();
        assert!(t.outcomes.unfinished > 500, "{:?}", t.outcomes);
        assert_eq!(t.outcomes.total(), 1200);
        assert_eq!(t.outcomes.get(Outcome::Unfinished), t.outcomes.unfinished);
    }

    #[test]
    fn cb_opens_when_the_ten_second_window_tips() {
        let t = run(&Scenario::Cb.config()).unwrap();
        let open = t.first_open().expect("breaker never opened");
        // 300 fast successes in the window; failures land from 3.3 s at 100/s; the ratio
        // reaches 50% with the 300th failure, near 6.3 s.
        assert!(
            (5_500_000..=7_000_000).contains(&open),
            "first open at {open}"
        );
        let o = t.outcomes;
        assert!(share(o.circuit_open, t.sent) > 0.40, "{o:?}");
        assert!(share(o.timeout, t.sent) > 0.22, "{o:?}");
    }

    #[test]
    fn cb_with_one_second_window_opens_early() {
        let mut c = Scenario::Cb.config();
        apply_set(&mut c, "window", "1").unwrap();
        let t = run(&c).unwrap();
        let open = t.first_open().expect("breaker never opened");
        // The last fast call (started at exactly 3 s) ends at 3.04 s; failures end every 10 ms
        // from 3.31 s. At 3.31 s + j×10 ms the 1 s window holds j+1 failures and about 73-j
        // successes, so the ratio reaches 50% at j = 36: 3.67..3.68 s.
        assert!(
            (3_300_000..=3_700_000).contains(&open),
            "first open at {open}"
        );
        assert!(
            share(t.outcomes.circuit_open, t.sent) > 0.6,
            "{:?}",
            t.outcomes
        );
    }
}
