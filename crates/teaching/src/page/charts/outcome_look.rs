//! How each outcome looks to a student, one row per outcome: its words on a counter and in a
//! sentence, the pattern of its bars, its colour. A new plain outcome is one row here (and its
//! name in the trace, and the sentence a followed request tells of it); a layer's refusal
//! brings its own words and sentence, and takes the pattern and colour of its slot.

use super::hatch::Hatch;
use crate::sim::trace::{LayerRefusal, Outcome};

/// An outcome's look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutcomeLook {
    /// The outcome.
    pub outcome: Outcome,
    /// In plain words (its JSON key stays in a tooltip).
    pub words: &'static str,
    /// The pattern of its bars. The outcomes a run usually shows together (ok, timed out,
    /// refused by the breaker or the bulkhead, shed, over budget, rate limited) each have a
    /// pattern of their own; the rarer ones share, and the legend's order tells them apart.
    pub hatch: Hatch,
    /// Its colour, red, green and blue: Okabe-Ito's eight (safe for colour-blind readers),
    /// then darker and lighter shades of its hues, told apart by the legend's order as much
    /// as by colour. The same as the CSS variables in `static/style.css`.
    pub rgb: (u8, u8, u8),
}

const fn row(
    outcome: Outcome,
    words: &'static str,
    hatch: Hatch,
    rgb: (u8, u8, u8),
) -> OutcomeLook {
    OutcomeLook {
        outcome,
        words,
        hatch,
        rgb,
    }
}

/// The plain outcomes' looks, in [`Outcome::PLAIN`]'s order.
const LOOKS: [OutcomeLook; Outcome::PLAIN.len()] = [
    row(
        Outcome::BudgetExhausted,
        "out of time budget",
        Hatch::Cross,
        (0, 114, 178),
    ),
    row(
        Outcome::BulkheadFull,
        "refused by the full bulkhead",
        Hatch::Horizontal,
        (230, 159, 0),
    ),
    row(
        Outcome::BusinessRejected,
        "out of stock (a valid answer)",
        Hatch::Dotted,
        (240, 228, 66),
    ),
    row(
        Outcome::CircuitOpen,
        "refused by the open breaker",
        Hatch::Falling,
        (204, 121, 167),
    ),
    row(
        Outcome::ClientGaveUp,
        "client gave up",
        Hatch::Vertical,
        (160, 160, 160),
    ),
    row(
        Outcome::DependencyError,
        "inventory error",
        Hatch::Cross,
        (120, 70, 30),
    ),
    row(
        Outcome::Fallback,
        "accepted provisionally (fallback)",
        Hatch::Solid,
        (160, 140, 220),
    ),
    row(
        Outcome::GatewayRejected,
        "refused by Kong (503)",
        Hatch::Horizontal,
        (0, 60, 110),
    ),
    row(
        Outcome::GatewayTimeout,
        "Kong timed out (504)",
        Hatch::Rising,
        (140, 50, 0),
    ),
    row(Outcome::Ok, "ok", Hatch::Solid, (0, 158, 115)),
    row(
        Outcome::RateLimited,
        "refused by the rate limit (429)",
        Hatch::Dotted,
        (0, 90, 90),
    ),
    row(
        Outcome::Shed,
        "shed at the door",
        Hatch::Vertical,
        (86, 180, 233),
    ),
    row(Outcome::Timeout, "timed out", Hatch::Rising, (213, 94, 0)),
    row(
        Outcome::Unfinished,
        "unfinished",
        Hatch::Dotted,
        (95, 95, 95),
    ),
];

/// The pattern of an outcome's bars.
pub fn outcome_hatch(outcome: Outcome) -> Hatch {
    look(outcome).hatch
}

/// The pattern and colour of a layer's refusal, by its slot: the first is the adaptive
/// limit's; its words are the refusal's own.
const REFUSAL_LOOKS: [(Hatch, (u8, u8, u8)); LayerRefusal::ROOM] = [
    (Hatch::Vertical, (110, 60, 130)),
    (Hatch::Falling, (60, 120, 60)),
    (Hatch::Rising, (170, 60, 90)),
    (Hatch::Cross, (70, 70, 160)),
];

/// The look of `outcome`.
pub fn look(outcome: Outcome) -> OutcomeLook {
    match outcome {
        Outcome::Refused(refusal) => {
            let facts = refusal.facts();
            let (hatch, rgb) = REFUSAL_LOOKS[facts.slot];
            row(outcome, facts.words, hatch, rgb)
        }
        plain => {
            let at = Outcome::PLAIN.iter().position(|o| *o == plain);
            LOOKS[at.unwrap_or_default()]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_has_its_own_row_with_words_and_a_colour_of_its_own() {
        let mut colours = Vec::new();
        for (i, outcome) in Outcome::PLAIN.into_iter().enumerate() {
            assert_eq!(LOOKS[i].outcome, outcome, "LOOKS is in PLAIN's order");
        }
        for outcome in Outcome::ALL {
            assert_eq!(look(outcome).outcome, outcome);
            assert!(!look(outcome).words.is_empty());
            colours.push(look(outcome).rgb);
        }
        colours.sort_unstable();
        colours.dedup();
        assert_eq!(
            colours.len(),
            Outcome::ALL.len(),
            "no two outcomes share a colour"
        );
        let mut every_slot: Vec<_> = LOOKS.iter().map(|l| l.rgb).collect();
        every_slot.extend(REFUSAL_LOOKS.iter().map(|&(_, rgb)| rgb));
        every_slot.sort_unstable();
        every_slot.dedup();
        assert_eq!(
            every_slot.len(),
            LOOKS.len() + LayerRefusal::ROOM,
            "a refusal declared later gets a colour of its own too"
        );
    }

    #[test]
    fn the_outcomes_shown_together_have_patterns_of_their_own() {
        let common = [
            Outcome::Ok,
            Outcome::Timeout,
            Outcome::CircuitOpen,
            Outcome::BulkheadFull,
            Outcome::Shed,
            Outcome::BudgetExhausted,
            Outcome::RateLimited,
        ];
        let patterns: std::collections::HashSet<Hatch> =
            common.iter().map(|&o| outcome_hatch(o)).collect();
        assert_eq!(patterns.len(), common.len());
        assert_eq!(outcome_hatch(Outcome::Ok), Hatch::Solid);
    }
}
