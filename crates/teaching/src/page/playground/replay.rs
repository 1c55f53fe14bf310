//! Reading a finished [`Trace`] at a playhead: what the views show at simulated time `at`.
//! The simulation always runs to the end; the replay only decides how much of it is visible.

use serde::{Deserialize, Serialize};

use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::model::{COUNTERS, LEVELS};
use crate::sim::trace::{
    BreakerChange, Bucket, Counter, LessonPercentiles, Level, Outcome, OutcomeCounts, Route, Trace,
    BUCKET,
};

/// The outcomes a run's counters show: the lesson's four always (so the lesson's scenarios
/// read the same every time), then any other outcome the run produced.
pub fn shown_outcomes(trace: &Trace) -> Vec<Outcome> {
    const LESSON: [Outcome; 4] = [
        Outcome::Ok,
        Outcome::Timeout,
        Outcome::CircuitOpen,
        Outcome::BulkheadFull,
    ];
    let mut shown = LESSON.to_vec();
    shown.extend(
        Outcome::ALL
            .into_iter()
            .filter(|o| !LESSON.contains(o) && *o != Outcome::Unfinished)
            .filter(|o| trace.outcomes.get(*o) > 0),
    );
    shown
}

/// The outcomes a lesson step counts: ok, then only those its runs produced, so a pattern
/// the lesson has not taught yet shows no counter at 0 (it appears with the step whose run
/// has it).
pub fn produced_outcomes(traces: &[&Trace]) -> Vec<Outcome> {
    let mut shown = vec![Outcome::Ok];
    shown.extend(Outcome::ALL.into_iter().filter(|&o| {
        o != Outcome::Ok && o != Outcome::Unfinished && traces.iter().any(|t| t.outcomes.get(o) > 0)
    }));
    shown
}

/// The timeline's length for a trace: whole slices up to and including the one of the last
/// event, and at least `duration`.
pub fn span(trace: &Trace, duration: Micros) -> Micros {
    (trace.end / BUCKET + 1)
        .saturating_mul(BUCKET)
        .max(duration.div_ceil(BUCKET) * BUCKET)
}

/// The breaker as it stood at the playhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreakerAt {
    /// Its state.
    pub state: BreakerState,
    /// When it entered that state (0 for the initial CLOSED).
    pub since: Micros,
    /// The last change at or before the playhead.
    pub last_change: Option<BreakerChange>,
}

/// Everything counted up to the playhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Frame {
    /// The playhead.
    pub at: Micros,
    /// Requests that arrived up to the playhead.
    pub arrived: u64,
    /// Requests finished up to the playhead, by outcome.
    pub finished: OutcomeCounts,
    /// Calls that reached inventory up to the playhead.
    pub inventory_calls: u64,
    /// Calls inventory's breaker refused up to the playhead, whether the request then ended
    /// `circuit_open` or got a fallback.
    pub breaker_refused: u64,
    /// Gauges (and counters) of the 100 ms slice holding the playhead.
    pub slice: Bucket,
    /// Calls reaching inventory per second, over the last second before the playhead.
    pub inventory_rate: u64,
    /// Inventory's servers at the playhead, when it has a capacity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub servers: Option<ServersAt>,
}

/// A dependency's servers at a playhead.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ServersAt {
    /// Calls it serves at once.
    pub slots: u32,
    /// Slots busy.
    pub busy: u32,
    /// Calls waiting in its queue.
    pub queued: u64,
    /// Calls served over the last second (throughput).
    pub served: u64,
    /// Of those, answers the caller still waited for (goodput).
    pub goodput: u64,
}

impl Frame {
    /// Clients still waiting at the playhead: arrived and not answered yet.
    pub fn waiting(&self) -> u64 {
        self.arrived.saturating_sub(self.finished.total())
    }
}

/// What a screen reader hears when the run pauses: the playhead, the requests so far and how
/// they ended (each of `outcomes` with a count), and the clients still waiting.
pub fn spoken_summary(f: &Frame, outcomes: &[Outcome], clock_start: Option<u64>) -> String {
    let counts: Vec<String> = outcomes
        .iter()
        .map(|&o| (o, f.finished.get(o)))
        .filter(|&(_, n)| n > 0)
        .map(|(o, n)| format!("{} {n}", crate::page::glossary::outcome_words(o)))
        .collect();
    let ended = if counts.is_empty() {
        "none answered yet".to_string()
    } else {
        counts.join(", ")
    };
    format!(
        "Paused at {}: {} requests arrived; {ended}; {} still waiting.",
        clock(f.at, clock_start),
        f.arrived,
        f.waiting()
    )
}

