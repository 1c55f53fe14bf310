//! A link that switches a preset's stack to a library's (`stack=resilience4j`, `stack=polly`)
//! leaves every slider working: the page's full config, which holds every layer, drops those
//! the library has no place for, so a later setting is not refused for one of them.

use resilience_playground::page::action::Action;
use resilience_playground::page::permalink::from_pairs;

#[test]
fn after_stack_in_a_link_a_slider_still_reruns_the_scenario() {
    for stack in ["lesson", "resilience4j", "polly"] {
        let pairs: Vec<(String, String)> = [("preset", "cb"), ("stack", stack), ("t", "12")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let (page, notices) = from_pairs(&pairs);
        assert!(notices.is_empty(), "{stack}: {notices:?}");
        assert_eq!(
            page.settings.full.first_stack().unwrap().profile.key(),
            stack
        );
        let moved = page.apply(Action::SetKnob("cooldown", 5_000.0));
        assert_eq!(moved.notice, None, "{stack}");
        let breaker = moved.runs.a.as_ref().unwrap().config.first_stack().unwrap();
        assert_eq!(
            breaker.breaker.as_ref().map(|b| b.cooldown),
            Some(5_000_000),
            "{stack}: the run took the slider's value"
        );
    }
}
