//! End-to-end tests of the four exercises on `exercises.html`: each accepts a right prediction,
//! rejects a wrong one with a hint, names the part when the input is not a number, runs on
//! request and reveals its solution. Run by `make test` after the release build
//! (`cargo test --features e2e --test e2e_exercises`); saves `target/e2e/exercise-N.png`.

#[path = "support/browser.rs"]
mod browser;

use std::time::{Duration, Instant};

use fantoccini::Locator;
use resilience_playground::exercises::{
    BudgetAndRetries, BusinessErrors, Exercise, Northwind, Part, ThreeLayers,
};
use serde_json::Value;

/// The element `inner` (an id without the widget's prefix) inside exercise `n`'s widget.
fn sel(n: u8, inner: &str) -> String {
    format!("#exercise-{n} [id$='-{inner}'], #exercise-{n} [id='{inner}']")
}

/// The parts of exercise `n` at the lesson's settings, computed here on the host.
fn parts(n: u8) -> Vec<Part> {
    match n {
        1 => BudgetAndRetries::default().parts(),
        2 => BusinessErrors::default().parts(),
        3 => ThreeLayers::default().parts(),
        _ => {
            // Part (e) needs the simulator's figures, which the page adds; (a) needs nothing.
            Northwind::default().parts()
        }
    }
    .expect("the exercise runs on the host")
}

/// Types `text` into a part's prediction field and presses its Check button.
async fn predict(page: &browser::Page, n: u8, part: &str, text: &str) {
    let script = format!(
        "const input = document.querySelector(\"{input}\");
         input.focus();
         input.value = {text};
         input.dispatchEvent(new Event('input', {{ bubbles: true }}));
         return true;",
        input = sel(n, &format!("ex{n}-part-{part}-input")),
        text = Value::String(text.to_string()),
    );
    page.eval(&script).await;
    click(page, n, &format!("ex{n}-part-{part}-check")).await;
}

async fn click(page: &browser::Page, n: u8, inner: &str) {
    page.client
        .find(Locator::Css(&sel(n, inner)))
        .await
        .unwrap_or_else(|e| panic!("no {inner} in exercise {n}: {e}"))
        .click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {inner}: {e}"));
}

