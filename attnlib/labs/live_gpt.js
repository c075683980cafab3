// The live GPT lab (notebook 09): the learner types an opening and the tiny GPT of 09 continues it
// here, in the page, one character at a time with the key/value cache; every head's attention and
// the candidates for the next character are drawn at each step.
// This module is a second implementation of attnlib.gpt's forward pass (no Python runs on the site):
// tests/browser/test_live_gpt_in_the_page.py holds it to attnlib on many openings (logits, weights, greedy text).
// An opening the model cannot read is refused beside the box and never enters the setting: the last line
// stays drawn (live_gpt.py's LiveLab refuses it the same way).
import { colour, createLab, newId, number, softmax, svg, text, words } from "../page/kit.js";

// ---- the weights ---------------------------------------------------------------------------------------
// Bytes arrive as text (live_gpt.py's `to_text`): raw deflate written in base85 with these 85 characters,
// the printable ASCII ones that neither JSON nor HTML escapes (the same rule as live_gpt.py's DIGITS).
const DIGITS = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i))
  .filter((ch) => !"\"'&<>\\`".includes(ch)).slice(0, 85).join("");

function fromBase85(text, n) {
  const value = new Uint8Array(128);
  for (let i = 0; i < 85; i += 1) value[DIGITS.charCodeAt(i)] = i;
  const bytes = new Uint8Array((text.length / 5) * 4);
  for (let i = 0, o = 0; i < text.length; i += 5, o += 4) {
    let word = 0;
    for (let k = 0; k < 5; k += 1) word = word * 85 + value[text.charCodeAt(i + k)];
    bytes[o] = word >>> 24; bytes[o + 1] = (word >>> 16) & 255; bytes[o + 2] = (word >>> 8) & 255; bytes[o + 3] = word & 255;
  }
  return bytes.subarray(0, n);
}

// {bytes, base85} -> the bytes before deflate, with the browser's own inflater (asynchronous).
async function inflate(packed) {
  const deflated = new Blob([fromBase85(packed.base85, packed.bytes)]).stream();
  return new Uint8Array(await new Response(deflated.pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer());
}

// IEEE half precision -> number (exact: every float16 is a float32).
function halfToNumber(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >> 10) & 0x1f;
  const frac = h & 0x3ff;
  if (exp === 0) return sign * frac * 2 ** -24;
  if (exp === 31) return frac ? NaN : sign * Infinity;
  return sign * (1 + frac / 1024) * 2 ** (exp - 15);
}

let halves = null;  // every float16 as a float32, made once

async function decodeModel(packed) {
  const planes = await inflate(packed);  // every high byte, then every low byte
  if (!halves) {
    halves = new Float32Array(65536);
    for (let i = 0; i < 65536; i += 1) halves[i] = halfToNumber(i);
  }
  const n = planes.length / 2;
  const values = new Float32Array(n);
  for (let i = 0; i < n; i += 1) values[i] = halves[(planes[i] << 8) | planes[n + i]];
  const p = {};
  let at = 0;
  packed.names.forEach((name, k) => {
    const size = packed.shapes[k].reduce((a, b) => a * b, 1);
    p[name] = values.subarray(at, at + size);  // row-major, the order the loops below read
    at += size;
  });
  const { d, f } = packed.config;
  // one step's scratch vectors, reused: a step allocates only what it keeps (logits, weights)
  const work = { x: new Float64Array(d), q: new Float64Array(d), heads: new Float64Array(d), o: new Float64Array(d),
    hidden: new Float64Array(f), mlp: new Float64Array(d) };
  return { c: packed.config, p, work };
}

const decoding = new WeakMap(), decoded = new WeakMap();

// One model of spec.data.models as {c: config, p: {name: Float32Array}, work}: a promise, decoded once.
export function loadModel(packed) {
  if (!decoding.has(packed)) {
    decoding.set(packed, decodeModel(packed).then((model) => { decoded.set(packed, model); return model; }));
  }
  return decoding.get(packed);
}

// ---- the forward pass (attnlib.gpt.model.run_layers, written for one vector at a time) ------------------
// y = x W (+ bias) for x (n,) and W (n, m) row-major, into y (m,).
function matvec(x, W, y, bias = null) {
  const m = y.length;
  if (bias) y.set(bias);
  else y.fill(0);
  for (let i = 0; i < x.length; i += 1) {
    const xi = x[i];
    if (xi === 0) continue;
    const row = i * m;
    for (let j = 0; j < m; j += 1) y[j] += xi * W[row + j];
  }
  return y;
}

