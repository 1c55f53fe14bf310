//! Live numbers and a control inside a lesson's sentences. A paragraph's `{queue-peak}` shows
//! that figure of the step's run at the playhead, with its unit, and changes as the run plays
//! or is made again; `{control}` stands for the step's own "Try it" control, set inside the
//! sentence. `{{` and `}}` write a brace.

use super::names::{row_named, written_with, Named};
use super::rules::{duration, Reading, Window};
use crate::page::numbers::count;
use crate::page::replay::{clock, counted_by, frame, level_at, passed, route_at};
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::load::Recovery;
use crate::sim::model::{COUNTERS, LEVELS};
use crate::sim::trace::{Counter, Level, Route, BUCKET};

/// A figure of a run a lesson can name, one row of [`FIGURES`]: its name, its words, its
/// unit, how it is read from the run at the playhead and, where it has one, its own verdict.
/// A live figure in a sentence, a question's measure, a goal and `cascade --json`'s `measures`
/// all read these rows.
#[derive(Clone, Copy)]
pub struct Figure {
    /// Its name in a lesson file (`queue-peak`); a figure over a window is written with it
    /// (`throughput(8,12)`).
    pub name: &'static str,
    /// What it is, in words: its line in `docs/lesson-format.md` and its verdicts.
    pub what: &'static str,
    /// How a value of it is written.
    pub unit: Unit,
    /// Whether it is read over a window of the run, `FROM` to `TO` seconds.
    pub windowed: bool,
    /// How its value at the reading's playhead is read (`None`: the run has none, as a
    /// breaker that never opened has no first opening).
    read: Read,
    /// Its own verdict, where "WHAT was VALUE by TIME" does not read well.
    said: Option<Verdict>,
}

/// How a figure is read from a run at the playhead.
#[derive(Clone, Copy)]
enum Read {
    /// By a function of its own, over its window.
    By(fn(&Reading, Window) -> Option<f64>),
    /// As a layer's counter stood once the slices before the playhead had passed (`None`
    /// when no layer of the run keeps it).
    Counted(Counter),
    /// Where a layer's level stood at the playhead (`None` when no layer of the run keeps
    /// it).
    Level(Level),
    /// The requests a layer's level refused once the slices before the playhead had passed
    /// (`None` when no layer of the run keeps the level).
    RefusedBy(Level),
}

impl Figure {
    /// A layer's counter as a figure: its name, its words, a count of calls.
    const fn counted(counter: Counter) -> Figure {
        Figure {
            name: counter.figure,
            what: counter.what,
            unit: Unit::Calls,
            windowed: false,
            read: Read::Counted(counter),
            said: None,
        }
    }

    /// A layer's level as a figure: its name, its words, calls in flight.
    const fn level(level: Level) -> Figure {
        Figure {
            name: level.figure,
            what: level.what,
            unit: Unit::InFlight,
            windowed: false,
            read: Read::Level(level),
            said: None,
        }
    }

    /// The calls a layer's level refused as a figure: its name, its words, a count of calls.
    const fn refused_by(level: Level) -> Figure {
        Figure {
            name: level.refused_figure,
            what: level.refused_what,
            unit: Unit::Calls,
            windowed: false,
            read: Read::RefusedBy(level),
            said: None,
        }
    }

    /// Its value at the reading's playhead, over `window`.
    fn read(&self, r: &Reading, window: Window) -> Option<f64> {
        match self.read {
            Read::By(read) => read(r, window),
            Read::Counted(counter) => Some(counted_by(&r.run.trace, counter, r.now)? as f64),
            Read::Level(level) => Some(f64::from(level_at(&r.run.trace, level, r.now)?)),
            Read::RefusedBy(level) => {
                r.run.trace.level(level)?;
                Some(frame(&r.run.trace, r.now).finished.get(level.refuses) as f64)
            }
        }
    }
}

/// A figure's own verdict on a value (`None`: the run has none) at a moment, over its window.
type Verdict = fn(Option<f64>, Micros, Window) -> String;

