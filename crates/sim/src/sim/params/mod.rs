//! The one table of parameters a run can be given as `key=value` (the command line's `--set`,
//! permalinks, widget attributes and the page's knobs): for each key, where it lives in a
//! [`SimConfig`], its kind and range, its unit, a line on what it does, and what setting it
//! does while its pattern is off. Times are seconds, or a number with an `ms` suffix.
//!
//! A new parameter is one more row of [`PARAMS`] (in `rows.rs`, or in the room of the pattern
//! it tunes, listed in [`crate::sim::model::ROOM_ROWS`]); everything else reads it. The row's
//! types are the model's ([`crate::sim::model::param`]), so a room can declare its rows.

mod rows;

use crate::resilience::{Delay, Jitter, ParamError};
use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;

pub use crate::sim::model::param::{Kind, Needs, Panel, Param, Unit, Value};
pub use crate::sim::model::part::{Dep, Part};
pub use crate::sim::model::OLD_NAMES;
pub use rows::PARAMS;

pub(crate) const SECOND: Micros = 1_000_000;
#[cfg(test)]
pub(crate) const MS: Micros = 1_000;

/// What [`apply_set`] and [`Param::set`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// The value was written.
    Set,
    /// The part the key tunes is off, and the key does not switch it on: nothing changed.
    LeftOff {
        /// The key.
        key: &'static str,
        /// What was missing, for a note (`"no timeout"`).
        missing: &'static str,
    },
}

impl std::fmt::Display for Applied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Applied::Set => write!(f, "set"),
            Applied::LeftOff { key, missing } => {
                write!(f, "{key}: the config has {missing}, so it is left as it is")
            }
        }
    }
}

const KEY_COUNT: usize = PARAMS.len();

/// Every key of [`PARAMS`], in its order.
pub const SET_KEYS: [&str; KEY_COUNT] = {
    let mut keys = [""; KEY_COUNT];
    let mut i = 0;
    while i < KEY_COUNT {
        keys[i] = PARAMS[i].key;
        i += 1;
    }
    keys
};

/// Jitter modes by the name the `jitter` key takes, in the order a list shows them.
pub const JITTER_NAMES: [(&str, Jitter); 4] = [
    ("none", Jitter::None),
    ("full", Jitter::Full),
    ("equal", Jitter::Equal),
    ("decorrelated", Jitter::Decorrelated),
];

/// The names the `jitter` key takes: the first of each pair of [`JITTER_NAMES`].
pub(crate) const JITTER_KEYS: [&str; JITTER_NAMES.len()] = {
    let mut keys = [""; JITTER_NAMES.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = JITTER_NAMES[i].0;
        i += 1;
    }
    keys
};

/// The row with `key` (or with the key an old name of [`OLD_NAMES`] was renamed to).
pub fn param(key: &str) -> Option<&'static Param> {
    let key = OLD_NAMES
        .iter()
        .find(|(old, _)| *old == key)
        .map_or(key, |(_, new)| *new);
    PARAMS.iter().find(|p| p.key == key)
}

fn err(field: &'static str, range: &str, value: &str) -> ParamError {
    ParamError::new(field, range, value)
}

/// The error for a key no row has.
fn unknown_key(key: &str) -> ParamError {
    err("key", &SET_KEYS.join(", "), key)
}

/// Parses a time in seconds (`0.3`) or milliseconds (`300ms`) into microseconds, within
/// `min..=max` microseconds.
pub fn parse_time(
    field: &'static str,
    value: &str,
    min: Micros,
    max: Micros,
) -> Result<Micros, ParamError> {
    // Written only for an error: formatting the range costs more than the parse.
    let bad = || {
        let range = format!(
            "{}..={} s (or a number with an ms suffix)",
            fmt_secs(min),
            fmt_secs(max)
        );
        err(field, &range, value)
    };
    let (number, scale) = match value.strip_suffix("ms") {
        Some(n) => (n, 1_000.0),
        None => (value.strip_suffix('s').unwrap_or(value), 1_000_000.0),
    };
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    let micros = v * scale;
    if !micros.is_finite() || micros < min as f64 - 0.5 || micros > max as f64 + 0.5 {
        return Err(bad());
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
    match value.trim().parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(err(field, &format!("{min}..={max}"), value)),
    }
}

fn parse_number(
    field: &'static str,
    value: &str,
    min: f64,
    max: f64,
    above_min: bool,
) -> Result<f64, ParamError> {
    let v = match value.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v >= min && v <= max => v,
        _ => return Err(err(field, &format!("{min}..={max}"), value)),
    };
    if above_min && v <= min {
        return Err(err(field, &format!("{min} (exclusive)..={max}"), value));
    }
    Ok(v)
}

