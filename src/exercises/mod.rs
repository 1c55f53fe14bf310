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

pub mod ex1_budget;
pub mod ex2_breaker;
pub mod ex3_layers;
pub mod ex4_northwind;

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

/// How close a prediction must be to count as right.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum Tolerance {
    /// Within this many units of the expected value (0 asks for the exact value).
    Absolute(f64),
    /// Within this fraction of the expected value (0.05 = 5%).
    Relative(f64),
}

impl Tolerance {
    /// The largest distance from `expected` still accepted.
    pub fn allowed(&self, expected: f64) -> f64 {
        match *self {
            Tolerance::Absolute(a) => a.abs(),
            Tolerance::Relative(r) => (r * expected).abs(),
        }
    }
}

/// The verdict on one prediction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// True when the prediction is within the tolerance.
    pub correct: bool,
    /// When wrong: a nudge towards the mechanism, never the number itself.
    pub hint: Option<String>,
}

/// A numeric answer and how to react to a prediction of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer {
    /// The value the run computed.
    pub expected: f64,
    /// How far off a prediction may be.
    pub tolerance: Tolerance,
    /// The unit the student types the prediction in ("ms", "%", "calls/s"...).
    pub unit: String,
    /// Shown when the prediction is too low.
    pub hint_low: String,
    /// Shown when the prediction is too high.
    pub hint_high: String,
}

impl Answer {
    /// An answer with the same hint whichever side the prediction misses on.
    pub fn new(expected: f64, tolerance: Tolerance, unit: &str, hint: &str) -> Self {
        Answer::two_sided(expected, tolerance, unit, hint, hint)
    }

    /// An answer with one hint for a prediction too low and another for one too high.
    pub fn two_sided(
        expected: f64,
        tolerance: Tolerance,
        unit: &str,
        hint_low: &str,
        hint_high: &str,
    ) -> Self {
        Answer {
            expected,
            tolerance,
            unit: unit.to_string(),
            hint_low: hint_low.to_string(),
            hint_high: hint_high.to_string(),
        }
    }

    /// Checks a prediction. Anything that is not a finite number is wrong, with a hint saying so.
    pub fn check(&self, prediction: f64) -> Verdict {
        if !prediction.is_finite() {
            return Verdict {
                correct: false,
                hint: Some(format!("Type a number, in {}.", self.unit)),
            };
        }
        // A hair of slack so that 0.1 + 0.2 style rounding never rejects an exact answer.
        let allowed = self.tolerance.allowed(self.expected) + 1e-9 * self.expected.abs().max(1.0);
        let off = prediction - self.expected;
        if off.abs() <= allowed {
            Verdict {
                correct: true,
                hint: None,
            }
        } else if off < 0.0 {
            Verdict {
                correct: false,
                hint: Some(self.hint_low.clone()),
            }
        } else {
            Verdict {
                correct: false,
                hint: Some(self.hint_high.clone()),
            }
        }
    }
}

/// One part of an exercise: a question, and a numeric answer unless it asks for a design.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    /// Short id, unique within the exercise ("a1", "b", ...).
    pub id: String,
    /// The question, in full.
    pub question: String,
    /// The numeric answer; `None` for an open question answered by the solution text.
    pub answer: Option<Answer>,
}

impl Part {
    /// A part checked against a number.
    pub fn numeric(id: &str, question: String, answer: Answer) -> Self {
        Part {
            id: id.to_string(),
            question,
            answer: Some(answer),
        }
    }

    /// A part answered in words (the solution reveals a model answer).
    pub fn open(id: &str, question: String) -> Self {
        Part {
            id: id.to_string(),
            question,
            answer: None,
        }
    }

    /// The verdict on a prediction; `None` for an open part.
    pub fn check(&self, prediction: f64) -> Option<Verdict> {
        self.answer.as_ref().map(|a| a.check(prediction))
    }
}

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

/// Checks a prediction for part `part_id` among `parts`: `None` when there is no such numeric
/// part.
pub fn check_part(parts: &[Part], part_id: &str, prediction: f64) -> Option<Verdict> {
    parts
        .iter()
        .find(|p| p.id == part_id)
        .and_then(|p| p.check(prediction))
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
mod tests {
    use super::*;

    #[test]
    fn absolute_and_relative_tolerances() {
        let a = Answer::two_sided(220.0, Tolerance::Absolute(5.0), "ms", "low", "high");
        assert!(a.check(220.0).correct);
        assert!(a.check(224.9).correct);
        assert!(a.check(215.0).correct);
        assert_eq!(a.check(214.0).hint.as_deref(), Some("low"));
        assert_eq!(a.check(226.0).hint.as_deref(), Some("high"));
        let r = Answer::new(2_700.0, Tolerance::Relative(0.02), "calls/s", "h");
        assert!(r.check(2_650.0).correct);
        assert!(!r.check(2_600.0).correct);
        assert!(!r.check(f64::NAN).correct);
        assert!(r.check(f64::INFINITY).hint.unwrap().contains("calls/s"));
        // Exact answers with a zero tolerance.
        let e = Answer::new(27.0, Tolerance::Absolute(0.0), "calls", "h");
        assert!(e.check(27.0).correct);
        assert!(!e.check(26.0).correct);
        assert!(!e.check(28.0).correct);
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
            let far = p.check(a.expected * 3.0 + 10.0).unwrap();
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
    fn open_parts_are_not_checked() {
        let p = Part::open("c", "Why?".to_string());
        assert_eq!(p.check(1.0), None);
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
