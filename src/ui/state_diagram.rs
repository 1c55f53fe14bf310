//! The Circuit breaker region: CLOSED, OPEN and HALF_OPEN with the arrows between them, each
//! labelled with the live parameters; the state at the playhead lit, the last arrow taken
//! flashing, and the breaker's figures beside it.

use yew::prelude::*;

use super::chart_keys::{ChartKeys, ChartParts};
use super::ids::use_ids;

use crate::page::breaker_labels::{
    arrow_labels, arrow_of, diagram_description, ratio_words, reason_text,
};
use crate::page::chart_table::{diagram_table, ChartTable};
use crate::page::replay::BreakerAt;
use crate::page::runs::{Run, Shared};
use crate::resilience::{BreakerConfig, BreakerState};
use crate::sim::latency::Micros;
use crate::sim::trace::Bucket;

/// Properties of [`StateDiagram`].
#[derive(Properties, PartialEq)]
pub struct StateDiagramProps {
    /// The breaker's parameters; `None` when the run has no breaker.
    pub config: Option<BreakerConfig>,
    /// Why no breaker can be switched on, when the run's stack has no place for one.
    #[prop_or_default]
    pub no_place: Option<AttrValue>,
    /// Its state at the playhead.
    pub at: Option<BreakerAt>,
    /// The slice at the playhead (window and probe gauges).
    pub slice: Bucket,
    /// Calls the breaker refused so far.
    pub rejections: u64,
    pub playhead: Micros,
    /// The run, for the states' table: the time spent in each.
    pub run: Shared<Run>,
}

/// The breaker's states up to the playhead, for the keyboard and the data table.
#[derive(Clone, PartialEq)]
struct DiagramParts {
    run: Shared<Run>,
    config: BreakerConfig,
    now: BreakerState,
    until: Micros,
}

impl ChartParts for DiagramParts {
    fn table(&self) -> ChartTable {
        diagram_table(
            &self.run.bands,
            self.until,
            &arrow_labels(&self.config),
            self.now,
        )
    }

    fn part(&self) -> &'static str {
        "state"
    }
}

// Node centres and arrow paths on a 640 x 300 canvas.
const NODES: [(BreakerState, &str, f64, f64); 3] = [
    (BreakerState::Closed, "CLOSED", 110.0, 220.0),
    (BreakerState::Open, "OPEN", 530.0, 220.0),
    (BreakerState::HalfOpen, "HALF_OPEN", 320.0, 70.0),
];
const ARROWS: [(&str, f64, f64); 4] = [
    ("M 185 232 L 452 232", 320.0, 262.0),
    ("M 500 180 Q 470 100 410 86", 500.0, 120.0),
    ("M 232 86 Q 160 100 130 180", 130.0, 120.0),
    ("M 398 106 Q 460 150 472 190", 360.0, 168.0),
];

