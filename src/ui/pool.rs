//! The pool as slots: orders' workers as cells that fill while busy, the queue as a column
//! that grows towards its peak, and the requests refused at once bouncing back. It follows
//! the playhead; under reduced motion nothing moves but the figures.

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::pool::PoolAt;

/// Cells in a row.
const PER_ROW: u32 = 16;
const CELL: f64 = 14.0;
const GAP: f64 = 3.0;
/// Height of the queue's column at the run's peak.
const COLUMN: f64 = 120.0;
const COLUMN_WIDTH: f64 = 26.0;

/// Properties of [`PoolSlots`].
#[derive(Properties, PartialEq)]
pub struct PoolSlotsProps {
    pub pool: PoolAt,
}

/// The cells, the queue's column and the bounce.
#[function_component(PoolSlots)]
pub fn pool_slots(props: &PoolSlotsProps) -> Html {
    let ids = use_ids();
    let p = &props.pool;
    let rows = p.cells.div_ceil(PER_ROW).max(1);
    let grid_x = COLUMN_WIDTH + 40.0;
    let grid_h = f64::from(rows) * (CELL + GAP);
    let height = grid_h.max(COLUMN) + 24.0;
    let width = grid_x + f64::from(PER_ROW) * (CELL + GAP) + 8.0;
    let cells = (0..p.cells).map(|i| {
        let (col, row) = (i % PER_ROW, i / PER_ROW);
        let busy = i < p.busy_cells;
        html! {
            <rect class={classes!("slot", busy.then_some("busy"))}
                x={format!("{:.1}", grid_x + f64::from(col) * (CELL + GAP))}
                y={format!("{:.1}", f64::from(row) * (CELL + GAP))}
                width={CELL.to_string()} height={CELL.to_string()} rx="2" />
        }
    });
    let filled = COLUMN * p.queue_share();
    let label = p.describe();
    let per_cell = (p.per_cell > 1).then(|| format!(" (a cell is {} workers)", p.per_cell));
    html! {
        <figure class="pool" id={ids.id("pool")}>
            <svg viewBox={format!("0 0 {width:.0} {height:.0}")} role="img" aria-label={label}
                preserveAspectRatio="xMinYMin meet">
                <rect class="queue-frame" x="0" y="0" width={COLUMN_WIDTH.to_string()}
                    height={COLUMN.to_string()} />
                <rect class="queue-fill" x="0" y={format!("{:.1}", COLUMN - filled)}
                    width={COLUMN_WIDTH.to_string()} height={format!("{filled:.1}")} />
                <text class="pool-text" x="0" y={format!("{:.0}", COLUMN + 18.0)}>
                    { format!("queue {}", p.queue) }</text>
                { for cells }
                if p.refused > 0 {
                    // Keyed by the count so each new slice with refusals starts the bounce again.
                    <g class="bounce" key={p.refused.to_string()}>
                        <text class="pool-text bounce-mark" x={format!("{:.0}", COLUMN_WIDTH + 4.0)}
                            y={format!("{:.0}", COLUMN / 2.0)}>{ "↩" }</text>
                    </g>
                }
            </svg>
            <figcaption id={ids.id("pool-caption")}>
                { format!("workers {} / {} busy{}", p.busy, p.cells * p.per_cell, per_cell.unwrap_or_default()) }
                { format!(" · queue {} (peak so far {})", p.queue, p.queue_peak) }
                if p.refused > 0 {
                    <span class="refused">{ format!(" · {} refused at once, bounced back", p.refused) }</span>
                }
            </figcaption>
        </figure>
    }
}
