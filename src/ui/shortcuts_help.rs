//! "?" anywhere on the page (outside a text field) opens a dialog that lists the page's
//! keyboard shortcuts; Escape or its button closes it and gives the focus back.

use yew::prelude::*;

use super::ids::use_ids;
use super::playback::{is_shortcut, use_document_keys};

/// Properties of [`ShortcutsHelp`].
#[derive(Properties, PartialEq)]
pub struct ShortcutsHelpProps {
    /// Each shortcut: its keys, then what it does.
    pub entries: Vec<(AttrValue, AttrValue)>,
}

/// The dialog, closed until "?" is pressed.
#[function_component(ShortcutsHelp)]
pub fn shortcuts_help(props: &ShortcutsHelpProps) -> Html {
    let ids = use_ids();
    let dialog = use_node_ref();
    let keys = {
        let dialog = dialog.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() != "?" || !is_shortcut(&e) {
                return;
            }
            if let Some(d) = dialog.cast::<web_sys::HtmlDialogElement>() {
                if !d.open() {
                    e.prevent_default();
                    let _ = d.show_modal();
                }
            }
        })
    };
    use_document_keys(Some(keys));
    let close = {
        let dialog = dialog.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = dialog.cast::<web_sys::HtmlDialogElement>() {
                d.close();
            }
        })
    };
    let rows = props.entries.iter().map(|(keys, what)| {
        html! { <><dt><kbd>{ keys.clone() }</kbd></dt><dd>{ what.clone() }</dd></> }
    });
    html! {
        <dialog ref={dialog} class="shortcuts-help" id={ids.id("shortcuts-help")}
            aria-labelledby={ids.id("shortcuts-help-title")}>
            <h2 id={ids.id("shortcuts-help-title")}>{ "Keyboard shortcuts" }</h2>
            <dl>{ for rows }</dl>
            <p class="hint">{ "They work wherever the focus is, except in a text field; a slider keeps the arrows. Escape closes this." }</p>
            <button type="button" id={ids.id("shortcuts-help-close")} onclick={close}>{ "Close" }</button>
        </dialog>
    }
}

/// The playground's shortcuts.
pub fn playground_shortcuts() -> Vec<(AttrValue, AttrValue)> {
    [
        ("Space", "play or pause"),
        ("→ / ←", "step 0.1 s forward or back"),
        ("Shift + → / ←", "step 1 s"),
        ("r", "back to the start"),
        ("?", "this list"),
    ]
    .into_iter()
    .map(|(k, w)| (AttrValue::from(k), AttrValue::from(w)))
    .collect()
}

/// The lesson page's shortcuts.
pub fn lesson_shortcuts() -> Vec<(AttrValue, AttrValue)> {
    [
        (
            "PageDown",
            "advance, as a presenter's clicker sends it: passes a question, plays the step's \
             run to its moment, then the next step",
        ),
        ("PageUp", "the step before, where the class left it"),
        (
            "→ / ←",
            "next or previous step, except on a slider, which they move",
        ),
        ("Space", "play or pause"),
        (
            "b / .",
            "black screen, as a presenter's clicker blacks it; any key brings the step back",
        ),
        ("?", "this list"),
    ]
    .into_iter()
    .map(|(k, w)| (AttrValue::from(k), AttrValue::from(w)))
    .collect()
}
