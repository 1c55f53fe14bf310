//! Live numbers and a control inside a lesson's sentences. A paragraph's `{queue-peak}` shows
//! that figure of the step's run at the playhead, with its unit, and changes as the run plays
//! or is made again; `{control}` stands for the step's own "Try it" control, set inside the
//! sentence. `{{` and `}}` write a brace.

use super::rules::{duration, Reading};
use crate::page::numbers::count;
use crate::page::replay::{clock, frame, passed, route_at};
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::load::Recovery;
use crate::sim::trace::Route;
use crate::sim::trace::BUCKET;

/// A quantity read from a run up to a moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Measure {
    /// The longest queue in front of `orders`' workers, in requests.
    QueuePeak,
    /// When the breaker first opened, in seconds (never: no value).
    FirstOpening,
    /// The share of order-history lookups answered, in percent.
    LookupsAnswered,
    /// The share of the requests arrived that were answered ok, in percent.
    OkShare,
    /// Requests finished per second between two times, in seconds.
    Throughput {
        /// Start, seconds.
        from: f64,
        /// End, seconds.
        to: f64,
    },
}

impl Measure {
    /// The run's value up to the reading's moment (`None`: the breaker never opened; a run
    /// with nothing of it also has none).
    pub fn value(self, r: &Reading) -> Option<f64> {
        let t = &r.run.trace;
        match self {
            Measure::QueuePeak => passed(t, r.now)
                .iter()
                .map(|b| b.queue_len)
                .max()
                .map(|q| q as f64),
            Measure::FirstOpening => t
                .transitions
                .iter()
                .find(|c| c.to == BreakerState::Open && c.at <= r.now)
                .map(|c| c.at as f64 / 1e6),
            Measure::LookupsAnswered => route_at(t, Route::OrderHistory, r.now)
                .filter(|l| l.arrived > 0)
                .map(|l| l.ok as f64 * 100.0 / l.arrived as f64),
            Measure::OkShare => {
                let f = frame(t, r.now);
                (f.arrived > 0).then(|| f.finished.ok as f64 * 100.0 / f.arrived as f64)
            }
            Measure::Throughput { from, to } => {
                let slices = passed(t, r.now);
                let (a, b) = (secs_to_slice(from), secs_to_slice(to).min(slices.len()));
                let slices = slices.get(a..b).filter(|s| !s.is_empty())?;
                let done: u64 = slices.iter().map(|s| s.completions.total()).sum();
                Some(done as f64 * 1e6 / (slices.len() as f64 * BUCKET as f64))
            }
        }
    }

    /// What the run measured, as a sentence ending at `now`: "The queue reached 1,043
    /// requests by 12.0 s."
    pub fn describe(self, value: Option<f64>, now: Micros) -> String {
        let by = clock(now, None);
        match (self, value) {
            (Measure::QueuePeak, Some(v)) => format!(
                "the queue in front of the workers reached {} requests by {by}",
                count(v.round() as u64)
            ),
            (Measure::FirstOpening, Some(v)) => {
                format!(
                    "the breaker first opened at {}",
                    clock((v * 1e6) as Micros, None)
                )
            }
            (Measure::FirstOpening, None) => format!("the breaker had not opened by {by}"),
            (Measure::LookupsAnswered, Some(v)) => {
                format!("{v:.0}% of the order lookups were answered by {by}")
            }
            (Measure::OkShare, Some(v)) => {
                format!("{v:.0}% of the requests were answered ok by {by}")
            }
            (Measure::Throughput { from, to }, Some(v)) => format!(
                "orders finished {v:.1} requests a second from {} to {}",
                clock((from * 1e6) as Micros, None),
                clock((to * 1e6) as Micros, None)
            ),
            (_, None) => format!("the run had nothing of it by {by}"),
        }
    }
}

fn secs_to_slice(s: f64) -> usize {
    (s * 1e6 / BUCKET as f64).round().max(0.0) as usize
}

