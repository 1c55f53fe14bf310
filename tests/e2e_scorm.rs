//! End-to-end tests of the SCORM 1.2 package (`make scorm LESSON=km0`) inside a learning
//! platform's page whose `API` is an independent SCORM 1.2 run-time (npm's `scorm-again`,
//! installed by `make browser-tools`), not a stand-in written here. The platform keeps each
//! learner's record: two learners on one browser get their own scores, a resumed learner
//! keeps theirs and comes back to their step and answers, the session's time is reported,
//! every value set is one the run-time accepts, and a platform that refuses to save is
//! reported to the learner in words. Run by `make test` after `make scorm`.

#[path = "support/browser.rs"]
mod browser;

use std::path::Path;
use std::time::{Duration, Instant};

use resilience_playground::page::lessons::progress::Progress;
use resilience_playground::page::lessons::{Lesson, Prediction};
use serde_json::{json, Value};

/// The platform's page: `launch(record, refuseCommits)` loads a learner's record into a fresh
/// run-time and opens the lesson in an iframe; every call the lesson makes is logged with
/// what the run-time answered (`window.calls`); `leave()` closes the lesson.
const PLATFORM: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>A learning platform</title><link rel="icon" href="data:,">
<script src="scorm12.js"></script>
<script>
window.calls = [];
window.launch = function (record, refuseCommits) {
  window.calls = [];
  const api = new Scorm12API({ logLevel: 5 });
  api.loadFromJSON(record);
  for (const name of ["LMSInitialize", "LMSFinish", "LMSGetValue", "LMSSetValue", "LMSCommit"]) {
    const real = api[name].bind(api);
    api[name] = function (...args) {
      const answer = name === "LMSCommit" && refuseCommits ? "false" : real(...args);
      window.calls.push([name, ...args.map(String), String(answer), String(api.lmsGetLastError ? api.lmsGetLastError() : api.LMSGetLastError())]);
      return answer;
    };
  }
  window.API = api;
  const frame = document.createElement("iframe");
  frame.id = "sco";
  frame.src = "sco/lesson.html?lesson=km0";
  frame.style.width = "1200px";
  frame.style.height = "900px";
  document.body.append(frame);
};
window.leave = function () {
  const frame = document.getElementById("sco");
  frame.src = "about:blank";
  setTimeout(() => frame.remove(), 500);
};
</script></head><body></body></html>"#;

/// Copies the folder `from` into `to`, files and folders.
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder made");
    for entry in std::fs::read_dir(from).expect("a folder to copy") {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("a file copied");
        }
    }
}

/// Runs `script` in the lesson's frame (`d` is its document, `w` its window).
fn in_sco(script: &str) -> String {
    format!(
        "const f = document.getElementById('sco'); const d = f && f.contentDocument; \
         const w = f && f.contentWindow; {script}"
    )
}

