//! Follow one request: buttons that pick one, the sentence that says where its time went, its
//! spans as bars on a shared time axis (one lane per hop; waiting hatched, working solid,
//! holding outlined), and the same spans in words, in order, for a screen reader.

use std::rc::Rc;

use yew::prelude::*;

use super::ids::use_ids;
use crate::page::action::Action;
use crate::page::life_story::{
    activity_words, at, happening_words, lane_name, lines, stack_words, story,
};
use crate::page::numbers::duration;
use crate::page::runs::{Run, Shared};
use crate::page::traced::Traced;
use crate::sim::latency::Micros;
use crate::sim::life::{Fill, RequestLife};
use crate::sim::pick::{in_flight_at, Pick};

/// Properties of [`FollowRequest`].
#[derive(Properties, PartialEq)]
pub struct FollowRequestProps {
    /// Run A, whose log the picks search.
    pub run: Shared<Run>,
    /// The followed request, while one is picked.
    pub traced: Option<Shared<Traced>>,
    /// A/B is on: the same arrival is followed in B, beside A.
    #[prop_or_default]
    pub ab: bool,
    /// The playhead, for "in flight now".
    pub playhead: Micros,
    /// The buttons that pick a request (a lesson step follows its own, without them).
    #[prop_or(true)]
    pub picks: bool,
    pub on_action: Callback<Action>,
}

/// The region's body.
#[function_component(FollowRequest)]
pub fn follow_request(props: &FollowRequestProps) -> Html {
    let ids = use_ids();
    // Which picks this run has a request for: worked out once per run.
    let found = use_memo(props.run.clone(), |run| {
        Pick::NAMED.map(|p| (p, p.find(&run.trace.requests, run.trace.end).is_some()))
    });
    let picked = props.traced.as_ref().map(|t| t.pick);
    let buttons = found.iter().map(|&(pick, any)| {
        let onclick = props.on_action.reform(move |_| Action::Follow(Some(pick)));
        let pressed = picked == Some(pick);
        let title = if any {
            format!("Follow the {} request", pick.label())
        } else {
            format!("No request of this run is {}", pick.label())
        };
        html! {
            <button type="button" {onclick} disabled={!any} aria-pressed={pressed.to_string()} {title}>
                { pick.label() }
            </button>
        }
    });
    let now = {
        let run = props.run.clone();
        let playhead = props.playhead;
        props.on_action.reform(move |_| {
            let id = in_flight_at(&run.trace.requests, playhead);
            Action::Follow(id.map(Pick::Arrival))
        })
    };
    let close = props.on_action.reform(|_| Action::Follow(None));
    let body = match props.traced.as_deref() {
        None => html! {
            <p class="placeholder">{ "Pick a request to see its whole life, hop by hop: where it waited, where it was worked on, and how it ended." }</p>
        },
        Some(Traced { id: None, pick, .. }) => html! {
            <p class="placeholder" id={ids.id("life-none")}>{ format!("No request of this run is {}.", pick.label()) }</p>
        },
        Some(traced) => {
            let lives: Vec<(&str, &Rc<RequestLife>)> = [("A", &traced.a), ("B", &traced.b)]
                .into_iter()
                .filter_map(|(side, life)| Some((side, life.as_ref()?)))
                .collect();
            let from = lives.iter().map(|(_, l)| l.arrived).min().unwrap_or(0);
            // At least 10 ms, so a request refused at once still has an axis to stand on.
            let to = lives
                .iter()
                .map(|(_, l)| l.end())
                .max()
                .unwrap_or(from)
                .max(from + 10_000);
            let side_by_side = props.ab && lives.len() > 1;
            html! {
                <div class={classes!("life-views", side_by_side.then_some("life-ab"))}>
                    { for lives.iter().map(|(side, life)| html! {
                        <LifeView life={Shared(Rc::clone(life))} side={side_by_side.then_some(*side)} {from} {to} />
                    }) }
                </div>
            }
        }
    };
    html! {
        <>
            <div class="life-picks" role="group" aria-label="Pick a request to follow" hidden={!props.picks}>
                { for buttons }
                <button type="button" onclick={now} title="Follow the request that had waited longest at the playhead">{ "in flight at the playhead" }</button>
                if props.traced.is_some() {
                    <button type="button" onclick={close}>{ "close" }</button>
                }
            </div>
            { body }
        </>
    }
}

/// Properties of [`LifeView`].
#[derive(Properties, PartialEq)]
struct LifeViewProps {
    /// Compared by identity: the playhead redraws the region on every frame, the life stays.
    life: Shared<RequestLife>,
    /// "A" or "B" when both runs are shown.
    side: Option<&'static str>,
    /// The shared axis, in run time.
    from: Micros,
    to: Micros,
}

