//! The latency histogram the page draws: finished requests up to the playhead, in logarithmic
//! buckets from 1 ms to 10 s, one stack per outcome, with the lesson's p50 and p99.

use serde::{Deserialize, Serialize};

use crate::sim::histogram::LogBuckets;
use crate::sim::latency::Micros;
use crate::sim::trace::{Outcome, Percentiles};

/// Buckets per power of ten on the histogram's axis.
pub const PER_DECADE: u32 = 10;

/// Which latency the histogram shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum LatencyKind {
    /// From when a worker takes the request: what the lesson's table prints.
    #[default]
    Service,
    /// From arrival, queue wait included: what the customer waits.
    EndToEnd,
}

impl LatencyKind {
    /// Name on the switch.
    pub fn label(self) -> &'static str {
        match self {
            LatencyKind::Service => "Service time (the lesson's measure)",
            LatencyKind::EndToEnd => "End-to-end time (with queue wait)",
        }
    }
}

/// The histogram's note on where refused requests are drawn: a refusal by the breaker or by
/// shedding takes no time, one by the bulkhead takes its wait for a permit (`bulkhead_wait`,
/// µs, when the run has a bulkhead); end to end, the queue wait comes on top.
pub fn refusal_note(kind: LatencyKind, bulkhead_wait: Option<Micros>) -> String {
    let mut note = "Refused requests sit where they ended: those refused by the open breaker \
                    and those shed, at once, in the first bar (1 ms and below)"
        .to_string();
    if let Some(wait) = bulkhead_wait {
        let wait = crate::page::numbers::duration(wait);
        note.push_str(&format!(
            "; those refused by the full bulkhead only after waiting {wait} for a permit, so \
             at {wait}, stacked with the calls answered as fast"
        ));
    }
    note.push_str(match kind {
        LatencyKind::Service => ".",
        LatencyKind::EndToEnd => ", plus whatever each waited in the queue for a worker first.",
    });
    note
}

/// One finished request as the histogram needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Finished {
    /// When it finished.
    pub at: Micros,
    /// How it ended.
    pub outcome: Outcome,
    /// Service time.
    pub service: Micros,
    /// End-to-end time.
    pub end_to_end: Micros,
    /// The arrival number it carries (what following a request names it by).
    pub id: u64,
}

impl Finished {
    /// Its latency of `kind`.
    pub fn latency(&self, kind: LatencyKind) -> Micros {
        match kind {
            LatencyKind::Service => self.service,
            LatencyKind::EndToEnd => self.end_to_end,
        }
    }
}

/// Counts by bucket and outcome, with the percentiles over all of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeHistogram {
    /// One set of buckets per outcome that occurred, in [`Outcome::ALL`] order.
    pub stacks: Vec<(Outcome, LogBuckets)>,
    /// The lesson's percentiles over every request counted.
    pub percentiles: Percentiles,
    /// Requests counted.
    pub total: u64,
}

impl OutcomeHistogram {
    /// Its shape in words, for those who cannot see the bars: the tallest bar with its range
    /// and count, and the share of requests that took a second or more ("the tallest bar, from
    /// 3.98 s to 5.01 s, holds 412 requests; 31% took 1 s or more"). Empty with nothing
    /// counted.
    pub fn shape(&self) -> String {
        let Some((_, first)) = self.stacks.first() else {
            return String::new();
        };
        let mut bars = vec![0u64; first.counts().len()];
        for (_, buckets) in &self.stacks {
            for (bar, count) in bars.iter_mut().zip(buckets.counts()) {
                *bar += count;
            }
        }
        // The first of the tallest bars, the fastest, when several tie.
        let Some((tallest, &count)) = bars
            .iter()
            .enumerate()
            .max_by_key(|&(i, c)| (*c, std::cmp::Reverse(i)))
        else {
            return String::new();
        };
        if count == 0 || self.total == 0 {
            return String::new();
        }
        let (lo, hi) = first.edges_ms(tallest);
        let ms = |v: f64| crate::page::numbers::duration((v * 1000.0).round() as Micros);
        let slow: u64 = bars
            .iter()
            .enumerate()
            .filter(|(i, _)| first.edges_ms(*i).0 >= 999.999)
            .map(|(_, c)| c)
            .sum();
        let share = slow as f64 * 100.0 / self.total as f64;
        let share = if slow > 0 && share < 1.0 {
            "under 1%".to_string()
        } else {
            format!("{share:.0}%")
        };
        format!(
            "the tallest bar, from {} to {}, holds {} request{}; {share} took 1 s or more",
            ms(lo),
            ms(hi),
            crate::page::numbers::count(count),
            if count == 1 { "" } else { "s" }
        )
    }
}

/// The histogram of `kind` latency over the requests of `log` finished at or before `at`.
pub fn histogram_until<'a>(
    log: impl IntoIterator<Item = &'a Finished>,
    at: Micros,
    kind: LatencyKind,
) -> OutcomeHistogram {
    let mut stacks: Vec<(Outcome, LogBuckets)> = Outcome::ALL
        .iter()
        .map(|&o| (o, LogBuckets::new(PER_DECADE)))
        .collect();
    let mut values = Vec::new();
    for r in log.into_iter().filter(|r| r.at <= at) {
        let latency = r.latency(kind);
        if let Some((_, buckets)) = stacks.iter_mut().find(|(o, _)| *o == r.outcome) {
            buckets.record(latency);
        }
        values.push(latency);
    }
    stacks.retain(|(_, b)| b.total() > 0);
    OutcomeHistogram {
        stacks,
        total: values.len() as u64,
        percentiles: Percentiles::lesson_rule(values),
    }
}

