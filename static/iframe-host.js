// For a course page that shows Resilience Playground pages in iframes: sizes each such iframe
// to the height its page reports (see frame-height.js), so it never scrolls inside. Include it
// once, anywhere on the page, from the playground's host:
//
//   <script src="https://example.org/playground/iframe-host.js" defer></script>
//
// A message counts only from a window that is one of this page's iframes, and only when it
// comes from the origin that iframe was loaded from; anything else is ignored. No dependency,
// no request; an iframe without this script still works, at its own height.
(function () {
  "use strict";
  var TYPE = "resilience-playground:height";
  var MOST = 100000;
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== TYPE || typeof data.height !== "number" || !isFinite(data.height)) {
      return;
    }
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      var origin;
      try {
        origin = new URL(frame.src, location.href).origin;
      } catch (e) {
        return;
      }
      if (origin !== event.origin) return;
      frame.style.height = Math.max(0, Math.min(Math.ceil(data.height), MOST)) + "px";
      return;
    }
  });
})();
