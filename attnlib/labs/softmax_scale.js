// The softmax-scale lab (notebook 02): one row's weights as bars, and the entropy of every row
// against the scale β. Python sends the weights, entropies and readouts for every setting (the page
// looks them up) and the curves.
import { axes, colour, createLab, fill, number, polyline, set, svg, text } from "../page/kit.js";

// The wide layout (a desktop): both panels side by side in one picture. The narrow one (a phone's
// column, 324 px): two pictures one above the other, each as wide as a phone's text allows, with the
// axis names written level above their axes (a turned text reads badly that small).
const WIDE = {
  figures: [{ W: 1000, H: 390 }],
  bars: { x: 80, y: 40, w: 320, h: 270 }, curves: { x: 530, y: 40, w: 440, h: 270 }, legend: { x: 735, y: 58 },
};
const NARROW = {
  figures: [{ W: 340, H: 276 }, { W: 340, H: 252 }],
  bars: { x: 46, y: 58, w: 284, h: 170 }, curves: { x: 46, y: 32, w: 284, h: 170 }, legend: { x: 87, y: 50 },
};
const LEGEND_COLUMN = 115, LEGEND_ROW = 20;

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const G = narrow ? NARROW : WIDE;
  const figures = G.figures.map(({ W, H }) => svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture));
  const [first, second] = [figures[0], figures[figures.length - 1]];  // the bars' picture, the curves' (wide: one)
  const T = d.tokens.length;
  const B = G.bars, C = G.curves;
  const bars = axes(first, B, {
    ...d.bars_axes, xticks: [], xlabel: d.text.key, ylabel: narrow ? null : d.text.weight, title: "", frame: true });
  svg("line", { x1: B.x, x2: B.x + B.w, y1: bars.sy(1), y2: bars.sy(1), stroke: "#ccc" }, bars.g);
  const slot = B.w / T;
  const columns = d.tokens.map((token, j) => {
    const x = B.x + slot * (j + 0.175);
    text(bars.g, x + 0.325 * slot, B.y + B.h + 16, token, { "text-anchor": "middle", class: "tick" });
    return {
      bar: svg("rect", { x, width: 0.65 * slot, "stroke-width": 2 }, bars.g),
      label: text(bars.g, x + 0.325 * slot, 0, "", { "text-anchor": "middle" }),
    };
  });
  const curves = axes(second, C, {
    ...d.curve_axes, xlabel: d.text.scale, ylabel: narrow ? null : d.text.entropy, ylabelGap: 50, frame: true });
  if (narrow) {  // each axis's name level above its top left corner, the bars' title a row higher
    bars.title.setAttribute("y", B.y - 40);
    text(bars.g, 4, B.y - 14, d.text.weight);
    text(curves.g, 4, C.y - 14, d.text.entropy);
  }
  const { sx, sy } = curves;
  svg("line", { x1: C.x, x2: C.x + C.w, y1: sy(d.uniform), y2: sy(d.uniform), stroke: "#888", "stroke-dasharray": "5 3" }, curves.g);
  const lines = d.curves.map((row, i) => svg("polyline", {
    points: polyline(d.curve_scales.map((s, k) => [sx(s), sy(row[k])])), fill: "none", stroke: d.colours[i],
  }, curves.g));
  const mark = svg("line", { y1: C.y, y2: C.y + C.h, stroke: "#333" }, curves.g);
  const dot = svg("circle", { r: 5, stroke: "black" }, curves.g);
  const legend = svg("g", {}, curves.g);
  [...d.text.rows.map((words, i) => [words, d.colours[i], null]), [d.text.uniform, "#888", "5 3"]]
    .forEach(([words, c, dash], k) => {
      const x = G.legend.x + LEGEND_COLUMN * (k % 2), y = G.legend.y + LEGEND_ROW * Math.floor(k / 2);
      svg("line", { x1: x, x2: x + 24, y1: y, y2: y, stroke: c, "stroke-width": 2, "stroke-dasharray": dash }, legend);
      text(legend, x + 30, y, words, { class: "tick" });
    });
  return { d, bars, columns, lines, mark, dot, sx, sy };
}

// Every write goes through the kit's `set`, which skips what is already there.
function draw(v, f, spec, values) {
  const { d, bars } = v;
  f.weights.forEach((w, j) => {
    const { bar, label } = v.columns[j];
    const c = colour(d.cmap, 0, 1, w);
    set(bar, { y: bars.sy(w), height: bars.sy(0) - bars.sy(w), fill: c.fill, stroke: f.outlined[j] ? "black" : "none" });
    set(label, { y: bars.sy(w) - 10, text: number(w, 3) });
  });
  set(bars.title, { text: fill(d.title, f.fields) });
  v.lines.forEach((line, i) => {
    set(line, { "stroke-width": i === values.query ? 3 : 1.2, "stroke-opacity": i === values.query ? 1 : 0.55 });
  });
  const x = v.sx(values.scale);
  set(v.mark, { x1: x, x2: x });
  set(v.dot, { cx: x, cy: v.sy(f.entropy), fill: d.colours[values.query] });
}

const pageModule = createLab({ build, draw, reflows: true });
export default pageModule;
