//! A student's progress through one lesson: the steps reached and each prediction with its
//! verdict. Kept by the page in the browser's storage, summed up at the lesson's end, and
//! downloaded as JSON; its [`Score`] holds the figures a course platform records.

use serde::{Deserialize, Serialize};

use super::predict::Prediction;
use super::vote::StepVotes;
use super::Lesson;
use crate::page::json;

/// What a student has done in one lesson.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Progress {
    /// The lesson's key (`km0`, `northwind`; `own` for a teacher's).
    pub lesson: String,
    /// The lesson's title.
    pub title: String,
    /// The steps reached, by name, in the order first reached.
    pub reached: Vec<String>,
    /// Each question answered, the latest answer per step.
    pub predictions: Vec<PredictionRecord>,
    /// The challenges passed, by step name.
    #[serde(default)]
    pub challenges: Vec<String>,
    /// The settings each challenge was passed with (its controls' keys and values, as a link
    /// writes them), by step name: the step comes back with them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed_with: Vec<(String, Vec<(String, String)>)>,
    /// The class's votes, by step (a class vote on the projector: see [`super::vote`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub votes: Vec<StepVotes>,
}

/// One prediction and its verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PredictionRecord {
    /// The step, by name.
    pub step: String,
    /// What the student said, as the verdict quotes it.
    pub said: String,
    /// Whether the run bore it out.
    pub right: bool,
    /// The answer itself, so that the step shows it again when the class comes back (none in
    /// progress kept before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prediction: Option<Prediction>,
}

/// The most characters SCORM 1.2 keeps in `cmi.suspend_data`.
pub const SUSPEND_DATA_LIMIT: usize = 4096;

/// [`Progress`] as a course platform keeps it: short field names, no words that the lesson
/// itself can give back.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct SuspendData {
    #[serde(rename = "r", default)]
    reached: Vec<String>,
    #[serde(rename = "a", default)]
    answers: Vec<Suspended>,
    #[serde(rename = "c", default)]
    challenges: Vec<String>,
    #[serde(rename = "w", default, skip_serializing_if = "Vec::is_empty")]
    passed_with: Vec<(String, Vec<(String, String)>)>,
}

/// One answer in [`SuspendData`].
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Suspended {
    #[serde(rename = "s")]
    step: String,
    #[serde(rename = "p")]
    prediction: Prediction,
    #[serde(rename = "ok")]
    right: bool,
}

/// The figures of a lesson's progress a course platform would record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// Steps reached.
    pub steps_reached: usize,
    /// Steps in the lesson.
    pub steps: usize,
    /// Questions answered with a prediction.
    pub predictions: usize,
    /// Predictions the run bore out.
    pub predictions_right: usize,
    /// Questions in the lesson.
    pub questions: usize,
    /// Challenges passed.
    pub challenges_passed: usize,
    /// Challenges in the lesson.
    pub challenges: usize,
}

impl Score {
    /// The score a course platform records (SCORM's `cmi.core.score.raw`, 0 to 100): the
    /// share of the lesson's questions answered with a prediction and of its challenges
    /// passed; for a lesson with neither, the share of its steps reached.
    pub fn raw(&self) -> u32 {
        let (done, of) = if self.questions + self.challenges > 0 {
            (
                self.predictions.min(self.questions) + self.challenges_passed.min(self.challenges),
                self.questions + self.challenges,
            )
        } else {
            (self.steps_reached.min(self.steps), self.steps)
        };
        (done * 100).checked_div(of).map_or(0, |share| share as u32)
    }

    /// SCORM's `cmi.core.lesson_status`: `completed` once every step has been reached,
    /// `incomplete` before.
    pub fn status(&self) -> &'static str {
        if self.steps > 0 && self.steps_reached >= self.steps {
            "completed"
        } else {
            "incomplete"
        }
    }
}

impl Progress {
    /// No progress yet in `lesson`.
    pub fn new(lesson: Lesson) -> Progress {
        Progress {
            lesson: lesson.key().to_string(),
            title: lesson.title().to_string(),
            ..Progress::default()
        }
    }

