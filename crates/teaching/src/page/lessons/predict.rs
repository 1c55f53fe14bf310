//! A question a step asks before its run plays, and the verdict on the answer. The class
//! predicts, the run plays, and the answer is judged from that run at the step's moment, not
//! from a key written beside the question: a choice is a claim about a measured quantity
//! ("the queue stays under 50"), and a number is compared with what the run measured. So a
//! student who moves the step's control first is judged on the run they made.

use super::live::{self, Live};
use super::rules::Reading;

/// A claim about a measure: true when the run's value lies in `at_least..below`. A measure
/// with no value (a breaker that never opened) counts as past every bound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Claim {
    /// What is measured.
    pub measure: Live,
    /// The least value that makes it true, if bounded below.
    pub at_least: Option<f64>,
    /// The value from which it is false, if bounded above.
    pub below: Option<f64>,
}

/// One answer the class may pick.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Choice {
    /// What the student reads on the choice, quoted in the verdict.
    pub text: &'static str,
    /// When it is right.
    pub holds: Claim,
    /// What to think about when it is wrong.
    pub hint: &'static str,
}

/// How the question is answered.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Answer {
    /// One of two to four choices.
    Choices(&'static [Choice]),
    /// A number, right when within `tolerance` (a fraction: 0.2 is 20%) of the measured
    /// value.
    Number {
        /// What is measured.
        measure: Live,
        /// The unit the number is typed in (`orders/s`).
        unit: &'static str,
        /// The relative tolerance.
        tolerance: f64,
        /// What to think about when it is off.
        hint: &'static str,
    },
}

/// A question asked before a step's run plays.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    /// The question.
    pub prompt: &'static str,
    /// How it is answered.
    pub answer: Answer,
}

/// What the student (or the class) predicted.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Prediction {
    /// The choice at this index.
    #[serde(rename = "c")]
    Choice(usize),
    /// A number.
    #[serde(rename = "n")]
    Number(f64),
}

/// Where a step's question stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Asked {
    /// The class predicted this.
    Predicted(Prediction),
    /// The teacher showed the run without a prediction.
    Skipped,
    /// The class voted (see [`super::vote`]) and the run was revealed.
    Voted,
}

/// The verdict on a prediction, read from the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// Whether the prediction holds on the run.
    pub right: bool,
    /// "You said ...; ..." with the measured figure, then "Right." or "Not this time."
    pub sentence: String,
    /// What to think about, when it was wrong.
    pub hint: Option<&'static str>,
}

impl Claim {
    /// True when `measure` lies in `at_least..below`.
    pub const fn new(measure: Live, at_least: Option<f64>, below: Option<f64>) -> Claim {
        Claim {
            measure,
            at_least,
            below,
        }
    }

    /// The queue in front of the workers lies in `at_least..below`.
    pub const fn queue(at_least: Option<f64>, below: Option<f64>) -> Claim {
        Claim::new(Live::of(&live::QUEUE_PEAK), at_least, below)
    }

    /// The share answered ok (percent) lies in `at_least..below`.
    pub const fn ok_share(at_least: Option<f64>, below: Option<f64>) -> Claim {
        Claim::new(Live::of(&live::OK_SHARE), at_least, below)
    }

    /// The breaker's first opening (seconds) lies in `at_least..below`.
    pub const fn first_opening(at_least: Option<f64>, below: Option<f64>) -> Claim {
        Claim::new(Live::of(&live::FIRST_OPENING), at_least, below)
    }

    /// The share of lookups answered (percent) lies in `at_least..below`.
    pub const fn lookups(at_least: Option<f64>, below: Option<f64>) -> Claim {
        Claim::new(Live::of(&live::LOOKUPS_ANSWERED), at_least, below)
    }

    /// Whether the claim holds for `value`.
    pub fn holds(self, value: Option<f64>) -> bool {
        let v = value.unwrap_or(f64::INFINITY);
        self.at_least.is_none_or(|lo| v >= lo) && self.below.is_none_or(|hi| v < hi)
    }
}

