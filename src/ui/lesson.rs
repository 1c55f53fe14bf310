//! A guided lesson: one step at a time, its text, its live views, what to notice in its run,
//! and Next / Back from buttons or keys (arrows, PageUp / PageDown as a presenter's clicker
//! sends). On `lesson.html` it owns the address bar (each step a permalink) and the keyboard;
//! as a `lesson-step` widget it keeps both to its element.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::app::use_page;
use super::ids::use_ids;
use super::knob_panel::slider;
use super::playback::is_shortcut;
use super::regions;
use super::state::prefers_dark;
use crate::page::knobs::knob;
use crate::page::lessons::{playground_query, StepRef, View};
use crate::page::permalink::parse_query;
use crate::page::replay::clock;
use crate::page::state::{Action, Shared};

/// The id of the element `lesson.html` mounts the lesson into.
pub const LESSON_ROOT_ID: &str = "resilience-lesson";

/// What a key asks of a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LessonKey {
    Next,
    Back,
    TogglePlay,
}

/// Arrows and PageUp / PageDown move between steps (also from a focused button, where a
/// clicker leaves the focus); space plays or pauses. Keys typed into a field or a slider
/// stay theirs.
fn lesson_key(e: &KeyboardEvent) -> Option<LessonKey> {
    if e.ctrl_key() || e.meta_key() || e.alt_key() {
        return None;
    }
    let in_field = e
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
    if in_field {
        return None;
    }
    match e.key().as_str() {
        "ArrowRight" | "PageDown" => Some(LessonKey::Next),
        "ArrowLeft" | "PageUp" => Some(LessonKey::Back),
        " " if is_shortcut(e) => Some(LessonKey::TogglePlay),
        _ => None,
    }
}

/// The lesson page, restored from the address bar (`?lesson=km0&step=3`).
#[function_component(LessonApp)]
pub fn lesson_app() -> Html {
    let location = || {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    };
    let start = use_memo((), move |_| {
        let (pairs, mut notices) = parse_query(&location());
        let (step, more) = StepRef::from_pairs(&pairs);
        notices.extend(more);
        let projector = pairs
            .iter()
            .any(|(k, v)| k == "projector" && matches!(v.as_str(), "on" | "1" | "true"));
        (step, notices, projector)
    });
    html! {
        <LessonDeck start={start.0} notices={start.1.clone()} standalone=true
            playground_url="index.html" dark={prefers_dark()} projector={start.2} />
    }
}

/// Properties of [`LessonDeck`].
#[derive(Properties, PartialEq)]
pub struct LessonDeckProps {
    /// The step shown first.
    pub start: StepRef,
    /// Settings that could not be used, shown above the step.
    #[prop_or_default]
    pub notices: Vec<String>,
    /// On `lesson.html` (address bar, document keyboard, theme on the document) or a widget.
    #[prop_or_default]
    pub standalone: bool,
    /// The playground's address, for "open this step in the playground".
    pub playground_url: AttrValue,
    /// Dark theme.
    #[prop_or_default]
    pub dark: bool,
    /// Projector mode at the start.
    #[prop_or_default]
    pub projector: bool,
}

/// The address of `step` on `lesson.html`.
fn step_address(step: StepRef, projector: bool) -> String {
    let mut q = format!("?{}", step.query());
    if projector {
        q.push_str("&projector=on");
    }
    q
}

