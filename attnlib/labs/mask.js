// The mask lab (notebook 06): for each sentence of a padded batch, its scores, the masked scores and
// the weights. Python sends each sentence's scores and words for every number of real tokens, each
// kind of mask for every number of real tokens, and per setting the lengths, the sentences' names and
// the readout; the page crops scores and mask to T and takes the kit's softmax (checked against
// attnlib at every setting).
import { colour, createLab, number, set, softmax, storedFrame, svg, text } from "../page/kit.js";

const CELL = 31, LEFT = 150, GAP = 12, BAR = 16, ROW_GAP = 96, TOP = 44;
// The narrow (phone) layout: a legend with both colour bars lying flat, then a picture per sentence with
// its three matrices one above the other, each with its own token labels. 340 units wide, so the 13-unit
// cell numbers and labels stay above 12 px in a 324 px column; a cell fits a number ("0.41", 29 units)
// with room to spare, and the left margin the longest token ("running", 50 units). The key tokens lie
// flat (a turned text is unreadable at a glance on a phone), on two staggered lines as they are wider
// than a cell, above the matrix (N_HEAD holds them and the title), so that they stay next to its cells
// when a smaller T leaves only its top left corner; N_RIGHT keeps the last one ("<pad>") in the picture.
const N_WIDTH = 340, N_LEFT = 60, N_RIGHT = 8, N_CELL = 44, N_NAME = 36, N_HEAD = 62, N_LINE = 16, N_GAP = 16;
const N_BAR_X = 24, N_BAR_H = 14, N_LEGEND_ROW = 64;

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

// The same bar lying flat (the narrow layout): its name above it, low values on the left, ticks below.
function flatColourBar(root, x, y, w, table, lo, hi, ticks, label) {
  const n = 64;
  text(root, x, y - 12, label);
  for (let k = 0; k < n; k += 1) {
    const v = lo + ((k + 0.5) / n) * (hi - lo);
    svg("rect", { x: x + (w * k) / n, y, width: w / n + 0.5, height: N_BAR_H, fill: colour(table, lo, hi, v).fill }, root);
  }
  svg("rect", { x, y, width: w, height: N_BAR_H, fill: "none", stroke: "#333", "stroke-width": 0.6 }, root);
  ticks.forEach((t) => {
    const tx = x + (w * (t - lo)) / (hi - lo);
    svg("line", { x1: tx, x2: tx, y1: y + N_BAR_H, y2: y + N_BAR_H + 4, stroke: "#333" }, root);
    text(root, tx, y + N_BAR_H + 14, number(t, 2), { "text-anchor": "middle", class: "tick" });
  });
}

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const B = d.tokens.length, size = d.tokens[0][0].length;  // tokens[b][n - 1]: sentence b with n real
  // narrow: the cells as wide as the column leaves after the token labels (square, at most N_CELL)
  const cell = narrow ? Math.min(N_CELL, Math.floor((N_WIDTH - N_LEFT - N_RIGHT) / size)) : CELL;
  const w = cell * size;
  const { scores: scoreTicks, weights: weightTicks } = d.bar_ticks;
  // figures[b]: the svg sentence b is drawn in; origin(b, k): the top left corner of its matrix k
  let figures, origin;
  if (narrow) {
    const legend = svg("svg", { class: "figure", viewBox: `0 0 ${N_WIDTH} ${2 * N_LEGEND_ROW}`, role: "img" }, picture);
    const barW = N_WIDTH - 2 * N_BAR_X;
    flatColourBar(legend, N_BAR_X, 24, barW, d.scores_cmap, -d.vmax, d.vmax, scoreTicks, d.text.score);
    flatColourBar(legend, N_BAR_X, 24 + N_LEGEND_ROW, barW, d.weights_cmap, 0, 1, weightTicks, d.text.weight);
    const panelH = N_HEAD + w + N_GAP;
    figures = d.tokens.map(() => svg("svg", { class: "figure", viewBox: `0 0 ${N_WIDTH} ${N_NAME + 3 * panelH}`, role: "img" }, picture));
    origin = (b, k) => [N_LEFT, N_NAME + N_HEAD + k * panelH];
  } else {
    const H = TOP + B * (w + ROW_GAP);
    const W = panelX(2, size) + w + GAP + BAR + 70;
    const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
    figures = d.tokens.map(() => root);
    origin = (b, k) => [panelX(k, size), TOP + b * (w + ROW_GAP)];
  }
  const rows = d.tokens.map((_, b) => {
    const root = figures[b];
    const y0 = origin(b, 0)[1];
    if (narrow || b === 0) {  // wide: the titles once, above the first sentence
      d.titles.forEach((t, k) => {
        const [x0, top] = origin(b, k);
        text(root, x0 + w / 2, top - (narrow ? N_HEAD - 12 : 18), t, { "text-anchor": "middle", class: "title" });
      });
    }
    const nx = 16, ny = y0 + w / 2;
    const name = narrow ? text(root, 4, N_NAME - 14, "", { "font-weight": "bold" })
      : text(root, nx, ny, "", { "text-anchor": "middle", transform: `rotate(-90 ${nx} ${ny})` });
    const panels = [];
    for (let k = 0; k < 3; k += 1) {
      const [x0, top] = origin(b, k);
      const cells = [], colLabels = [], rowLabels = [];
      if (narrow || k === 0) {  // wide: the query tokens once, left of the sentence's row of matrices
        for (let i = 0; i < size; i += 1) {
          rowLabels.push(text(root, x0 - 8, top + cell * (i + 0.5), "", { "text-anchor": "end", class: "tick" }));
        }
      }
      for (let i = 0; i < size; i += 1) {
        const line = [];
        for (let j = 0; j < size; j += 1) {
          const g = svg("g", {}, root);
          const rect = svg("rect", { x: x0 + cell * j, y: top + cell * i, width: cell, height: cell, stroke: "white", "stroke-width": 0.8 }, g);
          const label = text(g, x0 + cell * (j + 0.5), top + cell * (i + 0.5), "", { "text-anchor": "middle", class: "cell" });
          line.push({ g, rect, label });
        }
        cells.push(line);
      }
      for (let j = 0; j < size; j += 1) {
        const cx = x0 + cell * (j + 0.5), cy = top + w + 8;
        colLabels.push(narrow ? text(root, cx, top - 12 - N_LINE * (j % 2), "", { "text-anchor": "middle", class: "tick" })
          : text(root, cx, cy, "", { "text-anchor": "end", class: "tick", transform: `rotate(-90 ${cx} ${cy})` }));
      }
      panels.push({ cells, colLabels, rowLabels });
    }
    return { name, panels };
  });
  if (!narrow) {
    const root = figures[0];
    const barH = B * w + (B - 1) * ROW_GAP;
    colourBar(root, panelX(1, size) + w + GAP, TOP, barH, d.scores_cmap, -d.vmax, d.vmax, scoreTicks, d.text.score);
    colourBar(root, panelX(2, size) + w + GAP, TOP, barH, d.weights_cmap, 0, 1, weightTicks, d.text.weight);
  }
  return { d, rows, size };
}

