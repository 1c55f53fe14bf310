//! The presets that show what a pattern is for: the story with order lookups beside the orders
//! (with and without the bulkhead), and the breaker with the printed table's short window. The
//! figures are compared with each other and with the configs, never with numbers copied here.

use resilience_playground::resilience::Window;
use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::{Preset, Scenario};
use resilience_playground::sim::trace::{Route, RouteCounts, Trace, BUCKET};

fn lookups(t: &Trace) -> RouteCounts {
    *t.routes
        .iter()
        .find(|r| r.route == Route::OrderHistory)
        .expect("the story has order lookups")
}

#[test]
fn the_bulkhead_saves_the_order_lookups() {
    let (without, with) = (
        run(&Preset::StoryNone.config()).unwrap(),
        run(&Preset::StoryBulkhead.config()).unwrap(),
    );
    let (a, b) = (lookups(&without), lookups(&with));
    assert_eq!(a.sent, b.sent, "the same seed sends the same lookups");
    assert!(b.outcomes.ok > a.outcomes.ok, "{b:?} vs {a:?}");
    assert_eq!(
        b.outcomes.ok, b.sent,
        "with the bulkhead every lookup is answered"
    );
    assert!(
        a.outcomes.unfinished > 0,
        "without it, lookups are still queued at 12 s"
    );
    let (p99_without, p99_with) = (a.end_to_end.p99.unwrap(), b.end_to_end.p99.unwrap());
    let lookup_time = Preset::StoryBulkhead.config().routes.history_latency;
    assert_eq!(
        p99_with, lookup_time,
        "with the bulkhead no lookup waits for a worker"
    );
    assert!(
        p99_without > 100 * lookup_time,
        "without it the lookups wait behind the stuck orders: p99 {p99_without} µs"
    );
    // What saved them: the bulkhead refused orders, which never held a worker for long.
    assert!(with.outcomes.bulkhead_full > 0);
    assert_eq!(without.outcomes.bulkhead_full, 0);
}

#[test]
fn the_story_stops_at_12_s_and_counts_the_clients_still_waiting() {
    let cfg = Preset::StoryNone.config();
    let t = run(&cfg).unwrap();
    assert_eq!(t.end, cfg.traffic.duration);
    let answered = t.outcomes.total() - t.outcomes.unfinished;
    assert_eq!(answered + t.outcomes.unfinished, t.sent);
    // Still waiting: the queue and the busy workers at the end, every one of them.
    let last = t.series[(cfg.traffic.duration / BUCKET) as usize - 1];
    assert_eq!(
        t.outcomes.unfinished,
        last.queue_len + u64::from(last.workers_busy),
        "{last:?}"
    );
    // The orders in it are the lesson's: 100 a second, the same inventory, no protection.
    let lesson = Scenario::None.config();
    let orders = t.routes.iter().find(|r| r.route == Route::Orders).unwrap();
    let expected = (lesson.traffic.rate * cfg.traffic.duration as f64 / 1e6) as u64;
    assert!(orders.sent.abs_diff(expected) < expected / 20, "{orders:?}");
    assert_eq!(
        (
            cfg.service.threads,
            cfg.first().unwrap().faults.slow,
            cfg.first().unwrap().faults.degrade_at
        ),
        (
            lesson.service.threads,
            lesson.first().unwrap().faults.slow,
            lesson.first().unwrap().faults.degrade_at
        )
    );
}

#[test]
fn the_printed_table_window_opens_the_breaker_within_a_second_of_the_first_timeout() {
    let table = Preset::CbLikeTable.config();
    let cb = Scenario::Cb.config();
    let time_window = |c: &resilience_playground::sim::model::SimConfig| match c
        .first_stack()
        .unwrap()
        .breaker
        .as_ref()
        .unwrap()
        .window
    {
        Window::Time(w) => w,
        other => panic!("a time window, not {other:?}"),
    };
    let window = time_window(&table);
    assert!(window < time_window(&cb));
    let first_timeout = table.first().unwrap().faults.degrade_at.unwrap()
        + table.first_stack().unwrap().timeout.unwrap();
    let open_table = run(&table).unwrap().first_open().unwrap();
    let open_cb = run(&cb).unwrap().first_open().unwrap();
    assert!(open_table < open_cb, "{open_table} vs {open_cb}");
    assert!(
        open_table > first_timeout && open_table - first_timeout < window,
        "opened at {open_table} µs, first timeout at {first_timeout} µs"
    );
}

#[test]
fn inventory_calls_in_progress_are_the_workers_waiting_on_it() {
    let cfg = Scenario::None.config();
    let t = run(&cfg).unwrap();
    let sick = (cfg.first().unwrap().faults.degrade_at.unwrap() / BUCKET) as usize + 10
        ..(cfg.traffic.duration / BUCKET) as usize;
    let stuck = t.series[sick]
        .iter()
        .all(|b| b.inventory_in_progress == cfg.service.threads);
    assert!(stuck, "every worker waits on inventory once it is slow");
    for preset in Preset::ALL {
        let t = run(&preset.config()).unwrap();
        assert!(
            t.series
                .iter()
                .all(|b| b.inventory_in_progress <= b.workers_busy),
            "{preset:?}: only a busy worker waits on a call"
        );
    }
    for preset in Preset::ALL.into_iter().filter(|p| p.config().run.drain) {
        let t = run(&preset.config()).unwrap();
        assert_eq!(
            t.series.last().unwrap().inventory_in_progress,
            0,
            "{preset:?}: nothing is in progress once the run has drained"
        );
    }
}

/// The resend story: without a key every resend the workers take becomes one more order for
/// the same purchase; with `idempotency_key=on` none does, and the copies are recognised.
#[test]
fn resends_make_orders_twice_unless_they_carry_a_key() {
    use resilience_playground::sim::scenario::apply_set;
    let without = run(&Preset::StoryResend.config()).unwrap();
    let orders = without.orders.expect("the preset counts orders");
    assert_eq!(orders.duplicates, without.frontend_retries, "{orders:?}");
    assert!(orders.duplicates > 1_000, "{orders:?}");
    let mut keyed = Preset::StoryResend.config();
    apply_set(&mut keyed, "idempotency_key", "on").unwrap();
    let with = run(&keyed).unwrap();
    let orders = with.orders.unwrap();
    assert_eq!(orders.duplicates, 0, "{orders:?}");
    assert!(orders.recognised > 0, "{orders:?}");
}
