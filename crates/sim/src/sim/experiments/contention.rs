//! The contention experiment of the AWS Architecture Blog's "Exponential Backoff And Jitter"
//! (Marc Brooker, 2015), modelled as its simulator (aws-samples/aws-arch-backoff-simulator)
//! models it: `clients` clients each update one row once, with optimistic concurrency.
//!
//! A client reads the row's version, then writes with that version; the write succeeds only if
//! nobody wrote in between. A client whose write fails backs off and starts again with a read.
//! Every message (request or reply) is delayed by |N(10 ms, 2 ms)|. Only writes count as calls;
//! a run is complete when the last client has the reply to its successful write.
//!
//! The waits are the retry policy's ([`RetryPolicy::wait`]), with the published simulator's
//! numbering: the first retry waits up to `min(cap, base * 2^1)`, and decorrelated jitter keeps
//! each client's previous wait (starting at `base`).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};
use serde::{Deserialize, Serialize};

use crate::resilience::{Jitter, Micros, ParamError, RetryPolicy, MS, SECOND};
use crate::sim::engine::{EngineError, EventQueue};

/// Most clients one run may have (no backoff makes the calls grow with its square).
pub const MAX_CLIENTS: u32 = 500;

/// How a client waits after a failed write: not at all, or one of the retry policy's jitters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Strategy {
    /// Read again at once.
    NoBackoff,
    /// `min(cap, base * 2^n)`, no jitter.
    Exponential,
    /// Uniform in `[0, min(cap, base * 2^n)]`.
    FullJitter,
    /// Half the exponential wait plus a uniform share of the other half.
    EqualJitter,
    /// `min(cap, uniform[base, 3 * previous wait])`.
    Decorrelated,
}

impl Strategy {
    /// Every strategy, in the order tables list them.
    pub const ALL: [Strategy; 5] = [
        Strategy::NoBackoff,
        Strategy::Exponential,
        Strategy::FullJitter,
        Strategy::EqualJitter,
        Strategy::Decorrelated,
    ];

    /// The name on the command line, in JSON and in attributes.
    pub fn key(self) -> &'static str {
        match self {
            Strategy::NoBackoff => "no-backoff",
            Strategy::Exponential => "exponential",
            Strategy::FullJitter => "full-jitter",
            Strategy::EqualJitter => "equal-jitter",
            Strategy::Decorrelated => "decorrelated",
        }
    }

    /// The names for people, in [`Strategy::ALL`]'s order (a select's options).
    pub const LABELS: [&'static str; 5] = [
        "No backoff",
        "Exponential, no jitter",
        "Full jitter",
        "Equal jitter",
        "Decorrelated jitter",
    ];

    /// The name for people.
    pub fn label(self) -> &'static str {
        Strategy::LABELS[self.index()]
    }

    /// The strategy a key names.
    pub fn parse(text: &str) -> Option<Strategy> {
        let text = text.trim();
        Strategy::ALL.into_iter().find(|s| s.key() == text)
    }

    /// The retry policy's jitter mode, or `None` for no backoff at all.
    pub fn jitter(self) -> Option<Jitter> {
        match self {
            Strategy::NoBackoff => None,
            Strategy::Exponential => Some(Jitter::None),
            Strategy::FullJitter => Some(Jitter::Full),
            Strategy::EqualJitter => Some(Jitter::Equal),
            Strategy::Decorrelated => Some(Jitter::Decorrelated),
        }
    }

    /// Its place in [`Strategy::ALL`].
    pub fn index(self) -> usize {
        Strategy::ALL.iter().position(|&s| s == self).unwrap_or(0)
    }
}

/// The experiment's settings; the default is the published one with 50 clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContentionConfig {
    /// Clients, each updating the row once (1..=[`MAX_CLIENTS`]).
    pub clients: u32,
    /// Backoff base (100 µs..=1 s).
    pub base: Micros,
    /// Longest wait (base..=60 s).
    pub cap: Micros,
    /// Mean delay of one message (0..=1 s).
    pub delay_mean: Micros,
    /// Standard deviation of that delay (0..=delay_mean).
    pub delay_sd: Micros,
}

