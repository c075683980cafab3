// The d_k lab (notebook 05): the distribution of the scores, one query's weights, and how peaked
// softmax gets against d_k. Python sends, per setting, the histogram, its notes, the curves, one
// query's scores as shown (q·k or q·k/√d_k), which of its weights is largest and the readout; the page
// takes the kit's softmax of the first n_keys scores (checked against attnlib at every setting).
import { axes, barFill, createLab, everyOther, fill, number, polyline, set, softmax, storedFrame, svg, text } from "../page/kit.js";

const W = 1100, H = 680;  // the wide picture: one svg
// A narrow panel's width: 13-unit text in a 324 px phone column is drawn at 12.4 px (13 * 324 / 340).
const NW = 340;
const HEAD_SEP = "  ·  ";  // between the headline's parts (d_k, the scores, the keys), in every language

// Where each piece goes. Wide: one picture, as it has always been. Narrow: each panel its own svg, one
// above the other (the first curve panel carries the legend); the headline on two lines, fewer score
// ticks, and the histogram's notes under its axis, where the tall peak at d_k = 1 cannot run into them.
const WIDE = {
  headline: [{ x: W / 2, y: 24, size: 22 }],
  hist: { x: 70, y: 80, w: 460, h: 190 },
  notes: { x: 530, y: 92, anchor: "end" },
  row: { x: 640, y: 80, w: 430, h: 190 }, keys: { x: 855, y: 286 },
  legend: { y: 385, x: [380, 530, 680] },
  panels: [0, 1, 2].map((k) => ({ x: 70 + 360 * k, y: 440, w: 300, h: 170 })),
};
const NARROW = {
  headline: [{ x: NW / 2, y: 16, size: 20 }, { x: NW / 2, y: 42, size: 15 }],  // d_k, then the rest
  hist: { x: 40, y: 110, w: 280, h: 140 }, fewerTicks: true, histHeight: 342,
  notes: { x: NW / 2, y: 308, anchor: "middle" },
  row: { x: 64, y: 60, w: 250, h: 150 }, keys: { x: NW / 2, y: 226 }, rowHeight: 240,
  legend: { y: 20, x: [8, 72, 184] },
  panels: [0, 1, 2].map((k) => ({ x: 50, y: k === 0 ? 72 : 34, w: 270, h: 130 })),
  panelHeights: [250, 212, 212],
};
// Narrow: a y label lies flat above its axis, under the title (a turned label of 13 px reads badly).
const FLAT = { x: 8, label: 12, title: 36 };  // its left end; how far above the box it and the title sit
// Narrow: the largest weight's label stays this far inside the row's box, clear of the y tick labels.
const TOP_INSET = 20;

// An axis's y label: turned beside it (wide), or flat above it with the title moved up (narrow).
function yLabel(p, words, narrow) {
  if (!narrow) return;
  text(p.g, FLAT.x, p.box.y - FLAT.label, words);
  p.title.setAttribute("y", p.box.y - FLAT.title);
}

