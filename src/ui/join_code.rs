//! "Join on a phone", on the stage: a button that opens a dialog with the QR code of the run
//! on screen (and its link as text), large enough to scan from the back of the room; the phone
//! opens the same run at its own size.
//!
//! The whole module draws the code itself (the offline file has no other module to fetch). The
//! playground's and the lesson's pages leave the encoder out: their dialog holds an
//! `<rp-qr-code>` element, which `join-qr.js` fills from the QR module (`qr-code_bg.wasm`),
//! fetched the first time the dialog opens (`docs/measurements.md`: issue 45).

use std::cell::Cell;

use yew::prelude::*;

use super::ids::use_ids;
use super::modal::use_modal;
use super::on_demand::load_module_script;
use crate::page::join::{join_link, unreachable_from_a_phone};

/// The script that defines `<rp-qr-code>`, beside the page.
const QR_SCRIPT: &str = "join-qr.js";

/// How this module draws a code: `page::join::qr_svg`, or `None` for the QR module on demand.
type Encoder = fn(&str, &str) -> Result<String, String>;

thread_local! {
    static ENCODER: Cell<Option<Encoder>> = const { Cell::new(None) };
}

/// Makes this module draw its codes itself (the whole module's start).
pub fn draw_codes_here() {
    ENCODER.with(|e| e.set(Some(crate::page::join::qr_svg)));
}

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
    let modal = use_modal();
    let link = join_link(&props.link);
    let encoder = ENCODER.with(Cell::get);
    let qr_id = ids.id("join-qr");
    // The code is made only while the dialog is open: the stage's link changes with the
    // playhead, every tenth of a second while a run plays.
    let svg = {
        let qr_id = qr_id.clone();
        use_memo((link.clone(), modal.open), move |(link, shown)| {
            shown
                .then_some(encoder)
                .flatten()
                .map(|encode| encode(link, &qr_id))
        })
    };
    use_effect_with(modal.open && encoder.is_none(), |fetch| {
        if *fetch {
            load_module_script(QR_SCRIPT);
        }
    });
    let code = match (&*svg, encoder) {
        (Some(Ok(svg)), _) => Html::from_html_unchecked(AttrValue::from(svg.clone())),
        (Some(Err(message)), _) => html! { <p class="notice" role="alert">{ message }</p> },
        (None, None) if modal.open => html! {
            <rp-qr-code link={link.clone()} svg-id={qr_id}></rp-qr-code>
        },
        (None, _) => Html::default(),
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
