//! The error every constructor returns for a parameter out of its range.

use std::fmt;

/// A parameter outside its documented range: names the field, the range and the value given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamError {
    /// The parameter's name: the field's own, as its part of a config calls it, until the
    /// parameter rows name it by the key `--set` takes.
    pub field: &'static str,
    /// The part of the config the field sits in (a layer, by its name in the stack), when a
    /// check of that part named it; `None` once the field is named by its key, or for a field
    /// of no part.
    pub section: Option<&'static str>,
    /// The allowed range, readable by a person (e.g. `0.001..=3600 s`).
    pub range: String,
    /// The value that was given.
    pub value: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} is out of range (allowed: {})",
            self.path(),
            self.value,
            self.range
        )
    }
}

impl std::error::Error for ParamError {}

impl ParamError {
    /// The error naming `field`, its allowed `range` and the `value` given.
    pub fn new(field: &'static str, range: impl Into<String>, value: impl Into<String>) -> Self {
        ParamError {
            field,
            section: None,
            range: range.into(),
            value: value.into(),
        }
    }

    /// The error of a part's own check, as the part sits in a bigger config: its field is
    /// then found under `section` (shown as `section.field`).
    pub fn within(self, section: &'static str) -> ParamError {
        ParamError {
            section: Some(section),
            ..self
        }
    }

    /// Where the field sits: `section.field` inside a part, else the field.
    pub fn path(&self) -> String {
        match self.section {
            Some(section) => format!("{section}.{}", self.field),
            None => self.field.to_string(),
        }
    }

    /// A share's range, which [`ParamError::check_share`] and the parameter rows of shares use.
    pub const SHARE: (f64, f64) = (0.0, 1.0);

    /// Accepts a share, `0 <= value <= 1`, else names `field`.
    pub fn check_share(field: &'static str, value: f64) -> Result<(), ParamError> {
        ParamError::check_f64(field, value, Self::SHARE.0, Self::SHARE.1, "")
    }

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
            Err(ParamError::new(
                field,
                format!("{min}..={max} {unit}").trim_end().to_string(),
                value.to_string(),
            ))
        }
    }

    /// Accepts a duration `value` (µs, as the config holds it) when `min <= value <= max`,
    /// else names `field`, the value and the range in seconds: the unit people type on a
    /// slider, in a link and after `--set`.
    pub fn check_micros(
        field: &'static str,
        value: u64,
        min: u64,
        max: u64,
    ) -> Result<(), ParamError> {
        ParamError::check_u64(field, value, min, max, "").map_err(|_| {
            ParamError::new(
                field,
                format!("{}..={} s", seconds(min), seconds(max)),
                format!("{} s", seconds(value)),
            )
        })
    }

    /// Whether the range is a duration's, in seconds (a config file holds it in µs).
    pub fn is_duration(&self) -> bool {
        self.range.ends_with(" s")
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
            Err(ParamError::new(
                field,
                format!("{min}..={max} {unit}").trim_end().to_string(),
                value.to_string(),
            ))
        }
    }
}

/// `micros` in seconds, exactly (every duration the model holds is below 2^53 µs).
pub fn seconds(micros: u64) -> String {
    format!("{}", micros as f64 / 1e6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_duration_out_of_range_is_named_in_seconds() {
        assert_eq!(
            ParamError::check_micros("timeout", 1_000, 1_000, 3_600_000_000),
            Ok(())
        );
        let e = ParamError::check_micros("recover_at", 1_000_000, 3_000_001, 3_600_000_000)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "recover_at: 1 s is out of range (allowed: 3.000001..=3600 s)"
        );
        assert!(e.is_duration());
        let e = ParamError::check_micros("sidecar_base", 0, 1, 60_000_000).unwrap_err();
        assert_eq!(e.range, "0.000001..=60 s");
        assert!(!ParamError::check_u64("threads", 0, 1, 1000, "")
            .unwrap_err()
            .is_duration());
    }
}
