//! "What to notice" rules: each reads one run (its Trace, its config and its timeline marks)
//! up to the playhead and says one sentence whose figures are that run's at that moment, the
//! same the counters beside it show. A rule says nothing until the run has reached what it
//! describes, and nothing at all before the trouble starts, so a step never tells its outcome
//! before it plays. A rule with nothing to read in the run (a breaker rule on a run without
//! one) says nothing.

use crate::page::glossary::outcome_words;
use crate::page::markers::{Marker, MarkerKind};
use crate::page::replay::{clock, frame, passed, route_at, Frame, RouteAt};
use crate::page::runs::Run;
use crate::resilience::worst_case::{Backoff, WorstCaseInput};
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::model::{SimConfig, COPIES_SENT, COPIES_WON, LIMIT};
use crate::sim::trace::{Bucket, LessonPercentiles, Outcome, Route, Trace, BUCKET};

/// One thing a step asks the class to notice: a row of [`NOTICES`], with its window when it
/// is read over one (`throughput(8,12)`).
#[derive(Clone, Copy)]
pub struct Rule {
    notice: &'static Notice,
    window: Window,
}

/// A rule of `@notice`: its name in a lesson file and the sentence it says of a run.
pub struct Notice {
    /// Its name (`queue-peak`); a windowed one is written with its window (`throughput(8,12)`).
    pub name: &'static str,
    /// Whether it reads the run over a window, `FROM` to `TO` seconds.
    pub windowed: bool,
    /// Its sentence of the run at the reading's playhead (once the trouble has started and a
    /// slice has passed), or `None` when the run has nothing for it yet.
    say: fn(&Reading, &Seen, Window) -> Option<String>,
}

/// The window a rule or a figure is read over, `FROM` to `TO` seconds (`(0, 0)` for one read
/// up to the playhead).
pub type Window = (f64, f64);

/// What every rule reads of a run at the playhead.
#[derive(Clone, Copy)]
struct Seen<'a> {
    run: &'a Run,
    t: &'a Trace,
    cfg: &'a SimConfig,
    passed: &'a [Bucket],
    f: Frame,
}

impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.notice.name == other.notice.name && self.window == other.window
    }
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.name())
    }
}

impl Rule {
    /// The rule read up to the playhead.
    pub const fn of(notice: &'static Notice) -> Rule {
        Rule {
            notice,
            window: (0.0, 0.0),
        }
    }

    /// The windowed rule read from `from` to `to` seconds.
    pub const fn over(notice: &'static Notice, from: f64, to: f64) -> Rule {
        Rule {
            notice,
            window: (from, to),
        }
    }

    /// Its row.
    pub fn notice(self) -> &'static Notice {
        self.notice
    }

    /// The window it reads, seconds (`(0, 0)` for one read up to the playhead).
    pub fn window(self) -> Window {
        self.window
    }
}

/// Every rule, in the order `docs/lesson-format.md` lists them.
pub const NOTICES: [&Notice; 27] = [
    &WORKERS_FULL,
    &QUEUE_PEAK,
    &DRAIN,
    &GATEWAY_FULL,
    &THROUGHPUT,
    &CATALOG_ANSWERED,
    &OUTCOMES,
    &INVENTORY_LOAD,
    &LATENCY,
    &LONGEST_SERVICE,
    &WORST_CASE,
    &BREAKER_OPENS,
    &BREAKER_CYCLE,
    &BULKHEAD_CAP,
    &HISTORY_ANSWERED,
    &STILL_WAITING,
    &LOOKUPS_ANSWERED,
    &LOOKUPS_SAVED,
    &RETRIES,
    &SHED,
    &RATE_LIMIT,
    &ADAPTIVE_LIMIT,
    &HEDGES,
    &STALE_WORK,
    &DUPLICATES,
    &FALLBACK,
    &CONFLICTS,
];

pub use crate::page::numbers::{count, duration};

fn times(n: u64) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{} times", count(n))
    }
}

/// A part of a whole as a sentence says it: "all 312 attempts", "none of the 312
/// attempts", or "107 of 312 attempts (34%)"; `noun` may be empty.
fn of_whole(part: u64, whole: u64, noun: &str) -> String {
    share(part, whole, noun, false)
}

/// The same of a whole that belongs to someone: "all 631 of its lookups", "none of its 410
/// lookups", "274 of its 410 lookups (67%)".
fn of_its(part: u64, whole: u64, noun: &str) -> String {
    share(part, whole, noun, true)
}

/// "All" for a whole, "none" for nothing, else the part with its share.
fn share(part: u64, whole: u64, noun: &str, its: bool) -> String {
    let noun = if noun.is_empty() {
        String::new()
    } else {
        format!(" {noun}")
    };
    let (whole_n, of) = (count(whole), if its { "of its " } else { "of " });
    if whole > 0 && part >= whole {
        let its = if its { " of its" } else { "" };
        format!("all {whole_n}{its}{noun}")
    } else if part == 0 {
        format!(
            "none {}{whole_n}{noun}",
            if its { "of its " } else { "of the " }
        )
    } else {
        let pct = percent(part, whole);
        format!("{} {of}{whole_n}{noun} ({pct})", count(part))
    }
}

