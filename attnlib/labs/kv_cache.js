// The KV-cache lab (notebook 11): a published model's shape (from attnlib.core.MODEL_SHAPES, sent in the
// spec), its query heads over the K/V heads they share, the cache per token and per sequence as a product
// of its factors, and two bars of the memory: the weights, then as many sequences' caches as fit, with the
// chosen K/V heads (as published, all, half, a quarter or one of the model's heads) and with one K/V head
// per head (multi-head). The page computes these few numbers itself with kv_cache_bytes and
// sequences_that_fit, twins of attnlib.core's, and writes them with kv_heads_for, human_bytes, grouped,
// lines and settle, twins of attnlib.labs.kv_cache's (tests/test_page_twins.py runs both sides; the browser
// tests compare every setting with Python's frame).
import { createLab, number, set, show, svg, text, words } from "../page/kit.js";

// Wide (a desktop) and narrow (a phone's column, 324 px: 340 units, texts at 13 units or more). Every text
// has a fixed place whatever the setting: only cells, bars and words change.
const WIDE = {
  W: 760, H: 382, titleY: 20, shapeY: 42, sourceY: 62, stripX: [130, 752], queryY: 84, kvY: 104, stripH: 14,
  headsY: 140, factorsY: [166], sequenceY: 190, windowY: 212, memoryY: 240,
  bars: [{ labelY: 268, barY: 256, countY: 268 }, { labelY: 304, barY: 292, countY: 304 }],
  barX: [214, 596], barH: 24, labelX: 8, countX: 606, countAnchor: "start",
  legend: [[8, 340], [190, 340], [400, 340]], savingY: 366,
};
const NARROW = {
  W: 340, H: 480, titleY: 16, shapeY: 36, sourceY: 56, stripX: [100, 332], queryY: 74, kvY: 94, stripH: 14,
  headsY: 130, factorsY: [156, 178], sequenceY: 200, windowY: 222, memoryY: 250,
  bars: [{ labelY: 274, barY: 286, countY: 320 }, { labelY: 346, barY: 358, countY: 392 }],
  barX: [8, 332], barH: 22, labelX: 8, countX: 332, countAnchor: "end",
  legend: [[8, 418], [8, 440], [190, 418]], savingY: 466,
};
const SHADES = ["cache", "shared"];  // the groups' two alternating colours (spec.data.colours)
const UNITS = ["B", "kB", "MB", "GB", "TB"];

// ---- the numbers (twins) ------------------------------------------------------------------------------------
function whole(value, name, low) {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new TypeError(`${name} must be a whole number; got ${value}`);
  if (value < low) throw new RangeError(`${name} must be >= ${low}; got ${value}`);
  return value;
}

// 2 · n_layers · context · n_kv_heads · d_head · bytes_per_value · batch (attnlib.core.kv_cache_bytes).
export function kv_cache_bytes(n_layers, context, n_kv_heads, d_head, bytes_per_value = 2, batch = 1) {
  const sizes = { n_layers, context, n_kv_heads, d_head, bytes_per_value, batch };
  const total = Object.entries(sizes).reduce((product, [name, v]) => product * whole(v, name, 1), 2);
  if (!Number.isSafeInteger(total)) throw new RangeError(`${total} bytes is beyond what the page counts exactly`);
  return total;
}

// ⌊(memory − reserved) / per sequence⌋ (attnlib.core.sequences_that_fit).
export function sequences_that_fit(memory_bytes, per_sequence_bytes, reserved_bytes = 0) {
  const memory = whole(memory_bytes, "memory_bytes", 0);
  const per = whole(per_sequence_bytes, "per_sequence_bytes", 1);
  const reserved = whole(reserved_bytes, "reserved_bytes", 0);
  if (reserved > memory) throw new RangeError(`reserved_bytes=${reserved} is more than memory_bytes=${memory}`);
  return Math.floor((memory - reserved) / per);
}

// Bytes in decimal units, three significant digits (attnlib.labs.kv_cache.human_bytes).
export function human_bytes(n) {
  let value = n, unit = 0;
  while (value >= 999.5 && unit < UNITS.length - 1) { value /= 1000; unit += 1; }
  const digits = unit === 0 || value >= 99.95 ? 0 : value >= 9.995 ? 1 : 2;
  return `${number(value, digits)} ${UNITS[unit]}`;
}

