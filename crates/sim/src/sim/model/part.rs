//! The parts of a config a parameter may need (a layer of a dependency's stack, the gateway,
//! ...): whether a config has one, and how a parameter switches it on with the lesson's values.

use super::{
    Abandon, CacheConfig, CapacityConfig, DependencyConfig, GatewayConfig, GcConfig, HostsConfig,
    OrdersIdempotency, Pattern, ServiceConfig, SimConfig, StackConfig,
};
use crate::resilience::IdempotencyConfig;
use crate::sim::pattern::Place;

/// Which dependency a parameter tunes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dep {
    /// The first one `POST /orders` calls (inventory): plain keys (`timeout`).
    First,
    /// The one named `payments`: `payments_...` keys.
    Payments,
}

/// A part of a config that may be off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The dependency itself.
    Dependency(Dep),
    /// A pattern that is a layer of the dependency's stack ([`Pattern::is_a_layer`]);
    /// switching it on switches the dependency on.
    Layer(Dep, Pattern),
    /// A dependency's capacity (its servers and their queue).
    Capacity(Dep),
    /// A cache in front of a dependency's servers (switching it on gives the dependency a
    /// capacity too).
    Cache(Dep),
    /// A dependency's hosts behind a balancer.
    Hosts(Dep),
    /// The gateway.
    Gateway,
    /// A pattern at the door of `orders` (its [`Door`] row says how).
    Door(Pattern),
    /// Idempotency keys on `POST /orders`.
    Idempotency,
    /// Garbage collection pauses in `orders`.
    Gc,
}

impl Dep {
    /// The dependency, if the config has it.
    pub fn find(self, cfg: &SimConfig) -> Option<&DependencyConfig> {
        match self {
            Dep::First => cfg.dependencies.first(),
            Dep::Payments => cfg.dependencies.iter().find(|d| d.name == "payments"),
        }
    }

    /// The dependency, switched on first if the config lacks it (inventory as the lesson's
    /// `cascade.py` has it; payments after the others, as [`DependencyConfig::lesson_payments`]).
    pub fn get(self, cfg: &mut SimConfig) -> &mut DependencyConfig {
        let index = match self {
            Dep::First => 0,
            Dep::Payments => cfg
                .dependencies
                .iter()
                .position(|d| d.name == "payments")
                .unwrap_or(usize::MAX),
        };
        if index >= cfg.dependencies.len() {
            let fresh = match self {
                Dep::First => DependencyConfig::lesson_inventory(),
                Dep::Payments => DependencyConfig::lesson_payments(),
            };
            cfg.dependencies.push(fresh);
            let last = cfg.dependencies.len() - 1;
            return &mut cfg.dependencies[last];
        }
        &mut cfg.dependencies[index]
    }

    /// Its stack, the dependency switched on first if need be.
    pub fn stack(self, cfg: &mut SimConfig) -> &mut StackConfig {
        &mut self.get(cfg).stack
    }
}

/// A pattern at the door of `orders` as a part of the config, written in its room beside its
/// descriptor (`service.rs`, listed in `model::DOORS`): whether `orders` has it, and switching
/// it on with the lesson's values or off.
#[derive(Debug, Clone, Copy)]
pub struct Door {
    /// The pattern.
    pub pattern: Pattern,
    /// The part as the usage names it, after "Switches on" or "Only with".
    pub label: &'static str,
    /// Whether the service has it.
    pub is_on: fn(&ServiceConfig) -> bool,
    /// Switches it on with the lesson's values, if it is off.
    pub switch_on: fn(&mut ServiceConfig),
    /// Switches it off, keeping nothing of its settings.
    pub switch_off: fn(&mut ServiceConfig),
}

impl Door {
    /// The door row of `pattern`, if it is a door.
    fn of(pattern: Pattern) -> Option<&'static Door> {
        super::DOORS.iter().find(|d| d.pattern == pattern)
    }
}

impl Pattern {
    /// The part of a config the pattern is: its layer of the first dependency's stack, or a
    /// door of `orders`.
    pub fn part(self) -> Part {
        if self.describe().place == Place::Door {
            Part::Door(self)
        } else {
            Part::Layer(Dep::First, self)
        }
    }

    /// Whether `cfg` uses this pattern (see [`Pattern::part`]).
    pub fn is_on(self, cfg: &SimConfig) -> bool {
        self.part().is_on(cfg)
    }
}

impl Part {
    /// Whether `cfg` has this part.
    pub fn is_on(self, cfg: &SimConfig) -> bool {
        match self {
            Part::Dependency(d) => d.find(cfg).is_some(),
            Part::Layer(d, l) => d.find(cfg).is_some_and(|d| d.stack.has(l)),
            Part::Capacity(d) => d.find(cfg).is_some_and(|d| d.capacity.is_some()),
            Part::Cache(d) => d
                .find(cfg)
                .is_some_and(|d| d.capacity.as_ref().is_some_and(|c| c.cache.is_some())),
            Part::Hosts(d) => d.find(cfg).is_some_and(|d| d.hosts.is_some()),
            Part::Gateway => cfg.gateway.is_some(),
            Part::Door(p) => Door::of(p).is_some_and(|d| (d.is_on)(&cfg.service)),
            Part::Idempotency => cfg.service.idempotency.is_some(),
            Part::Gc => cfg.service.gc.is_some(),
        }
    }

