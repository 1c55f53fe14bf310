//! Benchmarks of the simulator: the lesson's four-scenario table, and a large scenario for
//! events per second. Run with `make bench` (or `cargo bench`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use resilience_playground::sim::experiments::metastability::Grid;
use resilience_playground::sim::model::{follow, run, SimConfig};
use resilience_playground::sim::pick::Pick;
use resilience_playground::sim::scenario::{apply_set, Preset, Scenario};

fn four_scenario_table(c: &mut Criterion) {
    let configs: Vec<SimConfig> = Scenario::ALL.iter().map(|s| s.config()).collect();
    let events: u64 = configs
        .iter()
        .map(|cfg| run(cfg).expect("lesson preset runs").events)
        .sum();
    let mut group = c.benchmark_group("lesson");
    group.throughput(Throughput::Elements(events));
    group.bench_function("four_scenario_table", |b| {
        b.iter(|| {
            for cfg in &configs {
                std::hint::black_box(run(cfg).expect("lesson preset runs"));
            }
        })
    });
    group.finish();
}

/// The lesson's bulkhead scenario with `sets` on top, timed as one run of about a million
/// requests, its events counted for the events-per-second figure.
fn scale(c: &mut Criterion, name: &str, sets: &[(&str, &str)]) {
    let mut cfg = Scenario::Bulkhead.config();
    for (key, value) in sets {
        apply_set(&mut cfg, key, value).expect("valid override");
    }
    let events = run(&cfg).expect("large run").events;
    let mut group = c.benchmark_group("scale");
    group.sample_size(10);
    group.throughput(Throughput::Elements(events));
    group.bench_function(name, |b| {
        b.iter(|| std::hint::black_box(run(&cfg).expect("large run")))
    });
    group.finish();
}

/// A million requests: 10,000 a second for 100 s.
const MILLION: [(&str, &str); 3] = [("rate", "10000"), ("duration", "100"), ("threads", "1000")];

fn million_requests(c: &mut Criterion) {
    scale(c, "one_million_requests_bulkhead", &MILLION);
}

/// The same million requests at an inventory that can be overloaded: 500 calls at once
/// (12,500 calls/s at 40 ms, so the 10,000 requests/s keep it four fifths busy) with its
/// queue, slowing from 3 s as the lesson's does.
fn million_requests_with_capacity(c: &mut Criterion) {
    let sets = [
        MILLION.as_slice(),
        &[("capacity", "500"), ("recover_at", "5")],
    ]
    .concat();
    scale(c, "one_million_requests_capacity", &sets);
}

/// About a million requests through the failure zoo's parts at once: 500 clients in a closed
/// loop (each thinking 10 ms, about 10,000 requests/s while inventory is quick), orders' queue
/// adaptive (newest first when long), its heap pausing from 1,500 requests held, and inventory
/// (500 calls at once) behind a coalescing cache of 20,000 items flushed at 50 s.
fn million_requests_zoo_parts(c: &mut Criterion) {
    let sets = [
        ("duration", "100"),
        ("threads", "1000"),
        ("arrivals", "closed"),
        ("clients", "500"),
        ("think_time", "0.01"),
        ("queue_order", "adaptive"),
        ("gc_threshold", "1500"),
        ("gc_pause", "0.01"),
        ("capacity", "500"),
        ("cache_items", "20000"),
        ("cache_flush_at", "50"),
        ("cache_fill", "coalesce"),
    ];
    scale(c, "one_million_requests_zoo_parts", &sets);
}

/// A million requests to inventory on eight hosts behind the balancer, one failing from 50 s,
/// with outlier detection.
fn million_requests_hosts(c: &mut Criterion) {
    let hosts = [
        ("hosts", "8"),
        ("host_fails_at", "50"),
        ("outlier_detection", "on"),
    ];
    let sets = [MILLION.as_slice(), &hosts].concat();
    scale(c, "one_million_requests_hosts", &sets);
}

/// The same million requests through an Envoy sidecar: a fifth of the degraded calls fail,
/// Envoy retries them twice with its back-off, counting the retries in flight against a cap
/// it never reaches, so every retry takes the path that counts.
fn million_requests_envoy(c: &mut Criterion) {
    let envoy = [
        ("envoy", "on"),
        ("sidecar_retries", "2"),
        ("max_retries", "1000000"),
        ("error_rate", "0.2"),
    ];
    let sets = [MILLION.as_slice(), &envoy].concat();
    scale(c, "one_million_requests_envoy", &sets);
}

/// The same million requests through Polly's pipeline: the bulkhead scenario's timeout,
/// breaker and bulkhead under the `polly` profile, with 3 attempts, jittered exponential
/// delays from 5 ms and a fifth of the degraded calls failing, so every retry draws its delay
/// on the decorrelated curve.
fn million_requests_polly(c: &mut Criterion) {
    let polly = [
        ("stack", "polly"),
        ("attempts", "3"),
        ("retry_base", "0.005"),
        ("error_rate", "0.2"),
    ];
    let sets = [MILLION.as_slice(), &polly].concat();
    scale(c, "one_million_requests_polly", &sets);
}

/// Following one request as the page does when a student picks "slowest": the run's log is
/// already there, so this is finding the request in it and re-running with a recorder for it.
fn follow_one_request(c: &mut Criterion) {
    let mut group = c.benchmark_group("follow");
    for preset in [
        Preset::StoryNone,
        Preset::Lesson(Scenario::Cb),
        Preset::RetryStorm,
    ] {
        let cfg = preset.config();
        let mut logged = cfg.clone();
        logged.run.record_requests = true;
        let trace = run(&logged).expect("preset runs");
        group.bench_function(format!("slowest_of_{}", preset.key()), |b| {
            b.iter(|| {
                let id = Pick::Slowest
                    .find(&trace.requests, trace.end)
                    .expect("a request");
                std::hint::black_box(follow(&cfg, id).expect("follows"))
            })
        });
    }
    group.finish();
}

/// The metastability explorer's 12 x 12 grid, natively.
fn metastability_grid(c: &mut Criterion) {
    let grid = Grid::default();
    let mut group = c.benchmark_group("experiments");
    group.sample_size(10);
    group.bench_function("metastability_grid_12x12", |b| {
        b.iter(|| {
            for (rate, trigger) in grid.cells() {
                std::hint::black_box(grid.run_cell(rate, trigger).expect("cell runs"));
            }
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    four_scenario_table,
    million_requests,
    million_requests_with_capacity,
    million_requests_zoo_parts,
    million_requests_hosts,
    million_requests_envoy,
    million_requests_polly,
    follow_one_request,
    metastability_grid
);
criterion_main!(benches);
