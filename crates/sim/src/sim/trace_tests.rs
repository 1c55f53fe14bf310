use super::*;

#[test]
fn lesson_percentile_rule() {
    let p = Percentiles::lesson_rule((1..=100).rev().collect());
    assert_eq!(p.p50, Some(51));
    assert_eq!(p.p99, Some(100));
    let p = Percentiles::lesson_rule(vec![7]);
    assert_eq!((p.p50, p.p99), (Some(7), Some(7)));
    assert_eq!(Percentiles::lesson_rule(vec![]), Percentiles::default());
}

#[test]
fn counts_add_up() {
    let mut c = OutcomeCounts::default();
    for (i, o) in Outcome::ALL.into_iter().enumerate() {
        c.add(o);
        assert_eq!(c.get(o), 1);
        assert_eq!(c.total(), i as u64 + 1);
    }
    let names: std::collections::BTreeSet<_> = Outcome::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names.len(), Outcome::ALL.len());
    // The JSON key of each count is the outcome's name.
    let json = serde_json::to_value(c).unwrap();
    for o in Outcome::ALL {
        assert_eq!(json[o.name()], 1, "{}", o.name());
    }
}

#[test]
fn exact_counter_follows_the_lesson_rule_then_hands_over() {
    let values: Vec<Micros> = (0..1_001u64).map(|i| (i * 7_919) % 1_000 * 1_000).collect();
    let mut p = LessonPercentiles::default();
    values.iter().for_each(|&v| p.record(v));
    assert_eq!(p.percentiles(), Percentiles::lesson_rule(values.clone()));
    // More distinct values than it counts exactly: approximate, within 1%.
    let many: Vec<Micros> = (0..EXACT_DISTINCT_VALUES as u64 * 2)
        .map(|i| 1_000 + i)
        .collect();
    let mut p = LessonPercentiles::default();
    many.iter().for_each(|&v| p.record(v));
    let got = p.percentiles();
    let want = Percentiles::lesson_rule(many);
    assert!(got.approximate);
    for (g, w) in [(got.p50, want.p50), (got.p99, want.p99)] {
        let (g, w) = (g.unwrap() as f64, w.unwrap() as f64);
        assert!((g / w - 1.0).abs() < 0.01, "{g} vs {w}");
    }
}

#[test]
fn histograms_round_trip_through_json() {
    let mut h = LatencyHistogram::new();
    for v in [0, 1, 40_000, 40_000, 300_000, 4_000_000, u64::MAX] {
        h.record(v);
    }
    assert_eq!(h.count(), 7);
    let json = serde_json::to_string(&h).unwrap();
    let back: LatencyHistogram = serde_json::from_str(&json).unwrap();
    assert_eq!(back, h);
    assert_eq!(back.value_at_rank(6), Some(h.value_at_rank(6).unwrap()));
    assert!(h.value_at_rank(7).is_none());
}
