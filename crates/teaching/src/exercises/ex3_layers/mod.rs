//! Lesson 000, exercise 3: retries in three layers (web front end, the service's resilience
//! library, the Envoy sidecar) against an inventory service that is down, and idempotency keys
//! on the front end's retries.
//!
//! The multiplication is [`LayerStorm`]'s. The duplicate-order scenario is ours: inventory and
//! orders are healthy, but for a share of requests the response is lost on its way back after
//! the order was written and the card charged (a connection reset between orders and the
//! gateway, say). The front end sees a timeout and sends the same request again. Without a key
//! each repeat writes and charges again; with one, [`IdempotencyStore`] answers the repeat with
//! the stored response.

pub mod setup;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::{fmt_ms, Answer, Exercise, Part, Tolerance};
use crate::resilience::{
    IdempotencyConfig, IdempotencyStore, LayerStorm, Micros, ParamError, MS, SECOND,
};

/// Which layer keeps its retries; the others pass every call through once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RetryingLayer {
    /// Every layer retries as configured (the exercise's starting point).
    All,
    /// Only the web front end.
    FrontEnd,
    /// Only the resilience library inside orders.
    Library,
    /// Only the Envoy sidecar.
    Sidecar,
    /// Nobody retries.
    Nobody,
}

impl RetryingLayer {
    /// Every choice, in the order a view lists them.
    pub const ALL: [RetryingLayer; 5] = [
        RetryingLayer::All,
        RetryingLayer::FrontEnd,
        RetryingLayer::Library,
        RetryingLayer::Sidecar,
        RetryingLayer::Nobody,
    ];

    /// A short name for a table.
    pub fn name(self) -> &'static str {
        match self {
            RetryingLayer::All => "all three layers",
            RetryingLayer::FrontEnd => "front end only",
            RetryingLayer::Library => "library only",
            RetryingLayer::Sidecar => "sidecar only",
            RetryingLayer::Nobody => "no layer",
        }
    }
}

/// The exercise's parameters; [`Default`] gives the lesson's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreeLayers {
    /// Attempts the front end makes in total (1..=10; lesson: 1 + 2 retries).
    pub front_end_attempts: u32,
    /// Attempts the resilience library makes in total (1..=10; lesson: 3).
    pub library_attempts: u32,
    /// Attempts the sidecar makes in total (1..=10; Envoy's default `num_retries: 2` gives 3).
    pub sidecar_attempts: u32,
    /// Which layer keeps its retries.
    pub retrying: RetryingLayer,
    /// Orders per second arriving at the front end (0..=1_000_000; lesson: 100).
    pub orders_per_sec: f64,
    /// Timeout of each call to inventory (1 µs..=600 s; lesson: 300 ms).
    pub per_call_timeout: Micros,
    /// How long inventory stays down (1 s..=3600 s; lesson: 30 s).
    pub outage: Micros,
    /// Orders placed in the duplicate-order scenario (1..=1_000_000).
    pub orders: u32,
    /// Share of responses lost after the order was written (0..=0.9).
    pub lost_response_share: f64,
    /// Seed of the duplicate-order scenario.
    pub seed: u64,
}

impl Default for ThreeLayers {
    fn default() -> Self {
        ThreeLayers {
            front_end_attempts: 3,
            library_attempts: 3,
            sidecar_attempts: 3,
            retrying: RetryingLayer::All,
            orders_per_sec: 100.0,
            per_call_timeout: 300 * MS,
            outage: 30 * SECOND,
            orders: 1_000,
            lost_response_share: 0.05,
            seed: 1,
        }
    }
}

/// The load one choice of retrying layer puts on a dead inventory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LayerChoice {
    /// Which layer retries.
    pub retrying: RetryingLayer,
    /// Attempts of front end, library and sidecar, in that order.
    pub attempts_per_layer: Vec<u32>,
    /// Calls reaching inventory for one order.
    pub calls_per_order: u64,
    /// Calls per second reaching inventory.
    pub calls_per_sec: f64,
    /// Calls reaching inventory over the whole outage.
    pub calls_during_outage: f64,
    /// How long an order takes to fail (call timeouts only, waits left out), µs.
    pub time_to_give_up: Micros,
}