impl Default for ContentionConfig {
    fn default() -> Self {
        ContentionConfig {
            clients: 50,
            base: 5 * MS,
            cap: 2 * SECOND,
            delay_mean: 10 * MS,
            delay_sd: 2 * MS,
        }
    }
}

impl ContentionConfig {
    /// Clients.
    pub const CLIENTS: (u64, u64) = (1, MAX_CLIENTS as u64);
    /// The backoff's base.
    pub const BASE: (Micros, Micros) = (100, SECOND);
    /// The longest wait; at least the base besides.
    pub const CAP: (Micros, Micros) = (100, 60 * SECOND);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        let clients = ContentionConfig::CLIENTS;
        ParamError::check_u64("clients", self.clients.into(), clients.0, clients.1, "")?;
        let base = ContentionConfig::BASE;
        ParamError::check_micros("base", self.base, base.0, base.1)?;
        ParamError::check_u64(
            "cap",
            self.cap,
            self.base.max(ContentionConfig::CAP.0),
            ContentionConfig::CAP.1,
            "µs (at least base)",
        )?;
        ParamError::check_micros("delay_mean", self.delay_mean, 0, SECOND)?;
        ParamError::check_micros("delay_sd", self.delay_sd, 0, self.delay_mean)?;
        Ok(())
    }

    fn policy(&self, jitter: Jitter) -> RetryPolicy {
        RetryPolicy {
            attempts: 1,
            base: self.base,
            cap: self.cap,
            jitter,
        }
    }
}

/// One write, for the strip of when each client's calls happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// Which client (0-based).
    pub client: u32,
    /// When the write reached the row.
    pub at: Micros,
    /// True for the write that updated the row.
    pub won: bool,
}

/// What one run came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunOutcome {
    /// Writes made, by every client together.
    pub calls: u64,
    /// When the last client had the reply to its successful write.
    pub completion: Micros,
    /// Messages handled (the work the run took, for spreading runs across frames).
    pub events: u64,
}

/// A message on its way; it is handled when it arrives.
#[derive(Debug, Clone, Copy)]
enum Message {
    /// A client's read reaches the row.
    Read { client: u32 },
    /// The version read reaches the client.
    Version { client: u32, version: u64 },
    /// A client's conditional write reaches the row.
    Write { client: u32, version: u64 },
    /// Whether the write took reaches the client.
    Verdict { client: u32, won: bool },
}

/// A client's backoff state: failed writes so far and its previous wait.
#[derive(Debug, Clone, Copy)]
struct Client {
    failures: u32,
    previous_wait: Micros,
}

/// The network's delay, |N(mean, sd)| rounded to the microsecond.
struct Network {
    /// The normal distribution; `None` if its parameters cannot make one.
    normal: Option<Normal<f64>>,
    mean: Micros,
}

impl Network {
    fn new(cfg: &ContentionConfig) -> Network {
        Network {
            normal: Normal::new(cfg.delay_mean as f64, cfg.delay_sd as f64).ok(),
            mean: cfg.delay_mean,
        }
    }

    fn delay<R: Rng + ?Sized>(&self, rng: &mut R) -> Micros {
        match &self.normal {
            Some(normal) => normal.sample(rng).abs().round() as Micros,
            None => self.mean,
        }
    }
}

