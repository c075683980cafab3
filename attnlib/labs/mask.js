// The mask lab (notebook 06): for each sentence of a padded batch, its scores, the masked scores and
// the weights. Python sends each sentence's scores for every number of real tokens; the page crops
// them to T, builds the mask and takes the softmax (checked against attnlib at every setting).
import { colour, createLab, maskedSoftmax, number, svg, text, words } from "./kit.js";

const CELL = 31, LEFT = 150, GAP = 12, BAR = 16, ROW_GAP = 96, TOP = 44;

function panelX(k, size) {
  const w = CELL * size;
  return [LEFT, LEFT + w + GAP, LEFT + 2 * w + 2 * GAP + BAR + 70][k];
}

function colourBar(root, x, y, h, table, lo, hi, ticks, label) {
  const n = 64;
  for (let k = 0; k < n; k += 1) {
    const v = hi - ((k + 0.5) / n) * (hi - lo);
    svg("rect", { x, y: y + (h * k) / n, width: BAR, height: h / n + 0.5, fill: colour(table, lo, hi, v).fill }, root);
  }
  svg("rect", { x, y, width: BAR, height: h, fill: "none", stroke: "#333", "stroke-width": 0.6 }, root);
  ticks.forEach((t) => {
    const ty = y + h * (1 - (t - lo) / (hi - lo));
    svg("line", { x1: x + BAR, x2: x + BAR + 4, y1: ty, y2: ty, stroke: "#333" }, root);
    text(root, x + BAR + 7, ty, number(t, 2), { class: "tick" });
  });
  const lx = x + BAR + 56, ly = y + h / 2;
  text(root, lx, ly, label, { "text-anchor": "middle", transform: `rotate(-90 ${lx} ${ly})` });
}

function build(picture, spec) {
  const d = spec.data;
  const B = d.tokens.length, size = d.tokens[0].length, w = CELL * size;
  const H = TOP + B * (w + ROW_GAP);
  const W = panelX(2, size) + w + GAP + BAR + 70;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  d.titles.forEach((t, k) => text(root, panelX(k, size) + w / 2, TOP - 18, t, { "text-anchor": "middle", class: "title" }));
  const rows = d.tokens.map((_, b) => {
    const y0 = TOP + b * (w + ROW_GAP);
    const nx = 16, ny = y0 + w / 2;
    const name = text(root, nx, ny, "", { "text-anchor": "middle", transform: `rotate(-90 ${nx} ${ny})` });
    const rowLabels = [], panels = [];
    for (let i = 0; i < size; i += 1) {
      rowLabels.push(text(root, LEFT - 8, y0 + CELL * (i + 0.5), "", { "text-anchor": "end", class: "tick" }));
    }
    for (let k = 0; k < 3; k += 1) {
      const x0 = panelX(k, size);
      const cells = [], colLabels = [];
      for (let i = 0; i < size; i += 1) {
        const line = [];
        for (let j = 0; j < size; j += 1) {
          const g = svg("g", {}, root);
          const rect = svg("rect", { x: x0 + CELL * j, y: y0 + CELL * i, width: CELL, height: CELL, stroke: "white", "stroke-width": 0.8 }, g);
          const label = text(g, x0 + CELL * (j + 0.5), y0 + CELL * (i + 0.5), "", { "text-anchor": "middle", class: "cell" });
          line.push({ g, rect, label });
        }
        cells.push(line);
      }
      for (let j = 0; j < size; j += 1) {
        const cx = x0 + CELL * (j + 0.5), cy = y0 + w + 8;
        colLabels.push(text(root, cx, cy, "", { "text-anchor": "end", class: "tick", transform: `rotate(-90 ${cx} ${cy})` }));
      }
      panels.push({ cells, colLabels });
    }
    return { name, rowLabels, panels };
  });
  const barH = B * w + (B - 1) * ROW_GAP;
  colourBar(root, panelX(1, size) + w + GAP, TOP, barH, d.scores_cmap, -d.vmax, d.vmax,
    [-d.vmax, -d.vmax / 2, 0, d.vmax / 2, d.vmax], d.text.score);
  colourBar(root, panelX(2, size) + w + GAP, TOP, barH, d.weights_cmap, 0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1], d.text.weight);
  return { d, rows, size };
}