    /// The storage key of `lesson`'s progress (a teacher's lesson by its title).
    pub fn storage_key(lesson: Lesson) -> String {
        match lesson {
            Lesson::Own(_) => format!("resilience-playground:progress:own:{}", lesson.title()),
            _ => format!("resilience-playground:progress:{}", lesson.key()),
        }
    }

    /// The progress kept as `json` for `lesson`, or none yet (also when it is not readable
    /// or belongs to another lesson).
    pub fn restore(lesson: Lesson, json: Option<&str>) -> Progress {
        json.and_then(json::read::<Progress>)
            .filter(|p| p.lesson == lesson.key() && p.title == lesson.title())
            .unwrap_or_else(|| Progress::new(lesson))
    }

    /// Notes that the step called `name` was reached; false when it already was.
    pub fn reach(&mut self, name: &str) -> bool {
        if self.reached.iter().any(|r| r == name) {
            return false;
        }
        self.reached.push(name.to_string());
        true
    }

    /// Notes that the challenge of the step called `name` was passed with `settings` (its
    /// controls' keys and values); false when it already was (the settings are the latest).
    pub fn pass(&mut self, name: &str, settings: Vec<(String, String)>) -> bool {
        match self.passed_with.iter_mut().find(|(step, _)| step == name) {
            Some((_, kept)) => *kept = settings,
            None => self.passed_with.push((name.to_string(), settings)),
        }
        if self.challenges.iter().any(|c| c == name) {
            return false;
        }
        self.challenges.push(name.to_string());
        true
    }

    /// The settings the challenge of the step called `name` was passed with, if it was (and
    /// the student has not asked to try again).
    pub fn passed_settings(&self, name: &str) -> Option<&[(String, String)]> {
        self.passed_with
            .iter()
            .find(|(step, _)| step == name)
            .map(|(_, settings)| settings.as_slice())
    }

    /// The student tries the challenge of `name` again from the step's own settings: the
    /// pass still counts, its settings no longer come back.
    pub fn try_again(&mut self, name: &str) {
        self.passed_with.retain(|(step, _)| step != name);
    }

    /// Notes a prediction on the step `step` and its verdict (the latest per step counts).
    pub fn predict(&mut self, step: &str, said: &str, right: bool, prediction: Option<Prediction>) {
        let record = PredictionRecord {
            step: step.to_string(),
            said: said.to_string(),
            right,
            prediction,
        };
        match self.predictions.iter_mut().find(|p| p.step == step) {
            Some(old) => *old = record,
            None => self.predictions.push(record),
        }
    }

    /// The class's votes on the step `step`, if it voted there.
    pub fn votes_on(&self, step: &str) -> Option<&StepVotes> {
        self.votes.iter().find(|v| v.step == step)
    }

    /// The class's votes on the step `step`, a first empty round opened if it has none.
    pub fn votes_mut(&mut self, step: &str) -> &mut StepVotes {
        let index = match self.votes.iter().position(|v| v.step == step) {
            Some(i) => i,
            None => {
                self.votes.push(StepVotes::new(step));
                self.votes.len() - 1
            }
        };
        &mut self.votes[index]
    }

    /// The answer recorded on the step `step`, if the class gave one.
    pub fn prediction_on(&self, step: &str) -> Option<Prediction> {
        self.predictions
            .iter()
            .find(|p| p.step == step)
            .and_then(|p| p.prediction)
    }

    /// The progress as a course platform keeps it (SCORM 1.2's `cmi.suspend_data`, at most
    /// [`SUSPEND_DATA_LIMIT`] characters): the steps reached, each answer with its verdict
    /// and the challenges passed, by step name; the words of an answer are the question's and
    /// come back from it. Should the lesson have so many steps that this does not fit, the
    /// earliest steps reached are left out (answers and challenges are what is scored).
    pub fn to_suspend_data(&self) -> String {
        let answers: Vec<Suspended> = self
            .predictions
            .iter()
            .filter_map(|p| {
                p.prediction.map(|prediction| Suspended {
                    step: p.step.clone(),
                    prediction,
                    right: p.right,
                })
            })
            .collect();
        let mut reached = self.reached.as_slice();
        loop {
            let record = SuspendData {
                reached: reached.to_vec(),
                answers: answers.clone(),
                challenges: self.challenges.clone(),
                passed_with: self.passed_with.clone(),
            };
            let text = serde_json::to_string(&record).unwrap_or_default();
            if text.chars().count() <= SUSPEND_DATA_LIMIT || reached.is_empty() {
                return text;
            }
            reached = &reached[1..];
        }
    }

