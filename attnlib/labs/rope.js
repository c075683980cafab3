// The RoPE lab (notebook 10): pair p of a query q and of a key k on a circle, dashed before RoPE turns
// them and solid after (q by i·ω, k by j·ω), the arcs of the two turns and the angle from k′ to q′; beside
// it, the numbers of the pair and every pair's part of the score with the score itself. Python sends the
// numbers of every setting (attnlib.core.positions); the page looks them up, and finds every pair's part
// by looking the same positions up at each p.
import { control, createLab, newId, number, polyline, set, storedFrame, svg, text, words } from "../page/kit.js";

// Wide (a desktop): the circle at the left, the sentences and the bars at the right. Narrow (a phone's
// column, 324 px): the same parts one above the other in 340 units, texts at 13 units or more. Every
// text has a fixed place, whatever the setting: only arrows, arcs and bars move.
const WIDE = {
  W: 760, cx: 190, cy: 200, R: 140, titleY: 26, legendY: 374, legendX: [24, 132, 244],
  linesX: 410, linesY: 52, lineGap: 27, barsY: 214, rowH: 28, labelX: 410, barX: [482, 688], valueX: 752,
};
const NARROW = {
  W: 340, cx: 170, cy: 140, R: 96, titleY: 16, legendY: 258, legendX: [8, 106, 196],
  linesX: 8, linesY: 288, lineGap: 22, barsY: 410, rowH: 25, labelX: 8, barX: [78, 262], valueX: 334,
};
const SAMPLE = 26;  // the legend's line samples
const LINES = ["omega", "turn_q", "turn_k", "between", "pair"];

// An arc of radius r about (cx, cy) from the angle `start` over `sweep` radians (counterclockwise when
// positive, as the angles run), as polyline points (y grows downwards on the page).
function arc(cx, cy, r, start, sweep) {
  const n = Math.max(2, Math.ceil(Math.abs(sweep) * 16));
  const points = [];
  for (let s = 0; s <= n; s += 1) {
    const a = start + (sweep * s) / n;
    points.push([cx + r * Math.cos(a), cy - r * Math.sin(a)]);
  }
  return polyline(points);
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const G = narrow ? NARROW : WIDE;
  const nPairs = control(spec, "p").options.length;
  const H = Math.max(G.barsY + 20 + G.rowH * (nPairs + 1), G.legendY + 12) + 8;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${H}`, role: "img" }, picture);
  const small = narrow ? { class: "tick" } : {};
  const defs = svg("defs", {}, root);
  const marker = (colour) => {
    const m = svg("marker", { id: newId("rope-arrow"), viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5,
      markerHeight: 5, orient: "auto-start-reverse" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }, m);
    return `url(#${m.id})`;
  };
  const c = d.colours;
  // the circle: axes, one ring per vector (its length, which the turn keeps), then arcs and arrows
  svg("line", { x1: G.cx - G.R - 8, x2: G.cx + G.R + 8, y1: G.cy, y2: G.cy, stroke: "#dddddd" }, root);
  svg("line", { x1: G.cx, x2: G.cx, y1: G.cy - G.R - 8, y2: G.cy + G.R + 8, stroke: "#dddddd" }, root);
  const ring = () => svg("circle", { cx: G.cx, cy: G.cy, fill: "none", stroke: "#c8c8c8" }, root);
  const arcLine = (colour, width) => svg("polyline", { fill: "none", stroke: colour, "stroke-width": width }, root);
  const view = {
    d, G, narrow: Boolean(narrow), unit: G.R / d.extent,
    rings: [ring(), ring()],
    arcs: { q: arcLine(c.q, 1.6), k: arcLine(c.k, 1.6), between: arcLine(c.pair, 3.5) },
    heads: { q: marker(c.q), k: marker(c.k) },
    before: [c.q, c.k].map((colour) => svg("line", { x1: G.cx, y1: G.cy, stroke: colour, "stroke-width": 2.2,
      "stroke-dasharray": "5 4", "stroke-opacity": 0.5 }, root)),
    after: [c.q, c.k].map((colour) => svg("line", { x1: G.cx, y1: G.cy, stroke: colour, "stroke-width": 3,
      "marker-end": marker(colour) }, root)),
    title: text(root, G.cx, G.titleY, "", { "text-anchor": "middle", class: "title" }),
  };
  // the legend: a dashed and a solid sample, and the unit of the angles
  const [bx, ax, rx] = G.legendX;
  svg("line", { x1: bx, x2: bx + SAMPLE, y1: G.legendY, y2: G.legendY, stroke: "#555", "stroke-width": 2.2, "stroke-dasharray": "5 4", "stroke-opacity": 0.6 }, root);
  text(root, bx + SAMPLE + 6, G.legendY, d.texts.before, small);
  svg("line", { x1: ax, x2: ax + SAMPLE, y1: G.legendY, y2: G.legendY, stroke: "#555", "stroke-width": 3 }, root);
  text(root, ax + SAMPLE + 6, G.legendY, d.texts.after, small);
  text(root, rx, G.legendY, d.texts.radians, { ...small, fill: "#555" });
  // the sentences, each in the colour of what it speaks of
  const tint = { omega: "#222222", turn_q: c.q, turn_k: c.k, between: c.pair, pair: c.pair };
  view.lines = Object.fromEntries(LINES.map((name, k) => [name,
    text(root, G.linesX, G.linesY + G.lineGap * k, "", { ...small, fill: tint[name] })]));
  // the bars: one row per pair, then the score, on one scale from −bound to bound
  const [x0, x1] = G.barX;
  view.sx = (v) => (x0 + x1) / 2 + (v / d.bound) * ((x1 - x0) / 2);
  text(root, G.labelX, G.barsY, d.texts.bars, { class: "title" });
  const top = G.barsY + 20;
  svg("line", { x1: view.sx(0), x2: view.sx(0), y1: top, y2: top + G.rowH * (nPairs + 1), stroke: "#888" }, root);
  view.rows = Array.from({ length: nPairs + 1 }, (_, r) => {
    const y = top + G.rowH * r;
    const last = r === nPairs;
    return {
      bar: svg("rect", { y: y + 4, height: G.rowH - 8, fill: last ? "#333333" : "#bbbbbb" }, root),
      label: text(root, G.labelX, y + G.rowH / 2, last ? d.texts.score : words(d.texts.row, { p: r }), small),
      value: text(root, G.valueX, y + G.rowH / 2, "", { ...small, "text-anchor": "end" }),
    };
  });
  return view;
}

