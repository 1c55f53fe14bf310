//! The herd's figures under each jitter mode: `cargo run --release --example herd_figures --
//! [PRESET] [key=value]...` (default `retry-herd-contention`) prints, per mode: the peak of
//! calls reaching inventory per 100 ms after its restart; its conflicts, and their rate over
//! 20..30 s (the sale's steady traffic alone); the requests ok and failed; `recovered_ms`; and,
//! from the restart, when the last failed request ended and when the herd (the requests that
//! arrived before the restart) was through.

use resilience_playground::sim::model::run;
use resilience_playground::sim::scenario::{apply_set, Preset};
use resilience_playground::sim::trace::{Outcome, BUCKET};

fn seconds(micros: u64) -> String {
    format!("{:.1}", micros as f64 / 1e6)
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1).peekable();
    let preset = match args.peek() {
        Some(a) if !a.contains('=') => args.next().unwrap_or_default(),
        _ => "retry-herd-contention".to_string(),
    };
    let preset = Preset::parse(&preset).ok_or(format!("no preset {preset}"))?;
    let sets: Vec<String> = args.collect();
    println!("jitter        peak/100ms conflicts steady/s     ok failed recovered_s last_failed_s herd_through_s");
    for jitter in ["none", "full", "equal", "decorrelated"] {
        let mut c = preset.config();
        for set in &sets {
            let (k, v) = set.split_once('=').ok_or(format!("not key=value: {set}"))?;
            apply_set(&mut c, k, v).map_err(|e| e.to_string())?;
        }
        apply_set(&mut c, "jitter", jitter).map_err(|e| e.to_string())?;
        c.run.record_requests = true;
        let t = run(&c).map_err(|e| e.to_string())?;
        let restart = c.first().unwrap().faults.recover_at.unwrap_or(0);
        let inventory = &t.dependencies[0];
        let after_restart = (restart / BUCKET) as usize;
        let peak = inventory.calls_per_bucket.iter().skip(after_restart).max();
        let peak = peak.copied().unwrap_or(0);
        let load = inventory.load.as_ref();
        let conflicts = load.and_then(|l| l.conflicts).unwrap_or(0);
        let steady: u64 = load
            .and_then(|l| l.conflicts_per_bucket.get(200..300))
            .map_or(0, |s| s.iter().sum());
        let failed = t.outcomes.total() - t.outcomes.get(Outcome::Ok);
        let last_failed = t
            .requests
            .iter()
            .filter(|r| r.outcome != Outcome::Ok)
            .filter_map(|r| r.finished)
            .max()
            .map(|f| seconds(f.saturating_sub(restart)));
        let herd_through = t
            .requests
            .iter()
            .filter(|r| r.arrived < restart)
            .filter_map(|r| r.finished)
            .max()
            .map(|f| seconds(f.saturating_sub(restart)));
        let recovered = t.recovery.and_then(|r| r.recovered_after).map(seconds);
        let dash = |v: Option<String>| v.unwrap_or_else(|| "-".to_string());
        println!(
            "{jitter:<13} {peak:>10} {conflicts:>9} {:>8.1} {:>6} {failed:>6} {:>11} {:>13} {:>14}",
            steady as f64 / 10.0,
            t.outcomes.get(Outcome::Ok),
            dash(recovered),
            dash(last_failed),
            dash(herd_through),
        );
    }
    Ok(())
}
