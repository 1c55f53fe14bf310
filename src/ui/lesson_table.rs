//! The lesson's table: its four scenarios computed now, beside the numbers the lesson prints,
//! with the breaker-window slider that explains the difference.

use yew::prelude::*;

use super::controls::Slider;
use super::ids::use_ids;
use crate::page::action::Action;
use crate::page::runs::LaterTable;
use crate::page::settings::TABLE_WINDOW_RANGE;
use crate::sim::scenario::Scenario;
use crate::sim::trace::Outcome;

/// What lesson 000 prints for each scenario: ok, timeout, circuit_open, bulkhead_full, p50 ms,
/// p99 ms.
fn printed(s: Scenario) -> [u64; 6] {
    match s {
        Scenario::None => [302, 0, 0, 0, 4012, 4088],
        Scenario::Timeout => [300, 900, 0, 0, 301, 312],
        Scenario::Cb => [300, 62, 838, 0, 0, 301],
        Scenario::Bulkhead => [300, 22, 850, 28, 0, 118],
    }
}

/// Properties of [`LessonTable`].
#[derive(Properties, PartialEq)]
pub struct LessonTableProps {
    /// The four scenarios, simulated after the page's first paint: the page's own run shows
    /// without waiting for four more.
    pub table: LaterTable,
    /// Breaker window in seconds.
    pub window: f64,
    pub on_action: Callback<Action>,
}

fn ms(v: Option<u64>) -> String {
    v.map_or("—".into(), |m| format!("{:.0}", m as f64 / 1000.0))
}

/// The labels of the number columns, for a narrow table that folds them under each other.
fn column_labels(outcomes: &[Outcome]) -> Vec<String> {
    outcomes
        .iter()
        .map(|o| o.name().to_string())
        .chain(["p50 ms".to_string(), "p99 ms".to_string()])
        .collect()
}

/// Computed and printed numbers side by side.
#[function_component(LessonTable)]
pub fn lesson_table(props: &LessonTableProps) -> Html {
    let ids = use_ids();
    let on_window = props.on_action.reform(Action::SetTableWindow);
    let painted = use_state(|| props.table.is_simulated());
    {
        let painted = painted.clone();
        use_effect_with((), move |_| {
            let later = (!*painted)
                .then(|| gloo_timers::callback::Timeout::new(0, move || painted.set(true)));
            move || drop(later)
        });
    }
    let outcomes = [
        Outcome::Ok,
        Outcome::Timeout,
        Outcome::CircuitOpen,
        Outcome::BulkheadFull,
    ];
    let table = (*painted).then(|| props.table.rows());
    let rows = table.iter().flat_map(|rows| rows.iter()).map(|row| {
        let t = &row.trace;
        let p = printed(row.scenario);
        html! {
            <>
                <tr class="computed" id={ids.id(&format!("table-{}", row.scenario.key()))}>
                    <th scope="row" rowspan="2">{ &row.label }</th>
                    <td data-label="source">{ "this playground" }</td>
                    { for outcomes.iter().map(|&o| html! { <td data-label={o.name()}>{ t.outcomes.get(o) }</td> }) }
                    <td data-label="p50 ms">{ ms(t.service.p50) }</td>
                    <td data-label="p99 ms">{ ms(t.service.p99) }</td>
                </tr>
                <tr class="printed">
                    <td data-label="source">{ "printed in the lesson" }</td>
                    { for p.iter().zip(column_labels(&outcomes)).map(|(v, label)| html! {
                        <td data-label={label}>{ v }</td>
                    }) }
                </tr>
            </>
        }
    });
    html! {
        <>
            <div class="table-scroll" tabindex="0" role="region"
                aria-label="The lesson's four scenarios (scrolls sideways)">
                <table class="lesson-table">
                    <thead>
                        <tr>
                            <th scope="col">{ "scenario" }</th><th scope="col">{ "source" }</th>
                            { for outcomes.iter().map(|o| html! { <th scope="col">{ o.name() }</th> }) }
                            <th scope="col">{ "p50 ms" }</th><th scope="col">{ "p99 ms" }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for rows }
                        if table.is_none() {
                            <tr><td colspan="8">{ "Simulating the four scenarios\u{2026}" }</td></tr>
                        }
                    </tbody>
                </table>
            </div>
            <Slider id={ids.id("table-window")} label="Breaker window for this table" unit="s"
                min={TABLE_WINDOW_RANGE.0} max={TABLE_WINDOW_RANGE.1} step={0.5}
                value={props.window} on_change={on_window} />
            <p class="explain">
                { "Why do the two disagree? The breaker judges the last few seconds of results. With the
                  lesson's 10 s window, the 300 quick successes from before inventory fell ill are still
                  in the window when the failures start, so the failure ratio only reaches 50% about three
                  seconds later, and hundreds of calls time out first. The printed table looks like a
                  breaker that forgets after about one second: slide the window down to 1 s and the
                  computed rows come close to it. The no-protection row differs for another reason: the
                  lesson's code waits for every queued request before printing, so all 1,200 end up ok,
                  most after 4 s. Stopping at the 12 s mark instead would give 365 ok with a 40 ms
                  median, so the printed 302 matches neither way of running it." }
            </p>
        </>
    }
}
