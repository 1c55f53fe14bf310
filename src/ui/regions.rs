//! The playground's regions, each a titled panel around one view, shared by the full page and
//! the widgets so both show the same thing the same way.

use std::rc::Rc;

use yew::prelude::*;

use super::compare::AbCounters;
use super::drawer::Drawer;
use super::feedback_loop::LoopDiagram;
use super::histogram::Histogram;
use super::ids::IdScope;
use super::jitter::JitterView;
use super::knob_panel::KnobPanel;
use super::lesson_table::LessonTable;
use super::library_compare::LibrariesOnRequest;
use super::load_chart::LoadChart;
use super::metastability::MetastabilityView;
use super::on_demand::ExplorerOnDemand;
use super::pool::PoolSlots;
use super::request_life::FollowRequest;
use super::resilience4j_paste::Resilience4jPaste;
use super::state_diagram::StateDiagram;
use super::timeline::Timeline;
use super::topology::Topology;
use crate::page::action::Action;
use crate::page::compare::{ab_outcomes, counters, histograms, Side};
use crate::page::feedback_loop::FeedbackLoop;
use crate::page::jitter::JitterSettings;
use crate::page::latency::{histogram_until, in_bar, LatencyKind};
use crate::page::pool::pool_at;
use crate::page::replay::{breaker_at, frame, produced_outcomes, route_at};
use crate::page::runs::{Run, Shared};
use crate::page::state::Page;
use crate::page::widget::WidgetKind;
use crate::sim::pattern::Pattern;
use crate::sim::pick::Pick;
use crate::sim::trace::Route;

/// A panel with a heading the screen reader announces as its name.
fn region(ids: &IdScope, class: &str, name: &str, title: &str, body: Html) -> Html {
    let title_id = ids.id(&format!("{name}-title"));
    html! {
        <section class={classes!("region", class.to_string())}
            aria-labelledby={ids.landmark(title).is_none().then(|| title_id.clone())}
            aria-label={ids.landmark(title)}>
            <@{ids.heading_tag()} id={title_id}>{ title }</@>
            { body }
        </section>
    }
}

/// A region's body that the page draws only near the screen (`style.css`: its
/// `content-visibility`), apart from the region's heading, which stays in the accessibility
/// tree so the region can be found by its name from anywhere on the page.
fn deferred(body: Html) -> Html {
    html! { <div class="region-body">{ body }</div> }
}

/// The page's notice (a corrected value) and the knobs.
pub fn controls(ids: &IdScope, page: &Page, dispatch: &Callback<Action>) -> Html {
    let edits_b = page
        .settings
        .ab
        .as_ref()
        .is_some_and(|ab| ab.edits == Side::B);
    let body = html! {
        <Drawer label="Controls: the patterns and their settings">
            if let Some(text) = &page.notice {
                <p class="notice" role="alert" id={ids.id("page-notice")}>{ text }</p>
            }
            if let Some(b) = page.runs.b_settings.as_ref().filter(|_| edits_b) {
                <p class="ab-editing" id={ids.id("ab-editing")}>{ "These controls change run B." }</p>
                <KnobPanel full={b.0.clone()} patterns={b.1} on_action={dispatch.clone()} />
            } else {
                <KnobPanel full={page.settings.full.clone()} patterns={page.settings.patterns} on_action={dispatch.clone()} />
            }
            <Resilience4jPaste on_action={dispatch.clone()} />
        </Drawer>
    };
    region(ids, "controls", "controls", "Controls", body)
}

/// Why there is no run to show.
pub fn run_error(ids: &IdScope, message: &str) -> Html {
    let body = html! {
        <p class="notice" role="alert" id={ids.id("run-error")}>
            { format!("This run cannot start: {message}") }
        </p>
    };
    region(ids, "timeline", "timeline", "Timeline", body)
}

/// Play, step, scrub, the breaker band and the counters.
pub fn timeline(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
) -> Html {
    timeline_of(ids, page, run, dispatch, None, false)
}

