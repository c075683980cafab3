// The tiling lab (notebook 11): the T×T scores cut into tiles, computed one tile at a time as tiled attention
// (FlashAttention's forward pass) computes them. Entries the mask blocks are grey; the tiles done so far are
// filled (computed) or hatched (skipped: the mask blocks every entry), the tile of this step is outlined;
// beside the grid, the chosen query row's running max m and sum l, and its output so far (bars) against the
// exact output (lines). Python sends, for each T, block size and mask, the tiles' kinds and order and the
// state of every row after each tile of its query block (attnlib.core.tiled_attention_steps); the page
// looks the step and the row up.
import { control, createLab, entries, newId, number, set, show, storedFrame, svg, text, words } from "../page/kit.js";

// Wide (a desktop): the grid at the left, the sentences and the bars at the right. Narrow (a phone's column,
// 324 px): the same parts one above the other in 340 units, texts at 13 units or more. The grid keeps its
// size whatever T: its cells shrink as T grows.
const WIDE = {
  W: 760, gx: 74, gy: 56, G: 320, legendY: 412, legendX: [74, 234], legendGap: 26,
  linesX: 440, linesY: 62, lineGap: 30, barsY: 262, rowH: 30, labelX: 440, barX: [500, 690], valueX: 752,
};
const NARROW = {
  W: 340, gx: 40, gy: 44, G: 294, legendY: 364, legendX: [40, 190], legendGap: 24,
  linesX: 8, linesY: 430, lineGap: 24, barsY: 584, rowH: 28, labelX: 8, barX: [76, 262], valueX: 334,
};
const LINES = ["step", "kind", "row", "m", "l", "gap"];
const KINDS = ["skipped", "partial", "full"];  // attnlib.core.tile_kinds: 0, 1, 2
const SWATCH = 16;

// The number of tiles of a T×T grid in blocks of `block` (attnlib.labs.tiling.tiles is its twin).
export function tiles(T, block) {
  const n = Math.ceil(T / block);
  return n * n;
}

// The setting after a change (attnlib.labs.tiling.settle): a step at the last tile stays at the last tile,
// a step or a row past the end of the new grid comes back to it.
export function settle(values, changes) {
  const out = { ...values, ...changes };
  const end = tiles(values.T, values.block), newEnd = tiles(out.T, out.block);
  if (!("step" in changes)) out.step = values.step === end ? newEnd : Math.min(values.step, newEnd);
  if (!("row" in changes)) out.row = Math.min(values.row, out.T - 1);
  return out;
}

// What Python sent for the grid, and the step and the row looked up in it: which tiles are done, the tile of
// this step, and the row's state after the tiles of its query block done so far.
export function frame(spec, values) {
  const f = storedFrame(spec, values);
  const { step, row } = values;
  let tile = null;
  const done = f.order.map((line, a) => line.map((o, b) => {
    if (o === step) tile = [a, b, f.kinds[a][b]];
    return o <= step;
  }));
  const q = f.row_block[row];
  const count = f.order[q].filter((o) => o <= step).length;  // tiles of the row's query block done
  const d = spec.data.d_v, width = d + 3;  // each state: m, l, out (d_v), gap
  const at = (row * (f.order.length + 1) + count) * width;
  const s = entries(f.states);
  return {
    ...f, done, tile, m: Number.isFinite(s[at]) ? s[at] : null, l: s[at + 1],
    out: Array.from(s.subarray(at + 2, at + 2 + d)), exact: f.exact_rows[row], gap: s[at + width - 1],
  };
}

