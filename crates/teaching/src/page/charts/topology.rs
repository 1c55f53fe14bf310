//! What the topology strip says about the run's config at a playhead: the traffic Anna's side
//! sends, and whether inventory is healthy, sick or healthy again.

use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;

/// Inventory's state at a playhead, by its fault schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InventoryHealth {
    /// Before it degrades.
    Healthy,
    /// Degraded: calls starting now get the slow latency.
    Sick,
    /// After its recovery (the Saturday's failover).
    Recovered,
}

impl InventoryHealth {
    /// The word the inventory box shows.
    pub fn label(self) -> &'static str {
        match self {
            InventoryHealth::Healthy => "healthy",
            InventoryHealth::Sick => "sick",
            InventoryHealth::Recovered => "healthy again",
        }
    }
}

/// Inventory at `at`: sick for calls starting strictly after `degrade_at` up to `recover_at`
/// included, as the simulator draws them.
pub fn inventory_health(cfg: &SimConfig, at: Micros) -> InventoryHealth {
    let faults = cfg.first().map(|d| &d.faults);
    match faults.and_then(|f| f.recover_at) {
        Some(r) if at > r => InventoryHealth::Recovered,
        _ if faults.and_then(|f| f.degrade_at).is_some_and(|d| at > d) => InventoryHealth::Sick,
        _ => InventoryHealth::Healthy,
    }
}

fn per_second(v: f64) -> String {
    if (v - v.round()).abs() < 0.05 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// The requests sent per second, by kind: "100 orders/s + 25 order lookups/s".
pub fn traffic_mix(cfg: &SimConfig) -> String {
    let (rate, routes) = (cfg.traffic.rate, &cfg.routes);
    let orders = rate * (1.0 - routes.catalog_share - routes.history_share).max(0.0);
    let mut parts = vec![format!("{} orders/s", per_second(orders))];
    if routes.history_share > 0.0 {
        parts.push(format!(
            "{} order lookups/s",
            per_second(rate * routes.history_share)
        ));
    }
    if routes.catalog_share > 0.0 {
        parts.push(format!(
            "{} GET /catalog/s",
            per_second(rate * routes.catalog_share)
        ));
    }
    parts.join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::{Preset, Scenario};

    #[test]
    fn inventory_is_healthy_again_after_the_failover() {
        let cfg = Preset::Saturday.config();
        let (sick, back) = (
            cfg.first().unwrap().faults.degrade_at.unwrap(),
            cfg.first().unwrap().faults.recover_at.unwrap(),
        );
        assert_eq!(inventory_health(&cfg, sick), InventoryHealth::Healthy);
        assert_eq!(inventory_health(&cfg, sick + 1), InventoryHealth::Sick);
        assert_eq!(inventory_health(&cfg, back), InventoryHealth::Sick);
        assert_eq!(inventory_health(&cfg, back + 1), InventoryHealth::Recovered);
        let lesson = Scenario::None.config();
        assert_eq!(
            inventory_health(&lesson, 3_600_000_000),
            InventoryHealth::Sick
        );
    }

    #[test]
    fn the_traffic_is_split_by_kind() {
        let story = Preset::StoryNone.config();
        assert_eq!(traffic_mix(&story), "100 orders/s + 25 order lookups/s");
        assert_eq!(
            traffic_mix(&Preset::Saturday.config()),
            "100 orders/s + 25 GET /catalog/s"
        );
        assert_eq!(traffic_mix(&Scenario::Cb.config()), "100 orders/s");
    }
}
