//! The page: Yew function components, one view per file, state in one reducer.

mod announcer;
mod app;
mod canvas;
mod cell_worker;
pub mod chart_backend;
mod chart_keys;
mod compare;
mod controls;
mod drawer;
mod embed_this;
mod exercises;
mod feedback_loop;
mod frames;
mod histogram;
mod ids;
mod inline_knob;
mod jitter;
mod join_code;
mod knob_panel;
mod lesson;
mod library_compare;

mod lesson_table;
mod load_chart;
mod metastability;
mod modal;
mod on_demand;
mod palette;
mod playback;
mod pool;
mod regions;
mod request_life;
mod resilience4j_paste;
mod share;
mod shipped_lessons;
mod shortcuts_help;
mod state;
mod state_diagram;
mod storage;
mod timeline;
mod toolbar;
mod topology;
mod widget;
mod window_events;

pub use app::{App, Explorers};
pub use exercises::ExerciseView;
pub use widget::{
    AllKinds, ChartKinds, ExerciseKinds, ExplorerKinds, LessonKinds, LibraryKinds, Widget,
};

use wasm_bindgen::JsValue;

/// The id of the element the full playground mounts into. Namespaced, because course pages
/// often have an `#app` of their own.
pub const ROOT_ID: &str = "resilience-app";

thread_local! {
    /// The element this instance of the module drew into: the page's root, or its one widget
    /// (`widgets.js` gives every widget an instance of its own).
    static HOST: std::cell::RefCell<Option<web_sys::Element>> = const { std::cell::RefCell::new(None) };
    /// Where the playground's own files are (a widget's `playground_url`), when they are not
    /// beside the page: a course page elsewhere on the site that embeds widgets.
    static ASSETS: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    /// The glue of the module this instance runs (the worker imports the same one).
    static GLUE: std::cell::Cell<Glue> = const { std::cell::Cell::new(Glue::Whole) };
}

/// The glue of each module, for the metastability explorer's worker, which imports the glue of
/// the module that drew the explorer: the whole one (any widget, the single offline file) or
/// the explorers' one (a page of explorers, and the playground's page once one is started).
/// The playground's, the lesson's and the charts' modules hold no explorer, so no worker
/// imports them (`make dist` prints every module's size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glue {
    /// `resilience-playground.js`: every view.
    Whole,
    /// `playground-page.js`: the playground's page.
    Playground,
    /// `widget-charts.js`: the charts' widgets (no explorer; never asked for).
    Charts,
    /// `widget-explorers.js`: the explorers' widgets.
    Explorers,
    /// `widget-libraries.js`: the libraries' comparison.
    Libraries,
    /// `widget-lessons.js`: a lesson's step and the charts (no explorer; never asked for).
    Lessons,
    /// `widget-exercises.js`: the exercises (no explorer; never asked for).
    Exercises,
}

impl Glue {
    /// The glue's file name, beside the page's other files.
    pub fn file_name(self) -> &'static str {
        match self {
            Glue::Whole => "resilience-playground.js",
            Glue::Playground => "playground-page.js",
            Glue::Charts => "widget-charts.js",
            Glue::Explorers => "widget-explorers.js",
            Glue::Libraries => "widget-libraries.js",
            Glue::Lessons => "widget-lessons.js",
            Glue::Exercises => "widget-exercises.js",
        }
    }
}

/// The glue of the module running here.
fn glue() -> Glue {
    GLUE.with(|g| g.get())
}

/// The URL the playground's files (the glue, the worker script) are found beside, when it is
/// not the page's own.
fn assets_base() -> Option<String> {
    ASSETS.with(|a| a.borrow().clone())
}

/// Reports a panic in the console and, in place of the view that failed, inside its own
/// element. The wasm build aborts on a panic, so this instance is over; other instances (the
/// other widgets of a course page) go on.
fn report_panic(info: &std::panic::PanicHookInfo) {
    let message = format!("resilience-playground panicked: {info}");
    web_sys::console::error_1(&JsValue::from_str(&message));
    let Some(host) = HOST.with(|h| h.borrow_mut().take()) else {
        return;
    };
    let Some(document) = host.owner_document() else {
        return;
    };
    let Ok(notice) = document.create_element("p") else {
        return;
    };
    notice.set_class_name("failure widget-failed");
    let _ = notice.set_attribute("role", "alert");
    notice.set_text_content(Some(&format!(
        "This part of the page stopped working ({info}). Everything else on the page still \
         works; reload the page to start it again."
    )));
    host.set_text_content(None);
    let _ = host.append_child(&notice);
}

/// Exports `metastabilityCell`, one cell of the metastability explorer, for its worker
/// (`metastability-worker.js`), which runs the page's own module. A request line in, a reply
/// line out; see [`crate::page::metastability_wire`]. Invoked by the modules whose pages show
/// the explorer (the playground's and the whole one), so the lesson page's holds none of it.
#[macro_export]
macro_rules! export_metastability_cell {
    () => {
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = metastabilityCell)]
        pub fn metastability_cell(request: &str) -> String {
            $crate::page::metastability_wire::answer(request)
        }
    };
}

