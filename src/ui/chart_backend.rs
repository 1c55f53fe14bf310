//! The charts' drawing backend: plotters' canvas backend, with its text drawn and measured
//! by the canvas alone.
//!
//! plotters' own backend sets the canvas's font, alignment and baseline for every label it
//! draws, and measures a label by laying out a `<span>` in the document. After a render has
//! changed the page, a canvas font set anew asks the browser for the page's styles, and a
//! span measured asks for its layout: on a slider move that was the largest part of drawing
//! the two charts. This backend keeps the text state it last set and sets only what changed,
//! and measures with the canvas's `measureText`.

use std::cell::RefCell;

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
    FontTransform,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Why a chart could not be drawn (the canvas refused a call).
#[derive(Debug)]
pub struct ChartError(String);

impl std::fmt::Display for ChartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChartError {}

/// The text settings last given to the canvas.
#[derive(Default)]
struct TextState {
    font: String,
    align: &'static str,
    baseline: &'static str,
}

/// A canvas to draw a chart on (see the module's documentation).
pub struct ChartBackend {
    shapes: CanvasBackend,
    context: CanvasRenderingContext2d,
    text: RefCell<TextState>,
}

impl ChartBackend {
    /// The backend of `canvas`; `None` when it has no 2D context.
    pub fn new(canvas: HtmlCanvasElement) -> Option<ChartBackend> {
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<CanvasRenderingContext2d>()
            .ok()?;
        Some(ChartBackend {
            shapes: CanvasBackend::with_canvas_object(canvas)?,
            context,
            text: RefCell::new(TextState::default()),
        })
    }

    /// Gives the canvas `style`'s font, and the alignment and baseline of its anchor, each only
    /// when it differs from what the canvas has.
    fn set_text<S: BackendTextStyle>(&self, style: &S) {
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        let align = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Right => "end",
            HPos::Center => "center",
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "top",
            VPos::Center => "middle",
            VPos::Bottom => "bottom",
        };
        let mut text = self.text.borrow_mut();
        if text.font != font {
            self.context.set_font(&font);
            text.font = font;
        }
        if text.align != align {
            self.context.set_text_align(align);
            text.align = align;
        }
        if text.baseline != baseline {
            self.context.set_text_baseline(baseline);
            text.baseline = baseline;
        }
    }
}

fn canvas_error(error: wasm_bindgen::JsValue) -> DrawingErrorKind<ChartError> {
    DrawingErrorKind::DrawingError(ChartError(format!("{error:?}")))
}

/// The shapes' backend's error as ours.
fn from_shapes<E: std::error::Error + Send + Sync>(
    result: Result<(), DrawingErrorKind<E>>,
) -> Result<(), DrawingErrorKind<ChartError>> {
    result.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(ChartError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

fn css_rgba(colour: BackendColor) -> String {
    let (r, g, b) = colour.rgb;
    format!("rgba({r},{g},{b},{})", colour.alpha)
}

impl DrawingBackend for ChartBackend {
    type ErrorType = ChartError;

    fn get_size(&self) -> (u32, u32) {
        self.shapes.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        colour: BackendColor,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.draw_pixel(point, colour))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vertices: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.fill_polygon(vertices, style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        let colour = style.color();
        if colour.alpha == 0.0 {
            return Ok(());
        }
        let turn = match style.transform() {
            FontTransform::None => 0.0,
            FontTransform::Rotate90 => 0.5,
            FontTransform::Rotate180 => 1.0,
            FontTransform::Rotate270 => 1.5,
        } * std::f64::consts::PI;
        self.set_text(style);
        self.context.set_fill_style_str(&css_rgba(colour));
        if turn == 0.0 {
            return self
                .context
                .fill_text(text, f64::from(x), f64::from(y))
                .map_err(canvas_error);
        }
        self.context.save();
        let drawn = self
            .context
            .translate(f64::from(x), f64::from(y))
            .and_then(|()| self.context.rotate(turn))
            .and_then(|()| self.context.fill_text(text, 0.0, 0.0));
        // The text settings were made before saving, so restoring keeps them.
        self.context.restore();
        drawn.map_err(canvas_error)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<ChartError>> {
        self.set_text(style);
        let width = self
            .context
            .measure_text(text)
            .map_err(canvas_error)?
            .width();
        Ok((
            width.ceil().max(0.0) as u32,
            style.size().ceil().max(0.0) as u32,
        ))
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<ChartError>> {
        from_shapes(self.shapes.blit_bitmap(pos, size, src))
    }
}
