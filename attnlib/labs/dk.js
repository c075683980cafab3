// The d_k lab (notebook 05): the distribution of the scores, one query's weights, and how peaked
// softmax gets against d_k. Python sends histograms, curves and one query's raw scores; the page
// takes the softmax of that row (checked against attnlib at every setting by the browser tests).
import { axes, barFill, createLab, fill, maskedSoftmax, number, polyline, svg, text } from "./kit.js";

const W = 1100, H = 680;
const KEYS_TICKS = [1, 4, 16, 64, 256, 1024];

function build(picture, spec) {
  const d = spec.data;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  const headline = text(root, W / 2, 24, "", { "text-anchor": "middle", "font-size": 22 });
  // Top left: the histogram and its normal curve, on a fixed axis.
  const hist = axes(root, { x: 70, y: 80, w: 460, h: 190 }, {
    xlim: [-100, 100], ylim: [0, 1.6], xticks: [-100, -75, -50, -25, 0, 25, 50, 75, 100],
    xticklabels: [-100, -75, -50, -25, 0, 25, 50, 75, 100].map((t) => number(t, 0)),
    xlabel: d.text.score, ylabel: d.text.how_often, ylabelGap: 22, title: d.text.hist_title });
  const steps = svg("path", { fill: "#9fb6d6" }, hist.g);
  const curve = svg("polyline", { fill: "none", stroke: "#222", "stroke-width": 1.4 }, hist.g);
  const notes = [0, 1].map((k) => text(hist.g, 530, 92 + 18 * k, "", { "text-anchor": "end", class: "tick" }));
  // Top right: one query's weights over its keys.
  const row = axes(root, { x: 640, y: 80, w: 430, h: 190 }, {
    xlim: [0, 1], ylim: [0, 1.1], yticks: [0, 0.25, 0.5, 0.75, 1], yticklabels: ["0.00", "0.25", "0.50", "0.75", "1.00"],
    ylabel: d.text.weight, ylabelGap: 52, title: d.text.row_title });
  const bars = [];
  for (let j = 0; j < d.max_keys; j += 1) bars.push(svg("rect", { y: 0, height: 0 }, row.g));
  const outline = svg("rect", { fill: "none", stroke: "black", "stroke-width": 1.6 }, row.g);
  const uniformRow = svg("line", { x1: 640, x2: 1070, stroke: "#777", "stroke-dasharray": "5 3", "stroke-width": 1.2 }, row.g);
  const topLabel = text(row.g, 0, 0, "", { "text-anchor": "middle", class: "tick" });
  const keysLabel = text(row.g, 855, 286, "", { "text-anchor": "middle" });
  // Bottom: three curves against d_k.
  const panels = d.panels.map((title, k) => {
    const ylim = k === 1 ? [0, Math.log(d.max_keys) * 1.08] : (k === 0 ? [0, 1.05] : [0, 0.6]);
    const yticks = k === 1 ? [0, 1, 2, 3, 4] : (k === 0 ? [0, 0.25, 0.5, 0.75, 1] : [0, 0.2, 0.4, 0.6]);
    const p = axes(root, { x: 70 + 360 * k, y: 440, w: 300, h: 170 }, {
      xlim: [d.widths[0] / 1.3, d.widths[d.widths.length - 1] * 1.3], ylim, log: "x",
      xticks: KEYS_TICKS, yticks, yticklabels: yticks.map((t) => number(t, k === 1 ? 0 : 2)),
      xlabel: "d_k", title, ylabelGap: 0 });
    const line = (c) => svg("polyline", { fill: "none", stroke: c, "stroke-width": 2.5 }, p.g);
    return { ...p, ylim, raw: line(d.raw_colour), scaled: line(d.scaled_colour),
      uniform: svg("line", { x1: p.box.x, x2: p.box.x + p.box.w, stroke: "#777", "stroke-dasharray": "5 3", "stroke-width": 1.2 }, p.g),
      vline: svg("line", { y1: p.box.y, y2: p.box.y + p.box.h, stroke: "#333" }, p.g),
      dot: svg("circle", { r: 8, stroke: "black", "stroke-width": 1.5 }, p.g) };
  });
  const legend = svg("g", {}, root);
  [["q·k", d.raw_colour, null], ["q·k / √d_k", d.scaled_colour, null], [d.text.uniform, "#777", "5 3"]]
    .forEach(([words, c, dash], k) => {
      const x = 380 + 150 * k;
      svg("line", { x1: x, x2: x + 26, y1: 385, y2: 385, stroke: c, "stroke-width": dash ? 1.2 : 2.5, "stroke-dasharray": dash }, legend);
      text(legend, x + 32, 385, words, { class: "tick" });
    });
  return { d, headline, hist, steps, curve, notes, row, bars, outline, uniformRow, topLabel, keysLabel, panels };
}

