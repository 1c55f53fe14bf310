//! A gRPC service config (the JSON a resolver or `grpc.WithDefaultServiceConfig` hands a
//! channel), read into the playground's terms: a `methodConfig`'s `timeout` and
//! `retryPolicy`, and the top-level `retryThrottling`. Inventory is then called through the
//! `grpc` stack profile with those values ([`apply`]). Field names are read in lowerCamelCase
//! or in the protobuf's snake_case, as the proto JSON mapping allows; a duration is the proto
//! JSON form, seconds with an `s` (`"0.25s"`). A policy gRPC would refuse is an error naming
//! the field's path and the range gRPC accepts; what the simulator does not model is named in
//! a notice.

use serde_json::{Map, Value};

use super::json::{call_through, join, number, shown, without_comments};
use super::resilience4j::Notice;
use crate::resilience::{
    GrpcBackoff, Jitter, Micros, RetryPolicy, StatusCode, ThrottleConfig, SECOND,
};
use crate::sim::model::{GrpcStack, Profile, SimConfig, StackConfig};

/// What was read: the channel's settings for inventory's method, and the notices.
#[derive(Debug, Clone, PartialEq)]
pub struct GrpcSettings {
    /// The multiplier, the retryable codes and the throttle.
    pub grpc: GrpcStack,
    /// `maxAttempts` (at most 5), `initialBackoff` as the base, `maxBackoff` as the cap;
    /// `None` without a `retryPolicy` (gRPC then never retries).
    pub retry: Option<RetryPolicy>,
    /// The method's `timeout`: the call's deadline (`None`: no deadline).
    pub deadline: Option<Micros>,
    /// What was not simulated, or was read other than written.
    pub notices: Vec<Notice>,
}

/// Reads `text`: the settings, or the one error that stops the run.
pub fn parse(text: &str) -> Result<GrpcSettings, Notice> {
    let root: Value = serde_json::from_str(&without_comments(text)).map_err(|e| Notice {
        path: format!("line {}", e.line()),
        message: format!("not JSON: {e}"),
    })?;
    let Some(top) = root.as_object() else {
        return Err(Notice {
            path: "(top)".to_string(),
            message: format!("a service config object was expected, not {}", shown(&root)),
        });
    };
    let mut settings = GrpcSettings {
        grpc: GrpcStack {
            throttling: None,
            ..GrpcStack::typical()
        },
        retry: None,
        deadline: None,
        notices: Vec::new(),
    };
    let mut read_a_method = false;
    for (key, value) in top {
        match field_name(key).as_str() {
            "methodconfig" => {
                let methods = value
                    .as_array()
                    .ok_or_else(|| expected(key, "a list", value))?;
                for (i, method) in methods.iter().enumerate() {
                    let path = format!("{key}[{i}]");
                    let method = method
                        .as_object()
                        .ok_or_else(|| expected(&path, "an object", method))?;
                    if read_a_method {
                        settings.notices.push(Notice {
                            path,
                            message: "inventory is one method: the first method config is the \
                                      one simulated; this one is not"
                                .to_string(),
                        });
                        continue;
                    }
                    read_a_method = true;
                    method_config(&mut settings, method, &path)?;
                }
            }
            "retrythrottling" => {
                settings.grpc.throttling = Some(throttling(key, value)?);
            }
            "loadbalancingconfig" | "loadbalancingpolicy" | "healthcheckconfig" => {
                settings.notices.push(Notice {
                    path: key.clone(),
                    message: "not simulated: inventory is one host here, so there is nothing to \
                              balance or check"
                        .to_string(),
                })
            }
            _ => settings.notices.push(unknown(key)),
        }
    }
    if !read_a_method {
        return Err(Notice {
            path: "methodConfig".to_string(),
            message: "no method config found (a service config's `methodConfig` list, with \
                      the `timeout` and `retryPolicy` of inventory's method)"
                .to_string(),
        });
    }
    Ok(settings)
}

/// Puts the settings into `cfg` (its traffic, faults and service stay): inventory is called
/// through the `grpc` profile alone. Gives the notices; an error names the field whose value
/// the simulator cannot take.
pub fn apply(settings: &GrpcSettings, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    let stack = StackConfig {
        profile: Profile::Grpc(settings.grpc.clone()),
        retry: settings.retry,
        timeout: settings.deadline,
        ..StackConfig::default()
    };
    call_through(stack, cfg, grpc_path)?;
    Ok(settings.notices.clone())
}

/// Reads `text` and applies it to `cfg`: the notices, or the one error that stops the run.
pub fn apply_json(text: &str, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    apply(&parse(text)?, cfg)
}