/// How a figure's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// `1,043 requests`.
    Requests,
    /// `12 calls`.
    Calls,
    /// `48 in flight`.
    InFlight,
    /// `93%`.
    Percent,
    /// `4 s`, `300 ms`.
    Duration,
    /// A moment of the run: `4.2 s`; none is "not yet".
    Moment,
    /// `120 requests a second`.
    RequestsPerSecond,
    /// `80 ok a second`.
    OkPerSecond,
    /// `35 a second`.
    PerSecond,
}

impl Unit {
    /// What kind of quantity a figure in this unit is.
    pub fn quantity(self) -> Quantity {
        match self {
            Unit::Duration | Unit::Moment => Quantity::Duration,
            Unit::Percent => Quantity::Percent,
            _ => Quantity::Count,
        }
    }

    /// A value with its unit; a dash (for a moment, "not yet") for none.
    pub fn show(self, value: Option<f64>) -> String {
        let Some(v) = value else {
            return match self {
                Unit::Moment => "not yet".into(),
                _ => "\u{2014}".into(),
            };
        };
        let whole = v.round().max(0.0) as u64;
        match self {
            Unit::Requests => requests(whole),
            Unit::Calls => format!("{} call{}", count(whole), if whole == 1 { "" } else { "s" }),
            Unit::InFlight => format!("{} in flight", count(whole)),
            Unit::Percent => format!("{v:.0}%"),
            Unit::Duration => duration((v * 1e6).round() as u64),
            Unit::Moment => clock((v * 1e6) as u64, None),
            Unit::RequestsPerSecond => format!("{v:.0} requests a second"),
            Unit::OkPerSecond => format!("{v:.0} ok a second"),
            Unit::PerSecond => format!("{v:.0} a second"),
        }
    }
}

/// What kind of quantity a figure is, which says how a bound on it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// Seconds (`1 s`, `300 ms`).
    Duration,
    /// A share, in percent (`90`, `90%`).
    Percent,
    /// A number of requests or calls, or a rate per second.
    Count,
}

/// The longest queue in front of `orders`' workers so far, in requests.
pub const QUEUE_PEAK: Figure = Figure {
    name: "queue-peak",
    what: "the longest queue in front of the workers so far",
    unit: Unit::Requests,
    windowed: false,
    read: Read::By(|r, _| {
        passed(&r.run.trace, r.now)
            .iter()
            .map(|b| b.queue_len)
            .max()
            .map(|q| q as f64)
    }),
    said: Some(|value, now, _| match value {
        Some(v) => format!(
            "the queue in front of the workers reached {} requests by {}",
            count(v.round() as u64),
            clock(now, None)
        ),
        None => nothing_by(now),
    }),
};

/// When the breaker first opened, in seconds (never: no value).
pub const FIRST_OPENING: Figure = Figure {
    name: "first-opening",
    what: "when the breaker first opened",
    unit: Unit::Moment,
    windowed: false,
    read: Read::By(|r, _| {
        r.run
            .trace
            .transitions
            .iter()
            .find(|c| c.to == BreakerState::Open && c.at <= r.now)
            .map(|c| c.at as f64 / 1e6)
    }),
    said: Some(|value, now, _| match value {
        Some(v) => format!(
            "the breaker first opened at {}",
            clock((v * 1e6) as Micros, None)
        ),
        None => format!("the breaker had not opened by {}", clock(now, None)),
    }),
};

/// The share of order-history lookups answered, in percent.
pub const LOOKUPS_ANSWERED: Figure = Figure {
    name: "lookups-answered",
    what: "the share of order lookups answered",
    unit: Unit::Percent,
    windowed: false,
    read: Read::By(|r, _| {
        route_at(&r.run.trace, Route::OrderHistory, r.now)
            .filter(|l| l.arrived > 0)
            .map(|l| l.ok as f64 * 100.0 / l.arrived as f64)
    }),
    said: Some(|value, now, _| match value {
        Some(v) => format!(
            "{v:.0}% of the order lookups were answered by {}",
            clock(now, None)
        ),
        None => nothing_by(now),
    }),
};

