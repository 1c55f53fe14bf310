//! The jitter view: the backoff blog's contention experiment with its five strategies side by
//! side (calls and completion time against clients), the figures at the chosen clients, and
//! two strips of one run each showing when every client's writes happen. The state and the
//! geometry live in `page::jitter`; the sweep is computed a slice per animation frame.

use std::rc::Rc;

use yew::prelude::*;

use super::controls::{Choice, Slider, Switch};
use super::frames::use_frame_work;
use super::ids::{use_ids, IdScope};
use crate::page::jitter::{
    line_chart, Frame, JitterAction, JitterSettings, JitterState, LineChart, Metric, Strip,
    CAP_RANGE, CLIENTS_RANGE, SWEEP_CLIENTS,
};
use crate::page::runs::Shared;
use crate::resilience::{MS, SECOND};
use crate::sim::experiments::contention::Strategy;

/// The wall time one frame may spend on the sweep, ms.
const WORK_PER_FRAME_MS: f64 = 8.0;

/// Properties of [`JitterView`].
#[derive(Properties, PartialEq)]
pub struct JitterViewProps {
    /// The settings it starts from.
    pub settings: JitterSettings,
    /// Start computing at once (a widget), or wait for the button (the playground).
    #[prop_or_default]
    pub autostart: bool,
}

#[derive(Debug, Clone)]
struct ViewState(JitterState);

impl Reducible for ViewState {
    type Action = JitterAction;

