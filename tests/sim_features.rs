//! The simulator's model beyond the lesson's four scenarios: each option against the
//! mechanism it stands for, the presets' key figures, and the first trip of `cb`.

use resilience_playground::resilience::{
    BreakerConfig, BreakerState, BulkheadConfig, Fallback, FallbackPolicy, Jitter, LoadShedConfig,
    RetryBudgetConfig, RetryPolicy, TransitionReason,
};
use resilience_playground::sim::config_file::{CascadeConfig, PaymentsConfig};
use resilience_playground::sim::model::{
    run, Arrivals, GatewayConfig, PriorityMix, SimConfig, RETRIES_OVER_BUDGET,
};
use resilience_playground::sim::scenario::{apply_set, Preset, Scenario};
use resilience_playground::sim::trace::{Outcome, Route, RouteCounts, Trace};

const MS: u64 = 1_000;
const SECOND: u64 = 1_000_000;

/// Every request counted once, in the totals, per route and in the series.
fn conserved(t: &Trace) {
    assert_eq!(t.outcomes.total(), t.sent, "{:?}", t.outcomes);
    let route_sent: u64 = t.routes.iter().map(|r| r.sent).sum();
    assert_eq!(route_sent, t.sent);
    for r in &t.routes {
        assert_eq!(r.outcomes.total(), r.sent, "{r:?}");
    }
    let arrivals: u64 = t.series.iter().map(|b| b.arrivals).sum();
    let done: u64 = t.series.iter().map(|b| b.completions.total()).sum();
    if !t.series_truncated {
        assert_eq!(arrivals, t.sent);
        assert_eq!(done + t.outcomes.unfinished, t.sent);
    }
}

#[test]
fn poisson_arrivals_follow_the_seed_and_the_rate() {
    let mut c = Scenario::Timeout.config();
    c.traffic.arrivals = Arrivals::Poisson;
    c.traffic.duration = 60 * SECOND;
    c.run.record_requests = true;
    let a = run(&c).unwrap();
    assert_eq!(a, run(&c).unwrap());
    // 6,000 expected; a Poisson count's standard deviation is about 77.
    assert!((5_700..=6_300).contains(&a.sent), "{}", a.sent);
    let gaps: Vec<u64> = a
        .requests
        .windows(2)
        .map(|w| w[1].arrived - w[0].arrived)
        .collect();
    assert!(gaps.iter().any(|&g| g < 2 * MS) && gaps.iter().any(|&g| g > 30 * MS));
    c.run.seed = 9;
    let b = run(&c).unwrap();
    assert_ne!(a.requests, b.requests);
    conserved(&a);
}

#[test]
fn lognormal_latency_has_its_median_and_p99() {
    let mut c = Scenario::None.config();
    c.first_mut().faults.degrade_at = Some(3_600 * SECOND);
    c.traffic.duration = 100 * SECOND;
    c.service.threads = 1_000;
    c.first_mut().faults.fast_p99 = Some(120 * MS);
    let t = run(&c).unwrap();
    let (p50, p99) = (t.service.p50.unwrap() as f64, t.service.p99.unwrap() as f64);
    assert!((p50 / 40_000.0 - 1.0).abs() < 0.05, "{p50}");
    assert!((p99 / 120_000.0 - 1.0).abs() < 0.10, "{p99}");
}

#[test]
fn recovery_brings_fast_answers_back() {
    let mut c = Scenario::Timeout.config();
    c.first_mut().faults.recover_at = Some(6 * SECOND);
    let t = run(&c).unwrap();
    // Calls starting in (3 s, 6 s] time out: 300 of them; the other 900 are fast.
    assert_eq!((t.outcomes.ok, t.outcomes.timeout), (900, 300));
    conserved(&t);
}

#[test]
fn transient_errors_count_for_the_breaker_business_errors_do_not() {
    let mut c = Scenario::Cb.config();
    c.first_mut().faults.slow = c.first().unwrap().faults.fast;
    c.first_mut().faults.error_rate = 1.0;
    let t = run(&c).unwrap();
    assert!(t.outcomes.dependency_error > 0);
    assert!(t.first_open().is_some());

    let mut c = Scenario::Cb.config();
    c.first_mut().faults.degrade_at = Some(3_600 * SECOND);
    c.first_mut().faults.business_error_rate = 0.6;
    let t = run(&c).unwrap();
    assert_eq!(
        t.first_open(),
        None,
        "a business no is a success of the dependency"
    );
    let share = t.outcomes.business_rejected as f64 / t.sent as f64;
    assert!((share - 0.6).abs() < 0.05, "{share}");
    c.first_stack_mut().business_errors_trip_breaker = true;
    let t = run(&c).unwrap();
    assert!(t.first_open().is_some(), "exercise 2's bug opens it");
}

#[test]
fn library_retries_multiply_calls_and_the_budget_caps_them() {
    let mut c = Scenario::Timeout.config();
    c.first_stack_mut().retry = Some(RetryPolicy::reserve_stock());
    let t = run(&c).unwrap();
    let calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
    assert_eq!(calls, t.sent + t.library_retries);
    // 899 slow requests, two retries each.
    assert_eq!(t.library_retries, 2 * 899);
    c.first_stack_mut().retry_budget = Some(RetryBudgetConfig::lesson_000());
    let t = run(&c).unwrap();
    let calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
    // Each call earns 0.1 credit, the budget starts with 10: retries <= 10 + calls / 10.
    assert!(
        t.library_retries <= 10 + calls / 10,
        "{} of {calls}",
        t.library_retries
    );
    // ... and with 899 failing requests it spends nearly all it earns: far more than the 10
    // it starts with.
    assert!(
        t.library_retries + 20 >= 10 + calls / 10,
        "{} of {calls}",
        t.library_retries
    );
    // Every retry it refused is counted: each of the 899 failing requests asks until it is
    // refused or has had both, so it had two retries, or was refused once after at most one.
    let refused = t.total(RETRIES_OVER_BUDGET).expect("the budget counts");
    assert!(refused > 800 && refused < 899, "some had both: {refused}");
    let had_both = 899 - refused;
    assert!(
        (2 * had_both..=2 * had_both + refused).contains(&t.library_retries),
        "{refused} refused, {} retries",
        t.library_retries
    );
    conserved(&t);
}

