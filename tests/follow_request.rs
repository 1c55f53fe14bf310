//! Following one request: the followed run is the ordinary run (same Trace), the request's
//! spans cover its life with no gap and no overlap inside a lane, its ending is the one the
//! run's log gives, and the sentence tells the lesson's stories.

use resilience_playground::page::life_story::{lines, story};
use resilience_playground::sim::life::{Activity, Happening, RequestLife};
use resilience_playground::sim::model::{follow, run, SimConfig, COPIES_WON, RETRIES_OVER_BUDGET};
use resilience_playground::sim::params::apply_set;
use resilience_playground::sim::pattern::Pattern;
use resilience_playground::sim::pick::{follow_pick, Pick};
use resilience_playground::sim::scenario::{Preset, Scenario};
use resilience_playground::sim::trace::{Outcome, Trace};

/// The words of the moments `pattern`'s layer marked on a followed request, in order.
fn layer_marks(life: &RequestLife, pattern: Pattern) -> Vec<&'static str> {
    life.marks
        .iter()
        .filter_map(|m| match m.happening {
            Happening::Layer(mark) if mark.pattern == pattern => Some(mark.words),
            _ => None,
        })
        .collect()
}

fn logged(preset: Preset) -> (SimConfig, Trace) {
    let cfg = preset.config();
    let mut with_log = cfg.clone();
    with_log.run.record_requests = true;
    let trace = run(&with_log).unwrap();
    (cfg, trace)
}

/// The checks every followed request passes.
fn check(life: &RequestLife, trace: &Trace, what: &str) {
    let (gap, overlap) = (life.first_gap(), life.first_overlap());
    assert_eq!(gap, None, "{what}: a stretch of its life no span covers");
    assert_eq!(overlap, None, "{what}: two spans of one lane overlap");
    let last_record = trace.requests.iter().rev().find(|r| r.id == life.id);
    let record = last_record.unwrap_or_else(|| panic!("{what}: not in the log"));
    let ending = life.answered.map_or(Outcome::Unfinished, |(_, o)| o);
    assert_eq!(ending, record.outcome, "{what}: its ending");
    if let (Some((at, _)), Some(finished)) = (life.answered, record.finished) {
        assert_eq!(at, finished, "{what}: when it was answered");
    }
    assert!(life.arrived <= record.arrived, "{what}: its first arrival");
    if life.last_copy() == 0 {
        let took_up = life.first(Activity::Worker).map(|(from, _)| from);
        // (A worker held for no time at all, by a call refused at once, draws no span.)
        if took_up.is_some() {
            assert_eq!(took_up, record.started, "{what}: its worker");
        }
        let queue_end = life.first(Activity::Queued).map(|(_, to)| to);
        if let Some(end) = queue_end {
            assert_eq!(
                end,
                record.started.unwrap_or(trace.end),
                "{what}: its wait for a worker"
            );
        }
    }
    let text = story(life);
    assert!(text.ends_with('.') && text.len() > 20, "{what}: {text}");
    assert!(!lines(life).is_empty(), "{what}");
}

#[test]
fn every_preset_follows_its_requests_without_changing_the_run() {
    for preset in Preset::ALL {
        let (cfg, trace) = logged(preset);
        let log = &trace.requests;
        let mut ids: Vec<u64> = [0, log.len() / 3, log.len() - 1]
            .iter()
            .map(|&i| log[i].id)
            .collect();
        ids.extend(
            Pick::NAMED
                .iter()
                .filter_map(|p| p.find(&trace.requests, trace.end)),
        );
        for id in ids {
            let (followed, life) = follow(&cfg, id).unwrap();
            let mut with_log = followed.clone();
            with_log.requests = trace.requests.clone();
            assert_eq!(
                with_log,
                trace,
                "{}: following #{id} changed the run",
                preset.key()
            );
            let life = life.unwrap_or_else(|| panic!("{}: no request #{id}", preset.key()));
            check(&life, &trace, &format!("{} #{id}", preset.key()));
        }
        let (_, beyond) = follow(&cfg, u64::MAX).unwrap();
        assert_eq!(
            beyond,
            None,
            "{}: a request the run never sent",
            preset.key()
        );
    }
}

#[test]
fn the_cascade_s_slowest_order_waited_for_a_worker_held_by_inventory() {
    let life = follow_pick(&Preset::StoryNone.config(), Pick::Slowest)
        .unwrap()
        .unwrap();
    let queued = life.total(|a| *a == Activity::Queued);
    assert!(queued > 7_000_000, "queued {queued} µs");
    let text = story(&life);
    assert!(text.contains("all 32 workers were busy"), "{text}");
    assert!(
        text.contains("held by one request and its calls to inventory"),
        "{text}"
    );
}