/// One route's requests up to a playhead, from the per-request log.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RouteAt {
    /// Arrived by the playhead.
    pub arrived: u64,
    /// Answered `ok` by the playhead.
    pub ok: u64,
    /// Arrived and not answered yet: their clients are still waiting.
    pub waiting: u64,
    /// End-to-end p99 of those answered, by the lesson's rule.
    pub p99: Option<Micros>,
}

/// The requests of `route` up to `at`; `None` when the log has none of that route.
pub fn route_at(trace: &Trace, route: Route, at: Micros) -> Option<RouteAt> {
    let mut seen = false;
    let mut r = RouteAt::default();
    let mut times = LessonPercentiles::default();
    for req in trace.requests.iter().filter(|q| q.route == route) {
        seen = true;
        if req.arrived > at {
            continue;
        }
        r.arrived += 1;
        match req.finished {
            Some(done) if done <= at => {
                r.ok += u64::from(req.outcome == Outcome::Ok);
                times.record(done - req.arrived);
            }
            _ => r.waiting += 1,
        }
    }
    r.p99 = times.percentiles().p99;
    seen.then_some(r)
}

/// The whole 100 ms slices of `trace` the playhead `at` has passed: those the counters count.
pub fn passed(trace: &Trace, at: Micros) -> &[Bucket] {
    let upto = usize::try_from(at / BUCKET)
        .unwrap_or(usize::MAX)
        .min(trace.series.len());
    &trace.series[..upto]
}

/// What `counter` had counted once the slices before `at` had passed; `None` when no layer
/// of the run keeps it.
pub fn counted_by(trace: &Trace, counter: Counter, at: Micros) -> Option<u64> {
    Some(trace.counted(counter)?.in_first(passed(trace, at).len()))
}

/// Each layer's count at `at` ([`counted_by`]), for the counters beside the timeline, in
/// [`COUNTERS`]' order. Empty when the run has no layer that counts (a layer that is off
/// counts nothing, and shows nothing).
pub fn layer_counts(trace: &Trace, at: Micros) -> Vec<(Counter, u64)> {
    COUNTERS
        .iter()
        .filter_map(|&counter| Some((counter, counted_by(trace, counter, at)?)))
        .collect()
}

/// Where `level` stood at `at`; `None` when no layer of the run keeps it.
pub fn level_at(trace: &Trace, level: Level, at: Micros) -> Option<u32> {
    Some(trace.level(level)?.at(at))
}

/// Each layer's level at `at` ([`level_at`]), for the readings beside the timeline, in
/// [`LEVELS`]' order. Empty when the run has no layer that keeps one.
pub fn layer_levels(trace: &Trace, at: Micros) -> Vec<(Level, u32)> {
    LEVELS
        .iter()
        .filter_map(|&level| Some((level, level_at(trace, level, at)?)))
        .collect()
}

/// Counts and gauges at `at`. The series has whole 100 ms slices: a slice counts once the
/// playhead has passed its end, and the gauges are those at the end of the last such slice.
pub fn frame(trace: &Trace, at: Micros) -> Frame {
    let upto = passed(trace, at).len();
    let mut f = Frame {
        at,
        ..Frame::default()
    };
    for b in &trace.series[..upto] {
        f.arrived += b.arrivals;
        f.finished.add_all(&b.completions);
        f.inventory_calls += b.inventory_calls;
        f.breaker_refused += b.breaker_rejections;
    }
    let per_second = (1_000_000 / BUCKET) as usize;
    f.inventory_rate = trace.series[upto.saturating_sub(per_second)..upto]
        .iter()
        .map(|b| b.inventory_calls)
        .sum();
    if let Some(b) = upto.checked_sub(1).and_then(|i| trace.series.get(i)) {
        f.slice = *b;
    }
    f.servers = trace
        .dependencies
        .first()
        .and_then(|d| d.load.as_ref())
        .map(|load| {
            let last = upto.checked_sub(1);
            let second = upto.saturating_sub(per_second)..upto;
            let sum = |series: &[u64]| -> u64 {
                series.get(second.clone()).map_or(0, |s| s.iter().sum())
            };
            ServersAt {
                slots: load.slots,
                busy: last
                    .and_then(|i| load.busy_per_bucket.get(i))
                    .copied()
                    .unwrap_or(0),
                queued: last
                    .and_then(|i| load.queue_per_bucket.get(i))
                    .copied()
                    .unwrap_or(0),
                served: sum(&load.served_per_bucket),
                goodput: sum(&load.goodput_per_bucket),
            }
        });
    f
}

