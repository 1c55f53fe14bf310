//! The error every constructor returns for a parameter out of its range.

use std::fmt;

/// A parameter outside its documented range: names the field, the range and the value given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name, as it appears in configs and on the command line.
    pub field: &'static str,
    /// The allowed range, readable by a person (e.g. `1..=10000 µs`).
    pub range: String,
    /// The value that was given.
    pub value: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} is out of range (allowed: {})",
            self.field, self.value, self.range
        )
    }
}

impl std::error::Error for ParamError {}

impl ParamError {
    /// Accepts `value` when `min <= value <= max`, else names `field` and the range.
    pub fn check_u64(
        field: &'static str,
        value: u64,
        min: u64,
        max: u64,
        unit: &str,
    ) -> Result<(), ParamError> {
        if (min..=max).contains(&value) {
            Ok(())
        } else {
            Err(ParamError {
                field,
                range: format!("{min}..={max} {unit}").trim_end().to_string(),
                value: value.to_string(),
            })
        }
    }

    /// Accepts a finite `value` with `min <= value <= max`, else names `field` and the range.
    pub fn check_f64(
        field: &'static str,
        value: f64,
        min: f64,
        max: f64,
        unit: &str,
    ) -> Result<(), ParamError> {
        if value.is_finite() && value >= min && value <= max {
            Ok(())
        } else {
            Err(ParamError {
                field,
                range: format!("{min}..={max} {unit}").trim_end().to_string(),
                value: value.to_string(),
            })
        }
    }
}
