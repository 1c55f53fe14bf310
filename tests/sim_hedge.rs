//! The optional hedge on the inventory call: it cuts a long latency tail for a few percent
//! more calls, a copy is judged by the inventory of the moment it goes out, a timeout stops
//! copies that would come too late, and a call without an idempotency key is never hedged.

use resilience_playground::resilience::{Delay, HedgePolicy};
use resilience_playground::sim::model::{
    run, HedgeConfig, RunError, SimConfig, COPIES_SENT, COPIES_WON,
};
use resilience_playground::sim::scenario::Scenario;
use resilience_playground::sim::trace::{Outcome, Trace};

/// What the hedges did: copies sent and copies that answered first.
#[derive(Debug, PartialEq, Eq)]
struct Copies {
    sent: u64,
    won: u64,
}

/// The hedges' counts; `None` when no stack of the run hedges.
fn copies(t: &Trace) -> Option<Copies> {
    Some(Copies {
        sent: t.total(COPIES_SENT)?,
        won: t.total(COPIES_WON)?,
    })
}

const MS: u64 = 1_000;
const SECOND: u64 = 1_000_000;

/// 10,000 requests against a healthy inventory whose latency is lognormal with a median of
/// 40 ms and a p99 of 400 ms; 1,000 workers, so nobody queues and service time is the
/// call's time.
fn long_tail() -> SimConfig {
    {
        let mut edited = Scenario::None.config();
        edited.first_mut().faults.degrade_at = Some(3_600 * SECOND);
        edited.traffic.duration = 100 * SECOND;
        edited.service.threads = 1_000;
        edited.first_mut().faults.fast_p99 = Some(400 * MS);
        edited.run.seed = 7;
        edited.run.record_requests = true;
        edited
    }
}

fn service_times(t: &Trace) -> Vec<u64> {
    t.requests
        .iter()
        .filter_map(|r| Some(r.finished? - r.started?))
        .collect()
}

fn inventory_calls(t: &Trace) -> u64 {
    t.series.iter().map(|b| b.inventory_calls).sum()
}

#[test]
fn a_hedge_at_the_p95_cuts_the_p99_for_about_five_percent_more_calls() {
    let plain = run(&long_tail()).unwrap();
    let (plain_p50, plain_p99) = (plain.service.p50.unwrap(), plain.service.p99.unwrap());
    assert!(
        plain_p99.abs_diff(400 * MS) < 40 * MS,
        "plain p99 {plain_p99}"
    );
    assert_eq!(copies(&plain), None);
    // The distribution's p95 is about 204 ms: hedge after 200 ms.
    let delay = 200 * MS;
    let over_delay = service_times(&plain).iter().filter(|&&s| s > delay).count() as u64;

    let hedged = run(&{
        let mut edited = long_tail();
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig::fixed(delay));
        edited
    })
    .unwrap();
    let h = copies(&hedged).unwrap();
    let (p50, p99) = (hedged.service.p50.unwrap(), hedged.service.p99.unwrap());
    // Two copies must both be slow for a slow answer: the p99 drops by a third (theory:
    // about 265 ms), the median does not move.
    assert!(p99 * 4 < plain_p99 * 3, "p99 {p99} vs {plain_p99}");
    assert!(
        p50.abs_diff(plain_p50) * 20 < plain_p50,
        "p50 {p50} vs {plain_p50}"
    );
    // Load: one hedge per call still out at 200 ms, about 5% of them; no more than the plain
    // run's calls over 200 ms, give or take chance (standard deviation about 22).
    assert_eq!(inventory_calls(&hedged), hedged.sent + h.sent);
    let share = h.sent as f64 / hedged.sent as f64;
    assert!((0.04..=0.065).contains(&share), "hedges {share}");
    assert!(
        h.sent <= over_delay + 66,
        "{h:?} vs {over_delay} plain calls over the delay"
    );
    // Most hedges answer first: the original was already in the tail.
    assert!(h.won * 2 > h.sent && h.won <= h.sent, "{h:?}");
    assert_eq!(hedged.outcomes.ok, hedged.sent);
}

