//! Lesson 000, exercise 1: a 500 ms request budget, a reservation retried up to three times
//! inside it, and the card charge that gets whatever the reservation left.
//!
//! The arithmetic is the resilience module's: [`WorstCaseInput::analyse`] lays out the attempts
//! and waits with and without the budget, [`TimeBudget::timeout_for`] cuts Charge's timeout.
//! The only thing added here is a model of the payment gateway's latency, needed to say how
//! often Charge would run out of time.
//!
//! Gateway model (an assumption of ours; the lesson gives only a 318 ms mean and a 300 ms - 2 s
//! range): log-normal with the given mean and a log-scale spread `sigma` (0.3 by default, so the
//! median is about 304 ms). The share of calls slower than the timeout is computed in closed
//! form, and checked against a seeded sample that also feeds the histogram.

pub mod setup;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, LogNormal};
use serde::{Deserialize, Serialize};

use super::{fmt_ms, normal_cdf, Answer, Exercise, Part, Timeline, Tolerance};
use crate::resilience::{Micros, ParamError, TimeBudget, WorstCaseInput, MS, SECOND};

/// How long the payment gateway takes to answer a charge.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub enum GatewayLatency {
    /// Log-normal with this mean (1 ms..=60 s) and log-scale standard deviation (0.01..=3).
    LogNormal {
        /// Mean latency.
        mean: Micros,
        /// Standard deviation of the latency's logarithm.
        sigma: f64,
    },
}

impl GatewayLatency {
    /// Mean 318 ms (the lesson's measured average), sigma 0.3 (our choice).
    pub fn lesson_000() -> Self {
        GatewayLatency::LogNormal {
            mean: 318 * MS,
            sigma: 0.3,
        }
    }

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        match *self {
            GatewayLatency::LogNormal { mean, sigma } => {
                ParamError::check_micros("gateway_mean", mean, MS, 60 * SECOND)?;
                ParamError::check_f64("gateway_sigma", sigma, 0.01, 3.0, "")
            }
        }
    }

    /// `mu` of the underlying normal, in ln(µs): the mean of a log-normal is
    /// `exp(mu + sigma² / 2)`.
    fn mu_sigma(&self) -> (f64, f64) {
        match *self {
            GatewayLatency::LogNormal { mean, sigma } => {
                ((mean as f64).ln() - sigma * sigma / 2.0, sigma)
            }
        }
    }

    /// The median latency.
    pub fn median(&self) -> Micros {
        self.mu_sigma().0.exp().round() as Micros
    }

    /// The share of calls that take strictly longer than `timeout` (closed form).
    pub fn share_slower_than(&self, timeout: Micros) -> f64 {
        if timeout == 0 {
            return 1.0;
        }
        let (mu, sigma) = self.mu_sigma();
        1.0 - normal_cdf(((timeout as f64).ln() - mu) / sigma)
    }

    /// The assumption, in words, for the page.
    pub fn describe(&self) -> String {
        match *self {
            GatewayLatency::LogNormal { mean, sigma } => format!(
                "log-normal latency with a mean of {} and a spread of {sigma} on the log scale \
                 (median {})",
                fmt_ms(mean),
                fmt_ms((self.median() + MS / 2) / MS * MS)
            ),
        }
    }
}

/// The exercise's parameters; [`Default`] gives the lesson's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetAndRetries {
    /// The reservation's timeout, attempts and backoff, and the request's budget.
    pub reservation: WorstCaseInput,
    /// Charge's own timeout (1 ms..=600 s; lesson: 2 s).
    pub charge_timeout: Micros,
    /// Time the reservation actually used in part (b) (0..=budget; lesson: 280 ms).
    pub reservation_used: Micros,
    /// The payment gateway's latency.
    pub gateway: GatewayLatency,
    /// Gateway latencies drawn for the histogram and the sampled share (100..=1_000_000).
    pub samples: u32,
    /// Seed of the sample.
    pub seed: u64,
}

impl Default for BudgetAndRetries {
    fn default() -> Self {
        BudgetAndRetries {
            reservation: WorstCaseInput::lesson_000_reserve_stock(),
            charge_timeout: 2 * SECOND,
            reservation_used: 280 * MS,
            gateway: GatewayLatency::lesson_000(),
            samples: 20_000,
            seed: 1,
        }
    }
}

