//! One step of a lesson: its text with live figures, its question, its run played to its
//! moment, what to notice, its challenge.

use web_sys::KeyboardEvent;
use web_sys::{ScrollBehavior, ScrollIntoViewOptions, ScrollLogicalPosition};
use yew::prelude::*;

use super::challenge::ChallengePanel;
use super::predict::{LessonQuestion, LessonVerdict};
use super::vote::{ClassVote, VoteVerdict};
use super::{lesson_key, use_arrival_focus, with_terms, LessonKey};
use crate::page::action::Action;
use crate::page::glossary::meaning;
use crate::page::knobs::knob;
use crate::page::lessons::deck::{admits, pause_at, DeckAction};
use crate::page::lessons::live::{pieces, Piece as Part};
use crate::page::lessons::vote::StepVotes;
use crate::page::lessons::Reading;
use crate::page::lessons::{Asked, Prediction, StepRef, Verdict, View};
use crate::page::permalink::{query_with, settings_text};
use crate::page::replay::clock;
use crate::page::runs::Shared;
use crate::page::site::Site;
use crate::ui::announcer::Announcements;
use crate::ui::app::use_page;
use crate::ui::ids::use_ids;
use crate::ui::inline_knob::InlineKnob;
use crate::ui::knob_panel::slider;
use crate::ui::playback::use_document_keys;
use crate::ui::regions;

/// Properties of [`LessonStepView`].
#[derive(Properties, PartialEq)]
pub(super) struct LessonStepViewProps {
    pub(super) step: StepRef,
    /// Take the keyboard's focus when mounted, the step having just changed: on the lesson
    /// page the step's heading takes it and the page starts at its top; a widget takes it
    /// itself (the button pressed went with the old step, and the keys must still reach it).
    pub(super) take_focus: bool,
    pub(super) on_go: Callback<Option<StepRef>>,
    pub(super) standalone: bool,
    pub(super) site: Site,
    pub(super) dark: bool,
    /// Projector mode: the charts' larger text.
    pub(super) projector: bool,
    /// The "Try it" value to start from (a link's), if not the step's own.
    #[prop_or_default]
    pub(super) tried: Option<String>,
    /// The step's question: answered (or shown without an answer), or not yet (the deck's).
    #[prop_or_default]
    pub(super) asked: Option<Asked>,
    /// The lesson's playback speed, once one was chosen.
    #[prop_or_default]
    pub(super) speed: Option<f64>,
    /// Where the class left this step's run, when it has been here before.
    #[prop_or_default]
    pub(super) left_at: Option<u64>,
    /// The settings the step's challenge was passed with: the step opens with them.
    #[prop_or_default]
    pub(super) passed_with: Option<Vec<(String, String)>>,
    /// The answer was given on an earlier visit: its verdict shows at once.
    #[prop_or_default]
    pub(super) recalled: bool,
    /// The deck holds the step's run: its question waits for an answer.
    #[prop_or_default]
    pub(super) holding: bool,
    /// A class vote: the question takes rounds of votes, and the run plays at the reveal.
    #[prop_or_default]
    pub(super) vote: bool,
    /// The class's votes on the step.
    #[prop_or_default]
    pub(super) votes: Option<StepVotes>,
    /// The latest actions the deck gave the step's run, with their number.
    #[prop_or_default]
    pub(super) run: StepRun,
    /// What happened, for the deck: a "Try it" value off the step's own, an answer, a
    /// verdict, a challenge passed.
    pub(super) on_deck: Callback<DeckAction>,
}

/// Actions the deck gives a step's run (an answered question plays it from its start), with
/// the number of the deck's action that gave them.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct StepRun(pub(super) u64, pub(super) Vec<Action>);

