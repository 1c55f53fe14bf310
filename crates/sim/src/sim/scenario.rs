//! The lesson's four cascade scenarios and the other presets, as grouped configs. The
//! `key=value` overrides live in [`super::params`] and are re-exported here.

use super::latency::Micros;
use super::model::{
    Abandon, Arrivals, CacheConfig, CapacityConfig, GatewayConfig, GcConfig, GrpcStack,
    HistoryBulkhead, HostsConfig, OrdersIdempotency, PollyStack, Profile, Resilience4jStack,
    SidecarConfig, SimConfig,
};
use crate::resilience::{
    AdaptiveLimitConfig, BreakerConfig, BulkheadConfig, FallbackPolicy, HalfOpenRule,
    IdempotencyConfig, RetryPolicy, Window,
};

pub use super::params::{apply_set, parse_int, parse_time, Applied, JITTER_NAMES, SET_KEYS};

const MS: Micros = 1_000;
const SECOND: Micros = 1_000_000;

/// One of the lesson's four runs of `cascade.py`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scenario {
    /// No protection: every call waits as long as it takes.
    None,
    /// A 300 ms timeout on the call.
    Timeout,
    /// Timeout and circuit breaker.
    Cb,
    /// Timeout, circuit breaker and a bulkhead of 8.
    Bulkhead,
}

impl Scenario {
    /// All four, in the lesson's order.
    pub const ALL: [Scenario; 4] = [
        Scenario::None,
        Scenario::Timeout,
        Scenario::Cb,
        Scenario::Bulkhead,
    ];

    /// The short name used on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Scenario::None => "none",
            Scenario::Timeout => "timeout",
            Scenario::Cb => "cb",
            Scenario::Bulkhead => "bulkhead",
        }
    }

    /// The label the lesson's table prints, with the timeout and permits of `cfg`.
    pub fn label(self, cfg: &SimConfig) -> String {
        let stack = cfg.first_stack();
        let timeout_ms = stack.and_then(|s| s.timeout).unwrap_or(0) / MS;
        let permits = stack
            .and_then(|s| s.bulkhead.as_ref())
            .map_or(0, |b| b.permits);
        match self {
            Scenario::None => "no protection".to_string(),
            Scenario::Timeout => format!("timeout {timeout_ms}ms"),
            Scenario::Cb => "timeout + circuit breaker".to_string(),
            Scenario::Bulkhead => format!("timeout + CB + bulkhead({permits})"),
        }
    }

    /// Looks a scenario up by its short name.
    pub fn parse(name: &str) -> Option<Scenario> {
        Scenario::ALL.into_iter().find(|s| s.key() == name)
    }

    /// The lesson's parameters for this scenario.
    pub fn config(self) -> SimConfig {
        let mut config = SimConfig::default();
        let stack = config.first_stack_mut();
        if self != Scenario::None {
            stack.timeout = Some(300 * MS);
        }
        if matches!(self, Scenario::Cb | Scenario::Bulkhead) {
            stack.breaker = Some(BreakerConfig::cascade_sim());
        }
        if self == Scenario::Bulkhead {
            stack.bulkhead = Some(BulkheadConfig::cascade_sim());
        }
        config
    }
}

