// Starts the playground page: loads the simulator's WebAssembly from next to this file.
// An external module rather than Trunk's inline start script (Trunk.toml: pattern_script), so
// the page's Content-Security-Policy needs no 'unsafe-inline' for scripts.
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

// A download that never ends (a proxy, a blocked file) says so rather than "Loading" forever.
const watch = setTimeout(showFailure, 15000);
try {
  const wasm = await init({
    module_or_path: new URL("resilience-playground_bg.wasm", import.meta.url),
  });
  // For `make soak`: the simulator's memory, to follow its size.
  window.resiliencePlaygroundMemory = wasm.memory;
} catch (error) {
  console.warn("resilience-playground: " + error);
  showFailure();
} finally {
  clearTimeout(watch);
}
