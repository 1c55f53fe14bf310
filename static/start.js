// Starts the playground page: downloads and compiles the simulator's WebAssembly from next to
// this file, moving the loading notice's progress bar as the bytes arrive. An external
// module rather than Trunk's inline start script (Trunk.toml: pattern_script), so the page's
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
import { reportHeight } from "./frame-height.js";

// Each page loads the module with its own views alone (the Makefile's `dist` prints their sizes).
const module = document.getElementById("resilience-lesson") ? "lesson-page" : "playground-page";

// The lesson page reads the lesson its address names before its first view: a shipped one
// (the masthead links to each) is asked for now, beside the wasm, as lesson.html asks for
// Kilometre Zero, the lesson of an address that names none.
if (module === "lesson-page") {
  const named = new URLSearchParams(location.search).get("lesson")?.trim();
  const file = "lessons/" + named + ".md";
  const shipped = [...document.querySelectorAll("header a[href^='lesson.html?lesson=']")]
    .some((a) => a.getAttribute("href") === "lesson.html?lesson=" + named);
  if (shipped && !document.querySelector(`link[rel='preload'][href='${file}']`)) {
    const link = document.createElement("link");
    Object.assign(link, { rel: "preload", href: file, as: "fetch", crossOrigin: "anonymous" });
    document.head.append(link);
  }
}

// Framed (a lesson in a course page), the page tells its host how tall it is.
reportHeight();

const failure = "The playground could not start: this browser did not load its WebAssembly " +
  "module. Try a current Firefox, Chrome, Edge or Safari, and reload.";

function showFailure() {
  const notice = document.getElementById("loading-notice");
  if (notice && !window.__resiliencePlaygroundStarted) {
    notice.className = "failure";
    notice.textContent = failure;
  }
}

// The wasm's response, its bytes counted for the progress bar on their way to the compiler, so
// the browser still compiles while it downloads. A host that compresses it gives the compressed
// length (or none), which the received bytes cannot be compared with: the bar then waits
// without a figure.
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error("HTTP " + response.status);
  const bar = document.getElementById("loading-progress");
  if (!response.body || !bar || typeof TransformStream !== "function") return response;
  const total = response.headers.get("content-encoding")
    ? 0
    : Number(response.headers.get("content-length")) || 0;
  let received = 0;
  const counted = response.body.pipeThrough(new TransformStream({
    transform(piece, controller) {
      received += piece.length;
      stillReceiving();
      if (total > 0) {
        bar.max = total;
        bar.value = Math.min(received, total);
      }
      controller.enqueue(piece);
    },
    flush() {
      performance.mark("rp-downloaded");
    },
  }));
  return new Response(counted, { headers: { "Content-Type": "application/wasm" } });
}

// A download that stalls (a proxy, a blocked file) says so rather than "Loading" forever; a
// slow one that keeps receiving bytes is left to finish.
let watch = setTimeout(showFailure, 15000);
function stillReceiving() {
  clearTimeout(watch);
  watch = setTimeout(showFailure, 15000);
}

try {
  // The wasm's download starts before the glue is imported: the page preloads both.
  const response = download(new URL(module + "_bg.wasm", import.meta.url));
  response.catch(() => {}); // a failed download is reported where it is awaited
  const glue = await import(new URL(module + ".js", import.meta.url).href);
  const wasm = await glue.default({ module_or_path: await response });
  // For `make measure-load`: when the module had compiled and its main had run.
  performance.mark("rp-started");
  // For `make soak`: the simulator's memory, to follow its size.
  window.resiliencePlaygroundMemory = wasm.memory;
} catch (error) {
  console.warn("resilience-playground: " + error);
  showFailure();
} finally {
  clearTimeout(watch);
}
