//! The page's settings work around one slider move, without the simulation: writing a knob
//! into the configuration, and writing every knob into the link's text. Prints the median
//! time of each, per call, over 15 batches.
//!
//! `cargo run --release --example knob_path`

use std::time::Instant;

use resilience_playground::page::knobs::knob;
use resilience_playground::page::permalink::{from_pairs, settings_text};

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The median over 15 batches of `calls` calls of `f`, in µs per call.
fn per_call(calls: u32, mut f: impl FnMut(u32)) -> f64 {
    let batches = (0..15)
        .map(|_| {
            let start = Instant::now();
            for i in 0..calls {
                f(i);
            }
            start.elapsed().as_secs_f64() * 1e6 / f64::from(calls)
        })
        .collect();
    median(batches)
}

fn main() {
    let pairs = [("preset".to_string(), "cb".to_string())];
    let (page, _) = from_pairs(&pairs);
    let settings = (*page.settings).clone();
    let cooldown = knob("cooldown").expect("the cool-down knob");
    let mut full = settings.full.clone();
    let write = per_call(20_000, |i| {
        let value = if i % 2 == 0 { 700.0 } else { 1_500.0 };
        std::hint::black_box(cooldown.write(&mut full, value));
    });
    let link = per_call(2_000, |_| {
        std::hint::black_box(settings_text(&settings));
    });
    println!("a knob written into the configuration: median {write:.2} µs per move");
    println!("every knob written into the link's text: median {link:.1} µs per change");
}
