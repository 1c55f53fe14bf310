//! The lesson deck as a reducer: the step shown and the rules of a lesson, apart from the
//! browser. [`Deck::apply`] takes what happened ([`DeckAction`]) and gives the next deck and
//! what the page must do about it ([`Effect`]: write the address, keep the progress, tell a
//! course platform the score, play the step's run). The lesson page only runs the effects, so
//! the rules are tested here: a question holds the run, the run pauses at the step's moment,
//! answers and challenges are kept, the score follows.

use super::predict::Asked;
use super::progress::{Progress, Score};
use super::vote::{Revealed, Round, StepVotes};
use super::{Lesson, StepRef};
use crate::page::action::Action;
use crate::sim::latency::Micros;

/// The deck: where the class is in the lesson, and what it did there.
#[derive(Debug, Clone, PartialEq)]
pub struct Deck {
    /// The step shown (or the recap).
    pub at: StepRef,
    /// True once the class has changed step: the new step takes the keyboard's focus.
    pub moved: bool,
    /// Projector mode.
    pub projector: bool,
    /// A class vote: a question takes the class's votes in rounds, and the run plays only at
    /// the reveal (see [`super::vote`]).
    pub vote: bool,
    /// The shown step's "Try it" value, while a student has it off the step's own (a link
    /// carries it, so a phone opens what the projector shows).
    pub tried: Option<String>,
    /// The shown step's question: answered (or shown without an answer), or not yet.
    pub asked: Option<Asked>,
    /// The shown step's answer was given on an earlier visit (or session): its verdict shows
    /// at once, without waiting for the run to reach the step's moment.
    pub recalled: bool,
    /// The steps whose answers come back in projector mode when the class returns to them:
    /// those answered in this session, and for a learner resumed from a course platform's
    /// record every step the record holds an answer for. (On the projector a reloaded lesson
    /// asks again, so a rehearsal's answers do not spoil the class's predictions; a student
    /// alone gets every kept answer back with its verdict.)
    pub answers_shown_again: Vec<String>,
    /// How many times the student asked to try the shown step's challenge again: the step
    /// starts afresh each time.
    pub attempt: u32,
    /// Where each step's run was left, by step name: a step comes back where it was.
    pub playheads: Vec<(String, Micros)>,
    /// The playback speed chosen in this lesson, if one was.
    pub speed: Option<f64>,
    /// What the student has done in this lesson, as the browser's storage keeps it.
    pub progress: Progress,
}

/// What happened to the deck.
#[derive(Debug, Clone, PartialEq)]
pub enum DeckAction {
    /// Next, Back, the step list, a key: show this step.
    Go(StepRef),
    /// The browser's Back or Forward: the address names this step, with the "Try it" value it
    /// carries, if any (no new history entry).
    Arrived {
        /// The step.
        to: StepRef,
        /// The "Try it" value the entry's address carries.
        tried: Option<String>,
    },
    /// The projector switch.
    SetProjector(bool),
    /// The "Class vote" switch.
    SetVote(bool),
    /// The votes for the choice at this index in the current round (`None`: the field
    /// emptied).
    CastVotes {
        /// The choice.
        choice: usize,
        /// Its votes.
        votes: Option<u32>,
    },
    /// The class's guesses on a number question, in the current round.
    Guesses(Vec<f64>),
    /// "Show the votes": the current round's spread.
    ShowVotes,
    /// "Vote again": a new round, the earlier ones kept.
    VoteAgain,
    /// "Reveal: play the run", the step's run `playing` then.
    Reveal {
        /// Whether the step's run was playing.
        playing: bool,
    },
    /// "Clear the votes": the shown step's rounds and the class's answer are forgotten and its
    /// question is asked afresh (a rehearsal's votes gone before the class votes), the step's
    /// run `playing` then.
    ClearVotes {
        /// Whether the step's run was playing.
        playing: bool,
    },
    /// The revealed run, judged: the choices that held, the value a number question asked
    /// for, and the class's answer (its last round's) in words with whether it held.
    VotesJudged {
        /// The choices that held, by index.
        right: Vec<usize>,
        /// The measured value of a number question.
        measured: Option<f64>,
        /// The class's answer in words and whether it held, if the class voted at all.
        class: Option<(String, bool)>,
    },
    /// The shown step's "Try it" value left the step's own (`None`: back on it).
    Tried(Option<String>),
    /// The class answered the shown step's question (or the teacher showed the run); the
    /// step's run was `playing` then.
    Answer {
        /// The answer.
        asked: Asked,
        /// Whether the step's run was playing.
        playing: bool,
        /// The verdict, judged at once on the whole run (the run is known in full before it
        /// plays): the prediction in words and whether right. Kept at once, so a class that
        /// moves on before the step's moment keeps its credit.
        verdict: Option<(String, bool)>,
    },
    /// The run bore the prediction out or not: what was said, in words, and whether right.
    Verdict {
        /// The prediction in words, as the verdict quotes it.
        said: String,
        /// Whether the run bore it out.
        right: bool,
    },
    /// The shown step's challenge was met.
    ChallengePassed {
        /// Its controls' keys and values, as a link writes them: the step comes back with them.
        settings: Vec<(String, String)>,
    },
    /// The student tries the shown step's challenge again from the step's own settings (the
    /// pass still counts).
    TryAgain,
    /// A presentation clicker's "advance" (PageDown), with where the shown step's run stands:
    /// a question waiting is passed through (the run shown without a prediction), a run short
    /// of the step's moment plays to it, and at the moment the class goes on to the next step.
    Advance {
        /// The run's playhead.
        playhead: Micros,
        /// Whether it is playing.
        playing: bool,
    },
    /// The class left `step` with its run's playhead here: coming back, it is where it was.
    Left {
        /// The step left.
        step: StepRef,
        /// Its playhead then.
        playhead: Micros,
    },
    /// The playback speed chosen: it stays for the lesson.
    Speed(f64),
}