/// What the duplicate-order scenario counted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DuplicateReport {
    /// Whether the front end sent an idempotency key.
    pub idempotency_key: bool,
    /// Orders customers meant to place (one press of "buy" each).
    pub orders_meant: u32,
    /// `POST /orders` requests that reached orders, retries included.
    pub requests: u32,
    /// Orders written to the database.
    pub orders_written: u32,
    /// Orders written beyond the one each customer meant.
    pub duplicate_orders: u32,
    /// Customers whose card was charged more than once.
    pub customers_charged_twice: u32,
    /// Charges beyond the first, in total.
    pub extra_charges: u32,
    /// Repeats answered from the idempotency store.
    pub replayed: u64,
    /// Customers who never got an answer (every response lost): the order may well exist.
    pub customers_left_unsure: u32,
    /// Duplicate orders to expect on average (closed form).
    pub expected_duplicates: f64,
}

/// What a run of exercise 3 produces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThreeLayersRun {
    /// The chosen layer's load.
    pub current: LayerChoice,
    /// Every choice, for a comparison table or a bar chart.
    pub choices: Vec<LayerChoice>,
    /// Calls per second inventory receives when healthy (one per order).
    pub normal_calls_per_sec: f64,
    /// The duplicate scenario without the key, front end retrying as chosen.
    pub without_key: DuplicateReport,
    /// The same, with the key.
    pub with_key: DuplicateReport,
}

impl ThreeLayersRun {
    /// The load of one choice (a run lists them all).
    pub fn choice(&self, layer: RetryingLayer) -> &LayerChoice {
        self.choices
            .iter()
            .find(|c| c.retrying == layer)
            .unwrap_or(&self.current)
    }
}

impl ThreeLayers {
    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        for (f, v) in [
            ("front_end_attempts", self.front_end_attempts),
            ("library_attempts", self.library_attempts),
            ("sidecar_attempts", self.sidecar_attempts),
        ] {
            ParamError::check_u64(f, v.into(), 1, 10, "")?;
        }
        ParamError::check_f64(
            "orders_per_sec",
            self.orders_per_sec,
            0.0,
            1_000_000.0,
            "/s",
        )?;
        ParamError::check_micros("per_call_timeout", self.per_call_timeout, 1, 600 * SECOND)?;
        ParamError::check_micros("outage", self.outage, SECOND, 3_600 * SECOND)?;
        ParamError::check_u64("orders", self.orders.into(), 1, 1_000_000, "")?;
        ParamError::check_f64(
            "lost_response_share",
            self.lost_response_share,
            0.0,
            0.9,
            "",
        )
    }

    /// The attempts of front end, library and sidecar when only `layer` retries.
    pub fn attempts_for(&self, layer: RetryingLayer) -> [u32; 3] {
        let [f, l, s] = [
            self.front_end_attempts,
            self.library_attempts,
            self.sidecar_attempts,
        ];
        match layer {
            RetryingLayer::All => [f, l, s],
            RetryingLayer::FrontEnd => [f, 1, 1],
            RetryingLayer::Library => [1, l, 1],
            RetryingLayer::Sidecar => [1, 1, s],
            RetryingLayer::Nobody => [1, 1, 1],
        }
    }

    /// The retry storm when only `layer` retries.
    pub fn storm(&self, layer: RetryingLayer) -> LayerStorm {
        LayerStorm {
            attempts_per_layer: self.attempts_for(layer).to_vec(),
            requests_per_sec: self.orders_per_sec,
            per_call_timeout: self.per_call_timeout,
        }
    }

    fn choice(&self, layer: RetryingLayer) -> Result<LayerChoice, ParamError> {
        let storm = self.storm(layer);
        storm.validate()?;
        Ok(LayerChoice {
            retrying: layer,
            attempts_per_layer: storm.attempts_per_layer.clone(),
            calls_per_order: storm.calls_per_request(),
            calls_per_sec: storm.calls_per_sec(),
            calls_during_outage: storm.calls_per_sec() * self.outage as f64 / SECOND as f64,
            time_to_give_up: storm.time_to_give_up(),
        })
    }

    /// Orders placed one after another; each response is lost with `lost_response_share`, and
    /// the front end sends the request again (same key, if any) while it has attempts left.
    pub fn duplicates(&self, idempotency_key: bool) -> Result<DuplicateReport, ParamError> {
        self.validate()?;
        let attempts = self.attempts_for(self.retrying)[0];
        let p = self.lost_response_share;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        let mut store = IdempotencyStore::<u64>::new(IdempotencyConfig::lesson_000())?;
        let mut report = DuplicateReport {
            idempotency_key,
            orders_meant: self.orders,
            requests: 0,
            orders_written: 0,
            duplicate_orders: 0,
            customers_charged_twice: 0,
            extra_charges: 0,
            replayed: 0,
            customers_left_unsure: 0,
            expected_duplicates: 0.0,
        };
        let mut next_order_id = 0u64;
        for customer in 0..self.orders {
            let key = format!("buy-{customer}");
            let mut written_for_customer = 0u32;
            let mut answered = false;
            for attempt in 0..attempts {
                // One order every 10 ms; a retry a second later (well inside the key's TTL).
                let now = u64::from(customer) * 10 * MS + u64::from(attempt) * SECOND;
                report.requests += 1;
                let mut write = || {
                    next_order_id += 1;
                    written_for_customer += 1;
                    next_order_id
                };
                if idempotency_key {
                    store.check_or_store(&key, now, &mut write);
                } else {
                    write();
                }
                // Was the response lost on its way back?
                if !rng.gen_bool(p) {
                    answered = true;
                    break;
                }
            }
            report.orders_written += written_for_customer;
            report.duplicate_orders += written_for_customer.saturating_sub(1);
            report.extra_charges += written_for_customer.saturating_sub(1);
            report.customers_charged_twice += u32::from(written_for_customer > 1);
            report.customers_left_unsure += u32::from(!answered);
        }
        report.replayed = store.duplicates_avoided();
        report.expected_duplicates = if idempotency_key {
            0.0
        } else {
            // A repeat is sent after each lost response, up to attempts - 1 of them.
            f64::from(self.orders) * (1..attempts).map(|k| p.powi(k as i32)).sum::<f64>()
        };
        Ok(report)
    }
}