function build(picture, spec, change, { narrow = false } = {}) {
  const d = spec.data;
  const L = narrow ? NARROW : WIDE;
  const figure = (width, height) => svg("svg", { class: "figure", viewBox: `0 0 ${width} ${height}`, role: "img" }, picture);
  const wide = narrow ? null : figure(W, H);
  // The svg a panel is drawn in: the one wide picture, or a narrow panel of its own.
  const sheet = (height) => wide || figure(NW, height);
  const top = sheet(L.histHeight);
  const headline = L.headline.map(({ x, y, size }) => text(top, x, y, "", { "text-anchor": "middle", "font-size": size }));
  // The histogram and its normal curve, on a fixed axis (its height follows the histogram: see draw).
  const histAxis = L.fewerTicks ? everyOther(d.axes.hist, "x") : d.axes.hist;
  const hist = axes(top, L.hist, {
    xlim: histAxis.xlim, ylim: [0, 1], xticks: histAxis.xticks, xticklabels: histAxis.xticklabels,
    xlabel: d.text.score, ylabel: narrow ? null : d.text.how_often, ylabelGap: 22, title: d.text.hist_title });
  yLabel(hist, d.text.how_often, narrow);
  const steps = svg("path", { fill: "#9fb6d6" }, hist.g);
  const curve = svg("polyline", { fill: "none", stroke: "#222", "stroke-width": 1.4 }, hist.g);
  const notes = [0, 1].map((k) => text(hist.g, L.notes.x, L.notes.y + 18 * k, "", { "text-anchor": L.notes.anchor, class: "tick" }));
  // One query's weights over its keys.
  const rb = L.row;
  const { xlim: rowX, ylim: rowY, yticks: rowTicks, yticklabels: rowLabels } = d.axes.row;
  const row = axes(sheet(L.rowHeight), rb, {
    xlim: rowX, ylim: rowY, yticks: rowTicks, yticklabels: rowLabels,
    ylabel: narrow ? null : d.text.weight, ylabelGap: 52, title: d.text.row_title });
  yLabel(row, d.text.weight, narrow);
  const bars = [];
  for (let j = 0; j < d.max_keys; j += 1) bars.push(svg("rect", { y: 0, height: 0 }, row.g));
  const outline = svg("rect", { fill: "none", stroke: "black", "stroke-width": 1.6 }, row.g);
  const uniformRow = svg("line", { x1: rb.x, x2: rb.x + rb.w, stroke: "#777", "stroke-dasharray": "5 3", "stroke-width": 1.2 }, row.g);
  const topLabel = text(row.g, 0, 0, "", { "text-anchor": "middle", class: "tick" });
  const keysLabel = text(row.g, L.keys.x, L.keys.y, "", { "text-anchor": "middle" });
  // Three curves against d_k.
  const sheets = d.panels.map((_, k) => sheet(narrow ? L.panelHeights[k] : H));
  const panels = d.panels.map((title, k) => {
    const spec = d.axes.curves[k], ylim = spec.ylim;
    const p = axes(sheets[k], L.panels[k], { ...spec, log: "x", xlabel: "d_k", title, ylabelGap: 0 });
    const line = (c) => svg("polyline", { fill: "none", stroke: c, "stroke-width": 2.5 }, p.g);
    return { ...p, ylim, raw: line(d.raw_colour), scaled: line(d.scaled_colour),
      uniform: svg("line", { x1: p.box.x, x2: p.box.x + p.box.w, stroke: "#777", "stroke-dasharray": "5 3", "stroke-width": 1.2 }, p.g),
      vline: svg("line", { y1: p.box.y, y2: p.box.y + p.box.h, stroke: "#333" }, p.g),
      dot: svg("circle", { r: 8, stroke: "black", "stroke-width": 1.5 }, p.g) };
  });
  const legend = svg("g", {}, sheets[0]);
  const y = L.legend.y;
  [["q·k", d.raw_colour, null], ["q·k / √d_k", d.scaled_colour, null], [d.text.uniform, "#777", "5 3"]]
    .forEach(([words, c, dash], k) => {
      const x = L.legend.x[k];
      svg("line", { x1: x, x2: x + 26, y1: y, y2: y, stroke: c, "stroke-width": dash ? 1.2 : 2.5, "stroke-dasharray": dash }, legend);
      text(legend, x + 32, y, words, { class: "tick" });
    });
  return { d, headline, hist, steps, curve, notes, row, bars, outline, uniformRow, topLabel, keysLabel, panels,
    topInset: narrow ? TOP_INSET : 0 };
}

// What Python sent for the setting, and the weights of the first n_keys scores of the row.
function frame(spec, values) {
  const f = storedFrame(spec, values);
  return { ...f, weights: softmax(f.row_scores.slice(0, values.n_keys)) };
}

