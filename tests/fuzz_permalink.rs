//! Fuzzed permalinks: a query string of any text or bytes never panics the page, every value it
//! cannot use is named in a notice, a value it takes is taken exactly (never clamped to a
//! slider's end), the link it then writes rebuilds the same run, and no output holds NaN or
//! infinity.

#[path = "support/fuzz.rs"]
mod fuzz;

use fuzz::{assert_finite_outputs, page_key, value_text};
use proptest::prelude::*;
use resilience_playground::page::knobs::knob;
use resilience_playground::page::permalink::{from_pairs, parse_query, to_query};
use resilience_playground::page::state::Page;
use resilience_playground::sim::scenario::apply_set;

proptest! {
    // Parsing alone is cheap: many cases.
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_or_bytes_parse_to_pairs_or_one_notice(
        text in any::<String>(),
        bytes in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        for query in [text, String::from_utf8_lossy(&bytes).into_owned()] {
            let (pairs, notices) = parse_query(&query);
            if !notices.is_empty() {
                prop_assert!(pairs.is_empty());
                prop_assert_eq!(notices.len(), 1);
                prop_assert!(notices[0].contains("link"), "{:?}", notices);
            }
        }
    }
}

proptest! {
    // Each case builds a page (five simulations in a debug build): fewer cases.
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn one_setting_is_taken_exactly_or_named_in_a_notice(key in page_key(), value in value_text()) {
        let (page, notices) = from_pairs(&[(key.clone(), value.clone())]);
        let name: String = key.chars().take(40).collect();
        for notice in &notices {
            prop_assert!(notice.contains(&name), "{key}={value:?}: {notice}");
            // The allowed values can be long (every preset's key); the value given is cut.
            let long = value.trim().chars().count() > 60;
            prop_assert!(!long || !notice.contains(value.trim()), "a long value is quoted short: {notice}");
            prop_assert!(notice.chars().count() < 1200, "{notice}");
        }
        if let Some(k) = knob(&key) {
            let mut expected = Page::default().settings.full.clone();
            let before = k.read(&expected);
            // A value the row takes can still break a rule between settings (inventory
            // recovering before it degrades): the page then keeps its setting and says so.
            // A value that reads as the one the page has is left alone (`recover_at=0` is how
            // a link says "no recovery").
            let taken = apply_set(&mut expected, k.key, value.trim()).is_ok();
            if taken && (expected.validate().is_ok() || k.read(&expected) == before) {
                // Past the slider's end or not, the page holds what the link said.
                prop_assert_eq!(k.read(&page.settings.full), k.read(&expected), "{}={:?}", key, value);
            } else {
                prop_assert!(!notices.is_empty(), "{key}={value:?} refused without a word");
            }
        }
        the_link_rebuilds_the_run(&page)?;
        assert_finite_outputs(&page);
    }

    #[test]
    fn any_query_text_gives_a_page_and_a_link_that_rebuilds_it(query in any::<String>()) {
        let (pairs, _) = parse_query(&query);
        let (page, _) = from_pairs(&pairs);
        the_link_rebuilds_the_run(&page)?;
    }
}

/// The page's own link, read back, names no problem and gives the same run.
fn the_link_rebuilds_the_run(page: &Page) -> Result<(), TestCaseError> {
    let query = to_query(page);
    let (pairs, notices) = parse_query(&query);
    prop_assert!(notices.is_empty(), "{query}: {notices:?}");
    let (back, notices) = from_pairs(&pairs);
    prop_assert!(notices.is_empty(), "{query}: {notices:?}");
    prop_assert_eq!(back.config(), page.config(), "{}", query);
    prop_assert_eq!(back.playback.playhead, page.playback.playhead);
    prop_assert_eq!(to_query(&back), query);
    Ok(())
}
