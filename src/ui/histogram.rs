//! A latency histogram on a log axis from 1 ms to 10 s, drawn with plotters on a canvas.

use std::rc::Rc;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::sim::histogram::{HIGHEST_MS, LOWEST_MS};
use crate::sim::latency::LatencyPreview;

const BAR: RGBColor = RGBColor(0, 114, 178);
const P50: RGBColor = RGBColor(0, 158, 115);
const P99: RGBColor = RGBColor(213, 94, 0);

/// Properties of a [`Histogram`].
#[derive(Properties, PartialEq)]
pub struct HistogramProps {
    pub preview: Rc<LatencyPreview>,
    /// Accessible description of the chart.
    pub label: AttrValue,
}

/// Bars of latency counts with the p50 and p99 marked; redrawn when the data changes.
#[function_component(Histogram)]
pub fn histogram(props: &HistogramProps) -> Html {
    let canvas_ref = use_node_ref();
    {
        let canvas_ref = canvas_ref.clone();
        use_effect_with(props.preview.clone(), move |preview| {
            if let Some(canvas) = canvas_ref.cast::<HtmlCanvasElement>() {
                if let Err(message) = draw(canvas, preview) {
                    web_sys::console::warn_1(&format!("histogram not drawn: {message}").into());
                }
            }
            || ()
        });
    }
    html! {
        <canvas class="chart" ref={canvas_ref} width="800" height="320"
            role="img" aria-label={props.label.clone()} />
    }
}

fn draw(canvas: HtmlCanvasElement, preview: &LatencyPreview) -> Result<(), String> {
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or("no 2d context")?;
    let root = backend.into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let buckets = &preview.buckets;
    let tallest = buckets.counts().iter().copied().max().unwrap_or(0).max(1);
    let mut chart = ChartBuilder::on(&root)
        .margin(12)
        .margin_right(36)
        .x_label_area_size(44)
        .y_label_area_size(56)
        .build_cartesian_2d(
            (LOWEST_MS..HIGHEST_MS).log_scale(),
            0u64..tallest + tallest / 10 + 1,
        )
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("latency (ms, log scale)")
        .y_desc("calls")
        .label_style(("sans-serif", 16))
        .axis_desc_style(("sans-serif", 16))
        .draw()
        .map_err(|e| e.to_string())?;
    chart
        .draw_series(
            buckets
                .counts()
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(index, &count)| {
                    let (low, high) = buckets.edges_ms(index);
                    Rectangle::new([(low, 0), (high, count)], BAR.filled())
                }),
        )
        .map_err(|e| e.to_string())?;
    for (micros, colour, name) in [(preview.p50, P50, "p50"), (preview.p99, P99, "p99")] {
        let ms = (micros as f64 / 1000.0).clamp(LOWEST_MS, HIGHEST_MS);
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(ms, 0), (ms, tallest)],
                colour.stroke_width(3),
            )))
            .map_err(|e| e.to_string())?
            .label(format!("{name} {:.0} ms", micros as f64 / 1000.0))
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 16))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
