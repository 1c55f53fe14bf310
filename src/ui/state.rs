//! The page's state as Yew's reducer: [`Page::apply`] does the work, on the host-tested side.

use std::rc::Rc;

use yew::Reducible;

use crate::page::state::{Action, Page};

/// The page's state, for `use_reducer`.
#[derive(Debug, Clone)]
pub struct PageState(pub Page);

impl Default for PageState {
    fn default() -> Self {
        PageState(Page::new(
            crate::sim::scenario::Scenario::Cb,
            prefers_dark(),
        ))
    }
}

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(PageState(self.0.clone().apply(action)))
    }
}

/// Whether the reader's system asks for a dark theme.
fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}
