//! A guided lesson: one step at a time, its text, its live views, what to notice in its run,
//! and Next / Back from buttons or keys (arrows, PageUp / PageDown as a presenter's clicker
//! sends). On `lesson.html` it owns the address bar (each step a permalink) and the keyboard;
//! as a `lesson-step` widget it keeps both to its element.

use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::announcer::Announcements;
use super::app::use_page;
use super::embed_this::EmbedThis;
use super::ids::use_ids;
use super::inline_knob::InlineKnob;
use super::join_code::JoinCode;
use super::knob_panel::slider;
use super::lesson_challenge::ChallengePanel;
use super::lesson_open::{self, OpenLessonFile};
use super::lesson_predict::{LessonQuestion, LessonVerdict};
use super::playback::{is_shortcut, use_document_keys};
use super::regions;
use super::shipped_lessons::ShippedLessons;
use super::shortcuts_help::{lesson_shortcuts, ShortcutsHelp};
use super::state::prefers_dark;
use super::storage::{keep_in_platform, platform_record, store, stored};
use super::window_events::use_window_event;
use crate::page::action::Action;
use crate::page::embed::Embed;
use crate::page::glossary::{mark_terms, Piece};
use crate::page::knobs::knob;
use crate::page::lessons::deck::{admits, pause_at, Deck, DeckAction, Effect};
use crate::page::lessons::live::{pieces, Piece as Part};
use crate::page::lessons::progress::Progress;
use crate::page::lessons::{lesson_path, Lesson, OwnLesson, OwnSource, Reading};
use crate::page::lessons::{playground_query, recap, Asked, StepRef, View};
use crate::page::permalink::parse_query;
use crate::page::replay::clock;
use crate::page::runs::Shared;
use crate::page::site::Site;
use crate::page::widget::WidgetKind;

/// The id of the element `lesson.html` mounts the lesson into.
pub const LESSON_ROOT_ID: &str = "resilience-lesson";

/// What a key asks of a lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LessonKey {
    Next,
    Back,
    TogglePlay,
}

/// PageUp / PageDown (what a presenter's clicker sends) always move between steps, wherever
/// the focus is; the arrows too, except in a slider, a list, a text field or a chart read
/// by its parts, where they stay the control's. Space plays or pauses.
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
        "PageDown" => Some(LessonKey::Next),
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
fn with_terms(ids: &super::ids::IdScope, text: &str, seen: &mut Vec<&'static str>) -> Html {
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

/// The lesson page's score where a course platform's script can read it (`scorm.js` in a
/// SCORM package): `data-lesson-score` (0 to 100) and `data-lesson-status` on the page's root.
fn publish_score(score: &crate::page::lessons::progress::Score) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-lesson-score", &score.raw().to_string());
        let _ = root.set_attribute("data-lesson-status", score.status());
    }
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
    html! {
        <ShippedLessons site={this_site()}>
            <LessonPage />
        </ShippedLessons>
    }
}

