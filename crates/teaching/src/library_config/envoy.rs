//! An Envoy (or Istio) configuration read into the playground's terms: a route's
//! `retry_policy` and `timeout`, and a cluster's `circuit_breakers` and `outlier_detection`,
//! wherever they sit in the pasted YAML (a whole bootstrap, a route, a cluster, or the blocks
//! alone). Inventory is then called through an Envoy sidecar with those settings
//! ([`apply`]). What Envoy takes but the simulator does not model is named in a notice; a value
//! Envoy would refuse is an error naming its path and what Envoy accepts.

use super::resilience4j::Notice;
use super::yaml::{load, Yaml};
use crate::resilience::envoy_retry::{DEFAULT_BASE, DEFAULT_MAX_REQUESTS, DEFAULT_ROUTE_TIMEOUT};
use crate::resilience::{BulkheadConfig, EnvoyRetryRules, Micros, RetryLimit, RetryOn, MS, SECOND};
use crate::sim::model::{OutlierDetection, SidecarConfig, SimConfig, StackConfig};

/// What was read: the settings Envoy would run with (its defaults where the text is silent)
/// and the notices.
#[derive(Debug, Clone, PartialEq)]
pub struct EnvoySettings {
    /// The route's timeout (`None`: `0s`, no timeout).
    pub route_timeout: Option<Micros>,
    /// Retries, per-try timeout, back-off and Envoy's rules.
    pub sidecar: SidecarConfig,
    /// The cluster's `max_requests`.
    pub max_requests: u32,
    /// The cluster's consecutive-5xx ejection, when it has `outlier_detection`.
    pub outlier_detection: Option<OutlierDetection>,
    /// What was not simulated, or was ignored.
    pub notices: Vec<Notice>,
}

/// Reads `text`: the settings, or the one error that stops the run.
pub fn parse(text: &str) -> Result<EnvoySettings, Notice> {
    let docs = load(text).map_err(|e| Notice {
        path: format!("line {}", e.line),
        message: e.message,
    })?;
    let mut reader = Reader::default();
    let route = docs.iter().find_map(|d| find(d, "retry_policy", ""));
    let cluster_breakers = docs.iter().find_map(|d| find(d, "circuit_breakers", ""));
    let outliers = docs.iter().find_map(|d| find(d, "outlier_detection", ""));
    if route.is_none() && cluster_breakers.is_none() && outliers.is_none() {
        return Err(Notice {
            path: "(top)".to_string(),
            message: "no `retry_policy`, `circuit_breakers` or `outlier_detection` found (a \
                      route's retry policy or a cluster's limits, as Envoy's YAML writes them)"
                .to_string(),
        });
    }
    let mut sidecar = SidecarConfig {
        retries: 0,
        per_try_timeout: None,
        base: DEFAULT_BASE,
        cap: 10 * DEFAULT_BASE,
        envoy: Some(EnvoyRetryRules::default()),
    };
    let mut route_timeout = Some(DEFAULT_ROUTE_TIMEOUT);
    match route {
        Some(found) => {
            reader.retry_policy(&found, &mut sidecar)?;
            if let Some(timeout) = found.parent.get("timeout") {
                let path = join(&found.parent_path, "timeout");
                let t = reader.duration(&path, timeout)?;
                route_timeout = (t > 0).then_some(t);
            }
        }
        None => reader.note(
            "retry_policy",
            "none found: Envoy does not retry, and the route's timeout is its default, 15 s",
        ),
    }
    let mut limit = RetryLimit::default();
    let mut max_requests = DEFAULT_MAX_REQUESTS;
    if let Some(found) = cluster_breakers {
        reader.circuit_breakers(&found, &mut limit, &mut max_requests)?;
    }
    if let Some(rules) = sidecar.envoy.as_mut() {
        rules.limit = limit;
    }
    let outlier_detection = match outliers {
        Some(found) => Some(reader.outlier_detection(&found)?),
        None => None,
    };
    Ok(EnvoySettings {
        route_timeout,
        sidecar,
        max_requests,
        outlier_detection,
        notices: reader.notices,
    })
}

