// The convex-hull lab (notebook 03): tokens as dots, their hull, and the outputs as rings that the
// scale β moves. Python sends the outputs and the readout for every setting (the page looks them up)
// and each output's whole path.
import { axes, createLab, everyOther, fill, polyline, set, svg, text } from "../page/kit.js";

// The wide layout (a desktop), and the narrow one (a phone's column, 324 px): the same plane scaled to
// fit, feature 2 written level above its axis (a turned text reads badly that small), and the legend
// under the plane in two columns, where it covers no data whatever the tokens.
const WIDE = { W: 640, box: { x: 90, y: 45, w: 520, h: 360 } };
const NARROW = { W: 340, box: { x: 38, y: 56, w: 292, h: 200 } };
const LEGEND_ROW = 20, LEGEND_COLUMN = 150;  // narrow: the legend's grid

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const G = narrow ? NARROW : WIDE;
  const [x0, x1] = d.axes.xlim, [y0, y1] = d.axes.ylim;
  const w = G.box.w, h = Math.min(G.box.h, (w * (y1 - y0)) / (x1 - x0));  // equal aspect
  const box = { x: G.box.x, y: G.box.y, w: (h * (x1 - x0)) / (y1 - y0), h };
  const rows = Math.ceil(d.text.legend.length / 2);
  const H = narrow ? box.y + box.h + 56 + LEGEND_ROW * rows : 470;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${H}`, role: "img" }, picture);
  const ax = axes(root, box, { ...(narrow ? everyOther(d.axes, "x") : d.axes), xlabel: d.text.xlabel, ylabel: narrow ? null : d.text.ylabel, title: "", frame: true });
  if (narrow) {
    set(ax.title, { x: G.W / 2, y: box.y - 40 });  // centred on the panel: the title nearly fills it
    text(ax.g, 4, box.y - 14, d.text.ylabel);
  }
  const { sx, sy } = ax;
  const at = (p) => [sx(p[0]), sy(p[1])];
  svg("polygon", { points: polyline(d.hull.map(at)), fill: "#f1f1f8", stroke: "#a8a8c8", "stroke-width": 1.2 }, ax.g);
  const [cx, cy] = at(d.centroid);
  svg("path", { d: `M${cx - 8},${cy}h16M${cx},${cy - 8}v16`, stroke: "#555", "stroke-width": 2 }, ax.g);
  d.tokens.forEach((_, j) => svg("polyline", {
    points: polyline(d.trails.map((step) => at(step[j]))), fill: "none", stroke: d.colours[j], "stroke-opacity": 0.35,
  }, ax.g));
  const links = d.tokens.map((_, j) => svg("line", { stroke: d.colours[j], "stroke-dasharray": "1 3" }, ax.g));
  d.X.forEach((p, j) => {
    const [x, y] = at(p);
    svg("circle", { cx: x, cy: y, r: 6, fill: d.colours[j] }, ax.g);
    text(ax.g, x + 9, y - 11, d.tokens[j], { fill: d.colours[j], "font-size": 17 });
  });
  const rings = d.tokens.map((_, j) => svg("circle", { r: 9, fill: "none", stroke: d.colours[j], "stroke-width": 2.4 }, ax.g));
  // The legend: wide, a column in the plane's top left corner; narrow, two columns under the plane.
  const legend = svg("g", {}, ax.g);
  const lx = box.x + 12, ly = box.y + 16;
  const spot = narrow
    ? (k) => [box.x + LEGEND_COLUMN * (k % 2), box.y + box.h + 62 + LEGEND_ROW * Math.floor(k / 2)]
    : (k) => [lx, ly + 20 * k];
  const [rx, ry] = spot(0), [px, py] = spot(1), [ox, oy] = spot(2);
  svg("rect", { x: rx, y: ry - 6, width: 18, height: 12, fill: "#f1f1f8", stroke: "#a8a8c8" }, legend);
  svg("path", { d: `M${px + 2},${py}h14M${px + 9},${py - 7}v14`, stroke: "#555", "stroke-width": 2 }, legend);
  svg("circle", { cx: ox + 9, cy: oy, r: 7, fill: "none", stroke: "#333", "stroke-width": 2 }, legend);
  d.text.legend.forEach((words, k) => text(legend, spot(k)[0] + 26, spot(k)[1], words, { class: "tick" }));
  return { d, at, links, rings, title: ax.title };
}

function draw(v, f) {
  f.out.forEach((o, j) => {
    const [x, y] = v.at(o), [hx, hy] = v.at(v.d.X[j]);
    set(v.rings[j], { cx: x, cy: y });
    set(v.links[j], { x1: x, y1: y, x2: hx, y2: hy });
  });
  set(v.title, { text: fill(v.d.title, f.fields) });
}

const pageModule = createLab({ build, draw, reflows: true });
export default pageModule;
