//! Sharing a run: the permalink (kept in the address bar, with a "Copy link" button) and
//! downloads of the run as CSV and JSON and of each chart as PNG.

use wasm_bindgen::JsCast;
use web_sys::{HtmlAnchorElement, HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use super::embed_this::EmbedThis;
use super::join_code::JoinCode;
use crate::page::embed::Embed;
use crate::page::widget::WidgetKind;

/// Offers `href` to the browser as a download called `name`.
fn save(href: &str, name: &str) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let a: HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| "cannot create a link")?
        .unchecked_into();
    a.set_href(href);
    a.set_download(name);
    a.click();
    Ok(())
}

/// Offers `text` as a file.
pub(super) fn save_text(text: &str, name: &str, mime: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "cannot make the file")?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| "no object URL")?;
    let saved = save(&url, name);
    let _ = web_sys::Url::revoke_object_url(&url);
    saved
}

fn save_canvas(id: &str, name: &str) -> Result<(), String> {
    let canvas: HtmlCanvasElement = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .ok_or("no chart")?
        .unchecked_into();
    let url = canvas.to_data_url().map_err(|_| "cannot read the chart")?;
    save(&url, name)
}

/// What the student can download of the run itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Export {
    /// The per-100-ms series, one row per slice.
    SeriesCsv,
    /// The whole run: settings, counts, percentiles, breaker changes.
    RunJson,
}

/// Properties of [`Share`].
#[derive(Properties, PartialEq)]
pub struct ShareProps {
    /// The text of an export of the current run, or `None` when there is no run.
    pub export: Callback<Export, Option<String>>,
    /// The permalink's query string (without `?`).
    pub query: AttrValue,
    /// The shortest link to the same run (this query, without `?`): for "Embed this", and on
    /// the stage for "Join on a phone".
    pub short_query: AttrValue,
    /// On the stage (projector).
    #[prop_or_default]
    pub projector: bool,
}

/// The link field, "Copy link", and the download buttons.
#[function_component(Share)]
pub fn share(props: &ShareProps) -> Html {
    let status = use_state(|| None::<String>);
    let base = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|href| {
            href.split(['?', '#'])
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .unwrap_or_default();
    let link = format!("{base}?{}", props.query);
    let link_ref = use_node_ref();
    let on_copy = {
        let (link, link_ref, status) = (link.clone(), link_ref.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(input) = link_ref.cast::<HtmlInputElement>() {
                input.select();
            }
            if let Some(w) = web_sys::window() {
                let _ = w.navigator().clipboard().write_text(&link);
            }
            status.set(Some(
                "Link copied (it is also selected in the field).".into(),
            ));
        })
    };
    let report = {
        let status = status.clone();
        move |result: Result<(), String>| {
            status.set(result.err().map(|e| format!("Download failed: {e}.")));
        }
    };
    let on_csv = {
        let (export, report) = (props.export.clone(), report.clone());
        Callback::from(move |_: MouseEvent| {
            report(match export.emit(Export::SeriesCsv) {
                Some(csv) => save_text(&csv, "resilience-run.csv", "text/csv"),
                None => Err("there is no run to save".into()),
            })
        })
    };
    let on_json = {
        let (export, report) = (props.export.clone(), report.clone());
        Callback::from(move |_: MouseEvent| {
            report(match export.emit(Export::RunJson) {
                Some(json) => save_text(&json, "resilience-run.json", "application/json"),
                None => Err("there is no run to save".into()),
            })
        })
    };
    let on_hist = {
        let report = report.clone();
        Callback::from(move |_: MouseEvent| report(save_canvas("latency-chart", "latency.png")))
    };
    let on_load =
        Callback::from(move |_: MouseEvent| report(save_canvas("load-chart", "load.png")));
    html! {
        <div class="share">
            <label for="permalink">{ "Link to this run" }</label>
            <input id="permalink" ref={link_ref} type="text" readonly=true value={link.clone()} />
            <button id="copy-link" onclick={on_copy}>{ "Copy link" }</button>
            <button id="download-csv" onclick={on_csv}>{ "Series (CSV)" }</button>
            <button id="download-json" onclick={on_json}>{ "Run (JSON)" }</button>
            <button id="download-histogram" onclick={on_hist}>{ "Latency chart (PNG)" }</button>
            <button id="download-load" onclick={on_load}>{ "Load chart (PNG)" }</button>
            <EmbedThis embed={Embed::new(WidgetKind::Playground, &props.short_query)}
                also={vec![WidgetKind::CircuitDiagram, WidgetKind::Histogram]} />
            if props.projector {
                <JoinCode link={AttrValue::from(format!("{base}?{}", props.short_query))} />
            }
            if let Some(text) = &*status {
                <p class="hint" role="status">{ text }</p>
            }
        </div>
    }
}
