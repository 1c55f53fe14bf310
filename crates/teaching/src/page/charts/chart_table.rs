//! The charts as tables of words, for those who cannot see them: each chart's parts (the
//! histogram's bars, the load chart's seconds, the breaker's states) as rows a keyboard
//! reads one at a time and a data table shows on demand, and the sentences that describe
//! the load chart and the breaker's band as they stand at the playhead.

use super::glossary::outcome_words;
use super::latency::OutcomeHistogram;
use super::numbers::{count, duration};
use crate::page::replay::{clock, Band};
use crate::page::runs::Run;
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::trace::{Bucket, Outcome, BUCKET};

/// A chart's parts as rows: the first cell names the part, the rest are its values under
/// `columns`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChartTable {
    /// What the table shows, as its caption.
    pub caption: String,
    /// What one row is called when read ("bar", "second", "state").
    pub part: &'static str,
    /// The heading of each column, the first naming the parts.
    pub columns: Vec<String>,
    /// The rows, each with one cell per column.
    pub rows: Vec<Vec<String>>,
    /// Whether a reading leaves out the values that are 0 (a bar's absent outcomes).
    pub quiet_zeros: bool,
}

impl ChartTable {
    /// Row `index` in one sentence ("bar 3 of 9, 3.98 s to 5.01 s: timed out: 412"); `None`
    /// past the end.
    pub fn reading(&self, index: usize) -> Option<String> {
        let row = self.rows.get(index)?;
        let values: Vec<String> = self
            .columns
            .iter()
            .zip(row)
            .skip(1)
            .filter(|(_, value)| !(self.quiet_zeros && value.as_str() == "0"))
            .map(|(column, value)| format!("{column}: {value}"))
            .collect();
        Some(format!(
            "{} {} of {}, {}: {}",
            self.part,
            index + 1,
            self.rows.len(),
            row.first().map_or("", String::as_str),
            values.join(", ")
        ))
    }
}

/// The new position after `key`, among `rows` parts, from `at` (none yet: the first key
/// lands on the first part, or the last for End and the backward keys).
pub fn moved(key: &str, at: Option<usize>, rows: usize) -> Option<usize> {
    let last = rows.checked_sub(1)?;
    let at = at.map(|i| i.min(last));
    Some(match key {
        "ArrowRight" | "ArrowDown" => at.map_or(0, |i| (i + 1).min(last)),
        "ArrowLeft" | "ArrowUp" => at.map_or(last, |i| i.saturating_sub(1)),
        "Home" => 0,
        "End" => last,
        _ => return None,
    })
}

/// The histogram's bars that hold a request, each with its count by outcome.
pub fn histogram_table(histogram: &OutcomeHistogram, what: &str) -> ChartTable {
    let outcomes: Vec<Outcome> = histogram.stacks.iter().map(|(o, _)| *o).collect();
    let mut columns = vec!["latency".to_string()];
    columns.extend(outcomes.iter().map(|&o| outcome_words(o).to_string()));
    columns.push("all".into());
    let mut rows = Vec::new();
    if let Some((_, first)) = histogram.stacks.first() {
        for bar in 0..first.counts().len() {
            let counts: Vec<u64> = histogram
                .stacks
                .iter()
                .map(|(_, b)| b.counts()[bar])
                .collect();
            let all: u64 = counts.iter().sum();
            if all == 0 {
                continue;
            }
            let (lo, hi) = first.edges_ms(bar);
            let mut row = vec![format!("{} to {}", bar_edge(lo), bar_edge(hi))];
            row.extend(counts.iter().map(|&c| count(c)));
            row.push(count(all));
            rows.push(row);
        }
    }
    ChartTable {
        caption: format!(
            "{what}: the {} finished requests by bar and outcome",
            count(histogram.total)
        ),
        part: "bar",
        columns,
        rows,
        quiet_zeros: true,
    }
}

/// A bar's edge: a tenth of a millisecond under 10 ms (the first bars are narrower than one).
fn bar_edge(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.1} ms")
    } else {
        duration((ms * 1000.0).round() as Micros)
    }
}

