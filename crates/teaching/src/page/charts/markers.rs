//! The events a run's timeline marks, read from its Trace: inventory slowing and recovering,
//! every change of the breaker, the worker pool, the queue, the gateway's pool and the
//! bulkhead filling up, and load shedding starting. The lesson steps' notices read the same
//! list, so a notice and the mark it talks about always agree.

use crate::resilience::BreakerState;
use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;
use crate::sim::trace::{Bucket, Trace, BUCKET};

/// What a mark on the timeline stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    /// Inventory turns slow.
    Degraded,
    /// Inventory is healthy again.
    Recovered,
    /// The breaker entered this state.
    Breaker(BreakerState),
    /// Every worker of `orders` busy.
    WorkersFull,
    /// The bounded queue in front of `orders` full.
    QueueFull,
    /// Every connection of the gateway's pool in use.
    PoolFull,
    /// Every bulkhead permit taken.
    BulkheadFull,
    /// The first request turned away by load shedding.
    SheddingStarts,
}

impl MarkerKind {
    /// A short name for CSS classes and tests.
    pub fn key(self) -> &'static str {
        match self {
            MarkerKind::Degraded => "degraded",
            MarkerKind::Recovered => "recovered",
            MarkerKind::Breaker(BreakerState::Open) => "breaker-open",
            MarkerKind::Breaker(BreakerState::HalfOpen) => "breaker-half-open",
            MarkerKind::Breaker(BreakerState::Closed) => "breaker-closed",
            MarkerKind::WorkersFull => "workers-full",
            MarkerKind::QueueFull => "queue-full",
            MarkerKind::PoolFull => "pool-full",
            MarkerKind::BulkheadFull => "bulkhead-full",
            MarkerKind::SheddingStarts => "shedding",
        }
    }
}

/// One marked event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Marker {
    /// When it happened (for a gauge read per 100 ms slice: the end of the first slice where
    /// it held).
    pub at: Micros,
    /// What happened.
    pub kind: MarkerKind,
    /// What the timeline says about it.
    pub label: String,
}

/// Spells of one condition shorter apart than this count as one (a pool that is full, frees
/// one slot for a moment and fills again is still the same episode).
const SAME_SPELL: usize = 10;

/// Most spells of one gauge condition marked; the breaker's changes are all marked.
const MOST_SPELLS: usize = 5;

/// The first slice of each spell of `full` over `series` (gauges hold at the slice's end).
fn spells(series: &[Bucket], full: impl Fn(&Bucket) -> bool) -> Vec<Micros> {
    let mut starts = Vec::new();
    let mut last_full: Option<usize> = None;
    for (i, b) in series.iter().enumerate() {
        if full(b) {
            if last_full.is_none_or(|j| i - j > SAME_SPELL) {
                starts.push((i as Micros + 1) * BUCKET);
            }
            last_full = Some(i);
        }
    }
    starts.truncate(MOST_SPELLS);
    starts
}

/// Inventory recovers by restarting: the calls it held (busy slots and queue, in the slice
/// before the restart) fail at once.
fn restart_label(trace: &Trace, at: Micros) -> String {
    let held = trace
        .dependencies
        .first()
        .and_then(|d| d.load.as_ref())
        .and_then(|load| {
            let slice = usize::try_from(at / BUCKET).ok()?.checked_sub(1)?;
            let busy = u64::from(*load.busy_per_bucket.get(slice)?);
            Some(busy + load.queue_per_bucket.get(slice)?)
        });
    match held {
        Some(n) => format!("inventory restarts: the {n} calls it held fail"),
        None => "inventory restarts: the calls it held fail".into(),
    }
}