/// What the page does after an action.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// A new entry in the browser's history, with the document's title.
    PushAddress {
        /// The address (`?lesson=km0&step=timeout`).
        address: String,
        /// The document's title.
        title: String,
    },
    /// The current entry's address, corrected (a step opened by number, a moved control).
    ReplaceAddress(String),
    /// The document's title.
    Title(String),
    /// Tell a course platform where the learner is and what they did (a SCORM package's
    /// `cmi.core.lesson_location` and `cmi.suspend_data`; elsewhere nothing).
    Record {
        /// The step shown, by name (`end` for the recap).
        location: String,
        /// The progress, as [`Progress::to_suspend_data`] writes it.
        suspend_data: String,
    },
    /// Keep the progress in the browser's storage under this key, as this JSON.
    Store {
        /// The storage key.
        key: String,
        /// The progress as JSON.
        json: String,
    },
    /// Tell a course platform the score (the lesson page does, a widget does not).
    PublishScore(Score),
    /// The step's run: these actions, in order.
    Run(Vec<Action>),
}

impl Deck {
    /// The deck opening on `start`, with the progress the storage had (`stored`).
    pub fn new(
        start: StepRef,
        projector: bool,
        tried: Option<String>,
        stored: Option<&str>,
    ) -> Deck {
        let mut deck = Deck {
            at: start,
            moved: false,
            projector,
            vote: false,
            tried: None,
            asked: None,
            recalled: false,
            answers_shown_again: Vec::new(),
            attempt: 0,
            playheads: Vec::new(),
            speed: None,
            progress: Progress::restore(start.lesson, stored),
        };
        deck.show(start);
        deck.tried = tried;
        deck
    }

    /// The deck opening on `start` with the progress a course platform kept for the learner
    /// (`suspend_data`, see [`Progress::to_suspend_data`]); a record that is not one starts
    /// afresh.
    pub fn resumed(
        start: StepRef,
        projector: bool,
        tried: Option<String>,
        suspend_data: &str,
    ) -> Deck {
        let mut deck = Deck::new(start, projector, None, None);
        if let Some(progress) = Progress::from_suspend_data(start.lesson, suspend_data) {
            deck.answers_shown_again = progress
                .predictions
                .iter()
                .map(|p| p.step.clone())
                .collect();
            deck.progress = progress;
            deck.show(start);
        }
        deck.tried = tried;
        deck
    }

    /// The deck with the class vote on or off (a link's `&vote=on`).
    pub fn voting(mut self, on: bool) -> Deck {
        let tried = self.tried.take();
        self.vote = on;
        self.show(self.at);
        self.tried = tried;
        self
    }

    /// What the page does once the deck opens: the address names the step shown (whatever
    /// opened it: a number from an older link, no step at all), and the progress is kept.
    pub fn opening_effects(&self) -> Vec<Effect> {
        let mut effects = vec![Effect::ReplaceAddress(self.address())];
        effects.extend(self.keep_progress());
        effects
    }

    /// The lesson.
    pub fn lesson(&self) -> Lesson {
        self.at.lesson
    }