/// The share of the requests arrived that were answered ok, in percent.
pub const OK_SHARE: Figure = Figure {
    name: "ok-share",
    what: "the share of the requests arrived answered ok",
    unit: Unit::Percent,
    windowed: false,
    read: Read::By(|r, _| {
        let f = frame(&r.run.trace, r.now);
        (f.arrived > 0).then(|| f.finished.ok as f64 * 100.0 / f.arrived as f64)
    }),
    said: Some(|value, now, _| match value {
        Some(v) => format!(
            "{v:.0}% of the requests were answered ok by {}",
            clock(now, None)
        ),
        None => nothing_by(now),
    }),
};

/// Requests finished per second between two times, in seconds.
pub const THROUGHPUT: Figure = Figure {
    name: "throughput",
    what: "requests finished per second between FROM and TO seconds",
    unit: Unit::RequestsPerSecond,
    windowed: true,
    read: Read::By(|r, (from, to)| {
        let slices = passed(&r.run.trace, r.now);
        let (a, b) = (secs_to_slice(from), secs_to_slice(to).min(slices.len()));
        let slices = slices.get(a..b).filter(|s| !s.is_empty())?;
        let done: u64 = slices.iter().map(|s| s.completions.total()).sum();
        Some(done as f64 * 1e6 / (slices.len() as f64 * BUCKET as f64))
    }),
    said: Some(|value, now, (from, to)| match value {
        Some(v) => format!(
            "orders finished {v:.1} requests a second from {} to {}",
            clock((from * 1e6) as Micros, None),
            clock((to * 1e6) as Micros, None)
        ),
        None => nothing_by(now),
    }),
};

/// The queue in front of the workers now, in requests.
pub const QUEUE: Figure = Figure {
    name: "queue",
    what: "the queue in front of the workers now",
    unit: Unit::Requests,
    windowed: false,
    read: Read::By(|r, _| {
        let last = passed(&r.run.trace, r.now).last()?;
        Some(last.queue_len as f64)
    }),
    said: None,
};

/// Requests that have arrived.
pub const ARRIVED: Figure = Figure {
    name: "arrived",
    what: "the number of requests arrived",
    unit: Unit::Requests,
    windowed: false,
    read: Read::By(|r, _| Some(frame(&r.run.trace, r.now).arrived as f64)),
    said: None,
};

/// Requests that timed out.
pub const TIMED_OUT: Figure = Figure {
    name: "timed-out",
    what: "the number of requests timed out",
    unit: Unit::Requests,
    windowed: false,
    read: Read::By(|r, _| Some(frame(&r.run.trace, r.now).finished.timeout as f64)),
    said: None,
};

/// Service time p50 of the requests finished.
pub const P50: Figure = Figure {
    name: "p50",
    what: "the service time p50 of the requests finished",
    unit: Unit::Duration,
    windowed: false,
    read: Read::By(|r, _| seconds(r.finished_times().0.percentiles().p50)),
    said: None,
};

/// Service time p99 of the requests finished.
pub const P99: Figure = Figure {
    name: "p99",
    what: "the service time p99 of the requests finished",
    unit: Unit::Duration,
    windowed: false,
    read: Read::By(|r, _| seconds(r.finished_times().0.percentiles().p99)),
    said: None,
};

/// End-to-end time p99 (the queue included) of the requests finished.
pub const P99_END_TO_END: Figure = Figure {
    name: "p99-end-to-end",
    what: "the end-to-end p99 (queue included) of the requests finished",
    unit: Unit::Duration,
    windowed: false,
    read: Read::By(|r, _| seconds(r.finished_times().1.percentiles().p99)),
    said: None,
};

/// Retries of every layer per second, since the start.
pub const RETRIES_PER_SECOND: Figure = Figure {
    name: "retries-per-second",
    what: "retries of every layer per second",
    unit: Unit::PerSecond,
    windowed: false,
    read: Read::By(|r, _| {
        let slices = passed(&r.run.trace, r.now);
        let retries: u64 = slices
            .iter()
            .map(|b| b.frontend_retries + b.library_retries + b.sidecar_retries)
            .sum();
        let seconds = slices.len() as f64 * BUCKET as f64 / 1e6;
        (seconds > 0.0).then(|| retries as f64 / seconds)
    }),
    said: None,
};