/// "No call was", "1 call was", "12 calls were": the start of a sentence counting calls.
fn calls_were(n: u64) -> String {
    match n {
        0 => "No call was".into(),
        1 => "1 call was".into(),
        n => format!("{} calls were", count(n)),
    }
}

/// A count that may be nothing: "none" for 0.
fn count_or_none(n: u64) -> String {
    if n == 0 {
        "none".into()
    } else {
        count(n)
    }
}

/// What became of `GET /catalog` by `at`: a share says "all" or "none" for a whole or
/// nothing, and "only" just before a part of it.
fn catalog_sentence(at: &str, answered: u64, sent: u64, refused: u64) -> String {
    if answered >= sent {
        format!(
            "GET /catalog never calls inventory, and by {at} all {} of its requests were \
             answered.",
            count(sent)
        )
    } else if answered == 0 {
        format!(
            "GET /catalog never calls inventory, yet by {at} none of its {} requests were \
             answered; {} got Kong's 503.",
            count(sent),
            count(refused)
        )
    } else {
        format!(
            "GET /catalog never calls inventory, yet by {at} only {} of its {} requests were \
             answered; {} got Kong's 503.",
            percent(answered, sent),
            count(sent),
            count(refused)
        )
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    let p = part as f64 * 100.0 / whole as f64;
    if p > 0.0 && p < 1.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.0}%")
    }
}

/// One run, read for the rules at one moment.
pub struct Reading<'a> {
    /// The run.
    pub run: &'a Run,
    /// The playhead: the rules read the run up to here.
    pub now: Micros,
    /// Run B of a step that compares, when it has one.
    pub b: Option<&'a Run>,
}

/// "107 of 312 answered (34%), end-to-end p99 7.3 s": how one route's requests fared so far.
fn route_fared(r: &RouteAt) -> String {
    let p99 = r.p99.map_or("none answered yet".to_string(), |p| {
        format!("end-to-end p99 {}", duration(p))
    });
    format!("{} answered, {p99}", of_whole(r.ok, r.arrived, ""))
}

impl Reading<'_> {
    fn at(&self, m: Micros) -> String {
        clock(m, None)
    }

    /// The counts at the playhead, exactly as the counters show them.
    fn frame(&self) -> Frame {
        frame(&self.run.trace, self.now)
    }

    /// The whole 100 ms slices the playhead has passed (those the counters count).
    fn passed(&self) -> &[Bucket] {
        passed(&self.run.trace, self.now)
    }

    /// The end of the last slice passed: the moment the figures are taken at.
    fn moment(&self) -> Micros {
        self.passed().len() as Micros * BUCKET
    }

    /// The first mark of `kind` inside the slices passed (so a sentence never names an event
    /// whose counts the counters do not hold yet).
    fn mark(&self, kind: MarkerKind) -> Option<Micros> {
        self.run
            .markers
            .iter()
            .filter(|m: &&Marker| m.at < self.moment())
            .find(|m| m.kind == kind)
            .map(|m| m.at)
    }

    /// When inventory turned sick, if the run has such a moment (passed or not).
    fn sick_at(&self) -> Option<Micros> {
        self.run
            .markers
            .iter()
            .find(|m| m.kind == MarkerKind::Degraded)
            .map(|m| m.at)
    }

    /// Slices `from..to` of the series, clipped to the slices passed.
    fn slices(&self, from: Micros, to: Micros) -> &[Bucket] {
        let passed = self.passed();
        let a = usize::try_from(from / BUCKET)
            .unwrap_or(usize::MAX)
            .min(passed.len());
        let b = usize::try_from(to / BUCKET)
            .unwrap_or(usize::MAX)
            .clamp(a, passed.len());
        &passed[a..b]
    }

    /// "By 12 s": the moment the figures are taken at.
    fn by(&self) -> String {
        format!("By {}", self.at(self.moment()))
    }

    /// Inventory calls per second while sick, up to the playhead: the mean, the busiest
    /// whole second with its start, and the end of the stretch read.
    fn inventory_load(&self) -> Option<(f64, u64, Micros, Micros)> {
        let from = self.mark(MarkerKind::Degraded)?;
        let cfg = &self.run.config;
        let to = cfg
            .first()
            .and_then(|d| d.faults.recover_at)
            .unwrap_or(cfg.traffic.duration)
            .min(cfg.traffic.duration);
        let slices = self.slices(from, to);
        let per_second = (1_000_000 / BUCKET) as usize;
        // A whole second at least, so that its busiest second is a second.
        if slices.len() < per_second {
            return None;
        }
        let total: u64 = slices.iter().map(|b| b.inventory_calls).sum();
        let mean = total as f64 * 1e6 / (slices.len() as f64 * BUCKET as f64);
        let (peak, start) = slices
            .windows(per_second)
            .enumerate()
            .map(|(i, w)| (w.iter().map(|b| b.inventory_calls).sum::<u64>(), i))
            .max_by_key(|&(n, i)| (n, std::cmp::Reverse(i)))?;
        let from_slice = from / BUCKET * BUCKET;
        let until = from_slice + slices.len() as Micros * BUCKET;
        Some((mean, peak, from_slice + start as Micros * BUCKET, until))
    }

    /// The requests finished by the playhead (as the latency histogram counts them): their
    /// service and end-to-end times, and the longest service time.
    pub(super) fn finished_times(&self) -> (LessonPercentiles, LessonPercentiles, Option<Micros>) {
        let mut service = LessonPercentiles::default();
        let mut end_to_end = LessonPercentiles::default();
        let mut longest = None;
        for f in self.run.finished.iter().filter(|f| f.at <= self.now) {
            service.record(f.service);
            end_to_end.record(f.end_to_end);
            longest = longest.max(Some(f.service));
        }
        (service, end_to_end, longest)
    }

    /// The requests of `route` that arrived by the playhead, and of those how many ended with
    /// `outcome` by then (as the topology's route counts them).
    fn route_ended(&self, route: Route, outcome: Outcome) -> (u64, u64) {
        let now = self.now;
        self.run
            .trace
            .requests
            .iter()
            .filter(|r| r.route == route && r.arrived <= now)
            .fold((0, 0), |(sent, n), r| {
                let ended = r.finished.is_some_and(|d| d <= now) && r.outcome == outcome;
                (sent + 1, n + u64::from(ended))
            })
    }

    /// The sentence of `rule` for this run at the playhead, or `None` when the run has
    /// nothing for it yet.
    pub fn say(&self, rule: Rule) -> Option<String> {
        // Before the trouble starts there is nothing to notice, and nothing to give away.
        if self.sick_at().is_some_and(|sick| self.now < sick) {
            return None;
        }
        let run = self.run;
        let passed = self.passed();
        if passed.is_empty() {
            return None;
        }
        let seen = Seen {
            run,
            t: &run.trace,
            cfg: &run.config,
            passed,
            f: self.frame(),
        };
        (rule.notice.say)(self, &seen, rule.window)
    }
}