/// Part (b)'s figures about the gateway.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GatewayShare {
    /// The latency model, in words.
    pub assumption: String,
    /// Median gateway latency, µs.
    pub median: Micros,
    /// The timeout Charge is called with, µs (0 if the budget is already spent).
    pub timeout: Micros,
    /// Share of Charge calls slower than the timeout, exact under the model (0..=1).
    pub share_closed_form: f64,
    /// The same share in the seeded sample.
    pub share_sampled: f64,
    /// Sampled calls.
    pub samples: u32,
    /// Histogram of the sample: `(bin start µs, count)`, 20 ms bins; the last bin holds
    /// everything from its start upwards.
    pub histogram: Vec<(Micros, u32)>,
}

/// What a run of exercise 1 produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BudgetRun {
    /// The reservation's worst case with no budget at all.
    pub without_budget: Timeline,
    /// The reservation's worst case inside the budget.
    pub with_budget: Timeline,
    /// The budget line to draw across both timelines, µs (`None` if the input has no budget).
    pub budget: Option<Micros>,
    /// Charge's own timeout, before the budget cuts it.
    pub charge_timeout_configured: Micros,
    /// What the reservation used in part (b).
    pub reservation_used: Micros,
    /// The gateway figures of part (b).
    pub gateway: GatewayShare,
}

const BIN: Micros = 20 * MS;
const BINS: usize = 60;

impl BudgetAndRetries {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.reservation.validate()?;
        ParamError::check_micros("charge_timeout", self.charge_timeout, MS, 600 * SECOND)?;
        let budget = self.reservation.budget.unwrap_or(u64::MAX);
        ParamError::check_micros("reservation_used", self.reservation_used, 0, budget)?;
        self.gateway.validate()?;
        ParamError::check_u64("samples", self.samples.into(), 100, 1_000_000, "")?;
        Ok(())
    }

    /// The timeout Charge is called with after the reservation: its own, cut to what is left.
    pub fn charge_timeout_left(&self) -> Micros {
        match self.reservation.budget {
            Some(b) => TimeBudget::from_duration(0, b)
                .timeout_for(self.charge_timeout, self.reservation_used)
                .unwrap_or(0),
            None => self.charge_timeout,
        }
    }

    fn gateway_share(&self) -> Result<GatewayShare, ParamError> {
        let timeout = self.charge_timeout_left();
        let (mu, sigma) = self.gateway.mu_sigma();
        let dist = LogNormal::new(mu, sigma)
            .map_err(|_| ParamError::new("gateway_sigma", "0.01..=3", sigma.to_string()))?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut histogram: Vec<(Micros, u32)> = (0..BINS).map(|i| (i as Micros * BIN, 0)).collect();
        let mut slower = 0u32;
        for _ in 0..self.samples {
            let latency = dist.sample(&mut rng).round() as Micros;
            if latency > timeout {
                slower += 1;
            }
            let bin = usize::try_from(latency / BIN).unwrap_or(BINS).min(BINS - 1);
            histogram[bin].1 += 1;
        }
        Ok(GatewayShare {
            assumption: self.gateway.describe(),
            median: self.gateway.median(),
            timeout,
            share_closed_form: self.gateway.share_slower_than(timeout),
            share_sampled: f64::from(slower) / f64::from(self.samples),
            samples: self.samples,
            histogram,
        })
    }

    fn budget_ms(&self) -> String {
        self.reservation
            .budget
            .map(fmt_ms)
            .unwrap_or_else(|| "no".to_string())
    }
}

impl Exercise for BudgetAndRetries {
    type Run = BudgetRun;

