//! The lesson reader on arbitrary text: it never panics, a mistake always names a line of the
//! text, and whatever it reads writes back to the same steps.

use proptest::prelude::*;
use resilience_playground::page::lessons::format::{parse, write};

/// Lines a lesson file might have, right or wrong.
fn line() -> impl Strategy<Value = String> {
    let word = prop_oneof![
        Just("queue-peak".to_string()),
        Just("load".to_string()),
        Just("12 s".to_string()),
        Just("preset=cb".to_string()),
        Just("|".to_string()),
        Just("<".to_string()),
        Just("50".to_string()),
        Just("throughput(8,12)".to_string()),
        Just("p99".to_string()),
        Just(">=".to_string()),
        Just("1 s".to_string()),
        Just("{queue}".to_string()),
        "[a-z<>&\"'=,()|%-]{0,12}",
        any::<String>(),
    ];
    let words = prop::collection::vec(word, 0..5).prop_map(|w| w.join(" "));
    let start = prop_oneof![
        12 => Just(""),
        1 => Just("# "),
        1 => Just("## "),
        1 => Just("  "),
        1 => Just("@name "),
        1 => Just("@run "),
        1 => Just("@play-to "),
        1 => Just("@try "),
        1 => Just("@views "),
        1 => Just("@notice "),
        1 => Just("@ask "),
        1 => Just("@choice "),
        1 => Just("@number "),
        1 => Just("@hint "),
        1 => Just("@goal "),
        1 => Just("@controls "),
        1 => Just("@solution "),
        1 => Just("@tip "),
        1 => Just("@why "),
        1 => Just("@"),
        1 => Just("### "),
    ];
    (start, words).prop_map(|(s, w)| format!("{s}{w}"))
}

/// A step that reads, so that many cases get past the first mistake.
const STEP: &str = "## A step\n@name a-step\n@run preset=cb\n@play-to 12\n@views load\n\nText.\n";

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn any_text_reads_or_names_one_of_its_lines(
        lines in prop::collection::vec(line(), 0..16),
        framed in any::<bool>(),
    ) {
        let body = lines.join("\n");
        let text = if framed { format!("# A lesson\n\n{STEP}\n{body}") } else { body };
        match parse(&text) {
            Ok(lesson) => {
                let again = parse(&write(&lesson.title, &lesson.steps))
                    .expect("what was read writes back to text that reads");
                prop_assert_eq!(again.steps, lesson.steps);
                prop_assert_eq!(again.title, lesson.title);
            }
            Err(e) => {
                let last = text.lines().count().max(1);
                prop_assert!((1..=last).contains(&e.line), "line {} of {}: {}", e.line, last, e);
                prop_assert!(!e.message.is_empty());
            }
        }
    }
}

/// The property above is worth something only if many of its cases read: check that they do.
#[test]
fn many_generated_lessons_read() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = prop::collection::vec(line(), 0..16);
    let read = (0..300)
        .filter(|_| {
            let lines = strategy.new_tree(&mut runner).expect("a case").current();
            parse(&format!("# A lesson\n\n{STEP}\n{}", lines.join("\n"))).is_ok()
        })
        .count();
    assert!(read >= 15, "only {read} of 300 generated lessons read");
}
