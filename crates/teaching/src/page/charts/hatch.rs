//! Fill patterns that tell the outcomes (and the breaker's states) apart without their colours,
//! and marks that tell the lines apart: a reader who cannot tell green from orange still sees
//! plain bars beside hatched ones, a line of circles beside a line of squares. The geometry is
//! pure: the segments that hatch a rectangle of canvas pixels, anchored to the canvas so that
//! neighbouring bars' lines meet, and where along a line its marks stand.

/// A fill pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Hatch {
    /// No lines: the colour alone (ok, the outcome a reader looks for first).
    Solid,
    /// Lines rising to the right, `/`.
    Rising,
    /// Lines falling to the right, `\`.
    Falling,
    /// Both diagonals.
    Cross,
    /// Level lines.
    Horizontal,
    /// Upright lines.
    Vertical,
    /// A grid of dots.
    Dotted,
}

impl Hatch {
    /// The CSS class of its legend swatch (`static/style.css`).
    pub fn class(self) -> &'static str {
        match self {
            Hatch::Solid => "hatch-solid",
            Hatch::Rising => "hatch-rising",
            Hatch::Falling => "hatch-falling",
            Hatch::Cross => "hatch-cross",
            Hatch::Horizontal => "hatch-horizontal",
            Hatch::Vertical => "hatch-vertical",
            Hatch::Dotted => "hatch-dotted",
        }
    }
}

/// The mark a line carries at intervals, beside its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LineMark {
    /// A plain line (the chart's main line).
    Plain,
    /// Filled circles.
    Circle,
    /// Filled squares.
    Square,
    /// Hollow circles.
    Ring,
}

impl LineMark {
    /// The CSS class of its legend key (`static/style.css`).
    pub fn class(self) -> &'static str {
        match self {
            LineMark::Plain => "mark-plain",
            LineMark::Circle => "mark-circle",
            LineMark::Square => "mark-square",
            LineMark::Ring => "mark-ring",
        }
    }
}

/// Which of a line's `points` carry its mark: about `count` of them, evenly spaced, the
/// `series`-th line of a chart starting a little further along so that marks of lines that
/// run together do not sit on each other.
pub fn marked_points(points: usize, count: usize, series: usize) -> Vec<usize> {
    if points == 0 || count == 0 {
        return Vec::new();
    }
    let every = (points / count).max(1);
    let start = (every * (series % 3)) / 3;
    (start..points).step_by(every).collect()
}

/// A segment between two canvas points.
pub type Segment = [(i32, i32); 2];

/// The segments that hatch the rectangle from `(x0, y0)` to `(x1, y1)` (canvas pixels, in
/// either order) with `hatch`, `gap` pixels apart; every segment lies inside the rectangle.
/// Dots are segments one pixel long.
pub fn hatch_segments(
    hatch: Hatch,
    (x0, y0): (i32, i32),
    (x1, y1): (i32, i32),
    gap: i32,
) -> Vec<Segment> {
    let (left, right) = (x0.min(x1), x0.max(x1));
    let (top, bottom) = (y0.min(y1), y0.max(y1));
    let gap = gap.max(2);
    // The first multiple of `gap` at or after `v`, so patterns line up across bars.
    let first = |v: i32| v.div_euclid(gap) * gap + if v.rem_euclid(gap) == 0 { 0 } else { gap };
    let mut out = Vec::new();
    let rising = |out: &mut Vec<Segment>| {
        // x + y = c
        let mut c = first(left + top);
        while c <= right + bottom {
            let from = left.max(c - bottom);
            let to = right.min(c - top);
            if from <= to {
                out.push([(from, c - from), (to, c - to)]);
            }
            c += gap;
        }
    };
    let falling = |out: &mut Vec<Segment>| {
        // x - y = c
        let mut c = first(left - bottom);
        while c <= right - top {
            let from = left.max(c + top);
            let to = right.min(c + bottom);
            if from <= to {
                out.push([(from, from - c), (to, to - c)]);
            }
            c += gap;
        }
    };
    match hatch {
        Hatch::Solid => {}
        Hatch::Rising => rising(&mut out),
        Hatch::Falling => falling(&mut out),
        Hatch::Cross => {
            rising(&mut out);
            falling(&mut out);
        }
        Hatch::Horizontal => {
            let mut y = first(top);
            while y <= bottom {
                out.push([(left, y), (right, y)]);
                y += gap;
            }
        }
        Hatch::Vertical => {
            let mut x = first(left);
            while x <= right {
                out.push([(x, top), (x, bottom)]);
                x += gap;
            }
        }
        Hatch::Dotted => {
            let mut y = first(top);
            while y <= bottom {
                let mut x = first(left) + if (y / gap) % 2 == 0 { 0 } else { gap / 2 };
                while x < right {
                    out.push([(x, y), (x + 1, y)]);
                    x += gap;
                }
                y += gap;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_segment_stays_inside_its_rectangle() {
        let all = [
            Hatch::Rising,
            Hatch::Falling,
            Hatch::Cross,
            Hatch::Horizontal,
            Hatch::Vertical,
            Hatch::Dotted,
        ];
        for hatch in all {
            for (a, b) in [((10, 20), (50, 200)), ((93, 7), (61, 12)), ((0, 0), (3, 3))] {
                let segments = hatch_segments(hatch, a, b, 6);
                let (l, r) = (a.0.min(b.0), a.0.max(b.0));
                let (t, bo) = (a.1.min(b.1), a.1.max(b.1));
                for s in &segments {
                    for &(x, y) in s {
                        assert!(
                            (l..=r).contains(&x) && (t..=bo).contains(&y),
                            "{hatch:?} {s:?} outside {a:?} {b:?}"
                        );
                    }
                }
            }
            assert!(
                hatch_segments(hatch, (10, 20), (50, 200), 6).len() > 5,
                "{hatch:?} draws lines"
            );
        }
        assert!(hatch_segments(Hatch::Solid, (0, 0), (100, 100), 6).is_empty());
    }

    #[test]
    fn marks_are_spaced_along_a_line_and_staggered_between_lines() {
        assert_eq!(
            marked_points(120, 12, 0),
            (0..120).step_by(10).collect::<Vec<_>>()
        );
        assert_eq!(marked_points(120, 12, 1)[0], 3);
        assert_eq!(marked_points(120, 12, 2)[0], 6);
        assert_eq!(marked_points(5, 12, 0), vec![0, 1, 2, 3, 4]);
        assert!(marked_points(0, 12, 0).is_empty());
        assert!(marked_points(120, 12, 2).iter().all(|&i| i < 120));
    }

    #[test]
    fn diagonals_keep_their_slope_and_neighbouring_bars_line_up() {
        for [(ax, ay), (bx, by)] in hatch_segments(Hatch::Rising, (0, 0), (40, 40), 8) {
            assert_eq!(ax + ay, bx + by);
        }
        for [(ax, ay), (bx, by)] in hatch_segments(Hatch::Falling, (0, 0), (40, 40), 8) {
            assert_eq!(ax - ay, bx - by);
        }
        // Two bars side by side: the lines of the right one continue those of the left.
        let left = hatch_segments(Hatch::Rising, (0, 0), (20, 40), 8);
        let right = hatch_segments(Hatch::Rising, (20, 0), (40, 40), 8);
        let sums = |s: &[Segment]| {
            s.iter()
                .map(|[(x, y), _]| x + y)
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert!(sums(&left).iter().all(|c| c % 8 == 0));
        assert!(sums(&right).iter().all(|c| c % 8 == 0));
    }
}
