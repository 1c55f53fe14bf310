//! Colours of the charts: the outcomes' (their rows of `page::outcome_look`) and the themes'.

use plotters::style::RGBColor;

use crate::sim::trace::Outcome;

/// The colour of an outcome on the charts (its row of [`crate::page::outcome_look`]).
pub fn outcome_colour(outcome: Outcome) -> RGBColor {
    let (r, g, b) = crate::page::outcome_look::look(outcome).rgb;
    RGBColor(r, g, b)
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
