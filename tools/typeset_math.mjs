// Typesets the formulas of built pages once, when the site and the decks are built, so that a reader's
// browser runs no math JavaScript: it gets the formulas as HTML (MathJax's CommonHTML output, with a
// hidden MathML copy for screen readers) and a stylesheet whose fonts it fetches only when a formula
// uses them.
//
//   node tools/typeset_math.mjs <mathjax folder>  < job.json
//
// <mathjax folder> is the pinned `mathjax` npm package, unpacked (its es5/ builds run in Node too).
// The job on standard input: {"pages": [{"path": "...", "fonts": "URL of the woff fonts from that page"}]}.
// Each page is rewritten in place. One line of JSON per page on standard output:
// {"path", "formulas", "errors": [the TeX of every formula MathJax could not read]}.
// The formulas are found as they were in the browser: $…$, \(…\), $$…$$, \[…\] and environments, never in
// code, nor in a lab or a quiz (they write their own text).
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const FONTS = "attn-math-fonts:";  // stands for each page's own URL of the fonts (pages lie at two depths)

const [folder] = process.argv.slice(2);
if (!folder) {
  console.error("usage: node tools/typeset_math.mjs <mathjax folder> < job.json");
  process.exit(2);
}
const job = JSON.parse(readFileSync(0, "utf8"));
const require = createRequire(import.meta.url);
const { init } = require(resolve(join(folder, "es5", "node-main.js")));

const MathJax = await init({
  loader: { load: ["adaptors/liteDOM", "input/tex-full", "output/chtml", "a11y/assistive-mml"] },
  tex: {
    inlineMath: [["$", "$"], ["\\(", "\\)"]],
    displayMath: [["$$", "$$"], ["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true,
  },
  chtml: {
    fontURL: FONTS,
    // Characters MathJax's fonts lack (\text{明月照高楼} in 09): the bundled CJK face first (its
    // unicode-range keeps it to Chinese), then the machine's serif. Single quotes: this lands in a
    // style="…" attribute, and the serialiser does not escape quotes there.
    unknownFamily: "'Attn CJK', serif",
  },
  options: { ignoreHtmlClass: "tex2jax_ignore|mathjax_ignore|live-lab|live-quiz" },
  startup: { typeset: false },
});
const adaptor = MathJax.startup.adaptor;

for (const { path, fonts } of job.pages) {
  MathJax.startup.output.clearCache();  // each page gets a stylesheet of its own, for its own formulas
  const page = MathJax.startup.getDocument(readFileSync(path, "utf8"));
  page.render();
  const formulas = Array.from(page.math).filter((item) => adaptor.kind(item.typesetRoot) === "mjx-container");
  for (const item of formulas) {  // (the rest are escapes: \$ written as a plain $)
    // The TeX stays beside what it became: a reader's tools (and the tests) can tell d_k in the text.
    adaptor.setAttribute(item.typesetRoot, "data-tex", item.math);
  }
  const errors = formulas.filter((item) => adaptor.tags(item.typesetRoot, "mjx-merror").length);
  const html = adaptor.doctype(page.document) + adaptor.outerHTML(adaptor.root(page.document));
  writeFileSync(path, html.split(FONTS).join(fonts.replace(/\/?$/, "")));
  console.log(JSON.stringify({ path, formulas: formulas.length, errors: errors.map((item) => item.math) }));
}
