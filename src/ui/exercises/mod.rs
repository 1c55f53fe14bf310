//! The four exercises as views: the question, the settings as controls, a prediction per part
//! checked on request, a run drawn once the student asks for it, and the worked solution. The
//! state and every decision live in `exercises::view`; these components draw it and send
//! its actions.

mod breaker;
mod budget;
mod gantt;
mod layers;
mod northwind;
mod parts;
mod wide_table;

use std::marker::PhantomData;
use std::rc::Rc;

use yew::prelude::*;

use crate::page::embed::Embed;
use crate::page::widget::WidgetKind;
use crate::ui::embed_this::EmbedThis;

use super::ids::use_ids;
use crate::exercises::setups::{BreakerSetup, LayersSetup, NorthwindSetup};
use crate::exercises::view::{Action, Computed, ExerciseState, PageExercise};
use crate::exercises::{number::RULE, BudgetAndRetries, Exercise};
use crate::page::runs::Shared;

/// How many exercises there are.
pub const EXERCISES: u8 = 4;

/// What a view draws of one exercise beyond what every exercise shares: its controls and its
/// run.
pub(crate) trait ExerciseUi: PageExercise {
    /// Whether it has controls at all.
    const HAS_CONTROLS: bool = true;
    /// Its controls, sending their changes to `on_control`.
    fn controls(&self, on_control: Callback<Self::Control>) -> Html;
    /// A run, as the settings want it shown.
    fn result(&self, computed: &Shared<Computed<Self::Results>>) -> Html;
}

/// Properties of [`ExerciseView`].
#[derive(Properties, PartialEq, Clone)]
pub struct ExerciseViewProps {
    /// Which exercise, 1 to 4 (anything else shows a notice).
    pub number: u8,
    /// Heading level of the exercise's title (2 by default; a course page may want 3).
    #[prop_or(2)]
    pub heading_level: u8,
}

/// One exercise, with its own state (several may share a page).
#[function_component(ExerciseView)]
pub fn exercise_view(props: &ExerciseViewProps) -> Html {
    let level = props.heading_level;
    // Keyed: a new number starts a fresh exercise rather than reusing the old state.
    match props.number {
        1 => html! { <ExerciseBody<BudgetAndRetries> key={1} heading_level={level} /> },
        2 => html! { <ExerciseBody<BreakerSetup> key={2} heading_level={level} /> },
        3 => html! { <ExerciseBody<LayersSetup> key={3} heading_level={level} /> },
        4 => html! { <ExerciseBody<NorthwindSetup> key={4} heading_level={level} /> },
        n => html! {
            <p class="notice exercise-notice" role="alert">
                { format!("There is no exercise {n}: the exercises are numbered 1 to {EXERCISES}.") }
            </p>
        },
    }
}

/// The exercise's state for Yew's `use_reducer`; [`ExerciseState::apply`] does the work.
#[derive(Debug, Clone)]
struct ViewState<S: PageExercise>(ExerciseState<S>);

impl<S: PageExercise> Reducible for ViewState<S> {
    type Action = Action<S::Control>;

    fn reduce(self: Rc<Self>, action: Self::Action) -> Rc<Self> {
        Rc::new(ViewState(self.0.clone().apply(action)))
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps<S: PartialEq> {
    heading_level: u8,
    #[prop_or_default]
    exercise: PhantomData<S>,
}

/// Text with line breaks as paragraphs.
pub(crate) fn paragraphs(text: &str) -> Html {
    text.split('\n')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| html! { <p>{ p.to_string() }</p> })
        .collect()
}

/// The answers saved in this browser for an exercise, if any (and if storage is allowed).
fn load_answers(key: &str) -> Option<String> {
    crate::ui::storage::stored(key)
}

/// Whether the page offers "Embed this" on each exercise (the playground's own exercises page
/// says so with `<html data-embed-buttons>`; a course page that embeds one does not).
fn offers_embedding() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .is_some_and(|root| root.has_attribute("data-embed-buttons"))
}

/// Keeps the answers, or forgets them when there are none.
fn store_answers(key: &str, json: &str) {
    if json == "{}" {
        crate::ui::storage::forget(key)
    } else {
        crate::ui::storage::store(key, json)
    }
}

#[function_component(ExerciseBody)]
fn exercise_body<S: ExerciseUi>(props: &BodyProps<S>) -> Html {
    // The answers typed here before come back with the first state.
    let state = use_reducer(|| {
        let fresh = ExerciseState::<S>::new();
        let saved = load_answers(&fresh.storage_key());
        ViewState(match saved {
            Some(json) => fresh.apply(Action::Restore(ExerciseState::<S>::parse_saved(&json))),
            None => fresh,
        })
    });
    let on_action: Callback<Action<S::Control>> = {
        let dispatcher = state.dispatcher();
        Callback::from(move |a| dispatcher.dispatch(a))
    };
    let s = &state.0;
    {
        let key = s.storage_key();
        use_effect_with(s.saved_answers(), move |saved| store_answers(&key, saved));
    }
    // Only what differs between exercises is generic; the shell draws the rest once.
    html! {
        <ExerciseShell
            number={S::NUMBER}
            heading_level={props.heading_level}
            title={s.setup.exercise().title()}
            question={s.setup.exercise().question()}
            controls={S::HAS_CONTROLS.then(|| s.setup.controls(on_action.reform(Action::Control)))}
            result={s.computed.as_ref().filter(|_| s.shown).map(|c| s.setup.result(c))}
            notice={s.notice.clone()}
            error={s.error.clone()}
            parts={s.parts().to_vec()}
            attempts={s.attempts.clone()}
            shown={s.shown}
            solution={s.shown_solution().map(str::to_string)}
            on_type={on_action.reform(|(part, text)| Action::Type { part, text })}
            on_check={on_action.reform(Action::Check)}
            on_run={on_action.reform(|_| Action::Run)}
            on_solution={on_action.reform(|_| Action::ToggleSolution)}
            on_reset={on_action.reform(|_| Action::Reset)} />
    }
}