#[test]
fn jitter_none_retries_in_waves_full_jitter_spreads_them() {
    let mut c = Scenario::Timeout.config();
    c.first_stack_mut().retry = Some(RetryPolicy {
        attempts: 2,
        base: 100 * MS,
        cap: 100 * MS,
        jitter: Jitter::None,
    });
    c.run.record_requests = true;
    let fixed = run(&c).unwrap();
    c.first_stack_mut().retry = Some(RetryPolicy::reserve_stock());
    let jittered = run(&c).unwrap();
    let distinct = |t: &Trace| {
        let mut v: Vec<u64> = t
            .requests
            .iter()
            .filter_map(|r| r.finished.zip(r.started))
            .map(|(f, s)| f - s)
            .collect();
        v.sort_unstable();
        v.dedup();
        v.len()
    };
    assert!(distinct(&fixed) <= 3, "{}", distinct(&fixed));
    assert!(distinct(&jittered) > 50, "{}", distinct(&jittered));
}

#[test]
fn a_request_budget_bounds_the_time_from_arrival_to_answer() {
    // Twice the load the workers can take at a 300 ms timeout: without a budget the queue,
    // and the end-to-end time, grow for the whole run.
    let mut c = Scenario::Timeout.config();
    c.traffic.rate = 200.0;
    let unbounded = run(&c).unwrap();
    assert!(unbounded.end_to_end.p99.unwrap() > 5 * SECOND);
    // A 500 ms budget from arrival: queue wait spends it, the call gets what is left.
    c.service.request_budget = Some(500 * MS);
    let t = run(&c).unwrap();
    for h in t.end_to_end_histograms.values() {
        let longest = h.value_at_quantile(1.0).unwrap();
        assert!(longest <= 500 * MS + 500 * MS / 100, "{longest}");
    }
    assert_eq!(t.outcomes.unfinished, 0);
    conserved(&t);
}

#[test]
fn fallback_replaces_inventory_failures_only() {
    let plain = run(&Scenario::Bulkhead.config()).unwrap();
    let mut c = Scenario::Bulkhead.config();
    c.service.fallback = Some(FallbackPolicy::reserve_stock());
    let t = run(&c).unwrap();
    let o = plain.outcomes;
    assert_eq!(t.outcomes.ok, o.ok);
    assert_eq!(
        t.outcomes.fallback,
        o.timeout + o.circuit_open + o.bulkhead_full
    );
    conserved(&t);
    // The policy decides (src/resilience/fallback.rs): any degraded answer counts as
    // `fallback`; a policy that has none ("no honest degraded answer") lets the failure
    // through, as no policy does.
    c.service.fallback = Some(FallbackPolicy::northwind_reserve_stock());
    assert_eq!(run(&c).unwrap(), t);
    c.service.fallback = Some(FallbackPolicy::Use(Fallback::CachedStock));
    assert_eq!(run(&c).unwrap(), t);
    c.service.fallback = Some(FallbackPolicy::charge());
    assert_eq!(run(&c).unwrap(), plain);
    // The command line's `fallback` key.
    let mut c = Scenario::Bulkhead.config();
    apply_set(&mut c, "fallback", "on").unwrap();
    assert_eq!(c.service.fallback, Some(FallbackPolicy::reserve_stock()));
    apply_set(&mut c, "fallback", "pending_retry_async").unwrap();
    assert_eq!(
        c.service.fallback,
        Some(FallbackPolicy::northwind_reserve_stock())
    );
    apply_set(&mut c, "fallback", "none").unwrap();
    assert_eq!(
        c.service.fallback.as_ref().and_then(|p| p.on_failure()),
        None
    );
    assert_eq!(run(&c).unwrap(), plain);
    apply_set(&mut c, "fallback", "off").unwrap();
    assert_eq!(c.service.fallback, None);
    assert_eq!(
        apply_set(&mut c, "fallback", "maybe").unwrap_err().field,
        "fallback"
    );
}

/// An old flat file of one of the lesson's scenarios (`tests/fixtures/old_configs/`), as JSON.
fn old_flat_file(text: &str) -> serde_json::Value {
    serde_json::from_str(text).expect("an old flat file is JSON")
}

#[test]
fn configs_written_with_a_bool_fallback_still_load() {
    // Files from before the policy are flat: the old reader's form.
    let mut v = old_flat_file(include_str!("fixtures/old_configs/bulkhead.json"));
    v["fallback"] = true.into();
    let c: CascadeConfig = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(c.fallback, Some(FallbackPolicy::reserve_stock()));
    v["fallback"] = false.into();
    let c: CascadeConfig = serde_json::from_value(v.clone()).unwrap();
    assert_eq!(c.fallback, None);
    // A policy round-trips.
    let c = Preset::NorthwindShared.config();
    let back: SimConfig = serde_json::from_value(serde_json::to_value(&c).unwrap()).unwrap();
    assert_eq!(back, c);
    assert_eq!(
        c.service.fallback.and_then(|p| p.on_failure()),
        Some(Fallback::PendingRetryAsync)
    );
    v["fallback"] = "yes".into();
    assert!(serde_json::from_value::<CascadeConfig>(v).is_err());
}

#[test]
fn clients_give_up_and_the_front_end_retries() {
    let mut c = Scenario::None.config();
    c.traffic.client_give_up = Some(5 * SECOND);
    c.traffic.frontend_retries = 1;
    c.traffic.frontend_backoff = SECOND;
    let t = run(&c).unwrap();
    assert!(t.outcomes.client_gave_up > 0);
    assert_eq!(t.sent, 1_200 + t.frontend_retries);
    assert!(t.frontend_retries > 0 && t.frontend_retries <= t.outcomes.client_gave_up);
    // The workers still serve the requests whose clients left.
    assert_eq!(t.stale_work, t.outcomes.client_gave_up);
    conserved(&t);
}

#[test]
fn the_gateway_pool_rejects_every_route_once_full() {
    let t = run(&Preset::Saturday.config()).unwrap();
    assert!(t.series.iter().all(|b| b.gateway_in_use <= 200));
    assert!(t.series.iter().any(|b| b.gateway_in_use == 200));
    let catalog = t.routes.iter().find(|r| r.route == Route::Catalog).unwrap();
    assert!(catalog.outcomes.gateway_rejected > 0, "collateral damage");
    // Before 10:12:00 (t = 10 s) nothing is rejected.
    let early: u64 = t.series[..100]
        .iter()
        .map(|b| b.completions.gateway_rejected)
        .sum();
    assert_eq!(early, 0);
    conserved(&t);

    let mut c = Scenario::None.config();
    c.gateway = Some(GatewayConfig::new(1_000, Some(SECOND)));
    let t = run(&c).unwrap();
    assert!(t.outcomes.gateway_timeout > 800, "{:?}", t.outcomes);
    assert!(t.stale_work > 800);
    conserved(&t);
}

