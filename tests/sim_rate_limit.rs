//! The rate limit at the door of `orders`: a token bucket that lets in at most its rate (and
//! its burst after a quiet spell), answers the others 429 at once, and whose `Retry-After` the
//! front end waits for before it sends a refused request again.

use std::process::Command;

use resilience_playground::page::permalink::{from_pairs, parse_query, to_query};
use resilience_playground::resilience::TokenBucketConfig;
use resilience_playground::sim::model::{run, SimConfig};
use resilience_playground::sim::scenario::Scenario;
use resilience_playground::sim::trace::{Outcome, Trace, BUCKET};

const SECOND: u64 = 1_000_000;

/// The lesson's cascade with a rate limit of `rate` a second and a burst of `burst`.
fn limited(rate: f64, burst: u32) -> SimConfig {
    {
        let mut edited = Scenario::None.config();
        edited.service.rate_limit = Some(TokenBucketConfig {
            rate_per_sec: rate,
            burst,
        });
        edited
    }
}

fn traced(cfg: &SimConfig) -> Trace {
    run(cfg).expect("the config runs")
}

#[test]
fn the_door_lets_in_at_most_the_rate_and_the_burst_in_any_second() {
    let t = traced(&limited(50.0, 10));
    let refused = t.outcomes.rate_limited;
    assert!(refused > 400, "{refused}");
    assert_eq!(
        Outcome::ALL.iter().map(|&o| t.outcomes.get(o)).sum::<u64>(),
        t.sent
    );
    // A refusal is answered at once, in the slice it arrived in: what each slice let in is
    // its arrivals less its refusals. In any second, at most 50 tokens came in, and at most
    // 10 were waiting in the bucket.
    let admitted: Vec<u64> = t
        .series
        .iter()
        .map(|b| b.arrivals - b.completions.rate_limited)
        .collect();
    let per_second = (SECOND / BUCKET) as usize;
    for (start, window) in admitted.windows(per_second).enumerate() {
        let n: u64 = window.iter().sum();
        assert!(n <= 50 + 10 + 1, "{n} let in from slice {start}");
    }
    let total: u64 = admitted.iter().sum();
    assert!((550..=610).contains(&total), "{total}");
    // Without the limit nobody is refused.
    assert_eq!(traced(&Scenario::None.config()).outcomes.rate_limited, 0);
}

#[test]
fn a_refused_request_is_sent_again_no_sooner_than_its_retry_after() {
    // The front end resends at once (no back-off of its own) unless told to wait.
    let cfg = {
        let mut edited = limited(50.0, 10);
        edited.traffic.frontend_retries = 2;
        edited.traffic.frontend_backoff = 0;
        edited
    };
    let t = traced(&cfg);
    let first = |pick: fn(&resilience_playground::sim::trace::Bucket) -> u64| {
        t.series
            .iter()
            .position(|b| pick(b) > 0)
            .map(|i| i as u64 * BUCKET)
    };
    let refused_at = first(|b| b.completions.rate_limited).expect("a 429");
    let resent_at = first(|b| b.frontend_retries).expect("a resend");
    // A 429 at 50 a second says "Retry-After: 1": the first resend is a second later (the
    // slices are 100 ms wide).
    assert!(
        resent_at + BUCKET >= refused_at + SECOND,
        "refused at {refused_at} µs, resent at {resent_at} µs"
    );
    assert!(t.frontend_retries > 0);
}

#[test]
fn the_page_switches_it_on_and_a_link_carries_it() {
    let (pairs, bad) =
        parse_query("preset=none&patterns=rate_limit&rate_limit=60&rate_limit_burst=5");
    assert!(bad.is_empty());
    let (page, notices) = from_pairs(&pairs);
    assert!(notices.is_empty(), "{notices:?}");
    let limit = page.config().service.rate_limit.expect("switched on");
    assert_eq!((limit.rate_per_sec, limit.burst), (60.0, 5));
    let run = page.runs.a.as_ref().unwrap();
    assert!(run.trace.outcomes.rate_limited > 0);
    let query = to_query(&page);
    assert!(
        query.contains("rate_limit=60") && query.contains("patterns=rate_limit"),
        "{query}"
    );
    let (again, _) = from_pairs(&parse_query(&query).0);
    assert_eq!(again.config(), page.config());
    // Out of range, from a link: named with its range, and the setting is the preset's.
    let (page, notices) = from_pairs(&parse_query("preset=none&rate_limit=-3").0);
    assert!(
        notices.iter().any(|n| n.contains("rate_limit")),
        "{notices:?}"
    );
    assert!(page.config().service.rate_limit.is_none());
}

#[test]
fn the_cli_takes_its_keys_and_names_a_bad_value() {
    let cascade = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cascade"))
            .args(args)
            .output()
            .expect("run cascade")
    };
    let out = cascade(&["--scenario", "none", "--set", "rate_limit=80", "--json"]);
    assert!(out.status.success());
    let line: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(line["rate_limited"].as_u64().unwrap() > 100, "{line}");
    let out = cascade(&["--set", "rate_limit_burst=0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("rate_limit_burst") && err.contains("allowed"),
        "{err}"
    );
}