/// The lesson page once the shipped lessons are here.
#[function_component(LessonPage)]
fn lesson_page() -> Html {
    let location = || {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .unwrap_or_default()
    };
    let query = use_memo((), move |_| parse_query(&location()));
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
    let notices: Vec<String> = notices.into_iter().chain(more).collect();
    let projector = query
        .0
        .iter()
        .any(|(k, v)| k == "projector" && matches!(v.as_str(), "on" | "1" | "true"));
    // The "Try it" value a student had moved, when the link carries one.
    let tried = pairs
        .iter()
        .rev()
        .find(|(k, _)| Some(k.as_str()) == step.knob())
        .map(|(_, v)| AttrValue::from(v.clone()));
    html! {
        <div class="lesson-drop" ondrop={on_drop} ondragover={on_drag_over}>
            <LessonDeck key={*openings} start={step} {notices} standalone=true
                site={this_site()} dark={prefers_dark()} {projector} {tried}
                on_open={Some(on_read)} />
        </div>
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
    /// Where the playground and the other pages are, for "open this step in the playground"
    /// and the recap's links.
    pub site: Site,
    /// Dark theme.
    #[prop_or_default]
    pub dark: bool,
    /// Projector mode at the start.
    #[prop_or_default]
    pub projector: bool,
    /// The first step's "Try it" value from the link, when a student had moved it.
    #[prop_or_default]
    pub tried: Option<AttrValue>,
    /// A lesson file's name and text once read (the lesson page offers to open one).
    #[prop_or_default]
    pub on_open: Option<Callback<Result<(String, String), String>>>,
}

/// The deck and the effects of its actions not yet run, numbered.
#[derive(PartialEq)]
struct DeckState {
    deck: Deck,
    /// The effects of the latest actions, each with the number of the action that gave it.
    effects: Vec<(u64, Effect)>,
    /// Actions taken so far.
    taken: u64,
}

impl Reducible for DeckState {
    type Action = DeckAction;

    fn reduce(self: std::rc::Rc<Self>, action: DeckAction) -> std::rc::Rc<Self> {
        let (deck, effects) = self.deck.apply(action);
        let taken = self.taken + 1;
        // Several actions may come before the page runs their effects: keep the recent ones.
        let mut kept: Vec<(u64, Effect)> = self
            .effects
            .iter()
            .filter(|(n, _)| n + 16 > taken)
            .cloned()
            .collect();
        kept.extend(effects.into_iter().map(|e| (taken, e)));
        std::rc::Rc::new(DeckState {
            deck,
            effects: kept,
            taken,
        })
    }
}

/// Runs one of the deck's effects in the browser (a step's run takes its own: see
/// [`LessonStepView`]'s `run`).
fn run_effect(effect: &Effect, standalone: bool) {
    let window = web_sys::window();
    match effect {
        Effect::PushAddress { address, title } if standalone => {
            if let Some(w) = window {
                if let Ok(h) = w.history() {
                    let _ = h.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address));
                }
                if let Some(d) = w.document() {
                    d.set_title(title);
                }
            }
        }
        Effect::ReplaceAddress(address) if standalone => {
            if let Some(h) = window.and_then(|w| w.history().ok()) {
                let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(address));
            }
        }
        Effect::Title(title) if standalone => {
            if let Some(d) = window.and_then(|w| w.document()) {
                d.set_title(title);
            }
        }
        Effect::Store { key, json } => store(key, json),
        Effect::Record {
            location,
            suspend_data,
        } if standalone => keep_in_platform(location, suspend_data),
        Effect::PublishScore(score) if standalone => publish_score(score),
        _ => {}
    }
}

