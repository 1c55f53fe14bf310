//! The knobs the page offers: each one a parameter of the cascade with a slider range, a unit
//! and the pattern it belongs to. Values travel through [`apply_set`], the same `key=value`
//! overrides the `cascade` CLI takes, so the page and the CLI cannot disagree on what a key means.

use serde::{Deserialize, Serialize};

use crate::resilience::{BreakerConfig, BulkheadConfig, Window};
use crate::sim::latency::Micros;
use crate::sim::model::CascadeConfig;
use crate::sim::scenario::apply_set;

const MS: f64 = 1_000.0;
const SECOND: f64 = 1_000_000.0;

/// A resilience pattern the student can switch on and off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pattern {
    /// A timeout on the call to inventory.
    Timeout,
    /// A circuit breaker around the call.
    Breaker,
    /// A bulkhead around the breaker.
    Bulkhead,
}

impl Pattern {
    /// Every pattern, in the order the lesson adds them.
    pub const ALL: [Pattern; 3] = [Pattern::Timeout, Pattern::Breaker, Pattern::Bulkhead];

    /// Name on the switch.
    pub fn label(self) -> &'static str {
        match self {
            Pattern::Timeout => "Timeout",
            Pattern::Breaker => "Circuit breaker",
            Pattern::Bulkhead => "Bulkhead",
        }
    }

    /// A short key for element ids and URLs.
    pub fn key(self) -> &'static str {
        match self {
            Pattern::Timeout => "timeout",
            Pattern::Breaker => "breaker",
            Pattern::Bulkhead => "bulkhead",
        }
    }

    /// Whether `cfg` uses this pattern.
    pub fn is_on(self, cfg: &CascadeConfig) -> bool {
        match self {
            Pattern::Timeout => cfg.timeout.is_some(),
            Pattern::Breaker => cfg.breaker.is_some(),
            Pattern::Bulkhead => cfg.bulkhead.is_some(),
        }
    }
}

/// Which patterns are switched on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Patterns {
    /// Timeout on.
    pub timeout: bool,
    /// Breaker on.
    pub breaker: bool,
    /// Bulkhead on.
    pub bulkhead: bool,
}

impl Patterns {
    /// The patterns `cfg` uses.
    pub fn of(cfg: &CascadeConfig) -> Self {
        Patterns {
            timeout: cfg.timeout.is_some(),
            breaker: cfg.breaker.is_some(),
            bulkhead: cfg.bulkhead.is_some(),
        }
    }

    /// Whether `pattern` is on.
    pub fn get(self, pattern: Pattern) -> bool {
        match pattern {
            Pattern::Timeout => self.timeout,
            Pattern::Breaker => self.breaker,
            Pattern::Bulkhead => self.bulkhead,
        }
    }

    /// Switches `pattern` on or off.
    pub fn set(&mut self, pattern: Pattern, on: bool) {
        match pattern {
            Pattern::Timeout => self.timeout = on,
            Pattern::Breaker => self.breaker = on,
            Pattern::Bulkhead => self.bulkhead = on,
        }
    }
}

/// `cfg` with every pattern present: those it lacks get the lesson's values, so a student who
/// switches one on starts from the lesson's numbers.
pub fn with_every_pattern(cfg: &CascadeConfig) -> CascadeConfig {
    let mut full = cfg.clone();
    full.timeout.get_or_insert(300_000);
    if full.breaker.is_none() {
        full.breaker = Some(BreakerConfig::cascade_sim());
    }
    if full.bulkhead.is_none() {
        full.bulkhead = Some(BulkheadConfig::cascade_sim());
    }
    full
}

/// `full` with the patterns that are off taken out.
pub fn with_patterns(full: &CascadeConfig, on: Patterns) -> CascadeConfig {
    let mut cfg = full.clone();
    if !on.timeout {
        cfg.timeout = None;
    }
    if !on.breaker {
        cfg.breaker = None;
    }
    if !on.bulkhead {
        cfg.bulkhead = None;
    }
    cfg
}

/// How a knob's number is shown and turned into an override.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds (sent as `123ms`).
    Millis,
    /// Seconds (sent as seconds).
    Seconds,
    /// A plain count.
    Count,
    /// Requests per second.
    PerSecond,
    /// A percentage (sent as a ratio, 50 -> 0.5).
    Percent,
}

impl Unit {
    /// The unit as the page prints it.
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::Millis => "ms",
            Unit::Seconds => "s",
            Unit::Count => "",
            Unit::PerSecond => "req/s",
            Unit::Percent => "%",
        }
    }
}

/// One slider of the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knob {
    /// The override key ([`apply_set`]); also the element id.
    pub key: &'static str,
    /// What the student (and the screen reader) reads.
    pub label: &'static str,
    /// One line on what it does.
    pub hint: &'static str,
    /// Unit of `min`, `max`, `step` and the value.
    pub unit: Unit,
    /// Lowest value the slider offers.
    pub min: f64,
    /// Highest value the slider offers.
    pub max: f64,
    /// Slider step.
    pub step: f64,
    /// The pattern the knob tunes, if any (its slider is greyed out while the pattern is off).
    pub pattern: Option<Pattern>,
}

