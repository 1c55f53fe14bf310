//! A class vote on a step's question (the "Class vote" switch, `&vote=on`): the teacher types
//! the count of hands (or cards) for each choice, shows the round's spread without the answer,
//! lets the class talk and vote again, then reveals the run ([`ClassVote`]); at the step's
//! moment the verdict names the run's figure and each round's share that was right
//! ([`VoteVerdict`]). The rules are the deck's ([`crate::page::lessons::deck`]); the words and
//! figures are [`crate::page::lessons::vote`]'s.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::page::lessons::deck::DeckAction;
use crate::page::lessons::predict::choice_letter;
use crate::page::lessons::vote::{read_count, read_guesses, Revealed, Round, StepVotes};
use crate::page::lessons::{Answer, Question};
use crate::ui::ids::use_ids;

/// Properties of [`ClassVote`].
#[derive(Properties, PartialEq)]
pub(super) struct ClassVoteProps {
    /// The step's question.
    pub(super) question: Question,
    /// The votes so far (none before the first count).
    pub(super) votes: Option<StepVotes>,
    /// Whether the step's run is playing (the reveal plays it from its start).
    pub(super) playing: bool,
    pub(super) on_deck: Callback<DeckAction>,
}

/// The question with a field of votes per choice, the rounds so far, and the three buttons.
#[function_component(ClassVote)]
pub(super) fn class_vote(props: &ClassVoteProps) -> Html {
    let ids = use_ids();
    let problem = use_state(|| None::<String>);
    let q = props.question;
    let votes = props.votes.clone().unwrap_or_else(|| StepVotes::new(""));
    let rounds = votes.rounds.len().max(1);
    let current = votes.rounds.last().cloned().unwrap_or_default();
    let fields = match q.answer {
        Answer::Choices(_) => {
            let on_count = {
                let (on_deck, problem) = (props.on_deck.clone(), problem.clone());
                Callback::from(
                    move |(choice, input, good): (usize, HtmlInputElement, Option<u32>)| {
                        match read_count(choice_letter(choice), &input.value()) {
                            Ok(votes) => {
                                problem.set(None);
                                on_deck.emit(DeckAction::CastVotes { choice, votes });
                            }
                            Err(why) => {
                                // The field keeps its last good value.
                                input.set_value(&good.map(|n| n.to_string()).unwrap_or_default());
                                problem.set(Some(why));
                            }
                        }
                    },
                )
            };
            html! { <VoteTable question={q} rounds={votes.rounds.clone()} on_count={Some(on_count)} /> }
        }
        Answer::Number { unit, .. } => {
            let good = guesses_text(&current);
            let onchange = {
                let (on_deck, problem) = (props.on_deck.clone(), problem.clone());
                let good = good.clone();
                Callback::from(move |e: Event| {
                    let input: HtmlInputElement = e.target_unchecked_into();
                    match read_guesses(unit, &input.value()) {
                        Ok(guesses) => {
                            problem.set(None);
                            on_deck.emit(DeckAction::Guesses(guesses));
                        }
                        Err(why) => {
                            input.set_value(&good);
                            problem.set(Some(why));
                        }
                    }
                })
            };
            html! {
                <>
                    <VoteTable question={q} rounds={votes.rounds[..votes.rounds.len().saturating_sub(usize::from(!current.shown))].to_vec()} />
                    <p class="vote-guesses">
                        <label for={ids.id("lesson-vote-guesses")}>
                            { format!("The class's guesses, in {unit} (300, 500, 1000)") }</label>
                        <input type="text" inputmode="decimal" autocomplete="off" key={format!("round-{rounds}")}
                            id={ids.id("lesson-vote-guesses")} aria-describedby={ids.id("lesson-vote-problem")}
                            value={good} {onchange} />
                    </p>
                </>
            }
        }
    };
    let show = props.on_deck.reform(|_: MouseEvent| DeckAction::ShowVotes);
    let again = props.on_deck.reform(|_: MouseEvent| DeckAction::VoteAgain);
    let playing = props.playing;
    let reveal = props
        .on_deck
        .reform(move |_: MouseEvent| DeckAction::Reveal { playing });
    let clear = props
        .on_deck
        .reform(move |_: MouseEvent| DeckAction::ClearVotes { playing });
    let any_votes = votes.rounds.iter().any(|r| r.total() > 0);
    html! {
        <section class="lesson-predict lesson-vote" id={ids.id("lesson-vote")}
            aria-labelledby={ids.id("lesson-vote-title")}>
            <h3 id={ids.id("lesson-vote-title")}>{ format!("Class vote: round {rounds}") }</h3>
            <p id={ids.id("lesson-question")} class="lesson-question">{ q.prompt }</p>
            { fields }
            <p class="notice" id={ids.id("lesson-vote-problem")} role="alert">
                { (*problem).clone().unwrap_or_default() }
            </p>
            <div class="vote-actions">
                <button type="button" id={ids.id("lesson-vote-show")} onclick={show}
                    disabled={current.shown}>{ "Show the votes" }</button>
                <button type="button" id={ids.id("lesson-vote-again")} onclick={again}
                    disabled={current.total() == 0}>{ "Vote again" }</button>
                <button type="button" id={ids.id("lesson-vote-reveal")} class="next" onclick={reveal}>
                    { "Reveal: play the run" }</button>
                <button type="button" id={ids.id("lesson-vote-clear")} onclick={clear}
                    disabled={!any_votes}>{ "Clear the votes" }</button>
            </div>
        </section>
    }
}

