//! The lessons' exercises as things to predict, run and check: pure logic, no clock, no web.
//!
//! Every exercise is a plain struct holding its parameters (the lesson's values by default, so a
//! view can put a slider on any of them) and implements [`Exercise`]: an id and a title, the
//! question, its [`Part`]s (each numeric part carries an [`Answer`] computed from the same run
//! the student will see), a worked solution, and [`Exercise::run`], which produces the figures
//! and the data a view draws. Everything a view receives is `serde`-serialisable.
//!
//! Randomness, where an exercise needs it, comes from a `ChaCha8Rng` seeded from the exercise's
//! `seed` field, so the same parameters give the same run on the host and in the browser.

pub mod charts;
pub mod ex1_budget;
pub mod ex2_breaker;
pub mod ex3_layers;
pub mod ex4_northwind;
pub mod grading;
pub mod number;
pub mod setups;
pub mod view;

use serde::{Deserialize, Serialize};

use crate::resilience::{Micros, ParamError, Segment, WorstCase, MS};

pub use ex1_budget::{BudgetAndRetries, BudgetRun, GatewayLatency, GatewayShare};
pub use ex2_breaker::{
    AlertReport, AlertRule, AlertSample, BreakerRun, BreakersRun, BusinessErrors, MinCallsRun,
    Noise,
};
pub use ex3_layers::{DuplicateReport, LayerChoice, RetryingLayer, ThreeLayers, ThreeLayersRun};
pub use ex4_northwind::{
    Backlog, BacklogPoint, BacklogRun, BulkheadHook, Northwind, NorthwindRun, Reconciliation,
    SteppedAttempt, SteppedRequest,
};
pub use grading::{check_part, AlsoAccepted, Answer, Misreading, Part, Tolerance, Verdict};
pub use number::{read_number, Reading};

/// What every exercise offers a view.
pub trait Exercise {
    /// What a run produces: the figures and the data to draw.
    type Run: Serialize;

    /// A stable id for URLs and widget attributes (`"budget-retries"`...).
    fn id(&self) -> &'static str;
    /// The title shown above it.
    fn title(&self) -> &'static str;
    /// The scenario and what is asked, in the exercise's current parameters.
    fn question(&self) -> String;
    /// The run: figures and data for the charts.
    fn run(&self) -> Result<Self::Run, ParamError>;
    /// The parts for a run of these parameters, each numeric one with its answer taken from
    /// the run (a view runs once, then asks for parts and solution of that run).
    fn parts_for(&self, run: &Self::Run) -> Vec<Part>;
    /// The worked solution for a run of these parameters, revealed on request.
    fn solution_for(&self, run: &Self::Run) -> String;

    /// The parts, running the exercise first.
    fn parts(&self) -> Result<Vec<Part>, ParamError> {
        Ok(self.parts_for(&self.run()?))
    }

    /// The worked solution, running the exercise first.
    fn solution(&self) -> Result<String, ParamError> {
        Ok(self.solution_for(&self.run()?))
    }

    /// Checks a prediction for part `part_id` (running the exercise): `None` when there is no
    /// such numeric part. A view that already holds a run calls [`check_part`] instead.
    fn check(&self, part_id: &str, prediction: f64) -> Result<Option<Verdict>, ParamError> {
        Ok(check_part(&self.parts()?, part_id, prediction))
    }
}

/// What a bar of a Gantt-style timeline stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum BarKind {
    /// An attempt running until it answers or times out.
    Attempt,
    /// A backoff wait before the next attempt.
    Wait,
    /// An attempt that is never made (drawn as a ghost of zero length where it would start).
    Dropped,
}

/// One bar of a Gantt-style timeline, times from the start of the first attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bar {
    /// What it is.
    pub kind: BarKind,
    /// Attempt number (0-based) it belongs to: the attempt itself, or the one a wait follows.
    pub attempt: u32,
    /// Start, µs.
    pub start: Micros,
    /// End, µs (equal to `start` for a dropped attempt).
    pub end: Micros,
    /// A label a view may print on the bar ("attempt 2: 150 ms").
    pub label: String,
}

/// A Gantt-style timeline: its bars and when it ends.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timeline {
    /// From the first attempt's start to giving up, µs.
    pub total: Micros,
    /// The bars, in order.
    pub bars: Vec<Bar>,
}

impl Timeline {
    /// The timeline of a worst-case analysis.
    pub fn from_worst_case(wc: &WorstCase) -> Self {
        Timeline {
            total: wc.total,
            bars: bars_from_segments(&wc.segments),
        }
    }

    /// Attempts actually made.
    pub fn attempts_made(&self) -> u32 {
        self.count(BarKind::Attempt)
    }

    /// Attempts given up before they started.
    pub fn attempts_dropped(&self) -> u32 {
        self.count(BarKind::Dropped)
    }

    fn count(&self, kind: BarKind) -> u32 {
        u32::try_from(self.bars.iter().filter(|b| b.kind == kind).count()).unwrap_or(u32::MAX)
    }
}