/// Calls that reached inventory.
pub const INVENTORY_CALLS: Figure = Figure {
    name: "inventory-calls",
    what: "the number of calls that reached inventory",
    unit: Unit::Calls,
    windowed: false,
    read: Read::By(|r, _| Some(frame(&r.run.trace, r.now).inventory_calls as f64)),
    said: None,
};

/// Requests answered ok in the last second.
pub const OK_PER_SECOND: Figure = Figure {
    name: "ok-per-second",
    what: "requests answered ok in the last second",
    unit: Unit::OkPerSecond,
    windowed: false,
    read: Read::By(|r, _| {
        let slices = passed(&r.run.trace, r.now);
        let last = &slices[slices.len().saturating_sub((1_000_000 / BUCKET) as usize)..];
        let seconds = last.len() as f64 * BUCKET as f64 / 1e6;
        let ok: u64 = last.iter().map(|b| b.completions.ok).sum();
        (seconds > 0.0).then(|| ok as f64 / seconds)
    }),
    said: None,
};

/// How long after its trigger ended the run recovered (ten seconds in a row with 90% of
/// arrivals answered well), once those ten seconds are behind the playhead; none before, or if
/// it never did.
pub const RECOVERED: Figure = Figure {
    name: "recovered",
    what: "how long after its trigger ended the platform recovered",
    unit: Unit::Duration,
    windowed: false,
    read: Read::By(|r, _| {
        let recovery = r.run.trace.recovery?;
        let after = recovery.recovered_after?;
        let known = recovery
            .trigger_end
            .saturating_add(after)
            .saturating_add(Recovery::HEALTHY_SECONDS * 1_000_000);
        (known <= r.now).then_some(after as f64 / 1e6)
    }),
    said: Some(|value, now, _| match value {
        Some(_) => format!(
            "the platform recovered {} after its trigger ended",
            Unit::Duration.show(value)
        ),
        None => format!("the platform had not recovered by {}", clock(now, None)),
    }),
};

/// The figures read by functions of their own, in the order `docs/lesson-format.md` lists
/// them.
const OWN: [&Figure; 15] = [
    &QUEUE_PEAK,
    &FIRST_OPENING,
    &LOOKUPS_ANSWERED,
    &OK_SHARE,
    &THROUGHPUT,
    &QUEUE,
    &ARRIVED,
    &TIMED_OUT,
    &P50,
    &P99,
    &P99_END_TO_END,
    &RETRIES_PER_SECOND,
    &INVENTORY_CALLS,
    &OK_PER_SECOND,
    &RECOVERED,
];

/// Each of a list of a layer's declarations (`COUNTERS`, `LEVELS`) as a figure, in the list's
/// order, made while compiling (a `const` cannot call a function through a pointer).
macro_rules! figures_of {
    ($list:expr, $figure:path) => {{
        let mut figures = [$figure($list[0]); $list.len()];
        let mut i = 1;
        while i < $list.len() {
            figures[i] = $figure($list[i]);
            i += 1;
        }
        figures
    }};
}

/// Every layer's counters as figures, in [`COUNTERS`]' order.
static COUNTED: [Figure; COUNTERS.len()] = figures_of!(COUNTERS, Figure::counted);

/// Every layer's levels as figures, in [`LEVELS`]' order.
static LEVELLED: [Figure; LEVELS.len()] = figures_of!(LEVELS, Figure::level);

/// The calls each layer's level refused as figures, in [`LEVELS`]' order.
static REFUSED: [Figure; LEVELS.len()] = figures_of!(LEVELS, Figure::refused_by);

/// How many figures there are.
const ALL: usize = OWN.len() + COUNTERS.len() + 2 * LEVELS.len();

/// Every figure, in the order `docs/lesson-format.md` lists them: those read by functions of
/// their own, then every layer's counters, then every layer's levels, each with the calls it
/// refused.
pub static FIGURES: [&Figure; ALL] = {
    let mut all = [OWN[0]; ALL];
    let mut i = 0;
    while i < OWN.len() {
        all[i] = OWN[i];
        i += 1;
    }
    while i < OWN.len() + COUNTERS.len() {
        all[i] = &COUNTED[i - OWN.len()];
        i += 1;
    }
    while i < ALL {
        let level = (i - OWN.len() - COUNTERS.len()) / 2;
        all[i] = &LEVELLED[level];
        all[i + 1] = &REFUSED[level];
        i += 2;
    }
    all
};

