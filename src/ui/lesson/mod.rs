//! A guided lesson: one step at a time, its text, its live views, what to notice in its run,
//! and Next / Back from buttons or keys (arrows, PageUp / PageDown as a presenter's clicker
//! sends). On `lesson.html` it owns the address bar (each step a permalink) and the keyboard;
//! as a `lesson-step` widget it keeps both to its element.

mod blackout;
mod cards;
mod challenge;
mod deck;
pub(super) mod open;
mod predict;
mod recap;
mod step;
mod vote;
mod worksheet;

pub(crate) use deck::LessonDeck;

use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use self::open::{self as lesson_open};
use crate::page::glossary::{mark_terms, Piece};
use crate::page::lessons::StepRef;
use crate::page::lessons::{lesson_path, Answer, Lesson, OwnLesson, OwnSource};
use crate::page::permalink::parse_query;
use crate::page::site::Site;
use crate::ui::playback::is_shortcut;
use crate::ui::shipped_lessons::ShippedLessons;
use crate::ui::state::prefers_dark;

/// The id of the element `lesson.html` mounts the lesson into.
pub const LESSON_ROOT_ID: &str = "resilience-lesson";

/// What a key asks of a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LessonKey {
    /// PageDown, a clicker's "advance": the question passed, the run played to its moment,
    /// then the next step.
    Advance,
    Next,
    Back,
    TogglePlay,
}

/// PageDown (a presenter's clicker's "advance") passes a question, plays the step's run to
/// its moment and then goes on; PageUp goes back a step, wherever the focus is. The arrows
/// move between steps too, except in a slider, a list, a text field or a chart read by its
/// parts, where they stay the control's. Space plays or pauses.
fn lesson_key(e: &KeyboardEvent) -> Option<LessonKey> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    // A switch (checkbox) has no use for the arrows; a slider, a radio group, a list and a
    // text field do.
    let in_control = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| match el.tag_name().as_str() {
            "SELECT" | "TEXTAREA" => true,
            "INPUT" => el.get_attribute("type").as_deref() != Some("checkbox"),
            // A slider, and a chart or an events' list that reads its parts with the arrows.
            _ => {
                el.get_attribute("role").as_deref() == Some("slider")
                    || el.closest("[data-own-keys]").ok().flatten().is_some()
            }
        });
    match e.key().as_str() {
        "PageDown" => Some(LessonKey::Advance),
        "PageUp" => Some(LessonKey::Back),
        "ArrowRight" if !in_control => Some(LessonKey::Next),
        "ArrowLeft" if !in_control => Some(LessonKey::Back),
        " " if !in_control && is_shortcut(e) => Some(LessonKey::TogglePlay),
        _ => None,
    }
}

/// The element to focus when a step (or the recap) arrives: on the lesson page its heading,
/// the page scrolled back to its top; in a widget the widget itself. Returns the refs to put
/// on the root and on the heading.
#[hook]
fn use_arrival_focus(take: bool, standalone: bool) -> (NodeRef, NodeRef) {
    let root = use_node_ref();
    let heading = use_node_ref();
    {
        let (root, heading) = (root.clone(), heading.clone());
        use_effect_with(take, move |&take| {
            let target = if standalone { &heading } else { &root };
            if let Some(el) = target.cast::<web_sys::HtmlElement>().filter(|_| take) {
                if standalone {
                    if let Some(w) = web_sys::window() {
                        w.scroll_to_with_x_and_y(0.0, 0.0);
                    }
                }
                let _ = el.focus();
            }
        });
    }
    (root, heading)
}

/// `text` with each glossary term not yet in `seen` defined where it first appears: the
/// term takes the focus, and its meaning shows on hover and focus.
fn with_terms(ids: &crate::ui::ids::IdScope, text: &str, seen: &mut Vec<&'static str>) -> Html {
    let pieces = mark_terms(text, seen);
    html! {
        { for pieces.into_iter().map(|piece| match piece {
            Piece::Plain(t) => html! { { t.to_string() } },
            Piece::Term(t, meaning) => {
                let tip = ids.id(&format!("term-{}", t.replace(' ', "-")));
                html! {
                    <span class="term" tabindex="0" aria-describedby={tip.clone()}>{ t.to_string() }
                        <span class="term-tip" role="tooltip" id={tip}>{ meaning }</span>
                    </span>
                }
            }
        }) }
    }
}

