//! Fuzzed widget attributes: any attribute list never panics, every attribute the widget cannot
//! use is named in a notice, and the sweep of every attribute with an empty, huge, negative,
//! NaN, HTML and 10 KB value gives a notice for each one it refuses and takes the rest exactly.

#[path = "support/fuzz.rs"]
mod fuzz;

use fuzz::{assert_finite_outputs, awkward_values, page_key, value_text};
use proptest::prelude::*;
use resilience_playground::page::knobs::{knob, KNOBS};
use resilience_playground::page::permalink::{to_query, OTHER_KEYS};
use resilience_playground::page::state::Page;
use resilience_playground::page::widget::{WidgetKind, WidgetSpec};
use resilience_playground::sim::scenario::apply_set;

/// An attribute name: one the widget knows, one HTML owns, or any.
fn attribute_name() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => page_key(),
        1 => prop::sample::select(vec!["kind", "theme", "class", "id", "data-x", "aria-label"])
            .prop_map(str::to_string),
        1 => "[A-Za-z-]{1,10}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3_000, ..ProptestConfig::default() })]

    #[test]
    fn any_attributes_are_read_without_a_panic_and_bad_ones_are_named(
        attributes in prop::collection::vec((attribute_name(), value_text()), 0..6),
        query in any::<String>(),
    ) {
        let spec = WidgetSpec::from_attributes(&attributes, Vec::new());
        for notice in &spec.notices {
            prop_assert!(
                notice.starts_with("kind:") || notice.starts_with("theme:"),
                "{notice}"
            );
        }
        let bad_kinds = attributes
            .iter()
            .filter(|(k, v)| k.trim().eq_ignore_ascii_case("kind") && WidgetKind::parse(v).is_none())
            .count();
        let kind_notices = spec.notices.iter().filter(|n| n.starts_with("kind:")).count();
        prop_assert_eq!(kind_notices, bad_kinds);
        WidgetSpec::from_query(&query);
    }
}

proptest! {
    // Each case builds a page (five simulations in a debug build): fewer cases.
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_widget_page_names_every_setting_it_refuses(name in attribute_name(), value in value_text()) {
        let spec = WidgetSpec::from_attributes(&[(name.clone(), value.clone())], Vec::new());
        let (page, notices) = spec.page(false);
        let shown: String = name.trim().to_ascii_lowercase().chars().take(40).collect();
        for notice in &notices {
            prop_assert!(notice.contains(&shown), "{name}={value:?}: {notice}");
        }
        assert_finite_outputs(&page);
    }
}

/// Every attribute a widget takes as a setting, `kind` and `theme` too.
fn every_attribute() -> Vec<&'static str> {
    let mut all = vec!["kind", "theme"];
    all.extend(OTHER_KEYS);
    all.extend(KNOBS.iter().map(|k| k.key));
    all
}

#[test]
fn the_attribute_sweep_gives_a_notice_for_every_value_it_refuses_and_takes_the_rest_exactly() {
    // The widget with no attributes: the default page, at the end of its run (a diagram opens
    // where it shows something).
    let (default, none) = WidgetSpec::from_attributes(&[], Vec::new()).page(false);
    assert!(none.is_empty(), "{none:?}");
    assert_eq!(default.settings.full, Page::default().settings.full);
    let mut refused = 0;
    for name in every_attribute() {
        for value in awkward_values() {
            let spec =
                WidgetSpec::from_attributes(&[(name.to_string(), value.clone())], Vec::new());
            let (page, notices) = spec.page(false);
            let short: String = value.chars().take(12).collect();
            let taken_exactly = match knob(name) {
                Some(k) => {
                    let mut expected = default.settings.full.clone();
                    apply_set(&mut expected, k.key, &value).is_ok()
                        && k.read(&page.settings.full) == k.read(&expected)
                }
                // An empty theme is documented as `auto`.
                None => name == "theme" && value.is_empty(),
            };
            if taken_exactly {
                assert!(notices.is_empty(), "{name}={short}: {notices:?}");
                continue;
            }
            refused += 1;
            assert_eq!(notices.len(), 1, "{name}={short}: {notices:?}");
            assert!(
                notices[0].starts_with(&format!("{name}:")),
                "{name}={short}: {}",
                notices[0]
            );
            // The longest notice lists the 30 presets (about 620 characters) beside the value.
            assert!(
                notices[0].chars().count() < 800,
                "{name}={short}: a 10 KB value is quoted short"
            );
            // Nothing refused reaches the run: the link is the default page's (kind and theme
            // are not in it); `patterns` naming no pattern it knows keeps the preset's own.
            assert_eq!(to_query(&page), to_query(&default), "{name}={short}");
            assert!(page.runs.a.is_ok(), "{name}={short}");
        }
    }
    // Only an empty theme is taken: every other value is refused by every attribute.
    assert_eq!(
        refused,
        every_attribute().len() * awkward_values().len() - 1
    );
}

#[test]
fn every_attribute_at_once_with_one_awkward_value_gives_one_notice_each_and_the_default_run() {
    let default = Page::default();
    for value in awkward_values() {
        let attributes: Vec<(String, String)> = every_attribute()
            .into_iter()
            .map(|name| (name.to_string(), value.clone()))
            .collect();
        let spec = WidgetSpec::from_attributes(&attributes, Vec::new());
        assert_eq!(spec.kind, WidgetKind::CircuitDiagram);
        let (page, notices) = spec.page(false);
        let short: String = value.chars().take(12).collect();
        let expected = every_attribute().len() - usize::from(value.is_empty());
        assert_eq!(notices.len(), expected, "{short}: {notices:?}");
        assert!(page.runs.a.is_ok(), "{short}");
        assert_eq!(page.settings.full, default.settings.full, "{short}");
    }
}