fn seconds(us: Option<Micros>) -> Option<f64> {
    us.map(|us| us as f64 / 1e6)
}

fn nothing_by(now: Micros) -> String {
    format!("the run had nothing of it by {}", clock(now, None))
}

fn secs_to_slice(s: f64) -> usize {
    (s * 1e6 / BUCKET as f64).round().max(0.0) as usize
}

/// A figure of the run, as a lesson names it: a row of [`FIGURES`], with its window when it
/// is read over one, and the run it reads (`b:`, `b-a:` before its name for run B and for B
/// minus A, in a step that shows a run B).
#[derive(Clone, Copy)]
pub struct Live {
    figure: &'static Figure,
    window: Window,
    side: Side,
}

/// Which run a figure reads, in a step that shows a run B beside run A.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Run A, the step's own (a name as it stands).
    A,
    /// Run B (`b:queue-peak`).
    B,
    /// Run B's figure minus run A's (`b-a:queue-peak`), signed.
    BMinusA,
}

impl Side {
    /// Every side with what a lesson writes before a figure's name for it.
    pub const PREFIXES: [(Side, &'static str); 3] =
        [(Side::BMinusA, "b-a:"), (Side::B, "b:"), (Side::A, "")];

    /// What a lesson writes before a figure's name for this side.
    pub fn prefix(self) -> &'static str {
        Side::PREFIXES
            .iter()
            .find(|(side, _)| *side == self)
            .map_or("", |(_, prefix)| prefix)
    }
}

impl PartialEq for Live {
    fn eq(&self, other: &Live) -> bool {
        self.figure.name == other.figure.name
            && self.window == other.window
            && self.side == other.side
    }
}

impl std::fmt::Debug for Live {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A piece of a paragraph.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece<'a> {
    /// Text as written.
    Text(&'a str),
    /// A figure of the run.
    Live(Live),
    /// The step's "Try it" control.
    Control,
}

impl Live {
    /// The figure read at the playhead (a windowed one over the whole run).
    pub const fn of(figure: &'static Figure) -> Live {
        Live {
            figure,
            window: (0.0, 0.0),
            side: Side::A,
        }
    }

    /// The windowed figure read from `from` to `to` seconds.
    pub const fn over(figure: &'static Figure, from: f64, to: f64) -> Live {
        Live {
            figure,
            window: (from, to),
            side: Side::A,
        }
    }

    /// The same figure read from `side`'s run.
    pub const fn from_side(self, side: Side) -> Live {
        Live { side, ..self }
    }

    /// Its row.
    pub fn figure(self) -> &'static Figure {
        self.figure
    }

    /// The run it reads.
    pub fn side(self) -> Side {
        self.side
    }

    /// The figure called `name`, or a message listing the names there are.
    pub fn from_name(name: &str) -> Result<Live, String> {
        let (side, bare) = Side::PREFIXES
            .iter()
            .find_map(|&(side, prefix)| Some((side, name.strip_prefix(prefix)?)))
            .unwrap_or((Side::A, name));
        if let Some(found) = row_named(&FIGURES, bare) {
            return found.map(|(figure, (from, to))| Live::over(figure, from, to).from_side(side));
        }
        let names: Vec<String> = FIGURES.iter().map(|f| f.written()).collect();
        Err(format!(
            "no measure is called `{name}`: one of {} (each may start with b: for run B or \
             b-a: for B minus A; and {{control}} in a sentence for the step's control)",
            names.join(", ")
        ))
    }

    /// Its name in a lesson file (`throughput(8,12)` with its window, `b:` before it for run
    /// B).
    pub fn name(self) -> String {
        format!(
            "{}{}",
            self.side.prefix(),
            written_with(self.figure, self.window)
        )
    }

    /// What kind of quantity it is.
    pub fn quantity(self) -> Quantity {
        self.figure.unit.quantity()
    }