#[test]
fn the_lessons_policy_hedges_at_the_observed_p95() {
    let t = run(&{
        let mut edited = long_tail();
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig {
            policy: HedgePolicy::lesson_000(),
            idempotency_key: true,
        });
        edited
    })
    .unwrap();
    let h = copies(&t).unwrap();
    // No hedge before 100 tries have been seen; then about 5% of tries, although the
    // observed latencies are themselves cut by the hedge (the delay settles a little lower).
    let share = h.sent as f64 / t.sent as f64;
    assert!((0.04..=0.08).contains(&share), "hedges {share}");
    let plain = run(&long_tail()).unwrap();
    assert!(t.service.p99.unwrap() * 4 < plain.service.p99.unwrap() * 3);
}

#[test]
fn hedging_follows_the_seed() {
    let c = {
        let mut edited = long_tail();
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig::fixed(100 * MS));
        edited.traffic.duration = 10 * SECOND;
        edited
    };
    let a = run(&c).unwrap();
    assert_eq!(a, run(&c).unwrap());
    let b = run(&{
        let mut edited = c;
        edited.run.seed = 8;
        edited
    })
    .unwrap();
    assert_ne!(a.requests, b.requests);
}

#[test]
fn a_copy_meets_the_inventory_of_the_moment_it_goes_out() {
    // Inventory is slow (4 s) for calls starting in (0, 1 s], fast (40 ms) otherwise. One
    // request every 100 ms for 2 s, a hedge after 50 ms.
    let c = {
        let mut edited = Scenario::None.config();
        edited.traffic.rate = 10.0;
        edited.traffic.duration = 2 * SECOND;
        edited.first_mut().faults.degrade_at = Some(0);
        edited.first_mut().faults.recover_at = Some(SECOND);
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig::fixed(50 * MS));
        edited.run.record_requests = true;
        edited
    };
    let t = run(&c).unwrap();
    // The ten slow originals (0.1 s .. 1.0 s) each get a hedge; the fast ones answer before
    // 50 ms. Only the hedge of the one sent at 1.0 s goes out after the recovery (1.05 s):
    // it answers at 1.09 s and wins. The other hedges are as slow as their originals and
    // would answer 50 ms after them.
    assert_eq!(copies(&t), Some(Copies { sent: 10, won: 1 }));
    let times = service_times(&t);
    assert_eq!(times.iter().filter(|&&s| s == 4 * SECOND).count(), 9);
    assert_eq!(times.iter().filter(|&&s| s == 90 * MS).count(), 1);
    assert_eq!(times.iter().filter(|&&s| s == 40 * MS).count(), 10);
}

#[test]
fn no_copy_goes_out_once_the_try_has_timed_out() {
    // The lesson's timeout scenario: 40 ms, then 4 s against a 300 ms timeout.
    let plain = run(&Scenario::Timeout.config()).unwrap();
    let hedged = |delay| {
        run(&{
            let mut edited = Scenario::Timeout.config();
            edited.first_stack_mut().rooms.hedge = Some(HedgeConfig::fixed(delay));
            edited
        })
        .unwrap()
    };
    // Due at the timeout: never sent, and the run is the plain one.
    let t = hedged(300 * MS);
    assert_eq!(copies(&t), Some(Copies { sent: 0, won: 0 }));
    let without_counts = Trace {
        layer_counts: Vec::new(),
        ..t
    };
    assert_eq!(without_counts, plain);
    // Due 1 ms before it: every slow call gets a hedge, which is just as slow. Hedging
    // does nothing for a dependency that is slow for everyone, except add load.
    let t = hedged(299 * MS);
    assert_eq!(
        copies(&t),
        Some(Copies {
            sent: plain.outcomes.timeout,
            won: 0
        })
    );
    assert_eq!(t.outcomes, plain.outcomes);
    assert_eq!(
        inventory_calls(&t),
        inventory_calls(&plain) + t.outcomes.timeout
    );
}

