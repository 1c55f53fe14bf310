//! A class vote on a step's question, as peer instruction runs it: the class votes alone, sees
//! the spread without the answer, talks with a neighbour, votes again, and only then is the run
//! played. The teacher types the counts of raised hands (or of answer cards); the rounds are
//! kept with the lesson's progress, quoted in the verdict and downloaded as CSV.

use serde::{Deserialize, Serialize};

use super::capitalized;
use super::predict::{choice_letter, trim_number, Answer, Prediction, Question};
use super::Lesson;

/// The most votes a field takes: more than any lecture hall holds.
pub const MAX_VOTES: u32 = 10_000;

/// One round of votes.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Round {
    /// A choice question's votes, by choice (`None`: the field was left empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts: Vec<Option<u32>>,
    /// A number question's guesses, as the class called them out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub guesses: Vec<f64>,
    /// Whether the class has seen the round's spread.
    #[serde(default)]
    pub shown: bool,
}

/// What the run said, once the votes were revealed.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Revealed {
    /// The choices that held on the run, by index (none for a number question).
    #[serde(default)]
    pub right: Vec<usize>,
    /// The measured value a number question asked for.
    #[serde(default)]
    pub measured: Option<f64>,
}

/// The class's votes on one step.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct StepVotes {
    /// The step, by name.
    pub step: String,
    /// The rounds, the current one last (there is always one).
    pub rounds: Vec<Round>,
    /// Set once the run was played and judged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed: Option<Revealed>,
}

/// One choice's bar in a round's spread.
#[derive(Debug, Clone, PartialEq)]
pub struct Bar {
    /// The choice's letter.
    pub letter: char,
    /// Its share of the round's votes, in percent (0 when nobody voted).
    pub percent: f64,
    /// "30 of 60: 50%".
    pub label: String,
}

/// Reads a field's text as a number of votes for the choice lettered `letter`: empty is no
/// count; otherwise a whole number from 0 to [`MAX_VOTES`], or a message naming the field.
pub fn read_count(letter: char, text: &str) -> Result<Option<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(n) if n <= MAX_VOTES => Ok(Some(n)),
        _ => Err(format!(
            "Votes for {letter}: “{text}” is not a count of votes; it takes a whole number \
             from 0 to 10,000."
        )),
    }
}

/// Reads the class's guesses for a number question ("300, 500, 1000"): numbers separated by
/// commas, semicolons or spaces, at most [`MAX_VOTES`] of them, or a message naming the field.
pub fn read_guesses(unit: &str, text: &str) -> Result<Vec<f64>, String> {
    let field = format!("The class's guesses, in {unit}");
    let mut guesses = Vec::new();
    for word in text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
    {
        match word.parse::<f64>() {
            Ok(n) if n.is_finite() && n >= 0.0 => guesses.push(n),
            _ => {
                return Err(format!(
                    "{field}: “{word}” is not a number from 0 up; write the guesses separated \
                     by commas (300, 500, 1000)."
                ))
            }
        }
    }
    if guesses.len() > MAX_VOTES as usize {
        return Err(format!(
            "{field}: {} guesses; it takes at most 10,000.",
            guesses.len()
        ));
    }
    Ok(guesses)
}

/// "10 of 60 (17%)".
fn share(part: u64, whole: u64) -> String {
    format!("{part} of {whole} ({}%)", percent(part, whole).round())
}

fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 * 100.0 / whole as f64
    }
}

/// Whether `guess` is within the question's tolerance of `measured`.
fn within(guess: f64, measured: f64, tolerance: f64) -> bool {
    (guess - measured).abs() <= tolerance * measured.abs()
}

impl Round {
    /// Votes for the choice at `index`.
    pub fn votes(&self, index: usize) -> u32 {
        self.counts.get(index).copied().flatten().unwrap_or(0)
    }

    /// Every vote of the round (for a number question, every guess).
    pub fn total(&self) -> u64 {
        if self.guesses.is_empty() {
            self.counts.iter().map(|c| u64::from(c.unwrap_or(0))).sum()
        } else {
            self.guesses.len() as u64
        }
    }

    /// The spread of a choice question's round over its `choices`, one bar per choice, the
    /// right one not marked.
    pub fn spread(&self, choices: usize) -> Vec<Bar> {
        let total = self.total();
        (0..choices)
            .map(|i| {
                let votes = self.votes(i);
                let p = percent(votes.into(), total);
                Bar {
                    letter: choice_letter(i),
                    percent: p,
                    label: format!("{votes} of {total}: {}%", p.round()),
                }
            })
            .collect()
    }

    /// The choice most voted for (the first of a tie), or the median guess: the class's
    /// answer, as its progress records it.
    pub fn answer(&self) -> Option<Prediction> {
        if !self.guesses.is_empty() {
            let mut sorted = self.guesses.clone();
            sorted.sort_by(f64::total_cmp);
            return Some(Prediction::Number(sorted[(sorted.len() - 1) / 2]));
        }
        let best = (0..self.counts.len()).max_by_key(|&i| (self.votes(i), std::cmp::Reverse(i)))?;
        (self.votes(best) > 0).then_some(Prediction::Choice(best))
    }
}