/// Every preset the page and the CLI offer: the lesson's four scenarios, the Saturday cascade,
/// one per exercise of lesson 000 and lesson 004's Northwind incident (shared pool and
/// separate bulkheads).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Preset {
    /// One of the lesson's four `cascade.py` runs.
    Lesson(Scenario),
    /// Lesson 000's opening: Kong pool 200, orders 96 workers, inventory 40 ms -> 4 s at
    /// 10:12:00, failover at 10:12:30, `/catalog` collateral damage, front-end retries,
    /// stale queued requests.
    Saturday,
    /// Exercise 1: a 500 ms request budget over ReserveStock's 300 ms timeout and 3 attempts.
    Ex1Budget,
    /// Exercise 2: 60% "out of stock" counted as failures by a buggy client.
    Ex2BusinessErrors,
    /// Exercise 3: inventory down for 30 s, retries in three layers: front end, library and
    /// Envoy sidecar.
    Ex3RetryLayers,
    /// Lesson 004: inventory 80 ms -> 8 s, Resilience4j values, one bulkhead shared by
    /// inventoryReservation and orderHistoryLookup.
    NorthwindShared,
    /// Lesson 004: the same incident with separate bulkheads of 20.
    NorthwindSeparate,
    /// A metastable failure: inventory serves 6 calls at once and is slow for 2 s; timeouts,
    /// three attempts and the work they abandon keep its queue past the timeout for good.
    RetryStorm,
    /// The Saturday cascade with inventory serving 4 calls at once (100 calls/s): the failover brings no
    /// relief while stale requests and the front end's retries fill the queues.
    SaturdayStorm,
    /// The herd: inventory (10 calls at once) hangs for 1 s and recovers by restarting, so the
    /// calls it held fail together and their retries come back together unless jittered.
    RetryHerd,
    /// The herd at a sale: inventory's calls reserve one of 20 hot items with a version
    /// check, so retries that come back together conflict and come back again unless jittered.
    RetryHerdContention,
    /// Exercise 3 with inventory serving 8 calls at once: the three layers' retries meet it
    /// as it recovers.
    Ex3RetryLayersCapacity,
    /// The lesson's cascade told as a story: no protection, order lookups (which never call
    /// inventory) beside the orders, stopped at 12 s with the clients still waiting counted.
    StoryNone,
    /// The story with a bulkhead of 8 on inventory and nothing else: the lookups keep their
    /// workers.
    StoryBulkhead,
    /// The story's resends: Anna's browser gives up after 3 s and sends the order again, twice;
    /// orders has the workers to make every copy an order, and no idempotency key tells them
    /// apart (`--set idempotency_key=on` gives the copies one).
    StoryResend,
    /// The lesson's timeout and breaker with a 1 s window, so the breaker opens about as soon
    /// as the printed table says.
    CbLikeTable,
    /// Lesson 004 as Resilience4j runs its YAML and annotations as written, one bulkhead
    /// shared with order history.
    NorthwindAsWrittenShared,
    /// Lesson 004 as written, under Resilience4j, with separate bulkheads of 20.
    NorthwindAsWrittenSeparate,
    /// Lesson 004 as its text means it (fallback on `@Retry`, `TimeoutException` retried,
    /// exponential backoff enabled), under Resilience4j, one shared bulkhead.
    NorthwindAsMeantShared,
    /// Lesson 004 as meant, under Resilience4j, with separate bulkheads of 20.
    NorthwindAsMeantSeparate,
    /// The story with an adaptive concurrency limit on inventory and nothing else: the limit
    /// falls as inventory slows, and the lookups keep their workers without a number to tune.
    StoryAdaptiveLimit,
    /// The failure zoo: `orders`' heap pauses its workers once it holds 100 requests; a 2 s
    /// slowdown of inventory fills the queue past that, and the pauses keep it growing
    /// (`--set queue_limit=50` cures it: a bounded queue bounds the heap).
    ZooGcSpiral,
    /// The failure zoo: inventory's database sits behind a cache of 300 items and serves 50
    /// calls a second; the cache is emptied at 5 s, the misses queue past the timeout, and a
    /// caller that timed out never fills the cache (`--set cache_fill=coalesce` cures it).
    ZooColdCache,
    /// The failure zoo: inventory on four hosts (200 ms a call) behind a
    /// least-outstanding-requests balancer; from 5 s one fails every call in 1 ms, so it always has the fewest in flight and draws
    /// nearly every call and retry (`--set outlier_detection=on` cures it).
    ZooLbSinkhole,
    /// The failure zoo: a 2 s overload of `orders`' FIFO queue whose clients give up after 1 s
    /// and resend; the workers serve requests nobody waits for, so goodput stays near 0 after
    /// the overload (`--set queue_order=lifo` cures it).
    ZooFifoOverload,
    /// The failure zoo: the retry storm under open-loop (Poisson) arrivals, which keep coming
    /// whatever the answers take (`--set arrivals=closed` cures it: clients that wait).
    ZooOpenLoop,
    /// The Saturday cascade with inventory behind an Envoy sidecar at Envoy's defaults: one
    /// retry of a 5xx or a per-try timeout (there is none by default), at most 3 retries in
    /// flight. A 4 s inventory is neither a 5xx nor past Envoy's 15 s route timeout, so Envoy
    /// changes nothing (`--envoy FILE.yaml` with a per-try timeout does).
    SaturdayEnvoy,
    /// The Saturday cascade with `orders` calling inventory through the pipeline .NET's HTTP
    /// standard resilience handler adds (Polly v8, its defaults): 3 retries with jittered
    /// exponential delays from 2 s, a breaker at 10% failures over at least 100 calls in 30 s
    /// (5 s open), a 10 s attempt timeout. A 4 s inventory is no failure to it, so nothing
    /// trips and nothing is retried: the defaults wait as long as the cascade does.
    SaturdayPolly,
    /// The Saturday cascade with `orders` calling inventory over a gRPC channel with a
    /// typical service config: a 1 s deadline over the whole call, a `retryPolicy` of 3
    /// attempts retrying `UNAVAILABLE` (0.1 s doubling to 1 s, fully random), the retry
    /// throttle of gRPC's design (10 tokens, 0.1 per success). A slow call ends
    /// `DEADLINE_EXCEEDED` at 1 s, which no policy retries; there is no breaker to stop
    /// the calls.
    SaturdayGrpc,
}

