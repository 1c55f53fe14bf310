//! One intent, written for each library the simulator runs: "retry twice with back-off, give
//! up on a slow dependency, stop calling it when it fails", each with that library's typical
//! settings, on one scenario and one seed (`cascade --compare-libraries`). The figures say how
//! far apart they land; the sentences say where the libraries differ, from those figures.

use crate::resilience::{BreakerConfig, Jitter, RetryPolicy, MS, SECOND};
use crate::sim::model::{
    run, GrpcStack, Profile, Resilience4jStack, RunError, SidecarConfig, SimConfig, StackConfig,
    RETRIES_THROTTLED, RETRY_OVERFLOW,
};
use crate::sim::params::apply_set;
use crate::sim::trace::Trace;

/// A library's way of writing the intent, and its run.
#[derive(Debug, Clone)]
pub struct LibraryRun {
    /// The library's name.
    pub library: &'static str,
    /// The intent in its terms, one line.
    pub written: &'static str,
    /// The scenario with inventory called through the library's stack.
    pub config: SimConfig,
    /// Its run.
    pub trace: Trace,
}

/// The intent's numbers: 300 ms a try, two retries, the lesson's back-off and breaker.
const TRY_TIMEOUT: u64 = 300 * MS;

/// The base scenario with inventory called through each library's stack, in a fixed order:
/// lesson 000's own layers, Resilience4j's aspects, Polly's pipeline, an Envoy sidecar, a gRPC
/// channel. An
/// error for a library that cannot run on this scenario (a library's stack in front of a
/// dependency with a capacity is not simulated), with the reason.
pub fn intent_configs(
    base: &SimConfig,
) -> Vec<(&'static str, &'static str, Result<SimConfig, String>)> {
    let mut lesson = base.clone();
    *lesson.first_stack_mut() = StackConfig {
        timeout: Some(TRY_TIMEOUT),
        retry: Some(RetryPolicy::lesson_000()),
        breaker: Some(BreakerConfig::cascade_sim()),
        ..StackConfig::default()
    };
    let mut resilience4j = lesson.clone();
    let r4j = apply_set(&mut resilience4j, "stack", "resilience4j")
        .map_err(|e| e.to_string())
        .and_then(|_| {
            let stack = resilience4j.first_stack_mut();
            stack.retry = Some(RetryPolicy {
                jitter: Jitter::None,
                ..RetryPolicy::lesson_000()
            });
            // Resilience4j's defaults: every exception retried and recorded; the wait doubles.
            stack.profile = Profile::Resilience4j(Resilience4jStack {
                retry_exceptions: Vec::new(),
                retry_ignore_exceptions: Vec::new(),
                breaker_record_exceptions: Vec::new(),
                breaker_ignore_exceptions: Vec::new(),
                backoff_multiplier: Some(2.0),
                ..Resilience4jStack::default()
            });
            resilience4j.validate().map_err(|e| e.to_string())?;
            Ok(resilience4j)
        });
    // The standard handler's shape with the intent's numbers: `stack=polly` keeps the
    // lesson's attempts and base, takes the lesson's jitter off (Polly's own decides) and
    // leaves one probe after the break.
    let mut polly = lesson.clone();
    let polly = apply_set(&mut polly, "stack", "polly")
        .map_err(|e| e.to_string())
        .and_then(|_| {
            polly.validate().map_err(|e| e.to_string())?;
            Ok(polly)
        });
    // A channel has no per-try timeout: the deadline (1 s, as Envoy's route timeout) spans
    // the attempts, and the typical policy retries `UNAVAILABLE` with the throttle of gRPC's
    // design.
    let mut grpc = lesson.clone();
    let grpc = apply_set(&mut grpc, "stack", "grpc")
        .map_err(|e| e.to_string())
        .and_then(|_| {
            let stack = grpc.first_stack_mut();
            stack.timeout = Some(SECOND);
            stack.retry = Some(GrpcStack::typical_retry());
            grpc.validate().map_err(|e| e.to_string())?;
            Ok(grpc)
        });
    let mut envoy = base.clone();
    *envoy.first_stack_mut() = StackConfig {
        timeout: Some(SECOND),
        sidecar: Some(SidecarConfig {
            retries: 2,
            per_try_timeout: Some(TRY_TIMEOUT),
            ..SidecarConfig::envoy()
        }),
        ..StackConfig::default()
    };
    vec![
        (
            "lesson 000",
            "timeout 300 ms a try, 3 attempts with full jitter from 100 ms, a breaker (50% of 20 calls in 10 s, 2 s open)",
            Ok(lesson),
        ),
        (
            "Resilience4j",
            "TimeLimiter 300 ms, Retry max-attempts 3 from 100 ms doubling, CircuitBreaker as the lesson's, Spring's aspect order, every exception retried and recorded",
            r4j,
        ),
        (
            "Polly",
            "AttemptTimeout 300 ms, Retry MaxRetryAttempts 2 Exponential with jitter from 100 ms, CircuitBreaker FailureRatio 0.5 MinimumThroughput 20 over 10 s BreakDuration 2 s, as the HTTP standard handler orders them",
            polly,
        ),
        (
            "Envoy",
            "per_try_timeout 0.3s, num_retries 2 on 5xx, route timeout 1s, max_retries 3; outlier detection has no host to eject",
            Ok(envoy),
        ),
        (
            "gRPC",
            "timeout 1s over the call, retryPolicy maxAttempts 3 from 0.1s doubling to 1s on UNAVAILABLE, retryThrottling maxTokens 10 tokenRatio 0.1; no breaker in a service config",
            grpc,
        ),
    ]
}