// A whole number with commas between groups of three digits (attnlib.labs.kv_cache.grouped).
export function grouped(n) {
  return String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

// The K/V heads a choice gives a model (attnlib.labs.kv_cache.kv_heads_for): its published number, its
// heads divided by 1, 2 or 4, or one.
export function kv_heads_for(model, choice, kv_divisors) {
  if (choice === "published") return model.n_kv_heads;
  return choice === "one" ? 1 : model.n_heads / kv_divisors[choice];
}

// The setting after a change (attnlib.labs.kv_cache.settle): a new model brings its context; a context
// beyond the model's is lowered to it.
export function settle(values, changes, models) {
  const out = { ...values, ...changes };
  const model = typeof out.model === "string" && Object.hasOwn(models, out.model) ? models[out.model] : null;
  if (model === null) return out;
  if ("model" in changes && changes.model !== values.model && !("context" in changes)) out.context = model.context;
  if (Number.isInteger(out.context) && out.context > model.context) out.context = model.context;
  return out;
}

// The numbers of a setting (attnlib.labs.kv_cache.cache_numbers): a sliding window bounds the positions kept.
export function numbers(model, kv_heads, context, bytes_per_value, memory_gb, gb) {
  if (model.n_heads % kv_heads) throw new RangeError(`kv_heads=${kv_heads} must divide the model's ${model.n_heads} heads`);
  const positions = model.window ? Math.min(context, model.window) : context;
  const per_token = kv_cache_bytes(model.n_layers, 1, kv_heads, model.d_head, bytes_per_value);
  const per_sequence = kv_cache_bytes(model.n_layers, positions, kv_heads, model.d_head, bytes_per_value);
  const mha = kv_cache_bytes(model.n_layers, positions, model.n_heads, model.d_head, bytes_per_value);
  const weights = model.params * bytes_per_value;
  const memory = memory_gb * gb;
  const fit = weights <= memory;
  return {
    n_kv: kv_heads, positions, per_token, per_sequence, mha_per_sequence: mha, weights, weights_fit: fit,
    group: model.n_heads / kv_heads,
    fits: fit ? sequences_that_fit(memory, per_sequence, weights) : 0,
    fits_mha: fit ? sequences_that_fit(memory, mha, weights) : 0,
  };
}

function count(t, n, fit) {
  if (!fit) return t.count_over;
  if (n <= 1) return n === 1 ? t.count_one : t.count_none;
  return words(t.count_many, { n: grouped(n) });
}

// The picture's sentences and the readout's verdict (attnlib.labs.kv_cache.lines).
export function lines(f, values, data) {
  const t = data.texts, model = data.models[values.model];
  const n_kv = f.n_kv, n_heads = model.n_heads, group = f.group;
  const memory = `${values.memory} GB`, weights = human_bytes(f.weights);
  let verdict;
  if (!f.weights_fit) verdict = words(t.over, { weights, memory });
  else verdict = words(t[f.fits === 0 ? "none" : f.fits === 1 ? "one" : "many"], { n: grouped(f.fits), weights, memory });
  const heads = group === 1 ? t.multi_head
    : n_kv === 1 ? words(t.multi_query, { n_heads }) : words(t.grouped, { n_kv, group });
  const window = model.window;
  return {
    title: model.label,
    shape: words(t.shape, { n_layers: model.n_layers, n_heads, d_head: model.d_head }),
    source: words(t.source, { source: model.source }),
    heads,
    factors_a: words(n_kv === 1 ? t.factors_a_one : t.factors_a, { n_layers: model.n_layers, n_kv }),
    factors_b: words(t.factors_b, { d_head: model.d_head, bytes: data.bytes[values.dtype], per_token: human_bytes(f.per_token) }),
    sequence: words(t.sequence, { positions: grouped(f.positions), per_sequence: human_bytes(f.per_sequence) }),
    window: window && values.context > window ? words(t.window, { window: grouped(window) }) : "",
    memory: words(t.memory, { memory }),
    bar_kv: n_kv === 1 ? t.bar_kv_one : words(t.bar_kv, { n_kv }),
    bar_mha: words(t.bar_mha, { n_heads }),
    count_kv: count(t, f.fits, f.weights_fit),
    count_mha: count(t, f.fits_mha, f.weights_fit),
    saving: group > 1 ? words(t.saving, { group }) : t.same,
    weights: words(t.weights, { weights }),
    verdict,
  };
}

// ---- the picture --------------------------------------------------------------------------------------------
function frame(spec, values) {
  const d = spec.data;
  const model = d.models[values.model];
  const f = numbers(model, kv_heads_for(model, values.kv_heads, d.kv_divisors), values.context, d.bytes[values.dtype], values.memory, d.gb);
  const said = lines(f, values, d);
  return { ...f, said, fields: { per_sequence: human_bytes(f.per_sequence), per_token: human_bytes(f.per_token), verdict: said.verdict } };
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data, c = d.colours;
  const G = narrow ? NARROW : WIDE;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${G.H}`, role: "img" }, picture);
  const small = { class: "tick" };
  const line = (y, attrs = {}) => text(root, G.labelX, y, "", attrs);
  const view = {
    d, G,
    title: line(G.titleY, { class: "title", "font-weight": "bold" }),
    shape: line(G.shapeY),
    source: line(G.sourceY, { ...small, fill: "#555" }),
    heads: line(G.headsY),
    factors: G.factorsY.map((y) => line(y)),
    sequence: line(G.sequenceY),
    window: line(G.windowY, { ...small, fill: "#555" }),
    memory: line(G.memoryY, { class: "title" }),
    saving: line(G.savingY),
  };
  // the heads: one strip of query heads over one of K/V heads, each group in one colour
  text(root, G.labelX, G.queryY + G.stripH / 2, d.texts.query_heads, small);
  text(root, G.labelX, G.kvY + G.stripH / 2, d.texts.kv_heads, small);
  const cell = (y) => Array.from({ length: d.max_heads }, () => svg("rect", { y, height: G.stripH, stroke: "white" }, root));
  view.query = cell(G.queryY);
  view.kv = cell(G.kvY);
  // the two memory bars: weights, the caches (one block per sequence while few), what is left, an outline
  view.bars = G.bars.map((b) => {
    const bar = {
      weights: svg("rect", { y: b.barY, height: G.barH, fill: c.weights }, root),
      cache: svg("rect", { y: b.barY, height: G.barH, fill: c.cache }, root),
      blocks: Array.from({ length: d.max_blocks - 1 }, () => svg("line", { y1: b.barY, y2: b.barY + G.barH, stroke: "white", "stroke-width": 1 }, root)),
      label: text(root, G.labelX, b.labelY, "", small),
      count: text(root, G.countX, b.countY, "", { ...small, "font-weight": "bold", "text-anchor": G.countAnchor }),
    };
    svg("rect", { x: G.barX[0], y: b.barY, width: G.barX[1] - G.barX[0], height: G.barH, fill: "none", stroke: "#333" }, root);
    return bar;
  });
  // the legend: what the bars' parts are
  const legend = [["weights", c.weights], ["cache", c.cache], ["free", "white"]].map(([key, fill], k) => {
    const [x, y] = G.legend[k];
    svg("rect", { x, y: y - 6, width: 18, height: 12, fill, stroke: "#333" }, root);
    return text(root, x + 24, y, d.texts[key], small);
  });
  view.weights = legend[0];  // its words carry the weights' size
  return view;
}

function draw(v, f, spec, values) {
  const { G, d } = v;
  const said = f.said, model = d.models[values.model];
  for (const name of ["title", "shape", "source", "heads", "sequence", "window", "memory", "saving", "weights"]) set(v[name], { text: said[name] });
  const factors = v.factors.length === 1 ? [`${said.factors_a} ${said.factors_b}`] : [said.factors_a, said.factors_b];
  v.factors.forEach((node, k) => set(node, { text: factors[k] }));
  // the strips
  const [x0, x1] = G.stripX, width = (x1 - x0) / model.n_heads, group = f.group;
  const edge = width >= 4 ? 0.6 : 0;
  v.query.forEach((rect, h) => {
    show(rect, h < model.n_heads);
    if (h < model.n_heads) set(rect, { x: x0 + h * width, width, fill: d.colours[SHADES[Math.floor(h / group) % 2]], "stroke-width": edge });
  });
  v.kv.forEach((rect, g) => {
    show(rect, g < f.n_kv);
    if (g < f.n_kv) set(rect, { x: x0 + g * group * width, width: group * width, fill: d.colours[SHADES[g % 2]], "stroke-width": 1 });
  });
  // the bars, on one scale: the whole memory
  const memory = values.memory * d.gb, [b0, b1] = G.barX, span = b1 - b0;
  [[f.per_sequence, f.fits, said.bar_kv, said.count_kv], [f.mha_per_sequence, f.fits_mha, said.bar_mha, said.count_mha]]
    .forEach(([per, n, label, counted], k) => {
      const bar = v.bars[k];
      const w = f.weights_fit ? (span * f.weights) / memory : span;
      set(bar.weights, { x: b0, width: w, fill: f.weights_fit ? d.colours.weights : d.colours.over });
      set(bar.cache, { x: b0 + w, width: f.weights_fit ? (span * n * per) / memory : 0 });
      bar.blocks.forEach((node, j) => {
        const shown = f.weights_fit && n > 1 && n <= d.max_blocks && j + 1 < n;
        show(node, shown);
        if (shown) {
          const x = b0 + w + (span * (j + 1) * per) / memory;
          set(node, { x1: x, x2: x });
        }
      });
      set(bar.label, { text: label });
      set(bar.count, { text: counted });
    });
}

// The kit calls settle(values, changes) with no spec: the models' limits are kept from the spec the picture
// was built from (every kv_cache lab has the same presets, attnlib.core.MODEL_SHAPES).
let LIMITS = {};
function built(picture, spec, change, options) {
  LIMITS = spec.data.limits;
  return build(picture, spec, change, options);
}

const pageModule = createLab({ build: built, frame, draw, reflows: true, settle: (values, changes) => settle(values, changes, LIMITS) });
export default pageModule;