/// Runs the experiment once. With `calls`, every write is also recorded there, in time order.
pub fn run_once<R: Rng + ?Sized>(
    cfg: &ContentionConfig,
    strategy: Strategy,
    rng: &mut R,
    mut calls: Option<&mut Vec<Call>>,
) -> Result<RunOutcome, EngineError> {
    let net = Network::new(cfg);
    let policy = strategy.jitter().map(|j| cfg.policy(j));
    let mut clients = vec![
        Client {
            failures: 0,
            previous_wait: cfg.base,
        };
        cfg.clients as usize
    ];
    let mut queue = EventQueue::new();
    for client in 0..cfg.clients {
        queue.schedule(net.delay(rng), Message::Read { client });
    }
    let mut version = 0u64;
    let mut outcome = RunOutcome {
        calls: 0,
        completion: 0,
        events: 0,
    };
    while let Some((now, message)) = queue.pop()? {
        outcome.completion = now;
        match message {
            Message::Read { client } => {
                let reply = Message::Version { client, version };
                queue.schedule(now + net.delay(rng), reply);
            }
            Message::Version { client, version } => {
                let write = Message::Write { client, version };
                queue.schedule(now + net.delay(rng), write);
            }
            Message::Write {
                client,
                version: read,
            } => {
                outcome.calls += 1;
                let won = read == version;
                if won {
                    version += 1;
                }
                if let Some(calls) = calls.as_deref_mut() {
                    calls.push(Call {
                        client,
                        at: now,
                        won,
                    });
                }
                queue.schedule(now + net.delay(rng), Message::Verdict { client, won });
            }
            Message::Verdict { won: true, .. } => {}
            Message::Verdict { client, won: false } => {
                let delay = net.delay(rng);
                let state = &mut clients[client as usize];
                state.failures += 1;
                let wait = match &policy {
                    Some(p) => p.wait(state.failures, state.previous_wait, rng),
                    None => 0,
                };
                state.previous_wait = wait;
                queue.schedule(now + delay + wait, Message::Read { client });
            }
        }
    }
    outcome.events = queue.processed();
    Ok(outcome)
}

/// The random stream of one strategy at one number of clients: the same seed gives the same
/// figures whether a point is run alone (the command line) or in a sweep (the page).
pub fn stream(seed: u64, strategy: Strategy, clients: u32) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(((strategy.index() as u64) << 32) | u64::from(clients));
    rng
}

/// Totals over runs, for the means the blog plots.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Runs added.
    pub runs: u64,
    /// Writes over every run.
    pub calls: u64,
    /// Completion times added up.
    pub time: u128,
}

impl Tally {
    /// Counts one run in.
    pub fn add(&mut self, run: RunOutcome) {
        self.runs += 1;
        self.calls += run.calls;
        self.time += u128::from(run.completion);
    }

    /// Mean writes per run (0 before the first run).
    pub fn mean_calls(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.calls as f64 / self.runs as f64
        }
    }

    /// Mean completion time of a run in milliseconds (0 before the first run).
    pub fn mean_time_ms(&self) -> f64 {
        if self.runs == 0 {
            0.0
        } else {
            self.time as f64 / self.runs as f64 / MS as f64
        }
    }
}

/// One strategy at one number of clients, run a given number of times, one run per
/// [`Batch::step`], so a caller can spread the work (across animation frames, say).
#[derive(Debug, Clone)]
pub struct Batch {
    config: ContentionConfig,
    strategy: Strategy,
    runs: u64,
    rng: ChaCha8Rng,
    tally: Tally,
}

impl Batch {
    /// `runs` runs of `strategy` under `config`, seeded with `seed`.
    pub fn new(config: ContentionConfig, strategy: Strategy, runs: u64, seed: u64) -> Batch {
        Batch {
            rng: stream(seed, strategy, config.clients),
            config,
            strategy,
            runs,
            tally: Tally::default(),
        }
    }

    /// Makes the next run and returns the events it took; `None` once every run is made.
    pub fn step(&mut self) -> Result<Option<u64>, EngineError> {
        if self.is_done() {
            return Ok(None);
        }
        let outcome = run_once(&self.config, self.strategy, &mut self.rng, None)?;
        self.tally.add(outcome);
        Ok(Some(outcome.events))
    }

    /// Makes every run left.
    pub fn finish(mut self) -> Result<Tally, EngineError> {
        while self.step()?.is_some() {}
        Ok(self.tally)
    }

    /// True once every run is made.
    pub fn is_done(&self) -> bool {
        self.tally.runs >= self.runs
    }

    /// The runs so far.
    pub fn tally(&self) -> Tally {
        self.tally
    }

    /// The strategy it runs.
    pub fn strategy(&self) -> Strategy {
        self.strategy
    }

