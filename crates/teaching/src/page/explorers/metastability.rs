//! The metastability explorer's state: the switches a student flips, the grid they give, and
//! the cells computed so far (in a Web Worker, or on the page when no worker can start). The
//! runs are [`crate::sim::experiments::metastability`]'s; this file decides what to run next
//! and how a cell reads ([`super::metastability_wire`] is what a worker is asked and answers).

use crate::page::numbers::refused;
use crate::resilience::{BreakerConfig, HalfOpenRule};
use crate::sim::experiments::metastability::{Cell, Grid};
use crate::sim::scenario::apply_set;

/// The cures one switch away, as the explorer offers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Switches {
    /// A retry budget of 10% of calls.
    pub retry_budget: bool,
    /// A circuit breaker (its half-open trials judged together, so it can close under load).
    pub breaker: bool,
    /// Backoff without jitter instead of full jitter.
    pub no_jitter: bool,
    /// Deadline propagation: inventory drops work whose caller has stopped waiting.
    pub deadline: bool,
    /// Attempts per call (1..=5).
    pub attempts: u32,
}

impl Default for Switches {
    /// The storm as the preset has it: three attempts with full jitter, nothing else.
    fn default() -> Self {
        Switches {
            retry_budget: false,
            breaker: false,
            no_jitter: false,
            deadline: false,
            attempts: 3,
        }
    }
}

impl Switches {
    /// The grid these switches give (12 × 12 over `retry-storm`).
    pub fn grid(&self) -> Result<Grid, String> {
        let mut grid = Grid::default();
        let attempts = self.attempts.clamp(1, 5).to_string();
        let mut sets = vec![("attempts", attempts.as_str())];
        if self.retry_budget {
            sets.push(("retry_budget_ratio", "0.1"));
        }
        if self.no_jitter {
            sets.push(("jitter", "none"));
        }
        if self.deadline {
            sets.push(("abandon", "drop"));
        }
        for (key, value) in sets {
            apply_set(&mut grid.base, key, value).map_err(|e| refused(&e))?;
        }
        if self.breaker {
            grid.base.first_stack_mut().breaker = Some(BreakerConfig {
                half_open_rule: HalfOpenRule::RateOverPermitted,
                ..BreakerConfig::cascade_sim()
            });
        }
        grid.validate().map_err(|e| refused(&e))?;
        Ok(grid)
    }
}

/// Runs cell number `index` of `grid` (row by row, as [`Grid::cells`] counts).
pub fn run_cell_at(grid: &Grid, index: usize) -> Result<Cell, String> {
    let (rate, trigger) = grid.cells().nth(index).ok_or_else(|| {
        format!(
            "index: {index} is outside the grid's 0..{} cells",
            grid.steps * grid.steps
        )
    })?;
    grid.run_cell(rate, trigger).map_err(|e| e.to_string())
}

/// What a cell shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Recovered within a second of the trigger's end.
    Quick,
    /// Recovered, within 5 s.
    Slow,
    /// Recovered, after more than 5 s.
    Late,
    /// Never recovered while the load lasted.
    Never,
}

impl Verdict {
    /// How a cell's result reads.
    pub fn of(cell: &Cell) -> Verdict {
        match cell.recovered_ms {
            Some(ms) if ms <= 1_000.0 => Verdict::Quick,
            Some(ms) if ms <= 5_000.0 => Verdict::Slow,
            Some(_) => Verdict::Late,
            None => Verdict::Never,
        }
    }

    /// Its CSS class.
    pub fn class(self) -> &'static str {
        match self {
            Verdict::Quick => "meta-quick",
            Verdict::Slow => "meta-slow",
            Verdict::Late => "meta-late",
            Verdict::Never => "meta-never",
        }
    }

    /// The legend's words.
    pub fn label(self) -> &'static str {
        match self {
            Verdict::Quick => "recovered within 1 s",
            Verdict::Slow => "recovered within 5 s",
            Verdict::Late => "recovered after more than 5 s",
            Verdict::Never => "never recovered (metastable)",
        }
    }

    /// Every verdict, in legend order.
    pub const ALL: [Verdict; 4] = [Verdict::Quick, Verdict::Slow, Verdict::Late, Verdict::Never];
}

/// The explorer: its switches, its grid and the cells computed so far (row by row).
#[derive(Debug, Clone, PartialEq)]
pub struct Explorer {
    pub switches: Switches,
    pub grid: Option<Grid>,
    pub cells: Vec<Cell>,
    /// What went wrong, if the switches gave no grid or a run failed.
    pub error: Option<String>,
}

