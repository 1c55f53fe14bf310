// Resilience Playground widgets for course pages. No build step:
//
//   <script type="module" src="https://example.org/playground/widgets.js"></script>
//   <resilience-widget kind="circuit-diagram" preset="cb" cooldown="2s"></resilience-widget>
//
// Every attribute but `kind`, `theme`, `chrome` and `scale` is a setting with the playground's
// names and units (see the README). A bad value shows a notice inside the widget, which then
// uses its default. Changing an attribute later mounts the widget again with the new settings;
// so does a host page that switches between light and dark under a widget whose theme is auto.
// The simulator is downloaded and compiled once, from next to this file, however many widgets
// a page holds (while it downloads, each widget shows how far it has got); a page of charts
// alone, or of explorers alone, gets a smaller module that draws just those. Each widget then
// runs an instance of its own, so a widget that fails leaves the others working.

const here = new URL(".", import.meta.url);
// The kinds the charts, explorers, libraries, lessons and exercises modules draw (ChartKinds,
// ExplorerKinds, LibraryKinds, LessonKinds and ExerciseKinds in src/ui/widget.rs): a page
// whose widgets all belong to these families downloads one module that holds them all, or
// else each family's module it needs, once; a page with any other kind takes the whole
// module, which then serves every widget of the page, so no page fetches a module twice. The
// lessons module holds the charts too, so a lesson's step beside a chart fetches it alone.
const CHART_KINDS = ["circuit-diagram", "histogram", "lesson-table"];
const EXPLORER_KINDS = ["jitter", "metastability"];
const LIBRARY_KINDS = ["compare-libraries"];
const LESSON_KINDS = ["lesson-step", "circuit-diagram", "histogram", "lesson-table"];
const EXERCISE_KINDS = ["exercise-1", "exercise-2", "exercise-3", "exercise-4"];
const FAMILIES = [
  ["widget-charts", CHART_KINDS],
  ["widget-explorers", EXPLORER_KINDS],
  ["widget-libraries", LIBRARY_KINDS],
  ["widget-lessons", LESSON_KINDS],
  ["widget-exercises", EXERCISE_KINDS],
];
const WHOLE = "resilience-playground";
// Each module's compilation, started once per page.
const compiled = new Map();
let instances = 0;
const waiting = new Set();

// Tells every widget still waiting how much of the simulator has arrived.
function progress(received, total) {
  for (const bar of waiting) {
    if (total > 0) {
      bar.max = total;
      bar.value = received;
    }
  }
}

// The wasm as bytes, read piece by piece so the bars can move. Servers that send it compressed
// give the compressed length (or none): the bar then fills by the received share, or, with no
// length, waits without a figure.
async function fetchWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error("the simulator could not be downloaded (" + response.status + ")");
  const encoded = response.headers.get("content-encoding");
  const total = encoded ? 0 : Number(response.headers.get("content-length")) || 0;
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const pieces = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    pieces.push(value);
    received += value.length;
    progress(received, total);
  }
  const bytes = new Uint8Array(received);
  let at = 0;
  for (const piece of pieces) {
    bytes.set(piece, at);
    at += piece.length;
  }
  return bytes;
}

// The module a widget of `kind` runs on, when every widget on the page is of a family
// (embed.html holds no element: its one widget decides): the first family's that holds every
// kind on the page, else the first of its own kind's; otherwise the whole one.
function moduleFor(kind) {
  const holds = (k) => ([, kinds]) => kinds.includes(k);
  const family = FAMILIES.find(holds(kind));
  if (!family || compiled.has(WHOLE)) return WHOLE;
  const onPage = [...document.querySelectorAll("resilience-widget")]
    .map((w) => (w.getAttribute("kind") ?? "").trim())
    .concat(kind);
  if (!onPage.every((k) => FAMILIES.some(holds(k)))) return WHOLE;
  const all = FAMILIES.find((f) => onPage.every((k) => holds(k)(f)));
  return (all ?? family)[0];
}

// A module's WebAssembly, downloaded and compiled once for the whole page.
function compileModule(name) {
  const style = new URL("style.css", here).href;
  // The playground's own page has the style sheet already.
  const styled = [...document.styleSheets].some((sheet) => sheet.href === style);
  if (!styled && !document.querySelector("link[data-resilience-playground]")) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = style;
    css.dataset.resiliencePlayground = "";
    document.head.append(css);
  }
  if (!compiled.has(name)) {
    compiled.set(name, fetchWasm(new URL(name + "_bg.wasm", here)).then((bytes) =>
      WebAssembly.compile(bytes)));
  }
  return compiled.get(name);
}

// A fresh instance of module `name` for one widget. Importing the glue under a URL of its own
// gives it its own module state, and so its own WebAssembly instance and memory: a panic (the
// build aborts, it cannot unwind) stops that widget alone, never the others on the page.
async function newSimulator(name) {
  instances += 1;
  const number = instances;
  const glue = new URL(name + ".js", here);
  glue.searchParams.set("instance", String(number));
  // The glue is fetched while the wasm downloads, not after it.
  const [module, wasm] = await Promise.all([compileModule(name), import(glue.href)]);
  const exports = await wasm.default({ module_or_path: module });
  return { name, wasm, exports, number };
}

// The host page's background where the widget sits: the first ancestor that paints one, else
// the page's canvas (white). `theme="auto"` follows it, not the reader's system.
function hostBackground(element) {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const colour = getComputedStyle(node).backgroundColor;
    if (colour && colour !== "transparent" && !/rgba\(.*,\s*0\)$/.test(colour)) return colour;
  }
  return "rgb(255, 255, 255)";
}

