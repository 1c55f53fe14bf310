//! A gRPC client's retries as its service config sets them (`docs/grpc.md` gives the source):
//! the status codes worth another attempt, the randomised exponential back-off, and the
//! channel's retry throttle.
//!
//! - At most 5 attempts, whatever `maxAttempts` says ([`GrpcBackoff::MOST_ATTEMPTS`]).
//! - Retry `n` (1 for the first) waits `min(initialBackoff × backoffMultiplier^(n-1),
//!   maxBackoff)` times a uniform factor from `[0.8, 1.2)`: gRPC's rule since 2024 (A6 first
//!   drew the whole wait from `[0, ceiling)`).
//! - The throttle starts full at `maxTokens`. An attempt that fails with a retryable status
//!   takes a token; a call that succeeds gives back `tokenRatio`. While the tokens are at or
//!   below half of `maxTokens`, nothing is retried.

use rand::Rng;
use serde::{Deserialize, Serialize};

use super::{Micros, ParamError};

/// A gRPC status code, by its name in a service config (written and read through
/// [`StatusCode::name`] and [`StatusCode::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "&'static str", try_from = "String")]
pub enum StatusCode {
    Ok,
    Cancelled,
    Unknown,
    InvalidArgument,
    DeadlineExceeded,
    NotFound,
    AlreadyExists,
    PermissionDenied,
    ResourceExhausted,
    FailedPrecondition,
    Aborted,
    OutOfRange,
    Unimplemented,
    Internal,
    Unavailable,
    DataLoss,
    Unauthenticated,
}

impl StatusCode {
    /// Every code, in gRPC's numbering (0 to 16).
    pub const ALL: [StatusCode; 17] = [
        StatusCode::Ok,
        StatusCode::Cancelled,
        StatusCode::Unknown,
        StatusCode::InvalidArgument,
        StatusCode::DeadlineExceeded,
        StatusCode::NotFound,
        StatusCode::AlreadyExists,
        StatusCode::PermissionDenied,
        StatusCode::ResourceExhausted,
        StatusCode::FailedPrecondition,
        StatusCode::Aborted,
        StatusCode::OutOfRange,
        StatusCode::Unimplemented,
        StatusCode::Internal,
        StatusCode::Unavailable,
        StatusCode::DataLoss,
        StatusCode::Unauthenticated,
    ];

    /// Its name as a service config writes it (`UNAVAILABLE`).
    pub fn name(self) -> &'static str {
        const NAMES: [&str; 17] = [
            "OK",
            "CANCELLED",
            "UNKNOWN",
            "INVALID_ARGUMENT",
            "DEADLINE_EXCEEDED",
            "NOT_FOUND",
            "ALREADY_EXISTS",
            "PERMISSION_DENIED",
            "RESOURCE_EXHAUSTED",
            "FAILED_PRECONDITION",
            "ABORTED",
            "OUT_OF_RANGE",
            "UNIMPLEMENTED",
            "INTERNAL",
            "UNAVAILABLE",
            "DATA_LOSS",
            "UNAUTHENTICATED",
        ];
        NAMES[self as usize]
    }

    /// The code named so (any case), or numbered so.
    pub fn parse(text: &str) -> Option<StatusCode> {
        if let Ok(n) = text.trim().parse::<usize>() {
            return Self::ALL.get(n).copied();
        }
        Self::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(text.trim()))
    }
}

impl From<StatusCode> for &'static str {
    fn from(code: StatusCode) -> Self {
        code.name()
    }
}

impl TryFrom<String> for StatusCode {
    type Error = String;

    fn try_from(text: String) -> Result<Self, String> {
        StatusCode::parse(&text).ok_or_else(|| {
            let names: Vec<&str> = StatusCode::ALL.iter().map(|c| c.name()).collect();
            format!(
                "no gRPC status code is called `{text}`: one of {} (or 0 to 16)",
                names.join(", ")
            )
        })
    }
}

