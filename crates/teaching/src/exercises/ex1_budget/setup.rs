//! Exercise 1 on the page: the lesson's figures, with no controls.

use crate::exercises::view::{solve, Change, Computed, PageExercise};
use crate::exercises::{BudgetAndRetries, BudgetRun};

/// Exercise 1 has no controls: the lesson's figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoControl {}

impl PageExercise for BudgetAndRetries {
    const NUMBER: u8 = 1;
    type Ex = BudgetAndRetries;
    type Results = BudgetRun;
    type Control = NoControl;

    fn lesson() -> Self {
        BudgetAndRetries::default()
    }

    fn exercise(&self) -> &BudgetAndRetries {
        self
    }

    fn compute(&self) -> Result<Computed<BudgetRun>, String> {
        solve(self)
    }

    fn control(&mut self, control: NoControl) -> Change {
        match control {}
    }
}
