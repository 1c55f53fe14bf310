//! A teacher's own lesson on the lesson page: picked or dropped as a file (and kept in the
//! browser's storage, so a reload keeps it), or fetched from a path on the page's own host
//! (`lesson.html?file=lessons/mine.md`).

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use yew::prelude::*;

use crate::page::lessons::{Lesson, OwnLesson, OwnSource};

/// Where the last lesson file a teacher picked is kept.
const STORAGE_KEY: &str = "resilience-playground:own-lesson";

/// A picked lesson as the browser's storage keeps it.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    name: String,
    text: String,
}

/// Keeps a picked lesson for the next visit (quietly not, where storage is refused).
pub fn keep_picked(name: &str, text: &str) {
    let kept = Kept {
        name: name.to_string(),
        text: text.to_string(),
    };
    if let Ok(json) = serde_json::to_string(&kept) {
        crate::ui::storage::store(STORAGE_KEY, &json);
    }
}

/// The lesson picked last in this browser, read again; `Err` says why there is none.
pub fn picked_lesson() -> Result<Lesson, String> {
    let kept: Kept = crate::ui::storage::stored(STORAGE_KEY)
        .and_then(|json| crate::page::json::read(&json))
        .ok_or_else(|| {
            "lesson: \"own\" is a lesson picked in this browser, and none is kept here; \
             showing Kilometre Zero."
                .to_string()
        })?;
    OwnLesson::open(
        &kept.text,
        OwnSource::Picked {
            file_name: kept.name.clone(),
        },
    )
    .map_err(|e| format!("{}, {e}", kept.name))
}

/// The text at `path` on the page's own host.
pub async fn fetch_text(path: &str) -> Result<String, String> {
    response_text(path, start_fetch(path)).await
}

/// The request for `path`, sent now (its answer awaited by [`response_text`]), so that
/// several files are on their way at once.
pub fn start_fetch(path: &str) -> Option<JsFuture> {
    let window = web_sys::window()?;
    Some(JsFuture::from(window.fetch_with_str(path)))
}

/// The text a request started by [`start_fetch`] answers, or a sentence naming `path` and why
/// not.
pub async fn response_text(path: &str, request: Option<JsFuture>) -> Result<String, String> {
    let failed = |why: &str| format!("file: {path} could not be read ({why})");
    let request = request.ok_or_else(|| failed("no window"))?;
    let response: web_sys::Response = request
        .await
        .map_err(|_| failed("the request failed"))?
        .dyn_into()
        .map_err(|_| failed("no response"))?;
    if !response.ok() {
        return Err(failed(&format!(
            "the server answered {}",
            response.status()
        )));
    }
    let text = response.text().map_err(|_| failed("no text"))?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| failed("no text"))
}

/// A picked file's name and text.
async fn read_file(file: web_sys::File) -> Result<(String, String), String> {
    let name = file.name();
    JsFuture::from(file.text())
        .await
        .ok()
        .and_then(|t| t.as_string())
        .map(|text| (name.clone(), text))
        .ok_or_else(|| format!("{name} could not be read as text"))
}

/// Reads the first of `files`, then hands its name and text (or why not) to `on_read`.
pub fn read_first(
    files: Option<web_sys::FileList>,
    on_read: Callback<Result<(String, String), String>>,
) {
    let Some(file) = files.and_then(|f| f.get(0)) else {
        return;
    };
    yew::platform::spawn_local(async move {
        on_read.emit(read_file(file).await);
    });
}

/// Properties of [`OpenLessonFile`].
#[derive(Properties, PartialEq)]
pub struct OpenLessonFileProps {
    /// The element id of the file input.
    pub id: AttrValue,
    /// A file's name and text, once read (or why it could not be).
    pub on_read: Callback<Result<(String, String), String>>,
}

/// "Open a lesson file…": a button-like label over a file input.
#[function_component(OpenLessonFile)]
pub fn open_lesson_file(props: &OpenLessonFileProps) -> Html {
    let onchange = {
        let on_read = props.on_read.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            read_first(input.files(), on_read.clone());
            // The same file picked again (after editing it) reads again.
            input.set_value("");
        })
    };
    html! {
        <label class="lesson-open" for={props.id.clone()}
            title="A lesson in the format of docs/lesson-format.md; you can also drop the file on the page">
            { "Open a lesson file…" }
            <input type="file" id={props.id.clone()} class="visually-hidden"
                accept=".md,.txt,text/markdown,text/plain" {onchange} />
        </label>
    }
}
