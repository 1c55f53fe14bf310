//! The one number reader of every exercise part: what a student types ("1,050", "6,6",
//! "1.05 s", "0.86") becomes a value in the part's unit, by one explicit rule, and the reader
//! says what it read whenever the text could have been meant otherwise.
//!
//! The rule, as the page states it ([`RULE`]):
//! * Spaces, thin spaces, apostrophes and underscores group digits: `1 050`, `1'050`.
//! * With both a point and a comma, the last of the two is the decimal mark and the other
//!   groups thousands: `1,050.5` and `1.050,5` are both 1050.5.
//! * With one kind of mark used twice or more, it groups thousands: `1,050,000`, `1.050.000`.
//! * With one mark used once, it groups thousands when exactly three digits follow it and the
//!   digits before it are not just `0`: `1,050`, `1.050` and `2.700` are 1050 and 2700. In every
//!   other case it is the decimal mark: `6,6`, `8,1`, `0.860`, `1.05`.
//! * A unit may follow, with or without a space: the part's own (`220ms`, `6 orders`) or, for
//!   a time, any time unit, converted (`1.05 s` in a part asked in ms is 1050 ms).
//! * A percentage may be typed as `86`, `86%` or as a fraction, `0.86`: a number strictly
//!   between 0 and 1 with no `%` sign is a fraction.

use serde::{Deserialize, Serialize};

/// The reading rule in one sentence, for the page.
pub const RULE: &str = "Numbers: 1,050 and 1.050 are both one thousand and fifty (a mark \
    followed by exactly three digits groups thousands); 6,6 and 6.6 are six point six. A unit \
    may follow, with or without a space (220ms, 1.05 s). A percentage may be 86, 86% or 0.86.";

/// A prediction as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    /// The value, in the part's unit.
    pub value: f64,
    /// What the reader decided where the text allowed another reading (empty when nothing
    /// could be misread).
    pub notes: Vec<String>,
}

impl Reading {
    /// "Read as 86 %: ..." when the reader had to decide something, else `None`.
    pub fn describe(&self, unit: &str) -> Option<String> {
        (!self.notes.is_empty()).then(|| {
            format!(
                "Read as {}{}{}: {}.",
                plain(self.value),
                if unit.is_empty() || unit == "%" {
                    ""
                } else {
                    " "
                },
                unit,
                self.notes.join("; ")
            )
        })
    }
}

/// What kind of unit a part is asked in.
#[derive(Debug, Clone, PartialEq)]
enum UnitKind {
    /// A time, with its length in µs.
    Time(f64),
    /// A percentage.
    Percent,
    /// Anything else: a count or a rate, typed as its own word.
    Word(String),
}

fn time_unit(word: &str) -> Option<f64> {
    Some(match word {
        "µs" | "μs" | "us" => 1.0,
        "ms" | "msec" | "millisecond" | "milliseconds" => 1e3,
        "s" | "sec" | "secs" | "second" | "seconds" => 1e6,
        "min" | "mins" | "minute" | "minutes" => 60e6,
        "h" | "hr" | "hrs" | "hour" | "hours" => 3_600e6,
        _ => return None,
    })
}

fn kind_of(unit: &str) -> UnitKind {
    let word = normalise_unit(unit);
    if word == "%" {
        UnitKind::Percent
    } else if let Some(us) = time_unit(&word) {
        UnitKind::Time(us)
    } else {
        UnitKind::Word(word)
    }
}

/// Lower case, no spaces, "per second" as "/s" and "per hour" as "/h".
fn normalise_unit(text: &str) -> String {
    let lower = text.trim().to_ascii_lowercase();
    let lower = lower
        .replace("per second", "/s")
        .replace("a second", "/s")
        .replace("per hour", "/h")
        .replace("an hour", "/h");
    let compact: String = lower.chars().filter(|c| !c.is_whitespace()).collect();
    match compact.as_str() {
        "percent" | "pct" | "percentage" => "%".to_string(),
        _ => compact,
    }
}

/// True when `typed` names the word unit `unit` ("call" for "calls", "/s" for "calls/s").
fn names_word_unit(typed: &str, unit: &str) -> bool {
    let singular = |u: &str| match u.split_once('/') {
        Some((head, tail)) => format!("{}/{tail}", head.trim_end_matches('s')),
        None => u.trim_end_matches('s').to_string(),
    };
    typed == unit
        || singular(typed) == singular(unit)
        || unit
            .split_once('/')
            .is_some_and(|(_, tail)| typed == format!("/{tail}"))
}

