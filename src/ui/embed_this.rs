//! "Embed this": a button that opens the snippets for exactly what is on screen (the custom
//! element and the iframe, see [`crate::page::embed`]), each with a copy button, and a live
//! preview of the iframe, loaded only once the dialog is open.

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::ids::use_ids;
use crate::page::embed::{folder_of, Embed};
use crate::page::widget::WidgetKind;

/// Properties of [`EmbedThis`].
#[derive(Properties, PartialEq)]
pub struct EmbedThisProps {
    /// What is on screen.
    pub embed: Embed,
    /// Other kinds the same settings can be shown as (the playground: its diagram or its
    /// histogram alone); empty for none.
    #[prop_or_default]
    pub also: Vec<WidgetKind>,
}

/// The button and its dialog.
#[function_component(EmbedThis)]
pub fn embed_this(props: &EmbedThisProps) -> Html {
    let ids = use_ids();
    let dialog = use_node_ref();
    let open = use_state(|| false);
    let kind = use_state(|| props.embed.kind);
    let copied = use_state(|| None::<&'static str>);
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| folder_of(&href))
        .unwrap_or_default();
    let embed = Embed {
        kind: *kind,
        ..props.embed.clone()
    };
    let on_open = {
        let (dialog, open) = (dialog.clone(), open.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = dialog.cast::<web_sys::HtmlDialogElement>() {
                let _ = d.show_modal();
                open.set(true);
            }
        })
    };
    let on_close = {
        let (dialog, open) = (dialog.clone(), open.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(d) = dialog.cast::<web_sys::HtmlDialogElement>() {
                d.close();
            }
            open.set(false);
        })
    };
    // Escape closes the dialog without a click: the preview goes with it.
    let on_cancel = {
        let open = open.clone();
        Callback::from(move |_: Event| open.set(false))
    };
    let copy = |which: &'static str, id: AttrValue| {
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let area = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&id))
                .and_then(|e| wasm_bindgen::JsCast::dyn_into::<HtmlTextAreaElement>(e).ok());
            if let Some(area) = area {
                area.select();
                if let Some(w) = web_sys::window() {
                    let _ = w.navigator().clipboard().write_text(&area.value());
                }
            }
            copied.set(Some(which));
        })
    };
    let element_id = ids.id("embed-element");
    let iframe_id = ids.id("embed-iframe");
    let choices = (!props.also.is_empty()).then(|| {
        let kinds: Vec<WidgetKind> = std::iter::once(props.embed.kind)
            .chain(props.also.iter().copied())
            .collect();
        let onchange = {
            let kind = kind.clone();
            Callback::from(move |e: Event| {
                let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
                if let Some(k) = WidgetKind::parse(&select.value()) {
                    kind.set(k);
                }
            })
        };
        html! {
            <label class="embed-kind">{ "Show " }
                <select id={ids.id("embed-kind")} {onchange}>
                    { for kinds.iter().map(|k| html! {
                        <option value={k.key()} selected={*k == *kind}>
                            { k.name() }
                        </option>
                    }) }
                </select>
            </label>
        }
    });
    html! {
        <>
            <button type="button" class="embed-open" id={ids.id("embed-open")} onclick={on_open}>
                { "Embed this" }
            </button>
            <dialog ref={dialog} class="embed-this" id={ids.id("embed-this")}
                aria-labelledby={ids.id("embed-title")} oncancel={on_cancel}>
                <h2 id={ids.id("embed-title")}>{ "Embed this in a course page" }</h2>
                { choices.unwrap_or_default() }
                <div class="embed-snippets">
                    <section>
                        <h3>{ "As a widget" }</h3>
                        <p class="hint">{ "For a page that allows scripts (a site of your own, mdBook, Docusaurus)." }</p>
                        <textarea id={element_id.clone()} readonly=true rows="4" value={open.then(|| embed.element(&base))} />
                        <button type="button" id={ids.id("embed-copy-element")} onclick={copy("widget", element_id)}>{ "Copy" }</button>
                    </section>
                    <section>
                        <h3>{ "As an iframe" }</h3>
                        <p class="hint">{ "For an editor that strips scripts (Canvas, a Moodle page): the iframe alone works; the script line sizes it to its content where scripts are allowed." }</p>
                        <textarea id={iframe_id.clone()} readonly=true rows="4" value={open.then(|| embed.iframe(&base))} />
                        <button type="button" id={ids.id("embed-copy-iframe")} onclick={copy("iframe", iframe_id)}>{ "Copy" }</button>
                    </section>
                </div>
                if let Some(which) = *copied {
                    <p class="hint" role="status">{ format!("The {which} snippet is copied (and selected).") }</p>
                }
                <h3>{ "Preview" }</h3>
                if *open {
                    <iframe class="embed-preview" id={ids.id("embed-preview")} src={embed.frame_url(&base)}
                        title={format!("Preview: {}", embed.title())} />
                }
                <button type="button" id={ids.id("embed-close")} onclick={on_close}>{ "Close" }</button>
            </dialog>
        </>
    }
}
