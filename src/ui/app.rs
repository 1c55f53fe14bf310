//! The full playground: holds the state and lays the regions out. On its own page it also owns
//! the theme of the document, the address bar (a permalink) and the keyboard.

use yew::prelude::*;

use super::announcer::Announcements;
use super::ids::{use_ids, IdScope};
use super::playback::{shortcut_keys, use_playback, use_shortcuts};
use super::regions;
use super::share::{Export, Share};
use super::shortcuts_help::{playground_shortcuts, ShortcutsHelp};
use super::state::PageState;
use super::toolbar::Toolbar;
use crate::page::action::Action;
use crate::page::export::{run_json, series_csv};
use crate::page::permalink::{compact_settings, compact_with, query_with, settings_text};
use crate::page::runs::Shared;
use crate::page::state::Page;

/// How long the settings must stay unchanged before the address bar follows them.
const ADDRESS_BAR_DELAY_MS: u32 = 250;

/// The page state of one playground or widget, played by animation frames while playing.
#[hook]
pub fn use_page(initial: &Shared<Page>) -> (UseReducerHandle<PageState>, Callback<Action>) {
    let state = {
        let initial = initial.clone();
        use_reducer(move || PageState((*initial).clone()))
    };
    // One callback for the page's life: a new one each render would differ from the last, and
    // every view handed it would render again though nothing it shows had changed.
    let dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |_| {
            Callback::from(move |action: Action| dispatcher.dispatch(action))
        }))
        .clone()
    };
    use_playback(state.0.playback.playing, dispatch.clone());
    (state, dispatch)
}

/// How the playground shows its explorers (the jitter sweep and the metastability grid, each
/// computed apart from the page's run): drawn by the module itself
/// ([`regions::explorers`], the whole module), or fetched when the student opens one
/// ([`regions::explorers_on_demand`], the playground page's module, which holds none of
/// their code).
#[derive(Clone, Copy)]
pub struct Explorers(pub fn(&IdScope) -> Html);

impl PartialEq for Explorers {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::fn_addr_eq(self.0, other.0)
    }
}

/// Properties of [`App`].
#[derive(Properties, PartialEq)]
pub struct AppProps {
    /// How its explorers are shown.
    pub explorers: Explorers,
}

/// The playground on its own page, restored from the address bar.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let initial = use_memo((), |_| {
        Shared(std::rc::Rc::new(PageState::from_location().0))
    });
    html! { <Playground initial={(*initial).clone()} standalone=true explorers={props.explorers} /> }
}

/// Properties of [`Playground`].
#[derive(Properties, PartialEq)]
pub struct PlaygroundProps {
    /// The state it starts from.
    pub initial: Shared<Page>,
    /// On its own page (theme on the document, permalink in the address bar, keyboard
    /// everywhere), or a widget inside someone else's page.
    #[prop_or_default]
    pub standalone: bool,
    /// How its explorers are shown.
    pub explorers: Explorers,
}