#[test]
fn load_shedding_drops_low_priority_first_and_a_bounded_queue_sheds() {
    let mut c = Scenario::None.config();
    c.service.load_shed = Some(LoadShedConfig::lesson_000());
    c.traffic.priority_mix = PriorityMix {
        high: 0.3,
        low: 0.3,
    };
    let t = run(&c).unwrap();
    conserved(&t);
    let [low, normal, high] = t.shed_by_priority;
    assert_eq!(low + normal + high, t.outcomes.shed);
    // Equal numbers of low and high requests arrive; low ones are refused from 30 in flight,
    // high ones only from 90.
    assert!(low > high && normal > high, "{low} {normal} {high}");
    assert!(t
        .series
        .iter()
        .all(|b| u64::from(b.workers_busy) + b.queue_len <= 90));

    let mut c = Scenario::None.config();
    c.service.queue_limit = Some(10);
    let t = run(&c).unwrap();
    assert!(t.outcomes.shed > 0);
    assert!(t.series.iter().all(|b| b.queue_len <= 10));
    conserved(&t);
}

#[test]
fn cb_opens_when_the_lesson_mechanics_say() {
    // Requests arrive every 10 ms from 0. Calls starting at or before 3 s are fast: 301 of
    // them (0, 10 ms, ..., 3 s), recorded as successes at start + 40 ms. Calls starting from
    // 3.01 s time out and are recorded as failures at start + 300 ms: 3.31 s, 3.32 s, ...
    // Nothing leaves the 10 s window before 6.3 s, so after the k-th failure the window holds
    // 301 successes and k failures; the ratio reaches 50% at k = 301, recorded at
    // 3.30 s + 301 x 10 ms = 6.31 s, with 602 calls in the window.
    let t = run(&Scenario::Cb.config()).unwrap();
    let first = t.transitions[0];
    assert_eq!(first.at, 6_310_000);
    assert_eq!(
        (first.from, first.to),
        (BreakerState::Closed, BreakerState::Open)
    );
    assert_eq!(
        first.reason,
        TransitionReason::FailureRatio {
            failures: 301,
            calls: 602
        }
    );
    // Then it probes every 2 s of cool-down: half open at 8.31 s, a probe fails 300 ms later.
    assert_eq!(t.transitions[1].at, 8_310_000);
    assert_eq!(t.transitions[2].at, 8_610_000);
}

/// A preset's key, requests sent and every outcome with its count.
type Golden = (&'static str, u64, &'static [(Outcome, u64)]);

