//! The browser's local storage, for what the page keeps between visits (exercise answers, a
//! lesson's progress, a teacher's lesson file). Storage refused (a private window, a policy)
//! is no error: what would have been kept then lasts as long as the page.

/// The text kept under `key`, if any.
pub fn stored(key: &str) -> Option<String> {
    web_sys::window()?
        .local_storage()
        .ok()??
        .get_item(key)
        .ok()?
}

/// Keeps `text` under `key`.
pub fn store(key: &str, text: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.set_item(key, text);
    }
}

/// Forgets what is kept under `key`.
pub fn forget(key: &str) {
    if let Some(s) = web_sys::window().and_then(|w| w.local_storage().ok().flatten()) {
        let _ = s.remove_item(key);
    }
}
