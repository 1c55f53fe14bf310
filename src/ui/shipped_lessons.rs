//! The shipped lessons' texts for the page: fetched from `lessons/*.md` beside the pages (or,
//! in the offline file, read from the JSON it carries), so that the lessons are data the wasm
//! does not hold. The lesson the address opens is read before anything shows (with the one its
//! recap sends the class to next, when it opens on the recap: [`Lesson::read_first`]); the
//! others after its first view.

use std::collections::HashMap;

use yew::prelude::*;

use super::lesson::open::{response_text, start_fetch};
use crate::page::lessons::Lesson;
use crate::page::site::Site;

/// The element of the offline file that carries the lessons' files: a JSON object from each
/// file's name (`lessons/km0.md`) to its text.
const CARRIED: &str = "resilience-lessons";

/// Where the lessons are: still being read, or why they could not be.
#[derive(Clone, PartialEq)]
enum Loading {
    Reading,
    Ready,
    Failed(String),
}

/// Properties of [`ShippedLessons`].
#[derive(Properties, PartialEq)]
pub struct ShippedLessonsProps {
    /// Where the pages are, and so the `lessons/` folder.
    pub site: Site,
    /// The lessons read before the children show ([`Lesson::read_first`]).
    pub first: Vec<Lesson>,
    /// What shows once the lessons are here.
    pub children: Html,
}

/// Shows its children once the first lessons are read, and reads the other shipped lessons
/// after; until then a line saying so, and a message naming the file when one of the first
/// could not be read. (Another lesson's file that could not be read is named when that lesson
/// is opened, which is by its own address.)
#[function_component(ShippedLessons)]
pub fn shipped_lessons(props: &ShippedLessonsProps) -> Html {
    let first = props.first.clone();
    let loading = use_state(|| {
        if first.iter().all(|l| l.is_ready()) {
            Loading::Ready
        } else {
            Loading::Reading
        }
    });
    {
        let (loading, site) = (loading.clone(), props.site.clone());
        use_effect_with((), move |_| {
            yew::platform::spawn_local(async move {
                if *loading == Loading::Reading {
                    let read = read(&site, first.clone()).await;
                    let failed = read.is_err();
                    loading.set(match read {
                        Ok(()) => Loading::Ready,
                        Err(message) => Loading::Failed(message),
                    });
                    if failed {
                        return;
                    }
                }
                // In a task of their own, after the first view's.
                let others: Vec<Lesson> = Lesson::ALL
                    .into_iter()
                    .filter(|l| !first.contains(l))
                    .collect();
                gloo_timers::callback::Timeout::new(0, move || {
                    yew::platform::spawn_local(async move {
                        let _ = read(&site, others).await;
                    })
                })
                .forget();
            });
        });
    }
    match &*loading {
        Loading::Ready => props.children.clone(),
        Loading::Reading => html! {
            <p class="loading" role="status">{ "Reading the lessons…" }</p>
        },
        Loading::Failed(message) => html! {
            <p class="notice failure lesson-failure" role="alert">
                { format!("The lesson could not be shown: {message}. Reload the page to try again.") }
            </p>
        },
    }
}

/// Reads and installs the lessons of `lessons` not yet here; the first failure, named.
async fn read(site: &Site, lessons: Vec<Lesson>) -> Result<(), String> {
    let waiting: Vec<Lesson> = lessons.into_iter().filter(|l| !l.is_ready()).collect();
    let carried = carried_files();
    // Every request is sent before the first answer is awaited.
    let requests: Vec<_> = waiting
        .iter()
        .map(|lesson| {
            let name = lesson.file_name();
            match (carried.as_ref(), site.lesson_file(&name)) {
                (Some(_), _) | (None, None) => (name, None),
                (None, Some(url)) => {
                    let request = start_fetch(&url);
                    (url, Some(request))
                }
            }
        })
        .collect();
    for (lesson, (path, request)) in waiting.into_iter().zip(requests) {
        let text = match request {
            Some(request) => response_text(&path, request).await?,
            None => carried
                .as_ref()
                .and_then(|files| files.get(&path).cloned())
                .ok_or_else(|| format!("{path} is not in this file"))?,
        };
        lesson.install(&text).map_err(|e| format!("{path}, {e}"))?;
    }
    Ok(())
}

/// The files the offline file carries, if this is it.
fn carried_files() -> Option<HashMap<String, String>> {
    let element = web_sys::window()?.document()?.get_element_by_id(CARRIED)?;
    crate::page::json::read(&element.text_content()?)
}