// The picture's sentences at one setting (attnlib.labs.tiling.lines is its twin: the same templates, the
// same numbers).
export function lines(f, values, t) {
  const n = f.order.length * f.order[0].length, tile = f.tile;
  return {
    step: tile === null ? words(t.start, { tiles: n })
      : words(t.step, { step: values.step, tiles: n, q: tile[0], k: tile[1] }),
    kind: tile === null ? "" : t[KINDS[tile[2]]],
    row: words(t.row, { row: values.row, q: f.row_block[values.row] }),
    m: words(t.m, { m: f.m === null ? "−∞" : number(f.m, 3) }),
    l: words(t.l, { l: number(f.l, 3) }),
    gap: words(t.gap, { gap: number(f.gap, 3) }),
  };
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data, c = d.colours;
  const G = narrow ? NARROW : WIDE;
  const maxT = Math.max(...control(spec, "T").options);
  const maxTiles = Math.ceil(maxT / Math.min(...control(spec, "block").options));
  const H = Math.max(G.barsY + 20 + G.rowH * d.d_v, G.legendY + G.legendGap + 14) + 10;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${H}`, role: "img" }, picture);
  const small = narrow ? { class: "tick" } : {};
  // the hatch of a skipped tile
  const pattern = svg("pattern", { id: newId("tiling-hatch"), patternUnits: "userSpaceOnUse", width: 6, height: 6,
    patternTransform: "rotate(45)" }, svg("defs", {}, root));
  svg("rect", { width: 6, height: 6, fill: "#f2f2f2" }, pattern);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: c.hatch, "stroke-width": 2 }, pattern);
  const hatch = `url(#${pattern.id})`;
  const view = { G, d, hatch, narrow: Boolean(narrow), host: picture.closest(".attn-lab") };
  // the grid: one square per entry, one outline per tile, the tile of this step and the chosen row
  const cells = svg("g", { "shape-rendering": "crispEdges" }, root);
  view.cells = Array.from({ length: maxT }, () => Array.from({ length: maxT }, () => svg("rect", {}, cells)));
  const outlines = svg("g", { fill: "none" }, root);
  view.tiles = Array.from({ length: maxTiles }, () => Array.from({ length: maxTiles },
    () => svg("rect", { stroke: "#666", "stroke-width": 1 }, outlines)));
  view.current = svg("rect", { fill: "none", stroke: c.edge, "stroke-width": 3.5 }, root);
  view.rowBox = svg("rect", { fill: "none", stroke: c.row, "stroke-width": 2 }, root);
  view.rowLabel = text(root, G.gx - 5, 0, "", { ...small, "text-anchor": "end", "font-weight": "bold" });
  text(root, G.gx + G.G / 2, G.gy - 16, d.texts.keys, { "text-anchor": "middle" });
  const qx = narrow ? 9 : G.gx - 34, qy = G.gy + G.G / 2;
  text(root, qx, qy, d.texts.queries, { "text-anchor": "middle", transform: `rotate(-90 ${qx} ${qy})` });
  // the legend: two rows of two swatches
  const legend = [["computed", { fill: c.computed }], ["current", { fill: c.current, stroke: c.edge, "stroke-width": 2 }],
    ["skipped", { fill: hatch, stroke: "#666" }], ["blocked", { fill: c.blocked }]];
  legend.forEach(([name, style], k) => {
    const x = G.legendX[k % 2], y = G.legendY + G.legendGap * Math.floor(k / 2);
    svg("rect", { x, y: y - SWATCH / 2, width: SWATCH, height: SWATCH, ...style }, root);
    text(root, x + SWATCH + 6, y, d.texts[`legend_${name}`], small);
  });
  // the sentences, then the output so far against the exact one, one bar per value dimension
  view.lines = Object.fromEntries(LINES.map((name, k) => [name, text(root, G.linesX, G.linesY + G.lineGap * k, "",
    { ...small, fill: name === "kind" ? c.edge : "#222222", "font-weight": name === "step" ? "bold" : "normal" })]));
  const [x0, x1] = G.barX;
  view.sx = (value) => (x0 + x1) / 2 + (value / d.bound) * ((x1 - x0) / 2);
  text(root, G.labelX, G.barsY, d.texts.bars, small);
  const top = G.barsY + 20;
  svg("line", { x1: view.sx(0), x2: view.sx(0), y1: top, y2: top + G.rowH * d.d_v, stroke: "#888" }, root);
  view.bars = Array.from({ length: d.d_v }, (_, r) => {
    const y = top + G.rowH * r;
    text(root, G.labelX, y + G.rowH / 2, words(d.texts.dim, { c: r }), small);
    return {
      bar: svg("rect", { y: y + 5, height: G.rowH - 10, fill: c.out }, root),
      exact: svg("line", { y1: y + 2, y2: y + G.rowH - 2, stroke: c.exact, "stroke-width": 2.5 }, root),
      value: text(root, G.valueX, y + G.rowH / 2, "", { ...small, "text-anchor": "end" }),
    };
  });
  return view;
}

// The step and the row sliders end where this grid does (the kit draws them over every option; their
// values never pass the end: `settle`).
function fitSlider(host, spec, name, last) {
  const input = host?.querySelector(`.control[data-control="${name}"] input[type="range"]`);
  if (!input) return;
  const max = String(control(spec, name).options.indexOf(last));
  if (input.max !== max) input.max = max;
}

function draw(v, f, spec, values) {
  const { G, d } = v;
  const c = d.colours;
  const { T, block, row } = values;
  const n = f.order.length;
  fitSlider(v.host, spec, "step", n * n);
  fitSlider(v.host, spec, "row", T - 1);
  const unit = G.G / T;
  const at = (i) => G.gx + unit * i, down = (i) => G.gy + unit * i;
  const tile = f.tile;
  v.cells.forEach((line, i) => line.forEach((cell, j) => {
    const shown = i < T && j < T;
    show(cell, shown);
    if (!shown) return;
    const a = f.row_block[i], b = f.row_block[j];
    let fill = c.pending;
    if (!f.keep[i][j]) fill = c.blocked;
    else if (tile !== null && tile[0] === a && tile[1] === b) fill = c.current;
    else if (f.done[a][b]) fill = c.computed;
    set(cell, { x: at(j), y: down(i), width: unit, height: unit, fill });
  }));
  // a tile's rows and columns: from its first entry to its last (the last tile shorter when block ∤ T)
  const span = (a) => [a * block, Math.min(T, (a + 1) * block)];
  v.tiles.forEach((line, a) => line.forEach((rect, b) => {
    const shown = a < n && b < n;
    show(rect, shown);
    if (!shown) return;
    const [r0, r1] = span(a), [c0, c1] = span(b);
    set(rect, { x: at(c0), y: down(r0), width: at(c1) - at(c0), height: down(r1) - down(r0),
      fill: f.done[a][b] && f.kinds[a][b] === 0 ? v.hatch : "none" });
  }));
  show(v.current, tile !== null);
  if (tile !== null) {
    const [r0, r1] = span(tile[0]), [c0, c1] = span(tile[1]);
    set(v.current, { x: at(c0), y: down(r0), width: at(c1) - at(c0), height: down(r1) - down(r0) });
  }
  set(v.rowBox, { x: at(0), y: down(row), width: G.G, height: unit });
  set(v.rowLabel, { y: down(row) + unit / 2, text: String(row) });
  const said = lines(f, values, d.texts);
  for (const name of LINES) set(v.lines[name], { text: said[name] });
  v.bars.forEach((bar, r) => {
    const value = f.out[r], x = v.sx(Math.min(0, value));
    set(bar.bar, { x, width: v.sx(Math.max(0, value)) - x });
    set(bar.exact, { x1: v.sx(f.exact[r]), x2: v.sx(f.exact[r]) });
    set(bar.value, { text: number(value, 3) });
  });
}

const pageModule = createLab({ build, frame, draw, settle, reflows: true });
export default pageModule;
