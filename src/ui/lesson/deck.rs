//! The lesson deck in the browser: Next / Back, the step list, the projector switch, and the
//! deck's effects run ([`Deck::apply`] makes the rules).

use yew::prelude::*;

use super::absolute;
use super::blackout::use_blackout;
use super::open::OpenLessonFile;
use super::recap::LessonRecap;
use super::step::{LessonStepView, StepRun};
use crate::page::embed::Embed;
use crate::page::lessons::deck::{Deck, DeckAction, Effect};
use crate::page::lessons::progress::Progress;
use crate::page::lessons::Lesson;
use crate::page::lessons::StepRef;
use crate::page::permalink::parse_query;
use crate::page::site::Site;
use crate::page::widget::WidgetKind;
use crate::ui::app::use_root_classes;
use crate::ui::embed_this::EmbedThis;
use crate::ui::ids::use_ids;
use crate::ui::join_code::JoinCode;
use crate::ui::shortcuts_help::{lesson_shortcuts, ShortcutsHelp};
use crate::ui::storage::{keep_in_platform, platform_record, store, stored};
use crate::ui::window_events::use_window_event;

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
    /// The class vote at the start (`&vote=on`).
    #[prop_or_default]
    pub vote: bool,
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
        let vote = props.vote;
        let tried = props.tried.as_ref().map(ToString::to_string);
        use_reducer_eq(move || {
            let deck = match platform_record() {
                Some(record) => Deck::resumed(start, projector, tried, &record),
                None => {
                    let stored = stored(&Progress::storage_key(start.lesson));
                    Deck::new(start, projector, tried, stored.as_deref())
                }
            }
            .voting(vote);
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
    use_root_classes(standalone, deck.projector, props.dark);
    let (black, back_from_black) = use_blackout(standalone);
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
    let on_vote = on_deck.reform(|e: Event| {
        DeckAction::SetVote(
            e.target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked(),
        )
    });
    // While the class votes, a phone that joins a choice question gets its answer cards.
    let has_choices = !step.is_recap()
        && matches!(
            step.step().question.map(|q| q.answer),
            Some(crate::page::lessons::Answer::Choices(_))
        );
    let join = if deck.vote && has_choices {
        format!("{}&cards=on", step.query())
    } else {
        step.query()
    };
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
            if black {
                <div class="blackout" id={ids.id("lesson-blackout")} aria-hidden="true"
                    onclick={back_from_black.reform(|_: MouseEvent| ())}></div>
            }
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
                                { format!("{}. {}{}", i + 1, s.title,
                                    if deck.passed(StepRef { lesson: step.lesson, index: i }) { " ✓" } else { "" }) }
                            </option>
                        }) }
                        <option value="end" selected={step.is_recap()}>{ "Recap" }</option>
                    </select>
                </label>
                if let Some(on_read) = props.on_open.clone() {
                    <OpenLessonFile id={ids.id("lesson-open-file")} {on_read} />
                }
                if standalone {
                    <a class="lesson-worksheet" id={ids.id("lesson-worksheet")}
                        href={props.site.lesson(&format!("{}&worksheet=on", step.query()))}>{ "Worksheet" }</a>
                }
                if standalone {
                    <label class="switch" for={ids.id("lesson-vote-switch")}>
                        <input type="checkbox" role="switch" id={ids.id("lesson-vote-switch")}
                            checked={deck.vote} onchange={on_vote} />
                        <span>{ "Class vote" }</span>
                    </label>
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
                    <JoinCode link={AttrValue::from(absolute(&props.site.lesson(&join)))} />
                }
            </nav>
            if step.is_recap() {
                <LessonRecap key={step.query()} lesson={lesson} on_go={go} take_focus={moved}
                    standalone={standalone} site={props.site.clone()} progress={deck.progress.clone()}
                    projector={projector} />
            } else {
                // Mounted afresh for each step, and for each "Try again" of its challenge.
                <LessonStepView key={format!("{}#{}", step.query(), deck.attempt)} step={step}
                    on_go={go} take_focus={moved}
                    standalone={standalone} site={props.site.clone()} dark={props.dark}
                    projector={projector} tried={deck.tried.clone()} asked={deck.asked}
                    recalled={deck.recalled} holding={deck.holding()}
                    vote={deck.vote} votes={deck.votes().cloned()}
                    passed_with={deck.passed_with()} speed={deck.speed} left_at={deck.left_at()}
                    {run} {on_deck} />
            }
        </div>
    }
}
