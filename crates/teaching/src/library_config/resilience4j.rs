//! A `resilience4j:` block of a Spring Boot `application.yml`, read into typed settings with
//! Resilience4j 2.2.0's defaults filled in, so that a pasted configuration can be simulated.
//!
//! What is read: `instances` and `configs` (with `base-config`, and `configs.default` applying
//! to every instance that names no base) of `circuitbreaker`, `retry`, `bulkhead` and
//! `timelimiter`, and the aspect-order properties. Durations are written as Spring Boot takes
//! them (`2s`, `200ms`, `1m`, ISO-8601 `PT2S`, or a bare number of milliseconds). Anything
//! else (an unknown key, a value of the wrong kind or out of range) becomes a [`Notice`] naming
//! its path, and the library's default is used in its place; only text that is not YAML at all
//! is refused.

use super::by_name::ByName;

use super::yaml::{self, Yaml};

use crate::resilience::circuit_breaker::{BreakerConfig, HalfOpenRule, Mode, Window};
use crate::resilience::{BulkheadConfig, Micros, MS, SECOND};

/// Something in the YAML that was not used as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// Where, as a dotted path (`resilience4j.retry.instances.inventoryReservation.max-attempts`).
    pub path: String,
    /// What was wrong and what was used instead.
    pub message: String,
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// How a circuit breaker's sliding window is measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlidingWindowType {
    /// The last `sliding-window-size` calls (the default).
    CountBased,
    /// The calls of the last `sliding-window-size` seconds.
    TimeBased,
}

/// One `circuitbreaker` instance, every property resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct CircuitBreakerSettings {
    /// `sliding-window-type` (default COUNT_BASED).
    pub sliding_window_type: SlidingWindowType,
    /// `sliding-window-size`: calls, or seconds for a time window (default 100).
    pub sliding_window_size: u32,
    /// `minimum-number-of-calls` (default 100; a count window caps it at its size).
    pub minimum_number_of_calls: u32,
    /// `failure-rate-threshold`, percent (default 50).
    pub failure_rate_threshold: f64,
    /// `slow-call-rate-threshold`, percent (default 100).
    pub slow_call_rate_threshold: f64,
    /// `slow-call-duration-threshold` (default 60 s).
    pub slow_call_duration_threshold: Micros,
    /// `wait-duration-in-open-state` (default 60 s).
    pub wait_duration_in_open_state: Micros,
    /// `permitted-number-of-calls-in-half-open-state` (default 10).
    pub permitted_calls_in_half_open_state: u32,
    /// `automatic-transition-from-open-to-half-open-enabled` (default false).
    pub automatic_transition: bool,
    /// `record-exceptions`: empty means every exception is recorded as a failure.
    pub record_exceptions: Vec<String>,
    /// `ignore-exceptions`: neither failure nor success for the breaker.
    pub ignore_exceptions: Vec<String>,
}

impl Default for CircuitBreakerSettings {
    fn default() -> Self {
        CircuitBreakerSettings {
            sliding_window_type: SlidingWindowType::CountBased,
            sliding_window_size: 100,
            minimum_number_of_calls: 100,
            failure_rate_threshold: 50.0,
            slow_call_rate_threshold: 100.0,
            slow_call_duration_threshold: 60 * SECOND,
            wait_duration_in_open_state: 60 * SECOND,
            permitted_calls_in_half_open_state: 10,
            automatic_transition: false,
            record_exceptions: Vec::new(),
            ignore_exceptions: Vec::new(),
        }
    }
}

impl CircuitBreakerSettings {
    /// The minimum the breaker really waits for: a count window never needs more calls than
    /// it holds (Resilience4j caps it in `CircuitBreakerMetrics`, not in the config).
    pub fn effective_minimum_calls(&self) -> u32 {
        match self.sliding_window_type {
            SlidingWindowType::CountBased => {
                self.minimum_number_of_calls.min(self.sliding_window_size)
            }
            SlidingWindowType::TimeBased => self.minimum_number_of_calls,
        }
    }