// What Python sent for the setting (lengths, names, readout), and each sentence's scores, words and
// mask for its number of real tokens, cropped to T, with the weights by the kit's softmax.
function frame(spec, values) {
  const d = spec.data;
  const T = values.seq_len;
  const crop = (matrix) => matrix.slice(0, T).map((row) => row.slice(0, T));
  const out = { ...storedFrame(spec, values), tokens: [], keep: [], scores: [], weights: [] };
  out.lengths.forEach((n, b) => {
    const scores = crop(d.scores[b][n - 1]), keep = crop(d.keep[values.mask][n - 1]);
    out.scores.push(scores);
    out.keep.push(keep);
    out.weights.push(scores.map((row, i) => softmax(row, keep[i])));
    out.tokens.push(d.tokens[b][n - 1].slice(0, T));
  });
  return out;
}

function draw(v, f, spec, values) {
  const { d, size } = v;
  const T = values.seq_len;
  // Only what changed is worked out and written (a step changes few of the ~400 texts; each write costs
  // layout): a cell keeps the value it shows, and the kit's `set` skips what is already there.
  v.rows.forEach((row, b) => {
    set(row.name, { text: f.names[b] });
    row.panels.forEach((panel, k) => {
      panel.rowLabels.forEach((label, i) => { set(label, { text: i < T ? f.tokens[b][i] : "" }); });
      panel.colLabels.forEach((label, j) => { set(label, { text: j < T ? f.tokens[b][j] : "" }); });
      for (let i = 0; i < size; i += 1) {
        for (let j = 0; j < size; j += 1) {
          const cell = panel.cells[i][j];
          const shown = i < T && j < T;
          // hidden, not removed from layout: showing it again then costs no new text layout
          if (cell.shown !== shown) {
            cell.g.setAttribute("visibility", shown ? "visible" : "hidden");
            cell.shown = shown;
          }
          if (!shown) continue;
          const keep = f.keep[b][i][j];
          // what the cell shows: a weight, a masked score, a score (a masked weight is exactly "0")
          const value = k === 2 ? (keep ? f.weights[b][i][j] : "0") : k === 1 && !keep ? "−∞" : f.scores[b][i][j];
          if (cell.value === value) continue;  // drawn already
          cell.value = value;
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
          set(cell.rect, { fill: fillColour });
          set(cell.label, { text: cellText, fill: ink });
        }
      }
    });
  });
}

const pageModule = createLab({ build, frame, draw, reflows: true });
export default pageModule;
