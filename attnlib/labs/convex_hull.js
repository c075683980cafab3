// The convex-hull lab (notebook 03): tokens as dots, their hull, and the outputs as rings that the
// scale β moves. Python sends the outputs for every setting and each output's whole path.
import { axes, createLab, fill, polyline, svg, text } from "./kit.js";

const W = 640, H = 470;

function build(picture, spec) {
  const d = spec.data;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${W} ${H}`, role: "img" }, picture);
  const [x0, x1] = d.axes.xlim, [y0, y1] = d.axes.ylim;
  const w = 520, h = Math.min(360, (w * (y1 - y0)) / (x1 - x0));  // equal aspect
  const box = { x: 90, y: 45, w: (h * (x1 - x0)) / (y1 - y0), h };
  const ax = axes(root, box, { ...d.axes, xlabel: d.text.xlabel, ylabel: d.text.ylabel, title: "", frame: true });
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
  const legend = svg("g", {}, ax.g);
  const lx = box.x + 12, ly = box.y + 16;
  svg("rect", { x: lx, y: ly - 6, width: 18, height: 12, fill: "#f1f1f8", stroke: "#a8a8c8" }, legend);
  svg("path", { d: `M${lx + 2},${ly + 20}h14M${lx + 9},${ly + 13}v14`, stroke: "#555", "stroke-width": 2 }, legend);
  svg("circle", { cx: lx + 9, cy: ly + 40, r: 7, fill: "none", stroke: "#333", "stroke-width": 2 }, legend);
  d.text.legend.forEach((words, k) => text(legend, lx + 26, ly + 20 * k, words, { class: "tick" }));
  return { d, at, links, rings, title: ax.title };
}

function frame(spec, values) {
  const i = spec.controls[0].options.indexOf(values.scale);
  return { out: spec.data.out[i], fields: spec.data.fields[i] };
}

function draw(v, f) {
  f.out.forEach((o, j) => {
    const [x, y] = v.at(o), [hx, hy] = v.at(v.d.X[j]);
    v.rings[j].setAttribute("cx", x); v.rings[j].setAttribute("cy", y);
    v.links[j].setAttribute("x1", x); v.links[j].setAttribute("y1", y);
    v.links[j].setAttribute("x2", hx); v.links[j].setAttribute("y2", hy);
  });
  v.title.textContent = fill(v.d.title, f.fields);
}

const lab = createLab({ build, frame, draw });
export default lab;