/// Where the pages are, seen from the lesson page: `dist/`'s files, or the single offline
/// file when the document says it is one (`<html data-one-file>`, written by
/// `scripts/single-file.mjs`).
fn this_site() -> Site {
    let window = web_sys::window();
    let one_file = window
        .as_ref()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|html| html.has_attribute("data-one-file"));
    if !one_file {
        return Site::files("index.html");
    }
    let path = window
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_default();
    let file = path.rsplit('/').next().unwrap_or_default();
    Site::one_file(if file.is_empty() {
        "resilience-playground.html"
    } else {
        file
    })
}

/// `address` (a page beside this one, `lesson.html?...`) as a whole URL from this page's.
fn absolute(address: &str) -> String {
    if address.contains("://") {
        return address.to_string();
    }
    let here = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    format!("{}{address}", crate::page::embed::folder_of(&here))
}

/// What the lesson page shows: a lesson, or the path of a teacher's lesson on its way.
#[derive(Clone, PartialEq)]
enum Shown {
    /// A lesson, from the address (`first`) or opened since; with what could not be used.
    Ready {
        lesson: Lesson,
        first: bool,
        notices: Vec<String>,
    },
    /// `file=`'s lesson, being fetched.
    Fetching(String),
}

/// What the address asks the page to show first: a shipped lesson, the lesson picked last in
/// this browser (`lesson=own`), or one from a path on this host (`file=`).
fn first_shown(pairs: &[(String, String)], mut notices: Vec<String>) -> Shown {
    let value = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let fallback = |notices| Shown::Ready {
        lesson: Lesson::Km0,
        first: false,
        notices,
    };
    if let Some(path) = value("file") {
        return match lesson_path(path) {
            Ok(path) => Shown::Fetching(path),
            Err(notice) => {
                notices.push(notice);
                fallback(notices)
            }
        };
    }
    if value("lesson").map(str::trim) == Some("own") {
        return match lesson_open::picked_lesson() {
            Ok(lesson) => Shown::Ready {
                lesson,
                first: true,
                notices,
            },
            Err(notice) => {
                notices.push(notice);
                fallback(notices)
            }
        };
    }
    let (step, more) = StepRef::from_pairs(pairs);
    notices.extend(more);
    Shown::Ready {
        lesson: step.lesson,
        first: true,
        notices,
    }
}

/// The lesson page, restored from the address bar (`?lesson=km0&step=pool-runs-dry`, or a
/// teacher's `?file=lessons/mine.md`); a lesson file picked or dropped on it opens in place.
/// The shipped lessons are read first.
#[function_component(LessonApp)]
pub fn lesson_app() -> Html {
    let first = use_memo((), |_| Lesson::read_first(&parse_query(&address_query()).0));
    html! {
        <ShippedLessons site={this_site()} first={(*first).clone()}>
            <LessonPage />
        </ShippedLessons>
    }
}

/// The address's query (`?lesson=km0&step=...`).
fn address_query() -> String {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default()
}