/// A, B, C, D: how the page, the worksheet and the cards label the choice at `index`.
pub fn choice_letter(index: usize) -> char {
    char::from(b'A' + (index.min(25) as u8))
}

impl Question {
    /// The figure the question is about, read from the run `r` in words, as the verdict and
    /// the teacher's copy quote it ("the queue in front of the workers reached 998 requests
    /// by 12.0 s").
    pub fn fact(&self, r: &Reading) -> String {
        let measure = match self.answer {
            Answer::Choices(choices) => match choices.first() {
                Some(c) => c.holds.measure,
                None => return String::new(),
            },
            Answer::Number { measure, .. } => measure,
        };
        measure.describe(measure.value(r), r.now)
    }

    /// The verdict on `prediction` for the run `r` reads, or `None` for a prediction the
    /// question does not take (a choice it has not, a number that is not finite).
    pub fn judge(&self, prediction: Prediction, r: &Reading) -> Option<Verdict> {
        match (self.answer, prediction) {
            (Answer::Choices(choices), Prediction::Choice(i)) => {
                let choice = choices.get(i)?;
                let value = choice.holds.measure.value(r);
                let fact = choice.holds.measure.describe(value, r.now);
                let right = choice.holds.holds(value);
                Some(verdict(choice.text, &fact, right, choice.hint))
            }
            (
                Answer::Number {
                    measure,
                    tolerance,
                    hint,
                    ..
                },
                Prediction::Number(n),
            ) if n.is_finite() => {
                let value = measure.value(r);
                let fact = measure.describe(value, r.now);
                let right = value.is_some_and(|v| (n - v).abs() <= tolerance * v.abs());
                let said = self.said(prediction)?;
                Some(verdict(&said, &fact, right, hint))
            }
            _ => None,
        }
    }

    /// What the class said, as the verdict quotes it: the choice's text, or the number typed
    /// with its unit (`None` for a prediction the question does not take).
    pub fn said(&self, prediction: Prediction) -> Option<String> {
        match (self.answer, prediction) {
            (Answer::Choices(choices), Prediction::Choice(i)) => {
                choices.get(i).map(|c| c.text.to_string())
            }
            (Answer::Number { unit, .. }, Prediction::Number(n)) if n.is_finite() => {
                Some(format!("{} {unit}", trim_number(n)))
            }
            _ => None,
        }
    }

    /// The index of every choice that holds on the run (empty for a number question).
    pub fn right_choices(&self, r: &Reading) -> Vec<usize> {
        match self.answer {
            Answer::Choices(choices) => choices
                .iter()
                .enumerate()
                .filter(|(_, c)| c.holds.holds(c.holds.measure.value(r)))
                .map(|(i, _)| i)
                .collect(),
            Answer::Number { .. } => Vec::new(),
        }
    }
}

fn verdict(said: &str, fact: &str, right: bool, hint: &'static str) -> Verdict {
    let judged = if right { "Right." } else { "Not this time." };
    Verdict {
        right,
        sentence: format!("You said “{said}”; {fact}. {judged}"),
        hint: (!right).then_some(hint),
    }
}

