//! "Join on a phone", on the stage: a button that opens a dialog with the QR code of the run
//! on screen (and its link as text), large enough to scan from the back of the room; the phone
//! opens the same run at its own size.

use yew::prelude::*;

use super::ids::use_ids;
use super::modal::use_modal;
use crate::page::join::{join_link, unreachable_from_a_phone, QrModules};

/// Light modules around the code, as the standard asks.
const QUIET: usize = 4;

/// Properties of [`JoinCode`].
#[derive(Properties, PartialEq)]
pub struct JoinCodeProps {
    /// The address of what is on screen (the projector's own, with its query).
    pub link: AttrValue,
}

/// The button and its dialog.
#[function_component(JoinCode)]
pub fn join_code(props: &JoinCodeProps) -> Html {
    let ids = use_ids();
    // The code is made only while the dialog is open: the stage's link changes with the
    // playhead, every tenth of a second while a run plays.
    let modal = use_modal();
    let link = join_link(&props.link);
    let modules = use_memo((link.clone(), modal.open), |(link, shown)| {
        shown.then(|| QrModules::encode(link))
    });
    let code = match &*modules {
        None => Html::default(),
        Some(Ok(m)) => {
            let side = m.width + 2 * QUIET;
            html! {
                <svg class="join-qr" id={ids.id("join-qr")} viewBox={format!("0 0 {side} {side}")}
                    shape-rendering="crispEdges" role="img"
                    aria-label="QR code of the link below: a phone's camera opens it">
                    <rect width={side.to_string()} height={side.to_string()} fill="#ffffff" />
                    <path d={m.svg_path(QUIET)} fill="#000000" />
                </svg>
            }
        }
        Some(Err(message)) => html! { <p class="notice" role="alert">{ message }</p> },
    };
    html! {
        <>
            <button type="button" class="join-open" id={ids.id("join-open")} onclick={modal.on_open}>
                { "Join on a phone" }
            </button>
            <dialog ref={modal.node} class="join-code" id={ids.id("join-code")}
                aria-labelledby={ids.id("join-title")} oncancel={modal.on_cancel}>
                <h2 id={ids.id("join-title")}>{ "Open this run on your phone" }</h2>
                { code }
                <p class="join-link" id={ids.id("join-link")}>{ link.clone() }</p>
                if let Some(why) = unreachable_from_a_phone(&link) {
                    <p class="notice" id={ids.id("join-unreachable")}>{ format!("A phone cannot open this yet: {why}.") }</p>
                }
                <button type="button" id={ids.id("join-close")} onclick={modal.on_close}>{ "Close" }</button>
            </dialog>
        </>
    }
}