function embed(m, token, pos, x) {
  const d = m.c.d;
  const E = m.p.tok_emb, P = m.p.pos_emb;
  for (let i = 0; i < d; i += 1) x[i] = E[token * d + i] + P[pos * d + i];
  return x;
}

// One head's attention of query q over the keys/values K, V (rows 0..n-1 of width d, columns of head h),
// added into out; returns the weights (n, by the kit's one softmax), kept for the picture.
function attendHead(q, K, V, n, d, h, dk, out) {
  const scale = 1 / Math.sqrt(dk);
  const s = new Float64Array(n);
  for (let j = 0; j < n; j += 1) {
    let dot = 0;
    for (let c = 0; c < dk; c += 1) dot += q[h * dk + c] * K[j * d + h * dk + c];
    s[j] = dot * scale;
  }
  const w = softmax(s);
  for (let j = 0; j < n; j += 1) for (let c = 0; c < dk; c += 1) out[h * dk + c] += w[j] * V[j * d + h * dk + c];
  return w;
}

// Layer l on the stream rows xs (positions from, from + 1, ...), in place (attnlib.gpt.model.layer): their
// keys and values go into K, V (a row of width d a position), then each row's query reads keys 0..seen(pos)-1,
// and x + heads W_o, then the MLP. Returns weights[h][k], the heads' weights of row k.
function runLayer(m, l, xs, from, K, V, seen) {
  const { d, H } = m.c;
  const dk = d / H;
  const { q, heads, o, hidden, mlp } = m.work;
  const P = (k) => m.p[`l${l}.${k}`];
  xs.forEach((x, k) => {
    const at = (from + k) * d;
    matvec(x, P("W_k"), K.subarray(at, at + d));
    matvec(x, P("W_v"), V.subarray(at, at + d));
  });
  const weights = Array.from({ length: H }, () => []);
  xs.forEach((x, k) => {
    matvec(x, P("W_q"), q);
    heads.fill(0);
    for (let h = 0; h < H; h += 1) weights[h].push(attendHead(q, K, V, seen(from + k), d, h, dk, heads));
    matvec(heads, P("W_o"), o);
    for (let i = 0; i < x.length; i += 1) x[i] += o[i];
    matvec(x, P("W_1"), hidden, P("b_1"));
    for (let i = 0; i < hidden.length; i += 1) if (!(hidden[i] > 0)) hidden[i] = 0;
    matvec(hidden, P("W_2"), mlp, P("b_2"));
    for (let i = 0; i < x.length; i += 1) x[i] += mlp[i];
  });
  return weights;
}

// The logits x Eᵀ + b, four characters at a time (the last four again if V is no multiple of 4): four sums,
// each in the order of i (the same numbers), keep the processor busy where one waits on each addition.
function unembed(m, x) {
  const { V, d } = m.c;
  const E = m.p.tok_emb, b = m.p.b_out;  // tied: the unembedding is Eᵀ
  const logits = new Float64Array(V);
  for (let t = 0; t < V; t += 4) {
    const u = Math.min(t, V - 4), r = u * d;
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let i = 0; i < d; i += 1) {
      const xi = x[i];
      s0 += xi * E[r + i]; s1 += xi * E[r + d + i]; s2 += xi * E[r + 2 * d + i]; s3 += xi * E[r + 3 * d + i];
    }
    logits[u] = b[u] + s0; logits[u + 1] = b[u + 1] + s1; logits[u + 2] = b[u + 2] + s2; logits[u + 3] = b[u + 3] + s3;
  }
  return logits;
}

// A key/value cache: per layer a (T_max, d) array of keys and one of values, filled one row per token.
export function newCache(m) {
  const size = m.c.T_max * m.c.d;
  return Array.from({ length: m.c.L }, () => ({ K: new Float64Array(size), V: new Float64Array(size) }));
}

// The next-token logits after `token` at position `pos`, reusing the cached keys and values of the
// earlier positions (attnlib.gpt.generate_steps with the cache): every cached key is in the query's past,
// so no mask is needed. Returns the logits (V) and each layer's heads' weights over the pos + 1 characters.
export function stepCached(m, cache, token, pos) {
  const x = embed(m, token, pos, m.work.x);
  const weights = cache.map(({ K, V }, l) => runLayer(m, l, [x], pos, K, V, (i) => i + 1).map((rows) => rows[0]));
  return { logits: unembed(m, x), weights };
}

