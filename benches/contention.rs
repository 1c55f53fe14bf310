//! Benchmark of the contention experiment: the blog's 100 runs at 100 clients, every strategy
//! (what `cascade --experiment contention --set clients=100` computes). Run with `cargo bench
//! --bench contention`.

use criterion::{criterion_group, criterion_main, Criterion};
use resilience_playground::sim::experiments::contention::{Batch, ContentionConfig, Strategy};

fn hundred_runs_at_hundred_clients(c: &mut Criterion) {
    let config = ContentionConfig {
        clients: 100,
        ..ContentionConfig::default()
    };
    let mut group = c.benchmark_group("contention");
    group.sample_size(10);
    group.bench_function("100_runs_100_clients_all_strategies", |b| {
        b.iter(|| {
            for strategy in Strategy::ALL {
                let batch = Batch::new(config, strategy, 100, 1);
                std::hint::black_box(batch.finish().expect("the experiment runs"));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, hundred_runs_at_hundred_clients);
criterion_main!(benches);