/// Puts the settings into `cfg` (its traffic, faults, service and inventory's servers or hosts
/// stay): inventory is called through the Envoy sidecar alone, within the route's timeout,
/// behind the cluster's `max_requests` (a bulkhead that never queues); outlier detection ejects
/// inventory's hosts when it has several. Gives the notices; an error names the Envoy field
/// whose value the simulator cannot take.
pub fn apply(settings: &EnvoySettings, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    let mut notices = settings.notices.clone();
    let inventory = cfg.first_mut();
    let bulkhead = BulkheadConfig {
        dependency: inventory.name.clone(),
        permits: settings.max_requests,
        max_wait: 0,
    };
    inventory.stack = StackConfig {
        timeout: settings.route_timeout,
        sidecar: Some(settings.sidecar.clone()),
        bulkhead: Some(bulkhead),
        ..StackConfig::default()
    };
    match (settings.outlier_detection, inventory.hosts.as_mut()) {
        (Some(o), Some(hosts)) => hosts.outlier_detection = Some(o),
        (Some(_), None) => notices.push(Notice {
            path: "outlier_detection".to_string(),
            message: "inventory is one host in this scenario, so no host is ejected (`--set \
                      hosts=4` gives it four)"
                .to_string(),
        }),
        (None, _) => {}
    }
    cfg.validate().map_err(|e| Notice {
        path: envoy_path(e.field),
        message: format!("{} is out of the simulator's range ({})", e.value, e.range),
    })?;
    Ok(notices)
}

/// Reads `text` and applies it to `cfg`: the notices, or the one error that stops the run.
pub fn apply_yaml(text: &str, cfg: &mut SimConfig) -> Result<Vec<Notice>, Notice> {
    apply(&parse(text)?, cfg)
}

/// Whether a pasted text reads as Envoy's rather than Resilience4j's: it names one of Envoy's
/// blocks and no `resilience4j:` block.
pub fn looks_like_envoy(text: &str) -> bool {
    let names = |key: &str| text.contains(&format!("{key}:"));
    !names("resilience4j")
        && (names("retry_policy") || names("circuit_breakers") || names("outlier_detection"))
}

/// The Envoy field a simulator parameter comes from.
fn envoy_path(field: &str) -> String {
    match field {
        "timeout" => "route.timeout",
        "sidecar_retries" => "retry_policy.num_retries",
        "per_try_timeout" => "retry_policy.per_try_timeout",
        "sidecar_base" => "retry_policy.retry_back_off.base_interval",
        "sidecar_cap" => "retry_policy.retry_back_off.max_interval",
        "permits" | "max_permits" => "circuit_breakers.thresholds.max_requests",
        "max_retries" => "circuit_breakers.thresholds.max_retries",
        "retry_budget_percent" => "circuit_breakers.thresholds.retry_budget.budget_percent",
        "min_retry_concurrency" => "circuit_breakers.thresholds.retry_budget.min_retry_concurrency",
        other => other,
    }
    .to_string()
}

/// A block found by its key: its value, the mapping holding it, and their dotted paths.
struct Found<'a> {
    value: &'a Yaml,
    path: String,
    parent: &'a Yaml,
    parent_path: String,
}

/// The first value under `key`, depth first, in document order.
fn find<'a>(node: &'a Yaml, key: &str, at: &str) -> Option<Found<'a>> {
    match node {
        Yaml::Hash(entries) => {
            for (k, v) in entries {
                if k.as_str() == Some(key) {
                    return Some(Found {
                        value: v,
                        path: join(at, key),
                        parent: node,
                        parent_path: at.to_string(),
                    });
                }
            }
            entries.iter().find_map(|(k, v)| {
                let name = k.as_str().unwrap_or("?");
                find(v, key, &join(at, name))
            })
        }
        Yaml::Array(items) => items
            .iter()
            .enumerate()
            .find_map(|(i, v)| find(v, key, &format!("{at}[{i}]"))),
        _ => None,
    }
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

