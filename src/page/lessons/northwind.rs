//! Lesson 004 as steps: Northwind's flash sale, its bulkheads, its worst case and its fallback.

use super::predict::{Answer, Choice, Claim, Question};
use super::{Rule, Step, View};

/// The steps of the Northwind lesson.
pub const STEPS: &[Step] = &[
    Step {
        name: "the-incident",
        title: "The incident: slow, not down",
        text: &[
            "During a flash sale inventory-service's database picks a bad query plan: a \
             reservation takes 8 s instead of 80 ms, and still succeeds. order-service sets no \
             timeout on that call, and its 200 request threads are shared by every endpoint.",
            "A fifth of the traffic is customers looking up their order history, which never \
             touches inventory. Watch it wait all the same, behind the stuck reservations.",
        ],
        settings: &[("preset", "northwind-shared"), ("patterns", "none")],
        play_to: 40.0,
        knob: Some("threads"),
        views: &[View::Topology, View::Load],
        notice: &[Rule::WorkersFull, Rule::QueuePeak, Rule::Latency],
        question: Some(Question {
            prompt: "Inventory slows from 80 ms to 8 s at 10 s, and no pattern is on. Order \
                     history never calls inventory: what share of its lookups is answered by \
                     40 s?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Nearly all, 90% or more",
                    holds: Claim::lookups(Some(90.0), None),
                    hint: "the lookups need a Tomcat worker too, and the calls to inventory \
                           hold more and more of the 200.",
                },
                Choice {
                    text: "Between a third and 90%",
                    holds: Claim::lookups(Some(33.0), Some(90.0)),
                    hint: "before 10 s every lookup is answered, and a worker still comes free \
                           now and then after it.",
                },
                Choice {
                    text: "Under a third",
                    holds: Claim::lookups(None, Some(33.0)),
                    hint: "before 10 s every lookup is answered, and a worker still comes free \
                           now and then after it.",
                },
            ]),
        }),
    },
    Step {
        name: "shared-bulkhead",
        title: "One bulkhead shared by both calls",
        text: &[
            "Now the Resilience4j settings are on: a 2 s time limiter, 3 attempts, a breaker \
             over the last 20 calls, and a bulkhead of 20 concurrent calls. But here the \
             order-history lookup takes its permits from the same bulkhead.",
            "Reservations waiting on inventory take the permits, and order history is refused \
             whenever they are all held.",
        ],
        settings: &[("preset", "northwind-shared")],
        play_to: 20.0,
        knob: Some("permits"),
        views: &[View::Topology, View::Diagram],
        notice: &[Rule::HistoryAnswered, Rule::BulkheadCap, Rule::BreakerOpens],
        question: Some(Question {
            prompt: "With the Resilience4j settings on and one bulkhead of 20 shared by both \
                     calls, what share of the order-history lookups is answered by 20 s?",
            answer: Answer::Choices(&[
                Choice {
                    text: "Nearly all, 90% or more",
                    holds: Claim::lookups(Some(90.0), None),
                    hint: "reservations stuck on inventory hold the shared permits, and a \
                           lookup that finds none free is refused.",
                },
                Choice {
                    text: "Between a third and 90%",
                    holds: Claim::lookups(Some(33.0), Some(90.0)),
                    hint: "reservations stuck on inventory hold the shared permits, and a \
                           lookup that finds none free is refused.",
                },
                Choice {
                    text: "Under a third",
                    holds: Claim::lookups(None, Some(33.0)),
                    hint: "the time limiter gives up after 2 s, so permits come free again and \
                           some lookups get one.",
                },
            ]),
        }),
    },
    Step {
        name: "separate-bulkheads",
        title: "Separate bulkheads: the line that fixes the incident",
        text: &[
            "inventoryReservation and orderHistoryLookup each get their own 20 permits. However \
             badly inventory behaves, it can only use up its own; the lookups keep theirs.",
        ],
        settings: &[("preset", "northwind-separate")],
        play_to: 30.0,
        knob: Some("permits"),
        views: &[View::Topology, View::Load],
        notice: &[Rule::HistoryAnswered, Rule::BulkheadCap],
        question: None,
    },
    Step {
        name: "worst-case",
        title: "The worst case: timeout times attempts, plus the waits",
        text: &[
            "Each setting looks reasonable alone. Together, a 2 s limit on each of 3 attempts \
             with 200 ms and then 400 ms between them means a caller can wait more than 6 s \
             before it hears anything. Whoever calls order-service must accept that, or the \
             settings must shrink.",
            "This run follows the lesson's reading of the annotations. Resilience4j itself \
             nests them otherwise: its fallback sits on the breaker, inside the retry, so the \
             configuration as written answers after one attempt of 2 s and never retries. \
             Exercise 4 and the preset northwind-as-written-separate show that run.",
        ],
        settings: &[("preset", "northwind-separate")],
        play_to: 20.0,
        knob: Some("timeout"),
        views: &[View::Latency, View::Diagram],
        notice: &[Rule::WorstCase, Rule::LongestService, Rule::BreakerOpens],
        question: None,
    },
    Step {
        name: "fallback",
        title: "The fallback, and the job that must follow it",
        text: &[
            "When the retries give up, the breaker is open or the bulkhead is full, the order is \
             not failed: it is accepted as provisional (PendingRetryAsync), a decision the \
             checkout team made beforehand. The customer gets a fast, honest answer.",
            "A provisional order is a promise. Something must reconcile each one when inventory \
             answers again, confirm or cancel it, and flag those that stay provisional too long.",
        ],
        settings: &[("preset", "northwind-separate"), ("trace", "fell-back")],
        play_to: 60.0,
        knob: Some("cooldown"),
        views: &[View::Load, View::Diagram],
        notice: &[Rule::Fallback, Rule::BreakerCycle, Rule::Outcomes],
        question: None,
    },
];