/// When every worker was busy, against when inventory slowed.
pub const WORKERS_FULL: Notice = Notice {
    name: "workers-full",
    windowed: false,
    say: workers_full,
};

fn workers_full(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, passed, .. } = *seen;
    let peak = passed.iter().map(|b| b.workers_busy).max().unwrap_or(0);
    Some(
        match (reading.mark(MarkerKind::WorkersFull), reading.sick_at()) {
            (Some(at), Some(sick)) => format!(
                "All {} workers were busy from {}, {} after inventory slowed at {}.",
                count(cfg.service.threads.into()),
                reading.at(at),
                duration(at.saturating_sub(sick)),
                reading.at(sick)
            ),
            (Some(at), None) => format!(
                "All {} workers were busy from {}.",
                count(cfg.service.threads.into()),
                reading.at(at)
            ),
            (None, _) => format!(
                "{}, the workers have never all been busy: at most {} of {} at once.",
                reading.by(),
                count(peak.into()),
                count(cfg.service.threads.into())
            ),
        },
    )
}

/// The longest queue in front of the workers, and when.
pub const QUEUE_PEAK: Notice = Notice {
    name: "queue-peak",
    windowed: false,
    say: queue_peak,
};

fn queue_peak(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { passed, f, .. } = *seen;
    let (i, peak) = passed
        .iter()
        .enumerate()
        .map(|(i, b)| (i, b.queue_len))
        .max_by_key(|&(i, q)| (q, std::cmp::Reverse(i)))?;
    let now = f.slice.queue_len;
    Some(if peak == 0 {
        format!(
            "{}, no request has waited for a worker: the queue is at 0.",
            reading.by()
        )
    } else if now == peak {
        format!(
            "{}, the queue in front of the workers has grown to {} requests.",
            reading.by(),
            count(peak)
        )
    } else {
        format!(
            "The queue in front of the workers reached {} requests at {}; at {} \
             it holds {}.",
            count(peak),
            reading.at((i as Micros + 1) * BUCKET),
            reading.at(reading.moment()),
            count(now)
        )
    })
}

/// How long the run took to answer everyone, and the end-to-end median.
pub const DRAIN: Notice = Notice {
    name: "drain",
    windowed: false,
    say: drain,
};

fn drain(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, cfg, .. } = *seen;
    if reading.moment() <= t.end {
        return None;
    }
    let p50 = t.end_to_end.p50?;
    Some(format!(
        "Arrivals stopped at {}, but the last of the {} requests was answered only \
         at {}; half of them waited {} or more from arrival to answer.",
        reading.at(cfg.traffic.duration),
        count(t.sent),
        reading.at(t.end),
        duration(p50)
    ))
}

/// The gateway's pool: when it filled, and the 503s it sent.
pub const GATEWAY_FULL: Notice = Notice {
    name: "gateway-full",
    windowed: false,
    say: gateway_full,
};