function frame(spec, values) {
  const d = spec.data;
  const i = d.widths.indexOf(values.d_k);
  const n = values.n_keys;
  const m = spec.controls[2].options.indexOf(n);
  const root = values.scaled ? d.roots[i] : 1;
  const weights = maskedSoftmax(d.row_scores.slice(0, n).map((r) => r[i] / root));
  const curves = d.curves[m][values.scaled ? 1 : 0];
  const [uTop, uEntropy, uGradient] = d.uniform[m];
  const sigma = values.scaled ? 1 : d.roots[i];
  const fields = { d_k: values.d_k, kind: d.text.kinds[values.scaled ? 1 : 0], n_keys: n,
    std: d.std[i][values.scaled ? 1 : 0], sigma, n_queries: d.n_queries, top: curves[0][i], entropy: curves[1][i],
    gradient: curves[2][i], u_top: uTop, u_entropy: uEntropy, u_gradient: uGradient };
  return { i, m, weights, sigma, max_weight: curves[0][i], entropy: curves[1][i], gradient: curves[2][i], fields };
}

function draw(v, f, spec, values) {
  const d = v.d;
  v.headline.textContent = fill(d.headline, f.fields);
  // The histogram: bins that scale with σ, heights normalised so the normal curve peaks at 1.
  const h = d.hist[2 * f.i + (values.scaled ? 1 : 0)];
  const top = Math.max(1.6, 1.08 * Math.max(...h));
  const sy = (y) => v.hist.box.y + v.hist.box.h * (1 - y / top);
  const { box } = v.hist;
  const sx = (x) => Math.min(box.x + box.w, Math.max(box.x, v.hist.sx(x)));  // the axis is fixed: clip
  let path = `M${sx(d.bins[0] * f.sigma)},${sy(0)}`;
  h.forEach((height, k) => { path += `V${sy(height)}H${sx(d.bins[k + 1] * f.sigma)}`; });
  v.steps.setAttribute("d", `${path}V${sy(0)}Z`);
  const normal = d.normal[values.scaled ? 0 : f.i];
  v.curve.setAttribute("points", polyline(d.curve_x.map((x, k) => [sx(x), sy(normal[k])])));
  d.notes[2 * f.i + (values.scaled ? 1 : 0)].forEach((words, k) => { v.notes[k].textContent = words; });
  // One query's weights.
  const n = f.weights.length, slot = v.row.box.w / n, { sy: ry } = v.row;
  let best = 0;
  v.bars.forEach((bar, j) => {
    if (j >= n) { bar.setAttribute("height", 0); return; }
    const w = f.weights[j];
    if (w > f.weights[best]) best = j;
    bar.setAttribute("x", v.row.box.x + slot * (j + 0.1));
    bar.setAttribute("width", 0.8 * slot);
    bar.setAttribute("y", ry(w));
    bar.setAttribute("height", ry(0) - ry(w));
    bar.setAttribute("fill", barFill(d.cmap, w));
  });
  const w = f.weights[best];
  v.outline.setAttribute("x", v.row.box.x + slot * (best + 0.1));
  v.outline.setAttribute("width", 0.8 * slot);
  v.outline.setAttribute("y", ry(w));
  v.outline.setAttribute("height", ry(0) - ry(w));
  v.topLabel.setAttribute("x", v.row.box.x + slot * (best + 0.5));
  v.topLabel.setAttribute("y", ry(w) - 10);
  v.topLabel.textContent = number(w, 3);
  v.uniformRow.setAttribute("y1", ry(1 / n)); v.uniformRow.setAttribute("y2", ry(1 / n));
  v.keysLabel.textContent = fill(d.text.keys, { n });
  // The curves, with this setting marked.
  const curves = d.curves[f.m];
  const uniform = d.uniform[f.m];
  v.panels.forEach((p, k) => {
    const py = (y) => p.box.y + p.box.h * (1 - (y - p.ylim[0]) / (p.ylim[1] - p.ylim[0]));
    p.raw.setAttribute("points", polyline(d.widths.map((x, m) => [p.sx(x), py(curves[0][k][m])])));
    p.scaled.setAttribute("points", polyline(d.widths.map((x, m) => [p.sx(x), py(curves[1][k][m])])));
    p.raw.setAttribute("stroke-opacity", values.scaled ? 0.3 : 1);
    p.scaled.setAttribute("stroke-opacity", values.scaled ? 1 : 0.3);
    p.uniform.setAttribute("y1", py(uniform[k])); p.uniform.setAttribute("y2", py(uniform[k]));
    const x = p.sx(values.d_k);
    p.vline.setAttribute("x1", x); p.vline.setAttribute("x2", x);
    p.dot.setAttribute("cx", x);
    p.dot.setAttribute("cy", py(curves[values.scaled ? 1 : 0][k][f.i]));
    p.dot.setAttribute("fill", values.scaled ? d.scaled_colour : d.raw_colour);
  });
}

const lab = createLab({ build, frame, draw });
export default lab;
