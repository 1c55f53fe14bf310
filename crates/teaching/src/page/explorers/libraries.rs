//! The four-libraries explorer: lesson 000's protection as each library writes it, run on one
//! scenario and one seed and shown side by side (`cascade --compare-libraries` on a page), and
//! a configuration the student pastes (Resilience4j, Polly, Envoy or gRPC, told by its shape)
//! run on the same scenario beside them.

use crate::library_config::compare::{differences, run_each, LibraryRun};
use crate::library_config::pasted::Pasted;
use crate::page::lessons::live::{self, Live};
use crate::page::lessons::rules::Reading;
use crate::page::playground::runs::Run;
use crate::sim::model::SimConfig;

/// The figures each column shows, by the names lessons use for them.
pub const FIGURES: [Live; 6] = [
    Live::of(&live::OK_SHARE),
    Live::of(&live::TIMED_OUT),
    Live::of(&live::INVENTORY_CALLS),
    Live::of(&live::FIRST_OPENING),
    Live::of(&live::RETRIES_PER_SECOND),
    Live::of(&live::P99),
];

/// One library's column.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The library ("Polly"; "Yours: Polly" for a pasted one).
    pub library: String,
    /// How it writes the intent, in its own terms (empty for a pasted one).
    pub written: String,
    /// [`FIGURES`] at the run's end, with their units.
    pub figures: Vec<String>,
}

impl Column {
    fn of(library: String, written: String, run: &Run) -> Column {
        let reading = Reading {
            run,
            now: run.span,
            b: None,
        };
        let figures = FIGURES
            .iter()
            .map(|live| match live.value(&reading) {
                // At the run's end a breaker that has not opened never did.
                None if *live == Live::of(&live::FIRST_OPENING) => "never".to_string(),
                value => live.shown(value),
            })
            .collect();
        Column {
            library,
            written,
            figures,
        }
    }
}

/// The side-by-side table and what it says.
#[derive(Debug, Clone, PartialEq)]
pub struct Comparison {
    /// One column per library that runs on the scenario, in a fixed order.
    pub columns: Vec<Column>,
    /// Where the libraries differ, in sentences quoting the runs' figures.
    pub differences: Vec<String>,
    /// The libraries that cannot run on the scenario, each with why.
    pub skipped: Vec<String>,
}

/// Each row's heading: what the figure is.
pub fn row_headings() -> Vec<&'static str> {
    FIGURES.iter().map(|live| live.what()).collect()
}

/// Runs the intent under each library on `base`.
pub fn compare(base: &SimConfig) -> Result<Comparison, String> {
    let (ran, skipped) = run_each(base, |library, written, config| {
        let run = Run::of(config)?;
        let column = Column::of(library.to_string(), written.to_string(), &run);
        Ok::<_, String>((
            column,
            LibraryRun {
                library,
                written,
                config: run.config,
                trace: run.trace,
            },
        ))
    })?;
    let (columns, runs): (Vec<Column>, Vec<LibraryRun>) = ran.into_iter().unzip();
    Ok(Comparison {
        columns,
        differences: differences(&runs),
        skipped,
    })
}

/// A pasted configuration's column and what was not used as written; or why it cannot run,
/// naming the library its shape says it is.
pub fn yours(base: &SimConfig, text: &str) -> Result<(Column, Vec<String>), String> {
    let read = Pasted::read(text);
    let library = read.library;
    let mut config = base.clone();
    let notices = read
        .settings
        .and_then(|pasted| pasted.apply(&mut config))
        .map_err(|e| format!("{library} configuration: {e}"))?;
    let run = Run::of(config).map_err(|e| format!("{library} configuration: {e}"))?;
    let column = Column::of(format!("Yours: {library}"), String::new(), &run);
    Ok((column, notices.iter().map(ToString::to_string).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scenario::Preset;

    #[test]
    fn five_columns_on_saturday_each_quoting_its_own_run() {
        let base = Preset::Saturday.config();
        let c = compare(&base).unwrap();
        let names: Vec<_> = c.columns.iter().map(|c| c.library.as_str()).collect();
        assert_eq!(
            names,
            ["lesson 000", "Resilience4j", "Polly", "Envoy", "gRPC"]
        );
        assert!(c.skipped.is_empty());
        assert!(c.columns.iter().all(|c| c.figures.len() == FIGURES.len()));
        // The same figures as the CLI's comparison: gRPC's channel never opens a breaker and
        // calls inventory more than lesson 000 does.
        let calls = |i: usize| -> u64 {
            c.columns[i].figures[2]
                .split_whitespace()
                .next()
                .unwrap()
                .replace(',', "")
                .parse()
                .unwrap()
        };
        assert_eq!(c.columns[4].figures[3], "never");
        assert_ne!(c.columns[0].figures[3], "never");
        assert!(calls(4) > calls(0), "{:?}", c.columns);
        assert!(c.differences[0].contains(&format!("gRPC {}", calls(4))));
    }

    #[test]
    fn a_pasted_config_runs_beside_them_and_a_bad_one_names_its_field() {
        let base = Preset::Saturday.config();
        let grpc = include_str!("../../../../../tests/fixtures/grpc-service-config.json");
        let (column, notices) = yours(&base, grpc).unwrap();
        assert_eq!(column.library, "Yours: gRPC");
        assert_eq!(column.figures[3], "never");
        assert_eq!(notices.len(), 2, "{notices:?}");
        let bad = r#"{"methodConfig":[{"retryPolicy":{"maxAttempts":1,"initialBackoff":"0.1s","maxBackoff":"1s","backoffMultiplier":2,"retryableStatusCodes":["UNAVAILABLE"]}}]}"#;
        let e = yours(&base, bad).unwrap_err();
        assert!(e.starts_with("gRPC configuration:"), "{e}");
        assert!(e.contains("maxAttempts"), "{e}");
        let polly = yours(&base, r#"{"Retry":{"MaxRetryAttempts":-1}}"#).unwrap_err();
        assert!(
            polly.contains("Polly") && polly.contains("MaxRetryAttempts"),
            "{polly}"
        );
    }
}
