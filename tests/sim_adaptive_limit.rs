//! The adaptive concurrency limit (AIMD on latency) on the Saturday cascade, and the one
//! vocabulary: the same keys give the same run through `--set`, a link, a widget attribute and
//! a lesson's `@run`.

use resilience_playground::page::lessons::format::parse;
use resilience_playground::page::permalink::from_pairs;
use resilience_playground::page::widget::WidgetSpec;
use resilience_playground::sim::model::{run, SimConfig, COPIES_SENT, LIMIT};
use resilience_playground::sim::params::apply_set;
use resilience_playground::sim::scenario::Preset;
use resilience_playground::sim::trace::{Outcome, Route, Trace};

fn lookups_answered(t: &Trace) -> f64 {
    let r = t
        .routes
        .iter()
        .find(|r| r.route == Route::OrderHistory)
        .expect("the story sends order lookups");
    r.outcomes.ok as f64 / r.sent as f64
}

#[test]
fn the_limit_falls_as_inventory_slows_and_the_lookups_keep_their_workers() {
    let cfg = Preset::StoryAdaptiveLimit.config();
    let limit = cfg
        .first_stack()
        .unwrap()
        .rooms
        .adaptive_limit
        .clone()
        .unwrap();
    let with = run(&cfg).unwrap();
    let without = run(&Preset::StoryNone.config()).unwrap();
    let l = with
        .level(LIMIT)
        .expect("the trace says what the limit did");
    // Healthy inventory (40 ms, 4 calls in flight) never uses half of 20: no change before the
    // slowdown at 3 s; the first slow calls come back from 7 s and cut it to its floor.
    assert!(
        l.changes.iter().all(|c| c.at > 7_000_000),
        "{:?}",
        l.changes
    );
    assert_eq!((l.initial, l.lowest, l.last), (20, limit.min, limit.min));
    let refused = with.outcomes.get(Outcome::CONCURRENCY_LIMITED);
    assert!(refused > 500, "{refused}");
    assert!(with.could_end_in(Outcome::CONCURRENCY_LIMITED));
    assert!(!without.could_end_in(Outcome::CONCURRENCY_LIMITED));
    assert!(
        lookups_answered(&with) > 0.99,
        "{}",
        lookups_answered(&with)
    );
    assert!(
        lookups_answered(&without) < 0.5,
        "{}",
        lookups_answered(&without)
    );
    assert!(without.level(LIMIT).is_none());
}

#[test]
fn a_limit_as_large_as_the_workers_protects_nothing() {
    // With a floor of 32 (every worker of the story) the limit can hold every worker on
    // inventory: the lookups fare as they do without it.
    let mut cfg = Preset::StoryAdaptiveLimit.config();
    apply_set(&mut cfg, "limit_min", "32").unwrap();
    apply_set(&mut cfg, "limit_initial", "32").unwrap();
    let t = run(&cfg).unwrap();
    assert!(lookups_answered(&t) < 0.5, "{}", lookups_answered(&t));
}

/// The config a lesson's `@run` gives.
fn lesson_config(run_line: &str) -> Result<SimConfig, String> {
    let text =
        format!("# T\n\n## S\n\n@name s\n@run {run_line}\n@play-to 12 s\n@views load\n\nText.\n");
    let lesson = parse(&text).map_err(|e| e.to_string())?;
    let (page, notices) = lesson.steps[0].page();
    assert!(notices.is_empty(), "{notices:?}");
    Ok(page.settings.config())
}

