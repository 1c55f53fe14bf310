//! The failure zoo: each preset is a metastable failure that stays down after its trigger
//! ended, and its cure is one `--set` key. Also the rooms the failures and cures live in: the
//! queue of `orders` served newest first, a closed loop of clients, the heap's pauses, the
//! cache in front of inventory.

use resilience_playground::sim::model::{run, Arrivals, QueueOrder, SimConfig};
use resilience_playground::sim::scenario::{apply_set, Preset, Scenario};
use resilience_playground::sim::trace::Trace;

const SECOND: u64 = 1_000_000;

/// Each zoo preset and the `--set` that cures it.
const ZOO: &[(&str, &str, &str)] = &[
    ("zoo-gc-spiral", "queue_limit", "50"),
    ("zoo-cold-cache", "cache_fill", "coalesce"),
    ("zoo-lb-sinkhole", "outlier_detection", "on"),
    ("zoo-fifo-overload", "queue_order", "lifo"),
    ("zoo-open-loop", "arrivals", "closed"),
];

fn preset(key: &str) -> SimConfig {
    Preset::parse(key)
        .unwrap_or_else(|| panic!("no preset {key}"))
        .config()
}

fn traced(cfg: &SimConfig) -> Trace {
    run(cfg).expect("the config runs")
}

fn recovered_after(cfg: &SimConfig) -> Option<u64> {
    traced(cfg).recovery.and_then(|r| r.recovered_after)
}

#[test]
fn each_failure_stays_down_without_its_cure_and_recovers_with_it_on_five_seeds() {
    for &(key, cure, value) in ZOO {
        for seed in 1..=5 {
            let mut sick = preset(key);
            sick.run.seed = seed;
            assert_eq!(
                recovered_after(&sick),
                None,
                "{key}, seed {seed}: recovered without its cure"
            );
            let mut cured = sick.clone();
            apply_set(&mut cured, cure, value).expect("the cure is a key");
            let after = recovered_after(&cured);
            assert!(
                after.is_some_and(|a| a < 10 * SECOND),
                "{key} with {cure}={value}, seed {seed}: {after:?}"
            );
        }
    }
}

#[test]
fn every_zoo_preset_is_listed_with_its_cure() {
    let listed: Vec<&str> = Preset::ALL
        .iter()
        .map(|p| p.key())
        .filter(|k| k.starts_with("zoo-"))
        .collect();
    let cured: Vec<&str> = ZOO.iter().map(|(k, _, _)| *k).collect();
    assert_eq!(listed, cured);
}

/// `threads` workers, inventory 40 ms, a request every 10 ms for 100 ms: one worker falls
/// behind and the queue holds several requests whenever it is free.
fn workers(threads: u32, order: QueueOrder) -> Trace {
    let mut cfg = Scenario::None.config();
    cfg.service.threads = threads;
    cfg.service.queue_order = order;
    cfg.traffic.duration = 100_000;
    cfg.run.record_requests = true;
    traced(&cfg)
}

#[test]
fn a_fifo_queue_serves_the_oldest_first_and_a_lifo_queue_the_newest() {
    let starts = |t: &Trace| -> Vec<u64> {
        let mut by_arrival: Vec<_> = t.requests.iter().map(|r| (r.arrived, r.started)).collect();
        by_arrival.sort();
        by_arrival
            .iter()
            .map(|(_, s)| s.expect("started"))
            .collect()
    };
    let fifo = starts(&workers(1, QueueOrder::Fifo));
    assert_eq!(fifo.len(), 10);
    assert!(fifo.windows(2).all(|w| w[0] <= w[1]), "{fifo:?}");
    let lifo = starts(&workers(1, QueueOrder::Lifo));
    // The second worker's turn (at 40 ms) goes to the request that arrived at 40 ms, not to
    // the one waiting since 10 ms, which is served last.
    assert_eq!(lifo[4], 40_000, "{lifo:?}");
    assert_eq!(lifo[1], *lifo.iter().max().unwrap(), "{lifo:?}");
    // Adaptive: newest first while the queue is longer than the workers, as here with one
    // worker; with three, the queue never gets longer than three and the oldest go first.
    assert_eq!(starts(&workers(1, QueueOrder::Adaptive)), lifo);
    assert_eq!(
        starts(&workers(3, QueueOrder::Adaptive)),
        starts(&workers(3, QueueOrder::Fifo))
    );
    assert_ne!(
        starts(&workers(3, QueueOrder::Lifo)),
        starts(&workers(3, QueueOrder::Fifo))
    );
}

