// The whole-formula lab (notebook 07): one query through softmax(q·Kᵀ/√d_k + M)·V. A row per key token:
// its score q·kⱼ, the scaled score, the masked score ("−∞" where blocked), its weight aⱼ; beside them
// the value row times its weight, aⱼ·vⱼ, with the output o (the columns' sums) below. Python sends every
// number for every setting (3 controls, 32 settings); the page looks them up and draws.
import { colour, createLab, number, set, svg, text } from "../page/kit.js";

// Wide (a desktop): both panels side by side in one picture, sharing the token labels on the left.
// Narrow (a phone's 324 px column): two pictures 340 units wide one above the other, each with its own
// token labels, the stage titles short, the feature names on two staggered lines, so that every text
// stays at 12 px or more and apart.
const WIDE = { W: 940, left: 84, stage: 100, gap: 40, feature: 66, row: 30, top: 64 };
const NARROW = { W: 340, left: 64, stage: 68, feature: 45, row: 30, top: [52, 66] };
const STAGES = ["scores", "scaled", "masked", "weights"];

function cell(parent, x, y, w, h) {
  const rect = svg("rect", { x, y, width: w, height: h, stroke: "white", "stroke-width": 1 }, parent);
  const label = text(parent, x + w / 2, y + h / 2, "", { "text-anchor": "middle", class: "cell" });
  return { rect, label };
}

function tokenLabels(root, tokens, x, top, row, extra) {
  const labels = tokens.map((t, j) => text(root, x - 8, top + row * (j + 0.5), t, { "text-anchor": "end", class: "tick" }));
  if (extra) text(root, x - 8, top + row * (tokens.length + 0.5) + 10, extra, { "text-anchor": "end", "font-weight": "bold" });
  return labels;
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const T = d.tokens.length, F = d.features.length;
  const G = narrow ? NARROW : WIDE;
  const figure = (H) => svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${H}`, role: "img" }, picture);
  let stagesRoot, valuesRoot, topA, topB, xB;
  if (narrow) {
    [topA, topB] = G.top;
    stagesRoot = figure(topA + T * G.row + 8);
    valuesRoot = figure(topB + (T + 1) * G.row + 18);
    xB = G.left;
  } else {
    topA = topB = G.top;
    stagesRoot = valuesRoot = figure(G.top + (T + 1) * G.row + 18);
    xB = G.left + STAGES.length * G.stage + G.gap;
  }
  const title = text(stagesRoot, 4, 16, "", { class: "title" });
  const rowLabels = tokenLabels(stagesRoot, d.tokens, G.left, topA, G.row);
  if (narrow) tokenLabels(valuesRoot, d.tokens, xB, topB, G.row, "o");
  else text(valuesRoot, xB - 8, topB + G.row * (T + 0.5) + 10, "o", { "text-anchor": "end", "font-weight": "bold" });
  const heads = STAGES.map((_, k) => text(stagesRoot, G.left + G.stage * (k + 0.5), topA - 12, "", { "text-anchor": "middle", class: "tick" }));
  const stages = STAGES.map((_, k) => d.tokens.map((__, j) => cell(stagesRoot, G.left + G.stage * k, topA + G.row * j, G.stage, G.row)));
  const outline = svg("rect", { x: G.left, width: STAGES.length * G.stage, height: G.row, fill: "none", stroke: "#222", "stroke-width": 2.5 }, stagesRoot);
  // the value panel: its title, the features across the top, aⱼ·vⱼ per key, and o below a rule
  text(valuesRoot, narrow ? 4 : xB + (F * G.feature) / 2, narrow ? 16 : topB - 38, d.titles.contributions,
    narrow ? { class: "title" } : { "text-anchor": "middle", class: "title" });
  d.features.forEach((name, f) => {
    const y = topB - 12 - (narrow ? 16 * (f % 2) : 0);
    text(valuesRoot, xB + G.feature * (f + 0.5), y, name, { "text-anchor": "middle", class: "tick" });
  });
  const parts = d.tokens.map((_, j) => d.features.map((__, f) => cell(valuesRoot, xB + G.feature * f, topB + G.row * j, G.feature, G.row)));
  const yOut = topB + G.row * T + 10;
  svg("line", { x1: xB, x2: xB + F * G.feature, y1: yOut - 5, y2: yOut - 5, stroke: "#222", "stroke-width": 2 }, valuesRoot);
  const out = d.features.map((_, f) => cell(valuesRoot, xB + G.feature * f, yOut, G.feature, G.row));
  return { d, narrow, G, topA, title, rowLabels, heads, stages, outline, parts, out };
}

function paintCell(c, fill, words, ink) {
  set(c.rect, { fill });
  set(c.label, { text: words, fill: ink });
}

// Every write goes through the kit's `set`, which skips what is already there.
function draw(v, f, spec, values) {
  const { d, narrow, G } = v;
  const t = d.titles;
  set(v.title, { text: f.title });
  const heads = [t.scores, narrow ? t.short_scaled[Number(values.scaled)] : t.scaled[Number(values.scaled)],
    narrow ? t.short_masked : t.masked[Number(values.causal)], t.weights];
  v.heads.forEach((head, k) => set(head, { text: heads[k] }));
  v.rowLabels.forEach((label, j) => set(label, { "font-weight": j === values.query ? "bold" : null }));
  set(v.outline, { y: v.topA + G.row * values.query });
  const score = (s) => { const c = colour(d.scores_cmap, -d.vmax, d.vmax, s); return [c.fill, number(s, 2), c.text]; };
  d.tokens.forEach((_, j) => {
    const keep = f.keep[j];
    paintCell(v.stages[0][j], ...score(f.scores[j]));
    paintCell(v.stages[1][j], ...score(f.scaled[j]));
    if (keep) paintCell(v.stages[2][j], ...score(f.scaled[j]));
    else paintCell(v.stages[2][j], d.masked_colour, "−∞", "#555555");
    const w = colour(d.weights_cmap, 0, 1, f.weights[j]);
    paintCell(v.stages[3][j], w.fill, keep ? number(f.weights[j], 2) : "0", w.text);  // masked: exactly 0
    d.features.forEach((__, k) => {
      const x = f.contributions[j][k], c = colour(d.values_cmap, -d.vmax_v, d.vmax_v, x);
      paintCell(v.parts[j][k], c.fill, keep ? number(x, 2) : "0", c.text);
    });
  });
  v.out.forEach((o, k) => {
    const c = colour(d.values_cmap, -d.vmax_v, d.vmax_v, f.out[k]);
    paintCell(o, c.fill, number(f.out[k], 3), c.text);
  });
}

const pageModule = createLab({ build, draw, reflows: true });
export default pageModule;