#[test]
fn presets_key_figures() {
    let golden: &[Golden] = &[
        ("none", 1_200, &[(Outcome::Ok, 1_200)]),
        (
            "timeout",
            1_200,
            &[(Outcome::Ok, 301), (Outcome::Timeout, 899)],
        ),
        (
            "cb",
            1_200,
            &[
                (Outcome::Ok, 301),
                (Outcome::Timeout, 336),
                (Outcome::CircuitOpen, 563),
            ],
        ),
        (
            "bulkhead",
            1_200,
            &[
                (Outcome::Ok, 301),
                (Outcome::Timeout, 216),
                (Outcome::CircuitOpen, 94),
                (Outcome::BulkheadFull, 589),
            ],
        ),
        (
            "saturday",
            14_718,
            &[
                (Outcome::Ok, 4_186),
                (Outcome::GatewayRejected, 9_852),
                (Outcome::ClientGaveUp, 680),
            ],
        ),
        (
            "ex1-budget",
            1_200,
            &[(Outcome::Ok, 301), (Outcome::Timeout, 899)],
        ),
        (
            "ex2-business-errors",
            1_200,
            &[
                (Outcome::Ok, 18),
                (Outcome::BusinessRejected, 20),
                (Outcome::Fallback, 1_162),
            ],
        ),
        (
            "ex3-retry-layers",
            9_899,
            &[(Outcome::Ok, 1_114), (Outcome::DependencyError, 8_785)],
        ),
        (
            "northwind-shared",
            6_000,
            &[
                (Outcome::Ok, 1_894),
                (Outcome::Fallback, 3_971),
                (Outcome::BulkheadFull, 135),
            ],
        ),
        (
            "northwind-separate",
            6_000,
            &[(Outcome::Ok, 2_029), (Outcome::Fallback, 3_971)],
        ),
        (
            "story-none",
            1_500,
            &[(Outcome::Ok, 470), (Outcome::Unfinished, 1_030)],
        ),
        (
            "story-bulkhead",
            1_500,
            &[
                (Outcome::Ok, 627),
                (Outcome::BulkheadFull, 860),
                (Outcome::Unfinished, 13),
            ],
        ),
        (
            "cb-like-table",
            1_200,
            &[
                (Outcome::Ok, 301),
                (Outcome::Timeout, 76),
                (Outcome::CircuitOpen, 823),
            ],
        ),
        // The overload presets, as they run on main (their figures are docs/overload.md's).
        (
            "retry-storm",
            6_000,
            &[(Outcome::Ok, 301), (Outcome::Timeout, 5_699)],
        ),
        (
            "saturday-storm",
            23_164,
            &[
                (Outcome::Ok, 11_033),
                (Outcome::ClientGaveUp, 224),
                (Outcome::GatewayRejected, 11_907),
            ],
        ),
        (
            "ex3-retry-layers-capacity",
            17_943,
            &[
                (Outcome::Ok, 55),
                (Outcome::Timeout, 9_111),
                (Outcome::DependencyError, 8_777),
            ],
        ),
        ("retry-herd", 6_000, &[(Outcome::Ok, 6_000)]),
        (
            "retry-herd-contention",
            6_000,
            &[(Outcome::Ok, 5_726), (Outcome::DependencyError, 274)],
        ),
        (
            "northwind-as-written-shared",
            6_000,
            &[
                (Outcome::Ok, 1_865),
                (Outcome::Fallback, 3_971),
                (Outcome::BulkheadFull, 164),
            ],
        ),
        (
            "northwind-as-written-separate",
            6_000,
            &[(Outcome::Ok, 2_029), (Outcome::Fallback, 3_971)],
        ),
        (
            "northwind-as-meant-shared",
            6_000,
            &[
                (Outcome::Ok, 1_865),
                (Outcome::Fallback, 3_971),
                (Outcome::BulkheadFull, 164),
            ],
        ),
        (
            "northwind-as-meant-separate",
            6_000,
            &[(Outcome::Ok, 2_029), (Outcome::Fallback, 3_971)],
        ),
        // 1,200 orders, each sent up to three times: every copy a client gave up on.
        (
            "story-resend",
            2_998,
            &[(Outcome::Ok, 301), (Outcome::ClientGaveUp, 2_697)],
        ),
        // 125 a second for 12 s; the limit refuses what inventory could not answer in time.
        (
            "story-adaptive-limit",
            1_500,
            &[
                (Outcome::Ok, 633),
                (Outcome::CONCURRENCY_LIMITED, 865),
                (Outcome::Unfinished, 2),
            ],
        ),
        // 100 a second for 60 s: once the pauses set in, nearly every client gives up.
        (
            "zoo-gc-spiral",
            6_045,
            &[
                (Outcome::Ok, 345),
                (Outcome::ClientGaveUp, 5_509),
                (Outcome::Unfinished, 191),
            ],
        ),
        // 100 a second for 60 s: after the flush at 5 s nearly every call times out.
        (
            "zoo-cold-cache",
            6_001,
            &[
                (Outcome::Ok, 1_152),
                (Outcome::Timeout, 4_763),
                (Outcome::Unfinished, 86),
            ],
        ),
        // 100 a second for 60 s: from 5 s the failing host draws nearly every try.
        (
            "zoo-lb-sinkhole",
            5_992,
            &[
                (Outcome::Ok, 1_922),
                (Outcome::DependencyError, 4_062),
                (Outcome::Unfinished, 8),
            ],
        ),
        // 200 a second for 60 s, each sent up to three times: after the overload nearly every
        // client gives up before a worker takes its request.
        (
            "zoo-fifo-overload",
            33_616,
            &[
                (Outcome::Ok, 1_059),
                (Outcome::ClientGaveUp, 31_919),
                (Outcome::Unfinished, 638),
            ],
        ),
        // The retry storm's 100 a second, Poisson, stopped at 60 s.
        (
            "zoo-open-loop",
            5_962,
            &[
                (Outcome::Ok, 287),
                (Outcome::Timeout, 5_577),
                (Outcome::Unfinished, 98),
            ],
        ),
        // Saturday's counts exactly: a 4 s inventory is no 5xx and within Envoy's 15 s.
        (
            "saturday-envoy",
            14_718,
            &[
                (Outcome::Ok, 4_186),
                (Outcome::GatewayRejected, 9_852),
                (Outcome::ClientGaveUp, 680),
            ],
        ),
        // Saturday's counts again: a 4 s inventory is neither a failure nor past the 10 s
        // attempt timeout of Polly's standard handler, so no strategy acts.
        (
            "saturday-polly",
            14_718,
            &[
                (Outcome::Ok, 4_186),
                (Outcome::GatewayRejected, 9_852),
                (Outcome::ClientGaveUp, 680),
            ],
        ),
        // A 1 s deadline ends every slow call: fewer requests back up at the gateway, none
        // waits past Anna's 5 s, and no one retries a DEADLINE_EXCEEDED.
        (
            "saturday-grpc",
            13_346,
            &[
                (Outcome::Ok, 4_785),
                (Outcome::Timeout, 2_878),
                (Outcome::GatewayRejected, 5_683),
            ],
        ),
    ];
    assert_eq!(golden.len(), Preset::ALL.len());
    for (key, sent, counts) in golden {
        let p = Preset::parse(key).unwrap();
        assert_eq!(p.key(), *key);
        assert!(!p.title().is_empty());
        let t = run(&p.config()).unwrap();
        assert_eq!(t.sent, *sent, "{key}");
        for (o, n) in *counts {
            assert_eq!(t.outcomes.get(*o), *n, "{key} {}", o.name());
        }
        let listed: u64 = counts.iter().map(|(_, n)| n).sum();
        assert_eq!(listed, t.sent, "{key}: every outcome listed");
        conserved(&t);
    }
    let history = |p: Preset| {
        let t = run(&p.config()).unwrap();
        t.routes
            .iter()
            .find(|r| r.route == Route::OrderHistory)
            .unwrap()
            .success_rate()
    };
    // Lesson 004: the shared pool starves order history; separate bulkheads keep it whole.
    assert!(history(Preset::NorthwindShared) < 0.95);
    assert_eq!(history(Preset::NorthwindSeparate), 1.0);
    // Exercise 2: the breaker opens although inventory is healthy.
    let t = run(&Preset::Ex2BusinessErrors.config()).unwrap();
    assert!(t.first_open().unwrap() < SECOND);
    // Exercise 3: about 100 x 3 x 3 x 3 = 2,700 calls/s reach the dead inventory; every
    // call is a first try, a library retry or a sidecar retry.
    let t = run(&Preset::Ex3RetryLayers.config()).unwrap();
    let calls: u64 = t.series[10..290].iter().map(|b| b.inventory_calls).sum();
    let per_second = calls as f64 / 28.0;
    assert!((2_400.0..=2_900.0).contains(&per_second), "{per_second}");
    let all_calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
    assert_eq!(all_calls, t.sent + t.library_retries + t.sidecar_retries);
    // Without the sidecar's retries: about a third of that.
    let mut c = Preset::Ex3RetryLayers.config();
    c.first_stack_mut().sidecar = None;
    let t = run(&c).unwrap();
    let calls: u64 = t.series[10..290].iter().map(|b| b.inventory_calls).sum();
    let per_second = calls as f64 / 28.0;
    assert!((800.0..=950.0).contains(&per_second), "{per_second}");
    // Saturday: the failover at 10:12:30 leaves stale work behind.
    assert!(run(&Preset::Saturday.config()).unwrap().stale_work > 0);
}

#[test]
fn old_configs_without_the_new_fields_still_load() {
    let mut v = old_flat_file(include_str!("fixtures/old_configs/cb.json"));
    let obj = v.as_object_mut().unwrap();
    let lesson_keys = [
        "rate",
        "threads",
        "duration",
        "degrade_at",
        "fast",
        "slow",
        "timeout",
        "breaker",
        "bulkhead",
        "seed",
        "drain",
    ];
    obj.retain(|k, _| lesson_keys.contains(&k.as_str()));
    let c: CascadeConfig = serde_json::from_value(v).unwrap();
    assert_eq!(c.to_sim(), Scenario::Cb.config());
    let _ = BreakerConfig::northwind();
}