/// The request a click at `latency` on the histogram of `kind` picks: the slowest in that bar
/// of the requests finished by `until` (what the bars count), ties to the earlier arrival.
pub fn in_bar(log: &[Finished], kind: LatencyKind, latency: Micros, until: Micros) -> Option<u64> {
    let bars = LogBuckets::new(PER_DECADE);
    let bar = bars.index_of(latency);
    log.iter()
        .filter(|f| f.at <= until && bars.index_of(f.latency(kind)) == bar)
        .min_by_key(|f| {
            let arrived = f.at.saturating_sub(f.end_to_end);
            (std::cmp::Reverse(f.latency(kind)), arrived, f.id)
        })
        .map(|f| f.id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shape_says_the_tallest_bar_and_the_share_over_a_second() {
        let ms = 1_000;
        let finished = |latency: Micros, outcome| Finished {
            at: latency,
            service: latency,
            end_to_end: latency,
            outcome,
            id: 0,
        };
        // 3 fast at 40 ms (one bar), 2 timed out at 4.1 s, 1 at 300 ms.
        let log = [
            finished(40 * ms, Outcome::Ok),
            finished(41 * ms, Outcome::Ok),
            finished(42 * ms, Outcome::Ok),
            finished(4_100 * ms, Outcome::Timeout),
            finished(4_150 * ms, Outcome::Timeout),
            finished(300 * ms, Outcome::Ok),
        ];
        let h = histogram_until(&log, Micros::MAX, LatencyKind::Service);
        let shape = h.shape();
        assert!(
            shape.starts_with("the tallest bar, from 40 ms to 50 ms, holds 3 requests"),
            "{shape}"
        );
        assert!(shape.ends_with("33% took 1 s or more"), "{shape}");
        assert_eq!(histogram_until(&log, 0, LatencyKind::Service).shape(), "");
    }

    #[test]
    fn a_click_on_a_bar_picks_its_slowest_request_finished_by_the_playhead() {
        let record = |id, arrived, started, finished| crate::sim::trace::RequestRecord {
            arrived,
            started: Some(started),
            finished: Some(finished),
            outcome: Outcome::Ok,
            route: crate::sim::trace::Route::Orders,
            id,
            retries: 0,
        };
        let ms = 1_000;
        let log = [
            // End to end 4.1 s and 4.2 s (one bar: 10 per decade), 3.0 s; in service 40 ms.
            record(1, 0, 4_060 * ms, 4_100 * ms),
            record(2, 0, 4_160 * ms, 4_200 * ms),
            record(3, 0, 2_960 * ms, 3_000 * ms),
            record(4, 10 * ms, 20 * ms, 60 * ms),
        ];
        let end = 10_000 * ms;
        let log = crate::page::requests::finished(&crate::sim::trace::Trace {
            requests: log.to_vec(),
            ..Default::default()
        });
        assert_eq!(
            in_bar(&log, LatencyKind::EndToEnd, 4_150 * ms, end),
            Some(2)
        );
        assert_eq!(
            in_bar(&log, LatencyKind::EndToEnd, 3_000 * ms, end),
            Some(3)
        );
        // Before 4.2 s only the first had finished.
        assert_eq!(
            in_bar(&log, LatencyKind::EndToEnd, 4_150 * ms, 4_150 * ms),
            Some(1)
        );
        // In service every one took 40 ms: the slowest of equals is the first to arrive.
        assert_eq!(in_bar(&log, LatencyKind::Service, 40 * ms, end), Some(1));
        assert_eq!(in_bar(&log, LatencyKind::Service, 900 * ms, end), None);
    }

    #[test]
    fn the_note_puts_bulkhead_refusals_at_their_wait() {
        let cfg = crate::sim::scenario::Scenario::Bulkhead.config();
        let wait = cfg
            .first_stack()
            .unwrap()
            .bulkhead
            .clone()
            .unwrap()
            .max_wait;
        let with = refusal_note(LatencyKind::Service, Some(wait));
        assert!(
            with.contains("refused by the full bulkhead") && with.contains("50 ms"),
            "{with}"
        );
        let without = refusal_note(LatencyKind::Service, None);
        assert!(!without.contains("full bulkhead"), "{without}");
        assert!(refusal_note(LatencyKind::EndToEnd, None).contains("queue"));
    }

    fn log() -> Vec<Finished> {
        (0..100)
            .map(|i| Finished {
                at: i * 1_000,
                outcome: if i % 4 == 0 {
                    Outcome::Timeout
                } else {
                    Outcome::Ok
                },
                service: 40_000 + i,
                end_to_end: 1_000_000 + i,
                id: i,
            })
            .collect()
    }

    #[test]
    fn only_requests_finished_by_the_playhead_count() {
        let log = log();
        let h = histogram_until(&log, 49_000, LatencyKind::Service);
        assert_eq!(h.total, 50);
        let timeouts = h
            .stacks
            .iter()
            .find(|(o, _)| *o == Outcome::Timeout)
            .unwrap();
        assert_eq!(timeouts.1.total(), 13);
        assert_eq!(
            h.stacks.len(),
            2,
            "outcomes that did not occur are left out"
        );
        assert_eq!(histogram_until(&log, 0, LatencyKind::Service).total, 1);
    }

    #[test]
    fn the_switch_picks_service_or_end_to_end() {
        let log = log();
        let s = histogram_until(&log, u64::MAX, LatencyKind::Service);
        let e = histogram_until(&log, u64::MAX, LatencyKind::EndToEnd);
        assert_eq!(s.percentiles.p50, Some(40_050));
        assert_eq!(e.percentiles.p99, Some(1_000_099));
        assert_ne!(s.stacks, e.stacks);
    }
}
