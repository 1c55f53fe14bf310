//! How the page writes a count, a duration and an accepted range, everywhere it writes one.

use crate::resilience::ParamError;
use crate::sim::latency::Micros;

/// `n` with a comma every three digits.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration: milliseconds under 1 s, seconds (two decimals at most) under 10 s, then
/// seconds with one decimal.
pub fn duration(m: Micros) -> String {
    if m < 1_000_000 {
        format!("{} ms", count((m + 500) / 1_000))
    } else if m < 10_000_000 {
        let s = format!("{:.2}", m as f64 / 1e6);
        format!("{} s", s.trim_end_matches('0').trim_end_matches('.'))
    } else {
        format!("{:.1} s", m as f64 / 1e6)
    }
}

/// A range as a person reads it: the parameter table's `1..=10000` becomes `1 to 10,000`,
/// `0.001..=3600 s` becomes `0.001 to 3600 s` and `0 (exclusive)..=1` becomes
/// `0 (exclusive) to 1`. Text without a range is left as it is.
pub fn readable_range(range: &str) -> String {
    let number = |c: char| c.is_ascii_digit() || c == '.';
    let range = range.replace(" (exclusive)..=", " (exclusive) to ");
    let mut out = String::new();
    let mut rest = range.as_str();
    while let Some(at) = rest.find("..=") {
        let (before, after) = (&rest[..at], &rest[at + 3..]);
        let start = before.trim_end_matches(number).len();
        let end = after.len() - after.trim_start_matches(number).len();
        if start == before.len() || end == 0 {
            // Not between two numbers: keep it.
            out.push_str(&rest[..at + 3]);
            rest = after;
            continue;
        }
        out.push_str(&before[..start]);
        out.push_str(&grouped(&before[start..]));
        out.push_str(" to ");
        out.push_str(&grouped(&after[..end]));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// A whole number of five digits or more with its thousands grouped; anything else as it is.
fn grouped(number: &str) -> String {
    match number.parse::<u64>() {
        Ok(n) if number.len() >= 5 => count(n),
        _ => number.to_string(),
    }
}

/// A refused value as the page says it: the field, the value and what it allows, the range
/// written for a person (see [`readable_range`]).
pub fn refused(e: &ParamError) -> String {
    format!(
        "{}: {} is out of range (allowed: {})",
        e.field,
        e.value,
        readable_range(&e.range)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_read_as_words_with_their_thousands_grouped() {
        assert_eq!(readable_range("1..=10000"), "1 to 10,000");
        assert_eq!(readable_range("0.001..=3600 s"), "0.001 to 3600 s");
        assert_eq!(readable_range("1..=10, or off"), "1 to 10, or off");
        assert_eq!(
            readable_range("0.5 (exclusive)..=1"),
            "0.5 (exclusive) to 1"
        );
        assert_eq!(readable_range("x..=y"), "x..=y", "not between two numbers");
        assert_eq!(
            readable_range("a time 0.000001..=60 s, or pN"),
            "a time 0.000001 to 60 s, or pN"
        );
        assert_eq!(readable_range("keep, drop"), "keep, drop");
        assert_eq!(
            readable_range("1..=100000 and 2..=3"),
            "1 to 100,000 and 2 to 3"
        );
        let e = ParamError::new("threads", "1..=10000", "0");
        assert_eq!(
            refused(&e),
            "threads: 0 is out of range (allowed: 1 to 10,000)"
        );
    }
}
