//! Properties of the simulator over random configurations: every request is counted exactly
//! once, the same seed gives the same Trace, nothing panics, and a run that would go on too
//! long stops with a clear error.

use proptest::prelude::*;
use resilience_playground::resilience::{
    BreakerConfig, BulkheadConfig, Delay, FallbackPolicy, HalfOpenRule, HedgePolicy,
    IdempotencyConfig, Jitter, LoadShedConfig, RetryBudgetConfig, RetryPolicy, TokenBucketConfig,
    Window,
};
use resilience_playground::sim::config_file::{CascadeConfig, PaymentsConfig};
use resilience_playground::sim::engine::EngineError;
use resilience_playground::sim::life::{Activity, Happening};
use resilience_playground::sim::model::{
    follow, run, run_with_cap, Abandon, Arrivals, CacheConfig, CacheFill, CapacityConfig,
    ClosedLoop, GatewayConfig, GcConfig, HedgeConfig, HistoryBulkhead, HostsConfig,
    OrdersIdempotency, OutlierDetection, PriorityMix, QueueOrder, Resilience4jStack, RoomLayers,
    RunError, SidecarConfig, COPIES_SENT, COPIES_WON,
};
use resilience_playground::sim::trace::{Outcome, Trace};

const MS: u64 = 1_000;
const SECOND: u64 = 1_000_000;

/// A dependency's capacity as drawn: slots, queue bound, drop, restart, hot items.
type CapacityDraw = (u32, Option<u32>, bool, bool, Option<u32>);

