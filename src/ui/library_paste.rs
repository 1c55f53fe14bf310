//! The paste box: a library's configuration (a `resilience4j:` block, an Envoy route and
//! cluster, the options of Polly's HTTP handler, or a gRPC service config), run on the current
//! scenario with that library's semantics.

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::action::Action;

/// Properties of [`LibraryPaste`].
#[derive(Properties, PartialEq)]
pub struct LibraryPasteProps {
    pub on_action: Callback<Action>,
}

/// A text box and a button; what the configuration says, or what is wrong with it, comes back
/// as the page's notice.
#[function_component(LibraryPaste)]
pub fn library_paste(props: &LibraryPasteProps) -> Html {
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
            Action::paste_config(&text)
        })
    };
    let area_id = ids.id("r4j-yaml");
    html! {
        <fieldset class="pattern r4j-paste">
            <legend>{ "Your library's configuration" }</legend>
            <label for={area_id.clone()}>
                { "Paste the settings your service runs with: a resilience4j: block (instances named inventoryReservation), an Envoy route's retry_policy with its cluster's circuit_breakers and outlier_detection, the Polly options of appsettings.json (Retry, CircuitBreaker, AttemptTimeout), or a gRPC service config (methodConfig, retryThrottling). It is recognised by its shape and runs on this scenario with that library's semantics." }
            </label>
            <textarea id={area_id} ref={area} rows="8" spellcheck="false" />
            <button type="button" id={ids.id("r4j-run")} onclick={on_run}>{ "Run this configuration" }</button>
        </fieldset>
    }
}
