//! What leaves the page: widgets and their looks, the embed snippets, the join code, and where the site's pages are.

pub mod embed;
pub mod join;
pub mod site;
pub mod widget;
pub mod widget_look;