fn gateway_full(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, f, .. } = *seen;
    let g = cfg.gateway.as_ref()?;
    let rejected = f.finished.gateway_rejected;
    Some(match reading.mark(MarkerKind::PoolFull) {
        Some(at) => format!(
            "Kong's {} connections were all in use from {}. {}, {} of the {} \
             requests that arrived were {} ({}).",
            count(g.pool.into()),
            reading.at(at),
            reading.by(),
            count(rejected),
            count(f.arrived),
            outcome_words(Outcome::GatewayRejected),
            percent(rejected, f.arrived)
        ),
        None => format!(
            "{}, Kong's pool of {} has not filled.",
            reading.by(),
            count(g.pool.into())
        ),
    })
}

/// Requests finished per second between two times (seconds), against arrivals.
pub const THROUGHPUT: Notice = Notice {
    name: "throughput",
    windowed: true,
    say: throughput,
};

fn throughput(reading: &Reading, _: &Seen, window: Window) -> Option<String> {
    let (from, to) = window;
    let (a, b) = ((from * 1e6) as Micros, (to * 1e6) as Micros);
    let slices = reading.slices(a, b);
    if slices.len() < 5 {
        return None;
    }
    let secs = slices.len() as f64 * BUCKET as f64 / 1e6;
    let done: u64 = slices.iter().map(|s| s.completions.total()).sum();
    let came: u64 = slices.iter().map(|s| s.arrivals).sum();
    let (done, came) = (done as f64 / secs, came as f64 / secs);
    Some(format!(
        "Between {} and {} orders answered {done:.0} requests per second on \
         average, in bursts as calls that started together end together, while \
         {came:.0} arrived: the backlog grew by about {:.0} every second.",
        reading.at(a),
        reading.at(a + slices.len() as Micros * BUCKET),
        (came - done).max(0.0)
    ))
}

/// The share of `GET /catalog` answered.
pub const CATALOG_ANSWERED: Notice = Notice {
    name: "catalog-answered",
    windowed: false,
    say: catalog_answered,
};

fn catalog_answered(reading: &Reading, _: &Seen, _: Window) -> Option<String> {
    let (sent, refused) = reading.route_ended(Route::Catalog, Outcome::GatewayRejected);
    let (_, answered) = reading.route_ended(Route::Catalog, Outcome::Ok);
    (sent > 0).then(|| catalog_sentence(&reading.at(reading.now), answered, sent, refused))
}

/// The outcomes, largest first, with their shares.
pub const OUTCOMES: Notice = Notice {
    name: "outcomes",
    windowed: false,
    say: outcomes,
};

fn outcomes(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { f, .. } = *seen;
    let mut seen: Vec<(Outcome, u64)> = Outcome::ALL
        .into_iter()
        .map(|o| (o, f.finished.get(o)))
        .filter(|&(_, n)| n > 0)
        .collect();
    // Most first; equal counts in the outcomes' own order.
    crate::sort::by_key(&mut seen, |&(o, _)| o);
    crate::sort::by_rank(&mut seen, |&(_, n)| u64::MAX - n);
    let parts: Vec<String> = seen
        .iter()
        .take(4)
        .map(|&(o, n)| {
            format!(
                "{} {} ({})",
                outcome_words(o),
                count(n),
                percent(n, f.arrived)
            )
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "{}, of {} requests arrived: {}; {} still waiting.",
            reading.by(),
            count(f.arrived),
            parts.join(", "),
            count(f.waiting())
        )
    })
}

/// Calls reaching inventory per second while it was sick, and their peak.
pub const INVENTORY_LOAD: Notice = Notice {
    name: "inventory-load",
    windowed: false,
    say: inventory_load,
};

fn inventory_load(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, .. } = *seen;
    let (mean, peak, at, until) = reading.inventory_load()?;
    Some(format!(
        "From {} to {}, while inventory was sick, {} calls per second reached it \
         on average (the busiest second, from {}, had {}), for {} requests per \
         second arriving.",
        reading.at(reading.sick_at()?),
        reading.at(until),
        count(mean.round() as u64),
        reading.at(at),
        count(peak),
        cfg.traffic.rate
    ))
}

/// Service and end-to-end p50 and p99.
pub const LATENCY: Notice = Notice {
    name: "latency",
    windowed: false,
    say: latency,
};

fn latency(reading: &Reading, _: &Seen, _: Window) -> Option<String> {
    let (service, end_to_end, _) = reading.finished_times();
    let (s, e) = (service.percentiles(), end_to_end.percentiles());
    Some(format!(
        "{}: service time p50 {} and p99 {}; end to end, queue included, p50 {} \
         and p99 {}.",
        reading.by(),
        duration(s.p50?),
        duration(s.p99?),
        duration(e.p50?),
        duration(e.p99?)
    ))
}

/// The longest a request held its worker, against the request budget.
pub const LONGEST_SERVICE: Notice = Notice {
    name: "longest-service",
    windowed: false,
    say: longest_service,
};

fn longest_service(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, .. } = *seen;
    let (_, _, longest) = reading.finished_times();
    let longest = longest?;
    Some(match cfg.service.request_budget {
        Some(budget) => format!(
            "{}, the longest request held its worker {}, within its {} budget, \
             however many attempts it made.",
            reading.by(),
            duration(longest),
            duration(budget)
        ),
        None => format!(
            "{}, the longest request held its worker {}.",
            reading.by(),
            duration(longest)
        ),
    })
}

