//! The options .NET's HTTP standard resilience handler binds from `appsettings.json`
//! (`Microsoft.Extensions.Http.Resilience`, Polly v8 underneath), read into the playground's
//! terms: `Retry`, `CircuitBreaker`, `AttemptTimeout`, `TotalRequestTimeout` and `RateLimiter`,
//! wherever the section holding them sits in the pasted JSON. Inventory is then called through
//! the `polly` stack profile with those values ([`apply`]). As the configuration binder does,
//! keys match whatever their case, and a number or a switch may be written as a string; a
//! `TimeSpan` is `[d.]hh:mm[:ss[.fffffff]]`, or a whole number of days. What the handler takes
//! but the simulator does not model is named in a notice; a value Polly's validation would
//! refuse is an error naming its path and the range Polly accepts.

use serde_json::{Map, Value};

use super::json::{call_through, join, number, shown, without_comments};
use super::resilience4j::Notice;
use crate::resilience::{
    BackoffType, BreakerConfig, Micros, PollyDelay, RetryPolicy, Window, MS, SECOND,
};
use crate::sim::model::{PollyStack, Profile, SimConfig, StackConfig};

/// The handler's five sections, as the binder names them.
const SECTIONS: [&str; 5] = [
    "Retry",
    "CircuitBreaker",
    "AttemptTimeout",
    "TotalRequestTimeout",
    "RateLimiter",
];

const DAY: Micros = 86_400 * SECOND;

/// The simulator's longest cap on a retry's wait, for a `Retry` without `MaxDelay`.
const NO_MAX_DELAY: Micros = 600 * SECOND;

/// What was read: the standard handler's values (its defaults where the text is silent) and
/// the notices.
#[derive(Debug, Clone, PartialEq)]
pub struct PollySettings {
    /// `BackoffType` and `UseJitter`.
    pub polly: PollyStack,
    /// `MaxRetryAttempts` + 1 attempts, `Delay` as the base and `MaxDelay` as the cap.
    pub retry: RetryPolicy,
    /// The breaker's ratio, minimum throughput, sampling duration and break duration.
    pub breaker: BreakerConfig,
    /// `AttemptTimeout.Timeout`.
    pub attempt_timeout: Micros,
    /// `TotalRequestTimeout.Timeout` (checked against the attempt timeout, not simulated).
    pub total_timeout: Micros,
    /// What was not simulated, or was ignored.
    pub notices: Vec<Notice>,
}

impl Default for PollySettings {
    /// The standard handler's defaults.
    fn default() -> Self {
        PollySettings {
            polly: PollyStack::http_standard(),
            retry: PollyStack::standard_retry(),
            breaker: PollyStack::standard_breaker(),
            attempt_timeout: PollyStack::STANDARD_ATTEMPT_TIMEOUT,
            total_timeout: 30 * SECOND,
            notices: Vec::new(),
        }
    }
}

/// Reads `text`: the settings, or the one error that stops the run.
pub fn parse(text: &str) -> Result<PollySettings, Notice> {
    let root: Value = serde_json::from_str(&without_comments(text)).map_err(|e| Notice {
        path: format!("line {}", e.line()),
        message: format!("not JSON: {e}"),
    })?;
    let Some((at, section)) = find_options(&root, "") else {
        return Err(Notice {
            path: "(top)".to_string(),
            message: "no `Retry`, `CircuitBreaker`, `AttemptTimeout`, `TotalRequestTimeout` or \
                      `RateLimiter` section found (the options the HTTP standard resilience \
                      handler binds)"
                .to_string(),
        });
    };
    let mut settings = PollySettings::default();
    // Without `MaxDelay` nothing caps a delay: the simulator's widest cap stands in.
    settings.retry.cap = NO_MAX_DELAY;
    let mut notices = Vec::new();
    for (key, value) in section {
        let path = join(&at, key);
        let Some(name) = SECTIONS.iter().find(|s| s.eq_ignore_ascii_case(key)) else {
            notices.push(unknown(&path));
            continue;
        };
        let fields = value.as_object().ok_or_else(|| Notice {
            path: path.clone(),
            message: format!("a section of settings was expected, not {}", shown(value)),
        })?;
        for (field, value) in fields {
            let path = join(&path, field);
            let f = field.to_ascii_lowercase();
            match (*name, f.as_str()) {
                ("Retry", _) => retry_field(&mut settings, &f, &path, value, &mut notices)?,
                ("CircuitBreaker", _) => {
                    breaker_field(&mut settings, &f, &path, value, &mut notices)?
                }
                ("AttemptTimeout", "timeout") => {
                    settings.attempt_timeout = time_span(&path, value, 10 * MS, DAY)?;
                }
                ("TotalRequestTimeout", "timeout") => {
                    settings.total_timeout = time_span(&path, value, 10 * MS, DAY)?;
                }
                ("RateLimiter", _) => notices.push(Notice {
                    path,
                    message: "not simulated: the handler's rate limiter sits outside every \
                              retry, and `orders` never has more calls in flight than workers"
                        .to_string(),
                }),
                _ => notices.push(unknown(&path)),
            }
        }
    }
    cross_checks(&settings, &at)?;
    notices.push(total_timeout_notice(&settings, &at));
    settings.notices = notices;
    Ok(settings)
}

