//! "Embed this": a button that opens the snippets for exactly what is on screen (the custom
//! element and the iframe, see [`crate::page::embed`]), each with a copy button, and a live
//! preview of the iframe, loaded only once the dialog is open. The preview reports its
//! content's height (`frame-height.js`), which the iframe's snippet then asks for: a platform
//! that keeps no script leaves the iframe at the height the snippet writes.

use web_sys::{HtmlIFrameElement, HtmlTextAreaElement, MessageEvent};
use yew::prelude::*;

use super::ids::use_ids;
use super::modal::use_modal;
use super::window_events::use_window_event;
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
    let modal = use_modal();
    let open = modal.open;
    let kind = use_state(|| props.embed.kind);
    let copied = use_state(|| None::<&'static str>);
    let preview = use_node_ref();
    let measured = use_state(|| None::<(u32, u32)>);
    {
        let (preview, measured) = (preview.clone(), measured.clone());
        let on_message = Callback::from(move |event: MessageEvent| {
            let Some(frame) = preview.cast::<HtmlIFrameElement>() else {
                return;
            };
            let from_preview =
                frame
                    .content_window()
                    .zip(event.source())
                    .is_some_and(|(window, source)| {
                        wasm_bindgen::JsValue::from(window) == wasm_bindgen::JsValue::from(source)
                    });
            if let (true, Some(height)) = (from_preview, frame_height(&event.data())) {
                measured.set(Some((height, frame.client_width().max(0) as u32)));
            }
        });
        use_window_event("message", open, on_message);
    }
    {
        // A new preview (the dialog opened again, another kind) is measured anew.
        let measured = measured.clone();
        use_effect_with((open, *kind), move |_| measured.set(None));
    }
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| folder_of(&href))
        .unwrap_or_default();
    let embed = Embed {
        kind: *kind,
        ..props.embed.clone()
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
            <button type="button" class="embed-open" id={ids.id("embed-open")} onclick={modal.on_open}>
                { "Embed this" }
            </button>
            <dialog ref={modal.node} class="embed-this" id={ids.id("embed-this")}
                aria-labelledby={ids.id("embed-title")} oncancel={modal.on_cancel}>
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
                        <p class="hint">{ "For a course platform's editor (Moodle's Page or Label, Canvas): the iframe alone works. Where the editor keeps the script line (Moodle does, Canvas does not), it sizes the iframe to its content; elsewhere the iframe keeps the height written in it." }</p>
                        <textarea id={iframe_id.clone()} readonly=true rows="4"
                            value={open.then(|| embed.iframe(&base, measured.map(|(height, _)| height)))} />
                        <button type="button" id={ids.id("embed-copy-iframe")} onclick={copy("iframe", iframe_id)}>{ "Copy" }</button>
                    </section>
                </div>
                if let Some(which) = *copied {
                    <p class="hint" role="status">{ format!("The {which} snippet is copied (and selected).") }</p>
                }
                <h3>{ "Preview" }</h3>
                if open {
                    <iframe class="embed-preview" id={ids.id("embed-preview")} src={embed.frame_url(&base)}
                        ref={preview} title={format!("Preview: {}", embed.title())} />
                    <p class="hint" id={ids.id("embed-measured")} role="status">{
                        match *measured {
                            Some((height, width)) => format!("Its content is {height} px tall at the preview's width ({width} px): the iframe's snippet asks for that height."),
                            None => "Measuring the preview's height\u{2026}".to_string(),
                        }
                    }</p>
                }
                <button type="button" id={ids.id("embed-close")} onclick={modal.on_close}>{ "Close" }</button>
            </dialog>
        </>
    }
}

/// The height in a `frame-height.js` message (`{ type: "resilience-playground:height", height }`),
/// in whole CSS px; None for any other message.
fn frame_height(data: &wasm_bindgen::JsValue) -> Option<u32> {
    let field = |name: &str| js_sys::Reflect::get(data, &name.into()).ok();
    let kind = field("type")?.as_string()?;
    let height = field("height")?.as_f64()?;
    (kind == "resilience-playground:height" && height.is_finite() && height >= 0.0)
        .then(|| height.ceil().min(u32::MAX as f64) as u32)
}