/// One request's life: its sentence, its lanes and its spans in words.
#[function_component(LifeView)]
fn life_view(props: &LifeViewProps) -> Html {
    let ids = use_ids();
    let readout = use_state(String::new);
    let life = &props.life;
    let (from, to) = (props.from, props.to);
    let x = |t: Micros| (t.saturating_sub(from)) as f64 / (to - from) as f64 * 100.0;
    let lanes = life.lanes().into_iter().map(|lane| {
        let bars = life.spans.iter().filter(|s| s.lane == lane).map(|s| {
            let left = x(s.from);
            let width = (x(s.to) - left).max(0.4);
            let words = format!(
                "{} to {} ({}): {}",
                at(s.from),
                at(s.to),
                duration(s.length()),
                activity_words(life, lane, s.activity)
            );
            let fill = match s.activity.fill() {
                Fill::Waiting => "waiting",
                Fill::Working => "working",
                Fill::Holding => "holding",
            };
            let show = {
                let readout = readout.clone();
                let words = words.clone();
                Callback::from(move |()| readout.set(words.clone()))
            };
            html! {
                <span class={classes!("life-bar", fill)} style={format!("left:{left:.3}%;width:{width:.3}%")}
                    tabindex="0" role="img" aria-label={words.clone()} title={words}
                    onmouseenter={show.reform(|_: MouseEvent| ())} onfocus={show.reform(|_: FocusEvent| ())} />
            }
        });
        let marks = life.marks.iter().filter(|m| m.lane == lane).map(|m| {
            let words = format!("{}: {}", at(m.at), happening_words(life, m));
            html! {
                <span class="life-mark" style={format!("left:{:.3}%", x(m.at))} title={words} aria-hidden="true" />
            }
        });
        html! {
            <li class="life-lane">
                <span class="life-lane-name">{ lane_name(life, lane) }</span>
                <span class="life-track">{ for bars }{ for marks }</span>
            </li>
        }
    });
    let ticks = ticks(from, to).into_iter().map(|t| {
        let label = format!("{:.3}", t as f64 / 1e6);
        let label = label.trim_end_matches('0').trim_end_matches('.');
        html! { <span class="life-tick" style={format!("left:{:.3}%", x(t))}>{ format!("{label} s") }</span> }
    });
    let heading = match props.side {
        Some(side) => format!("Run {side}: request #{}", life.id),
        None => format!("Request #{}", life.id),
    };
    let words_id = ids.id(&format!("life-words-{}", props.side.unwrap_or("a")));
    html! {
        <div class="life">
            <h3>{ heading.clone() }</h3>
            <p class="life-story" id={ids.id(&format!("life-story-{}", props.side.unwrap_or("a")))}>{ story(life) }</p>
            <ul class="life-key" aria-hidden="true">
                <li><span class="life-swatch waiting" />{ "waiting (hatched)" }</li>
                <li><span class="life-swatch working" />{ "worked on (solid)" }</li>
                <li><span class="life-swatch holding" />{ "holding a worker, permit or connection (outlined)" }</li>
                <li><span class="life-swatch mark" />{ "a moment (hover for what)" }</li>
            </ul>
            if let Some(order) = stack_words(life) {
                <p class="life-order">{ order }</p>
            }
            <div class="life-chart">
                <div class="life-axis" aria-hidden="true"><span class="life-lane-name" /><span class="life-track">{ for ticks }</span></div>
                <ul class="life-lanes" aria-label={format!("{heading}, one lane per hop; each bar says its times")}>{ for lanes }</ul>
            </div>
            <p class="life-readout" aria-hidden="true">{ (*readout).clone() }</p>
            <details>
                <summary>{ "Each step in words" }</summary>
                <ol class="life-words" id={words_id}>{ for lines(life).into_iter().map(|l| html! { <li>{ l }</li> }) }</ol>
            </details>
        </div>
    }
}

/// Two to four round times between `from` and `to` (their labels must fit a phone's track).
fn ticks(from: Micros, to: Micros) -> Vec<Micros> {
    let span = to.saturating_sub(from).max(1);
    let step = (0..12)
        .flat_map(|e| [1u64, 2, 5].map(|m| m * 10u64.pow(e)))
        .find(|&s| span / s <= 3)
        .unwrap_or(span);
    let first = from.div_ceil(step) * step;
    (0..)
        .map(|i| first + i * step)
        .take_while(|&t| t <= to)
        .collect()
}
