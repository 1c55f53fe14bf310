//! Grading a prediction: the expected figure, how close is close enough, other figures that are
//! right under another reading of the question, and the hint a wrong figure gets. Reading the
//! typed text into a number is [`super::number`]'s job; this module only compares numbers.

use serde::{Deserialize, Serialize};

use super::number::{other_time_units, plain, unit_words};

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

    /// True when `prediction` is close enough to `expected`.
    pub fn accepts(&self, expected: f64, prediction: f64) -> bool {
        // A hair of slack so that 0.1 + 0.2 style rounding never rejects an exact answer.
        let allowed = self.allowed(expected) + 1e-9 * expected.abs().max(1.0);
        (prediction - expected).abs() <= allowed
    }
}

/// The verdict on one prediction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict {
    /// True when the prediction is within the tolerance (of the answer or of an alternative).
    pub correct: bool,
    /// When wrong: a nudge towards the mechanism, never the number itself.
    pub hint: Option<String>,
    /// When right by another reading: which one, and how it differs from the part's figure.
    #[serde(default)]
    pub note: Option<String>,
}

impl Verdict {
    fn right(note: Option<String>) -> Self {
        Verdict {
            correct: true,
            hint: None,
            note,
        }
    }

    fn wrong(hint: String) -> Self {
        Verdict {
            correct: false,
            hint: Some(hint),
            note: None,
        }
    }
}

/// Another figure accepted for a part: the answer under another, defensible reading (the
/// lesson's solution, when it models the question differently from the playground).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AlsoAccepted {
    /// The figure of that reading.
    pub value: f64,
    /// How far off a prediction of it may be.
    pub tolerance: Tolerance,
    /// Shown with the verdict: which reading this is and why it differs.
    pub note: String,
}

