//! What the page keeps between visits (exercise answers, a lesson's progress, a teacher's
//! lesson file): the browser's local storage, or, for a lesson launched by a course platform
//! (a SCORM package that found the platform: `data-lms` on the page's root, set by
//! `scorm.js`), the platform's record of the learner. There the browser's storage is neither
//! read nor written, so that learners sharing a computer each keep their own. Storage refused
//! (a private window, a policy) is no error: what would have been kept then lasts as long as
//! the page.

fn root() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.document_element()
}

/// True when a course platform keeps the learner's record (not the browser).
pub fn in_platform() -> bool {
    root().is_some_and(|r| r.has_attribute("data-lms"))
}

fn local() -> Option<web_sys::Storage> {
    if in_platform() {
        return None;
    }
    web_sys::window()?.local_storage().ok()?
}

/// The text kept under `key`, if any.
pub fn stored(key: &str) -> Option<String> {
    local()?.get_item(key).ok()?
}

/// Keeps `text` under `key`.
pub fn store(key: &str, text: &str) {
    if let Some(s) = local() {
        let _ = s.set_item(key, text);
    }
}

/// Forgets what is kept under `key`.
pub fn forget(key: &str) {
    if let Some(s) = local() {
        let _ = s.remove_item(key);
    }
}

/// The lesson progress the course platform kept for this learner (`cmi.suspend_data`, as
/// `scorm.js` found it at launch), if the platform keeps the record.
pub fn platform_record() -> Option<String> {
    root()
        .filter(|_| in_platform())
        .map(|r| r.get_attribute("data-lesson-record").unwrap_or_default())
}

/// Gives the course platform where the learner is and their progress (`scorm.js` sends
/// them on); nothing when no platform keeps the record.
pub fn keep_in_platform(location: &str, suspend_data: &str) {
    if let Some(r) = root().filter(|_| in_platform()) {
        let _ = r.set_attribute("data-lesson-record", suspend_data);
        let _ = r.set_attribute("data-lesson-location", location);
    }
}