#[test]
fn a_call_without_an_idempotency_key_is_never_hedged() {
    let c = {
        let mut edited = Scenario::Timeout.config();
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig {
            idempotency_key: false,
            ..HedgeConfig::fixed(80 * MS)
        });
        edited
    };
    // The run names the field where it sits in the config; the edge names its `--set` key.
    match run(&c) {
        Err(RunError::Param(e)) => {
            assert!(e.to_string().starts_with("hedge.idempotency_key: "), "{e}");
            assert!(e.range.contains("idempotent"), "{e}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(c.validate().unwrap_err().field, "hedge");
    // Out-of-range policies name the `--set` keys.
    let bad = |policy| {
        let c = {
            let mut edited = Scenario::Timeout.config();
            edited.first_stack_mut().rooms.hedge = Some(HedgeConfig {
                policy,
                idempotency_key: true,
            });
            edited
        };
        assert!(matches!(run(&c), Err(RunError::Param(_))));
        c.validate().unwrap_err().field
    };
    assert_eq!(
        bad(HedgePolicy {
            delay: Delay::Fixed(0),
            max_hedges: 1
        }),
        "hedge_after"
    );
    assert_eq!(
        bad(HedgePolicy {
            max_hedges: 9,
            ..HedgePolicy::lesson_000()
        }),
        "max_hedges"
    );
}

#[test]
fn hedged_requests_are_counted_once() {
    let mut c = {
        let mut edited = long_tail();
        edited.first_stack_mut().rooms.hedge = Some(HedgeConfig::fixed(60 * MS));
        edited
    };
    c.traffic.duration = 20 * SECOND;
    for drain in [true, false] {
        c.run.drain = drain;
        let t = run(&c).unwrap();
        assert_eq!(t.outcomes.total(), t.sent);
        let mut counts = resilience_playground::sim::trace::OutcomeCounts::default();
        t.requests.iter().for_each(|r| counts.add(r.outcome));
        assert_eq!(counts, t.outcomes);
        assert_eq!(t.outcomes.unfinished > 0, !drain);
        assert!(t.outcomes.get(Outcome::Ok) > 0);
    }
}

/// At a dependency with a capacity, a copy is a call of its own that reaches the servers when
/// it is due and the try still waits: the same share of hedges as without a capacity, each
/// served by a slot, and the copy that answers first is the try's answer.
#[test]
fn at_a_dependency_with_a_capacity_each_copy_is_served_as_a_call_of_its_own() {
    use resilience_playground::sim::model::CapacityConfig;
    let with_slots = |hedge: Option<HedgeConfig>| {
        let mut edited = long_tail();
        edited.first_mut().capacity = Some(CapacityConfig {
            slots: 1_000,
            queue: None,
            abandon: Default::default(),
            restart_at_recovery: false,
            hot_items: None,
            cache: None,
        });
        edited.first_stack_mut().rooms.hedge = hedge;
        run(&edited).unwrap()
    };
    let served = |t: &Trace| t.dependencies[0].load.as_ref().unwrap().served;
    let plain = with_slots(None);
    assert_eq!(copies(&plain), None);
    assert_eq!(served(&plain), plain.sent);

    let hedged = with_slots(Some(HedgeConfig::fixed(200 * MS)));
    let h = copies(&hedged).unwrap();
    let share = h.sent as f64 / hedged.sent as f64;
    assert!((0.04..=0.065).contains(&share), "hedges {share}, {h:?}");
    // The copies still out when their try is answered are kept (the default abandon) and
    // served too, so every call and every copy sent is served by a slot.
    assert_eq!(served(&hedged), hedged.sent + h.sent);
    assert!(h.won * 2 > h.sent && h.won <= h.sent, "{h:?}");
    assert!(
        hedged.service.p99.unwrap() * 4 < plain.service.p99.unwrap() * 3,
        "p99 {:?} vs {:?}",
        hedged.service.p99,
        plain.service.p99
    );
    assert_eq!(hedged.outcomes.ok, hedged.sent);
}