#[derive(Default)]
struct Reader {
    notices: Vec<Notice>,
}

/// Fields Envoy has that change nothing the simulator models, by block.
const RETRY_POLICY_IGNORED: [&str; 11] = [
    "retry_host_predicate",
    "host_selection_retry_max_attempts",
    "retriable_status_codes",
    "retriable_headers",
    "retriable_request_headers",
    "retry_priority",
    "retry_options_predicates",
    "rate_limited_retry_back_off",
    "per_try_idle_timeout",
    "retry_on_grpc",
    "num_retries_on_timeout",
];

impl Reader {
    fn note(&mut self, path: &str, message: &str) {
        self.notices.push(Notice {
            path: path.to_string(),
            message: message.to_string(),
        });
    }

    fn error<T>(path: &str, value: &Yaml, accepted: &str) -> Result<T, Notice> {
        Err(Notice {
            path: path.to_string(),
            message: format!("{} is not {accepted}", shown(value)),
        })
    }

    /// A protobuf duration as Envoy's YAML writes it: `0.25s`, `15s`.
    fn duration(&mut self, path: &str, value: &Yaml) -> Result<Micros, Notice> {
        let accepted = "a duration such as \"0.25s\" (seconds, with an s)";
        let seconds = value
            .as_str()
            .and_then(|s| s.trim().strip_suffix('s'))
            .and_then(|n| n.trim().parse::<f64>().ok())
            .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 315_576_000_000.0);
        match seconds {
            Some(s) => Ok((s * SECOND as f64).round() as Micros),
            None => Self::error(path, value, accepted),
        }
    }

    /// A `UInt32Value`: a whole number 0..=4294967295.
    fn count(&mut self, path: &str, value: &Yaml) -> Result<u32, Notice> {
        match value.as_i64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => Ok(n),
            None => Self::error(path, value, "a whole number from 0 to 4294967295"),
        }
    }

    /// The entries of a block that must be a mapping.
    fn entries<'a>(path: &str, value: &'a Yaml) -> Result<&'a [(Yaml, Yaml)], Notice> {
        match value {
            Yaml::Hash(entries) => Ok(entries),
            Yaml::Null => Ok(&[]),
            other => Self::error(path, other, "a mapping of fields"),
        }
    }

    fn retry_policy(
        &mut self,
        found: &Found<'_>,
        sidecar: &mut SidecarConfig,
    ) -> Result<(), Notice> {
        // Envoy's default when the policy gives no count.
        sidecar.retries = 1;
        let mut retry_on = RetryOn::default();
        for (key, value) in Self::entries(&found.path, found.value)? {
            let name = key.as_str().unwrap_or("?");
            let path = join(&found.path, name);
            match name {
                "retry_on" => {
                    let Some(list) = value.as_str() else {
                        return Self::error(
                            &path,
                            value,
                            "a list of conditions such as \"5xx,reset\"",
                        );
                    };
                    let parsed = RetryOn::parse(list);
                    retry_on = parsed.retry_on;
                    for never in parsed.never_met {
                        self.note(
                            &path,
                            &format!("`{never}` is kept, but no failure of this scenario is one"),
                        );
                    }
                    for unknown in parsed.unknown {
                        self.note(
                            &path,
                            &format!("`{unknown}` is not a condition Envoy knows; ignored"),
                        );
                    }
                }
                "num_retries" => sidecar.retries = self.count(&path, value)?,
                "per_try_timeout" => {
                    let t = self.duration(&path, value)?;
                    sidecar.per_try_timeout = (t > 0).then_some(t);
                }
                "retry_back_off" => {
                    let mut max = None;
                    for (k, v) in Self::entries(&path, value)? {
                        let field = k.as_str().unwrap_or("?");
                        let here = join(&path, field);
                        match field {
                            "base_interval" => {
                                let base = self.duration(&here, v)?;
                                if base == 0 {
                                    return Self::error(&here, v, "a duration above 0s");
                                }
                                // Envoy rounds an interval under 1 ms up to 1 ms.
                                sidecar.base = base.max(MS);
                            }
                            "max_interval" => max = Some((here, v)),
                            _ => self.note(&here, "not a field of retry_back_off; ignored"),
                        }
                    }
                    sidecar.cap = 10 * sidecar.base;
                    if let Some((here, v)) = max {
                        let cap = self.duration(&here, v)?;
                        if cap < sidecar.base {
                            return Self::error(&here, v, "at least the base_interval");
                        }
                        sidecar.cap = cap;
                    }
                }
                ignored if RETRY_POLICY_IGNORED.contains(&ignored) => {
                    self.note(&path, "not simulated; ignored")
                }
                _ => self.note(&path, "not a field of Envoy's retry_policy; ignored"),
            }
        }
        if retry_on == RetryOn::default() {
            self.note(
                &join(&found.path, "retry_on"),
                "no condition this scenario can meet: Envoy never retries here",
            );
        }
        if let Some(rules) = sidecar.envoy.as_mut() {
            rules.retry_on = retry_on;
        }
        Ok(())
    }

    fn circuit_breakers(
        &mut self,
        found: &Found<'_>,
        limit: &mut RetryLimit,
        max_requests: &mut u32,
    ) -> Result<(), Notice> {
        for (key, value) in Self::entries(&found.path, found.value)? {
            let name = key.as_str().unwrap_or("?");
            let path = join(&found.path, name);
            match name {
                "thresholds" => {
                    let Yaml::Array(items) = value else {
                        return Self::error(&path, value, "a list of thresholds");
                    };
                    // The thresholds of the default priority: the first without a priority or
                    // with DEFAULT (Envoy uses the first one listed for a priority).
                    let default = items.iter().enumerate().find(|(_, t)| {
                        t.get("priority")
                            .and_then(Yaml::as_str)
                            .is_none_or(|p| p == "DEFAULT")
                    });
                    for i in 0..items.len() {
                        if Some(i) != default.map(|(i, _)| i) {
                            self.note(
                                &format!("{path}[{i}]"),
                                "thresholds for another priority: every request here has the default one",
                            );
                        }
                    }
                    if let Some((i, t)) = default {
                        self.thresholds(&format!("{path}[{i}]"), t, limit, max_requests)?;
                    }
                }
                "per_host_thresholds" => self.note(&path, "not simulated; ignored"),
                _ => self.note(&path, "not a field of Envoy's circuit_breakers; ignored"),
            }
        }
        Ok(())
    }

    fn thresholds(
        &mut self,
        path: &str,
        value: &Yaml,
        limit: &mut RetryLimit,
        max_requests: &mut u32,
    ) -> Result<(), Notice> {
        let mut max_retries = None;
        let mut budget = None;
        for (key, v) in Self::entries(path, value)? {
            let name = key.as_str().unwrap_or("?");
            let here = join(path, name);
            match name {
                "priority" => {}
                "max_requests" => *max_requests = self.count(&here, v)?,
                "max_retries" => max_retries = Some(self.count(&here, v)?),
                "retry_budget" => {
                    let mut percent = RetryLimit::DEFAULT_BUDGET_PERCENT;
                    let mut min_concurrency = RetryLimit::DEFAULT_MIN_CONCURRENCY;
                    for (k, b) in Self::entries(&here, v)? {
                        let field = k.as_str().unwrap_or("?");
                        let at = join(&here, field);
                        match field {
                            "budget_percent" => {
                                let value = b.get("value").unwrap_or(b);
                                percent = match value.as_f64() {
                                    Some(p) if (0.0..=100.0).contains(&p) => p,
                                    _ => {
                                        return Self::error(
                                            &join(&at, "value"),
                                            value,
                                            "a percentage from 0 to 100",
                                        )
                                    }
                                };
                            }
                            "min_retry_concurrency" => min_concurrency = self.count(&at, b)?,
                            _ => self.note(&at, "not a field of retry_budget; ignored"),
                        }
                    }
                    budget = Some(RetryLimit::Budget {
                        percent,
                        min_concurrency,
                    });
                }
                "max_connections" | "max_pending_requests" | "max_connection_pools" => self.note(
                    &here,
                    "not simulated: the simulator has no connections or connection pools",
                ),
                "track_remaining" => {}
                _ => self.note(&here, "not a field of Envoy's thresholds; ignored"),
            }
        }
        *limit = match (budget, max_retries) {
            (Some(b), Some(_)) => {
                self.note(
                    &join(path, "max_retries"),
                    "the retry budget replaces max_retries, as in Envoy",
                );
                b
            }
            (Some(b), None) => b,
            (None, Some(n)) => RetryLimit::MaxRetries(n),
            (None, None) => RetryLimit::default(),
        };
        Ok(())
    }

    fn outlier_detection(&mut self, found: &Found<'_>) -> Result<OutlierDetection, Notice> {
        let mut o = OutlierDetection::envoy();
        for (key, value) in Self::entries(&found.path, found.value)? {
            let name = key.as_str().unwrap_or("?");
            let path = join(&found.path, name);
            match name {
                "consecutive_5xx" => o.consecutive_errors = self.count(&path, value)?,
                "base_ejection_time" => o.base_ejection = self.duration(&path, value)?,
                "max_ejection_percent" => {
                    let p = self.count(&path, value)?;
                    if p != 10 {
                        self.note(&path, "the simulator ejects at most a tenth of the hosts (at least one), Envoy's default");
                    }
                }
                "interval" | "enforcing_consecutive_5xx" | "max_ejection_time" => {
                    self.note(&path, "not simulated: a host is ejected at its fifth error in a row, for the base time times its ejections (at most 300 s)")
                }
                _ => self.note(&path, "not simulated; ignored"),
            }
        }
        Ok(o)
    }
}