impl Preset {
    /// Every preset, in the order a list shows them.
    pub const ALL: [Preset; 32] = [
        Preset::Lesson(Scenario::None),
        Preset::Lesson(Scenario::Timeout),
        Preset::Lesson(Scenario::Cb),
        Preset::Lesson(Scenario::Bulkhead),
        Preset::StoryNone,
        Preset::StoryBulkhead,
        Preset::CbLikeTable,
        Preset::Saturday,
        Preset::Ex1Budget,
        Preset::Ex2BusinessErrors,
        Preset::Ex3RetryLayers,
        Preset::NorthwindShared,
        Preset::NorthwindSeparate,
        Preset::RetryStorm,
        Preset::SaturdayStorm,
        Preset::Ex3RetryLayersCapacity,
        Preset::RetryHerd,
        Preset::RetryHerdContention,
        Preset::NorthwindAsWrittenShared,
        Preset::NorthwindAsWrittenSeparate,
        Preset::NorthwindAsMeantShared,
        Preset::NorthwindAsMeantSeparate,
        Preset::StoryResend,
        Preset::StoryAdaptiveLimit,
        Preset::ZooGcSpiral,
        Preset::ZooColdCache,
        Preset::ZooLbSinkhole,
        Preset::ZooFifoOverload,
        Preset::ZooOpenLoop,
        Preset::SaturdayEnvoy,
        Preset::SaturdayPolly,
        Preset::SaturdayGrpc,
    ];

    /// The preset the playground opens on: the story from its start, the cascade with no
    /// protection.
    pub const OPENING: Preset = Preset::StoryNone;

