//! Reading pasted JSON the same way for every library: paths for notices, a value shown
//! short, numbers that may be strings, comments taken out.

use serde_json::Value;

use super::resilience4j::Notice;
use crate::sim::model::{SimConfig, StackConfig};

/// Inventory called through `stack` alone (no request budget, which no library has), the
/// config checked; a value out of the simulator's range is named by the library's field that
/// `path_of` gives for the simulator's.
pub(super) fn call_through(
    stack: StackConfig,
    cfg: &mut SimConfig,
    path_of: fn(&str) -> &'static str,
) -> Result<(), Notice> {
    *cfg.first_stack_mut() = stack;
    cfg.service.request_budget = None;
    cfg.validate().map_err(|e| Notice {
        path: path_of(e.field).to_string(),
        message: format!("{} is out of the simulator's range ({})", e.value, e.range),
    })
}

/// `at.key`, or `key` at the top.
pub(super) fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}

/// A value as a notice quotes it: its JSON, cut at 40 characters.
pub(super) fn shown(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

/// A number, or a string holding one (.NET's binder reads both; so does this reader for
/// every library).
pub(super) fn number(path: &str, value: &Value) -> Result<f64, Notice> {
    let n = match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    n.filter(|n| n.is_finite()).ok_or_else(|| Notice {
        path: path.to_string(),
        message: format!("a number was expected, not {}", shown(value)),
    })
}

/// The text with `//` and `/* */` comments taken out (appsettings.json
/// may have them), strings
/// left as they are.
pub(super) fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            _ => out.push(c),
        }
    }
    out
}