/// A [`Delay`]: a time (`80ms`, `0.08`; 1 µs..=60 s) or a percentile of the latencies seen
/// so far (`p95`; above 0, at most 100).
fn parse_delay(field: &'static str, value: &str) -> Result<Delay, ParamError> {
    let range = "a time 0.000001..=60 s (or with an ms suffix), or pN for a percentile of the \
                 latencies seen, 0 < N <= 100";
    let bad = || err(field, range, value);
    let delay = match value.trim().strip_prefix('p') {
        Some(p) => Delay::percentile(p.parse().map_err(|_| bad())?),
        None => {
            let (min, max) = Delay::FIXED;
            Delay::Fixed(parse_time(field, value, min, max).map_err(|_| bad())?)
        }
    };
    delay.validate().map_err(|_| bad())?;
    Ok(delay)
}

impl Param {
    /// The accepted values, as an error message or the usage prints them.
    pub fn range(&self) -> String {
        match self.kind {
            Kind::Time { min, max, .. } => format!("{}..={} s", fmt_secs(min), fmt_secs(max)),
            Kind::Count { min, max, .. } => format!("{min}..={max}"),
            Kind::CountOrOff { min, max, .. } => format!("{min}..={max}, or off"),
            Kind::Number {
                min,
                max,
                above_min,
                ..
            } => {
                let open = if above_min { " (exclusive)" } else { "" };
                format!("{min}{open}..={max}")
            }
            Kind::Choice { names, .. } => names.join(", "),
            Kind::Delay { .. } => "a time 0.000001..=60 s, or pN (a percentile)".to_string(),
        }
    }

    /// The value `text` gives this key: the one parse of the text edge (`--set`, links,
    /// widget attributes). An error names the key and its range.
    pub fn parse(&self, text: &str) -> Result<Value, ParamError> {
        let key = self.key;
        Ok(match self.kind {
            Kind::Time { min, max, .. } => Value::Time(parse_time(key, text, min, max)?),
            Kind::Count { min, max, .. } => Value::Count(parse_int(key, text, min, max)?),
            Kind::CountOrOff { .. } if text.trim() == "off" => Value::Off,
            Kind::CountOrOff { min, max, .. } => Value::Count(
                parse_int(key, text, min, max).map_err(|_| err(key, &self.range(), text))?,
            ),
            Kind::Number {
                min,
                max,
                above_min,
                ..
            } => Value::Number(parse_number(key, text, min, max, above_min)?),
            Kind::Choice { names, .. } => Value::Choice(
                names
                    .iter()
                    .position(|n| *n == text.trim())
                    .ok_or_else(|| err(key, &names.join(", "), text))?,
            ),
            Kind::Delay { .. } => Value::Delay(parse_delay(key, text)?),
        })
    }

    /// `value` if this row takes it (its kind and range, as [`Param::parse`] checks text);
    /// otherwise an error naming the key and its range.
    pub fn check(&self, value: Value) -> Result<Value, ParamError> {
        let fits = match (self.kind, value) {
            (Kind::Time { min, max, .. }, Value::Time(t)) => (min..=max).contains(&t),
            (Kind::Count { min, max, .. } | Kind::CountOrOff { min, max, .. }, Value::Count(n)) => {
                (min..=max).contains(&n)
            }
            (Kind::CountOrOff { .. }, Value::Off) => true,
            (
                Kind::Number {
                    min,
                    max,
                    above_min,
                    ..
                },
                Value::Number(v),
            ) => v.is_finite() && v >= min && v <= max && !(above_min && v <= min),
            (Kind::Choice { names, .. }, Value::Choice(i)) => i < names.len(),
            (Kind::Delay { .. }, Value::Delay(delay)) => delay.validate().is_ok(),
            _ => false,
        };
        if fits {
            Ok(value)
        } else {
            Err(err(self.key, &self.range(), &self.text(value)))
        }
    }

    /// Writes `value` into `cfg`: checked as [`Param::check`] does, the part it needs switched
    /// on (or, for a part it only tunes, left off and said so). A refused value leaves `cfg` as
    /// it was. The page's knobs write through here, with no text in between.
    pub fn set(&self, cfg: &mut SimConfig, value: Value) -> Result<Applied, ParamError> {
        let value = self.check(value)?;
        match self.needs {
            Needs::Nothing => {}
            Needs::SwitchesOn(part) => part.switch_on(cfg),
            Needs::OnlyWith(part) if part.is_on(cfg) => {}
            Needs::OnlyWith(part) => {
                return Ok(Applied::LeftOff {
                    key: self.key,
                    missing: part.missing(),
                })
            }
        }
        self.write(cfg, value);
        Ok(Applied::Set)
    }

