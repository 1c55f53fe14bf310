//! The heap of `orders`: each request it holds (working or queued) keeps memory, and past a
//! threshold the garbage collector pauses the workers. The more requests held, the longer the
//! pause each started request waits out, the slower the workers, the more requests held: the
//! loop of a GC death spiral. A bounded queue (`queue_limit`) bounds what is held.

use super::config::GcConfig;
use crate::sim::latency::Micros;

/// Longest pause one request waits out.
const MAX_PAUSE: Micros = 10_000_000;

/// The collector's rule: the pause that goes with the requests held.
pub(super) struct Heap {
    threshold: u64,
    pause: Micros,
}

impl Heap {
    pub fn new(cfg: &GcConfig) -> Self {
        Heap {
            threshold: cfg.threshold.max(1),
            pause: cfg.pause,
        }
    }

    /// The pause a worker waits out before starting a request while `held` requests are held:
    /// none up to the threshold, then `pause` for every threshold's worth beyond it.
    pub fn pause(&self, held: u64) -> Micros {
        let beyond = held.saturating_sub(self.threshold);
        let pause = u128::from(self.pause) * u128::from(beyond) / u128::from(self.threshold);
        Micros::try_from(pause).unwrap_or(MAX_PAUSE).min(MAX_PAUSE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pause_starts_at_the_threshold_and_grows_with_what_is_held() {
        let heap = Heap::new(&GcConfig {
            threshold: 100,
            pause: 200_000,
        });
        assert_eq!(heap.pause(0), 0);
        assert_eq!(heap.pause(100), 0);
        assert_eq!(heap.pause(150), 100_000);
        assert_eq!(heap.pause(300), 400_000);
        assert_eq!(heap.pause(u64::MAX), MAX_PAUSE);
    }
}