impl Explorer {
    /// The explorer with `switches`, nothing computed yet.
    pub fn new(switches: Switches) -> Explorer {
        let (grid, error) = match switches.grid() {
            Ok(g) => (Some(g), None),
            Err(e) => (None, Some(e)),
        };
        Explorer {
            switches,
            grid,
            cells: Vec::new(),
            error,
        }
    }

    /// Cells in the grid.
    pub fn total(&self) -> usize {
        self.grid
            .as_ref()
            .map_or(0, |g| (g.steps * g.steps) as usize)
    }

    /// True while cells are left to compute.
    pub fn working(&self) -> bool {
        self.error.is_none() && self.cells.len() < self.total()
    }

    /// The index of the next cell to compute, while any is left.
    pub fn next_index(&self) -> Option<usize> {
        self.working().then_some(self.cells.len())
    }

    /// Takes the result of cell `index`, computed elsewhere; anything but the next cell is
    /// ignored (a reply that came late or twice).
    pub fn receive(&mut self, index: usize, result: Result<Cell, String>) {
        if self.next_index() != Some(index) {
            return;
        }
        match result {
            Ok(cell) => self.cells.push(cell),
            Err(e) => self.error = Some(e),
        }
    }

    /// Computes the next cell here, if any is left.
    pub fn step(&mut self) {
        if let (Some(index), Some(grid)) = (self.next_index(), &self.grid) {
            let result = run_cell_at(grid, index);
            self.receive(index, result);
        }
    }

    /// The computed cell at row `trigger` and column `rate` (both from 0), if computed.
    pub fn cell(&self, trigger: u32, rate: u32) -> Option<&Cell> {
        let steps = self.grid.as_ref()?.steps;
        self.cells.get((trigger * steps + rate) as usize)
    }

    /// The highest load that recovered at every trigger, requests/s: where the boundary
    /// stands (`None` until the grid is done, or when no column recovered throughout).
    pub fn safe_load(&self) -> Option<f64> {
        let grid = self.grid.as_ref()?;
        if self.working() || self.cells.is_empty() {
            return None;
        }
        (0..grid.steps)
            .filter(|&r| {
                (0..grid.steps).all(|t| self.cell(t, r).is_some_and(|c| c.recovered_ms.is_some()))
            })
            .map(|r| grid.rate(r + 1))
            .reduce(f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(switches: Switches) -> Explorer {
        let mut e = Explorer::new(switches);
        while e.working() {
            e.step();
        }
        e
    }

    #[test]
    fn the_grid_fills_row_by_row_and_a_retry_budget_moves_the_boundary_up() {
        let storm = finished(Switches::default());
        assert_eq!(storm.cells.len(), 144);
        assert_eq!(storm.cell(0, 1).map(|c| c.rate), Some(25.0));
        let budget = finished(Switches {
            retry_budget: true,
            ..Switches::default()
        });
        let (a, b) = (storm.safe_load().unwrap(), budget.safe_load().unwrap());
        assert!(b > a, "storm {a} req/s, with a budget {b}");
        let one = finished(Switches {
            attempts: 1,
            ..Switches::default()
        });
        assert!(one.safe_load().unwrap() > a);
    }

    #[test]
    fn only_the_next_cell_is_taken() {
        let mut e = Explorer::new(Switches::default());
        let cell = Cell {
            rate: 12.5,
            trigger_s: 0.5,
            recovered_ms: Some(0.0),
            ok_share: 1.0,
        };
        e.receive(1, Ok(cell));
        assert!(e.cells.is_empty());
        e.receive(0, Ok(cell));
        e.receive(0, Ok(cell));
        assert_eq!(e.cells.len(), 1);
        e.receive(1, Err("boom".into()));
        assert_eq!((e.working(), e.error.as_deref()), (false, Some("boom")));
    }

    #[test]
    fn a_verdict_reads_the_recovery() {
        let cell = |recovered_ms| Cell {
            rate: 1.0,
            trigger_s: 1.0,
            recovered_ms,
            ok_share: 1.0,
        };
        assert_eq!(Verdict::of(&cell(Some(0.0))), Verdict::Quick);
        assert_eq!(Verdict::of(&cell(Some(4_000.0))), Verdict::Slow);
        assert_eq!(Verdict::of(&cell(Some(9_000.0))), Verdict::Late);
        assert_eq!(Verdict::of(&cell(None)), Verdict::Never);
    }
}