    /// The short name used in URLs and on the command line.
    pub fn key(self) -> &'static str {
        match self {
            Preset::Lesson(s) => s.key(),
            Preset::Saturday => "saturday",
            Preset::Ex1Budget => "ex1-budget",
            Preset::Ex2BusinessErrors => "ex2-business-errors",
            Preset::Ex3RetryLayers => "ex3-retry-layers",
            Preset::NorthwindShared => "northwind-shared",
            Preset::NorthwindSeparate => "northwind-separate",
            Preset::RetryStorm => "retry-storm",
            Preset::SaturdayStorm => "saturday-storm",
            Preset::Ex3RetryLayersCapacity => "ex3-retry-layers-capacity",
            Preset::RetryHerd => "retry-herd",
            Preset::RetryHerdContention => "retry-herd-contention",
            Preset::StoryNone => "story-none",
            Preset::StoryBulkhead => "story-bulkhead",
            Preset::StoryResend => "story-resend",
            Preset::StoryAdaptiveLimit => "story-adaptive-limit",
            Preset::ZooGcSpiral => "zoo-gc-spiral",
            Preset::ZooColdCache => "zoo-cold-cache",
            Preset::ZooLbSinkhole => "zoo-lb-sinkhole",
            Preset::ZooFifoOverload => "zoo-fifo-overload",
            Preset::ZooOpenLoop => "zoo-open-loop",
            Preset::SaturdayEnvoy => "saturday-envoy",
            Preset::SaturdayPolly => "saturday-polly",
            Preset::SaturdayGrpc => "saturday-grpc",
            Preset::CbLikeTable => "cb-like-table",
            Preset::NorthwindAsWrittenShared => "northwind-as-written-shared",
            Preset::NorthwindAsWrittenSeparate => "northwind-as-written-separate",
            Preset::NorthwindAsMeantShared => "northwind-as-meant-shared",
            Preset::NorthwindAsMeantSeparate => "northwind-as-meant-separate",
        }
    }

    /// A title for a list or a heading.
    pub fn title(self) -> &'static str {
        match self {
            Preset::Lesson(Scenario::None) => "Lesson 000: no protection",
            Preset::Lesson(Scenario::Timeout) => "Lesson 000: timeout 300 ms",
            Preset::Lesson(Scenario::Cb) => "Lesson 000: timeout + circuit breaker",
            Preset::Lesson(Scenario::Bulkhead) => "Lesson 000: timeout + breaker + bulkhead(8)",
            Preset::Saturday => "Saturday of Grape Harvest Week: the cascade through Kong",
            Preset::Ex1Budget => "Exercise 1: a 500 ms budget over three attempts",
            Preset::Ex2BusinessErrors => "Exercise 2: \"out of stock\" opens the breaker",
            Preset::Ex3RetryLayers => {
                "Exercise 3: retries in three layers against a dead inventory"
            }
            Preset::NorthwindShared => {
                "Northwind (lesson 000's semantics): one bulkhead shared with order history"
            }
            Preset::NorthwindSeparate => "Northwind (lesson 000's semantics): separate bulkheads",
            Preset::NorthwindAsWrittenShared => {
                "Northwind under Resilience4j, as written: one shared bulkhead"
            }
            Preset::NorthwindAsWrittenSeparate => {
                "Northwind under Resilience4j, as written: separate bulkheads"
            }
            Preset::NorthwindAsMeantShared => {
                "Northwind under Resilience4j, as meant: one shared bulkhead"
            }
            Preset::NorthwindAsMeantSeparate => {
                "Northwind under Resilience4j, as meant: separate bulkheads"
            }
            Preset::RetryStorm => "Retry storm: a 2 s slowdown that never ends",
            Preset::RetryHerd => "The herd: a restart fails every held call at once",
            Preset::RetryHerdContention => {
                "The herd at a sale: retries that come back together conflict on hot items"
            }
            Preset::SaturdayStorm => "Saturday with a finite inventory: no relief at failover",
            Preset::Ex3RetryLayersCapacity => {
                "Exercise 3 with a finite inventory: the retries meet its recovery"
            }
            Preset::StoryNone => "The cascade: no protection, with order lookups, the first 12 s",
            Preset::StoryBulkhead => "The cascade with a bulkhead(8): order lookups keep working",
            Preset::StoryAdaptiveLimit => {
                "The cascade with an adaptive concurrency limit: it finds the bulkhead's size"
            }
            Preset::StoryResend => {
                "Resends after 3 s without an idempotency key: orders made twice"
            }
            Preset::CbLikeTable => "Timeout + breaker with a 1 s window, like the printed table",
            Preset::ZooGcSpiral => "Zoo: garbage collection pauses that feed on the queue",
            Preset::ZooColdCache => "Zoo: a flushed cache that late answers never fill",
            Preset::ZooLbSinkhole => "Zoo: the failing host that draws every call",
            Preset::ZooFifoOverload => {
                "Zoo: a FIFO queue after a short overload serves clients who have left"
            }
            Preset::ZooOpenLoop => "Zoo: the retry storm under open-loop arrivals",
            Preset::SaturdayEnvoy => "Saturday behind an Envoy sidecar at Envoy's defaults",
            Preset::SaturdayPolly => "Saturday through Polly's standard HTTP pipeline",
            Preset::SaturdayGrpc => {
                "Saturday over a gRPC channel: 1 s deadline, 3 attempts, throttled"
            }
        }
    }

    /// Looks a preset up by its key.
    pub fn parse(key: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.key() == key)
    }

    /// The wall-clock time of the run's time 0, in seconds after midnight, for presets that
    /// tell a story at a time of day (the Saturday cascade starts at 10:11:50); `None` for
    /// those measured in seconds from the start.
    pub fn clock_start(self) -> Option<u64> {
        match self {
            Preset::Saturday
            | Preset::SaturdayStorm
            | Preset::SaturdayEnvoy
            | Preset::SaturdayPolly
            | Preset::SaturdayGrpc => Some(SATURDAY_CLOCK_START),
            _ => None,
        }
    }

    /// The preset's parameters.
    pub fn config(self) -> SimConfig {
        match self {
            Preset::Lesson(s) => s.config(),
            Preset::Saturday => saturday(),
            // Envoy's route timeout (15 s) and max_requests (1,024) never bind on Saturday (a 4 s
            // inventory, about 400 calls in flight): the preset leaves them out, so the page's
            // timeout and bulkhead sliders keep their ranges.
            Preset::SaturdayEnvoy => with(saturday(), |c| {
                c.first_stack_mut().sidecar = Some(SidecarConfig::envoy());
            }),
            Preset::SaturdayPolly => with(saturday(), |c| {
                let stack = c.first_stack_mut();
                stack.profile = Profile::Polly(PollyStack::http_standard());
                stack.retry = Some(PollyStack::standard_retry());
                stack.breaker = Some(PollyStack::standard_breaker());
                stack.timeout = Some(PollyStack::STANDARD_ATTEMPT_TIMEOUT);
            }),
            Preset::SaturdayGrpc => with(saturday(), |c| {
                let stack = c.first_stack_mut();
                stack.profile = Profile::Grpc(GrpcStack::typical());
                stack.retry = Some(GrpcStack::typical_retry());
                stack.timeout = Some(SECOND);
            }),
            Preset::Ex1Budget => with(Scenario::Timeout.config(), |c| {
                let stack = c.first_stack_mut();
                stack.timeout = Some(300 * MS);
                stack.retry = Some(RetryPolicy::reserve_stock());
                c.service.request_budget = Some(500 * MS);
                c.run.seed = 1;
            }),
            Preset::Ex2BusinessErrors => with(Scenario::None.config(), |c| {
                // Inventory is healthy all along; 60% of its answers are "out of stock".
                let inventory = c.first_mut();
                inventory.faults.degrade_at = Some(3_600 * SECOND);
                inventory.faults.business_error_rate = 0.6;
                inventory.stack.timeout = Some(300 * MS);
                inventory.stack.breaker = Some(BreakerConfig::lesson_000());
                inventory.stack.business_errors_trip_breaker = true;
                c.service.fallback = Some(FallbackPolicy::reserve_stock());
                c.run.seed = 2;
            }),
            Preset::Ex3RetryLayers => with(Scenario::None.config(), |c| {
                // Dead: every call fails at once with UNAVAILABLE, from 0 to 30 s. Workers are
                // plentiful so that the retries, not the pool, set the load on inventory.
                c.service.threads = 1_000;
                c.traffic.duration = 40 * SECOND;
                c.traffic.frontend_retries = 2;
                c.traffic.frontend_backoff = 100 * MS;
                let inventory = c.first_mut();
                inventory.faults.degrade_at = Some(0);
                inventory.faults.slow = MS;
                inventory.faults.recover_at = Some(30 * SECOND);
                inventory.faults.error_rate = 1.0;
                inventory.stack.timeout = Some(300 * MS);
                inventory.stack.retry = Some(RetryPolicy::reserve_stock());
                inventory.stack.sidecar = Some(SidecarConfig::lesson_000());
                c.run.seed = 3;
            }),
            Preset::NorthwindShared => northwind(HistoryBulkhead::Shared),
            Preset::NorthwindSeparate => northwind(separate_history()),
            Preset::NorthwindAsWrittenShared => northwind_resilience4j(
                HistoryBulkhead::Shared,
                Resilience4jStack::lesson_004_as_written(),
            ),
            Preset::NorthwindAsWrittenSeparate => northwind_resilience4j(
                separate_history(),
                Resilience4jStack::lesson_004_as_written(),
            ),
            Preset::NorthwindAsMeantShared => northwind_resilience4j(
                HistoryBulkhead::Shared,
                Resilience4jStack::lesson_004_as_meant(),
            ),
            Preset::NorthwindAsMeantSeparate => {
                northwind_resilience4j(separate_history(), Resilience4jStack::lesson_004_as_meant())
            }
            Preset::RetryStorm => retry_storm(),
            Preset::RetryHerd => retry_herd(),
            Preset::RetryHerdContention => retry_herd_contention(),
            Preset::SaturdayStorm => with(saturday(), |c| {
                c.traffic.duration = 120 * SECOND;
                c.first_mut().capacity = Some(capacity(4, false));
            }),
            Preset::Ex3RetryLayersCapacity => with(Preset::Ex3RetryLayers.config(), |c| {
                c.traffic.duration = 60 * SECOND;
                c.first_mut().capacity = Some(capacity(8, false));
            }),
            Preset::StoryNone => story(None),
            Preset::StoryBulkhead => story(Some(BulkheadConfig::cascade_sim())),
            Preset::StoryAdaptiveLimit => with(story(None), |c| {
                c.first_stack_mut().rooms.adaptive_limit = Some(AdaptiveLimitConfig::saturday());
            }),
            Preset::StoryResend => with(Scenario::None.config(), |c| {
                c.service.threads = 1_000;
                c.traffic.client_give_up = Some(3 * SECOND);
                c.traffic.frontend_retries = 2;
                c.service.idempotency = Some(OrdersIdempotency {
                    key: false,
                    store: IdempotencyConfig::lesson_000(),
                });
            }),
            Preset::ZooGcSpiral => with(SimConfig::default(), |c| {
                c.traffic.arrivals = Arrivals::Poisson;
                c.traffic.duration = 60 * SECOND;
                c.traffic.client_give_up = Some(2 * SECOND);
                c.service.threads = 16;
                c.service.gc = Some(GcConfig::spiral());
                let inventory = c.first_mut();
                inventory.faults.slow = SECOND;
                inventory.faults.recover_at = Some(5 * SECOND);
                c.run.drain = false;
                c.run.seed = 1;
            }),
            Preset::ZooColdCache => with(zoo_retrying(), |c| {
                c.first_mut().capacity = Some(CapacityConfig {
                    cache: Some(CacheConfig::zoo()),
                    ..capacity(2, false)
                });
            }),
            Preset::ZooLbSinkhole => with(zoo_retrying(), |c| {
                let inventory = c.first_mut();
                inventory.faults.fast = 200 * MS;
                inventory.hosts = Some(HostsConfig::zoo());
            }),
            Preset::ZooFifoOverload => zoo_fifo_overload(),
            Preset::ZooOpenLoop => with(retry_storm(), |c| {
                c.traffic.arrivals = Arrivals::Poisson;
                c.run.drain = false;
                c.run.seed = 1;
            }),
            Preset::CbLikeTable => with(Scenario::Cb.config(), |c| {
                c.first_stack_mut().breaker = Some(BreakerConfig {
                    window: Window::Time(SECOND),
                    ..BreakerConfig::cascade_sim()
                });
            }),
        }
    }
}