    /// The settings it runs.
    pub fn config(&self) -> &ContentionConfig {
        &self.config
    }
}

/// Every call of one run, for the strip: the run a seed gives at `config`.
pub fn one_run(
    config: &ContentionConfig,
    strategy: Strategy,
    seed: u64,
) -> Result<(RunOutcome, Vec<Call>), EngineError> {
    let mut rng = stream(seed, strategy, config.clients);
    let mut calls = Vec::new();
    let outcome = run_once(config, strategy, &mut rng, Some(&mut calls))?;
    Ok((outcome, calls))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(clients: u32) -> ContentionConfig {
        ContentionConfig {
            clients,
            ..ContentionConfig::default()
        }
    }

    #[test]
    fn keys_read_back_and_map_onto_the_retry_jitters() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::parse(s.key()), Some(s));
        }
        assert_eq!(Strategy::parse("none"), None);
        assert_eq!(Strategy::NoBackoff.jitter(), None);
        assert_eq!(Strategy::Exponential.jitter(), Some(Jitter::None));
    }

    #[test]
    fn one_client_writes_once_after_four_message_delays() {
        let fixed = ContentionConfig {
            delay_sd: 0,
            ..cfg(1)
        };
        let mut rng = stream(1, Strategy::NoBackoff, 1);
        let run = run_once(&fixed, Strategy::NoBackoff, &mut rng, None).unwrap();
        assert_eq!(run.calls, 1);
        assert_eq!(run.completion, 40 * MS);
    }

    #[test]
    fn every_client_wins_exactly_once_and_calls_are_in_time_order() {
        for s in Strategy::ALL {
            let (run, calls) = one_run(&cfg(30), s, 9).unwrap();
            assert_eq!(calls.len() as u64, run.calls);
            let mut winners: Vec<u32> = calls.iter().filter(|c| c.won).map(|c| c.client).collect();
            winners.sort_unstable();
            assert_eq!(winners, (0..30).collect::<Vec<_>>(), "{s:?}");
            assert!(calls.windows(2).all(|w| w[0].at <= w[1].at));
            assert!(calls.last().unwrap().at < run.completion);
        }
    }

    #[test]
    fn un_jittered_clients_that_lose_together_retry_together() {
        // With a fixed network delay, two clients' messages arrive at the same instants; the
        // loser of each round waits exactly the exponential ceiling.
        let fixed = ContentionConfig {
            delay_sd: 0,
            ..cfg(2)
        };
        let (_, calls) = one_run(&fixed, Strategy::Exponential, 3).unwrap();
        let times: Vec<Micros> = calls.iter().map(|c| c.at / MS).collect();
        // Both write at 30 ms; the loser hears at 40, waits 10 (base * 2), writes 30 ms later.
        assert_eq!(times, vec![30, 30, 80]);
    }

    #[test]
    fn a_batch_equals_its_runs_made_one_by_one() {
        let batch = Batch::new(cfg(20), Strategy::Decorrelated, 5, 4);
        let tally = batch.finish().unwrap();
        let mut rng = stream(4, Strategy::Decorrelated, 20);
        let mut by_hand = Tally::default();
        for _ in 0..5 {
            by_hand.add(run_once(&cfg(20), Strategy::Decorrelated, &mut rng, None).unwrap());
        }
        assert_eq!(tally, by_hand);
        assert_eq!(Tally::default().mean_calls(), 0.0);
    }

    #[test]
    fn bad_settings_are_named() {
        let bad = [
            (cfg(0), "clients"),
            (cfg(MAX_CLIENTS + 1), "clients"),
            (ContentionConfig { base: 0, ..cfg(5) }, "base"),
            (ContentionConfig { cap: MS, ..cfg(5) }, "cap"),
            (
                ContentionConfig {
                    delay_sd: SECOND,
                    ..cfg(5)
                },
                "delay_sd",
            ),
        ];
        for (c, field) in bad {
            assert_eq!(c.validate().unwrap_err().field, field);
        }
        assert!(cfg(5).validate().is_ok());
    }
}