/// The same, counting only `outcomes` when given, and then without the keyboard line (a
/// compact widget).
pub fn timeline_counting(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
    outcomes: Option<Vec<crate::sim::trace::Outcome>>,
) -> Html {
    timeline_of(ids, page, run, dispatch, outcomes, false)
}

/// The timeline region; with `reveal`, the marks and the breaker's band stop at the playhead.
fn timeline_of(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
    outcomes: Option<Vec<crate::sim::trace::Outcome>>,
    reveal: bool,
) -> Html {
    let b = page.b_run();
    let compare = b.map(|b| {
        let (ha, hb) = histograms(run, b, page.playback.playhead, page.view.latency);
        let counted = outcomes.clone().unwrap_or_else(|| ab_outcomes(run, b));
        let rows = counters(run, b, &counted, page.playback.playhead, (&ha, &hb));
        let summary = page.runs.ab_summary.clone().unwrap_or_default();
        let edits = page.settings.ab.as_ref().map(|ab| ab.edits).unwrap_or_default();
        html! {
            <AbCounters summary={summary} rows={Rc::new(rows)} edits={edits} on_action={dispatch.clone()} />
        }
    });
    let body = html! {
        <>
            <Timeline playhead={page.playback.playhead} run={run.clone()} playing={page.playback.playing}
                speed={page.playback.speed} clock_start={page.clock_start()}
                frame={frame(&run.trace, page.playback.playhead)} on_action={dispatch.clone()}
                counted={outcomes} span={page.span()} counters={compare.is_none()} b={b.cloned()}
                reveal={reveal} />
            { compare.unwrap_or_default() }
            if let Some(Err(e)) = &page.runs.b {
                <p class="notice" role="alert">{ format!("Run B cannot start: {e}") }</p>
            }
        </>
    };
    region(ids, "timeline", "timeline", "Timeline", body)
}

/// A lesson step's timeline: ok and the outcomes its runs produced counted (nothing the
/// lesson has not met yet), and the marked events and the breaker's band shown only as far
/// as the playhead has come.
pub fn lesson_timeline(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
) -> Html {
    let outcomes = Some(lesson_outcomes(page, run));
    timeline_of(ids, page, run, dispatch, outcomes, true)
}

/// What a lesson step counts: ok, then what run A or B produced.
pub fn lesson_outcomes(page: &Page, run: &Run) -> Vec<crate::sim::trace::Outcome> {
    let mut traces = vec![&run.trace];
    traces.extend(page.b_run().map(|b| &b.trace));
    produced_outcomes(&traces)
}

/// A region's title, saying that it shows run A while A/B is on.
fn of_a(page: &Page, title: &str) -> String {
    if page.settings.ab.is_some() {
        format!("{title} (run A)")
    } else {
        title.to_string()
    }
}

/// Anna, Kong, orders and inventory with their meters.
pub fn topology(ids: &IdScope, page: &Page, run: &Shared<Run>) -> Html {
    let now = frame(&run.trace, page.playback.playhead);
    let body = html! {
        <>
            <Topology config={run.config.clone()} frame={now}
                lookups={route_at(&run.trace, Route::OrderHistory, page.playback.playhead)} />
            <PoolSlots pool={pool_at(&run.trace, run.config.service.threads, &now)} />
        </>
    };
    region(
        ids,
        "topology-region",
        "topology",
        &of_a(page, "Where the requests are"),
        body,
    )
}

/// The feedback loop of a failure-zoo preset, lit while it drives at the playhead; nothing for
/// the other presets.
pub fn feedback_loop(ids: &IdScope, page: &Page, run: &Shared<Run>) -> Html {
    let Some(shape) = FeedbackLoop::of(page.settings.preset) else {
        return Html::default();
    };
    let driving = shape.drives(&run.config, &run.trace, page.playback.playhead);
    let body = html! { <LoopDiagram {shape} {driving} /> };
    region(ids, "loop-region", "loop", &of_a(page, shape.title), body)
}