/// Every knob, grouped by what it tunes.
pub const KNOBS: [Knob; 13] = [
    Knob {
        key: "rate",
        label: "Arrival rate",
        hint: "Orders per second sent to the service.",
        unit: Unit::PerSecond,
        min: 10.0,
        max: 500.0,
        step: 10.0,
        pattern: None,
    },
    Knob {
        key: "threads",
        label: "Worker threads",
        hint: "Workers in orders; a request waits in the queue until one is free.",
        unit: Unit::Count,
        min: 1.0,
        max: 200.0,
        step: 1.0,
        pattern: None,
    },
    Knob {
        key: "degrade_at",
        label: "Inventory degrades at",
        hint: "Calls that start after this time get the degraded latency.",
        unit: Unit::Seconds,
        min: 0.0,
        max: 12.0,
        step: 0.5,
        pattern: None,
    },
    Knob {
        key: "fast",
        label: "Healthy latency",
        hint: "How long inventory takes before it degrades.",
        unit: Unit::Millis,
        min: 1.0,
        max: 500.0,
        step: 1.0,
        pattern: None,
    },
    Knob {
        key: "slow",
        label: "Degraded latency",
        hint: "How long inventory takes once it is sick.",
        unit: Unit::Millis,
        min: 50.0,
        max: 10_000.0,
        step: 50.0,
        pattern: None,
    },
    Knob {
        key: "timeout",
        label: "Timeout",
        hint: "A call slower than this gives up and holds its worker exactly this long.",
        unit: Unit::Millis,
        min: 10.0,
        max: 5_000.0,
        step: 10.0,
        pattern: Some(Pattern::Timeout),
    },
    Knob {
        key: "window",
        label: "Breaker window",
        hint: "Results younger than this count towards the failure ratio.",
        unit: Unit::Seconds,
        min: 0.5,
        max: 30.0,
        step: 0.5,
        pattern: Some(Pattern::Breaker),
    },
    Knob {
        key: "min_calls",
        label: "Minimum calls",
        hint: "The circuit may open only with at least this many results in the window.",
        unit: Unit::Count,
        min: 1.0,
        max: 200.0,
        step: 1.0,
        pattern: Some(Pattern::Breaker),
    },
    Knob {
        key: "failure_ratio",
        label: "Failure ratio",
        hint: "The circuit opens when this share of the window's results failed.",
        unit: Unit::Percent,
        min: 5.0,
        max: 100.0,
        step: 5.0,
        pattern: Some(Pattern::Breaker),
    },
    Knob {
        key: "cooldown",
        label: "Cool-down",
        hint: "How long the circuit stays open before it lets probes through.",
        unit: Unit::Millis,
        min: 100.0,
        max: 30_000.0,
        step: 100.0,
        pattern: Some(Pattern::Breaker),
    },
    Knob {
        key: "probes",
        label: "Half-open probes",
        hint: "Calls let through at once to test a recovering inventory.",
        unit: Unit::Count,
        min: 1.0,
        max: 20.0,
        step: 1.0,
        pattern: Some(Pattern::Breaker),
    },
    Knob {
        key: "permits",
        label: "Bulkhead permits",
        hint: "Calls to inventory allowed in flight at once.",
        unit: Unit::Count,
        min: 1.0,
        max: 64.0,
        step: 1.0,
        pattern: Some(Pattern::Bulkhead),
    },
    Knob {
        key: "max_wait",
        label: "Bulkhead max wait",
        hint: "How long a call waits for a permit before it is turned away.",
        unit: Unit::Millis,
        min: 0.0,
        max: 1_000.0,
        step: 5.0,
        pattern: Some(Pattern::Bulkhead),
    },
];

/// The knob with `key`.
pub fn knob(key: &str) -> Option<&'static Knob> {
    KNOBS.iter().find(|k| k.key == key)
}

fn micros_in(unit: Unit, micros: Micros) -> f64 {
    match unit {
        Unit::Seconds => micros as f64 / SECOND,
        _ => micros as f64 / MS,
    }
}

impl Knob {
    /// The knob's value in `cfg` (which should have every pattern, see [`with_every_pattern`]).
    pub fn read(&self, cfg: &CascadeConfig) -> f64 {
        let breaker = cfg.breaker.as_ref();
        let bulkhead = cfg.bulkhead.as_ref();
        match self.key {
            "rate" => cfg.rate,
            "threads" => cfg.threads.into(),
            "degrade_at" => micros_in(self.unit, cfg.degrade_at),
            "fast" => micros_in(self.unit, cfg.fast),
            "slow" => micros_in(self.unit, cfg.slow),
            "timeout" => micros_in(self.unit, cfg.timeout.unwrap_or(0)),
            "window" => match breaker.map(|b| b.window) {
                Some(Window::Time(w)) => micros_in(self.unit, w),
                Some(Window::Count(n)) => n.into(),
                None => 0.0,
            },
            "min_calls" => breaker.map_or(0.0, |b| b.min_calls.into()),
            "failure_ratio" => breaker.map_or(0.0, |b| (b.failure_ratio * 100.0).round()),
            "cooldown" => micros_in(self.unit, breaker.map_or(0, |b| b.cooldown)),
            "probes" => breaker.map_or(0.0, |b| b.half_open_probes.into()),
            "permits" => bulkhead.map_or(0.0, |b| b.permits.into()),
            "max_wait" => micros_in(self.unit, bulkhead.map_or(0, |b| b.max_wait)),
            _ => 0.0,
        }
    }

