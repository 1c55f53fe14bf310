//! A challenge step's panel: its controls, each goal with the run's figure beside its target,
//! and "Check": the goals judged on the student's run and on further seeds of it. Tips open
//! one at a time after failed checks; a passed challenge says why the cure works.

use yew::prelude::*;

use crate::page::action::Action;
use crate::page::knobs::knob;
use crate::page::lessons::challenge::{Challenge, Judged, FURTHER_SEEDS};
use crate::page::runs::{Run, Shared};
use crate::sim::model::SimConfig;
use crate::ui::ids::use_ids;
use crate::ui::knob_panel::slider;

/// Properties of [`ChallengePanel`].
#[derive(Properties, PartialEq)]
pub struct ChallengePanelProps {
    pub challenge: Challenge,
    /// The student's run, if it could be made.
    pub run: Option<Shared<Run>>,
    /// The full settings, for the controls' values.
    pub full: SimConfig,
    /// The moment the goals are read at.
    pub moment: u64,
    /// The moment as the page writes it ("12.0 s").
    pub moment_text: AttrValue,
    /// A notice about the last control moved, if any.
    pub notice: Option<AttrValue>,
    pub on_action: Callback<Action>,
    /// Called when the challenge is passed, with its controls' keys and values.
    pub on_passed: Callback<Vec<(String, String)>>,
    /// The student passed it before (the step came back with the passing settings): it is
    /// judged again at once, and shows as passed.
    #[prop_or_default]
    pub passed_before: bool,
    /// "Try again": the step afresh from its own settings.
    pub on_try_again: Callback<()>,
    /// Projector mode: each goal in its short form (`queue-peak <= 10`), so the step fits one
    /// screen; a student's screen reads it as a sentence.
    #[prop_or_default]
    pub projector: bool,
}

/// The panel.
#[function_component(ChallengePanel)]
pub fn challenge_panel(props: &ChallengePanelProps) -> Html {
    let ids = use_ids();
    let challenge = props.challenge;
    // The last check, with the run it judged (a check of an older run is not shown).
    let judged = use_state(|| None::<(Shared<Run>, Result<Judged, String>)>);
    let failed_checks = use_state(|| 0usize);
    let controls = challenge
        .controls
        .iter()
        .filter_map(|key| knob(key))
        .map(|k| slider(k, &props.full, false, &props.on_action));
    let current = props.run.as_ref().and_then(|run| {
        judged
            .as_ref()
            .filter(|(judged_run, _)| judged_run == run)
            .map(|(_, result)| result.clone())
    });
    let check = {
        let (judged, failed_checks) = (judged.clone(), failed_checks.clone());
        let run = props.run.clone();
        let moment = props.moment;
        let on_passed = props.on_passed.clone();
        // The controls' values as a link writes them, for the step to come back with.
        let settings: Vec<(String, String)> = challenge
            .controls
            .iter()
            .filter_map(|key| knob(key).map(|k| (key.to_string(), k.link_text(&props.full))))
            .collect();
        Callback::from(move |()| {
            let Some(run) = run.clone() else { return };
            let result = challenge.judge(&run, moment);
            match &result {
                Ok(j) if j.passed => on_passed.emit(settings.clone()),
                _ => failed_checks.set(*failed_checks + 1),
            }
            judged.set(Some((run, result)));
        })
    };
    {
        // Passed before: judged again on opening, so the pass shows with its seeds.
        let check = check.clone();
        let again = props.passed_before && props.run.is_some();
        use_effect_with((), move |_| {
            if again {
                check.emit(());
            }
        });
    }
    let on_check = check.reform(|_: MouseEvent| ());
    let on_try_again = props.on_try_again.reform(|_: MouseEvent| ());
    // Read once per run, not on every frame of its playback.
    let goals = use_memo((props.run.clone(), props.moment), move |(run, moment)| {
        run.as_ref()
            .map(|run| challenge.on_run(run, *moment))
            .unwrap_or_default()
    });
    let rows = goals.iter().enumerate().map(|(i, (goal, value, met))| {
        let seeds = current.as_ref().and_then(|r| r.as_ref().ok()).map(|j| {
            let outcome = &j.goals[i];
            let held = outcome.values.iter().filter(|v| goal.met(**v)).count();
            format!(" · met on {held} of {} seeds", outcome.values.len())
        });
        html! {
            <li class={classes!("goal", if *met { "met" } else { "missed" })} data-met={met.to_string()}>
                <span class="goal-mark" aria-hidden="true">{ if *met { "✓" } else { "✗" } }</span>
                <span class="visually-hidden">{ if *met { "Met: " } else { "Not met: " } }</span>
                <span class="goal-target">
                    { if props.projector { goal.text() } else { goal.sentence() } }
                </span>
                <span class="goal-value">
                    { format!(" — this run: {}", goal.value_text(*value)) }
                    { seeds.unwrap_or_default() }
                </span>
            </li>
        }
    });
    let verdict = current.as_ref().map(|result| match result {
        Ok(j) if j.passed => html! {
            <div class="challenge-passed" role="status" id={ids.id("challenge-verdict")} data-passed="true">
                <p><strong>{ format!("Passed on your run and {FURTHER_SEEDS} more seeds.") }</strong></p>
                <p>{ challenge.why }</p>
                <button type="button" id={ids.id("challenge-again")} onclick={on_try_again.clone()}>
                    { "Try again from the step's own settings" }
                </button>
            </div>
        },
        Ok(j) => {
            let why = if j.answered {
                "Not yet: a goal is missed on at least one seed."
            } else {
                "Not yet: a run answered no request at all."
            };
            html! {
                <p class="challenge-failed" role="status" id={ids.id("challenge-verdict")} data-passed="false">
                    { why }
                </p>
            }
        }
        Err(e) => html! {
            <p class="notice" role="alert" id={ids.id("challenge-verdict")}>{ e }</p>
        },
    });
    let tips = challenge.tips.iter().take(*failed_checks);
    html! {
        <div class="lesson-try challenge" id={ids.id("lesson-challenge")}>
            <h3>
                { "Challenge" }
                if props.passed_before {
                    <span class="challenge-badge">{ " ✓ passed" }</span>
                }
            </h3>
            <p class="challenge-goals-title">{ format!("Goals at {}:", props.moment_text) }</p>
            <ul class="challenge-goals" id={ids.id("challenge-goals")}>{ for rows }</ul>
            { for controls }
            if let Some(text) = &props.notice {
                <p class="notice" role="alert">{ text }</p>
            }
            <button type="button" id={ids.id("challenge-check")} onclick={on_check}
                disabled={props.run.is_none()}>
                { format!("Check on {} seeds", FURTHER_SEEDS + 1) }
            </button>
            { for verdict }
            if *failed_checks > 0 && !challenge.tips.is_empty() {
                <ol class="challenge-tips" id={ids.id("challenge-tips")}>
                    { for tips.map(|t| html! { <li>{ *t }</li> }) }
                </ol>
            }
        </div>
    }
}
