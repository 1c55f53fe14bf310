//! A dependency's hosts behind a balancer that sends each call to the host with the fewest calls
//! in flight. A host that fails every call at once always has the fewest in flight, so it draws
//! most calls: the load balancer's sinkhole. Outlier detection (Envoy's, by consecutive errors)
//! ejects such a host for a while, and the calls go to the healthy ones.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::dependency_config::{HostsConfig, OutlierDetection};
use crate::sim::latency::Micros;

/// How long the failing host takes to fail a call.
pub(super) const FAIL_FAST: Micros = 1_000;
/// Longest one ejection lasts (Envoy's `max_ejection_time` default).
const MAX_EJECTION: Micros = 300_000_000;

/// The hosts' calls in flight and their ejections.
pub(super) struct Hosts {
    in_flight: Vec<u32>,
    fails_at: Option<Micros>,
    detection: Option<OutlierDetection>,
    errors_in_row: Vec<u32>,
    ejected_until: Vec<Micros>,
    ejections: Vec<u32>,
}

impl Hosts {
    pub fn new(cfg: &HostsConfig) -> Self {
        let n = cfg.count.max(1) as usize;
        Hosts {
            in_flight: vec![0; n],
            fails_at: cfg.one_fails_at,
            detection: cfg.outlier_detection,
            errors_in_row: vec![0; n],
            ejected_until: vec![0; n],
            ejections: vec![0; n],
        }
    }

    fn ejected(&self, host: usize, now: Micros) -> bool {
        self.ejected_until[host] > now
    }

    /// The host a call starting at `now` goes to: of the hosts not ejected, one with the fewest
    /// calls in flight (drawn at random among those tied).
    pub fn pick(&mut self, now: Micros, rng: &mut ChaCha8Rng) -> usize {
        let open = |h: &usize| !self.ejected(*h, now);
        let hosts = 0..self.in_flight.len();
        let fewest = hosts.clone().filter(open).map(|h| self.in_flight[h]).min();
        let tied = |h: &usize| open(h) && Some(self.in_flight[*h]) == fewest;
        let host = match hosts.clone().filter(tied).count() {
            0 => 0,
            1 => hosts.clone().find(tied).unwrap_or(0),
            // Drawn as a u32: a usize range draws differently on wasm32 and on a 64-bit host.
            n => {
                let k = rng.gen_range(0..n as u32) as usize;
                hosts.clone().filter(tied).nth(k).unwrap_or(0)
            }
        };
        self.in_flight[host] += 1;
        host
    }

    /// Whether `host` fails every call starting at `now`: the first host, once `fails_at` has
    /// passed.
    pub fn failing(&self, host: usize, now: Micros) -> bool {
        host == 0 && self.fails_at.is_some_and(|at| now > at)
    }

    /// A call to `host` is over at `now`, `failed` or not: one call fewer in flight, and the
    /// outlier detection counts it.
    pub fn done(&mut self, host: usize, now: Micros, failed: bool) {
        let Some(in_flight) = self.in_flight.get_mut(host) else {
            return;
        };
        *in_flight = in_flight.saturating_sub(1);
        let Some(detection) = self.detection else {
            return;
        };
        if !failed {
            self.errors_in_row[host] = 0;
            return;
        }
        self.errors_in_row[host] += 1;
        let most_ejected = (self.in_flight.len() / 10).max(1);
        let ejected_now = (0..self.in_flight.len())
            .filter(|&h| self.ejected(h, now))
            .count();
        if self.errors_in_row[host] >= detection.consecutive_errors
            && !self.ejected(host, now)
            && ejected_now < most_ejected
        {
            self.ejections[host] += 1;
            let length = detection
                .base_ejection
                .saturating_mul(Micros::from(self.ejections[host]))
                .min(MAX_EJECTION.max(detection.base_ejection));
            self.ejected_until[host] = now.saturating_add(length);
            self.errors_in_row[host] = 0;
        }
    }

    /// Times each host was ejected.
    #[cfg(test)]
    pub fn ejections(&self) -> u64 {
        self.ejections.iter().map(|&e| u64::from(e)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn hosts(detection: Option<OutlierDetection>) -> Hosts {
        Hosts::new(&HostsConfig {
            count: 4,
            one_fails_at: Some(0),
            outlier_detection: detection,
        })
    }

    #[test]
    fn the_balancer_sends_a_call_to_the_host_with_the_fewest_in_flight() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut h = hosts(None);
        let picked: Vec<usize> = (0..4).map(|_| h.pick(1, &mut rng)).collect();
        let mut sorted = picked.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3], "one each while tied");
        // Host 2's call ends: it alone has none in flight, and takes the next.
        h.done(2, 2, false);
        assert_eq!(h.pick(3, &mut rng), 2);
        assert!(h.failing(0, 1) && !h.failing(1, 1));
    }

    #[test]
    fn consecutive_errors_eject_a_host_for_longer_each_time() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let mut h = hosts(Some(OutlierDetection {
            consecutive_errors: 3,
            base_ejection: 1_000_000,
        }));
        for _ in 0..3 {
            h.done(0, 10, true);
        }
        assert!(h.ejected(0, 11));
        // Ejected: no call goes there until the ejection ends at 1 s.
        for _ in 0..12 {
            assert_ne!(h.pick(20, &mut rng), 0);
        }
        assert!(!h.ejected(0, 1_000_011));
        // A success in between starts the count again.
        h.done(0, 1_000_020, true);
        h.done(0, 1_000_021, false);
        h.done(0, 1_000_022, true);
        h.done(0, 1_000_023, true);
        assert!(!h.ejected(0, 1_000_024));
        h.done(0, 1_000_030, true);
        // The second ejection lasts twice the first.
        assert!(h.ejected(0, 1_000_031) && h.ejected(0, 3_000_000));
        assert!(!h.ejected(0, 3_000_031));
        assert_eq!(h.ejections(), 2);
    }
}
