// In a SCORM 1.2 package (`make scorm`): reports the lesson's progress to the learning
// platform that launched it, through the `API` object the platform puts on one of this
// window's parents (or its opener). Outside a platform there is no API and it does nothing.
// It reads the score the lesson page publishes on its root element (`data-lesson-score`,
// 0 to 100: the questions answered with a prediction and the challenges passed;
// `data-lesson-status`: incomplete or completed), and sends each change.
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
  if (!api || String(api.LMSInitialize("")) !== "true") return;
  var root = document.documentElement;
  var sent = { score: null, status: null };
  function report() {
    var score = root.getAttribute("data-lesson-score");
    var status = root.getAttribute("data-lesson-status");
    if (score === null || (score === sent.score && status === sent.status)) return;
    api.LMSSetValue("cmi.core.score.min", "0");
    api.LMSSetValue("cmi.core.score.max", "100");
    api.LMSSetValue("cmi.core.score.raw", score);
    api.LMSSetValue("cmi.core.lesson_status", status || "incomplete");
    api.LMSCommit("");
    sent = { score: score, status: status };
  }
  new MutationObserver(report).observe(root, {
    attributes: true,
    attributeFilter: ["data-lesson-score", "data-lesson-status"],
  });
  report();
  var finished = false;
  function finish() {
    if (finished) return;
    finished = true;
    report();
    api.LMSFinish("");
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