/// Lays the worst-case segments of [`crate::resilience::WorstCaseInput::analyse`] end to end.
pub fn bars_from_segments(segments: &[Segment]) -> Vec<Bar> {
    let mut t: Micros = 0;
    let mut bars = Vec::with_capacity(segments.len());
    for s in segments {
        let (kind, attempt, len, label) = match *s {
            Segment::Attempt { index, timeout } => (
                BarKind::Attempt,
                index,
                timeout,
                format!("attempt {}: {}", index + 1, fmt_ms(timeout)),
            ),
            Segment::Wait { after, wait } => {
                (BarKind::Wait, after, wait, format!("wait {}", fmt_ms(wait)))
            }
            Segment::Dropped { index } => (
                BarKind::Dropped,
                index,
                0,
                format!("attempt {}: not made", index + 1),
            ),
        };
        bars.push(Bar {
            kind,
            attempt,
            start: t,
            end: t + len,
            label,
        });
        t += len;
    }
    bars
}

/// A duration for people: `1_500 µs` -> `"1.5 ms"`, `300_000` -> `"300 ms"`, `6_600_000` ->
/// `"6.6 s"`, `30_000_000` -> `"30 s"`, `300_000_000` -> `"5 min"`.
pub fn fmt_ms(us: Micros) -> String {
    use crate::resilience::SECOND;
    if us >= 60 * SECOND && us.is_multiple_of(60 * SECOND) {
        format!("{} min", us / (60 * SECOND))
    } else if us >= SECOND && us.is_multiple_of(SECOND) {
        format!("{} s", us / SECOND)
    } else if us >= SECOND && us.is_multiple_of(100 * MS) {
        format!("{:.1} s", us as f64 / 1e6)
    } else if us >= SECOND {
        format!("{:.2} s", us as f64 / 1e6)
    } else if us.is_multiple_of(MS) {
        format!("{} ms", us / MS)
    } else {
        format!("{:.1} ms", us as f64 / 1e3)
    }
}

/// Standard normal cumulative distribution, |error| < 2e-7 (a Chebyshev fit of `erfc`).
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    // Coefficients of the fit, highest power last.
    const C: [f64; 10] = [
        -1.265_512_23,
        1.000_023_68,
        0.374_091_96,
        0.096_784_18,
        -0.186_288_06,
        0.278_868_07,
        -1.135_203_98,
        1.488_515_87,
        -0.822_152_23,
        0.170_872_77,
    ];
    let poly = C.iter().rev().fold(0.0, |acc, c| acc * t + c);
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A prediction far from every figure `a` accepts.
    pub(crate) fn far_from(a: &Answer) -> f64 {
        let most = a.also.iter().map(|x| x.value).fold(a.expected, f64::max);
        most * 3.0 + 10.0
    }

    /// For every exercise at its defaults: the computed answer is accepted, a far-off one is
    /// rejected with a hint, no hint spells out the answer, and part ids are unique.
    fn parts_behave<E: Exercise>(e: &E) {
        let run = e.run().unwrap();
        let parts = e.parts_for(&run);
        assert!(!e.question().is_empty() && !e.solution_for(&run).is_empty());
        let mut ids: Vec<_> = parts.iter().map(|p| p.id.clone()).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), parts.len(), "{}", e.id());
        for p in &parts {
            let Some(a) = &p.answer else { continue };
            assert!(p.check(a.expected).unwrap().correct, "{} {}", e.id(), p.id);
            let far = p.check(far_from(a)).unwrap();
            assert!(!far.correct, "{} {}", e.id(), p.id);
            if a.expected.abs() >= 10.0 {
                let shown = format!("{}", a.expected.round());
                for hint in [&a.hint_low, &a.hint_high] {
                    assert!(!hint.contains(&shown), "{} {}: {hint}", e.id(), p.id);
                }
            }
        }
    }

    #[test]
    fn every_exercise_checks_its_own_answers() {
        parts_behave(&BudgetAndRetries::default());
        parts_behave(&BusinessErrors::default());
        parts_behave(&ThreeLayers::default());
        parts_behave(&Northwind::default());
        let ids = [
            BudgetAndRetries::default().id(),
            BusinessErrors::default().id(),
            ThreeLayers::default().id(),
            Northwind::default().id(),
        ];
        assert_eq!(
            ids,
            [
                "budget-retries",
                "breaker-business-errors",
                "retry-layers",
                "northwind"
            ]
        );
    }

    #[test]
    fn normal_cdf_matches_known_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158_655_25).abs() < 1e-6);
        assert!((normal_cdf(3.0) - 0.998_650_1).abs() < 1e-6);
        assert!(normal_cdf(-40.0) >= 0.0 && normal_cdf(40.0) <= 1.0);
    }

    #[test]
    fn bars_are_laid_end_to_end() {
        let segs = [
            Segment::Attempt {
                index: 0,
                timeout: 300 * MS,
            },
            Segment::Wait {
                after: 0,
                wait: 50 * MS,
            },
            Segment::Attempt {
                index: 1,
                timeout: 150 * MS,
            },
            Segment::Dropped { index: 2 },
        ];
        let bars = bars_from_segments(&segs);
        let spans: Vec<_> = bars.iter().map(|b| (b.start / MS, b.end / MS)).collect();
        assert_eq!(spans, vec![(0, 300), (300, 350), (350, 500), (500, 500)]);
        assert_eq!(bars[3].kind, BarKind::Dropped);
        assert_eq!(fmt_ms(6_600 * MS), "6.6 s");
        assert_eq!(fmt_ms(8_140 * MS), "8.14 s");
        assert_eq!(fmt_ms(1_500), "1.5 ms");
        assert_eq!(fmt_ms(30_000 * MS), "30 s");
        assert_eq!(fmt_ms(300_000 * MS), "5 min");
        assert_eq!(fmt_ms(90_000 * MS), "90 s");
        assert_eq!(fmt_ms(220 * MS), "220 ms");
    }
}