// The picture's sentences at one setting (attnlib.labs.rope.lines is its twin: the same templates, the
// same numbers).
export function lines(f, values, d) {
  const t = d.texts, omega = number(f.omega, 4);
  return {
    title: words(t.title, { p: values.p, a: f.dims[0], b: f.dims[1] }),
    omega: words(t.omega, { base: d.base, p: values.p, d_k: d.d_k, omega }),
    turn_q: words(t.turn_q, { i: values.i, omega, theta: number(f.theta_q, 3) }),
    turn_k: words(t.turn_k, { j: values.j, omega, theta: number(f.theta_k, 3) }),
    between: words(t.between, { angle: number(f.between, 3) }),
    pair: words(t.pair, { dot: number(f.pair_dot, 3) }),
  };
}

// What Python sent for the setting, and every pair's part of the score: the same positions looked up at
// each pair p.
function frame(spec, values) {
  const f = storedFrame(spec, values);
  const contributions = control(spec, "p").options.map((p) => (p === values.p ? f.pair_dot
    : storedFrame(spec, { ...values, p }).pair_dot));
  return { ...f, contributions };
}

function draw(v, f, spec, values) {
  const { G, d, unit } = v;
  const at = (pair) => ({ x: G.cx + unit * pair[0], y: G.cy - unit * pair[1] });
  const [qNorm, kNorm] = d.norms[values.p];
  set(v.rings[0], { r: unit * qNorm });
  set(v.rings[1], { r: unit * kNorm });
  [[f.q_pair, f.q_rot], [f.k_pair, f.k_rot]].forEach(([before, after], n) => {
    const b = at(before), a = at(after);
    set(v.before[n], { x2: b.x, y2: b.y });
    set(v.after[n], { x2: a.x, y2: a.y });
  });
  // the turns, each with an arrowhead where it is long enough to carry one
  const head = (name, sweep) => (Math.abs(sweep) > 0.25 ? v.heads[name] : null);
  set(v.arcs.q, { points: arc(G.cx, G.cy, 0.3 * G.R, f.phi_q, f.turn_q), "marker-end": head("q", f.turn_q) });
  set(v.arcs.k, { points: arc(G.cx, G.cy, 0.42 * G.R, f.phi_k, f.turn_k), "marker-end": head("k", f.turn_k) });
  set(v.arcs.between, { points: arc(G.cx, G.cy, 0.72 * G.R, f.k_dir, f.between) });
  const said = lines(f, values, d);
  set(v.title, { text: said.title });
  for (const name of LINES) set(v.lines[name], { text: said[name] });
  const shown = [...f.contributions, f.fields.score];
  v.rows.forEach((row, r) => {
    const value = shown[r], x = v.sx(Math.min(0, value)), w = v.sx(Math.max(0, value)) - x;
    const chosen = r === values.p;
    set(row.bar, { x, width: w, ...(r < shown.length - 1 ? { fill: chosen ? d.colours.pair : "#bbbbbb" } : {}) });
    set(row.value, { text: number(value, 3), "font-weight": chosen || r === shown.length - 1 ? "bold" : "normal" });
    set(row.label, { "font-weight": chosen || r === shown.length - 1 ? "bold" : "normal" });
  });
}

const pageModule = createLab({ build, frame, draw, reflows: true });
export default pageModule;
