//! The simulator against the lesson's own code: every row that `docs/fidelity.md` records from
//! the lesson's `cascade.py` (run 1 of each set) must still come out of the simulator with each
//! outcome's share of `sent` within 5 percentage points, and p50/p99 of service time within
//! 20% (1 ms at least: the code prints 0.1 ms where the simulator's rejections take 0).

use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::{apply_set, Scenario};

/// Overrides of one parameter set, as `cascade --set` takes them.
type Set = &'static [(&'static str, &'static str)];

const LESSON: Set = &[];
const WINDOW_1: Set = &[("window", "1")];
const A: Set = &[
    ("rate", "50"),
    ("threads", "16"),
    ("duration", "10"),
    ("degrade_at", "2"),
    ("fast", "20ms"),
    ("slow", "2"),
    ("timeout", "0.2"),
    ("window", "5"),
    ("min_calls", "10"),
    ("failure_ratio", "0.5"),
    ("cooldown", "1"),
    ("probes", "2"),
    ("permits", "4"),
    ("max_wait", "0.05"),
];
const B: Set = &[
    ("rate", "80"),
    ("threads", "24"),
    ("duration", "10"),
    ("degrade_at", "4"),
    ("fast", "50ms"),
    ("slow", "3"),
    ("timeout", "0.5"),
    ("window", "2"),
    ("min_calls", "30"),
    ("failure_ratio", "0.6"),
    ("cooldown", "3"),
    ("probes", "3"),
    ("permits", "6"),
    ("max_wait", "0.02"),
];
const C: Set = &[
    ("rate", "120"),
    ("threads", "40"),
    ("duration", "8"),
    ("degrade_at", "2"),
    ("fast", "30ms"),
    ("slow", "1"),
    ("timeout", "0.25"),
    ("window", "3"),
    ("min_calls", "20"),
    ("failure_ratio", "0.4"),
    ("cooldown", "1.5"),
    ("probes", "4"),
    ("permits", "10"),
    ("max_wait", "0.05"),
];

/// One row of the lesson's code: set, scenario, sent, ok, timeout, circuit_open,
/// bulkhead_full, p50 ms, p99 ms.
type Reference = (&'static str, Set, Scenario, [u64; 5], f64, f64);

/// Run 1 of every row in `docs/fidelity.md`'s "Reference runs (lesson's code)".
const REFERENCE: &[Reference] = &[
    (
        "lesson",
        LESSON,
        Scenario::Timeout,
        [1181, 296, 885, 0, 0],
        300.0,
        300.0,
    ),
    (
        "lesson",
        LESSON,
        Scenario::Cb,
        [1173, 295, 330, 548, 0],
        40.0,
        300.0,
    ),
    (
        "lesson",
        LESSON,
        Scenario::Bulkhead,
        [1181, 296, 216, 91, 578],
        50.0,
        350.0,
    ),
    (
        "window 1 s",
        WINDOW_1,
        Scenario::Cb,
        [1175, 296, 74, 805, 0],
        0.1,
        300.0,
    ),
    (
        "window 1 s",
        WINDOW_1,
        Scenario::Bulkhead,
        [1175, 294, 33, 789, 59],
        0.1,
        331.0,
    ),
    ("A", A, Scenario::None, [492, 492, 0, 0, 0], 2000.0, 2003.0),
    (
        "A",
        A,
        Scenario::Timeout,
        [494, 99, 395, 0, 0],
        200.0,
        200.0,
    ),
    ("A", A, Scenario::Cb, [494, 99, 116, 279, 0], 0.1, 200.0),
    (
        "A",
        A,
        Scenario::Bulkhead,
        [494, 99, 78, 213, 104],
        20.0,
        249.0,
    ),
    (
        "B",
        B,
        Scenario::Timeout,
        [783, 315, 468, 0, 0],
        500.0,
        501.0,
    ),
    ("B", B, Scenario::Cb, [782, 314, 82, 386, 0], 50.0, 500.0),
    (
        "B",
        B,
        Scenario::Bulkhead,
        [784, 314, 73, 0, 397],
        21.0,
        519.0,
    ),
    ("C", C, Scenario::None, [924, 924, 0, 0, 0], 1000.0, 1002.0),
    (
        "C",
        C,
        Scenario::Timeout,
        [928, 234, 694, 0, 0],
        250.0,
        250.0,
    ),
    ("C", C, Scenario::Cb, [931, 234, 166, 531, 0], 0.1, 250.0),
    (
        "C",
        C,
        Scenario::Bulkhead,
        [931, 234, 94, 456, 147],
        30.0,
        299.0,
    ),
];

#[test]
fn every_recorded_row_of_the_lessons_code_is_within_the_bounds() {
    for &(name, set, scenario, counts, p50, p99) in REFERENCE {
        let mut c = scenario.config();
        for (k, v) in set {
            apply_set(&mut c, k, v).unwrap();
        }
        let t = run(&c).unwrap();
        let o = t.outcomes;
        let ours = [o.ok, o.timeout, o.circuit_open, o.bulkhead_full];
        let label = format!("{name} {}", scenario.key());
        for (i, outcome) in ["ok", "timeout", "circuit_open", "bulkhead_full"]
            .iter()
            .enumerate()
        {
            let share = ours[i] as f64 / t.sent as f64;
            let theirs = counts[i + 1] as f64 / counts[0] as f64;
            let gap = (share - theirs).abs() * 100.0;
            assert!(gap <= 5.0, "{label} {outcome}: {gap:.2} points apart");
        }
        let ms = |v: Option<u64>| v.unwrap() as f64 / 1_000.0;
        for (what, ours, theirs) in [
            ("p50", ms(t.service.p50), p50),
            ("p99", ms(t.service.p99), p99),
        ] {
            let allowed = 0.2 * theirs.max(1.0);
            assert!(
                (ours - theirs).abs() <= allowed,
                "{label} {what}: {ours} ms vs {theirs} ms"
            );
        }
    }
}
