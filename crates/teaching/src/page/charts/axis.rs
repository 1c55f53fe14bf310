//! How the charts write the numbers on their axes.

/// A tick's value as the axis shows it: whole numbers without a decimal point (`1500`, not
/// `1500.0`), others to at most three places, with no float noise (`0.3`, not
/// `0.30000000000000004`).
pub fn tick_label(value: f64) -> String {
    if !value.is_finite() {
        return String::new();
    }
    let rounded = (value * 1000.0).round() / 1000.0;
    if rounded == 0.0 {
        "0".to_string()
    } else {
        format!("{rounded}")
    }
}

/// How many characters the widest tick label of an axis from 0 to `top` takes.
pub fn widest_tick(top: f64) -> usize {
    tick_label(top.max(0.0).floor()).len().max(3)
}

/// How many ticks an axis `length_px` long can take with labels `text_px` tall, a label's
/// height and as much again between them: at most `most`, at least 2 (both ends).
pub fn ticks_that_fit(length_px: f64, text_px: f64, most: usize) -> usize {
    let fit = (length_px / (2.0 * text_px.max(1.0))).floor();
    if fit.is_finite() {
        (fit as usize).clamp(2, most.max(2))
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_written_without_a_needless_decimal_point() {
        assert_eq!(tick_label(1500.0), "1500");
        assert_eq!(tick_label(0.0), "0");
        assert_eq!(tick_label(-0.0), "0");
        assert_eq!(tick_label(2.5), "2.5");
        assert_eq!(tick_label(0.1 + 0.2), "0.3");
        assert_eq!(tick_label(f64::NAN), "");
        assert_eq!(widest_tick(1650.0), 4);
        assert_eq!(widest_tick(2.2), 3);
        assert_eq!(widest_tick(12_000.0), 5);
    }

    #[test]
    fn an_axis_takes_as_many_ticks_as_fit_its_length() {
        // A phone's lower load panel: about 60 px for labels 14 px tall.
        assert_eq!(ticks_that_fit(60.0, 14.0, 6), 2);
        assert_eq!(ticks_that_fit(100.0, 14.0, 6), 3);
        assert_eq!(ticks_that_fit(400.0, 14.0, 6), 6);
        assert_eq!(ticks_that_fit(0.0, 14.0, 6), 2);
        assert_eq!(ticks_that_fit(100.0, 0.0, 6), 6);
    }
}
