// The dot-product lab (notebook 01): two arrows from the origin, the angle between them and the
// projection of a onto b. Python sends, for every setting, the two vectors, the foot of the projection,
// the angle and the readout's numbers; the page looks them up and draws.
import { axes, createLab, fill, GREY, newId, number, set, svg, text } from "../page/kit.js";

// The wide layout (a desktop), and the narrow one (a phone's column, 324 px): a smaller plane whose
// texts keep their size, the title on two lines, feature 2 written level above its axis (a turned text
// reads badly that small), and the labels placed in user units (see draw).
const WIDE = { W: 600, H: 430, box: { x: 80, y: 40, w: 470 }, font: 17 };
const NARROW = { W: 340, H: 312, box: { x: 46, y: 74, w: 286 }, font: 15 };
const NAME_GAP = 11;    // narrow: from an arrow's tip to its name
const NAME_EDGE = 8;    // narrow: a name's centre at least this far inside the plane (it is clipped there)
const NAME_LIFT = 18;   // narrow: a's name at least this far above b's axis, so the two never meet
const PROJ_DROP = 22;   // narrow: the projection's words this far below the axis, clear of b's name
const TITLE_GAP = 18;   // narrow: between the title's two lines

function build(picture, spec, change, { narrow } = {}) {
  const d = spec.data;
  const G = narrow ? NARROW : WIDE;
  const root = svg("svg", { class: "figure", viewBox: `0 0 ${G.W} ${G.H}`, role: "img" }, picture);
  const defs = svg("defs", {}, root);
  d.colours.forEach((c, i) => {
    const m = svg("marker", { id: newId(`arrow-${i}`), viewBox: "0 0 10 10",
      refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" }, defs);
    svg("path", { d: "M0,0 L10,5 L0,10 z", fill: c }, m);
  });
  const markers = [...defs.children].map((m) => m.id);
  // Equal aspect: one unit is the same number of pixels on both axes.
  const unit = G.box.w / (d.xlim[1] - d.xlim[0]);
  const box = { ...G.box, h: unit * (d.ylim[1] - d.ylim[0]) };
  const ax = axes(root, box, { xlim: d.xlim, ylim: d.ylim, xticks: d.xticks, xticklabels: d.xticks.map((t) => number(t, 0)), yticks: d.yticks,
    yticklabels: d.yticks.map((t) => number(t, 1)), xlabel: d.text.xlabel, ylabel: narrow ? null : d.text.ylabel,
    title: "", frame: true });
  const { sx, sy } = ax;
  // narrow: the formula's title is too long for one line, so it takes two (draw splits it)
  let title2 = null;
  if (narrow) {
    text(ax.g, 4, box.y - 14, d.text.ylabel);
    set(ax.title, { y: box.y - 16 - TITLE_GAP });
    title2 = text(ax.g, box.x + box.w / 2, box.y - 16 - 2 * TITLE_GAP, "", { "text-anchor": "middle", class: "title" });
  }
  svg("line", { x1: box.x, x2: box.x + box.w, y1: sy(0), y2: sy(0), stroke: "#e3e3e3" }, ax.g);
  svg("line", { x1: sx(0), x2: sx(0), y1: box.y, y2: box.y + box.h, stroke: "#e3e3e3" }, ax.g);
  const clip = newId("clip");
  svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h }, svg("clipPath", { id: clip }, defs));
  const g = svg("g", { "clip-path": `url(#${clip})` }, root);
  const line = { fill: "none" };
  const words = { "text-anchor": "middle", "font-size": G.font };
  return {
    d, sx, sy, box, title: ax.title, title2, narrow: Boolean(narrow),
    lineB: svg("line", { ...line, stroke: GREY, "stroke-dasharray": "2 3", "stroke-width": 1.2 }, g),
    drop: svg("line", { ...line, stroke: GREY, "stroke-dasharray": "5 3", "stroke-width": 1.2 }, g),
    proj: svg("line", { ...line, stroke: "#2a9d54", "stroke-width": 6, "stroke-opacity": 0.75 }, g),
    arc: svg("polyline", { ...line, stroke: "#444", "stroke-width": 1.2 }, g),
    arrows: d.colours.map((c, i) => svg("line", { stroke: c, "stroke-width": 3, "marker-end": `url(#${markers[i]})` }, g)),
    names: d.colours.map((c, i) => text(g, 0, 0, i ? "b" : "a", { fill: c, ...words })),
    theta: text(g, 0, 0, "θ", { fill: "#444", ...words }),
    projText: text(g, 0, 0, "", { fill: "#2a9d54", ...words }),
  };
}