/// `config` changed by `edit`: how one preset is written as another with a few differences.
fn with(mut config: SimConfig, edit: impl FnOnce(&mut SimConfig)) -> SimConfig {
    edit(&mut config);
    config
}

/// A dependency's capacity of `slots` calls at once, with an unbounded queue, keeping the work
/// of callers that left, and no hot items.
fn capacity(slots: u32, restart_at_recovery: bool) -> CapacityConfig {
    CapacityConfig {
        slots,
        queue: None,
        abandon: Abandon::Keep,
        restart_at_recovery,
        hot_items: None,
        cache: None,
    }
}

/// 100 orders/s into 200 workers; inventory serves 6 calls at once (40 ms each: 150 calls/s,
/// two thirds busy), slow (400 ms) from 3 s to 5 s; a 300 ms timeout and three attempts with
/// full jitter. Once the queue's wait passes the timeout every attempt times out, three
/// attempts offer 300 calls/s, and the abandoned work holds the slots: it never recovers.
fn retry_storm() -> SimConfig {
    with(SimConfig::default(), |c| {
        c.service.threads = 200;
        c.traffic.duration = 60 * SECOND;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = Some(3 * SECOND);
        inventory.faults.recover_at = Some(5 * SECOND);
        inventory.faults.slow = 400 * MS;
        inventory.stack.timeout = Some(300 * MS);
        inventory.stack.retry = Some(RetryPolicy::reserve_stock());
        inventory.capacity = Some(capacity(6, false));
        c.run.seed = 6;
    })
}

