//! How an embedded widget looks in its host page, apart from what it shows: how much chrome
//! around the view (`chrome`), how large (`scale`), and whether the host page is dark (for
//! `theme="auto"`, read from the host's computed background by `widgets.js`). Pure: tested on
//! the host.

use crate::sim::trace::{Outcome, Trace};

/// How much is drawn around a widget's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Chrome {
    /// Everything the playground's region has: transport, the lesson's four counters and any
    /// other, the keyboard line.
    Full,
    /// Transport and scrub bar, counters only for outcomes that occur in the run, no keyboard
    /// line. The default: a course page's reader came for the view.
    #[default]
    Compact,
    /// The view alone, at the playhead the attributes give.
    None,
}

impl Chrome {
    /// The values of the `chrome` attribute.
    pub const ALL: [Chrome; 3] = [Chrome::Full, Chrome::Compact, Chrome::None];

    /// The attribute value.
    pub fn key(self) -> &'static str {
        match self {
            Chrome::Full => "full",
            Chrome::Compact => "compact",
            Chrome::None => "none",
        }
    }
}

/// The smallest and largest `scale`.
pub const SCALE_RANGE: (f64, f64) = (0.5, 3.0);
/// The scale projector mode gives a widget when no `scale` is set.
pub const PROJECTOR_SCALE: f64 = 1.5;

/// The look attributes of one widget.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WidgetLook {
    /// How much chrome.
    pub chrome: Chrome,
    /// How much larger than the page's type (1 = as is); `None` when not set.
    pub scale: Option<f64>,
    /// Whether the host page's background is dark, when `widgets.js` could tell.
    pub host_dark: Option<bool>,
    /// The level of the widget's own headings (`heading-level`, 2 to 6), so that they fit
    /// under the course page's; `None`: 2.
    pub heading_level: Option<u8>,
}