/// A random configuration, drawn in the flat form of old files (one struct, every field at
/// hand) and run as the simulator holds it (`to_sim`).
fn config() -> impl Strategy<Value = CascadeConfig> {
    let load = (
        1.0f64..400.0,
        1u32..48,
        100u64..4_000,
        0u64..3_000,
        0u64..200,
        0u64..3_000,
        prop::option::of(1u64..500),
        any::<u64>(),
        any::<bool>(),
        any::<bool>(),
    );
    let stack = (
        prop::option::of((1u64..5_000, 1u32..30, 0.1f64..1.0, 1u64..3_000, 1u32..5)),
        prop::option::of((1u32..16, 0u64..100)),
        prop::option::of((
            1u32..4,
            1u64..100,
            prop_oneof![
                Just(Jitter::None),
                Just(Jitter::Full),
                Just(Jitter::Equal),
                Just(Jitter::Decorrelated)
            ],
        )),
        any::<bool>(),
        prop::option::of(1u64..1_000),
        any::<bool>(),
    );
    let faults = (
        prop::option::of(1u64..5),
        prop::option::of(0u64..4_000),
        0.0f64..1.0,
        0.0f64..1.0,
        any::<bool>(),
    );
    let edge = (
        prop::option::of(1u64..3_000),
        0u32..3,
        0u64..500,
        prop::option::of((
            1u32..100,
            prop::option::of(1u64..3_000),
            prop::option::of(1u64..3_000),
            0u32..3,
        )),
        0.0f64..0.5,
        0.0f64..0.5,
        0u8..3,
        any::<bool>(),
        prop::option::of(1u64..50),
        0.0f64..0.5,
    );
    let sidecar = prop::option::of((0u32..3, prop::option::of(1u64..400)));
    // A hedge after a fixed delay (ms) or at an observed percentile, with 1 or 2 extra copies.
    let hedge = prop::option::of((
        prop_oneof![
            (1u64..400).prop_map(|d| Delay::Fixed(d * MS)),
            (50.0f64..100.0, 1u64..50).prop_map(|(percentile, min_samples)| {
                Delay::Percentile {
                    percentile,
                    min_samples,
                }
            }),
        ],
        1u32..3,
    ));
    let idempotency = prop::option::of((any::<bool>(), 1u64..30));
    // Payments: latency (ms) healthy and degraded, lognormal or fixed, a fault schedule, and
    // its own timeout, breaker, bulkhead and retries.
    let payments = prop::option::of((
        (0u64..200, 0u64..3_000, prop::option::of(1u64..5)),
        (
            prop::option::of(0u64..4_000),
            prop::option::of(0u64..4_000),
            0.0f64..1.0,
        ),
        (
            prop::option::of(1u64..500),
            prop::option::of((1u64..5_000, 1u32..30, 0.1f64..1.0, 1u64..3_000, 1u32..5)),
            prop::option::of((1u32..16, 0u64..100)),
            prop::option::of(1u32..4),
        ),
    ));
    // Inventory's capacity: slots, a queue bound, dropping abandoned work, a restart at
    // recovery, hot items; orders skipping requests whose client has gone; payments' capacity.
    let capacity = (
        prop::option::of((
            1u32..40,
            prop::option::of(0u32..60),
            any::<bool>(),
            any::<bool>(),
            prop::option::of(1u32..8),
        )),
        any::<bool>(),
        prop::option::of((
            1u32..40,
            prop::option::of(0u32..60),
            any::<bool>(),
            any::<bool>(),
            prop::option::of(1u32..8),
        )),
        // A rate limit at the door of orders: requests a second, burst.
        prop::option::of((1u32..200, 1u32..50)),
    );
    (
        load,
        stack,
        faults,
        edge,
        sidecar,
        hedge,
        idempotency,
        payments,
        capacity,
    )
        .prop_map(
            |(load, stack, faults, edge, sidecar, hedge, idempotency, payments, capacity)| {
                let (inventory_capacity, orders_drop, payments_capacity, rate_limit) = capacity;
                let capacity_of = |c: Option<CapacityDraw>| {
                    c.map(|(slots, queue, drop, restart, hot_items)| CapacityConfig {
                        slots,
                        queue,
                        abandon: if drop { Abandon::Drop } else { Abandon::Keep },
                        restart_at_recovery: restart,
                        hot_items,
                        cache: None,
                    })
                };
                let (
                    rate,
                    threads,
                    duration,
                    degrade_at,
                    fast,
                    slow,
                    timeout,
                    seed,
                    drain,
                    poisson,
                ) = load;
                let (breaker, bulkhead, retry, retry_budget, request_budget, fallback) = stack;
                let (p99_factor, recover_after, error_rate, business_error_rate, trip) = faults;
                let (
                    give_up,
                    fe_retries,
                    fe_backoff,
                    gateway,
                    catalog,
                    history,
                    history_bh,
                    shed,
                    queue_limit,
                    high,
                ) = edge;
                CascadeConfig {
                    rate,
                    threads,
                    duration: duration * MS,
                    degrade_at: degrade_at * MS,
                    fast: fast * MS,
                    slow: slow * MS,
                    timeout: timeout.map(|t| t * MS),
                    breaker: breaker.map(|(window, min_calls, failure_ratio, cooldown, probes)| {
                        BreakerConfig {
                            window: Window::Time(window * MS),
                            min_calls,
                            failure_ratio,
                            cooldown: cooldown * MS,
                            half_open_probes: probes,
                            ..BreakerConfig::lesson_000()
                        }
                    }),
                    bulkhead: bulkhead.map(|(permits, max_wait)| BulkheadConfig {
                        permits,
                        max_wait: max_wait * MS,
                        ..BulkheadConfig::cascade_sim()
                    }),
                    seed,
                    drain,
                    record_requests: true,
                    arrivals: if poisson {
                        Arrivals::Poisson
                    } else {
                        Arrivals::Even
                    },
                    fast_p99: p99_factor.filter(|_| fast > 0).map(|f| fast * MS * f),
                    slow_p99: p99_factor.filter(|_| slow > 0).map(|f| slow * MS * f),
                    recover_at: recover_after.map(|r| (degrade_at + r) * MS),
                    error_rate,
                    business_error_rate,
                    business_errors_trip_breaker: trip,
                    retry: retry.map(|(attempts, base, jitter)| RetryPolicy {
                        attempts,
                        base: base * MS,
                        cap: 4 * base * MS,
                        jitter,
                    }),
                    retry_budget: retry_budget.then(RetryBudgetConfig::lesson_000),
                    sidecar: sidecar.map(|(retries, per_try)| SidecarConfig {
                        retries,
                        per_try_timeout: per_try.map(|t| t * MS),
                        ..SidecarConfig::lesson_000()
                    }),
                    request_budget: request_budget.map(|b| b * MS),
                    fallback: fallback.then(FallbackPolicy::reserve_stock),
                    client_give_up: give_up.map(|g| g * MS),
                    frontend_retries: fe_retries,
                    frontend_backoff: fe_backoff * MS,
                    gateway: gateway.map(|(pool, route_timeout, orders_timeout, retries)| {
                        let mut g = GatewayConfig::new(pool, route_timeout.map(|t| t * MS));
                        g.route_timeouts.orders = orders_timeout.map(|t| t * MS);
                        g.retries = retries;
                        g
                    }),
                    catalog_share: catalog,
                    catalog_latency: 20 * MS,
                    history_share: history,
                    history_latency: 10 * MS,
                    history_bulkhead: match history_bh {
                        0 => HistoryBulkhead::None,
                        1 => HistoryBulkhead::Shared,
                        _ => HistoryBulkhead::Own(BulkheadConfig::northwind_order_history()),
                    },
                    load_shed: shed.then(|| LoadShedConfig {
                        low: threads / 3,
                        normal: threads * 2 / 3,
                        high: threads,
                        ..LoadShedConfig::lesson_000()
                    }),
                    rate_limit: rate_limit.map(|(rate, burst)| TokenBucketConfig {
                        rate_per_sec: f64::from(rate),
                        burst,
                    }),
                    priority_mix: PriorityMix { high, low: 0.3 },
                    queue_limit,
                    rooms: RoomLayers {
                        hedge: hedge.map(|(delay, max_hedges)| HedgeConfig {
                            policy: HedgePolicy { delay, max_hedges },
                            idempotency_key: true,
                        }),
                        ..RoomLayers::default()
                    },
                    idempotency: idempotency.map(|(key, ttl)| OrdersIdempotency {
                        key,
                        store: IdempotencyConfig { ttl: ttl * SECOND },
                    }),
                    resilience4j: None,
                    payments: payments.map(
                        |((fast, slow, p99), (degrade_at, recover_after, error_rate), protect)| {
                            let (timeout, breaker, bulkhead, attempts) = protect;
                            PaymentsConfig {
                                fast: fast * MS,
                                fast_p99: p99.filter(|_| fast > 0).map(|f| fast * MS * f),
                                slow: slow * MS,
                                slow_p99: p99.filter(|_| slow > 0).map(|f| slow * MS * f),
                                degrade_at: degrade_at.map(|d| d * MS),
                                recover_at: degrade_at
                                    .zip(recover_after)
                                    .map(|(d, r)| (d + r) * MS),
                                error_rate,
                                timeout: timeout.map(|t| t * MS),
                                breaker: breaker.map(
                                    |(window, min_calls, failure_ratio, cooldown, probes)| {
                                        BreakerConfig {
                                            window: Window::Time(window * MS),
                                            min_calls,
                                            failure_ratio,
                                            cooldown: cooldown * MS,
                                            half_open_probes: probes,
                                            ..BreakerConfig::lesson_000()
                                        }
                                    },
                                ),
                                bulkhead: bulkhead.map(|(permits, max_wait)| BulkheadConfig {
                                    permits,
                                    max_wait: max_wait * MS,
                                    ..BulkheadConfig::cascade_sim()
                                }),
                                retry: attempts.map(|attempts| RetryPolicy {
                                    attempts,
                                    ..RetryPolicy::lesson_000()
                                }),
                                capacity: capacity_of(payments_capacity),
                            }
                        },
                    ),
                    capacity: capacity_of(inventory_capacity),
                    orders_abandon: if orders_drop {
                        Abandon::Drop
                    } else {
                        Abandon::Keep
                    },
                }
            },
        )
}

