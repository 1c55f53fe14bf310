//! Challenges: a step that starts from a broken system and sets goals on measured figures
//! ("p99 under 1 s", "at least 90% answered ok"), which the student meets with the step's
//! controls. The goals are judged on the student's run and on further seeds of it, so a
//! setting that passes by luck fails; a run with no request answered never passes.

use super::live::{Live, Quantity, Side};
use super::rules::Reading;
use crate::page::runs::Run;
use crate::sim::model::SimConfig;

/// How a goal compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// `<`
    Below,
    /// `<=`
    AtMost,
    /// `>`
    Above,
    /// `>=`
    AtLeast,
}

/// A goal on one figure of the run, at the step's moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Goal {
    /// The figure.
    pub live: Live,
    /// How it compares with the bound.
    pub compare: Compare,
    /// The bound, in the figure's unit (seconds, percent, a count or a rate).
    pub bound: f64,
}

/// A step's challenge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Challenge {
    /// What must hold, all of it.
    pub goals: &'static [Goal],
    /// The controls the step offers (knob keys), in order.
    pub controls: &'static [&'static str],
    /// Settings that meet the goals, on top of the step's run (`lesson check` proves it).
    pub solution: &'static [(&'static str, &'static str)],
    /// Hints, opened one at a time after failed checks.
    pub tips: &'static [&'static str],
    /// Why the cure works, shown once the goals are met.
    pub why: &'static str,
}

/// How many runs a check judges: the student's and this many more seeds.
pub const FURTHER_SEEDS: u64 = 4;

impl Compare {
    const ALL: [(&'static str, Compare); 4] = [
        ("<=", Compare::AtMost),
        (">=", Compare::AtLeast),
        ("<", Compare::Below),
        (">", Compare::Above),
    ];

    /// Its sign.
    pub fn sign(self) -> &'static str {
        Compare::ALL
            .iter()
            .find(|(_, c)| *c == self)
            .map_or("<", |(s, _)| s)
    }

    fn parse(text: &str) -> Option<Compare> {
        Compare::ALL
            .iter()
            .find(|(s, _)| *s == text)
            .map(|(_, c)| *c)
    }
}

/// A bound as written: `1 s`, `300 ms`, `90%`, `1500`.
fn bound_text(quantity: Quantity, bound: f64) -> String {
    match quantity {
        Quantity::Duration => format!("{bound} s"),
        Quantity::Percent => format!("{bound}%"),
        Quantity::Count => format!("{bound}"),
    }
}

/// A figure's value as the page says it beside its goal.
fn value_text(quantity: Quantity, value: Option<f64>) -> String {
    match (quantity, value) {
        (_, None) => "none".into(),
        (Quantity::Duration, Some(s)) if s < 1.0 => format!("{:.0} ms", s * 1e3),
        (Quantity::Duration, Some(s)) => format!("{s:.2} s"),
        (Quantity::Percent, Some(p)) => format!("{p:.1}%"),
        (Quantity::Count, Some(n)) if n.fract().abs() < 1e-9 => format!("{n:.0}"),
        (Quantity::Count, Some(n)) => format!("{n:.1}"),
    }
}

impl Goal {
    /// Reads `p99 < 1 s`, `ok-share >= 90`, `inventory-calls <= 1500`.
    pub fn parse(text: &str) -> Result<Goal, String> {
        let shape = || {
            format!(
                "`{text}` should be a goal: a figure, <, <=, > or >=, and a bound (`p99 < 1 s`, \
                 `ok-share >= 90`)"
            )
        };
        let mut words = text.split_ascii_whitespace();
        let (Some(name), Some(sign)) = (words.next(), words.next()) else {
            return Err(shape());
        };
        let live = Live::from_name(name)?;
        if live.side() != Side::A {
            return Err(format!(
                "`{text}`: a goal is judged on the step's own run over several seeds, so it \
                 reads that run only (`{}`, without `b:` or `b-a:`)",
                name.split_once(':').map_or(name, |(_, bare)| bare)
            ));
        }
        let compare = Compare::parse(sign).ok_or_else(shape)?;
        let rest: String = words.collect::<Vec<_>>().join("");
        let number = |t: &str| t.parse::<f64>().ok().filter(|v| v.is_finite());
        let bound = match live.quantity() {
            Quantity::Duration => if let Some(ms) = rest.strip_suffix("ms") {
                number(ms).map(|v| v / 1e3)
            } else {
                rest.strip_suffix('s').and_then(number)
            }
            .ok_or_else(|| {
                format!("`{text}`: {name} is a time, bounded in s or ms (`1 s`, `300 ms`)")
            })?,
            Quantity::Percent => number(rest.strip_suffix('%').unwrap_or(&rest))
                .filter(|p| (0.0..=100.0).contains(p))
                .ok_or_else(|| format!("`{text}`: {name} is a share, 0 to 100 (`90`, `90%`)"))?,
            Quantity::Count => number(&rest)
                .filter(|n| *n >= 0.0)
                .ok_or_else(|| format!("`{text}`: {name} is bounded by a number from 0"))?,
        };
        Ok(Goal {
            live,
            compare,
            bound,
        })
    }