/// The worst case the timeout and retry settings allow.
pub const WORST_CASE: Notice = Notice {
    name: "worst-case",
    windowed: false,
    say: worst_case,
};

fn worst_case(_: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, .. } = *seen;
    let retry = cfg.first_stack()?.retry.as_ref()?;
    let input = WorstCaseInput {
        per_attempt_timeout: cfg.first_stack()?.timeout?,
        attempts: retry.attempts,
        backoff: Backoff::Exponential {
            base: retry.base,
            cap: retry.cap,
        },
        budget: None,
    };
    let open = input.analyse().ok()?.total;
    let within = WorstCaseInput {
        budget: cfg.service.request_budget,
        ..input
    };
    let capped = within.analyse().ok()?.total;
    Some(if cfg.service.request_budget.is_some() {
        format!(
            "{} attempts of {} each, with their back-off, could take {}; the budget \
             stops them at {}.",
            retry.attempts,
            duration(cfg.first_stack()?.timeout?),
            duration(open),
            duration(capped)
        )
    } else {
        format!(
            "{} attempts of {} each, with their back-off, take up to {} before the \
             fallback answers.",
            retry.attempts,
            duration(cfg.first_stack()?.timeout?),
            duration(open)
        )
    })
}

/// When the breaker first opened, and what its window held then.
pub const BREAKER_OPENS: Notice = Notice {
    name: "breaker-opens",
    windowed: false,
    say: breaker_opens,
};

fn breaker_opens(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, cfg, .. } = *seen;
    cfg.first_stack()?.breaker.as_ref()?;
    let change = t
        .transitions
        .iter()
        .take_while(|c| c.at < reading.moment())
        .find(|c| c.to == BreakerState::Open);
    Some(match change {
        Some(c) => {
            let window = match c.reason {
                crate::resilience::TransitionReason::FailureRatio { failures, calls } => format!(
                    ", with {} failures among the {} results in its window",
                    count(failures.into()),
                    count(calls.into())
                ),
                _ => String::new(),
            };
            let after = reading
                .sick_at()
                .map(|s| {
                    format!(
                        ", {} after inventory slowed",
                        duration(c.at.saturating_sub(s))
                    )
                })
                .unwrap_or_default();
            format!(
                "The breaker first opened at {}{after}{window}.",
                reading.at(c.at)
            )
        }
        None => format!("{}, the breaker has stayed closed.", reading.by()),
    })
}

/// The breaker's round trips: how often it probed, and what got through.
pub const BREAKER_CYCLE: Notice = Notice {
    name: "breaker-cycle",
    windowed: false,
    say: breaker_cycle,
};

fn breaker_cycle(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, cfg, f, .. } = *seen;
    cfg.first_stack()?.breaker.as_ref()?;
    let changes: Vec<_> = t
        .transitions
        .iter()
        .take_while(|c| c.at < reading.moment())
        .collect();
    let n = |s| changes.iter().filter(|c| c.to == s).count() as u64;
    let open_from = changes.iter().find(|c| c.to == BreakerState::Open)?.at;
    let later: u64 = reading
        .slices(open_from, reading.moment())
        .iter()
        .map(|b| b.inventory_calls)
        .sum();
    Some(format!(
        "{}, it had opened {} and gone half-open {} to let probes through; from \
         its first opening, {} calls reached inventory while {} were refused \
         without trying.",
        reading.by(),
        times(n(BreakerState::Open)),
        times(n(BreakerState::HalfOpen)),
        count(later),
        count(f.breaker_refused)
    ))
}

/// The bulkhead's permits against the workers it left free.
pub const BULKHEAD_CAP: Notice = Notice {
    name: "bulkhead-cap",
    windowed: false,
    say: bulkhead_cap,
};

fn bulkhead_cap(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, passed, f, .. } = *seen;
    let b = cfg.first_stack()?.bulkhead.as_ref()?;
    let in_use = passed.iter().map(|s| s.bulkhead_in_use).max().unwrap_or(0);
    let busy = passed.iter().map(|s| s.workers_busy).max().unwrap_or(0);
    Some(format!(
        "{}, at most {} of {} permits were taken, so at most {} of the {} workers \
         waited on inventory; the busiest moment had {} workers busy, leaving {} \
         free. {} {}.",
        reading.by(),
        count(in_use.into()),
        count(b.permits.into()),
        count(in_use.into()),
        count(cfg.service.threads.into()),
        count(busy.into()),
        count(cfg.service.threads.saturating_sub(busy).into()),
        calls_were(f.finished.bulkhead_full),
        outcome_words(Outcome::BulkheadFull)
    ))
}

/// The share of order-history lookups answered.
pub const HISTORY_ANSWERED: Notice = Notice {
    name: "history-answered",
    windowed: false,
    say: history_answered,
};

