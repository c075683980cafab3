// The generation lab (notebook 09): the text a tiny GPT has written so far, each head's attention
// from the last character over it, and the candidates for the next one. Python generated every step
// once (with the key/value cache) and sends the weights and probabilities; the page only selects.
import { barFill, colour, createLab, number, svg, text, words } from "./kit.js";

const CELL = 46, LEFT = 90, TOP = 70, STRIP = 30, BARS_X = 60, BAR_W = 260;

function build(picture, spec) {
  const d = spec.data;
  const longest = Math.max(...d.records.map((r) => r.tokens.length));
  const H = TOP + CELL + 16 + d.n_heads * STRIP + 40 + (d.top_k + 1) * 34 + 40;
  const W = LEFT + longest * CELL + 40;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  const title = text(root, W / 2, 24, "", { "text-anchor": "middle", class: "title", "font-size": 18 });
  text(root, LEFT - 12, TOP + CELL / 2, d.text.text, { "text-anchor": "end", class: "tick" });
  const chars = [], strips = [];
  for (let j = 0; j < longest; j += 1) {
    const x = LEFT + j * CELL;
    const box = svg("rect", { x: x + 2, y: TOP, width: CELL - 4, height: CELL, rx: 5, fill: "none", "stroke-width": 2 }, root);
    const ch = text(root, x + CELL / 2, TOP + CELL / 2, "", { "text-anchor": "middle", "font-size": 28 });
    chars.push({ box, ch });
  }
  const y0 = TOP + CELL + 16;
  for (let h = 0; h < d.n_heads; h += 1) {
    text(root, LEFT - 12, y0 + h * STRIP + STRIP / 2, d.text.heads[h], { "text-anchor": "end", class: "tick" });
    const row = [];
    for (let j = 0; j < longest; j += 1) {
      const g = svg("g", {}, root);
      const rect = svg("rect", { x: LEFT + j * CELL + 2, y: y0 + h * STRIP + 1, width: CELL - 4, height: STRIP - 2 }, g);
      const label = text(g, LEFT + j * CELL + CELL / 2, y0 + h * STRIP + STRIP / 2, "", { "text-anchor": "middle", class: "cell" });
      row.push({ g, rect, label });
    }
    strips.push(row);
  }
  const yb = y0 + d.n_heads * STRIP + 40;
  text(root, LEFT + BARS_X - 40, yb - 16, d.text.next, { class: "tick" });
  const bars = [];
  // top_k bars, then one more for the sample when it is not among them (dashed, with its rank)
  for (let k = 0; k <= d.top_k; k += 1) {
    const y = yb + k * 34 + (k === d.top_k ? 10 : 0);
    bars.push({
      token: text(root, LEFT + BARS_X - 12, y + 13, "", { "text-anchor": "end", "font-size": 20 }),
      bar: svg("rect", { x: LEFT + BARS_X, y, height: 26, "stroke-width": 2 }, root),
      value: text(root, 0, y + 13, "", { class: "tick" }),
    });
  }
  bars[d.top_k].bar.setAttribute("stroke-dasharray", "5 3");
  return { d, title, chars, strips, bars };
}

function frame(spec, values) {
  const d = spec.data;
  const r = d.records[values.prompt];
  const s = values.step - 1;
  const t = r.n_prompt + s;
  const weights = r.weights[s][values.layer].map((row) => row.slice(0, t));
  const context = r.tokens.slice(0, t);
  const looks = weights.map((row, h) => {
    let best = 0;
    row.forEach((w, j) => { if (w > row[best]) best = j; });
    return words(d.text.looks, { head: h, token: context[best], weight: number(row[best], 2) });
  }).join(", ");
  const fields = { prompt: d.prompts[values.prompt], step: values.step, n_new: d.n_new, context: context.join(""),
    chosen: r.tokens[t], p: r.chosen_probs[s], rank: r.chosen_ranks[s], V: d.V, temperature: d.temperature,
    layer: values.layer, looks };
  return { t, weights, top_probs: r.top_probs[s], top_tokens: r.top_tokens[s], p: r.chosen_probs[s],
    rank: r.chosen_ranks[s], fields };
}

function draw(v, f, spec, values) {
  const r = v.d.records[values.prompt];
  v.title.textContent = words(v.d.text.title, f.fields);
  v.chars.forEach(({ box, ch }, j) => {
    const exists = j < r.tokens.length;
    const state = !exists ? "none" : j < r.n_prompt ? "prompt" : j < f.t ? "written" : j === f.t ? "next" : "future";
    ch.textContent = state === "none" ? "" : state === "future" ? "·" : r.tokens[j];
    ch.setAttribute("fill", { prompt: "#222", written: "#4c72b0", next: "#dd8452", future: "#bbb", none: "#bbb" }[state]);
    box.setAttribute("stroke", state === "next" ? "#dd8452" : state === "prompt" || state === "written" ? "#ccc" : "none");
  });
  v.strips.forEach((row, h) => row.forEach((cell, j) => {
    const shown = j < f.t;
    cell.g.style.display = shown ? "" : "none";
    if (!shown) return;
    const w = f.weights[h][j];
    const c = colour(v.d.cmap, 0, 1, w);
    cell.rect.setAttribute("fill", c.fill);
    cell.label.setAttribute("fill", c.text);
    cell.label.textContent = number(w, 2);
  }));
  v.bars.forEach((b, k) => {
    const beyond = k === v.d.top_k;
    const shown = !beyond || f.rank > v.d.top_k;
    [b.token, b.bar, b.value].forEach((el) => { el.style.display = shown ? "" : "none"; });
    if (!shown) return;
    const p = beyond ? f.p : f.top_probs[k];
    const token = beyond ? f.fields.chosen : f.top_tokens[k];
    b.token.textContent = token;
    b.bar.setAttribute("width", Math.max(1, BAR_W * p));
    b.bar.setAttribute("fill", barFill(v.d.cmap, p));
    b.bar.setAttribute("stroke", token === f.fields.chosen ? "black" : "none");
    b.value.setAttribute("x", LEFT + BARS_X + BAR_W * p + 8);
    b.value.textContent = beyond
      ? `${number(p, 3)} · ${words(v.d.text.beyond, { rank: f.rank, V: v.d.V, top_k: v.d.top_k })}`
      : number(p, 3);
  });
}

const lab = createLab({ build, frame, draw });
export default lab;