impl StepVotes {
    /// A vote opening on `step`, its first round empty.
    pub fn new(step: &str) -> StepVotes {
        StepVotes {
            step: step.to_string(),
            rounds: vec![Round::default()],
            revealed: None,
        }
    }

    /// The round being voted (the last).
    pub fn current(&mut self) -> &mut Round {
        if self.rounds.is_empty() {
            self.rounds.push(Round::default());
        }
        let last = self.rounds.len() - 1;
        &mut self.rounds[last]
    }

    /// The class's answer: that of the last round with votes.
    pub fn answer(&self) -> Option<Prediction> {
        self.rounds.iter().rev().find_map(Round::answer)
    }

    /// What the verdict says once the run has reached the step's moment: the run's figure
    /// (`fact`, in words), the right answer, and each round's share that was right. ("The queue
    /// in front of the workers reached 998 requests by 12.0 s: C. Round 1: 10 of 60 (17%)
    /// chose C; round 2: 40 of 60 (67%).")
    pub fn outcome(&self, question: &Question, fact: &str, revealed: &Revealed) -> String {
        let fact = capitalized(fact);
        let rounds: Vec<&Round> = self.rounds.iter().filter(|r| r.total() > 0).collect();
        match question.answer {
            Answer::Choices(_) => {
                let letters: Vec<String> = revealed
                    .right
                    .iter()
                    .map(|&i| choice_letter(i).to_string())
                    .collect();
                if letters.is_empty() {
                    return format!("{fact}: none of the choices held.");
                }
                let right = letters.join(" or ");
                let mut said = Vec::new();
                for (n, round) in rounds.iter().enumerate() {
                    let votes: u64 = revealed
                        .right
                        .iter()
                        .map(|&i| u64::from(round.votes(i)))
                        .sum();
                    let tail = if n == 0 {
                        format!(" chose {right}")
                    } else {
                        String::new()
                    };
                    said.push(format!(
                        "round {}: {}{tail}",
                        n + 1,
                        share(votes, round.total())
                    ));
                }
                format!("{fact}: {right}.{}", rounds_sentence(&said))
            }
            Answer::Number {
                tolerance, unit, ..
            } => {
                let Some(measured) = revealed.measured else {
                    return format!("{fact}.");
                };
                let mut said = Vec::new();
                for (n, round) in rounds.iter().enumerate() {
                    let near = round
                        .guesses
                        .iter()
                        .filter(|&&g| within(g, measured, tolerance))
                        .count() as u64;
                    let tail = if n == 0 {
                        format!(
                            " guesses within {}% of it ({} {unit})",
                            (tolerance * 100.0).round(),
                            trim(measured)
                        )
                    } else {
                        String::new()
                    };
                    said.push(format!(
                        "round {}: {}{tail}",
                        n + 1,
                        share(near, round.total())
                    ));
                }
                format!("{fact}.{}", rounds_sentence(&said))
            }
        }
    }
}

/// " Round 1: ...; round 2: ...." (nothing without rounds).
fn rounds_sentence(said: &[String]) -> String {
    if said.is_empty() {
        return " Nobody voted.".to_string();
    }
    format!(" {}.", capitalized(&said.join("; ")))
}

fn trim(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{:.1}", n)
    }
}

/// The class's votes on `lesson` as CSV: one row per step, round and choice (for a number
/// question, per distinct guess), with its votes and whether it was right (`yes`, `no`, or
/// empty before the run was revealed).
pub fn csv(lesson: Lesson, votes: &[StepVotes]) -> String {
    let mut out = String::from("lesson,step,round,choice,votes,right\n");
    let key = lesson.key();
    for v in votes {
        let Some(question) = lesson
            .steps()
            .iter()
            .find(|s| s.name == v.step)
            .and_then(|s| s.question)
        else {
            continue;
        };
        for (n, round) in v.rounds.iter().enumerate() {
            let mut row = |choice: &str, count: u64, right: Option<bool>| {
                let right = match right {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "",
                };
                out.push_str(&format!(
                    "{},{},{},{},{count},{right}\n",
                    cell(key),
                    cell(&v.step),
                    n + 1,
                    cell(choice)
                ));
            };
            match question.answer {
                Answer::Choices(choices) => {
                    for i in 0..choices.len() {
                        let right = v.revealed.as_ref().map(|r| r.right.contains(&i));
                        row(&choice_letter(i).to_string(), round.votes(i).into(), right);
                    }
                }
                Answer::Number { tolerance, .. } => {
                    let mut sorted = round.guesses.clone();
                    sorted.sort_by(f64::total_cmp);
                    sorted.dedup();
                    for g in sorted {
                        let count = round.guesses.iter().filter(|&&x| x == g).count() as u64;
                        let right = v
                            .revealed
                            .as_ref()
                            .and_then(|r| r.measured)
                            .map(|m| within(g, m, tolerance));
                        row(&trim_number(g), count, right);
                    }
                }
            }
        }
    }
    out
}