fn history_answered(reading: &Reading, _: &Seen, _: Window) -> Option<String> {
    let (sent, answered) = reading.route_ended(Route::OrderHistory, Outcome::Ok);
    let (_, refused) = reading.route_ended(Route::OrderHistory, Outcome::BulkheadFull);
    (sent > 0).then(|| {
        format!(
            "Order history never calls inventory: by {}, {} were answered and {} {}.",
            reading.at(reading.now),
            of_its(answered, sent, "lookups"),
            count_or_none(refused),
            outcome_words(Outcome::BulkheadFull)
        )
    })
}

/// A run stopped at its duration: the clients still waiting then, and where.
pub const STILL_WAITING: Notice = Notice {
    name: "still-waiting",
    windowed: false,
    say: still_waiting,
};

fn still_waiting(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, f, .. } = *seen;
    let waiting = f.waiting();
    let moment = reading.moment();
    if waiting == 0 {
        return Some(format!(
            "At {}, every client has an answer.",
            reading.at(moment)
        ));
    }
    let oldest = t
        .requests
        .iter()
        .filter(|r| r.arrived < moment && r.finished.is_none_or(|d| d >= moment))
        .map(|r| r.arrived)
        .min();
    let longest = oldest.map_or(String::new(), |a| {
        format!(
            "; the longest of them has waited {}",
            duration(moment.saturating_sub(a))
        )
    });
    Some(format!(
        "At {}, {} clients are still waiting ({} of the {} who came): {} in the \
         queue and {} held by a worker{longest}.",
        reading.at(moment),
        count(waiting),
        percent(waiting, f.arrived),
        count(f.arrived),
        count(f.slice.queue_len),
        count(f.slice.workers_busy.into())
    ))
}

/// The order lookups: answered, their end-to-end p99, still waiting.
pub const LOOKUPS_ANSWERED: Notice = Notice {
    name: "lookups-answered",
    windowed: false,
    say: lookups_answered,
};

fn lookups_answered(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, .. } = *seen;
    let r = route_at(t, Route::OrderHistory, reading.now)?;
    Some(format!(
        "Order lookups never call inventory: by {}, {}; {} are still waiting.",
        reading.at(reading.now),
        route_fared(&r),
        count(r.waiting)
    ))
}

/// The order lookups with the bulkhead against the same run without it.
pub const LOOKUPS_SAVED: Notice = Notice {
    name: "lookups-saved",
    windowed: false,
    say: lookups_saved,
};

fn lookups_saved(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, cfg, .. } = *seen;
    // What keeps workers for the lookups: a bulkhead, or an adaptive limit.
    let guard = |s: &crate::sim::model::StackConfig| {
        if s.bulkhead.is_some() {
            Some("the bulkhead")
        } else {
            s.rooms
                .adaptive_limit
                .as_ref()
                .map(|_| "the adaptive limit")
        }
    };
    let name = guard(cfg.first_stack()?)?;
    let b = reading
        .b
        .filter(|b| b.config.first_stack().is_some_and(|s| guard(s).is_none()))?;
    let with = route_at(t, Route::OrderHistory, reading.now)?;
    let without = route_at(&b.trace, Route::OrderHistory, reading.now)?;
    Some(format!(
        "By {}, with {name} the order lookups got {}; in run B, without it, {}.",
        reading.at(reading.now),
        route_fared(&with),
        route_fared(&without)
    ))
}

/// Retries by layer, against the requests sent.
pub const RETRIES: Notice = Notice {
    name: "retries",
    windowed: false,
    say: retries,
};

fn retries(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { passed, f, .. } = *seen;
    let sum = |field: fn(&Bucket) -> u64| passed.iter().map(field).sum::<u64>();
    let frontend = sum(|b| b.frontend_retries);
    let layers = [
        ("the front end", frontend),
        ("the library", sum(|b| b.library_retries)),
        ("the sidecar", sum(|b| b.sidecar_retries)),
    ];
    let parts: Vec<String> = layers
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(who, n)| format!("{who} {}", count(*n)))
        .collect();
    let first_tries = f.arrived.saturating_sub(frontend);
    Some(if parts.is_empty() {
        format!(
            "{}, no layer has retried: {} requests, no copies.",
            reading.by(),
            count(first_tries)
        )
    } else if frontend > 0 {
        // The counter `arrived` holds the front end's resends too: name both.
        let others = &parts[1..];
        let beyond = if others.is_empty() {
            String::new()
        } else {
            format!("; retries on top of those: {}", others.join(", "))
        };
        format!(
            "{}, clients sent {} requests and the front end resent them {} times \
             (the counter \u{201c}arrived\u{201d} holds both: {}){beyond}.",
            reading.by(),
            count(first_tries),
            count(frontend),
            count(f.arrived)
        )
    } else {
        format!(
            "{}, retries on top of {} requests: {}.",
            reading.by(),
            count(first_tries),
            parts.join(", ")
        )
    })
}

/// Requests turned away by load shedding, by priority.
pub const SHED: Notice = Notice {
    name: "shed",
    windowed: false,
    say: shed,
};

