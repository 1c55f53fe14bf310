//! Reading back the JSON the pages keep: a lesson's progress, a course platform's record of
//! it, a teacher's lesson file, the lessons the offline file carries. The pages write it with
//! serde_json.
//!
//! In a page, the JavaScript engine parses the text (`JSON.parse`) and serde reads the value
//! it hands back, so a page's module carries no JSON parser of its own (about 7 KB of the
//! lesson page's brotli: `docs/measurements.md`). On the host serde_json reads it.
//! `tests/web.rs` checks that both read today's records alike.

use serde::de::DeserializeOwned;

/// `text` read as a `T`; `None` when it is not JSON or not a `T`.
#[cfg(target_arch = "wasm32")]
pub fn read<T: DeserializeOwned>(text: &str) -> Option<T> {
    let value = js_sys::JSON::parse(text).ok()?;
    serde_wasm_bindgen::from_value(value).ok()
}

/// `text` read as a `T`; `None` when it is not JSON or not a `T`.
#[cfg(not(target_arch = "wasm32"))]
pub fn read<T: DeserializeOwned>(text: &str) -> Option<T> {
    serde_json::from_str(text).ok()
}