/// A typed number as the student wrote it, without a trailing `.0`.
pub(crate) fn trim_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::action::Action;
    use crate::page::lessons::{Lesson, Step, StepRef};

    fn asking(lesson: Lesson) -> impl Iterator<Item = (StepRef, &'static Step, Question)> {
        (0..lesson.steps().len())
            .map(move |index| StepRef { lesson, index })
            .filter_map(|s| s.step().question.map(|q| (s, s.step(), q)))
    }

    #[test]
    fn km0_asks_at_least_five_questions_and_northwind_two() {
        assert!(asking(Lesson::Km0).count() >= 5);
        assert!(asking(Lesson::Northwind).count() >= 2);
    }

    #[test]
    fn every_question_has_one_right_answer_on_its_own_run_and_says_why_the_others_are_wrong() {
        for lesson in Lesson::ALL {
            for (here, step, question) in asking(lesson) {
                let (page, _) = step.page();
                let run = page.runs.a.as_ref().unwrap();
                let reading = Reading {
                    run,
                    now: step.moment(),
                    b: None,
                };
                assert!(!question.prompt.is_empty());
                match question.answer {
                    Answer::Choices(choices) => {
                        assert!((2..=4).contains(&choices.len()), "{}", here.name());
                        assert_eq!(
                            question.right_choices(&reading).len(),
                            1,
                            "{}: exactly one choice holds on the step's run",
                            here.name()
                        );
                        for (i, c) in choices.iter().enumerate() {
                            assert!(!c.hint.is_empty() && !c.text.is_empty());
                            let v = question.judge(Prediction::Choice(i), &reading).unwrap();
                            assert!(v.sentence.starts_with("You said “"), "{}", v.sentence);
                            assert_eq!(v.right, question.right_choices(&reading) == [i]);
                        }
                        assert_eq!(question.judge(Prediction::Choice(9), &reading), None);
                    }
                    Answer::Number { measure, .. } => {
                        let measured = measure.value(&reading).expect("the run measures it");
                        let right = question.judge(Prediction::Number(measured), &reading);
                        assert!(right.unwrap().right, "{}", here.name());
                        let wrong = question.judge(Prediction::Number(measured * 2.0), &reading);
                        assert!(!wrong.unwrap().right, "{}", here.name());
                        let nan = question.judge(Prediction::Number(f64::NAN), &reading);
                        assert_eq!(nan, None);
                    }
                }
            }
        }
    }

    #[test]
    fn the_verdict_is_read_from_the_run_the_student_made() {
        let step = StepRef::named(Lesson::Km0, "slow-inventory")
            .unwrap()
            .step();
        let (page, _) = step.page();
        let short = Prediction::Choice(0);
        let long = Prediction::Choice(2);
        let on_its_own = step.judge(&page, long).unwrap();
        assert!(on_its_own.right, "{on_its_own:?}");
        assert!(
            on_its_own
                .sentence
                .contains("reached 998 requests by 12.0 s"),
            "{}",
            on_its_own.sentence
        );
        assert!(!step.judge(&page, short).unwrap().right);
        // With enough workers nothing queues: the same answers, judged on the new run.
        let enough = page.apply(Action::SetKnob("threads", 1_000.0));
        assert!(step.judge(&enough, short).unwrap().right);
        let wrong = step.judge(&enough, long).unwrap();
        assert!(!wrong.right);
        assert!(wrong.sentence.ends_with("Not this time."), "{wrong:?}");
        assert!(
            wrong.hint.is_some_and(|h| h.contains("workers")),
            "{wrong:?}"
        );
        assert_eq!(on_its_own.hint, None);
    }

    #[test]
    fn the_capacity_question_takes_a_number_within_its_tolerance() {
        let step = StepRef::named(Lesson::Km0, "capacity").unwrap().step();
        let (page, _) = step.page();
        let said = |n| step.judge(&page, Prediction::Number(n)).unwrap();
        // (100 - 24) a second for 8 s: 608; the run queued 611.
        assert!(said(608.0).right, "{:?}", said(608.0));
        assert!(said(500.0).right);
        assert!(!said(300.0).right);
        assert!(!said(24.0).right);
        let sentence = said(600.0).sentence;
        assert!(
            sentence.starts_with("You said “600 requests”; the queue"),
            "{sentence}"
        );
    }

    #[test]
    fn a_claim_on_a_breaker_that_never_opened_counts_it_as_late() {
        let never = Claim::new(Live::of(&live::FIRST_OPENING), Some(9.0), None);
        assert!(never.holds(None));
        assert!(!Claim::new(Live::of(&live::FIRST_OPENING), None, Some(4.0)).holds(None));
        assert!(Claim::new(Live::of(&live::QUEUE_PEAK), Some(50.0), Some(500.0)).holds(Some(50.0)));
        assert!(
            !Claim::new(Live::of(&live::QUEUE_PEAK), Some(50.0), Some(500.0)).holds(Some(500.0))
        );
    }
}
