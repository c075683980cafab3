// The queries-and-keys lab (notebook 04): W_Q and W_K as two columns over the features, the scores
// Q·Kᵀ/√d_k and the weights, with the query row on show outlined. Python sends W_Q, W_K and the columns
// Q = X·W_Q and K = X·W_K for every choice of feature and entry; the page takes the scores as their
// products (d_k = 1), the weights with the kit's softmax, and the favoured keys and the verdict as
// attnlib.labs.qkv does (`favoured` and `verdict` there are the twins); the browser tests compare all of
// them with attnlib at every setting.
import { colour, createLab, number, set, softmax, storedFrame, svg, text, words } from "../page/kit.js";

// Wide: the three panels side by side. Narrow (a phone's column, 324 px): one above the other in 340
// units, so that the 13-unit texts stay above 12 px. The key tokens lie flat on two staggered lines above
// each matrix (wider than a cell), the query tokens at its left; a cell fits "0.36" (narrow: "16.0").
const WIDE = { W: 980, cell: 40, wCell: 48, left: 72, top: 74, gap: 44 };
const NARROW = { W: 340, cell: 34, wCell: 60, left: 64, top: 74, gap: 8 };
const LINE = 16;

// One heatmap of n_rows × n_cols cells at (x0, y0): its cells, row labels at the left, column labels
// above (staggered when `stagger`), a title above them.
function matrix(root, x0, y0, cell, rows, cols, title, stagger) {
  const cells = rows.map((_, i) => cols.map((__, j) => {
    const rect = svg("rect", { x: x0 + cell * j, y: y0 + cell * i, width: cell, height: cell, stroke: "white", "stroke-width": 0.8 }, root);
    const label = text(root, x0 + cell * (j + 0.5), y0 + cell * (i + 0.5), "", { "text-anchor": "middle", class: "cell" });
    return { rect, label };
  }));
  const rowLabels = rows.map((words, i) => text(root, x0 - 8, y0 + cell * (i + 0.5), words, { "text-anchor": "end", class: "tick" }));
  cols.forEach((words, j) => {
    text(root, x0 + cell * (j + 0.5), y0 - 12 - (stagger ? LINE * (j % 2) : 0), words, { "text-anchor": "middle", class: "tick" });
  });
  text(root, x0 + (cell * cols.length) / 2, y0 - 12 - 2 * LINE - 8, title, { "text-anchor": "middle", class: "title" });
  // the query row's outline, drawn over the cells
  const outline = svg("rect", { x: x0 - 1, width: cell * cols.length + 2, height: cell + 2, fill: "none", stroke: "black", "stroke-width": 2.5 }, root);
  return { cells, rowLabels, outline, y0, cell };
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const G = narrow ? NARROW : WIDE;
  const T = d.tokens.length, F = d.features.length;
  const side = G.cell * T;
  let W, H, at;
  if (narrow) {  // W columns, scores, weights: one above the other
    const ys = [G.top];
    ys.push(ys[0] + G.cell * F + G.gap + G.top, ys[0] + G.cell * F + 2 * (G.gap + G.top) + side);
    at = (k) => [k === 0 ? (G.W - 2 * G.wCell) / 2 + 20 : G.left, ys[k]];
    W = G.W; H = ys[2] + side + 12;
  } else {
    const xs = [G.left + 40];
    xs.push(xs[0] + 2 * G.wCell + G.gap + G.left, xs[0] + 2 * G.wCell + 2 * (G.gap + G.left) + side);
    at = (k) => [xs[k], G.top];
    W = xs[2] + side + 20; H = G.top + Math.max(side, G.cell * F) + 16;
  }
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  // the W columns: rows are the features, cells as tall as a heatmap's (narrow and wide alike)
  const wCell = { w: G.wCell, h: G.cell };
  const [wx, wy] = at(0);
  const wCells = d.features.map((_, i) => d.columns.map((__, j) => {
    const rect = svg("rect", { x: wx + wCell.w * j, y: wy + wCell.h * i, width: wCell.w, height: wCell.h, stroke: "white", "stroke-width": 0.8 }, root);
    const label = text(root, wx + wCell.w * (j + 0.5), wy + wCell.h * (i + 0.5), "", { "text-anchor": "middle", class: "cell" });
    return { rect, label };
  }));
  d.features.forEach((words, i) => text(root, wx - 8, wy + wCell.h * (i + 0.5), words, { "text-anchor": "end", class: "tick" }));
  d.columns.forEach((words, j) => text(root, wx + wCell.w * (j + 0.5), wy - 12, words, { "text-anchor": "middle", class: "tick" }));
  text(root, wx + wCell.w, wy - 12 - 2 * LINE - 8, d.titles[0], { "text-anchor": "middle", class: "title" });
  const panels = [1, 2].map((k) => {
    const [x0, y0] = at(k);
    return matrix(root, x0, y0, G.cell, d.tokens, d.tokens, d.titles[k], true);
  });
  return { d, wCells, panels, narrow };
}