impl WidgetLook {
    /// Attribute names this type reads.
    pub const KEYS: [&'static str; 4] = ["chrome", "scale", "host-background", "heading-level"];

    /// Reads one look attribute into `self`; a bad value leaves the default and returns a
    /// notice naming the attribute and what it allows.
    pub fn read(&mut self, key: &str, value: &str) -> Option<String> {
        let shown = || value.chars().take(40).collect::<String>();
        match key {
            "chrome" => match Chrome::ALL.into_iter().find(|c| c.key() == value.trim()) {
                Some(c) => self.chrome = c,
                None => {
                    return Some(format!(
                        "chrome: \"{}\" is not allowed (full, compact or none); using compact.",
                        shown()
                    ))
                }
            },
            "scale" => match value.trim().parse::<f64>() {
                Ok(s) if s.is_finite() && (SCALE_RANGE.0..=SCALE_RANGE.1).contains(&s) => {
                    self.scale = Some(s)
                }
                _ => {
                    return Some(format!(
                        "scale: \"{}\" is not allowed (a number from {} to {}); using 1.",
                        shown(),
                        SCALE_RANGE.0,
                        SCALE_RANGE.1
                    ))
                }
            },
            "host-background" => self.host_dark = css_colour_is_dark(value),
            "heading-level" => match value.trim().parse::<u8>() {
                Ok(level) if (2..=6).contains(&level) => self.heading_level = Some(level),
                _ => {
                    return Some(format!(
                    "heading-level: \"{}\" is not allowed (a whole number from 2 to 6); using 2.",
                    shown()
                ))
                }
            },
            _ => {}
        }
        None
    }

    /// The level of the widget's own headings.
    pub fn headings(&self) -> u8 {
        self.heading_level.unwrap_or(2)
    }

    /// The zoom to apply: `scale`, else the projector's, else 1.
    pub fn zoom(&self, projector: bool) -> f64 {
        self.scale
            .unwrap_or(if projector { PROJECTOR_SCALE } else { 1.0 })
    }

    /// Dark or light for `theme` (`Some` when the attribute said dark or light): the theme,
    /// else the host page's background, else the reader's system.
    pub fn dark(&self, theme: Option<bool>, system_dark: bool) -> bool {
        theme.or(self.host_dark).unwrap_or(system_dark)
    }
}

/// Whether a computed CSS colour (`rgb(r, g, b)` or `rgba(r, g, b, a)`, as
/// `getComputedStyle` gives it) is dark: its relative luminance below 0.18, about where dark
/// and light text contrast equally. `None` for a colour it cannot read or a transparent one.
pub fn css_colour_is_dark(css: &str) -> Option<bool> {
    let css = css.trim().to_ascii_lowercase();
    let inner = css
        .strip_prefix("rgba(")
        .or_else(|| css.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<f64> = inner
        .split([',', ' ', '/'])
        .filter(|p| !p.is_empty())
        .map(|p| p.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .ok()?;
    let (rgb, alpha) = match parts.as_slice() {
        [r, g, b] => ([*r, *g, *b], 1.0),
        [r, g, b, a] => ([*r, *g, *b], *a),
        _ => return None,
    };
    if alpha <= 0.0 || rgb.iter().any(|c| !(0.0..=255.0).contains(c)) {
        return None;
    }
    let linear = |c: f64| {
        let c = c / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2]);
    Some(luminance < 0.18)
}

/// The outcomes a compact widget counts: ok, and every other one that occurs in the run (the
/// run is the whole of its configuration, so an outcome absent from it cannot occur there).
pub fn occurring_outcomes(trace: &Trace) -> Vec<Outcome> {
    std::iter::once(Outcome::Ok)
        .chain(
            Outcome::ALL
                .into_iter()
                .filter(|o| *o != Outcome::Ok && *o != Outcome::Unfinished)
                .filter(|o| trace.outcomes.get(*o) > 0),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::model::run;
    use crate::sim::scenario::Scenario;

    #[test]
    fn host_backgrounds_read_as_dark_or_light() {
        assert_eq!(css_colour_is_dark("rgb(255, 250, 240)"), Some(false));
        assert_eq!(css_colour_is_dark("rgb(253, 246, 227)"), Some(false));
        assert_eq!(css_colour_is_dark("rgb(18, 18, 24)"), Some(true));
        assert_eq!(css_colour_is_dark("rgba(30, 30, 30, 0.9)"), Some(true));
        assert_eq!(css_colour_is_dark("rgb(40 44 52)"), Some(true));
        assert_eq!(css_colour_is_dark("rgb(128, 128, 128)"), Some(false));
        assert_eq!(css_colour_is_dark("rgb(90, 90, 90)"), Some(true));
        for unreadable in [
            "rgba(0, 0, 0, 0)",
            "transparent",
            "",
            "rgb(300, 0, 0)",
            "rgb(1, 2)",
            "hsl(0, 0%, 0%)",
            "rgb(NaN, 0, 0)",
        ] {
            assert_eq!(css_colour_is_dark(unreadable), None, "{unreadable:?}");
        }
    }

    #[test]
    fn the_theme_wins_then_the_host_then_the_system() {
        let mut look = WidgetLook::default();
        assert!(look.dark(None, true));
        assert!(look.read("host-background", "rgb(253, 246, 227)").is_none());
        assert!(
            !look.dark(None, true),
            "a cream page keeps a dark system light"
        );
        assert!(look.dark(Some(true), false));
        look.read("host-background", "rgb(20, 20, 20)");
        assert!(look.dark(None, false));
        assert!(!look.dark(Some(false), true));
    }

    #[test]
    fn the_heading_level_is_two_to_six() {
        let mut look = WidgetLook::default();
        assert_eq!(look.headings(), 2);
        assert!(look.read("heading-level", "4").is_none());
        assert_eq!(look.headings(), 4);
        for bad in ["1", "7", "three", ""] {
            let notice = look.read("heading-level", bad).expect("a notice");
            assert!(
                notice.starts_with("heading-level: ") && notice.contains("2 to 6"),
                "{notice}"
            );
        }
        assert_eq!(look.headings(), 4, "a bad value leaves the last good one");
    }

    #[test]
    fn chrome_and_scale_are_read_with_notices_for_bad_values() {
        let mut look = WidgetLook::default();
        assert_eq!(look.chrome, Chrome::Compact);
        assert!(look.read("chrome", "none").is_none());
        assert_eq!(look.chrome, Chrome::None);
        let notice = look.read("chrome", "lots").unwrap();
        assert!(notice.starts_with("chrome:") && notice.contains("full, compact or none"));
        assert_eq!(look.chrome, Chrome::None);
        assert!(look.read("scale", "2").is_none());
        assert_eq!(look.zoom(false), 2.0);
        for bad in ["0", "-1", "NaN", "inf", "huge", "3.5"] {
            let notice = look.read("scale", bad).unwrap();
            assert!(
                notice.starts_with("scale:") && notice.contains("0.5 to 3"),
                "{notice}"
            );
        }
        assert_eq!(look.zoom(false), 2.0, "a bad value keeps the last good one");
        let plain = WidgetLook::default();
        assert_eq!(plain.zoom(false), 1.0);
        assert_eq!(plain.zoom(true), PROJECTOR_SCALE);
    }

    #[test]
    fn compact_counters_are_the_outcomes_that_occur() {
        let none = run(&Scenario::None.config()).unwrap();
        let shown = occurring_outcomes(&none);
        assert_eq!(shown[0], Outcome::Ok);
        assert!(
            !shown.contains(&Outcome::CircuitOpen),
            "no breaker, no open circuit"
        );
        assert!(
            !shown.contains(&Outcome::BulkheadFull),
            "no bulkhead, never full"
        );
        let cb = run(&Scenario::Cb.config()).unwrap();
        assert!(occurring_outcomes(&cb).contains(&Outcome::CircuitOpen));
    }
}
