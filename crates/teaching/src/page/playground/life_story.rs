//! A followed request told in words: one sentence that says where its time went, and each of
//! its spans and marks in order (what a screen reader reads, and what `cascade --trace`
//! prints). Everything is read from the spans; nothing here knows the run's settings.

use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::life::{Activity, Happening, Hop, Lane, Mark, RequestLife, Retrier, Span};
use crate::sim::trace::{Outcome, Route};

use crate::page::glossary::outcome_words;
use crate::page::numbers::{count, duration};

/// A time of the run, as the timeline's clock reads it.
pub fn at(m: Micros) -> String {
    format!("{:.3} s", m as f64 / 1e6)
}

fn dependency(life: &RequestLife, n: u8) -> &str {
    life.dependencies
        .get(usize::from(n))
        .map_or("the dependency", String::as_str)
}

/// A lane's name.
pub fn lane_name(life: &RequestLife, lane: Lane) -> String {
    let hop = match lane.hop {
        Hop::Client => "client".to_string(),
        Hop::Gateway => "Kong".to_string(),
        Hop::Queue => "orders' queue".to_string(),
        Hop::Worker => "orders' worker".to_string(),
        Hop::Bulkhead(n) => format!("{}'s bulkhead", dependency(life, n)),
        Hop::Breaker(n) => format!("{}'s breaker", dependency(life, n)),
        Hop::HistoryBulkhead => "lookups' bulkhead".to_string(),
        Hop::Dependency(n) => dependency(life, n).to_string(),
        Hop::Catalog => "catalog".to_string(),
        Hop::HistoryStore => "orders' store".to_string(),
    };
    if lane.copy == 0 || lane.hop == Hop::Client {
        hop
    } else {
        format!("{hop} (copy {})", lane.copy + 1)
    }
}

/// What the request does in a span.
pub fn activity_words(life: &RequestLife, lane: Lane, activity: Activity) -> String {
    let dep = match lane.hop {
        Hop::Dependency(n) => dependency(life, n),
        _ => "the dependency",
    };
    match activity {
        Activity::ClientBackoff => "the client waits before sending it again".into(),
        Activity::Connection => "holds one of Kong's connections".into(),
        Activity::Queued => "waits for a worker".into(),
        Activity::Worker => "holds a worker".into(),
        Activity::PermitWait => "waits for a permit".into(),
        Activity::Permit => "holds a permit".into(),
        Activity::QueuedAtDependency { attempt } => {
            format!("try {attempt} waits in {dep}'s own queue")
        }
        Activity::InService { attempt } => format!("{dep} works on try {attempt}"),
        Activity::Backoff { attempt, by } => {
            let who = match by {
                Retrier::Library => "the retry",
                Retrier::Sidecar => "the sidecar",
            };
            format!("{who} backs off before try {attempt}")
        }
        Activity::Catalog => "catalog answers".into(),
        Activity::HistoryRead => "reads order history from orders' store".into(),
    }
}

fn state_words(state: BreakerState) -> &'static str {
    match state {
        BreakerState::Closed => "closed",
        BreakerState::Open => "open",
        BreakerState::HalfOpen => "half-open",
    }
}

/// What happens at a mark.
pub fn happening_words(life: &RequestLife, mark: &Mark) -> String {
    let dep = match mark.lane.hop {
        Hop::Dependency(n) | Hop::Bulkhead(n) | Hop::Breaker(n) => dependency(life, n),
        _ => "the dependency",
    };
    match mark.happening {
        Happening::Sent { attempt: 0 } => "the client sends it".into(),
        Happening::Sent { attempt } => {
            format!("the client sends it again (its attempt {})", attempt + 1)
        }
        Happening::Answered { outcome } => {
            format!("the client gets its answer: {}", outcome_words(outcome))
        }
        Happening::GatewayFull { pool } => {
            format!(
                "all {} of Kong's connections are taken: 503",
                count(pool.into())
            )
        }
        Happening::RouteTimeout => "Kong's route timeout runs out".into(),
        Happening::GatewayRetry => "Kong sends a new copy to orders".into(),
        Happening::RefusedAtDoor { outcome, queued } => format!(
            "refused at the door ({}) with {} waiting in the queue",
            outcome_words(outcome),
            count(queued)
        ),
        Happening::Skipped => "its client had gone: the worker skips it".into(),
        Happening::KeyAnswered => "the key store already holds this order's answer".into(),
        Happening::KeyWait => "it waits for the copy that owns its key".into(),
        Happening::BulkheadFull { permits } => {
            format!("no permit came: all {} were taken", count(permits.into()))
        }
        Happening::BreakerAdmits { state } => {
            format!("the breaker lets the call through ({})", state_words(state))
        }
        Happening::BreakerRefuses { state, since } => format!(
            "the breaker refuses the call ({} since {})",
            state_words(state),
            at(since)
        ),
        Happening::BudgetSpent => "its time budget is spent: no further try".into(),
        Happening::TimedOut { after } => format!("the timeout fires after {}", duration(after)),
        Happening::Failed => format!("{dep} answers with an error"),
        Happening::DependencyFull => format!("{dep}'s own queue is full"),
        Happening::Restarted => format!("{dep} restarts and drops the call"),
        Happening::Layer(mark) => mark.words.into(),
        Happening::RetryOverflow { in_flight } => format!(
            "Envoy would retry, but {} retries are already in flight, its cluster's limit",
            count(in_flight)
        ),
        Happening::PermitLeftBehind { until } => format!(
            "its permit stays taken until {dep} answers, at {}",
            at(until)
        ),
        Happening::Fallback => "the fallback answers instead".into(),
    }
}

