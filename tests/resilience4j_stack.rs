//! The `resilience4j` stack profile against what Resilience4j 2.2.0 does with lesson 004's
//! settings (docs/resilience4j.md): the worst case of one slow order as written and as meant,
//! the fallback's place, the retry whitelist, a full bulkhead counted by the breaker, the
//! permit a timed-out call keeps, and `--set stack=` switching a preset.

use resilience_playground::resilience::{
    BreakerConfig, BulkheadConfig, FallbackPolicy, HalfOpenRule, RetryPolicy,
};
use resilience_playground::sim::model::{
    run, HistoryBulkhead, Profile, Resilience4jStack, SimConfig,
};
use resilience_playground::sim::scenario::{apply_set, Preset};
use resilience_playground::sim::trace::{Outcome, Trace};

const MS: u64 = 1_000;
const SECOND: u64 = 1_000_000;

/// Two orders a second apart (at 0 and 1 s) with Northwind's stack; inventory answers in
/// 80 ms, and in 8 s for calls starting after 0.5 s, so the second order meets the slow
/// inventory with the breaker closed and every permit free.
fn one_slow_order(settings: Resilience4jStack) -> SimConfig {
    {
        let mut edited = SimConfig::default();
        edited.traffic.rate = 1.0;
        edited.service.threads = 10;
        edited.traffic.duration = 2 * SECOND;
        edited.first_mut().faults.degrade_at = Some(500 * MS);
        edited.first_mut().faults.fast = 80 * MS;
        edited.first_mut().faults.slow = 8 * SECOND;
        edited.first_stack_mut().timeout = Some(2 * SECOND);
        edited.first_stack_mut().retry = Some(RetryPolicy::northwind());
        edited.first_stack_mut().breaker = Some(BreakerConfig {
            half_open_rule: HalfOpenRule::RateOverPermitted,
            ..BreakerConfig::northwind()
        });
        edited.first_stack_mut().bulkhead = Some(BulkheadConfig::northwind());
        edited.service.fallback = Some(FallbackPolicy::northwind_reserve_stock());
        edited.run.record_requests = true;
        edited.first_stack_mut().profile = Profile::Resilience4j(settings);
        edited
    }
}

fn calls(t: &Trace) -> u64 {
    t.series.iter().map(|b| b.inventory_calls).sum()
}

/// The slow order's time in `orders` and its outcome.
fn slow_order(t: &Trace) -> (u64, Outcome) {
    let r = &t.requests[1];
    (r.finished.unwrap() - r.started.unwrap(), r.outcome)
}

#[test]
fn as_written_a_slow_order_gets_its_fallback_after_one_timeout_and_one_call() {
    let t = run(&one_slow_order(Resilience4jStack::lesson_004_as_written())).unwrap();
    assert_eq!(slow_order(&t), (2 * SECOND, Outcome::Fallback));
    assert_eq!((calls(&t), t.library_retries), (2, 0));
}

#[test]
fn as_meant_a_slow_order_takes_three_attempts_and_the_lessons_six_point_six_seconds() {
    let t = run(&one_slow_order(Resilience4jStack::lesson_004_as_meant())).unwrap();
    // 2 + 0.2 + 2 + 0.4 + 2 s.
    assert_eq!(slow_order(&t), (6_600 * MS, Outcome::Fallback));
    assert_eq!((calls(&t), t.library_retries), (4, 2));
    // Without enabling the backoff the multiplier is inert: 200 ms, 200 ms.
    let mut fixed = Resilience4jStack::lesson_004_as_meant();
    fixed.backoff_multiplier = None;
    let t = run(&one_slow_order(fixed)).unwrap();
    assert_eq!(slow_order(&t).0, 6_400 * MS);
}

#[test]
fn the_fallback_on_the_breaker_hides_failures_from_the_retry_and_on_the_retry_does_not() {
    // Inventory fails at once with a transient error, which both whitelists retry.
    let failing = |settings| {
        let mut edited = one_slow_order(settings);
        edited.first_mut().faults.slow = 10 * MS;
        edited.first_mut().faults.error_rate = 1.0;
        edited
    };
    let t = run(&failing(Resilience4jStack::lesson_004_as_written())).unwrap();
    assert_eq!(
        (t.library_retries, slow_order(&t).1),
        (0, Outcome::Fallback)
    );
    let t = run(&failing(Resilience4jStack::lesson_004_as_meant())).unwrap();
    assert_eq!(
        (t.library_retries, slow_order(&t).1),
        (2, Outcome::Fallback)
    );
    // With no fallback method at all, the last exception is what `orders` answers.
    let t = run(&{
        let mut edited = failing(Resilience4jStack::lesson_004_as_meant());
        edited.service.fallback = None;
        edited
    })
    .unwrap();
    assert_eq!(slow_order(&t).1, Outcome::DependencyError);
}

