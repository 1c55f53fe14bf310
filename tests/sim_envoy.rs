//! The sidecar under Envoy's rules, one test per documented rule: the route retries what its
//! `retry_on` names and nothing else, Envoy's back-off, the route's timeout over every try, and
//! the cluster's cap on retries in flight (`max_retries`, or a retry budget).

#[path = "support/failing_inventory.rs"]
mod failing_inventory;

use failing_inventory::{calls, with_sets, MS, SECOND};
use resilience_playground::sim::model::{run, SidecarConfig, SimConfig, RETRY_OVERFLOW};
use resilience_playground::sim::scenario::Scenario;

/// [`failing_inventory::failing`] with a transient error that Envoy sees as a 503.
fn failing(slow: u64, error_rate: f64) -> SimConfig {
    failing_inventory::failing(slow, error_rate, 11)
}

#[test]
fn envoy_retries_a_503_up_to_num_retries_and_counts_each_retry() {
    // Every call fails in 10 ms (but one at 0 s, before the slowdown); the cap on retries in
    // flight is far away.
    let t = run(&with_sets(
        failing(10 * MS, 1.0),
        &[
            ("envoy", "on"),
            ("sidecar_retries", "2"),
            ("max_retries", "100000"),
        ],
    ))
    .unwrap();
    let failed = t.outcomes.dependency_error;
    assert!(failed + 1 >= t.sent && failed > 1_000, "{:?}", t.outcomes);
    assert_eq!(
        t.sidecar_retries,
        2 * failed,
        "two retries a failed request"
    );
    assert_eq!(calls(&t), t.sent + t.sidecar_retries);
    assert_eq!(t.total(RETRY_OVERFLOW), Some(0));
}

#[test]
fn a_409_is_retried_only_under_retriable_4xx() {
    let mut c = failing(10 * MS, 0.0);
    c.first_mut().faults.business_error_rate = 0.5;
    let on_5xx = run(&with_sets(c.clone(), &[("envoy", "on")])).unwrap();
    assert_eq!(on_5xx.sidecar_retries, 0, "a 409 is not a 5xx");
    assert!(on_5xx.outcomes.business_rejected > 0);

    let mut conflicts = with_sets(c, &[("envoy", "on")]);
    let sidecar = conflicts.first_stack_mut().sidecar.as_mut().unwrap();
    sidecar.envoy.as_mut().unwrap().retry_on.conflicts = true;
    sidecar.retries = 1;
    let t = run(&conflicts).unwrap();
    // Half the tries answer 409; each first one is retried once (cap 3 in flight, 10 ms each:
    // about 1 retry in flight at 100/s x 0.5 x 10 ms, so almost none overflow).
    let first_409s = on_5xx.outcomes.business_rejected;
    assert!(
        t.sidecar_retries * 10 >= first_409s * 9,
        "{} vs {first_409s}",
        t.sidecar_retries
    );
    assert!(
        t.outcomes.business_rejected * 3 < first_409s * 2,
        "the retry finds stock half the time"
    );
}

#[test]
fn a_per_try_timeout_is_retried_as_a_5xx_and_the_route_timeout_covers_every_try() {
    // Inventory takes 1 s; the per-try timeout cuts each try at 200 ms, Envoy retries twice;
    // the route's timeout, 500 ms, ends what is left.
    let c = with_sets(
        failing(SECOND, 0.0),
        &[
            ("envoy", "on"),
            ("sidecar_retries", "2"),
            ("max_retries", "100000"),
        ],
    );
    let mut c = c;
    // The route's timeout is the stack's (its key only tunes a timeout already there).
    c.first_stack_mut().timeout = Some(500 * MS);
    c.first_stack_mut()
        .sidecar
        .as_mut()
        .unwrap()
        .per_try_timeout = Some(200 * MS);
    c.run.record_requests = true;
    let t = run(&c).unwrap();
    assert!(
        t.sidecar_retries >= t.sent,
        "every request retried at least once"
    );
    assert!(
        t.outcomes.timeout + 1 >= t.sent,
        "no try answers but one: {:?}",
        t.outcomes
    );
    // No request is held past the route's timeout (its service time is the call's time).
    let longest = t
        .requests
        .iter()
        .filter_map(|r| Some(r.finished? - r.started?))
        .max()
        .unwrap();
    assert!(longest <= 500 * MS, "{longest}");
    assert!(longest >= 400 * MS, "{longest}");
}