// The settings of an element: its attributes, plus the host's background when the theme is
// left to follow it.
function settingsOf(element) {
  const settings = new URLSearchParams([...element.attributes].map((a) => [a.name, a.value]));
  const theme = (element.getAttribute("theme") || "auto").trim();
  if (theme === "auto") settings.set("host-background", hostBackground(element));
  return settings.toString();
}

// The size the widget's rem lengths are meant for: the browser's default font size (the
// reader's own setting). A course page whose root font size differs (mdBook sets 62.5%,
// Bootstrap 3 sites 10 px) would shrink or grow them all, so its widgets get that size as
// --rp-rem, which dist/style.css's lengths follow (scripts/widget-rem.mjs).
function keepOwnRem(host) {
  // The playground's own pages set their root size themselves (larger in projector mode), and
  // an explorer started there follows it like the rest of the page.
  if (document.documentElement.classList.contains("rp")) return;
  const probe = document.createElement("span");
  probe.style.cssText = "position: absolute; visibility: hidden; font-size: medium";
  document.body.append(probe);
  const medium = parseFloat(getComputedStyle(probe).fontSize);
  probe.remove();
  const root = parseFloat(getComputedStyle(document.documentElement).fontSize);
  if (medium > 0 && root > 0 && Math.abs(root - medium) > 0.5) {
    host.style.setProperty("--rp-rem", medium + "px");
  }
}

// Mounts a widget into `host`; `settings` is a query string (`kind=histogram&preset=cb`).
// `simulator` is the host's own instance when it has one already (a widget mounted again with
// new attributes keeps its instance, unless its new kind needs the other module); a new one is
// made otherwise. Resolves to
// `{ simulator, handle }`, where `handle.destroy()` unmounts the widget, or null if it could
// not start.
export async function mount(host, settings, simulator = null) {
  keepOwnRem(host);
  const loading = document.createElement("div");
  loading.className = "rp-loading";
  loading.setAttribute("role", "status");
  const label = document.createElement("span");
  label.textContent = "Loading the simulator\u2026 ";
  const bar = document.createElement("progress");
  bar.setAttribute("aria-label", "Simulator downloaded");
  loading.append(label, bar);
  host.replaceChildren(loading);
  waiting.add(bar);
  try {
    // A widget mounted again keeps its instance while its kind needs no other module.
    const name = moduleFor((new URLSearchParams(settings).get("kind") ?? "").trim());
    const own = simulator?.name === name ? simulator : await newSimulator(name);
    // For measurements: the bytes of this widget's own WebAssembly memory.
    host.simulatorMemory = own.exports.memory;
    // The number makes the widget's element ids unique on the page.
    const handle = own.wasm.mountWidget(host, settings, new URL("index.html", here).href, own.number);
    return { simulator: own, handle };
  } catch (error) {
    host.textContent = "This widget could not start (" + error + "). It needs a browser with " +
      "WebAssembly and JavaScript modules.";
    return null;
  } finally {
    waiting.delete(bar);
  }
}

// The widgets whose theme follows the host page. A site's own light/dark switch (Docusaurus,
// mdBook, a course platform) changes a class or an attribute of <html> or <body>, or follows
// the reader's system: each of these makes every such widget look at its background again, once
// the page's own colour transition has had time to end.
const following = new Set();
let hostWatch = null;
const SETTLE_MS = 400;

function watchHostTheme(widget) {
  following.add(widget);
  if (hostWatch) return;
  let timer = 0;
  const recheck = () => {
    clearTimeout(timer);
    timer = setTimeout(() => following.forEach((w) => w.followHost()), SETTLE_MS);
  };
  hostWatch = new MutationObserver(recheck);
  for (const node of [document.documentElement, document.body]) {
    if (node) hostWatch.observe(node, { attributes: true });
  }
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", recheck);
}

class ResilienceWidget extends HTMLElement {
  connectedCallback() {
    if (this.started) return;
    this.started = true;
    // After the current task's scripts: a framework that inserts the element before setting
    // its attributes (Yew, React) has set them by then, `kind` included, which picks the
    // module.
    this.scheduleRemount();
    // Any attribute, including settings added after this file was written.
    this.observer = new MutationObserver(() => this.scheduleRemount());
    this.observer.observe(this, { attributes: true });
    watchHostTheme(this);
  }

  // With theme="auto", a host whose background has changed since the widget was mounted gets
  // the widget mounted again in its new colours.
  followHost() {
    const settings = settingsOf(this);
    if (this.isConnected && this.started && settings !== this.settings) this.scheduleRemount();
  }

  disconnectedCallback() {
    // A widget moved elsewhere in the page is connected again at once: keep it then.
    queueMicrotask(() => {
      if (this.isConnected) return;
      this.observer?.disconnect();
      following.delete(this);
      this.started = false;
      this.mounted?.then((m) => m?.handle?.destroy());
      this.mounted = null;
    });
  }

  // Several attributes set one after the other mount once.
  scheduleRemount() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.remount();
    });
  }

  remount() {
    const before = this.mounted;
    const settings = settingsOf(this);
    this.settings = settings;
    this.mounted = (async () => {
      const old = await before;
      old?.handle?.destroy();
      return mount(this, settings, old?.simulator);
    })();
  }
}

if (!customElements.get("resilience-widget")) {
  customElements.define("resilience-widget", ResilienceWidget);
}
