//! The A/B mode's own views: which run is which on the charts, what B changes, and both
//! runs' counters side by side with the difference. The figures come from `page::compare`.

use std::rc::Rc;

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::action::Action;
use crate::page::compare::{CounterRow, Side};

/// The key telling A from B on a chart: A solid, B light with an outline and dashed lines.
/// `a_where` and `b_where` say where each run's bars are.
pub fn ab_legend(id: AttrValue, a_where: &str, b_where: &str) -> Html {
    html! {
        <ul class="legend ab-legend" {id}>
            <li class="ab-key ab-key-a"><strong>{ "A" }</strong>{ format!(": solid {a_where}, solid lines") }</li>
            <li class="ab-key ab-key-b"><strong>{ "B" }</strong>{ format!(": light outlined {b_where}, dashed lines") }</li>
        </ul>
    }
}

/// Properties of [`AbCounters`].
#[derive(Properties, PartialEq)]
pub struct AbCountersProps {
    /// How B differs from A ("B: Timeout 300 ms → 1 s").
    pub summary: AttrValue,
    /// Both runs' counters at the playhead.
    pub rows: Rc<Vec<CounterRow>>,
    /// Which run the controls change.
    pub edits: Side,
    pub on_action: Callback<Action>,
}

/// What B changes, which run the controls change, and the counters of A and B.
#[function_component(AbCounters)]
pub fn ab_counters(props: &AbCountersProps) -> Html {
    let ids = use_ids();
    let group = ids.id("ab-edits");
    let sides = [(Side::A, "A (B follows)"), (Side::B, "B only")].map(|(side, label)| {
        let id = ids.id(match side {
            Side::A => "ab-edits-a",
            Side::B => "ab-edits-b",
        });
        let onchange = props.on_action.reform(move |_: Event| Action::SetAbEdits(side));
        html! {
            <label for={id.clone()}>
                <input type="radio" name={group.clone()} id={id} checked={props.edits == side} {onchange} />
                { label }
            </label>
        }
    });
    html! {
        <div class="ab" id={ids.id("ab")}>
            <p class="ab-summary" id={ids.id("ab-summary")}><strong>{ &props.summary }</strong></p>
            <fieldset class="ab-edits">
                <legend>{ "The controls change" }</legend>
                { for sides }
            </fieldset>
            <p class="hint">{ "B differs from A in one control (a pattern's switch counts with its own settings): changing another puts the first back. Same seed, same playhead." }</p>
            <div class="ab-table-wrap">
                <table class="ab-counters" id={ids.id("ab-counters")}>
                    <caption class="visually-hidden">{ "Requests so far in runs A and B" }</caption>
                    <thead>
                        <tr><th scope="col">{ "so far" }</th><th scope="col">{ "A" }</th>
                            <th scope="col">{ "B" }</th><th scope="col">{ "B − A" }</th></tr>
                    </thead>
                    <tbody>
                        { for props.rows.iter().map(|r| html! {
                            <tr key={r.key.clone()} data-row={r.key.clone()}>
                                <th scope="row" title={(r.label != r.key).then(|| format!("{} in the JSON and the CSV", r.key))}>{ &r.label }</th>
                                <td id={ids.id(&format!("ab-a-{}", r.key))}>{ &r.a }</td>
                                <td id={ids.id(&format!("ab-b-{}", r.key))}>{ &r.b }</td>
                                <td id={ids.id(&format!("ab-diff-{}", r.key))}>{ &r.diff }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            </div>
        </div>
    }
}
