//! A parameter as one row of the table `--set`, links, widget attributes and the page's knobs
//! read ([`crate::sim::params::PARAMS`]): its key, its kind and range, how it is written into a
//! [`SimConfig`] and read back, what part of the config it needs. The types live beside the
//! model so that a pattern's room can declare its own rows beside its mechanism;
//! the table, its parsing and its checks are `params`'.

use super::part::Part;
use super::SimConfig;
use crate::resilience::{Delay, SECOND};
use crate::sim::latency::Micros;
use crate::sim::pattern::Pattern;

/// One parameter: a row of [`crate::sim::params::PARAMS`].
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// The key, as `--set`, permalinks, widget attributes and error messages name it.
    pub key: &'static str,
    /// One line on what it sets.
    pub doc: &'static str,
    /// The unit its values are in, as a person reads it (empty for a plain count or a name).
    pub unit: &'static str,
    /// What values it takes, and how one is written into the config.
    pub kind: Kind,
    /// The part of the config it needs, and what setting it does while that part is off.
    pub needs: Needs,
    /// Its value in a config, if the part it tunes is there.
    pub read: fn(&SimConfig) -> Option<Value>,
    /// The fields a check of the config names for it, as `part.field`
    /// (`breaker.half_open_probes`), where the config calls them otherwise than the key;
    /// empty when the field is called as the key (`permits`).
    pub fields: &'static [&'static str],
    /// How the playground's panel shows it, if the panel does; a row without one is still a
    /// control wherever a key is taken (a lesson's `@try`, a link, a widget attribute).
    pub panel: Option<Panel>,
}

/// A row as the playground's panel shows it: the words a student reads, and the stretch of
/// the row's range its slider covers (a link still takes the whole range).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Panel {
    /// What the student (and the screen reader) reads.
    pub label: &'static str,
    /// The unit of `min`, `max`, `step` and the slider's value.
    pub unit: Unit,
    /// The slider's lowest value (within the row's range).
    pub min: f64,
    /// The slider's highest value (within the row's range).
    pub max: f64,
    /// The slider's step.
    pub step: f64,
    /// The switch whose group shows a row that needs no part of the config (the priority
    /// shares, shown with load shedding); `None` for the others, shown with the pattern they
    /// need.
    pub shown_with: Option<Pattern>,
}

/// How a slider's number is shown and turned into a value of its row.
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

    /// The µs in one of this unit, for a time: a second's for `Seconds`, else a millisecond's.
    fn micros(self) -> f64 {
        match self {
            Unit::Seconds => SECOND as f64,
            _ => 1_000.0,
        }
    }

    /// A value of a row as a slider in this unit reads it (`None` for `off`).
    pub fn number(self, value: Value) -> Option<f64> {
        Some(match value {
            Value::Time(t) | Value::Delay(Delay::Fixed(t)) => t as f64 / self.micros(),
            Value::Delay(Delay::Percentile { percentile, .. }) => percentile,
            Value::Count(n) => n as f64,
            Value::Number(v) if self == Unit::Percent => (v * 100.0).round(),
            Value::Number(v) => v,
            Value::Choice(i) => i as f64,
            Value::Off => return None,
        })
    }
}

impl Kind {
    /// The value a slider in `unit` writes at `number` (a choice's index rounded into its
    /// names; a time or a delay rounded to the µs; never negative).
    pub fn value_at(&self, unit: Unit, number: f64) -> Value {
        let micros = || (number * unit.micros()).round().max(0.0) as Micros;
        match self {
            Kind::Choice { names, .. } => {
                Value::Choice((number.round().max(0.0) as usize).min(names.len().saturating_sub(1)))
            }
            Kind::Time { .. } => Value::Time(micros()),
            Kind::Delay { .. } => Value::Delay(Delay::Fixed(micros())),
            Kind::Number { .. } if unit == Unit::Percent => Value::Number(number / 100.0),
            Kind::Number { .. } => Value::Number(number),
            Kind::Count { .. } | Kind::CountOrOff { .. } => {
                Value::Count(number.round().max(0.0) as u64)
            }
        }
    }
}

impl Param {
    /// The row as the panel shows it.
    pub const fn on_panel(self, panel: Panel) -> Param {
        Param {
            panel: Some(panel),
            ..self
        }
    }
}

/// What values a parameter takes, with the function writing a parsed one into the config.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A time, `min..=max` µs, given in seconds (`0.3`) or milliseconds (`300ms`).
    Time {
        /// Least accepted, µs.
        min: Micros,
        /// Most accepted, µs.
        max: Micros,
        /// Writes it.
        write: fn(&mut SimConfig, Micros),
    },
    /// A whole number, `min..=max`.
    Count {
        /// Least accepted.
        min: u64,
        /// Most accepted.
        max: u64,
        /// Writes it.
        write: fn(&mut SimConfig, u64),
    },
    /// A number, `min..=max` (`min` itself refused when `above_min`).
    Number {
        /// Least accepted (or the bound above which values are accepted).
        min: f64,
        /// Most accepted.
        max: f64,
        /// True when `min` itself is refused.
        above_min: bool,
        /// Writes it.
        write: fn(&mut SimConfig, f64),
    },
    /// One of a few names; written by its index in `names`.
    Choice {
        /// The names accepted.
        names: &'static [&'static str],
        /// Writes the one at this index.
        write: fn(&mut SimConfig, usize),
    },
    /// A whole number, `min..=max`, or `off` (written as `None`).
    CountOrOff {
        /// Least accepted.
        min: u64,
        /// Most accepted.
        max: u64,
        /// Writes it.
        write: fn(&mut SimConfig, Option<u64>),
    },
    /// A [`Delay`]: a time (1 µs..=60 s) or `pN`, a percentile of the latencies seen.
    Delay {
        /// Writes it.
        write: fn(&mut SimConfig, Delay),
    },
}

/// The names of a row that switches a part on or off, in the order a list shows them.
pub const ON_OFF: &[&str] = &["on", "off"];

impl Value {
    /// A switch's value: `on` (0) or `off` (1) in [`ON_OFF`].
    pub fn on_off(on: bool) -> Value {
        Value::Choice(usize::from(!on))
    }
}

/// A parameter's value, typed: what [`Param::read`] gives, [`Param::parse`] makes of text and
/// [`Param::set`] writes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// A time, µs.
    Time(Micros),
    /// A whole number (also a breaker window counted in calls).
    Count(u64),
    /// A number.
    Number(f64),
    /// The index of a name in [`Kind::Choice`]'s `names`.
    Choice(usize),
    /// A time or a percentile of the latencies seen.
    Delay(Delay),
    /// `off`, for a [`Kind::CountOrOff`].
    Off,
}

/// The part of the config a parameter tunes, and what setting it does while that part is off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    /// Nothing: the parameter is always there.
    Nothing,
    /// Setting it switches the part on (with the lesson's values), then sets it.
    SwitchesOn(Part),
    /// Setting it while the part is off leaves the config as it is and says so
    /// ([`crate::sim::params::Applied::LeftOff`]): `timeout=0.2` applies to the four lesson
    /// scenarios and "no protection" stays unprotected.
    OnlyWith(Part),
}