/// Puts the settings into `cfg` (its traffic, faults and service stay): inventory is called
/// through the `polly` profile alone. Gives the notices; an error names the field whose value
/// the simulator cannot take.
pub fn apply(settings: &PollySettings, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    let stack = StackConfig {
        profile: Profile::Polly(settings.polly),
        retry: Some(settings.retry),
        breaker: Some(settings.breaker.clone()),
        timeout: Some(settings.attempt_timeout),
        ..StackConfig::default()
    };
    call_through(stack, cfg, polly_path)?;
    Ok(settings.notices.clone())
}

/// Reads `text` and applies it to `cfg`: the notices, or the one error that stops the run.
pub fn apply_json(text: &str, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    apply(&parse(text)?, cfg)
}

/// Whether a pasted text reads as the handler's JSON: it opens with `{` and names one of its
/// sections as a key.
pub fn looks_like_polly(text: &str) -> bool {
    text.trim_start().starts_with('{')
        && SECTIONS.iter().any(|s| {
            text.to_ascii_lowercase()
                .contains(&format!("\"{}\"", s.to_ascii_lowercase()))
        })
}

/// The option a simulator parameter comes from.
fn polly_path(field: &str) -> &'static str {
    match field {
        "attempts" => "Retry.MaxRetryAttempts",
        "retry_base" => "Retry.Delay",
        "retry_cap" => "Retry.MaxDelay",
        "failure_ratio" => "CircuitBreaker.FailureRatio",
        "min_calls" => "CircuitBreaker.MinimumThroughput",
        "window" => "CircuitBreaker.SamplingDuration",
        "cooldown" => "CircuitBreaker.BreakDuration",
        "timeout" => "AttemptTimeout.Timeout",
        _ => "(scenario)",
    }
}

fn retry_field(
    s: &mut PollySettings,
    field: &str,
    path: &str,
    value: &Value,
    notices: &mut Vec<Notice>,
) -> Result<(), Notice> {
    match field {
        "maxretryattempts" => {
            let retries = integer(path, value, 1, i32::MAX as i64)?;
            s.retry.attempts = simulated(path, retries + 1, 10, "1..=9 retries")? as u32;
        }
        "delay" => {
            let delay = time_span(path, value, 0, DAY)?;
            // A zero delay retries at once; the simulator's least wait is a microsecond.
            s.retry.base =
                simulated(path, delay as i64, 60 * SECOND as i64, "0..=60 s")?.max(1) as Micros;
        }
        "maxdelay" => {
            let cap = time_span(path, value, 0, DAY)?;
            s.retry.cap = cap.clamp(1, NO_MAX_DELAY);
            if cap > NO_MAX_DELAY {
                notices.push(Notice {
                    path: path.to_string(),
                    message: "longer than any wait the simulator draws; 600 s is used".into(),
                });
            }
        }
        "backofftype" => s.polly.backoff = backoff_type(path, value)?,
        "usejitter" => s.polly.use_jitter = switch(path, value)?,
        "shouldretryafterheader" => notices.push(Notice {
            path: path.to_string(),
            message: "inventory sends no Retry-After header here, so the delays decide".into(),
        }),
        _ => notices.push(unknown(path)),
    }
    Ok(())
}