/// Scenario `none` with clients who give up after 5 s and a front end that sends the order
/// twice more: the copies queue behind the first one, which is still being worked on.
fn impatient(key: &str) -> SimConfig {
    let mut c = Scenario::None.config();
    for (k, v) in [
        ("client_give_up", "5"),
        ("frontend_retries", "2"),
        ("idempotency_key", key),
    ] {
        apply_set(&mut c, k, v).unwrap();
    }
    c
}

#[test]
fn without_a_key_the_front_ends_copies_create_duplicate_orders() {
    let t = run(&impatient("off")).unwrap();
    conserved(&t);
    let o = t.orders.expect("idempotency is modelled");
    assert!(t.frontend_retries > 1_000, "{}", t.frontend_retries);
    // Every copy is processed to the end: 1,200 orders, plus one per front-end copy.
    assert_eq!(o.created, t.sent);
    assert_eq!(o.duplicates, o.created - 1_200);
    assert_eq!(o.duplicates, t.frontend_retries);
    assert_eq!(o.recognised, 0);
}

#[test]
fn with_a_key_each_order_is_processed_once() {
    let without = run(&impatient("off")).unwrap();
    let t = run(&impatient("on")).unwrap();
    conserved(&t);
    let o = t.orders.unwrap();
    assert_eq!(t.sent, without.sent);
    assert_eq!((o.created, o.duplicates), (1_200, 0));
    // Every copy was recognised: each found its order in progress or answered.
    assert_eq!(o.recognised, t.frontend_retries);
    // Not modelled unless asked for: the trace has no order counts (and its JSON no key).
    let plain = run(&Scenario::None.config()).unwrap();
    assert_eq!(plain.orders, None);
    assert!(!serde_json::to_string(&plain)
        .unwrap()
        .contains("\"orders\":{"));
}

#[test]
fn a_key_replays_an_answer_the_client_never_got() {
    // No queue (1,000 workers); the gateway gives up after 1 s while inventory takes 4 s, so
    // the 899 slow orders (those arriving strictly after 3 s) succeed in `orders` but their
    // answer is lost (504). The front end sends each again 5 s later, once the first copy has
    // its answer.
    let config = |key: &str| {
        let mut c = Scenario::None.config();
        c.service.threads = 1_000;
        c.gateway = Some(GatewayConfig::new(10_000, Some(SECOND)));
        c.traffic.frontend_retries = 1;
        c.traffic.frontend_backoff = 5 * SECOND;
        apply_set(&mut c, "idempotency_key", key).unwrap();
        c
    };
    let t = run(&config("on")).unwrap();
    conserved(&t);
    assert_eq!(t.sent, 2_099);
    // The copies get the stored answer at once: 301 fast orders + 899 replays.
    assert_eq!(t.outcomes.ok, 1_200, "{:?}", t.outcomes);
    assert_eq!(t.outcomes.gateway_timeout, 899);
    let o = t.orders.unwrap();
    assert_eq!((o.created, o.duplicates, o.recognised), (1_200, 0, 899));
    let e2e_ok = &t.end_to_end_histograms[&Outcome::Ok];
    assert_eq!(e2e_ok.count(), 1_200);
    // Without a key the copy is an order of its own, slow again: a second 504 and a
    // duplicate order for each.
    let t = run(&config("off")).unwrap();
    conserved(&t);
    assert_eq!(t.outcomes.ok, 301, "{:?}", t.outcomes);
    assert_eq!(t.outcomes.gateway_timeout, 1_798);
    let o = t.orders.unwrap();
    assert_eq!((o.created, o.duplicates, o.recognised), (2_099, 899, 0));
}

#[test]
fn a_failed_first_copy_lets_the_next_one_do_the_work() {
    // A 300 ms timeout: the slow orders fail at `orders`. The key is forgotten, so the front
    // end's copy (after 1 s) is processed, and the order is created once at most.
    let mut c = Scenario::Timeout.config();
    c.first_mut().faults.recover_at = Some(6 * SECOND);
    c.traffic.frontend_retries = 3;
    c.traffic.frontend_backoff = SECOND;
    apply_set(&mut c, "idempotency_key", "on").unwrap();
    let t = run(&c).unwrap();
    conserved(&t);
    let o = t.orders.unwrap();
    assert_eq!(o.duplicates, 0);
    assert_eq!(o.recognised, 0);
    // Orders first tried in the slow spell get through on a later copy once it is over.
    assert!(o.created > 300 + 300, "{o:?}");
    assert_eq!(o.created, t.outcomes.ok);
}

/// Scenario `none` behind a gateway with a large pool, 1,000 workers (no queue) and a fifth of
/// the requests on `/catalog` (2 s), `overrides` applied.
fn behind_kong(overrides: &[(&str, &str)]) -> Trace {
    let mut c = Scenario::None.config();
    c.service.threads = 1_000;
    c.routes.catalog_share = 0.2;
    c.routes.catalog_latency = 2 * SECOND;
    apply_set(&mut c, "gateway_pool", "10000").unwrap();
    for (k, v) in overrides {
        apply_set(&mut c, k, v).unwrap();
    }
    let t = run(&c).unwrap();
    conserved(&t);
    t
}

fn route(t: &Trace, route: Route) -> RouteCounts {
    *t.routes.iter().find(|r| r.route == route).unwrap()
}

