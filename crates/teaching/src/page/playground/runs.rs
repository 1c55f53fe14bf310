//! The page's derived room: the runs its settings describe (A, B while A/B is on, the lesson's
//! table), simulated once per change of the settings they come from and never stored apart
//! from them. See [`Runs::after`].

use std::cell::{Cell, OnceCell};
use std::rc::Rc;

use super::knobs::Patterns;
use super::replay::{breaker_bands, shown_outcomes, span, Band};
use super::requests::finished;
use super::traced::Traced;
use crate::page::latency::Finished;
use crate::page::markers::{markers, Marker};
use crate::page::numbers::refused;
use crate::resilience::Window;
use crate::sim::latency::Micros;
use crate::sim::model::{run, RunError, SimConfig};
use crate::sim::pick::Pick;
use crate::sim::scenario::Scenario;
use crate::sim::trace::{Outcome, Trace};

/// A shared value that compares by identity, so handing the same trace to a view twice does
/// not compare its contents.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

thread_local! {
    static SIMULATED: Cell<u64> = const { Cell::new(0) };
}

/// How many runs [`Run::of`] has simulated on this thread (tests count them per action).
pub fn simulations_on_this_thread() -> u64 {
    SIMULATED.with(Cell::get)
}

/// One run of the simulator and what the views derive from it once.
#[derive(Debug)]
pub struct Run {
    /// The config that produced it.
    pub config: SimConfig,
    /// What the simulator produced.
    pub trace: Trace,
    /// The timeline's length.
    pub span: Micros,
    /// Finished requests in order of finishing, for the histograms.
    pub finished: Vec<Finished>,
    /// The breaker's states over the whole run (empty without a breaker), for the timeline.
    pub bands: Vec<Band>,
    /// The outcomes the counters show (see [`shown_outcomes`]).
    pub outcomes: Vec<Outcome>,
    /// The events the timeline marks (see [`markers`]).
    pub markers: Vec<Marker>,
}

impl Run {
    /// `config` simulated, with what the views derive from it.
    pub fn of(config: SimConfig) -> Result<Run, String> {
        SIMULATED.with(|n| n.set(n.get() + 1));
        let mut recorded = config.clone();
        recorded.run.record_requests = true;
        let trace = run(&recorded).map_err(|e| match e {
            RunError::Param(e) => refused(&e),
            other => other.to_string(),
        })?;
        let span = span(&trace, config.traffic.duration);
        let finished = finished(&trace);
        let bands = if config.first_breaker().is_some() {
            breaker_bands(&trace, span)
        } else {
            Vec::new()
        };
        let outcomes = shown_outcomes(&trace);
        let markers = markers(&trace, &config);
        Ok(Run {
            config,
            trace,
            span,
            finished,
            bands,
            outcomes,
            markers,
        })
    }
}

/// A run, or why there is none.
pub type Simulated = Result<Shared<Run>, String>;

fn simulate(config: SimConfig) -> Simulated {
    Run::of(config).map(|r| Shared(Rc::new(r)))
}

/// `pick` followed in run `a`, and the same arrival in run `b`.
fn trace(pick: Pick, a: &Simulated, b: Option<&Simulated>) -> Shared<Traced> {
    let a = a.as_ref().ok().map(|r| (&r.config, &r.trace));
    let b = b.and_then(|b| b.as_ref().ok()).map(|r| &r.config);
    Shared(Rc::new(Traced::of(pick, a, b)))
}

/// One line of the lesson's table, computed now.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    /// The scenario.
    pub scenario: Scenario,
    /// Its label as the lesson prints it.
    pub label: String,
    /// Its trace.
    pub trace: Rc<Trace>,
}

/// The lesson's four scenarios with the breaker window `window_s` (seconds) and `seed`.
pub fn lesson_table(seed: u64, window_s: f64) -> Vec<TableRow> {
    Scenario::ALL
        .iter()
        .filter_map(|&s| {
            let mut cfg = s.config();
            cfg.run.seed = seed;
            if let Some(b) = cfg.first_stack_mut().breaker.as_mut() {
                b.window = Window::Time((window_s * 1_000_000.0).round() as Micros);
            }
            run(&cfg).ok().map(|t| TableRow {
                scenario: s,
                label: s.label(&cfg),
                trace: Rc::new(t),
            })
        })
        .collect()
}

