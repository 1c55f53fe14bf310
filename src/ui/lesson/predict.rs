//! The question a lesson step asks before its run plays ([`LessonQuestion`]: the choices,
//! large enough on the projector for a show of hands, or a number field, and "show the run"
//! for a teacher who wants no prediction), then what the class said and, once the run has
//! reached the step's moment, the verdict read from that run ([`LessonVerdict`]).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::exercises::number::read_number;
use crate::page::lessons::predict::choice_letter;
use crate::page::lessons::{Answer, Asked, Prediction, Question, Verdict};
use crate::ui::ids::use_ids;

/// Properties of [`LessonQuestion`].
#[derive(Properties, PartialEq)]
pub struct LessonQuestionProps {
    /// The step's question.
    pub question: Question,
    /// A prediction was made, or the run shown without one.
    pub on_ask: Callback<Asked>,
}

/// The question and its answers, while the class has not answered.
#[function_component(LessonQuestion)]
pub fn lesson_question(props: &LessonQuestionProps) -> Html {
    let ids = use_ids();
    let number = use_node_ref();
    let problem = use_state(|| None::<String>);
    let q = props.question;
    let answers = match q.answer {
        Answer::Choices(choices) => {
            let buttons = choices.iter().enumerate().map(|(i, c)| {
                let onclick = props
                    .on_ask
                    .reform(move |_: MouseEvent| Asked::Predicted(Prediction::Choice(i)));
                let letter = choice_letter(i);
                html! {
                    <button type="button" class="lesson-choice" id={ids.id(&format!("lesson-choice-{i}"))} {onclick}>
                        <span class="choice-letter" aria-hidden="true">{ letter }</span>
                        <span>{ c.text }</span>
                    </button>
                }
            });
            html! {
                <div class="lesson-choices" role="group" aria-labelledby={ids.id("lesson-question")}>
                    { for buttons }
                </div>
            }
        }
        Answer::Number { unit, .. } => {
            let onsubmit = {
                let number = number.clone();
                let problem = problem.clone();
                let on_ask = props.on_ask.clone();
                Callback::from(move |e: SubmitEvent| {
                    e.prevent_default();
                    let text = number
                        .cast::<HtmlInputElement>()
                        .map(|i| i.value())
                        .unwrap_or_default();
                    match read_number(&text, unit) {
                        Ok(read) => {
                            problem.set(None);
                            on_ask.emit(Asked::Predicted(Prediction::Number(read.value)));
                        }
                        Err(why) => {
                            problem.set(Some(format!("It needs a number in {unit}: {why}.")))
                        }
                    }
                })
            };
            html! {
                <form class="lesson-number" {onsubmit}>
                    <label for={ids.id("lesson-number")}>{ format!("Your answer, in {unit}") }</label>
                    <input type="text" inputmode="decimal" id={ids.id("lesson-number")} ref={number}
                        autocomplete="off" aria-describedby={ids.id("lesson-number-problem")} />
                    <button type="submit" id={ids.id("lesson-number-submit")}>{ "Predict" }</button>
                    <p class="notice" id={ids.id("lesson-number-problem")} role="alert">
                        { (*problem).clone().unwrap_or_default() }
                    </p>
                </form>
            }
        }
    };
    let skip = props.on_ask.reform(|_: MouseEvent| Asked::Skipped);
    html! {
        <section class="lesson-predict" id={ids.id("lesson-predict")} aria-labelledby={ids.id("lesson-predict-title")}>
            <h3 id={ids.id("lesson-predict-title")}>{ "Predict first" }</h3>
            <p id={ids.id("lesson-question")} class="lesson-question">{ q.prompt }</p>
            { answers }
            <button type="button" class="lesson-skip" id={ids.id("lesson-skip")} onclick={skip}>
                { "Show the run without predicting" }
            </button>
        </section>
    }
}

/// Properties of [`LessonVerdict`].
#[derive(Properties, PartialEq)]
pub struct LessonVerdictProps {
    /// The step's question.
    pub question: Question,
    /// What the class predicted (none: the run shown without a prediction).
    pub prediction: Option<Prediction>,
    /// The verdict, once the run has played to the step's moment.
    pub verdict: Option<Verdict>,
    /// The moment the run plays to, as the page writes it ("12.0 s").
    pub moment: AttrValue,
    /// Takes the keyboard's focus when shown (the question it replaces had it).
    #[prop_or_default]
    pub take_focus: bool,
}

/// What the class said, then the verdict read from the run.
#[function_component(LessonVerdict)]
pub fn lesson_verdict(props: &LessonVerdictProps) -> Html {
    let ids = use_ids();
    // The hint opens on demand, so the verdict stays one short paragraph on the projector.
    let why = use_state(|| false);
    let node = use_node_ref();
    {
        let node = node.clone();
        let take = props.take_focus;
        use_effect_with((), move |_| {
            if take {
                if let Some(el) = node.cast::<web_sys::HtmlElement>() {
                    // Without a scroll: the step brings its run into sight meanwhile.
                    let options = web_sys::FocusOptions::new();
                    options.set_prevent_scroll(true);
                    let _ = el.focus_with_options(&options);
                }
            }
        });
    }
    let said = props
        .prediction
        .and_then(|p| props.question.said(p))
        .unwrap_or_default();
    let status = match &props.verdict {
        None if props.prediction.is_none() => html! {
            <p class="lesson-said">
                { format!("Shown without a prediction. Watch the run to {}.", props.moment) }
            </p>
        },
        None => html! {
            <p class="lesson-said">
                { format!("You said “{said}”. Watch the run to {}.", props.moment) }
            </p>
        },
        Some(v) => {
            let toggle = {
                let why = why.clone();
                Callback::from(move |_: MouseEvent| why.set(!*why))
            };
            html! {
                <>
                    <p class={classes!("lesson-verdict", if v.right { "right" } else { "wrong" })}>
                        <span class="verdict-mark" aria-hidden="true">{ if v.right { "✓ " } else { "✗ " } }</span>
                        { v.sentence.clone() }
                        if v.hint.is_some() {
                            { " " }
                            <button type="button" class="lesson-why" id={ids.id("lesson-why")}
                                aria-expanded={(*why).to_string()} aria-controls={ids.id("lesson-hint")}
                                onclick={toggle}>{ "Why not?" }</button>
                        }
                    </p>
                    if let Some(hint) = v.hint.filter(|_| *why) {
                        <p class="lesson-hint" id={ids.id("lesson-hint")}>{ hint }</p>
                    }
                </>
            }
        }
    };
    html! {
        <div role="status" class="lesson-prediction" id={ids.id("lesson-answer")} ref={node}
            tabindex="-1">{ status }</div>
    }
}