/// A figure of the run a sentence can show.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Live {
    /// One of the measures a question can ask about.
    Measure(Measure),
    /// The queue in front of the workers now, in requests.
    Queue,
    /// Requests that have arrived.
    Arrived,
    /// Requests that timed out.
    TimedOut,
    /// Service time p50 of the requests finished.
    P50,
    /// Service time p99 of the requests finished.
    P99,
    /// End-to-end time p99 (the queue included) of the requests finished.
    P99EndToEnd,
    /// Retries of every layer per second, since the start.
    RetriesPerSecond,
    /// Calls that reached inventory.
    InventoryCalls,
    /// Requests answered ok in the last second.
    OkPerSecond,
    /// The adaptive concurrency limit now, in calls in flight.
    Limit,
    /// Calls the adaptive concurrency limit refused so far.
    Limited,
    /// How long after its trigger ended the run recovered (ten seconds in a row with 90% of
    /// arrivals answered well), once those ten seconds are behind the playhead; none before,
    /// or if it never did.
    Recovered,
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

/// Each live figure without figures of its own, and its name; the measures keep theirs
/// (`queue-peak`, `first-opening`, `lookups-answered`, `ok-share`, `throughput(FROM,TO)`).
const NAMED: &[(&str, Live)] = &[
    ("limit", Live::Limit),
    ("limited", Live::Limited),
    ("queue", Live::Queue),
    ("arrived", Live::Arrived),
    ("timed-out", Live::TimedOut),
    ("p50", Live::P50),
    ("p99", Live::P99),
    ("p99-end-to-end", Live::P99EndToEnd),
    ("retries-per-second", Live::RetriesPerSecond),
    ("inventory-calls", Live::InventoryCalls),
    ("ok-per-second", Live::OkPerSecond),
    ("recovered", Live::Recovered),
];

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
    /// The figure called `name`, or a message listing the names there are.
    pub fn from_name(name: &str) -> Result<Live, String> {
        if let Some((_, live)) = NAMED.iter().find(|(n, _)| *n == name) {
            return Ok(*live);
        }
        Measure::from_name(name).map(Live::Measure).map_err(|_| {
            let names: Vec<String> = Live::all()
                .into_iter()
                .map(|live| match live {
                    Live::Measure(Measure::Throughput { .. }) => "throughput(FROM,TO)".into(),
                    live => live.name(),
                })
                .collect();
            format!(
                "no measure is called `{name}`: one of {} (and {{control}} in a sentence for \
                 the step's control)",
                names.join(", ")
            )
        })
    }

    /// Its name in a lesson file.
    pub fn name(self) -> String {
        match self {
            Live::Measure(m) => m.name(),
            live => NAMED
                .iter()
                .find(|(_, l)| *l == live)
                .map_or_else(String::new, |(n, _)| n.to_string()),
        }
    }

    /// What kind of quantity it is.
    pub fn quantity(self) -> Quantity {
        match self {
            Live::Measure(Measure::FirstOpening)
            | Live::P50
            | Live::P99
            | Live::P99EndToEnd
            | Live::Recovered => Quantity::Duration,
            Live::Measure(Measure::LookupsAnswered | Measure::OkShare) => Quantity::Percent,
            _ => Quantity::Count,
        }
    }

    /// What the run measured, as a verdict quotes it: "the queue in front of the workers
    /// reached 998 requests by 12.0 s", "p99 was 4 s by 12.0 s".
    pub fn describe(self, value: Option<f64>, now: Micros) -> String {
        match self {
            Live::Measure(m) => m.describe(value, now),
            Live::Recovered => match value {
                Some(_) => format!(
                    "the platform recovered {} after its trigger ended",
                    self.shown(value)
                ),
                None => format!("the platform had not recovered by {}", clock(now, None)),
            },
            _ if value.is_none() => {
                format!("the run had no {} by {}", self.what(), clock(now, None))
            }
            _ => format!(
                "{} was {} by {}",
                self.what(),
                self.shown(value),
                clock(now, None)
            ),
        }
    }

    /// What the figure is, in words: its line in `docs/lesson-format.md` and its verdicts.
    pub fn what(self) -> &'static str {
        match self {
            Live::Measure(Measure::QueuePeak) => "the longest queue in front of the workers so far",
            Live::Measure(Measure::FirstOpening) => "when the breaker first opened",
            Live::Measure(Measure::LookupsAnswered) => "the share of order lookups answered",
            Live::Measure(Measure::OkShare) => "the share of the requests arrived answered ok",
            Live::Measure(Measure::Throughput { .. }) => {
                "requests finished per second between FROM and TO seconds"
            }
            Live::Queue => "the queue in front of the workers now",
            Live::Arrived => "the number of requests arrived",
            Live::TimedOut => "the number of requests timed out",
            Live::P50 => "the service time p50 of the requests finished",
            Live::P99 => "the service time p99 of the requests finished",
            Live::P99EndToEnd => "the end-to-end p99 (queue included) of the requests finished",
            Live::RetriesPerSecond => "retries of every layer per second",
            Live::InventoryCalls => "the number of calls that reached inventory",
            Live::OkPerSecond => "requests answered ok in the last second",
            Live::Limit => "the adaptive concurrency limit",
            Live::Limited => "the number of calls the adaptive limit refused",
            Live::Recovered => "how long after its trigger ended the platform recovered",
        }
    }

    /// Every figure, one of each kind (`throughput` with example times), in the order
    /// `docs/lesson-format.md` lists them.
    pub fn all() -> Vec<Live> {
        let measures = [
            Measure::QueuePeak,
            Measure::FirstOpening,
            Measure::LookupsAnswered,
            Measure::OkShare,
            Measure::Throughput {
                from: 8.0,
                to: 12.0,
            },
        ];
        measures
            .into_iter()
            .map(Live::Measure)
            .chain(NAMED.iter().map(|(_, live)| *live))
            .collect()
    }

    /// Every figure of `run` at its end, by the name a lesson writes it with, as
    /// [`Live::value`] reads it (seconds, percent, a count or a rate; `None` where the run has
    /// none): what `cascade --json` prints under `measures`. The throughput is the whole
    /// run's, named with its window (`throughput(0,12)`).
    pub fn at_end(run: &crate::page::runs::Run) -> Vec<(String, Option<f64>)> {
        let reading = Reading {
            run,
            now: run.span,
            b: None,
        };
        let whole = Measure::Throughput {
            from: 0.0,
            to: (run.span as f64 / 1e6).ceil(),
        };
        Live::all()
            .into_iter()
            .map(|live| match live {
                Live::Measure(Measure::Throughput { .. }) => Live::Measure(whole),
                other => other,
            })
            .map(|live| (live.name(), live.value(&reading)))
            .collect()
    }

    /// The figure at the reading's playhead as a number (seconds, percent, a count or a rate),
    /// `None` while the run has none (a breaker that never opened has no first opening).
    pub fn value(self, r: &Reading) -> Option<f64> {
        let t = &r.run.trace;
        match self {
            Live::Measure(m) => m.value(r),
            Live::Queue => passed(t, r.now).last().map(|b| b.queue_len as f64),
            Live::Arrived => Some(frame(t, r.now).arrived as f64),
            Live::TimedOut => Some(frame(t, r.now).finished.timeout as f64),
            Live::InventoryCalls => Some(frame(t, r.now).inventory_calls as f64),
            Live::P50 | Live::P99 | Live::P99EndToEnd => {
                let (service, end_to_end, _) = r.finished_times();
                let p = if self == Live::P99EndToEnd {
                    end_to_end.percentiles()
                } else {
                    service.percentiles()
                };
                let value = if self == Live::P50 { p.p50 } else { p.p99 };
                value.map(|us| us as f64 / 1e6)
            }
            Live::RetriesPerSecond => {
                let slices = passed(t, r.now);
                let retries: u64 = slices
                    .iter()
                    .map(|b| b.frontend_retries + b.library_retries + b.sidecar_retries)
                    .sum();
                let seconds = slices.len() as f64 * BUCKET as f64 / 1e6;
                (seconds > 0.0).then(|| retries as f64 / seconds)
            }
            Live::Limit => t.adaptive_limit.as_ref().map(|l| f64::from(l.at(r.now))),
            Live::Limited => {
                t.adaptive_limit.as_ref()?;
                Some(frame(t, r.now).finished.concurrency_limited as f64)
            }
            Live::Recovered => {
                let recovery = t.recovery?;
                let after = recovery.recovered_after?;
                let known = recovery
                    .trigger_end
                    .saturating_add(after)
                    .saturating_add(Recovery::HEALTHY_SECONDS * 1_000_000);
                (known <= r.now).then_some(after as f64 / 1e6)
            }
            Live::OkPerSecond => {
                let slices = passed(t, r.now);
                let last = &slices[slices.len().saturating_sub((1_000_000 / BUCKET) as usize)..];
                let seconds = last.len() as f64 * BUCKET as f64 / 1e6;
                let ok: u64 = last.iter().map(|b| b.completions.ok).sum();
                (seconds > 0.0).then(|| ok as f64 / seconds)
            }
        }
    }

    /// The figure with its unit at the reading's playhead; a dash while the run has none.
    pub fn text(self, r: &Reading) -> String {
        self.shown(self.value(r))
    }

    /// A value of the figure with its unit; a dash for none.
    pub fn shown(self, value: Option<f64>) -> String {
        let Some(v) = value else {
            return match self {
                Live::Measure(Measure::FirstOpening) => "not yet".into(),
                _ => "\u{2014}".into(),
            };
        };
        let whole = v.round().max(0.0) as u64;
        match self {
            Live::Measure(Measure::FirstOpening) => clock((v * 1e6) as u64, None),
            Live::Measure(Measure::QueuePeak) | Live::Queue | Live::Arrived | Live::TimedOut => {
                requests(whole)
            }
            Live::Measure(Measure::LookupsAnswered | Measure::OkShare) => format!("{v:.0}%"),
            Live::Measure(Measure::Throughput { .. }) => format!("{v:.0} requests a second"),
            Live::InventoryCalls => {
                format!("{} call{}", count(whole), if whole == 1 { "" } else { "s" })
            }
            Live::OkPerSecond => format!("{v:.0} ok a second"),
            Live::Limit => format!("{} in flight", count(whole)),
            Live::Limited => format!("{} call{}", count(whole), if whole == 1 { "" } else { "s" }),
            Live::RetriesPerSecond => format!("{v:.0} a second"),
            Live::P50 | Live::P99 | Live::P99EndToEnd | Live::Recovered => {
                duration((v * 1e6).round() as u64)
            }
        }
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
                Piece::Live(Live::Measure(Measure::QueuePeak)),
                Piece::Text("."),
            ]
        );
        assert_eq!(
            pieces("{p99}{throughput(8,12)}").unwrap(),
            [
                Piece::Live(Live::P99),
                Piece::Live(Live::Measure(Measure::Throughput {
                    from: 8.0,
                    to: 12.0
                })),
            ]
        );
        assert_eq!(
            pieces("a {{brace}} b").unwrap(),
            [Piece::Text("a {"), Piece::Text("brace}"), Piece::Text(" b")]
        );
        assert_eq!(pieces("plain").unwrap(), [Piece::Text("plain")]);
        for (name, live) in NAMED {
            assert_eq!(Live::from_name(name), Ok(*live));
            assert_eq!(live.name(), *name);
        }
    }

    #[test]
    fn a_wrong_brace_or_name_says_what_is_allowed() {
        let e = pieces("the {queue-peek}").unwrap_err();
        assert!(e.contains("`queue-peek`") && e.contains("p99"), "{e}");
        assert!(pieces("a { b").unwrap_err().contains("no `}`"));
        assert!(pieces("a } b").unwrap_err().contains("no `{`"));
    }
}
