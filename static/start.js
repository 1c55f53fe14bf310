// Starts the playground page: downloads the simulator's WebAssembly from next to this file,
// moving the loading notice's progress bar as the bytes arrive, then starts it. An external
// module rather than Trunk's inline start script (Trunk.toml: pattern_script), so the page's
// Content-Security-Policy needs no 'unsafe-inline' for scripts.
import init from "./resilience-playground.js";

const failure = "The playground could not start: this browser did not load its WebAssembly " +
  "module. Try a current Firefox, Chrome, Edge or Safari, and reload.";

function showFailure() {
  const notice = document.getElementById("loading-notice");
  if (notice && !window.__resiliencePlaygroundStarted) {
    notice.className = "failure";
    notice.textContent = failure;
  }
}

// The wasm as bytes, read piece by piece for the progress bar. A host that compresses it
// gives the compressed length (or none), which the received bytes cannot be compared with:
// the bar then waits without a figure.
async function download(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error("HTTP " + response.status);
  const bar = document.getElementById("loading-progress");
  const total = response.headers.get("content-encoding")
    ? 0
    : Number(response.headers.get("content-length")) || 0;
  if (!response.body || !bar) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const pieces = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    received += value.length;
    stillReceiving();
    if (total > 0) {
      bar.max = total;
      bar.value = Math.min(received, total);
    }
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

// A download that stalls (a proxy, a blocked file) says so rather than "Loading" forever; a
// slow one that keeps receiving bytes is left to finish.
let watch = setTimeout(showFailure, 15000);
function stillReceiving() {
  clearTimeout(watch);
  watch = setTimeout(showFailure, 15000);
}

try {
  const bytes = await download(new URL("resilience-playground_bg.wasm", import.meta.url));
  const wasm = await init({ module_or_path: bytes });
  // For `make soak`: the simulator's memory, to follow its size.
  window.resiliencePlaygroundMemory = wasm.memory;
} catch (error) {
  console.warn("resilience-playground: " + error);
  showFailure();
} finally {
  clearTimeout(watch);
}
