// Writes a SCORM 1.2 package's folder for one guided lesson: a copy of dist/ (the lesson page
// and everything it loads), scorm.js added to lesson.html, and an imsmanifest.xml whose one
// SCO launches that lesson. The Makefile zips the folder.
//
//   node scripts/scorm.mjs <dist-dir> <lesson> <out-dir>
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

const [distDir, lesson, outDir] = process.argv.slice(2);
if (!distDir || !lesson || !outDir) {
  console.error("usage: node scripts/scorm.mjs <dist-dir> <lesson> <out-dir>");
  process.exit(2);
}
if (!/^[a-z0-9_-]+$/.test(lesson) || !existsSync(join(distDir, "lessons", `${lesson}.md`))) {
  console.error(`LESSON: "${lesson}" is not a lesson in ${distDir}/lessons (km0, northwind, challenges or zoo)`);
  process.exit(2);
}
const title = (readFileSync(join(distDir, "lessons", `${lesson}.md`), "utf8").match(/^# (.+)$/m) || [])[1] || lesson;
const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;");

rmSync(outDir, { recursive: true, force: true });
cpSync(distDir, outDir, { recursive: true });
// A platform serves the files as they are: the precompressed twins stay out (and the lesson
// page's would not report).
for (const entry of readdirSync(outDir, { recursive: true })) {
  if (/\.(br|gz)$/.test(entry)) rmSync(join(outDir, entry));
}
// Nor the offline file (the package is what the platform serves), nor the pages' link to it.
rmSync(join(outDir, "offline.html"), { force: true });
for (const name of readdirSync(outDir).filter((n) => n.endsWith(".html"))) {
  const file = join(outDir, name);
  writeFileSync(file, readFileSync(file, "utf8").replace(/<footer class="page-footer">[\s\S]*?<\/footer>\s*/g, ""));
}
// The package is one lesson: its page loads scorm.js, says it is a package (`data-scorm`, which
// hides the lesson-file opener), and its masthead names the playground without linking away
// from the lesson (scorm.js opens any other page in a new tab).
const page = join(outDir, "lesson.html");
let html = readFileSync(page, "utf8");
for (const [from, to] of [
  [/<html /, "<html data-scorm "],
  [/<p class="tagline">[\s\S]*?<\/p>/, '<p class="tagline">Resilience Playground</p>'],
  // Not deferred: it reads the platform's record before the lesson's module starts.
  [/<\/head>/, '<script src="scorm.js"></script>\n</head>'],
]) {
  if (!from.test(html)) {
    console.error(`${page}: found no ${from} to change`);
    process.exit(1);
  }
  html = html.replace(from, to);
}
writeFileSync(page, html);
cpSync(join("static", "scorm.js"), join(outDir, "scorm.js"));

const launch = `lesson.html?lesson=${lesson}`;
// Every file of the package belongs to the SCO (the lesson page, its module, styles and lesson
// files, and the pages its links open in a new tab), so a platform that copies only what the
// manifest lists still has them all.
const files = readdirSync(outDir, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile())
  .map((entry) => relative(outDir, join(entry.parentPath ?? entry.path, entry.name)).split(sep).join("/"))
  .sort();
writeFileSync(join(outDir, "imsmanifest.xml"), `<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="resilience-playground-${lesson}" version="1.0"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
    xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
    xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="course">
    <organization identifier="course">
      <title>${escape(title)}</title>
      <item identifier="lesson" identifierref="sco" isvisible="true">
        <title>${escape(title)}</title>
      </item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="sco" type="webcontent" adlcp:scormtype="sco" href="${escape(launch)}">
${files.map((f) => `      <file href="${escape(f)}"/>`).join("\n")}
    </resource>
  </resources>
</manifest>
`);
console.log(`${outDir}: SCORM 1.2 package of "${title}", launching ${launch}`);
