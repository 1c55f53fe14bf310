//! The `polly` stack profile, one test per documented rule: the breaker's minimum throughput
//! and failure ratio over its sampling duration, its single probe, what the HTTP handler
//! retries (a transient failure and a timeout; not a 409, not a refusal by the open breaker),
//! `MaxRetryAttempts`, and the attempt timeout's cancellation freeing a permit.

#[path = "support/failing_inventory.rs"]
mod failing_inventory;

use failing_inventory::{calls, with_sets, MS, SECOND};
use resilience_playground::resilience::{CallResult, CircuitBreaker, Mode};
use resilience_playground::sim::model::{
    run, Pattern, PollyStack, Profile, Resilience4jStack, SimConfig,
};
use resilience_playground::sim::params::apply_set;

/// [`failing_inventory::failing`] through Polly's stack, with `layers` switched on at the
/// standard handler's values, then `sets`.
fn failing(slow: u64, error_rate: f64, layers: &[Pattern], sets: &[(&str, &str)]) -> SimConfig {
    let mut c = failing_inventory::failing(slow, error_rate, 12);
    apply_set(&mut c, "stack", "polly").unwrap();
    for p in layers {
        p.part().switch_on(&mut c);
    }
    with_sets(c, sets)
}

/// Records `n` calls a millisecond apart, the last `failing` of them failures.
fn record(b: &mut CircuitBreaker, n: u64, failing: u64, from: u64) {
    for i in 0..n {
        let now = from + i * MS;
        let a = b.try_acquire(now).expect("admitted while closed");
        let result = if i >= n - failing {
            CallResult::Failure
        } else {
            CallResult::Success
        };
        b.record(now, a, result, MS);
    }
}

#[test]
fn a_breaker_with_minimum_throughput_100_never_opens_on_99_calls_in_its_sampling_duration() {
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    record(&mut b, 99, 99, 0);
    assert!(
        b.try_acquire(99 * MS).is_ok(),
        "99 failures in 30 s: still closed"
    );
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    record(&mut b, 100, 100, 0);
    assert!(
        b.try_acquire(100 * MS).is_err(),
        "the 100th failure opens it"
    );
}

#[test]
fn it_opens_when_the_failure_ratio_reaches_failure_ratio_and_not_below() {
    // 10 failures in 100 calls is 10%, the standard handler's ratio: open.
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    record(&mut b, 100, 10, 0);
    assert!(b.try_acquire(100 * MS).is_err());
    // 9 in 100 stays closed.
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    record(&mut b, 100, 9, 0);
    assert!(b.try_acquire(100 * MS).is_ok());
}

#[test]
fn the_thresholds_are_judged_after_a_failure_not_after_a_success() {
    // Ten failures, then successes up to the 100th call: 10% over 100 calls, but the last
    // result was a success, so the breaker stays closed until the next failure.
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    for i in 0..100 {
        let a = b.try_acquire(i * MS).unwrap();
        let result = if i < 10 {
            CallResult::Failure
        } else {
            CallResult::Success
        };
        b.record(i * MS, a, result, MS);
    }
    let a = b
        .try_acquire(100 * MS)
        .expect("still closed after a success");
    b.record(100 * MS, a, CallResult::Failure, MS);
    assert!(
        b.try_acquire(101 * MS).is_err(),
        "the next failure opens it"
    );
}

#[test]
fn after_the_break_one_probe_goes_and_the_others_are_refused_until_it_answers() {
    let mut b = CircuitBreaker::new(PollyStack::standard_breaker()).unwrap();
    record(&mut b, 100, 100, 0);
    // Opened by the 100th failure, at 99 ms.
    let after_break = 99 * MS + 5 * SECOND;
    assert!(b.try_acquire(after_break - MS).is_err(), "still open");
    let probe = b.try_acquire(after_break).expect("one probe after 5 s");
    assert!(
        b.try_acquire(after_break + MS).is_err(),
        "a second call waits"
    );
    b.record(after_break + 2 * MS, probe, CallResult::Success, MS);
    assert!(
        b.try_acquire(after_break + 3 * MS).is_ok(),
        "the probe's success closed it"
    );
}

#[test]
fn transient_failures_are_retried_max_retry_attempts_times() {
    // Every call fails in 10 ms; no breaker. MaxRetryAttempts 3 is 4 attempts.
    let t = run(&failing(
        10 * MS,
        1.0,
        &[],
        &[("attempts", "4"), ("retry_base", "0.01")],
    ))
    .unwrap();
    let failed = t.outcomes.dependency_error;
    assert!(failed > 1_000, "{:?}", t.outcomes);
    assert_eq!(
        t.library_retries,
        3 * failed,
        "three retries a failed request"
    );
    assert_eq!(calls(&t), t.sent + t.library_retries);
}

#[test]
fn a_refusal_by_the_open_breaker_is_not_retried() {
    let mut c = failing(10 * MS, 1.0, &[Pattern::BREAKER], &[("attempts", "4")]);
    c.first_stack_mut().breaker.as_mut().unwrap().mode = Mode::ForcedOpen;
    let t = run(&c).unwrap();
    assert_eq!(t.outcomes.circuit_open, t.sent, "{:?}", t.outcomes);
    assert_eq!(
        t.library_retries, 0,
        "BrokenCircuitException is not transient"
    );
    assert_eq!(calls(&t), 0);
    // Resilience4j's Retry, with no retry-exceptions, retries the same refusal.
    let mut r4j = c.clone();
    apply_set(&mut r4j, "stack", "resilience4j").unwrap();
    r4j.first_stack_mut().profile = Profile::Resilience4j(Resilience4jStack {
        retry_exceptions: Vec::new(),
        retry_ignore_exceptions: Vec::new(),
        ..Resilience4jStack::default()
    });
    let t = run(&r4j).unwrap();
    assert!(t.library_retries >= 2 * t.sent, "{}", t.library_retries);
}

#[test]
fn an_out_of_stock_409_is_an_answer_to_both_retry_and_breaker() {
    let mut c = failing(
        10 * MS,
        0.0,
        &[Pattern::BREAKER],
        &[("attempts", "4"), ("min_calls", "20")],
    );
    c.first_mut().faults.business_error_rate = 0.6;
    let t = run(&c).unwrap();
    assert!(t.outcomes.business_rejected > 500, "{:?}", t.outcomes);
    assert_eq!(t.library_retries, 0);
    assert_eq!(
        t.outcomes.circuit_open, 0,
        "a 409 is no failure to the breaker"
    );
}

#[test]
fn a_timed_out_attempt_is_retried_and_its_cancelled_call_frees_its_permit() {
    // Inventory takes 2 s; the attempt timeout is 100 ms; a bulkhead of 400 permits.
    let c = failing(
        2 * SECOND,
        0.0,
        &[Pattern::TIMEOUT, Pattern::BULKHEAD],
        &[
            ("timeout", "0.1"),
            ("attempts", "3"),
            ("retry_base", "0.01"),
            ("permits", "400"),
        ],
    );
    let t = run(&c).unwrap();
    assert!(t.outcomes.timeout > 1_000, "{:?}", t.outcomes);
    assert_eq!(t.library_retries, 2 * t.outcomes.timeout);
    // Each attempt holds its permit 100 ms at most: about 100 × 3 × 0.1 = 30 in use, never
    // 400, so no call is refused for want of one. Kept until inventory answered, 2 s each,
    // they would run out.
    assert_eq!(t.outcomes.bulkhead_full, 0, "{:?}", t.outcomes);
}