    /// What the run measured, as a verdict quotes it: "the queue in front of the workers
    /// reached 998 requests by 12.0 s", "p99 was 4 s by 12.0 s".
    pub fn describe(self, value: Option<f64>, now: Micros) -> String {
        let (by, what) = (clock(now, None), self.what());
        match (self.side, self.figure.said, value) {
            (Side::BMinusA, _, None) => format!("runs A and B did not both have {what} by {by}"),
            (Side::BMinusA, _, Some(_)) => format!(
                "{what} in run B minus run A was {} by {by}",
                self.shown(value)
            ),
            (Side::A, Some(said), _) => said(value, now, self.window),
            (Side::B, Some(said), _) => format!("in run B, {}", said(value, now, self.window)),
            (Side::A, None, None) => format!("the run had no {what} by {by}"),
            (Side::B, None, None) => format!("run B had no {what} by {by}"),
            (Side::A, None, Some(_)) => format!("{what} was {} by {by}", self.shown(value)),
            (Side::B, None, Some(_)) => {
                format!("in run B, {what} was {} by {by}", self.shown(value))
            }
        }
    }

    /// What the figure is, in words: its line in `docs/lesson-format.md` and its verdicts.
    pub fn what(self) -> &'static str {
        self.figure.what
    }

    /// Every figure, one of each (`throughput` with example times), in the order
    /// `docs/lesson-format.md` lists them.
    pub fn all() -> Vec<Live> {
        Live::every((8.0, 12.0)).collect()
    }

    /// Every figure of run A, in [`FIGURES`]' order, a windowed one over `window`.
    fn every((from, to): Window) -> impl Iterator<Item = Live> {
        FIGURES.iter().map(move |f| match f.windowed {
            true => Live::over(f, from, to),
            false => Live::of(f),
        })
    }

    /// Every figure of `run` at its end, by the name a lesson writes it with, as
    /// [`Live::value`] reads it (seconds, percent, a count or a rate; `None` where the run has
    /// none): what `cascade --json` prints under `measures`. A windowed figure is the whole
    /// run's, named with its window (`throughput(0,12)`).
    pub fn at_end(run: &crate::page::runs::Run) -> Vec<(String, Option<f64>)> {
        let reading = Reading {
            run,
            now: run.span,
            b: None,
        };
        let whole = (run.span as f64 / 1e6).ceil();
        Live::every((0.0, whole))
            .map(|live| (live.name(), live.value(&reading)))
            .collect()
    }

    /// The figure at the reading's playhead as a number (seconds, percent, a count or a rate),
    /// `None` while the run has none (a breaker that never opened has no first opening).
    pub fn value(self, r: &Reading) -> Option<f64> {
        let of = |run| {
            let reading = Reading {
                run,
                now: r.now,
                b: None,
            };
            self.figure.read(&reading, self.window)
        };
        match self.side {
            Side::A => self.figure.read(r, self.window),
            Side::B => of(r.b?),
            Side::BMinusA => Some(of(r.b?)? - self.figure.read(r, self.window)?),
        }
    }

    /// The figure with its unit at the reading's playhead; a dash while the run has none.
    pub fn text(self, r: &Reading) -> String {
        self.shown(self.value(r))
    }

    /// A value of the figure with its unit; a dash for none.
    pub fn shown(self, value: Option<f64>) -> String {
        match (self.side, value) {
            (Side::BMinusA, Some(v)) => {
                // A difference of two moments is a length of time.
                let unit = match self.figure.unit {
                    Unit::Moment => Unit::Duration,
                    unit => unit,
                };
                let sign = if v < 0.0 { "\u{2212}" } else { "+" };
                format!("{sign}{}", unit.show(Some(v.abs())))
            }
            _ => self.figure.unit.show(value),
        }
    }
}

impl Named for Figure {
    fn bare(&self) -> &'static str {
        self.name
    }

    fn windowed(&self) -> bool {
        self.windowed
    }
}

fn requests(n: u64) -> String {
    if n == 1 {
        "1 request".into()
    } else {
        format!("{} requests", count(n))
    }
}

