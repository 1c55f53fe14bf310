//! "What to notice" rules: each reads one run (its Trace, its config and its timeline marks)
//! and says one sentence whose figures are that run's. A rule with nothing to read in the run
//! (a breaker rule on a run without one) says nothing.

use crate::page::markers::{first, Marker, MarkerKind};
use crate::page::replay::clock;
use crate::page::state::Run;
use crate::resilience::worst_case::{Backoff, WorstCaseInput};
use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::model::CascadeConfig;
use crate::sim::trace::{Outcome, Route, RouteCounts, Trace, BUCKET};

/// One thing a step asks the class to notice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rule {
    /// When every worker was busy, against when inventory slowed.
    WorkersFull,
    /// The longest queue in front of the workers, and when.
    QueuePeak,
    /// How long the run took to answer everyone, and the end-to-end median.
    Drain,
    /// Requests finished per second between two times (seconds), against arrivals.
    Throughput {
        /// Start, seconds.
        from: f64,
        /// End, seconds.
        to: f64,
    },
    /// The gateway's pool: when it filled, and the 503s it sent.
    GatewayFull,
    /// The share of `GET /catalog` answered.
    CatalogAnswered,
    /// The outcomes, largest first, with their shares.
    Outcomes,
    /// Calls reaching inventory per second while it was sick, and their peak.
    InventoryLoad,
    /// Service and end-to-end p50 and p99.
    Latency,
    /// The longest a request held its worker, against the request budget.
    LongestService,
    /// The worst case the timeout and retry settings allow.
    WorstCase,
    /// When the breaker first opened, and what its window held then.
    BreakerOpens,
    /// The breaker's round trips: how often it probed, and what got through.
    BreakerCycle,
    /// The bulkhead's permits against the workers it left free.
    BulkheadCap,
    /// The share of order-history lookups answered.
    HistoryAnswered,
    /// A run stopped at its duration: the clients still waiting then, and where.
    StillWaiting,
    /// The order lookups: answered, their end-to-end p99, still waiting.
    LookupsAnswered,
    /// The order lookups with the bulkhead against the same run without it.
    LookupsSaved,
    /// Retries by layer, against the requests sent.
    Retries,
    /// Requests turned away by load shedding, by priority.
    Shed,
    /// Hedges sent and won.
    Hedges,
    /// Work done for clients who had left, and the front end's resends.
    StaleWork,
    /// Orders accepted provisionally, waiting to be reconciled.
    Fallback,
    /// Hot items: the served calls whose write lost to another call's commit, and the busiest
    /// 100 ms of calls against the steady load.
    Conflicts,
}

/// One run, read for the rules.
pub struct Reading<'a> {
    /// The run.
    pub run: &'a Run,
    /// Its timeline marks.
    pub marks: &'a [Marker],
    /// The wall clock of time 0, when the preset has one.
    pub clock_start: Option<u64>,
}

/// `n` with a comma every three digits.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration: milliseconds under 1 s, seconds (two decimals at most) under 10 s, then
/// seconds with one decimal.
pub fn duration(m: Micros) -> String {
    if m < 1_000_000 {
        format!("{} ms", count((m + 500) / 1_000))
    } else if m < 10_000_000 {
        let s = format!("{:.2}", m as f64 / 1e6);
        format!("{} s", s.trim_end_matches('0').trim_end_matches('.'))
    } else {
        format!("{:.1} s", m as f64 / 1e6)
    }
}

