//! What the page asks the metastability explorer's Web Worker and what it answers: one line of
//! text per cell, numbers separated by spaces. Text rather than JSON because serde's decoding
//! of these types made the gzipped wasm 6.2 KB larger than this; the numbers go through Rust's
//! own float formatting, which reads back exactly, so a cell arrives as the worker computed it.
//!
//! - request: `run index retry_budget breaker no_jitter deadline attempts` (switches 0 or 1),
//!   e.g. `3 17 1 0 0 0 3`;
//! - reply: `run index ok rate trigger_s recovered_ms ok_share` (`never` for no recovery), or
//!   `run index error <message>`.
//!
//! `run` is the page's count of grids started, so a reply to a grid since replaced is dropped;
//! 0 answers a request that did not parse.

use std::fmt;
use std::str::FromStr;

use super::metastability::{run_cell_at, Switches};
use crate::sim::experiments::metastability::Cell;

/// One cell of the grid `switches` give, for grid number `run`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellRequest {
    pub run: u32,
    pub index: usize,
    pub switches: Switches,
}

/// The answer to a [`CellRequest`]: the cell, or why there is none.
#[derive(Debug, Clone, PartialEq)]
pub struct CellReply {
    pub run: u32,
    pub index: usize,
    pub outcome: Result<Cell, String>,
}

/// The next space-separated word of `words`, parsed, or a message naming `field`.
fn field<T: FromStr>(words: &mut std::str::SplitWhitespace<'_>, field: &str) -> Result<T, String> {
    let word = words.next().ok_or_else(|| format!("{field}: missing"))?;
    word.parse()
        .map_err(|_| format!("{field}: `{word}` is not a number of the right kind"))
}

/// A finite number (`NaN` and `inf` parse as floats, but no cell holds them).
fn number(words: &mut std::str::SplitWhitespace<'_>, name: &str) -> Result<f64, String> {
    let x: f64 = field(words, name)?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{name}: {x} is not a finite number"))
    }
}

/// A switch: `0` or `1`.
fn switch(words: &mut std::str::SplitWhitespace<'_>, name: &str) -> Result<bool, String> {
    match field::<u8>(words, name)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(format!("{name}: {other} is not 0 or 1")),
    }
}

impl fmt::Display for CellRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.switches;
        let bit = |on: bool| u8::from(on);
        write!(
            f,
            "{} {} {} {} {} {} {}",
            self.run,
            self.index,
            bit(s.retry_budget),
            bit(s.breaker),
            bit(s.no_jitter),
            bit(s.deadline),
            s.attempts
        )
    }
}

impl FromStr for CellRequest {
    type Err = String;

    fn from_str(line: &str) -> Result<CellRequest, String> {
        let words = &mut line.split_whitespace();
        let request = CellRequest {
            run: field(words, "run")?,
            index: field(words, "index")?,
            switches: Switches {
                retry_budget: switch(words, "retry_budget")?,
                breaker: switch(words, "breaker")?,
                no_jitter: switch(words, "no_jitter")?,
                deadline: switch(words, "deadline")?,
                attempts: field(words, "attempts")?,
            },
        };
        match words.next() {
            Some(extra) => Err(format!("`{extra}` after the last field (attempts)")),
            None => Ok(request),
        }
    }
}

impl fmt::Display for CellReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.run, self.index)?;
        match &self.outcome {
            Ok(c) => {
                write!(f, "ok {} {} ", c.rate, c.trigger_s)?;
                match c.recovered_ms {
                    Some(ms) => write!(f, "{ms}")?,
                    None => f.write_str("never")?,
                }
                write!(f, " {}", c.ok_share)
            }
            Err(e) => write!(f, "error {e}"),
        }
    }
}

impl FromStr for CellReply {
    type Err = String;