    /// The playground's breaker with these settings and Resilience4j's half-open rule.
    pub fn breaker_config(&self) -> BreakerConfig {
        BreakerConfig {
            window: match self.sliding_window_type {
                SlidingWindowType::CountBased => Window::Count(self.sliding_window_size),
                SlidingWindowType::TimeBased => {
                    Window::Time(u64::from(self.sliding_window_size) * SECOND)
                }
            },
            min_calls: self.effective_minimum_calls(),
            failure_ratio: self.failure_rate_threshold / 100.0,
            cooldown: self.wait_duration_in_open_state,
            half_open_probes: self.permitted_calls_in_half_open_state,
            slow_call_threshold: Some(self.slow_call_duration_threshold),
            slow_call_rate: self.slow_call_rate_threshold / 100.0,
            mode: Mode::Normal,
            half_open_rule: HalfOpenRule::RateOverPermitted,
            judged_after_failures_only: false,
        }
    }
}

/// One `retry` instance, every property resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct RetrySettings {
    /// `max-attempts`, the first call included (default 3).
    pub max_attempts: u32,
    /// `wait-duration` before the first retry (default 500 ms).
    pub wait_duration: Micros,
    /// `enable-exponential-backoff` (default false: every wait is `wait-duration`).
    pub enable_exponential_backoff: bool,
    /// `exponential-backoff-multiplier` (default 1.5; read only with the backoff enabled).
    pub exponential_backoff_multiplier: f64,
    /// `exponential-max-wait-duration` (no cap by default).
    pub exponential_max_wait_duration: Option<Micros>,
    /// `enable-randomized-wait` (default false).
    pub enable_randomized_wait: bool,
    /// `randomized-wait-factor` (default 0.5).
    pub randomized_wait_factor: f64,
    /// `retry-exceptions`: when given, only these are retried.
    pub retry_exceptions: Vec<String>,
    /// `ignore-exceptions`: never retried (this list does not reach the breaker).
    pub ignore_exceptions: Vec<String>,
}

impl Default for RetrySettings {
    fn default() -> Self {
        RetrySettings {
            max_attempts: 3,
            wait_duration: 500 * MS,
            enable_exponential_backoff: false,
            exponential_backoff_multiplier: 1.5,
            exponential_max_wait_duration: None,
            enable_randomized_wait: false,
            randomized_wait_factor: 0.5,
            retry_exceptions: Vec::new(),
            ignore_exceptions: Vec::new(),
        }
    }
}

impl RetrySettings {
    /// The wait before retry number `retry` (1 for the first retry), without randomisation.
    pub fn wait_before_retry(&self, retry: u32) -> Micros {
        if !self.enable_exponential_backoff {
            return self.wait_duration;
        }
        let factor = self
            .exponential_backoff_multiplier
            .powi(retry.saturating_sub(1) as i32);
        let wait = (self.wait_duration as f64 * factor).min(u64::MAX as f64) as Micros;
        self.exponential_max_wait_duration
            .map_or(wait, |cap| wait.min(cap))
    }

    /// Whether an exception of this class is retried: not ignored, and listed when a list of
    /// retried exceptions is given (otherwise every exception is).
    pub fn retries(&self, exception: &str) -> bool {
        let named = |list: &[String]| list.iter().any(|e| class_matches(e, exception));
        !named(&self.ignore_exceptions)
            && (self.retry_exceptions.is_empty() || named(&self.retry_exceptions))
    }
}

impl CircuitBreakerSettings {
    /// Whether an exception of this class is recorded as a failure: not ignored, and listed
    /// when a list of recorded exceptions is given (otherwise every exception is).
    pub fn records(&self, exception: &str) -> bool {
        let named = |list: &[String]| list.iter().any(|e| class_matches(e, exception));
        !named(&self.ignore_exceptions)
            && (self.record_exceptions.is_empty() || named(&self.record_exceptions))
    }
}

/// A configured class name matches the short or the fully qualified name of an exception.
fn class_matches(configured: &str, exception: &str) -> bool {
    configured == exception || configured.rsplit('.').next() == Some(exception)
}

