//! Lesson 000 as steps: Kilometre Zero's cascade, then one pattern at a time.

use super::predict::{Answer, Choice, Claim, Measure, Question};
use super::{Rule, Step, View};

/// The steps of the Kilometre Zero lesson.
pub const STEPS: &[Step] = &[
    Step {
        name: "slow-inventory",
        title: "A slow inventory, and nothing in the way",
        text: &[
            "orders has a fixed number of workers. Every order asks inventory to reserve the \
             stock, and the worker waits for the answer. Beside the orders come order lookups: \
             a customer checking an order, which orders reads from its own database in 10 ms \
             without asking inventory anything. At 3 s inventory's disk goes bad: an answer \
             that took 40 ms now takes 4 s.",
            "Nothing limits the wait, so the workers are soon all stuck on inventory and \
             everything queues behind them, the lookups too. Nobody fails; everybody waits. \
             The run stops at 12 s with those clients still waiting.",
        ],
        settings: &[("preset", "story-none"), ("trace", "stuck-lookup")],
        play_to: 12.0,
        knob: Some("threads"),
        views: &[View::Topology, View::Load],
        notice: &[
            Rule::WorkersFull,
            Rule::QueuePeak,
            Rule::StillWaiting,
            Rule::LookupsAnswered,
        ],
        question: Some(Question {
            prompt: "Inventory's answers go from 40 ms to 4 s at 3 s, and nothing limits the \
                     wait. By 12 s, how long is the queue in front of orders' workers?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Short, under 50 requests: the workers keep up",
                    holds: Claim::queue(None, Some(50.0)),
                    hint: "32 workers at 4 s a call finish 8 requests a second while 125 \
                           arrive; the difference piles up every second.",
                },
                Choice {
                    text: "A few hundred, between 50 and 500",
                    holds: Claim::queue(Some(50.0), Some(500.0)),
                    hint: "about 117 more arrive than finish every second, for 9 seconds.",
                },
                Choice {
                    text: "More than 500",
                    holds: Claim::queue(Some(500.0), None),
                    hint: "count what arrives against what 32 workers finish at 4 s a call.",
                },
            ]),
        }),
    },
    Step {
        name: "capacity",
        title: "Capacity is workers divided by time per call",
        text: &[
            "Kilometre Zero runs 3 replicas of 32 threads: 96 workers. While each call takes \
             4 s, 96 workers can finish 96 / 4 = 24 orders a second, and 100 keep arriving.",
            "The difference does not vanish: it piles up in front of the workers, every second \
             the slowdown lasts.",
        ],
        settings: &[("preset", "none"), ("threads", "96")],
        play_to: 12.0,
        knob: Some("threads"),
        views: &[View::Load, View::Topology],
        notice: &[
            Rule::Throughput {
                from: 8.0,
                to: 12.0,
            },
            Rule::WorkersFull,
            Rule::QueuePeak,
        ],
        question: Some(Question {
            prompt: "96 workers finish 24 requests a second while each call takes 4 s, and \
                     100 arrive every second. By 12 s, how many requests wait in front of the \
                     workers?",
            answer: Answer::Number {
                measure: Measure::QueuePeak,
                unit: "requests",
                tolerance: 0.25,
                hint: "from about 4 s, when the last worker is taken, 100 arrive and 24 finish \
                       every second: 76 more wait each second, for 8 seconds.",
            },
        }),
    },
    Step {
        name: "pool-runs-dry",
        title: "Kong's pool runs dry, and /catalog goes down with orders",
        text: &[
            "On the Saturday the waiting spreads one hop further out. Kong keeps a connection \
             open for each request until orders answers it, and its pool has 200. Once they are \
             all held by stuck orders, Kong refuses everything with a 503.",
            "GET /catalog does not touch inventory at all, but it shares Kong's pool, so it \
             fails too. The failover at 40 s comes too late to help at once: the queues are \
             full of work whose clients have gone.",
        ],
        settings: &[("preset", "saturday")],
        play_to: 35.0,
        knob: Some("threads"),
        views: &[View::Topology, View::Load],
        notice: &[Rule::GatewayFull, Rule::CatalogAnswered, Rule::WorkersFull],
        question: None,
    },
    Step {
        name: "timeout",
        title: "A timeout gives the worker back",
        text: &[
            "A timeout of 300 ms, a few times inventory's normal p99, caps what one call can \
             cost. The worker is free again after 300 ms whatever inventory does, so 32 \
             workers keep up with 100 orders a second and nothing queues.",
            "The price: every call after 3 s fails, after 300 ms of useless waiting, and \
             inventory still receives the full load while it tries to recover.",
            "Run B beside it is the same run, on the same seed, without the timeout.",
        ],
        settings: &[("preset", "timeout"), ("ab", "patterns=none")],
        play_to: 12.0,
        knob: Some("timeout"),
        views: &[View::Latency],
        notice: &[Rule::Outcomes, Rule::QueuePeak, Rule::InventoryLoad],
        question: Some(Question {
            prompt: "Now each call to inventory gives up after 300 ms. By 12 s, what share of \
                     the requests that arrived has been answered ok?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Nearly all, 90% or more: the workers keep up now",
                    holds: Claim::ok_share(Some(90.0), None),
                    hint: "the workers keep up, but from 3 s every call to inventory gives up \
                           after 300 ms, and that order fails.",
                },
                Choice {
                    text: "About half",
                    holds: Claim::ok_share(Some(40.0), Some(90.0)),
                    hint: "inventory answers nothing within 300 ms after 3 s, and the run \
                           lasts 12 s.",
                },
                Choice {
                    text: "Under 40%",
                    holds: Claim::ok_share(None, Some(40.0)),
                    hint: "inventory answers nothing within 300 ms after 3 s, and the run \
                           lasts 12 s.",
                },
            ]),
        }),
    },
    Step {
        name: "deadline",
        title: "One budget for the whole request, passed down",
        text: &[
            "POST /orders promises an answer within 500 ms. That promise is a budget: each call \
             inside the request spends from it, and the next one only gets what is left. A \
             retry that cannot finish in the remainder is not started.",
            "The same deadline travels with the call (a gRPC deadline, or a header holding the \
             instant), so inventory can stop working on an answer nobody will read.",
        ],
        settings: &[("preset", "ex1-budget")],
        play_to: 12.0,
        knob: Some("attempts"),
        views: &[View::Latency, View::Topology],
        notice: &[Rule::WorstCase, Rule::LongestService, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "retries-multiply",
        title: "Retries multiply the load",
        text: &[
            "Retrying a failed call is the obvious reflex. Against a dependency that is slow for \
             everyone, each retry is one more call of full cost. Here orders has all 96 workers \
             of its three replicas, enough to keep retrying: three attempts of 300 ms put \
             nearly three calls on inventory for every order that arrives.",
            "Inventory gets no rest, and the workers, each held for most of a second per \
             order, start to fall behind again.",
        ],
        settings: &[
            ("preset", "timeout"),
            ("patterns", "timeout,retries"),
            ("attempts", "3"),
            ("threads", "96"),
        ],
        play_to: 12.0,
        knob: Some("attempts"),
        views: &[View::Load, View::Topology],
        notice: &[Rule::InventoryLoad, Rule::Retries, Rule::QueuePeak],
        question: Some(Question {
            prompt: "Each failed call is tried again, three attempts in all, and orders has 96 \
                     workers for 100 orders a second. By 12 s, does a queue form in front of \
                     them?",
            answer: Answer::Choices(&[
                Choice {
                    text: "No: under 20 requests wait",
                    holds: Claim::queue(None, Some(20.0)),
                    hint: "an order now holds its worker for up to three attempts of 300 ms and \
                           the waits between them.",
                },
                Choice {
                    text: "Yes: 20 or more wait",
                    holds: Claim::queue(Some(20.0), None),
                    hint: "an order now holds its worker for up to three attempts of 300 ms and \
                           the waits between them.",
                },
            ]),
        }),
    },
    Step {
        name: "jitter-and-budget",
        title: "Jitter spreads retries, a budget caps them",
        text: &[
            "Two rules make retries safe. Jitter: wait a random time, up to a growing cap, so \
             clients that failed together do not come back together. A retry budget: retries \
             may add only a small share (here 10%) to the normal calls, however bad things get.",
            "The same 96 workers as the step before. Compare the calls reaching inventory: the \
             budget is spent in the first moments of the slowdown, then almost every failure \
             is final.",
        ],
        settings: &[
            ("preset", "timeout"),
            ("patterns", "timeout,retries,retry_budget"),
            ("attempts", "3"),
            ("jitter", "full"),
            ("threads", "96"),
        ],
        play_to: 12.0,
        knob: Some("retry_budget_ratio"),
        views: &[View::Load, View::Topology],
        notice: &[Rule::InventoryLoad, Rule::Retries, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "herd-on-hot-items",
        title: "Without jitter, a herd comes back in waves",
        text: &[
            "Jitter matters most where callers collide. At a sale, 200 orders a second each \
             reserve one of 20 hot items, and inventory checks every write against the item's \
             version: of two calls on the same item, the first to commit wins and the other \
             is refused, its work wasted, and retried.",
            "Inventory hangs from 3 s and restarts at 5 s, failing the 400 or so calls it \
             held. Every client waits the same 500 ms, 1 s, then 2 s before trying again, so \
             they come back at the same instant, collide on the 20 items, and come back \
             together once more: a wave at each back-off. Set jitter to full and the same \
             herd spreads out and gets through.",
        ],
        settings: &[("preset", "retry-herd-contention")],
        play_to: 18.0,
        knob: Some("jitter"),
        views: &[View::Load, View::Topology],
        notice: &[Rule::Conflicts, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "circuit-breaker",
        title: "The circuit breaker stops calling",
        text: &[
            "A breaker counts the recent results of the call. When too many fail, it opens: \
             calls fail at once without reaching inventory. After a cool-down it lets a few \
             probes through, and closes again only if they succeed.",
            "orders stops wasting 300 ms per request, and inventory gets a break in which it \
             can recover.",
        ],
        settings: &[("preset", "cb"), ("trace", "refused-by-breaker")],
        play_to: 12.0,
        knob: Some("cooldown"),
        views: &[View::Diagram, View::Load],
        notice: &[Rule::BreakerOpens, Rule::BreakerCycle, Rule::Outcomes],
        question: Some(Question {
            prompt: "The breaker opens once half of the calls in its 10 s window have failed \
                     (20 calls at least). Inventory slows at 3 s: when does the breaker first \
                     open?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Within a second, before 4 s",
                    holds: Claim::first_opening(None, Some(4.0)),
                    hint: "the window holds the last 10 s of calls, and the healthy ones from \
                           before 3 s keep the failures under half for a while.",
                },
                Choice {
                    text: "Between 4 s and 9 s",
                    holds: Claim::first_opening(Some(4.0), Some(9.0)),
                    hint: "the failures from 3 s on outnumber the healthy calls still in the \
                           window sooner than that.",
                },
                Choice {
                    text: "After 9 s, or not at all by 12 s",
                    holds: Claim::first_opening(Some(9.0), None),
                    hint: "the failures from 3 s on outnumber the healthy calls still in the \
                           window sooner than that.",
                },
            ]),
        }),
    },
    Step {
        name: "breaker-window",
        title: "Why the printed table's breaker opens almost at once: the window",
        text: &[
            "The lesson's table shows the breaker opening almost as soon as the failures start. \
             Its code keeps 10 s of results, though: the 3 healthy seconds leave about 300 \
             successes in the window, and the ratio reaches 50% only once as many failures have \
             joined them.",
            "This run is the same with a 1 s window, as the printed table behaves: the old \
             successes leave within a second, and the breaker trips a few tenths of a second \
             after the first timeout, with timeouts and refusals close to the printed figures. \
             Run B beside it keeps the code's 10 s window, on the same seed: compare when \
             each opens.",
        ],
        settings: &[("preset", "cb-like-table"), ("ab", "window=10")],
        play_to: 5.0,
        knob: Some("window"),
        views: &[View::Diagram],
        notice: &[Rule::BreakerOpens, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "bulkhead",
        title: "A bulkhead keeps workers for other work",
        text: &[
            "A bulkhead is a small, separate allowance for one dependency: here 8 permits for \
             inventory, a permit being needed to call it. A request that cannot get one within \
             50 ms fails fast instead of joining the wait.",
            "This is the first step's run with a bulkhead and nothing else. Inventory still \
             answers in 4 s, but it can hold only 8 workers; the rest stay free for the work \
             that does not need inventory, such as the order lookups.",
            "Run B beside it is the same run, on the same seed, without the bulkhead.",
        ],
        settings: &[("preset", "story-bulkhead"), ("ab", "patterns=none")],
        play_to: 12.0,
        knob: Some("permits"),
        views: &[View::Topology, View::Load],
        notice: &[Rule::LookupsSaved, Rule::BulkheadCap, Rule::QueuePeak],
        question: Some(Question {
            prompt: "A bulkhead of 8 guards the calls to inventory, and nothing else. What \
                     share of the order lookups, which never call inventory, is answered by \
                     12 s?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Nearly all, 90% or more",
                    holds: Claim::lookups(Some(90.0), None),
                    hint: "at most 8 workers can wait on inventory; the other 24 are free for \
                           the lookups.",
                },
                Choice {
                    text: "Some, between 20% and 90%",
                    holds: Claim::lookups(Some(20.0), Some(90.0)),
                    hint: "at most 8 workers can wait on inventory; the other 24 are free for \
                           the lookups.",
                },
                Choice {
                    text: "Hardly any, under 20%",
                    holds: Claim::lookups(None, Some(20.0)),
                    hint: "at most 8 workers can wait on inventory; the other 24 are free for \
                           the lookups.",
                },
            ]),
        }),
    },
    Step {
        name: "load-shedding",
        title: "Shedding load, lowest priority first",
        text: &[
            "When more arrives than can be done, queueing only makes every answer late. Load \
             shedding refuses early, with a 503 and a Retry-After, once too many requests are \
             in orders.",
            "The limit depends on the request's priority: low-priority work (reports, probes) \
             is refused from 30 in flight, normal from 60, and a customer's order only from \
             90, so the orders that matter most still get in.",
        ],
        settings: &[
            ("preset", "none"),
            ("threads", "96"),
            ("patterns", "load_shed"),
            ("priority_low", "0.2"),
            ("priority_high", "0.3"),
        ],
        play_to: 12.0,
        knob: Some("shed_normal"),
        views: &[View::Topology, View::Load],
        notice: &[Rule::Shed, Rule::QueuePeak, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "rate-limit",
        title: "A rate limit caps what comes in, not what orders can do",
        text: &[
            "A rate limit lets a fixed number of requests through the door each second, \
             whatever is happening behind it: here 80 a second, against the 100 that arrive. \
             A request without a token gets a 429 at once, with a Retry-After saying when to \
             come back, and the browser waits that long before it sends it again.",
            "Here inventory slows to 4 s from 3 s on, and browsers give up after 3 s and send \
             again, twice. The limit refuses orders from the first seconds, while orders was \
             healthy, and the resends come back on top of new arrivals. It protects a service \
             from a client that sends too much; it cannot see trouble behind the door, as \
             shedding does. Try it: raise the limit.",
        ],
        settings: &[
            ("preset", "story-resend"),
            ("patterns", "rate_limit"),
            ("rate_limit", "80"),
        ],
        play_to: 20.0,
        knob: Some("rate_limit"),
        views: &[View::Load],
        notice: &[Rule::RateLimit, Rule::Outcomes],
        question: None,
    },
    Step {
        name: "hedging",
        title: "Hedging is for a slow tail, not for a sick dependency",
        text: &[
            "A hedged call sends a second copy when the first has not answered by the usual \
             p95, and keeps whichever answer comes first. When a few calls are slow by bad \
             luck, it trims the tail for about 5% more load. Only for calls that are safe to \
             repeat: reads, or writes with an idempotency key.",
            "Here inventory is slow for everyone: the copies are as slow as the originals.",
        ],
        settings: &[("preset", "timeout"), ("patterns", "timeout,hedge")],
        play_to: 12.0,
        knob: Some("max_hedges"),
        views: &[View::Load, View::Latency],
        notice: &[Rule::Hedges, Rule::InventoryLoad],
        question: None,
    },
    Step {
        name: "idempotency-keys",
        title: "Idempotency keys make a resend safe",
        text: &[
            "After a timeout Anna's browser cannot tell whether her order was created. If it \
             sends the order again, the second copy creates a second order, unless both copies \
             carry the same idempotency key and orders answers the second with the first \
             one's result.",
            "Here the browser gives up after 3 s and resends, twice. Run A's copies carry no \
             key; run B beside it is the same run with one. Try it: give run A's copies a key.",
        ],
        settings: &[("preset", "story-resend"), ("ab", "idempotency_key=on")],
        play_to: 20.0,
        knob: Some("idempotency_key"),
        views: &[View::Load],
        notice: &[Rule::Duplicates, Rule::StaleWork],
        question: None,
    },
    Step {
        name: "retry-in-one-layer",
        title: "Retry in one layer only",
        text: &[
            "Inventory is down for 30 s. The front end tries 3 times, the library 3 times for \
             each of those, and the Envoy sidecar 3 times for each library attempt: one order \
             becomes up to 27 calls against a service that is trying to come back.",
            "Pick one layer to retry, the one that knows what is safe to repeat, and let the \
             others pass failures on. The control below sets the library's attempts: at 1 the \
             library no longer retries, and a third of the calls are left. Timeouts, though, \
             belong in every layer.",
        ],
        settings: &[("preset", "ex3-retry-layers")],
        play_to: 10.0,
        knob: Some("attempts"),
        views: &[View::Load],
        notice: &[Rule::InventoryLoad, Rule::Retries],
        question: None,
    },
];
