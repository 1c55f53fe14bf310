use super::call_end::{CallEnd, Failure, Refusal};
use super::*;
use crate::resilience::CallResult;
use crate::resilience::TransitionReason;
use crate::sim::scenario::{apply_set, Scenario};
use crate::sim::trace::OutcomeCounts;

#[test]
fn same_config_same_trace() {
    for s in Scenario::ALL {
        let c = s.config();
        assert_eq!(run(&c).unwrap(), run(&c).unwrap(), "{s:?}");
    }
}

#[test]
fn every_request_counted_once() {
    let sets: &[&[(&str, &str)]] = &[
        &[],
        &[("window", "1")],
        &[("threads", "3"), ("rate", "250")],
        &[("permits", "1"), ("max_wait", "0")],
        &[("max_wait", "5"), ("fast", "100ms")],
        &[("degrade_at", "0"), ("duration", "2")],
        &[("slow", "10ms"), ("timeout", "5ms")],
    ];
    for s in Scenario::ALL {
        for set in sets {
            for drain in [true, false] {
                let mut c = s.config();
                c.run.drain = drain;
                for (k, v) in *set {
                    apply_set(&mut c, k, v).unwrap();
                }
                let t = run(&c).unwrap();
                assert_eq!(t.outcomes.total(), t.sent, "{s:?} {set:?} drain {drain}");
                let arrivals: u64 = t.series.iter().map(|b| b.arrivals).sum();
                let done: u64 = t.series.iter().map(|b| b.completions.total()).sum();
                assert_eq!(arrivals, t.sent);
                assert_eq!(done + t.outcomes.unfinished, t.sent);
                if drain {
                    assert_eq!(t.outcomes.unfinished, 0);
                }
            }
        }
    }
}

#[test]
fn degrade_is_strictly_after() {
    let mut c = Scenario::Timeout.config();
    c.traffic.rate = 1.0;
    c.traffic.duration = 4 * SECOND;
    c.first_mut().faults.degrade_at = Some(3 * SECOND);
    // Calls start at 0, 1, 2 and 3 s: the one at exactly 3 s is still fast.
    let t = run(&c).unwrap();
    assert_eq!((t.outcomes.ok, t.outcomes.timeout), (4, 0));
    c.first_mut().faults.degrade_at = Some(3 * SECOND - 1);
    let t = run(&c).unwrap();
    assert_eq!((t.outcomes.ok, t.outcomes.timeout), (3, 1));
    assert_eq!(t.service.p99, Some(300_000));
}

#[test]
fn timeout_holds_the_worker_exactly_the_timeout() {
    let mut c = Scenario::Timeout.config();
    c.first_mut().faults.degrade_at = Some(0);
    c.traffic.rate = 10.0;
    let t = run(&c).unwrap();
    assert_eq!(t.outcomes.ok, 1);
    assert_eq!(t.service.p50, Some(300_000));
    assert_eq!(t.end_to_end.p50, Some(300_000));
}

#[test]
fn queue_wait_is_end_to_end_not_service() {
    let mut c = Scenario::None.config();
    c.service.threads = 1;
    c.traffic.rate = 10.0;
    c.traffic.duration = SECOND;
    c.first_mut().faults.fast = 200_000;
    let t = run(&c).unwrap();
    assert_eq!(t.service.p99, Some(200_000));
    assert!(t.end_to_end.p99.unwrap() > SECOND);
    assert!(t
        .series
        .iter()
        .any(|b| b.queue_len > 0 && b.workers_busy == 1));
}

#[test]
fn bulkhead_limits_calls_in_flight() {
    let mut c = Scenario::Bulkhead.config();
    c.first_stack_mut().breaker = None;
    let t = run(&c).unwrap();
    assert!(t.outcomes.bulkhead_full > 0);
    // At most 8 slow calls hold a permit; each holds it 300 ms: under ~27 calls/s.
    let slow_calls: u64 = t.series[40..100].iter().map(|b| b.inventory_calls).sum();
    assert!(slow_calls <= 8 * 60 / 3 + 8, "{slow_calls}");
    assert_eq!(t.outcomes.total(), t.sent);
}

#[test]
fn very_long_drains_keep_a_bounded_series() {
    let mut c = Scenario::None.config();
    c.service.threads = 1;
    c.first_mut().faults.slow = 3_600 * SECOND;
    c.traffic.rate = 10.0;
    c.traffic.duration = 5 * SECOND;
    let t = run(&c).unwrap();
    assert_eq!(t.outcomes.total(), t.sent);
    assert!(t.series_truncated);
    assert!(t.series.len() <= MAX_BUCKETS);
}