fn breaker_field(
    s: &mut PollySettings,
    field: &str,
    path: &str,
    value: &Value,
    notices: &mut Vec<Notice>,
) -> Result<(), Notice> {
    let b = &mut s.breaker;
    match field {
        "failureratio" => {
            let ratio = number(path, value)?;
            if !(0.0..=1.0).contains(&ratio) {
                return Err(range(path, value, "0..=1"));
            }
            if ratio == 0.0 {
                return Err(Notice {
                    path: path.to_string(),
                    message: "0 is out of the simulator's range (greater than 0, at most 1)"
                        .to_string(),
                });
            }
            b.failure_ratio = ratio;
        }
        "minimumthroughput" => {
            let least = integer(path, value, 2, i32::MAX as i64)?;
            b.min_calls = simulated(path, least, 100_000, "2..=100000")? as u32;
        }
        "samplingduration" => {
            b.window = Window::Time(time_span(path, value, 500 * MS, DAY)?.min(3_600 * SECOND));
        }
        "breakduration" => b.cooldown = time_span(path, value, 500 * MS, DAY)?.min(3_600 * SECOND),
        _ => notices.push(unknown(path)),
    }
    Ok(())
}

/// What the total timeout would do, which the simulator does not run: whether the attempts
/// and the delays between them can reach it.
fn total_timeout_notice(s: &PollySettings, at: &str) -> Notice {
    let delays = PollyDelay {
        backoff: s.polly.backoff,
        jitter: s.polly.use_jitter,
        delay: s.retry.base,
        max_delay: Some(s.retry.cap),
    };
    let waited = delays.bounded_total(s.retry.attempts - 1);
    let longest = u64::from(s.retry.attempts)
        .saturating_mul(s.attempt_timeout)
        .saturating_add(waited);
    let reach = if longest > s.total_timeout {
        "can reach it, and would cut such a request short"
    } else {
        "never reach it"
    };
    Notice {
        path: join(at, "TotalRequestTimeout"),
        message: format!(
            "{} s over all attempts is not simulated: {} attempts of at most {} s and the delays \
             between them (at most {} s in all) {reach}",
            seconds(s.total_timeout),
            s.retry.attempts,
            seconds(s.attempt_timeout),
            seconds(waited),
        ),
    }
}

/// The handler's own checks between sections, as its options validation makes them.
fn cross_checks(s: &PollySettings, at: &str) -> Result<(), Notice> {
    if s.attempt_timeout > s.total_timeout {
        return Err(Notice {
            path: join(at, "AttemptTimeout.Timeout"),
            message: format!(
                "{} s is longer than TotalRequestTimeout ({} s); the handler refuses an attempt \
                 timeout past the total",
                seconds(s.attempt_timeout),
                seconds(s.total_timeout)
            ),
        });
    }
    if let Window::Time(sampling) = s.breaker.window {
        if sampling < 2 * s.attempt_timeout {
            return Err(Notice {
                path: join(at, "CircuitBreaker.SamplingDuration"),
                message: format!(
                    "{} s is less than twice the attempt timeout ({} s); the handler refuses it",
                    seconds(sampling),
                    seconds(s.attempt_timeout)
                ),
            });
        }
    }
    Ok(())
}

/// The first object (depth first) with one of the handler's sections as a key, and its path.
fn find_options<'a>(node: &'a Value, at: &str) -> Option<(String, &'a Map<String, Value>)> {
    let object = node.as_object()?;
    let is_section = |k: &String| SECTIONS.iter().any(|s| s.eq_ignore_ascii_case(k));
    if object.keys().any(is_section) {
        return Some((at.to_string(), object));
    }
    object
        .iter()
        .find_map(|(k, v)| find_options(v, &join(at, k)))
}

fn unknown(path: &str) -> Notice {
    Notice {
        path: path.to_string(),
        message: "not one of the handler's options the simulator reads; ignored".to_string(),
    }
}

fn range(path: &str, value: &Value, accepted: &str) -> Notice {
    Notice {
        path: path.to_string(),
        message: format!(
            "{} is out of range (Polly accepts {accepted})",
            shown(value)
        ),
    }
}

/// A value Polly takes but the simulator cannot: refused, naming the simulator's range.
fn simulated(path: &str, value: i64, most: i64, accepted: &str) -> Result<i64, Notice> {
    if value > most {
        return Err(Notice {
            path: path.to_string(),
            message: format!("{value} is out of the simulator's range ({accepted})"),
        });
    }
    Ok(value)
}