/// A CSV cell, quoted when it holds a comma, a quote or a line break.
fn cell(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::lessons::StepRef;

    fn question(lesson: Lesson, step: &str) -> Question {
        StepRef::named(lesson, step)
            .and_then(|s| s.step().question)
            .expect("a step with a question")
    }

    #[test]
    fn a_count_is_a_whole_number_up_to_ten_thousand_and_a_refusal_names_the_field() {
        assert_eq!(read_count('A', ""), Ok(None));
        assert_eq!(read_count('A', " 30 "), Ok(Some(30)));
        assert_eq!(read_count('A', "10000"), Ok(Some(10_000)));
        for bad in ["-3", "2.5", "thirty", "10001", "1e3"] {
            let why = read_count('B', bad).expect_err(bad);
            assert!(why.starts_with("Votes for B:"), "{why}");
            assert!(why.contains("0 to 10,000"), "{why}");
        }
    }

    #[test]
    fn guesses_are_a_list_of_numbers() {
        assert_eq!(
            read_guesses("requests", "300, 500 1000;12.5"),
            Ok(vec![300.0, 500.0, 1000.0, 12.5])
        );
        assert_eq!(read_guesses("requests", "  "), Ok(vec![]));
        let why = read_guesses("requests", "300, lots").expect_err("text");
        assert!(
            why.starts_with("The class's guesses, in requests:"),
            "{why}"
        );
        assert!(read_guesses("requests", "-5").is_err());
        assert!(read_guesses("requests", "NaN").is_err());
    }

    #[test]
    fn a_spread_gives_each_choice_its_count_and_share_without_the_answer() {
        let round = Round {
            counts: vec![Some(30), None, Some(30)],
            ..Round::default()
        };
        let bars = round.spread(3);
        assert_eq!(bars[0].label, "30 of 60: 50%");
        assert_eq!(bars[1].label, "0 of 60: 0%");
        assert_eq!(bars[2].letter, 'C');
        assert_eq!(Round::default().spread(2)[0].label, "0 of 0: 0%");
    }

    #[test]
    fn the_outcome_names_the_figure_the_answer_and_each_rounds_share() {
        let q = question(Lesson::Km0, "slow-inventory");
        let votes = StepVotes {
            step: "slow-inventory".into(),
            rounds: vec![
                Round {
                    counts: vec![Some(30), Some(20), Some(10)],
                    shown: true,
                    ..Round::default()
                },
                Round {
                    counts: vec![Some(5), Some(15), Some(40)],
                    shown: true,
                    ..Round::default()
                },
            ],
            revealed: None,
        };
        let revealed = Revealed {
            right: vec![2],
            measured: None,
        };
        let said = votes.outcome(
            &q,
            "the queue in front of the workers reached 998 requests by 12.0 s",
            &revealed,
        );
        assert_eq!(
            said,
            "The queue in front of the workers reached 998 requests by 12.0 s: C. Round 1: 10 \
             of 60 (17%) chose C; round 2: 40 of 60 (67%)."
        );
        assert_eq!(votes.answer(), Some(Prediction::Choice(2)));
    }

    #[test]
    fn a_number_questions_outcome_counts_the_guesses_within_its_tolerance() {
        let q = question(Lesson::Km0, "capacity");
        let Answer::Number { tolerance, .. } = q.answer else {
            panic!("capacity asks a number");
        };
        let measured = 600.0;
        let near = measured * (1.0 + tolerance / 2.0);
        let votes = StepVotes {
            step: "capacity".into(),
            rounds: vec![Round {
                guesses: vec![300.0, near, 1000.0, measured],
                ..Round::default()
            }],
            revealed: None,
        };
        let revealed = Revealed {
            right: vec![],
            measured: Some(measured),
        };
        let said = votes.outcome(&q, "611 requests", &revealed);
        assert!(
            said.starts_with("611 requests. Round 1: 2 of 4 (50%) guesses within"),
            "{said}"
        );
        assert_eq!(votes.answer(), Some(Prediction::Number(near.min(measured))));
    }

    #[test]
    fn the_csv_has_a_row_per_round_and_choice_with_whether_it_was_right() {
        let mut votes = StepVotes::new("slow-inventory");
        votes.current().counts = vec![Some(3), Some(2), None];
        votes.rounds.push(Round {
            counts: vec![None, Some(1), Some(4)],
            ..Round::default()
        });
        let before = csv(Lesson::Km0, std::slice::from_ref(&votes));
        assert!(before.contains("km0,slow-inventory,1,A,3,\n"), "{before}");
        votes.revealed = Some(Revealed {
            right: vec![2],
            measured: None,
        });
        let after = csv(Lesson::Km0, &[votes]);
        let lines: Vec<&str> = after.lines().collect();
        assert_eq!(lines[0], "lesson,step,round,choice,votes,right");
        assert_eq!(lines.len(), 1 + 2 * 3);
        assert!(lines.contains(&"km0,slow-inventory,1,C,0,yes"), "{after}");
        assert!(lines.contains(&"km0,slow-inventory,2,C,4,yes"), "{after}");
        assert!(lines.contains(&"km0,slow-inventory,2,B,1,no"), "{after}");
    }
}