/// A value as a notice quotes it.
fn shown(value: &Yaml) -> String {
    match value {
        Yaml::String(s) => format!("\"{s}\""),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(r) => r.clone(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => "nothing".to_string(),
        Yaml::Array(_) => "a list".to_string(),
        Yaml::Hash(_) => "a mapping".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Preset;

    const ROUTE_AND_CLUSTER: &str = "\
route_config:
  virtual_hosts:
  - name: inventory
    domains: [\"*\"]
    routes:
    - match: { prefix: \"/\" }
      route:
        cluster: inventory
        timeout: 2s
        retry_policy:
          retry_on: \"5xx,retriable-4xx,reset\"
          num_retries: 3
          per_try_timeout: 0.3s
          retry_back_off:
            base_interval: 0.05s
clusters:
- name: inventory
  circuit_breakers:
    thresholds:
    - max_requests: 200
      max_retries: 10
      retry_budget:
        budget_percent: { value: 25.0 }
        min_retry_concurrency: 5
  outlier_detection:
    consecutive_5xx: 3
    base_ejection_time: 10s
    interval: 5s
";

    #[test]
    fn a_route_and_its_cluster_are_read_from_anywhere_in_the_text() {
        let s = parse(ROUTE_AND_CLUSTER).unwrap();
        assert_eq!(s.route_timeout, Some(2 * SECOND));
        assert_eq!(s.sidecar.retries, 3);
        assert_eq!(s.sidecar.per_try_timeout, Some(300 * MS));
        assert_eq!((s.sidecar.base, s.sidecar.cap), (50 * MS, 500 * MS));
        let rules = s.sidecar.envoy.unwrap();
        assert!(rules.retry_on.gateway_errors && rules.retry_on.conflicts);
        assert_eq!(
            rules.limit,
            RetryLimit::Budget {
                percent: 25.0,
                min_concurrency: 5
            }
        );
        assert_eq!(s.max_requests, 200);
        assert_eq!(
            s.outlier_detection,
            Some(OutlierDetection {
                consecutive_errors: 3,
                base_ejection: 10 * SECOND
            })
        );
        let paths: Vec<&str> = s.notices.iter().map(|n| n.path.as_str()).collect();
        let routes = "route_config.virtual_hosts[0].routes[0].route";
        assert!(
            paths.contains(&format!("{routes}.retry_policy.retry_on").as_str()),
            "{paths:?}"
        );
        assert!(paths.contains(&"clusters[0].circuit_breakers.thresholds[0].max_retries"));
        assert!(paths.contains(&"clusters[0].outlier_detection.interval"));
    }

    #[test]
    fn envoys_defaults_fill_what_the_text_leaves_out() {
        let s = parse("retry_policy:\n  retry_on: 5xx\n").unwrap();
        assert_eq!(s.route_timeout, Some(DEFAULT_ROUTE_TIMEOUT));
        assert_eq!(s.sidecar, SidecarConfig::envoy());
        assert_eq!(s.max_requests, DEFAULT_MAX_REQUESTS);
        assert_eq!(s.outlier_detection, None);
        assert!(s.notices.is_empty(), "{:?}", s.notices);
    }

    #[test]
    fn a_value_envoy_refuses_names_its_path_and_what_envoy_takes() {
        let cases = [
            ("retry_policy:\n  num_retries: -1\n", "retry_policy.num_retries"),
            ("retry_policy:\n  per_try_timeout: 300ms\n", "retry_policy.per_try_timeout"),
            (
                "retry_policy:\n  retry_back_off:\n    base_interval: 0s\n",
                "retry_policy.retry_back_off.base_interval",
            ),
            (
                "retry_policy:\n  retry_back_off:\n    base_interval: 1s\n    max_interval: 0.5s\n",
                "retry_policy.retry_back_off.max_interval",
            ),
            (
                "circuit_breakers:\n  thresholds:\n  - retry_budget:\n      budget_percent: { value: 120 }\n",
                "circuit_breakers.thresholds[0].retry_budget.budget_percent.value",
            ),
        ];
        for (text, path) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.path, path, "{text}");
            assert!(e.message.contains(" is not "), "{e}");
        }
        assert!(parse("timeout: 1s\n")
            .unwrap_err()
            .message
            .contains("no `retry_policy`"));
        assert_eq!(parse("a: [1, 2\n").unwrap_err().path, "line 1");
    }

    #[test]
    fn applied_inventory_runs_through_the_sidecar_alone_and_a_range_error_names_envoys_field() {
        let mut cfg = Preset::Saturday.config();
        let notices = apply_yaml(ROUTE_AND_CLUSTER, &mut cfg).unwrap();
        let stack = cfg.first_stack().unwrap();
        assert_eq!(stack.timeout, Some(2 * SECOND));
        assert!(stack.retry.is_none() && stack.breaker.is_none());
        assert_eq!(stack.bulkhead.as_ref().unwrap().permits, 200);
        assert_eq!(stack.bulkhead.as_ref().unwrap().max_wait, 0);
        assert!(
            notices.iter().any(|n| n.path == "outlier_detection"),
            "one host"
        );
        let mut cfg = Preset::Saturday.config();
        let e = apply_yaml("retry_policy:\n  num_retries: 11\n", &mut cfg).unwrap_err();
        assert_eq!(e.path, "retry_policy.num_retries");
        assert!(e.message.contains("0..=10"), "{e}");
    }

    #[test]
    fn envoys_text_is_told_from_resilience4js() {
        assert!(looks_like_envoy("retry_policy:\n  retry_on: 5xx\n"));
        assert!(!looks_like_envoy(
            "resilience4j:\n  retry:\n    retry_policy: x\n"
        ));
        assert!(!looks_like_envoy("spring:\n  application: x\n"));
    }
}