/// The first dependency's layers, outside in, as the lanes stand (`None` without any).
pub fn stack_words(life: &RequestLife) -> Option<String> {
    let layers = life.stacks.first().filter(|l| !l.is_empty())?;
    let names: Vec<&str> = layers.iter().map(|p| p.label()).collect();
    let first = dependency(life, 0);
    let whose = life.order_words;
    Some(format!(
        "{first}'s layers, outside in ({whose}): {}, then the call.",
        names.join(" → ")
    ))
}

/// One line per span and mark, in time order (a mark before the spans that begin with it).
pub fn lines(life: &RequestLife) -> Vec<String> {
    enum Item<'a> {
        Span(&'a Span),
        Mark(&'a Mark),
    }
    let mut items: Vec<(Micros, u8, Item)> = life
        .spans
        .iter()
        .map(|s| (s.from, 1, Item::Span(s)))
        .chain(life.marks.iter().map(|m| (m.at, 0, Item::Mark(m))))
        .collect();
    crate::sort::by_key(&mut items, |(t, order, _)| (*t, *order));
    items
        .into_iter()
        .map(|(_, _, item)| match item {
            Item::Span(s) => format!(
                "{} to {}, {}: {} ({})",
                at(s.from),
                at(s.to),
                lane_name(life, s.lane),
                activity_words(life, s.lane, s.activity),
                duration(s.length())
            ),
            Item::Mark(m) => format!(
                "{}, {}: {}",
                at(m.at),
                lane_name(life, m.lane),
                happening_words(life, m)
            ),
        })
        .collect()
}

/// The sentence that says where the request's time went.
pub fn story(life: &RequestLife) -> String {
    let what = match life.route {
        Route::Orders => "order",
        Route::Catalog => "catalog request",
        Route::OrderHistory => "lookup of order history",
    };
    let sends: Vec<Micros> = life
        .marks
        .iter()
        .filter(|m| matches!(m.happening, Happening::Sent { .. }))
        .map(|m| m.at)
        .collect();
    let resent = sends.len() > 1;
    let this = format!("This {what}");
    let who = if resent {
        "Its last attempt"
    } else {
        this.as_str()
    };
    let Some((answered, outcome)) = life.answered else {
        let waited = life.end().saturating_sub(life.arrived);
        let mut text = format!(
            "{this} had no answer when the run stopped at {}, {} after it arrived",
            at(life.end()),
            duration(waited)
        );
        push_queue(&mut text, life, Some(waited));
        text.push('.');
        return text;
    };
    let last_sent = sends.last().copied().unwrap_or(life.arrived);
    let took = answered.saturating_sub(last_sent);
    let first = life
        .dependencies
        .first()
        .map_or("inventory", String::as_str);
    let whole = life;
    let last = life.only_copy(life.last_copy());
    let life = &last;
    let tries = tries(life);
    let never_served = tries > 0 && life.total(|a| matches!(a, Activity::InService { .. })) == 0;
    let timeout = life.find(|h| matches!(h, Happening::TimedOut { .. }));
    let mut text = match outcome {
        Outcome::Ok | Outcome::BusinessRejected => {
            let worked = life.total(|a| matches!(a, Activity::InService { .. }));
            let mut t = format!(
                "{who} was answered ({}) in {}",
                outcome_words(outcome),
                duration(took)
            );
            if tries > 0 && life.route == Route::Orders {
                t.push_str(&format!(
                    "; {} worked on it for {}{}",
                    if life.dependencies.len() > 1 {
                        "its dependencies"
                    } else {
                        first
                    },
                    duration(worked),
                    if tries > 1 {
                        format!(" over {tries} tries")
                    } else {
                        String::new()
                    }
                ));
                let backoff = life.total(|a| matches!(a, Activity::Backoff { .. }));
                let queued = life.total(|a| matches!(a, Activity::QueuedAtDependency { .. }));
                let mut waits = Vec::new();
                if queued > 0 {
                    waits.push(format!("{} in {first}'s own queue", duration(queued)));
                }
                if backoff > 0 {
                    waits.push(format!("{} backing off between tries", duration(backoff)));
                }
                if !waits.is_empty() {
                    t.push_str(&format!(", and it spent {}", waits.join(" and ")));
                }
            }
            t
        }
        Outcome::Timeout => {
            let mut t = format!(
                "{who} failed after {}: {}",
                duration(took),
                timed_out(life, tries, first, timeout)
            );
            if never_served {
                t.push_str(&format!(
                    "; {} got past {first}'s own queue",
                    if tries > 1 {
                        "none of them"
                    } else {
                        "it never"
                    }
                ));
            }
            t
        }
        Outcome::Fallback => {
            let why = if let Some(Mark {
                happening: Happening::BreakerRefuses { since, .. },
                ..
            }) = life.find(|h| matches!(h, Happening::BreakerRefuses { .. }))
            {
                let before = match timeout.map(|m| m.happening) {
                    Some(Happening::TimedOut { after }) if tries > 0 => format!(
                        "{} at {first} ran into the timeout of {}; then ",
                        if tries > 1 {
                            format!("its {tries} tries")
                        } else {
                            "its first try".to_string()
                        },
                        duration(after)
                    ),
                    _ => String::new(),
                };
                let what = if before.is_empty() {
                    "the call"
                } else {
                    "the next try"
                };
                format!(
                    "{before}the breaker, open since {}, refused {what}",
                    at(*since)
                )
            } else if let (
                Some(Mark {
                    happening: Happening::TimedOut { after },
                    ..
                }),
                1,
            ) = (timeout, tries)
            {
                format!("{first} did not answer within {}", duration(*after))
            } else if timeout.is_some() {
                timed_out(life, tries, first, timeout)
            } else if life
                .find(|h| matches!(h, Happening::BulkheadFull { .. }))
                .is_some()
            {
                format!("no permit of {first}'s bulkhead came in time")
            } else {
                format!("the call to {first} failed")
            };
            format!(
                "{who} was answered by the fallback after {}: {why}",
                duration(took)
            )
        }
        Outcome::CircuitOpen => {
            let since = match life.find(|h| matches!(h, Happening::BreakerRefuses { .. })) {
                Some(Mark {
                    happening: Happening::BreakerRefuses { since, state },
                    ..
                }) => {
                    format!(", {} since {}", state_words(*state), at(*since))
                }
                _ => String::new(),
            };
            let when = if took < 1_000 {
                "at once".to_string()
            } else {
                format!("{} after it arrived", duration(took))
            };
            format!(
                "{who} was refused by the circuit breaker{since}, {when}: the call to {first} never went out"
            )
        }
        Outcome::BulkheadFull => {
            let wait = life.total(|a| matches!(a, Activity::PermitWait));
            let permits = match life.find(|h| matches!(h, Happening::BulkheadFull { .. })) {
                Some(Mark {
                    happening: Happening::BulkheadFull { permits },
                    ..
                }) => *permits,
                _ => life.permits.unwrap_or(0),
            };
            format!(
                "{who} was refused by the bulkhead: all {} permits were taken, and none came back within its wait of {}",
                count(permits.into()),
                duration(wait)
            )
        }
        Outcome::Shed | Outcome::RateLimited => {
            let queued = match life.find(|h| matches!(h, Happening::RefusedAtDoor { .. })) {
                Some(Mark {
                    happening: Happening::RefusedAtDoor { queued, .. },
                    ..
                }) => *queued,
                _ => 0,
            };
            format!(
                "{who} was {} at orders' door, with {} requests already waiting in the queue",
                outcome_words(outcome),
                count(queued)
            )
        }
        Outcome::GatewayRejected => format!(
            "{who} was refused by Kong at once (503): all {} connections of its pool were in use",
            count(life.connections.unwrap_or(0).into())
        ),
        Outcome::GatewayTimeout => format!(
            "{who} got a 504 from Kong after {}: the route timeout ran out before orders answered",
            duration(took)
        ),
        Outcome::ClientGaveUp => {
            let on = if resent { "its last attempt" } else { "it" };
            format!("The client gave up on {on} after {}", duration(took))
        }
        Outcome::DependencyError => {
            let tried = if tries > 1 {
                format!(" to each of its {tries} tries")
            } else {
                String::new()
            };
            format!(
                "{who} failed after {}: {first} answered with an error{tried}",
                duration(took)
            )
        }
        Outcome::BudgetExhausted => format!(
            "{who} failed after {}: its time budget was spent before another try could start",
            duration(took)
        ),
        Outcome::Unfinished => format!("{who} had no answer when the run stopped"),
        Outcome::Refused(refusal) => {
            format!(
                "{who} {}",
                refusal.facts().story.replace("{dependency}", first)
            )
        }
    };
    let life = whole;
    let for_nobody: Micros = life
        .spans
        .iter()
        .filter(|s| s.activity == Activity::Worker && s.to > answered)
        .map(|s| s.to - s.from.max(answered))
        .sum();
    if for_nobody > 0 {
        text.push_str(&format!(
            "; a worker of orders went on with it for {} after the client's last answer, for nobody",
            duration(for_nobody)
        ));
    }
    if resent {
        text = format!(
            "The client sent this {what} {} times over {}. {text}",
            sends.len(),
            duration(answered.saturating_sub(life.arrived))
        );
    }
    push_queue(&mut text, life, if resent { None } else { Some(took) });
    text.push('.');
    text
}

/// What the tries that ran into their timeout say: "each of its 3 tries at inventory ran into
/// the timeout of 300 ms, with 149 ms of back-off between them" (or "its call to inventory ...").
fn timed_out(life: &RequestLife, tries: usize, first: &str, timeout: Option<&Mark>) -> String {
    let after = match timeout.map(|m| m.happening) {
        Some(Happening::TimedOut { after }) => format!(" of {}", duration(after)),
        _ => String::new(),
    };
    let mut text = if tries > 1 {
        format!("each of its {tries} tries at {first} ran into the timeout{after}")
    } else {
        format!("its call to {first} ran into the timeout{after}")
    };
    let backoff = life.total(|a| matches!(a, Activity::Backoff { .. }));
    if backoff > 0 {
        text.push_str(&format!(
            ", with {} of back-off between them",
            duration(backoff)
        ));
    }
    text
}

/// Tries made at the dependencies (a try that waited in a dependency's queue and then was
/// served is one try).
fn tries(life: &RequestLife) -> usize {
    let mut tries: Vec<(Lane, u32)> = life
        .spans
        .iter()
        .filter_map(|s| match s.activity {
            Activity::InService { attempt } | Activity::QueuedAtDependency { attempt } => {
                Some((s.lane, attempt))
            }
            _ => None,
        })
        .collect();
    crate::sort::by_key(&mut tries, |&lane_try| lane_try);
    tries.dedup();
    tries.len()
}

/// What the wait for a worker adds to the sentence, when it was a real share of the time
/// `took` (of the one copy the sentence is about; `None` when the client sent several).
fn push_queue(text: &mut String, life: &RequestLife, took: Option<Micros>) {
    let waited = life.total(|a| matches!(a, Activity::Queued));
    let share = took.is_none_or(|took| waited * 10 >= took);
    let (Some(scene), true) = (life.queue, waited > 0 && share) else {
        return;
    };
    let first = life
        .dependencies
        .first()
        .map_or("inventory", String::as_str);
    let busy = if scene.busy >= life.workers {
        format!("all {} workers were busy", count(life.workers.into()))
    } else {
        format!(
            "{} of {} workers were busy",
            count(scene.busy.into()),
            count(life.workers.into())
        )
    };
    let still = life
        .spans
        .iter()
        .any(|s| s.activity == Activity::Queued && s.to >= life.end())
        && life.answered.is_none();
    match took {
        _ if still => text.push_str(&format!(": it was still waiting for a worker, {busy}")),
        Some(took) => text.push_str(&format!(
            ". It waited {} of its {} for a worker: {busy}",
            duration(waited),
            duration(took)
        )),
        None => text.push_str(&format!(
            ". Its attempts waited {} in all for a worker: when it first queued, {busy}",
            duration(waited)
        )),
    }
    if scene.ahead > 0 {
        text.push_str(&format!(
            " and {} requests were ahead of it",
            count(scene.ahead)
        ));
    }
    if scene.freed > 0 && life.route != Route::Catalog {
        let times = if scene.freed == 1 {
            format!("once, after {}", duration(scene.held_median))
        } else {
            format!(
                "{} times, each after {} (median)",
                count(scene.freed.into()),
                duration(scene.held_median)
            )
        };
        text.push_str(&format!(
            "; while it waited a worker freed up {times} held by one request and its calls to {first}"
        ));
    }
}
