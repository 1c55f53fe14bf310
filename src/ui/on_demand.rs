//! An explorer the playground's page fetches when the student starts it: its region says what
//! it computes and holds the start button; the button loads `widgets.js` (once) and puts the
//! explorer's widget in the region, which downloads the explorers module
//! (`widget-explorers_bg.wasm`) and starts at once. The page's own module holds none of the
//! explorers' code (`docs/measurements.md`: issue 45).

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::widget::WidgetKind;

/// The script that defines `<resilience-widget>`, beside the page.
const WIDGETS_SCRIPT: &str = "widgets.js";

/// Properties of [`ExplorerOnDemand`].
#[derive(Properties, PartialEq)]
pub struct ExplorerOnDemandProps {
    /// The explorer (a kind of [`WidgetKind::EXPLORERS`]).
    pub kind: WidgetKind,
    /// The region's class (`jitter-region`).
    pub class: AttrValue,
    /// The region's title, which the explorer's own title takes over once it is open.
    pub title: AttrValue,
    /// What it computes, in a sentence.
    pub what: AttrValue,
    /// The start button's label and id.
    pub start: AttrValue,
    pub start_id: AttrValue,
}

/// One explorer's region: what it computes and a start button, then the explorer itself.
#[function_component(ExplorerOnDemand)]
pub fn explorer_on_demand(props: &ExplorerOnDemandProps) -> Html {
    let ids = use_ids();
    let heading = ids.heading_tag();
    let open = use_state(|| false);
    let onclick = {
        let open = open.clone();
        Callback::from(move |_| {
            load_widgets_script();
            open.set(true);
        })
    };
    let body = if *open {
        // The explorer's own title takes the region's heading level.
        html! {
            <resilience-widget kind={props.kind.key()} heading-level={heading[1..].to_string()}>
            </resilience-widget>
        }
    } else {
        html! {
            <>
                <@{heading}>{ props.title.clone() }</@>
                <p>{ props.what.clone() }</p>
                <button id={props.start_id.clone()} {onclick}>{ props.start.clone() }</button>
            </>
        }
    };
    html! {
        <section class={classes!("region", "explorer-on-demand", props.class.to_string())}
            aria-label={props.title.clone()}>
            { body }
        </section>
    }
}

/// Adds `widgets.js` to the page once; the explorer's element waits for it to be defined.
fn load_widgets_script() {
    load_module_script(WIDGETS_SCRIPT);
}

/// Adds the module script `src` (a file beside the page) to the page, once: the elements it
/// defines come to life when it arrives.
pub(super) fn load_module_script(src: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let selector = format!("script[src='{src}']");
    if document.query_selector(&selector).ok().flatten().is_some() {
        return;
    }
    let (Ok(script), Some(head)) = (document.create_element("script"), document.head()) else {
        return;
    };
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("src", src);
    let _ = head.append_child(&script);
}
