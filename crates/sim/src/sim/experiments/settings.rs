//! An experiment's `--set` keys as rows, as the cascade's are in the parameter table: each
//! key's words, its range (the constant the experiment's own check uses too) and where its
//! value goes. `cascade experiment NAME` reads its pairs and writes its usage from these rows
//! alone.

use crate::resilience::ParamError;
use crate::sim::latency::Micros;
use crate::sim::params::{parse_int, parse_time};

/// One key of an experiment's settings `T`.
pub struct Setting<T> {
    /// The key `--set` takes.
    pub key: &'static str,
    /// What it sets, in the usage's words.
    pub doc: &'static str,
    /// Its range and where its value goes.
    pub kind: SettingKind<T>,
    /// Its value in `T`, as the usage gives the default.
    pub read: fn(&T) -> String,
}

/// The values a [`Setting`] takes.
pub enum SettingKind<T> {
    /// A whole number in `range`.
    Count {
        range: (u64, u64),
        write: fn(&mut T, u64),
    },
    /// A time in `range`, in seconds or with an `ms` suffix.
    Time {
        range: (Micros, Micros),
        write: fn(&mut T, Micros),
    },
    /// A number in `range`, in `unit`.
    Number {
        range: (f64, f64),
        unit: &'static str,
        write: fn(&mut T, f64),
    },
    /// One of `names`; `write` takes its place in them.
    Choice {
        names: fn() -> Vec<&'static str>,
        write: fn(&mut T, usize),
    },
}

impl<T> Setting<T> {
    /// Its range in words, as an error and the usage give it.
    pub fn range(&self) -> String {
        match &self.kind {
            SettingKind::Count {
                range: (min, u64::MAX),
                ..
            } => format!("{min} or more"),
            SettingKind::Count {
                range: (min, max), ..
            } => format!("{min}..={max}"),
            SettingKind::Time {
                range: (min, max), ..
            } => format!("{}..={} s", seconds(*min), seconds(*max)),
            SettingKind::Number {
                range: (min, max),
                unit,
                ..
            } => format!("{min}..={max} {unit}"),
            SettingKind::Choice { names, .. } => names().join(", "),
        }
    }

    /// Reads `value` and writes it into `target`, or says what was wrong under its key.
    pub fn apply(&self, target: &mut T, value: &str) -> Result<(), ParamError> {
        match &self.kind {
            SettingKind::Count {
                range: (min, max),
                write,
            } => write(target, parse_int(self.key, value, *min, *max)?),
            SettingKind::Time {
                range: (min, max),
                write,
            } => write(target, parse_time(self.key, value, *min, *max)?),
            SettingKind::Number {
                range: (min, max),
                write,
                ..
            } => {
                let number = value.trim().parse::<f64>().ok();
                let within = number.filter(|v| v.is_finite() && (*min..=*max).contains(v));
                let bad = || ParamError::new(self.key, self.range(), value.to_string());
                write(target, within.ok_or_else(bad)?)
            }
            SettingKind::Choice { names, write } => {
                let at = names().iter().position(|n| *n == value.trim());
                let bad = || ParamError::new(self.key, self.range(), value.to_string());
                write(target, at.ok_or_else(bad)?)
            }
        }
        Ok(())
    }
}

/// The row of `key` in `rows`, if there is one.
pub fn find<'a, T>(rows: &'a [Setting<T>], key: &str) -> Option<&'a Setting<T>> {
    rows.iter().find(|r| r.key == key)
}

/// Every key of `rows`, in their order, as an unknown key's message lists them.
pub fn keys<T>(rows: &[Setting<T>]) -> String {
    rows.iter().map(|r| r.key).collect::<Vec<_>>().join(", ")
}

/// The widest line of a usage.
const WIDTH: usize = 96;

/// The usage's lines for `rows`: each key, its words, its range and its value in `defaults`,
/// wrapped at 96 columns with the words' column kept.
pub fn usage<T>(rows: &[Setting<T>], defaults: &T) -> Vec<String> {
    let width = rows.iter().map(|r| r.key.len()).max().unwrap_or(0);
    let column = "  --set ".len() + width + 2;
    let mut lines = Vec::new();
    for row in rows {
        let words = format!(
            "{} ({}; default {})",
            row.doc,
            row.range(),
            (row.read)(defaults)
        );
        let mut line = format!("  --set {:<width$}  ", row.key);
        for word in words.split(' ') {
            if line.len() > column && line.len() + 1 + word.len() > WIDTH {
                lines.push(line);
                line = " ".repeat(column);
            } else if line.len() > column {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}

/// `micros` in seconds, as short as it goes (`0.0001`, `600`).
pub fn seconds(micros: Micros) -> String {
    format!("{}", micros as f64 / 1e6)
}