/// The breaker's state diagram at the playhead.
pub fn diagram(ids: &IdScope, page: &Page, run: &Shared<Run>) -> Html {
    let at = page.playback.playhead;
    let breaker = run.config.first_breaker().cloned();
    let has_breaker = breaker.is_some();
    let no_place = run
        .config
        .first_stack()
        .map(|stack| &stack.profile)
        .filter(|profile| !profile.has_place_for(Pattern::BREAKER))
        .map(|profile| {
            AttrValue::from(format!(
                "This run's stack (stack={}) has no circuit breaker to switch on: {} has no place for one.",
                profile.key(),
                profile.order_words()
            ))
        });
    let now = frame(&run.trace, at);
    let body = html! {
        <StateDiagram config={breaker} {no_place} at={breaker_at(&run.trace, has_breaker, at)}
            slice={now.slice} rejections={now.breaker_refused} playhead={at} run={run.clone()} />
    };
    region(
        ids,
        "diagram",
        "diagram",
        &of_a(page, "Circuit breaker"),
        body,
    )
}

/// The latency histogram up to the playhead, with the service / end-to-end switch; a click on
/// a bar follows its slowest request where the page can show it (`pickable`).
pub fn latency(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
    pickable: bool,
) -> Html {
    let data = Rc::new(histogram_until(
        &run.finished,
        page.playback.playhead,
        page.view.latency,
    ));
    let b = page.b_run().map(|b| {
        Rc::new(histogram_until(
            &b.finished,
            page.playback.playhead,
            page.view.latency,
        ))
    });
    let on_latency = pickable.then(|| {
        let (run, dispatch) = (run.clone(), dispatch.clone());
        let (kind, until) = (page.view.latency, page.playback.playhead);
        Callback::from(move |latency| {
            if let Some(id) = in_bar(&run.finished, kind, latency, until) {
                dispatch.emit(Action::Follow(Some(Pick::Arrival(id))));
            }
        })
    });
    let group = ids.id("latency-kind");
    let switch = [LatencyKind::Service, LatencyKind::EndToEnd].map(|kind| {
        let onchange = dispatch.reform(move |_: Event| Action::SetLatency(kind));
        let id = ids.id(match kind {
            LatencyKind::Service => "latency-service",
            LatencyKind::EndToEnd => "latency-end-to-end",
        });
        html! {
            <label for={id.clone()}>
                <input type="radio" name={group.clone()} id={id} checked={page.view.latency == kind} {onchange} />
                { kind.label() }
            </label>
        }
    });
    let body = html! {
        <>
            <fieldset class="latency-kind">
                <legend class="visually-hidden">{ "Which latency" }</legend>
                { for switch }
            </fieldset>
            <Histogram data={data} b={b} kind={page.view.latency} dark={page.view.dark} projector={page.view.projector} playing={page.playback.playing}
                bulkhead_wait={run.config.first_stack().and_then(|s| s.bulkhead.as_ref()).map(|b| b.max_wait)}
                on_latency={on_latency} />
            if pickable {
                <p class="hint">{ "Click a bar to follow its slowest request, hop by hop." }</p>
            }
        </>
    };
    region(ids, "histogram", "histogram", "Latency", body)
}

/// One request followed hop by hop (in A and B while A/B is on); with the buttons that pick
/// another (`picks`; a lesson step follows its own).
pub fn follow(
    ids: &IdScope,
    page: &Page,
    run: &Shared<Run>,
    dispatch: &Callback<Action>,
    picks: bool,
) -> Html {
    let body = html! {
        <FollowRequest run={run.clone()} traced={page.runs.followed()} ab={page.settings.ab.is_some()}
            playhead={page.playback.playhead} on_action={dispatch.clone()} {picks} />
    };
    region(ids, "follow-region", "follow", "Follow one request", body)
}

/// Requests per second by outcome and the load on inventory, over the whole run.
pub fn load(ids: &IdScope, page: &Page, run: &Shared<Run>) -> Html {
    let body = html! { <LoadChart run={run.clone()} b={page.b_run().cloned()} span={page.span()}
    playhead={page.playback.playhead} dark={page.view.dark} projector={page.view.projector} playing={page.playback.playing} /> };
    region(ids, "load", "load", "Load over time", body)
}