    /// The progress a course platform kept as `data` ([`Progress::to_suspend_data`]) for
    /// `lesson`; none when it is not such a record. Steps the lesson no longer has are kept
    /// (they do not count in the score).
    pub fn from_suspend_data(lesson: Lesson, data: &str) -> Option<Progress> {
        let record: SuspendData = json::read(data)?;
        let mut progress = Progress::new(lesson);
        progress.reached = record.reached;
        progress.challenges = record.challenges;
        progress.passed_with = record.passed_with;
        for answer in record.answers {
            let said = lesson
                .find(&answer.step)
                .and_then(|i| lesson.steps()[i].question)
                .and_then(|q| q.said(answer.prediction))
                .unwrap_or_default();
            progress.predict(&answer.step, &said, answer.right, Some(answer.prediction));
        }
        Some(progress)
    }

    /// The figures, counted against `lesson`'s steps as they stand (steps since removed do
    /// not count).
    pub fn score(&self, lesson: Lesson) -> Score {
        let steps = lesson.steps();
        let exists = |name: &str| steps.iter().any(|s| s.name == name);
        let predictions: Vec<&PredictionRecord> = self
            .predictions
            .iter()
            .filter(|p| exists(&p.step))
            .collect();
        Score {
            steps_reached: self.reached.iter().filter(|r| exists(r)).count(),
            steps: steps.len(),
            predictions: predictions.len(),
            predictions_right: predictions.iter().filter(|p| p.right).count(),
            questions: steps.iter().filter(|s| s.question.is_some()).count(),
            challenges_passed: self.challenges.iter().filter(|c| exists(c)).count(),
            challenges: steps.iter().filter(|s| s.challenge.is_some()).count(),
        }
    }

    /// The summary at the lesson's end, in words: to the student, or on the projector to the
    /// class (`class`), whose predictions were the room's.
    pub fn summary(&self, lesson: Lesson, class: bool) -> String {
        let s = self.score(lesson);
        let predicted = match (s.questions, s.predictions) {
            (0, _) => String::new(),
            (q, 0) => format!(" None of its {q} questions answered with a prediction yet."),
            (q, p) => format!(
                " {p} of its {q} questions answered with a prediction, {} of them borne out by \
                 the run.",
                s.predictions_right
            ),
        };
        let challenges = match s.challenges {
            0 => String::new(),
            n => format!(" {} of its {n} challenges passed.", s.challenges_passed),
        };
        let who = if class { "Together we" } else { "You" };
        format!(
            "{who} reached {} of the {} steps.{predicted}{challenges}",
            s.steps_reached, s.steps
        )
    }

    /// The progress and its score as a JSON document, for the student to download.
    pub fn to_json(&self, lesson: Lesson) -> String {
        #[derive(Serialize)]
        struct Document<'a> {
            #[serde(flatten)]
            progress: &'a Progress,
            score: Score,
        }
        serde_json::to_string_pretty(&Document {
            progress: self,
            score: self.score(lesson),
        })
        .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_platforms_score_counts_predictions_and_challenges_else_steps() {
        let score = |reached, steps, predictions, questions, passed, challenges| Score {
            steps_reached: reached,
            steps,
            predictions,
            predictions_right: 0,
            questions,
            challenges_passed: passed,
            challenges,
        };
        assert_eq!(score(3, 16, 2, 6, 0, 0).raw(), 33);
        assert_eq!(score(16, 16, 6, 6, 0, 0).raw(), 100);
        assert_eq!(score(16, 16, 6, 6, 0, 0).status(), "completed");
        assert_eq!(score(15, 16, 6, 6, 0, 0).status(), "incomplete");
        assert_eq!(score(2, 9, 0, 0, 3, 9).raw(), 33);
        assert_eq!(score(2, 4, 0, 0, 0, 0).raw(), 50, "neither: the steps");
        assert_eq!(score(0, 0, 0, 0, 0, 0).raw(), 0);
        assert_eq!(score(1, 5, 9, 2, 0, 0).raw(), 100, "never past 100");
    }