/// For a part asked in a time unit: the other units a bare number may have been meant in
/// (milliseconds, seconds, minutes), each with how many of the part's units one of it is.
pub fn other_time_units(unit: &str) -> Vec<(&'static str, f64)> {
    let UnitKind::Time(part) = kind_of(unit) else {
        return Vec::new();
    };
    [("ms", 1e3), ("s", 1e6), ("min", 60e6)]
        .into_iter()
        .filter(|&(_, length)| length != part)
        .map(|(name, length)| (name, length / part))
        .collect()
}

/// A time unit's name in words ("seconds" for `s`), or the unit as it is.
pub fn unit_words(unit: &str) -> String {
    let length = match kind_of(unit) {
        UnitKind::Time(us) => us,
        _ => 0.0,
    };
    [(1e3, "milliseconds"), (1e6, "seconds"), (60e6, "minutes")]
        .iter()
        .find(|(us, _)| *us == length)
        .map_or_else(|| unit.to_string(), |(_, words)| words.to_string())
}

/// Reads `text` as a value in `unit` (the part's unit: "ms", "%", "calls/s"...). The error says
/// why the text is not a number, in words that follow "needs a number in ...".
pub fn read_number(text: &str, unit: &str) -> Result<Reading, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("type one first".to_string());
    }
    let split = number_end(trimmed);
    let (number_text, unit_text) = (trimmed[..split].trim(), trimmed[split..].trim());
    let mut notes = Vec::new();
    let mut value = parse_plain(number_text, &mut notes).ok_or_else(|| not_a_number(trimmed))?;
    let wanted = kind_of(unit);
    let typed = normalise_unit(unit_text);
    match &wanted {
        _ if typed.is_empty() => {
            if wanted == UnitKind::Percent && value > 0.0 && value < 1.0 {
                notes.push(format!(
                    "{} is between 0 and 1, so it is taken as a fraction (type {}% for less \
                     than one percent)",
                    number_text, number_text
                ));
                value *= 100.0;
            }
        }
        UnitKind::Percent if typed == "%" => {}
        UnitKind::Time(part_us) => match time_unit(&typed) {
            Some(typed_us) if typed_us == *part_us => {}
            Some(typed_us) => {
                notes.push(format!(
                    "{} {} converted to {}",
                    number_text, unit_text, unit
                ));
                value = value * typed_us / part_us;
            }
            None => return Err(wrong_unit(unit_text)),
        },
        UnitKind::Word(word) if names_word_unit(&typed, word) => {}
        _ => return Err(wrong_unit(unit_text)),
    }
    if value.is_finite() {
        Ok(Reading { value, notes })
    } else {
        Err(not_a_number(trimmed))
    }
}

/// Where the number ends and a unit may begin.
fn number_end(text: &str) -> usize {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let next_is_digit = |k: usize| chars.get(k).is_some_and(|&(_, d)| d.is_ascii_digit());
        let part_of_number = c.is_ascii_digit()
            || matches!(
                c,
                '.' | ','
                    | '+'
                    | '-'
                    | '\u{2212}'
                    | '\''
                    | '_'
                    | ' '
                    | '\u{a0}'
                    | '\u{2009}'
                    | '\u{202f}'
            )
            || (matches!(c, 'e' | 'E')
                && i > 0
                && chars[i - 1].1.is_ascii_digit()
                && (next_is_digit(i + 1)
                    || (chars.get(i + 1).is_some_and(|&(_, s)| s == '-' || s == '+')
                        && next_is_digit(i + 2))));
        if !part_of_number {
            return at;
        }
    }
    text.len()
}

/// A number with no unit, by the module's separator rule; `None` when it is not one.
fn parse_plain(text: &str, notes: &mut Vec<String>) -> Option<f64> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '\'' | '_' | '\u{202f}' | '\u{2009}'))
        .map(|c| if c == '\u{2212}' { '-' } else { c })
        .collect();
    let (sign, unsigned) = match compact.strip_prefix(['-', '+']) {
        Some(rest) => (&compact[..1], rest),
        None => ("", compact.as_str()),
    };
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (&unsigned[..at], Some(&unsigned[at + 1..])),
        None => (unsigned, None),
    };
    if !mantissa.chars().any(|c| c.is_ascii_digit())
        || !mantissa
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return None;
    }
    let decimal = decimal_form(mantissa, notes)?;
    let exponent = match exponent {
        Some(e) => {
            let digits = e.strip_prefix(['-', '+']).unwrap_or(e);
            if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
                return None;
            }
            format!("e{e}")
        }
        None => String::new(),
    };
    format!("{sign}{decimal}{exponent}").parse::<f64>().ok()
}

