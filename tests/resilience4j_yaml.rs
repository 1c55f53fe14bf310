//! Reading a pasted `resilience4j:` block: the lesson's own settings, Resilience4j 2.2.0's
//! defaults for what it leaves out, relaxed key names, bases, and notices for what is wrong.

use resilience_playground::library_config::resilience4j::{
    duration, parse, Aspect, SlidingWindowType,
};
use resilience_playground::library_config::yaml::Yaml;
use resilience_playground::resilience::{HalfOpenRule, Window, MS, SECOND};

const LESSON: &str = include_str!("fixtures/northwind-resilience4j.yml");

#[test]
fn the_lessons_settings_are_read_with_the_librarys_defaults_for_the_rest() {
    let parsed = parse(LESSON).unwrap();
    assert_eq!(parsed.notices, vec![]);
    let c = &parsed.config;

    let cb = &c.circuit_breakers["inventoryReservation"];
    assert_eq!(cb.sliding_window_type, SlidingWindowType::CountBased);
    assert_eq!(cb.sliding_window_size, 20);
    // Left at 100, which a 20-call window caps at 20.
    assert_eq!(cb.minimum_number_of_calls, 100);
    assert_eq!(cb.effective_minimum_calls(), 20);
    assert_eq!(cb.wait_duration_in_open_state, 30 * SECOND);
    assert_eq!(cb.permitted_calls_in_half_open_state, 5);
    let breaker = cb.breaker_config();
    assert_eq!(breaker.window, Window::Count(20));
    assert_eq!(breaker.min_calls, 20);
    assert_eq!(breaker.failure_ratio, 0.5);
    assert_eq!(breaker.half_open_rule, HalfOpenRule::RateOverPermitted);
    // The breaker has no lists of its own: the business exception counts as a failure there.
    assert!(cb.records("StockUnavailableException"));

    let retry = &c.retries["inventoryReservation"];
    assert_eq!(retry.max_attempts, 3);
    // The multiplier is written, but without enable-exponential-backoff it is never read.
    assert!(!retry.enable_exponential_backoff);
    assert_eq!(retry.wait_before_retry(1), 200 * MS);
    assert_eq!(retry.wait_before_retry(2), 200 * MS);
    assert!(retry.retries("TransientInventoryException"));
    assert!(!retry.retries("StockUnavailableException"));
    // A whitelist: the time limiter's and the breaker's exceptions are not retried.
    assert!(!retry.retries("java.util.concurrent.TimeoutException"));
    assert!(!retry.retries("CallNotPermittedException"));
    assert!(!retry.retries("BulkheadFullException"));

    let tl = &c.time_limiters["inventoryReservation"];
    assert_eq!(tl.timeout_duration, 2 * SECOND);
    assert!(tl.cancel_running_future);

    for name in ["inventoryReservation", "orderHistoryLookup"] {
        let b = &c.bulkheads[name];
        assert_eq!(
            (b.max_concurrent_calls, b.max_wait_duration),
            (20, 100 * MS)
        );
    }
    assert_eq!(
        c.aspect_order.outside_in(),
        [
            Aspect::Retry,
            Aspect::CircuitBreaker,
            Aspect::RateLimiter,
            Aspect::TimeLimiter,
            Aspect::Bulkhead
        ]
    );
}

#[test]
fn exponential_backoff_applies_only_when_enabled() {
    let text = LESSON.replace(
        "        exponential-backoff-multiplier: 2\n",
        "        exponential-backoff-multiplier: 2\n        enable-exponential-backoff: true\n",
    );
    let retry = parse(&text).unwrap().config.retries["inventoryReservation"].clone();
    assert_eq!(retry.wait_before_retry(1), 200 * MS);
    assert_eq!(retry.wait_before_retry(2), 400 * MS);
}

#[test]
fn relaxed_names_bases_and_aspect_orders() {
    let text = "
resilience4j:
  circuitbreaker:
    circuitBreakerAspectOrder: 1
    configs:
      default:
        slidingWindowType: TIME_BASED
        slidingWindowSize: 10
      strict:
        failure_rate_threshold: 25
    instances:
      a: {}
      b:
        base-config: strict
        minimumNumberOfCalls: 5
  retry:
    retry-aspect-order: 2
    instances:
      a:
        maxAttempts: 5
";
    let parsed = parse(text).unwrap();
    assert_eq!(parsed.notices, vec![]);
    let c = &parsed.config;
    // `configs.default` applies to an instance that names no base...
    let a = &c.circuit_breakers["a"];
    assert_eq!(a.sliding_window_type, SlidingWindowType::TimeBased);
    assert_eq!(a.breaker_config().window, Window::Time(10 * SECOND));
    // ...and a named base replaces it.
    let b = &c.circuit_breakers["b"];
    assert_eq!(b.sliding_window_type, SlidingWindowType::CountBased);
    assert_eq!(b.failure_rate_threshold, 25.0);
    assert_eq!(b.minimum_number_of_calls, 5);
    assert_eq!(c.retries["a"].max_attempts, 5);
    // The breaker now wraps the retry: Resilience4j's order values decide, not the file's order.
    assert_eq!(
        c.aspect_order.outside_in()[..2],
        [Aspect::CircuitBreaker, Aspect::Retry]
    );
}