    #[test]
    fn progress_counts_steps_and_predictions_once_and_reads_back() {
        let lesson = Lesson::Km0;
        let mut p = Progress::new(lesson);
        assert!(p.reach("slow-inventory"));
        assert!(!p.reach("slow-inventory"));
        p.reach("capacity");
        p.reach("a-step-since-removed");
        p.predict("slow-inventory", "Short, under 50 requests", false, None);
        p.predict("slow-inventory", "More than 500", true, None);
        p.predict("capacity", "600", true, None);
        let score = p.score(lesson);
        assert_eq!(score.steps_reached, 2);
        assert_eq!(score.steps, lesson.steps().len());
        assert_eq!((score.predictions, score.predictions_right), (2, 2));
        assert!(score.questions >= 5);
        let summary = p.summary(lesson, false);
        assert!(p
            .summary(lesson, true)
            .starts_with("Together we reached 2 of the 17 steps."));
        assert!(
            summary.starts_with("You reached 2 of the 17 steps."),
            "{summary}"
        );
        assert!(summary.contains("2 of them borne out"), "{summary}");
        // Kept and read back; another lesson's progress is not this one's.
        let json = serde_json::to_string(&p).unwrap();
        assert_eq!(Progress::restore(lesson, Some(&json)), p);
        assert_eq!(
            Progress::restore(Lesson::Northwind, Some(&json)),
            Progress::new(Lesson::Northwind)
        );
        assert_eq!(
            Progress::restore(lesson, Some("{not json")),
            Progress::new(lesson)
        );
        // The download carries the score beside the record.
        let doc: serde_json::Value = serde_json::from_str(&p.to_json(lesson)).unwrap();
        assert_eq!(doc["score"]["predictions_right"], 2);
        assert_eq!(doc["lesson"], "km0");
        assert_eq!(doc["reached"][1], "capacity");
    }

    #[test]
    fn a_platforms_record_gives_back_the_progress_and_stays_within_scorm_12s_limit() {
        use crate::page::lessons::predict::Prediction;
        for lesson in Lesson::ALL {
            let mut p = Progress::new(lesson);
            for step in lesson.steps() {
                p.reach(step.name);
                if let Some(q) = step.question {
                    let answer = match q.answer {
                        super::super::predict::Answer::Choices(_) => Prediction::Choice(1),
                        super::super::predict::Answer::Number { .. } => Prediction::Number(12.5),
                    };
                    let said = q.said(answer).expect("an answer in words");
                    p.predict(step.name, &said, true, Some(answer));
                }
                if step.challenge.is_some() {
                    p.pass(step.name, vec![("threads".into(), "40".into())]);
                }
            }
            let data = p.to_suspend_data();
            assert!(
                data.chars().count() <= SUSPEND_DATA_LIMIT,
                "{lesson:?}: {data}"
            );
            let back = Progress::from_suspend_data(lesson, &data).expect("its own record");
            assert_eq!(back, p, "{lesson:?}: {data}");
            assert_eq!(back.score(lesson), p.score(lesson));
        }
        assert_eq!(Progress::from_suspend_data(Lesson::Km0, "{broken"), None);
        assert_eq!(
            Progress::from_suspend_data(Lesson::Km0, ""),
            None,
            "a platform's empty record is no record"
        );
        // Too many steps reached for the limit: the earliest go, the answers stay.
        let mut big = Progress::new(Lesson::Km0);
        for i in 0..400 {
            big.reach(&format!("a-step-with-a-long-name-{i}"));
        }
        big.predict("capacity", "600", false, Some(Prediction::Number(600.0)));
        let data = big.to_suspend_data();
        assert!(data.chars().count() <= SUSPEND_DATA_LIMIT, "{}", data.len());
        let back = Progress::from_suspend_data(Lesson::Km0, &data).unwrap();
        assert_eq!(back.predictions.len(), 1);
        assert!(back
            .reached
            .contains(&"a-step-with-a-long-name-399".to_string()));
        assert!(!back
            .reached
            .contains(&"a-step-with-a-long-name-0".to_string()));
    }
}
