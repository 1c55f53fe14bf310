//! A table that may be wider than its column: it scrolls sideways, can be scrolled from the
//! keyboard, and says that it scrolls while it does (a phone shows no scroll bar until
//! touched).

use yew::prelude::*;

use crate::ui::canvas::use_content_width;

/// Properties of [`WideTable`].
#[derive(Properties, PartialEq)]
pub struct WideTableProps {
    /// The scrolling region's name for assistive technology.
    pub label: AttrValue,
    /// The table.
    pub children: Html,
}

/// The table in a region that scrolls, with a line above it while it is cut.
#[function_component(WideTable)]
pub fn wide_table(props: &WideTableProps) -> Html {
    let room = use_node_ref();
    let table = use_node_ref();
    let room_width = use_content_width(room.clone());
    let table_width = use_content_width(table.clone());
    let cut = room_width > 0.0 && table_width > room_width + 0.5;
    html! {
        <div class="wide-table">
            if cut {
                <p class="scroll-hint">
                    { "The table is wider than the screen: swipe it sideways (or focus it and use the arrow keys) to see every column." }
                </p>
            }
            <div class="table-scroll wide-table-scroll" ref={room} tabindex="0" role="region"
                aria-label={props.label.clone()} data-cut={cut.to_string()}>
                <div class="table-width" ref={table}>{ props.children.clone() }</div>
            </div>
        </div>
    }
}