// The title on two lines, split at the " = " nearest its middle.
function splitTitle(words) {
  let best = -1;
  for (let k = words.indexOf(" = "); k >= 0; k = words.indexOf(" = ", k + 1)) {
    if (best < 0 || Math.abs(k - words.length / 2) < Math.abs(best - words.length / 2)) best = k;
  }
  return best < 0 ? [words, ""] : [words.slice(0, best), words.slice(best + 1)];
}

// Every write goes through the kit's `set`, which skips what is already there (a step of one length
// leaves the other arrow, its name and the axis line alone).
function draw(v, f) {
  const { sx, sy } = v;
  const at = (p) => ({ x: sx(p[0]), y: sy(p[1]) });
  const [a, b] = [f.a, f.b];
  const far = 2 * v.d.xlim[1];
  set(v.lineB, { x1: sx(-far), x2: sx(far), y1: sy(0), y2: sy(0) });
  const foot = f.foot;
  const place = (node, p, q) => {
    const [s, e] = [at(p), at(q)];
    set(node, { x1: s.x, y1: s.y, x2: e.x, y2: e.y });
  };
  place(v.drop, a, foot);
  place(v.proj, [0, 0], foot);
  place(v.arrows[0], [0, 0], a);
  place(v.arrows[1], [0, 0], b);
  [a, b].forEach((p, i) => {
    const n = i ? f.fields.length_b : f.fields.length_a;  // the arrow's length: its name sits beyond its tip
    let q;
    if (v.narrow) {  // a fixed gap in user units; a (never below the axis) stays above b's name
      const tip = at(p);
      q = { x: tip.x + (NAME_GAP * p[0]) / n, y: tip.y - (NAME_GAP * p[1]) / n };
      if (i === 0) q.y = Math.min(q.y, sy(0) - NAME_LIFT);
      q.x = Math.min(Math.max(q.x, v.box.x + NAME_EDGE), v.box.x + v.box.w - NAME_EDGE);
      q.y = Math.max(q.y, v.box.y + NAME_EDGE);
    } else {
      q = at([p[0] + (0.28 * p[0]) / n, p[1] + (0.28 * p[1]) / n]);
    }
    set(v.names[i], { x: q.x, y: q.y });
  });
  const radius = 0.3 * Math.min(f.fields.length_a, f.fields.length_b, 1.5);
  const arc = [];
  for (let k = 0; k <= 40; k += 1) {
    const t = (f.theta * k) / 40;
    const p = at([radius * Math.cos(t), radius * Math.sin(t)]);
    arc.push(`${p.x.toFixed(2)},${p.y.toFixed(2)}`);
  }
  set(v.arc, { points: arc.join(" ") });
  const labelAt = f.theta > 0.35 ? f.theta / 2 : f.theta + 0.3;
  const t = at([1.9 * radius * Math.cos(labelAt), 1.9 * radius * Math.sin(labelAt)]);
  set(v.theta, { x: t.x, y: t.y });
  const side = a[1] >= 0 ? -1 : 1;  // the projection's words go on the side away from a
  const p = at([foot[0] / 2, side * 0.35]);
  if (v.narrow) p.y = sy(0) - side * PROJ_DROP;
  set(v.projText, { x: p.x, y: p.y, text: `|a| cos θ = ${number(f.proj, 2)}` });
  const title = fill(v.d.title, f.fields);
  if (v.title2) {
    const [first, second] = splitTitle(title);
    set(v.title2, { text: first });
    set(v.title, { text: second });
  } else {
    set(v.title, { text: title });
  }
}

const pageModule = createLab({ build, draw, reflows: true });
export default pageModule;