    /// The deck after `action`, and what the page must do about it.
    pub fn apply(&self, action: DeckAction) -> (Deck, Vec<Effect>) {
        let mut next = self.clone();
        let mut effects = Vec::new();
        let progress_before = self.progress.clone();
        let at_before = self.at;
        match action {
            // The step already shown stays as it is, its answer with it.
            DeckAction::Go(to) | DeckAction::Arrived { to, .. } if to == self.at => {}
            DeckAction::Go(to) => {
                next.show(to);
                next.moved = true;
                effects.push(Effect::PushAddress {
                    address: next.address(),
                    title: title_of(to),
                });
            }
            DeckAction::Arrived { to, tried } => {
                next.show(to);
                next.tried = tried;
                effects.push(Effect::ReplaceAddress(next.address()));
                effects.push(Effect::Title(title_of(to)));
            }
            DeckAction::SetProjector(on) => {
                next.projector = on;
                effects.push(Effect::ReplaceAddress(next.address()));
            }
            DeckAction::SetVote(on) => {
                next.vote = on;
                next.show(next.at);
                next.tried = self.tried.clone();
                effects.push(Effect::ReplaceAddress(next.address()));
            }
            DeckAction::CastVotes { choice, votes } => {
                if let Some(round) = next.round_open() {
                    if round.counts.len() <= choice {
                        round.counts.resize(choice + 1, None);
                    }
                    round.counts[choice] = votes;
                }
            }
            DeckAction::Guesses(guesses) => {
                if let Some(round) = next.round_open() {
                    round.guesses = guesses;
                }
            }
            DeckAction::ShowVotes => {
                if let Some(round) = next.round_open() {
                    round.shown = true;
                }
            }
            DeckAction::VoteAgain => {
                if next.round_open().is_some_and(|r| r.total() > 0) {
                    let name = next.at.name().to_string();
                    next.progress.votes_mut(&name).rounds.push(Round::default());
                }
            }
            DeckAction::Reveal { playing } => {
                if self.vote && self.holding() {
                    next.asked = Some(Asked::Voted);
                    next.recalled = false;
                    if let Some(round) = next.round_open_any() {
                        round.shown = true;
                    }
                    let mut run = vec![Action::Seek(0)];
                    if !playing {
                        run.push(Action::TogglePlay);
                    }
                    effects.push(Effect::Run(run));
                }
            }
            DeckAction::ClearVotes { playing } => {
                if self.vote && !self.at.is_recap() && self.at.step().question.is_some() {
                    let name = next.at.name().to_string();
                    next.progress.votes.retain(|v| v.step != name);
                    if next.asked == Some(Asked::Voted) {
                        next.progress.predictions.retain(|p| p.step != name);
                        next.asked = None;
                        next.recalled = false;
                        let mut run = vec![Action::Seek(0)];
                        if playing {
                            run.insert(0, Action::TogglePlay);
                        }
                        effects.push(Effect::Run(run));
                    }
                }
            }
            DeckAction::VotesJudged {
                right,
                measured,
                class,
            } => {
                if !next.at.is_recap() && next.asked == Some(Asked::Voted) {
                    let name = next.at.name().to_string();
                    let votes = next.progress.votes_mut(&name);
                    let revealed = Revealed { right, measured };
                    if votes.revealed.as_ref() != Some(&revealed) {
                        votes.revealed = Some(revealed);
                        let answer = votes.answer();
                        if let Some((said, right)) = class {
                            next.progress.predict(&name, &said, right, answer);
                        }
                    }
                }
            }
            DeckAction::Tried(value) => {
                if value != next.tried {
                    next.tried = value;
                    effects.push(Effect::ReplaceAddress(next.address()));
                }
            }
            DeckAction::Answer {
                asked,
                playing,
                verdict,
            } => {
                // The run plays from its start, so the class watches what it predicted.
                if self.holding() {
                    next.asked = Some(asked);
                    next.recalled = false;
                    if let (Asked::Predicted(p), Some((said, right))) = (asked, verdict) {
                        next.progress.predict(next.at.name(), &said, right, Some(p));
                        next.shown_again_here();
                    }
                    let mut run = vec![Action::Seek(0)];
                    if !playing {
                        run.push(Action::TogglePlay);
                    }
                    effects.push(Effect::Run(run));
                }
            }
            DeckAction::Verdict { said, right } => {
                if !next.at.is_recap() {
                    let prediction = match next.asked {
                        Some(Asked::Predicted(p)) => Some(p),
                        _ => None,
                    };
                    next.progress
                        .predict(next.at.name(), &said, right, prediction);
                    if prediction.is_some() {
                        next.shown_again_here();
                    }
                }
            }
            DeckAction::ChallengePassed { settings } => {
                if !next.at.is_recap() {
                    next.progress.pass(next.at.name(), settings);
                }
            }
            DeckAction::Advance { playhead, playing } => {
                if self.at.is_recap() {
                    return (next, effects);
                }
                let moment = self.at.step().moment();
                if self.holding() && self.vote {
                    return self.apply(DeckAction::Reveal { playing });
                } else if self.holding() {
                    return self.apply(DeckAction::Answer {
                        asked: Asked::Skipped,
                        playing,
                        verdict: None,
                    });
                } else if playhead < moment && playing {
                    effects.push(Effect::Run(vec![Action::Seek(moment), Action::TogglePlay]));
                } else if playhead < moment {
                    effects.push(Effect::Run(vec![Action::TogglePlay]));
                } else if let Some(to) = self.at.next() {
                    return self.apply(DeckAction::Go(to));
                }
            }
            DeckAction::Left { step, playhead } => {
                if !step.is_recap() {
                    let name = step.name().to_string();
                    next.playheads.retain(|(s, _)| *s != name);
                    next.playheads.push((name, playhead));
                }
            }
            DeckAction::Speed(speed) => {
                if speed.is_finite() && speed > 0.0 {
                    next.speed = Some(speed);
                }
            }
            DeckAction::TryAgain => {
                if !next.at.is_recap() {
                    next.progress.try_again(next.at.name());
                    next.attempt += 1;
                    // The step starts afresh and takes the focus (its button is gone).
                    next.moved = true;
                }
            }
        }
        if next.progress != progress_before {
            effects.extend(next.keep_progress());
        } else if next.at != at_before {
            effects.push(next.record());
        }
        (next, effects)
    }

