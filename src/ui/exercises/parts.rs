//! The parts of an exercise: for a numeric one a prediction field, its unit, a Check button and
//! the verdict; for an open one a text area to think in (the solution holds a model answer).

use std::collections::BTreeMap;

use web_sys::{HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use crate::exercises::view::Attempt;
use crate::exercises::Part;
use crate::ui::ids::use_ids;

/// Properties of [`PartList`].
#[derive(Properties, PartialEq)]
pub struct PartListProps {
    /// The exercise's id prefix (`"ex1"`).
    pub prefix: String,
    pub parts: Vec<Part>,
    /// What the student wrote, by part id.
    pub attempts: BTreeMap<String, Attempt>,
    /// The student typed: part id and the field's whole text.
    pub on_type: Callback<(String, String)>,
    /// The student asked for a part (by id) to be checked.
    pub on_check: Callback<String>,
}

/// Every part, in order.
#[function_component(PartList)]
pub fn part_list(props: &PartListProps) -> Html {
    html! {
        <ol class="exercise-parts">
            { for props.parts.iter().map(|part| html! {
                <PartRow key={part.id.clone()}
                    prefix={props.prefix.clone()}
                    part={part.clone()}
                    attempt={props.attempts.get(&part.id).cloned().unwrap_or_default()}
                    on_type={props.on_type.clone()}
                    on_check={props.on_check.clone()} />
            }) }
        </ol>
    }
}

#[derive(Properties, PartialEq)]
struct PartRowProps {
    prefix: String,
    part: Part,
    attempt: Attempt,
    on_type: Callback<(String, String)>,
    on_check: Callback<String>,
}

#[function_component(PartRow)]
fn part_row(props: &PartRowProps) -> Html {
    let ids = use_ids();
    let part_id = props.part.id.clone();
    let name = |suffix: &str| ids.id(&format!("{}-part-{}-{suffix}", props.prefix, part_id));
    let on_type = {
        let part = part_id.clone();
        props
            .on_type
            .reform(move |text: String| (part.clone(), text))
    };
    let question_id = name("question");
    let question = html! {
        <p class="part-question" id={question_id.clone()}>
            <span class="part-id">{ format!("({})", part_id) }</span>{ " " }{ &props.part.question }
        </p>
    };
    let row_id = ids.id(&format!("{}-part-{}", props.prefix, part_id));

    let Some(answer) = &props.part.answer else {
        // The text area's value, read without web-sys's HtmlTextAreaElement binding.
        let on_input = on_type.reform(|e: InputEvent| {
            e.target()
                .and_then(|t| js_sys::Reflect::get(&t, &"value".into()).ok())
                .and_then(|v| v.as_string())
                .unwrap_or_default()
        });
        let area_id = name("answer");
        return html! {
            <li class="exercise-part open-part" id={row_id}>
                { question }
                <label class="part-label" for={area_id.clone()}>{ "Your answer, in a few sentences" }</label>
                <textarea id={area_id} rows="3" value={props.attempt.text.clone()} oninput={on_input} />
                <p class="muted part-note">{ "There is no number to check here: compare your answer with the worked solution." }</p>
            </li>
        };
    };

    let check = {
        let part = part_id.clone();
        props.on_check.reform(move |_: ()| part.clone())
    };
    let on_input = on_type.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        input.value()
    });
    let on_key = {
        let check = check.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Enter" {
                e.prevent_default();
                check.emit(());
            }
        })
    };
    let on_click = check.reform(|_: MouseEvent| ());
    let input_id = name("input");
    let label_id = name("label");
    let verdict_id = name("verdict");
    let feedback = props.attempt.feedback.as_ref();
    let verdict_class = classes!("verdict", feedback.map(|f| format!("verdict-{}", f.kind())));
    html! {
        <li class="exercise-part" id={row_id}>
            { question }
            <div class="prediction">
                <label class="part-label" id={label_id.clone()} for={input_id.clone()}>{ "Your prediction" }</label>
                // Named by its question, so each field says which one it answers.
                <input type="text" inputmode="decimal" autocomplete="off" id={input_id}
                    value={props.attempt.text.clone()} oninput={on_input} onkeydown={on_key}
                    aria-labelledby={format!("{question_id} {label_id}")}
                    aria-describedby={verdict_id.clone()} />
                <span class="unit">{ &answer.unit }</span>
                <button type="button" id={name("check")} onclick={on_click}>
                    { "Check" }<span class="visually-hidden">{ format!(" ({part_id})") }</span>
                </button>
            </div>
            <p id={verdict_id} class={verdict_class} role="status" aria-live="polite"
                data-correct={feedback.map(|f| AttrValue::from(f.is_right().to_string()))}
                data-verdict={feedback.map(|f| AttrValue::from(f.kind()))}>
                if let Some(f) = feedback {
                    <span class="verdict-mark" aria-hidden="true">
                        { match f.kind() { "right" => "✓", "wrong" => "✗", _ => "!" } }
                    </span>
                    { " " }
                    if let Some(word) = f.word() {
                        <strong class="verdict-word">{ word }</strong>{ " " }
                    }
                    { f.text().to_string() }
                }
                if let Some(reading) = &props.attempt.reading {
                    <span class="verdict-reading">{ " " }{ reading }</span>
                }
            </p>
        </li>
    }
}