/// The ground of the cold cache and the sinkhole: 100 orders/s (Poisson) into 200 workers for
/// 60 s, not drained; inventory never slows; a 300 ms timeout and three attempts.
fn zoo_retrying() -> SimConfig {
    with(SimConfig::default(), |c| {
        c.traffic.arrivals = Arrivals::Poisson;
        c.traffic.duration = 60 * SECOND;
        c.service.threads = 200;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = None;
        inventory.stack.timeout = Some(300 * MS);
        inventory.stack.retry = Some(RetryPolicy::reserve_stock());
        c.run.drain = false;
        c.run.seed = 1;
    })
}

/// 200 orders/s (Poisson) into 10 workers, inventory 40 ms (250 requests/s at most), 150 ms
/// from 5 s to 7 s (about 67 a second); clients give up after 1 s and the front end sends again
/// at once, twice. The queue grown in those 2 s holds requests whose clients have left; served
/// oldest first, each is served after its client left, and their resends keep the queue long.
/// Stopped at 60 s.
fn zoo_fifo_overload() -> SimConfig {
    with(SimConfig::default(), |c| {
        c.traffic.rate = 200.0;
        c.traffic.arrivals = Arrivals::Poisson;
        c.traffic.duration = 60 * SECOND;
        c.traffic.client_give_up = Some(SECOND);
        c.traffic.frontend_retries = 2;
        c.service.threads = 10;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = Some(5 * SECOND);
        inventory.faults.recover_at = Some(7 * SECOND);
        inventory.faults.slow = 150 * MS;
        c.run.drain = false;
        c.run.seed = 1;
    })
}