/// The breaker's state at `at`, from its transitions; `None` when the run had no breaker
/// (`has_breaker` false).
pub fn breaker_at(trace: &Trace, has_breaker: bool, at: Micros) -> Option<BreakerAt> {
    if !has_breaker {
        return None;
    }
    let last = trace
        .transitions
        .iter()
        .take_while(|c| c.at <= at)
        .last()
        .copied();
    Some(BreakerAt {
        state: last.map_or(BreakerState::Closed, |c| c.to),
        since: last.map_or(0, |c| c.at),
        last_change: last,
    })
}

/// One stretch of the timeline's breaker band.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Band {
    /// Start.
    pub from: Micros,
    /// End (exclusive).
    pub to: Micros,
    /// The state over the stretch.
    pub state: BreakerState,
}

/// The breaker's states over `0..span` as consecutive stretches.
pub fn breaker_bands(trace: &Trace, span: Micros) -> Vec<Band> {
    let mut bands = Vec::new();
    let mut from = 0;
    let mut state = BreakerState::Closed;
    for change in &trace.transitions {
        let at = change.at.min(span);
        if at > from {
            bands.push(Band {
                from,
                to: at,
                state,
            });
        }
        from = at;
        state = change.to;
    }
    if span > from {
        bands.push(Band {
            from,
            to: span,
            state,
        });
    }
    bands
}