impl Exercise for ThreeLayers {
    type Run = ThreeLayersRun;

    fn id(&self) -> &'static str {
        "retry-layers"
    }

    fn title(&self) -> &'static str {
        "Retries in three layers, and the key that keeps them from ordering twice"
    }

    fn question(&self) -> String {
        format!(
            "A service mesh arrives, and its sidecar quietly retries every call: \
             {s} attempts in all. The resilience library inside orders still makes up to {l} \
             attempts at calling inventory, and the web front end sends POST /orders up to {f} \
             times when it gets a timeout. Each call to inventory times out after {t}.\n\
             (a) Inventory is completely down for {outage}, {rate} orders arrive per second, and \
             no layer has a circuit breaker or a retry budget. How many calls reach inventory \
             for one order? How many per second? About how long does a customer wait before \
             seeing an error (count the timeouts only)?\n\
             (b) Pick one layer to do the retrying and let the others pass calls through once. \
             Which one, and why? If it is the library, how many calls per second reach the dead \
             inventory?\n\
             (c) Sometimes an order is written and the card charged, but the response is lost \
             on the way back ({lost:.0}% of requests, say), so the front end sees a timeout and \
             tries again. Among {n} orders, how many duplicates do you expect when there is no \
             idempotency key, and how many with one? What does the key rely on?",
            s = self.sidecar_attempts,
            l = self.library_attempts,
            f = self.front_end_attempts,
            t = fmt_ms(self.per_call_timeout),
            outage = fmt_ms(self.outage),
            rate = self.orders_per_sec,
            lost = self.lost_response_share * 100.0,
            n = self.orders,
        )
    }

    fn run(&self) -> Result<ThreeLayersRun, ParamError> {
        self.validate()?;
        let choices = RetryingLayer::ALL
            .iter()
            .map(|&l| self.choice(l))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(ThreeLayersRun {
            current: self.choice(self.retrying)?,
            choices,
            normal_calls_per_sec: self.orders_per_sec,
            without_key: self.duplicates(false)?,
            with_key: self.duplicates(true)?,
        })
    }

    fn parts_for(&self, run: &ThreeLayersRun) -> Vec<Part> {
        let all = run.choice(RetryingLayer::All);
        let library = run.choice(RetryingLayer::Library);
        let (f, l, s) = (
            f64::from(self.front_end_attempts),
            f64::from(self.library_attempts),
            f64::from(self.sidecar_attempts),
        );
        let lesson = ThreeLayers::default();
        let lesson_per_order = f64::from(
            lesson.front_end_attempts * lesson.library_attempts * lesson.sidecar_attempts,
        );
        let now = format!(
            "with these settings the front end makes {} attempt(s), the library {} and the \
             sidecar {}",
            self.front_end_attempts, self.library_attempts, self.sidecar_attempts
        );
        let lesson_slip = format!(
            "That is the lesson's figure, for {} attempts at each layer; {now}.",
            lesson.library_attempts
        );
        let added = "The layers multiply, they do not add: each layer repeats everything \
                     below it.";
        let retries = "Count attempts, not retries: a layer that retries twice makes three \
                       attempts in all.";
        let rate = self.orders_per_sec;
        vec![
            Part::numeric(
                "a1",
                "Calls reaching inventory for one order?".to_string(),
                Answer::two_sided(
                    all.calls_per_order as f64,
                    Tolerance::Absolute(0.0),
                    "calls",
                    "Each layer repeats everything below it: the layers multiply, they do \
                     not add.",
                    &format!("Count the attempts each layer makes now: {now}."),
                )
                .on_misreading(lesson_per_order, &lesson_slip)
                .on_misreading(f + l + s, added)
                .on_misreading((f - 1.0) * (l - 1.0) * (s - 1.0), retries),
            ),
            Part::numeric(
                "a2",
                "Calls per second reaching inventory?".to_string(),
                Answer::new(
                    all.calls_per_sec,
                    Tolerance::Relative(0.02),
                    "calls/s",
                    "Every order that arrives in a second turns into the full set of \
                     multiplied attempts in that second's traffic.",
                )
                .on_misreading(lesson_per_order * rate, &lesson_slip)
                .on_misreading((f + l + s) * rate, added)
                .on_misreading((f - 1.0) * (l - 1.0) * (s - 1.0) * rate, retries),
            ),
            Part::numeric(
                "a3",
                "Seconds before the customer sees an error?".to_string(),
                Answer::two_sided(
                    all.time_to_give_up as f64 / SECOND as f64,
                    Tolerance::Relative(0.1),
                    "s",
                    "The attempts of one order happen one after another, and each waits for \
                     the full timeout before the next begins.",
                    "Only the calls' timeouts count here; leave the backoff waits out.",
                ),
            ),
            Part::numeric(
                "b1",
                "Calls per second reaching inventory when only the library retries?".to_string(),
                Answer::two_sided(
                    library.calls_per_sec,
                    Tolerance::Relative(0.02),
                    "calls/s",
                    "The library still retries: each order costs as many calls as it makes \
                     attempts.",
                    "With the front end and the sidecar passing each call through once, only \
                     one layer's attempts are left to multiply.",
                )
                .on_misreading(
                    f64::from(lesson.library_attempts) * rate,
                    &format!(
                        "That is the lesson's library, with {} attempts; {now}.",
                        lesson.library_attempts
                    ),
                ),
            ),
            Part::open(
                "b2",
                "Which layer should retry, and what do the other two do instead?".to_string(),
            ),
            Part::numeric(
                "c1",
                format!(
                    "Duplicate orders among {} without an idempotency key (on average)?",
                    self.orders
                ),
                Answer::two_sided(
                    run.without_key.expected_duplicates,
                    Tolerance::Relative(0.2),
                    "orders",
                    "Every lost response makes the front end send the whole order again, and \
                     without a key orders cannot tell it from a new one.",
                    "A repeat happens only when a response was lost, and a second repeat only \
                     when that one was lost too.",
                )
                .wide_because(
                    "the figure is an expectation (orders times the chance of each repeat); \
                     an estimate that keeps only the first repeat, or rounds the loss rate, \
                     lands within a fifth of it.",
                ),
            ),
            Part::numeric(
                "c2",
                format!("Duplicate orders among {} with the key?", self.orders),
                Answer::new(
                    f64::from(run.with_key.duplicate_orders),
                    Tolerance::Absolute(0.0),
                    "orders",
                    "With the key, orders finds the first response stored under it and sends \
                     that back instead of running the order again.",
                ),
            ),
            Part::open(
                "c3",
                "What makes the front end's repeats safe, and what happens without it?".to_string(),
            ),
        ]
    }

    fn solution_for(&self, run: &ThreeLayersRun) -> String {
        let all = run.choice(RetryingLayer::All);
        let library = run.choice(RetryingLayer::Library);
        let nk = &run.without_key;
        let wk = &run.with_key;
        format!(
            "(a) The layers nest: every front-end attempt goes through the library, which makes \
             its own attempts, and each of those passes the sidecar, which makes its own. \
             {f} x {l} x {s} = {per_order} calls for one order. At {rate} orders per second that \
             is {cps:.0} calls per second hammering a service that is down ({total:.0} over the \
             {outage} outage), against the {normal:.0} per second it normally sees. When it comes \
             back, that wave is what greets it, and it can fall over again. Each order also \
             waits through {per_order} timeouts of {t} one after another: about {give_up} before \
             the customer hears anything.\n\
             (b) Let the library retry and set the sidecar to zero retries for this route: only \
             the library knows which calls are safe to repeat (ReserveStock carries a key, \
             Charge does not) and how much of the request's budget is left. The sidecar keeps \
             what only it can do: per-instance outlier ejection and a route timeout. The front \
             end does not retry on its own; it tells the customer the order could not be \
             confirmed and lets them try again, with the same key. Give the library a retry \
             budget and a circuit breaker as well. Inventory then sees {lib:.0} calls per second \
             at worst, and fewer once the breaker opens. (Letting the sidecar retry instead, only \
             for calls marked idempotent, is also defensible, as long as exactly one layer \
             retries.)\n\
             (c) The front end creates an idempotency key when the customer presses buy and \
             sends the same key with every repeat. Orders stores its response under the key \
             for a day and answers a repeat from the store without running the order again. \
             Simulated with {lost:.0}% of responses lost over {n} orders: without the key, \
             {dup} duplicate orders ({exp:.1} expected), {twice} customers charged twice or \
             more; with it, {dup_k} duplicates and {replayed} repeats answered from the store. \
             In both cases {unsure} customer(s) never got an answer at all. Without the key, a \
             lost response plus a retry means a second order, a second reservation and, with a \
             synchronous charge, a second charge on the customer's card.",
            f = self.attempts_for(RetryingLayer::All)[0],
            l = self.attempts_for(RetryingLayer::All)[1],
            s = self.attempts_for(RetryingLayer::All)[2],
            per_order = all.calls_per_order,
            rate = self.orders_per_sec,
            cps = all.calls_per_sec,
            total = all.calls_during_outage,
            outage = fmt_ms(self.outage),
            normal = run.normal_calls_per_sec,
            t = fmt_ms(self.per_call_timeout),
            give_up = fmt_ms(all.time_to_give_up),
            lib = library.calls_per_sec,
            lost = self.lost_response_share * 100.0,
            n = self.orders,
            dup = nk.duplicate_orders,
            exp = nk.expected_duplicates,
            twice = nk.customers_charged_twice,
            dup_k = wk.duplicate_orders,
            replayed = wk.replayed,
            unsure = wk.customers_left_unsure,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex() -> ThreeLayers {
        ThreeLayers::default()
    }

    #[test]
    fn three_layers_make_2700_calls_per_second() {
        let run = ex().run().unwrap();
        assert_eq!(run.current.retrying, RetryingLayer::All);
        assert_eq!(run.current.calls_per_order, 27);
        assert_eq!(run.current.calls_per_sec, 2_700.0);
        assert_eq!(run.current.calls_during_outage, 81_000.0);
        assert_eq!(run.current.time_to_give_up, 8_100 * MS);
        assert_eq!(run.normal_calls_per_sec, 100.0);
    }

    #[test]
    fn one_retrying_layer_divides_the_load() {
        let run = ex().run().unwrap();
        let per_sec: Vec<_> = run
            .choices
            .iter()
            .map(|c| (c.retrying, c.calls_per_sec))
            .collect();
        assert_eq!(
            per_sec,
            vec![
                (RetryingLayer::All, 2_700.0),
                (RetryingLayer::FrontEnd, 300.0),
                (RetryingLayer::Library, 300.0),
                (RetryingLayer::Sidecar, 300.0),
                (RetryingLayer::Nobody, 100.0),
            ]
        );
        let lib = ThreeLayers {
            retrying: RetryingLayer::Library,
            ..ex()
        };
        let run = lib.run().unwrap();
        assert_eq!(run.current.attempts_per_layer, vec![1, 3, 1]);
        // The front end no longer retries, so no lost response can turn into a duplicate.
        assert_eq!(run.without_key.duplicate_orders, 0);
        assert_eq!(run.without_key.requests, 1_000);
    }

    #[test]
    fn without_a_key_lost_responses_become_duplicates_and_double_charges() {
        let run = ex().run().unwrap();
        let nk = &run.without_key;
        // 1000 orders, 5% lost, up to two repeats: about 1000 * (0.05 + 0.0025) = 52.5.
        assert!((nk.expected_duplicates - 52.5).abs() < 1e-9);
        assert!(
            nk.duplicate_orders > 30 && nk.duplicate_orders < 80,
            "{}",
            nk.duplicate_orders
        );
        assert_eq!(nk.orders_written, nk.orders_meant + nk.duplicate_orders);
        assert_eq!(nk.requests, nk.orders_written);
        assert!(nk.customers_charged_twice > 0);
        assert!(nk.customers_charged_twice <= nk.duplicate_orders);
        assert_eq!(nk.extra_charges, nk.duplicate_orders);
        assert_eq!(nk.replayed, 0);
    }

    #[test]
    fn with_the_key_every_repeat_is_replayed() {
        let run = ex().run().unwrap();
        let wk = &run.with_key;
        assert_eq!(wk.duplicate_orders, 0);
        assert_eq!(wk.customers_charged_twice, 0);
        assert_eq!(wk.orders_written, wk.orders_meant);
        assert_eq!(u64::from(wk.requests - wk.orders_meant), wk.replayed);
        assert!(wk.replayed > 30);
        // Same seed, same losses: the key changes what the repeats do, not how many there are.
        assert_eq!(wk.requests, run.without_key.requests);
    }

    #[test]
    fn deterministic_with_a_seed() {
        assert_eq!(ex().run().unwrap(), ex().run().unwrap());
        // Other seeds lose other responses.
        let base = ex().run().unwrap().without_key;
        let differs =
            (2..8).any(|seed| ThreeLayers { seed, ..ex() }.duplicates(false).unwrap() != base);
        assert!(differs);
    }

    #[test]
    fn right_answers_pass_and_wrong_ones_get_a_hint() {
        let e = ex();
        let v = |part: &str, x: f64| e.check(part, x).unwrap().unwrap();
        assert!(v("a1", 27.0).correct);
        assert!(v("a2", 2_700.0).correct);
        assert!(v("a3", 8.0).correct);
        assert!(v("b1", 300.0).correct);
        assert!(v("c1", 50.0).correct);
        assert!(v("c2", 0.0).correct);
        // Adding layers instead of multiplying; retries instead of attempts; forgetting the
        // rate; a storm left in place; "a key halves duplicates".
        for (part, wrong, expect) in [
            ("a1", 9.0, "multiply"),
            ("a1", 64.0, "attempts"),
            ("a2", 27.0, "second"),
            ("a3", 0.3, "one after another"),
            ("b1", 2_700.0, "one layer"),
            ("c1", 0.0, "without a key"),
            ("c2", 25.0, "stored"),
        ] {
            let verdict = v(part, wrong);
            assert!(!verdict.correct, "{part} {wrong}");
            let hint = verdict.hint.unwrap();
            assert!(hint.contains(expect), "{part}: {hint}");
        }
        assert_eq!(e.check("b2", 1.0).unwrap(), None);
    }

    #[test]
    fn texts_and_serialisation() {
        let e = ex();
        assert!(e.question().contains("300 ms") && e.question().contains("30 s"));
        let s = e.solution().unwrap();
        assert!(s.contains("27 calls") && s.contains("2700 calls per second"));
        assert!(s.contains("8.1 s"));
        let run = e.run().unwrap();
        let json = serde_json::to_string(&run).unwrap();
        let back: ThreeLayersRun = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = ThreeLayers {
            sidecar_attempts: 0,
            ..ex()
        };
        assert_eq!(bad.run().unwrap_err().field, "sidecar_attempts");
        let bad = ThreeLayers {
            lost_response_share: 1.0,
            ..ex()
        };
        assert_eq!(bad.parts().unwrap_err().field, "lost_response_share");
    }
}