#[test]
fn a_timeout_is_retried_only_when_the_whitelist_names_it() {
    let mut settings = Resilience4jStack::lesson_004_as_meant();
    settings
        .retry_exceptions
        .retain(|c| !c.ends_with("TimeoutException"));
    let t = run(&one_slow_order(settings)).unwrap();
    assert_eq!((t.library_retries, slow_order(&t).0), (0, 2 * SECOND));
    // An empty whitelist retries every exception.
    let mut settings = Resilience4jStack::lesson_004_as_meant();
    settings.retry_exceptions.clear();
    let t = run(&one_slow_order(settings)).unwrap();
    assert_eq!(t.library_retries, 2);
}

#[test]
fn a_timed_out_call_keeps_its_permit_until_inventory_answers() {
    let held = |frees: bool| {
        let mut settings = Resilience4jStack::lesson_004_as_written();
        settings.time_limiter_frees_permit = frees;
        let t = run(&one_slow_order(settings)).unwrap();
        // The slow call starts at 1 s: its caller is answered at 3 s, inventory at 9 s.
        // Past the run's last event nothing is held (the series ends there).
        let in_use = |at: u64| {
            let bucket = t.series.get((at / (100 * MS)) as usize);
            bucket.map_or(0, |b| b.bulkhead_in_use)
        };
        (
            in_use(2_500 * MS),
            in_use(5 * SECOND),
            in_use(t.end + 100 * MS),
        )
    };
    assert_eq!(held(false), (1, 1, 0));
    assert_eq!(held(true), (1, 0, 0));
    let ended = |frees: bool| {
        let mut settings = Resilience4jStack::lesson_004_as_written();
        settings.time_limiter_frees_permit = frees;
        run(&one_slow_order(settings)).unwrap().end
    };
    // Drained, the run goes on until the abandoned call answers at 9 s.
    assert_eq!((ended(false), ended(true)), (9 * SECOND, 3 * SECOND));
}

#[test]
fn as_written_the_breaker_opens_on_full_bulkhead_refusals_before_any_timeout() {
    for preset in [
        Preset::NorthwindAsWrittenSeparate,
        Preset::NorthwindAsWrittenShared,
    ] {
        let cfg = preset.config();
        let t = run(&cfg).unwrap();
        let first_open = t.first_open().unwrap();
        // Inventory slows at 10 s; no call can time out before 12 s, so only refusals by the
        // bulkhead (recorded as failures) can have opened it.
        assert!(
            first_open > cfg.first().unwrap().faults.degrade_at.unwrap()
                && first_open < cfg.first().unwrap().faults.degrade_at.unwrap() + 2 * SECOND
        );
        assert_eq!(t.library_retries, 0, "{preset:?}");
    }
}

#[test]
fn set_stack_switches_a_preset_between_the_two_semantics() {
    let with = |preset: Preset, stack: &str| {
        let mut cfg = preset.config();
        apply_set(&mut cfg, "stack", stack).unwrap();
        run(&cfg).unwrap()
    };
    let plain = |preset: Preset| run(&preset.config()).unwrap();
    assert_eq!(
        with(Preset::NorthwindShared, "resilience4j"),
        plain(Preset::NorthwindAsWrittenShared)
    );
    assert_eq!(
        with(Preset::NorthwindAsMeantSeparate, "lesson"),
        plain(Preset::NorthwindSeparate)
    );
    // A preset keeps its own Resilience4j settings when switched to the profile it has.
    assert_eq!(
        with(Preset::NorthwindAsMeantShared, "resilience4j"),
        plain(Preset::NorthwindAsMeantShared)
    );
    let mut cfg = Preset::NorthwindShared.config();
    let e = apply_set(&mut cfg, "stack", "spring").unwrap_err();
    assert_eq!(
        (e.field, e.range.as_str()),
        ("stack", "lesson, resilience4j, polly, grpc")
    );
    assert_ne!(
        plain(Preset::NorthwindAsWrittenSeparate),
        plain(Preset::NorthwindSeparate)
    );
    assert_eq!(
        Preset::NorthwindAsWrittenShared
            .config()
            .routes
            .history_bulkhead,
        HistoryBulkhead::Shared
    );
}
