//! A widget inside a course page: one kind of view (or the whole playground) with its own state,
//! its own ids and its own keyboard, started from the element's attributes.

use std::rc::Rc;

use yew::prelude::*;

use super::app::{use_page, Explorers, Playground};
use super::ids::{use_ids, IdScope};
use super::jitter::JitterView;
use super::playback::shortcut_keys;
use super::regions;
use super::shipped_lessons::ShippedLessons;
use super::state::prefers_dark;
use super::Glue;
use crate::page::permalink::to_query;
use crate::page::runs::Shared;
use crate::page::site::Site;
use crate::page::state::Page;
use crate::page::widget::{WidgetKind, WidgetSpec};
use crate::page::widget_look::{occurring_outcomes, Chrome};

/// Properties of [`Widget`].
#[derive(Properties, PartialEq)]
pub struct WidgetProps {
    /// What the element's attributes asked for.
    pub spec: Shared<WidgetSpec>,
    /// The prefix of this widget's element ids.
    pub scope: IdScope,
    /// The playground's address, for "open in the playground" (empty: no link).
    #[prop_or_default]
    pub playground_url: AttrValue,
}

/// The widget kinds a module can mount, and each one's view. A module names one of these
/// (`export_widgets!`), so a module for course pages' charts holds none of the other views.
pub trait Kinds: 'static {
    /// The glue of the module these kinds are mounted by (the explorer's worker imports it).
    const GLUE: Glue;
    /// The view of `kind`, or `None` when this module does not hold it.
    fn body(kind: WidgetKind, props: &WidgetProps, initial: &Shared<Page>) -> Option<Html>;
}

/// Every kind: the whole module's widgets (`resilience-playground.js`).
pub struct AllKinds;

/// The views of one run ([`WidgetKind::CHARTS`]): the charts module's widgets
/// (`widget-charts.js`), which course pages with these alone load (`widgets.js`).
pub struct ChartKinds;

/// "Four libraries, one failure" ([`WidgetKind::LIBRARIES`]): the libraries module's widget
/// (`widget-libraries.js`), with the four libraries' readers, which course pages that show it
/// load, and the playground's page when the student opens it.
pub struct LibraryKinds;

/// A lesson's step and the views of one run ([`WidgetKind::LESSONS`]): the lessons module's
/// widgets (`widget-lessons.js`), which course pages with these alone load.
pub struct LessonKinds;

/// The exercises ([`WidgetKind::EXERCISES`]): the exercises module's widgets
/// (`widget-exercises.js`), which the exercises' page and course pages with these alone load.
pub struct ExerciseKinds;

/// The explorers ([`WidgetKind::EXPLORERS`]): the explorers module's widgets
/// (`widget-explorers.js`), which course pages with these alone load, and the playground's
/// page when the student opens one.
pub struct ExplorerKinds;

impl Kinds for ChartKinds {
    const GLUE: Glue = Glue::Charts;

    fn body(kind: WidgetKind, props: &WidgetProps, initial: &Shared<Page>) -> Option<Html> {
        WidgetKind::CHARTS.contains(&kind).then(|| {
            html! {
                <Views initial={initial.clone()} kind={kind} chrome={props.spec.look.chrome}
                    playground_url={props.playground_url.clone()}
                    panic_on_play={props.spec.panic_on_play} />
            }
        })
    }
}

impl Kinds for ExplorerKinds {
    const GLUE: Glue = Glue::Explorers;

    fn body(kind: WidgetKind, props: &WidgetProps, _: &Shared<Page>) -> Option<Html> {
        let title = |text: &str| {
            html! { <@{props.scope.heading_tag()} class="widget-title">{ text.to_string() }</@> }
        };
        match kind {
            WidgetKind::Jitter => Some(html! {
                <div class="widget-body jitter-widget">
                    { title(regions::JITTER_TITLE) }
                    <JitterView settings={props.spec.jitter()} autostart=true />
                </div>
            }),
            WidgetKind::Metastability => Some(html! {
                <div class="widget-body metastability-widget">
                    { title(regions::METASTABILITY_TITLE) }
                    <super::metastability::MetastabilityView autostart=true />
                </div>
            }),
            _ => None,
        }
    }
}

impl Kinds for LibraryKinds {
    const GLUE: Glue = Glue::Libraries;

    fn body(kind: WidgetKind, props: &WidgetProps, initial: &Shared<Page>) -> Option<Html> {
        (kind == WidgetKind::CompareLibraries).then(|| {
            html! {
                <div class="widget-body library-compare-widget">
                    <@{props.scope.heading_tag()} class="widget-title">{ regions::LIBRARIES_TITLE }</@>
                    <super::library_compare::LibraryCompareView page={initial.clone()} />
                </div>
            }
        })
    }
}

impl Kinds for LessonKinds {
    const GLUE: Glue = Glue::Lessons;

    fn body(kind: WidgetKind, props: &WidgetProps, initial: &Shared<Page>) -> Option<Html> {
        ChartKinds::body(kind, props, initial).or_else(|| {
            (kind == WidgetKind::LessonStep).then(|| {
                html! {
                    <ShippedLessons site={Site::files(&props.playground_url)}
                        first={crate::page::lessons::Lesson::read_first(&props.spec.settings)}>
                        <LessonStep spec={props.spec.clone()} playground_url={props.playground_url.clone()}
                            dark={initial.view.dark} projector={initial.view.projector} />
                    </ShippedLessons>
                }
            })
        })
    }
}

impl Kinds for ExerciseKinds {
    const GLUE: Glue = Glue::Exercises;