/// One step: its own run (mounted afresh for each step), played to its moment.
#[function_component(LessonStepView)]
pub(super) fn lesson_step_view(props: &LessonStepViewProps) -> Html {
    let ids = use_ids();
    let here = props.step;
    let step = here.step();
    let initial = {
        let dark = props.dark;
        let tried = props.tried.clone();
        let passed_with = props.passed_with.clone();
        let (speed, left_at) = (props.speed, props.left_at);
        use_memo((), move |_| {
            let (page, _) = match &passed_with {
                Some(settings) => {
                    let pairs: Vec<(&str, &str)> = settings
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.as_str()))
                        .collect();
                    step.page_with(&pairs)
                }
                None => step.page_tried(tried.as_deref()),
            };
            // The lesson's speed, and the playhead where the class left this step.
            let mut page = page.apply(Action::SetDark(dark));
            if let Some(speed) = speed {
                page = page.apply(Action::SetSpeed(speed));
            }
            if let Some(at) = left_at {
                page = page.apply(Action::Seek(at));
            }
            Shared(std::rc::Rc::new(page))
        })
    };
    let (state, to_page) = use_page(&initial);
    let page = &state.0;
    {
        // The "Try it" value, when it is not the step's own, for the deck's address.
        let own = use_memo((), move |_| step.own_tried_text());
        let moved = step.knob.and_then(knob).and_then(|k| {
            let now = k.link_text(&page.settings.full);
            (Some(&now) != (*own).as_ref()).then_some(now)
        });
        let on_deck = props.on_deck.clone();
        use_effect_with(moved, move |moved| {
            on_deck.emit(DeckAction::Tried(moved.clone()))
        });
    }
    // A step that asks a question holds its run until the class has answered (or the
    // teacher shows it): until then nothing plays, steps or seeks it.
    let asked = props.asked;
    let holding = props.holding;
    let dispatch = {
        let to_page = to_page.clone();
        Callback::from(move |action: Action| {
            if admits(holding, &action) {
                to_page.emit(action);
            }
        })
    };
    let on_ask = {
        let playing = page.playback.playing;
        let page = page.clone();
        props.on_deck.reform(move |asked: Asked| {
            let verdict = match (asked, step.question) {
                (Asked::Predicted(p), Some(q)) => step
                    .judge(&page, p)
                    .zip(q.said(p))
                    .map(|(v, said)| (said, v.right)),
                _ => None,
            };
            DeckAction::Answer {
                asked,
                playing,
                verdict,
            }
        })
    };
    {
        // The deck's actions for the run (an answer plays it from its start), once each.
        // (Those the deck gave before this step was shown were another step's.)
        let to_page = to_page.clone();
        let StepRun(number, actions) = props.run.clone();
        let shown_after = use_mut_ref(|| number);
        use_effect_with(number, move |&number| {
            if number > *shown_after.borrow() {
                for action in actions {
                    to_page.emit(action);
                }
            }
        });
    }
    {
        let dispatch = dispatch.clone();
        use_effect_with(props.projector, move |&on| {
            dispatch.emit(Action::SetProjector(on))
        });
    }
    let moment = step.moment();
    let (root, heading) = use_arrival_focus(props.take_focus, props.standalone);
    let views_ref = use_node_ref();
    {
        // Where the step's views are out of sight (a phone: they come after the text), an
        // answer or Play brings the run into sight, and the verdict when it comes.
        let views = views_ref.clone();
        let answered = props.asked.is_some() && !props.recalled;
        use_effect_with(
            (answered, page.playback.playing),
            move |&(answered, playing)| {
                if answered || playing {
                    bring_into_sight(
                        views.cast::<web_sys::Element>(),
                        ScrollLogicalPosition::Start,
                    );
                }
            },
        );
        let root = root.clone();
        let verdict_due = matches!(props.asked, Some(Asked::Predicted(_) | Asked::Voted))
            && !props.recalled
            && page.playback.playhead >= moment;
        use_effect_with(verdict_due, move |&due| {
            if due {
                let verdict = root
                    .cast::<web_sys::Element>()
                    .and_then(|r| r.query_selector(".lesson-prediction").ok().flatten());
                bring_into_sight(verdict, ScrollLogicalPosition::Center);
            }
        });
    }
    {
        // Playing from before the moment pauses there, so the class sees what the step is about.
        let last = use_mut_ref(|| page.playback.playhead);
        let dispatch = dispatch.clone();
        use_effect_with(
            (page.playback.playhead, page.playback.playing),
            move |&(playhead, playing)| {
                let before = std::mem::replace(&mut *last.borrow_mut(), playhead);
                if let Some(pause) = pause_at(moment, before, playhead, playing) {
                    dispatch.emit(pause);
                }
            },
        );
    }
    // Where the run stands, for the keys (their listener outlives a render) and for the
    // deck when the class leaves the step.
    let run_now = use_mut_ref(|| (0, false));
    *run_now.borrow_mut() = (page.playback.playhead, page.playback.playing);
    {
        let (run_now, on_deck) = (run_now.clone(), props.on_deck.clone());
        use_effect_with((), move |_| {
            move || {
                let playhead = run_now.borrow().0;
                on_deck.emit(DeckAction::Left {
                    step: here,
                    playhead,
                });
            }
        });
    }
    {
        let on_deck = props.on_deck.clone();
        let chosen = props.speed;
        use_effect_with(page.playback.speed, move |&speed| {
            if chosen != Some(speed) {
                on_deck.emit(DeckAction::Speed(speed));
            }
        });
    }
    let keys = {
        let dispatch = dispatch.clone();
        let go = props.on_go.clone();
        let on_deck = props.on_deck.clone();
        let run_now = run_now.clone();
        Callback::from(move |e: KeyboardEvent| {
            let Some(key) = lesson_key(&e) else { return };
            e.prevent_default();
            match key {
                LessonKey::Advance => {
                    let (playhead, playing) = *run_now.borrow();
                    on_deck.emit(DeckAction::Advance { playhead, playing });
                }
                LessonKey::Next => go.emit(here.next()),
                LessonKey::Back => go.emit(here.back()),
                LessonKey::TogglePlay => dispatch.emit(Action::TogglePlay),
            }
        })
    };
    use_document_keys(props.standalone.then(|| keys.clone()));
    let b_run = page.b_run().cloned();
    let by_rule = {
        let page = page.clone();
        let run = page.runs.a.clone().ok();
        use_memo((run, b_run, page.playback.playhead), move |_| {
            step.notices_by_rule(&page)
        })
    };
    let notices: Vec<String> = by_rule.iter().map(|(_, s)| s.clone()).collect();
    let replay = {
        let dispatch = dispatch.clone();
        let playing = page.playback.playing;
        // From the start, playing: pressed again while it plays, it starts over.
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::Seek(0));
            if !playing {
                dispatch.emit(Action::TogglePlay);
            }
        })
    };
    let on_back = props.on_go.reform(move |_: MouseEvent| here.back());
    let on_next = props.on_go.reform(move |_: MouseEvent| here.next());
    // A step that names a request to follow offers it once its run has played to the moment
    // (before, its sentence would tell the run's outcome); it then takes the views' place.
    let following = use_state(|| false);
    let can_follow = page.playback.playhead >= moment && !holding;
    let follow_button = page.runs.traced.as_ref().map(|traced| {
        let on = *following && can_follow;
        let onclick = {
            let following = following.clone();
            Callback::from(move |_: MouseEvent| following.set(!on))
        };
        let label = if on {
            "Back to the charts"
        } else {
            "Follow one request"
        };
        let title = if can_follow {
            format!("Follow one request hop by hop: {}", traced.pick.label())
        } else {
            "Play the run to its moment first".to_string()
        };
        html! {
            <button type="button" id={ids.id("lesson-follow")} class="lesson-follow" {onclick}
                disabled={!can_follow} aria-pressed={on.to_string()} {title}>{ label }</button>
        }
    });
    // The words the step teaches, with their meanings, under its text.
    let words = (!step.terms.is_empty()).then(|| {
        html! {
            <dl class="lesson-words" id={ids.id("lesson-words")} aria-label="New words">
                { for step.terms.iter().filter_map(|&t| meaning(t).map(|m| (t, m))).map(|(t, m)| html! {
                    <div><dt>{ t }</dt><dd>{ m }</dd></div>
                }) }
            </dl>
        }
    });
    let views = match &page.runs.a {
        Ok(run) if *following && can_follow => html! {
            <>
                { regions::lesson_timeline(&ids, page, run, &dispatch) }
                { regions::follow(&ids, page, run, &dispatch, false) }
            </>
        },
        Ok(run) => {
            let timeline = regions::lesson_timeline(&ids, page, run, &dispatch);
            let rest = step.views.iter().map(|view| match view {
                View::Topology => regions::topology(&ids, page, run),
                View::Diagram => regions::diagram(&ids, page, run),
                View::Latency => regions::latency(&ids, page, run, &dispatch, true),
                View::Load => regions::load(&ids, page, run),
            });
            html! { <>{ timeline }{ for rest }</> }
        }
        Err(message) => regions::run_error(&ids, message),
    };
    let whole = page.runs.a.as_ref().ok().map(|_| {
        let shown = page.view.window.is_none();
        let onchange = dispatch.reform(move |e: Event| {
            let on = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .checked();
            Action::SetWindow((!on).then_some(moment))
        });
        html! {
            <label class="lesson-whole" for={ids.id("lesson-whole")}>
                <input type="checkbox" id={ids.id("lesson-whole")} checked={shown} {onchange} />
                { " Show the whole run" }
            </label>
        }
    });
    let challenge = step.challenge.map(|challenge| {
        html! {
            <ChallengePanel {challenge} run={page.runs.a.as_ref().ok().cloned()}
                full={page.settings.full.clone()} {moment}
                moment_text={clock(moment, page.clock_start())}
                notice={page.notice.clone().map(AttrValue::from)}
                on_action={dispatch.clone()}
                on_passed={props.on_deck.reform(|settings| DeckAction::ChallengePassed { settings })}
                passed_before={props.passed_with.is_some()}
                projector={props.projector}
                on_try_again={props.on_deck.reform(|()| DeckAction::TryAgain)} />
        }
    });
    let try_it = step
        .knob
        .and_then(knob)
        .filter(|_| challenge.is_none())
        .map(|k| {
            html! {
                <div class="lesson-try" id={ids.id("lesson-try")}>
                    <h3>{ "Try it" }</h3>
                    { slider(k, &page.settings.full, false, &dispatch) }
                    if let Some(text) = &page.notice {
                        <p class="notice" role="alert">{ text }</p>
                    }
                </div>
            }
        });
    // The settings' part of the playground's link is written when they change, not on every
    // frame of the run.
    let link_settings = use_memo(page.settings.clone(), |s| settings_text(s));
    let playground =
        props
            .site
            .playground_with(&query_with(&link_settings, &page.playback, &page.view));
    let key_hint = if props.standalone {
        "Keys: PageDown (a clicker) plays the step to its moment, then goes on; PageUp goes \
         back; → / ← change step, except on a slider, which they move; space plays or \
         pauses; ? lists them."
    } else {
        "With the focus here: PageDown plays the step to its moment, then goes on; → next \
         step, PageUp or ← back (→ / ← move a focused slider); space plays or pauses."
    };
    let widget_keys = (!props.standalone).then_some(keys);
    let question = step.question.filter(|_| holding).map(|question| {
        if props.vote {
            html! { <ClassVote {question} votes={props.votes.clone()}
            playing={page.playback.playing} on_deck={props.on_deck.clone()} /> }
        } else {
            html! { <LessonQuestion {question} on_ask={on_ask.clone()} /> }
        }
    });
    // A class vote is judged on the run once revealed: the choices that held and the run's
    // figure, and the class's answer (its last round's) as its progress records it.
    let revealed = {
        let page = page.clone();
        use_memo(
            (page.runs.a.clone().ok(), asked == Some(Asked::Voted)),
            move |(_, voted)| voted.then(|| step.reveal(&page)).flatten(),
        )
    };
    {
        let on_deck = props.on_deck.clone();
        let page = page.clone();
        use_effect_with(
            ((*revealed).clone(), props.votes.clone()),
            move |(revealed, votes)| {
                let Some((revealed, _)) = revealed else {
                    return;
                };
                let class = match (step.question, votes.as_ref().and_then(StepVotes::answer)) {
                    (Some(q), Some(answer)) => step
                        .judge(&page, answer)
                        .zip(q.said(answer))
                        .map(|(v, said)| (said, v.right)),
                    _ => None,
                };
                on_deck.emit(DeckAction::VotesJudged {
                    right: revealed.right.clone(),
                    measured: revealed.measured,
                    class,
                });
            },
        );
    }
    // Read from the run once per run and answer, not on every playback frame; shown once
    // the playhead has reached the moment it speaks of.
    let verdict = {
        let page = page.clone();
        use_memo(
            (page.runs.a.clone().ok(), asked),
            move |(_, asked)| match asked {
                Some(Asked::Predicted(prediction)) => step.judge(&page, *prediction),
                _ => None,
            },
        )
    };
    {
        // An answer counts in the student's progress as soon as it is given (the run is known
        // in full): a class that moves on before the moment keeps its credit.
        let shown = (*verdict).as_ref().map(|v| v.right);
        let said = match (step.question, asked) {
            (Some(q), Some(Asked::Predicted(prediction))) => q.said(prediction),
            _ => None,
        };
        let on_deck = props.on_deck.clone();
        use_effect_with((shown, said), move |(shown, said)| {
            if let (Some(right), Some(said)) = (shown, said) {
                on_deck.emit(DeckAction::Verdict {
                    said: said.clone(),
                    right: *right,
                });
            }
        });
    }
    // What replaced the question takes the focus when the class has just answered, so a
    // screen reader keeps its place.
    let take_focus = !props.recalled;
    let prediction = match (step.question, asked) {
        (Some(question), Some(Asked::Predicted(prediction))) => {
            let verdict = (props.recalled || page.playback.playhead >= moment)
                .then(|| (*verdict).clone())
                .flatten();
            Some(html! {
                <LessonVerdict {question} prediction={Some(prediction)} {verdict} {take_focus}
                    moment={clock(moment, page.clock_start())} />
            })
        }
        (Some(question), Some(Asked::Voted)) => {
            let shown = (props.recalled || page.playback.playhead >= moment)
                .then(|| (*revealed).clone())
                .flatten();
            Some(html! {
                <VoteVerdict {question} votes={props.votes.clone()} revealed={shown}
                    moment={clock(moment, page.clock_start())} playing={page.playback.playing}
                    on_deck={props.on_deck.clone()} />
            })
        }
        (Some(question), Some(Asked::Skipped)) => Some(html! {
            <LessonVerdict {question} prediction={None::<Prediction>} verdict={None::<Verdict>}
                {take_focus} moment={clock(moment, page.clock_start())} />
        }),
        _ => None,
    };
    // The words the step teaches are defined in its text, so they need no tooltip.
    let mut seen: Vec<&'static str> = step.terms.to_vec();
    // While the class predicts, only the step's first paragraph (its setting) shows: the
    // ones after it tell what happens.
    let paragraphs = if holding {
        &step.text[..step.text.len().min(1)]
    } else {
        step.text
    };
    // Live figures read the run at the playhead; the control is the step's own knob.
    let reading = page.runs.a.as_ref().ok().map(|run| Reading {
        run,
        now: page.playback.playhead,
        b: page.b_run().map(|b| &*b.0),
    });
    let mut controls = 0;
    let text: Vec<Html> = paragraphs
        .iter()
        .map(|p| {
            let Ok(pieces) = pieces(p) else {
                return html! { <p>{ with_terms(&ids, p, &mut seen) }</p> };
            };
            let shown = pieces.into_iter().map(|piece| match piece {
                Part::Text(t) => with_terms(&ids, t, &mut seen),
                Part::Live(live) => {
                    let figure = reading
                        .as_ref()
                        .map_or_else(|| "\u{2014}".to_string(), |r| live.text(r));
                    html! { <span class="live-value" data-live={live.name()}>{ figure }</span> }
                }
                Part::Control => match step.knob.and_then(knob) {
                    Some(k) => {
                        controls += 1;
                        html! {
                            <InlineKnob id={ids.id(&format!("lesson-inline-{controls}"))} knob={k}
                                value={k.read(&page.settings.full)} on_action={dispatch.clone()} />
                        }
                    }
                    None => Html::default(),
                },
            });
            html! { <p>{ for shown }</p> }
        })
        .collect();
    let notice_items: Vec<Html> = notices
        .iter()
        .map(|n| html! { <li>{ with_terms(&ids, n, &mut seen) }</li> })
        .collect();
    html! {
        <article ref={root} class="lesson-step" data-lesson-step={(here.index + 1).to_string()}
            data-step-name={here.name()} data-lesson={here.lesson.key()} aria-labelledby={ids.id("lesson-step-title")}
            tabindex={(!props.standalone).then_some("0")} onkeydown={widget_keys}>
            <div class="lesson-text">
                <div class="lesson-nav">
                    <button type="button" id={ids.id("lesson-back")} onclick={on_back}
                        disabled={here.back().is_none()}>{ "← Back" }</button>
                    <span class="lesson-count" id={ids.id("lesson-count")}>
                        { here.count() }
                    </span>
                    <button type="button" id={ids.id("lesson-next")} class="next" onclick={on_next}
                        disabled={here.next().is_none()}>
                        { if here.next().is_some_and(StepRef::is_recap) { "Recap →" } else { "Next →" } }
                    </button>
                </div>
                <@{ids.heading_tag()} id={ids.id("lesson-step-title")} ref={heading} tabindex="-1">{ step.title }</@>
                { for text }
                { for words }
                { for question }
                <section class="lesson-notice" aria-labelledby={ids.id("lesson-notice-title")}
                    hidden={holding}>
                    <div class="lesson-notice-head">
                        <h3 id={ids.id("lesson-notice-title")}>{ "What to notice" }</h3>
                        { for follow_button }
                    </div>
                    { for prediction }
                    if notices.is_empty() {
                        <p class="lesson-notice-wait" id={ids.id("lesson-notice-wait")}>
                            { "Press ▶ Play: what to notice appears here as the run reaches it." }
                        </p>
                    }
                    <ul id={ids.id("lesson-notices")}>
                        { for notice_items }
                    </ul>
                </section>
                { for try_it }
                { for challenge }
                <div class="lesson-actions">
                    { for whole }
                    <button type="button" id={ids.id("lesson-replay")} onclick={replay}
                        disabled={holding} title={holding.then_some("Answer the question first, or show the run")}>
                        { format!("▶ Play to {}", clock(moment, page.clock_start())) }
                    </button>
                    <a id={ids.id("lesson-open-playground")} href={playground} target="_blank" rel="noopener">
                        { "Open this step in the playground" }
                    </a>
                </div>
                <p class="hint keys">{ key_hint }</p>
            </div>
            <div class="lesson-views" ref={views_ref}>{ views }</div>
            if let Ok(run) = &page.runs.a {
                <Announcements run={run.clone()} playhead={page.playback.playhead}
                    playing={page.playback.playing} clock_start={page.clock_start()}
                    notices={(*by_rule).clone()}
                    counted={Some(crate::ui::regions::lesson_outcomes(page, run))} />
            }
        </article>
    }
}

/// Scrolls `element` into sight unless its top is already in the upper part of the screen, at
/// once where the reader asks for reduced motion, smoothly elsewhere.
fn bring_into_sight(element: Option<web_sys::Element>, block: ScrollLogicalPosition) {
    let (Some(element), Some(window)) = (element, web_sys::window()) else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let top = element.get_bounding_client_rect().top();
    if (0.0..height * 0.6).contains(&top) {
        return;
    }
    let options = ScrollIntoViewOptions::new();
    options.set_block(block);
    options.set_behavior(if crate::ui::playback::reduced_motion() {
        ScrollBehavior::Instant
    } else {
        ScrollBehavior::Smooth
    });
    element.scroll_into_view_with_scroll_into_view_options(&options);
}