function frame(spec, values) {
  const d = spec.data;
  const T = values.seq_len;
  const padding = values.mask === "padding" || values.mask === "both";
  const causal = values.mask === "causal" || values.mask === "both";
  const out = { lengths: [], tokens: [], keep: [], scores: [], weights: [], leak: [], names: [] };
  let blocked = 0, cells = 0;
  d.tokens.forEach((sentenceTokens, b) => {
    const n = Math.min(values[`length_${b + 1}`], T);
    const full = d.scores[b][n - 1];
    const scores = full.slice(0, T).map((row) => row.slice(0, T));
    const keep = scores.map((row, i) => row.map((_, j) => (!padding || j < n) && (!causal || j <= i)));
    const weights = scores.map((row, i) => maskedSoftmax(row, keep[i]));
    let leak = 0;
    for (let i = 0; i < n; i += 1) {
      let onPads = 0;
      for (let j = n; j < T; j += 1) onPads += weights[i][j];
      leak = Math.max(leak, onPads);
    }
    keep.forEach((row) => row.forEach((k) => { cells += 1; if (!k) blocked += 1; }));
    out.lengths.push(n);
    out.tokens.push(sentenceTokens.slice(0, T).map((t, j) => (j < n ? t : d.pad)));
    out.keep.push(keep); out.scores.push(scores); out.weights.push(weights); out.leak.push(leak);
    out.names.push(words(d.text.sentence, { b: b + 1, n }) + (T > n ? words(d.text.padded, { pads: T - n, pad: d.pad }) : ""));
  });
  out.fields = { mask: d.text.mask_names[values.mask], T, real: `[${out.lengths.join(", ")}]`, blocked, cells,
    leaks: out.leak.map((x) => number(x, 3)).join(", ") };
  return out;
}

function draw(v, f, spec, values) {
  const { d, size } = v;
  const T = values.seq_len;
  v.rows.forEach((row, b) => {
    row.name.textContent = f.names[b];
    row.rowLabels.forEach((label, i) => { label.textContent = i < T ? f.tokens[b][i] : ""; });
    row.panels.forEach((panel, k) => {
      panel.colLabels.forEach((label, j) => { label.textContent = j < T ? f.tokens[b][j] : ""; });
      for (let i = 0; i < size; i += 1) {
        for (let j = 0; j < size; j += 1) {
          const cell = panel.cells[i][j];
          const shown = i < T && j < T;
          cell.g.style.display = shown ? "" : "none";
          if (!shown) continue;
          const keep = f.keep[b][i][j];
          let fillColour, cellText, ink;
          if (k === 2) {
            const w = f.weights[b][i][j];
            ({ fill: fillColour, text: ink } = colour(d.weights_cmap, 0, 1, w));
            cellText = keep ? number(w, 2) : "0";  // exactly zero, not a small weight rounded
          } else if (k === 1 && !keep) {
            fillColour = d.masked_colour; cellText = "−∞"; ink = "#555555";
          } else {
            const s = f.scores[b][i][j];
            ({ fill: fillColour, text: ink } = colour(d.scores_cmap, -d.vmax, d.vmax, s));
            cellText = number(s, 2);
          }
          if (cell.rect.getAttribute("fill") !== fillColour) cell.rect.setAttribute("fill", fillColour);
          if (cell.label.textContent !== cellText) cell.label.textContent = cellText;
          if (cell.label.getAttribute("fill") !== ink) cell.label.setAttribute("fill", ink);
        }
      }
    });
  });
}

const lab = createLab({ build, frame, draw });
export default lab;