/// One semaphore `bulkhead` instance, every property resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct BulkheadSettings {
    /// `max-concurrent-calls` (default 25).
    pub max_concurrent_calls: u32,
    /// `max-wait-duration` (default 0: refuse at once).
    pub max_wait_duration: Micros,
}

impl Default for BulkheadSettings {
    fn default() -> Self {
        BulkheadSettings {
            max_concurrent_calls: 25,
            max_wait_duration: 0,
        }
    }
}

impl BulkheadSettings {
    /// The playground's bulkhead for the named dependency.
    pub fn bulkhead_config(&self, dependency: &str) -> BulkheadConfig {
        BulkheadConfig {
            dependency: dependency.to_string(),
            permits: self.max_concurrent_calls,
            max_wait: self.max_wait_duration,
        }
    }
}

/// One `timelimiter` instance, every property resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeLimiterSettings {
    /// `timeout-duration` (default 1 s).
    pub timeout_duration: Micros,
    /// `cancel-running-future` (default true; a `CompletableFuture` is not interrupted by it).
    pub cancel_running_future: bool,
}

impl Default for TimeLimiterSettings {
    fn default() -> Self {
        TimeLimiterSettings {
            timeout_duration: SECOND,
            cancel_running_future: true,
        }
    }
}

/// The Spring aspects' order values; the lowest wraps outermost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AspectOrder {
    /// `resilience4j.retry.retry-aspect-order` (default `Integer.MAX_VALUE - 5`).
    pub retry: i64,
    /// `resilience4j.circuitbreaker.circuit-breaker-aspect-order` (default `MAX - 4`).
    pub circuit_breaker: i64,
    /// `resilience4j.ratelimiter.rate-limiter-aspect-order` (default `MAX - 3`).
    pub rate_limiter: i64,
    /// `resilience4j.timelimiter.time-limiter-aspect-order` (default `MAX - 2`).
    pub time_limiter: i64,
    /// `resilience4j.bulkhead.bulkhead-aspect-order` (default `MAX - 1`).
    pub bulkhead: i64,
}

const LOWEST_PRECEDENCE: i64 = i32::MAX as i64;

impl Default for AspectOrder {
    fn default() -> Self {
        AspectOrder {
            retry: LOWEST_PRECEDENCE - 5,
            circuit_breaker: LOWEST_PRECEDENCE - 4,
            rate_limiter: LOWEST_PRECEDENCE - 3,
            time_limiter: LOWEST_PRECEDENCE - 2,
            bulkhead: LOWEST_PRECEDENCE - 1,
        }
    }
}

/// A Resilience4j aspect, as the order ranks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    /// `@Retry`.
    Retry,
    /// `@CircuitBreaker`.
    CircuitBreaker,
    /// `@RateLimiter`.
    RateLimiter,
    /// `@TimeLimiter`.
    TimeLimiter,
    /// `@Bulkhead`.
    Bulkhead,
}

impl AspectOrder {
    /// The aspects from the outermost in (equal values keep the default ranking).
    pub fn outside_in(&self) -> [Aspect; 5] {
        let mut ranked = [
            (self.retry, Aspect::Retry),
            (self.circuit_breaker, Aspect::CircuitBreaker),
            (self.rate_limiter, Aspect::RateLimiter),
            (self.time_limiter, Aspect::TimeLimiter),
            (self.bulkhead, Aspect::Bulkhead),
        ];
        crate::sort::by_rank(&mut ranked, |&(order, _)| crate::sort::signed(order));
        ranked.map(|(_, aspect)| aspect)
    }
}

/// Everything read from one `resilience4j:` block.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Resilience4jConfig {
    /// `circuitbreaker.instances`, by name.
    pub circuit_breakers: ByName<CircuitBreakerSettings>,
    /// `retry.instances`, by name.
    pub retries: ByName<RetrySettings>,
    /// `bulkhead.instances`, by name.
    pub bulkheads: ByName<BulkheadSettings>,
    /// `timelimiter.instances`, by name.
    pub time_limiters: ByName<TimeLimiterSettings>,
    /// The aspects' order.
    pub aspect_order: AspectOrder,
}