/// The lesson's cascade (100 orders/s into 32 workers, inventory 40 ms -> 4 s at 3 s) with 25
/// order lookups a second beside the orders: `GET /orders/{id}` reads orders' own database in
/// 10 ms, so it needs a worker but never inventory, and passes no bulkhead. The run stops at
/// 12 s: what is still queued or running then is a client still waiting (`unfinished`).
/// `bulkhead` guards the inventory call and nothing else.
fn story(bulkhead: Option<BulkheadConfig>) -> SimConfig {
    with(Scenario::None.config(), |c| {
        c.traffic.rate = 125.0;
        c.routes.history_share = 0.2;
        c.routes.history_latency = 10 * MS;
        c.routes.history_bulkhead = HistoryBulkhead::None;
        c.run.drain = false;
        c.first_stack_mut().bulkhead = bulkhead;
    })
}

/// 200 orders/s into 1000 workers; inventory serves 10 calls at once at 40 ms (250 calls/s),
/// hangs (5 s a call) from 3 s and restarts at 4 s; a 1 s timeout and four attempts from 500
/// ms, without jitter (`--set jitter=full` puts it back).
fn retry_herd() -> SimConfig {
    with(SimConfig::default(), |c| {
        c.traffic.rate = 200.0;
        c.service.threads = 1_000;
        c.traffic.duration = 30 * SECOND;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = Some(3 * SECOND);
        inventory.faults.recover_at = Some(4 * SECOND);
        inventory.faults.slow = 5 * SECOND;
        inventory.stack.timeout = Some(SECOND);
        inventory.stack.retry = Some(RetryPolicy {
            attempts: 4,
            base: 500 * MS,
            cap: 2 * SECOND,
            jitter: crate::resilience::Jitter::None,
        });
        inventory.capacity = Some(capacity(10, true));
        c.run.seed = 7;
    })
}