/// The lesson page once the shipped lessons are here.
#[function_component(LessonPage)]
fn lesson_page() -> Html {
    let query = use_memo((), move |_| parse_query(&address_query()));
    let shown = use_state(|| first_shown(&query.0, query.1.clone()));
    // Each lesson opened on the page mounts a deck of its own.
    let openings = use_state(|| 0u32);
    {
        let shown = shown.clone();
        use_effect_with((*shown).clone(), move |now| {
            if let Shown::Fetching(path) = now.clone() {
                yew::platform::spawn_local(async move {
                    let opened = lesson_open::fetch_text(&path).await.and_then(|text| {
                        OwnLesson::open(&text, OwnSource::Path(path.clone()))
                            .map_err(|e| format!("file: {path}, {e}"))
                    });
                    shown.set(match opened {
                        Ok(lesson) => Shown::Ready {
                            lesson,
                            first: true,
                            notices: Vec::new(),
                        },
                        Err(notice) => Shown::Ready {
                            lesson: Lesson::Km0,
                            first: false,
                            notices: vec![format!("{notice}; showing Kilometre Zero.")],
                        },
                    });
                });
            }
        });
    }
    let on_read = {
        let (shown, openings) = (shown.clone(), openings.clone());
        Callback::from(move |read: Result<(String, String), String>| {
            let opened = read.and_then(|(name, text)| {
                let source = OwnSource::Picked {
                    file_name: name.clone(),
                };
                let lesson = OwnLesson::open(&text, source).map_err(|e| format!("{name}, {e}"))?;
                lesson_open::keep_picked(&name, &text);
                Ok(lesson)
            });
            match opened {
                Ok(lesson) => {
                    openings.set(*openings + 1);
                    shown.set(Shown::Ready {
                        lesson,
                        first: false,
                        notices: Vec::new(),
                    });
                }
                // The lesson shown stays; the mistake is said above it.
                Err(notice) => {
                    if let Shown::Ready { lesson, first, .. } = (*shown).clone() {
                        shown.set(Shown::Ready {
                            lesson,
                            first,
                            notices: vec![notice],
                        });
                    }
                }
            }
        })
    };
    let on_drop = {
        let on_read = on_read.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            lesson_open::read_first(e.data_transfer().and_then(|d| d.files()), on_read.clone());
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let Shown::Ready {
        lesson,
        first,
        notices,
    } = (*shown).clone()
    else {
        return html! {
            <p class="loading" role="status">{ "Opening the lesson file…" }</p>
        };
    };
    // The address's step, tried value and projector apply to the lesson it named; a lesson
    // opened since starts at its first step.
    let pairs: &[(String, String)] = if first { &query.0 } else { &[] };
    let (step, more) = match lesson {
        Lesson::Own(_) => StepRef::from_pairs_in(lesson, pairs),
        _ => StepRef::from_pairs(pairs),
    };
    let mut notices: Vec<String> = notices.into_iter().chain(more).collect();
    let projector = query
        .0
        .iter()
        .any(|(k, v)| k == "projector" && matches!(v.as_str(), "on" | "1" | "true"));
    // `&vote=on`: the class votes on each question in rounds before its run plays.
    let vote = match query
        .0
        .iter()
        .rev()
        .find(|(k, _)| k == "vote")
        .map(|(_, v)| v.as_str())
    {
        Some("on") => true,
        Some("off") | None => false,
        Some(other) => {
            notices.push(format!(
                "vote: `{other}` is not one of on or off; the lesson shows without the class vote"
            ));
            false
        }
    };
    // `&worksheet=on` prints the lesson; `answers` is the teacher's copy.
    let sheet = query.0.iter().rev().find(|(k, _)| k == "worksheet");
    match sheet.map(|(_, v)| v.as_str()) {
        Some("on") | Some("answers") => {
            let answers = sheet.is_some_and(|(_, v)| v == "answers");
            return html! {
                <worksheet::LessonWorksheet {lesson} {answers} site={this_site()} />
            };
        }
        Some(other) => notices.push(format!(
            "worksheet: `{other}` is not one of on (the students' copy) or answers (the \
             teacher's); the lesson shows as usual"
        )),
        None => {}
    }
    // `&cards=on` on a choice question's step: its choices as answer cards for a phone.
    let cards = query.0.iter().rev().find(|(k, _)| k == "cards");
    match cards.map(|(_, v)| v.as_str()) {
        Some("on")
            if step.is_recap()
                || !matches!(
                    step.step().question.map(|q| q.answer),
                    Some(Answer::Choices(_))
                ) =>
        {
            notices.push(format!(
                "cards: step `{}` asks no choice question, so it has no cards; the step shows \
                 as usual",
                step.name()
            ));
        }
        Some("on") => {
            return html! { <cards::AnswerCards {step} site={this_site()} /> };
        }
        Some("off") | None => {}
        Some(other) => notices.push(format!(
            "cards: `{other}` is not one of on or off; the step shows as usual"
        )),
    }
    // The "Try it" value a student had moved, when the link carries one.
    let tried = pairs
        .iter()
        .rev()
        .find(|(k, _)| Some(k.as_str()) == step.knob())
        .map(|(_, v)| AttrValue::from(v.clone()));
    html! {
        <div class="lesson-drop" ondrop={on_drop} ondragover={on_drag_over}>
            <LessonDeck key={*openings} start={step} {notices} standalone=true
                site={this_site()} dark={prefers_dark()} {projector} {vote} {tried}
                on_open={Some(on_read)} />
        </div>
    }
}
