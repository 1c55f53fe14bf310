//! The wait before a retry as Polly v8's retry strategy computes it (`docs/polly.md` gives the
//! source): a constant, linear or exponential delay from the base `Delay`, randomised when
//! `UseJitter` is set, and cut at `MaxDelay`.
//!
//! - Without jitter, retry `n` (0 for the first retry) waits `Delay` (constant),
//!   `(n + 1) × Delay` (linear) or `Delay × 2^n` (exponential).
//! - With jitter, a constant or linear delay moves by up to a quarter either way, uniformly.
//! - With jitter, an exponential delay follows the "decorrelated jitter, version 2" curve:
//!   each retry draws `t = n + U(0,1)`, the curve's value at `t` is `2^t × tanh(sqrt(4t))`,
//!   and the wait is the rise since the previous retry's value, scaled by `Delay / 1.4`. The
//!   retries then go out, in the median, near `Delay`, `2 × Delay`, `4 × Delay`, ... after the
//!   first failure (the waits added up, not each wait).

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Micros, ParamError, SECOND};

/// How the delay grows from one retry to the next (Polly's `DelayBackoffType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackoffType {
    /// Every retry waits `Delay` (Polly's default).
    Constant,
    /// Retry `n` waits `(n + 1) × Delay`.
    Linear,
    /// Retry `n` waits `Delay × 2^n`.
    Exponential,
}

impl BackoffType {
    /// Every type, in Polly's numbering (0, 1, 2).
    pub const ALL: [BackoffType; 3] = [
        BackoffType::Constant,
        BackoffType::Linear,
        BackoffType::Exponential,
    ];

    /// Its name in Polly's options.
    pub fn name(self) -> &'static str {
        match self {
            BackoffType::Constant => "Constant",
            BackoffType::Linear => "Linear",
            BackoffType::Exponential => "Exponential",
        }
    }
}

/// Polly's delay settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PollyDelay {
    /// `BackoffType`.
    pub backoff: BackoffType,
    /// `UseJitter`.
    pub jitter: bool,
    /// `Delay`, the base (0..=86,400 s in Polly; 0 means no wait at all).
    pub delay: Micros,
    /// `MaxDelay` (`None`: no cap).
    pub max_delay: Option<Micros>,
}

/// The curve's value a retry's draw reached, which the next retry's wait starts from
/// (Polly keeps it per execution; 0 before the first retry).
pub type JitterState = f64;

/// Longest wait Polly ever computes here: a day, beyond any run.
const LONGEST: f64 = 86_400.0 * SECOND as f64;

impl PollyDelay {
    /// Polly's `RetryStrategyOptions` defaults: constant, no jitter, 2 s, no cap.
    pub fn polly_default() -> Self {
        PollyDelay {
            backoff: BackoffType::Constant,
            jitter: false,
            delay: 2 * SECOND,
            max_delay: None,
        }
    }

    /// The HTTP standard resilience handler's retry: exponential with jitter from 2 s.
    pub fn http_standard() -> Self {
        PollyDelay {
            backoff: BackoffType::Exponential,
            jitter: true,
            ..Self::polly_default()
        }
    }

    /// Checks the delay and the cap against Polly's own ranges (a day at most).
    pub fn validate(&self) -> Result<(), ParamError> {
        let day = 86_400 * SECOND;
        ParamError::check_micros("polly_delay", self.delay, 0, day)?;
        if let Some(m) = self.max_delay {
            ParamError::check_micros("polly_max_delay", m, 1, day)?;
        }
        Ok(())
    }

    /// The waits of `retries` retries added up, at most: the decorrelated curve with every
    /// draw at its top (1), as an older HTTP handler's validator bounded them; the other types
    /// without jitter.
    pub fn bounded_total(&self, retries: u32) -> Micros {
        let mut always_top = TopDraw;
        let mut state = 0.0;
        let plain = PollyDelay {
            jitter: self.jitter && self.backoff == BackoffType::Exponential,
            ..*self
        };
        (0..retries)
            .map(|n| plain.wait(n, &mut state, &mut always_top))
            .fold(0, Micros::saturating_add)
    }

