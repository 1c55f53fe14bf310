//! Answer cards on a phone (`&cards=on` on a question step's link): the step's choices as
//! large cards; a tap fills the screen with that letter, in a colour and a pattern of its own,
//! for the student to hold up. Nothing is sent anywhere and no run plays.

use yew::prelude::*;

use crate::page::lessons::predict::choice_letter as letter;
use crate::page::lessons::{Answer, StepRef};
use crate::page::site::Site;
use crate::ui::ids::use_ids;

/// Properties of [`AnswerCards`].
#[derive(Properties, PartialEq)]
pub(super) struct AnswerCardsProps {
    /// The step whose choices are shown (it asks a choice question).
    pub(super) step: StepRef,
    pub(super) site: Site,
}

/// The choices as cards, or the one card held up.
#[function_component(AnswerCards)]
pub(super) fn answer_cards(props: &AnswerCardsProps) -> Html {
    let ids = use_ids();
    let held = use_state(|| None::<usize>);
    let step = props.step.step();
    let Some(Answer::Choices(choices)) = step.question.map(|q| q.answer) else {
        return Html::default();
    };
    let prompt = step.question.map(|q| q.prompt).unwrap_or_default();
    if let Some(i) = *held {
        let letter = letter(i);
        let back = {
            let held = held.clone();
            Callback::from(move |_: MouseEvent| held.set(None))
        };
        return html! {
            <button type="button" class={classes!("answer-card-held", format!("card-{}", letter.to_ascii_lowercase()))}
                id={ids.id("answer-card-held")} onclick={back}
                aria-label={format!("{letter}, held up. Tap to choose again.")}>
                <span class="answer-card-letter" aria-hidden="true">{ letter.to_string() }</span>
            </button>
        };
    }
    let lesson_link = props.site.lesson(&props.step.query());
    html! {
        <article class="answer-cards" id={ids.id("answer-cards")} aria-labelledby={ids.id("answer-cards-prompt")}>
            <p class="answer-cards-step">{ format!("{}: {}", props.step.count(), step.title) }</p>
            <h1 id={ids.id("answer-cards-prompt")}>{ prompt }</h1>
            <div class="answer-cards-choices">
                { for choices.iter().enumerate().map(|(i, c)| {
                    let letter = letter(i);
                    let onclick = {
                        let held = held.clone();
                        Callback::from(move |_: MouseEvent| held.set(Some(i)))
                    };
                    html! {
                        <button type="button" class={classes!("answer-card", format!("card-{}", letter.to_ascii_lowercase()))}
                            id={ids.id(&format!("answer-card-{i}"))} {onclick}>
                            <span class="answer-card-letter" aria-hidden="true">{ letter.to_string() }</span>
                            <span class="answer-card-text">{ c.text }</span>
                        </button>
                    }
                }) }
            </div>
            <p class="answer-cards-note">{ "Tap your answer and hold the phone up. Nothing is sent. " }
                <a href={lesson_link}>{ "The step itself" }</a></p>
        </article>
    }
}
