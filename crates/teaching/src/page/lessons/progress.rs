//! A student's progress through one lesson: the steps reached and each prediction with its
//! verdict. Kept by the page in the browser's storage, summed up at the lesson's end, and
//! downloaded as JSON; its [`Score`] holds the figures a course platform records.

use serde::{Deserialize, Serialize};

use super::Lesson;

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
        json.and_then(|j| serde_json::from_str::<Progress>(j).ok())
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

    /// Notes that the challenge of the step called `name` was passed; false when it already
    /// was.
    pub fn pass(&mut self, name: &str) -> bool {
        if self.challenges.iter().any(|c| c == name) {
            return false;
        }
        self.challenges.push(name.to_string());
        true
    }

    /// Notes a prediction on the step `step` and its verdict (the latest per step counts).
    pub fn predict(&mut self, step: &str, said: &str, right: bool) {
        let record = PredictionRecord {
            step: step.to_string(),
            said: said.to_string(),
            right,
        };
        match self.predictions.iter_mut().find(|p| p.step == step) {
            Some(old) => *old = record,
            None => self.predictions.push(record),
        }
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

    /// The summary at the lesson's end, in words.
    pub fn summary(&self, lesson: Lesson) -> String {
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
        format!(
            "You reached {} of the {} steps.{predicted}{challenges}",
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
        p.predict("slow-inventory", "Short, under 50 requests", false);
        p.predict("slow-inventory", "More than 500", true);
        p.predict("capacity", "600", true);
        let score = p.score(lesson);
        assert_eq!(score.steps_reached, 2);
        assert_eq!(score.steps, lesson.steps().len());
        assert_eq!((score.predictions, score.predictions_right), (2, 2));
        assert!(score.questions >= 5);
        let summary = p.summary(lesson);
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
}