fn check_counts(c: &CascadeConfig, t: &Trace) {
    assert_eq!(t.outcomes.total(), t.sent, "{:?}", t.outcomes);
    assert_eq!(t.requests.len() as u64, t.sent);
    let by_route: u64 = t.routes.iter().map(|r| r.outcomes.total()).sum();
    assert_eq!(by_route, t.sent);
    let answered: u64 = t.end_to_end_histograms.values().map(|h| h.count()).sum();
    assert_eq!(answered + t.outcomes.unfinished, t.sent);
    if !t.series_truncated {
        let arrivals: u64 = t.series.iter().map(|b| b.arrivals).sum();
        let done: u64 = t.series.iter().map(|b| b.completions.total()).sum();
        assert_eq!(arrivals, t.sent);
        assert_eq!(done + t.outcomes.unfinished, t.sent);
    }
    if c.drain {
        assert_eq!(t.outcomes.unfinished, 0);
    }
    for r in &t.requests {
        assert_eq!(r.finished.is_none(), r.outcome.name() == "unfinished");
        assert!(r.finished.is_none_or(|f| f >= r.arrived));
    }
    if let Some(g) = &c.gateway {
        assert!(t.series.iter().all(|b| b.gateway_in_use <= g.pool));
        // Each request is tried at most `retries` more times by the gateway.
        assert!(t.gateway_retries <= t.sent * u64::from(g.retries));
    } else {
        assert_eq!(t.gateway_retries, 0);
    }
    assert!(t.series.iter().all(|b| b.workers_busy <= c.threads));
    let hedges_sent = t.total(COPIES_SENT).unwrap_or(0);
    if !t.series_truncated {
        let calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
        // A gateway retry is a copy of its request at `orders`, with calls of its own.
        let tries = t.sent + t.gateway_retries + t.library_retries + t.sidecar_retries;
        assert!(calls <= tries + hedges_sent);
    }
    assert_eq!(t.total(COPIES_SENT).is_some(), c.rooms.hedge.is_some());
    assert_eq!(t.orders.is_some(), c.idempotency.is_some());
    assert_eq!(t.payments.is_some(), c.payments.is_some());
    let payments_calls: u64 = t.series.iter().map(|b| b.payments_calls).sum();
    if let Some(p) = &t.payments {
        if !t.series_truncated {
            assert_eq!(payments_calls, p.calls);
        }
        // A copy fails at payments at most once, and `orders` answers it with the matching
        // outcome (whether or not its client still waits).
        let worked = |o: Outcome| t.service_histograms.get(&o).map_or(0, |h| h.count());
        assert!(p.timeouts <= worked(Outcome::Timeout), "{p:?}");
        assert!(p.errors <= worked(Outcome::DependencyError), "{p:?}");
        assert!(
            p.rejected <= worked(Outcome::CircuitOpen) + worked(Outcome::BulkheadFull),
            "{p:?}"
        );
        // Each payments try is a request's first or one of the library's retries.
        let tries = t.sent + t.gateway_retries + t.library_retries;
        assert!(p.calls <= tries, "{p:?}");
    } else {
        assert_eq!(payments_calls, 0);
    }
    if let (Some(o), Some(i)) = (t.orders, &c.idempotency) {
        // Only copies make duplicates: the front end's and the gateway's.
        let copies = t.frontend_retries + t.gateway_retries;
        assert!(o.duplicates <= o.created && o.duplicates <= copies, "{o:?}");
        assert!(o.recognised <= copies, "{o:?}");
        if !i.key {
            assert_eq!(o.recognised, 0);
        } else if t.end < i.store.ttl {
            // No key expired: no order was processed twice.
            assert_eq!(o.duplicates, 0, "{o:?}");
        }
    }
    let capacities = [
        c.capacity.as_ref(),
        c.payments.as_ref().and_then(|p| p.capacity.as_ref()),
    ];
    assert_eq!(
        t.dependencies.iter().filter(|d| d.load.is_some()).count(),
        capacities.iter().flatten().count()
    );
    assert!(t.recovery.is_some(), "every run looks for its recovery");
    for (d, cap) in t.dependencies.iter().zip(capacities) {
        let Some(load) = &d.load else { continue };
        let cap = cap.expect("a load only for a dependency with a capacity");
        // Every call that reached it (a hedge too) is counted once at the dependency too.
        let hedges = if d.name == "inventory" {
            hedges_sent
        } else {
            0
        };
        // (Those its cache took never reached a slot.)
        assert_eq!(
            load.served + load.dropped + load.refused + load.left + load.cached.unwrap_or(0),
            d.totals.calls + hedges,
            "{}: {load:?}",
            d.name
        );
        assert!(load.goodput <= load.served);
        // A conflict is a call served in full whose write was refused: never goodput.
        assert_eq!(load.conflicts.is_some(), cap.hot_items.is_some());
        let conflicts = load.conflicts.unwrap_or(0);
        assert!(
            load.goodput + conflicts <= load.served,
            "{}: {load:?}",
            d.name
        );
        assert!(load.busy_per_bucket.iter().all(|&b| b <= cap.slots));
        if let Some(bound) = cap.queue {
            assert!(load.queue_per_bucket.iter().all(|&q| q <= u64::from(bound)));
        } else if !cap.restart_at_recovery {
            assert_eq!(load.refused, 0);
        }
        if cap.abandon == Abandon::Keep {
            assert_eq!(load.dropped, 0);
        } else {
            // The deadline travels with the call: nothing is served past it.
            assert_eq!(load.served_late, 0, "{}: {load:?}", d.name);
        }
        if c.drain && !t.series_truncated {
            assert_eq!(load.left, 0);
        }
        if !t.series_truncated {
            assert_eq!(load.served_per_bucket.iter().sum::<u64>(), load.served);
            assert_eq!(load.goodput_per_bucket.iter().sum::<u64>(), load.goodput);
            assert_eq!(load.conflicts_per_bucket.iter().sum::<u64>(), conflicts);
        }
    }
    if let Some(r) = t.recovery {
        assert!(r
            .recovered_after
            .is_none_or(|a| r.trigger_end.saturating_add(a) <= t.end));
    }
    if c.orders_abandon == Abandon::Keep {
        assert_eq!(t.stale_skipped, 0);
    }
    let copies = t.total(COPIES_SENT).zip(t.total(COPIES_WON));
    if let (Some((sent, won)), Some(hc)) = (copies, &c.rooms.hedge) {
        assert!(won <= sent, "{won} of {sent}");
        // Each try sends at most `max_hedges` hedges, and there is one try per call that is
        // not a hedge.
        let tries = t.sent + t.gateway_retries + t.library_retries + t.sidecar_retries;
        assert!(sent <= tries * u64::from(hc.policy.max_hedges), "{sent}");
    }
}