/// Runs each library's config: the runs, and the libraries that could not run, with why.
pub fn compare(base: &SimConfig) -> Result<(Vec<LibraryRun>, Vec<String>), RunError> {
    run_each(base, |library, written, cfg| {
        Ok(LibraryRun {
            library,
            written,
            trace: run(&cfg)?,
            config: cfg,
        })
    })
}

/// `run` applied to each library's config that runs on `base`, in [`intent_configs`]' order,
/// and the libraries that could not run, with why.
pub fn run_each<T, E>(
    base: &SimConfig,
    mut run: impl FnMut(&'static str, &'static str, SimConfig) -> Result<T, E>,
) -> Result<(Vec<T>, Vec<String>), E> {
    let mut runs = Vec::new();
    let mut skipped = Vec::new();
    for (library, written, cfg) in intent_configs(base) {
        match cfg {
            Ok(cfg) => runs.push(run(library, written, cfg)?),
            Err(why) => skipped.push(format!("{library} does not run on this scenario: {why}")),
        }
    }
    Ok((runs, skipped))
}

/// Where the runs differ, in sentences built from their figures.
pub fn differences(runs: &[LibraryRun]) -> Vec<String> {
    let figure = |f: &dyn Fn(&Trace) -> String| {
        runs.iter()
            .map(|r| format!("{} {}", r.library, f(&r.trace)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let calls = |t: &Trace| t.series.iter().map(|b| b.inventory_calls).sum::<u64>();
    let mut said = vec![format!(
        "Calls that reached inventory: {}.",
        figure(&|t| calls(t).to_string())
    )];
    said.push(format!(
        "When each stopped calling inventory: {}.",
        figure(&|t| match (
            t.first_open(),
            t.total(RETRY_OVERFLOW),
            t.total(RETRIES_THROTTLED),
        ) {
            // Tenths cut, not rounded, as the page's clock shows a moment.
            (Some(at), _, _) => format!(
                "at {}.{} s, when its breaker first opened",
                at / 1_000_000,
                at / 100_000 % 10
            ),
            (None, _, Some(throttled)) => format!(
                "never (a channel has no breaker; its throttle stopped {throttled} retries)"
            ),
            (None, Some(refused), _) => format!(
                "never (a breaker is no part of Envoy's route; outlier detection ejects one \
                 host of several), though its cluster refused {refused} retries past max_retries"
            ),
            (None, None, None) => "never: its breaker did not open".to_string(),
        })
    ));
    let clauses = |of: &dyn Fn(&str) -> &'static str| {
        runs.iter()
            .map(|r| of(r.library))
            .collect::<Vec<_>>()
            .join("; ")
    };
    said.push(format!(
        "Calls the breaker refused, each answered at once: {}. {}.",
        figure(&|t| t.outcomes.circuit_open.to_string()),
        clauses(&|library| match library {
            "lesson 000" =>
                "Lesson 000's retries sit inside its breaker, so a refusal ends the request",
            "Resilience4j" => {
                "Resilience4j's Retry sits outside its CircuitBreaker and, with no \
                 retry-exceptions listed, retries the refusal (CallNotPermittedException) like \
                 any exception"
            }
            "Polly" => {
                "Polly's Retry sits outside its CircuitBreaker too, but the HTTP handler does \
                 not retry a BrokenCircuitException, so a refusal ends the request"
            }
            "gRPC" => "a gRPC channel has no breaker",
            _ => "Envoy's route has no breaker",
        })
    ));
    let but_grpc = if runs.iter().any(|r| r.library == "gRPC") {
        " but gRPC"
    } else {
        ""
    };
    said.push(format!(
        "A slow try is given up at 300 ms by each{but_grpc}. {}. Requests that ended timed \
         out: {}.",
        clauses(&|library| match library {
            "lesson 000" => "Lesson 000's breaker counts it as a failure",
            "Resilience4j" => "Resilience4j's CircuitBreaker records its TimeoutException",
            "Polly" => {
                "Polly's CircuitBreaker records the TimeoutRejectedException and its Retry \
                 retries it; the cancelled call frees its slot"
            }
            "gRPC" => {
                "gRPC has no per-try timeout: its 1 s deadline spans the whole call, and the \
                 DEADLINE_EXCEEDED it ends with is never retried"
            }
            _ => "Envoy answers it 504 and retries it as a 5xx, with no breaker to count it",
        }),
        figure(&|t| t.outcomes.timeout.to_string())
    ));
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Preset;

    #[test]
    fn the_intent_runs_under_each_library_and_the_sentences_quote_their_figures() {
        let (runs, skipped) = compare(&Preset::Saturday.config()).unwrap();
        assert!(skipped.is_empty(), "{skipped:?}");
        let names: Vec<&str> = runs.iter().map(|r| r.library).collect();
        assert_eq!(
            names,
            ["lesson 000", "Resilience4j", "Polly", "Envoy", "gRPC"]
        );
        // Each run is its library's: a breaker where it has one, Envoy's cap where it has it.
        assert!(
            runs[0].trace.first_open().is_some() && runs[0].trace.total(RETRY_OVERFLOW).is_none()
        );
        assert!(runs[1].trace.first_open().is_some());
        assert!(runs[2].trace.first_open().is_some());
        assert!(
            runs[3].trace.first_open().is_none() && runs[3].trace.total(RETRY_OVERFLOW).is_some()
        );
        assert!(
            runs[4].trace.first_open().is_none()
                && runs[4].trace.total(RETRIES_THROTTLED).is_some()
        );
        let said = differences(&runs);
        assert!(said[1].contains("its throttle stopped"), "{}", said[1]);
        let calls: u64 = runs[3].trace.series.iter().map(|b| b.inventory_calls).sum();
        assert!(said[0].contains(&format!("Envoy {calls}")), "{}", said[0]);
        assert!(
            said[1].contains("when its breaker first opened"),
            "{}",
            said[1]
        );
        // Resilience4j retries what its breaker refuses; Polly's HTTP handler does not.
        assert!(runs[1].trace.library_retries > runs[2].trace.library_retries);
    }

    #[test]
    fn a_library_that_cannot_run_on_a_scenario_is_named_with_why() {
        let (runs, skipped) = compare(&Preset::SaturdayStorm.config()).unwrap();
        assert_eq!(runs.len(), 2);
        assert_eq!(skipped.len(), 3);
        assert!(
            skipped[0].starts_with("Resilience4j does not run")
                && skipped[1].starts_with("Polly does not run")
                && skipped[2].starts_with("gRPC does not run"),
            "{skipped:?}"
        );
        // The sentences speak of the libraries that ran.
        assert!(differences(&runs)
            .iter()
            .all(|d| !d.contains("Resilience4j") && !d.contains("Polly") && !d.contains("gRPC")));
    }
}
