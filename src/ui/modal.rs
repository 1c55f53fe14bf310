//! A modal dialog opened by a button, whose contents are made only while it is open.

use yew::prelude::*;

/// What a component needs for its dialog: the `<dialog>`'s ref, whether it is open, and the
/// callbacks of its open and close buttons and of Escape (the `cancel` event).
pub struct Modal {
    /// The `<dialog>` element.
    pub node: NodeRef,
    /// Whether the dialog is open.
    pub open: bool,
    /// Opens it as a modal.
    pub on_open: Callback<MouseEvent>,
    /// Closes it.
    pub on_close: Callback<MouseEvent>,
    /// Escape closed it (the browser closes the dialog itself).
    pub on_cancel: Callback<Event>,
}

/// A dialog closed until its button is pressed.
#[hook]
pub fn use_modal() -> Modal {
    let node = use_node_ref();
    let open = use_state(|| false);
    let on_open = {
        let (node, open) = (node.clone(), open.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = node.cast::<web_sys::HtmlDialogElement>() {
                let _ = d.show_modal();
                open.set(true);
            }
        })
    };
    let on_close = {
        let (node, open) = (node.clone(), open.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = node.cast::<web_sys::HtmlDialogElement>() {
                d.close();
            }
            open.set(false);
        })
    };
    let on_cancel = {
        let open = open.clone();
        Callback::from(move |_: Event| open.set(false))
    };
    Modal {
        node,
        open: *open,
        on_open,
        on_close,
        on_cancel,
    }
}