#[test]
fn a_back_off_that_would_pass_the_route_timeout_ends_the_request_when_the_timeout_fires() {
    // Calls fail in 10 ms; the back-off starts at 1 s and the route's timeout is 1.5 s, so a
    // second retry's wait (below 2 s) often outlasts the timeout: the request then ends at
    // 1.5 s exactly, timed out.
    let mut c = with_sets(
        failing(10 * MS, 1.0),
        &[
            ("envoy", "on"),
            ("sidecar_retries", "3"),
            ("max_retries", "100000"),
        ],
    );
    c.first_stack_mut().timeout = Some(1_500 * MS);
    let sidecar = c.first_stack_mut().sidecar.as_mut().unwrap();
    sidecar.base = SECOND;
    sidecar.cap = 10 * SECOND;
    c.run.record_requests = true;
    let t = run(&c).unwrap();
    let times: Vec<u64> = t
        .requests
        .iter()
        .filter_map(|r| Some(r.finished? - r.started?))
        .collect();
    assert!(t.outcomes.timeout > t.sent / 4, "{:?}", t.outcomes);
    assert!(times.iter().all(|&s| s <= 1_500 * MS));
    let at_the_timeout = times.iter().filter(|&&s| s == 1_500 * MS).count() as u64;
    assert_eq!(
        at_the_timeout, t.outcomes.timeout,
        "each timed out at the route's timeout"
    );
}

#[test]
fn max_retries_caps_the_retries_in_flight_and_a_budget_follows_the_requests_in_flight() {
    // Every call fails after 100 ms: about 11 retries wanted in flight at any moment (100/s,
    // each holding its slot for its wait and its 100 ms try).
    let base = failing(100 * MS, 1.0);
    let uncapped = run(&with_sets(
        base.clone(),
        &[("envoy", "on"), ("max_retries", "100000")],
    ))
    .unwrap();
    let failed = uncapped.sent - uncapped.outcomes.ok;
    assert_eq!(uncapped.sidecar_retries, failed);
    // Envoy's default, 3 in flight: about 3 / 0.11 s = 27 retries a second of the 100 wanted;
    // every failure asked once, granted or refused.
    let capped = run(&with_sets(base.clone(), &[("envoy", "on")])).unwrap();
    let overflow = capped.total(RETRY_OVERFLOW).unwrap();
    assert_eq!(
        capped.sidecar_retries + overflow,
        capped.sent - capped.outcomes.ok
    );
    let per_second = capped.sidecar_retries as f64 / 20.0;
    assert!((20.0..=34.0).contains(&per_second), "{per_second}/s");
    // A budget of half the requests in flight (about 10 first tries, plus the retries) lets
    // most through, fewer than no cap at all.
    let half = run(&with_sets(
        base.clone(),
        &[
            ("envoy", "on"),
            ("retry_budget_percent", "50"),
            ("min_retry_concurrency", "1"),
        ],
    ))
    .unwrap();
    assert!(
        capped.sidecar_retries * 2 < half.sidecar_retries
            && half.sidecar_retries < uncapped.sidecar_retries,
        "{} < {} < {}",
        capped.sidecar_retries,
        half.sidecar_retries,
        uncapped.sidecar_retries
    );
    // A budget of 0% is its minimum, never below: 3 in flight, as max_retries 3.
    let floor = run(&with_sets(
        base,
        &[
            ("envoy", "on"),
            ("retry_budget_percent", "0"),
            ("min_retry_concurrency", "3"),
        ],
    ))
    .unwrap();
    let (a, b) = (floor.sidecar_retries as f64, capped.sidecar_retries as f64);
    assert!((a - b).abs() < b * 0.15, "{a} vs {b}");
}

#[test]
fn switching_envoy_on_gives_envoys_defaults_and_off_gives_the_lessons_sidecar_back() {
    let on = with_sets(Scenario::None.config(), &[("envoy", "on")]);
    assert_eq!(
        on.first_stack().unwrap().sidecar,
        Some(SidecarConfig::envoy())
    );
    let off = with_sets(on, &[("envoy", "off")]);
    let sidecar = off.first_stack().unwrap().sidecar.clone().unwrap();
    assert_eq!(sidecar.envoy, None);
    // A lesson sidecar takes Envoy's rules and keeps its numbers.
    let lesson = with_sets(
        Scenario::None.config(),
        &[("sidecar_retries", "2"), ("max_retries", "5")],
    );
    let s = lesson.first_stack().unwrap().sidecar.clone().unwrap();
    assert_eq!((s.retries, s.per_try_timeout), (2, Some(300 * MS)));
    assert!(s.envoy.is_some());
}

/// A followed request whose retry the cluster refused says so, with the retries in flight.
#[test]
fn a_followed_request_shows_the_retry_its_cluster_refused() {
    use resilience_playground::sim::life::Happening;
    use resilience_playground::sim::model::follow;
    let cfg = with_sets(failing(100 * MS, 1.0), &[("envoy", "on")]);
    let refused = (100..160).find_map(|id| {
        let (_, life) = follow(&cfg, id).unwrap();
        life?.marks.iter().find_map(|m| match m.happening {
            Happening::RetryOverflow { in_flight } => Some(in_flight),
            _ => None,
        })
    });
    assert_eq!(
        refused,
        Some(3),
        "Envoy's default max_retries, all in flight"
    );
}