fn shed(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, f, .. } = *seen;
    let limits = cfg.service.load_shed.as_ref()?;
    let start = reading
        .mark(MarkerKind::SheddingStarts)
        .map(|at| format!(" since {}", reading.at(at)))
        .unwrap_or_default();
    if f.finished.shed == 0 {
        return Some(format!(
            "{}, shedding has turned no request away: orders never held as many \
             requests as a priority's limit (low {}, normal {}, high {}) when one \
             of that priority came.",
            reading.by(),
            count(limits.low.into()),
            count(limits.normal.into()),
            count(limits.high.into())
        ));
    }
    Some(format!(
        "{}, shedding has turned away {} requests{start}, each in an instant \
         instead of a wait, the lowest priority first.",
        reading.by(),
        count(f.finished.shed)
    ))
}

/// Attempts the rate limit answered with 429, and the resends its Retry-After timed.
pub const RATE_LIMIT: Notice = Notice {
    name: "rate-limit",
    windowed: false,
    say: rate_limit,
};

fn rate_limit(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, passed, f, .. } = *seen;
    let limit = cfg.service.rate_limit.as_ref()?;
    let resent: u64 = passed.iter().map(|b| b.frontend_retries).sum();
    let limited = f.finished.rate_limited;
    let resends = if cfg.traffic.frontend_retries > 0 && limited == 0 {
        format!(
            "; the clients resent {} after an error or a wait",
            count(resent)
        )
    } else if cfg.traffic.frontend_retries > 0 {
        format!(
            "; the clients resent {}, each refused one after its Retry-After (1 s \
             or more)",
            count(resent)
        )
    } else {
        String::new()
    };
    Some(format!(
        "{}, the rate limit at the door ({} a second, a burst of {}) answered {} \
         with 429{resends}.",
        reading.by(),
        limit.rate_per_sec,
        count(limit.burst.into()),
        of_whole(limited, f.arrived, "attempts")
    ))
}

/// Where the adaptive concurrency limit stands, how low it fell, and the calls it refused.
pub const ADAPTIVE_LIMIT: Notice = Notice {
    name: "adaptive-limit",
    windowed: false,
    say: adaptive_limit,
};

fn adaptive_limit(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, f, .. } = *seen;
    let limit = t.level(LIMIT)?;
    let fell = match limit.lowest_by(reading.now) {
        Some(c) => format!(
            " fell from {} calls in flight to {} by {}, as slow calls came back, and",
            count(limit.initial.into()),
            count(c.value.into()),
            reading.at(c.at)
        ),
        None => format!(
            " stayed at {} calls in flight and",
            count(limit.initial.into())
        ),
    };
    Some(format!(
        "{}, the adaptive limit{fell} refused {} calls, each answered at once instead \
         of holding a worker.",
        reading.by(),
        count(f.finished.get(LIMIT.refuses))
    ))
}

/// Hedges sent and won.
pub const HEDGES: Notice = Notice {
    name: "hedges",
    windowed: false,
    say: hedges,
};

fn hedges(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, passed, f, .. } = *seen;
    let sent = t.counted(COPIES_SENT)?.in_first(passed.len());
    let won = t.counted(COPIES_WON)?.in_first(passed.len());
    Some(format!(
        "{}, {} hedges were sent and {} of them answered first; inventory got {} \
         calls for {} requests.",
        reading.by(),
        count(sent),
        count(won),
        count(f.inventory_calls),
        count(f.arrived)
    ))
}

/// Work done for clients who had left, and the front end's resends.
pub const STALE_WORK: Notice = Notice {
    name: "stale-work",
    windowed: false,
    say: stale_work,
};

fn stale_work(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { passed, f, .. } = *seen;
    let resent: u64 = passed.iter().map(|b| b.frontend_retries).sum();
    let stale: u64 = passed.iter().map(|b| b.stale_work).sum();
    // Not the counter of clients who gave up: a client may leave a request that
    // orders never finishes, and the counter counts clients, not work done.
    Some(format!(
        "{}, the front end had sent {} requests again after an error or a wait, \
         and orders had finished {} requests whose client had already left, each \
         an order made for nobody (made twice if sent again without an idempotency \
         key). The counter \u{201c}{}\u{201d} ({}) counts clients who left, \
         whether or not orders finished their request.",
        reading.by(),
        count(resent),
        count(stale),
        outcome_words(Outcome::ClientGaveUp),
        count(f.finished.client_gave_up)
    ))
}

/// Orders made twice for one purchase, here and in run B (the same with a key).
pub const DUPLICATES: Notice = Notice {
    name: "duplicates",
    windowed: false,
    say: duplicates,
};

fn duplicates(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { run, t, passed, .. } = *seen;
    t.orders?;
    let upto = passed.len();
    let twice = |run: &Run| -> u64 {
        run.trace
            .series
            .iter()
            .take(upto)
            .map(|b| b.duplicate_orders)
            .sum()
    };
    let b = reading
        .b
        .filter(|b| b.trace.orders.is_some())
        .map(|b| {
            format!(
                "; in run B, whose copies carry an idempotency key, {}",
                count(twice(b))
            )
        })
        .unwrap_or_default();
    Some(format!(
        "{}, orders had made {} orders for purchases it had already made once{b}.",
        reading.by(),
        count(twice(run))
    ))
}