/// One second of a run: its counters summed, its gauges as they stood at its end.
struct Second<'a> {
    /// Its end.
    to: Micros,
    slices: &'a [Bucket],
}

impl Second<'_> {
    fn sum(&self, value: impl Fn(&Bucket) -> u64) -> u64 {
        self.slices.iter().map(value).sum()
    }

    fn last(&self) -> Bucket {
        self.slices.last().copied().unwrap_or_default()
    }
}

/// The whole seconds of `run` up to `until`, and the one it is in, begun.
fn seconds(run: &Run, until: Micros) -> impl Iterator<Item = Second<'_>> {
    let slices = usize::try_from(until.div_ceil(BUCKET))
        .unwrap_or(usize::MAX)
        .min(run.trace.series.len());
    let per_second = (1_000_000 / BUCKET) as usize;
    run.trace.series[..slices]
        .chunks(per_second)
        .enumerate()
        .map(move |(n, slices)| Second {
            to: (n * per_second + slices.len()) as Micros * BUCKET,
            slices,
        })
}

/// The outcomes the load chart stacks for `run`.
fn finishing(run: &Run) -> Vec<Outcome> {
    Outcome::ALL
        .into_iter()
        .filter(|&o| o != Outcome::Unfinished && run.trace.outcomes.get(o) > 0)
        .collect()
}

/// The load chart up to `until`, a row per second: arrivals and finished requests by outcome
/// in it, calls to inventory, and the workers, the queue and the gateway's pool at its end.
pub fn load_table(run: &Run, until: Micros) -> ChartTable {
    let outcomes = finishing(run);
    let gateway = run.config.gateway.is_some();
    let mut columns = vec!["second".to_string(), "arrived".to_string()];
    columns.extend(outcomes.iter().map(|&o| outcome_words(o).to_string()));
    columns.extend([
        "calls to inventory".to_string(),
        format!("workers busy (of {})", run.config.service.threads),
        "queue".to_string(),
    ]);
    if gateway {
        columns.push("gateway pool in use".into());
    }
    let rows = seconds(run, until)
        .map(|second| {
            let from = second
                .to
                .saturating_sub(second.slices.len() as Micros * BUCKET);
            let mut row = vec![
                format!("{} to {}", clock(from, None), clock(second.to, None)),
                count(second.sum(|b| b.arrivals)),
            ];
            row.extend(
                outcomes
                    .iter()
                    .map(|&o| count(second.sum(|b| b.completions.get(o)))),
            );
            let end = second.last();
            row.extend([
                count(second.sum(|b| b.inventory_calls)),
                count(u64::from(end.workers_busy)),
                count(end.queue_len),
            ]);
            if gateway {
                row.push(count(u64::from(end.gateway_in_use)));
            }
            row
        })
        .collect();
    ChartTable {
        caption: "Load over time: each second's requests, calls to inventory, workers and queue"
            .into(),
        part: "second",
        columns,
        rows,
        quiet_zeros: false,
    }
}

/// The load chart in a sentence at `until`: the last second's figures and the queue's peak so
/// far ("In the second to 12.0 s: 100 arrived, ok 24, timed out 0; 24 calls reached
/// inventory; 32 of 32 workers busy, 611 queued (the most so far: 611, at 12.0 s)").
pub fn load_description(run: &Run, until: Micros) -> String {
    let Some(last) = seconds(run, until).last() else {
        return "Load over time: nothing has happened yet.".into();
    };
    let finished: Vec<String> = finishing(run)
        .into_iter()
        .map(|o| {
            format!(
                "{} {}",
                outcome_words(o),
                count(last.sum(|b| b.completions.get(o)))
            )
        })
        .collect();
    let end = last.last();
    let slices = usize::try_from(until.div_ceil(BUCKET))
        .unwrap_or(usize::MAX)
        .min(run.trace.series.len());
    let peak = run.trace.series[..slices]
        .iter()
        .enumerate()
        .max_by_key(|(i, b)| (b.queue_len, std::cmp::Reverse(*i)));
    let peak = match peak {
        Some((i, b)) if b.queue_len > 0 => format!(
            " (the most so far: {}, at {})",
            count(b.queue_len),
            clock((i as Micros + 1) * BUCKET, None)
        ),
        _ => String::new(),
    };
    let gateway = if run.config.gateway.is_some() {
        format!("; gateway pool {} in use", end.gateway_in_use)
    } else {
        String::new()
    };
    format!(
        "Load in the second to {}: {} arrived{}{}; {} calls reached inventory; {} of {} workers busy, {} queued{peak}{gateway}.",
        clock(last.to, None),
        count(last.sum(|b| b.arrivals)),
        if finished.is_empty() { "" } else { ", " },
        finished.join(", "),
        count(last.sum(|b| b.inventory_calls)),
        end.workers_busy,
        run.config.service.threads,
        count(end.queue_len),
    )
}

