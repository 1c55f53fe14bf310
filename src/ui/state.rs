//! The page's state as Yew's reducer: [`Page::apply`] does the work, on the host-tested side.

use std::rc::Rc;

use yew::Reducible;

use crate::page::action::Action;
use crate::page::permalink::{from_pairs, parse_query};
use crate::page::state::Page;

/// The page's state, for `use_reducer`.
#[derive(Debug, Clone)]
pub struct PageState(pub Page);

impl PageState {
    /// The page the address bar's query string describes (a permalink), or the default page.
    /// Values it cannot use are named in the page's notice.
    pub fn from_location() -> Self {
        let search = web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default();
        Self::from_query(&search)
    }

    /// The page `query` describes; see [`from_pairs`].
    pub fn from_query(query: &str) -> Self {
        let (pairs, mut notices) = parse_query(query);
        let (page, more) = from_pairs(&pairs);
        notices.extend(more);
        let mut page = page.apply(Action::SetDark(prefers_dark()));
        if !notices.is_empty() {
            page.notice = Some(notices.join(" "));
        }
        PageState(page)
    }
}

impl Reducible for PageState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(PageState(self.0.clone().apply(action)))
    }
}

/// Whether the reader's system asks for a dark theme.
pub fn prefers_dark() -> bool {
    web_sys::window()
        .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten())
        .is_some_and(|m| m.matches())
}
