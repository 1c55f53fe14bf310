// Resilience Playground widgets for course pages. No build step:
//
//   <script type="module" src="https://example.org/playground/widgets.js"></script>
//   <resilience-widget kind="circuit-diagram" preset="cb" cooldown="2s"></resilience-widget>
//
// Every attribute but `kind` and `theme` is a setting with the playground's names and units
// (see the README). A bad value shows a notice inside the widget, which then uses its default.
// The simulator is loaded once, from next to this file, however many widgets a page holds.

const here = new URL(".", import.meta.url);
let simulator = null;

function loadSimulator() {
  if (!simulator) {
    simulator = (async () => {
      if (!document.querySelector("link[data-resilience-playground]")) {
        const css = document.createElement("link");
        css.rel = "stylesheet";
        css.href = new URL("style.css", here).href;
        css.dataset.resiliencePlayground = "";
        document.head.append(css);
      }
      const wasm = await import(new URL("resilience-playground.js", here).href);
      await wasm.default({ module_or_path: new URL("resilience-playground_bg.wasm", here) });
      return wasm;
    })();
  }
  return simulator;
}

// Mounts a widget into `host`; `settings` is a query string (`kind=histogram&preset=cb`).
export async function mount(host, settings) {
  host.textContent = "Loading the simulator\u2026";
  try {
    const wasm = await loadSimulator();
    wasm.mountWidget(host, settings, new URL("index.html", here).href);
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
