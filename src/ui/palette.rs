//! Colours of the outcomes, from the Okabe-Ito palette (safe for colour-blind readers); the
//! same names as the CSS variables in `static/style.css`.

use plotters::style::RGBColor;

use crate::sim::trace::Outcome;

/// The colour of an outcome on the charts.
pub fn outcome_colour(outcome: Outcome) -> RGBColor {
    match outcome {
        Outcome::Ok => RGBColor(0, 158, 115),
        Outcome::Timeout => RGBColor(213, 94, 0),
        Outcome::CircuitOpen => RGBColor(204, 121, 167),
        Outcome::BulkheadFull => RGBColor(230, 159, 0),
        Outcome::BudgetExhausted => RGBColor(0, 114, 178),
        Outcome::Shed => RGBColor(86, 180, 233),
        Outcome::BusinessRejected => RGBColor(240, 228, 66),
        // Past Okabe-Ito's eight: darker and lighter shades of its hues, told apart by the
        // legend's order as much as by colour.
        Outcome::Fallback => RGBColor(160, 140, 220),
        Outcome::DependencyError => RGBColor(120, 70, 30),
        Outcome::RateLimited => RGBColor(0, 90, 90),
        Outcome::ClientGaveUp => RGBColor(160, 160, 160),
        Outcome::GatewayRejected => RGBColor(0, 60, 110),
        Outcome::GatewayTimeout => RGBColor(140, 50, 0),
        Outcome::Unfinished => RGBColor(95, 95, 95),
        Outcome::ConcurrencyLimited => RGBColor(110, 60, 130),
    }
}

/// The CSS class of an outcome's chips and legend swatches.
pub fn outcome_class(outcome: Outcome) -> String {
    format!("outcome-{}", outcome.name().replace('_', "-"))
}

/// Background, ink and grid colours of the charts in the light or dark theme.
pub struct ChartTheme {
    /// Background.
    pub background: RGBColor,
    /// Text and axes.
    pub ink: RGBColor,
    /// Marker lines (p50).
    pub marker: RGBColor,
}

/// The chart colours for the theme.
pub fn chart_theme(dark: bool) -> ChartTheme {
    if dark {
        ChartTheme {
            background: RGBColor(31, 33, 39),
            ink: RGBColor(241, 241, 244),
            marker: RGBColor(86, 180, 233),
        }
    } else {
        ChartTheme {
            background: RGBColor(255, 255, 255),
            ink: RGBColor(29, 29, 31),
            marker: RGBColor(0, 114, 178),
        }
    }
}
