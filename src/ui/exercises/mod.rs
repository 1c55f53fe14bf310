//! The four exercises as views: the question, the settings as controls, a prediction per part
//! checked on request, a run drawn once the student asks for it, and the worked solution. The
//! state and every decision live in `page::exercise_view`; these components draw it and send
//! its actions.

mod breaker;
mod budget;
mod gantt;
mod layers;
mod northwind;
mod parts;

use std::rc::Rc;

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::exercise_view::{Action, ExerciseState, Setup, Which};

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
    match Which::from_number(props.number) {
        Some(which) => html! {
            // Keyed: a new number starts a fresh exercise rather than reusing the old state.
            <ExerciseBody key={props.number} {which} heading_level={props.heading_level} />
        },
        None => html! {
            <p class="notice exercise-notice" role="alert">
                { format!("There is no exercise {}: the exercises are numbered 1 to 4.", props.number) }
            </p>
        },
    }
}

/// The exercise's state for Yew's `use_reducer`; [`ExerciseState::apply`] does the work.
#[derive(Debug, Clone)]
struct ViewState(ExerciseState);

impl Reducible for ViewState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(ViewState(self.0.clone().apply(action)))
    }
}

#[derive(Properties, PartialEq)]
struct BodyProps {
    which: Which,
    heading_level: u8,
}

/// Text with line breaks as paragraphs.
pub(crate) fn paragraphs(text: &str) -> Html {
    text.split('\n')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| html! { <p>{ p.to_string() }</p> })
        .collect()
}

#[function_component(ExerciseBody)]
fn exercise_body(props: &BodyProps) -> Html {
    let ids = use_ids();
    let which = props.which;
    let state = use_reducer(|| ViewState(ExerciseState::new(which)));
    let on_action: Callback<Action> = {
        let dispatcher = state.dispatcher();
        Callback::from(move |a: Action| dispatcher.dispatch(a))
    };
    let s = &state.0;
    let prefix = which.prefix();
    let name = |suffix: &str| ids.id(&format!("{prefix}-{suffix}"));

    let title = format!("Exercise {}: {}", which.number(), s.setup.title());
    let heading_id = name("title");
    let heading = match props.heading_level {
        3 => html! { <h3 id={heading_id.clone()}>{ title }</h3> },
        4 => html! { <h4 id={heading_id.clone()}>{ title }</h4> },
        _ => html! { <h2 id={heading_id.clone()}>{ title }</h2> },
    };

    let controls = match &s.setup {
        Setup::Budget(_) => Html::default(),
        Setup::Breaker(b) => html! {
            <breaker::BreakerControls setup={b.clone()} on_action={on_action.clone()} />
        },
        Setup::Layers(l) => html! {
            <layers::LayersControls setup={l.clone()} on_action={on_action.clone()} />
        },
        Setup::Northwind(n) => html! {
            <northwind::NorthwindControls setup={n.clone()} on_action={on_action.clone()} />
        },
    };

    let shown = s.computed.as_ref().filter(|_| s.shown);
    let result = match (shown, &s.setup) {
        (Some(c), Setup::Budget(_)) => html! { <budget::BudgetResult computed={c.clone()} /> },
        (Some(c), Setup::Breaker(b)) => html! {
            <breaker::BreakerResult computed={c.clone()} bug_shown={b.bug}
                min_calls={b.exercise.breaker.min_calls} rule={b.exercise.alert.clone()} />
        },
        (Some(c), Setup::Layers(l)) => html! {
            <layers::LayersResult computed={c.clone()} key_shown={l.idempotency_key} />
        },
        (Some(c), Setup::Northwind(n)) => html! {
            <northwind::NorthwindResult computed={c.clone()} shared_pool={n.shared_pool}
                sick_from={n.exercise.backlog.sick_from} sick_until={n.exercise.backlog.sick_until} />
        },
        _ => html! {
            <p class="muted exercise-waiting">
                { "Make your predictions first, then press \u{201c}Run it\u{201d} to see what happens." }
            </p>
        },
    };

    let on_run = on_action.reform(|_: MouseEvent| Action::Run);
    let on_solution = on_action.reform(|_: MouseEvent| Action::ToggleSolution);
    let solution_id = name("solution");
    let solution_open = s.solution_open;

    html! {
        <section class="exercise" id={name("exercise")} aria-labelledby={heading_id}>
            { heading }
            <div class="exercise-question">{ paragraphs(&s.setup.question()) }</div>
            if !matches!(s.setup, Setup::Budget(_)) {
                <div class="exercise-controls" id={name("controls")}>
                    <h3 class="exercise-subhead">{ "Settings" }</h3>
                    { controls }
                </div>
            }
            if let Some(notice) = &s.notice {
                <p class="notice" role="alert" id={name("notice")}>{ notice }</p>
            }
            <parts::PartList
                prefix={prefix.clone()}
                parts={s.parts().to_vec()}
                attempts={s.attempts.clone()}
                on_action={on_action.clone()} />
            <div class="exercise-actions">
                <button type="button" class="exercise-run" id={name("run")} onclick={on_run}>
                    { if s.shown { "Run it again" } else { "Run it" } }
                </button>
                <button type="button" class="exercise-solution-toggle" id={name("solution-toggle")}
                    aria-expanded={solution_open.to_string()} aria-controls={solution_id.clone()}
                    onclick={on_solution}>
                    { if solution_open { "Hide the solution" } else { "Show the solution" } }
                </button>
            </div>
            if let Some(error) = &s.error {
                <p class="notice" role="alert" id={name("error")}>{ error }</p>
            }
            <div class="exercise-result" id={name("result")} aria-live="polite">
                { result }
            </div>
            if let Some(solution) = s.shown_solution() {
                <div class="exercise-solution" id={solution_id}>
                    <h3 class="exercise-subhead">{ "Worked solution" }</h3>
                    { paragraphs(solution) }
                </div>
            }
        </section>
    }
}