#[test]
fn each_route_has_its_own_gateway_timeout_and_the_default_covers_the_rest() {
    // One timeout of 3 s for every route: catalog (2 s) answers, slow orders (4 s) get a 504.
    let t = behind_kong(&[("route_timeout", "3")]);
    let (orders, catalog) = (route(&t, Route::Orders), route(&t, Route::Catalog));
    assert_eq!(catalog.outcomes.ok, catalog.sent);
    assert!(orders.outcomes.gateway_timeout > 600, "{orders:?}");
    assert_eq!(
        orders.outcomes.ok + orders.outcomes.gateway_timeout,
        orders.sent
    );
    // A shorter timeout on /catalog alone: every catalog request now gets a 504, orders
    // keep the default.
    let u = behind_kong(&[("route_timeout", "3"), ("catalog_timeout", "1")]);
    let catalog = route(&u, Route::Catalog);
    assert_eq!(catalog.outcomes.gateway_timeout, catalog.sent);
    assert_eq!(route(&u, Route::Orders).outcomes, orders.outcomes);
    // A longer one on /orders alone: orders wait for inventory, catalog keeps the default.
    let u = behind_kong(&[("route_timeout", "3"), ("orders_timeout", "5")]);
    assert_eq!(route(&u, Route::Orders).outcomes.gateway_timeout, 0);
    assert_eq!(
        route(&u, Route::Catalog).outcomes.ok,
        route(&u, Route::Catalog).sent
    );
    // Without a default, a route with a timeout of its own is the only one cut.
    let u = behind_kong(&[("orders_timeout", "1")]);
    assert_eq!(
        u.outcomes.gateway_timeout,
        route(&u, Route::Orders).outcomes.gateway_timeout
    );
    assert!(u.outcomes.gateway_timeout > 600);
    // The history route follows its own key too.
    let mut c = Preset::NorthwindSeparate.config();
    apply_set(&mut c, "gateway_pool", "10000").unwrap();
    apply_set(&mut c, "history_timeout", "10ms").unwrap();
    let t = run(&c).unwrap();
    let history = route(&t, Route::OrderHistory);
    assert_eq!(history.outcomes.gateway_timeout, history.sent);
    assert_eq!(route(&t, Route::Orders).outcomes.gateway_timeout, 0);
}

#[test]
fn gateway_retries_resend_after_a_timeout_and_multiply_the_work() {
    let once = behind_kong(&[("route_timeout", "1")]);
    let t = behind_kong(&[("route_timeout", "1"), ("gateway_retries", "2")]);
    assert_eq!(once.gateway_retries, 0);
    // Same clients, same outcomes: a retry of a 4 s call after 1 s is just as slow...
    assert_eq!(t.sent, once.sent);
    assert_eq!(t.outcomes, once.outcomes);
    let slow = once.outcomes.gateway_timeout;
    assert!(slow > 900, "{:?}", once.outcomes);
    // ...but each timed-out request went to its service three times, and the client waited
    // three route timeouts.
    assert_eq!(t.gateway_retries, 2 * slow);
    assert_eq!(
        t.stale_work,
        3 * route(&once, Route::Orders).outcomes.gateway_timeout
    );
    let e2e = |t: &Trace| t.end_to_end_histograms[&Outcome::GatewayTimeout].value_at_rank(0);
    assert!(e2e(&t).unwrap() >= 3 * SECOND && e2e(&once).unwrap() < 1_100 * MS);
    // Kong retries POST /orders too: without an idempotency key each retry is an order.
    let t = behind_kong(&[
        ("route_timeout", "1"),
        ("gateway_retries", "2"),
        ("idempotency_key", "off"),
    ]);
    let o = t.orders.unwrap();
    let orders_retried = 2 * route(&once, Route::Orders).outcomes.gateway_timeout;
    assert_eq!(o.duplicates, orders_retried);
    let t = behind_kong(&[
        ("route_timeout", "1"),
        ("gateway_retries", "2"),
        ("idempotency_key", "on"),
    ]);
    let o = t.orders.unwrap();
    assert_eq!((o.duplicates, o.recognised), (0, orders_retried));
}

#[test]
fn a_gateway_retry_after_recovery_gets_through() {
    // Inventory is slow (4 s) for calls starting in (3 s, 5 s]: a retry after a 1 s route
    // timeout that lands after 5 s gets a fast answer.
    let base = [("route_timeout", "1"), ("recover_at", "5")];
    let once = behind_kong(&base);
    let t = behind_kong(&[base[0], base[1], ("gateway_retries", "1")]);
    let (a, b) = (route(&once, Route::Orders), route(&t, Route::Orders));
    // About 80 orders arrive in (4 s, 5 s]; their retry lands after 5 s.
    assert!(b.outcomes.ok >= a.outcomes.ok + 60, "{a:?} {b:?}");
    assert_eq!(b.outcomes.ok + b.outcomes.gateway_timeout, b.sent);
    assert!(t.gateway_retries > 0);
}

// ---- payments, the second dependency -----------------------------------------------------

/// Payments on its own: healthy at 60 ms, 2 s for calls after 3 s, a 300 ms timeout, no
/// breaker and no bulkhead (each test adds the protection it looks at).
fn slow_payments() -> PaymentsConfig {
    PaymentsConfig {
        fast: 60 * MS,
        slow: 2 * SECOND,
        degrade_at: Some(3 * SECOND),
        timeout: Some(300 * MS),
        breaker: None,
        bulkhead: None,
        ..PaymentsConfig::default()
    }
}

/// The lesson's `timeout` scenario with inventory healthy all along.
fn healthy_inventory(s: Scenario) -> SimConfig {
    {
        let mut edited = s.config();
        edited.first_mut().faults.degrade_at = Some(3_600 * SECOND);
        edited
    }
}

#[test]
fn payments_off_leaves_the_trace_as_it_was() {
    let c = Scenario::Bulkhead.config();
    assert_eq!(c.dependencies.len(), 1, "inventory only");
    let t = run(&c).unwrap();
    assert_eq!(t.payments, None);
    assert!(t.series.iter().all(|b| b.payments_calls == 0));
    let json = serde_json::to_string(&t).unwrap();
    assert!(!json.contains("payments"), "payments in the JSON when off");
}

#[test]
fn slow_payments_time_orders_out_at_payments_while_inventory_stays_healthy() {
    let c = {
        let mut edited = healthy_inventory(Scenario::Timeout);
        edited.dependencies.truncate(1);
        edited.dependencies.push((slow_payments()).to_dependency());
        edited
    };
    let t = run(&c).unwrap();
    conserved(&t);
    let p = t.payments.clone().unwrap();
    // Payments is called 40 ms after arrival, once inventory has answered: the calls after
    // 3 s (strictly) are those of the orders that arrived after 2.96 s, 903 of the 1,200, and
    // they all time out at payments.
    assert_eq!(t.outcomes.timeout, 903, "{:?}", t.outcomes);
    assert_eq!(p.timeouts, t.outcomes.timeout);
    assert_eq!((p.errors, p.rejected), (0, 0));
    assert_eq!(t.outcomes.ok, t.sent - t.outcomes.timeout);
    // Inventory answered every request in 40 ms; payments was called once per order.
    let inventory: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
    assert_eq!(inventory, t.sent);
    assert_eq!(p.calls, t.sent);
    // Service time: 40 ms at inventory + 60 ms at payments, or + the 300 ms timeout.
    assert_eq!(t.service.p50, Some(340 * MS));
    let ok = t.service_histograms.get(&Outcome::Ok).unwrap();
    let fastest = ok.value_at_rank(0).unwrap();
    assert!(fastest.abs_diff(100 * MS) < MS, "{fastest}");
    // The same payments with inventory slow too: the 899 orders whose inventory call starts
    // after 3 s time out at inventory and never reach payments; only the 4 that arrived
    // between 2.97 s and 3 s get through inventory in time to time out at payments.
    let mut c2 = c.clone();
    c2.first_mut().faults.degrade_at = Some(3 * SECOND);
    let t2 = run(&c2).unwrap();
    let p2 = t2.payments.unwrap();
    assert_eq!((p2.timeouts, p2.calls), (4, 301));
    assert_eq!(t2.outcomes.timeout, 899 + 4);
}

