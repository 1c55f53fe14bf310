// Writes dist-single/resilience-playground.html: the playground as one file that opens from
// disk (file:// cannot load module scripts or fetch a .wasm), for a classroom with no network.
// The file holds the guided lessons (their files too) and the exercises: `?lesson=km0` (any lesson link's
// query) shows a lesson, `?exercises` the exercises, anything else the playground.
//
//   node scripts/single-file.mjs <bindgen-dir> <dist-dir> <out-file>
//
// <bindgen-dir> holds wasm-bindgen's `--target no-modules` output (resilience-playground.js
// and resilience-playground_bg.wasm, already through wasm-opt); <dist-dir> is trunk's dist/,
// read for its index.html and CSS. The page gets a Content-Security-Policy of its own: its two
// inline scripts by their sha256 hashes, compiling WebAssembly allowed, nothing loaded from
// anywhere.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const [bindgenDir, distDir, outFile] = process.argv.slice(2);
if (!bindgenDir || !distDir || !outFile) {
  console.error("usage: node scripts/single-file.mjs <bindgen-dir> <dist-dir> <out-file>");
  process.exit(2);
}

const read = (path) => readFileSync(path, "utf8");
let html = read(join(distDir, "index.html"));
const glue = read(join(bindgenDir, "resilience-playground.js"));
const wasm = readFileSync(join(bindgenDir, "resilience-playground_bg.wasm"));

// Nothing inline may close the element it sits in.
const safeScript = (js) => js.replace(/<\/script/gi, "<\\/script");
const safeStyle = (css) => css.replace(/<\/style/gi, "<\\/style");

// Trunk's own loading: module scripts, preloads, stylesheet links. All replaced below.
html = html
  .replace(/<script type="module"[^>]*>[\s\S]*?<\/script>/g, "")
  .replace(/<link rel="(modulepreload|preload)"[^>]*>/g, "")
  .replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/gi, "");