/// The step shown, Next / Back, the projector switch; the step itself below. The deck's rules
/// are [`Deck::apply`]'s; this component runs its effects.
#[function_component(LessonDeck)]
pub fn lesson_deck(props: &LessonDeckProps) -> Html {
    let ids = use_ids();
    let standalone = props.standalone;
    let state = {
        let start = props.start;
        let projector = props.projector;
        let tried = props.tried.as_ref().map(ToString::to_string);
        use_reducer_eq(move || {
            let deck = match platform_record() {
                Some(record) => Deck::resumed(start, projector, tried, &record),
                None => {
                    let stored = stored(&Progress::storage_key(start.lesson));
                    Deck::new(start, projector, tried, stored.as_deref())
                }
            };
            let effects = deck.opening_effects().into_iter().map(|e| (0, e)).collect();
            DeckState {
                deck,
                effects,
                taken: 0,
            }
        })
    };
    {
        // The effects not run yet, once each, in order.
        let ran = use_mut_ref(|| None::<u64>);
        let effects = state.effects.clone();
        use_effect_with(state.taken, move |_| {
            let last = *ran.borrow();
            for (n, effect) in effects.iter().filter(|(n, _)| last.is_none_or(|l| *n > l)) {
                run_effect(effect, standalone);
                *ran.borrow_mut() = Some(*n);
            }
        });
    }
    let deck = &state.deck;
    let on_deck = state.dispatcher();
    let on_deck = Callback::from(move |action: DeckAction| on_deck.dispatch(action));
    // The step's run takes the deck's `Run` effects (the latest, by its number).
    let run = state
        .effects
        .iter()
        .rev()
        .find_map(|(n, e)| match e {
            Effect::Run(actions) => Some(StepRun(*n, actions.clone())),
            _ => None,
        })
        .unwrap_or(StepRun(0, Vec::new()));
    let go = {
        let on_deck = on_deck.clone();
        Callback::from(move |to: Option<StepRef>| {
            if let Some(to) = to {
                on_deck.emit(DeckAction::Go(to));
            }
        })
    };
    {
        // Back and forward in the browser's history show the step of the address.
        let lesson = props.start.lesson;
        let on_deck = on_deck.clone();
        let on_popstate = Callback::from(move |_: web_sys::Event| {
            let search = web_sys::window()
                .and_then(|w| w.location().search().ok())
                .unwrap_or_default();
            let pairs = parse_query(&search).0;
            let to = match lesson {
                Lesson::Own(_) => StepRef::from_pairs_in(lesson, &pairs).0,
                _ => StepRef::from_pairs(&pairs).0,
            };
            let tried = to
                .knob()
                .and_then(|key| pairs.iter().find(|(k, _)| k == key))
                .map(|(_, v)| v.clone());
            on_deck.emit(DeckAction::Arrived { to, tried });
        });
        use_window_event("popstate", standalone, on_popstate);
    }
    {
        let projector = deck.projector;
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
    let projector = deck.projector;
    let moved = deck.moved;
    let step = deck.at;
    let lesson = step.lesson;
    let steps = lesson.steps();
    let on_projector = on_deck.reform(|e: Event| {
        DeckAction::SetProjector(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked(),
        )
    });
    let on_pick = {
        let go = go.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let name = select.value();
            go.emit(if name == "end" {
                StepRef {
                    lesson,
                    index: steps.len(),
                }
                .into()
            } else {
                StepRef::named(lesson, &name)
            });
        })
    };
    let class = classes!(
        "lesson",
        (!standalone).then_some("rp"),
        (!standalone && props.dark).then_some("theme-dark"),
        (!standalone && projector).then_some("projector"),
    );
    html! {
        <div {class}>
            if !props.notices.is_empty() {
                <ul class="notice lesson-page-notices" role="alert" id={ids.id("lesson-page-notices")}>
                    { for props.notices.iter().map(|n| html! { <li>{ n }</li> }) }
                </ul>
            }
            if standalone {
                <ShortcutsHelp entries={lesson_shortcuts()} />
            }
            <nav class="lesson-bar" aria-label="Steps">
                <span class="lesson-name">{ lesson.title() }</span>
                <label class="lesson-pick">{ "Step " }
                    <select id={ids.id("lesson-pick")} onchange={on_pick}>
                        { for steps.iter().enumerate().map(|(i, s)| html! {
                            <option value={s.name} selected={i == step.index}>
                                { format!("{}. {}", i + 1, s.title) }
                            </option>
                        }) }
                        <option value="end" selected={step.is_recap()}>{ "Recap" }</option>
                    </select>
                </label>
                if let Some(on_read) = props.on_open.clone() {
                    <OpenLessonFile id={ids.id("lesson-open-file")} {on_read} />
                }
                <label class="switch" for={ids.id("lesson-projector")}>
                    <input type="checkbox" role="switch" id={ids.id("lesson-projector")}
                        checked={projector} onchange={on_projector} />
                    <span>{ "Projector" }</span>
                </label>
                // The stage has the code to join instead: the bar stays one line.
                if standalone && !projector && !step.is_recap() && !matches!(lesson, Lesson::Own(_)) {
                    <EmbedThis embed={Embed::new(WidgetKind::LessonStep, &step.query())} />
                }
                if projector && standalone {
                    <JoinCode link={AttrValue::from(absolute(&props.site.lesson(&step.query())))} />
                }
            </nav>
            if step.is_recap() {
                <LessonRecap key={step.query()} lesson={lesson} on_go={go} take_focus={moved}
                    standalone={standalone} site={props.site.clone()} progress={deck.progress.clone()} />
            } else {
                <LessonStepView key={step.query()} step={step} on_go={go} take_focus={moved}
                    standalone={standalone} site={props.site.clone()} dark={props.dark}
                    projector={projector} tried={deck.tried.clone()} asked={deck.asked}
                    recalled={deck.recalled} holding={deck.holding()}
                    {run} {on_deck} />
            }
        </div>
    }
}

