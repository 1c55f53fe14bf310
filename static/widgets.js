// Resilience Playground widgets for course pages. No build step:
//
//   <script type="module" src="https://example.org/playground/widgets.js"></script>
//   <resilience-widget kind="circuit-diagram" preset="cb" cooldown="2s"></resilience-widget>
//
// Every attribute but `kind` and `theme` is a setting with the playground's names and units
// (see the README). A bad value shows a notice inside the widget, which then uses its default.
// The simulator is fetched and compiled once, from next to this file; each widget runs its own
// instance of it, so a widget that fails leaves the others working.

const here = new URL(".", import.meta.url);
let compiled = null;
let instances = 0;

// The simulator's WebAssembly, fetched and compiled once for the whole page.
function compileSimulator() {
  if (!compiled) {
    if (!document.querySelector("link[data-resilience-playground]")) {
      const css = document.createElement("link");
      css.rel = "stylesheet";
      css.href = new URL("style.css", here).href;
      css.dataset.resiliencePlayground = "";
      document.head.append(css);
    }
    const url = new URL("resilience-playground_bg.wasm", here);
    compiled = WebAssembly.compileStreaming(fetch(url)).catch(async () =>
      // A host that serves .wasm under another type: compile from the bytes instead.
      WebAssembly.compile(await (await fetch(url)).arrayBuffer()));
  }
  return compiled;
}

// A fresh instance of the simulator for one widget. Importing the glue under a URL of its own
// gives it its own module state, and so its own WebAssembly instance and memory: a panic (the
// build aborts, it cannot unwind) stops that widget alone, never the others on the page.
async function newSimulator() {
  const module = await compileSimulator();
  instances += 1;
  const number = instances;
  const glue = new URL("resilience-playground.js", here);
  glue.searchParams.set("instance", String(number));
  const wasm = await import(glue.href);
  const exports = await wasm.default({ module_or_path: module });
  return { wasm, exports, number };
}

// Mounts a widget into `host`; `settings` is a query string (`kind=histogram&preset=cb`).
export async function mount(host, settings) {
  host.textContent = "Loading the simulator\u2026";
  try {
    const { wasm, exports, number } = await newSimulator();
    // For measurements: the bytes of this widget's own WebAssembly memory.
    host.simulatorMemory = exports.memory;
    // The number makes the widget's element ids unique on the page.
    wasm.mountWidget(host, settings, new URL("index.html", here).href, number);
  } catch (error) {
    host.textContent = "This widget could not start (" + error + "). It needs a browser with " +
      "WebAssembly and JavaScript modules.";
  }
}

class ResilienceWidget extends HTMLElement {
  connectedCallback() {
    if (this.mounted) return;
    this.mounted = true;
    const settings = new URLSearchParams([...this.attributes].map((a) => [a.name, a.value]));
    mount(this, settings.toString());
  }
}

if (!customElements.get("resilience-widget")) {
  customElements.define("resilience-widget", ResilienceWidget);
}
