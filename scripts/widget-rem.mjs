// Rewrites each length in rem of a built style sheet as calc(N * var(--rp-rem, 1rem)), so that
// a widget on a course page whose root font size is not the browser's 16 px (mdBook sets
// 62.5%, Bootstrap 3 sites 10 px) keeps its sizes: widgets.js sets --rp-rem to 16px on such a
// page's widgets. Unset, the fallback is 1rem and every page of the playground is as written.
// Media queries keep their rem (var() has no meaning there).
//
//   node scripts/widget-rem.mjs <style.css>
import { readFileSync, writeFileSync } from "node:fs";

const [file] = process.argv.slice(2);
if (!file) {
  console.error("usage: node scripts/widget-rem.mjs <style.css>");
  process.exit(2);
}
const css = readFileSync(file, "utf8");
// The conditions of at-rules (`@media (max-width: 40rem)`) are set aside, then put back.
const conditions = [];
const masked = css.replace(/@(?:media|container|supports)[^{]*/g, (condition) => {
  conditions.push(condition);
  return `@@condition${conditions.length - 1}@@`;
});
let count = 0;
const out = masked
  .replace(/(^|[^\w.-])(-?(?:\d+\.?\d*|\.\d+))rem\b/g, (_, before, number) => {
    count += 1;
    return `${before}calc(${number} * var(--rp-rem, 1rem))`;
  })
  .replace(/@@condition(\d+)@@/g, (_, i) => conditions[Number(i)]);
writeFileSync(file, out);
console.log(`${file}: ${count} lengths in rem now follow --rp-rem`);