    /// Shows `to`, its control the step's own; its question unanswered unless the class
    /// answered it before (then with that answer, its verdict at once).
    fn show(&mut self, to: StepRef) {
        self.at = to;
        self.tried = None;
        self.asked = None;
        self.recalled = false;
        if !to.is_recap() {
            self.progress.reach(to.name());
            let revealed = self
                .progress
                .votes_on(to.name())
                .is_some_and(|v| v.revealed.is_some());
            if self.vote && revealed {
                self.asked = Some(Asked::Voted);
                self.recalled = true;
                return;
            }
            let again = !self.projector || self.answers_shown_again.iter().any(|s| s == to.name());
            if let Some(p) = self.progress.prediction_on(to.name()).filter(|_| again) {
                self.asked = Some(Asked::Predicted(p));
                self.recalled = true;
            }
        }
    }

    /// The shown step's answer comes back when the class returns to it.
    fn shown_again_here(&mut self) {
        let name = self.at.name();
        if !self.answers_shown_again.iter().any(|s| s == name) {
            self.answers_shown_again.push(name.to_string());
        }
    }

    /// The current round of the class vote on the shown step, while it takes votes (a class
    /// vote on a question not yet revealed); a first round is opened if need be.
    fn round_open(&mut self) -> Option<&mut Round> {
        if !(self.vote && self.holding()) {
            return None;
        }
        self.round_open_any()
    }

    fn round_open_any(&mut self) -> Option<&mut Round> {
        if self.at.is_recap() || self.at.step().question.is_none() {
            return None;
        }
        let name = self.at.name().to_string();
        Some(self.progress.votes_mut(&name).current())
    }

    /// The class's votes on the shown step.
    pub fn votes(&self) -> Option<&StepVotes> {
        (!self.at.is_recap())
            .then(|| self.progress.votes_on(self.at.name()))
            .flatten()
    }

    /// Where the shown step's run was left, when the class has been there before.
    pub fn left_at(&self) -> Option<Micros> {
        self.playheads
            .iter()
            .find(|(s, _)| s == self.at.name())
            .map(|(_, p)| *p)
    }

    /// The settings the shown step's challenge was passed with, when the student passed it
    /// (the step comes back with them, its pass shown).
    pub fn passed_with(&self) -> Option<Vec<(String, String)>> {
        if self.at.is_recap() {
            return None;
        }
        self.progress
            .passed_settings(self.at.name())
            .map(<[(String, String)]>::to_vec)
    }

    /// Whether the student passed the challenge of `step`.
    pub fn passed(&self, step: StepRef) -> bool {
        !step.is_recap() && self.progress.challenges.iter().any(|c| c == step.name())
    }

    /// The effect that tells a course platform where the learner is and what they did.
    fn record(&self) -> Effect {
        Effect::Record {
            location: self.at.name().to_string(),
            suspend_data: self.progress.to_suspend_data(),
        }
    }

    /// The effects that keep the progress and tell the score.
    fn keep_progress(&self) -> Vec<Effect> {
        let lesson = self.lesson();
        let mut effects = Vec::new();
        if let Ok(json) = serde_json::to_string(&self.progress) {
            effects.push(Effect::Store {
                key: Progress::storage_key(lesson),
                json,
            });
        }
        effects.push(Effect::PublishScore(self.progress.score(lesson)));
        effects.push(self.record());
        effects
    }

    /// The address of the step shown, with the "Try it" value a student moved and the
    /// projector, so that a link opens what the projector shows.
    pub fn address(&self) -> String {
        let mut q = format!("?{}", self.at.query());
        if let (Some(key), Some(text)) = (self.at.knob(), self.tried.as_deref()) {
            q.push('&');
            q.push_str(&serde_urlencoded::to_string([(key, text)]).unwrap_or_default());
        }
        if self.projector {
            q.push_str("&projector=on");
        }
        if self.vote {
            q.push_str("&vote=on");
        }
        q
    }

