// Writes dist-single/resilience-playground.html: the playground as one file that opens from
// disk (file:// cannot load module scripts or fetch a .wasm), for a classroom with no network.
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
import { dirname, join } from "node:path";

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
// The other pages of dist/ are not in this file.
html = html.replace(/<nav class="pages"[\s\S]*?<\/nav>/, "");

const glueScript = safeScript(glue);
const startScript = safeScript(`
(function () {
  var bar = document.getElementById("loading-progress");
  if (bar) { bar.removeAttribute("value"); }
  var text = atob(document.getElementById("resilience-wasm").textContent.trim());
  var bytes = new Uint8Array(text.length);
  for (var i = 0; i < text.length; i++) { bytes[i] = text.charCodeAt(i); }
  wasm_bindgen({ module_or_path: bytes }).catch(function (error) {
    var notice = document.getElementById("loading-notice");
    if (notice) {
      notice.className = "failure";
      notice.textContent = "The playground could not start (" + error + ").";
    }
  });
})();
`);
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
  `<script>${glueScript}</script>\n<script>${startScript}</script>\n`;
html = html.replace("</head>", `${head}\n</head>`).replace("</body>", `${tail}</body>`);

mkdirSync(dirname(outFile), { recursive: true });
writeFileSync(outFile, html);
console.log(`${outFile}: ${(html.length / 1024).toFixed(0)} KiB, one file, script-src by sha256`);