// The whole text at once (attnlib.gpt.forward): the causal mask when the model has it.
// Returns the logits of every position (or the last only) and weights[l][h][i] (row i, length T).
export function forwardAll(m, ids, allLogits = false) {
  const T = ids.length;
  const xs = ids.map((token, pos) => embed(m, token, pos, new Float64Array(m.c.d)));
  const K = new Float64Array(T * m.c.d), V = new Float64Array(T * m.c.d);  // each layer's, in turn
  const seen = m.c.causal ? (i) => i + 1 : () => T;  // the mask: keys 0..i only
  const weights = Array.from({ length: m.c.L }, (_, l) => runLayer(m, l, xs, 0, K, V, seen)
    .map((rows) => rows.map((w) => { const row = new Float64Array(T); row.set(w); return row; })));
  const logits = allLogits ? xs.map((x) => unembed(m, x)) : [unembed(m, xs[T - 1])];
  return { logits, weights };
}

// ---- choosing the next character ----------------------------------------------------------------------
// mulberry32: a small seeded generator of uniform numbers in [0, 1); attnlib.labs.live_gpt.Mulberry32 is its twin.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1) >>> 0;
    t = (((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0) ^ t) >>> 0;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The k most likely ids, most likely first (ties: the smaller id first, as a stable sort).
function topK(probs, k) {
  const top = [];
  for (let i = 0; i < probs.length; i += 1) {
    if (top.length === k && probs[i] <= probs[top[k - 1]]) continue;
    let at = top.length;
    while (at > 0 && probs[top[at - 1]] < probs[i]) at -= 1;
    top.splice(at, 0, i);
    if (top.length > k) top.pop();
  }
  return top;
}

// The index of the first largest entry.
const argmax = (row) => row.reduce((best, v, i) => (v > row[best] ? i : best), 0);

// Greedy (temperature 0: the first most likely) or inverse-CDF sampling with one uniform number.
function choose(logits, temperature, rng) {
  if (temperature === 0) return { probs: softmax(logits), token: argmax(logits) };
  const probs = softmax(logits.map((v) => v / temperature));
  const u = rng();
  let cum = 0, token = probs.length - 1;
  for (let i = 0; i < probs.length; i += 1) {
    cum += probs[i];
    if (cum > u) { token = i; break; }
  }
  return { probs, token };
}

// ---- a run: one opening, one model, one temperature, written step by step on demand ---------------------
// run.steps[s] = {logits, probs, token, rows}: rows[l][h][i] is query i's weights over the characters.
// As attnlib.gpt.generate_steps: with the mask a step reads one more character through the cache (the
// rows grow by one), without it the whole text again.
export function newRun(m, ids, temperature, seed) {
  const run = { m, ids: [...ids], n0: ids.length, temperature, rng: mulberry32(seed), steps: [] };
  if (m.c.causal) {
    run.cache = newCache(m);
    run.rows = Array.from({ length: m.c.L }, () => Array.from({ length: m.c.H }, () => []));
    ids.slice(0, -1).forEach((token, pos) => read(run, token, pos));
  }
  return run;
}

// The cached step of `token` at `pos`; its weights are kept as query pos's rows. Returns its logits.
function read(run, token, pos) {
  const out = stepCached(run.m, run.cache, token, pos);
  out.weights.forEach((layer, l) => layer.forEach((w, h) => run.rows[l][h].push(w)));
  return out.logits;
}

export function advance(run) {
  const { m, ids } = run;
  const out = m.c.causal ? null : forwardAll(m, ids);
  const logits = out ? out.logits[0] : read(run, ids[ids.length - 1], ids.length - 1);
  const rows = out ? out.weights : run.rows.map((layer) => layer.map((r) => r.slice()));
  const { probs, token } = choose(logits, run.temperature, run.rng);
  run.steps.push({ logits, probs, token, rows });
  if (ids.length < m.c.T_max) ids.push(token);  // the last character fits no position: shown only
  return run.steps[run.steps.length - 1];
}

// ---- the opening ---------------------------------------------------------------------------------------
// The vocabulary and the two conversion tables arrive packed (live_gpt.py's pack_tables): uint16 code
// points [V, V steps between the sorted code points, n, n (Traditional, Simplified) pairs, m, m
// (Simplified, Traditional) pairs], unpacked once.
const unpacking = new WeakMap(), tables = new WeakMap();

function loadTables(d) {
  if (!unpacking.has(d)) {
    unpacking.set(d, inflate(d.tables).then((bytes) => {
      const list = Array.from({ length: bytes.length / 2 }, (_, i) => bytes[2 * i] | (bytes[2 * i + 1] << 8));
      let at = 0;
      const take = (n) => list.slice(at, (at += n));
      let point = 0;
      const chars = take(take(1)[0]).map((step) => String.fromCharCode((point += step)));
      const pairs = () => {
        const flat = take(2 * take(1)[0]);
        return Object.fromEntries(Array.from({ length: flat.length / 2 },
          (_, i) => [String.fromCharCode(flat[2 * i]), String.fromCharCode(flat[2 * i + 1])]));
      };
      const toHans = pairs(), toHant = pairs();
      // each character as drawn, by id (attnlib.gpt.text.drawn_text): ⏎ for a line break, Traditional in 繁體
      const glyphs = chars.map((ch) => (ch === "\n" ? "⏎" : toHant[ch] || ch));
      tables.set(d, { chars, glyphs, ids: new Map(chars.map((ch, i) => [ch, i])), toHans, toHant });
    }));
  }
  return unpacking.get(d);
}

// A line break as pasted from any system, or typed as the ⏎ the pictures draw (attnlib.gpt.text's _BREAKS).
const BREAKS = /\r\n|[\r\n⏎]/g;
// The opening as the text box shows it: a box of one line shows a line break as ⏎.
const boxText = (prompt) => prompt.replace(BREAKS, "⏎");

// The opening in the model's characters (attnlib.gpt.text.model_text): a line break as the poems' own,
// a Traditional character the vocabulary lacks as its Simplified form.
function modelText(d, prompt) {
  const { ids, toHans } = tables.get(d);
  return Array.from(prompt.replace(BREAKS, "\n"), (ch) => (ids.has(ch) || !(ch in toHans) ? ch : toHans[ch])).join("");
}

// The sentence refusing an opening the model cannot read (attnlib.labs.live_gpt.problem), or null: each
// character it cannot read named once, quoted, a space as ␣ (in “ ” a space is hard to see).
const SPACES = " \t\u00a0\u3000";
function problem(d, prompt) {
  const text = Array.from(modelText(d, prompt));
  const T_max = d.models[0].config.T_max;
  if (!text.length) return d.text.empty;
  const { ids } = tables.get(d);
  const named = (ch) => (SPACES.includes(ch) ? "␣" : ch === "\n" ? "⏎" : ch);
  const unknown = [...new Set(text.filter((ch) => !ids.has(ch)).map(named))];
  if (unknown.length) {
    const [left, right] = d.traditional ? ["「", "」"] : ["“", "”"];
    const chars = unknown.map((ch) => `${left}${ch}${right}`).join(", ");
    return words(d.text.unknown, { chars, V: ids.size });
  }
  if (text.length > T_max) return words(d.text.too_long, { T: text.length, T_max });
  return null;
}

// The line on how an accepted opening was read (attnlib.labs.live_gpt.note), or null: the Traditional
// characters read as Simplified; in 繁體, that the model's Simplified characters are shown in Traditional.
function note(d, prompt) {
  if (d.traditional) return d.text.shown_hant;
  const { ids, toHans } = tables.get(d);
  const pairs = new Map(Array.from(prompt).filter((ch) => !ids.has(ch) && ch in toHans).map((ch) => [ch, toHans[ch]]));
  return pairs.size ? words(d.text.read_as, { pairs: [...pairs].map(([t, s]) => `${t} → ${s}`).join(", ") }) : null;
}

// The setting after a change (attnlib.labs.live_gpt.settle): a new number of characters moves the step
// with it when the step was at the end; a step the learner moved elsewhere stays.
export function settle(values, changes) {
  const out = { ...values, ...changes };
  if ("n_new" in changes && !("step" in changes) && values.step === values.n_new) out.step = changes.n_new;
  return out;
}

const runs = new WeakMap();

function runFor(spec, values) {
  const d = spec.data;
  if (!runs.has(d)) runs.set(d, new Map());
  const ids = Array.from(modelText(d, values.prompt), (ch) => tables.get(d).ids.get(ch));
  const key = JSON.stringify([values.model, values.temperature, ids]);
  const cache = runs.get(d);
  if (!cache.has(key)) {
    if (cache.size > 6) cache.clear();
    cache.set(key, newRun(decoded.get(d.models[values.model]), ids, values.temperature, d.seed));
  }
  return cache.get(key);
}

// ---- the lab -------------------------------------------------------------------------------------------
function frame(spec, values) {
  const d = spec.data;
  if (!tables.has(d) || !decoded.has(d.models[values.model])) {  // still unpacking: draw when done
    return { loading: Promise.all([loadTables(d), loadModel(d.models[values.model])]), fields: { says: "" } };
  }
  const run = runFor(spec, values);  // an opening the model cannot read never reaches the setting
  const T_max = run.m.c.T_max;
  const n = Math.min(values.n_new, T_max + 1 - run.n0);
  const s = Math.min(values.step, n);
  while (run.steps.length < s) advance(run);
  const at = run.steps[s - 1];
  const context = run.ids.slice(0, run.n0 + s - 1);
  const { glyphs } = tables.get(d);
  const chars = (list) => list.map((i) => glyphs[i]).join("");
  const top = topK(at.probs, d.top_k);
  const rank = 1 + at.probs.filter((p) => p > at.probs[at.token]).length;
  const how = values.temperature === 0 ? d.text.greedy
    : words(d.text.sampled, { temperature: number(values.temperature, 1), rank, V: glyphs.length });
  const fields = { step: s, n, context: chars(context), chosen: chars([at.token]), p: number(at.probs[at.token], 3), how };
  const t = context.length;
  const weights = at.rows.map((layer) => layer.map((rows) => rows.slice(0, t)));  // [l][h][i]: row i, keys 0..
  const looks = weights.map((layer) => layer.map((rows) => argmax(rows[t - 1])));
  return { note: note(d, values.prompt), ids: context, written: run.steps.slice(0, s).map((st) => st.token), chosen: at.token,
    logits: at.logits, weights, top, top_probs: top.map((i) => at.probs[i]), p_chosen: at.probs[at.token], rank, looks, n, s,
    fields: { says: words(d.text.says, fields) } };
}

const COLS = 12, CELL = 34, W = COLS * CELL + 16, BAR_W = 220;
const LIVE_STYLE = `
.attn-lab .live-input { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; margin: 4px 0 8px; }
.attn-lab .live-input input[type=text] { font: inherit; font-size: 20px; width: 12em; max-width: 100%; padding: 2px 6px; }
.attn-lab .live-input button { font: inherit; padding: 3px 10px; cursor: pointer; }
.attn-lab .live-input input:focus-visible, .attn-lab .live-input button:focus-visible { outline: 3px solid #f0a030; outline-offset: 1px; }
.attn-lab .live-input input[aria-invalid=true] { border: 2px solid #b3261e; }
.attn-lab .live-input .message { flex: 1 1 100%; margin: 0; font-size: 15px; }
.attn-lab .live-input .message[data-kind=refused] { color: #b3261e; }
.attn-lab .live-panels { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: flex-start; }
.attn-lab .live-panels > svg.figure { flex: 1 1 330px; max-width: 525px; }
.attn-lab .live-heads { flex: 1 1 330px; max-width: 560px; }
.attn-lab .live-heads .grid { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 8px; }
@media (max-width: 640px) { .attn-lab .live-heads .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
.attn-lab .live-heads figure { margin: 0; font-size: 13px; contain: layout paint; }
.attn-lab .live-heads .box { position: relative; width: 100%; aspect-ratio: 1; border: 1px solid #ccc; background: #fff; contain: strict; }
.attn-lab .live-heads canvas { width: 100%; height: 100%; image-rendering: pixelated; display: block; }
.attn-lab .live-heads .row { position: absolute; left: 0; width: 100%; outline: 2px solid #dd8452; pointer-events: none; }
.attn-lab .live-heads .note { font-size: 13px; margin: 2px 0 6px; }
`;

// The line's rows, then the candidates.
const barsTop = (rows) => 8 + rows * CELL + 48;
const heightFor = (d, rows) => barsTop(rows) + (d.top_k + 1) * 32 + 44;

function build(picture, spec, change) {
  const d = spec.data;
  // the lab's font subsets hold the words on show; any other character the model writes comes from
  // the site's CJK font (or the system's)
  const root = picture.parentElement;
  if (root && !root.style.fontFamily.includes("Attn CJK")) root.style.fontFamily += ', "Attn CJK"';
  const style = document.createElement("style");
  style.textContent = LIVE_STYLE;
  picture.appendChild(style);
  // the opening, and the buttons that write and step
  const form = document.createElement("form");
  form.className = "live-input";
  const id = newId("live");
  // the message beside the box: why an opening is refused, or how it was read (announced, and the box's
  // description)
  form.innerHTML = `<label for="${id}"></label><input type="text" id="${id}" autocomplete="off" spellcheck="false"`
    + ` aria-describedby="${id}-message" aria-invalid="false">`
    + '<button type="button" data-act="write"></button><button type="button" data-act="back"></button>'
    + `<button type="button" data-act="forward"></button><p class="message" id="${id}-message" aria-live="polite"></p>`;
  const [label, input, write, back, forward, message] = form.children;
  [label, write, back, forward].forEach((el, k) => { el.textContent = d.text[["opening", "write", "back", "forward"][k]]; });
  picture.appendChild(form);
  const view = { d, input, message, change, timer: null, values: null, n: 1, waiting: null, refused: null, note: null };
  const stop = () => { clearInterval(view.timer); view.timer = null; };
  // The opening in the box, taken if the model can read it; else the sentence why not, beside the box,
  // and nothing else changes (the last line stays drawn, the step where it was). Says whether it was taken.
  const take = async () => {
    await loadTables(d);
    view.refused = problem(d, input.value);
    say(view);
    if (!view.refused && input.value !== boxText(view.values.prompt)) change("prompt", input.value);
    return !view.refused;
  };
  const play = async () => {  // the opening as typed, then the line written one character at a time
    if (!(await take())) return;  // refused: the line on show goes on as it was
    stop();
    change("step", 1);
    view.timer = setInterval(() => {
      if (view.values.step >= view.n) stop();
      else change("step", view.values.step + 1);
    }, 180);
  };
  // Enter in the box submits the form (the kit keeps the keys themselves from the notebook around
  // the lab, so the box never hears them; the browser's own submission still happens, and not
  // while an input method is composing)
  form.addEventListener("submit", (e) => { e.preventDefault(); play(); });
  input.addEventListener("change", take);
  // a refusal goes as soon as the box holds an opening the model can read (a new one is said on Enter)
  input.addEventListener("input", () => {
    if (view.refused && tables.has(d) && !problem(d, input.value)) { view.refused = null; say(view); }
  });
  // A box of one line would turn a pasted or dropped line break into a space (or drop it): it becomes ⏎,
  // which the model reads as its own line break.
  const insert = (event, data) => {
    const pasted = data?.getData("text/plain");
    if (!pasted || !/[\r\n]/.test(pasted)) return;  // no line break: the browser's own paste
    event.preventDefault();
    if (event.type === "drop") input.focus();
    input.setRangeText(boxText(pasted), input.selectionStart ?? input.value.length, input.selectionEnd ?? input.value.length, "end");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  input.addEventListener("paste", (e) => insert(e, e.clipboardData));
  input.addEventListener("drop", (e) => insert(e, e.dataTransfer));
  write.addEventListener("click", play);
  back.addEventListener("click", () => { stop(); if (view.values.step > 1) change("step", view.values.step - 1); });
  forward.addEventListener("click", () => { stop(); if (view.values.step < view.n) change("step", view.values.step + 1); });
  Object.assign(view, { back, forward });

  const panels = document.createElement("div");
  panels.className = "live-panels";
  picture.appendChild(panels);
  // the line: 12 characters a row (a couplet of five-character lines with its punctuation)
  const rows = Math.ceil((d.models[0].config.T_max + 1) / COLS);
  const figure = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${heightFor(d, rows)}`, role: "img" }, panels);
  view.cells = Array.from({ length: rows * COLS }, (_, j) => {
    const x = 8 + (j % COLS) * CELL, y = 8 + Math.floor(j / COLS) * CELL;
    const box = svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: "none", "stroke-width": 2 }, figure);
    const ch = text(figure, x + CELL / 2, y + CELL / 2, "", { "text-anchor": "middle", "font-size": 22 });
    return { box, ch };
  });
  view.svg = figure;
  // the candidates, below the line (moved down as the line needs more rows)
  view.below = svg("g", {}, figure);
  view.nextLabel = text(view.below, 8, -18, d.text.next, { "font-size": 16 });
  view.bars = Array.from({ length: d.top_k + 1 }, (_, k) => {
    const y = k * 32 + (k === d.top_k ? 6 : 0);
    const token = text(view.below, 40, y + 12, "", { "text-anchor": "end", "font-size": 20 });
    const bar = svg("rect", { x: 50, y, height: 24, "stroke-width": 2 }, view.below);
    const value = text(view.below, 0, y + 12, "", { "font-size": 16 });
    return { token, bar, value };
  });
  view.bars[d.top_k].bar.setAttribute("stroke-dasharray", "5 3");
  view.beyond = text(view.below, 50, (d.top_k + 1) * 32 + 24, "", { "font-size": 16 });
  // every head's attention: the triangle of queries (rows) over keys (columns), this step's row outlined
  const heads = document.createElement("div");
  heads.className = "live-heads";
  heads.innerHTML = '<p class="note"></p><div class="grid"></div>';
  heads.firstChild.textContent = d.text.triangle;
  panels.appendChild(heads);
  const { L, H: nH } = d.models[0].config;
  view.heads = [];
  for (let l = 0; l < L; l += 1) {
    for (let h = 0; h < nH; h += 1) {
      const fig = document.createElement("figure");
      fig.innerHTML = '<figcaption></figcaption><div class="box"><canvas width="1" height="1"></canvas><div class="row"></div></div><div class="looks"></div>';
      fig.firstChild.textContent = words(d.text.layer_head, { layer: l, head: h });
      heads.lastChild.appendChild(fig);
      const canvas = fig.querySelector("canvas");
      view.heads.push({ l, h, fig, canvas, ctx: canvas.getContext("2d"), row: fig.querySelector(".row"),
        looks: fields(fig.querySelector(".looks"), d.text.looks), drawn: [] });
    }
  }
  view.heads.el = heads;
  view.rgba = d.cmap.fill.map((hex) => pixel([1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16))));
  return view;
}

// A template's words as text nodes once, its fields as text nodes of their own: a step rewrites the few
// characters that change, not the whole line (the browser then lays out and shapes only those).
function fields(el, template) {
  const out = {};
  template.split(/(\{\w+\})/).forEach((part) => {
    const node = document.createTextNode(part);
    if (/^\{\w+\}$/.test(part)) { node.data = ""; out[part.slice(1, -1)] = node; }
    el.appendChild(node);
  });
  return out;
}

function setFields(nodes, values) {
  for (const name in nodes) if (nodes[name].data !== String(values[name])) nodes[name].data = String(values[name]);
}

// Attributes, text and display set only where they change, remembered on the node (reading them back
// from the DOM costs as much as writing): a step changes a few characters and bars, and setting the same
// text again makes the browser shape it and lay it out again.
function put(node, attrs) {
  const was = node.attnShown || (node.attnShown = {});
  for (const key in attrs) {
    const value = attrs[key];
    if (was[key] === value) continue;
    was[key] = value;
    if (key === "text") node.textContent = value;
    else if (key === "display") node.style.display = value;
    else node.setAttribute(key, value);
  }
}

const INK = { prompt: "#222", written: "#4c72b0", next: "#dd8452", future: "#bbb", none: "#bbb" };
const EDGE = { prompt: "#ccc", written: "#ccc", next: "#dd8452", future: "none", none: "none" };
// A colour as one pixel of a Uint32Array over ImageData (bytes R, G, B, A in memory: little-endian).
const pixel = ([r, g, b]) => ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
const BLOCKED = pixel([236, 236, 236]);

// The line beside the box: the refusal of the opening typed, else the note on how the opening on show was
// read; the box marked invalid while refused.
function say(v) {
  const words = v.refused || v.note || "";
  put(v.message, { text: words, "data-kind": v.refused ? "refused" : "note" });
  put(v.input, { "aria-invalid": v.refused ? "true" : "false" });
}

function draw(v, f, spec, values) {
  const d = v.d;
  if (values.prompt !== v.values?.prompt) {  // a new opening (typed here, or set from Python)
    if (document.activeElement !== v.input) v.input.value = boxText(values.prompt);
    v.refused = null;
  }
  v.values = values;
  if (!f.loading) v.note = f.note;
  say(v);
  if (f.loading && !v.waiting) {  // the weights are still being unpacked: draw again once they are
    v.waiting = f.loading.then(() => { v.waiting = null; v.change("step", v.values.step); },
      (error) => console.error("live GPT lab: the weights could not be unpacked", error));
  }
  [v.heads.el, v.nextLabel].forEach((el) => put(el, { display: f.loading ? "none" : "" }));
  if (f.loading) {
    v.cells.forEach(({ box, ch }) => { put(ch, { text: "" }); put(box, { stroke: "none" }); });
    v.bars.forEach((b) => [b.token, b.bar, b.value].forEach((el) => put(el, { display: "none" })));
    put(v.beyond, { text: "" });
    v.back.disabled = v.forward.disabled = true;
    return;
  }
  v.n = f.n;
  v.back.disabled = f.s <= 1;
  v.forward.disabled = f.s >= f.n;
  const t = f.ids.length;
  const n0 = t - (f.s - 1);
  const line = [...f.ids, f.chosen];
  const total = n0 + f.n;  // the opening and every character the run will write
  const { glyphs } = tables.get(d);
  v.cells.forEach(({ box, ch }, j) => {
    const state = j >= total ? "none" : j < n0 ? "prompt" : j < t ? "written" : j === t ? "next" : "future";
    put(ch, { text: state === "none" ? "" : state === "future" ? "·" : glyphs[line[j]], fill: INK[state] });
    put(box, { stroke: EDGE[state] });
  });
  const rows = Math.ceil(total / COLS);
  put(v.svg, { viewBox: `0 0 ${W} ${heightFor(d, rows)}` });
  put(v.below, { transform: `translate(0 ${barsTop(rows)})` });
  const widest = f.top_probs[0];  // bars in proportion to the most likely candidate's probability
  v.bars.forEach((b, k) => {
    const beyond = k === d.top_k;
    const visible = !beyond || f.rank > d.top_k;
    [b.token, b.bar, b.value].forEach((el) => put(el, { display: visible ? "" : "none" }));
    if (!visible) return;
    const id = beyond ? f.chosen : f.top[k];
    const prob = beyond ? f.p_chosen : f.top_probs[k];
    const width = (BAR_W * prob) / widest;
    put(b.token, { text: glyphs[id] });
    put(b.bar, { width: Math.max(1, width), fill: colour(d.cmap, 0, 1, 0.15 + 0.85 * prob).fill,
      stroke: id === f.chosen ? "black" : "none" });
    put(b.value, { x: 50 + width + 8, text: number(prob, 3) });
  });
  put(v.beyond, { text: f.rank > d.top_k ? words(d.text.beyond, { rank: f.rank, top_k: d.top_k }) : "" });
  // the triangles: one pixel per (query, key), scaled up by the page; queries not read yet stay blank.
  // A row is written only when it is not the one on show already: a cached step adds one row.
  const causal = spec.data.models[values.model].config.causal;
  const n = v.rgba.length;
  v.heads.forEach((hd) => {
    const rows = f.weights[hd.l][hd.h];
    if (hd.canvas.width !== total) {
      hd.canvas.width = total; hd.canvas.height = total;
      hd.img = hd.ctx.createImageData(total, total);
      hd.px = new Uint32Array(hd.img.data.buffer);  // one RGBA pixel a number
      hd.drawn = [];
    }
    const { img, px, drawn } = hd;
    let first = total, last = -1;
    for (let i = 0; i < Math.max(t, drawn.length); i += 1) {
      const row = i < t ? rows[i] : undefined;
      if (drawn[i] === row) continue;
      drawn[i] = row;
      first = Math.min(first, i); last = i;
      for (let j = 0; j < total; j += 1) {
        px[i * total + j] = !row || j >= t ? 0
          : causal && j > i ? BLOCKED : v.rgba[Math.min(n - 1, Math.floor(Math.max(0, row[j]) * n))];
      }
    }
    drawn.length = t;
    if (last >= first) hd.ctx.putImageData(img, 0, 0, 0, first, total, last - first + 1);
    put(hd.row, { style: `top: ${(100 * (t - 1)) / total}%; height: ${100 / total}%` });
    const best = f.looks[hd.l][hd.h];
    setFields(hd.looks, { token: glyphs[f.ids[best]], weight: number(rows[t - 1][best], 2) });
  });
}

// For the tests and the benchmark: the forward pass, the cache and the runs, as attnlib's twins.
const compute = { loadModel, loadTables, forwardAll, stepCached, newCache, newRun, advance, mulberry32, problem, note,
  modelText, settle };
const pageModule = createLab({ build, frame, draw, settle, compute });
export default pageModule;
