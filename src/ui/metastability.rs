//! The metastability explorer: a grid of load by trigger length, each cell one run of the
//! retry storm, coloured by whether and how fast it recovered, with the switches that move the
//! boundary. A cell is computed per animation frame, so the page keeps drawing while it fills.

use std::cell::Cell as StdCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::controls::{Slider, Switch};
use super::ids::use_ids;
use crate::page::metastability::{Explorer, Switches, Verdict};

/// Properties of [`MetastabilityView`].
#[derive(Properties, PartialEq)]
pub struct MetastabilityViewProps {
    /// The switches it starts from.
    #[prop_or_default]
    pub switches: Switches,
    /// Start computing at once (a widget), or wait for the button (the playground).
    #[prop_or_default]
    pub autostart: bool,
}

enum ExplorerAction {
    Switch(Switches),
    Start,
    Step,
}

/// The explorer, and whether the student has asked for the grid yet.
#[derive(Debug, Clone, PartialEq)]
struct ViewState(Explorer, bool);

impl Reducible for ViewState {
    type Action = ExplorerAction;

    fn reduce(self: Rc<Self>, action: ExplorerAction) -> Rc<Self> {
        match action {
            ExplorerAction::Switch(s) => Rc::new(ViewState(Explorer::new(s), self.1)),
            ExplorerAction::Start => Rc::new(ViewState(self.0.clone(), true)),
            ExplorerAction::Step => {
                let mut next = self.0.clone();
                next.step();
                Rc::new(ViewState(next, self.1))
            }
        }
    }
}

/// While cells are left, computes one per animation frame.
#[hook]
fn use_cell_frames(working: bool, done: usize, dispatch: Callback<()>) {
    use_effect_with((working, done), move |&(working, _)| {
        let handle = Rc::new(StdCell::new(None::<i32>));
        if working {
            let frame = Closure::once_into_js(move |_: f64| dispatch.emit(()));
            if let Some(w) = web_sys::window() {
                handle.set(w.request_animation_frame(frame.unchecked_ref()).ok());
            }
        }
        move || {
            if let (Some(w), Some(h)) = (web_sys::window(), handle.get()) {
                let _ = w.cancel_animation_frame(h);
            }
        }
    });
}