    /// Sets the knob to `value` in `cfg`, clamped to the slider's range. Returns a message
    /// naming the knob and its range when `value` was outside it or not a number.
    pub fn write(&self, cfg: &mut CascadeConfig, value: f64) -> Option<String> {
        let (value, notice) = if !value.is_finite() {
            (self.read(cfg), Some(self.range_message("needs a number")))
        } else if value < self.min || value > self.max {
            let clamped = value.clamp(self.min, self.max);
            (
                clamped,
                Some(self.range_message(&format!("was {value}; using {clamped}"))),
            )
        } else {
            (value, None)
        };
        match apply_set(cfg, self.key, &self.override_text(value)) {
            Ok(()) => notice,
            Err(e) => Some(e.to_string()),
        }
    }

    /// `value` (in the knob's unit) as the `key=value` override text: seconds, or an `ms`
    /// suffix, as the CLI and permalinks write them.
    pub fn override_text(&self, value: f64) -> String {
        match self.unit {
            Unit::Millis => format!("{value}ms"),
            Unit::Seconds | Unit::PerSecond => format!("{value}"),
            Unit::Count => format!("{}", value.round() as u64),
            Unit::Percent => format!("{}", value / 100.0),
        }
    }

    fn range_message(&self, what: &str) -> String {
        format!(
            "{} ({}) must be between {} and {} {}; it {what}.",
            self.label,
            self.key,
            self.min,
            self.max,
            self.unit.symbol()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Scenario;

    #[test]
    fn every_knob_reads_back_what_it_wrote() {
        let mut cfg = with_every_pattern(&Scenario::None.config());
        for k in KNOBS {
            for v in [k.min, k.max, (k.min + k.max) / 2.0] {
                let v = (v / k.step).round() * k.step;
                assert_eq!(k.write(&mut cfg, v), None, "{}", k.key);
                let back = k.read(&cfg);
                assert!((back - v).abs() < 1e-9, "{}: wrote {v}, read {back}", k.key);
            }
        }
        cfg.validate().unwrap();
    }

    #[test]
    fn out_of_range_values_are_clamped_with_a_message_naming_the_knob() {
        let mut cfg = with_every_pattern(&Scenario::Cb.config());
        let k = knob("cooldown").unwrap();
        let msg = k.write(&mut cfg, 1e9).unwrap();
        assert!(msg.contains("Cool-down") && msg.contains("100") && msg.contains("30000"));
        assert_eq!(k.read(&cfg), 30_000.0);
        let msg = k.write(&mut cfg, f64::NAN).unwrap();
        assert!(msg.contains("needs a number"), "{msg}");
        assert_eq!(k.read(&cfg), 30_000.0);
        assert!(knob("probes").unwrap().write(&mut cfg, -4.0).is_some());
        assert_eq!(cfg.breaker.as_ref().unwrap().half_open_probes, 1);
    }

    #[test]
    fn slider_defaults_are_the_lessons_values() {
        let cfg = with_every_pattern(&Scenario::Bulkhead.config());
        let read = |key| knob(key).unwrap().read(&cfg);
        assert_eq!(read("rate"), 100.0);
        assert_eq!(read("threads"), 32.0);
        assert_eq!(read("timeout"), 300.0);
        assert_eq!(read("window"), 10.0);
        assert_eq!(read("failure_ratio"), 50.0);
        assert_eq!(read("cooldown"), 2_000.0);
        assert_eq!(read("permits"), 8.0);
        assert_eq!(read("max_wait"), 50.0);
        for k in KNOBS {
            let v = k.read(&cfg);
            assert!(
                v >= k.min && v <= k.max,
                "{} = {v} is off its slider",
                k.key
            );
        }
    }

    #[test]
    fn patterns_switch_off_and_back_on_with_their_values() {
        let mut full = with_every_pattern(&Scenario::None.config());
        knob("permits").unwrap().write(&mut full, 3.0);
        let mut on = Patterns::of(&Scenario::None.config());
        assert_eq!(with_patterns(&full, on), Scenario::None.config());
        on.set(Pattern::Bulkhead, true);
        let cfg = with_patterns(&full, on);
        assert_eq!(cfg.bulkhead.as_ref().unwrap().permits, 3);
        assert!(Pattern::Bulkhead.is_on(&cfg) && !Pattern::Breaker.is_on(&cfg));
    }
}