/// How the diagram and the band name a state.
pub fn state_name(state: BreakerState) -> &'static str {
    match state {
        BreakerState::Closed => "CLOSED",
        BreakerState::Open => "OPEN",
        BreakerState::HalfOpen => "HALF_OPEN",
    }
}

/// The breaker's band in words: each stretch with its state ("The breaker's state over
/// time: CLOSED from 0.0 s to 3.6 s, OPEN from 3.6 s to 5.6 s, HALF_OPEN from 5.6 s").
pub fn band_description(
    what: &str,
    bands: &[Band],
    until: Micros,
    clock_start: Option<u64>,
) -> String {
    let stretches: Vec<String> = bands
        .iter()
        .map(|b| {
            if b.to >= until {
                format!(
                    "{} from {}",
                    state_name(b.state),
                    clock(b.from, clock_start)
                )
            } else {
                format!(
                    "{} from {} to {}",
                    state_name(b.state),
                    clock(b.from, clock_start),
                    clock(b.to, clock_start)
                )
            }
        })
        .collect();
    format!("{what}: {}.", stretches.join(", "))
}

/// The breaker's three states up to `until`: whether it is in it now, how long it has spent
/// in it, how many times it entered it, and the arrow that leaves it.
pub fn diagram_table(
    bands: &[Band],
    until: Micros,
    arrows: &[String; 4],
    now: BreakerState,
) -> ChartTable {
    let states = [
        (BreakerState::Closed, arrows[0].clone()),
        (BreakerState::Open, arrows[1].clone()),
        (
            BreakerState::HalfOpen,
            format!("to CLOSED: {}; to OPEN: {}", arrows[2], arrows[3]),
        ),
    ];
    let rows = states
        .into_iter()
        .map(|(state, leaves)| {
            let mine = bands.iter().filter(|b| b.state == state && b.from <= until);
            let spent: Micros = mine
                .clone()
                .map(|b| b.to.min(until).saturating_sub(b.from))
                .sum();
            let entered = mine.filter(|b| b.from > 0).count() as u64;
            vec![
                state_name(state).to_string(),
                if state == now { "yes" } else { "no" }.to_string(),
                duration(spent),
                count(entered),
                leaves,
            ]
        })
        .collect();
    ChartTable {
        caption: "The breaker's states: time in each so far, and the arrows that leave it".into(),
        part: "state",
        columns: ["state", "now", "time in it", "times entered", "leaves"]
            .map(String::from)
            .to_vec(),
        rows,
        quiet_zeros: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::latency::{histogram_until, LatencyKind};
    use crate::sim::scenario::Scenario;

    fn run(scenario: Scenario) -> Run {
        Run::of(scenario.config()).expect("runs")
    }

    #[test]
    fn a_histogram_row_counts_its_bar_by_outcome() {
        let run = run(Scenario::Cb);
        let h = histogram_until(&run.finished, run.span, LatencyKind::Service);
        let table = histogram_table(&h, "Service time");
        let all = table.columns.len() - 1;
        let total: u64 = table
            .rows
            .iter()
            .map(|r| r[all].replace(',', "").parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, h.total);
        assert!(table.rows.iter().all(|r| r[all] != "0"));
        let first = table.reading(0).unwrap();
        assert!(
            first.starts_with(&format!("bar 1 of {}, ", table.rows.len())),
            "{first}"
        );
        assert!(!first.contains(" 0,") && !first.ends_with(" 0"), "{first}");
        assert_eq!(table.reading(table.rows.len()), None);
    }

    #[test]
    fn the_load_table_has_a_row_per_second_up_to_the_playhead() {
        let run = run(Scenario::None);
        let table = load_table(&run, 3_050_000);
        assert_eq!(table.rows.len(), 4, "three whole seconds and the one begun");
        assert_eq!(table.rows[0][0], "0.0 s to 1.0 s");
        assert_eq!(table.rows[3][0], "3.0 s to 3.1 s");
        let arrived: u64 = table
            .rows
            .iter()
            .map(|r| r[1].replace(',', "").parse::<u64>().unwrap())
            .sum();
        let expected: u64 = run.trace.series[..31].iter().map(|b| b.arrivals).sum();
        assert_eq!(arrived, expected);
        let reading = table.reading(1).unwrap();
        assert!(
            reading.starts_with("second 2 of 4, 1.0 s to 2.0 s: arrived: "),
            "{reading}"
        );
        assert!(reading.ends_with("queue: 0"), "{reading}");
    }

    #[test]
    fn the_load_description_reads_the_last_second_and_the_queue_peak() {
        let run = run(Scenario::None);
        let at_12 = load_description(&run, 12_000_000);
        let peak = run.trace.series[..120]
            .iter()
            .map(|b| b.queue_len)
            .max()
            .unwrap();
        assert!(peak > 0);
        assert!(
            at_12.starts_with("Load in the second to 12.0 s: "),
            "{at_12}"
        );
        assert!(
            at_12.contains(&format!("the most so far: {}", count(peak))),
            "{at_12}"
        );
        assert_eq!(
            load_description(&run, 0),
            "Load over time: nothing has happened yet."
        );
    }

    #[test]
    fn the_band_and_the_states_say_where_the_breaker_was() {
        let bands = [
            Band {
                from: 0,
                to: 3_600_000,
                state: BreakerState::Closed,
            },
            Band {
                from: 3_600_000,
                to: 5_600_000,
                state: BreakerState::Open,
            },
            Band {
                from: 5_600_000,
                to: 9_000_000,
                state: BreakerState::HalfOpen,
            },
        ];
        assert_eq!(
            band_description("The breaker's state over time", &bands, 9_000_000, None),
            "The breaker's state over time: CLOSED from 0.0 s to 3.6 s, OPEN from 3.6 s to 5.6 s, HALF_OPEN from 5.6 s."
        );
        let arrows = ["a".into(), "b".into(), "c".into(), "d".into()];
        let table = diagram_table(&bands, 6_000_000, &arrows, BreakerState::HalfOpen);
        assert_eq!(
            table.reading(1).unwrap(),
            "state 2 of 3, OPEN: now: no, time in it: 2 s, times entered: 1, leaves: b"
        );
        assert_eq!(table.rows[2][2], "400 ms");
        assert_eq!(
            table.rows[0][3], "0",
            "closed from the start is not an entry"
        );
    }

    #[test]
    fn the_keys_walk_the_parts_and_stop_at_the_ends() {
        assert_eq!(moved("ArrowRight", None, 5), Some(0));
        assert_eq!(moved("ArrowLeft", None, 5), Some(4));
        assert_eq!(moved("ArrowRight", Some(1), 5), Some(2));
        assert_eq!(moved("ArrowDown", Some(4), 5), Some(4));
        assert_eq!(moved("ArrowUp", Some(0), 5), Some(0));
        assert_eq!(moved("Home", Some(3), 5), Some(0));
        assert_eq!(moved("End", None, 5), Some(4));
        // A table that shrank (the playhead went back) keeps the position inside it.
        assert_eq!(moved("ArrowLeft", Some(9), 5), Some(3));
        assert_eq!(moved("ArrowRight", None, 0), None);
        assert_eq!(moved("x", Some(1), 5), None);
    }
}