/// Properties of [`ExerciseShell`]: one exercise's state, already drawn where it differs.
#[derive(Properties, PartialEq)]
struct ShellProps {
    number: u8,
    heading_level: u8,
    title: AttrValue,
    question: AttrValue,
    /// The controls, for an exercise that has any.
    controls: Option<Html>,
    /// The run, once shown.
    result: Option<Html>,
    notice: Option<String>,
    error: Option<String>,
    parts: Vec<crate::exercises::Part>,
    attempts: std::collections::BTreeMap<String, crate::exercises::view::Attempt>,
    shown: bool,
    /// The solution, when open.
    solution: Option<String>,
    on_type: Callback<(String, String)>,
    on_check: Callback<String>,
    on_run: Callback<()>,
    on_solution: Callback<()>,
    on_reset: Callback<()>,
}

/// What every exercise shows: title, question, controls, parts, buttons, run and solution.
#[function_component(ExerciseShell)]
fn exercise_shell(props: &ShellProps) -> Html {
    let ids = use_ids();
    let prefix = format!("ex{}", props.number);
    let name = |suffix: &str| ids.id(&format!("{prefix}-{suffix}"));

    let title = format!("Exercise {}: {}", props.number, props.title);
    let heading_id = name("title");
    let heading = match props.heading_level {
        3 => html! { <h3 id={heading_id.clone()}>{ title }</h3> },
        4 => html! { <h4 id={heading_id.clone()}>{ title }</h4> },
        _ => html! { <h2 id={heading_id.clone()}>{ title }</h2> },
    };
    let result = props.result.clone().unwrap_or_else(|| {
        html! {
            <p class="muted exercise-waiting">
                { "Make your predictions first, then press \u{201c}Run it\u{201d} to see what happens." }
            </p>
        }
    });
    let on_run = props.on_run.reform(|_: MouseEvent| ());
    let on_solution = props.on_solution.reform(|_: MouseEvent| ());
    let on_reset = props.on_reset.reform(|_: MouseEvent| ());
    let solution_id = name("solution");
    let solution_open = props.solution.is_some();

    html! {
        <section class="exercise" id={name("exercise")} aria-labelledby={heading_id}>
            { heading }
            if offers_embedding() {
                <EmbedThis embed={Embed::new(WidgetKind::Exercise(props.number), "")} />
            }
            <div class="exercise-question">{ paragraphs(&props.question) }</div>
            if let Some(controls) = &props.controls {
                <div class="exercise-controls" id={name("controls")}>
                    <h3 class="exercise-subhead">{ "Settings" }</h3>
                    { controls.clone() }
                </div>
            }
            if let Some(notice) = &props.notice {
                <p class="notice" role="alert" id={name("notice")}>{ notice }</p>
            }
            <details class="number-rule" id={name("number-rule")}>
                <summary>{ "How numbers are read" }</summary>
                <p>{ RULE }</p>
            </details>
            <parts::PartList
                prefix={prefix.clone()}
                parts={props.parts.clone()}
                attempts={props.attempts.clone()}
                on_type={props.on_type.clone()}
                on_check={props.on_check.clone()} />
            <div class="exercise-actions">
                <button type="button" class="exercise-run" id={name("run")} onclick={on_run}>
                    { if props.shown { "Run it again" } else { "Run it" } }
                </button>
                <button type="button" class="exercise-solution-toggle" id={name("solution-toggle")}
                    aria-expanded={solution_open.to_string()} aria-controls={solution_id.clone()}
                    onclick={on_solution}>
                    { if solution_open { "Hide the solution" } else { "Show the solution" } }
                </button>
                <button type="button" class="exercise-reset" id={name("reset")} onclick={on_reset}
                    title="Forget this exercise's answers and verdicts kept in this browser, and go back to the lesson's settings">
                    { "Start again" }
                </button>
            </div>
            if let Some(error) = &props.error {
                <p class="notice" role="alert" id={name("error")}>{ error }</p>
            }
            <div class="exercise-result" id={name("result")} aria-live="polite">
                { result }
            </div>
            if let Some(solution) = &props.solution {
                <div class="exercise-solution" id={solution_id}>
                    <h3 class="exercise-subhead">{ "Worked solution" }</h3>
                    { paragraphs(solution) }
                </div>
            }
        </section>
    }
}