/// Whether a pasted text reads as a service config: it opens with `{` and has a
/// `methodConfig` or a `retryThrottling`.
pub fn looks_like_grpc(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    text.trim_start().starts_with('{')
        && [
            "\"methodconfig\"",
            "\"method_config\"",
            "\"retrythrottling\"",
        ]
        .iter()
        .any(|k| lower.contains(k))
}

/// The service config field a simulator parameter comes from.
fn grpc_path(field: &str) -> &'static str {
    match field {
        "attempts" => "methodConfig[0].retryPolicy.maxAttempts",
        "base" | "retry_base" | "initial_backoff" => "methodConfig[0].retryPolicy.initialBackoff",
        "cap" | "retry_cap" | "max_backoff" => "methodConfig[0].retryPolicy.maxBackoff",
        "backoff_multiplier" => "methodConfig[0].retryPolicy.backoffMultiplier",
        "timeout" => "methodConfig[0].timeout",
        "max_tokens" => "retryThrottling.maxTokens",
        "token_ratio" => "retryThrottling.tokenRatio",
        _ => "(scenario)",
    }
}

/// A field's name with case and underscores set aside (`maxAttempts`, `max_attempts`).
fn field_name(key: &str) -> String {
    key.chars()
        .filter(|c| *c != '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn method_config(
    s: &mut GrpcSettings,
    method: &Map<String, Value>,
    at: &str,
) -> Result<(), Notice> {
    let has = |name: &str| method.keys().any(|k| field_name(k) == name);
    if has("retrypolicy") && has("hedgingpolicy") {
        return Err(Notice {
            path: at.to_string(),
            message: "both retryPolicy and hedgingPolicy are set; gRPC takes only one of them"
                .to_string(),
        });
    }
    for (key, value) in method {
        let path = join(at, key);
        match field_name(key).as_str() {
            "name" => {}
            "timeout" => s.deadline = Some(duration(&path, value)?),
            "retrypolicy" => s.retry = Some(retry_policy(s, value, &path)?),
            "hedgingpolicy" => s.notices.push(Notice {
                path,
                message: "not simulated under stack=grpc: the calls run without retries; the \
                          lesson's stack hedges (hedge_after, max_hedges)"
                    .to_string(),
            }),
            "waitforready" | "maxrequestmessagebytes" | "maxresponsemessagebytes" => {
                s.notices.push(Notice {
                    path,
                    message: "not simulated: the channel is always ready and messages are small"
                        .to_string(),
                })
            }
            _ => s.notices.push(unknown(&path)),
        }
    }
    Ok(())
}

fn retry_policy(s: &mut GrpcSettings, value: &Value, at: &str) -> Result<RetryPolicy, Notice> {
    let fields = value
        .as_object()
        .ok_or_else(|| expected(at, "an object", value))?;
    let mut attempts = None;
    let mut initial = None;
    let mut max = None;
    let mut multiplier = None;
    let mut codes = None;
    for (key, value) in fields {
        let path = join(at, key);
        match field_name(key).as_str() {
            "maxattempts" => {
                let n = number(&path, value)?;
                if n.fract() != 0.0 || n < 2.0 {
                    return Err(range(&path, value, "a whole number, 2 or more"));
                }
                if n > f64::from(GrpcBackoff::MOST_ATTEMPTS) {
                    s.notices.push(Notice {
                        path: path.clone(),
                        message: format!(
                            "{} attempts act as 5: gRPC makes at most 5, the first included",
                            shown(value)
                        ),
                    });
                }
                attempts = Some(GrpcBackoff::attempts(n.min(f64::from(u32::MAX)) as u32));
            }
            "initialbackoff" => initial = Some(positive_duration(&path, value)?),
            "maxbackoff" => max = Some(positive_duration(&path, value)?),
            "backoffmultiplier" => {
                let m = number(&path, value)?;
                if m <= 0.0 {
                    return Err(range(&path, value, "a number above 0"));
                }
                multiplier = Some(m);
            }
            "retryablestatuscodes" => codes = Some(status_codes(&path, value)?),
            "perattemptrecvtimeout" => s.notices.push(Notice {
                path,
                message: "not simulated: the method's timeout bounds every attempt together"
                    .to_string(),
            }),
            _ => s.notices.push(unknown(&path)),
        }
    }
    let required = |name| missing(at, name, "retryPolicy");
    let attempts = attempts.ok_or_else(|| required("maxAttempts"))?;
    let initial = initial.ok_or_else(|| required("initialBackoff"))?;
    let max = max.ok_or_else(|| required("maxBackoff"))?;
    s.grpc.multiplier = multiplier.ok_or_else(|| required("backoffMultiplier"))?;
    s.grpc.retryable = codes.ok_or_else(|| required("retryableStatusCodes"))?;
    if max < initial {
        s.notices.push(Notice {
            path: join(at, "initialBackoff"),
            message: format!(
                "above maxBackoff, so every wait is drawn around maxBackoff ({} s)",
                max as f64 / SECOND as f64
            ),
        });
    }
    Ok(RetryPolicy {
        attempts,
        base: initial.min(max),
        cap: max,
        jitter: Jitter::None,
    })
}

fn throttling(at: &str, value: &Value) -> Result<ThrottleConfig, Notice> {
    let fields = value
        .as_object()
        .ok_or_else(|| expected(at, "an object", value))?;
    let mut max_tokens = None;
    let mut token_ratio = None;
    for (key, value) in fields {
        let path = join(at, key);
        match field_name(key).as_str() {
            "maxtokens" => {
                let n = number(&path, value)?;
                let (least, most) = ThrottleConfig::MAX_TOKENS;
                if n.fract() != 0.0 || !(least..=most).contains(&n) {
                    return Err(range(
                        &path,
                        value,
                        &format!("a whole number, {least}..={most}"),
                    ));
                }
                max_tokens = Some(n);
            }
            "tokenratio" => {
                let r = number(&path, value)?;
                if r <= 0.0 {
                    return Err(range(&path, value, "a number above 0"));
                }
                // gRPC keeps three decimals of the ratio.
                token_ratio = Some((r * 1000.0).floor().max(1.0) / 1000.0);
            }
            _ => return Err(unknown_in_throttling(&path)),
        }
    }
    let required = |name| missing(at, name, "retryThrottling");
    Ok(ThrottleConfig {
        max_tokens: max_tokens.ok_or_else(|| required("maxTokens"))?,
        token_ratio: token_ratio.ok_or_else(|| required("tokenRatio"))?,
    })
}

fn status_codes(path: &str, value: &Value) -> Result<Vec<StatusCode>, Notice> {
    let list = value
        .as_array()
        .ok_or_else(|| expected(path, "a list of status codes", value))?;
    let mut codes = Vec::new();
    for (i, code) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let text = match code {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => return Err(expected(&at, "a status code", code)),
        };
        let code = StatusCode::parse(&text).ok_or_else(|| {
            range(
                &at,
                code,
                "a status code's name (UNAVAILABLE, ...) or number 0..=16",
            )
        })?;
        if code == StatusCode::Ok {
            return Err(range(&at, &Value::String(text), "a code other than OK"));
        }
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    if codes.is_empty() {
        return Err(range(path, value, "at least one status code"));
    }
    Ok(codes)
}

/// A proto JSON duration: decimal seconds ending in `s` (`"1s"`, `"0.100s"`).
fn duration(path: &str, value: &Value) -> Result<Micros, Notice> {
    let seconds = value
        .as_str()
        .and_then(|t| t.trim().strip_suffix('s'))
        .and_then(|t| t.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0);
    let Some(seconds) = seconds else {
        return Err(expected(path, "a duration such as \"0.25s\"", value));
    };
    // Beyond a day no run is long enough to tell the difference.
    Ok((seconds.min(86_400.0) * SECOND as f64).round() as Micros)
}

fn positive_duration(path: &str, value: &Value) -> Result<Micros, Notice> {
    match duration(path, value)? {
        0 => Err(range(path, value, "a duration above 0")),
        d => Ok(d),
    }
}

fn expected(path: &str, what: &str, value: &Value) -> Notice {
    Notice {
        path: path.to_string(),
        message: format!("{what} was expected, not {}", shown(value)),
    }
}

fn range(path: &str, value: &Value, accepted: &str) -> Notice {
    Notice {
        path: path.to_string(),
        message: format!("{} is out of range (gRPC accepts {accepted})", shown(value)),
    }
}

fn unknown(path: &str) -> Notice {
    Notice {
        path: path.to_string(),
        message: "not a service config field the simulator reads; ignored".to_string(),
    }
}

/// A field the section `section` at `at` cannot do without.
fn missing(at: &str, name: &str, section: &str) -> Notice {
    Notice {
        path: join(at, name),
        message: format!("missing: gRPC refuses a {section} without it"),
    }
}

fn unknown_in_throttling(path: &str) -> Notice {
    Notice {
        path: path.to_string(),
        message: "not a retryThrottling field (maxTokens, tokenRatio)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;
    use crate::sim::scenario::Preset;

    const TYPICAL: &str = r#"{
      "methodConfig": [{
        "name": [{ "service": "northwind.Inventory", "method": "Reserve" }],
        "timeout": "1s",
        "waitForReady": true,
        "retryPolicy": {
          "maxAttempts": 10,
          "initialBackoff": "0.1s",
          "max_backoff": "1s",
          "backoffMultiplier": 2,
          "retryableStatusCodes": ["UNAVAILABLE", "resource_exhausted", 10]
        }
      }, { "name": [{}], "timeout": "5s" }],
      "retryThrottling": { "maxTokens": 10, "tokenRatio": 0.1234 },
      "loadBalancingConfig": [{ "round_robin": {} }]
    }"#;

    #[test]
    fn a_typical_service_config_reads_with_grpcs_own_limits() {
        let s = parse(TYPICAL).unwrap();
        let retry = s.retry.unwrap();
        assert_eq!(
            (retry.attempts, retry.base, retry.cap),
            (5, 100 * MS, SECOND)
        );
        assert_eq!(s.deadline, Some(SECOND));
        assert_eq!(s.grpc.multiplier, 2.0);
        assert_eq!(
            s.grpc.retryable,
            [
                StatusCode::Unavailable,
                StatusCode::ResourceExhausted,
                StatusCode::Aborted
            ]
        );
        let t = s.grpc.throttling.unwrap();
        assert_eq!((t.max_tokens, t.token_ratio), (10.0, 0.123));
        let paths: Vec<&str> = s.notices.iter().map(|n| n.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "loadBalancingConfig",
                "methodConfig[0].retryPolicy.maxAttempts",
                "methodConfig[0].waitForReady",
                "methodConfig[1]",
            ]
        );
        let mut c = Preset::Saturday.config();
        apply(&s, &mut c).unwrap();
        assert_eq!(c.first_stack().unwrap().profile.key(), "grpc");
    }

    #[test]
    fn what_grpc_refuses_is_refused_with_its_path_and_range() {
        let cases = [
            (
                r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":1,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}"#,
                "methodConfig[0].retryPolicy.maxAttempts",
                "2 or more",
            ),
            (
                r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"0s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}"#,
                "methodConfig[0].retryPolicy.initialBackoff",
                "above 0",
            ),
            (
                r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":[]}}]}"#,
                "methodConfig[0].retryPolicy.retryableStatusCodes",
                "at least one",
            ),
            (
                r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"1s","retryableStatusCodes":["UNAVAILABLE"]}}]}"#,
                "methodConfig[0].retryPolicy.backoffMultiplier",
                "missing",
            ),
            (
                r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILBLE"]}}]}"#,
                "methodConfig[0].retryPolicy.retryableStatusCodes[0]",
                "status code",
            ),
            (
                r#"{"methodConfig":[{"timeout":"1s"}],"retryThrottling":{"maxTokens":1001,"tokenRatio":0.1}}"#,
                "retryThrottling.maxTokens",
                "1..=1000",
            ),
            (
                r#"{"methodConfig":[{"timeout":"soon"}]}"#,
                "methodConfig[0].timeout",
                "duration",
            ),
            (
                r#"{"methodConfig":[{"retryPolicy":{},"hedgingPolicy":{}}]}"#,
                "methodConfig[0]",
                "only one",
            ),
            (
                r#"{"retryThrottling":{"maxTokens":10,"tokenRatio":0.1}}"#,
                "methodConfig",
                "no method",
            ),
        ];
        for (text, path, says) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.path, path, "{text}");
            assert!(e.message.contains(says), "{text}: {}", e.message);
        }
    }

    #[test]
    fn a_value_past_the_simulators_range_names_the_service_config_field() {
        let text = r#"{"methodConfig":[{"timeout":"7200s"}]}"#;
        let e = apply_json(text, &mut Preset::Saturday.config()).unwrap_err();
        assert_eq!(e.path, "methodConfig[0].timeout");
        let text = r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":3,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":1000,"retryableStatusCodes":[14]}}]}"#;
        let e = apply_json(text, &mut Preset::Saturday.config()).unwrap_err();
        assert_eq!(e.path, "methodConfig[0].retryPolicy.backoffMultiplier");
    }

    #[test]
    fn it_is_told_from_the_other_libraries_by_its_shape() {
        assert!(looks_like_grpc(TYPICAL));
        assert!(!looks_like_grpc(r#"{"Retry":{"MaxRetryAttempts":2}}"#));
        assert!(!looks_like_grpc("resilience4j:\n  retry: {}\n"));
    }
}
