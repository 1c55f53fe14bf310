//! What the breaker diagram writes: the arrows' labels from the breaker's parameters (and its
//! half-open rule), and why the last change of state happened.

use crate::resilience::{BreakerConfig, BreakerState, HalfOpenRule, TransitionReason, Window};
use crate::sim::latency::Micros;
use crate::sim::trace::BreakerChange;

fn seconds(m: Micros) -> String {
    let s = m as f64 / 1e6;
    if (s - s.round()).abs() < 1e-9 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

/// The arrows' labels, from the parameters.
pub fn arrow_labels(c: &BreakerConfig) -> [String; 4] {
    let window = match c.window {
        Window::Time(w) => format!("in {}", seconds(w)),
        Window::Count(n) => format!("of the last {n}"),
    };
    let plural = if c.half_open_probes == 1 { "" } else { "s" };
    let (half_open_close, half_open_reopen) = match c.half_open_rule {
        HalfOpenRule::FirstFailureReopens => (
            format!("{} probe{plural} succeed", c.half_open_probes),
            "a probe fails".to_string(),
        ),
        // Resilience4j judges the trial calls together once all their results are in.
        HalfOpenRule::RateOverPermitted => {
            let ratio = c.failure_ratio * 100.0;
            let trials = c.half_open_probes;
            (
                format!("< {ratio:.0}% of {trials} trial{plural} fail"),
                format!("≥ {ratio:.0}% of {trials} trial{plural} fail"),
            )
        }
    };
    [
        format!(
            "≥ {:.0}% of ≥ {} calls {window} fail",
            c.failure_ratio * 100.0,
            c.min_calls
        ),
        format!("after {}", seconds(c.cooldown)),
        half_open_close,
        half_open_reopen,
    ]
}

/// Which arrow a change of state took: 0 closed->open, 1 open->half open, 2 half open->closed,
/// 3 half open->open.
pub fn arrow_of(from: BreakerState, to: BreakerState) -> Option<usize> {
    match (from, to) {
        (BreakerState::Closed, BreakerState::Open) => Some(0),
        (BreakerState::Open, BreakerState::HalfOpen) => Some(1),
        (BreakerState::HalfOpen, BreakerState::Closed) => Some(2),
        (BreakerState::HalfOpen, BreakerState::Open) => Some(3),
        _ => None,
    }
}

pub fn reason_text(reason: TransitionReason) -> String {
    match reason {
        TransitionReason::FailureRatio { failures, calls } => {
            format!("{failures} of {calls} calls in the window failed")
        }
        TransitionReason::SlowCallRate { slow, calls } => {
            format!("{slow} of {calls} calls in the window were slow")
        }
        TransitionReason::CooldownElapsed => "the cool-down ended and a call came".to_string(),
        TransitionReason::ProbeFailed => "a probe failed".to_string(),
        TransitionReason::LateFailure => "a call from before the opening failed".to_string(),
        TransitionReason::ProbesSucceeded => "every probe succeeded".to_string(),
        TransitionReason::TrialsJudged {
            failures, calls, ..
        } => {
            format!("{failures} of {calls} trial calls failed")
        }
    }
}

/// The state diagram in words, for those who cannot see it: where the breaker is, since when
/// and why it last changed, then each arrow with what takes it ("Circuit breaker state
/// diagram: OPEN since 6.3 s, because 301 of 602 calls in the window failed. Arrows: CLOSED to
/// OPEN when ...").
pub fn diagram_description(
    c: &BreakerConfig,
    state: BreakerState,
    last: Option<&BreakerChange>,
    clock_start: Option<Micros>,
) -> String {
    let name = |s: BreakerState| match s {
        BreakerState::Closed => "CLOSED",
        BreakerState::Open => "OPEN",
        BreakerState::HalfOpen => "HALF_OPEN",
    };
    let now = match last {
        Some(change) => format!(
            "{} since {}, because {}",
            name(state),
            crate::page::replay::clock(change.at, clock_start),
            reason_text(change.reason)
        ),
        None => format!("{} since the start", name(state)),
    };
    let labels = arrow_labels(c);
    let arrows = [
        (BreakerState::Closed, BreakerState::Open),
        (BreakerState::Open, BreakerState::HalfOpen),
        (BreakerState::HalfOpen, BreakerState::Closed),
        (BreakerState::HalfOpen, BreakerState::Open),
    ]
    .iter()
    .zip(&labels)
    .map(|((from, to), label)| format!("{} to {}: {label}", name(*from), name(*to)))
    .collect::<Vec<_>>()
    .join("; ");
    format!("Circuit breaker state diagram: {now}. Arrows: {arrows}.")
}

/// The failure ratio as the diagram writes it beside its gauge, with when the breaker looks at
/// it: only as a call ends, so a ratio past the threshold in CLOSED means the next result will
/// open it (or that the window holds too few calls to decide).
pub fn ratio_words(c: &BreakerConfig, state: BreakerState, calls: u32, failed: u32) -> String {
    let ratio = if calls > 0 {
        failed as f64 / calls as f64
    } else {
        0.0
    };
    let head = format!(
        "{:.0}% (opens at {:.0}%; checked as each call ends)",
        ratio * 100.0,
        c.failure_ratio * 100.0
    );
    if state != BreakerState::Closed || ratio < c.failure_ratio {
        return head;
    }
    if calls < c.min_calls {
        format!(
            "{head}: only {calls} of the {} calls it needs to decide",
            c.min_calls
        )
    } else {
        format!("{head}: past the threshold, it opens as the next call ends")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Preset;

    #[test]
    fn the_diagram_says_where_it_is_since_when_why_and_each_arrow() {
        let c = inventory_breaker(Preset::Lesson(crate::sim::scenario::Scenario::Cb));
        let change = BreakerChange {
            at: 6_300_000,
            from: BreakerState::Closed,
            to: BreakerState::Open,
            reason: TransitionReason::FailureRatio {
                failures: 301,
                calls: 602,
            },
        };
        let words = diagram_description(&c, BreakerState::Open, Some(&change), None);
        assert!(
            words.starts_with("Circuit breaker state diagram: OPEN since 6.3 s, because 301 of 602 calls in the window failed. Arrows: CLOSED to OPEN: "),
            "{words}"
        );
        assert!(
            words.contains("OPEN to HALF_OPEN: ") && words.contains("HALF_OPEN to OPEN: "),
            "{words}"
        );
        let start = diagram_description(&c, BreakerState::Closed, None, None);
        assert!(start.contains("CLOSED since the start."), "{start}");
    }

    #[test]
    fn the_ratio_says_when_the_breaker_looks_at_it() {
        let c = inventory_breaker(Preset::Lesson(crate::sim::scenario::Scenario::Cb));
        let closed = BreakerState::Closed;
        assert_eq!(
            ratio_words(&c, closed, 40, 10),
            "25% (opens at 50%; checked as each call ends)"
        );
        let past = ratio_words(&c, closed, 40, 24);
        assert!(past.starts_with("60% (opens at 50%"), "{past}");
        assert!(past.ends_with("it opens as the next call ends"), "{past}");
        let few = ratio_words(&c, closed, 5, 5);
        assert!(
            few.contains(&format!("only 5 of the {} calls", c.min_calls)),
            "{few}"
        );
        let open = ratio_words(&c, BreakerState::Open, 40, 23);
        assert!(open.ends_with("each call ends)"), "{open}");
        assert!(ratio_words(&c, closed, 0, 0).starts_with("0% "));
    }

    fn inventory_breaker(preset: Preset) -> BreakerConfig {
        preset
            .config()
            .first_stack()
            .unwrap()
            .breaker
            .clone()
            .expect("the preset has a breaker")
    }

    #[test]
    fn lesson_000s_breaker_reopens_on_one_failed_probe() {
        let labels = arrow_labels(&inventory_breaker(Preset::Lesson(
            crate::sim::scenario::Scenario::Cb,
        )));
        assert_eq!(labels[0], "≥ 50% of ≥ 20 calls in 10 s fail");
        assert_eq!(labels[1], "after 2 s");
        assert_eq!(labels[2], "3 probes succeed");
        assert_eq!(labels[3], "a probe fails");
    }

    #[test]
    fn resilience4js_breaker_judges_its_trial_calls_together() {
        let labels = arrow_labels(&inventory_breaker(Preset::NorthwindAsWrittenSeparate));
        assert_eq!(labels[2], "< 50% of 5 trials fail");
        assert_eq!(labels[3], "≥ 50% of 5 trials fail");
    }

    #[test]
    fn each_change_of_state_takes_its_own_arrow() {
        use BreakerState::*;
        assert_eq!(arrow_of(Closed, Open), Some(0));
        assert_eq!(arrow_of(Open, HalfOpen), Some(1));
        assert_eq!(arrow_of(HalfOpen, Closed), Some(2));
        assert_eq!(arrow_of(HalfOpen, Open), Some(3));
        assert_eq!(arrow_of(Closed, HalfOpen), None);
    }
}
