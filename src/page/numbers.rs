//! How the page writes a count and a duration, everywhere it writes one.

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