#[test]
fn bucket_gauges_follow_the_bulkhead_and_the_breaker() {
    let t = run(&Scenario::Bulkhead.config()).unwrap();
    let permits = Scenario::Bulkhead
        .config()
        .first_stack()
        .unwrap()
        .bulkhead
        .clone()
        .unwrap()
        .permits;
    assert!(t.series.iter().all(|b| b.bulkhead_in_use <= permits));
    assert!(t.series.iter().any(|b| b.bulkhead_in_use == permits));
    assert!(t.series.iter().any(|b| b.bulkhead_waiting > 0));
    assert!(t.series.iter().all(|b| b.gateway_in_use == 0));
    assert!(t.series.iter().all(|b| b.window_failures <= b.window_calls));
    // In the lesson's model every refusal of the breaker ends a request as circuit_open.
    let refused: u64 = t.series.iter().map(|b| b.breaker_rejections).sum();
    assert_eq!(refused, t.outcomes.circuit_open);
    assert!(refused > 0);
    // In `cb` the probes hold a worker for the 300 ms timeout, so some slices end with
    // the three of them in flight, and only while half open.
    let t = run(&Scenario::Cb.config()).unwrap();
    assert!(t.series.iter().any(|b| b.probes_in_flight == 3));
    assert!(t
        .series
        .iter()
        .all(|b| (b.probes_in_flight > 0) == (b.breaker_state == 1)));
}

#[test]
fn the_window_gauge_explains_the_first_trip() {
    let c = Scenario::Cb.config();
    let t = run(&c).unwrap();
    let open = t.first_open().unwrap();
    let change = t.transitions.iter().find(|c| c.at == open).unwrap();
    let TransitionReason::FailureRatio { failures, calls } = change.reason else {
        panic!("{change:?}");
    };
    assert!(calls >= 20 && 2 * failures >= calls, "{change:?}");
    // The slice that ended just before the trip: enough calls, ratio still under 50%.
    let before = &t.series[(open / BUCKET) as usize - 1];
    assert!(before.window_calls >= 20, "{before:?}");
    assert!(
        2 * before.window_failures < before.window_calls,
        "{before:?}"
    );
    // Failures have been landing at 100/s since 3.3 s: nearly 300 of them by then.
    assert!(before.window_failures > 250, "{before:?}");
    assert_eq!(before.breaker_state, 0);
    // Without a breaker the window gauges stay at 0.
    let t = run(&Scenario::Timeout.config()).unwrap();
    assert!(t
        .series
        .iter()
        .all(|b| b.window_calls == 0 && b.breaker_rejections == 0));
}

#[test]
fn request_records_only_when_asked_and_consistent_with_the_counts() {
    let mut c = Scenario::Bulkhead.config();
    assert!(run(&c).unwrap().requests.is_empty());
    for drain in [true, false] {
        c.run.drain = drain;
        c.run.record_requests = true;
        let t = run(&c).unwrap();
        assert_eq!(t.requests.len() as u64, t.sent);
        let mut counts = OutcomeCounts::default();
        for r in &t.requests {
            counts.add(r.outcome);
            assert_eq!(
                r.finished.is_none(),
                r.outcome == Outcome::Unfinished,
                "{r:?}"
            );
            if let Some(s) = r.started {
                assert!(s >= r.arrived);
                assert!(r.finished.is_none_or(|f| f >= s), "{r:?}");
            }
        }
        assert_eq!(counts, t.outcomes);
        assert!(t.requests.windows(2).all(|w| w[0].arrived <= w[1].arrived));
    }
    let mut c = Scenario::None.config();
    c.run.drain = false;
    c.run.record_requests = true;
    let t = run(&c).unwrap();
    assert!(t.outcomes.unfinished > 0);
    assert!(t
        .requests
        .iter()
        .any(|r| r.started.is_none() && r.outcome == Outcome::Unfinished));
}