    /// The goal as a lesson file writes it.
    pub fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.live.name(),
            self.compare.sign(),
            bound_text(self.live.quantity(), self.bound)
        )
    }

    /// The goal as a sentence a student reads: the measure in words, then its bound ("The
    /// longest queue in front of the workers so far: at most 10").
    pub fn sentence(&self) -> String {
        let words = match self.compare {
            Compare::Below => "under",
            Compare::AtMost => "at most",
            Compare::Above => "over",
            Compare::AtLeast => "at least",
        };
        let what = super::capitalized(self.live.what());
        format!(
            "{what}: {words} {}",
            bound_text(self.live.quantity(), self.bound)
        )
    }

    /// Whether `value` meets it. A figure with no value (a breaker that never opened) is past
    /// every bound, as in the questions' claims.
    pub fn met(&self, value: Option<f64>) -> bool {
        let v = value.unwrap_or(f64::INFINITY);
        match self.compare {
            Compare::Below => v < self.bound,
            Compare::AtMost => v <= self.bound,
            Compare::Above => v > self.bound,
            Compare::AtLeast => v >= self.bound,
        }
    }

    /// The value as the page shows it beside this goal.
    pub fn value_text(&self, value: Option<f64>) -> String {
        value_text(self.live.quantity(), value)
    }
}

/// One goal on every judged run.
#[derive(Debug, Clone, PartialEq)]
pub struct GoalOutcome {
    /// The goal.
    pub goal: Goal,
    /// Its figure on each run, the student's first.
    pub values: Vec<Option<f64>>,
    /// Met on every run.
    pub met: bool,
}

/// A challenge judged.
#[derive(Debug, Clone, PartialEq)]
pub struct Judged {
    /// Each goal.
    pub goals: Vec<GoalOutcome>,
    /// The seeds judged, the student's first.
    pub seeds: Vec<u64>,
    /// Every run answered at least one request ok by the moment.
    pub answered: bool,
    /// All goals met on every run, and every run answered.
    pub passed: bool,
}

impl Challenge {
    /// The goals on `run` at `moment`: each with its value and whether it is met.
    pub fn on_run(&self, run: &Run, moment: u64) -> Vec<(Goal, Option<f64>, bool)> {
        let reading = Reading {
            run,
            now: moment,
            b: None,
        };
        self.goals
            .iter()
            .map(|g| {
                let v = g.live.value(&reading);
                (*g, v, g.met(v))
            })
            .collect()
    }

