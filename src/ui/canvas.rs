//! A chart drawn on a canvas: redrawn after a render whenever what it shows has changed.

use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// The canvas's ref; `draw` paints it from `deps` each time they change. A chart that cannot
/// be drawn says why on the console (naming it `what`) and leaves the page working.
#[hook]
pub fn use_canvas<D>(
    deps: D,
    what: &'static str,
    draw: fn(HtmlCanvasElement, &D) -> Result<(), String>,
) -> NodeRef
where
    D: PartialEq + 'static,
{
    let canvas_ref = use_node_ref();
    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with(deps, move |deps| {
            if let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() {
                if let Err(message) = draw(canvas, deps) {
                    web_sys::console::warn_1(&format!("{what} not drawn: {message}").into());
                }
            }
            || ()
        });
    }
    canvas_ref
}

/// A font size in canvas pixels that shows at least `min_css` CSS pixels once the canvas is
/// scaled to its width on the page (a 640 px canvas on a 340 px phone column halves its
/// text), and never less than `base`.
pub fn legible_px(canvas: &HtmlCanvasElement, base: f64, min_css: f64) -> f64 {
    let shown = f64::from(canvas.client_width());
    if shown <= 0.0 {
        return base;
    }
    base.max(min_css * f64::from(canvas.width()) / shown).ceil()
}