const styles = [];
html = html.replace(/<link rel="stylesheet" href="([^"]+)"[^>]*>/g, (_, href) => {
  styles.push(safeStyle(read(join(distDir, href.replace(/^\.\//, "").split("?")[0]))));
  return "";
});
html = html.replace(/<link rel="icon"[^>]*>/g, "");
if (styles.length === 0) {
  for (const name of readdirSync(distDir).filter((n) => n.endsWith(".css"))) {
    styles.push(safeStyle(read(join(distDir, name))));
  }
}
// The links between pages lead to this file's own pages; the course-page demo is not in it.
const fileName = basename(outFile);
const ownLinks = (text) =>
  text
    .replace(/<a href="course-demo\.html">[\s\S]*?<\/a>\s*/g, "")
    .replace(/<footer class="page-footer">[\s\S]*?<\/footer>\s*/g, "")
    .replace(/href="lesson\.html\?/g, `href="${fileName}?`)
    .replace(/href="exercises\.html"/g, `href="${fileName}?exercises"`)
    .replace(/href="(\.\/)?index\.html"/g, `href="${fileName}"`);
html = ownLinks(html).replace(/<html([^>]*)>/, "<html$1 data-one-file>");

// The lesson and exercise pages, as templates the start script shows in place of the
// playground when the query asks for them.
const escapeAttribute = (text) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;");
const templates = ["lesson", "exercises"].map((route) => {
  const page = read(join(distDir, `${route}.html`));
  const body = page.match(/<body[^>]*>([\s\S]*)<\/body>/)[1].replace(/<script[\s\S]*?<\/script>/g, "");
  const title = page.match(/<title>([\s\S]*?)<\/title>/)[1].trim();
  const classes = (page.match(/<html[^>]*class="([^"]*)"/) || [])[1] || "rp";
  return `<template id="rp-page-${route}" data-title="${escapeAttribute(title)}" ` +
    `data-class="${escapeAttribute(classes)}">${ownLinks(body)}</template>`;
});

// The glue as a factory: each call makes a module state of its own, so each exercise gets an
// instance of the simulator of its own, as `widgets.js` gives them on the site.
const glueScript = safeScript(`function resilienceGlue() {\n${glue}\nreturn wasm_bindgen;\n}`);
const startScript = safeScript(`
(function () {
  var query = new URLSearchParams(location.search);
  var route = query.has("lesson") ? "lesson" : query.has("exercises") ? "exercises" : "";
  var text = atob(document.getElementById("resilience-wasm").textContent.trim());
  var bytes = new Uint8Array(text.length);
  for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
  if (route) {
    var page = document.getElementById("rp-page-" + route);
    Array.prototype.slice.call(document.body.children).forEach(function (node) {
      if (node.tagName !== "SCRIPT" && node.tagName !== "TEMPLATE") { node.remove(); }
    });
    document.body.prepend(page.content.cloneNode(true));
    document.title = page.dataset.title;
    document.documentElement.className = page.dataset.class;
  }
  var bar = document.getElementById("loading-progress");
  if (bar) { bar.removeAttribute("value"); }
  function failed(where, error) {
    where.className = "failure";
    where.textContent = "The playground could not start (" + error + ").";
  }
  if (route !== "exercises") {
    resilienceGlue()({ module_or_path: bytes }).catch(function (error) {
      var notice = document.getElementById("loading-notice");
      if (notice) { failed(notice, error); }
    });
    return;
  }
  // The exercises: each widget mounted on an instance of its own, from one compiled module.
  var playground = location.href.split(/[?#]/)[0];
  var widgets = Array.prototype.slice.call(document.querySelectorAll("resilience-widget"));
  var compiled = WebAssembly.compile(bytes);
  widgets.forEach(function (host, n) {
    var settings = new URLSearchParams();
    Array.prototype.forEach.call(host.attributes, function (a) { settings.append(a.name, a.value); });
    if ((host.getAttribute("theme") || "auto").trim() === "auto") {
      var background = "rgb(255, 255, 255)";
      for (var node = host.parentElement; node; node = node.parentElement) {
        var colour = getComputedStyle(node).backgroundColor;
        if (colour && colour !== "transparent" && !/rgba\\(.*,\\s*0\\)$/.test(colour)) { background = colour; break; }
      }
      settings.set("host-background", background);
    }
    var glue = resilienceGlue();
    compiled
      .then(function (module) { return glue({ module_or_path: module }); })
      .then(function () { glue.mountWidget(host, settings.toString(), playground, n + 1); })
      .catch(function (error) { failed(host, error); });
  });
})();
`);
// The shipped lessons' files, which the lesson page otherwise fetches from dist/lessons/: a
// JSON object from each file's name to its text, read by the page (not a script it runs).
const lessonsDir = join(distDir, "lessons");
const lessonFiles = Object.fromEntries(
  readdirSync(lessonsDir)
    .filter((name) => name.endsWith(".md"))
    .map((name) => [`lessons/${name}`, read(join(lessonsDir, name))]),
);
const lessonsJson = JSON.stringify(lessonFiles).replace(/</g, "\\u003c");

const hash = (text) => "'sha256-" + createHash("sha256").update(text, "utf8").digest("base64") + "'";
// The inline timeout notice trunk's page already carries, if it is there.
const inlineScripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const policy = [
  "default-src 'none'",
  `script-src ${[glueScript, startScript, ...inlineScripts].map(hash).join(" ")} 'wasm-unsafe-eval'`,
  // Yew writes style attributes (bar widths), which hashes cannot cover.
  "style-src 'unsafe-inline'",
  "img-src data: blob:",
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const head =
  `<meta http-equiv="Content-Security-Policy" content="${policy}">\n` +
  styles.map((css) => `<style>\n${css}\n</style>`).join("\n");
const tail =
  // Not a script the browser runs: the wasm as base64 text, read by the start script.
  `<script type="application/octet-stream" id="resilience-wasm">${wasm.toString("base64")}</script>\n` +
  `<script type="application/json" id="resilience-lessons">${lessonsJson}</script>\n` +
  templates.join("\n") + "\n" +
  `<script>${glueScript}</script>\n<script>${startScript}</script>\n`;
html = html.replace("</head>", `${head}\n</head>`).replace("</body>", `${tail}</body>`);

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, html);
console.log(`${outFile}: ${(html.length / 1024).toFixed(0)} KiB, one file, script-src by sha256`);
