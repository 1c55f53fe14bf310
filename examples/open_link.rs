//! The time to open a link that switches seven patterns on and sets ten knobs, with A/B on:
//! the page's state read from the address, its runs simulated (a benchmark, not a test; build
//! with `--release`). `cargo run --release --example open_link`

use std::time::Instant;

use resilience_playground::page::permalink::{from_pairs, parse_query};

fn main() {
    let query =
        "preset=none&patterns=timeout,retries,retry_budget,breaker,bulkhead,load_shed,hedge\
                 &threads=40&timeout=250ms&cooldown=3s&window=5&attempts=3&permits=12\
                 &retry_base=50ms&slow=900ms&rate=150&failure_ratio=0.4&ab=timeout=400ms";
    let (pairs, _) = parse_query(query);
    let mut times: Vec<f64> = (0..15)
        .map(|_| {
            let start = Instant::now();
            let (page, notices) = from_pairs(&pairs);
            let elapsed = start.elapsed().as_secs_f64() * 1e3;
            assert!(notices.is_empty(), "{notices:?}");
            std::hint::black_box(page);
            elapsed
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "open the link: median {:.1} ms, min {:.1}, max {:.1} (15 runs)",
        times[7], times[0], times[14]
    );
}
