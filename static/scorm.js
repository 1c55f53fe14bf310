// In a SCORM 1.2 package (`make scorm`): the course platform that launched the lesson keeps
// the learner's record, through the `API` object it puts on one of this window's parents (or
// its opener). Outside a platform there is no API and this does nothing: the lesson page keeps
// its progress in the browser as anywhere else.
//
// At launch (this script runs before the lesson's module, so the page starts from it) it
// reads the record: `cmi.core.entry`, `cmi.suspend_data`, `cmi.core.lesson_location`, the
// score and the status. It marks the page's root `data-lms` (the page then neither reads nor
// writes the browser's storage, so learners sharing a computer keep their own records), puts
// the kept progress in `data-lesson-record` and opens the step the learner was on.
//
// While the lesson runs, the page publishes on its root what the platform records:
// `data-lesson-score` (0 to 100), `data-lesson-status` (incomplete or completed),
// `data-lesson-record` (its progress, at most 4,096 characters) and `data-lesson-location`
// (the step). Each change is set and committed; `cmi.core.exit` is `suspend` until the lesson
// is complete. At the end, `cmi.core.session_time`, a last commit, and LMSFinish. A platform
// that refuses a value or a commit (twice) gets the learner told so, in words.
(function () {
  "use strict";
  function findApi(start) {
    for (var win = start, hops = 0; win && hops < 8; hops++) {
      try {
        if (win.API) return win.API;
      } catch (e) {
        return null; // another origin: no API there
      }
      if (win.parent === win) break;
      win = win.parent;
    }
    return null;
  }
  var api = findApi(window.parent !== window ? window.parent : null) ||
    (window.opener ? findApi(window.opener) : null);
  if (!api) return;
  var root = document.documentElement;

  function call(name, args) {
    try {
      return api[name].apply(api, args);
    } catch (e) {
      return "false";
    }
  }
  function lastError() {
    var code = String(call("LMSGetLastError", []));
    var words = code !== "0" ? String(call("LMSGetErrorString", [code]) || "") : "";
    return { code: code, words: words };
  }
  var troubleShown = null;
  function tell(what) {
    var show = function () {
      if (!troubleShown) {
        troubleShown = document.createElement("p");
        troubleShown.className = "failure scorm-trouble";
        troubleShown.setAttribute("role", "alert");
        document.body.insertBefore(troubleShown, document.body.firstChild);
      }
      troubleShown.textContent = what;
    };
    if (document.body) show();
    else document.addEventListener("DOMContentLoaded", show);
  }
  function trouble(doing) {
    var error = lastError();
    tell("Your progress could not be saved to the course platform (" + doing +
      (error.code !== "0" ? ": error " + error.code + (error.words ? ", " + error.words : "") : "") +
      "). What you do here still counts on this page; keep it open and tell your teacher.");
  }

  if (String(call("LMSInitialize", [""])) !== "true") {
    trouble("the platform did not start the session");
    return;
  }
  function get(element) {
    var value = call("LMSGetValue", [element]);
    return typeof value === "string" && lastError().code === "0" ? value : "";
  }
  var entry = get("cmi.core.entry");
  var resume = entry !== "ab-initio";
  var launched = {
    score: resume ? Number(get("cmi.core.score.raw") || "NaN") : NaN,
    status: resume ? get("cmi.core.lesson_status") : "",
  };
  root.setAttribute("data-lms", "");
  root.setAttribute("data-lesson-record", resume ? get("cmi.suspend_data") : "");
  var step = resume ? get("cmi.core.lesson_location") : "";
  if (/^[a-z0-9_-]{1,100}$/.test(step)) {
    var params = new URLSearchParams(location.search);
    if (!params.has("step")) {
      params.set("step", step);
      history.replaceState(history.state, "", "?" + params.toString() + location.hash);
    }
  }

  var DONE = { completed: true, passed: true, failed: true };
  var sent = {};
  function set(element, value) {
    if (sent[element] === value) return true;
    if (String(call("LMSSetValue", [element, value])) !== "true") {
      trouble("setting " + element);
      return false;
    }
    sent[element] = value;
    return true;
  }
  function commit() {
    if (String(call("LMSCommit", [""])) === "true") return;
    if (String(call("LMSCommit", [""])) !== "true") trouble("the platform refused to save it twice");
  }
  // What the page shows now, as the platform records it: the learner's best score and a
  // status that does not go back from done.
  function report() {
    var before = JSON.stringify(sent);
    var score = root.getAttribute("data-lesson-score");
    if (score !== null && /^\d{1,3}$/.test(score)) {
      var raw = Math.min(100, Number(score));
      if (isFinite(launched.score) && launched.score > raw) raw = launched.score;
      set("cmi.core.score.min", "0");
      set("cmi.core.score.max", "100");
      set("cmi.core.score.raw", String(raw));
    }
    var status = root.getAttribute("data-lesson-status");
    if (status === "completed" || status === "incomplete") {
      if (DONE[launched.status] && status === "incomplete") status = launched.status;
      set("cmi.core.lesson_status", status);
      set("cmi.core.exit", DONE[status] ? "" : "suspend");
    }
    if (root.hasAttribute("data-lesson-location")) {
      set("cmi.core.lesson_location", root.getAttribute("data-lesson-location").slice(0, 255));
    }
    if (root.hasAttribute("data-lesson-record")) {
      set("cmi.suspend_data", root.getAttribute("data-lesson-record").slice(0, 4096));
    }
    if (JSON.stringify(sent) !== before) commit();
  }
  new MutationObserver(report).observe(root, {
    attributes: true,
    attributeFilter: ["data-lesson-score", "data-lesson-status", "data-lesson-record", "data-lesson-location"],
  });

  var started = Date.now();
  // SCORM 1.2's CMITimespan: HHHH:MM:SS.SS.
  function timespan(ms) {
    var centis = Math.min(Math.round(ms / 10), 9999 * 360000 + 359999);
    var pad = function (n, width) { return String(n).padStart(width, "0"); };
    return pad(Math.floor(centis / 360000), 4) + ":" + pad(Math.floor(centis / 6000) % 60, 2) + ":" +
      pad(Math.floor(centis / 100) % 60, 2) + "." + pad(centis % 100, 2);
  }
  var finished = false;
  function finish() {
    if (finished) return;
    finished = true;
    report();
    set("cmi.core.session_time", timespan(Date.now() - started));
    commit();
    call("LMSFinish", [""]);
  }
  window.addEventListener("pagehide", finish);
  window.addEventListener("beforeunload", finish);

  // The platform launched this lesson: a link to any other page (another lesson, the
  // exercises, the playground) opens in a new tab, so that the session and its score stay
  // with this lesson. Links between its own steps stay here.
  var lesson = new URLSearchParams(location.search).get("lesson");
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element ? event.target.closest("a[href]") : null;
    if (!link || link.target === "_blank") return;
    var to = new URL(link.href, location.href);
    var here = to.pathname === location.pathname &&
      (new URLSearchParams(to.search).get("lesson") || lesson) === lesson;
    if (here) return;
    event.preventDefault();
    window.open(to.href, "_blank", "noopener");
  }, true);
})();
