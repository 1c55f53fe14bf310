//! The words a student reads: each outcome in plain words (its JSON key stays in a tooltip),
//! and the terms a lesson or the playground uses before explaining them, each with a short
//! definition. One table for the lessons and the playground.

use crate::sim::trace::Outcome;

/// An outcome as a student reads it on a counter or in a sentence.
pub fn outcome_words(outcome: Outcome) -> &'static str {
    super::outcome_look::look(outcome).words
}

/// One term and what it means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Term {
    /// The term as it is written in a text (matched whole, case-sensitively).
    pub term: &'static str,
    /// A sentence or two saying what it means.
    pub meaning: &'static str,
}

/// Terms defined where a student first meets them (longest first where one holds another).
pub const TERMS: &[Term] = &[
    Term {
        term: "client_gave_up",
        meaning: "The client stopped waiting before any answer came. orders may still be \
                  working on the request, for nobody.",
    },
    Term {
        term: "gateway_rejected",
        meaning: "Kong answered 503 at once: every connection of its pool to orders was in use.",
    },
    Term {
        term: "dependency_error",
        meaning: "Inventory answered with an error (not slowly): a transient failure.",
    },
    Term {
        term: "circuit_open",
        meaning: "The circuit breaker refused the call without trying inventory.",
    },
    Term {
        term: "bulkhead_full",
        meaning: "No bulkhead permit came free within the wait allowed, so the call was \
                  refused at once.",
    },
    Term {
        term: "goodput",
        meaning: "The answers somebody still waited for. Throughput counts all work done; \
                  goodput leaves out the work whose caller had already gone.",
    },
    Term {
        term: "throughput",
        meaning: "Work finished per second, whether anyone still wanted it or not.",
    },
    Term {
        term: "p50",
        meaning: "The median: half of the requests took this long or less.",
    },
    Term {
        term: "p95",
        meaning: "95% of the requests took this long or less; 1 in 20 took longer.",
    },
    Term {
        term: "p99",
        meaning: "99% of the requests took this long or less; 1 in 100 took longer.",
    },
    Term {
        term: "the library",
        meaning: "The resilience library inside orders (Resilience4j, Polly, tenacity...) that \
                  wraps each call to inventory with retries, a timeout and a breaker.",
    },
    Term {
        term: "PendingRetryAsync",
        meaning: "The checkout team's fallback: the order is accepted as provisional, and a \
                  job confirms or cancels it once inventory answers again.",
    },
    Term {
        term: "half-open",
        meaning: "The breaker's trial state after its cool-down: it lets a few probe calls \
                  through, closes if they succeed and opens again if one fails.",
    },
    Term {
        term: "probes",
        meaning: "The few calls a half-open breaker lets through to test whether inventory \
                  has recovered.",
    },
    Term {
        term: "cool-down",
        meaning: "How long an open breaker refuses every call before it tries probes.",
    },
    Term {
        term: "jitter",
        meaning: "A random part of each wait before a retry, so that clients who failed \
                  together do not come back together.",
    },
    Term {
        term: "retry",
        meaning: "Sending a call again after it failed or took too long, hoping the next \
                  attempt succeeds.",
    },
    Term {
        term: "back-off",
        meaning: "The wait before a retry, usually growing with each attempt (500 ms, 1 s, \
                  2 s...).",
    },
    Term {
        term: "idempotency key",
        meaning: "A unique id the client sends with a request, so that the server can \
                  recognise a resend and answer it with the first result instead of doing \
                  the work twice.",
    },
    Term {
        term: "503",
        meaning: "HTTP's \"service unavailable\": the server refuses the request without \
                  doing it.",
    },
    Term {
        term: "Retry-After",
        meaning: "A response header telling the client how long to wait before it tries \
                  again.",
    },
    Term {
        term: "printed table",
        meaning: "The table of results that lesson 000 prints after its code: the figures \
                  the lesson says its four scenarios give.",
    },
    Term {
        term: "sidecar",
        meaning: "A proxy (here Envoy) running beside each service, which can retry calls \
                  on its own.",
    },
];

/// What `term` means, if the glossary has it.
pub fn meaning(term: &str) -> Option<&'static str> {
    TERMS.iter().find(|t| t.term == term).map(|t| t.meaning)
}

/// A piece of a text: plain, or a term the glossary defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece<'a> {
    /// Text as it is.
    Plain(&'a str),
    /// A defined term, with its meaning.
    Term(&'a str, &'static str),
}

/// `text` cut into pieces, each glossary term marked at its first appearance not already
/// in `seen` (terms marked are added to it), so a term is defined once per step. A term
/// matches only as a whole word.
pub fn mark_terms<'a>(text: &'a str, seen: &mut Vec<&'static str>) -> Vec<Piece<'a>> {
    let mut found: Vec<(usize, &'static Term)> = Vec::new();
    for term in TERMS {
        if seen.contains(&term.term) {
            continue;
        }
        if let Some(at) = find_word(text, term.term) {
            found.push((at, term));
        }
    }
    crate::sort::by_key(&mut found, |&(at, t)| (at, usize::MAX - t.term.len()));
    let mut pieces = Vec::new();
    let mut from = 0;
    for (at, term) in found {
        if at < from {
            continue; // inside a longer term already marked
        }
        if at > from {
            pieces.push(Piece::Plain(&text[from..at]));
        }
        let end = at + term.term.len();
        pieces.push(Piece::Term(&text[at..end], term.meaning));
        seen.push(term.term);
        from = end;
    }
    if from < text.len() {
        pieces.push(Piece::Plain(&text[from..]));
    }
    pieces
}

/// The first place `word` stands in `text` as a whole word.
pub fn find_word(text: &str, word: &str) -> Option<usize> {
    // `Retry-After` holds no `retry`: a dash joins words.
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).map(|(i, _)| i).find(|&i| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_term_is_marked_once_and_only_as_a_whole_word() {
        let mut seen = Vec::new();
        let pieces = mark_terms("p99 is not p995; then p99 again, and goodput.", &mut seen);
        let terms: Vec<&str> = pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Term(t, _) => Some(*t),
                Piece::Plain(_) => None,
            })
            .collect();
        assert_eq!(terms, ["p99", "goodput"]);
        let joined: String = pieces
            .iter()
            .map(|p| match p {
                Piece::Plain(t) | Piece::Term(t, _) => *t,
            })
            .collect();
        assert_eq!(joined, "p99 is not p995; then p99 again, and goodput.");
        // Seen once, not marked again in the next paragraph.
        assert!(mark_terms("p99 and goodput", &mut seen)
            .iter()
            .all(|p| matches!(p, Piece::Plain(_))));
    }

    #[test]
    fn every_outcome_has_words_and_every_term_a_meaning() {
        for o in Outcome::ALL {
            assert!(!outcome_words(o).is_empty());
        }
        for (i, t) in TERMS.iter().enumerate() {
            assert!(t.meaning.ends_with('.'), "{}", t.term);
            assert!(
                TERMS[..i].iter().all(|u| u.term != t.term),
                "{} twice",
                t.term
            );
        }
    }
}