/// The back-off of a `retryPolicy`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GrpcBackoff {
    /// `initialBackoff`: the first retry's wait is drawn around it.
    pub initial: Micros,
    /// `maxBackoff`: no wait grows past it before the jitter.
    pub max: Micros,
    /// `backoffMultiplier`: how the wait grows per retry.
    pub multiplier: f64,
}

impl GrpcBackoff {
    /// gRPC makes at most this many attempts, the first included, whatever the config asks.
    pub const MOST_ATTEMPTS: u32 = 5;

    /// The attempts a `maxAttempts` of `asked` makes.
    pub fn attempts(asked: u32) -> u32 {
        asked.min(Self::MOST_ATTEMPTS)
    }

    /// The factor each wait is drawn by, low end included and high end not (grpc-go's
    /// `stream.go`, since November 2024).
    pub const JITTER: (f64, f64) = (0.8, 1.2);

    /// `backoffMultiplier`'s range here (gRPC takes any number above 0).
    pub const MULTIPLIER: (f64, f64) = (0.001, 100.0);

    /// Checks a `backoffMultiplier` against [`GrpcBackoff::MULTIPLIER`].
    pub fn check_multiplier(multiplier: f64) -> Result<(), ParamError> {
        let (least, most) = Self::MULTIPLIER;
        ParamError::check_f64("backoff_multiplier", multiplier, least, most, "")
    }

    /// The wait retry `retry` is drawn around (1 for the first retry), before the jitter.
    pub fn ceiling(&self, retry: u32) -> Micros {
        let grown = self.initial as f64 * self.multiplier.powi(retry.saturating_sub(1) as i32);
        grown.min(self.max as f64).max(0.0) as Micros
    }

    /// The wait before retry `retry` (1 for the first): its ceiling times a uniform factor
    /// in [`Self::JITTER`].
    pub fn wait(&self, retry: u32, rng: &mut impl Rng) -> Micros {
        let (low, high) = Self::JITTER;
        (self.ceiling(retry) as f64 * rng.gen_range(low..high)) as Micros
    }
}

/// A service config's `retryThrottling`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThrottleConfig {
    /// `maxTokens`: the bucket's size and its start (1..=1000).
    pub max_tokens: f64,
    /// `tokenRatio`: what a successful call gives back (above 0).
    pub token_ratio: f64,
}

impl ThrottleConfig {
    /// The example of gRPC's retry design: 10 tokens, 0.1 back per success.
    pub fn grpc_example() -> Self {
        ThrottleConfig {
            max_tokens: 10.0,
            token_ratio: 0.1,
        }
    }

    /// `maxTokens`' range (a whole number, as gRPC's design asks).
    pub const MAX_TOKENS: (f64, f64) = (1.0, 1000.0);
    /// `tokenRatio`'s range: above 0, kept to three decimals.
    pub const TOKEN_RATIO: (f64, f64) = (0.001, 1000.0);

    /// Checks both against gRPC's ranges.
    pub fn validate(&self) -> Result<(), ParamError> {
        let (least, most) = Self::MAX_TOKENS;
        ParamError::check_f64("max_tokens", self.max_tokens, least, most, "")?;
        let (least, most) = Self::TOKEN_RATIO;
        ParamError::check_f64("token_ratio", self.token_ratio, least, most, "")
    }
}

/// A channel's retry throttle while a run goes.
#[derive(Debug, Clone)]
pub struct RetryThrottle {
    config: ThrottleConfig,
    tokens: f64,
}

impl RetryThrottle {
    /// A full bucket.
    pub fn new(config: ThrottleConfig) -> Self {
        RetryThrottle {
            config,
            tokens: config.max_tokens,
        }
    }

    /// Tokens left.
    pub fn tokens(&self) -> f64 {
        self.tokens
    }

    /// An attempt failed with a retryable status: a token goes; whether a retry may follow
    /// (the tokens still above half the bucket).
    pub fn failed(&mut self) -> bool {
        self.tokens = (self.tokens - 1.0).max(0.0);
        self.tokens > self.config.max_tokens / 2.0
    }

