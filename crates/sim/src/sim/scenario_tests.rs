use super::*;
use crate::resilience::{Delay, Jitter, Window};
use crate::sim::model::run;
use crate::sim::trace::Outcome;

fn share(n: u64, of: u64) -> f64 {
    n as f64 / of as f64
}

#[test]
fn a_timeout_override_leaves_no_protection_unprotected() {
    let mut none = Scenario::None.config();
    apply_set(&mut none, "timeout", "0.2").unwrap();
    assert_eq!(none.first_stack().unwrap().timeout, None);
    let mut cb = Scenario::Cb.config();
    apply_set(&mut cb, "timeout", "0.2").unwrap();
    assert_eq!(cb.first_stack().unwrap().timeout, Some(200 * MS));
    assert_eq!(Scenario::Timeout.label(&cb), "timeout 200ms");
    assert_eq!(
        Scenario::Bulkhead.label(&Scenario::Bulkhead.config()),
        "timeout + CB + bulkhead(8)"
    );
}

#[test]
fn presets_are_valid() {
    for s in Scenario::ALL {
        s.config().validate().unwrap();
        assert_eq!(Scenario::parse(s.key()), Some(s));
    }
    assert_eq!(Scenario::parse("nope"), None);
}

#[test]
fn sets_parse_seconds_and_ms() {
    let mut c = Scenario::Bulkhead.config();
    apply_set(&mut c, "timeout", "0.5").unwrap();
    assert_eq!(c.first_stack().unwrap().timeout, Some(500 * MS));
    apply_set(&mut c, "timeout", "250ms").unwrap();
    assert_eq!(c.first_stack().unwrap().timeout, Some(250 * MS));
    apply_set(&mut c, "window", "1").unwrap();
    assert_eq!(c.first_breaker().unwrap().window, Window::Time(SECOND));
    apply_set(&mut c, "probes", "5").unwrap();
    apply_set(&mut c, "permits", "4").unwrap();
    assert_eq!(
        c.first_stack().unwrap().bulkhead.as_ref().unwrap().permits,
        4
    );
    c.validate().unwrap();
}

#[test]
fn bad_sets_name_the_key() {
    let mut c = Scenario::Cb.config();
    for (k, v) in [
        ("threads", "0"),
        ("threads", "abc"),
        ("rate", "-1"),
        ("rate", "NaN"),
        ("timeout", "0"),
        ("failure_ratio", "0"),
        ("failure_ratio", "1.5"),
        ("window", "x"),
        ("seed", "-3"),
    ] {
        let e = apply_set(&mut c, k, v).unwrap_err();
        assert_eq!(e.field, k);
    }
    let e = apply_set(&mut c, "colour", "1").unwrap_err();
    assert_eq!(e.value, "colour");
    assert_eq!(c, Scenario::Cb.config());
}

#[test]
fn hedge_keys_switch_it_on_and_set_it() {
    let mut c = Scenario::Timeout.config();
    apply_set(&mut c, "hedge", "on").unwrap();
    assert_eq!(
        c.first_stack().unwrap().rooms.hedge,
        Some(crate::sim::model::HedgeConfig::lesson_000())
    );
    apply_set(&mut c, "hedge_after", "80ms").unwrap();
    apply_set(&mut c, "max_hedges", "2").unwrap();
    let policy = &c
        .first_stack()
        .unwrap()
        .rooms
        .hedge
        .as_ref()
        .unwrap()
        .policy;
    assert_eq!(
        (policy.delay, policy.max_hedges),
        (Delay::Fixed(80 * MS), 2)
    );
    apply_set(&mut c, "hedge_after", "p99.5").unwrap();
    assert_eq!(
        c.first_stack()
            .unwrap()
            .rooms
            .hedge
            .as_ref()
            .unwrap()
            .policy
            .delay,
        Delay::Percentile {
            percentile: 99.5,
            min_samples: 100
        }
    );
    c.validate().unwrap();
    apply_set(&mut c, "hedge", "off").unwrap();
    assert_eq!(c.first_stack().unwrap().rooms.hedge, None);
    // A delay alone switches it on.
    apply_set(&mut c, "hedge_after", "0.2").unwrap();
    let hedge = c.first_stack().unwrap().rooms.hedge.clone().unwrap();
    assert_eq!(hedge.policy.delay, Delay::Fixed(200 * MS));
    let mut c = Scenario::Timeout.config();
    for (k, v) in [
        ("hedge", "yes"),
        ("hedge_after", "0"),
        ("hedge_after", "61"),
        ("hedge_after", "p0"),
        ("hedge_after", "p101"),
        ("hedge_after", "pNaN"),
        ("hedge_after", "soon"),
        ("max_hedges", "0"),
        ("max_hedges", "9"),
    ] {
        assert_eq!(apply_set(&mut c, k, v).unwrap_err().field, k, "{k}={v}");
    }
    assert_eq!(c, Scenario::Timeout.config());
}