/// What the runs are simulated from (see [`super::settings::Settings::run_inputs`]).
#[derive(Debug, Clone, PartialEq)]
pub struct RunInputs {
    /// Run A's config.
    pub a: SimConfig,
    /// Run B's config, while A/B is on.
    pub b: Option<SimConfig>,
    /// B's parameters (every pattern present) and patterns, for the controls that edit B.
    pub b_settings: Option<(SimConfig, Patterns)>,
    /// The line that says how B differs from A.
    pub ab_summary: Option<String>,
    /// The seed and the breaker window (seconds) of the lesson's table.
    pub table: (u64, f64),
    /// The request to follow, if any.
    pub trace: Option<Pick>,
}

/// Everything derived from the settings: the runs, and what the views read of B's settings
/// (worked out once per change, never on a playback frame).
#[derive(Debug, Clone)]
pub struct Runs {
    /// Run A, the page's run.
    pub a: Simulated,
    /// Run B while A/B is on.
    pub b: Option<Simulated>,
    /// B's parameters and patterns, while A/B is on.
    pub b_settings: Option<Rc<(SimConfig, Patterns)>>,
    /// The line that says how B differs from A, while A/B is on.
    pub ab_summary: Option<String>,
    /// The lesson's table, simulated the first time a view asks for it (a lesson step never
    /// does).
    pub table: LaterTable,
    /// The followed request, while one is picked: traced the first time a view asks
    /// ([`Runs::followed`]).
    pub traced: Option<LaterTraced>,
}

/// A picked request, followed in runs A and B the first time its life is asked for (a lesson
/// step offers it only once its run has played to the step's moment). Copies share that one
/// following; two are equal when they are copies of one. It is kept only while A and B are.
#[derive(Debug, Clone)]
pub struct LaterTraced {
    /// The request picked.
    pub pick: Pick,
    traced: Rc<OnceCell<Shared<Traced>>>,
}

impl LaterTraced {
    fn of(pick: Pick) -> LaterTraced {
        LaterTraced {
            pick,
            traced: Rc::new(OnceCell::new()),
        }
    }

    /// Whether the request is followed already.
    pub fn is_traced(&self) -> bool {
        self.traced.get().is_some()
    }
}

impl PartialEq for LaterTraced {
    fn eq(&self, other: &LaterTraced) -> bool {
        Rc::ptr_eq(&self.traced, &other.traced)
    }
}

/// The lesson's four scenarios for a seed and a breaker window, simulated the first time
/// their rows are asked for. Copies share that one simulation; two tables are equal when
/// they are copies of one.
#[derive(Debug, Clone)]
pub struct LaterTable {
    seed_and_window: (u64, f64),
    rows: Rc<OnceCell<Shared<Vec<TableRow>>>>,
}

impl LaterTable {
    fn of(seed_and_window: (u64, f64)) -> LaterTable {
        LaterTable {
            seed_and_window,
            rows: Rc::new(OnceCell::new()),
        }
    }

    /// Whether its rows are simulated already.
    pub fn is_simulated(&self) -> bool {
        self.rows.get().is_some()
    }

    /// Its rows, simulated now if they were not yet.
    pub fn rows(&self) -> Shared<Vec<TableRow>> {
        let (seed, window) = self.seed_and_window;
        self.rows
            .get_or_init(|| Shared(Rc::new(lesson_table(seed, window))))
            .clone()
    }
}

impl PartialEq for LaterTable {
    fn eq(&self, other: &LaterTable) -> bool {
        Rc::ptr_eq(&self.rows, &other.rows)
    }
}