#[test]
fn a_request_refused_by_the_open_breaker_says_since_when() {
    let (cfg, trace) = logged(Preset::Lesson(Scenario::Cb));
    let life = follow_pick(&cfg, Pick::RefusedByBreaker).unwrap().unwrap();
    let since = match life.find(|h| matches!(h, Happening::BreakerRefuses { .. })) {
        Some(m) => match m.happening {
            Happening::BreakerRefuses { since, .. } => since,
            _ => unreachable!(),
        },
        None => panic!("no refusal in {:?}", life.marks),
    };
    assert_eq!(Some(since), trace.first_open());
    let text = story(&life);
    assert!(text.contains("refused by the circuit breaker"), "{text}");
    assert_eq!(life.answered.map(|a| a.1), Some(Outcome::CircuitOpen));
}

#[test]
fn a_retried_request_of_the_storm_shows_each_try_and_back_off() {
    let life = follow_pick(&Preset::RetryStorm.config(), Pick::Retried)
        .unwrap()
        .unwrap();
    let backoffs = life
        .spans
        .iter()
        .filter(|s| matches!(s.activity, Activity::Backoff { .. }))
        .count();
    assert!(backoffs >= 2, "{:?}", life.spans);
    let text = story(&life);
    assert!(text.contains("each of its 3 tries"), "{text}");
}

#[test]
fn a_pick_that_finds_nothing_follows_nothing() {
    // `timeout` has no breaker: no request was refused by one.
    let cfg = Preset::Lesson(Scenario::Timeout).config();
    assert_eq!(follow_pick(&cfg, Pick::RefusedByBreaker).unwrap(), None);
    assert_eq!(Pick::parse("slowest"), Ok(Pick::Slowest));
    assert_eq!(Pick::parse(" 42 "), Ok(Pick::Arrival(42)));
    let err = Pick::parse("fastest").unwrap_err();
    assert!(
        err.contains("fastest") && err.contains("slowest, retried"),
        "{err}"
    );
    for p in Pick::NAMED {
        assert_eq!(Pick::parse(&p.key()), Ok(p));
    }
}

#[test]
fn a_call_that_waited_for_a_permit_holds_it_while_inventory_works() {
    let (cfg, trace) = logged(Preset::Lesson(Scenario::Bulkhead));
    // From inventory's slow-down at 3 s on, some calls wait for a permit and get one.
    let mut waited = None;
    for r in trace.requests.iter().filter(|r| r.arrived >= 3_000_000) {
        let life = follow(&cfg, r.id).unwrap().1.unwrap();
        let wait = life
            .spans
            .iter()
            .find(|s| s.activity == Activity::PermitWait)
            .copied();
        let refused = life
            .find(|h| matches!(h, Happening::BulkheadFull { .. }))
            .is_some();
        if let (Some(wait), false) = (wait, refused) {
            waited = Some((life, wait));
            break;
        }
    }
    let (life, wait) = waited.expect("a request that waited for a permit and got one");
    let held = life
        .spans
        .iter()
        .find(|s| s.activity == Activity::Permit)
        .expect("the permit it got");
    assert_eq!(
        held.from, wait.to,
        "the permit is held from the end of the wait"
    );
    let tried = life
        .spans
        .iter()
        .find(|s| matches!(s.activity, Activity::InService { .. }))
        .expect("its try");
    assert_eq!(
        tried.from, held.from,
        "the call goes out as the permit comes"
    );
    assert_eq!(held.to, tried.to, "the permit goes back as the call ends");
}

#[test]
fn a_hedged_try_shows_its_copy_leave_and_answer_first_in_the_hedges_words() {
    let mut cfg = Preset::Lesson(Scenario::None).config();
    for (key, value) in [
        ("degrade_at", "3600"),
        ("fast_p99", "400ms"),
        ("threads", "1000"),
        ("duration", "10"),
        ("hedge_after", "200ms"),
    ] {
        apply_set(&mut cfg, key, value).unwrap();
    }
    let mut with_log = cfg.clone();
    with_log.run.record_requests = true;
    let trace = run(&with_log).unwrap();
    let won = trace.total(COPIES_WON).expect("the hedge's counts");
    assert!(won > 0, "no copy answered first");
    let won = trace.requests.iter().find_map(|r| {
        let life = follow(&cfg, r.id).unwrap().1.unwrap();
        let marks = layer_marks(&life, Pattern::HEDGE);
        (marks.last() == Some(&"the hedge answers first")).then_some((life, marks))
    });
    let (life, marks) = won.expect("a request whose hedge answered first");
    assert_eq!(
        marks,
        [
            "a hedge (a copy of the try) goes out",
            "the hedge answers first"
        ]
    );
    check(&life, &trace, "the hedged request");
    let told = lines(&life).join("\n");
    assert!(
        told.contains(": a hedge (a copy of the try) goes out"),
        "{told}"
    );
    assert!(told.contains(": the hedge answers first"), "{told}");
}

mod in_the_page {
    use resilience_playground::page::action::Action;
    use resilience_playground::page::permalink::{from_pairs, parse_query, to_query};
    use resilience_playground::page::state::Page;
    use resilience_playground::sim::pick::Pick;
    use resilience_playground::sim::scenario::{Preset, Scenario};