/// The step shown, Next / Back, the projector switch; the step itself below.
#[function_component(LessonDeck)]
pub fn lesson_deck(props: &LessonDeckProps) -> Html {
    let ids = use_ids();
    let at = use_state(|| props.start);
    let moved = use_state(|| false);
    let projector = use_state(|| props.projector);
    let standalone = props.standalone;
    let go = {
        let at = at.clone();
        let moved = moved.clone();
        let projector = projector.clone();
        Callback::from(move |to: Option<StepRef>| {
            let Some(to) = to else { return };
            at.set(to);
            moved.set(true);
            if standalone {
                if let Some(w) = web_sys::window() {
                    if let Ok(h) = w.history() {
                        let _ = h.push_state_with_url(
                            &wasm_bindgen::JsValue::NULL,
                            "",
                            Some(&step_address(to, *projector)),
                        );
                    }
                    if let Some(d) = w.document() {
                        d.set_title(&format!("{}: Resilience Playground", to.step().title));
                    }
                }
            }
        })
    };
    {
        // Back and forward in the browser's history show the step of the address.
        let at = at.clone();
        use_effect_with(standalone, move |&standalone| {
            let listener = Closure::<dyn Fn(web_sys::Event)>::new(move |_: web_sys::Event| {
                let search = web_sys::window()
                    .and_then(|w| w.location().search().ok())
                    .unwrap_or_default();
                at.set(StepRef::from_pairs(&parse_query(&search).0).0);
            });
            let window = web_sys::window().filter(|_| standalone);
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback(
                    "popstate",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "popstate",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    {
        let projector = *projector;
        let dark = props.dark;
        use_effect_with(
            (projector, dark, standalone),
            move |&(projector, dark, standalone)| {
                let root = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.document_element());
                if let (true, Some(root)) = (standalone, root) {
                    let list = root.class_list();
                    let _ = list.toggle_with_force("projector", projector);
                    let _ = list.toggle_with_force("theme-dark", dark);
                }
            },
        );
    }
    let step = *at;
    let lesson = step.lesson;
    let steps = lesson.steps();
    let on_projector = {
        let projector = projector.clone();
        let at = at.clone();
        Callback::from(move |e: Event| {
            let on = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            projector.set(on);
            if standalone {
                if let Some(h) = web_sys::window().and_then(|w| w.history().ok()) {
                    let _ = h.replace_state_with_url(
                        &wasm_bindgen::JsValue::NULL,
                        "",
                        Some(&step_address(*at, on)),
                    );
                }
            }
        })
    };
    let on_pick = {
        let go = go.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let index: usize = select.value().parse().unwrap_or(0);
            go.emit(Some(StepRef {
                lesson,
                index: index.min(steps.len() - 1),
            }));
        })
    };
    let class = classes!(
        "lesson",
        (!standalone).then_some("rp"),
        (!standalone && props.dark).then_some("theme-dark"),
        (!standalone && *projector).then_some("projector"),
    );
    html! {
        <div {class}>
            if !props.notices.is_empty() {
                <ul class="notice lesson-page-notices" role="alert" id={ids.id("lesson-page-notices")}>
                    { for props.notices.iter().map(|n| html! { <li>{ n }</li> }) }
                </ul>
            }
            <nav class="lesson-bar" aria-label="Steps">
                <span class="lesson-name">{ lesson.title() }</span>
                <label class="lesson-pick">{ "Step " }
                    <select id={ids.id("lesson-pick")} onchange={on_pick}>
                        { for steps.iter().enumerate().map(|(i, s)| html! {
                            <option value={i.to_string()} selected={i == step.index}>
                                { format!("{}. {}", i + 1, s.title) }
                            </option>
                        }) }
                    </select>
                </label>
                <label class="switch" for={ids.id("lesson-projector")}>
                    <input type="checkbox" role="switch" id={ids.id("lesson-projector")}
                        checked={*projector} onchange={on_projector} />
                    <span>{ "Projector" }</span>
                </label>
            </nav>
            <LessonStepView key={step.query()} step={step} on_go={go} take_focus={*moved && !standalone}
                standalone={standalone} playground_url={props.playground_url.clone()} dark={props.dark} />
        </div>
    }
}

/// Properties of [`LessonStepView`].
#[derive(Properties, PartialEq)]
struct LessonStepViewProps {
    step: StepRef,
    /// Take the keyboard's focus when mounted (a widget whose step just changed: the button
    /// pressed went with the old step, and the keys must still reach the widget).
    take_focus: bool,
    on_go: Callback<Option<StepRef>>,
    standalone: bool,
    playground_url: AttrValue,
    dark: bool,
}

/// One step: its own run (mounted afresh for each step), played to its moment.
#[function_component(LessonStepView)]
fn lesson_step_view(props: &LessonStepViewProps) -> Html {
    let ids = use_ids();
    let here = props.step;
    let step = here.step();
    let initial = {
        let dark = props.dark;
        use_memo((), move |_| {
            let (page, _) = step.page();
            Shared(std::rc::Rc::new(page.apply(Action::SetDark(dark))))
        })
    };
    let (state, dispatch) = use_page(&initial);
    let page = &state.0;
    let moment = step.moment();
    let root = use_node_ref();
    {
        let root = root.clone();
        use_effect_with(props.take_focus, move |&take| {
            if let Some(el) = root.cast::<web_sys::HtmlElement>().filter(|_| take) {
                let _ = el.focus();
            }
        });
    }
    {
        // Playing from before the moment pauses there, so the class sees what the step is about.
        let last = use_mut_ref(|| page.playhead);
        let dispatch = dispatch.clone();
        use_effect_with(
            (page.playhead, page.playing),
            move |&(playhead, playing)| {
                let before = std::mem::replace(&mut *last.borrow_mut(), playhead);
                if playing && before < moment && playhead >= moment {
                    dispatch.emit(Action::TogglePlay);
                }
            },
        );
    }
    let keys = {
        let dispatch = dispatch.clone();
        let go = props.on_go.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(key) = lesson_key(&e) else { return };
            e.prevent_default();
            match key {
                LessonKey::Next => go.emit(here.next()),
                LessonKey::Back => go.emit(here.back()),
                LessonKey::TogglePlay => dispatch.emit(Action::TogglePlay),
            }
        })
    };
    {
        let keys = keys.clone();
        use_effect_with(props.standalone, move |&standalone| {
            let listener = Closure::<dyn Fn(KeyboardEvent)>::new(move |e: KeyboardEvent| {
                keys.emit(e);
            });
            let document = web_sys::window()
                .and_then(|w| w.document())
                .filter(|_| standalone);
            if let Some(d) = &document {
                let _ = d
                    .add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(d) = &document {
                    let _ = d.remove_event_listener_with_callback(
                        "keydown",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    let notices = {
        let page = page.clone();
        let run = page.run.clone().ok();
        use_memo(run, move |_| step.notices(&page))
    };
    let replay = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Seek(0));
            dispatch.emit(Action::TogglePlay);
        })
    };
    let on_back = props.on_go.reform(move |_: MouseEvent| here.back());
    let on_next = props.on_go.reform(move |_: MouseEvent| here.next());
    let total = here.lesson.steps().len();
    let views = match &page.run {
        Ok(run) => {
            let timeline =
                regions::timeline_counting(&ids, page, run, &dispatch, Some(run.outcomes.clone()));
            let rest = step.views.iter().map(|view| match view {
                View::Topology => regions::topology(&ids, page, run),
                View::Diagram => regions::diagram(&ids, page, run),
                View::Latency => regions::latency(&ids, page, run, &dispatch),
                View::Load => regions::load(&ids, page, run),
            });
            html! { <>{ timeline }{ for rest }</> }
        }
        Err(message) => regions::run_error(&ids, message),
    };
    let try_it = step.knob.and_then(knob).map(|k| {
        html! {
            <div class="lesson-try" id={ids.id("lesson-try")}>
                <h3>{ "Try it" }</h3>
                { slider(k, &page.full, false, &dispatch) }
                if let Some(text) = &page.notice {
                    <p class="notice" role="alert">{ text }</p>
                }
            </div>
        }
    });
    let playground = format!("{}?{}", props.playground_url, playground_query(page));
    let key_hint = if props.standalone {
        "Keys: → or PageDown next step, ← or PageUp back, space plays or pauses."
    } else {
        "With the focus here: → next step, ← back, space plays or pauses."
    };
    let widget_keys = (!props.standalone).then_some(keys);
    html! {
        <article ref={root} class="lesson-step" data-lesson-step={(here.index + 1).to_string()}
            data-lesson={here.lesson.key()} aria-labelledby={ids.id("lesson-step-title")}
            tabindex={(!props.standalone).then_some("0")} onkeydown={widget_keys}>
            <div class="lesson-text">
                <div class="lesson-nav">
                    <button type="button" id={ids.id("lesson-back")} onclick={on_back}
                        disabled={here.back().is_none()}>{ "← Back" }</button>
                    <span class="lesson-count" id={ids.id("lesson-count")}>
                        { format!("Step {} of {total}", here.index + 1) }
                    </span>
                    <button type="button" id={ids.id("lesson-next")} class="next" onclick={on_next}
                        disabled={here.next().is_none()}>{ "Next →" }</button>
                </div>
                <h2 id={ids.id("lesson-step-title")}>{ step.title }</h2>
                { for step.text.iter().map(|p| html! { <p>{ *p }</p> }) }
                <section class="lesson-notice" aria-labelledby={ids.id("lesson-notice-title")}>
                    <h3 id={ids.id("lesson-notice-title")}>{ "What to notice" }</h3>
                    <ul id={ids.id("lesson-notices")}>
                        { for notices.iter().map(|n| html! { <li>{ n }</li> }) }
                    </ul>
                </section>
                { for try_it }
                <div class="lesson-actions">
                    <button type="button" id={ids.id("lesson-replay")} onclick={replay}>
                        { format!("▶ Play to {}", clock(moment, page.clock_start())) }
                    </button>
                    <a id={ids.id("lesson-open-playground")} href={playground} target="_blank" rel="noopener">
                        { "Open this step in the playground" }
                    </a>
                </div>
                <p class="hint keys">{ key_hint }</p>
            </div>
            <div class="lesson-views">{ views }</div>
        </article>
    }
}
