//! Every preset's `cascade --preset P --json` line, as it was before the vocabulary was
//! rebuilt: a refactor that changes what any preset counts fails here, naming the preset and
//! the first figure that moved.
//!
//! A change that is meant to move a preset's figures rewrites the fixture, one line a preset:
//! `cargo run --release --bin cascade -- --json --preset P` for each preset of
//! `Preset::ALL`, in that order (`tests/fixtures/preset_golden.jsonl`).

use resilience_playground::sim::scenario::Preset;
use std::process::Command;

const GOLDEN: &str = include_str!("fixtures/preset_golden.jsonl");

fn json_of(preset: &str) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_cascade"))
        .args(["--json", "--preset", preset])
        .output()
        .expect("run cascade");
    assert!(
        out.status.success(),
        "{preset}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON line")
}

#[test]
fn every_preset_counts_what_it_counted_before() {
    let golden: Vec<serde_json::Value> = GOLDEN
        .lines()
        .map(|l| serde_json::from_str(l).expect("a golden line"))
        .collect();
    let keys: Vec<&str> = Preset::ALL.iter().map(|p| p.key()).collect();
    let golden_keys: Vec<&str> = golden
        .iter()
        .map(|g| g["scenario"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        keys, golden_keys,
        "the fixture has a line per preset, in order"
    );
    for (preset, want) in keys.iter().zip(&golden) {
        let got = json_of(preset);
        let (got, want) = (got.as_object().unwrap(), want.as_object().unwrap());
        for (field, value) in want {
            assert_eq!(got.get(field), Some(value), "{preset}: {field}");
        }
        let added: Vec<&String> = got.keys().filter(|k| !want.contains_key(*k)).collect();
        assert!(
            added.is_empty(),
            "{preset}: figures not in the fixture: {added:?}"
        );
    }
}