    fn reduce(self: Rc<Self>, action: JitterAction) -> Rc<Self> {
        Rc::new(ViewState(self.0.clone().apply(action)))
    }
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// The whole view, with its own state.
#[function_component(JitterView)]
pub fn jitter_view(props: &JitterViewProps) -> Html {
    let ids = use_ids();
    let state = {
        let (settings, autostart) = (props.settings, props.autostart);
        use_reducer(move || ViewState(JitterState::new(settings, autostart)))
    };
    let dispatch = {
        let dispatcher = state.dispatcher();
        Callback::from(move |a: JitterAction| dispatcher.dispatch(a))
    };
    let st = &state.0;
    // One slice of the sweep per frame, for about WORK_PER_FRAME_MS of the page's clock.
    let slice = dispatch.reform(|()| JitterAction::WorkFor {
        ms: WORK_PER_FRAME_MS,
        clock: now_ms,
    });
    use_frame_work(st.is_working(), st.sweep.handled(), slice);
    let s = st.settings;
    let column = nearest_sweep_clients(s.clients);
    let (done, total) = st.sweep.progress();
    let progress = match (st.started, st.sweep.error()) {
        (_, Some(e)) => e.to_string(),
        (false, _) => "The charts are computed when you ask: 50 points of 100 runs each.".into(),
        (true, None) if done < total => format!(
            "Computing: {done} of {total} points ({} runs each)…",
            s.runs
        ),
        (true, None) => format!(
            "All {total} points computed, {} runs each, seed {}.",
            s.runs, s.seed
        ),
    };
    let chart_frame = Frame {
        left: 58.0,
        top: 14.0,
        width: 404.0,
        height: 210.0,
    };
    let calls = line_chart(st.sweep.points(), Metric::Calls, false, chart_frame);
    let time = line_chart(st.sweep.points(), Metric::TimeMs, s.log_time, chart_frame);
    html! {
        <div class="jitter">
            <p class="jitter-intro">
                { "N clients each update one row once with optimistic concurrency: read its version, \
                   write with it; a write that lost the race fails, and the client backs off and reads \
                   again. Every message takes about 10 ms. Base and cap shape the backoff; the strips \
                   show one run at the chosen number of clients." }
            </p>
            <div class="jitter-controls">
                <Slider id="jitter-clients" label="Clients (strips and table)" unit="clients"
                    min={CLIENTS_RANGE.0 as f64} max={CLIENTS_RANGE.1 as f64} step={1.0}
                    value={s.clients as f64}
                    on_change={dispatch.reform(JitterAction::SetClients)} />
                <Slider id="jitter-base" label="Backoff base" unit="ms" min={1.0} max={100.0}
                    step={1.0} value={(s.base / MS) as f64}
                    on_change={dispatch.reform(JitterAction::SetBaseMs)} />
                <Slider id="jitter-cap" label="Backoff cap" unit="s"
                    min={CAP_RANGE.0 as f64 / SECOND as f64} max={CAP_RANGE.1 as f64 / SECOND as f64}
                    step={0.1} value={s.cap as f64 / SECOND as f64}
                    on_change={dispatch.reform(JitterAction::SetCapSeconds)} />
                { strip_choice(0, s.strips[0], &dispatch) }
                { strip_choice(1, s.strips[1], &dispatch) }
                <Switch id="jitter-log" label="Time on a log scale" on={s.log_time}
                    on_change={dispatch.reform(JitterAction::SetLogTime)} />
            </div>
            <p class="jitter-progress" id={ids.id("jitter-progress")} aria-live="polite">
                { progress }
                if !st.started {
                    { " " }
                    <button id={ids.id("jitter-start")} onclick={dispatch.reform(|_| JitterAction::Start)}>
                        { "Run the experiment" }
                    </button>
                }
            </p>
            <Legend />
            <div class="jitter-charts">
                <LineFigure id="jitter-calls-chart" title="Calls (writes) per run" unit="calls"
                    chart={calls} frame={chart_frame} column={column} />
                <LineFigure id="jitter-time-chart" title="Time until the last client is done"
                    unit={if s.log_time { "ms, log scale" } else { "ms" }}
                    chart={time} frame={chart_frame} column={column} />
            </div>
            { figures_table(&ids, st, column) }
            <div class="jitter-strips">
                { for st.strips.iter().enumerate().map(|(i, strip)| match strip {
                    Ok(strip) => html! { <StripFigure slot={i} strip={strip.clone()} /> },
                    Err(e) => html! { <p class="notice" role="alert">{ format!("This run could not be made: {e}") }</p> },
                }) }
            </div>
        </div>
    }
}

fn nearest_sweep_clients(clients: u32) -> u32 {
    let tens = (clients + 5) / 10 * 10;
    tens.clamp(SWEEP_CLIENTS[0], SWEEP_CLIENTS[SWEEP_CLIENTS.len() - 1])
}

fn strip_choice(slot: usize, value: Strategy, dispatch: &Callback<JitterAction>) -> Html {
    let on_change = dispatch.reform(move |i: f64| {
        let index = if i.is_finite() { i as usize } else { 0 };
        JitterAction::SetStrip(slot, Strategy::ALL[index.min(Strategy::ALL.len() - 1)])
    });
    let (id, label) = if slot == 0 {
        ("jitter-strip-1", "Top strip")
    } else {
        ("jitter-strip-2", "Bottom strip")
    };
    html! {
        <Choice {id} {label} options={&Strategy::LABELS[..]} value={value.index()} {on_change} />
    }
}

fn strategy_class(s: Strategy) -> String {
    format!("strategy strategy-{}", s.key())
}

/// Which line is which: colour and dash, so the lines differ by more than colour.
#[function_component(Legend)]
fn legend() -> Html {
    html! {
        <ul class="jitter-legend" aria-label="Strategies">
            { for Strategy::ALL.iter().map(|&s| html! {
                <li>
                    <svg width="34" height="12" aria-hidden="true">
                        <line class={strategy_class(s)} x1="2" y1="6" x2="32" y2="6" />
                    </svg>
                    { s.label() }
                </li>
            }) }
        </ul>
    }
}

#[derive(Properties, PartialEq)]
struct LineFigureProps {
    id: AttrValue,
    title: AttrValue,
    unit: AttrValue,
    chart: LineChart,
    frame: Frame,
    /// The clients the table reads, marked on the chart.
    column: u32,
}

fn n(v: f64) -> String {
    format!("{v:.1}")
}

/// One line chart against clients.
#[function_component(LineFigure)]
fn line_figure(props: &LineFigureProps) -> Html {
    let ids = use_ids();
    let f = props.frame;
    let (bottom, right) = (f.top + f.height, f.left + f.width);
    let column_x = props
        .chart
        .x_ticks
        .iter()
        .find(|(_, label)| *label == props.column.to_string())
        .map(|(x, _)| *x);
    html! {
        <figure class="jitter-figure" id={ids.id(&props.id)}>
            <figcaption>{ &props.title }</figcaption>
            <svg viewBox="0 0 480 262" role="img"
                aria-label={format!("{} against the number of clients, {}. {}", props.title, props.unit, props.chart.description)}>
                { for props.chart.y_ticks.iter().map(|(y, label)| html! {
                    <g class="tick">
                        <line x1={n(f.left)} x2={n(right)} y1={n(*y)} y2={n(*y)} />
                        <text x={n(f.left - 6.0)} y={n(y + 4.0)} text-anchor="end">{ label }</text>
                    </g>
                }) }
                { for props.chart.x_ticks.iter().map(|(x, label)| html! {
                    <text class="tick-label" x={n(*x)} y={n(bottom + 17.0)} text-anchor="middle">{ label }</text>
                }) }
                <line class="axis" x1={n(f.left)} x2={n(right)} y1={n(bottom)} y2={n(bottom)} />
                if let Some(x) = column_x {
                    <line class="jitter-column" x1={n(x)} x2={n(x)} y1={n(f.top)} y2={n(bottom)} />
                }
                { for props.chart.lines.iter().map(|(s, points)| html! {
                    <polyline class={strategy_class(*s)} points={points.clone()}>
                        <title>{ s.label() }</title>
                    </polyline>
                }) }
                <text class="axis-title" x={n(f.left + f.width / 2.0)} y="258" text-anchor="middle">{ "clients" }</text>
                <text class="axis-title" x="12" y={n(f.top + f.height / 2.0)} text-anchor="middle"
                    transform={format!("rotate(-90 12 {})", n(f.top + f.height / 2.0))}>{ &props.unit }</text>
            </svg>
        </figure>
    }
}

/// The figures at the chosen clients, a row per strategy.
fn figures_table(ids: &IdScope, st: &JitterState, clients: u32) -> Html {
    let rows = Strategy::ALL.iter().map(|&s| {
        let point = st.sweep.point(s, clients);
        let calls = point.map_or("…".to_string(), |p| {
            format!("{:.1}", p.tally.mean_calls())
        });
        let time = point.map_or("…".to_string(), |p| {
            format!("{:.0}", p.tally.mean_time_ms())
        });
        html! {
            <tr data-strategy={s.key()}>
                <th scope="row">{ s.label() }</th>
                <td>{ calls }</td>
                <td>{ time }</td>
            </tr>
        }
    });
    html! {
        <div class="table-scroll">
            <table class="jitter-table" id={ids.id("jitter-table")}>
                <caption>{ format!("At {clients} clients, mean of {} runs", st.settings.runs) }</caption>
                <thead><tr><th scope="col">{ "Strategy" }</th><th scope="col">{ "Calls" }</th><th scope="col">{ "Time (ms)" }</th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StripFigureProps {
    slot: usize,
    strip: Shared<Strip>,
}

const STRIP_FRAME: Frame = Frame {
    left: 44.0,
    top: 6.0,
    width: 426.0,
    height: 240.0,
};

/// One run: a row per client, a mark per write (a longer, darker one for the write that won).
#[function_component(StripFigure)]
fn strip_figure(props: &StripFigureProps) -> Html {
    let ids = use_ids();
    let strip = props.strip.clone();
    let drawn = use_memo(strip, |strip| {
        (strip.paths(STRIP_FRAME), strip.time_ticks(STRIP_FRAME))
    });
    let ((lost, won), ticks) = (&drawn.0, &drawn.1);
    let s = &props.strip;
    let f = STRIP_FRAME;
    let bottom = f.top + f.height;
    let done = if s.completion >= 2 * SECOND {
        format!("{:.1} s", s.completion as f64 / SECOND as f64)
    } else {
        format!("{} ms", s.completion / MS)
    };
    let caption = format!(
        "{}: one run, {} clients, {} writes, done after {}",
        s.strategy.label(),
        s.clients,
        s.calls,
        done
    );
    html! {
        <figure class="jitter-figure jitter-strip" id={ids.id(&format!("jitter-strip-chart-{}", props.slot + 1))}
            data-strategy={s.strategy.key()}>
            <figcaption>{ &caption }</figcaption>
            <svg viewBox="0 0 480 274" role="img"
                aria-label={format!("{caption}. Each row is a client, each mark a write; the long marks are the writes that succeeded.")}>
                <rect class="strip-ground" x={n(f.left)} y={n(f.top)} width={n(f.width)} height={n(f.height)} />
                <path class={classes!("strip-lost", format!("strategy-{}", s.strategy.key()))} d={lost.clone()} />
                <path class="strip-won" d={won.clone()} />
                { for ticks.iter().map(|(x, label)| html! {
                    <g class="tick">
                        <line x1={n(*x)} x2={n(*x)} y1={n(bottom)} y2={n(bottom + 4.0)} />
                        <text x={n(*x)} y={n(bottom + 17.0)} text-anchor="middle">{ label }</text>
                    </g>
                }) }
                <text class="axis-title" x="14" y={n(f.top + f.height / 2.0)} text-anchor="middle"
                    transform={format!("rotate(-90 14 {})", n(f.top + f.height / 2.0))}>{ "client" }</text>
            </svg>
        </figure>
    }
}