/// The explorer with its own state.
#[function_component(MetastabilityView)]
pub fn metastability_view(props: &MetastabilityViewProps) -> Html {
    let ids = use_ids();
    let state = {
        let (switches, autostart) = (props.switches, props.autostart);
        use_reducer(move || ViewState(Explorer::new(switches), autostart))
    };
    let step = {
        let dispatcher = state.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(ExplorerAction::Step))
    };
    let (explorer, started) = (&state.0, state.1);
    use_cell_frames(started && explorer.working(), explorer.cells.len(), step);
    let on_start = {
        let dispatcher = state.dispatcher();
        Callback::from(move |_: MouseEvent| dispatcher.dispatch(ExplorerAction::Start))
    };
    let s = explorer.switches;
    let set = |change: fn(Switches, bool) -> Switches| {
        let dispatcher = state.dispatcher();
        Callback::from(move |on: bool| dispatcher.dispatch(ExplorerAction::Switch(change(s, on))))
    };
    let on_attempts = {
        let dispatcher = state.dispatcher();
        Callback::from(move |v: f64| {
            dispatcher.dispatch(ExplorerAction::Switch(Switches {
                attempts: v.round() as u32,
                ..s
            }))
        })
    };
    let (done, total) = (explorer.cells.len(), explorer.total());
    let status = match (&explorer.error, explorer.safe_load()) {
        (Some(e), _) => e.clone(),
        (None, _) if !started => format!("The grid is computed when you ask: {total} runs."),
        (None, _) if done < total => format!("Computing: {done} of {total} runs…"),
        (None, Some(load)) => format!(
            "Done: {total} runs. Up to {load} requests/s it recovered after every trigger; \
             above that, a long enough trigger leaves it down for good."
        ),
        (None, None) => format!(
            "Done: {total} runs. No load recovered after every trigger: the failure sustains \
             itself."
        ),
    };
    let grid = explorer.grid.as_ref();
    let steps = grid.map_or(0, |g| g.steps);
    let header = (1..=steps).map(|r| {
        let rate = grid.map_or(0.0, |g| g.rate(r));
        html! { <th scope="col">{ format!("{rate:.0}") }</th> }
    });
    // The longest trigger on top, as a chart's y axis reads.
    let rows = (0..steps).rev().map(|t| {
        let trigger = grid.map_or(0, |g| g.trigger(t + 1)) as f64 / 1e6;
        let cells = (0..steps).map(|r| match explorer.cell(t, r) {
            Some(cell) => {
                let verdict = Verdict::of(cell);
                let text = match cell.recovered_ms {
                    Some(ms) => format!("{:.1}", ms / 1_000.0),
                    None => "∞".to_string(),
                };
                let title = format!(
                    "{} requests/s, trigger {trigger} s: {} ({:.0}% answered)",
                    cell.rate,
                    verdict.label(),
                    cell.ok_share * 100.0
                );
                html! { <td class={verdict.class()} title={title}>{ text }</td> }
            }
            None => html! { <td class="meta-pending">{ "·" }</td> },
        });
        html! {
            <tr><th scope="row">{ format!("{trigger:.1}") }</th>{ for cells }</tr>
        }
    });
    let legend = Verdict::ALL.iter().map(|v| {
        html! { <li><span class={classes!("meta-swatch", v.class())} aria-hidden="true"></span>{ v.label() }</li> }
    });
    html! {
        <div class="metastability">
            <p class="meta-intro">{ "Each cell is one run of the retry storm (inventory serves 6 calls at once, 150 calls/s; \
                a 300 ms timeout; slow for the trigger's length from 3 s). The number is how many seconds after the \
                trigger it took to answer 90% of every second's requests for 10 s in a row; ∞: never, while the load lasted." }</p>
            <div class="meta-switches" role="group" aria-label="Cures to try">
                <Switch id={ids.id("meta-budget")} label="Retry budget (10%)" on={s.retry_budget}
                    on_change={set(|s, on| Switches { retry_budget: on, ..s })} />
                <Switch id={ids.id("meta-breaker")} label="Circuit breaker" on={s.breaker}
                    on_change={set(|s, on| Switches { breaker: on, ..s })} />
                <Switch id={ids.id("meta-deadline")} label="Deadline propagation (drop abandoned work)" on={s.deadline}
                    on_change={set(|s, on| Switches { deadline: on, ..s })} />
                <Switch id={ids.id("meta-nojitter")} label="Backoff without jitter" on={s.no_jitter}
                    on_change={set(|s, on| Switches { no_jitter: on, ..s })} />
                <Slider id={ids.id("meta-attempts")} label="Attempts per call" unit="" min={1.0} max={5.0} step={1.0}
                    value={f64::from(s.attempts)} on_change={on_attempts} />
            </div>
            if !started {
                <button id={ids.id("meta-start")} onclick={on_start}>{ "Compute the grid" }</button>
            }
            <progress id={ids.id("meta-progress")} max={total.to_string()} value={done.to_string()}
                aria-label="Runs computed"></progress>
            <p id={ids.id("meta-status")} class="meta-status" aria-live="polite">{ status }</p>
            <div class="meta-grid-wrap">
                <table id={ids.id("meta-grid")} class="meta-grid" data-done={done.to_string()}>
                    <caption>{ "Seconds to recover, by trigger length (rows, s) and load (columns, requests/s)" }</caption>
                    <thead><tr><th scope="col">{ "trigger \\ load" }</th>{ for header }</tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            </div>
            <ul class="meta-legend">{ for legend }</ul>
        </div>
    }
}