#[test]
fn the_newer_keys_keep_their_configs_valid() {
    let mut c = Scenario::None.config();
    apply_set(&mut c, "jitter", "decorrelated").unwrap();
    assert_eq!(
        c.first_stack().unwrap().retry.as_ref().unwrap().jitter,
        Jitter::Decorrelated
    );
    apply_set(&mut c, "retry_base", "3").unwrap();
    let r = c.first_stack().unwrap().retry.as_ref().unwrap();
    assert_eq!(
        (r.base, r.cap),
        (3 * SECOND, 3 * SECOND),
        "the cap follows the base"
    );
    apply_set(&mut c, "retry_cap", "20ms").unwrap();
    let r = c.first_stack().unwrap().retry.as_ref().unwrap();
    assert_eq!(
        (r.base, r.cap),
        (20 * MS, 20 * MS),
        "the base follows the cap"
    );
    apply_set(&mut c, "retry_budget_ratio", "0.25").unwrap();
    apply_set(&mut c, "retry_budget_min", "500").unwrap();
    let b = c.first_stack().unwrap().retry_budget.as_ref().unwrap();
    assert_eq!((b.ratio, b.minimum, b.cap), (0.25, 500, 500));
    apply_set(&mut c, "shed_normal", "10").unwrap();
    let s = c.service.load_shed.as_ref().unwrap();
    assert_eq!((s.low, s.normal, s.high), (10, 10, 90));
    apply_set(&mut c, "shed_low", "200").unwrap();
    let s = c.service.load_shed.as_ref().unwrap();
    assert_eq!((s.low, s.normal, s.high), (200, 200, 200));
    apply_set(&mut c, "shed_high", "50").unwrap();
    let s = c.service.load_shed.as_ref().unwrap();
    assert_eq!((s.low, s.normal, s.high), (50, 50, 50));
    apply_set(&mut c, "priority_high", "0.5").unwrap();
    apply_set(&mut c, "priority_low", "0.75").unwrap();
    assert_eq!(
        (c.traffic.priority_mix.low, c.traffic.priority_mix.high),
        (0.75, 0.25)
    );
    apply_set(&mut c, "priority_high", "0.5").unwrap();
    assert_eq!(
        (c.traffic.priority_mix.low, c.traffic.priority_mix.high),
        (0.5, 0.5)
    );
    c.validate().unwrap();
    for (k, v) in [
        ("jitter", "wobbly"),
        ("retry_base", "0"),
        ("priority_low", "2"),
    ] {
        assert_eq!(apply_set(&mut c, k, v).unwrap_err().field, k);
    }
    for key in SET_KEYS {
        assert!(
            !matches!(apply_set(&mut c.clone(), key, "1"), Err(e) if e.field == "key"),
            "{key} is listed but not applied"
        );
    }
}

#[test]
fn only_the_saturday_cascades_run_on_a_wall_clock() {
    let saturdays = [
        Preset::Saturday,
        Preset::SaturdayStorm,
        Preset::SaturdayEnvoy,
        Preset::SaturdayPolly,
        Preset::SaturdayGrpc,
    ];
    for p in saturdays {
        assert_eq!(p.clock_start(), Some(36_710), "10:11:50");
    }
    for p in Preset::ALL.into_iter().filter(|p| !saturdays.contains(p)) {
        assert_eq!(p.clock_start(), None, "{p:?}");
    }
}

#[test]
fn timeout_scenario_matches_the_lesson() {
    let t = run(&Scenario::Timeout.config()).unwrap();
    assert_eq!(t.sent, 1200);
    assert!((290..=310).contains(&t.outcomes.ok), "{:?}", t.outcomes);
    assert!(
        (890..=910).contains(&t.outcomes.timeout),
        "{:?}",
        t.outcomes
    );
    assert_eq!(t.outcomes.total(), t.sent);
}

#[test]
fn none_scenario_drains_and_queues() {
    let t = run(&Scenario::None.config()).unwrap();
    assert_eq!(t.outcomes.ok, 1200);
    // 900 slow calls on 32 workers: the queue takes close to two minutes to drain.
    assert!(t.end > 100 * SECOND, "end {}", t.end);
    assert!(t.series.iter().any(|b| b.queue_len > 500));
    let mut c = Scenario::None.config();
    c.run.drain = false;
    let t = run(&c).unwrap();
    assert!(t.outcomes.unfinished > 500, "{:?}", t.outcomes);
    assert_eq!(t.outcomes.total(), 1200);
    assert_eq!(t.outcomes.get(Outcome::Unfinished), t.outcomes.unfinished);
}

#[test]
fn cb_opens_when_the_ten_second_window_tips() {
    let t = run(&Scenario::Cb.config()).unwrap();
    let open = t.first_open().expect("breaker never opened");
    // 300 fast successes in the window; failures land from 3.3 s at 100/s; the ratio
    // reaches 50% with the 300th failure, near 6.3 s.
    assert!(
        (5_500_000..=7_000_000).contains(&open),
        "first open at {open}"
    );
    let o = t.outcomes;
    assert!(share(o.circuit_open, t.sent) > 0.40, "{o:?}");
    assert!(share(o.timeout, t.sent) > 0.22, "{o:?}");
}

#[test]
fn cb_with_one_second_window_opens_early() {
    let mut c = Scenario::Cb.config();
    apply_set(&mut c, "window", "1").unwrap();
    let t = run(&c).unwrap();
    let open = t.first_open().expect("breaker never opened");
    // The last fast call (started at exactly 3 s) ends at 3.04 s; failures end every 10 ms
    // from 3.31 s. At 3.31 s + j×10 ms the 1 s window holds j+1 failures and about 73-j
    // successes, so the ratio reaches 50% at j = 36: 3.67..3.68 s.
    assert!(
        (3_300_000..=3_700_000).contains(&open),
        "first open at {open}"
    );
    assert!(
        share(t.outcomes.circuit_open, t.sent) > 0.6,
        "{:?}",
        t.outcomes
    );
}