/// A configuration read, with what in it was not used as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The settings, defaults filled in.
    pub config: Resilience4jConfig,
    /// Unknown keys and bad values, each with its path.
    pub notices: Vec<Notice>,
}

/// Reads YAML text holding a `resilience4j:` block (at the top, or under `spring:`-style
/// siblings that are passed over). Refuses only text that is not YAML or has no such block.
pub fn parse(text: &str) -> Result<Parsed, Notice> {
    let docs = yaml::load(text).map_err(|e| Notice {
        path: format!("line {}", e.line),
        message: format!("not valid YAML: {}", e.message),
    })?;
    let root = docs
        .iter()
        .find_map(|doc| {
            doc.get("resilience4j")
                .filter(|block| block.as_hash().is_some())
        })
        .ok_or_else(|| Notice {
            path: "resilience4j".to_string(),
            message: "no `resilience4j:` block found".to_string(),
        })?;
    let mut reader = Reader::default();
    let config = reader.root(root);
    Ok(Parsed {
        config,
        notices: reader.notices,
    })
}

#[derive(Default)]
struct Reader {
    notices: Vec<Notice>,
}

/// Spring's relaxed binding: `max-attempts`, `maxAttempts` and `max_attempts` are one key.
fn canonical(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push('-');
        } else {
            out.push(c);
        }
    }
    out
}

fn key_text(key: &Yaml) -> String {
    match key {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        _ => "?".to_string(),
    }
}