/// The config `settings` give on the story without protection through `--set`, after checking
/// that a link, a widget's attributes, a lesson's `@run` and the link the page writes give the
/// same one; and that link.
fn the_same_run_everywhere(settings: &[(&str, &str)]) -> (SimConfig, String) {
    let mut cli = Preset::StoryNone.config();
    for (k, v) in settings {
        apply_set(&mut cli, k, v).unwrap();
    }
    let mut pairs = vec![("preset".to_string(), "story-none".to_string())];
    pairs.extend(settings.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let (link, notices) = from_pairs(&pairs);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(link.settings.config(), cli, "a link");
    let mut attributes = pairs.clone();
    attributes.push(("kind".into(), "histogram".into()));
    let (widget, notices) = WidgetSpec::from_attributes(&attributes, vec![]).page(false);
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(widget.settings.config(), cli, "a widget");
    let run_line = pairs
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(lesson_config(&run_line).unwrap(), cli, "a lesson's @run");
    // The link the page writes for it gives the same run back.
    let query = resilience_playground::page::permalink::to_query(&link);
    let (again, _) = from_pairs(&resilience_playground::page::permalink::parse_query(&query).0);
    assert_eq!(again.settings.config(), cli, "the page's own link: {query}");
    (cli, query)
}

#[test]
fn the_cli_a_link_a_widget_and_a_lesson_take_the_same_keys_and_give_the_same_run() {
    // Keys of three kinds: one the panel shows, one it does not (a hedge's delay, whose
    // pattern is off in the preset and is switched on by the key), one of the new pattern.
    let (cli, _) = the_same_run_everywhere(&[
        ("hedge_after", "150ms"),
        ("limit_min", "4"),
        ("sidecar_retries", "1"),
    ]);
    let hedge = cli
        .first_stack()
        .unwrap()
        .rooms
        .hedge
        .clone()
        .expect("hedge_after switches it on");
    assert_eq!(
        hedge.policy.delay,
        resilience_playground::resilience::Delay::Fixed(150_000)
    );
}

#[test]
fn a_key_s_old_name_gives_the_same_run_everywhere_and_the_page_writes_the_new_one() {
    let (new, _) = the_same_run_everywhere(&[("hedge_after", "p90"), ("max_hedges", "2")]);
    let (old, query) = the_same_run_everywhere(&[("hedge_delay", "p90"), ("max_hedges", "2")]);
    assert_eq!(old, new);
    assert!(
        query.contains("hedge_after=p90") && !query.contains("hedge_delay"),
        "{query}"
    );
    let sent = |cfg: &SimConfig| {
        run(cfg)
            .unwrap()
            .total(COPIES_SENT)
            .expect("the hedge is on")
    };
    assert!(sent(&old) > 0);
    assert_eq!(sent(&old), sent(&new));
}

#[test]
fn a_key_or_a_preset_nobody_knows_is_refused_alike_by_the_lesson_and_the_link() {
    let e = lesson_config("preset=story-none limit_mn=4").unwrap_err();
    assert!(
        e.starts_with("line 6: @run: `limit_mn` is not a setting") && e.contains("`limit_min`"),
        "{e}"
    );
    let (_, notices) = from_pairs(&[("limit_mn".to_string(), "4".to_string())]);
    assert!(e.ends_with(&notices[0]), "{e} / {notices:?}");
    let e = lesson_config("preset=story-nnoe").unwrap_err();
    assert!(e.contains("preset: \"story-nnoe\" is not allowed"), "{e}");
    let (_, notices) = from_pairs(&[("preset".to_string(), "story-nnoe".to_string())]);
    let said = e.trim_start_matches("line 6: @run: ");
    assert_eq!(notices, [format!("{said}; using the default.")]);
}

#[test]
fn an_explicit_patterns_list_keeps_a_key_from_switching_its_pattern_on() {
    let pairs = |list: &[(&str, &str)]| -> Vec<(String, String)> {
        list.iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    };
    let (on, _) = from_pairs(&pairs(&[("preset", "story-none"), ("limit_min", "4")]));
    assert!(on
        .settings
        .config()
        .first_stack()
        .unwrap()
        .rooms
        .adaptive_limit
        .is_some());
    let (off, _) = from_pairs(&pairs(&[
        ("preset", "story-none"),
        ("patterns", "none"),
        ("limit_min", "4"),
    ]));
    assert!(off
        .settings
        .config()
        .first_stack()
        .unwrap()
        .rooms
        .adaptive_limit
        .is_none());
}