    /// The wait before retry `retry` (0 for the first), drawing from `rng` when jittered and
    /// carrying the exponential jitter's `state` from one retry of a request to the next.
    pub fn wait(&self, retry: u32, state: &mut JitterState, rng: &mut impl Rng) -> Micros {
        if self.delay == 0 {
            return 0;
        }
        let base = self.delay as f64;
        let n = f64::from(retry);
        let quarter_either_way = |d: f64, u: f64| d + d * 0.5 * u - d * 0.25;
        let wait = match (self.backoff, self.jitter) {
            (BackoffType::Constant, false) => base,
            (BackoffType::Linear, false) => (n + 1.0) * base,
            (BackoffType::Exponential, false) => base * 2f64.powf(n),
            (BackoffType::Constant, true) => quarter_either_way(base, rng.gen::<f64>()),
            (BackoffType::Linear, true) => quarter_either_way((n + 1.0) * base, rng.gen::<f64>()),
            (BackoffType::Exponential, true) => {
                let t = n + rng.gen::<f64>();
                let reached = 2f64.powf(t) * tanh((4.0 * t).sqrt());
                let rise = reached - *state;
                *state = reached;
                rise * base / 1.4
            }
        };
        let capped = self.max_delay.map_or(wait, |m| wait.min(m as f64));
        capped.clamp(0.0, LONGEST) as Micros
    }
}

/// The hyperbolic tangent from `exp`, which the page's module already holds (`f64::tanh`
/// would bring a function of its own into it); exact enough for a delay, and 1 for large `x`.
fn tanh(x: f64) -> f64 {
    1.0 - 2.0 / ((2.0 * x).exp() + 1.0)
}

/// A source of draws that always gives the top of the range (for [`PollyDelay::bounded_total`]).
struct TopDraw;

impl rand::RngCore for TopDraw {
    fn next_u32(&mut self) -> u32 {
        u32::MAX
    }
    fn next_u64(&mut self) -> u64 {
        u64::MAX
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(u8::MAX);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        dest.fill(u8::MAX);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn waits(d: PollyDelay, retries: u32, seed: u64) -> Vec<Micros> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = 0.0;
        (0..retries)
            .map(|n| d.wait(n, &mut state, &mut rng))
            .collect()
    }

    #[test]
    fn tanh_from_exp_agrees_with_the_standard_one() {
        for x in [0.0, 0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 400.0] {
            assert!((tanh(x) - x.tanh()).abs() < 1e-12, "{x}");
        }
    }

    #[test]
    fn without_jitter_the_three_types_wait_as_documented() {
        let mut d = PollyDelay::polly_default();
        assert_eq!(waits(d, 3, 1), [2 * SECOND; 3]);
        d.backoff = BackoffType::Linear;
        assert_eq!(waits(d, 3, 1), [2 * SECOND, 4 * SECOND, 6 * SECOND]);
        d.backoff = BackoffType::Exponential;
        assert_eq!(waits(d, 4, 1), [2, 4, 8, 16].map(|s| s * SECOND));
        d.max_delay = Some(5 * SECOND);
        assert_eq!(waits(d, 4, 1), [2, 4, 5, 5].map(|s| s * SECOND));
        d.delay = 0;
        assert_eq!(waits(d, 2, 1), [0, 0]);
    }

    #[test]
    fn the_bound_on_the_standard_handlers_waits_is_the_curve_at_its_top() {
        // 2^3 × tanh(√12) / 1.4 × 2 s: 11.4 s for three retries.
        let total = PollyDelay::http_standard().bounded_total(3);
        assert!((11_390 * MS..11_410 * MS).contains(&total), "{total}");
        let constant = PollyDelay::polly_default();
        assert_eq!(constant.bounded_total(3), 6 * SECOND);
    }

    #[test]
    fn a_jittered_constant_wait_stays_within_a_quarter_either_way() {
        let d = PollyDelay {
            jitter: true,
            delay: 400 * MS,
            ..PollyDelay::polly_default()
        };
        let all: Vec<Micros> = (0..200).flat_map(|seed| waits(d, 3, seed)).collect();
        assert!(
            all.iter().all(|w| (300 * MS..=500 * MS).contains(w)),
            "{all:?}"
        );
        assert!(all.iter().any(|w| *w < 330 * MS) && all.iter().any(|w| *w > 470 * MS));
    }

    #[test]
    fn decorrelated_jitter_sends_retries_near_one_two_and_four_delays_after_the_failure() {
        let d = PollyDelay::http_standard();
        let runs: Vec<Vec<Micros>> = (0..2001).map(|seed| waits(d, 3, seed)).collect();
        for (retry, expected) in [(0, 2.0), (1, 4.0), (2, 8.0)] {
            let mut these: Vec<Micros> = runs.iter().map(|w| w[..=retry].iter().sum()).collect();
            these.sort_unstable();
            let median = these[these.len() / 2] as f64 / SECOND as f64;
            assert!(
                (median / expected - 1.0).abs() < 0.25,
                "retry {retry}: median {median} s, expected near {expected} s"
            );
        }
    }
}