impl Runs {
    /// The runs `inputs` describe.
    pub fn of(inputs: RunInputs) -> Runs {
        let a = simulate(inputs.a);
        let b = inputs.b.map(simulate);
        let traced = inputs.trace.map(LaterTraced::of);
        Runs {
            a,
            b,
            b_settings: inputs.b_settings.map(Rc::new),
            ab_summary: inputs.ab_summary,
            table: LaterTable::of(inputs.table),
            traced,
        }
    }

    /// The runs after their inputs went from `before` to `now`: a run whose config is the
    /// same is kept, and only the others are simulated again.
    pub fn after(&self, before: &RunInputs, now: RunInputs) -> Runs {
        let (same_a, same_b) = (now.a == before.a, now.b == before.b);
        let a = if same_a {
            self.a.clone()
        } else {
            simulate(now.a)
        };
        let b = match (now.b, &self.b) {
            (None, _) => None,
            (Some(_), Some(kept)) if same_b => Some(kept.clone()),
            (Some(cfg), _) => Some(simulate(cfg)),
        };
        let traced = match (now.trace, &self.traced) {
            (None, _) => None,
            (Some(pick), Some(kept)) if same_a && same_b && before.trace == Some(pick) => {
                Some(kept.clone())
            }
            (Some(pick), _) => Some(LaterTraced::of(pick)),
        };
        Runs {
            a,
            b,
            b_settings: now.b_settings.map(Rc::new),
            ab_summary: now.ab_summary,
            table: if now.table == before.table {
                self.table.clone()
            } else {
                LaterTable::of(now.table)
            },
            traced,
        }
    }

    /// The picked request's life in A and B, followed now if it was not yet.
    pub fn followed(&self) -> Option<Shared<Traced>> {
        let later = self.traced.as_ref()?;
        Some(
            later
                .traced
                .get_or_init(|| trace(later.pick, &self.a, self.b.as_ref()))
                .clone(),
        )
    }

    /// The lesson's four scenarios with the settings' breaker window and seed.
    pub fn table(&self) -> Shared<Vec<TableRow>> {
        self.table.rows()
    }

    /// Run B's run, when A/B is on and B can run.
    pub fn b_run(&self) -> Option<&Shared<Run>> {
        self.b.as_ref().and_then(|b| b.as_ref().ok())
    }
}

#[cfg(test)]
mod tests {
    use crate::page::action::Action;
    use crate::page::state::Page;

    #[test]
    fn a_picked_request_is_followed_when_its_life_is_asked_for_once_for_all_its_copies() {
        use crate::sim::pick::Pick;
        let page = Page::default().apply(Action::Follow(Some(Pick::Slowest)));
        let later = page.runs.traced.clone().expect("a pick");
        assert_eq!(later.pick, Pick::Slowest);
        assert!(!later.is_traced(), "nothing asked for its life yet");
        let life = page.runs.followed().unwrap();
        assert!(life.a.is_some(), "the slowest request is followed in A");
        assert!(later.is_traced(), "a copy shares it");
        assert!(page.runs.followed().unwrap() == life, "followed once");
        // Playback keeps it; a new run follows it anew, when asked.
        let played = page.clone().apply(Action::Seek(2_000_000));
        assert!(played.runs.traced == page.runs.traced);
        let other = page.apply(Action::SetKnob("timeout", 100.0));
        let anew = other.runs.traced.as_ref().unwrap();
        assert!(!anew.is_traced() && *anew != later);
    }

    #[test]
    fn the_lesson_table_is_simulated_when_its_rows_are_asked_for_once_for_all_its_copies() {
        let page = Page::default();
        let copy = page.runs.table.clone();
        assert!(!copy.is_simulated(), "nothing asked for the rows yet");
        assert_eq!(copy.rows().len(), 4);
        assert!(
            page.runs.table.is_simulated(),
            "a copy shares the one simulation"
        );
        // Another setting keeps the table; another window makes a new one, not yet simulated.
        let faster = page.clone().apply(Action::SetKnob("timeout", 100.0));
        assert!(faster.runs.table == page.runs.table);
        let windowed = page.clone().apply(Action::SetTableWindow(1.0));
        assert!(windowed.runs.table != page.runs.table);
        assert!(!windowed.runs.table.is_simulated());
    }
}
