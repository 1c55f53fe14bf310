//! The feedback loop of a failure-zoo preset: the four stations its arrow goes round, the key
//! that cuts it, and whether it drives at a moment of a run (the playground lights its arrow
//! then).

use crate::page::replay::passed;
use crate::sim::latency::Micros;
use crate::sim::model::SimConfig;
use crate::sim::scenario::Preset;
use crate::sim::trace::Trace;

/// What keeps a zoo preset down, drawn as a cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedbackLoop {
    /// The loop's name, the view's heading.
    pub title: &'static str,
    /// The stations in the order the arrow goes round; the last leads back to the first.
    pub stations: [&'static str; 4],
    /// The setting that cuts the loop (`KEY=VALUE`, as `--set` and a link take it).
    pub cure: &'static str,
    /// Which measure says the loop drives.
    rule: Drives,
}

/// How a run shows that a loop drives, in the 100 ms slice holding the playhead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Drives {
    /// `orders` holds (busy and queued) more than its heap's threshold.
    HeapPastThreshold,
    /// Workers finish requests whose clients have gone.
    StaleWork,
    /// Calls time out for a tenth or more of the slice's arrivals.
    Timeouts,
    /// Requests fail at the dependency for a tenth or more of the slice's arrivals.
    Failures,
}

impl FeedbackLoop {
    /// The loop of `preset`, for the zoo's presets.
    pub fn of(preset: Preset) -> Option<FeedbackLoop> {
        Some(match preset {
            Preset::ZooGcSpiral => FeedbackLoop {
                title: "The loop: collection pauses",
                stations: [
                    "more requests held",
                    "a fuller heap",
                    "longer collection pauses",
                    "slower workers",
                ],
                cure: "queue_limit=50",
                rule: Drives::HeapPastThreshold,
            },
            Preset::ZooColdCache => FeedbackLoop {
                title: "The loop: a cache nobody fills",
                stations: [
                    "a cold cache",
                    "every call goes to the database",
                    "its queue passes the timeout",
                    "answers too late to fill the cache",
                ],
                cure: "cache_fill=coalesce",
                rule: Drives::Timeouts,
            },
            Preset::ZooLbSinkhole => FeedbackLoop {
                title: "The loop: the host that fails fastest",
                stations: [
                    "one host fails every call at once",
                    "it has the fewest calls in flight",
                    "the balancer sends it the next call",
                    "and the retries of those it failed",
                ],
                cure: "outlier_detection=on",
                rule: Drives::Failures,
            },
            Preset::ZooFifoOverload => FeedbackLoop {
                title: "The loop: serving clients who left",
                stations: [
                    "a long queue",
                    "the oldest served, after its client left",
                    "the client sends again",
                    "more requests queued",
                ],
                cure: "queue_order=lifo",
                rule: Drives::StaleWork,
            },
            Preset::ZooOpenLoop => FeedbackLoop {
                title: "The loop: arrivals that never wait",
                stations: [
                    "inventory's queue past the timeout",
                    "calls time out",
                    "retries, and arrivals at the same pace",
                    "more calls queued",
                ],
                cure: "arrivals=closed",
                rule: Drives::Timeouts,
            },
            _ => return None,
        })
    }

    /// Whether the loop drives at `at` in `trace`, the run of `config`.
    pub fn drives(&self, config: &SimConfig, trace: &Trace, at: Micros) -> bool {
        let Some(slice) = passed(trace, at).last() else {
            return false;
        };
        match self.rule {
            Drives::HeapPastThreshold => config
                .service
                .gc
                .is_some_and(|gc| u64::from(slice.workers_busy) + slice.queue_len > gc.threshold),
            Drives::StaleWork => slice.stale_work > 0,
            Drives::Timeouts => {
                slice.arrivals > 0 && slice.completions.timeout * 10 >= slice.arrivals
            }
            Drives::Failures => {
                slice.arrivals > 0 && slice.completions.dependency_error * 10 >= slice.arrivals
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::model::run;
    use crate::sim::scenario::apply_set;

    #[test]
    fn each_zoo_loop_drives_after_its_trigger_and_not_once_cured() {
        for (preset, cure, value) in [
            (Preset::ZooGcSpiral, "queue_limit", "50"),
            (Preset::ZooColdCache, "cache_fill", "coalesce"),
            (Preset::ZooLbSinkhole, "outlier_detection", "on"),
            (Preset::ZooFifoOverload, "queue_order", "lifo"),
            (Preset::ZooOpenLoop, "arrivals", "closed"),
        ] {
            let shape = FeedbackLoop::of(preset).expect("a zoo preset has a loop");
            assert_eq!(shape.cure, format!("{cure}={value}"));
            let sick = preset.config();
            let trace = run(&sick).unwrap();
            // Before the trigger (1 s) the loop is still; long after it ended (40 s) it drives.
            assert!(!shape.drives(&sick, &trace, 1_000_000), "{preset:?} at 1 s");
            assert!(
                shape.drives(&sick, &trace, 40_000_000),
                "{preset:?} at 40 s"
            );
            let mut cured = sick.clone();
            apply_set(&mut cured, cure, value).unwrap();
            let trace = run(&cured).unwrap();
            assert!(
                !shape.drives(&cured, &trace, 40_000_000),
                "{preset:?} cured, at 40 s"
            );
        }
        assert_eq!(FeedbackLoop::of(Preset::RetryStorm), None);
    }
}