/// Formats a simulated time for the timeline: `m:ss.s` from the start, or a wall clock when
/// the scenario has one (`clock_start` in seconds after midnight).
pub fn clock(at: Micros, clock_start: Option<u64>) -> String {
    let tenths = at / 100_000;
    match clock_start {
        None => format!("{}.{} s", tenths / 10, tenths % 10),
        Some(start) => {
            let s = start + at / 1_000_000;
            format!(
                "{:02}:{:02}:{:02}.{}",
                (s / 3600) % 24,
                (s / 60) % 60,
                s % 60,
                tenths % 10
            )
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_frame_reads_inventorys_servers_when_it_has_a_capacity() {
        use crate::sim::scenario::Preset;
        let storm = crate::sim::model::run(&Preset::RetryStorm.config()).unwrap();
        let before = super::frame(&storm, 2_000_000).servers.unwrap();
        let after = super::frame(&storm, 10_000_000).servers.unwrap();
        assert_eq!(before.slots, 6);
        assert!(
            before.queued == 0 && before.goodput == before.served,
            "{before:?}"
        );
        // Down for good: every slot busy, a long queue, throughput without goodput.
        assert_eq!(after.busy, 6);
        assert!(
            after.queued > 100 && after.served > 100 && after.goodput == 0,
            "{after:?}"
        );
        let lesson =
            crate::sim::model::run(&Preset::Lesson(crate::sim::scenario::Scenario::Cb).config())
                .unwrap();
        assert_eq!(super::frame(&lesson, 5_000_000).servers, None);
    }

    use super::*;
    use crate::sim::model::run;
    use crate::sim::scenario::{Preset, Scenario};

    /// The counters beside the timeline count what each layer did by the playhead, by its
    /// counter's words; a run without such a layer shows none.
    #[test]
    fn a_layers_counts_show_what_it_did_by_the_playhead() {
        use crate::sim::model::{COPIES_SENT, COPIES_WON};
        let run = crate::page::lessons::test_runs::hedged_tail();
        let t = &run.trace;
        let half = t.series.len() / 2;
        let midway = layer_counts(t, half as Micros * BUCKET);
        let sent = t.counted(COPIES_SENT).unwrap();
        assert_eq!(
            midway,
            [
                (COPIES_SENT, sent.in_first(half)),
                (COPIES_WON, t.counted(COPIES_WON).unwrap().in_first(half)),
            ]
        );
        assert!(0 < midway[0].1 && midway[0].1 < sent.total, "{midway:?}");
        let at_end = layer_counts(t, t.series.len() as Micros * BUCKET);
        assert_eq!(at_end[0].1, sent.total);
        assert_eq!(layer_counts(t, 0)[0].1, 0, "nothing before the first slice");
        let plain = run_of(Scenario::None);
        assert!(layer_counts(&plain, plain.end).is_empty());
    }

    /// The readings beside the timeline show where each layer's level stood at the playhead:
    /// where it started before its first move, where its moves took it after; a run without
    /// such a layer shows none.
    #[test]
    fn a_layers_level_shows_where_it_stood_at_the_playhead() {
        use crate::sim::model::LIMIT;
        let t = run(&Preset::StoryAdaptiveLimit.config()).unwrap();
        let limit = t.level(LIMIT).unwrap();
        let first = limit.changes[0];
        let second = limit.changes[1];
        assert_eq!(layer_levels(&t, first.at - 1), [(LIMIT, limit.initial)]);
        assert_eq!(layer_levels(&t, first.at), [(LIMIT, first.value)]);
        assert_eq!(layer_levels(&t, second.at - 1), [(LIMIT, first.value)]);
        assert_eq!(layer_levels(&t, t.end), [(LIMIT, limit.last)]);
        assert_ne!(limit.initial, limit.last, "the story's limit moves");
        let plain = run_of(Scenario::None);
        assert!(layer_levels(&plain, plain.end).is_empty());
    }

    fn run_of(scenario: Scenario) -> Trace {
        run(&scenario.config()).unwrap()
    }

    #[test]
    fn the_breakers_refusals_count_whether_or_not_a_fallback_answered_them() {
        // Under Resilience4j the fallback on @CircuitBreaker answers every refused call, so no
        // request ends circuit_open; the breaker still refused them.
        let t = run(&Preset::NorthwindAsWrittenSeparate.config()).unwrap();
        let f = frame(&t, 45_000_000);
        assert_eq!(f.finished.circuit_open, 0);
        assert!(f.breaker_refused > 1_000, "{}", f.breaker_refused);
        assert!(f.finished.fallback >= f.breaker_refused, "{f:?}");
        // Without a fallback each refusal is a request answered circuit_open.
        let cfg = Scenario::Cb.config();
        let t = run(&cfg).unwrap();
        let end = frame(&t, Micros::MAX);
        assert!(end.breaker_refused > 0);
        assert_eq!(end.breaker_refused, t.outcomes.circuit_open);
    }

    #[test]
    fn the_summary_says_the_counts_at_the_playhead() {
        let cfg = Preset::StoryNone.config();
        let t = run(&cfg).unwrap();
        let f = frame(&t, cfg.traffic.duration);
        let said = spoken_summary(&f, &shown_outcomes(&t), None);
        assert!(said.starts_with("Paused at 12.0 s"), "{said}");
        assert!(said.contains(&format!("ok {}", t.outcomes.ok)), "{said}");
        assert!(
            said.contains(&format!("{} still waiting", t.outcomes.unfinished)),
            "{said}"
        );
        let start = spoken_summary(&frame(&t, 0), &shown_outcomes(&t), None);
        assert!(start.contains("none answered yet"), "{start}");
    }

    #[test]
    fn the_lookups_at_the_end_are_the_traces_own() {
        for preset in [
            Preset::StoryNone,
            Preset::StoryBulkhead,
            Preset::NorthwindShared,
        ] {
            let mut cfg = preset.config();
            cfg.run.record_requests = true;
            let t = run(&cfg).unwrap();
            let whole = t
                .routes
                .iter()
                .find(|r| r.route == Route::OrderHistory)
                .unwrap();
            let end = route_at(&t, Route::OrderHistory, t.end).unwrap();
            assert_eq!(end.arrived, whole.sent, "{preset:?}");
            assert_eq!(end.ok, whole.outcomes.ok, "{preset:?}");
            assert_eq!(end.waiting, whole.outcomes.unfinished, "{preset:?}");
            assert_eq!(end.p99, whole.end_to_end.p99, "{preset:?}");
            let early = route_at(
                &t,
                Route::OrderHistory,
                cfg.first().unwrap().faults.degrade_at.unwrap(),
            )
            .unwrap();
            assert!(
                early.arrived < end.arrived && early.ok <= end.ok,
                "{preset:?}"
            );
        }
        let lesson = run(&Scenario::None.config()).unwrap();
        assert_eq!(route_at(&lesson, Route::OrderHistory, lesson.end), None);
    }

    #[test]
    fn the_frame_at_the_end_counts_every_request() {
        for s in Preset::ALL {
            let cfg = s.config();
            let t = run(&cfg).unwrap();
            let end = span(&t, cfg.traffic.duration);
            let f = frame(&t, end);
            assert_eq!(f.arrived, t.sent, "{s:?}");
            // A run stopped at its duration leaves clients waiting: the frame counts them.
            let mut answered = t.outcomes;
            answered.unfinished = 0;
            assert_eq!(f.finished, answered, "{s:?}");
            assert_eq!(f.waiting(), t.outcomes.unfinished, "{s:?}");
            assert_eq!(frame(&t, 0).arrived, 0, "{s:?}");
            assert_eq!(frame(&t, 99_999).arrived, 0, "{s:?}");
        }
        let t = run(&Scenario::Cb.config()).unwrap();
        assert_eq!(frame(&t, 100_000).arrived, 10, "the first slice, 0..100 ms");
    }

    #[test]
    fn counts_grow_with_the_playhead() {
        let t = run(&Scenario::Cb.config()).unwrap();
        let mut last = 0;
        for at in (0..12_000_000).step_by(250_000) {
            let done = frame(&t, at).finished.total();
            assert!(done >= last);
            last = done;
        }
        let mid = frame(&t, 5_000_000);
        assert!(mid.arrived > 490 && mid.arrived < 510, "{}", mid.arrived);
        assert!(mid.slice.workers_busy > 0);
    }

    #[test]
    fn the_breaker_state_follows_its_transitions() {
        let t = run(&Scenario::Cb.config()).unwrap();
        let opened = t.first_open().unwrap();
        assert_eq!(
            breaker_at(&t, true, opened - 1).unwrap().state,
            BreakerState::Closed
        );
        let at = breaker_at(&t, true, opened).unwrap();
        assert_eq!((at.state, at.since), (BreakerState::Open, opened));
        assert_eq!(breaker_at(&t, false, opened), None);
        let bands = breaker_bands(&t, 12_000_000);
        assert_eq!(bands[0].from, 0);
        assert_eq!(bands[0].to, opened);
        assert_eq!(bands[1].state, BreakerState::Open);
        for pair in bands.windows(2) {
            assert_eq!(pair[0].to, pair[1].from);
            assert_ne!(pair[0].state, pair[1].state);
        }
        assert_eq!(bands.last().unwrap().to, 12_000_000);
    }

    #[test]
    fn clocks() {
        assert_eq!(clock(0, None), "0.0 s");
        assert_eq!(clock(12_345_678, None), "12.3 s");
        let ten_twelve = 10 * 3600 + 12 * 60;
        assert_eq!(clock(30_500_000, Some(ten_twelve)), "10:12:30.5");
        let saturday = Preset::Saturday.clock_start();
        assert_eq!(clock(0, saturday), "10:11:50.0");
        assert_eq!(
            clock(10_000_000, saturday),
            "10:12:00.0",
            "inventory turns slow"
        );
        assert_eq!(clock(70_000_000, saturday), "10:13:00.0");
        assert_eq!(
            clock(u64::MAX, saturday).len(),
            "hh:mm:ss.t".len(),
            "never panics"
        );
    }

    #[test]
    fn counters_show_the_lesson_four_and_whatever_else_the_run_produced() {
        let lesson = crate::sim::model::run(&crate::sim::scenario::Scenario::Cb.config()).unwrap();
        assert_eq!(
            shown_outcomes(&lesson),
            [
                Outcome::Ok,
                Outcome::Timeout,
                Outcome::CircuitOpen,
                Outcome::BulkheadFull
            ]
        );
        let mut more = lesson.clone();
        more.outcomes.shed = 3;
        assert_eq!(shown_outcomes(&more).last(), Some(&Outcome::Shed));
    }

    #[test]
    fn a_lesson_step_counts_ok_and_only_what_its_runs_produced() {
        let slow = crate::sim::model::run(&crate::sim::scenario::Scenario::None.config()).unwrap();
        assert_eq!(
            produced_outcomes(&[&slow]),
            [Outcome::Ok],
            "no breaker, no bulkhead: no counter for them"
        );
        let breaker = crate::sim::model::run(&crate::sim::scenario::Scenario::Cb.config()).unwrap();
        assert_eq!(
            produced_outcomes(&[&slow, &breaker]),
            [Outcome::Ok, Outcome::CircuitOpen, Outcome::Timeout],
            "either run's outcomes, in Outcome::ALL's order"
        );
    }
}