    /// Switches the part on with the lesson's values, if it is off.
    pub fn switch_on(self, cfg: &mut SimConfig) {
        match self {
            Part::Dependency(d) => {
                d.get(cfg);
            }
            Part::Layer(d, l) => d.stack(cfg).switch_on(l),
            Part::Capacity(d) => {
                d.get(cfg).capacity.get_or_insert(CapacityConfig {
                    slots: 8,
                    queue: None,
                    abandon: Abandon::Keep,
                    restart_at_recovery: false,
                    hot_items: None,
                    cache: None,
                });
            }
            Part::Cache(d) => {
                Part::Capacity(d).switch_on(cfg);
                if let Some(capacity) = d.get(cfg).capacity.as_mut() {
                    capacity.cache.get_or_insert(CacheConfig {
                        flush_at: None,
                        ..CacheConfig::zoo()
                    });
                }
            }
            Part::Hosts(d) => {
                d.get(cfg).hosts.get_or_insert(HostsConfig {
                    one_fails_at: None,
                    ..HostsConfig::zoo()
                });
            }
            Part::Gateway => {
                cfg.gateway.get_or_insert(GatewayConfig::new(200, None));
            }
            Part::Door(p) => {
                if let Some(door) = Door::of(p) {
                    (door.switch_on)(&mut cfg.service);
                }
            }
            Part::Gc => {
                cfg.service.gc.get_or_insert_with(GcConfig::spiral);
            }
            Part::Idempotency => {
                cfg.service
                    .idempotency
                    .get_or_insert_with(|| OrdersIdempotency {
                        key: true,
                        store: IdempotencyConfig::lesson_000(),
                    });
            }
        }
    }

    /// Switches the part off, keeping nothing of its settings; the first dependency stays (a
    /// config needs one).
    pub fn switch_off(self, cfg: &mut SimConfig) {
        match self {
            Part::Dependency(Dep::First) => {}
            Part::Dependency(Dep::Payments) => cfg.dependencies.retain(|d| d.name != "payments"),
            Part::Layer(d, l) => {
                if Part::Dependency(d).is_on(cfg) {
                    d.stack(cfg).switch_off(l);
                }
            }
            Part::Capacity(d) => {
                if Part::Dependency(d).is_on(cfg) {
                    d.get(cfg).capacity = None;
                }
            }
            Part::Cache(d) => {
                if Part::Dependency(d).is_on(cfg) {
                    if let Some(capacity) = d.get(cfg).capacity.as_mut() {
                        capacity.cache = None;
                    }
                }
            }
            Part::Hosts(d) => {
                if Part::Dependency(d).is_on(cfg) {
                    d.get(cfg).hosts = None;
                }
            }
            Part::Gateway => cfg.gateway = None,
            Part::Door(p) => {
                if let Some(door) = Door::of(p) {
                    (door.switch_off)(&mut cfg.service);
                }
            }
            Part::Idempotency => cfg.service.idempotency = None,
            Part::Gc => cfg.service.gc = None,
        }
    }

    /// What a config lacks while this part is off (`"no timeout"`).
    pub fn missing(self) -> &'static str {
        match self {
            Part::Dependency(Dep::First) => "no dependency",
            Part::Dependency(Dep::Payments) => "no payments",
            Part::Layer(_, pattern) => pattern.describe().missing,
            Part::Door(pattern) => pattern.describe().missing,
            Part::Capacity(_) => "no capacity (it serves every call at once)",
            Part::Cache(_) => "no cache",
            Part::Hosts(_) => "one host",
            Part::Gateway => "no gateway",
            Part::Idempotency => "no idempotency keys",
            Part::Gc => "no garbage collection pauses",
        }
    }

    /// The part as the usage names it (`inventory's circuit breaker`).
    pub fn label(self) -> String {
        match self {
            Part::Dependency(Dep::First) => "inventory".to_string(),
            Part::Dependency(Dep::Payments) => "payments".to_string(),
            Part::Layer(Dep::First, l) => format!("inventory's {}", l.name()),
            Part::Layer(Dep::Payments, l) => format!("payments' {}", l.name()),
            Part::Capacity(Dep::First) => "inventory's capacity".to_string(),
            Part::Capacity(Dep::Payments) => "payments' capacity".to_string(),
            Part::Cache(Dep::First) => "inventory's cache".to_string(),
            Part::Cache(Dep::Payments) => "payments' cache".to_string(),
            Part::Hosts(Dep::First) => "inventory's hosts".to_string(),
            Part::Hosts(Dep::Payments) => "payments' hosts".to_string(),
            Part::Gateway => "the gateway".to_string(),
            Part::Door(p) => Door::of(p).map_or(p.name(), |d| d.label).to_string(),
            Part::Idempotency => "idempotency keys".to_string(),
            Part::Gc => "the garbage collection pauses of orders".to_string(),
        }
    }
}