    /// True while the shown step's question waits for an answer: its run holds.
    pub fn holding(&self) -> bool {
        !self.at.is_recap() && self.at.step().question.is_some() && self.asked.is_none()
    }

    /// Whether the step's run takes `action` now: while a question holds it, nothing plays,
    /// steps or seeks it.
    pub fn admits(&self, action: &Action) -> bool {
        admits(self.holding(), action)
    }

    /// The action that pauses the run at the step's moment, when the playhead has just crossed
    /// it while playing (from `before` to `now`).
    pub fn pause_at_moment(&self, before: Micros, now: Micros, playing: bool) -> Option<Action> {
        if self.at.is_recap() {
            return None;
        }
        pause_at(self.at.step().moment(), before, now, playing)
    }
}

/// The action that pauses a run at `moment` when its playhead has just crossed it while
/// playing (from `before` to `now`), so the class sees what the step is about.
pub fn pause_at(moment: Micros, before: Micros, now: Micros, playing: bool) -> Option<Action> {
    (playing && before < moment && now >= moment).then_some(Action::TogglePlay)
}

/// The document's title for `to`.
fn title_of(to: StepRef) -> String {
    let title = if to.is_recap() {
        format!("Recap of {}", to.lesson.title())
    } else {
        to.step().title.to_string()
    };
    format!("{title}: Resilience Playground")
}

/// Whether a step's run takes `action` while the deck is `holding` it or not (the step's view
/// asks without the deck: it is given only whether the deck holds).
pub fn admits(holding: bool, action: &Action) -> bool {
    !(holding && moves_the_playhead(action))
}