fn integer(path: &str, value: &Value, least: i64, most: i64) -> Result<i64, Notice> {
    let n = number(path, value)?;
    if n.fract() != 0.0 {
        return Err(Notice {
            path: path.to_string(),
            message: format!("a whole number was expected, not {}", shown(value)),
        });
    }
    if n < least as f64 || n > most as f64 {
        return Err(range(path, value, &format!("{least}..={most}")));
    }
    Ok(n as i64)
}

fn switch(path: &str, value: &Value) -> Result<bool, Notice> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        _ => Err(Notice {
            path: path.to_string(),
            message: format!("true or false was expected, not {}", shown(value)),
        }),
    }
}

/// `Constant`, `Linear`, `Exponential` (any case) or their numbers 0, 1, 2.
fn backoff_type(path: &str, value: &Value) -> Result<BackoffType, Notice> {
    let by_name = value.as_str().and_then(|s| {
        BackoffType::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s.trim()))
    });
    let by_number = || {
        let n = number(path, value).ok()?;
        BackoffType::ALL
            .into_iter()
            .enumerate()
            .find(|(i, _)| *i as f64 == n)
            .map(|(_, b)| b)
    };
    by_name.or_else(by_number).ok_or_else(|| Notice {
        path: path.to_string(),
        message: format!(
            "{} is not a backoff type (Polly accepts Constant, Linear or Exponential)",
            shown(value)
        ),
    })
}

/// A `TimeSpan` within `least..=most`.
fn time_span(path: &str, value: &Value, least: Micros, most: Micros) -> Result<Micros, Notice> {
    let text = value.as_str().unwrap_or_default();
    let span = parse_time_span(text.trim()).ok_or_else(|| Notice {
        path: path.to_string(),
        message: format!(
            "{} is not a TimeSpan (written [d.]hh:mm[:ss[.fffffff]], as \"00:00:02\")",
            shown(value)
        ),
    })?;
    if span < least as i128 || span > most as i128 {
        return Err(range(
            path,
            value,
            &format!("{} s..={} s", seconds(least), seconds(most)),
        ));
    }
    Ok(span as Micros)
}