/// The pieces of `paragraph`, or what is wrong in it.
pub fn pieces<'a>(paragraph: &'a str) -> Result<Vec<Piece<'a>>, String> {
    let mut out = Vec::new();
    let mut rest = paragraph;
    let mut text_start = 0usize;
    let mut at = 0usize;
    let push_text = |out: &mut Vec<Piece<'a>>, from: usize, to: usize| {
        if to > from {
            out.push(Piece::Text(&paragraph[from..to]));
        }
    };
    while let Some(i) = rest.find(['{', '}']) {
        let brace = at + i;
        let doubled = paragraph[brace..].starts_with("{{") || paragraph[brace..].starts_with("}}");
        if doubled {
            // The first brace stays as text; the second is skipped.
            push_text(&mut out, text_start, brace + 1);
            text_start = brace + 2;
            at = brace + 2;
            rest = &paragraph[at..];
            continue;
        }
        if paragraph[brace..].starts_with('}') {
            return Err("a `}` with no `{` before it (write `}}` for a brace)".into());
        }
        let close = paragraph[brace..]
            .find('}')
            .map(|c| brace + c)
            .ok_or("a `{` with no `}` after it (write `{{` for a brace)")?;
        let name = paragraph[brace + 1..close].trim();
        push_text(&mut out, text_start, brace);
        out.push(if name == "control" {
            Piece::Control
        } else {
            Piece::Live(Live::from_name(name)?)
        });
        text_start = close + 1;
        at = close + 1;
        rest = &paragraph[at..];
    }
    push_text(&mut out, text_start, paragraph.len());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraph_splits_into_text_figures_and_the_control() {
        assert_eq!(
            pieces("With {control} workers the queue is {queue-peak}.").unwrap(),
            [
                Piece::Text("With "),
                Piece::Control,
                Piece::Text(" workers the queue is "),
                Piece::Live(Live::of(&QUEUE_PEAK)),
                Piece::Text("."),
            ]
        );
        assert_eq!(
            pieces("{p99}{throughput(8,12)}").unwrap(),
            [
                Piece::Live(Live::of(&P99)),
                Piece::Live(Live::over(&THROUGHPUT, 8.0, 12.0)),
            ]
        );
        assert_eq!(
            pieces("a {{brace}} b").unwrap(),
            [Piece::Text("a {"), Piece::Text("brace}"), Piece::Text(" b")]
        );
        assert_eq!(pieces("plain").unwrap(), [Piece::Text("plain")]);
        for figure in FIGURES.iter().filter(|f| !f.windowed) {
            assert_eq!(Live::from_name(figure.name), Ok(Live::of(figure)));
            assert_eq!(Live::of(figure).name(), figure.name);
        }
    }

    /// A layer's counter is a figure by its own name: read up to the playhead, said in its
    /// own words, and absent from a run without the layer.
    #[test]
    fn a_layers_counter_is_a_figure_read_up_to_the_playhead() {
        use crate::page::runs::Run;
        use crate::sim::model::COPIES_SENT;
        use crate::sim::scenario::Scenario;
        let run = super::super::test_runs::hedged_tail();
        let counted = run.trace.counted(COPIES_SENT).unwrap();
        let figure = Live::from_name("hedges-sent").unwrap();
        let half = run.trace.series.len() / 2;
        let at = |now: Micros| {
            figure.value(&Reading {
                run: &run,
                now,
                b: None,
            })
        };
        let midway = at(half as Micros * BUCKET).unwrap();
        assert_eq!(midway, counted.in_first(half) as f64);
        assert!(0.0 < midway && midway < counted.total as f64, "{midway}");
        let all = at(run.trace.series.len() as Micros * BUCKET);
        assert_eq!(all, Some(counted.total as f64));
        assert_eq!(
            figure.describe(Some(45.0), 12 * 1_000_000),
            "the number of hedges sent (copies of a try beyond the original) was 45 calls by 12.0 s"
        );
        let plain = Run::of(Scenario::None.config()).unwrap();
        let none = figure.value(&Reading {
            run: &plain,
            now: plain.span,
            b: None,
        });
        assert_eq!(none, None, "no hedge, no figure");
    }

    /// A layer's level is a figure where it stood at the playhead, and the calls it refused one
    /// counted by the playhead; neither is there on a run without the layer.
    #[test]
    fn a_layers_level_and_its_refusals_are_figures_read_at_the_playhead() {
        use crate::page::runs::Run;
        use crate::sim::model::LIMIT;
        use crate::sim::scenario::Preset;
        let run = Run::of(Preset::StoryAdaptiveLimit.config()).unwrap();
        let read = |name: &str, run: &Run, now: Micros| {
            let reading = Reading { run, now, b: None };
            Live::from_name(name).unwrap().value(&reading)
        };
        let level = run.trace.level(LIMIT).unwrap();
        let first = level.changes[0];
        assert_eq!(
            read("limit", &run, first.at - 1),
            Some(level.initial.into())
        );
        assert_eq!(read("limit", &run, first.at), Some(first.value.into()));
        let refused = run.trace.outcomes.get(level.refuses) as f64;
        let at_end = run.trace.series.len() as Micros * BUCKET;
        assert_eq!(read("limited", &run, at_end), Some(refused));
        let midway = read("limited", &run, first.at + 1_000_000).unwrap();
        assert!(0.0 < midway && midway < refused, "{midway} of {refused}");
        let plain = Run::of(Preset::StoryNone.config()).unwrap();
        assert_eq!(read("limit", &plain, plain.span), None);
        assert_eq!(read("limited", &plain, plain.span), None);
    }

    #[test]
    fn a_figure_reads_run_b_or_b_minus_a_by_its_prefix() {
        use crate::page::runs::Run;
        use crate::sim::scenario::Preset;
        let difference = Live::from_name("b-a:lookups-answered").unwrap();
        assert_eq!(difference.side(), Side::BMinusA);
        assert_eq!(difference.name(), "b-a:lookups-answered");
        let b_window = Live::from_name("b:throughput(8,12)").unwrap();
        assert_eq!(
            b_window,
            Live::over(&THROUGHPUT, 8.0, 12.0).from_side(Side::B)
        );
        assert_eq!(b_window.name(), "b:throughput(8,12)");
        assert_ne!(b_window, Live::over(&THROUGHPUT, 8.0, 12.0));
        assert!(Live::from_name("c:queue").is_err());

        let a = Run::of(Preset::StoryAdaptiveLimit.config()).unwrap();
        let b = Run::of(Preset::StoryNone.config()).unwrap();
        let with_b = Reading {
            run: &a,
            now: 12_000_000,
            b: Some(&b),
        };
        let share = Live::of(&LOOKUPS_ANSWERED);
        let (in_a, in_b) = (share.value(&with_b).unwrap(), {
            let of_b = Reading {
                run: &b,
                now: 12_000_000,
                b: None,
            };
            share.value(&of_b).unwrap()
        });
        assert!(in_a > in_b + 10.0, "{in_a} {in_b}");
        assert_eq!(share.from_side(Side::B).value(&with_b), Some(in_b));
        let less = difference.value(&with_b).unwrap();
        assert!((less - (in_b - in_a)).abs() < 1e-9);
        let shown = difference.shown(Some(less));
        assert!(
            shown.starts_with('\u{2212}') && shown.ends_with('%'),
            "{shown}"
        );
        assert_eq!(difference.shown(Some(3.0)), "+3%");
        let said = difference.describe(Some(less), 12_000_000);
        assert!(said.contains("in run B minus run A was \u{2212}"), "{said}");
        assert!(Live::of(&FIRST_OPENING)
            .from_side(Side::BMinusA)
            .shown(Some(-1.5))
            .starts_with('\u{2212}'));

        // Without a run B, neither reads anything.
        let alone = Reading {
            run: &a,
            now: 12_000_000,
            b: None,
        };
        assert_eq!(difference.value(&alone), None);
        assert_eq!(share.from_side(Side::B).value(&alone), None);
        assert_eq!(difference.shown(None), "\u{2014}");
    }

    #[test]
    fn a_wrong_brace_or_name_says_what_is_allowed() {
        let e = pieces("the {queue-peek}").unwrap_err();
        assert!(e.contains("`queue-peek`") && e.contains("p99"), "{e}");
        assert!(pieces("a { b").unwrap_err().contains("no `}`"));
        assert!(pieces("a } b").unwrap_err().contains("no `{`"));
    }
}