/// The time of every event worth marking in `trace`, run with `config`, in order.
pub fn markers(trace: &Trace, config: &SimConfig) -> Vec<Marker> {
    let mut marks = Vec::new();
    let mut add =
        |at: Micros, kind: MarkerKind, label: String| marks.push(Marker { at, kind, label });
    if let Some(inventory) = config.first() {
        let faults = &inventory.faults;
        let sick = faults.slow != faults.fast || faults.error_rate > 0.0;
        if let Some(degrade_at) = faults.degrade_at.filter(|&at| sick && at < trace.end) {
            let what = if faults.error_rate >= 1.0 {
                "inventory fails".to_string()
            } else {
                format!(
                    "inventory slows ({} → {} ms)",
                    faults.fast / 1_000,
                    faults.slow / 1_000
                )
            };
            add(degrade_at, MarkerKind::Degraded, what);
            if let Some(back) = faults.recover_at.filter(|&r| r < trace.end) {
                let restarts = inventory
                    .capacity
                    .as_ref()
                    .is_some_and(|c| c.restart_at_recovery);
                let label = if restarts {
                    restart_label(trace, back)
                } else {
                    "inventory healthy again".into()
                };
                add(back, MarkerKind::Recovered, label);
            }
        }
    }
    for change in &trace.transitions {
        let label = match change.to {
            BreakerState::Open => "breaker opens",
            BreakerState::HalfOpen => "breaker half-open",
            BreakerState::Closed => "breaker closes",
        };
        add(change.at, MarkerKind::Breaker(change.to), label.into());
    }
    let series = &trace.series;
    for at in spells(series, |b| b.workers_busy >= config.service.threads) {
        add(
            at,
            MarkerKind::WorkersFull,
            format!("all {} workers busy", config.service.threads),
        );
    }
    if let Some(limit) = config.service.queue_limit {
        for at in spells(series, |b| b.queue_len >= limit) {
            add(at, MarkerKind::QueueFull, format!("queue full ({limit})"));
        }
    }
    if let Some(g) = &config.gateway {
        for at in spells(series, |b| b.gateway_in_use >= g.pool) {
            add(
                at,
                MarkerKind::PoolFull,
                format!("Kong's pool full ({})", g.pool),
            );
        }
    }
    if let Some(b) = config.first_stack().and_then(|s| s.bulkhead.as_ref()) {
        for at in spells(series, |s| s.bulkhead_in_use >= b.permits) {
            add(
                at,
                MarkerKind::BulkheadFull,
                format!("bulkhead full ({})", b.permits),
            );
        }
    }
    if let Some(i) = series.iter().position(|b| b.completions.shed > 0) {
        add(
            i as Micros * BUCKET,
            MarkerKind::SheddingStarts,
            "shedding starts".into(),
        );
    }
    crate::sort::by_rank(&mut marks, |m| m.at);
    marks
}

/// The first mark of `kind`, if any.
pub fn first(marks: &[Marker], kind: MarkerKind) -> Option<Micros> {
    marks.iter().find(|m| m.kind == kind).map(|m| m.at)
}

/// A colour as `#rrggbb`, for the contrast checks.
pub type Hex = &'static str;

/// The timeline's colours (the breaker band and the marks), light and dark theme, each with
/// the panel it is drawn on. `static/style.css` uses the same values (its
/// `--band-*` and `--mark` variables).
pub const TIMELINE_COLOURS: [(&str, Hex, Hex); 8] = [
    // (what, light, dark)
    ("panel", "#ffffff", "#1f2127"),
    ("band closed", "#00835f", "#3fd1a5"),
    ("band open", "#b8338a", "#f09ad0"),
    ("band half-open", "#a15c00", "#f0c050"),
    ("mark line", "#3a3a44", "#d0d0da"),
    ("mark text", "#3a3a44", "#d0d0da"),
    ("playhead", "#1d1d1f", "#f1f1f4"),
    ("legend text", "#1d1d1f", "#f1f1f4"),
];

fn channel(hex: &str, at: usize) -> f64 {
    let v = u8::from_str_radix(hex.get(at..at + 2).unwrap_or("00"), 16).unwrap_or(0);
    let c = f64::from(v) / 255.0;
    if c <= 0.039_28 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// WCAG's relative luminance of `#rrggbb`.
pub fn luminance(hex: &str) -> f64 {
    0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5)
}