#[test]
fn a_closed_loop_never_has_more_requests_in_orders_than_clients() {
    // The lesson's cascade (inventory 4 s from 3 s) with 20 clients instead of 100/s.
    let mut cfg = Scenario::None.config();
    for (key, value) in [
        ("arrivals", "closed"),
        ("clients", "20"),
        ("think_time", "0.2"),
    ] {
        apply_set(&mut cfg, key, value).expect("a key");
    }
    assert_eq!(cfg.traffic.arrivals, Arrivals::Closed);
    let t = traced(&cfg);
    for (i, b) in t.series.iter().enumerate() {
        assert!(
            u64::from(b.workers_busy) + b.queue_len <= 20,
            "slice {i}: {} busy, {} queued",
            b.workers_busy,
            b.queue_len
        );
    }
    // While inventory is quick a client sends about every 0.24 s: near 20 / 0.24 a second.
    let first_two_seconds: u64 = t.series[..20].iter().map(|b| b.arrivals).sum();
    assert!(
        (120..=210).contains(&first_two_seconds),
        "{first_two_seconds}"
    );
    // Once inventory takes 4 s, each client waits for its answer: far fewer arrive.
    let slow: u64 = t.series[60..100].iter().map(|b| b.arrivals).sum();
    assert!(slow <= 40, "{slow} arrived from 6 s to 10 s");
    // Nothing arrives after the traffic's duration.
    assert!(t.series[120..].iter().all(|b| b.arrivals == 0));
}

#[test]
fn the_new_keys_refuse_a_value_out_of_range_by_name() {
    let mut cfg = Scenario::None.config();
    for (key, value, named) in [
        ("clients", "0", "clients"),
        ("think_time", "601", "think_time"),
        ("queue_order", "random", "queue_order"),
        ("arrivals", "burst", "arrivals"),
    ] {
        let e = apply_set(&mut cfg, key, value).expect_err(value);
        assert!(e.to_string().contains(named), "{key}={value}: {e}");
    }
    assert_eq!(
        cfg,
        Scenario::None.config(),
        "a refused value changes nothing"
    );
}

#[test]
fn the_heap_pauses_the_workers_only_past_its_threshold() {
    // The spiral's run without its heap, then with it switched on by its pause.
    let mut cfg = preset("zoo-gc-spiral");
    apply_set(&mut cfg, "gc_threshold", "off").expect("off");
    assert_eq!(cfg.service.gc, None);
    let plain = traced(&cfg);
    apply_set(&mut cfg, "gc_pause", "0.2").expect("gc_pause switches the heap on");
    assert!(cfg.service.gc.is_some());
    let paused = traced(&cfg);
    let finished = |t: &Trace, slices: std::ops::Range<usize>| -> u64 {
        t.series[slices].iter().map(|b| b.completions.total()).sum()
    };
    // Until the slowdown at 3 s the queue stays short: no pause, the same run.
    assert_eq!(finished(&plain, 0..30), finished(&paused, 0..30));
    assert!(
        paused.outcomes.ok * 2 < plain.outcomes.ok,
        "{} ok with pauses, {} without",
        paused.outcomes.ok,
        plain.outcomes.ok
    );
}

#[test]
fn a_coalescing_cache_fetches_each_item_once_after_its_flush() {
    // The cold cache of 300 items: once coalescing, the database serves one fetch per item
    // (every order's item is among the 300), however many calls miss; filled by the callers,
    // it serves far more and the cache stays cold.
    let served = |fill: &str| {
        let mut cfg = preset("zoo-cold-cache");
        apply_set(&mut cfg, "cache_fill", fill).expect("a fill");
        let t = traced(&cfg);
        t.dependencies[0].load.as_ref().expect("a capacity").served
    };
    assert_eq!(served("coalesce"), 300);
    assert!(served("caller") > 2_000, "{}", served("caller"));
    // Without a flush the cache answers every call and the database serves none.
    let mut warm = preset("zoo-cold-cache");
    warm.first_mut()
        .capacity
        .as_mut()
        .unwrap()
        .cache
        .as_mut()
        .unwrap()
        .flush_at = None;
    let t = traced(&warm);
    assert_eq!(t.dependencies[0].load.as_ref().unwrap().served, 0);
    assert_eq!(t.outcomes.ok, t.sent - t.outcomes.unfinished);
    // `cache_fill` switches a cache on where there is none, with a capacity under it.
    let mut cfg = Scenario::None.config();
    apply_set(&mut cfg, "cache_fill", "coalesce").expect("switches the cache on");
    let cache = cfg.first().unwrap().capacity.as_ref().unwrap().cache;
    assert!(cache.is_some_and(|c| c.flush_at.is_none()), "{cache:?}");
}
