//! Load shedding by priority: past a number of requests in flight, new ones are refused at once
//! with `503` and `Retry-After`, the least important first. Refusing a fifth of the requests in
//! a millisecond beats serving all of them in eight seconds.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::{Micros, ParamError, SECOND};

/// How much a request matters (set at the gateway, e.g. from an `X-Priority` header).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Priority {
    /// Reports, synthetic probes: shed first.
    Low,
    /// The default.
    Normal,
    /// A customer placing an order: shed last.
    High,
}

impl Priority {
    fn index(self) -> usize {
        match self {
            Priority::Low => 0,
            Priority::Normal => 1,
            Priority::High => 2,
        }
    }
}

/// The in-flight limits per priority (cumulative: a request is refused when the total in
/// flight, all priorities together, has reached its priority's limit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LoadShedConfig {
    /// Limit for low priority (0..=normal).
    pub low: u32,
    /// Limit for normal priority (low..=high).
    pub normal: u32,
    /// Limit for high priority (normal..=1_000_000).
    pub high: u32,
    /// The `Retry-After` sent with a refusal (0..=3600 s; lesson: 2 s).
    pub retry_after: Micros,
}

impl LoadShedConfig {
    /// Lesson 000's `orders` (96 threads): low 30, normal 60, high 90; `Retry-After: 2`.
    pub fn lesson_000() -> Self {
        LoadShedConfig {
            low: 30,
            normal: 60,
            high: 90,
            retry_after: 2 * SECOND,
        }
    }

    /// The range of each priority's limit, which `validate` and the parameter rows share.
    pub const LIMIT: (u64, u64) = (0, 1_000_000);

    /// Checks every field against its documented range.
    pub fn validate(&self) -> Result<(), ParamError> {
        ParamError::check_u64("high", self.high.into(), Self::LIMIT.0, Self::LIMIT.1, "")?;
        ParamError::check_u64("normal", self.normal.into(), 0, self.high.into(), "")?;
        ParamError::check_u64("low", self.low.into(), 0, self.normal.into(), "")?;
        ParamError::check_micros("retry_after", self.retry_after, 0, 3_600 * SECOND)?;
        Ok(())
    }

    /// The in-flight limit for `priority`.
    pub fn limit(&self, priority: Priority) -> u32 {
        match priority {
            Priority::Low => self.low,
            Priority::Normal => self.normal,
            Priority::High => self.high,
        }
    }
}

impl Default for LoadShedConfig {
    fn default() -> Self {
        Self::lesson_000()
    }
}

/// A refused request: the answer to send back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Error)]
#[error("service overloaded ({status}); retry after {retry_after} µs")]
pub struct Shed {
    /// HTTP status: always 503.
    pub status: u16,
    /// The `Retry-After` to send.
    pub retry_after: Micros,
}

/// The shedder: its limits and how many requests of each priority it has refused.
#[derive(Debug, Clone)]
pub struct LoadShedder {
    config: LoadShedConfig,
    shed: [u64; 3],
}

impl LoadShedder {
    /// A shedder with `config`'s limits.
    pub fn new(config: LoadShedConfig) -> Result<Self, ParamError> {
        config.validate()?;
        Ok(LoadShedder {
            config,
            shed: [0; 3],
        })
    }

    /// The parameters it was built with.
    pub fn config(&self) -> &LoadShedConfig {
        &self.config
    }

    /// Decides on a new request of `priority` when `in_flight` requests are already being
    /// served: refused when `in_flight` has reached the priority's limit.
    pub fn admit(&mut self, priority: Priority, in_flight: u32) -> Result<(), Shed> {
        if in_flight >= self.config.limit(priority) {
            self.shed[priority.index()] += 1;
            Err(Shed {
                status: 503,
                retry_after: self.config.retry_after,
            })
        } else {
            Ok(())
        }
    }

    /// Requests of `priority` refused so far.
    pub fn shed_count(&self, priority: Priority) -> u64 {
        self.shed[priority.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_priority_is_shed_at_its_limit() {
        let mut s = LoadShedder::new(LoadShedConfig::lesson_000()).unwrap();
        for (p, limit) in [
            (Priority::Low, 30),
            (Priority::Normal, 60),
            (Priority::High, 90),
        ] {
            assert_eq!(s.admit(p, limit - 1), Ok(()), "{p:?}");
            assert_eq!(
                s.admit(p, limit),
                Err(Shed {
                    status: 503,
                    retry_after: 2 * SECOND
                }),
                "{p:?}"
            );
            assert_eq!(s.shed_count(p), 1);
        }
    }

    #[test]
    fn with_forty_in_flight_only_low_is_shed() {
        let mut s = LoadShedder::new(LoadShedConfig::lesson_000()).unwrap();
        assert!(s.admit(Priority::Low, 40).is_err());
        assert!(s.admit(Priority::Normal, 40).is_ok());
        assert!(s.admit(Priority::High, 40).is_ok());
    }

    #[test]
    fn bad_params_name_the_field() {
        let bad = |c: LoadShedConfig| LoadShedder::new(c).unwrap_err().field;
        let c = LoadShedConfig::lesson_000();
        assert_eq!(
            bad(LoadShedConfig {
                low: 61,
                ..c.clone()
            }),
            "low"
        );
        assert_eq!(
            bad(LoadShedConfig {
                normal: 91,
                ..c.clone()
            }),
            "normal"
        );
        assert_eq!(
            bad(LoadShedConfig {
                high: 2_000_000,
                ..c.clone()
            }),
            "high"
        );
        assert_eq!(
            bad(LoadShedConfig {
                retry_after: 3_601 * SECOND,
                ..c
            }),
            "retry_after"
        );
    }
}