/// Properties of [`LessonStepView`].
#[derive(Properties, PartialEq)]
struct LessonStepViewProps {
    step: StepRef,
    /// Take the keyboard's focus when mounted, the step having just changed: on the lesson
    /// page the step's heading takes it and the page starts at its top; a widget takes it
    /// itself (the button pressed went with the old step, and the keys must still reach it).
    take_focus: bool,
    on_go: Callback<Option<StepRef>>,
    standalone: bool,
    site: Site,
    dark: bool,
    /// Projector mode: the charts' larger text.
    projector: bool,
    /// The "Try it" value to start from (a link's), if not the step's own.
    #[prop_or_default]
    tried: Option<String>,
    /// The step's question: answered (or shown without an answer), or not yet (the deck's).
    #[prop_or_default]
    asked: Option<Asked>,
    /// The answer was given on an earlier visit: its verdict shows at once.
    #[prop_or_default]
    recalled: bool,
    /// The deck holds the step's run: its question waits for an answer.
    #[prop_or_default]
    holding: bool,
    /// The latest actions the deck gave the step's run, with their number.
    #[prop_or_default]
    run: StepRun,
    /// What happened, for the deck: a "Try it" value off the step's own, an answer, a
    /// verdict, a challenge passed.
    on_deck: Callback<DeckAction>,
}

/// Actions the deck gives a step's run (an answered question plays it from its start), with
/// the number of the deck's action that gave them.
#[derive(Debug, Clone, PartialEq, Default)]
struct StepRun(u64, Vec<Action>);