    /// A call succeeded: `tokenRatio` comes back, up to a full bucket.
    pub fn succeeded(&mut self) {
        self.tokens = (self.tokens + self.config.token_ratio).min(self.config.max_tokens);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resilience::MS;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn max_attempts_above_five_makes_five() {
        assert_eq!(GrpcBackoff::attempts(10), 5);
        assert_eq!(GrpcBackoff::attempts(5), 5);
        assert_eq!(GrpcBackoff::attempts(3), 3);
    }

    #[test]
    fn each_wait_is_drawn_within_a_fifth_of_its_ceiling_and_the_ceiling_stops_at_max_backoff() {
        let b = GrpcBackoff {
            initial: 100 * MS,
            max: 500 * MS,
            multiplier: 2.0,
        };
        let ceilings: Vec<_> = (1..=5).map(|n| b.ceiling(n)).collect();
        assert_eq!(ceilings, [100, 200, 400, 500, 500].map(|m| m * MS));
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for n in 1..=5 {
            let waits: Vec<_> = (0..2_000).map(|_| b.wait(n, &mut rng)).collect();
            let ceiling = b.ceiling(n) as f64;
            let (least, most) = (*waits.iter().min().unwrap(), *waits.iter().max().unwrap());
            assert!(least as f64 >= ceiling * 0.8 && (most as f64) < ceiling * 1.2);
            // The draws fill the band: some within 2% of each end.
            assert!((least as f64) < ceiling * 0.82 && most as f64 > ceiling * 1.18);
            let mean = waits.iter().sum::<Micros>() as f64 / waits.len() as f64;
            assert!(
                (mean - ceiling).abs() < ceiling * 0.02,
                "retry {n}: mean {mean}"
            );
        }
    }

    #[test]
    fn a_status_code_is_written_by_its_name_and_read_by_name_or_number() {
        let written = serde_json::to_string(&[StatusCode::Unavailable, StatusCode::Ok]).unwrap();
        assert_eq!(written, r#"["UNAVAILABLE","OK"]"#);
        let read: Vec<StatusCode> = serde_json::from_str(r#"["deadline_exceeded", "14"]"#).unwrap();
        assert_eq!(
            read,
            [StatusCode::DeadlineExceeded, StatusCode::Unavailable]
        );
        let e = serde_json::from_str::<StatusCode>(r#""UNAVAILBLE""#).unwrap_err();
        assert!(e.to_string().contains("`UNAVAILBLE`: one of OK,"), "{e}");
    }

    #[test]
    fn retries_stop_at_half_the_tokens_and_come_back_with_successes() {
        let mut t = RetryThrottle::new(ThrottleConfig::grpc_example());
        // 10 -> 9, 8, 7, 6: still above 5.
        assert!((0..4).all(|_| t.failed()));
        // 6 -> 5: at half, no retry.
        assert!(!t.failed());
        assert_eq!(t.tokens(), 5.0);
        // Ten successes give one token back: 6, above half again.
        (0..10).for_each(|_| t.succeeded());
        assert!((t.tokens() - 6.0).abs() < 1e-9);
        assert!(t.failed() == (t.tokens() > 5.0));
        (0..1_000).for_each(|_| t.succeeded());
        assert_eq!(t.tokens(), 10.0);
        (0..100).for_each(|_| {
            t.failed();
        });
        assert_eq!(t.tokens(), 0.0);
    }

    #[test]
    fn status_codes_read_by_name_in_any_case_or_by_number() {
        assert_eq!(
            StatusCode::parse("UNAVAILABLE"),
            Some(StatusCode::Unavailable)
        );
        assert_eq!(
            StatusCode::parse("unavailable"),
            Some(StatusCode::Unavailable)
        );
        assert_eq!(StatusCode::parse("14"), Some(StatusCode::Unavailable));
        assert_eq!(StatusCode::parse("4"), Some(StatusCode::DeadlineExceeded));
        assert_eq!(StatusCode::parse("17"), None);
        assert_eq!(StatusCode::parse("UNAVAILBLE"), None);
        for c in StatusCode::ALL {
            assert_eq!(StatusCode::parse(c.name()), Some(c));
        }
    }
}
