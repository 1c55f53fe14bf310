//! Live numbers and a control inside a lesson's sentences. A paragraph's `{queue-peak}` shows
//! that figure of the step's run at the playhead, with its unit, and changes as the run plays
//! or is made again; `{control}` stands for the step's own "Try it" control, set inside the
//! sentence. `{{` and `}}` write a brace.

use super::predict::Measure;
use super::rules::{duration, Reading};
use crate::page::numbers::count;
use crate::page::replay::{clock, frame, passed};
use crate::sim::trace::BUCKET;

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
    ("queue", Live::Queue),
    ("arrived", Live::Arrived),
    ("timed-out", Live::TimedOut),
    ("p50", Live::P50),
    ("p99", Live::P99),
    ("p99-end-to-end", Live::P99EndToEnd),
    ("retries-per-second", Live::RetriesPerSecond),
    ("inventory-calls", Live::InventoryCalls),
    ("ok-per-second", Live::OkPerSecond),
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
            let names: Vec<&str> = NAMED.iter().map(|(n, _)| *n).collect();
            format!(
                "no live value is called `{{{name}}}`: one of {}, queue-peak, first-opening, \
                 lookups-answered, ok-share, throughput(FROM,TO), or {{control}} for the \
                 step's control",
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
            Live::Measure(Measure::FirstOpening) | Live::P50 | Live::P99 | Live::P99EndToEnd => {
                Quantity::Duration
            }
            Live::Measure(Measure::LookupsAnswered | Measure::OkShare) => Quantity::Percent,
            _ => Quantity::Count,
        }
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
        let Some(v) = self.value(r) else {
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
            Live::RetriesPerSecond => format!("{v:.0} a second"),
            Live::P50 | Live::P99 | Live::P99EndToEnd => duration((v * 1e6).round() as u64),
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
        assert!(e.contains("`{queue-peek}`") && e.contains("p99"), "{e}");
        assert!(pieces("a { b").unwrap_err().contains("no `}`"));
        assert!(pieces("a } b").unwrap_err().contains("no `{`"));
    }
}