    fn followed(page: &Page) -> (Option<u64>, Option<u64>, Option<u64>) {
        let t = page.runs.followed().expect("a traced request");
        (t.id, t.a.as_ref().map(|l| l.id), t.b.as_ref().map(|l| l.id))
    }

    #[test]
    fn a_picked_request_is_followed_in_a_and_b_and_comes_back_from_its_link() {
        let page = Page::new(Preset::Lesson(Scenario::Cb), false)
            .apply(Action::Follow(Some(Pick::Slowest)))
            .apply(Action::SetAb(true))
            .apply(Action::SetKnob("timeout", 1_000.0));
        let run = page.runs.a.as_ref().unwrap();
        let slowest = Pick::Slowest.find(&run.trace.requests, run.trace.end);
        let (id, a, b) = followed(&page);
        assert_eq!(id, slowest);
        assert_eq!((a, b), (id, id), "the same arrival in both runs");
        let life_a = page.runs.followed().unwrap().a.clone().unwrap();
        let life_b = page.runs.followed().unwrap().b.clone().unwrap();
        assert_ne!(
            life_a.spans, life_b.spans,
            "B's timeout is 1 s: its life differs"
        );
        // The link carries the pick; opened, it follows the very same request.
        let query = to_query(&page);
        assert!(query.contains("trace=slowest"), "{query}");
        let (pairs, bad) = parse_query(&query);
        assert!(bad.is_empty());
        let (again, notices) = from_pairs(&pairs);
        assert!(notices.is_empty(), "{notices:?}");
        let t = again.runs.followed().unwrap();
        assert_eq!(t.a.as_deref(), Some(&*life_a));
        assert_eq!(t.b.as_deref(), Some(&*life_b));
        // A number is a pick of its own, and closing forgets it.
        let page = page.apply(Action::Follow(Some(Pick::Arrival(5))));
        assert_eq!(followed(&page), (Some(5), Some(5), Some(5)));
        assert!(to_query(&page).contains("trace=5"));
        let page = page.apply(Action::Follow(None));
        assert!(page.runs.traced.is_none());
        assert!(!to_query(&page).contains("trace="));
    }

    #[test]
    fn a_bad_trace_in_a_link_is_named_with_what_it_takes() {
        let (pairs, _) = parse_query("preset=cb&trace=fastest");
        let (page, notices) = from_pairs(&pairs);
        assert!(page.runs.traced.is_none());
        let all = notices.join(" ");
        assert!(all.contains("trace: \"fastest\""), "{all}");
        assert!(all.contains("slowest, retried"), "{all}");
        // A pick the run has none of: the page says so instead of drawing nothing.
        let (pairs, _) = parse_query("preset=timeout&trace=refused-by-breaker");
        let (page, notices) = from_pairs(&pairs);
        assert!(notices.is_empty());
        let t = page.runs.followed().unwrap();
        assert_eq!((t.id, t.a.is_none()), (None, true));
    }

    #[test]
    fn playback_and_the_view_do_not_trace_again() {
        let page = Page::new(Preset::StoryNone, false).apply(Action::Follow(Some(Pick::Slowest)));
        let before = page.runs.traced.clone().unwrap();
        let page = page
            .apply(Action::Seek(3_000_000))
            .apply(Action::SetDark(true))
            .apply(Action::SetKnob("threads", 32.0));
        assert!(
            before == page.runs.traced.clone().unwrap(),
            "kept, not traced again"
        );
        let page = page.apply(Action::SetKnob("threads", 40.0));
        assert!(
            before != page.runs.traced.clone().unwrap(),
            "a new run: traced again"
        );
    }
}

/// A retry the retry budget refused shows on the followed request in the budget's words, once,
/// as the try's last moment; the requests so marked are as many as the run counted.
#[test]
fn a_retry_the_budget_refused_shows_on_the_followed_request() {
    let mut cfg = Preset::Lesson(Scenario::Timeout).config();
    let settings = [
        ("attempts", "3"),
        ("retry_budget_ratio", "0.1"),
        ("duration", "4"),
    ];
    for (key, value) in settings {
        apply_set(&mut cfg, key, value).unwrap();
    }
    let mut with_log = cfg.clone();
    with_log.run.record_requests = true;
    let trace = run(&with_log).unwrap();
    let refused = trace.total(RETRIES_OVER_BUDGET).expect("the budget counts");
    assert!(refused > 0);
    let mut marked = 0;
    for r in &trace.requests {
        let life = follow(&cfg, r.id).unwrap().1.unwrap();
        let words = layer_marks(&life, Pattern::RETRY_BUDGET);
        assert!(words.len() <= 1, "{words:?}");
        if let [words] = words[..] {
            assert_eq!(words, "the retry budget has no credit left: no retry");
            check(&life, &trace, "a request the budget refused a retry");
            marked += 1;
        }
    }
    assert_eq!(marked, refused, "one mark per refusal");
}
