//! Element ids that stay unique when several widgets share one course page: each widget
//! provides its own prefix, the full playground none (its ids are the plain names).

use std::rc::Rc;

use yew::prelude::*;

/// What the elements of one widget share: the prefix of their ids, the level of their
/// headings (under the course page's own), and what the widget shows, which names its
/// landmarks so that two widgets on one page stay apart. The full playground has no prefix,
/// level 2 and no name.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IdScope {
    prefix: Rc<str>,
    heading: u8,
    what: Option<Rc<str>>,
}

impl IdScope {
    /// The scope of widget `n` on its page, its headings at `heading`, showing `what`.
    pub fn widget(n: u32, heading: u8, what: &str) -> IdScope {
        IdScope {
            prefix: format!("rw{n}-").into(),
            heading,
            what: Some(what.into()),
        }
    }

    /// The id of the element called `name` in this scope.
    pub fn id(&self, name: &str) -> AttrValue {
        if self.prefix.is_empty() {
            AttrValue::from(name.to_string())
        } else {
            AttrValue::from(format!("{}{name}", self.prefix))
        }
    }

    /// The tag of a top heading here (`h2` unless the widget was given another level).
    pub fn heading_tag(&self) -> String {
        format!("h{}", self.heading.clamp(2, 6))
    }

    /// The name of a landmark titled `title`: in a widget, with what the widget shows
    /// ("Timeline, latency histogram"); `None` in the full playground, whose regions are
    /// named by their headings.
    pub fn landmark(&self, title: &str) -> Option<AttrValue> {
        self.what
            .as_ref()
            .map(|what| AttrValue::from(format!("{title}, {what}")))
    }
}

/// The scope of the component calling it (no prefix outside a widget).
#[hook]
pub fn use_ids() -> IdScope {
    use_context::<IdScope>().unwrap_or_default()
}