/// Waits until `script` (in the platform's page) returns something that `done` accepts, and
/// returns it; fails with `what` and the last value after 25 s.
async fn until(
    page: &browser::Page,
    what: &str,
    script: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let now = page.eval(script).await;
        if done(&now) {
            return now;
        }
        assert!(start.elapsed() < Duration::from_secs(25), "{what}: {now}");
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// The last value the lesson set for `element` (as the run-time accepted it), if any.
fn last_set(calls: &Value, element: &str) -> Option<String> {
    calls
        .as_array()?
        .iter()
        .rev()
        .find(|c| c[0] == "LMSSetValue" && c[1] == element && c[3] == "true")
        .map(|c| c[2].as_str().unwrap_or_default().to_string())
}

/// Waits until the lesson has set `element` to a value that `done` accepts; returns it.
async fn until_set(page: &browser::Page, element: &str, done: impl Fn(&str) -> bool) -> String {
    let calls = until(
        page,
        &format!("no {element} as expected"),
        "return window.calls",
        |c| last_set(c, element).is_some_and(|v| done(&v)),
    )
    .await;
    last_set(&calls, element).unwrap()
}

/// Closes the lesson and returns every call it made, once it has finished.
async fn leave(page: &browser::Page) -> Value {
    page.eval("window.leave(); return null").await;
    until(page, "no LMSFinish", "return window.calls", |c| {
        c.to_string().contains("\"LMSFinish\"")
    })
    .await
}

/// Every value set was accepted by the run-time (SCORM 1.2's vocabulary and formats), the
/// session started once and ended last, and its time is a CMITimespan.
fn assert_a_clean_session(calls: &Value) {
    let calls = calls.as_array().unwrap();
    let names: Vec<&str> = calls.iter().map(|c| c[0].as_str().unwrap()).collect();
    assert_eq!(names.first(), Some(&"LMSInitialize"), "{names:?}");
    assert_eq!(names.last(), Some(&"LMSFinish"), "{names:?}");
    assert_eq!(names.iter().filter(|n| **n == "LMSInitialize").count(), 1);
    for c in calls.iter().filter(|c| c[0] == "LMSSetValue") {
        assert_eq!(c[3], "true", "the run-time refused {c}");
        assert_eq!(c[4], "0", "the run-time's error for {c}");
    }
    let time = last_set(&Value::Array(calls.clone()), "cmi.core.session_time")
        .expect("the session's time was reported");
    let parts: Vec<&str> = time.split([':', '.']).collect();
    assert!(
        parts.len() == 4
            && (2..=4).contains(&parts[0].len())
            && parts[1..]
                .iter()
                .all(|p| p.len() == 2 && p.parse::<u32>().is_ok())
            && parts[1].parse::<u32>().unwrap() < 60
            && parts[2].parse::<u32>().unwrap() < 60,
        "HHHH:MM:SS.SS: {time}"
    );
}

/// The package inside a platform run by scorm-again: two learners, a resumed one, a record
/// with a score only, a platform that will not save; then the package on its own.
#[tokio::test]
async fn the_platform_keeps_each_learners_own_record() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let package = root.join("target/scorm/km0");
    let manifest = std::fs::read_to_string(package.join("imsmanifest.xml"))
        .expect("make scorm LESSON=km0 wrote the package");
    let launch = manifest
        .split("href=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the SCO's launch address")
        .replace("&amp;", "&");
    assert_eq!(launch, "lesson.html?lesson=km0");
    // No mastery score: with one, Moodle's "mastery score overrides status" would turn a
    // finished lesson with a question left unanswered from completed into failed.
    assert!(!manifest.contains("masteryscore"), "{manifest}");
    let runtime = root.join(".tools/node_modules/scorm-again/dist/scorm12.js");
    assert!(runtime.exists(), "make browser-tools installs scorm-again");
    let lms = browser::artefacts_dir().join("scorm-again-lms");
    let _ = std::fs::remove_dir_all(&lms);
    copy_folder(&package, &lms.join("sco"));
    std::fs::copy(&runtime, lms.join("scorm12.js")).unwrap();
    std::fs::write(lms.join("index.html"), PLATFORM).unwrap();

    // What learner A will have done: reached the first step and answered its question.
    let first = Lesson::Km0.steps()[0];
    assert!(first.question.is_some(), "km0 opens on a question");
    let mut progress = Progress::new(Lesson::Km0);
    progress.reach(first.name);
    progress.predict(first.name, "", true, Some(Prediction::Choice(0)));
    let answered = progress.score(Lesson::Km0).raw().to_string();
    assert_ne!(answered, "0");

    browser::run("scorm", |page| async move {
        let lms_server = browser::StaticServer::start(lms.clone(), false, &[]);
        let lms_url = format!("http://127.0.0.1:{}/", lms_server.port);
        page.client.goto(&lms_url).await.expect("the platform's page");
        let question = in_sco("return !!(d && d.getElementById('lesson-choice-0'))");

        // Learner A, first time: answers the first question, then the class moves on at once.
        page.eval(
            "window.launch({ core: { student_id: 'a', student_name: 'A, Ada', entry: 'ab-initio' } }); return null",
        )
        .await;
        until(&page, "A's question did not show", &question, |v| *v == json!(true)).await;
        assert_eq!(until_set(&page, "cmi.core.score.raw", |_| true).await, "0");
        page.eval(&in_sco(
            "d.getElementById('lesson-choice-0').click(); \
             d.getElementById('lesson-next').click(); return null",
        ))
        .await;
        until_set(&page, "cmi.core.score.raw", |v| v == answered).await;
        let location = until_set(&page, "cmi.core.lesson_location", |v| v != first.name).await;
        assert_eq!(location, Lesson::Km0.steps()[1].name);
        let suspend = until_set(&page, "cmi.suspend_data", |v| v.contains(first.name)).await;
        assert!(suspend.len() <= 4096);
        let stored = page
            .eval(&in_sco("return Object.keys(w.localStorage)"))
            .await;
        assert_eq!(stored, json!([]), "the browser's storage stays out of it");
        let calls = leave(&page).await;
        assert_a_clean_session(&calls);
        assert_eq!(last_set(&calls, "cmi.core.exit").as_deref(), Some("suspend"));
        assert_eq!(
            last_set(&calls, "cmi.core.lesson_status").as_deref(),
            Some("incomplete")
        );

        // Learner B on the same browser: a score of their own, from nothing.
        page.eval("window.launch({ core: { student_id: 'b', student_name: 'B, Bo', entry: 'ab-initio' } }); return null")
            .await;
        until(&page, "B's question did not show", &question, |v| *v == json!(true)).await;
        assert_eq!(until_set(&page, "cmi.core.score.raw", |_| true).await, "0");
        let calls = leave(&page).await;
        assert_a_clean_session(&calls);
        assert!(
            !calls.to_string().contains(&format!("\"cmi.core.score.raw\",\"{answered}\"")),
            "B got A's score: {calls}"
        );

        // Learner A again, resumed from the platform's record: back on their step, their
        // score kept, their answer shown with its verdict when they go back to it.
        let record = json!({
            "core": { "student_id": "a", "student_name": "A, Ada", "entry": "resume",
                      "lesson_location": location, "lesson_status": "incomplete",
                      "score": { "raw": answered } },
            "suspend_data": suspend,
        });
        page.eval(&format!("window.launch({record}); return null")).await;
        let shown = in_sco("const s = d && d.querySelector('[data-lesson-step]'); return s ? s.dataset.stepName : null");
        until(&page, "A did not come back to their step", &shown, |v| {
            *v == json!(Lesson::Km0.steps()[1].name)
        })
        .await;
        assert_eq!(until_set(&page, "cmi.core.score.raw", |_| true).await, answered);
        page.eval(&in_sco("d.getElementById('lesson-back').click(); return null"))
            .await;
        let verdict = in_sco("const v = d && d.querySelector('.lesson-verdict'); return v ? v.textContent : null");
        until(&page, "A's answer did not come back", &verdict, |v| v.is_string()).await;
        page.screenshot("scorm-resumed").await;
        let calls = leave(&page).await;
        assert_a_clean_session(&calls);
        assert!(
            !calls.to_string().contains("\"cmi.core.score.raw\",\"0\""),
            "a resumed learner's score went to 0: {calls}"
        );

        // A record with a score of 50 and no progress of this package's: the score stays.
        page.eval("window.launch({ core: { student_id: 'c', entry: 'resume', lesson_status: 'incomplete', score: { raw: '50' } } }); return null")
            .await;
        until(&page, "C's question did not show", &question, |v| *v == json!(true)).await;
        assert_eq!(until_set(&page, "cmi.core.score.raw", |_| true).await, "50");
        assert_a_clean_session(&leave(&page).await);

        // A platform that does not save: the learner is told, in words.
        page.eval("window.launch({ core: { student_id: 'd', entry: 'ab-initio' } }, true); return null")
            .await;
        let told = in_sco("const t = d && d.querySelector('[role=alert].scorm-trouble'); return t ? t.textContent : null");
        let told = until(&page, "no word of the failed save", &told, |v| v.is_string()).await;
        page.screenshot("scorm-not-saved").await;
        assert!(
            told.as_str().unwrap().contains("could not be saved"),
            "{told}"
        );
        let commits = page
            .eval("return window.calls.filter((c) => c[0] === 'LMSCommit').length")
            .await;
        assert!(commits.as_u64().unwrap() >= 2, "tried twice: {commits}");

        // Inside the package: no embed snippets, join code or lesson-file opener offered, and
        // every link the lesson shows stays in the package (another page opens in a new tab
        // while the lesson stays).
        let kept = page
            .eval(&in_sco(
                "const hidden = ['.embed-open', '.join-open', '.lesson-open']
                   .map((c) => d.querySelector(c)).filter((e) => e && e.getClientRects().length > 0).length;
                 const here = new URL('.', w.location.href).href;
                 const out = [...d.querySelectorAll('a[href]')].map((a) => a.href)
                   .filter((h) => !h.startsWith(here));
                 w.open = (url) => { w.opened = url; return null; };
                 const a = d.createElement('a');
                 a.href = 'lesson.html?lesson=northwind';
                 d.body.append(a);
                 a.click();
                 return [hidden, out, w.location.search, String(w.opened)];",
            ))
            .await;
        assert_eq!(kept[0], 0, "offered inside the package: {kept}");
        assert_eq!(kept[1], json!([]), "links out of the package: {kept}");
        assert!(kept[2].as_str().unwrap().contains("lesson=km0"), "{kept}");
        assert!(
            kept[3].as_str().unwrap().ends_with("lesson.html?lesson=northwind"),
            "{kept}"
        );
        leave(&page).await;

        // Outside a platform: an ordinary lesson page.
        page.client
            .goto(&format!("{lms_url}sco/{launch}"))
            .await
            .expect("the SCO on its own");
        until(
            &page,
            "the lesson on its own",
            "return [!!document.querySelector('[data-lesson-step]'), document.documentElement.hasAttribute('data-lms')]",
            |v| *v == json!([true, false]),
        )
        .await;
    })
    .await;
}
