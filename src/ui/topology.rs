//! The topology strip: Anna -> Kong -> orders -> inventory, with fill meters at the playhead.

use yew::prelude::*;

use super::ids::use_ids;

use crate::page::replay::{Frame, RouteAt};
use crate::page::topology::{inventory_health, traffic_mix, InventoryHealth};
use crate::sim::model::SimConfig;

/// Properties of [`Topology`].
#[derive(Properties, PartialEq)]
pub struct TopologyProps {
    pub config: SimConfig,
    pub frame: Frame,
    /// The order lookups at the playhead, when the run has them.
    #[prop_or_default]
    pub lookups: Option<RouteAt>,
}

fn meter(id: AttrValue, label: String, value: u64, max: u64) -> Html {
    let pct = if max == 0 {
        0.0
    } else {
        (value as f64 * 100.0 / max as f64).min(100.0)
    };
    let full = max > 0 && value >= max;
    let name = label.clone();
    html! {
        <div class="meter-row">
            <span class="meter-label">{ label }</span>
            <div class={classes!("meter", full.then_some("full"))} {id} role="meter"
                aria-label={name} aria-valuemin="0" aria-valuemax={max.to_string()} aria-valuenow={value.to_string()}>
                <div class="fill" style={format!("width: {pct:.1}%")} />
            </div>
        </div>
    }
}

/// Four boxes in a row with the arrows between them.
#[function_component(Topology)]
pub fn topology(props: &TopologyProps) -> Html {
    let ids = use_ids();
    let c = &props.config;
    let s = &props.frame.slice;
    let health = inventory_health(c, props.frame.at);
    let sick = health == InventoryHealth::Sick;
    let faults = c.first().map(|d| &d.faults);
    let latency = faults.map_or(0, |f| if sick { f.slow } else { f.fast });
    let lookups = props.lookups.map(|l| {
        let p99 = l.p99.map_or("no answer yet".to_string(), |p| {
            format!("p99 {}", crate::page::numbers::duration(p))
        });
        html! {
            <p id={ids.id("lookups")}>{ format!("order lookups: {} answered, {} waiting, {p99}", l.ok, l.waiting) }</p>
        }
    });
    let in_progress = s.inventory_in_progress;
    let bulkhead = c.first_stack().and_then(|s| s.bulkhead.as_ref()).map(|b| {
        meter(
            ids.id("meter-bulkhead"),
            format!(
                "bulkhead {} / {} in use, {} waiting",
                s.bulkhead_in_use, b.permits, s.bulkhead_waiting
            ),
            u64::from(s.bulkhead_in_use),
            u64::from(b.permits),
        )
    });
    let servers = props.frame.servers.map(|sv| {
        html! {
            <>
                { meter(ids.id("meter-inventory-slots"),
                    format!("slots {} / {} busy, {} queued", sv.busy, sv.slots, sv.queued),
                    u64::from(sv.busy), u64::from(sv.slots)) }
                <p id={ids.id("inventory-goodput")}>{ format!("served {}/s, of which {}/s still awaited", sv.served, sv.goodput) }</p>
            </>
        }
    });
    let gateway = match &c.gateway {
        Some(g) => meter(
            ids.id("meter-gateway"),
            format!("pool {} / {} connections in use", s.gateway_in_use, g.pool),
            u64::from(s.gateway_in_use),
            u64::from(g.pool),
        ),
        None => html! {
            <p id={ids.id("gateway-not-modelled")}>{ "connection pool (not modelled): every request passes" }</p>
        },
    };
    html! {
        <div class="topology" role="group" aria-label="The path of a request at the playhead">
            <div class="node-box">
                <h3>{ "Anna" }</h3>
                <p id={ids.id("traffic-mix")}>{ traffic_mix(c) }</p>
            </div>
            <span class="link" aria-hidden="true">{ "→" }</span>
            <div class="node-box">
                <h3>{ "Kong" }</h3>
                { gateway }
            </div>
            <span class="link" aria-hidden="true">{ "→" }</span>
            <div class="node-box">
                <h3>{ "orders" }</h3>
                { meter(ids.id("meter-workers"), format!("workers {} / {} busy", s.workers_busy, c.service.threads), u64::from(s.workers_busy), u64::from(c.service.threads)) }
                <p id={ids.id("queue-length")}>{ format!("queue: {} waiting", s.queue_len) }</p>
                { bulkhead.unwrap_or_default() }
                { lookups.unwrap_or_default() }
            </div>
            <span class="link" aria-hidden="true">{ "→" }</span>
            <div class={classes!("node-box", sick.then_some("sick"))}>
                <h3>{ "inventory" }</h3>
                <p id={ids.id("inventory-latency")}>{ format!("answers in {} ms ({})", latency / 1000, health.label()) }</p>
                <p id={ids.id("inventory-in-progress")}>{ format!("{in_progress} {} in progress", if in_progress == 1 { "call" } else { "calls" }) }</p>
                <p id={ids.id("inventory-rate")}>{ format!("{} started in the last second", props.frame.inventory_rate) }</p>
                { servers.unwrap_or_default() }
            </div>
        </div>
    }
}