/// `mantissa` (digits, points and commas) with its grouping marks dropped and its decimal mark
/// a point; `None` when the marks follow no reading of the rule.
fn decimal_form(mantissa: &str, notes: &mut Vec<String>) -> Option<String> {
    let points = mantissa.matches('.').count();
    let commas = mantissa.matches(',').count();
    let (grouping, decimal) = match (points, commas) {
        (0, 0) => return Some(mantissa.to_string()),
        (_, 0) | (0, _) => {
            let mark = if points > 0 { '.' } else { ',' };
            let count = points.max(commas);
            let (head, tail) = mantissa.split_once(mark)?;
            let groups_thousands =
                count > 1 || (tail.len() == 3 && !head.is_empty() && head != "0");
            if groups_thousands {
                (Some(mark), None)
            } else {
                (None, Some(mark))
            }
        }
        _ => {
            let last_point = mantissa.rfind('.')?;
            let last_comma = mantissa.rfind(',')?;
            if last_point > last_comma {
                (Some(','), Some('.'))
            } else {
                (Some('.'), Some(','))
            }
        }
    };
    let (integer, fraction) = match decimal {
        Some(d) => {
            let (i, f) = mantissa.rsplit_once(d)?;
            if f.contains(['.', ',']) {
                return None;
            }
            (i, Some(f))
        }
        None => (mantissa, None),
    };
    let integer = match grouping {
        Some(g) => {
            let groups: Vec<&str> = integer.split(g).collect();
            let well_grouped = groups.len() > 1
                && (1..=3).contains(&groups[0].len())
                && groups[1..].iter().all(|group| group.len() == 3);
            if !well_grouped || groups.iter().any(|group| group.contains(['.', ','])) {
                return None;
            }
            if g == '.' && decimal.is_none() && groups.len() == 2 {
                notes.push(format!(
                    "the point in {mantissa} groups thousands (write {} for a decimal)",
                    unambiguous_decimal(mantissa)
                ));
            } else if g == '.' {
                notes.push(format!("the points in {mantissa} group thousands"));
            }
            groups.concat()
        }
        None => integer.to_string(),
    };
    if decimal == Some(',') {
        notes.push(format!("the comma in {mantissa} is the decimal mark"));
    }
    Some(match fraction {
        Some(f) => format!("{}.{f}", if integer.is_empty() { "0" } else { &integer }),
        None => integer,
    })
}

/// `1.050` written so that the point can only be a decimal mark: `1.05` (or `1.2340`).
fn unambiguous_decimal(mantissa: &str) -> String {
    let trimmed = mantissa.trim_end_matches('0');
    if trimmed.len() < mantissa.len() {
        trimmed.trim_end_matches('.').to_string()
    } else {
        format!("{mantissa}0")
    }
}

fn not_a_number(text: &str) -> String {
    format!("\u{201c}{}\u{201d} is not one", shorten(text, 24))
}

fn wrong_unit(unit_text: &str) -> String {
    format!(
        "\u{201c}{}\u{201d} is not a unit this part understands",
        shorten(unit_text, 16)
    )
}

/// A value for people: at most six decimals, no trailing zeros (`86`, `6.6`, `1050`).
pub fn plain(value: f64) -> String {
    let rounded = (value * 1e6).round() / 1e6;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded}")
    }
}