/// Entry point of the whole module: mounts the lesson or the playground, whichever root
/// element the page has (the single offline file holds both pages).
pub fn start() {
    join_code::draw_codes_here();
    if page_root(lesson::LESSON_ROOT_ID).is_some() {
        start_lesson();
    } else {
        start_playground(Glue::Whole, app::Explorers(regions::explorers));
    }
}

/// Mounts the playground into the page's root element, if it has one, with its explorers
/// shown as `explorers` does (drawn here, or fetched when started; see [`app::Explorers`]).
pub fn start_playground(glue: Glue, explorers: app::Explorers) {
    GLUE.with(|g| g.set(glue));
    if let Some(root) = prepare(ROOT_ID) {
        HOST.with(|h| *h.borrow_mut() = Some(root.clone()));
        yew::Renderer::<App>::with_root_and_props(root, app::AppProps { explorers }).render();
    }
}

/// The playground page's explorers, fetched when the student starts one.
pub const EXPLORERS_ON_DEMAND: app::Explorers = app::Explorers(regions::explorers_on_demand);

/// Mounts the guided lesson into the page's lesson element, if it has one.
pub fn start_lesson() {
    if let Some(root) = prepare(lesson::LESSON_ROOT_ID) {
        yew::Renderer::<lesson::LessonApp>::with_root(root).render();
    }
}

fn page_root(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Routes panics to the console and the failed view, tells the page the module started, and
/// empties the root element `id` (its loading notice) for the view.
fn prepare(id: &str) -> Option<web_sys::Element> {
    // Through Yew: its renderer would otherwise put its own console hook in place of ours.
    yew::set_custom_panic_hook(Box::new(report_panic));
    let window = web_sys::window()?;
    let _ = js_sys::Reflect::set(
        &window,
        &JsValue::from_str("__resiliencePlaygroundStarted"),
        &JsValue::TRUE,
    );
    let root = page_root(id)?;
    root.set_inner_html("");
    Some(root)
}

/// Mounts one widget into `host` (a `<resilience-widget>` element, or `embed.html`'s root),
/// described by its attributes as a query string, with the views of the kinds `K` holds. `n`
/// numbers it on the page (each widget has an instance of the module of its own, so the page
/// counts them) and prefixes its ids. `playground_url` is the full playground's address for the
/// widget's "open in the playground" link. Never fails: bad attributes become notices inside
/// the widget. The handle unmounts it (to mount it again with new attributes).
pub fn mount_widget<K: widget::Kinds>(
    host: web_sys::Element,
    attributes: &str,
    playground_url: &str,
    n: u32,
) -> yew::AppHandle<widget::Widget<K>> {
    let spec = crate::page::widget::WidgetSpec::from_query(attributes);
    let scope = ids::IdScope::widget(n, spec.look.headings(), &spec.kind.name());
    let props = widget::WidgetProps {
        spec: crate::page::runs::Shared(std::rc::Rc::new(spec)),
        scope,
        playground_url: playground_url.to_string().into(),
    };
    host.set_inner_html("");
    // A family's module has no start of its own to put the hook in place (the whole one's
    // `prepare` does): without it a panic would leave the widget blank, with no word.
    yew::set_custom_panic_hook(Box::new(report_panic));
    GLUE.with(|g| g.set(K::GLUE));
    HOST.with(|h| *h.borrow_mut() = Some(host.clone()));
    ASSETS.with(|a| *a.borrow_mut() = Some(playground_url.to_string()));
    yew::Renderer::<widget::Widget<K>>::with_root_and_props(host, props).render()
}

/// Exports `mountWidget` for `widgets.js` and `embed.html`: mounts a widget of the kinds
/// `$kinds` holds ([`AllKinds`] in the whole module, [`ChartKinds`] in the charts module) and
/// gives a handle that unmounts it.
#[macro_export]
macro_rules! export_widgets {
    ($kinds:ty) => {
        /// A mounted widget, for `widgets.js` to unmount when the element's attributes change.
        #[wasm_bindgen::prelude::wasm_bindgen]
        pub struct WidgetHandle(Option<yew::AppHandle<$crate::ui::Widget<$kinds>>>);

        #[wasm_bindgen::prelude::wasm_bindgen]
        impl WidgetHandle {
            /// Unmounts the widget (its timers and listeners go with it); twice is harmless.
            pub fn destroy(&mut self) {
                if let Some(app) = self.0.take() {
                    app.destroy();
                }
            }
        }

        /// Mounts widget number `number` of the page into `host`; see
        /// `resilience_playground::ui::mount_widget`.
        #[wasm_bindgen::prelude::wasm_bindgen(js_name = mountWidget)]
        pub fn mount_widget(
            host: web_sys::Element,
            attributes: &str,
            playground_url: &str,
            number: u32,
        ) -> WidgetHandle {
            WidgetHandle(Some($crate::ui::mount_widget::<$kinds>(
                host,
                attributes,
                playground_url,
                number,
            )))
        }
    };
}