/// .NET's invariant `TimeSpan` text, in microseconds (negative allowed, so that the range
/// check names it); `None` when it does not read as one.
fn parse_time_span(text: &str) -> Option<i128> {
    let (sign, text) = match text.strip_prefix('-') {
        Some(rest) => (-1, rest),
        None => (1, text),
    };
    let whole = |s: &str| -> Option<i128> {
        (!s.is_empty() && s.len() <= 8 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    const US_PER_SECOND: i128 = 1_000_000;
    if !text.contains(':') {
        return Some(sign * whole(text)? * 86_400 * US_PER_SECOND);
    }
    let mut parts = text.split(':');
    let first = parts.next()?;
    let (days, hours) = match first.split_once('.') {
        Some((d, h)) => (whole(d)?, whole(h)?),
        None => (0, whole(first)?),
    };
    let minutes = whole(parts.next()?)?;
    let (secs, fraction) = match parts.next() {
        None => (0, 0),
        Some(s) => match s.split_once('.') {
            None => (whole(s)?, 0),
            Some((s, f)) if (1..=7).contains(&f.len()) => {
                let padded = format!("{f:0<7}");
                (whole(s)?, whole(&padded)? / 10)
            }
            Some(_) => return None,
        },
    };
    if parts.next().is_some() || hours > 23 || minutes > 59 || secs > 59 {
        return None;
    }
    let total = ((days * 24 + hours) * 60 + minutes) * 60 + secs;
    Some(sign * (total * US_PER_SECOND + fraction))
}

fn seconds(t: Micros) -> String {
    let s = t as f64 / SECOND as f64;
    format!("{s}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::BackoffType;
    use crate::sim::scenario::Preset;

    const STANDARD: &str = r#"{
      // appsettings.json of the orders service
      "HttpClients": { "Inventory": { "Resilience": {
        "Retry": { "MaxRetryAttempts": 2, "BackoffType": "Linear", "UseJitter": "false",
                   "Delay": "00:00:00.100" },
        "CircuitBreaker": { "FailureRatio": 0.5, "MinimumThroughput": "20",
                            "SamplingDuration": "00:00:10", "BreakDuration": "00:00:02" },
        "attemptTimeout": { "Timeout": "00:00:00.3" },
        "TotalRequestTimeout": { "Timeout": "00:00:05" },
        "Hedging": {}
      } } }
    }"#;

    #[test]
    fn the_handlers_options_are_read_wherever_they_sit_whatever_their_case() {
        let s = parse(STANDARD).unwrap();
        assert_eq!(s.retry.attempts, 3);
        assert_eq!(s.retry.base, 100 * MS);
        assert_eq!(s.polly.backoff, BackoffType::Linear);
        assert!(!s.polly.use_jitter);
        assert_eq!((s.breaker.failure_ratio, s.breaker.min_calls), (0.5, 20));
        assert_eq!(s.breaker.window, Window::Time(10 * SECOND));
        assert_eq!(s.breaker.cooldown, 2 * SECOND);
        assert_eq!(s.attempt_timeout, 300 * MS);
        let paths: Vec<&str> = s.notices.iter().map(|n| n.path.as_str()).collect();
        assert!(
            paths.contains(&"HttpClients.Inventory.Resilience.Hedging"),
            "{paths:?}"
        );
        let mut cfg = Preset::Saturday.config();
        apply(&s, &mut cfg).unwrap();
        assert_eq!(cfg.first_stack().unwrap().profile.key(), "polly");
    }

    #[test]
    fn an_empty_section_is_the_standard_handler() {
        let s = parse(r#"{"Retry": {}}"#).unwrap();
        let uncapped = RetryPolicy {
            cap: NO_MAX_DELAY,
            ..PollyStack::standard_retry()
        };
        assert_eq!(s.retry, uncapped);
        assert_eq!(s.breaker, PollyStack::standard_breaker());
        assert_eq!(s.polly, PollyStack::http_standard());
    }

    #[test]
    fn a_value_polly_refuses_names_its_path_and_range() {
        let e = parse(r#"{"CircuitBreaker": {"MinimumThroughput": 1}}"#).unwrap_err();
        assert_eq!(e.path, "CircuitBreaker.MinimumThroughput");
        assert!(e.message.contains("2..="), "{e}");
        let e = parse(r#"{"Retry": {"Delay": "2 seconds"}}"#).unwrap_err();
        assert!(e.message.contains("TimeSpan"), "{e}");
        let e = parse(r#"{"AttemptTimeout": {"Timeout": "00:00:40"}}"#).unwrap_err();
        assert!(e.message.contains("TotalRequestTimeout"), "{e}");
        let e = parse(r#"{"AttemptTimeout": {"Timeout": "00:00:20"}, "TotalRequestTimeout": {"Timeout": "00:01:00"}}"#)
            .unwrap_err();
        assert_eq!(e.path, "CircuitBreaker.SamplingDuration");
        let e = parse(r#"{"CircuitBreaker": {"FailureRatio": 0}}"#).unwrap_err();
        assert!(e.message.contains("simulator's range"), "{e}");
        let e = parse(r#"{"Retry": {"MaxRetryAttempts": 12}}"#).unwrap_err();
        assert!(e.message.contains("simulator's range"), "{e}");
        assert!(parse("{\"Retry\": [")
            .unwrap_err()
            .message
            .starts_with("not JSON"));
        assert_eq!(parse("{}").unwrap_err().path, "(top)");
    }

    #[test]
    fn time_spans_read_as_dotnet_writes_them() {
        let cases = [
            ("00:00:02", Some(2_000_000)),
            ("0:0:0.5", Some(500_000)),
            ("00:01", Some(60_000_000)),
            ("1", Some(86_400_000_000)),
            ("1.00:00:01", Some(86_401_000_000)),
            ("00:00:00.0000010", Some(1)),
            ("-00:00:01", Some(-1_000_000)),
            ("00:60:00", None),
            ("2s", None),
            ("", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_time_span(text), expected, "{text:?}");
        }
    }

    #[test]
    fn comments_go_and_strings_stay() {
        let text = "{\"a\": \"//x\" /* b */, // c\n \"d\": 1}";
        let v: Value = serde_json::from_str(&without_comments(text)).unwrap();
        assert_eq!(v["a"], "//x");
        assert_eq!(v["d"], 1);
    }
}