/// WCAG's contrast ratio of two colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::model::run;
    use crate::sim::scenario::{Preset, Scenario};

    fn marks_of(preset: Preset) -> Vec<Marker> {
        let cfg = preset.config();
        markers(&run(&cfg).unwrap(), &cfg)
    }

    #[test]
    fn a_restart_is_marked_as_one_with_the_calls_it_fails() {
        let marks = marks_of(Preset::RetryHerd);
        let back = marks
            .iter()
            .find(|m| m.kind == MarkerKind::Recovered)
            .expect("the herd's inventory recovers");
        assert_eq!(back.at, 4_000_000);
        let held: u64 = back
            .label
            .strip_prefix("inventory restarts: the ")
            .and_then(|rest| rest.strip_suffix(" calls it held fail"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}", back.label));
        // 200 orders/s held for the second of the hang, give or take the slice's edge.
        assert!((150..=260).contains(&held), "{held}");
        let storm = marks_of(Preset::RetryStorm);
        assert!(storm
            .iter()
            .any(|m| m.kind == MarkerKind::Recovered && m.label == "inventory healthy again"));
    }

    #[test]
    fn the_breaker_run_marks_the_slowdown_and_every_change_of_state() {
        let cfg = Scenario::Cb.config();
        let trace = run(&cfg).unwrap();
        let marks = markers(&trace, &cfg);
        assert_eq!(first(&marks, MarkerKind::Degraded), Some(3_000_000));
        let breaker: Vec<_> = marks
            .iter()
            .filter(|m| matches!(m.kind, MarkerKind::Breaker(_)))
            .collect();
        assert_eq!(breaker.len(), trace.transitions.len());
        assert!(!breaker.is_empty());
        for (m, c) in breaker.iter().zip(&trace.transitions) {
            assert_eq!((m.at, m.kind), (c.at, MarkerKind::Breaker(c.to)));
        }
        assert_eq!(
            first(&marks, MarkerKind::Breaker(BreakerState::Open)),
            trace.first_open()
        );
        assert!(marks.windows(2).all(|w| w[0].at <= w[1].at), "in order");
        // A timeout of 300 ms never lets the 32 workers fill up.
        assert_eq!(first(&marks, MarkerKind::WorkersFull), None);
    }

    #[test]
    fn no_protection_fills_the_workers_within_a_second_of_the_slowdown() {
        let marks = marks_of(Preset::Lesson(Scenario::None));
        let full = first(&marks, MarkerKind::WorkersFull).unwrap();
        assert!((3_000_000..=4_000_000).contains(&full), "{full}");
        assert!(marks
            .iter()
            .all(|m| !matches!(m.kind, MarkerKind::Breaker(_))));
    }

    #[test]
    fn the_saturday_cascade_marks_kong_s_pool_and_the_failover() {
        let marks = marks_of(Preset::Saturday);
        let pool = first(&marks, MarkerKind::PoolFull).unwrap();
        // Inventory slows at 10 s (10:12:00); the pool is full about 2 s later.
        assert!((10_500_000..=14_000_000).contains(&pool), "{pool}");
        assert_eq!(first(&marks, MarkerKind::Recovered), Some(40_000_000));
        assert_eq!(
            marks
                .iter()
                .filter(|m| m.kind == MarkerKind::PoolFull)
                .count(),
            1,
            "one spell: {marks:?}"
        );
    }

    #[test]
    fn the_bulkhead_and_shedding_have_their_marks() {
        let marks = marks_of(Preset::Lesson(Scenario::Bulkhead));
        assert!(
            first(&marks, MarkerKind::BulkheadFull).is_some(),
            "{marks:?}"
        );
        let mut cfg = Scenario::None.config();
        cfg.service.load_shed = Some(crate::resilience::LoadShedConfig::lesson_000());
        let trace = run(&cfg).unwrap();
        let marks = markers(&trace, &cfg);
        let shed = first(&marks, MarkerKind::SheddingStarts).unwrap();
        assert!(shed > 3_000_000 && shed < 5_000_000, "{shed}");
    }

    #[test]
    fn spells_merge_short_gaps_and_are_capped() {
        let mut series = vec![Bucket::default(); 100];
        for i in [5, 6, 9, 40, 55, 70, 85, 99] {
            series[i].workers_busy = 1;
        }
        let got = spells(&series, |b| b.workers_busy > 0);
        assert_eq!(got.len(), MOST_SPELLS);
        assert_eq!(got[0], 600_000, "the end of slice 5");
        assert_eq!(got[1], 4_100_000, "9 joined 5's spell; 40 starts a new one");
    }

    #[test]
    fn the_style_sheet_uses_the_checked_colours() {
        let css = include_str!("../../../../../static/style.css");
        for (var, at) in [
            ("--band-closed", 1),
            ("--band-open", 2),
            ("--band-half-open", 3),
            ("--mark", 4),
        ] {
            let (_, light, dark) = TIMELINE_COLOURS[at];
            for colour in [light, dark] {
                assert!(
                    css.contains(&format!("{var}: {colour};")),
                    "{var}: {colour}"
                );
            }
        }
    }

    #[test]
    fn timeline_colours_pass_wcag_aa_on_their_panel() {
        assert!((contrast("#000000", "#ffffff") - 21.0).abs() < 1e-9);
        assert!((contrast("#777777", "#777777") - 1.0).abs() < 1e-9);
        let (_, light_panel, dark_panel) = TIMELINE_COLOURS[0];
        for (what, light, dark) in &TIMELINE_COLOURS[1..] {
            // Text needs 4.5:1, the band's stretches and the lines 3:1 (WCAG 1.4.3, 1.4.11).
            let need = if what.ends_with("text") { 4.5 } else { 3.0 };
            for (colour, panel) in [(light, light_panel), (dark, dark_panel)] {
                let c = contrast(colour, panel);
                assert!(c >= need, "{what} {colour} on {panel}: {c:.2}:1 < {need}:1");
            }
        }
    }
}
