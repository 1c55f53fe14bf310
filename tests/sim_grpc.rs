//! The `grpc` stack profile, one test per documented rule: `maxAttempts` above 5 makes 5,
//! the retry throttle stops retries while its tokens are at or below half of `maxTokens`, the
//! `timeout` is a deadline over every attempt and wait, the caller's own `DEADLINE_EXCEEDED`
//! is never retried, only the listed codes are, and the channel has no breaker or bulkhead.

#[path = "support/failing_inventory.rs"]
mod failing_inventory;

use failing_inventory::{calls, with_sets, MS, SECOND};
use resilience_playground::resilience::{
    BreakerConfig, BulkheadConfig, StatusCode, ThrottleConfig,
};
use resilience_playground::sim::model::{
    run, GrpcStack, HedgeConfig, Pattern, Profile, SimConfig, StackConfig, RETRIES_THROTTLED,
};
use resilience_playground::sim::params::apply_set;
use resilience_playground::sim::scenario::Preset;
use resilience_playground::sim::trace::{Route, Trace};

/// [`failing_inventory::failing`] at `rate` requests/s (the transient error is `UNAVAILABLE`),
/// through gRPC's stack with `settings`, then `sets`.
fn channel(
    rate: f64,
    slow: u64,
    error_rate: f64,
    settings: GrpcStack,
    sets: &[(&str, &str)],
) -> SimConfig {
    let mut c = failing_inventory::failing(slow, error_rate, 12);
    c.traffic.rate = rate;
    apply_set(&mut c, "stack", "grpc").unwrap();
    c.first_stack_mut().profile = Profile::Grpc(settings);
    // `timeout` tunes a timeout that is on (as `--set` does for the lesson's scenarios).
    if sets.iter().any(|(k, _)| *k == "timeout") {
        Pattern::TIMEOUT.part().switch_on(&mut c);
    }
    let c = with_sets(c, sets);
    c.validate().unwrap();
    c
}

fn unthrottled() -> GrpcStack {
    GrpcStack {
        throttling: None,
        ..GrpcStack::typical()
    }
}

fn requests(t: &Trace) -> u64 {
    let orders = t.routes.iter().find(|r| r.route == Route::Orders);
    orders.map_or(0, |r| r.sent)
}

#[test]
fn max_attempts_10_acts_as_5() {
    let c = channel(10.0, 40 * MS, 1.0, unthrottled(), &[("attempts", "10")]);
    assert_eq!(c.first_stack().unwrap().retry.unwrap().attempts, 10);
    let t = run(&c).unwrap();
    assert!(requests(&t) > 100);
    let failed = t.outcomes.dependency_error;
    assert!(failed > 190);
    assert_eq!(
        calls(&t),
        5 * failed + t.outcomes.ok,
        "five attempts, not ten"
    );
    let c = channel(10.0, 40 * MS, 1.0, unthrottled(), &[("attempts", "4")]);
    let t = run(&c).unwrap();
    assert_eq!(calls(&t), 4 * t.outcomes.dependency_error + t.outcomes.ok);
}

#[test]
fn retries_stop_while_the_tokens_are_at_or_below_half_of_max_tokens() {
    // One request a second, each failing fast (but the first, at 0 s, before the fault):
    // no two overlap. The bucket of 10 goes
    // 9 (retry), 8 (retry), 7 (the third attempt, none left), 6 (retry), 5 (at half: no
    // retry); with nothing succeeding it never rises again.
    let c = channel(
        1.0,
        40 * MS,
        1.0,
        GrpcStack::typical(),
        &[("attempts", "3")],
    );
    let t = run(&c).unwrap();
    assert_eq!(t.library_retries, 3);
    assert_eq!(calls(&t), requests(&t) + 3);
    // Every later request's first failure is a retry refused.
    assert_eq!(t.total(RETRIES_THROTTLED), Some(requests(&t) - 2));
    // A bucket of 1,000 never gets there in 20 requests: every retry goes.
    let roomy = GrpcStack {
        throttling: Some(ThrottleConfig {
            max_tokens: 1_000.0,
            token_ratio: 0.1,
        }),
        ..GrpcStack::typical()
    };
    let t = run(&channel(1.0, 40 * MS, 1.0, roomy, &[("attempts", "3")])).unwrap();
    assert_eq!(calls(&t), 3 * t.outcomes.dependency_error + t.outcomes.ok);
    assert_eq!(t.total(RETRIES_THROTTLED), Some(0));
}

#[test]
fn successes_give_tokens_back_and_retries_resume() {
    // Half the calls fail: each success returns 0.1 of a token, each failure takes 1, so the
    // bucket sinks to half and then hovers there, some retries going and some refused.
    let throttled = run(&channel(
        10.0,
        40 * MS,
        0.5,
        GrpcStack::typical(),
        &[("attempts", "3")],
    ))
    .unwrap();
    let refused = throttled.total(RETRIES_THROTTLED).unwrap();
    assert!(refused > 0);
    let free = run(&channel(
        10.0,
        40 * MS,
        0.5,
        unthrottled(),
        &[("attempts", "3")],
    ))
    .unwrap();
    assert!(
        throttled.library_retries > 3,
        "retries resumed after successes"
    );
    assert!(throttled.library_retries < free.library_retries);
}