/// One step: its own run (mounted afresh for each step), played to its moment.
#[function_component(LessonStepView)]
fn lesson_step_view(props: &LessonStepViewProps) -> Html {
    let ids = use_ids();
    let here = props.step;
    let step = here.step();
    let initial = {
        let dark = props.dark;
        let tried = props.tried.clone();
        use_memo((), move |_| {
            let (page, _) = step.page_tried(tried.as_deref());
            Shared(std::rc::Rc::new(page.apply(Action::SetDark(dark))))
        })
    };
    let (state, to_page) = use_page(&initial);
    let page = &state.0;
    {
        // The "Try it" value, when it is not the step's own, for the deck's address.
        let own = use_memo((), move |_| step.own_tried_text());
        let moved = step.knob.and_then(knob).and_then(|k| {
            let now = k.link_text(&page.settings.full);
            (Some(&now) != (*own).as_ref()).then_some(now)
        });
        let on_deck = props.on_deck.clone();
        use_effect_with(moved, move |moved| {
            on_deck.emit(DeckAction::Tried(moved.clone()))
        });
    }
    // A step that asks a question holds its run until the class has answered (or the
    // teacher shows it): until then nothing plays, steps or seeks it.
    let asked = props.asked;
    let holding = props.holding;
    let dispatch = {
        let to_page = to_page.clone();
        Callback::from(move |action: Action| {
            if admits(holding, &action) {
                to_page.emit(action);
            }
        })
    };
    let on_ask = {
        let playing = page.playback.playing;
        let page = page.clone();
        props.on_deck.reform(move |asked: Asked| {
            let verdict = match (asked, step.question) {
                (Asked::Predicted(p), Some(q)) => step
                    .judge(&page, p)
                    .zip(q.said(p))
                    .map(|(v, said)| (said, v.right)),
                _ => None,
            };
            DeckAction::Answer {
                asked,
                playing,
                verdict,
            }
        })
    };
    {
        // The deck's actions for the run (an answer plays it from its start), once each.
        // (Those the deck gave before this step was shown were another step's.)
        let to_page = to_page.clone();
        let StepRun(number, actions) = props.run.clone();
        let shown_after = use_mut_ref(|| number);
        use_effect_with(number, move |&number| {
            if number > *shown_after.borrow() {
                for action in actions {
                    to_page.emit(action);
                }
            }
        });
    }
    {
        let dispatch = dispatch.clone();
        use_effect_with(props.projector, move |&on| {
            dispatch.emit(Action::SetProjector(on))
        });
    }
    let moment = step.moment();
    let (root, heading) = use_arrival_focus(props.take_focus, props.standalone);
    {
        // Playing from before the moment pauses there, so the class sees what the step is about.
        let last = use_mut_ref(|| page.playback.playhead);
        let dispatch = dispatch.clone();
        use_effect_with(
            (page.playback.playhead, page.playback.playing),
            move |&(playhead, playing)| {
                let before = std::mem::replace(&mut *last.borrow_mut(), playhead);
                if let Some(pause) = pause_at(moment, before, playhead, playing) {
                    dispatch.emit(pause);
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
    use_document_keys(props.standalone.then(|| keys.clone()));
    let b_run = page.b_run().cloned();
    let notices = {
        let page = page.clone();
        let run = page.runs.a.clone().ok();
        use_memo((run, b_run, page.playback.playhead), move |_| {
            step.notices(&page)
        })
    };
    let replay = {
        let dispatch = dispatch.clone();
        let playing = page.playback.playing;
        // From the start, playing: pressed again while it plays, it starts over.
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Seek(0));
            if !playing {
                dispatch.emit(Action::TogglePlay);
            }
        })
    };
    let on_back = props.on_go.reform(move |_: MouseEvent| here.back());
    let on_next = props.on_go.reform(move |_: MouseEvent| here.next());
    // A step that names a request to follow offers it once its run has played to the moment
    // (before, its sentence would tell the run's outcome); it then takes the views' place.
    let following = use_state(|| false);
    let can_follow = page.playback.playhead >= moment && !holding;
    let follow_button = page.runs.traced.as_ref().map(|traced| {
        let on = *following && can_follow;
        let onclick = {
            let following = following.clone();
            Callback::from(move |_: MouseEvent| following.set(!on))
        };
        let label = if on {
            "Back to the charts"
        } else {
            "Follow one request"
        };
        let title = if can_follow {
            format!("Follow one request hop by hop: {}", traced.pick.label())
        } else {
            "Play the run to its moment first".to_string()
        };
        html! {
            <button type="button" id={ids.id("lesson-follow")} class="lesson-follow" {onclick}
                disabled={!can_follow} aria-pressed={on.to_string()} {title}>{ label }</button>
        }
    });
    let views = match &page.runs.a {
        Ok(run) if *following && can_follow => html! {
            <>
                { regions::lesson_timeline(&ids, page, run, &dispatch) }
                { regions::follow(&ids, page, run, &dispatch, false) }
            </>
        },
        Ok(run) => {
            let timeline = regions::lesson_timeline(&ids, page, run, &dispatch);
            let rest = step.views.iter().map(|view| match view {
                View::Topology => regions::topology(&ids, page, run),
                View::Diagram => regions::diagram(&ids, page, run),
                View::Latency => regions::latency(&ids, page, run, &dispatch, true),
                View::Load => regions::load(&ids, page, run),
            });
            html! { <>{ timeline }{ for rest }</> }
        }
        Err(message) => regions::run_error(&ids, message),
    };
    let whole = page.runs.a.as_ref().ok().map(|_| {
        let shown = page.view.window.is_none();
        let onchange = dispatch.reform(move |e: Event| {
            let on = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            Action::SetWindow((!on).then_some(moment))
        });
        html! {
            <label class="lesson-whole" for={ids.id("lesson-whole")}>
                <input type="checkbox" id={ids.id("lesson-whole")} checked={shown} {onchange} />
                { " Show the whole run" }
            </label>
        }
    });
    let challenge = step.challenge.map(|challenge| {
        html! {
            <ChallengePanel {challenge} run={page.runs.a.as_ref().ok().cloned()}
                full={page.settings.full.clone()} {moment}
                moment_text={clock(moment, page.clock_start())}
                notice={page.notice.clone().map(AttrValue::from)}
                on_action={dispatch.clone()}
                on_passed={props.on_deck.reform(|()| DeckAction::ChallengePassed)} />
        }
    });
    let try_it = step
        .knob
        .and_then(knob)
        .filter(|_| challenge.is_none())
        .map(|k| {
            html! {
                <div class="lesson-try" id={ids.id("lesson-try")}>
                    <h3>{ "Try it" }</h3>
                    { slider(k, &page.settings.full, false, &dispatch) }
                    if let Some(text) = &page.notice {
                        <p class="notice" role="alert">{ text }</p>
                    }
                </div>
            }
        });
    let playground = props.site.playground_with(&playground_query(page));
    let key_hint = if props.standalone {
        "Keys: PageDown / PageUp (a clicker) change step wherever the focus is; → / ← too, \
         except on a slider, which they move; space plays or pauses; ? lists them."
    } else {
        "With the focus here: PageDown or → next step, PageUp or ← back (→ / ← move a \
         focused slider); space plays or pauses."
    };
    let widget_keys = (!props.standalone).then_some(keys);
    let question = step.question.filter(|_| holding).map(|question| {
        html! { <LessonQuestion {question} on_ask={on_ask.clone()} /> }
    });
    // Read from the run once per run and answer, not on every playback frame; shown once
    // the playhead has reached the moment it speaks of.
    let verdict = {
        let page = page.clone();
        use_memo(
            (page.runs.a.clone().ok(), asked),
            move |(_, asked)| match asked {
                Some(Asked::Predicted(prediction)) => step.judge(&page, *prediction),
                _ => None,
            },
        )
    };
    {
        // An answer counts in the student's progress as soon as it is given (the run is known
        // in full): a class that moves on before the moment keeps its credit.
        let shown = (*verdict).as_ref().map(|v| v.right);
        let said = match (step.question, asked) {
            (Some(q), Some(Asked::Predicted(prediction))) => q.said(prediction),
            _ => None,
        };
        let on_deck = props.on_deck.clone();
        use_effect_with((shown, said), move |(shown, said)| {
            if let (Some(right), Some(said)) = (shown, said) {
                on_deck.emit(DeckAction::Verdict {
                    said: said.clone(),
                    right: *right,
                });
            }
        });
    }
    let prediction = match (step.question, asked) {
        (Some(question), Some(Asked::Predicted(prediction))) => {
            let verdict = (props.recalled || page.playback.playhead >= moment)
                .then(|| (*verdict).clone())
                .flatten();
            Some(html! {
                <LessonVerdict {question} {prediction} {verdict}
                    moment={clock(moment, page.clock_start())} />
            })
        }
        _ => None,
    };
    let mut seen = Vec::new();
    // While the class predicts, only the step's first paragraph (its setting) shows: the
    // ones after it tell what happens.
    let paragraphs = if holding {
        &step.text[..step.text.len().min(1)]
    } else {
        step.text
    };
    // Live figures read the run at the playhead; the control is the step's own knob.
    let reading = page.runs.a.as_ref().ok().map(|run| Reading {
        run,
        now: page.playback.playhead,
        b: None,
    });
    let mut controls = 0;
    let text: Vec<Html> = paragraphs
        .iter()
        .map(|p| {
            let Ok(pieces) = pieces(p) else {
                return html! { <p>{ with_terms(&ids, p, &mut seen) }</p> };
            };
            let shown = pieces.into_iter().map(|piece| match piece {
                Part::Text(t) => with_terms(&ids, t, &mut seen),
                Part::Live(live) => {
                    let figure = reading
                        .as_ref()
                        .map_or_else(|| "\u{2014}".to_string(), |r| live.text(r));
                    html! { <span class="live-value" data-live={live.name()}>{ figure }</span> }
                }
                Part::Control => match step.knob.and_then(knob) {
                    Some(k) => {
                        controls += 1;
                        html! {
                            <InlineKnob id={ids.id(&format!("lesson-inline-{controls}"))} knob={k}
                                value={k.read(&page.settings.full)} on_action={dispatch.clone()} />
                        }
                    }
                    None => Html::default(),
                },
            });
            html! { <p>{ for shown }</p> }
        })
        .collect();
    let notice_items: Vec<Html> = notices
        .iter()
        .map(|n| html! { <li>{ with_terms(&ids, n, &mut seen) }</li> })
        .collect();
    html! {
        <article ref={root} class="lesson-step" data-lesson-step={(here.index + 1).to_string()}
            data-step-name={here.name()} data-lesson={here.lesson.key()} aria-labelledby={ids.id("lesson-step-title")}
            tabindex={(!props.standalone).then_some("0")} onkeydown={widget_keys}>
            <div class="lesson-text">
                <div class="lesson-nav">
                    <button type="button" id={ids.id("lesson-back")} onclick={on_back}
                        disabled={here.back().is_none()}>{ "← Back" }</button>
                    <span class="lesson-count" id={ids.id("lesson-count")}>
                        { here.count() }
                    </span>
                    <button type="button" id={ids.id("lesson-next")} class="next" onclick={on_next}
                        disabled={here.next().is_none()}>
                        { if here.next().is_some_and(StepRef::is_recap) { "Recap →" } else { "Next →" } }
                    </button>
                </div>
                <@{ids.heading_tag()} id={ids.id("lesson-step-title")} ref={heading} tabindex="-1">{ step.title }</@>
                { for text }
                { for question }
                <section class="lesson-notice" aria-labelledby={ids.id("lesson-notice-title")}
                    hidden={holding}>
                    <div class="lesson-notice-head">
                        <h3 id={ids.id("lesson-notice-title")}>{ "What to notice" }</h3>
                        { for follow_button }
                    </div>
                    { for prediction }
                    if notices.is_empty() {
                        <p class="lesson-notice-wait" id={ids.id("lesson-notice-wait")}>
                            { "Press ▶ Play: what to notice appears here as the run reaches it." }
                        </p>
                    }
                    <ul id={ids.id("lesson-notices")}>
                        { for notice_items }
                    </ul>
                </section>
                { for try_it }
                { for challenge }
                <div class="lesson-actions">
                    { for whole }
                    <button type="button" id={ids.id("lesson-replay")} onclick={replay}
                        disabled={holding} title={holding.then_some("Answer the question first, or show the run")}>
                        { format!("▶ Play to {}", clock(moment, page.clock_start())) }
                    </button>
                    <a id={ids.id("lesson-open-playground")} href={playground} target="_blank" rel="noopener">
                        { "Open this step in the playground" }
                    </a>
                </div>
                <p class="hint keys">{ key_hint }</p>
            </div>
            <div class="lesson-views">{ views }</div>
            if let Ok(run) = &page.runs.a {
                <Announcements run={run.clone()} playhead={page.playback.playhead}
                    playing={page.playback.playing} clock_start={page.clock_start()} />
            }
        </article>
    }
}

/// Properties of [`LessonRecap`].
#[derive(Properties, PartialEq)]
struct LessonRecapProps {
    lesson: crate::page::lessons::Lesson,
    on_go: Callback<Option<StepRef>>,
    take_focus: bool,
    standalone: bool,
    site: Site,
    /// The student's progress in the lesson.
    progress: Progress,
}

/// After the last step: one line per step with its key figure, and where to go next.
#[function_component(LessonRecap)]
fn lesson_recap(props: &LessonRecapProps) -> Html {
    let ids = use_ids();
    let lesson = props.lesson;
    let lines = use_memo(lesson, |&lesson| recap(lesson));
    let on_download = {
        let json = props.progress.to_json(lesson);
        let name = format!("progress-{}.json", lesson.key());
        Callback::from(move |_: MouseEvent| {
            if let Err(why) = super::share::save_text(&json, &name, "application/json") {
                web_sys::console::warn_1(&format!("progress not saved: {why}").into());
            }
        })
    };
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
    let other = lesson.other();
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
                <p id={ids.id("lesson-progress-summary")}>{ props.progress.summary(lesson) }</p>
                <button type="button" id={ids.id("lesson-progress-download")} onclick={on_download}>
                    { "Download my progress (JSON)" }
                </button>
            </div>
            <p class="recap-next" id={ids.id("lesson-recap-next")}>
                { "Next: " }
                <a href={props.site.exercises()}>{ "the exercises" }</a>
                { ", where you predict a figure and check it; " }
                <a href={props.site.lesson(&StepRef { lesson: other, index: 0 }.query())}>
                    { format!("the other lesson, {}", other.title()) }
                </a>
                { "; or " }
                <a href={props.site.playground().to_string()}>{ "the playground" }</a>
                { ", every control at once." }
            </p>
        </article>
    }
}
