// The generation lab (notebook 09): the text a tiny GPT has written so far, each head's attention
// from the last character over it, and the candidates for the next one. Python sends, per setting, the
// weights, the candidates and their probabilities, which bar is the sampled character, and the readout;
// the page looks them up and draws.
import { barFill, colour, control, createLab, number, set, show, storedFrame, svg, text, words } from "../page/kit.js";

const CELL = 46, LEFT = 90, TOP = 70, STRIP = 30, BARS_X = 60, BAR_W = 260;
// The narrow layout (a phone): the characters wrap into rows of N_PER_ROW, each with its head strips
// under it, and the bars get a panel of their own. Both panels are N_W units wide, so that 13-unit
// text is still 12 px in a 324 px column; the title and the long labels wrap onto more lines.
const N_W = 344, N_PER_ROW = 7, N_CELL = 40, N_LEFT = 62, N_ROW_GAP = 26, N_BAR_X = 36, N_BAR_W = 240;
const LINE = 18, MARGIN = 6;

// A text's width in ems, guessed on the wide side (DejaVu Sans; CJK characters and symbols one em).
function ems(s) {
  let w = 0;
  for (const c of s) w += c >= "\u2000" || /[mwMW]/.test(c) ? 1 : /[ijlftr.,:;'()|!\s]/.test(c) ? 0.36 : 0.66;
  return w;
}

// Greedy line breaking at spaces and between CJK characters: an opening quote stays with what follows
// it, closing punctuation with what precedes it.
function wrap(s, size, width) {
  const pieces = s.match(/[“‘「（(]*(?:[\u2e80-\uffff]|[^\s\u2e80-\uffff“‘「（(]+)[”’」），。：、]*\s*|\s+/g) || [];
  const lines = [""];
  for (const piece of pieces) {
    const line = lines[lines.length - 1];
    if (line && ems((line + piece).trimEnd()) * size > width) lines.push(piece);
    else lines[lines.length - 1] = line + piece;
  }
  return lines.map((line) => line.trimEnd());
}

// A text over several <text> lines (one line: as it is); the lines it does not need stay empty.
function fillLines(lines, s, size, width) {
  const parts = lines.length > 1 ? wrap(s, size, width) : [s];
  lines.forEach((line, i) => set(line, { text: parts[i] || "" }));
}

// Every title the lab can show: the narrow layout gives the title lines enough for the longest.
function allTitles(spec) {
  const d = spec.data, layers = control(spec, "layer").options, layer = layers[layers.length - 1];
  return control(spec, "prompt").options.flatMap((prompt) => control(spec, "step").options.map(
    (step) => words(d.text.title, storedFrame(spec, { prompt, step, layer }).fields)));
}

function lineCount(texts, size, width) {
  return Math.max(...texts.map((s) => wrap(s, size, width).length));
}

function build(picture, spec, change, { narrow = false } = {}) {
  const d = spec.data;
  const longest = Math.max(...d.records.map((r) => r.tokens.length));
  // wide: one row of every character, the bars below it, in one picture
  const cell = narrow ? N_CELL : CELL, left = narrow ? N_LEFT : LEFT;
  const perRow = narrow ? N_PER_ROW : longest;
  const rows = Math.ceil(longest / perRow);
  const block = cell + 16 + d.n_heads * STRIP + (narrow ? N_ROW_GAP : 0);  // a row of characters and its strips
  const titleSize = 15, titleWidth = N_W - 2 * MARGIN;
  const nTitle = narrow ? lineCount(allTitles(spec), titleSize, titleWidth) : 1;
  const top = narrow ? 20 + nTitle * 20 : TOP;
  const yb0 = top + cell + 16 + d.n_heads * STRIP + 40;  // the wide layout's first bar
  const W = narrow ? N_W : LEFT + longest * CELL + 40;
  const H = narrow ? top + rows * block - N_ROW_GAP + 8 : yb0 + (d.top_k + 1) * 34 + 40;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  const title = narrow
    ? Array.from({ length: nTitle }, (_, i) => text(root, W / 2, 20 + i * 20, "", { "text-anchor": "middle", class: "title" }))
    : [text(root, W / 2, 24, "", { "text-anchor": "middle", class: "title", "font-size": 18 })];
  text(root, left - 12, top + cell / 2, d.text.text, { "text-anchor": "end", class: "tick" });
  // character j sits in row j / perRow, its strips under it
  const at = (j) => ({ x: left + (j % perRow) * cell, y: top + Math.floor(j / perRow) * block });
  const chars = [], strips = [], rowLabels = Array.from({ length: rows }, () => []);
  for (let j = 0; j < longest; j += 1) {
    const { x, y } = at(j);
    const box = svg("rect", { x: x + 2, y, width: cell - 4, height: cell, rx: 5, fill: "none", "stroke-width": 2 }, root);
    const ch = text(root, x + cell / 2, y + cell / 2, "", { "text-anchor": "middle", "font-size": 28 });
    chars.push({ box, ch });
  }
  for (let h = 0; h < d.n_heads; h += 1) {
    for (let r = 0; r < rows; r += 1) {
      const y = top + r * block + cell + 16 + h * STRIP + STRIP / 2;
      rowLabels[r].push(text(root, left - 12, y, d.text.heads[h], { "text-anchor": "end", class: "tick" }));
    }
    const row = [];
    for (let j = 0; j < longest; j += 1) {
      const { x, y } = at(j);
      const y0 = y + cell + 16;
      const g = svg("g", {}, root);
      const rect = svg("rect", { x: x + 2, y: y0 + h * STRIP + 1, width: cell - 4, height: STRIP - 2 }, g);
      const label = text(g, x + cell / 2, y0 + h * STRIP + STRIP / 2, "", { "text-anchor": "middle", class: "cell" });
      row.push({ g, rect, label });
    }
    strips.push(row);
  }
  // narrow: the bars in a picture of their own, under their label's lines, the "beyond" note under the last
  const noteSize = 13, noteWidth = N_W - N_BAR_X - MARGIN;
  const nNext = narrow ? wrap(d.text.next, noteSize, N_W - 2 * MARGIN).length : 1;
  const nNote = narrow ? lineCount([words(d.text.beyond, { rank: d.V, V: d.V, top_k: d.top_k })], noteSize, noteWidth) : 0;
  const yb = narrow ? 14 + nNext * LINE + 12 : yb0;
  const barX = narrow ? N_BAR_X : LEFT + BARS_X, barW = narrow ? N_BAR_W : BAR_W;
  const yLast = yb + d.top_k * 34 + 10;
  const panel = narrow
    ? svg("svg", { class: "figure", viewBox: `0 0 ${N_W} ${yLast + 26 + nNote * LINE + 10}`, role: "img" }, picture)
    : root;
  if (narrow) {
    wrap(d.text.next, noteSize, N_W - 2 * MARGIN).forEach((line, i) => text(panel, MARGIN, 14 + i * LINE, line, { class: "tick" }));
  } else {
    text(root, LEFT + BARS_X - 40, yb - 16, d.text.next, { class: "tick" });
  }
  const bars = [];
  // top_k bars, then one more for the sample when it is not among them (dashed, with its rank)
  for (let k = 0; k <= d.top_k; k += 1) {
    const y = yb + k * 34 + (k === d.top_k ? 10 : 0);
    bars.push({
      token: text(panel, barX - 12, y + 13, "", { "text-anchor": "end", "font-size": 20 }),
      bar: svg("rect", { x: barX, y, height: 26, "stroke-width": 2 }, panel),
      value: text(panel, 0, y + 13, "", { class: "tick" }),
    });
  }
  bars[d.top_k].bar.setAttribute("stroke-dasharray", "5 3");
  // narrow: the note on the sample beyond the top_k goes under its bar, not after its number
  const notes = Array.from({ length: nNote }, (_, i) => text(panel, barX, yLast + 26 + 12 + i * LINE, "", { class: "tick" }));
  // a later row's head labels are shown with its first strip (the first row always has strips)
  const later = rowLabels.slice(1).map((labels, i) => ({ first: (i + 1) * perRow, labels }));
  return { d, title, titleSize, titleWidth, chars, strips, later, bars, barX, barW, notes, noteSize, noteWidth };
}

// Every write goes through the kit's `set` and `show`, which skip what is already there: a step writes
// the next character, its strips and the bars, and leaves the rest of the text alone.
function draw(v, f, spec, values) {
  const r = v.d.records[values.prompt];
  fillLines(v.title, words(v.d.text.title, f.fields), v.titleSize, v.titleWidth);
  v.chars.forEach(({ box, ch }, j) => {
    const exists = j < r.tokens.length;
    const state = !exists ? "none" : j < r.n_prompt ? "prompt" : j < f.t ? "written" : j === f.t ? "next" : "future";
    set(ch, { text: state === "none" ? "" : state === "future" ? "·" : r.tokens[j],
      fill: { prompt: "#222", written: "#4c72b0", next: "#dd8452", future: "#bbb", none: "#bbb" }[state] });
    set(box, { stroke: state === "next" ? "#dd8452" : state === "prompt" || state === "written" ? "#ccc" : "none" });
  });
  v.later.forEach(({ first, labels }) => labels.forEach((l) => show(l, first < f.t)));
  v.strips.forEach((row, h) => row.forEach((cell, j) => {
    const shown = j < f.t;
    show(cell.g, shown);
    if (!shown) return;
    const w = f.weights[h][j];
    if (cell.w === w) return;  // drawn already (its colour and number)
    cell.w = w;
    const c = colour(v.d.cmap, 0, 1, w);
    set(cell.rect, { fill: c.fill });
    set(cell.label, { fill: c.text, text: number(w, 2) });
  }));
  v.bars.forEach((b, k) => {
    const beyond = k === v.d.top_k;
    const shown = !beyond || f.sampled === v.d.top_k;
    [b.token, b.bar, b.value, ...(beyond ? v.notes : [])].forEach((el) => show(el, shown));
    if (!shown) return;
    const p = beyond ? f.p : f.top_probs[k];
    const token = beyond ? f.fields.chosen : f.top_tokens[k];
    set(b.token, { text: token });
    set(b.bar, { width: Math.max(1, v.barW * p), fill: barFill(v.d.cmap, p), stroke: k === f.sampled ? "black" : "none" });
    const note = beyond ? words(v.d.text.beyond, { rank: f.rank, V: v.d.V, top_k: v.d.top_k }) : "";
    if (v.notes.length) fillLines(v.notes, note, v.noteSize, v.noteWidth);
    set(b.value, { x: v.barX + v.barW * p + 8, text: beyond && !v.notes.length ? `${number(p, 3)} · ${note}` : number(p, 3) });
  });
}

const pageModule = createLab({ build, draw, reflows: true });
export default pageModule;