/// The lesson's four scenarios, computed now, beside its printed numbers.
pub fn lesson_table(ids: &IdScope, page: &Page, dispatch: &Callback<Action>) -> Html {
    let body = html! {
        <LessonTable table={page.runs.table.clone()} window={page.settings.table_window} on_action={dispatch.clone()} />
    };
    region(ids, "table", "table", "The lesson's table", deferred(body))
}

/// The explorers drawn by this module: the jitter sweep, then the metastability grid (the
/// whole module's playground; see [`super::app::Explorers`]).
pub fn explorers(ids: &IdScope) -> Html {
    html! { <>{ jitter(ids) }{ metastability(ids) }{ libraries(ids) }</> }
}

/// The libraries' comparison on Saturday's cascade, run when the student asks.
pub fn libraries(ids: &IdScope) -> Html {
    let body = html! {
        <LibrariesOnRequest what={LIBRARIES_WHAT} start_id={ids.id("libraries-start")} />
    };
    region(ids, "libraries-region", "libraries", LIBRARIES_TITLE, body)
}

/// The jitter sweep's title, as its region and its widget give it.
pub(super) const JITTER_TITLE: &str = "Backoff and jitter, side by side";

/// The metastability grid's title, as its region and its widget give it.
pub(super) const METASTABILITY_TITLE: &str = "Metastability explorer: does it come back?";

/// The libraries' comparison's title, as its region and its widget give it.
pub(super) const LIBRARIES_TITLE: &str = "Four libraries, one failure";

/// What the libraries' comparison runs, before its module is here.
const LIBRARIES_WHAT: &str = "Lesson 000's protection as Resilience4j, Polly, Envoy and gRPC \
    write it, on Saturday's cascade: who retries a refused call, who counts a timeout as a failure, \
    when each stops calling, and how many calls reach inventory. Paste your own configuration of \
    any of them to run it beside them.";

/// What the jitter sweep computes, before its module is here.
const JITTER_WHAT: &str = "Clients updating one row with optimistic concurrency back off five \
    ways (none, exponential, full, equal and decorrelated jitter): the calls each way makes, and \
    the time until every client is done.";

/// What the metastability grid computes, before its module is here.
const METASTABILITY_WHAT: &str = "A grid of runs of the retry storm, by how long the trigger \
    lasts and how much load arrives: how many seconds each took to recover, or never. Then \
    switch on a cure (a retry budget, a breaker, deadline propagation) and watch the boundary \
    move.";

/// The explorers fetched when the student starts one (the playground page's module): each
/// region shows what it computes and its start button, which downloads the explorers module
/// (`widget-explorers_bg.wasm`, once) and puts the explorer, started, in its place.
pub fn explorers_on_demand(ids: &IdScope) -> Html {
    html! {
        <>
            <ExplorerOnDemand kind={WidgetKind::Jitter} class="jitter-region"
                title={JITTER_TITLE} what={JITTER_WHAT}
                start="Run the experiment" start_id={ids.id("jitter-start")} />
            <ExplorerOnDemand kind={WidgetKind::Metastability} class="metastability-region"
                title={METASTABILITY_TITLE} what={METASTABILITY_WHAT}
                start="Compute the grid" start_id={ids.id("meta-start")} />
            <ExplorerOnDemand kind={WidgetKind::CompareLibraries} class="libraries-region"
                title={LIBRARIES_TITLE} what={LIBRARIES_WHAT}
                start="Compare the libraries" start_id={ids.id("libraries-start")} />
        </>
    }
}

/// The metastability explorer, computed when the student asks.
pub fn metastability(ids: &IdScope) -> Html {
    let body = deferred(html! { <MetastabilityView /> });
    region(
        ids,
        "metastability-region",
        "metastability",
        METASTABILITY_TITLE,
        body,
    )
}

/// The backoff blog's contention experiment, computed once the student asks.
pub fn jitter(ids: &IdScope) -> Html {
    let body = deferred(html! { <JitterView settings={JitterSettings::default()} /> });
    region(ids, "jitter-region", "jitter", JITTER_TITLE, body)
}