#[test]
fn memory_follows_requests_alive_not_requests_sent() {
    // 100,000 requests; with a 300 ms timeout at most ~300 are alive at once.
    let mut c = Scenario::Timeout.config();
    c.traffic.rate = 1_000.0;
    c.traffic.duration = 100 * SECOND;
    c.service.threads = 1_000;
    let t = run(&c).unwrap();
    assert_eq!(t.sent, 100_000);
    assert!(t.peak_live_requests < 1_000, "{}", t.peak_live_requests);
    assert!(t.requests.is_empty());
    // Without protection they pile up in the queue: alive grows, as it should.
    let t = run(&Scenario::None.config()).unwrap();
    assert!(t.peak_live_requests > 500, "{}", t.peak_live_requests);
}

#[test]
fn bad_config_is_an_error() {
    let mut c = Scenario::None.config();
    c.service.threads = 0;
    match run(&c) {
        Err(RunError::Param(e)) => assert_eq!(e.field, "threads"),
        other => panic!("{other:?}"),
    }
    let mut c = Scenario::None.config();
    c.traffic.rate = 10_000.0;
    c.traffic.duration = 600 * SECOND;
    assert!(matches!(run(&c), Err(RunError::Param(e)) if e.field == "rate"));
}

#[test]
fn an_outcome_fails_a_call_when_the_call_end_it_reports_falls_back() {
    let ends = [
        CallEnd::Answered,
        CallEnd::Business,
        CallEnd::Failed(Failure::Timeout),
        CallEnd::Failed(Failure::TryTimeout),
        CallEnd::Failed(Failure::Unavailable),
        CallEnd::Refused(Refusal::Bulkhead),
        CallEnd::Refused(Refusal::Breaker),
        CallEnd::Refused(Refusal::Budget),
    ];
    static LISTED: [crate::sim::trace::Level; LEVELS.len()] = LEVELS;
    let ends = ends
        .into_iter()
        .chain(LISTED.iter().map(|l| CallEnd::Refused(Refusal::Level(l))));
    let mut reported = std::collections::BTreeSet::new();
    for end in ends {
        assert_eq!(end.outcome().failed_a_call(), end.falls_back(), "{end:?}");
        assert_eq!(
            end.falls_back(),
            end != CallEnd::Answered && end != CallEnd::Business
        );
        reported.insert(end.outcome());
    }
    for outcome in Outcome::ALL.into_iter().filter(|o| !reported.contains(o)) {
        assert!(!outcome.failed_a_call(), "{outcome:?} is no call's end");
    }
    assert_eq!(
        CallEnd::Failed(Failure::TryTimeout).of_stack().outcome(),
        Outcome::Timeout
    );
    assert_eq!(
        CallEnd::Business.breaker_record(true),
        Some(CallResult::Failure)
    );
    assert_eq!(
        CallEnd::Refused(Refusal::Breaker).breaker_record(false),
        None
    );
}

/// Every counter a run reports is one of [`COUNTERS`], once, with its figure's name its own
/// written with dashes, and every level one of [`LEVELS`], ending where its last move left it
/// and no lower than its lowest; and every one of both lists is reported by some run.
#[test]
fn every_counter_and_level_a_run_reports_is_listed_once() {
    use crate::sim::scenario::Preset;
    let mut reported = std::collections::BTreeSet::new();
    let mut moved = false;
    for preset in Preset::ALL {
        let layers = [
            None,
            Some(("hedge", "on")),
            Some(("retry_budget_ratio", "0.1")),
        ];
        for layer in layers {
            let mut c = preset.config();
            // Long enough for the adaptive limit's story to move its limit (from 7 s on).
            c.traffic.duration = c.traffic.duration.min(10_000_000);
            if layer.is_some_and(|(key, value)| apply_set(&mut c, key, value).is_err()) {
                continue;
            }
            let Ok(t) = run(&c) else { continue };
            for count in &t.layer_counts {
                let listed = COUNTERS.iter().filter(|c| c.name == count.name).count();
                assert_eq!(listed, 1, "{}: {}", preset.key(), count.name);
                reported.insert(count.name.clone());
            }
            for level in &t.layer_levels {
                let listed = LEVELS.iter().filter(|l| l.name == level.name).count();
                assert_eq!(listed, 1, "{}: {}", preset.key(), level.name);
                assert_eq!(level.at(t.end), level.last, "{}", preset.key());
                let values = level.changes.iter().map(|c| c.value);
                let lowest = values.chain([level.initial]).min();
                assert_eq!(Some(level.lowest), lowest, "{}", preset.key());
                moved |= !level.changes.is_empty();
                reported.insert(level.name.clone());
            }
        }
    }
    assert!(moved, "some run moves a level");
    for level in LEVELS {
        assert!(level.what.starts_with("the "), "{}", level.name);
        assert!(
            reported.contains(level.name),
            "no run reports {}",
            level.name
        );
    }
    for counter in COUNTERS {
        assert_eq!(counter.figure, counter.name.replace('_', "-"));
        assert!(
            counter.what.starts_with("the number of"),
            "{}",
            counter.name
        );
        assert!(!counter.label.is_empty(), "{}", counter.name);
        assert!(
            reported.contains(counter.name),
            "no run reports {}",
            counter.name
        );
    }
}