#[test]
fn the_timeout_is_a_deadline_over_every_attempt_and_wait() {
    // Each try takes 400 ms and fails; the back-off is at most 1 ms. Attempts start near 0,
    // 400 and 800 ms; the third is cut at the 1 s deadline, and the call ends timed out.
    let mut settings = unthrottled();
    settings.multiplier = 1.0;
    let c = channel(
        5.0,
        400 * MS,
        1.0,
        settings,
        &[
            ("attempts", "5"),
            ("timeout", "1"),
            ("retry_base", "1ms"),
            ("retry_cap", "1ms"),
        ],
    );
    let t = run(&c).unwrap();
    let n = requests(&t);
    // The first request, at 0 s, comes before the fault and is answered.
    assert_eq!(t.outcomes.ok, 1);
    assert_eq!(
        t.outcomes.timeout,
        n - 1,
        "every other call ends at its deadline"
    );
    assert_eq!(
        calls(&t),
        3 * (n - 1) + 1,
        "three attempts fit in 1 s, not five"
    );
    assert!(t.service.p99.unwrap() <= 1_010 * MS);
}

#[test]
fn a_wait_past_the_deadline_ends_the_call_at_the_deadline_without_a_retry() {
    // A try fails after 600 ms; the first wait is drawn from 0.32 s to 0.48 s, so half the
    // waits pass the 1 s deadline: then the call ends at 1 s, and no second attempt goes.
    let mut settings = unthrottled();
    settings.multiplier = 1.0;
    let c = channel(
        5.0,
        600 * MS,
        1.0,
        settings,
        &[
            ("attempts", "3"),
            ("timeout", "1"),
            ("retry_base", "0.4"),
            ("retry_cap", "0.4"),
        ],
    );
    let t = run(&c).unwrap();
    let n = requests(&t);
    assert_eq!(t.outcomes.timeout + t.outcomes.ok, n);
    assert_eq!(calls(&t), n + t.library_retries);
    // Half the draws (0.32 s to 0.40 s of 0.32 s to 0.48 s) fall before the deadline.
    let share = t.library_retries as f64 / n as f64;
    assert!((0.4..0.6).contains(&share), "{share}");
    assert!(t.service.p99.unwrap() <= 1_010 * MS);
}

#[test]
fn the_callers_own_deadline_exceeded_is_never_retried_even_when_listed() {
    let mut settings = unthrottled();
    settings.retryable.push(StatusCode::DeadlineExceeded);
    let c = channel(
        10.0,
        4 * SECOND,
        0.0,
        settings,
        &[("timeout", "1"), ("attempts", "3")],
    );
    let t = run(&c).unwrap();
    assert_eq!(t.library_retries, 0);
    assert_eq!(t.outcomes.timeout + t.outcomes.ok, requests(&t));
    assert!(t.outcomes.timeout > 190);
}

#[test]
fn only_the_listed_status_codes_are_retried() {
    let mut settings = unthrottled();
    settings.retryable = vec![StatusCode::ResourceExhausted];
    let t = run(&channel(10.0, 40 * MS, 1.0, settings, &[("attempts", "3")])).unwrap();
    assert_eq!(t.library_retries, 0, "UNAVAILABLE is not listed");
    let t = run(&channel(
        10.0,
        40 * MS,
        1.0,
        unthrottled(),
        &[("attempts", "3")],
    ))
    .unwrap();
    assert_eq!(t.library_retries, 2 * t.outcomes.dependency_error);
}

#[test]
fn the_channel_has_no_breaker_and_no_bulkhead() {
    let mut c = channel(10.0, 40 * MS, 1.0, unthrottled(), &[]);
    type Put = fn(&mut StackConfig);
    let layers: [(Pattern, Put); 3] = [
        (Pattern::BREAKER, |s| {
            s.breaker = Some(BreakerConfig::cascade_sim())
        }),
        (Pattern::BULKHEAD, |s| {
            s.bulkhead = Some(BulkheadConfig::cascade_sim())
        }),
        (Pattern::HEDGE, |s| {
            s.rooms.hedge = Some(HedgeConfig::lesson_000())
        }),
    ];
    for (p, put) in layers {
        assert!(!c.first_stack().unwrap().profile.has_place_for(p), "{p:?}");
        let mut with = c.clone();
        put(with.first_stack_mut());
        let e = with.validate().unwrap_err().to_string();
        assert!(e.contains(p.key()) && e.contains("stack=grpc"), "{e}");
    }
    // Switching the stack to gRPC drops the layers it has no place for.
    apply_set(&mut c, "stack", "lesson").unwrap();
    Pattern::BREAKER.part().switch_on(&mut c);
    Pattern::BULKHEAD.part().switch_on(&mut c);
    apply_set(&mut c, "stack", "grpc").unwrap();
    let stack = c.first_stack().unwrap();
    assert!(stack.breaker.is_none() && stack.bulkhead.is_none());
    c.validate().unwrap();
}

#[test]
fn the_saturday_preset_ends_slow_calls_at_the_deadline_and_never_stops_calling() {
    let c = Preset::SaturdayGrpc.config();
    assert_eq!(c.first_stack().unwrap().profile.key(), "grpc");
    let t = run(&c).unwrap();
    assert!(t.first_open().is_none());
    assert!(t.outcomes.timeout > 1_000);
    // A 4 s inventory answers nothing in time and fails nothing: no retry is made.
    assert_eq!(t.library_retries, 0);
    assert_eq!(t.total(RETRIES_THROTTLED), Some(0));
}