/// Waits until the part's verdict says `kind` (right, wrong or invalid); returns its text and
/// its `data-correct`.
async fn verdict(page: &browser::Page, n: u8, part: &str, kind: &str) -> (String, String) {
    let css = sel(n, &format!("ex{n}-part-{part}-verdict"));
    let script = format!(
        "const v = document.querySelector(\"{css}\");
         return v ? [v.dataset.verdict || '', v.dataset.correct || '', v.textContent] : null;"
    );
    let start = Instant::now();
    loop {
        let got = page.eval(&script).await;
        if let Some(a) = got.as_array() {
            if a[0] == kind {
                return (
                    a[2].as_str().unwrap_or_default().to_string(),
                    a[1].as_str().unwrap_or_default().to_string(),
                );
            }
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "exercise {n} part {part}: no {kind} verdict, last seen {got}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Each element matching `css`, as the accessibility tree gives it: `(name, description)`.
async fn ax_of(page: &browser::Page, css: &str) -> Vec<(String, String)> {
    let root = page
        .devtools("DOM.getDocument", serde_json::json!({ "depth": 0 }))
        .await;
    let found = page
        .devtools(
            "DOM.querySelectorAll",
            serde_json::json!({ "nodeId": root["root"]["nodeId"], "selector": css }),
        )
        .await;
    let mut out = Vec::new();
    for id in found["nodeIds"].as_array().into_iter().flatten() {
        let tree = page
            .devtools(
                "Accessibility.getPartialAXTree",
                serde_json::json!({ "nodeId": id, "fetchRelatives": false }),
            )
            .await;
        let node = &tree["nodes"][0];
        let text = |k: &str| {
            node[k]["value"]
                .as_str()
                .unwrap_or_default()
                .trim()
                .to_string()
        };
        out.push((text("name"), text("description")));
    }
    out
}

async fn wait_for(page: &browser::Page, css: &str) {
    page.client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css} did not appear: {e}"));
}

/// Right, wrong and unreadable predictions for the first numeric part of exercise `n`, then
/// the run and the solution; a screenshot of the whole exercise at the end.
async fn exercise_accepts_right_and_rejects_wrong(n: u8) {
    browser::run(&format!("exercise-{n}"), move |page| async move {
        page.client
            .set_window_size(1400, 1000)
            .await
            .expect("window size");
        page.open("exercises.html", &sel(n, &format!("ex{n}-run")))
            .await;
        let parts = parts(n);
        let part = parts
            .iter()
            .find(|p| p.answer.is_some())
            .expect("a numeric part");
        let answer = part.answer.as_ref().unwrap();

        // A right answer, typed as a person would.
        predict(&page, n, &part.id, &format!("{}", answer.expected)).await;
        let (text, correct) = verdict(&page, n, &part.id, "right").await;
        assert_eq!(correct, "true");
        assert!(text.contains("Right"), "{text}");

        // A wrong one: rejected, with a hint that does not give the answer away.
        let wrong = answer.expected * 3.0 + 10.0;
        predict(&page, n, &part.id, &format!("{wrong}")).await;
        let (hint, correct) = verdict(&page, n, &part.id, "wrong").await;
        assert_eq!(correct, "false");
        assert!(hint.len() > 20, "a real hint: {hint}");
        assert!(!hint.contains("Right"));
        if answer.expected.abs() >= 10.0 {
            let exact = format!("{}", answer.expected.round());
            assert!(!hint.contains(&exact), "the hint gives {exact} away: {hint}");
        }

        // Heard with a screen reader: each field named by its own question, each Check by its
        // part, and the wrong verdict, the field's description, says so in words.
        let fields = ax_of(&page, &format!("#exercise-{n} .prediction input")).await;
        let field = ax_of(&page, &sel(n, &format!("ex{n}-part-{}-input", part.id))).await;
        assert_eq!(
            field[0].0,
            format!("({}) {} Your prediction", part.id, part.question),
            "{field:?}"
        );
        assert!(field[0].1.starts_with("Not right:"), "{field:?}");
        let mut names: Vec<&String> = fields.iter().map(|(name, _)| name).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "two fields sound alike: {fields:?}");
        let checks = ax_of(&page, &format!("#exercise-{n} .prediction button")).await;
        assert!(
            checks.iter().any(|(name, _)| *name == format!("Check ({})", part.id)),
            "{checks:?}"
        );

        // Not a number: a message naming the part, and the page still works.
        predict(&page, n, &part.id, "abc").await;
        let (message, _) = verdict(&page, n, &part.id, "invalid").await;
        assert!(message.contains(&format!("Part ({})", part.id)), "{message}");

        // Run it: the result appears.
        click(&page, n, &format!("ex{n}-run")).await;
        wait_for(&page, &format!("#exercise-{n} .exercise-run-result")).await;
        // The solution on request.
        click(&page, n, &format!("ex{n}-solution-toggle")).await;
        wait_for(&page, &sel(n, &format!("ex{n}-solution"))).await;
        let solution = page.text(&sel(n, &format!("ex{n}-solution"))).await;
        assert!(solution.len() > 200, "{solution}");

        // The whole exercise as a picture: a window tall enough for all of it, scrolled to it.
        let height = page
            .eval(&format!(
                "return Math.ceil(document.querySelector('#exercise-{n}').getBoundingClientRect().height)"
            ))
            .await
            .as_u64()
            .unwrap_or(1000);
        page.client
            .set_window_size(1400, (height + 250).min(8000) as u32)
            .await
            .expect("window size");
        page.eval(&format!(
            "document.querySelector('#exercise-{n}').scrollIntoView(); return true;"
        ))
        .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let element = page
            .client
            .find(Locator::Css(&format!("#exercise-{n}")))
            .await
            .expect("the exercise");
        let png = element.screenshot().await.expect("element screenshot");
        std::fs::write(
            browser::artefacts_dir().join(format!("exercise-{n}.png")),
            png,
        )
        .expect("write the screenshot");
    })
    .await;
}

#[tokio::test]
async fn exercise_1_accepts_a_right_answer_and_rejects_a_wrong_one() {
    exercise_accepts_right_and_rejects_wrong(1).await;
}

#[tokio::test]
async fn exercise_2_accepts_a_right_answer_and_rejects_a_wrong_one() {
    exercise_accepts_right_and_rejects_wrong(2).await;
}

#[tokio::test]
async fn exercise_3_accepts_a_right_answer_and_rejects_a_wrong_one() {
    exercise_accepts_right_and_rejects_wrong(3).await;
}

#[tokio::test]
async fn exercise_4_accepts_a_right_answer_and_rejects_a_wrong_one() {
    exercise_accepts_right_and_rejects_wrong(4).await;
}

/// The controls change the exercise: with only the library retrying, 300 calls/s is right
/// for part (a2)'s sibling (b1) and the chosen bar moves; the four exercises keep separate
/// state and unique ids.
#[tokio::test]
async fn controls_change_the_run_and_exercises_keep_their_own_state() {
    browser::run("exercise-controls", |page| async move {
        page.open("exercises.html", &sel(3, "ex3-run")).await;
        click(&page, 3, "ex3-retrying-library").await;
        predict(&page, 3, "a1", "27").await;
        verdict(&page, 3, "a1", "right").await;
        click(&page, 3, "ex3-run").await;
        wait_for(
            &page,
            "#exercise-3 .load-row.current[id$='-ex3-load-library']",
        )
        .await;
        // Exercise 1 saw none of it.
        let untouched = page
            .eval(&format!(
                "return document.querySelector(\"{}\").value",
                sel(1, "ex1-part-a1-input")
            ))
            .await;
        assert_eq!(untouched, Value::String(String::new()));
        let duplicates = page.eval(browser::DUPLICATE_IDS).await;
        assert_eq!(duplicates, Value::Array(vec![]), "duplicate ids");
        let names = page
            .eval(
                "const groups = new Map();
                 for (const r of document.querySelectorAll('input[type=radio]')) {
                   const w = r.closest('resilience-widget');
                   groups.set(r.name, (groups.get(r.name) || new Set()).add(w && w.id));
                 }
                 return [...groups].filter(([, ws]) => ws.size > 1).map(([n]) => n);",
            )
            .await;
        assert_eq!(
            names,
            Value::Array(vec![]),
            "radio groups shared between widgets"
        );
        // The Library-only run: b1 (calls per second with only the library retrying) is 300.
        predict(&page, 3, "b1", "300").await;
        verdict(&page, 3, "b1", "right").await;
        page.screenshot("exercise-controls").await;
    })
    .await;
}

/// The input of a part, as the page holds it.
async fn typed(page: &browser::Page, n: u8, part: &str) -> Value {
    page.eval(&format!(
        "const input = document.querySelector(\"{}\"); return input ? input.value : null;",
        sel(n, &format!("ex{n}-part-{part}-input"))
    ))
    .await
}

/// The lessons' figures as a student types them: the reader says what it read when the text
/// could be meant otherwise; 4(c) has its second field and 4(e) takes the lesson's answer.
#[tokio::test]
async fn the_lessons_figures_are_read_as_written_and_said_back() {
    browser::run("exercise-numbers", |page| async move {
        page.open("exercises.html", &sel(4, "ex4-run")).await;
        predict(&page, 1, "a1", "1.050").await;
        let (text, _) = verdict(&page, 1, "a1", "right").await;
        assert!(text.contains("groups thousands"), "{text}");
        predict(&page, 1, "a1", "1.05 s").await;
        verdict(&page, 1, "a1", "right").await;
        predict(&page, 3, "a2", "2.700").await;
        verdict(&page, 3, "a2", "right").await;
        predict(&page, 3, "a3", "8,1").await;
        let (text, _) = verdict(&page, 3, "a3", "right").await;
        assert!(text.contains("decimal mark"), "{text}");
        // 4(a) is two parts since the Resilience4j profile: as written (2 s), then as the lesson
        // means it (its 6.6 s).
        predict(&page, 4, "a2", "6,6").await;
        verdict(&page, 4, "a2", "right").await;
        predict(&page, 4, "c2", "1,200").await;
        verdict(&page, 4, "c2", "right").await;
        predict(&page, 4, "e1", "0").await;
        verdict(&page, 4, "e1", "right").await;
        predict(&page, 4, "e2", "100%").await;
        verdict(&page, 4, "e2", "right").await;
        // With 2 library attempts, the lesson's 27 gets a hint about these settings.
        page.eval(
            "const el = document.querySelector(\"#exercise-3 input[type=range][id$='-ex3-library-attempts']\");
             el.value = '2';
             el.dispatchEvent(new Event('input', { bubbles: true }));
             return el.value;",
        )
        .await;
        predict(&page, 3, "a1", "27").await;
        let (hint, _) = verdict(&page, 3, "a1", "wrong").await;
        assert!(hint.contains("library 2"), "{hint}");
        page.screenshot("exercise-numbers").await;
    })
    .await;
}

/// Answers are kept in the browser per exercise, come back after a reload with their verdicts,
/// and go with "Start again".
#[tokio::test]
async fn answers_survive_a_reload_and_reset_forgets_them() {
    browser::run("exercise-storage", |page| async move {
        page.open("exercises.html", &sel(3, "ex3-run")).await;
        predict(&page, 3, "a1", "27").await;
        predict(&page, 1, "b1", "220 ms").await;
        verdict(&page, 1, "b1", "right").await;
        page.client.refresh().await.expect("reload");
        wait_for(&page, &sel(3, "ex3-run")).await;
        assert_eq!(typed(&page, 3, "a1").await, "27");
        assert_eq!(typed(&page, 1, "b1").await, "220 ms");
        // A checked answer comes back with its verdict.
        verdict(&page, 1, "b1", "right").await;
        click(&page, 3, "ex3-reset").await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        assert_eq!(typed(&page, 3, "a1").await, "");
        page.client.refresh().await.expect("reload");
        wait_for(&page, &sel(3, "ex3-run")).await;
        assert_eq!(typed(&page, 3, "a1").await, "", "reset forgot it");
        assert_eq!(
            typed(&page, 1, "b1").await,
            "220 ms",
            "other exercises keep theirs"
        );
    })
    .await;
}
