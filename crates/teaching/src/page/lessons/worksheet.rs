//! A lesson as a worksheet to print: each step's title, its setting (the first paragraph, the
//! only one shown while the class predicts), its question with lettered choices, and for the
//! teacher's copy the answer the step's own run gives.

use super::live::{pieces, Piece};
use super::predict::{choice_letter, Answer};
use super::rules::Reading;
use super::{Lesson, Step};
use crate::page::knobs::knob;

/// One step on the sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Its number in the lesson, from 1.
    pub number: usize,
    /// Its title.
    pub title: &'static str,
    /// Its first paragraph, with a blank for each live figure (paper does not play the run).
    pub setting: String,
    /// Its question, if it asks one.
    pub question: Option<SheetQuestion>,
}

/// A question on the sheet.
#[derive(Debug, Clone, PartialEq)]
pub struct SheetQuestion {
    /// The question.
    pub prompt: &'static str,
    /// The choices with their letters (none for a number question).
    pub choices: Vec<(char, &'static str)>,
    /// The unit a number question is answered in.
    pub unit: Option<&'static str>,
    /// The teacher's copy: the answer the step's run gives, in words.
    pub answer: Option<String>,
}

/// `lesson` as a worksheet; with `answers`, each question's answer read from the step's own
/// run (every step is simulated to its moment, so this takes a moment).
pub fn worksheet(lesson: Lesson, answers: bool) -> Vec<Sheet> {
    lesson
        .steps()
        .iter()
        .enumerate()
        .map(|(i, step)| Sheet {
            number: i + 1,
            title: step.title,
            setting: setting(step),
            question: step.question.map(|q| SheetQuestion {
                prompt: q.prompt,
                choices: match q.answer {
                    Answer::Choices(choices) => choices
                        .iter()
                        .enumerate()
                        .map(|(i, c)| (choice_letter(i), c.text))
                        .collect(),
                    Answer::Number { .. } => Vec::new(),
                },
                unit: match q.answer {
                    Answer::Number { unit, .. } => Some(unit),
                    Answer::Choices(_) => None,
                },
                answer: answers.then(|| answer(step)).flatten(),
            }),
        })
        .collect()
}

/// The step's first paragraph as paper shows it.
fn setting(step: &Step) -> String {
    let Some(first) = step.text.first() else {
        return String::new();
    };
    let Ok(parts) = pieces(first) else {
        return first.to_string();
    };
    parts
        .into_iter()
        .map(|p| match p {
            Piece::Text(t) => t.to_string(),
            Piece::Live(_) => "____".to_string(),
            Piece::Control => step
                .knob
                .and_then(knob)
                .map_or_else(String::new, |k| k.panel.label.to_ascii_lowercase()),
        })
        .collect()
}

/// What the step's run answers: the right letter with the figure, or the figure.
fn answer(step: &Step) -> Option<String> {
    let question = step.question?;
    let (page, _) = step.page_at_moment();
    let run = page.runs.a.as_ref().ok()?;
    let reading = Reading {
        run,
        now: step.moment(),
        b: None,
    };
    let fact = question.fact(&reading);
    Some(match question.answer {
        Answer::Choices(_) => {
            let right: Vec<String> = question
                .right_choices(&reading)
                .into_iter()
                .map(|i| choice_letter(i).to_string())
                .collect();
            format!("{}: {fact}", right.join(", "))
        }
        Answer::Number { .. } => fact,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_is_on_the_sheet_with_its_question_and_the_teachers_copy_has_the_answers() {
        let sheets = worksheet(Lesson::Km0, false);
        assert_eq!(sheets.len(), Lesson::Km0.steps().len());
        let first = &sheets[0];
        assert_eq!(first.title, "A slow inventory, and nothing in the way");
        let q = first.question.as_ref().expect("step 1 asks");
        assert_eq!(q.choices.len(), 3);
        assert_eq!(q.choices[2].0, 'C');
        assert_eq!(q.answer, None, "the students' copy has no answers");
        assert!(!first.setting.contains('{'), "{}", first.setting);
        let asked = sheets.iter().filter(|s| s.question.is_some()).count();
        let questions = Lesson::Km0
            .steps()
            .iter()
            .filter(|s| s.question.is_some())
            .count();
        assert_eq!(asked, questions);

        let teacher = worksheet(Lesson::Km0, true);
        let answer = teacher[0]
            .question
            .as_ref()
            .unwrap()
            .answer
            .clone()
            .unwrap();
        assert!(answer.starts_with("C: "), "{answer}");
        assert!(answer.contains("998"), "{answer}");
        let number = teacher
            .iter()
            .find_map(|s| s.question.as_ref().filter(|q| q.unit.is_some()))
            .expect("KM0 asks for a number once");
        assert!(
            number.answer.as_ref().is_some_and(|a| a.contains("611")),
            "{number:?}"
        );
    }
}
