//! The contention experiment: golden figures of seeded runs, the published simulator's figures
//! (within the tolerances we promise), the ordering the blog reports, and the command line.

use std::process::Command;

use resilience_playground::sim::experiments::contention::{
    one_run, Batch, ContentionConfig, Strategy, Tally,
};

fn at(clients: u32) -> ContentionConfig {
    ContentionConfig {
        clients,
        ..ContentionConfig::default()
    }
}

fn tally(strategy: Strategy, clients: u32, runs: u64) -> Tally {
    Batch::new(at(clients), strategy, runs, 1)
        .finish()
        .expect("the experiment runs")
}

/// Seed 1, 20 clients, 10 runs: total writes and total completion time (µs) per strategy.
/// A change here changes every figure in docs/jitter.md.
#[test]
fn golden_totals_of_ten_seeded_runs() {
    let golden = [
        (Strategy::NoBackoff, 1471, 5_790_183),
        (Strategy::Exponential, 1489, 147_576_826),
        (Strategy::FullJitter, 983, 8_567_005),
        (Strategy::EqualJitter, 1106, 17_376_030),
        (Strategy::Decorrelated, 1001, 8_726_026),
    ];
    for (strategy, calls, time) in golden {
        let t = tally(strategy, 20, 10);
        assert_eq!((t.runs, t.calls, t.time), (10, calls, time), "{strategy:?}");
    }
}

/// Seed 2, 5 clients: the first writes of one run, who made them and when (µs).
#[test]
fn golden_first_writes_of_one_run() {
    let (run, calls) = one_run(&at(5), Strategy::Exponential, 2).unwrap();
    assert_eq!((run.calls, run.completion), (15, 360_928));
    let first: Vec<(u32, u64)> = calls.iter().take(6).map(|c| (c.client, c.at)).collect();
    assert_eq!(
        first,
        [
            (4, 23_151),
            (2, 24_248),
            (1, 30_309),
            (0, 30_904),
            (3, 32_715),
            (2, 76_218)
        ]
    );
}

/// Mean calls and completion time (ms) over 100 runs, measured with the published simulator
/// (aws-samples/aws-arch-backoff-simulator, Python's `random` seeded 1 for 10..=50 clients,
/// 7 for the others): ours must be within 8% on calls and 15% on time.
#[test]
fn figures_match_the_published_simulator() {
    use Strategy::*;
    let reference = [
        (10, NoBackoff, 50.4, 376.7),
        (10, Exponential, 51.1, 3515.0),
        (10, FullJitter, 38.7, 461.1),
        (10, EqualJitter, 42.8, 735.7),
        (10, Decorrelated, 37.6, 441.9),
        (25, NoBackoff, 215.6, 691.7),
        (25, Exponential, 212.3, 18976.7),
        (25, FullJitter, 134.5, 1275.8),
        (25, EqualJitter, 144.5, 2135.2),
        (25, Decorrelated, 139.0, 1057.8),
        (50, NoBackoff, 687.1, 1135.9),
        (50, Exponential, 628.5, 37053.0),
        (50, FullJitter, 331.9, 2899.7),
        (50, EqualJitter, 347.0, 4209.5),
        (50, Decorrelated, 375.4, 2271.2),
        (75, NoBackoff, 1428.9, 1593.0),
        (75, Exponential, 1179.9, 51232.4),
        (75, FullJitter, 555.5, 4043.2),
        (75, EqualJitter, 571.0, 5596.3),
        (75, Decorrelated, 666.9, 3425.1),
        (100, NoBackoff, 2423.1, 2029.9),
        (100, Exponential, 1857.0, 63472.5),
        (100, FullJitter, 796.3, 4901.4),
        (100, EqualJitter, 812.7, 6596.0),
        (100, Decorrelated, 1001.0, 4450.5),
    ];
    for (clients, strategy, calls, time_ms) in reference {
        let t = tally(strategy, clients, 100);
        let (c, m) = (t.mean_calls(), t.mean_time_ms());
        assert!(
            (c / calls - 1.0).abs() < 0.08,
            "{strategy:?} at {clients}: calls {c} vs {calls}"
        );
        assert!(
            (m / time_ms - 1.0).abs() < 0.15,
            "{strategy:?} at {clients}: {m} ms vs {time_ms}"
        );
    }
}

/// The blog's ordering, at 20..=50 clients (at 10, decorrelated jitter makes a few percent
/// fewer calls than full jitter, in the published simulator as here).
#[test]
fn the_blog_ordering_holds() {
    for clients in [10, 20, 30, 40, 50] {
        let t = |s| tally(s, clients, 100);
        let [none, expo, full, equal, decor] = Strategy::ALL.map(t);
        let jittered = [full, equal, decor];
        let most_jittered_calls = jittered.iter().map(|t| t.calls).max().unwrap();
        assert!(none.calls > most_jittered_calls && expo.calls > most_jittered_calls);
        for other in [expo, full, equal, decor] {
            assert!(
                none.time < other.time,
                "no backoff is done first at {clients}"
            );
        }
        let slowest_jittered = jittered.iter().map(|t| t.time).max().unwrap();
        assert!(
            expo.time > 4 * slowest_jittered,
            "exponential is by far the slowest"
        );
        assert!(
            decor.time < full.time && full.time < equal.time,
            "at {clients}"
        );
        if clients >= 20 {
            assert!(
                full.calls < equal.calls && full.calls < decor.calls,
                "at {clients}"
            );
        } else {
            assert!(decor.calls < full.calls && full.calls < equal.calls);
        }
    }
}

fn cascade(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cascade"))
        .args(args)
        .output()
        .expect("run cascade")
}

#[test]
fn the_command_line_prints_one_json_line_per_strategy() {
    let out = cascade(&[
        "--experiment",
        "contention",
        "--set",
        "clients=20",
        "--set",
        "runs=10",
        "--set",
        "seed=1",
        "--json",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let names: Vec<&str> = lines
        .iter()
        .map(|l| l["strategy"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "no-backoff",
            "exponential",
            "full-jitter",
            "equal-jitter",
            "decorrelated"
        ]
    );
    for line in &lines {
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{line}");
        assert_eq!(line["clients"], 20);
    }
    assert_eq!(lines[0]["calls"], 147.1);
    assert_eq!(lines[0]["time_ms"], 579.018);
    let one = cascade(&[
        "--experiment=contention",
        "--set",
        "strategy=decorrelated",
        "--set",
        "runs=10",
        "--set",
        "clients=20",
        "--set",
        "base=5ms",
        "--set",
        "cap=2",
    ]);
    let table = String::from_utf8(one.stdout).unwrap();
    assert_eq!(table.lines().count(), 2, "a header and one row: {table}");
    assert!(table.lines().nth(1).unwrap().starts_with("decorrelated"));
    assert!(table.contains("100.1"), "{table}");
}

#[test]
fn bad_settings_exit_2_naming_the_key_and_its_range() {
    for (set, named) in [
        (
            "clients=1000",
            "clients: '1000' is out of range or malformed (allowed: 1..=500)",
        ),
        (
            "strategy=linear",
            "allowed: no-backoff, exponential, full-jitter, equal-jitter, decorrelated",
        ),
        ("cap=1ms", "--set cap"),
        ("colour=red", "--set key: 'colour'"),
    ] {
        let out = cascade(&["--experiment", "contention", "--set", set]);
        assert_eq!(out.status.code(), Some(2), "{set}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(named), "{set}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(out.stdout.is_empty());
    }
}