/// The same run through Resilience4j's stack: the layers it has no place for off, its
/// half-open rule, and lesson 004's settings as written or as meant.
fn through_resilience4j(mut c: CascadeConfig, meant: bool, frees: bool) -> CascadeConfig {
    c.sidecar = None;
    c.rooms.hedge = None;
    c.retry_budget = None;
    c.request_budget = None;
    c.business_errors_trip_breaker = false;
    if let Some(r) = c.retry.as_mut() {
        r.jitter = Jitter::None;
    }
    if let Some(b) = c.breaker.as_mut() {
        b.half_open_rule = HalfOpenRule::RateOverPermitted;
    }
    let mut settings = if meant {
        Resilience4jStack::lesson_004_as_meant()
    } else {
        Resilience4jStack::lesson_004_as_written()
    };
    settings.time_limiter_frees_permit = frees;
    c.resilience4j = Some(settings);
    c
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn resilience4j_counts_every_request_once_and_gives_every_permit_back(
        c in config(),
        meant in any::<bool>(),
        frees in any::<bool>(),
    ) {
        let c = through_resilience4j(c, meant, frees);
        match run(&c.to_sim()) {
            Ok(t) => {
                check_counts(&c, &t);
                prop_assert_eq!(&t, &run(&c.to_sim()).unwrap());
                // Each copy of a request retries each dependency at most attempts - 1 times.
                let retries_per_copy: u64 = [c.retry, c.payments.as_ref().and_then(|p| p.retry)]
                    .iter()
                    .flatten()
                    .map(|r| u64::from(r.attempts) - 1)
                    .sum();
                let copies = t.sent + t.gateway_retries + t.frontend_retries;
                prop_assert!(t.library_retries <= copies * retries_per_copy);
                if c.drain && !t.series_truncated {
                    // The calls the time limiter stopped waiting for have all answered and
                    // handed their permits back.
                    let last = t.series.last().map_or(0, |b| b.bulkhead_in_use);
                    prop_assert_eq!(last, 0);
                }
            }
            Err(RunError::Param(e)) => prop_assert!(!e.field.is_empty() && !e.range.is_empty()),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }

    #[test]
    fn a_followed_request_adds_up_and_changes_nothing(
        c in config(),
        resilience4j in any::<bool>(),
        meant in any::<bool>(),
        frees in any::<bool>(),
        which in any::<prop::sample::Index>(),
    ) {
        let c = if resilience4j { through_resilience4j(c, meant, frees) } else { c };
        let mut cfg = c.to_sim();
        cfg.run.record_requests = true;
        let Ok(t) = run(&cfg) else {
            return Ok(());
        };
        if t.requests.is_empty() {
            return Ok(());
        }
        let id = t.requests[which.index(t.requests.len())].id;
        let (followed, life) = follow(&cfg, id).unwrap();
        prop_assert_eq!(&followed, &t);
        let life = life.unwrap();
        let (gap, overlap) = (life.first_gap(), life.first_overlap());
        prop_assert_eq!(gap, None, "{:?}", life);
        prop_assert_eq!(overlap, None, "{:?}", life);
        let last = t.requests.iter().rev().find(|r| r.id == id).unwrap();
        prop_assert_eq!(life.answered.map_or(Outcome::Unfinished, |a| a.1), last.outcome);
        prop_assert!(life.spans.iter().all(|s| s.from < s.to && s.to <= t.end));
        if life.last_copy() == 0 {
            // One copy: a worker took it when the log says, and its wait in the queue ended then.
            let took_up = life.first(Activity::Worker).map(|(from, _)| from);
            if took_up.is_some() {
                prop_assert_eq!(took_up, last.started);
            }
            let queue_end = life.first(Activity::Queued).map(|(_, to)| to);
            let skipped = life.find(|h| *h == Happening::Skipped).is_some();
            if let (Some(end), false) = (queue_end, skipped) {
                prop_assert_eq!(end, last.started.unwrap_or(t.end));
            }
        }
    }

    #[test]
    fn every_request_is_counted_once_and_the_seed_replays(c in config()) {
        match run(&c.to_sim()) {
            Ok(t) => {
                check_counts(&c, &t);
                prop_assert_eq!(&t, &run(&c.to_sim()).unwrap());
                let json = serde_json::to_string(&t).unwrap();
                let back: Trace = serde_json::from_str(&json).unwrap();
                prop_assert_eq!(back, t);
            }
            // A generated combination may be out of range; then it must say which field.
            Err(RunError::Param(e)) => prop_assert!(!e.field.is_empty() && !e.range.is_empty()),
            Err(e) => prop_assert!(false, "{e}"),
        }
    }

    #[test]
    fn the_zoos_parts_count_every_request_once_and_replay(
        c in config(),
        order in 0usize..3,
        closed in any::<bool>(),
        clients in 1u32..200,
        think in 0u64..2_000,
        gc in prop::option::of((1u64..500, 1u64..500)),
        cache in prop::option::of((1u32..500, 0u64..50, prop::option::of(0u64..20_000), any::<bool>())),
        hosts in prop::option::of((2u32..8, prop::option::of(0u64..20_000), prop::option::of((1u32..10, 1u64..5_000)))),
    ) {
        let mut cfg = c.to_sim();
        if let Some((count, fails, detection)) = hosts {
            cfg.first_mut().hosts = Some(HostsConfig {
                count,
                one_fails_at: fails.map(|f| f * MS),
                outlier_detection: detection.map(|(errors, ejection)| OutlierDetection {
                    consecutive_errors: errors,
                    base_ejection: ejection * MS,
                }),
            });
        }
        if let (Some(capacity), Some((items, hit, flush, coalesce))) =
            (cfg.first_mut().capacity.as_mut(), cache)
        {
            capacity.cache = Some(CacheConfig {
                items,
                hit: hit * MS,
                flush_at: flush.map(|f| f * MS),
                fill: if coalesce { CacheFill::Coalesce } else { CacheFill::Caller },
            });
        }
        cfg.service.queue_order = QueueOrder::ALL[order];
        if closed {
            cfg.traffic.arrivals = Arrivals::Closed;
            cfg.traffic.closed_loop = ClosedLoop { clients, think_time: think * MS };
        }
        cfg.service.gc = gc.map(|(threshold, pause)| GcConfig { threshold, pause: pause * MS });
        match run(&cfg) {
            Ok(t) => {
                check_counts(&c, &t);
                prop_assert_eq!(&t, &run(&cfg).unwrap());
                if closed && cfg.gateway.is_none() && c.client_give_up.is_none() {
                    // A client that waits for its answer has one request at a time in orders.
                    let held = |b: &resilience_playground::sim::trace::Bucket| {
                        u64::from(b.workers_busy) + b.queue_len
                    };
                    let most = t.series.iter().map(held).max().unwrap_or(0);
                    prop_assert!(most <= u64::from(clients), "{} held, {} clients", most, clients);
                }
            }
            Err(RunError::Param(e)) => prop_assert!(!e.field.is_empty() && !e.range.is_empty()),
            // Clients that never think against a dependency that answers at once send without
            // end at one moment: the event cap stops them.
            Err(RunError::Engine(e)) => prop_assert!(closed, "{e}"),
        }
    }

    #[test]
    fn a_small_event_cap_is_an_error_never_a_hang(c in config(), cap in 1u64..200) {
        match run_with_cap(&c.to_sim(), cap) {
            Ok(t) => prop_assert!(t.events <= cap),
            Err(RunError::Engine(e)) => {
                prop_assert_eq!(e, EngineError::EventCapExceeded { cap });
                prop_assert!(e.to_string().contains("event cap"));
            }
            Err(RunError::Param(_)) => {}
        }
    }
}
