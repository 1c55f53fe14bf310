//! The lesson as a worksheet to print (`&worksheet=on`), or the teacher's copy with each
//! question's answer as the run gives it (`&worksheet=answers`).

use yew::prelude::*;

use crate::page::lessons::worksheet::worksheet;
use crate::page::lessons::{Lesson, StepRef};
use crate::page::site::Site;
use crate::ui::ids::{use_ids, IdScope};
use crate::ui::load_chart::LoadChart;

/// Properties of [`LessonWorksheet`].
#[derive(Properties, PartialEq)]
pub(super) struct LessonWorksheetProps {
    pub(super) lesson: Lesson,
    /// The teacher's copy.
    pub(super) answers: bool,
    pub(super) site: Site,
}

/// Every step of the lesson on paper: its title, its setting, its question with a box for the
/// prediction, and a line for what happened.
#[function_component(LessonWorksheet)]
pub(super) fn lesson_worksheet(props: &LessonWorksheetProps) -> Html {
    let ids = use_ids();
    let lesson = props.lesson;
    let answers = props.answers;
    let sheets = use_memo((lesson, answers), |&(lesson, answers)| {
        worksheet(lesson, answers)
    });
    let back = props.site.lesson(&StepRef { lesson, index: 0 }.query());
    let print = Callback::from(|_: MouseEvent| {
        if let Some(w) = web_sys::window() {
            let _ = w.print();
        }
    });
    html! {
        <article class="worksheet" id={ids.id("worksheet")} data-lesson={lesson.key()}>
            <nav class="worksheet-bar" aria-label="Worksheet">
                <a href={back}>{ "← Back to the lesson" }</a>
                <button type="button" id={ids.id("worksheet-print")} onclick={print}>{ "Print" }</button>
            </nav>
            <h1>{ lesson.title() }</h1>
            <p class="worksheet-who">
                { if answers { "The teacher's copy: each question's answer as the step's run gives it." }
                  else { "Name: ______________________    Date: ____________" } }
            </p>
            { for sheets.iter().map(|s| html! {
                <section class="worksheet-step" data-step={s.number.to_string()}>
                    <h2>{ format!("{}. {}", s.number, s.title) }</h2>
                    <p>{ &s.setting }</p>
                    if let Some(q) = &s.question {
                        <div class="worksheet-question">
                            <p class="worksheet-prompt">{ q.prompt }</p>
                            if !q.choices.is_empty() {
                                <ol class="worksheet-choices">
                                    { for q.choices.iter().map(|(l, text)| html! {
                                        <li><span class="choice-letter">{ l.to_string() }</span>{ " " }{ *text }</li>
                                    }) }
                                </ol>
                            }
                            <p class="worksheet-box">
                                { match q.unit {
                                    Some(unit) => format!("My prediction ({unit}):"),
                                    None => "My prediction (a letter), and why:".to_string(),
                                } }
                            </p>
                            if let Some(a) = &q.answer {
                                <p class="worksheet-answer"><strong>{ "Answer: " }</strong>{ a }</p>
                            }
                        </div>
                    }
                    if answers {
                        <WorksheetChart step={StepRef { lesson, index: s.number - 1 }} />
                    }
                    <p class="worksheet-line">{ "What happened:" }</p>
                </section>
            }) }
        </article>
    }
}

/// Properties of [`WorksheetChart`].
#[derive(Properties, PartialEq)]
struct WorksheetChartProps {
    step: StepRef,
}

/// The step's load over time, drawn at its moment from its own run, for the teacher's copy
/// (a canvas prints as the image it holds).
#[function_component(WorksheetChart)]
fn worksheet_chart(props: &WorksheetChartProps) -> Html {
    let page = use_memo(props.step, |s| s.step().page_at_moment().0);
    let Ok(run) = page.runs.a.as_ref() else {
        return Html::default();
    };
    let moment = props.step.step().moment();
    // Each chart's ids apart from the others' (and from the page's).
    let scope = IdScope::widget(900 + props.step.index as u32, 3, "worksheet chart");
    html! {
        <figure class="worksheet-chart" data-step={props.step.name().to_string()}>
            <ContextProvider<IdScope> context={scope}>
                <LoadChart run={run.clone()} span={Some(page.span())} playhead={moment} dark=false />
            </ContextProvider<IdScope>>
            <figcaption>{ format!("The step's run at {:.1} s: requests per second by outcome, the workers and the queue.", moment as f64 / 1e6) }</figcaption>
        </figure>
    }
}