/// The diagram and the live figures.
#[function_component(StateDiagram)]
pub fn state_diagram(props: &StateDiagramProps) -> Html {
    let ids = use_ids();
    let Some(config) = &props.config else {
        let why = props.no_place.clone().unwrap_or_else(|| {
            "This run has no circuit breaker. Switch it on under Controls to watch it open, probe and close.".into()
        });
        return html! { <p class="placeholder" id={ids.id("no-breaker")}>{ why }</p> };
    };
    let at = props.at.unwrap_or(BreakerAt {
        state: BreakerState::Closed,
        since: 0,
        last_change: None,
    });
    let labels = arrow_labels(config);
    let taken = at.last_change.and_then(|c| arrow_of(c.from, c.to));
    let flash_key = at.last_change.map_or(0, |c| c.at);
    let nodes = NODES.iter().map(|&(state, name, x, y)| {
        let lit = state == at.state;
        html! {
            <g class={classes!("node", format!("node-{}", name.to_ascii_lowercase()), lit.then_some("lit"))} id={ids.id(&format!("node-{}", name.to_ascii_lowercase()))}>
                <rect x={(x - 72.0).to_string()} y={(y - 26.0).to_string()} width="144" height="52" rx="26" />
                <text x={x.to_string()} y={(y + 7.0).to_string()} text-anchor="middle">{ name }</text>
            </g>
        }
    });
    let arrowhead = ids.id("arrowhead");
    let marker_end = format!("url(#{arrowhead})");
    let arrows = ARROWS.iter().enumerate().map(|(i, &(path, lx, ly))| {
        let is_taken = taken == Some(i);
        html! {
            <g class={classes!("arrow", is_taken.then_some("taken"))}
                key={format!("arrow-{i}-{}", if is_taken { flash_key } else { 0 })}>
                <path d={path} marker-end={marker_end.clone()} />
                <text id={ids.id(&format!("arrow-label-{i}"))} x={lx.to_string()} y={ly.to_string()}
                    text-anchor="middle">{ &labels[i] }</text>
            </g>
        }
    });
    let s = &props.slice;
    let ratio = if s.window_calls > 0 {
        s.window_failures as f64 / s.window_calls as f64
    } else {
        0.0
    };
    let cooldown_left = if at.state == BreakerState::Open {
        (at.since + config.cooldown).saturating_sub(props.playhead)
    } else {
        0
    };
    let state_name = NODES
        .iter()
        .find(|n| n.0 == at.state)
        .map_or("CLOSED", |n| n.1);
    html! {
        <div class="diagram-body">
            <div class="diagram-chart">
            <ChartKeys<DiagramParts> id={ids.id("diagram-keys")} name="The breaker's states"
                source={DiagramParts { run: props.run.clone(), config: config.clone(), now: at.state, until: props.playhead }}>
            <svg class="state-diagram" viewBox="0 0 640 300" role="img"
                aria-label={diagram_description(config, at.state, at.last_change.as_ref(), None)}>
                <defs>
                    // In user units: sized by the stroke, the head of the taken arrow (and of its
                    // flash, 12 wide) would grow to several times the others.
                    <marker id={arrowhead.clone()} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="20"
                        markerHeight="20" markerUnits="userSpaceOnUse" orient="auto-start-reverse">
                        <path d="M 0 0 L 10 5 L 0 10 z" />
                    </marker>
                </defs>
                { for arrows }
                { for nodes }
            </svg>
            </ChartKeys<DiagramParts>>
            </div>
            <dl class="breaker-figures">
                <dt class="figure-state">{ "State" }</dt>
                <dd id={ids.id("breaker-state")} class={format!("figure-state state-{}", state_name.to_ascii_lowercase())}>{ state_name }</dd>
                <dt>{ "In the window" }</dt>
                <dd id={ids.id("window-figures")}>{ format!("{} calls, {} failed", s.window_calls, s.window_failures) }</dd>
                <dt>{ "Failure ratio" }</dt>
                <dd>
                    <div class="gauge" role="meter" aria-valuemin="0" aria-valuemax="100"
                        aria-valuenow={format!("{:.0}", ratio * 100.0)}
                        aria-label={format!("failure ratio {:.0}% against a threshold of {:.0}%", ratio * 100.0, config.failure_ratio * 100.0)}>
                        <div class="fill" style={format!("width: {:.1}%", ratio * 100.0)} />
                        <div class="threshold" style={format!("left: {:.1}%", config.failure_ratio * 100.0)} />
                    </div>
                    <span id={ids.id("ratio")}>{ ratio_words(config, at.state, s.window_calls, s.window_failures) }</span>
                </dd>
                <dt>{ "Cool-down left" }</dt>
                <dd id={ids.id("cooldown-left")}>{ if at.state == BreakerState::Open { format!("{:.1} s", cooldown_left as f64 / 1e6) } else { "—".to_string() } }</dd>
                <dt class="figure-probes">{ "Probes in flight" }</dt>
                <dd id={ids.id("probes")} class="figure-probes">{ format!("{} of {}", s.probes_in_flight, config.half_open_probes) }</dd>
                <dt>{ "Calls it refused so far" }</dt>
                <dd id={ids.id("rejections")}>{ props.rejections }</dd>
                <dt class="figure-last">{ "Last change" }</dt>
                <dd id={ids.id("last-change")} class="figure-last">{ at.last_change.map_or("none yet".to_string(), |c| format!("{:.2} s: {}", c.at as f64 / 1e6, reason_text(c.reason))) }</dd>
            </dl>
        </div>
    }
}
