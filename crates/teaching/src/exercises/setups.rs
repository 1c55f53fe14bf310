//! The four exercises of the lessons as page exercises
//! ([`PageExercise`](crate::exercises::view::PageExercise)), each in its own folder beside its
//! logic (`exercises/exN_.../setup.rs`): its settings on the page, the controls that change
//! them, and what a run shows. Named here too, as the page has always named them; the tests
//! of the four, as a student drives them, stay here.

pub use crate::exercises::ex1_budget::setup::*;
pub use crate::exercises::ex2_breaker::setup::*;
pub use crate::exercises::ex3_layers::setup::*;
pub use crate::exercises::ex4_northwind::setup::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exercises::view::PageExercise;
    use crate::exercises::view::{Action, ExerciseState, Feedback};
    use crate::exercises::*;

    fn typed<S: PageExercise>(state: ExerciseState<S>, part: &str, text: &str) -> ExerciseState<S> {
        state
            .apply(Action::Type {
                part: part.to_string(),
                text: text.to_string(),
            })
            .apply(Action::Check(part.to_string()))
    }

    fn feedback<S: PageExercise>(state: &ExerciseState<S>, part: &str) -> Feedback {
        state.attempt(part).feedback.expect("a verdict")
    }

    /// Numbers a text states, as a reader would see them (`1,050` is one number).
    fn numbers_in(text: &str) -> Vec<f64> {
        text.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
            .filter_map(|w| w.trim_matches(['.', ',']).replace(',', "").parse().ok())
            .collect()
    }

    #[test]
    fn a_right_answer_is_accepted_and_a_wrong_one_gets_a_hint() {
        let s = ExerciseState::<BudgetAndRetries>::new();
        assert!(s.computed.is_none(), "nothing runs before a click");
        let s = typed(s, "a1", "1050");
        assert_eq!(feedback(&s, "a1"), Feedback::Right(None));
        assert!(s.computed.is_some(), "checking made the run");
        assert!(!s.shown, "but does not show it");
        let s = typed(s, "a1", "900");
        let Feedback::Wrong(hint) = feedback(&s, "a1") else {
            panic!("900 ms accepted");
        };
        assert!(!numbers_in(&hint).contains(&1_050.0), "{hint}");
        let s = typed(s, "b1", "220 ms");
        assert!(feedback(&s, "b1").is_right());
        // A reading that could surprise is stated beside the verdict.
        let s = typed(s, "a1", "1.050");
        assert!(feedback(&s, "a1").is_right());
        assert!(s
            .attempt("a1")
            .reading
            .unwrap()
            .contains("groups thousands"));
        let s = typed(s, "a1", "1050");
        assert_eq!(s.attempt("a1").reading, None);
    }

    #[test]
    fn bad_input_gives_a_message_naming_the_part() {
        let mut s = ExerciseState::<LayersSetup>::new();
        for bad in ["abc", "NaN", "", "inf", "12 kg"] {
            s = typed(s, "a2", bad);
            let f = feedback(&s, "a2");
            assert_eq!(f.kind(), "invalid", "{bad:?}");
            assert!(f.text().contains("Part (a2)"), "{bad:?}: {}", f.text());
            assert!(f.text().contains("calls/s"), "{}", f.text());
        }
        // Open parts and unknown parts have nothing to check.
        let s = typed(s, "b2", "the library");
        assert_eq!(feedback(&s, "b2").kind(), "invalid");
        assert!(feedback(&s, "b2").text().contains("(b2)"));
        let s = typed(s, "zz", "1");
        assert_eq!(feedback(&s, "zz").kind(), "invalid");
        assert_eq!(s.attempt("b2").text, "the library");
    }

    #[test]
    fn typing_again_clears_the_verdict() {
        let s = typed(ExerciseState::<BudgetAndRetries>::new(), "a3", "2");
        assert!(feedback(&s, "a3").is_right());
        let s = s.apply(Action::Type {
            part: "a3".to_string(),
            text: "3".to_string(),
        });
        assert_eq!(s.attempt("a3").feedback, None);
        let s = typed(s, "a3", "2").apply(Action::Type {
            part: "a3".to_string(),
            text: "2".to_string(),
        });
        assert!(s.attempt("a3").feedback.is_some());
    }

    /// At the lesson's settings: every numeric part accepts the run's own answer and rejects
    /// one far off with a hint that states no acceptable answer; the preview lists the parts
    /// the run has.
    fn every_part<S: PageExercise>() {
        let mut s = ExerciseState::<S>::new().apply(Action::Run);
        assert!(s.error.is_none(), "{}: {:?}", S::NUMBER, s.error);
        assert!(s.shown_results().is_some());
        let preview = ExerciseState::<S>::new();
        let preview_ids: Vec<&str> = preview.parts().iter().map(|p| p.id.as_str()).collect();
        let parts: Vec<Part> = s.parts().to_vec();
        let run_ids: Vec<&str> = parts.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            preview_ids,
            run_ids,
            "{}: the preview lists the same parts",
            S::NUMBER
        );
        for p in parts.iter() {
            let Some(a) = &p.answer else { continue };
            s = typed(s, &p.id, &format!("{}", a.expected));
            assert!(feedback(&s, &p.id).is_right(), "{} {}", S::NUMBER, p.id);
            let far = crate::exercises::tests::far_from(a);
            s = typed(s, &p.id, &format!("{far}"));
            let f = feedback(&s, &p.id);
            assert_eq!(f.kind(), "wrong", "{} {}", S::NUMBER, p.id);
            for n in numbers_in(f.text()) {
                assert!(
                    !a.check(n).correct,
                    "{} {}: the hint states {n}",
                    S::NUMBER,
                    p.id
                );
            }
        }
    }

    #[test]
    fn every_part_of_every_exercise() {
        every_part::<BudgetAndRetries>();
        every_part::<BreakerSetup>();
        every_part::<LayersSetup>();
        every_part::<NorthwindSetup>();
    }

    /// Every figure the lessons' solutions give for something a part asks, typed as a student
    /// might, with the verdict it must get.
    #[test]
    fn the_lessons_figures_are_accepted_where_asked() {
        fn right<S: PageExercise>(part: &str, texts: &[&str]) {
            let mut s = ExerciseState::<S>::new();
            for text in texts {
                s = typed(s, part, text);
                let f = feedback(&s, part);
                assert!(
                    f.is_right(),
                    "exercise {} ({part}) {text:?}: {f:?}",
                    S::NUMBER
                );
            }
        }
        // Lesson 000, exercise 1: up to 1,050 ms without a budget; never over 500 ms with it,
        // the third attempt sacrificed; Charge called with 220 ms.
        right::<BudgetAndRetries>("a1", &["1,050", "1050 ms", "1.050", "1.05 s", "1 050"]);
        right::<BudgetAndRetries>("a2", &["500", "500 ms", "0.5 s"]);
        right::<BudgetAndRetries>("a3", &["2"]);
        right::<BudgetAndRetries>("b1", &["220", "220 ms", "220ms", "0.22 s"]);
        // Exercise 2: 60% of the calls are "out of stock" and counted as failures.
        right::<BreakerSetup>("a2", &["60", "60%", "0.6", "0,6"]);
        // min_calls 5 at 100 calls/s opens on noise: every blip (12 an hour here).
        right::<BreakerSetup>("b1", &["12"]);
        // Exercise 3: 3 x 3 x 3 = 27 calls an order, 2,700 calls/s, about 8 s (27 x 300 ms).
        right::<LayersSetup>("a1", &["27", "27 calls"]);
        right::<LayersSetup>("a2", &["2,700", "2700", "2.700", "2 700 calls/s"]);
        right::<LayersSetup>("a3", &["8", "8.1", "8,1", "8.1 s", "8100 ms"]);
        // Only the library retrying: 3 attempts x 100 orders/s.
        right::<LayersSetup>("b1", &["300"]);
        // Lesson 004: as written one 2 s attempt, about 6.6 s with the two fixes; order history
        // finds no thread and fails with one shared pool, and keeps succeeding with its own
        // bulkhead.
        right::<NorthwindSetup>("a1", &["2", "2 s", "2000 ms"]);
        right::<NorthwindSetup>("a2", &["6.6", "6,6", "6.6 s", "6600 ms"]);
        right::<NorthwindSetup>("e1", &["0", "0%"]);
        right::<NorthwindSetup>("e2", &["100", "100%"]);
    }

    #[test]
    fn exercise_2b_says_which_reading_was_used_once_answered() {
        let s = ExerciseState::<BreakerSetup>::new();
        // The question asks; it does not tell which readings there are.
        let question = &s.parts().iter().find(|p| p.id == "b1").unwrap().question;
        assert!(
            !question.contains("lesson") && !question.contains("accepted"),
            "{question}"
        );
        let s = typed(s, "b1", "12");
        let Feedback::Right(Some(note)) = feedback(&s, "b1") else {
            panic!("the lesson's reading is right with a note")
        };
        assert!(note.contains("lesson's reading"), "{note}");
        let run_figure = s.parts().iter().find(|p| p.id == "b1").unwrap();
        let expected = run_figure.answer.as_ref().unwrap().expected;
        let s = typed(s, "b1", &format!("{expected}"));
        let Feedback::Right(Some(note)) = feedback(&s, "b1") else {
            panic!("this page's reading is right with a note")
        };
        assert!(note.starts_with("Right by this page's reading"), "{note}");
        assert!(note.contains("accepted too"), "{note}");
        // A wrong answer is not told the readings.
        let s = typed(s, "b1", "40");
        assert!(!feedback(&s, "b1").text().contains("lesson's solution"));
    }

    #[test]
    fn percentages_say_how_they_were_read() {
        let s = typed(ExerciseState::<BreakerSetup>::new(), "a2", "0.6");
        assert!(feedback(&s, "a2").is_right());
        let reading = s.attempt("a2").reading.unwrap();
        assert!(reading.starts_with("Read as 60%"), "{reading}");
    }

    #[test]
    fn hints_follow_the_settings() {
        let s = ExerciseState::<LayersSetup>::new().apply(Action::Control(
            LayersControl::Attempts(Layer::Library, 2.0),
        ));
        let s = typed(s, "a1", "27");
        let Feedback::Wrong(hint) = feedback(&s, "a1") else {
            panic!("27 accepted with 2 library attempts")
        };
        assert!(hint.contains("library 2"), "{hint}");
        assert!(!hint.contains("retries"), "{hint}");
        let s = typed(s, "a1", "18");
        assert!(feedback(&s, "a1").is_right());
        let s = typed(s, "a2", "2700");
        assert!(feedback(&s, "a2").text().contains("lesson's figure"));
        let s = typed(s, "b1", "300");
        assert!(feedback(&s, "b1").text().contains("library 2"));
    }

    #[test]
    fn answers_are_kept_and_reset() {
        let s = typed(ExerciseState::<LayersSetup>::new(), "a1", "27");
        let s = s.apply(Action::Type {
            part: "b2".to_string(),
            text: "the library".to_string(),
        });
        let json = s.saved_answers();
        assert_eq!(
            s.storage_key(),
            "resilience-playground/answers/retry-layers"
        );
        let back =
            ExerciseState::<LayersSetup>::new().apply(Action::Restore(
                ExerciseState::<LayersSetup>::parse_saved(&json),
            ));
        assert_eq!(back.attempt("a1").text, "27");
        assert_eq!(back.attempt("b2").text, "the library");
        // a1 was checked: its verdict comes back with it; b2 was only typed.
        let verdict = s.attempt("a1").feedback.clone();
        assert!(verdict.is_some());
        assert_eq!(back.attempt("a1").feedback, verdict);
        assert_eq!(
            back.attempt("b2").feedback,
            None,
            "not checked, so no verdict"
        );
        // An older entry (the text alone) comes back unchecked.
        let old = ExerciseState::<LayersSetup>::parse_saved(r#"{"a1":"27"}"#);
        let back = ExerciseState::<LayersSetup>::new().apply(Action::Restore(old));
        assert_eq!(back.attempt("a1").text, "27");
        assert_eq!(back.attempt("a1").feedback, None);
        // Junk in storage is no answers at all.
        assert!(ExerciseState::<LayersSetup>::parse_saved("{oops").is_empty());
        assert!(ExerciseState::<LayersSetup>::parse_saved("[1,2]").is_empty());
        let reset = back
            .apply(Action::Control(LayersControl::Attempts(
                Layer::Sidecar,
                1.0,
            )))
            .apply(Action::Reset);
        assert_eq!(reset.saved_answers(), "{}");
        assert_eq!(reset.setup, LayersSetup::lesson());
    }

    #[test]
    fn run_and_solution_show_on_request() {
        let s = ExerciseState::<NorthwindSetup>::new();
        assert!(s.shown_results().is_none() && s.shown_solution().is_none());
        let s = s.apply(Action::ToggleSolution);
        let solution = s.shown_solution().unwrap().to_string();
        assert!(solution.contains("6.6 s"), "{solution}");
        assert!(
            s.shown_results().is_none(),
            "the solution does not show the run"
        );
        let s = s.apply(Action::Run);
        let r = s.shown_results().unwrap();
        // The simulator's runs: the shared pool starves order history, its own bulkhead not.
        assert!(r.shared.success_rate() < r.separate.success_rate());
        assert_eq!(
            r.run.order_history.shared_success,
            Some(r.shared.success_rate())
        );
        let s = s.apply(Action::ToggleSolution);
        assert!(s.shown_solution().is_none());
    }

    #[test]
    fn moving_a_control_drops_the_run_and_the_verdicts_but_keeps_the_text() {
        let s = typed(ExerciseState::<LayersSetup>::new(), "b1", "300").apply(Action::Run);
        assert!(feedback(&s, "b1").is_right());
        let s = s.apply(Action::Control(LayersControl::Attempts(
            Layer::Library,
            5.0,
        )));
        assert!(s.computed.is_none() && !s.shown);
        assert_eq!(s.attempt("b1").text, "300");
        assert_eq!(s.attempt("b1").feedback, None);
        let s = s.apply(Action::Check("b1".to_string()));
        assert_eq!(feedback(&s, "b1").kind(), "wrong");
        let s = typed(s, "b1", "500");
        assert!(feedback(&s, "b1").is_right());
        // A display choice keeps the run.
        let s = s
            .apply(Action::Run)
            .apply(Action::Control(LayersControl::IdempotencyKey(true)));
        assert!(s.shown && s.setup.idempotency_key);
    }

    #[test]
    fn controls_clamp_and_name_bad_values() {
        let s = ExerciseState::<LayersSetup>::new().apply(Action::Control(
            LayersControl::Attempts(Layer::Sidecar, 99.0),
        ));
        assert!(s.notice.as_ref().unwrap().contains("Sidecar attempts"));
        assert_eq!(s.setup.exercise.sidecar_attempts, MAX_ATTEMPTS);
        let s = s.apply(Action::Control(LayersControl::Attempts(
            Layer::FrontEnd,
            f64::NAN,
        )));
        assert_eq!(s.setup.exercise.front_end_attempts, 3);
        assert!(s.notice.is_some());
        let s = s.apply(Action::Control(LayersControl::Attempts(
            Layer::FrontEnd,
            0.0,
        )));
        assert_eq!(s.setup.exercise.front_end_attempts, 1);
        let s = s.apply(Action::Run);
        assert!(s.error.is_none() && s.shown);

        let b = ExerciseState::<BreakerSetup>::new()
            .apply(Action::Control(BreakerControl::MinCalls(7)));
        assert!(b.notice.as_ref().unwrap().contains("min_calls"));
        let b = b.apply(Action::Control(BreakerControl::BlipsPerHour(-1.0)));
        assert!(b.notice.as_ref().unwrap().contains("Blips per hour"));
        assert_eq!(b.setup.exercise.breaker.min_calls, 20);
        assert_eq!(b.setup.exercise.noise.blips_per_hour, 0.0);
    }

    #[test]
    fn the_bug_switch_picks_a_series_without_running_again() {
        let s = ExerciseState::<BreakerSetup>::new()
            .apply(Action::Control(BreakerControl::MinCalls(5)));
        assert_eq!(s.setup.exercise.breaker.min_calls, 5);
        let s = s
            .apply(Action::Control(BreakerControl::Noise(false)))
            .apply(Action::Run);
        let before = s.computed.clone().unwrap();
        let s = s.apply(Action::Control(BreakerControl::Bug(false)));
        assert!(s.computed.as_ref().is_some_and(|c| *c == before));
        let run = s.shown_results().unwrap();
        // No noise: the fixed client never opens.
        assert!(run.current.bug);
        assert_eq!(run.other.openings, 0);
        assert!(run.current.openings > 0);
    }

    #[test]
    fn exercise_4c_asks_for_both_figures_and_the_drain_goes_without_a_job() {
        let s = ExerciseState::<NorthwindSetup>::new();
        assert!(s
            .setup
            .exercise
            .question()
            .contains("no job at all, how many"));
        let s = typed(s, "c1", "6");
        assert!(feedback(&s, "c1").is_right());
        let s = typed(s, "c2", "1,200");
        assert!(feedback(&s, "c2").is_right());
        let s = s.apply(Action::Control(NorthwindControl::Job(false)));
        assert!(!s.parts().iter().any(|p| p.id == "c1"));
        assert!(s.parts().iter().any(|p| p.id == "c2"));
        let s = typed(s, "c1", "6");
        assert_eq!(feedback(&s, "c1").kind(), "invalid");
        let s = s.apply(Action::Control(NorthwindControl::Job(true)));
        let s = typed(s, "c1", "6");
        assert!(feedback(&s, "c1").is_right());
    }
}
