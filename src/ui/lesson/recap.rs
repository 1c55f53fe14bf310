//! After a lesson's last step: a line per step with its key figure, the score, where to go
//! next.

use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::{lesson_key, use_arrival_focus, LessonKey};
use crate::page::lessons::progress::Progress;
use crate::page::lessons::{recap, StepRef};
use crate::page::site::Site;
use crate::ui::ids::use_ids;
use crate::ui::playback::use_document_keys;

/// Properties of [`LessonRecap`].
#[derive(Properties, PartialEq)]
pub(super) struct LessonRecapProps {
    pub(super) lesson: crate::page::lessons::Lesson,
    pub(super) on_go: Callback<Option<StepRef>>,
    pub(super) take_focus: bool,
    pub(super) standalone: bool,
    pub(super) site: Site,
    /// The student's progress in the lesson.
    pub(super) progress: Progress,
    /// On the projector the recap speaks to the class, not to one student.
    pub(super) projector: bool,
}

/// After the last step: one line per step with its key figure, and where to go next.
#[function_component(LessonRecap)]
pub(super) fn lesson_recap(props: &LessonRecapProps) -> Html {
    let ids = use_ids();
    let lesson = props.lesson;
    let lines = use_memo(lesson, |&lesson| recap(lesson));
    let on_download = {
        let json = props.progress.to_json(lesson);
        let name = format!("progress-{}.json", lesson.key());
        Callback::from(move |_: MouseEvent| {
            if let Err(why) = crate::ui::share::save_text(&json, &name, "application/json") {
                web_sys::console::warn_1(&format!("progress not saved: {why}").into());
            }
        })
    };
    // The class's votes, one row per step, round and choice: a link the browser saves.
    let votes_csv = (!props.progress.votes.is_empty()).then(|| {
        let csv = crate::page::lessons::vote::csv(lesson, &props.progress.votes);
        format!(
            "data:text/csv;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&csv))
        )
    });
    let here = StepRef {
        lesson,
        index: lesson.steps().len(),
    };
    let (root, heading) = use_arrival_focus(props.take_focus, props.standalone);
    let keys = {
        let go = props.on_go.clone();
        Callback::from(move |e: KeyboardEvent| {
            // Only Back means anything here; other keys keep their own use (scrolling).
            if lesson_key(&e) == Some(LessonKey::Back) {
                e.prevent_default();
                go.emit(here.back());
            }
        })
    };
    use_document_keys(props.standalone.then(|| keys.clone()));
    let on_back = props.on_go.reform(move |_: MouseEvent| here.back());
    // The lesson the recap sends the class to next is read before a recap opened by its
    // address shows; reached from a step, it comes in a task after the first view, so until
    // it is here the link names no title and opens its first step by the lesson alone.
    let other = lesson.other();
    let (other_query, other_words) = if other.is_ready() {
        (
            StepRef {
                lesson: other,
                index: 0,
            }
            .query(),
            format!("the other lesson, {}", other.title()),
        )
    } else {
        (
            format!("lesson={}", other.key()),
            "the other lesson".to_string(),
        )
    };
    html! {
        <article ref={root} class="lesson-step lesson-recap" data-lesson-step="end" data-step-name="end" data-lesson={lesson.key()}
            aria-labelledby={ids.id("lesson-step-title")} tabindex={(!props.standalone).then_some("0")}
            onkeydown={(!props.standalone).then_some(keys)}>
            <div class="lesson-nav">
                <button type="button" id={ids.id("lesson-back")} onclick={on_back}>{ "← Back" }</button>
                <span class="lesson-count" id={ids.id("lesson-count")}>{ here.count() }</span>
                <button type="button" id={ids.id("lesson-next")} class="next" disabled=true>{ "Next →" }</button>
            </div>
            <@{ids.heading_tag()} id={ids.id("lesson-step-title")} ref={heading} tabindex="-1">{ "The lesson in one line a step" }</@>
            <ol class="recap-lines" id={ids.id("lesson-recap")}>
                { for lines.iter().map(|line| {
                    let to = line.step;
                    let onclick = props.on_go.reform(move |e: MouseEvent| { e.prevent_default(); Some(to) });
                    html! {
                        <li>
                            <a href={format!("?{}", to.query())} {onclick}><strong>{ line.title }</strong></a>
                            <span class="recap-figure">{ &line.figure }</span>
                        </li>
                    }
                }) }
            </ol>
            <div class="recap-progress" id={ids.id("lesson-progress")}>
                <p id={ids.id("lesson-progress-summary")}>{ props.progress.summary(lesson, props.projector) }</p>
                <button type="button" id={ids.id("lesson-progress-download")} onclick={on_download}>
                    { if props.projector { "Download the class's progress (JSON)" } else { "Download my progress (JSON)" } }
                </button>
                if let Some(href) = votes_csv {
                    { " " }
                    <a id={ids.id("lesson-votes-download")} class="button-link" {href}
                        download={format!("votes-{}.csv", lesson.key())}>
                        { "Download the class's votes (CSV)" }</a>
                }
            </div>
            <p class="recap-next" id={ids.id("lesson-recap-next")}>
                { "Next: " }
                <a href={props.site.exercises()}>{ "the exercises" }</a>
                { if props.projector { ", where each of you predicts a figure and checks it; " } else { ", where you predict a figure and check it; " } }
                <a href={props.site.lesson(&other_query)}>{ other_words }</a>
                { "; or " }
                <a href={props.site.playground().to_string()}>{ "the playground" }</a>
                { ", every control at once. " }
                <a id={ids.id("lesson-recap-worksheet")}
                    href={props.site.lesson(&format!("{}&worksheet=on", here.query()))}>
                    { "A worksheet of this lesson to print" }</a>
                { "." }
            </p>
        </article>
    }
}