#[test]
fn the_payments_breaker_opens_independently_of_inventorys() {
    // Both breakers with a 1 s window; only payments degrades.
    let mut c = {
        let mut edited = healthy_inventory(Scenario::Cb);
        edited.dependencies.truncate(1);
        edited.dependencies.push(
            (PaymentsConfig {
                breaker: Some(BreakerConfig {
                    window: resilience_playground::resilience::Window::Time(SECOND),
                    ..BreakerConfig::lesson_000()
                }),
                ..slow_payments()
            })
            .to_dependency(),
        );
        edited
    };
    apply_set(&mut c, "window", "1").unwrap();
    let t = run(&c).unwrap();
    conserved(&t);
    let p = t.payments.clone().unwrap();
    let opened = p.first_open().expect("the payments breaker opens");
    assert!((3 * SECOND..5 * SECOND).contains(&opened), "{opened}");
    // Inventory's breaker never left CLOSED, its gauge says so, and every refusal was
    // payments'.
    assert!(t.transitions.is_empty(), "{:?}", t.transitions);
    assert!(t.series.iter().all(|b| b.breaker_state == 0));
    assert_eq!(p.rejected, t.outcomes.circuit_open);
    assert!(t.outcomes.circuit_open > 500, "{:?}", t.outcomes);
    // While payments' breaker is open, calls to payments stop but inventory's go on.
    let open_slice = (opened / 100_000) as usize + 2;
    assert_eq!(t.series[open_slice].payments_calls, 0);
    assert_eq!(t.series[open_slice].inventory_calls, 10);
    // The other way round: inventory degrades, payments is healthy: only inventory's opens,
    // and the requests it refuses never reach payments.
    let mut c2 = Scenario::Cb.config();
    apply_set(&mut c2, "window", "1").unwrap();
    let mut payments = c.dependencies[1].clone();
    payments.faults.degrade_at = None;
    c2.dependencies.push(payments);
    let t2 = run(&c2).unwrap();
    let p2 = t2.payments.clone().unwrap();
    assert!(t2.first_open().is_some());
    assert!(p2.transitions.is_empty(), "{:?}", p2.transitions);
    assert_eq!(p2.rejected + p2.timeouts, 0);
    assert_eq!(p2.calls, t2.outcomes.ok);
}

#[test]
fn payments_has_its_own_bulkhead_and_retries() {
    let c = {
        let mut edited = healthy_inventory(Scenario::Timeout);
        edited.dependencies.truncate(1);
        edited.dependencies.push(
            (PaymentsConfig {
                bulkhead: Some(BulkheadConfig {
                    permits: 2,
                    max_wait: 0,
                    ..BulkheadConfig::cascade_sim()
                }),
                retry: Some(RetryPolicy {
                    attempts: 2,
                    ..RetryPolicy::lesson_000()
                }),
                ..slow_payments()
            })
            .to_dependency(),
        );
        edited
    };
    let t = run(&c).unwrap();
    conserved(&t);
    let p = t.payments.unwrap();
    // Two permits, each held ~600 ms (two 300 ms attempts): most degraded orders are refused.
    assert_eq!(p.rejected, t.outcomes.bulkhead_full);
    assert!(t.outcomes.bulkhead_full > 700, "{:?}", t.outcomes);
    assert_eq!(p.timeouts, t.outcomes.timeout);
    assert!(t.library_retries > 0 && t.library_retries <= p.timeouts);
    assert_eq!(p.calls, t.sent - p.rejected + t.library_retries);
    // The same seed, the same trace.
    assert_eq!(run(&c).unwrap(), run(&c).unwrap());
}

/// A dependency that restarts when it recovers: the calls it held fail together, and the work
/// a slot had in hand before the restart never ends a call taken after it.
#[test]
fn a_restart_fails_every_held_call_at_once_and_leaves_no_stale_slot() {
    let mut c = Scenario::None.config();
    for (key, value) in [
        ("rate", "100"),
        ("duration", "3"),
        ("fast", "50ms"),
        ("slow", "50ms"),
        ("degrade_at", "0.5"),
        ("recover_at", "1.005"),
        ("capacity", "1"),
        ("timeout", "10"),
    ] {
        apply_set(&mut c, key, value).unwrap();
    }
    let held = |restart: bool| {
        let mut c = c.clone();
        c.first_mut().capacity.as_mut().unwrap().restart_at_recovery = restart;
        c.run.record_requests = true;
        run(&c).unwrap()
    };
    let (plain, restarted) = (held(false), held(true));
    let load = restarted.dependencies[0].load.as_ref().unwrap();
    // One slot, 50 ms a call, a call every 10 ms: at 1.005 s the slot and a queue hold calls.
    assert!(load.refused > 10, "{load:?}");
    assert_eq!(plain.dependencies[0].load.as_ref().unwrap().refused, 0);
    assert_eq!(restarted.outcomes.dependency_error, load.refused);
    // No call is answered sooner than one service time after its worker took it.
    for r in restarted
        .requests
        .iter()
        .filter(|r| r.outcome == Outcome::Ok)
    {
        let service = r.finished.unwrap() - r.started.unwrap();
        assert!(service >= 50_000, "{r:?}");
    }
}

/// The herd: the calls a restart failed come back at once without jitter, spread with it.
#[test]
fn jitter_spreads_the_herd_a_restart_sends_back() {
    let peak_after_restart = |jitter: &str| {
        let mut c = Preset::RetryHerd.config();
        apply_set(&mut c, "jitter", jitter).unwrap();
        let t = run(&c).unwrap();
        let restart = (c.first().unwrap().faults.recover_at.unwrap() / 100_000) as usize;
        t.dependencies[0].calls_per_bucket[restart..]
            .iter()
            .copied()
            .max()
            .unwrap()
    };
    let (none, full) = (peak_after_restart("none"), peak_after_restart("full"));
    // 200 orders/s is 20 calls per 100 ms: the un-jittered wave is several times that.
    assert!(none > 150, "{none}");
    assert!(full * 2 < none, "full jitter {full}, none {none}");
}