    fn id(&self) -> &'static str {
        "budget-retries"
    }

    fn title(&self) -> &'static str {
        "A time budget, a retried reservation, and the charge that comes last"
    }

    fn question(&self) -> String {
        let r = &self.reservation;
        let w0 = fmt_ms(r.backoff.max_wait(0));
        let w1 = fmt_ms(r.backoff.max_wait(1));
        format!(
            "Placing an order (POST /orders) has a budget of {budget}: the whole request must be \
             answered within it. Two calls happen in turn. First the stock is reserved: each \
             attempt may run for up to {timeout}, there are at most {attempts} attempts, and the \
             wait before a retry is at most {w0}, then {w1}. Then the card is charged: Charge has \
             its own timeout of {charge} and is never retried.\n\
             (a) Imagine every reservation attempt hangs until its timeout. How long does the \
             reservation phase last if nobody enforces the budget? How long with the budget \
             handed down to the retries? In that second case, how many reservation attempts are \
             really made?\n\
             (b) On a better day the reservation is done after {used}. What timeout is Charge \
             called with? Assume the payment gateway has a {gateway}. What share of Charge calls \
             would run out of time?\n\
             (c) The gateway answers in anything from about 300 ms to 2 s. Change the order flow \
             so that the budget can be kept anyway, and name the patterns you use.",
            budget = self.budget_ms(),
            timeout = fmt_ms(r.per_attempt_timeout),
            attempts = r.attempts,
            charge = fmt_ms(self.charge_timeout),
            used = fmt_ms(self.reservation_used),
            gateway = self.gateway.describe(),
        )
    }

    fn run(&self) -> Result<BudgetRun, ParamError> {
        self.validate()?;
        let without = WorstCaseInput {
            budget: None,
            ..self.reservation.clone()
        }
        .analyse()?;
        let with = self.reservation.analyse()?;
        Ok(BudgetRun {
            without_budget: Timeline::from_worst_case(&without),
            with_budget: Timeline::from_worst_case(&with),
            budget: self.reservation.budget,
            charge_timeout_configured: self.charge_timeout,
            reservation_used: self.reservation_used,
            gateway: self.gateway_share()?,
        })
    }

    fn parts_for(&self, run: &BudgetRun) -> Vec<Part> {
        let ms = |us: Micros| us as f64 / MS as f64;
        let share = run.gateway.share_closed_form * 100.0;
        let below_median = run.gateway.timeout < run.gateway.median;
        let share_low = if below_median {
            "The timeout is shorter than the gateway's median answer, so more than half of the \
             calls are still running when it fires. Where does it sit in the distribution?"
        } else {
            "Compare the timeout with the gateway's median: the calls on the slow side of the \
             timeout are the ones that fail."
        };
        vec![
            Part::numeric(
                "a1",
                "Worst case of the reservation phase with no budget, in ms?".to_string(),
                Answer::two_sided(
                    ms(run.without_budget.total),
                    Tolerance::Relative(0.01),
                    "ms",
                    "Every attempt runs to its timeout, and a wait comes before each retry: \
                     add the waits too, each at its longest.",
                    &format!(
                        "{} attempts have only {} waits between them, and the first wait is \
                         the backoff's base, not its doubled value.",
                        self.reservation.attempts,
                        self.reservation.attempts.saturating_sub(1)
                    ),
                ),
            ),
            Part::numeric(
                "a2",
                "Worst case of the reservation phase inside the budget, in ms?".to_string(),
                Answer::two_sided(
                    ms(run.with_budget.total),
                    Tolerance::Absolute(5.0),
                    "ms",
                    "The budget is a deadline, not a limit per attempt: a later attempt may \
                     use all that the earlier ones and the wait left.",
                    "With the deadline handed down, no attempt and no wait can run past it.",
                ),
            ),
            Part::numeric(
                "a3",
                "Reservation attempts really made, in that budgeted worst case?".to_string(),
                Answer::two_sided(
                    f64::from(run.with_budget.attempts_made()),
                    Tolerance::Absolute(0.0),
                    "attempts",
                    "After the first attempt and a short wait, something of the budget is \
                     still left: the retry goes ahead with a shorter timeout.",
                    "Look at what is left once the second attempt has timed out: a retry whose \
                     wait would reach the deadline is not started.",
                ),
            ),
            Part::numeric(
                "b1",
                "Timeout Charge is called with, in ms?".to_string(),
                Answer::new(
                    ms(run.gateway.timeout),
                    Tolerance::Absolute(2.0),
                    "ms",
                    "Charge gets the smaller of its own timeout and what the request still has \
                     left of its budget.",
                ),
            ),
            Part::numeric(
                "b2",
                "Share of Charge calls that would time out, in %?".to_string(),
                Answer::two_sided(
                    share,
                    Tolerance::Absolute(7.0),
                    "%",
                    share_low,
                    "Some calls do finish in time: the gateway's answers spread around the \
                     median. How far below it is the timeout, measured on a log scale in \
                     units of the spread?",
                )
                .wide_because(
                    "the share comes from the tail of a lognormal spread, which an estimate \
                     by hand (from the median and the p99) reaches only roughly.",
                ),
            ),
            Part::open(
                "c",
                "How would you change the order flow so that the budget holds with a gateway \
                 that takes 300 ms to 2 s?"
                    .to_string(),
            ),
        ]
    }

    fn solution_for(&self, run: &BudgetRun) -> String {
        let r = &self.reservation;
        let without = &run.without_budget;
        let with = &run.with_budget;
        let second = with
            .bars
            .iter()
            .filter(|b| b.kind == super::BarKind::Attempt)
            .nth(1)
            .map(|b| fmt_ms(b.end - b.start))
            .unwrap_or_else(|| "nothing".to_string());
        format!(
            "(a) With nothing enforcing a deadline, the worst case is {attempts} full attempts of \
             {timeout} plus every wait at its ceiling ({w0}, {w1}): {total_free}. With the budget \
             handed down, the first attempt spends {timeout}; after the wait the second may only \
             use what remains, {second}; then the budget is gone, so the retry logic refuses to \
             start another attempt (its wait would already reach the deadline). The phase ends \
             by {total_budget} at the latest: {made} attempt(s) made, {dropped} dropped. The \
             budget is never overrun; what it costs is the last attempt.\n\
             (b) Charge asks for its own {charge} but gets only what is left: {left}. With a {gw}, \
             {share:.0}% of charges are slower than that (the seeded sample of {n} calls gives \
             {sampled:.1}%). Each of them fails on the deadline, and since Charge has no \
             idempotency key it cannot simply be tried again: the order has to be undone and \
             the stock released. Worse, a charge that timed out on our side may still complete \
             at the gateway, so the customer can pay for an order we cancelled.\n\
             (c) Take the charge out of the request. Once the stock is reserved and the order \
             stored, answer at once: order accepted, payment in progress (HTTP 202). Charging \
             becomes the next step of the order's saga, started from an outbox record in the \
             same transaction as the order, with its full {charge} timeout and an idempotency \
             key so that it can be retried without charging twice; if it finally fails, the \
             saga's compensation releases the stock and tells the customer. This is graceful \
             degradation (accept now, confirm later) built on an asynchronous saga step. The \
             {budget} target now covers accepting the order; how long payment confirmation may \
             take needs a target of its own, and a dashboard.",
            attempts = r.attempts,
            timeout = fmt_ms(r.per_attempt_timeout),
            w0 = fmt_ms(r.backoff.max_wait(0)),
            w1 = fmt_ms(r.backoff.max_wait(1)),
            total_free = fmt_ms(without.total),
            total_budget = fmt_ms(with.total),
            made = with.attempts_made(),
            dropped = with.attempts_dropped(),
            charge = fmt_ms(self.charge_timeout),
            left = fmt_ms(run.gateway.timeout),
            gw = self.gateway.describe(),
            share = run.gateway.share_closed_form * 100.0,
            n = run.gateway.samples,
            sampled = run.gateway.share_sampled * 100.0,
            budget = self.budget_ms(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::BarKind;

    fn ex() -> BudgetAndRetries {
        BudgetAndRetries::default()
    }

    #[test]
    fn worst_case_without_budget_is_1050_ms() {
        let run = ex().run().unwrap();
        assert_eq!(run.without_budget.total, 1_050 * MS);
        assert_eq!(run.without_budget.attempts_made(), 3);
        let kinds: Vec<_> = run.without_budget.bars.iter().map(|b| b.kind).collect();
        use BarKind::*;
        assert_eq!(kinds, vec![Attempt, Wait, Attempt, Wait, Attempt]);
        // The bars tile the timeline with no gap.
        let last = run.without_budget.bars.last().unwrap();
        assert_eq!(last.end, run.without_budget.total);
    }

    #[test]
    fn with_budget_never_over_500_ms_and_third_attempt_dropped() {
        let run = ex().run().unwrap();
        let budget = run.budget.unwrap();
        assert_eq!(budget, 500 * MS);
        assert!(run.with_budget.total <= budget);
        assert!(run.with_budget.bars.iter().all(|b| b.end <= budget));
        assert_eq!(run.with_budget.attempts_made(), 2);
        let dropped: Vec<_> = run
            .with_budget
            .bars
            .iter()
            .filter(|b| b.kind == BarKind::Dropped)
            .map(|b| b.attempt)
            .collect();
        assert_eq!(dropped, vec![2]);
    }

    #[test]
    fn charge_gets_220_ms() {
        assert_eq!(ex().charge_timeout_left(), 220 * MS);
        assert_eq!(ex().run().unwrap().gateway.timeout, 220 * MS);
        // Budget spent entirely: Charge is not called at all, every order fails.
        let spent = BudgetAndRetries {
            reservation_used: 500 * MS,
            ..ex()
        };
        assert_eq!(spent.charge_timeout_left(), 0);
        assert_eq!(spent.run().unwrap().gateway.share_closed_form, 1.0);
    }

    #[test]
    fn gateway_share_closed_form_agrees_with_the_sample() {
        let g = ex().run().unwrap().gateway;
        // Under the default model the timeout sits well under the median (~304 ms).
        assert!(g.median > 300 * MS && g.median < 310 * MS, "{}", g.median);
        assert!(
            g.share_closed_form > 0.8 && g.share_closed_form < 0.9,
            "{}",
            g.share_closed_form
        );
        assert!(
            (g.share_closed_form - g.share_sampled).abs() < 0.01,
            "{} vs {}",
            g.share_closed_form,
            g.share_sampled
        );
        let counted: u32 = g.histogram.iter().map(|b| b.1).sum();
        assert_eq!(counted, g.samples);
        // The mean of the model is the lesson's 318 ms: check it on the sample's scale.
        let big = GatewayLatency::LogNormal {
            mean: 318 * MS,
            sigma: 0.3,
        };
        assert!((big.share_slower_than(big.median()) - 0.5).abs() < 1e-3);
    }

    #[test]
    fn same_seed_same_run_other_seed_other_sample() {
        let a = ex().run().unwrap();
        let b = ex().run().unwrap();
        assert_eq!(a, b);
        let c = BudgetAndRetries { seed: 2, ..ex() }.run().unwrap();
        assert_ne!(a.gateway.histogram, c.gateway.histogram);
        assert_eq!(a.gateway.share_closed_form, c.gateway.share_closed_form);
    }

    #[test]
    fn right_answers_pass_and_wrong_ones_get_a_hint() {
        let e = ex();
        let ok = |part: &str, v: f64| e.check(part, v).unwrap().unwrap();
        assert!(ok("a1", 1_050.0).correct);
        assert!(ok("a2", 500.0).correct);
        assert!(ok("a3", 2.0).correct);
        assert!(ok("b1", 220.0).correct);
        let share = e.run().unwrap().gateway.share_closed_form * 100.0;
        assert!(ok("b2", share.round()).correct);
        // Classic mistakes: forgetting the waits, the budget ignored, all three attempts made,
        // Charge keeping its 2 s, "the mean is above the timeout, so all of them".
        for (part, wrong) in [
            ("a1", 900.0),
            ("a1", 1_200.0),
            ("a2", 1_050.0),
            ("a3", 3.0),
            ("a3", 1.0),
            ("b1", 2_000.0),
            ("b2", 100.0),
            ("b2", 50.0),
        ] {
            let v = ok(part, wrong);
            assert!(!v.correct, "{part} {wrong}");
            let hint = v.hint.unwrap();
            assert!(!hint.is_empty());
            // A hint never gives the number away.
            let expected = e.parts().unwrap();
            let exp = expected
                .iter()
                .find(|p| p.id == part)
                .unwrap()
                .answer
                .as_ref()
                .unwrap()
                .expected;
            assert!(!hint.contains(&format!("{}", exp.round())), "{hint}");
        }
        assert_eq!(e.check("c", 1.0).unwrap(), None);
        assert_eq!(e.check("zz", 1.0).unwrap(), None);
    }

    #[test]
    fn texts_carry_the_figures_and_serialise() {
        let e = ex();
        let q = e.question();
        assert!(q.contains("500 ms") && q.contains("300 ms") && q.contains("280 ms"));
        let s = e.solution().unwrap();
        assert!(s.contains("1.05 s") && s.contains("220 ms") && s.contains("150 ms"));
        let json = serde_json::to_string(&e.run().unwrap()).unwrap();
        let back: BudgetRun = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(e.parts().unwrap().len(), 6);
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = BudgetAndRetries {
            reservation_used: 600 * MS,
            ..ex()
        };
        assert_eq!(bad.run().unwrap_err().field, "reservation_used");
        let bad = BudgetAndRetries {
            gateway: GatewayLatency::LogNormal {
                mean: 318 * MS,
                sigma: 0.0,
            },
            ..ex()
        };
        assert_eq!(bad.parts().unwrap_err().field, "gateway_sigma");
    }
}