/// A number question's guesses as the field shows them.
fn guesses_text(round: &Round) -> String {
    round
        .guesses
        .iter()
        .map(|g| format!("{g}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Properties of [`VoteTable`].
#[derive(Properties, PartialEq)]
struct VoteTableProps {
    question: Question,
    rounds: Vec<Round>,
    /// While the class votes: the last round, not shown yet, takes a count per choice (the
    /// choice, its field, and the field's last good count).
    #[prop_or_default]
    on_count: Option<Callback<(usize, HtmlInputElement, Option<u32>)>>,
}

/// The rounds side by side, a row per choice: each shown round's bar, count and share (the
/// right choice not marked), and the round being voted a field of votes per choice. A number
/// question's rounds are lists of guesses.
#[function_component(VoteTable)]
fn vote_table(props: &VoteTableProps) -> Html {
    let ids = use_ids();
    let last = props.rounds.len().saturating_sub(1);
    let editing = |n: usize| props.on_count.is_some() && n == last && !props.rounds[n].shown;
    match props.question.answer {
        Answer::Choices(choices) => {
            let spreads: Vec<Vec<_>> = props
                .rounds
                .iter()
                .map(|r| r.spread(choices.len()))
                .collect();
            html! {
                <table class="vote-table" id={ids.id("lesson-vote-table")}>
                    <thead>
                        <tr>
                            <th scope="col" class="vote-choice-head">{ "Choice" }</th>
                            { for (0..props.rounds.len()).map(|n| html! {
                                <th scope="col" class={format!("vote-round-{}", n + 1)}>{ format!("Round {}", n + 1) }</th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        { for choices.iter().enumerate().map(|(i, c)| {
                            let letter = choice_letter(i);
                            html! {
                                <tr>
                                    <th scope="row" class="vote-choice">
                                        <span class="choice-letter">{ letter }</span>{ " " }{ c.text }
                                    </th>
                                    { for props.rounds.iter().enumerate().map(|(n, round)| {
                                        let class = format!("vote-round-{}", n + 1);
                                        if editing(n) {
                                            let good = round.counts.get(i).copied().flatten();
                                            let onchange = props.on_count.clone().map(|cb| cb.reform(move |e: Event| {
                                                (i, e.target_unchecked_into::<HtmlInputElement>(), good)
                                            }));
                                            html! {
                                                <td {class}>
                                                    <input type="text" inputmode="numeric" autocomplete="off" class="vote-count"
                                                        key={format!("round-{}-{i}", n + 1)} id={ids.id(&format!("lesson-votes-{i}"))}
                                                        aria-label={format!("Votes for {letter}")}
                                                        aria-describedby={ids.id("lesson-vote-problem")}
                                                        value={good.map(|n| n.to_string()).unwrap_or_default()} {onchange} />
                                                </td>
                                            }
                                        } else {
                                            let bar = &spreads[n][i];
                                            html! {
                                                <td {class}>
                                                    <span class="vote-bar-label">{ bar.label.clone() }</span>
                                                    <span class="vote-bar" aria-hidden="true">
                                                        <span class="vote-bar-fill" style={format!("width: {:.1}%", bar.percent)}></span>
                                                    </span>
                                                </td>
                                            }
                                        }
                                    }) }
                                </tr>
                            }
                        }) }
                    </tbody>
                </table>
            }
        }
        Answer::Number { unit, .. } => html! {
            <ul class="vote-guess-rounds">
                { for props.rounds.iter().enumerate().filter(|(_, r)| r.total() > 0).map(|(n, r)| {
                    let mut sorted = r.guesses.clone();
                    sorted.sort_by(f64::total_cmp);
                    let list: Vec<String> = sorted.iter().map(|g| format!("{g}")).collect();
                    html! {
                        <li class={format!("vote-round-{}", n + 1)}>
                            { format!("Round {}: {} guesses, in {unit}: {}", n + 1, list.len(), list.join(", ")) }
                        </li>
                    }
                }) }
            </ul>
        },
    }
}

/// Properties of [`VoteVerdict`].
#[derive(Properties, PartialEq)]
pub(super) struct VoteVerdictProps {
    pub(super) question: Question,
    pub(super) votes: Option<StepVotes>,
    /// What the run says, with its figure in words, once the run reached the step's moment.
    pub(super) revealed: Option<(Revealed, String)>,
    /// The moment the run plays to, as the page writes it ("12.0 s").
    pub(super) moment: AttrValue,
    /// Whether the step's run is playing (clearing the votes stops it).
    pub(super) playing: bool,
    pub(super) on_deck: Callback<DeckAction>,
}

/// The rounds, then, at the step's moment, the run's figure and each round's share that was
/// right.
#[function_component(VoteVerdict)]
pub(super) fn vote_verdict(props: &VoteVerdictProps) -> Html {
    let ids = use_ids();
    let votes = props.votes.clone().unwrap_or_else(|| StepVotes::new(""));
    let q = props.question;
    let playing = props.playing;
    // Small, at the sentence's end: the room reads the sentence, the teacher finds the button.
    let clear = html! {
        <>
            { " " }
            <button type="button" class="lesson-why lesson-vote-clear" id={ids.id("lesson-vote-clear")}
                onclick={props.on_deck.reform(move |_: MouseEvent| DeckAction::ClearVotes { playing })}>
                { "Clear the votes and ask again" }</button>
        </>
    };
    let status = match &props.revealed {
        None => html! {
            <p class="lesson-said">
                { format!("The class voted. Watch the run to {}.", props.moment) }{ clear }
            </p>
        },
        Some((revealed, fact)) => html! {
            <p class="lesson-verdict vote-outcome">
                <span id={ids.id("lesson-vote-outcome")}>{ votes.outcome(&q, fact, revealed) }</span>
                { clear }
            </p>
        },
    };
    html! {
        <div role="status" class="lesson-prediction lesson-vote-result" id={ids.id("lesson-answer")}
            tabindex="-1">
            <VoteTable question={q} rounds={votes.rounds.iter().filter(|r| r.total() > 0).cloned().collect::<Vec<_>>()} />
            { status }
        </div>
    }
}
