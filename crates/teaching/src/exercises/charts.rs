//! The arithmetic behind the exercise views' charts, kept out of the views so it is tested on
//! the host: the width a chart is laid out for, axis ticks that fit it, labels kept inside
//! it, the breaker-state series as spans, when an alert was firing.

use super::AlertSample;
pub use crate::page::charts::axis::nice_ticks;
use crate::resilience::Micros;

/// The widest an exercise chart is laid out: a wider figure scales the drawing up.
pub const WIDE: f64 = 900.0;

/// The narrowest an exercise chart is laid out: a narrower figure scales the drawing down.
const NARROWEST: f64 = 280.0;

/// The width, in drawing units, of a chart whose figure is `measured` CSS pixels wide: the
/// figure's own width up to [`WIDE`], so that on a phone one unit is one CSS pixel and the
/// text keeps the size the style sheet gives it; [`WIDE`] before the figure is measured.
pub fn layout_width(measured: f64) -> f64 {
    if measured.is_finite() && measured > 0.0 {
        measured.clamp(NARROWEST, WIDE)
    } else {
        WIDE
    }
}

/// Whether a chart `width` wide puts its row labels above its rows rather than beside them.
pub fn narrow(width: f64) -> bool {
    width < 560.0
}

/// About how wide `text` is set in the page's sans-serif at `px` (a little over the average
/// advance of digits and lower case, so that labels judged apart by it do not touch).
pub fn text_width(text: &str, px: f64) -> f64 {
    text.chars().count() as f64 * px * 0.62
}

/// How many ticks to ask [`nice_ticks`] for along `length` units when a tick's label is up to
/// `label` units wide: labels at least a label's width plus a gap apart, at most `most`.
pub fn tick_target(length: f64, label: f64, most: usize) -> usize {
    let room = length / (label + 18.0);
    if room.is_finite() && room > 0.0 {
        (room.floor() as usize).clamp(1, most.max(1))
    } else {
        1
    }
}

/// Where to put the middle of a label `width` wide that belongs at `x`, so that it stays
/// between `left` and `right` with a few units to spare for an estimate a little short (at
/// their middle when it cannot).
pub fn keep_inside(x: f64, width: f64, left: f64, right: f64) -> f64 {
    const SPARE: f64 = 4.0;
    let (lo, hi) = (left + width / 2.0 + SPARE, right - width / 2.0 - SPARE);
    if lo > hi {
        (left + right) / 2.0
    } else {
        x.clamp(lo, hi)
    }
}

/// A stretch of seconds during which a breaker's gauge kept one value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StateSpan {
    /// First second.
    pub start: usize,
    /// One past the last second.
    pub end: usize,
    /// The gauge: 0 closed, 1 half open, 2 open.
    pub gauge: u8,
}

/// The gauge per second as spans of equal value, in order, covering every second.
pub fn state_spans(gauge_per_second: &[u8]) -> Vec<StateSpan> {
    let mut spans: Vec<StateSpan> = Vec::new();
    for (second, &gauge) in gauge_per_second.iter().enumerate() {
        match spans.last_mut() {
            Some(last) if last.gauge == gauge => last.end = second + 1,
            _ => spans.push(StateSpan {
                start: second,
                end: second + 1,
                gauge,
            }),
        }
    }
    spans
}

/// The stretches of time during which an alert was firing: each firing evaluation stands for
/// the `every` that ends at it; neighbours merge. Capped at `end`.
pub fn firing_spans(samples: &[AlertSample], every: Micros, end: Micros) -> Vec<(Micros, Micros)> {
    let mut spans: Vec<(Micros, Micros)> = Vec::new();
    for s in samples.iter().filter(|s| s.firing) {
        let from = s.at.saturating_sub(every);
        let to = s.at.min(end);
        match spans.last_mut() {
            Some(last) if last.1 >= from => last.1 = to.max(last.1),
            _ => spans.push((from, to)),
        }
    }
    spans
}

/// `value` as a share of `max`, within 0..=1 (0 when `max` is not positive).
pub fn fraction(value: f64, max: f64) -> f64 {
    if max > 0.0 && value.is_finite() {
        (value / max).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// A count for people: `2700` -> `"2,700"`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_laid_out_for_their_figure() {
        assert_eq!(layout_width(0.0), WIDE);
        assert_eq!(layout_width(f64::NAN), WIDE);
        assert_eq!(layout_width(348.0), 348.0);
        assert_eq!(layout_width(1_400.0), WIDE);
        assert_eq!(layout_width(100.0), 280.0);
        assert!(narrow(348.0) && !narrow(WIDE));
        // A phone's 300 units of axis hold 3 or 4 labels like "600 ms"; a desktop's 630 keep 6.
        let label = text_width("600 ms", 13.0);
        assert!((3..=4).contains(&tick_target(300.0, label, 6)));
        // Ticks print with the digits their step needs and no float noise.
        for (max, target) in [(0.35, 6), (0.9, 3), (0.07, 7), (12.0, 5), (1.7, 20)] {
            let ticks = nice_ticks(max, target);
            let step = ticks[1] - ticks[0];
            let places = (-step.log10().floor()).max(0.0) as usize;
            for t in &ticks {
                let text = format!("{t}");
                let decimals = text.split('.').nth(1).map_or(0, str::len);
                assert!(decimals <= places, "{max}/{target}: {text} (step {step})");
            }
        }
        assert_eq!(tick_target(630.0, label, 6), 6);
        assert_eq!(tick_target(f64::NAN, label, 6), 1);
        assert_eq!(keep_inside(0.0, 40.0, 0.0, 300.0), 24.0);
        assert_eq!(keep_inside(299.0, 40.0, 0.0, 300.0), 276.0);
        assert_eq!(keep_inside(150.0, 40.0, 0.0, 300.0), 150.0);
        assert_eq!(keep_inside(10.0, 400.0, 0.0, 300.0), 150.0);
    }

    #[test]
    fn spans_cover_every_second() {
        let spans = state_spans(&[0, 0, 2, 2, 1, 0]);
        assert_eq!(
            spans,
            vec![
                StateSpan {
                    start: 0,
                    end: 2,
                    gauge: 0
                },
                StateSpan {
                    start: 2,
                    end: 4,
                    gauge: 2
                },
                StateSpan {
                    start: 4,
                    end: 5,
                    gauge: 1
                },
                StateSpan {
                    start: 5,
                    end: 6,
                    gauge: 0
                },
            ]
        );
        assert!(state_spans(&[]).is_empty());
    }

    #[test]
    fn firing_evaluations_merge_into_spans() {
        let s = |at: Micros, firing| AlertSample {
            at,
            not_closed_share: 0.0,
            firing,
        };
        let samples = [
            s(15, false),
            s(30, true),
            s(45, true),
            s(60, false),
            s(75, true),
        ];
        assert_eq!(firing_spans(&samples, 15, 70), vec![(15, 45), (60, 70)]);
        assert!(firing_spans(&[], 15, 100).is_empty());
    }

    #[test]
    fn fractions_and_counts() {
        assert_eq!(fraction(50.0, 200.0), 0.25);
        assert_eq!(fraction(500.0, 200.0), 1.0);
        assert_eq!(fraction(1.0, 0.0), 0.0);
        assert_eq!(fraction(f64::NAN, 1.0), 0.0);
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(2_700), "2,700");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