// The keys that get a row's largest weight, within 1e-12.
export function favoured(row) {
  const best = Math.max(...row);
  return row.map((w) => Math.abs(w - best) <= 1e-12);
}

// What the readout says of the query's row: the keys it favours and their weight, or no preference.
export function verdict(row, top, tokens, query, texts) {
  const names = tokens.filter((_, j) => top[j]).map((token) => words(texts.quoted, { token }));
  const keys = names.length === 1 ? names[0] : names.slice(0, -1).join(texts.comma) + texts.last + names[names.length - 1];
  const all = top.every(Boolean);
  const template = all ? texts.even : names.length === 1 ? texts.one : texts.tied;
  return words(template, { query: tokens[query], keys, weight: number(Math.max(...row), all ? 3 : 2), T: tokens.length });
}

// What Python sent for the setting, and what follows from it: the scores Q·Kᵀ/√1, the weights (the kit's
// softmax of each row), the keys the query favours and the verdict.
function frame(spec, values) {
  const f = storedFrame(spec, values);
  const scores = f.Q.map(([q]) => f.K.map(([k]) => q * k));
  const weights = scores.map((row) => softmax(row));
  const row = weights[values.query];
  const top = favoured(row);
  const said = verdict(row, top, spec.data.tokens, values.query, spec.data.texts);
  return { ...f, scores, weights, top, fields: { ...f.fields, verdict: said } };
}

function paint(cell, value, shown, table, lo, hi) {
  if (cell.value === shown) return;  // a step changes few cells: only those are written
  cell.value = shown;
  const c = colour(table, lo, hi, value);
  set(cell.rect, { fill: c.fill });
  set(cell.label, { text: shown, fill: c.text });
}

function draw(v, f, spec, values) {
  const { d } = v;
  const q = values.query;
  v.wCells.forEach((line, i) => {
    [f.W_q[i][0], f.W_k[i][0]].forEach((w, j) => paint(line[j], w, number(w, 1), d.scores_cmap, -d.w_max, d.w_max));
  });
  const shownMatrices = [[f.scores, d.scores_cmap, -d.vmax, d.vmax], [f.weights, d.weights_cmap, 0, 1]];
  v.panels.forEach((panel, k) => {
    const [M, table, lo, hi] = shownMatrices[k];
    M.forEach((row, i) => row.forEach((x, j) => paint(panel.cells[i][j], x, number(x, v.narrow && x >= 9.995 ? 1 : 2), table, lo, hi)));
    set(panel.outline, { y: panel.y0 + panel.cell * q - 1 });
    panel.rowLabels.forEach((label, i) => set(label, { "font-weight": i === q ? "bold" : "normal" }));
    // the keys the query favours: their cells of the query row framed as well
    panel.cells[q].forEach((cell, j) => set(cell.rect, { stroke: f.top[j] && k === 1 ? "black" : "white", "stroke-width": f.top[j] && k === 1 ? 2 : 0.8 }));
    if (panel.shownRow !== undefined && panel.shownRow !== q) {
      panel.cells[panel.shownRow].forEach((cell) => set(cell.rect, { stroke: "white", "stroke-width": 0.8 }));
    }
    panel.shownRow = q;
  });
}

const pageModule = createLab({ build, frame, draw, reflows: true });
export default pageModule;