#[test]
fn unknown_keys_and_bad_values_are_named_and_the_default_is_used() {
    let text = "
resilience4j:
  retry:
    instances:
      inv:
        max-attempts: zero
        wait-duraton: 1s
  bulkhead:
    instances:
      inv:
        max-concurrent-calls: -3
        max-wait-duration: 2 hours
  circuitbreaker:
    instances:
      inv:
        failure-rate-threshold: 150
        base-config: nowhere
  hystrix: {}
";
    let parsed = parse(text).unwrap();
    let paths: Vec<&str> = parsed.notices.iter().map(|n| n.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "resilience4j.retry.instances.inv.max-attempts",
            "resilience4j.retry.instances.inv.wait-duraton",
            "resilience4j.bulkhead.instances.inv.max-concurrent-calls",
            "resilience4j.bulkhead.instances.inv.max-wait-duration",
            "resilience4j.circuitbreaker.instances.inv.base-config",
            "resilience4j.circuitbreaker.instances.inv.failure-rate-threshold",
            "resilience4j.hystrix",
        ]
    );
    let first = parsed.notices[0].to_string();
    assert!(
        first.contains("`zero`") && first.contains("1..=100"),
        "{first}"
    );
    let c = &parsed.config;
    assert_eq!(c.retries["inv"].max_attempts, 3);
    assert_eq!(c.bulkheads["inv"].max_concurrent_calls, 25);
    assert_eq!(c.circuit_breakers["inv"].failure_rate_threshold, 50.0);
}

#[test]
fn text_that_is_not_yaml_or_has_no_block_is_refused_with_a_reason() {
    assert_eq!(parse("a: [1, 2").unwrap_err().path, "line 1");
    // The line the reader stopped on, counted from 1.
    let deeper = parse("resilience4j:\n  retry:\n    a: [1, 2\n").unwrap_err();
    assert_eq!(deeper.path, "line 3");
    assert!(deeper.message.starts_with("not valid YAML: "), "{deeper}");
    assert_eq!(
        parse("spring:\n  application: x\n").unwrap_err().path,
        "resilience4j"
    );
    assert!(parse("").is_err());
}

#[test]
fn durations_as_spring_boot_writes_them() {
    let s = |t: &str| duration(&Yaml::String(t.to_string()));
    assert_eq!(s("2s"), Ok(2 * SECOND));
    assert_eq!(s("200ms"), Ok(200 * MS));
    assert_eq!(s("1m"), Ok(60 * SECOND));
    assert_eq!(s("PT2S"), Ok(2 * SECOND));
    assert_eq!(s("PT1M30S"), Ok(90 * SECOND));
    assert_eq!(s("PT0.2S"), Ok(200 * MS));
    assert_eq!(s("1.5s"), Ok(1_500 * MS));
    assert_eq!(duration(&Yaml::Integer(250)), Ok(250 * MS));
    for bad in ["", "s", "2 weeks", "-1s", "PT", "PTxS", "2h"] {
        assert!(s(bad).is_err(), "{bad} accepted");
    }
    assert!(duration(&Yaml::Integer(-5)).is_err());
}

mod run_on_a_scenario {
    use resilience_playground::library_config::resilience4j_run::apply_yaml;
    use resilience_playground::sim::model::{run, FallbackPlace};
    use resilience_playground::sim::scenario::Preset;

    use super::LESSON;

    #[test]
    fn the_lessons_yaml_on_the_flash_sale_is_the_as_written_separate_run() {
        // Whatever stack the scenario had (here lesson 000's), the YAML replaces it.
        for base in [Preset::NorthwindShared, Preset::NorthwindAsWrittenSeparate] {
            let mut cfg = base.config();
            let notices = apply_yaml(LESSON, &mut cfg).unwrap();
            assert_eq!(notices, vec![], "{base:?}");
            assert_eq!(
                run(&cfg).unwrap(),
                run(&Preset::NorthwindAsWrittenSeparate.config()).unwrap(),
                "{base:?}"
            );
        }
    }

    #[test]
    fn the_fixes_in_yaml_on_the_as_meant_preset_keep_its_fallback_on_retry() {
        let meant = LESSON
            .replace(
                "        exponential-backoff-multiplier: 2",
                "        enable-exponential-backoff: true\n        exponential-backoff-multiplier: 2",
            )
            .replace(
                "          - in.o612.eng.northwind.order.internal.TransientInventoryException",
                "          - in.o612.eng.northwind.order.internal.TransientInventoryException\n          - java.util.concurrent.TimeoutException",
            );
        let mut cfg = Preset::NorthwindAsMeantSeparate.config();
        apply_yaml(&meant, &mut cfg).unwrap();
        assert_eq!(
            cfg.first_stack()
                .unwrap()
                .profile
                .resilience4j()
                .map(|s| s.fallback_on),
            Some(FallbackPlace::Retry)
        );
        assert_eq!(
            run(&cfg).unwrap(),
            run(&Preset::NorthwindAsMeantSeparate.config()).unwrap()
        );
    }

    #[test]
    fn a_value_the_simulator_cannot_take_is_named_by_its_yaml_path() {
        let mut cfg = Preset::NorthwindAsWrittenSeparate.config();
        let bad = LESSON.replace("max-attempts: 3", "max-attempts: 50");
        let e = apply_yaml(&bad, &mut cfg).unwrap_err();
        assert_eq!(
            e.path,
            "resilience4j.retry.instances.inventoryReservation.max-attempts"
        );
        assert!(
            e.message.contains("50") && e.message.contains("1..=10"),
            "{e}"
        );
        // A missing instance falls back to the library's defaults, with a notice.
        let without_limiter = LESSON.replace("  timelimiter:", "  timelimiterx:");
        let notices = apply_yaml(&without_limiter, &mut cfg).unwrap();
        assert!(
            notices
                .iter()
                .any(|n| n.path == "resilience4j.timelimiter.instances.inventoryReservation"),
            "{notices:?}"
        );
        assert_eq!(cfg.first_stack().unwrap().timeout, Some(1_000_000));
        // Text that is not YAML is refused, naming it.
        assert_eq!(apply_yaml("a: [", &mut cfg).unwrap_err().path, "line 1");
    }
}
