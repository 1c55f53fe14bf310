//! The paste box: a `resilience4j:` block of a Spring Boot `application.yml`, run on the
//! current scenario with Resilience4j's semantics (lesson 004's annotated `reserveStock`).

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::action::Action;

/// Properties of [`Resilience4jPaste`].
#[derive(Properties, PartialEq)]
pub struct Resilience4jPasteProps {
    pub on_action: Callback<Action>,
}

/// A text box and a button; what the YAML says, or what is wrong with it, comes back as the
/// page's notice.
#[function_component(Resilience4jPaste)]
pub fn resilience4j_paste(props: &Resilience4jPasteProps) -> Html {
    let ids = use_ids();
    let area = use_node_ref();
    // The text is read when the button is pressed, straight from the text area (without
    // web-sys's HtmlTextAreaElement binding), so the latest keystroke or paste is in it.
    let on_run = {
        let area = area.clone();
        props.on_action.reform(move |_: MouseEvent| {
            let text = area
                .get()
                .and_then(|node| js_sys::Reflect::get(&node, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .unwrap_or_default();
            Action::paste_resilience4j(&text)
        })
    };
    let area_id = ids.id("r4j-yaml");
    html! {
        <fieldset class="pattern r4j-paste">
            <legend>{ "Your Resilience4j configuration" }</legend>
            <label for={area_id.clone()}>
                { "Paste a resilience4j: block (instances named inventoryReservation; a bulkhead orderHistoryLookup gives order history its own). It runs on this scenario with Resilience4j's semantics. Polly, Envoy and gRPC configurations go in the box of Four libraries, one failure, further down." }
            </label>
            <textarea id={area_id} ref={area} rows="8" spellcheck="false" />
            <button type="button" id={ids.id("r4j-run")} onclick={on_run}>{ "Run this configuration" }</button>
        </fieldset>
    }
}
