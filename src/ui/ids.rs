//! Element ids that stay unique when several widgets share one course page: each widget
//! provides its own prefix, the full playground none (its ids are the plain names).

use std::rc::Rc;

use yew::prelude::*;

/// The prefix every id in one widget carries.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct IdScope(pub Rc<str>);

impl IdScope {
    /// The id of the element called `name` in this scope.
    pub fn id(&self, name: &str) -> AttrValue {
        if self.0.is_empty() {
            AttrValue::from(name.to_string())
        } else {
            AttrValue::from(format!("{}{name}", self.0))
        }
    }
}

/// The scope of the component calling it (no prefix outside a widget).
#[hook]
pub fn use_ids() -> IdScope {
    use_context::<IdScope>().unwrap_or_default()
}