/// Every outcome is listed once in [`Outcome::ALL`], sorted by name; each layer's refusal has
/// a slot of its own within [`LayerRefusal::ROOM`], a story naming the dependency, and a level
/// that refuses with it; and every outcome is read back from what it is written as, a count
/// of refusals too.
#[test]
fn every_outcome_is_listed_once_and_read_back_by_its_name() {
    use crate::sim::trace::LayerRefusal;
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
    let mut sorted = names.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(names, sorted, "sorted by name, none twice");
    assert_eq!(
        Outcome::ALL.len(),
        Outcome::PLAIN.len() + Outcome::REFUSALS.len()
    );
    let mut slots: Vec<usize> = Outcome::REFUSALS.iter().map(|r| r.facts().slot).collect();
    slots.sort_unstable();
    slots.dedup();
    assert_eq!(slots.len(), Outcome::REFUSALS.len(), "a slot each");
    for refusal in Outcome::REFUSALS {
        let facts = refusal.facts();
        assert!(facts.slot < LayerRefusal::ROOM, "{}", facts.name);
        assert!(facts.story.contains("{dependency}"), "{}", facts.name);
        assert!(!facts.words.is_empty(), "{}", facts.name);
        let refused = Outcome::Refused(refusal);
        assert!(Outcome::ALL.contains(&refused));
        assert!(
            LEVELS.iter().any(|l| l.refuses == refused),
            "{}",
            facts.name
        );
    }
    let mut counts = OutcomeCounts::default();
    for (i, outcome) in Outcome::ALL.into_iter().enumerate() {
        let written = serde_json::to_string(&outcome).unwrap();
        assert_eq!(written, format!("\"{}\"", outcome.name()));
        assert_eq!(serde_json::from_str::<Outcome>(&written).unwrap(), outcome);
        (0..=i).for_each(|_| counts.add(outcome));
    }
    let written = serde_json::to_string(&counts).unwrap();
    assert_eq!(
        serde_json::from_str::<OutcomeCounts>(&written).unwrap(),
        counts
    );
    let unknown = serde_json::from_str::<Outcome>("\"refused_by_nobody\"").unwrap_err();
    assert!(
        unknown.to_string().contains("concurrency_limited"),
        "{unknown}"
    );
}

/// Every pattern at the door of `orders` has one door row, and no other pattern has one; each
/// switches its own part on and off and leaves the other doors as they were.
#[test]
fn every_door_is_one_row_that_switches_its_own_part() {
    use crate::sim::pattern::Place;
    for p in Pattern::ALL {
        let rows = DOORS.iter().filter(|d| d.pattern == p).count();
        assert_eq!(
            rows,
            usize::from(p.describe().place == Place::Door),
            "{}",
            p.key()
        );
    }
    for door in DOORS {
        let part = door.pattern.part();
        assert_eq!(part, part::Part::Door(door.pattern));
        let mut cfg = Scenario::None.config();
        let others = |c: &SimConfig| {
            let other_doors = DOORS.iter().filter(|d| d.pattern != door.pattern);
            other_doors
                .map(|d| (d.is_on)(&c.service))
                .collect::<Vec<bool>>()
        };
        let before = others(&cfg);
        assert!(!part.is_on(&cfg), "{}", door.pattern.key());
        part.switch_on(&mut cfg);
        assert!(
            part.is_on(&cfg) && door.pattern.is_on(&cfg),
            "{}",
            door.pattern.key()
        );
        assert_eq!(others(&cfg), before, "{}", door.pattern.key());
        assert!(cfg.validate().is_ok(), "{}", door.pattern.key());
        part.switch_off(&mut cfg);
        assert!(!part.is_on(&cfg), "{}", door.pattern.key());
        assert_eq!(part.label(), door.label);
    }
}
