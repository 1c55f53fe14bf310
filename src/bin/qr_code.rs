//! The QR module (`qr-code.js`): the encoder of "Join on a phone", which the playground's and
//! the lesson's pages fetch the first time the dialog opens (`static/join-qr.js`), so that
//! their own modules leave it out. The whole module draws its codes itself.

#[cfg(target_arch = "wasm32")]
mod web {
    /// The code of `link` as an SVG element with the id `id` (`page::join::qr_svg`); the
    /// reason as an error when the link is too long to encode.
    #[wasm_bindgen::prelude::wasm_bindgen(js_name = qrCodeSvg)]
    pub fn qr_code_svg(link: &str, id: &str) -> Result<String, String> {
        resilience_playground::page::join::qr_svg(link, id)
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    resilience_playground::not_a_terminal_program("qr-code");
}