/// Hot items: of two calls that read one item's version, the first to end commits and the
/// other fails its version check (UNAVAILABLE), is retried and then commits.
#[test]
fn a_call_whose_item_another_call_committed_meanwhile_conflicts_and_is_retried() {
    let mut c = Scenario::None.config();
    for (key, value) in [
        ("rate", "1000"),
        ("duration", "2ms"),
        ("fast", "10ms"),
        ("capacity", "100"),
        ("hot_items", "1"),
        ("timeout", "1"),
        ("attempts", "2"),
    ] {
        apply_set(&mut c, key, value).unwrap();
    }
    let t = run(&c).unwrap();
    conserved(&t);
    let load = t.dependencies[0].load.as_ref().unwrap();
    // The calls start at 0 and 1 ms on the one item: the second ends after the first's commit.
    assert_eq!((t.sent, t.outcomes.ok), (2, 2), "{:?}", t.outcomes);
    assert_eq!((load.conflicts, load.served, load.goodput), (Some(1), 3, 2));
    assert_eq!(t.library_retries, 1);
    // Off, the same two calls never conflict, and no conflicts are reported at all.
    apply_set(&mut c, "hot_items", "off").unwrap();
    let t = run(&c).unwrap();
    let load = t.dependencies[0].load.as_ref().unwrap();
    assert_eq!(
        (load.conflicts, load.served, t.library_retries),
        (None, 2, 0)
    );
    assert!(load.conflicts_per_bucket.is_empty());
}

/// What the herd of `retry-herd-contention` does under one jitter mode.
struct Herd {
    /// Buckets of 100 ms after the restart with more than 150 calls at inventory (the fresh
    /// orders alone bring 20).
    wave_buckets: usize,
    peak: u64,
    conflicts: u64,
    failed: u64,
    /// From the restart until the last request that arrived before it ended.
    through: u64,
}

fn herd(jitter: &str) -> Herd {
    let mut c = Preset::RetryHerdContention.config();
    apply_set(&mut c, "jitter", jitter).unwrap();
    c.run.record_requests = true;
    let t = run(&c).unwrap();
    conserved(&t);
    let restart = c.first().unwrap().faults.recover_at.unwrap();
    let inventory = &t.dependencies[0];
    let load = inventory.load.as_ref().unwrap();
    let conflicts = load.conflicts.unwrap();
    // Conflicts are served calls that are not goodput, counted once in the series too.
    assert!(load.goodput + conflicts <= load.served, "{load:?}");
    assert_eq!(load.conflicts_per_bucket.iter().sum::<u64>(), conflicts);
    let after = &inventory.calls_per_bucket[(restart / 100_000) as usize..];
    Herd {
        wave_buckets: after.iter().filter(|&&n| n > 150).count(),
        peak: after.iter().copied().max().unwrap(),
        conflicts,
        failed: t.sent - t.outcomes.ok,
        through: t
            .requests
            .iter()
            .filter(|r| r.arrived < restart)
            .map(|r| r.finished.unwrap())
            .max()
            .unwrap()
            - restart,
    }
}

/// Contention is what makes jitter shorten the recovery: without jitter the ~400 calls the
/// restart failed come back together at every back-off step, meet on 20 hot items, one per
/// item commits and the rest come back again, until their attempts run out; full jitter
/// spreads them so they commit.
#[test]
fn with_hot_items_full_jitter_gets_the_herd_through_seconds_sooner() {
    let (none, full) = (herd("none"), herd("full"));
    // An echo wave at each of the seven back-offs without jitter; none with full jitter.
    assert!(none.wave_buckets >= 7, "none: {}", none.wave_buckets);
    assert_eq!(full.wave_buckets, 0);
    assert!(full.peak * 3 < none.peak, "{} vs {}", full.peak, none.peak);
    assert!(
        full.conflicts * 3 < none.conflicts,
        "{} vs {}",
        full.conflicts,
        none.conflicts
    );
    // Requests fail after their last attempt without jitter; with it they get through.
    assert!(none.failed > 200, "{}", none.failed);
    assert_eq!(full.failed, 0);
    assert!(
        full.through + 5 * SECOND < none.through,
        "full {} µs, none {} µs",
        full.through,
        none.through
    );
}

/// The series counts every retry, hedge and piece of stale work in the slice it happened in,
/// so that a lesson can say how many there were by the playhead: summed over the run, they
/// are the trace's totals, on every preset.
#[test]
fn the_series_counts_retries_hedges_and_stale_work_to_the_totals() {
    let mut seen = [0u64; 4];
    // seen: front-end, library and sidecar retries; stale work and duplicate orders.
    for preset in Preset::ALL {
        let t = resilience_playground::sim::model::run(&preset.config()).unwrap();
        let sum = |f: fn(&resilience_playground::sim::trace::Bucket) -> u64| -> u64 {
            t.series.iter().map(f).sum()
        };
        let key = preset.key();
        assert_eq!(sum(|b| b.frontend_retries), t.frontend_retries, "{key}");
        assert_eq!(sum(|b| b.library_retries), t.library_retries, "{key}");
        assert_eq!(sum(|b| b.sidecar_retries), t.sidecar_retries, "{key}");
        assert_eq!(sum(|b| b.stale_work), t.stale_work, "{key}");
        let duplicates = t.orders.map_or(0, |o| o.duplicates);
        assert_eq!(sum(|b| b.duplicate_orders), duplicates, "{key}");
        seen[3] += duplicates;
        for count in t.layer_counts.iter().filter(|c| !c.per_bucket.is_empty()) {
            let per_bucket: u64 = count.per_bucket.iter().sum();
            assert_eq!(per_bucket, count.total, "{key}: {}", count.name);
            assert_eq!(
                count.per_bucket.len(),
                t.series.len(),
                "{key}: {}",
                count.name
            );
        }
        seen[0] += t.frontend_retries;
        seen[1] += t.library_retries;
        seen[2] += t.sidecar_retries;
        seen[3] += t.stale_work;
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "some preset has each: {seen:?}"
    );
}