/// At most `max` characters of `text`, with an ellipsis when cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(max).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str, unit: &str) -> f64 {
        read_number(text, unit)
            .unwrap_or_else(|e| panic!("{text:?} in {unit}: {e}"))
            .value
    }

    fn notes(text: &str, unit: &str) -> Option<String> {
        read_number(text, unit).unwrap().describe(unit)
    }

    #[test]
    fn separators_follow_one_rule() {
        for (text, expected) in [
            ("1050", 1_050.0),
            (" 1,050 ", 1_050.0),
            ("1.050", 1_050.0),
            ("2.700", 2_700.0),
            ("2,700", 2_700.0),
            ("1 050", 1_050.0),
            ("1\u{202f}050", 1_050.0),
            ("1'050", 1_050.0),
            ("1,050.5", 1_050.5),
            ("1.050,5", 1_050.5),
            ("1,050,000", 1_050_000.0),
            ("1.050.000", 1_050_000.0),
            ("6,6", 6.6),
            ("6.6", 6.6),
            ("8,1", 8.1),
            ("8.14", 8.14),
            ("0.860", 0.86),
            ("0,125", 0.125),
            (",5", 0.5),
            (".5", 0.5),
            ("1.0500", 1.05),
            ("-3", -3.0),
            ("\u{2212}3", -3.0),
            ("2.7e3", 2_700.0),
            ("1e-3", 0.001),
        ] {
            assert_eq!(value(text, "calls"), expected, "{text:?}");
        }
    }

    #[test]
    fn the_reading_is_stated_when_it_could_surprise() {
        assert!(notes("1.050", "ms").unwrap().contains("groups thousands"));
        assert!(notes("1.050", "ms").unwrap().starts_with("Read as 1050 ms"));
        assert!(notes("6,6", "s").unwrap().contains("decimal mark"));
        assert_eq!(notes("1,050", "ms"), None);
        assert_eq!(notes("6.6", "s"), None);
        assert_eq!(notes("220 ms", "ms"), None);
    }

    #[test]
    fn units_with_or_without_a_space_and_times_converted() {
        assert_eq!(value("220 ms", "ms"), 220.0);
        assert_eq!(value("220ms", "ms"), 220.0);
        assert_eq!(value("220MS", "ms"), 220.0);
        assert!((value("1.05 s", "ms") - 1_050.0).abs() < 1e-9);
        assert!((value("1.05s", "ms") - 1_050.0).abs() < 1e-9);
        assert_eq!(value("6600 ms", "s"), 6.6);
        assert_eq!(value("8 seconds", "s"), 8.0);
        assert_eq!(value("360 s", "min"), 6.0);
        assert!(notes("1.05 s", "ms").unwrap().contains("converted"));
        assert_eq!(value("27 calls", "calls"), 27.0);
        assert_eq!(value("1 call", "calls"), 1.0);
        assert_eq!(value("2,700 calls/s", "calls/s"), 2_700.0);
        assert_eq!(value("2700/s", "calls/s"), 2_700.0);
        assert_eq!(value("300 calls per second", "calls/s"), 300.0);
        assert_eq!(value("12 openings/h", "openings/h"), 12.0);
        assert_eq!(value("12 per hour", "openings/h"), 12.0);
        assert_eq!(value("1,200 orders", "orders"), 1_200.0);
        assert_eq!(value("2 attempts", "attempts"), 2.0);
        for (text, unit) in [
            ("220 kg", "ms"),
            ("5 ms", "calls"),
            ("5 %", "s"),
            ("12abc", "ms"),
        ] {
            let e = read_number(text, unit).unwrap_err();
            assert!(e.contains("not a unit"), "{text:?}: {e}");
        }
    }

    #[test]
    fn percentages_as_whole_numbers_or_fractions() {
        assert_eq!(value("86", "%"), 86.0);
        assert_eq!(value("86%", "%"), 86.0);
        assert_eq!(value("86 %", "%"), 86.0);
        assert_eq!(value("86 percent", "%"), 86.0);
        assert_eq!(value("0.86", "%"), 86.0);
        assert_eq!(value("0,86", "%"), 86.0);
        assert_eq!(value("0.5%", "%"), 0.5);
        assert_eq!(value("0", "%"), 0.0);
        assert_eq!(value("1", "%"), 1.0);
        let said = notes("0.86", "%").unwrap();
        assert!(said.starts_with("Read as 86%"), "{said}");
        assert!(said.contains("fraction"), "{said}");
        assert_eq!(notes("86", "%"), None);
    }

    #[test]
    fn anything_else_is_refused() {
        for bad in [
            "",
            "   ",
            "abc",
            "NaN",
            "nan",
            "inf",
            "-infinity",
            "1e999",
            "1,2,3.4.5",
            "ms",
            "--1",
            "½",
            "1,05,0",
            "1.2.3",
            "12,34.5",
            "e5",
            "1e",
            "1.2,3.4",
            "+",
            ".",
            ",",
        ] {
            assert!(read_number(bad, "%").is_err(), "{bad:?} was read");
        }
        let long = "é".repeat(100);
        assert!(read_number(&long, "s").unwrap_err().chars().count() < 60);
    }
}