// Every write goes through the kit's `set`, which skips what is already there: a step of d_k leaves
// the row's bars alone, and a step of the keys the histogram and the curves.
function draw(v, f, spec, values) {
  const d = v.d;
  // One headline, or (narrow) d_k on its first line and the rest on the second.
  const head = fill(d.headline, f.fields);
  const parts = head.split(HEAD_SEP);
  const lines = v.headline.length === 1 ? [head] : [parts[0], parts.slice(1).join(HEAD_SEP)];
  v.headline.forEach((t, k) => set(t, { text: lines[k] }));
  // The histogram: bins that scale with σ, heights normalised so the normal curve peaks at 1.
  const h = f.hist;
  const sy = (y) => v.hist.box.y + v.hist.box.h * (1 - y / f.hist_top);
  const { box } = v.hist;
  const sx = (x) => Math.min(box.x + box.w, Math.max(box.x, v.hist.sx(x)));  // the axis is fixed: clip
  let path = `M${sx(f.edges[0])},${sy(0)}`;
  h.forEach((height, k) => { path += `V${sy(height)}H${sx(f.edges[k + 1])}`; });
  set(v.steps, { d: `${path}V${sy(0)}Z` });
  const normal = d.normal[f.normal];
  set(v.curve, { points: polyline(d.curve_x.map((x, k) => [sx(x), sy(normal[k])])) });
  f.notes.forEach((words, k) => set(v.notes[k], { text: words }));
  // One query's weights.
  const n = f.weights.length, slot = v.row.box.w / n, { sy: ry } = v.row;
  const best = f.top;
  v.bars.forEach((bar, j) => {
    if (j >= n) { set(bar, { height: 0 }); return; }
    const w = f.weights[j];
    set(bar, { x: v.row.box.x + slot * (j + 0.1), width: 0.8 * slot, y: ry(w), height: ry(0) - ry(w),
      fill: barFill(d.cmap, w) });
  });
  const w = f.weights[best];
  set(v.outline, { x: v.row.box.x + slot * (best + 0.1), width: 0.8 * slot, y: ry(w), height: ry(0) - ry(w) });
  const inside = [v.row.box.x + v.topInset, v.row.box.x + v.row.box.w - v.topInset];
  set(v.topLabel, { x: Math.min(inside[1], Math.max(inside[0], v.row.box.x + slot * (best + 0.5))), y: ry(w) - 10,
    text: number(w, 3) });
  const uniform = f.uniform;  // the largest weight, entropy and gradient size of uniform weights
  set(v.uniformRow, { y1: ry(uniform[0]), y2: ry(uniform[0]) });
  set(v.keysLabel, { text: fill(d.text.keys, { n }) });
  // The curves, with this setting marked.
  const curves = f.curves;
  const marks = [f.fields.top, f.fields.entropy, f.fields.gradient];  // this setting's point on each curve
  v.panels.forEach((p, k) => {
    const py = (y) => p.box.y + p.box.h * (1 - (y - p.ylim[0]) / (p.ylim[1] - p.ylim[0]));
    set(p.raw, { points: polyline(d.widths.map((x, m) => [p.sx(x), py(curves[0][k][m])])),
      "stroke-opacity": values.scaled ? 0.3 : 1 });
    set(p.scaled, { points: polyline(d.widths.map((x, m) => [p.sx(x), py(curves[1][k][m])])),
      "stroke-opacity": values.scaled ? 1 : 0.3 });
    set(p.uniform, { y1: py(uniform[k]), y2: py(uniform[k]) });
    const x = p.sx(values.d_k);
    set(p.vline, { x1: x, x2: x });
    set(p.dot, { cx: x, cy: py(marks[k]), fill: values.scaled ? d.scaled_colour : d.raw_colour });
  });
}

const pageModule = createLab({ build, frame, draw, reflows: true });
export default pageModule;
