// For a course page that shows Resilience Playground pages in iframes: sizes each such iframe
// to the height its page reports (see frame-height.js), so it never scrolls inside. Include it
// once, anywhere on the page, from the playground's host:
//
//   <script src="https://example.org/playground/iframe-host.js" defer></script>
//
// A message counts only from a window that is one of this page's iframes showing a page of the
// playground (an address in this script's own folder, or an iframe marked
// `data-resilience-playground`), and only when it comes from the origin that iframe was loaded
// from. A height counts when it is a finite number above 0; the frame is then set to it, but
// never under 150 px nor over 100,000 px. Anything else is ignored (the frame keeps its
// height). No dependency, no request; an iframe without this script still works, at its own
// height.
(function () {
  "use strict";
  var TYPE = "resilience-playground:height";
  var MOST = 100000;
  var FLOOR = 150;
  // The playground's folder: where this script was loaded from.
  var script = document.currentScript;
  var home = script && script.src ? new URL(".", script.src).href : null;
  window.addEventListener("message", function (event) {
    var data = event.data;
    if (!data || data.type !== TYPE || typeof data.height !== "number" || !isFinite(data.height)) {
      return;
    }
    if (data.height <= 0) return;
    var frames = document.getElementsByTagName("iframe");
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      var src = frame.getAttribute("src");
      if (!src) return;
      var address;
      try {
        address = new URL(src, location.href);
      } catch (e) {
        return;
      }
      if (address.origin !== event.origin) return;
      var marked = frame.hasAttribute("data-resilience-playground");
      if (!marked && !(home && address.href.indexOf(home) === 0)) return;
      frame.style.height = Math.max(FLOOR, Math.min(Math.ceil(data.height), MOST)) + "px";
      return;
    }
  });
})();