    fn body(kind: WidgetKind, props: &WidgetProps, _: &Shared<Page>) -> Option<Html> {
        match kind {
            WidgetKind::Exercise(n) => Some(html! {
                <super::ExerciseView number={n} heading_level={props.spec.look.headings()} />
            }),
            _ => None,
        }
    }
}

impl Kinds for AllKinds {
    const GLUE: Glue = Glue::Whole;

    fn body(kind: WidgetKind, props: &WidgetProps, initial: &Shared<Page>) -> Option<Html> {
        LessonKinds::body(kind, props, initial)
            .or_else(|| ExplorerKinds::body(kind, props, initial))
            .or_else(|| LibraryKinds::body(kind, props, initial))
            .or_else(|| ExerciseKinds::body(kind, props, initial))
            .or_else(|| {
                (kind == WidgetKind::Playground).then(|| {
                    html! {
                        <Playground initial={initial.clone()} explorers={Explorers(regions::explorers)} />
                    }
                })
            })
    }
}

/// One embedded widget: its notices, then its view, of the kinds `K` holds.
#[function_component(Widget)]
pub fn widget<K: Kinds>(props: &WidgetProps) -> Html {
    let spec = props.spec.clone();
    let start = use_memo((), move |_| {
        let (page, notices) = spec.page(prefers_dark());
        (Shared(Rc::new(page)), notices)
    });
    let (initial, mut notices) = (&start.0, start.1.clone());
    if props.spec.kind == WidgetKind::LessonStep {
        // A step brings its own settings: only the widget's own notices count here, and the
        // step's are said by the step.
        notices = props.spec.notices.clone();
    }
    let kind = props.spec.kind;
    let look = &props.spec.look;
    let chrome = look.chrome;
    let zoom = look.zoom(initial.view.projector);
    let style = (zoom != 1.0).then(|| format!("zoom: {zoom}; --rp-scale: {zoom};"));
    let body = K::body(kind, props, initial).unwrap_or_else(|| {
        // widgets.js never asks a module for a kind it does not hold.
        notices.push(format!(
            "kind: this module does not draw \"{}\"; widgets.js loads the one that does.",
            kind.key()
        ));
        Html::default()
    });
    html! {
        <ContextProvider<IdScope> context={props.scope.clone()}>
            <div class={classes!("rp", "widget", initial.view.dark.then_some("theme-dark"),
                    initial.view.projector.then_some("projector"))}
                data-kind={kind.key()} data-chrome={chrome.key()} style={style}>
                if !notices.is_empty() {
                    <ul class="widget-notices notice" role="alert" id={props.scope.id("widget-notices")}>
                        { for notices.iter().map(|n| html! { <li>{ n }</li> }) }
                    </ul>
                }
                { body }
            </div>
        </ContextProvider<IdScope>>
    }
}

/// Properties of [`LessonStep`].
#[derive(Properties, PartialEq)]
struct LessonStepProps {
    spec: Shared<WidgetSpec>,
    playground_url: AttrValue,
    dark: bool,
    projector: bool,
}

/// A lesson-step widget's step, once the shipped lessons are here.
#[function_component(LessonStep)]
fn lesson_step(props: &LessonStepProps) -> Html {
    let spec = props.spec.clone();
    let opened = use_memo((), move |_| {
        crate::page::lessons::widget_step(&spec.settings)
    });
    let (step, notices) = (*opened).clone();
    html! {
        <super::lesson::LessonDeck start={step} {notices} site={Site::files(&props.playground_url)}
            dark={props.dark} projector={props.projector} />
    }
}

/// Properties of [`Views`].
#[derive(Properties, PartialEq)]
struct ViewsProps {
    initial: Shared<Page>,
    kind: WidgetKind,
    chrome: Chrome,
    playground_url: AttrValue,
    panic_on_play: bool,
}

/// The circuit diagram or the histogram (each with a timeline to play it), or the lesson table.
#[function_component(Views)]
fn views(props: &ViewsProps) -> Html {
    let ids = use_ids();
    let (state, dispatch) = use_page(&props.initial);
    let page = &state.0;
    if props.panic_on_play && page.playback.playing {
        panic!("debug=\"panic\": this widget was asked to fail when played");
    }
    let onkeydown = shortcut_keys(&dispatch);
    let body = match (&page.runs.a, props.kind) {
        (_, WidgetKind::LessonTable) => regions::lesson_table(&ids, page, &dispatch),
        (Err(message), _) => regions::run_error(&ids, message),
        (Ok(run), kind) => {
            let timeline = match props.chrome {
                Chrome::Full => regions::timeline(&ids, page, run, &dispatch),
                Chrome::Compact => regions::timeline_counting(
                    &ids,
                    page,
                    run,
                    &dispatch,
                    Some(occurring_outcomes(&run.trace)),
                ),
                Chrome::None => Html::default(),
            };
            let view = if kind == WidgetKind::Histogram {
                regions::latency(&ids, page, run, &dispatch, false)
            } else {
                regions::diagram(&ids, page, run)
            };
            html! { <>{ timeline }{ view }</> }
        }
    };
    let link = (!props.playground_url.is_empty() && props.chrome != Chrome::None).then(|| {
        let href = format!("{}?{}", props.playground_url, to_query(page));
        html! {
            <p class="open-playground">
                <a href={href} target="_blank" rel="noopener">{ "Open this run in the playground" }</a>
            </p>
        }
    });
    html! {
        <div class={classes!("rp", "widget-body", page.view.dark.then_some("theme-dark"))}
            tabindex="0" {onkeydown} role="group"
            aria-label="Resilience Playground widget: space plays or pauses, arrows step, r goes back to the start">
            { body }
            { for link }
        </div>
    }
}