    fn write(&self, cfg: &mut SimConfig, value: Value) {
        match (self.kind, value) {
            (Kind::Time { write, .. }, Value::Time(v)) => write(cfg, v),
            (Kind::Count { write, .. }, Value::Count(v)) => write(cfg, v),
            (Kind::Number { write, .. }, Value::Number(v)) => write(cfg, v),
            (Kind::Choice { write, .. }, Value::Choice(v)) => write(cfg, v),
            (Kind::Delay { write }, Value::Delay(v)) => write(cfg, v),
            (Kind::CountOrOff { write, .. }, Value::Count(v)) => write(cfg, Some(v)),
            (Kind::CountOrOff { write, .. }, Value::Off) => write(cfg, None),
            // `check` lets through only the variants of the row's own kind.
            _ => {}
        }
    }

    /// One line for a usage text: the range and unit, what it sets, and what it does while its
    /// part is off.
    pub fn summary(&self) -> String {
        let unit = match self.kind {
            Kind::Time { .. } | Kind::Choice { .. } => "",
            _ => self.unit,
        };
        let unit = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        let off = match self.needs {
            Needs::SwitchesOn(part) => format!(" Switches on {}.", part.label()),
            // Every config has a first dependency: no need to say so.
            Needs::OnlyWith(Part::Dependency(Dep::First)) | Needs::Nothing => String::new(),
            Needs::OnlyWith(part) => format!(" Only with {}.", part.label()),
        };
        format!("{}{unit}. {}{off}", self.range(), self.doc)
    }

    /// The text of `value` as this key takes it (`250ms`, `0.5`, `poisson`, `p95`).
    pub fn text(&self, value: Value) -> String {
        match (self.kind, value) {
            (Kind::Choice { names, .. }, Value::Choice(i)) => {
                names.get(i).copied().unwrap_or_default().to_string()
            }
            (_, Value::Time(t)) => format!("{}", t as f64 / SECOND as f64),
            (_, Value::Count(n)) => n.to_string(),
            (_, Value::Number(v)) => v.to_string(),
            (_, Value::Delay(Delay::Fixed(t))) => format!("{}", t as f64 / SECOND as f64),
            (_, Value::Delay(Delay::Percentile { percentile, .. })) => {
                format!("p{percentile}")
            }
            (_, Value::Choice(i)) => i.to_string(),
            (_, Value::Off) => "off".to_string(),
        }
    }
}

/// Applies one `key=value` override (the text edge: `--set`, links, widget attributes): the
/// row's [`Param::parse`], then [`Param::set`]. An unknown key, a malformed value or one out
/// of range is an error naming the key, and leaves `cfg` as it was.
pub fn apply_set(cfg: &mut SimConfig, key: &str, value: &str) -> Result<Applied, ParamError> {
    let row = param(key).ok_or_else(|| unknown_key(key))?;
    let value = row.parse(value)?;
    row.set(cfg, value)
}

impl SimConfig {
    /// Checks every field against its range, naming the first one that is off by its `--set`
    /// key ([`named_by_key`]): the first dependency's keys are plain (`timeout`), payments'
    /// are `payments_...` ([`dependency_key`]), and another dependency's error names it beside
    /// the value. The model's own check ([`SimConfig::validate_naming`]) knows fields, not
    /// keys.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.validate_naming(dependency_key).map_err(named_by_key)
    }
}

/// The error of a part's check named by its key: the row listing the part's field among its
/// [`Param::fields`], else the row whose key is the field's own name. A field no row sets
/// keeps its part (`sidecar.base`).
pub fn named_by_key(e: ParamError) -> ParamError {
    let Some(section) = e.section else {
        return e;
    };
    let listed = |p: &&Param| {
        p.fields
            .iter()
            .any(|f| f.split_once('.') == Some((section, e.field)))
    };
    let row = PARAMS
        .iter()
        .find(listed)
        .or_else(|| PARAMS.iter().find(|p| p.key == e.field));
    match row {
        Some(row) => ParamError {
            field: row.key,
            section: None,
            ..e
        },
        None => e,
    }
}

/// A dependency's error named by its `--set` key ([`named_by_key`]): the plain key for the
/// first dependency, `payments_<key>` for payments when the table has that row; `None`
/// otherwise.
pub fn dependency_key(index: usize, name: &str, e: &ParamError) -> Option<ParamError> {
    let named = named_by_key(e.clone());
    if index == 0 {
        return Some(named);
    }
    if named.section.is_some() {
        return None;
    }
    // Inventory's own keys say whose they are (`inventory_queue`); payments' say `payments_`.
    let own = named
        .field
        .strip_prefix("inventory_")
        .unwrap_or(named.field);
    let row = PARAMS
        .iter()
        .find(|p| p.key.strip_prefix(name).and_then(|k| k.strip_prefix('_')) == Some(own))?;
    Some(ParamError {
        field: row.key,
        ..named
    })
}

#[cfg(test)]
mod tests;