    fn from_str(line: &str) -> Result<CellReply, String> {
        let words = &mut line.split_whitespace();
        let run = field(words, "run")?;
        let index = field(words, "index")?;
        let outcome = match words.next() {
            Some("ok") => Ok(Cell {
                rate: number(words, "rate")?,
                trigger_s: number(words, "trigger_s")?,
                recovered_ms: match words.clone().next() {
                    Some("never") => {
                        words.next();
                        None
                    }
                    _ => Some(number(words, "recovered_ms")?),
                },
                ok_share: number(words, "ok_share")?,
            }),
            Some("error") => Err(words.collect::<Vec<_>>().join(" ")),
            other => return Err(format!("`{}` is neither ok nor error", other.unwrap_or(""))),
        };
        Ok(CellReply {
            run,
            index,
            outcome,
        })
    }
}

/// The worker's whole job: computes the cell a request line asks for and answers with a
/// reply line.
pub fn answer(request: &str) -> String {
    let reply = match request.parse::<CellRequest>() {
        Ok(req) => CellReply {
            run: req.run,
            index: req.index,
            outcome: req.switches.grid().and_then(|g| run_cell_at(&g, req.index)),
        },
        Err(e) => CellReply {
            run: 0,
            index: 0,
            outcome: Err(format!("the cell request `{request}` is not valid: {e}")),
        },
    };
    reply.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::metastability::Explorer;

    #[test]
    fn a_worker_answers_the_cell_the_page_would_compute() {
        let switches = Switches {
            deadline: true,
            ..Switches::default()
        };
        let request = CellRequest {
            run: 7,
            index: 30,
            switches,
        };
        assert_eq!(request.to_string().parse(), Ok(request));
        let reply: CellReply = answer(&request.to_string()).parse().unwrap();
        assert_eq!((reply.run, reply.index), (7, 30));
        let mut here = Explorer::new(switches);
        while here.cells.len() <= 30 {
            here.step();
        }
        assert_eq!(reply.outcome, Ok(here.cells[30]));
    }

    #[test]
    fn a_cell_that_never_recovered_and_an_error_read_back() {
        let never = CellReply {
            run: 2,
            index: 143,
            outcome: Ok(Cell {
                rate: 137.5,
                trigger_s: 0.1 + 0.2,
                recovered_ms: None,
                ok_share: 0.062,
            }),
        };
        assert_eq!(never.to_string().parse(), Ok(never.clone()));
        let error = CellReply {
            outcome: Err("rate: 0 is outside 1..=2000".into()),
            ..never
        };
        assert_eq!(error.to_string(), "2 143 error rate: 0 is outside 1..=2000");
        assert_eq!(error.to_string().parse(), Ok(error));
    }

    #[test]
    fn a_bad_request_gets_a_reply_that_names_the_field() {
        let outside: CellReply = answer("2 144 0 0 0 0 3").parse().unwrap();
        assert_eq!(outside.run, 2);
        assert_eq!(
            outside.outcome,
            Err("index: 144 is outside the grid's 0..144 cells".to_string())
        );
        for (line, says) in [
            ("1", "index: missing"),
            ("1 2 0 0 2 0 3", "no_jitter: 2 is not 0 or 1"),
            ("1 2 0 0 0 0 x", "attempts: `x` is not a number"),
            ("1 2 0 0 0 0 3 4", "`4` after the last field"),
            ("-1 2 0 0 0 0 3", "run: `-1`"),
        ] {
            let reply: CellReply = answer(line).parse().unwrap();
            let message = reply.outcome.unwrap_err();
            assert_eq!(reply.run, 0, "{line}");
            assert!(message.contains(says), "{line}: {message}");
        }
        assert!("1 2 maybe".parse::<CellReply>().is_err());
        assert!("1 2 ok 1 2 NaN-ish 0.5".parse::<CellReply>().is_err());
        assert_eq!(
            "1 2 ok 1 2 NaN 0.5".parse::<CellReply>(),
            Err("recovered_ms: NaN is not a finite number".to_string())
        );
    }
}