/// Orders accepted provisionally, waiting to be reconciled.
pub const FALLBACK: Notice = Notice {
    name: "fallback",
    windowed: false,
    say: fallback,
};

fn fallback(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { cfg, passed, f, .. } = *seen;
    cfg.service.fallback.as_ref()?;
    let n = f.finished.fallback;
    let first_at = passed.iter().position(|b| b.completions.fallback > 0);
    Some(match first_at {
        Some(a) => format!(
            "{}, {} orders ({} of those arrived) had been accepted as provisional, \
             from {}: each must be confirmed or cancelled by a reconciliation job \
             once inventory answers again.",
            reading.by(),
            count(n),
            percent(n, f.arrived),
            reading.at(a as Micros * BUCKET)
        ),
        None => format!("{}, no order has needed the fallback.", reading.by()),
    })
}

/// Hot items: the served calls whose write lost to another call's commit, and the busiest
/// 100 ms of calls against the steady load.
pub const CONFLICTS: Notice = Notice {
    name: "conflicts",
    windowed: false,
    say: conflicts,
};

fn conflicts(reading: &Reading, seen: &Seen, _: Window) -> Option<String> {
    let Seen { t, passed, .. } = *seen;
    let load = t.dependencies.first()?.load.as_ref()?;
    load.conflicts?;
    let upto = passed.len();
    let conflicts: u64 = load.conflicts_per_bucket.iter().take(upto).sum();
    let served: u64 = load.served_per_bucket.iter().take(upto).sum();
    let (busiest, at) = passed
        .iter()
        .enumerate()
        .map(|(i, b)| (b.inventory_calls, i))
        .max_by_key(|&(n, i)| (n, std::cmp::Reverse(i)))?;
    let before = reading.slices(0, reading.sick_at()?);
    let steady =
        before.iter().map(|b| b.inventory_calls).sum::<u64>() / (before.len() as u64).max(1);
    let per_second = 1_000_000 / BUCKET;
    Some(format!(
        "{}, {} of the {} calls inventory served ({}) lost their item to another \
         call's commit: work done for nothing, then retried. The busiest 100 ms, \
         from {}, brought {} calls to inventory ({} a second on the chart), \
         against about {} in a quiet 100 ms.",
        reading.by(),
        count(conflicts),
        count(served),
        percent(conflicts, served),
        reading.at(at as Micros * BUCKET),
        count(busiest),
        count(busiest * per_second),
        count(steady)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Scenario;

    /// The hedges' sentence counts the copies sent and won by the playhead, not the run's
    /// totals: a class watching the replay hears what has happened so far.
    #[test]
    fn the_hedges_sentence_counts_the_copies_up_to_the_playhead() {
        let run = super::super::test_runs::hedged_tail();
        let sent = run.trace.counted(COPIES_SENT).unwrap().clone();
        let won = run.trace.counted(COPIES_WON).unwrap().clone();
        assert!(sent.total > won.total && won.total > 0, "{sent:?} {won:?}");
        let say = |now: Micros| {
            let reading = Reading {
                run: &run,
                now,
                b: None,
            };
            reading.say(Rule::of(&HEDGES)).unwrap()
        };
        let half = run.trace.series.len() / 2;
        let midway = say(half as Micros * BUCKET);
        let (sent_by, won_by) = (sent.in_first(half), won.in_first(half));
        assert!(0 < sent_by && sent_by < sent.total, "{midway}");
        let words = format!(
            "{} hedges were sent and {} of them answered first",
            count(sent_by),
            count(won_by)
        );
        assert!(midway.contains(&words), "{midway} lacks {words}");
        // Once every slice of the series has passed, the totals.
        let at_end = say(run.trace.series.len() as Micros * BUCKET);
        let words = format!(
            "{} hedges were sent and {} of them answered first",
            count(sent.total),
            count(won.total)
        );
        assert!(at_end.contains(&words), "{at_end} lacks {words}");
        let plain = Run::of(Scenario::None.config()).unwrap();
        let reading = Reading {
            run: &plain,
            now: plain.trace.end,
            b: None,
        };
        assert_eq!(
            reading.say(Rule::of(&HEDGES)),
            None,
            "no hedge, no sentence"
        );
    }

    #[test]
    fn a_whole_share_says_all_and_none_and_only_goes_before_a_part() {
        let all = catalog_sentence("12.1 s", 302, 302, 0);
        assert_eq!(
            all,
            "GET /catalog never calls inventory, and by 12.1 s all 302 of its requests were \
             answered."
        );
        assert!(!all.contains("only") && !all.contains("100%"), "{all}");
        let none = catalog_sentence("12.1 s", 0, 302, 302);
        assert!(none.contains("none of its 302 requests"), "{none}");
        assert!(!none.contains("only") && !none.contains("0%"), "{none}");
        let part = catalog_sentence("12.1 s", 150, 302, 152);
        assert!(part.contains("only 50% of its 302 requests"), "{part}");
    }
}