    /// Judges the goals at `moment` on `run` (the student's) and on [`FURTHER_SEEDS`] more
    /// seeds of its configuration.
    pub fn judge(&self, run: &Run, moment: u64) -> Result<Judged, String> {
        let base = run.config.run.seed;
        let seeds: Vec<u64> = (0..=FURTHER_SEEDS).map(|i| base.wrapping_add(i)).collect();
        let mut runs = Vec::with_capacity(seeds.len());
        for &seed in &seeds[1..] {
            let mut config: SimConfig = run.config.clone();
            config.run.seed = seed;
            runs.push(Run::of(config)?);
        }
        let all: Vec<&Run> = std::iter::once(run).chain(runs.iter()).collect();
        let answered = all
            .iter()
            .all(|r| crate::page::replay::frame(&r.trace, moment).finished.ok > 0);
        let goals: Vec<GoalOutcome> = self
            .goals
            .iter()
            .map(|g| {
                let values: Vec<Option<f64>> = all
                    .iter()
                    .map(|r| {
                        g.live.value(&Reading {
                            run: r,
                            now: moment,
                            b: None,
                        })
                    })
                    .collect();
                let met = values.iter().all(|v| g.met(*v));
                GoalOutcome {
                    goal: *g,
                    values,
                    met,
                }
            })
            .collect();
        let passed = answered && goals.iter().all(|g| g.met);
        Ok(Judged {
            goals,
            seeds,
            answered,
            passed,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::lessons::live;

    #[test]
    fn a_goal_reads_the_steps_own_run_only() {
        let e = Goal::parse("b-a:ok-share >= 10").unwrap_err();
        assert!(e.contains("own run") && e.contains("`ok-share`"), "{e}");
        assert!(Goal::parse("b:p99 < 1 s").is_err());
        assert!(Goal::parse("ok-share >= 10").is_ok());
    }

    #[test]
    fn goals_read_in_their_units_and_write_back() {
        let g = Goal::parse("p99 < 1 s").unwrap();
        assert_eq!(
            (g.live, g.compare, g.bound),
            (Live::of(&live::P99), Compare::Below, 1.0)
        );
        assert_eq!(Goal::parse("p99 <= 300ms").unwrap().bound, 0.3);
        assert_eq!(
            Goal::parse("queue-peak <= 10").unwrap().sentence(),
            "The longest queue in front of the workers so far: at most 10"
        );
        assert_eq!(Goal::parse("p99 <= 300 ms").unwrap().bound, 0.3);
        let share = Goal::parse("ok-share >= 90%").unwrap();
        assert_eq!(share.live, Live::of(&live::OK_SHARE));
        assert_eq!(share.bound, 90.0);
        assert_eq!(
            Goal::parse("inventory-calls <= 1500").unwrap().bound,
            1500.0
        );
        for text in [
            "p99 < 0.3 s",
            "ok-share >= 90%",
            "inventory-calls <= 1500",
            "first-opening > 4 s",
        ] {
            let g = Goal::parse(text).unwrap();
            assert_eq!(Goal::parse(&g.text()).unwrap(), g, "{text}");
            let sentence = g.sentence();
            assert!(sentence.contains(&g.live.what()[1..]), "{sentence}");
            assert!(!sentence.contains(g.compare.sign()), "{sentence}");
        }
        assert!(Goal::parse("p99 < 1").unwrap_err().contains("s or ms"));
        assert!(Goal::parse("ok-share >= 120")
            .unwrap_err()
            .contains("0 to 100"));
        assert!(Goal::parse("p99 = 1 s").unwrap_err().contains("<, <="));
        assert!(Goal::parse("p100 < 1 s").unwrap_err().contains("`p100`"));
    }

    #[test]
    fn a_goal_is_met_by_its_values_and_a_missing_one_is_past_every_bound() {
        let below = Goal::parse("p99 < 1 s").unwrap();
        assert!(below.met(Some(0.5)) && !below.met(Some(1.0)) && !below.met(None));
        let late = Goal::parse("first-opening > 4 s").unwrap();
        assert!(late.met(None) && !late.met(Some(3.0)));
        assert_eq!(below.value_text(Some(0.25)), "250 ms");
        assert_eq!(below.value_text(None), "none");
    }

    #[test]
    fn a_challenge_is_judged_on_further_seeds() {
        let goals = [Goal::parse("ok-share >= 90").unwrap()];
        let challenge = Challenge {
            goals: Box::leak(Box::new(goals)),
            controls: &["timeout"],
            solution: &[],
            tips: &[],
            why: "",
        };
        let run = Run::of(
            crate::sim::scenario::Preset::Lesson(crate::sim::scenario::Scenario::None).config(),
        )
        .unwrap();
        let judged = challenge.judge(&run, 12_000_000).unwrap();
        assert_eq!(judged.seeds.len(), 1 + FURTHER_SEEDS as usize);
        assert_eq!(judged.goals[0].values.len(), judged.seeds.len());
        assert!(judged.answered);
        // With no protection, a slow inventory leaves far less than 90% answered.
        assert!(!judged.passed);
        assert_eq!(judged.seeds[1], run.config.run.seed + 1);
    }
}