/// A sale: 200 orders/s, each reserving one of 20 hot items. Inventory's database serves up
/// to 1000 calls at once, each a 10 ms transaction with a version check on its item; it hangs
/// (5 s a call) from 3 s and restarts at 5 s, failing the ~400 calls it holds at once. A 2 s
/// timeout and eight attempts from 500 ms doubling to 2 s, without jitter (`--set
/// jitter=full` spreads the herd).
fn retry_herd_contention() -> SimConfig {
    with(retry_herd(), |c| {
        let inventory = c.first_mut();
        inventory.faults.fast = 10 * MS;
        inventory.faults.recover_at = Some(5 * SECOND);
        inventory.stack.timeout = Some(2 * SECOND);
        inventory.stack.retry = Some(RetryPolicy {
            attempts: 8,
            base: 500 * MS,
            cap: 2 * SECOND,
            jitter: crate::resilience::Jitter::None,
        });
        inventory.capacity = Some(CapacityConfig {
            hot_items: Some(20),
            ..capacity(1_000, true)
        });
    })
}

/// 10:11:50 in seconds after midnight: time 0 of the Saturday cascade.
const SATURDAY_CLOCK_START: u64 = 10 * 3_600 + 11 * 60 + 50;

/// Time 0 is 10:11:50; inventory degrades at 10:12:00 and fails over at 10:12:30.
fn saturday() -> SimConfig {
    with(SimConfig::default(), |c| {
        // 100 POST /orders per second, plus 25 GET /catalog (a fifth of 125).
        c.traffic.rate = 125.0;
        c.routes.catalog_share = 0.2;
        c.routes.catalog_latency = 20 * MS;
        c.service.threads = 96;
        c.traffic.duration = 60 * SECOND;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = Some(10 * SECOND);
        inventory.faults.recover_at = Some(40 * SECOND);
        inventory.faults.fast = 40 * MS;
        inventory.faults.slow = 4 * SECOND;
        c.gateway = Some(GatewayConfig::new(200, Some(60 * SECOND)));
        // Anna gives up after 5 s; the front end retries twice, 1 s apart.
        c.traffic.client_give_up = Some(5 * SECOND);
        c.traffic.frontend_retries = 2;
        c.traffic.frontend_backoff = SECOND;
        c.run.seed = 4;
    })
}

/// Lesson 004's flash sale: 200 Tomcat workers, 100 requests/s of which a fifth are
/// order-history lookups (20 ms), inventory 80 ms -> 8 s at 10 s; time limiter 2 s, 3 attempts
/// 200 ms doubling, a count window of 20 at 50%, 30 s open, 5 half-open calls,
/// inventoryReservation bulkhead 20 / 100 ms, fallback PendingRetryAsync.
fn northwind(history: HistoryBulkhead) -> SimConfig {
    with(SimConfig::default(), |c| {
        c.traffic.rate = 100.0;
        c.service.threads = 200;
        c.traffic.duration = 60 * SECOND;
        let inventory = c.first_mut();
        inventory.faults.degrade_at = Some(10 * SECOND);
        inventory.faults.fast = 80 * MS;
        inventory.faults.slow = 8 * SECOND;
        inventory.stack.timeout = Some(2 * SECOND);
        inventory.stack.retry = Some(RetryPolicy::northwind());
        inventory.stack.breaker = Some(BreakerConfig::northwind());
        inventory.stack.bulkhead = Some(BulkheadConfig::northwind());
        c.routes.history_share = 0.2;
        c.routes.history_latency = 20 * MS;
        c.routes.history_bulkhead = history;
        c.service.fallback = Some(FallbackPolicy::northwind_reserve_stock());
        c.run.seed = 5;
    })
}

fn separate_history() -> HistoryBulkhead {
    HistoryBulkhead::Own(BulkheadConfig::northwind_order_history())
}

/// The Northwind incident through Resilience4j's stack: the lesson's values, its half-open
/// rule, its slow-call defaults (60 s at 100%: inert behind a 2 s time limiter) and `settings`.
fn northwind_resilience4j(history: HistoryBulkhead, settings: Resilience4jStack) -> SimConfig {
    with(northwind(history), |c| {
        let stack = c.first_stack_mut();
        stack.breaker = Some(BreakerConfig {
            slow_call_threshold: Some(60 * SECOND),
            half_open_rule: HalfOpenRule::RateOverPermitted,
            ..BreakerConfig::northwind()
        });
        stack.profile = Profile::Resilience4j(settings);
    })
}

#[cfg(test)]
#[path = "scenario_tests.rs"]
mod tests;
