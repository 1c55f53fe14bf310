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

/// Round tick values from 0 to at least `max`, about `target` of them (1, 2 or 5 times a power
/// of ten apart). Always at least two ticks; a `max` that is not a positive number gives
/// `[0, 1]`.
pub fn nice_ticks(max: f64, target: usize) -> Vec<f64> {
    if !max.is_finite() || max <= 0.0 {
        return vec![0.0, 1.0];
    }
    let target = target.clamp(1, 20) as f64;
    let rough = max / target;
    let power = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= rough)
        .unwrap_or(10.0 * power);
    let count = (max / step).ceil().max(1.0) as usize;
    // Each tick to the places its step has, so `{tick}` prints 0.3, not 0.30000000000000004.
    let places = 10f64.powi((-step.log10().floor()).max(0.0) as i32);
    (0..=count)
        .map(|i| (i as f64 * step * places).round() / places)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(nice_ticks(1_050.0, 5), vec![0.0, 500.0, 1_000.0, 1_500.0]);
        assert_eq!(
            nice_ticks(1_050.0, 6),
            vec![0.0, 200.0, 400.0, 600.0, 800.0, 1_000.0, 1_200.0]
        );
        assert_eq!(
            nice_ticks(100.0, 5),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        assert_eq!(nice_ticks(6.6, 4), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(nice_ticks(0.0, 5), vec![0.0, 1.0]);
        assert_eq!(nice_ticks(f64::NAN, 5), vec![0.0, 1.0]);
        assert_eq!(nice_ticks(-3.0, 5), vec![0.0, 1.0]);
        let t = nice_ticks(2_700.0, 0);
        assert!(t.len() >= 2 && *t.last().unwrap() >= 2_700.0);
        let t = nice_ticks(1e300, 5);
        assert!(t.len() <= 12);
    }

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