/// Every region of the playground.
#[function_component(Playground)]
pub fn playground(props: &PlaygroundProps) -> Html {
    let ids = use_ids();
    let (state, dispatch) = use_page(&props.initial);
    let standalone = props.standalone;
    use_shortcuts(standalone.then(|| dispatch.clone()));
    use_root_classes(standalone, state.0.view.projector, state.0.view.dark);
    let page = &state.0;
    // The settings' part of the link is written when they change (a new shared value), not on
    // every frame.
    let links = use_memo(page.settings.clone(), |s| {
        let text = settings_text(s);
        let compact = compact_settings(s, &text);
        (text, compact)
    });
    let (settings_text, compact) = &*links;
    let query = query_with(settings_text, &page.playback, &page.view);
    {
        // Keep the address bar a permalink: once the settings have been still for a moment (the
        // browser takes milliseconds per change, too slow for every step of a slider drag) and
        // not while playing.
        let playing = page.playback.playing;
        use_effect_with((query.clone(), playing), move |(query, playing)| {
            let query = query.clone();
            let update = (standalone && !*playing).then(|| {
                gloo_timers::callback::Timeout::new(ADDRESS_BAR_DELAY_MS, move || {
                    if let Some(w) = web_sys::window() {
                        if let Ok(history) = w.history() {
                            let _ = history.replace_state_with_url(
                                &wasm_bindgen::JsValue::NULL,
                                "",
                                Some(&format!("?{query}")),
                            );
                        }
                    }
                })
            });
            // Dropping a pending timeout cancels it: only the last settings reach the bar.
            move || drop(update)
        });
    }
    let export = {
        let state = state.clone();
        Callback::from(move |what: Export| match what {
            Export::SeriesCsv => series_csv(&state.0),
            Export::RunJson => run_json(&state.0),
        })
    };
    let toolbar = html! {
        <>
            <Toolbar preset={page.settings.preset} modified={page.settings.modified()} seed={page.settings.full.run.seed}
                dark={page.view.dark} projector={page.view.projector} ab={page.settings.ab.is_some()} on_action={dispatch.clone()} />
            if standalone {
                <Share export={export} query={AttrValue::from(query)}
                    short_query={AttrValue::from(compact_with(compact, &page.playback, &page.view))} projector={page.view.projector} />
            }
        </>
    };
    let controls = regions::controls(&ids, page, &dispatch);
    let body = match &page.runs.a {
        Ok(run) => html! {
            <>
                { controls }
                { regions::timeline(&ids, page, run, &dispatch) }
                { regions::topology(&ids, page, run) }
                { regions::feedback_loop(&ids, page, run) }
                { regions::diagram(&ids, page, run) }
                { regions::latency(&ids, page, run, &dispatch, true) }
                { regions::load(&ids, page, run) }
                { regions::follow(&ids, page, run, &dispatch, true) }
                { regions::lesson_table(&ids, page, &dispatch) }
                { (props.explorers.0)(&ids) }
            </>
        },
        Err(message) => html! {
            <>
                { controls }
                { regions::run_error(&ids, message) }
            </>
        },
    };
    // A widget has no page of its own: its theme and keys stay on its element.
    let onkeydown = (!standalone).then(|| shortcut_keys(&dispatch));
    let class = if standalone {
        classes!("playground")
    } else {
        classes!("playground", "rp", page.view.dark.then_some("theme-dark"))
    };
    // Without a breaker the stage gives the diagram's place to the load chart (projector).
    let no_breaker = page
        .runs
        .a
        .as_ref()
        .is_ok_and(|r| r.config.first_breaker().is_none());
    // A zoo preset's feedback loop takes a row of its own under the timeline.
    let with_loop = crate::page::feedback_loop::FeedbackLoop::of(page.settings.preset).is_some();
    let layout = classes!(
        "layout",
        no_breaker.then_some("no-breaker"),
        with_loop.then_some("with-loop")
    );
    html! {
        <div {class} tabindex={(!standalone).then_some("0")} {onkeydown}
            role={(!standalone).then_some("group")}
            aria-label={(!standalone).then_some("Resilience Playground: space plays or pauses, arrows step, r goes back to the start")}>
            if let Ok(run) = &page.runs.a {
                <Announcements run={run.clone()} playhead={page.playback.playhead}
                    playing={page.playback.playing} clock_start={page.clock_start()} />
            }
            if standalone {
                <ShortcutsHelp entries={playground_shortcuts()} />
            }
            { toolbar }
            <div class={layout}>{ body }</div>
        </div>
    }
}

/// On a page of its own (not a widget), the document's root carries the view's classes:
/// `projector` and `theme-dark`, which the page's CSS follows.
#[hook]
pub(crate) fn use_root_classes(standalone: bool, projector: bool, dark: bool) {
    use_effect_with(
        (projector, dark, standalone),
        move |&(projector, dark, standalone)| {
            let root = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element());
            if let (true, Some(root)) = (standalone, root) {
                let list = root.class_list();
                let _ = list.toggle_with_force("projector", projector);
                let _ = list.toggle_with_force("theme-dark", dark);
            }
        },
    );
}