fn times(n: u64) -> String {
    if n == 1 {
        "once".into()
    } else {
        format!("{} times", count(n))
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

/// The order lookups of a trace, if it has any.
fn lookups(t: &Trace) -> Option<RouteCounts> {
    t.routes
        .iter()
        .find(|r| r.route == Route::OrderHistory)
        .copied()
}

/// "107 of 312 (34%), end-to-end p99 7.3 s": how the lookups of one run fared.
fn lookups_fared(r: &RouteCounts) -> String {
    let p99 = r.end_to_end.p99.map_or("none answered".to_string(), |p| {
        format!("end-to-end p99 {}", duration(p))
    });
    format!(
        "{} of {} answered ({}), {p99}",
        count(r.outcomes.ok),
        count(r.sent),
        percent(r.outcomes.ok, r.sent)
    )
}

impl Reading<'_> {
    fn at(&self, m: Micros) -> String {
        clock(m, self.clock_start)
    }

    fn sick_from(&self) -> Option<Micros> {
        first(self.marks, MarkerKind::Degraded)
    }

    /// Slices `from..to` of the series (clipped to it).
    fn slices(&self, from: Micros, to: Micros) -> &[crate::sim::trace::Bucket] {
        let series = &self.run.trace.series;
        let a = usize::try_from(from / BUCKET)
            .unwrap_or(usize::MAX)
            .min(series.len());
        let b = usize::try_from(to / BUCKET)
            .unwrap_or(usize::MAX)
            .clamp(a, series.len());
        &series[a..b]
    }

    /// Inventory calls per second while sick: the mean, and the busiest whole second.
    fn inventory_load(&self) -> Option<(f64, u64, Micros)> {
        let from = self.sick_from()?;
        let cfg = &self.run.config;
        let to = cfg
            .recover_at
            .unwrap_or(cfg.duration)
            .min(cfg.duration)
            .max(from + BUCKET);
        let slices = self.slices(from, to);
        if slices.is_empty() {
            return None;
        }
        let total: u64 = slices.iter().map(|b| b.inventory_calls).sum();
        let mean = total as f64 * 1e6 / (slices.len() as f64 * BUCKET as f64);
        let per_second = (1_000_000 / BUCKET) as usize;
        let (peak, start) = slices
            .windows(per_second.min(slices.len()))
            .enumerate()
            .map(|(i, w)| (w.iter().map(|b| b.inventory_calls).sum::<u64>(), i))
            .max_by_key(|&(n, i)| (n, std::cmp::Reverse(i)))?;
        Some((mean, peak, from + start as Micros * BUCKET))
    }

    /// The sentence of `rule` for this run, or `None` when the run has nothing for it.
    pub fn say(&self, rule: Rule) -> Option<String> {
        let run = self.run;
        let t = &run.trace;
        let cfg = &run.config;
        match rule {
            Rule::WorkersFull => {
                let full = first(self.marks, MarkerKind::WorkersFull);
                let peak = t.series.iter().map(|b| b.workers_busy).max().unwrap_or(0);
                Some(match (full, self.sick_from()) {
                    (Some(at), Some(sick)) => format!(
                        "All {} workers were busy from {}, {} after inventory slowed at {}.",
                        count(cfg.threads.into()),
                        self.at(at),
                        duration(at.saturating_sub(sick)),
                        self.at(sick)
                    ),
                    (Some(at), None) => format!(
                        "All {} workers were busy from {}.",
                        count(cfg.threads.into()),
                        self.at(at)
                    ),
                    (None, _) => format!(
                        "The workers never all filled up: at most {} of {} were busy at once.",
                        count(peak.into()),
                        count(cfg.threads.into())
                    ),
                })
            }
            Rule::QueuePeak => {
                let (i, peak) = t
                    .series
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (i, b.queue_len))
                    .max_by_key(|&(i, q)| (q, std::cmp::Reverse(i)))?;
                Some(if peak == 0 {
                    "No request ever waited for a worker: the queue stayed at 0.".to_string()
                } else {
                    format!(
                        "The queue in front of the workers peaked at {} requests, at {}.",
                        count(peak),
                        self.at((i as Micros + 1) * BUCKET)
                    )
                })
            }
            Rule::Drain => {
                let p50 = t.end_to_end.p50?;
                Some(format!(
                    "Arrivals stopped at {}, but the last of the {} requests was answered only at {}; \
                     half of them waited {} or more from arrival to answer.",
                    self.at(cfg.duration),
                    count(t.sent),
                    self.at(t.end),
                    duration(p50)
                ))
            }
            Rule::Throughput { from, to } => {
                let (a, b) = ((from * 1e6) as Micros, (to * 1e6) as Micros);
                let slices = self.slices(a, b);
                if slices.is_empty() {
                    return None;
                }
                let secs = slices.len() as f64 * BUCKET as f64 / 1e6;
                let done: u64 = slices.iter().map(|s| s.completions.total()).sum();
                let came: u64 = slices.iter().map(|s| s.arrivals).sum();
                let (done, came) = (done as f64 / secs, came as f64 / secs);
                Some(format!(
                    "Between {} and {} orders answered {done:.0} requests per second while {came:.0} \
                     arrived: the backlog grew by about {:.0} every second.",
                    self.at(a),
                    self.at(b),
                    (came - done).max(0.0)
                ))
            }
            Rule::GatewayFull => {
                let g = cfg.gateway.as_ref()?;
                let rejected = t.outcomes.gateway_rejected;
                Some(match first(self.marks, MarkerKind::PoolFull) {
                    Some(at) => format!(
                        "Kong's {} connections were all in use from {}; {} requests got a 503 \
                         ({} of all sent).",
                        count(g.pool.into()),
                        self.at(at),
                        count(rejected),
                        percent(rejected, t.sent)
                    ),
                    None => format!(
                        "Kong's pool of {} never filled; {} requests got a 503.",
                        count(g.pool.into()),
                        count(rejected)
                    ),
                })
            }
            Rule::CatalogAnswered => {
                let r = t.routes.iter().find(|r| r.route == Route::Catalog)?;
                let answered = (r.success_rate() * r.sent as f64).round() as u64;
                Some(format!(
                    "GET /catalog never calls inventory, yet only {} of its {} requests were answered; \
                     {} got Kong's 503.",
                    percent(answered, r.sent),
                    count(r.sent),
                    count(r.outcomes.gateway_rejected)
                ))
            }
            Rule::Outcomes => {
                let mut seen: Vec<(Outcome, u64)> = Outcome::ALL
                    .into_iter()
                    .map(|o| (o, t.outcomes.get(o)))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                // Most first; equal counts in the outcomes' own order.
                crate::sort::by_rank(&mut seen, |&(o, _)| o as u64);
                crate::sort::by_rank(&mut seen, |&(_, n)| u64::MAX - n);
                let parts: Vec<String> = seen
                    .iter()
                    .take(4)
                    .map(|&(o, n)| format!("{} {} ({})", o.name(), count(n), percent(n, t.sent)))
                    .collect();
                // The counters show the playhead's moment; these are the run's final counts,
                // which may come later (requests still waiting when the step stops).
                (!parts.is_empty()).then(|| {
                    format!(
                        "By the run's end ({}), of {} requests: {}.",
                        self.at(t.end),
                        count(t.sent),
                        parts.join(", ")
                    )
                })
            }
            Rule::InventoryLoad => {
                let (mean, peak, at) = self.inventory_load()?;
                Some(format!(
                    "While inventory was sick, {} calls per second reached it on average \
                     (the busiest second, from {}, had {}), for {} requests per second arriving.",
                    count(mean.round() as u64),
                    self.at(at),
                    count(peak),
                    cfg.rate
                ))
            }
            Rule::Latency => {
                let (s, e) = (&t.service, &t.end_to_end);
                Some(format!(
                    "Service time p50 {} and p99 {}; end to end, queue included, p50 {} and p99 {}.",
                    duration(s.p50?),
                    duration(s.p99?),
                    duration(e.p50?),
                    duration(e.p99?)
                ))
            }
            Rule::LongestService => {
                let longest = t
                    .service_histograms
                    .values()
                    .filter_map(|h| h.buckets().last().map(|&(v, _)| v))
                    .max()?;
                Some(match cfg.request_budget {
                    Some(budget) => format!(
                        "The longest request held its worker about {}, within its {} budget, \
                         however many attempts it made.",
                        duration(longest),
                        duration(budget)
                    ),
                    None => format!(
                        "The longest request held its worker about {}.",
                        duration(longest)
                    ),
                })
            }
            Rule::WorstCase => {
                let retry = cfg.retry.as_ref()?;
                let input = WorstCaseInput {
                    per_attempt_timeout: cfg.timeout?,
                    attempts: retry.attempts,
                    backoff: Backoff::Exponential {
                        base: retry.base,
                        cap: retry.cap,
                    },
                    budget: None,
                };
                let open = input.analyse().ok()?.total;
                let within = WorstCaseInput {
                    budget: cfg.request_budget,
                    ..input
                };
                let capped = within.analyse().ok()?.total;
                Some(if cfg.request_budget.is_some() {
                    format!(
                        "{} attempts of {} each, with their back-off, could take {}; the budget \
                         stops them at {}.",
                        retry.attempts,
                        duration(cfg.timeout?),
                        duration(open),
                        duration(capped)
                    )
                } else {
                    format!(
                        "{} attempts of {} each, with their back-off, take up to {} before the \
                         fallback answers.",
                        retry.attempts,
                        duration(cfg.timeout?),
                        duration(open)
                    )
                })
            }
            Rule::BreakerOpens => {
                cfg.breaker.as_ref()?;
                let change = t.transitions.iter().find(|c| c.to == BreakerState::Open);
                Some(match (change, self.sick_from()) {
                    (Some(c), sick) => {
                        let window = match c.reason {
                            crate::resilience::TransitionReason::FailureRatio {
                                failures,
                                calls,
                            } => format!(
                                ", with {} failures among the {} results in its window",
                                count(failures.into()),
                                count(calls.into())
                            ),
                            _ => String::new(),
                        };
                        let after = sick
                            .map(|s| {
                                format!(
                                    ", {} after inventory slowed",
                                    duration(c.at.saturating_sub(s))
                                )
                            })
                            .unwrap_or_default();
                        format!(
                            "The breaker first opened at {}{after}{window}.",
                            self.at(c.at)
                        )
                    }
                    (None, _) => "The breaker never opened.".into(),
                })
            }
            Rule::BreakerCycle => {
                cfg.breaker.as_ref()?;
                let n = |s| t.transitions.iter().filter(|c| c.to == s).count() as u64;
                let open_from = t.first_open()?;
                let slices = self.slices(open_from, t.end + BUCKET);
                let later: u64 = slices.iter().map(|b| b.inventory_calls).sum();
                let refused: u64 = slices.iter().map(|b| b.breaker_rejections).sum();
                Some(format!(
                    "It opened {} and went half-open {} to let probes through; from its first \
                     opening to the end only {} calls reached inventory, while {} were refused \
                     without trying.",
                    times(n(BreakerState::Open)),
                    times(n(BreakerState::HalfOpen)),
                    count(later),
                    count(refused)
                ))
            }
            Rule::BulkheadCap => {
                let b = cfg.bulkhead.as_ref()?;
                let in_use = t
                    .series
                    .iter()
                    .map(|s| s.bulkhead_in_use)
                    .max()
                    .unwrap_or(0);
                let busy = t.series.iter().map(|s| s.workers_busy).max().unwrap_or(0);
                Some(format!(
                    "At most {} of {} permits were taken, so at most {} of the {} workers ever \
                     waited on inventory; the busiest moment had {} workers busy, leaving {} \
                     free. {} calls were refused (bulkhead_full).",
                    count(in_use.into()),
                    count(b.permits.into()),
                    count(in_use.into()),
                    count(cfg.threads.into()),
                    count(busy.into()),
                    count(cfg.threads.saturating_sub(busy).into()),
                    count(t.outcomes.bulkhead_full)
                ))
            }
            Rule::HistoryAnswered => {
                let r = t.routes.iter().find(|r| r.route == Route::OrderHistory)?;
                let answered = (r.success_rate() * r.sent as f64).round() as u64;
                Some(format!(
                    "Order history never calls inventory: {} of its {} lookups were answered \
                     ({}), {} refused by a full bulkhead.",
                    count(answered),
                    count(r.sent),
                    percent(answered, r.sent),
                    count(r.outcomes.bulkhead_full)
                ))
            }
            Rule::StillWaiting => {
                let waiting = t.outcomes.unfinished;
                if waiting == 0 {
                    return Some(format!("Every client had an answer by {}.", self.at(t.end)));
                }
                let last = t.series.last().copied().unwrap_or_default();
                let oldest = t
                    .requests
                    .iter()
                    .filter(|r| r.finished.is_none())
                    .map(|r| r.arrived)
                    .min();
                let answered = oldest.map_or(String::new(), |a| {
                    format!(
                        "; the longest of them has waited {}",
                        duration(t.end.saturating_sub(a))
                    )
                });
                Some(format!(
                    "When the run stops at {}, {} clients are still waiting ({} of all who came): \
                     {} in the queue and {} held by a worker{answered}.",
                    self.at(t.end),
                    count(waiting),
                    percent(waiting, t.sent),
                    count(last.queue_len),
                    count(last.workers_busy.into())
                ))
            }
            Rule::LookupsAnswered => {
                let r = lookups(t)?;
                Some(format!(
                    "Order lookups never call inventory: {}; {} were still waiting at the end.",
                    lookups_fared(&r),
                    count(r.outcomes.unfinished)
                ))
            }
            Rule::LookupsSaved => {
                cfg.bulkhead.as_ref()?;
                let with = lookups(t)?;
                let twin = crate::sim::model::run(&CascadeConfig {
                    bulkhead: None,
                    ..cfg.clone()
                })
                .ok()?;
                let without = lookups(&twin)?;
                Some(format!(
                    "With the bulkhead the order lookups got {}; the same run without it: {}.",
                    lookups_fared(&with),
                    lookups_fared(&without)
                ))
            }
            Rule::Retries => {
                let layers = [
                    ("the front end", t.frontend_retries),
                    ("the library", t.library_retries),
                    ("the sidecar", t.sidecar_retries),
                ];
                let parts: Vec<String> = layers
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(who, n)| format!("{who} {}", count(*n)))
                    .collect();
                Some(if parts.is_empty() {
                    format!("No layer retried: {} requests, no copies.", count(t.sent))
                } else {
                    format!(
                        "Retries on top of {} requests: {}.",
                        count(t.sent - t.frontend_retries),
                        parts.join(", ")
                    )
                })
            }
            Rule::Shed => {
                cfg.load_shed.as_ref()?;
                let [low, normal, high] = t.shed_by_priority;
                let start = first(self.marks, MarkerKind::SheddingStarts)
                    .map(|at| format!(" from {}", self.at(at)))
                    .unwrap_or_default();
                Some(format!(
                    "Shedding turned away {} low-, {} normal- and {} high-priority requests{start}, \
                     each in an instant instead of a wait.",
                    count(low),
                    count(normal),
                    count(high)
                ))
            }
            Rule::Hedges => {
                let h = t.hedges?;
                let calls: u64 = t.series.iter().map(|b| b.inventory_calls).sum();
                Some(format!(
                    "{} hedges were sent and {} of them answered first; inventory got {} calls \
                     for {} requests.",
                    count(h.sent),
                    count(h.won),
                    count(calls),
                    count(t.sent)
                ))
            }
            Rule::StaleWork => Some(format!(
                "The front end sent {} requests again after an error or a wait, and orders \
                 finished {} requests whose client had already left: each a charge or an order \
                 made for nobody, and made twice if it is sent again without a key.",
                count(t.frontend_retries),
                count(t.stale_work)
            )),
            Rule::Conflicts => {
                let load = t.dependencies.first()?.load.as_ref()?;
                let conflicts = load.conflicts?;
                let (busiest, at) = t
                    .series
                    .iter()
                    .enumerate()
                    .map(|(i, b)| (b.inventory_calls, i))
                    .max_by_key(|&(n, i)| (n, std::cmp::Reverse(i)))?;
                let before = self.slices(0, self.sick_from()?);
                let steady = before.iter().map(|b| b.inventory_calls).sum::<u64>()
                    / (before.len() as u64).max(1);
                Some(format!(
                    "{} of the {} calls inventory served ({}) lost their item to another \
                     call's commit: work done for nothing, then retried. The busiest 100 ms, \
                     from {}, brought {} calls to inventory, against about {} in a quiet one.",
                    count(conflicts),
                    count(load.served),
                    percent(conflicts, load.served),
                    self.at(at as Micros * BUCKET),
                    count(busiest),
                    count(steady)
                ))
            }
            Rule::Fallback => {
                cfg.fallback.as_ref()?;
                let n = t.outcomes.fallback;
                let first_at = t.series.iter().position(|b| b.completions.fallback > 0);
                let last_at = t.series.iter().rposition(|b| b.completions.fallback > 0);
                Some(match (first_at, last_at) {
                    (Some(a), Some(b)) => format!(
                        "{} orders ({}) were accepted as provisional between {} and {}: each \
                         must be confirmed or cancelled by a reconciliation job once inventory \
                         answers again.",
                        count(n),
                        percent(n, t.sent),
                        self.at(a as Micros * BUCKET),
                        self.at((b as Micros + 1) * BUCKET)
                    ),
                    _ => "No order needed the fallback.".into(),
                })
            }
        }
    }
}