/// The entries of a mapping as (canonical key, original key, value).
fn entries(value: &Yaml) -> Vec<(String, String, &Yaml)> {
    value
        .as_hash()
        .map(|h| {
            h.iter()
                .map(|(k, v)| {
                    let text = key_text(k);
                    (canonical(&text), text, v)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// How one instance section (`circuitbreaker`, `retry`, ...) reads a property.
trait Section: Default + Clone {
    /// The section's key under `resilience4j:`.
    const NAME: &'static str;
    /// Its aspect-order key.
    const ORDER_KEY: &'static str;
    /// Applies one property; `Err` names the allowed values.
    fn set(&mut self, key: &str, value: &Yaml) -> Option<Result<(), String>>;
}

impl Reader {
    fn notice(&mut self, path: &str, message: impl Into<String>) {
        self.notices.push(Notice {
            path: path.to_string(),
            message: message.into(),
        });
    }

    fn root(&mut self, root: &Yaml) -> Resilience4jConfig {
        let mut config = Resilience4jConfig::default();
        for (key, original, value) in entries(root) {
            let path = format!("resilience4j.{original}");
            match key.as_str() {
                "circuitbreaker" => {
                    config.circuit_breakers =
                        self.section(&path, value, &mut config.aspect_order.circuit_breaker)
                }
                "retry" => {
                    config.retries = self.section(&path, value, &mut config.aspect_order.retry)
                }
                "bulkhead" => {
                    config.bulkheads = self.section(&path, value, &mut config.aspect_order.bulkhead)
                }
                "timelimiter" => {
                    config.time_limiters =
                        self.section(&path, value, &mut config.aspect_order.time_limiter)
                }
                "ratelimiter" => {
                    for (key, original, value) in entries(value) {
                        let path = format!("{path}.{original}");
                        if key == "rate-limiter-aspect-order" {
                            self.order(&path, value, &mut config.aspect_order.rate_limiter);
                        } else {
                            self.notice(&path, "rate limiters are not simulated; ignored");
                        }
                    }
                }
                _ => self.notice(
                    &path,
                    "unknown section (known: circuitbreaker, retry, bulkhead, timelimiter)",
                ),
            }
        }
        config
    }

    fn order(&mut self, path: &str, value: &Yaml, order: &mut i64) {
        match value.as_i64() {
            Some(v) => *order = v,
            None => self.notice(path, "an aspect order is an integer; the default is used"),
        }
    }

    fn section<S: Section>(&mut self, path: &str, value: &Yaml, order: &mut i64) -> ByName<S> {
        let mut configs: ByName<&Yaml> = ByName::default();
        let mut instances: Vec<(String, &Yaml)> = Vec::new();
        for (key, original, value) in entries(value) {
            let here = format!("{path}.{original}");
            match key.as_str() {
                "configs" => configs.extend(entries(value).into_iter().map(|(_, k, v)| (k, v))),
                "instances" => instances.extend(entries(value).into_iter().map(|(_, k, v)| (k, v))),
                k if k == S::ORDER_KEY => self.order(&here, value, order),
                _ => self.notice(
                    &here,
                    "unknown key (known: configs, instances, the aspect order)",
                ),
            }
        }
        // Read each named config once on its own, for the notices about it.
        for (name, body) in configs.iter() {
            self.settings::<S>(&format!("{path}.configs.{name}"), body, &configs);
        }
        // Inserted one by one (a later instance of the same name wins, as with `collect`):
        // collecting into a map would bring a sort of its own into the wasm for each section.
        let mut read = ByName::default();
        for (name, body) in instances {
            let settings = self.settings::<S>(&format!("{path}.instances.{name}"), body, &configs);
            read.insert(name, settings);
        }
        read
    }

    /// An instance's or config's settings: the library's defaults, then `configs.default` or its
    /// `base-config`, then its own properties.
    fn settings<S: Section>(&mut self, path: &str, body: &Yaml, configs: &ByName<&Yaml>) -> S {
        let own = entries(body);
        let base_name = own
            .iter()
            .find(|(k, _, _)| k == "base-config")
            .and_then(|(_, _, v)| v.as_str().map(str::to_string));
        let mut settings = S::default();
        let base = match &base_name {
            Some(name) => match configs.get(name) {
                Some(b) => Some(*b),
                None => {
                    self.notice(
                        &format!("{path}.base-config"),
                        format!("no config named `{name}` under {}.configs", S::NAME),
                    );
                    None
                }
            },
            None if !path.ends_with(".configs.default") => configs.get("default").copied(),
            None => None,
        };
        if let Some(base) = base {
            if !std::ptr::eq(base, body) {
                // The base's own notices are reported where it is declared.
                let mut quiet = Reader::default();
                quiet.apply(path, base, &mut settings);
            }
        }
        self.apply(path, body, &mut settings);
        settings
    }

    fn apply<S: Section>(&mut self, path: &str, body: &Yaml, settings: &mut S) {
        if body.as_hash().is_none() && !body.is_null() {
            self.notice(path, "expected a mapping of properties");
            return;
        }
        for (key, original, value) in entries(body) {
            if key == "base-config" {
                continue;
            }
            let here = format!("{path}.{original}");
            match settings.set(&key, value) {
                Some(Ok(())) => {}
                Some(Err(allowed)) => self.notice(
                    &here,
                    format!("{} is not {allowed}; the default is used", show(value)),
                ),
                None => self.notice(&here, format!("unknown {} property; ignored", S::NAME)),
            }
        }
    }
}

fn show(value: &Yaml) -> String {
    match value {
        Yaml::String(s) => format!("`{s}`"),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => "an empty value".to_string(),
        _ => "this value".to_string(),
    }
}

fn count(value: &Yaml, min: i64, max: i64) -> Result<u32, String> {
    let allowed = || format!("a whole number in {min}..={max}");
    let v = value
        .as_i64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(allowed)?;
    if (min..=max).contains(&v) {
        Ok(v as u32)
    } else {
        Err(allowed())
    }
}

fn percent(value: &Yaml) -> Result<f64, String> {
    let allowed = || "a percentage in (0, 100]".to_string();
    let v = value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(allowed)?;
    if v.is_finite() && v > 0.0 && v <= 100.0 {
        Ok(v)
    } else {
        Err(allowed())
    }
}

fn positive_real(value: &Yaml, max: f64) -> Result<f64, String> {
    let allowed = || format!("a number in (0, {max}]");
    let v = value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .ok_or_else(allowed)?;
    if v.is_finite() && v > 0.0 && v <= max {
        Ok(v)
    } else {
        Err(allowed())
    }
}

fn flag(value: &Yaml) -> Result<bool, String> {
    match value {
        Yaml::Boolean(b) => Ok(*b),
        Yaml::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Yaml::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err("true or false".to_string()),
    }
}

fn class_list(value: &Yaml) -> Result<Vec<String>, String> {
    let allowed = || "a list of exception class names".to_string();
    match value {
        Yaml::Array(items) => items
            .iter()
            .map(|i| i.as_str().map(|s| s.trim().to_string()).ok_or_else(allowed))
            .collect(),
        Yaml::String(s) => Ok(s
            .split(',')
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect()),
        _ => Err(allowed()),
    }
}

/// A duration as Spring Boot reads one, at most an hour.
pub fn duration(value: &Yaml) -> Result<Micros, String> {
    let allowed =
        || "a duration of at most 1 h (`2s`, `200ms`, `PT2S`, or milliseconds)".to_string();
    let micros = match value {
        Yaml::Integer(ms) if *ms >= 0 => (*ms as u64).checked_mul(MS),
        Yaml::String(s) => parse_duration(s.trim()),
        _ => None,
    }
    .ok_or_else(allowed)?;
    if micros <= 3_600 * SECOND {
        Ok(micros)
    } else {
        Err(allowed())
    }
}

fn parse_duration(text: &str) -> Option<Micros> {
    let lower = text.to_ascii_lowercase();
    if let Some(iso) = lower.strip_prefix("pt") {
        return parse_iso(iso);
    }
    let split = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(split);
    let number: f64 = number.parse().ok()?;
    let scale = match unit.trim() {
        "" | "ms" => MS as f64,
        "us" | "µs" => 1.0,
        "ns" => 0.001,
        "s" => SECOND as f64,
        "m" => 60.0 * SECOND as f64,
        "h" => 3_600.0 * SECOND as f64,
        "d" => 86_400.0 * SECOND as f64,
        _ => return None,
    };
    let micros = number * scale;
    (micros.is_finite() && micros >= 0.0 && micros < u64::MAX as f64).then(|| micros.round() as u64)
}

/// The part of an ISO-8601 duration after `PT`: `2S`, `1M30S`, `0.2S`.
fn parse_iso(rest: &str) -> Option<Micros> {
    let mut total = 0.0;
    let mut number = String::new();
    let mut parts = 0;
    for c in rest.chars() {
        match c {
            '0'..='9' | '.' => number.push(c),
            'h' | 'm' | 's' => {
                let n: f64 = number.parse().ok()?;
                number.clear();
                parts += 1;
                total +=
                    n * match c {
                        'h' => 3_600.0,
                        'm' => 60.0,
                        _ => 1.0,
                    } * SECOND as f64;
            }
            _ => return None,
        }
    }
    (parts > 0 && number.is_empty() && total.is_finite() && total < u64::MAX as f64)
        .then(|| total.round() as u64)
}

impl Section for CircuitBreakerSettings {
    const NAME: &'static str = "circuitbreaker";
    const ORDER_KEY: &'static str = "circuit-breaker-aspect-order";

    fn set(&mut self, key: &str, value: &Yaml) -> Option<Result<(), String>> {
        let result = match key {
            "sliding-window-type" => match value.as_str().map(str::to_ascii_uppercase).as_deref() {
                Some("COUNT_BASED") => {
                    self.sliding_window_type = SlidingWindowType::CountBased;
                    Ok(())
                }
                Some("TIME_BASED") => {
                    self.sliding_window_type = SlidingWindowType::TimeBased;
                    Ok(())
                }
                _ => Err("COUNT_BASED or TIME_BASED".to_string()),
            },
            "sliding-window-size" => count(value, 1, 100_000).map(|v| self.sliding_window_size = v),
            "minimum-number-of-calls" => {
                count(value, 1, 100_000).map(|v| self.minimum_number_of_calls = v)
            }
            "failure-rate-threshold" => percent(value).map(|v| self.failure_rate_threshold = v),
            "slow-call-rate-threshold" => percent(value).map(|v| self.slow_call_rate_threshold = v),
            "slow-call-duration-threshold" => duration(value)
                .and_then(|v| {
                    if v == 0 {
                        Err("a duration above 0".to_string())
                    } else {
                        Ok(v)
                    }
                })
                .map(|v| self.slow_call_duration_threshold = v),
            "wait-duration-in-open-state" => duration(value)
                .and_then(|v| {
                    if v < MS {
                        Err("a duration of at least 1 ms".to_string())
                    } else {
                        Ok(v)
                    }
                })
                .map(|v| self.wait_duration_in_open_state = v),
            "permitted-number-of-calls-in-half-open-state" => {
                count(value, 1, 1_000).map(|v| self.permitted_calls_in_half_open_state = v)
            }
            "automatic-transition-from-open-to-half-open-enabled" => {
                flag(value).map(|v| self.automatic_transition = v)
            }
            "record-exceptions" => class_list(value).map(|v| self.record_exceptions = v),
            "ignore-exceptions" => class_list(value).map(|v| self.ignore_exceptions = v),
            "register-health-indicator"
            | "event-consumer-buffer-size"
            | "allow-health-indicator-to-fail" => Ok(()),
            _ => return None,
        };
        Some(result)
    }
}

impl Section for RetrySettings {
    const NAME: &'static str = "retry";
    const ORDER_KEY: &'static str = "retry-aspect-order";

    fn set(&mut self, key: &str, value: &Yaml) -> Option<Result<(), String>> {
        let result = match key {
            "max-attempts" => count(value, 1, 100).map(|v| self.max_attempts = v),
            "wait-duration" => duration(value).map(|v| self.wait_duration = v),
            "enable-exponential-backoff" => {
                flag(value).map(|v| self.enable_exponential_backoff = v)
            }
            "exponential-backoff-multiplier" => {
                positive_real(value, 100.0).map(|v| self.exponential_backoff_multiplier = v)
            }
            "exponential-max-wait-duration" => {
                duration(value).map(|v| self.exponential_max_wait_duration = Some(v))
            }
            "enable-randomized-wait" => flag(value).map(|v| self.enable_randomized_wait = v),
            "randomized-wait-factor" => {
                positive_real(value, 1.0).map(|v| self.randomized_wait_factor = v)
            }
            "retry-exceptions" => class_list(value).map(|v| self.retry_exceptions = v),
            "ignore-exceptions" => class_list(value).map(|v| self.ignore_exceptions = v),
            "event-consumer-buffer-size" => Ok(()),
            _ => return None,
        };
        Some(result)
    }
}

impl Section for BulkheadSettings {
    const NAME: &'static str = "bulkhead";
    const ORDER_KEY: &'static str = "bulkhead-aspect-order";

    fn set(&mut self, key: &str, value: &Yaml) -> Option<Result<(), String>> {
        let result = match key {
            "max-concurrent-calls" => {
                count(value, 1, 10_000).map(|v| self.max_concurrent_calls = v)
            }
            "max-wait-duration" => duration(value).map(|v| self.max_wait_duration = v),
            "event-consumer-buffer-size" | "fair-call-handling-enabled" => Ok(()),
            _ => return None,
        };
        Some(result)
    }
}

impl Section for TimeLimiterSettings {
    const NAME: &'static str = "timelimiter";
    const ORDER_KEY: &'static str = "time-limiter-aspect-order";

    fn set(&mut self, key: &str, value: &Yaml) -> Option<Result<(), String>> {
        let result = match key {
            "timeout-duration" => duration(value)
                .and_then(|v| {
                    if v < MS {
                        Err("a duration of at least 1 ms".to_string())
                    } else {
                        Ok(v)
                    }
                })
                .map(|v| self.timeout_duration = v),
            "cancel-running-future" => flag(value).map(|v| self.cancel_running_future = v),
            "event-consumer-buffer-size" => Ok(()),
            _ => return None,
        };
        Some(result)
    }
}