/// A wrong figure that comes from a known slip (the lesson's figure after the settings were
/// changed, adding where one multiplies...), with the hint that fits that slip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Misreading {
    /// The figure the slip gives.
    pub value: f64,
    /// The hint for it (never stating the answer).
    pub hint: String,
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
    /// Other figures accepted, each with its note.
    #[serde(default)]
    pub also: Vec<AlsoAccepted>,
    /// Known slips, each with its own hint.
    #[serde(default)]
    pub misreadings: Vec<Misreading>,
    /// Why the tolerance is as wide as it is, when it is wide: said with a right verdict.
    #[serde(default)]
    pub why_wide: Option<String>,
    /// What a right answer is told about the reading it was judged by (what the question
    /// leaves for the student to find is said only once they have answered).
    #[serde(default)]
    pub explanation: Option<String>,
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
            also: Vec::new(),
            misreadings: Vec::new(),
            why_wide: None,
            explanation: None,
        }
    }

    /// The same answer, telling a right answer `explanation`.
    pub fn explained(mut self, explanation: &str) -> Self {
        self.explanation = Some(explanation.to_string());
        self
    }

    /// The same answer, saying with a right verdict why its tolerance is wide.
    pub fn wide_because(mut self, why: &str) -> Self {
        self.why_wide = Some(why.to_string());
        self
    }

    /// The same answer, also accepting `value` (within `tolerance`) with `note`.
    pub fn also_accept(mut self, value: f64, tolerance: Tolerance, note: &str) -> Self {
        self.also.push(AlsoAccepted {
            value,
            tolerance,
            note: note.to_string(),
        });
        self
    }

    /// The same answer, giving `hint` to a prediction of `value` (within the answer's own
    /// tolerance). A slip whose figure is also right is never reported as a slip.
    pub fn on_misreading(mut self, value: f64, hint: &str) -> Self {
        self.misreadings.push(Misreading {
            value,
            hint: hint.to_string(),
        });
        self
    }

    /// When `prediction` is right in another time unit (6600 where seconds are asked and 6.6
    /// would be right): the hint that says which unit the part asks for.
    fn unit_slip(&self, prediction: f64) -> Option<String> {
        other_time_units(&self.unit)
            .into_iter()
            .find_map(|(other, ratio)| {
                let meant = prediction * ratio;
                let right = self.tolerance.accepts(self.expected, meant)
                    || self
                        .also
                        .iter()
                        .any(|a| a.tolerance.accepts(a.value, meant));
                right.then(|| {
                    format!(
                        "{}: this part asks for {}; {} {other} would be {} {}. Did you mean that?",
                        plain(prediction),
                        unit_words(&self.unit),
                        plain(prediction),
                        plain(meant),
                        self.unit
                    )
                })
            })
    }

    /// Checks a prediction. Anything that is not a finite number is wrong, with a hint saying so.
    pub fn check(&self, prediction: f64) -> Verdict {
        if !prediction.is_finite() {
            return Verdict::wrong(format!("Type a number, in {}.", self.unit));
        }
        if self.tolerance.accepts(self.expected, prediction) {
            let why = self.why_wide.as_ref().map(|why| {
                let (lo, hi) = (
                    self.expected - self.tolerance.allowed(self.expected),
                    self.expected + self.tolerance.allowed(self.expected),
                );
                // To the precision the tolerance has: "from 79 to 93 %", not 78.950084.
                let allowed = self.tolerance.allowed(self.expected);
                let places = if allowed > 0.0 && allowed.is_finite() {
                    (-allowed.log10().floor()).clamp(0.0, 6.0) as usize
                } else {
                    0
                };
                format!(
                    "Anything from {} to {} {} counts as right here: {why}",
                    plain(round_to(lo.max(0.0), places)),
                    plain(round_to(hi, places)),
                    self.unit
                )
            });
            return Verdict::right(why.or_else(|| self.explanation.clone()));
        }
        if let Some(alt) = self
            .also
            .iter()
            .find(|a| a.tolerance.accepts(a.value, prediction))
        {
            return Verdict::right(Some(alt.note.clone()));
        }
        if let Some(slip) = self
            .misreadings
            .iter()
            .find(|m| self.tolerance.accepts(m.value, prediction))
        {
            return Verdict::wrong(slip.hint.clone());
        }
        if let Some(hint) = self.unit_slip(prediction) {
            return Verdict::wrong(hint);
        }
        if prediction < self.expected {
            Verdict::wrong(self.hint_low.clone())
        } else {
            Verdict::wrong(self.hint_high.clone())
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

/// `value` rounded to `places` decimal places.
fn round_to(value: f64, places: usize) -> f64 {
    let scale = 10f64.powi(places as i32);
    (value * scale).round() / scale
}

/// Checks a prediction for part `part_id` among `parts`: `None` when there is no such numeric
/// part.
pub fn check_part(parts: &[Part], part_id: &str, prediction: f64) -> Option<Verdict> {
    parts
        .iter()
        .find(|p| p.id == part_id)
        .and_then(|p| p.check(prediction))
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

    #[test]
    fn another_reading_is_right_with_its_note_and_a_slip_gets_its_own_hint() {
        let a = Answer::two_sided(0.0, Tolerance::Absolute(1.0), "openings/h", "low", "high")
            .also_accept(12.0, Tolerance::Absolute(3.0), "the lesson's reading")
            .on_misreading(27.0, "that is the lesson's setting");
        let plain = a.check(0.5);
        assert!(plain.correct && plain.note.is_none());
        let other = a.check(10.0);
        assert!(other.correct);
        assert_eq!(other.note.as_deref(), Some("the lesson's reading"));
        assert_eq!(
            a.check(27.0).hint.as_deref(),
            Some("that is the lesson's setting")
        );
        assert_eq!(a.check(40.0).hint.as_deref(), Some("high"));
        // A slip that happens to be the answer is right.
        let same =
            Answer::new(27.0, Tolerance::Absolute(0.0), "calls", "h").on_misreading(27.0, "slip");
        assert!(same.check(27.0).correct);
    }

    #[test]
    fn a_number_right_in_another_time_unit_is_told_which_unit_the_part_asks_for() {
        let seconds = Answer::new(6.6, Tolerance::Relative(0.05), "s", "think again");
        let hint = seconds.check(6_600.0).hint.unwrap();
        assert!(
            hint.starts_with("6600: this part asks for seconds;"),
            "{hint}"
        );
        assert!(hint.contains("6600 ms would be 6.6 s"), "{hint}");
        let minutes = Answer::new(5.5, Tolerance::Absolute(0.2), "min", "think again");
        let hint = minutes.check(330.0).hint.unwrap();
        assert!(
            hint.contains("asks for minutes") && hint.contains("330 s would be 5.5 min"),
            "{hint}"
        );
        let ms = Answer::new(1_050.0, Tolerance::Relative(0.02), "ms", "think again");
        assert!(ms
            .check(1.05)
            .hint
            .unwrap()
            .contains("1.05 s would be 1050 ms"));
        // A wrong number in no unit gets the part's own hint; a count has no other unit.
        assert_eq!(seconds.check(40.0).hint.as_deref(), Some("think again"));
        let count = Answer::new(6.0, Tolerance::Absolute(0.0), "calls", "h");
        assert_eq!(count.check(6_000.0).hint.as_deref(), Some("h"));
    }

    #[test]
    fn a_wide_tolerance_says_why_with_a_right_verdict() {
        let a = Answer::new(86.0, Tolerance::Absolute(7.0), "%", "h")
            .wide_because("the spread decides it, and it cannot be read off exactly.");
        let note = a.check(80.0).note.unwrap();
        assert_eq!(
            note,
            "Anything from 79 to 93 % counts as right here: the spread decides it, and it \
             cannot be read off exactly."
        );
        assert_eq!(a.check(70.0).note, None);
        // A measured value: the range at the tolerance's precision, not the float's.
        let measured = Answer::new(85.950084, Tolerance::Absolute(7.0), "%", "h")
            .wide_because("the spread decides it.");
        assert_eq!(
            measured.check(80.0).note.unwrap(),
            "Anything from 79 to 93 % counts as right here: the spread decides it."
        );
        let fine = Answer::new(1.23456, Tolerance::Absolute(0.05), "s", "h").wide_because("w.");
        assert_eq!(
            fine.check(1.2).note.unwrap(),
            "Anything from 1.18 to 1.28 s counts as right here: w."
        );
    }

    #[test]
    fn open_parts_are_not_checked() {
        let p = Part::open("c", "Why?".to_string());
        assert_eq!(p.check(1.0), None);
    }

    #[test]
    fn old_answers_without_the_new_fields_still_load() {
        let json = r#"{"expected":1.0,"tolerance":{"Absolute":0.0},"unit":"s",
                       "hint_low":"l","hint_high":"h"}"#;
        let a: Answer = serde_json::from_str(json).unwrap();
        assert!(a.also.is_empty() && a.misreadings.is_empty());
    }
}
