//! The metastability explorer: a grid of load by trigger length, each cell one run of the
//! retry storm, coloured by whether and how fast it recovered, with the switches that move the
//! boundary. The cells are computed in a Web Worker ([`super::cell_worker`]), so the page stays
//! responsive; where no worker can start, here, one per animation frame, and a notice says so.

use std::rc::Rc;

use yew::prelude::*;

use super::cell_worker::{use_cell_worker, Wanted, WorkerEvent};
use super::controls::{Slider, Switch};
use super::frames::use_frame_work;
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
    /// Compute the next cell here (no worker).
    Step,
    Worker(WorkerEvent),
}

/// Where the cells are computed.
#[derive(Debug, Clone, PartialEq)]
enum Engine {
    /// The worker is starting (or the grid is not asked for yet).
    Starting,
    /// In the Web Worker.
    Worker,
    /// On the page's own thread, because the worker could not start or stopped (why).
    MainThread(String),
}

impl Engine {
    /// The widget's `data-engine`: `starting`, `worker` or `main-thread`.
    fn key(&self) -> &'static str {
        match self {
            Engine::Starting => "starting",
            Engine::Worker => "worker",
            Engine::MainThread(_) => "main-thread",
        }
    }
}

/// The explorer, whether the student has asked for the grid yet, the number of the grid being
/// computed (a worker's reply to an earlier one is dropped), and where it is computed.
#[derive(Debug, Clone, PartialEq)]
struct ViewState {
    explorer: Explorer,
    started: bool,
    run: u32,
    engine: Engine,
}

impl Reducible for ViewState {
    type Action = ExplorerAction;

    fn reduce(self: Rc<Self>, action: ExplorerAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            ExplorerAction::Switch(s) => {
                next.explorer = Explorer::new(s);
                next.run += 1;
            }
            ExplorerAction::Start => next.started = true,
            ExplorerAction::Step => next.explorer.step(),
            ExplorerAction::Worker(WorkerEvent::Ready) if next.engine == Engine::Starting => {
                next.engine = Engine::Worker;
            }
            ExplorerAction::Worker(WorkerEvent::Replies(replies)) => {
                for reply in replies.into_iter().filter(|r| r.run == next.run) {
                    next.explorer.receive(reply.index, reply.outcome);
                }
            }
            ExplorerAction::Worker(WorkerEvent::Failed(why))
                if !matches!(next.engine, Engine::MainThread(_)) =>
            {
                next.engine = Engine::MainThread(why);
            }
            ExplorerAction::Worker(_) => return self,
        }
        Rc::new(next)
    }
}

/// The explorer with its own state.
#[function_component(MetastabilityView)]
pub fn metastability_view(props: &MetastabilityViewProps) -> Html {
    let ids = use_ids();
    let state = {
        let (switches, autostart) = (props.switches, props.autostart);
        use_reducer(move || ViewState {
            explorer: Explorer::new(switches),
            started: autostart,
            run: 1,
            engine: Engine::Starting,
        })
    };
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |a: ExplorerAction| dispatcher.dispatch(a))
    };
    let (explorer, started) = (&state.explorer, state.started);
    let wanted = match (&state.engine, explorer.next_index()) {
        (Engine::Worker, Some(next)) if started => Some(Wanted {
            run: state.run,
            next,
            total: explorer.total(),
            switches: explorer.switches,
        }),
        _ => None,
    };
    use_cell_worker(started, wanted, dispatch.reform(ExplorerAction::Worker));
    let here = matches!(state.engine, Engine::MainThread(_));
    use_frame_work(
        started && here && explorer.working(),
        explorer.cells.len() as u64,
        dispatch.reform(|()| ExplorerAction::Step),
    );
    let on_start = dispatch.reform(|_: MouseEvent| ExplorerAction::Start);
    let s = explorer.switches;
    let set = |change: fn(Switches, bool) -> Switches| {
        dispatch.reform(move |on: bool| ExplorerAction::Switch(change(s, on)))
    };
    let on_attempts = dispatch.reform(move |v: f64| {
        ExplorerAction::Switch(Switches {
            attempts: v.round() as u32,
            ..s
        })
    });
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
    let notice = match &state.engine {
        Engine::MainThread(why) if started => Some(format!(
            "Computed on the page itself, as no Web Worker could run here: {why}. The page may \
             pause now and then until the grid is done."
        )),
        _ => None,
    };
    html! {
        <div class="metastability" data-engine={state.engine.key()}>
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
            if let Some(notice) = notice {
                <p id={ids.id("meta-engine-notice")} class="notice meta-engine-notice">{ notice }</p>
            }
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