/// Whether `action` plays, steps or seeks the run (what a question's hold refuses).
fn moves_the_playhead(action: &Action) -> bool {
    matches!(
        action,
        Action::TogglePlay | Action::Step(_) | Action::Seek(_) | Action::Tick(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::lessons::predict::{Asked, Prediction};

    fn km0(name: &str) -> StepRef {
        StepRef::named(Lesson::Km0, name).expect("a step of km0")
    }

    #[test]
    fn a_question_holds_the_run_until_it_is_answered_then_the_run_starts_over() {
        let deck = Deck::new(km0("slow-inventory"), false, None, None);
        assert!(deck.holding());
        assert!(!deck.admits(&Action::TogglePlay));
        assert!(!deck.admits(&Action::Seek(3_000_000)));
        assert!(
            deck.admits(&Action::SetProjector(true)),
            "the view is not the run"
        );
        let (answered, effects) = deck.apply(DeckAction::Answer {
            asked: Asked::Predicted(Prediction::Choice(1)),
            playing: false,
            verdict: None,
        });
        assert!(!answered.holding() && answered.admits(&Action::TogglePlay));
        assert_eq!(
            effects,
            [Effect::Run(vec![Action::Seek(0), Action::TogglePlay])]
        );
        let (_, effects) = deck.apply(DeckAction::Answer {
            asked: Asked::Skipped,
            playing: true,
            verdict: None,
        });
        assert_eq!(
            effects,
            [Effect::Run(vec![Action::Seek(0)])],
            "already playing"
        );
        // A step without a question never holds, and an answer there changes nothing.
        let (plain, effects) =
            Deck::new(km0("deadline"), false, None, None).apply(DeckAction::Answer {
                asked: Asked::Skipped,
                playing: false,
                verdict: None,
            });
        assert!(plain.asked.is_none() && effects.is_empty() && !plain.holding());
    }

    #[test]
    fn a_class_vote_takes_rounds_holds_the_run_until_the_reveal_and_keeps_the_rounds() {
        let deck = Deck::new(km0("slow-inventory"), true, None, None).voting(true);
        assert!(
            deck.address().ends_with("&projector=on&vote=on"),
            "{}",
            deck.address()
        );
        let apply = |deck: &Deck, action| deck.apply(action);
        // Votes are counted; nothing plays.
        let (deck, _) = apply(
            &deck,
            DeckAction::CastVotes {
                choice: 0,
                votes: Some(30),
            },
        );
        let (deck, _) = apply(
            &deck,
            DeckAction::CastVotes {
                choice: 2,
                votes: Some(10),
            },
        );
        let (deck, effects) = apply(&deck, DeckAction::ShowVotes);
        assert!(deck.holding() && !deck.admits(&Action::TogglePlay));
        assert!(!effects.iter().any(|e| matches!(e, Effect::Run(_))));
        assert!(
            effects
                .iter()
                .any(|e| matches!(e, Effect::Store { json, .. } if json.contains("votes"))),
            "the rounds are kept with the progress: {effects:?}"
        );
        let votes = deck.votes().expect("votes on the step");
        assert_eq!(votes.rounds.len(), 1);
        assert!(votes.rounds[0].shown);
        assert_eq!(votes.rounds[0].spread(3)[0].label, "30 of 40: 75%");
        // A second round, the first kept; an empty round is not doubled.
        let (deck, _) = apply(&deck, DeckAction::VoteAgain);
        let (deck, _) = apply(&deck, DeckAction::VoteAgain);
        assert_eq!(deck.votes().map(|v| v.rounds.len()), Some(2));
        let (deck, _) = apply(
            &deck,
            DeckAction::CastVotes {
                choice: 2,
                votes: Some(35),
            },
        );
        let (deck, _) = apply(
            &deck,
            DeckAction::CastVotes {
                choice: 1,
                votes: Some(5),
            },
        );
        // A clicker's PageDown reveals; the run plays from its start.
        let (revealed, effects) = apply(
            &deck,
            DeckAction::Advance {
                playhead: 0,
                playing: false,
            },
        );
        assert_eq!(revealed.asked, Some(Asked::Voted));
        assert!(effects.contains(&Effect::Run(vec![Action::Seek(0), Action::TogglePlay])));
        // Votes after the reveal change nothing.
        let (after, _) = apply(
            &revealed,
            DeckAction::CastVotes {
                choice: 0,
                votes: Some(99),
            },
        );
        assert_eq!(after.votes(), revealed.votes());
        let (judged, _) = apply(
            &revealed,
            DeckAction::VotesJudged {
                right: vec![2],
                measured: None,
                class: Some(("More than 500".into(), true)),
            },
        );
        assert_eq!(
            judged.progress.prediction_on("slow-inventory"),
            Some(Prediction::Choice(2))
        );
        assert_eq!(judged.progress.score(Lesson::Km0).predictions_right, 1);
        // A reload of the same lesson shows the rounds and the reveal again.
        let json = serde_json::to_string(&judged.progress).expect("json");
        let again = Deck::new(km0("slow-inventory"), true, None, Some(&json)).voting(true);
        assert_eq!(again.asked, Some(Asked::Voted));
        assert_eq!(again.votes(), judged.votes());
        // Clearing the votes forgets the rounds and the class's answer and asks afresh, the run
        // back at 0.
        let (cleared, effects) = apply(&again, DeckAction::ClearVotes { playing: false });
        assert!(cleared.holding() && cleared.votes().is_none());
        assert_eq!(cleared.progress.prediction_on("slow-inventory"), None);
        assert!(
            effects.contains(&Effect::Run(vec![Action::Seek(0)])),
            "{effects:?}"
        );
        assert!(effects.iter().any(|e| matches!(e, Effect::Store { .. })));
        // Without the class vote, the votes take nothing and the question answers as before.
        let plain = Deck::new(km0("slow-inventory"), false, None, None);
        let (plain, _) = apply(
            &plain,
            DeckAction::CastVotes {
                choice: 0,
                votes: Some(3),
            },
        );
        assert!(plain.votes().is_none());
        let (switched, effects) = apply(&plain, DeckAction::SetVote(true));
        assert!(switched.vote);
        assert_eq!(
            effects,
            [Effect::ReplaceAddress(
                "?lesson=km0&step=slow-inventory&vote=on".into()
            )]
        );
    }

    #[test]
    fn the_run_pauses_once_at_the_steps_moment() {
        let deck = Deck::new(km0("timeout"), false, None, None);
        let moment = deck.at.step().moment();
        assert_eq!(
            deck.pause_at_moment(moment - 100_000, moment, true),
            Some(Action::TogglePlay)
        );
        assert_eq!(
            deck.pause_at_moment(moment, moment + 100_000, true),
            None,
            "past it"
        );
        assert_eq!(
            deck.pause_at_moment(moment - 1, moment, false),
            None,
            "not playing"
        );
    }

    #[test]
    fn going_on_writes_the_address_keeps_the_progress_and_forgets_the_steps_answer() {
        let deck = Deck::new(km0("slow-inventory"), true, None, None);
        assert_eq!(deck.progress.reached, ["slow-inventory"]);
        let (deck, _) = deck.apply(DeckAction::Answer {
            asked: Asked::Skipped,
            playing: false,
            verdict: None,
        });
        let (deck, effects) = deck.apply(DeckAction::Go(km0("timeout")));
        assert!(deck.moved && deck.asked.is_none());
        assert_eq!(deck.progress.reached, ["slow-inventory", "timeout"]);
        assert_eq!(
            effects[0],
            Effect::PushAddress {
                address: "?lesson=km0&step=timeout&projector=on".into(),
                title: format!("{}: Resilience Playground", km0("timeout").step().title),
            }
        );
        assert!(matches!(&effects[1], Effect::Store { key, json }
            if *key == Progress::storage_key(Lesson::Km0) && json.contains("\"timeout\"")));
        assert!(matches!(effects[2], Effect::PublishScore(s) if s.steps_reached == 2));
        // Coming back to a step already reached stores nothing new; the address is the
        // entry's, its control's value with it, and the title the step's.
        let (back, effects) = deck.apply(DeckAction::Arrived {
            to: km0("capacity"),
            tried: Some("40".into()),
        });
        let key = km0("capacity").knob().unwrap();
        assert_eq!(
            effects[..2],
            [
                Effect::ReplaceAddress(format!("?lesson=km0&step=capacity&{key}=40&projector=on")),
                Effect::Title(title_of(km0("capacity"))),
            ]
        );
        assert_eq!(back.tried.as_deref(), Some("40"));
        let (back, effects) = back.apply(DeckAction::Arrived {
            to: km0("slow-inventory"),
            tried: None,
        });
        assert_eq!(
            effects[2],
            Effect::Record {
                location: "slow-inventory".into(),
                suspend_data: back.progress.to_suspend_data()
            },
            "the platform learns where the class is"
        );
        assert_eq!(effects.len(), 3, "no progress to store: {effects:?}");
        // Arriving where the deck already is keeps the step's answer.
        let (answered, _) = back.apply(DeckAction::Answer {
            asked: Asked::Skipped,
            playing: true,
            verdict: None,
        });
        let (same, effects) = answered.apply(DeckAction::Arrived {
            to: km0("slow-inventory"),
            tried: None,
        });
        assert_eq!(same.asked, Some(Asked::Skipped));
        assert!(effects.is_empty());
    }

    #[test]
    fn a_verdict_and_a_challenge_are_kept_and_scored() {
        let deck = Deck::new(km0("slow-inventory"), false, None, None);
        let (deck, effects) = deck.apply(DeckAction::Verdict {
            said: "More than 500".into(),
            right: true,
        });
        assert_eq!(deck.progress.predictions.len(), 1);
        assert!(effects.iter().any(|e| matches!(e, Effect::PublishScore(s)
            if s.predictions == 1 && s.predictions_right == 1)));
        let timeout = StepRef::named(Lesson::Challenges, "timeout").unwrap();
        let deck = Deck::new(timeout, false, None, None);
        let settings = vec![("timeout".to_string(), "300".to_string())];
        let (deck, _) = deck.apply(DeckAction::ChallengePassed {
            settings: settings.clone(),
        });
        assert_eq!(deck.progress.challenges, ["timeout"]);
        assert!(deck.passed(timeout));
        assert_eq!(deck.passed_with(), Some(settings.clone()));
        // Trying again: the step afresh, the pass still counted.
        let (again, _) = deck.apply(DeckAction::TryAgain);
        assert_eq!(again.passed_with(), None);
        assert!(again.passed(timeout) && again.attempt == 1 && again.moved);
        // Coming back after a reload (the storage) or from a platform's record: the step with
        // its passing settings.
        let json = serde_json::to_string(&deck.progress).unwrap();
        assert_eq!(
            Deck::new(timeout, false, None, Some(&json)).passed_with(),
            Some(settings.clone())
        );
        let record = deck.progress.to_suspend_data();
        assert_eq!(
            Deck::resumed(timeout, true, None, &record).passed_with(),
            Some(settings)
        );
        // The storage's progress comes back with the deck.
        let json = serde_json::to_string(&deck.progress).unwrap();
        let again = Deck::new(timeout, false, None, Some(&json));
        assert_eq!(again.progress.challenges, ["timeout"]);
    }

    #[test]
    fn an_opened_deck_names_its_step_in_the_address_and_keeps_the_progress() {
        let by_number = StepRef::from_pairs(&[
            ("lesson".to_string(), "km0".to_string()),
            ("step".to_string(), "2".to_string()),
        ])
        .0;
        let deck = Deck::new(by_number, false, None, None);
        let effects = deck.opening_effects();
        assert_eq!(
            effects[0],
            Effect::ReplaceAddress(format!("?lesson=km0&step={}", by_number.name()))
        );
        assert!(matches!(effects[2], Effect::PublishScore(s) if s.steps_reached == 1));
    }

    #[test]
    fn a_moved_control_and_the_projector_are_in_the_address() {
        let deck = Deck::new(km0("capacity"), false, None, None);
        let key = deck.at.knob().expect("the step offers a control");
        let (deck, effects) = deck.apply(DeckAction::Tried(Some("40".into())));
        assert_eq!(
            effects,
            [Effect::ReplaceAddress(format!(
                "?lesson=km0&step=capacity&{key}=40"
            ))]
        );
        let (deck, effects) = deck.apply(DeckAction::Tried(Some("40".into())));
        assert!(effects.is_empty(), "the same value again: nothing to write");
        let (deck, effects) = deck.apply(DeckAction::SetProjector(true));
        assert_eq!(
            effects,
            [Effect::ReplaceAddress(format!(
                "?lesson=km0&step=capacity&{key}=40&projector=on"
            ))]
        );
        let (deck, _) = deck.apply(DeckAction::Go(km0("timeout")));
        assert_eq!(deck.tried, None, "a new step starts from its own value");
    }

    #[test]
    fn an_answer_is_kept_when_given_and_shown_again_on_coming_back() {
        use crate::page::lessons::predict::Prediction;
        let deck = Deck::new(km0("slow-inventory"), true, None, None);
        let (deck, _) = deck.apply(DeckAction::Answer {
            asked: Asked::Predicted(Prediction::Choice(2)),
            playing: false,
            verdict: None,
        });
        assert!(
            !deck.recalled,
            "answered now: the verdict waits for the moment"
        );
        // The verdict, judged on the whole run at once, is kept before the run plays.
        let (deck, effects) = deck.apply(DeckAction::Verdict {
            said: "More than 500".into(),
            right: true,
        });
        let record = effects
            .iter()
            .find_map(|e| match e {
                Effect::Record {
                    location,
                    suspend_data,
                } => Some((location.clone(), suspend_data.clone())),
                _ => None,
            })
            .expect("the platform is told");
        assert_eq!(record.0, "slow-inventory");
        // On to the next step two seconds later, then back: the answer is there, its
        // verdict shown at once, and the run does not hold.
        let (deck, _) = deck.apply(DeckAction::Go(km0("timeout")));
        let (back, _) = deck.apply(DeckAction::Go(km0("slow-inventory")));
        assert_eq!(back.asked, Some(Asked::Predicted(Prediction::Choice(2))));
        assert!(back.recalled && !back.holding());
        assert_eq!(back.progress.predictions.len(), 1);
        // Another session, from the platform's record: the same.
        let resumed = Deck::resumed(km0("slow-inventory"), true, None, &record.1);
        assert_eq!(resumed.asked, Some(Asked::Predicted(Prediction::Choice(2))));
        assert!(resumed.recalled);
        assert_eq!(
            resumed.progress.score(Lesson::Km0).predictions_right,
            1,
            "{resumed:?}"
        );
        // The browser's storage after a reload: on the projector (a rehearsal) the answer
        // counts and the question is asked again; a student alone gets the answer back.
        let json = serde_json::to_string(&back.progress).unwrap();
        let reloaded = Deck::new(km0("slow-inventory"), true, None, Some(&json));
        assert!(reloaded.holding() && reloaded.asked.is_none());
        assert_eq!(reloaded.progress.predictions.len(), 1);
        let alone = Deck::new(km0("slow-inventory"), false, None, Some(&json));
        assert!(alone.recalled && !alone.holding());
        let fresh = Deck::resumed(km0("slow-inventory"), false, None, "");
        assert!(fresh.holding() && fresh.progress.predictions.is_empty());
    }

    #[test]
    fn a_clicker_plays_each_step_to_its_moment_passes_a_question_and_then_goes_on() {
        let start = km0("slow-inventory");
        let moment = start.step().moment();
        let deck = Deck::new(start, true, None, None);
        assert!(deck.holding());
        // A question waiting: shown without a prediction, the run from its start.
        let (deck, effects) = deck.apply(DeckAction::Advance {
            playhead: 0,
            playing: false,
        });
        assert_eq!(deck.asked, Some(Asked::Skipped));
        assert_eq!(
            effects,
            [Effect::Run(vec![Action::Seek(0), Action::TogglePlay])]
        );
        // Playing, short of the moment: straight to the moment, paused there.
        let (deck, effects) = deck.apply(DeckAction::Advance {
            playhead: moment / 2,
            playing: true,
        });
        assert_eq!(
            effects,
            [Effect::Run(vec![Action::Seek(moment), Action::TogglePlay])]
        );
        // Paused short of it: plays (the run pauses itself at the moment).
        let (_, effects) = deck.apply(DeckAction::Advance {
            playhead: 1,
            playing: false,
        });
        assert_eq!(effects, [Effect::Run(vec![Action::TogglePlay])]);
        // At the moment: the next step.
        let (deck, _) = deck.apply(DeckAction::Advance {
            playhead: moment,
            playing: false,
        });
        assert_eq!(deck.at, start.next().unwrap());
        // Coming back, the step is where the class left it, at the lesson's speed.
        let (deck, _) = deck.apply(DeckAction::Left {
            step: start,
            playhead: moment,
        });
        let (deck, _) = deck.apply(DeckAction::Speed(5.0));
        let (back, _) = deck.apply(DeckAction::Go(start));
        assert_eq!(back.left_at(), Some(moment));
        assert_eq!(back.speed, Some(5.0));
        // The recap: nothing further.
        let recap = StepRef {
            lesson: Lesson::Km0,
            index: Lesson::Km0.steps().len(),
        };
        let at_end = Deck::new(recap, true, None, None);
        let (same, effects) = at_end.apply(DeckAction::Advance {
            playhead: 0,
            playing: false,
        });
        assert!(effects.is_empty() && same.at == recap);
    }
}
