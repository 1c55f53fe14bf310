// Recomputes the Subresource Integrity hashes that Trunk wrote into dist/'s HTML, for files
// changed after Trunk (`make dist` minifies the CSS and JS): a stale hash would make the
// browser refuse the file.
//
//   node scripts/integrity.mjs <dist-dir>
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [distDir] = process.argv.slice(2);
if (!distDir) {
  console.error("usage: node scripts/integrity.mjs <dist-dir>");
  process.exit(2);
}

const hashOf = (algorithm, file) =>
  `${algorithm}-${createHash(algorithm).update(readFileSync(join(distDir, file))).digest("base64")}`;

for (const name of readdirSync(distDir).filter((n) => n.endsWith(".html"))) {
  const path = join(distDir, name);
  const html = readFileSync(path, "utf8");
  const fixed = html.replace(
    /(<[^>]*\b(?:href|src)="(?:\.\/)?([^"?#]+)"[^>]*\bintegrity=")(sha(?:256|384|512))-[^"]*"/g,
    (_, before, file, algorithm) => `${before}${hashOf(algorithm, file)}"`,
  );
  if (fixed !== html) writeFileSync(path, fixed);
}
