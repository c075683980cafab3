// What every page module (each lab, the quiz) shares: controls, SVG drawing, scales, colours, number
// formatting, fonts, ids, the keys a control keeps (shareKeys), the lookup of a setting's frame, the
// learner's work kept in the browser (readProgress, updateProgress, forgetProgress), and the
// two ways a module is mounted (anywidget in Jupyter; a stored state on a static page,
// attnlib.page.mount_html). The numbers come from attnlib
// (the lab's `spec`): each setting's frame is looked up in `spec.frames`, which Python filled; this file
// only arranges and draws them.
// Its one piece of math is `softmax`, for the labs with too many settings to list (checked against
// attnlib by the browser tests). A lab's `spec` has the shape written in spec.types.js (generated from
// attnlib/page/contract.py); the functions here with a Python twin (number, fill, entries, storedFrame,
// upperIndex, clamp, softmax) are run in Node beside their twins by tests/test_page_twins.py.

export const SVG_NS = "http://www.w3.org/2000/svg";
export const GREY = "#9a9a9a";
const FONT = '"DejaVu Sans", Verdana, sans-serif';

// ---- SVG ---------------------------------------------------------------------------------------------
export function svg(tag, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, tag);
  set(node, attrs);
  if (parent) parent.appendChild(node);
  return node;
}

// Attributes (null: removed) and `text`, each written only when it differs from what the node holds:
// the page redoes style, layout or paint for every write, even of the value already there.
export function set(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "text") {
      const words = value === null || value === undefined ? "" : String(value);
      if (node.textContent !== words) node.textContent = words;
    } else if (value === null || value === undefined) {
      if (node.hasAttribute(key)) node.removeAttribute(key);
    } else {
      const written = String(value);
      if (node.getAttribute(key) !== written) node.setAttribute(key, written);
    }
  }
  return node;
}

// A node shown or hidden (display: none), written only when that changes.
export function show(node, shown) {
  const display = shown ? "" : "none";
  if (node.style.display !== display) node.style.display = display;
  return node;
}

export function text(parent, x, y, words, attrs = {}) {
  return svg("text", { x, y, "dominant-baseline": "central", ...attrs, text: words }, parent);
}

// A linear (or base-2 log) map from data to pixels.
export function scale([d0, d1], [r0, r1], log = false) {
  const f = log ? Math.log2 : (v) => v;
  const a = f(d0), b = f(d1);
  return (v) => r0 + ((f(v) - a) / (b - a)) * (r1 - r0);
}

// Axes in a box {x, y, w, h}: frame or spines, ticks, tick labels, axis labels, title.
// spec: {xlim, ylim, xticks, yticks, xticklabels?, yticklabels?, xlabel?, ylabel?, title?, log?, frame?}
export function axes(parent, box, spec) {
  const g = svg("g", {}, parent);
  const sx = scale(spec.xlim, [box.x, box.x + box.w], spec.log === "x");
  const sy = scale(spec.ylim, [box.y + box.h, box.y]);
  const spine = { stroke: "#333", "stroke-width": 1, fill: "none" };
  if (spec.frame) {
    svg("rect", { x: box.x, y: box.y, width: box.w, height: box.h, ...spine }, g);
  } else {
    svg("line", { x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h, ...spine }, g);
    if (spec.yticks !== undefined) svg("line", { x1: box.x, x2: box.x, y1: box.y, y2: box.y + box.h, ...spine }, g);
  }
  (spec.xticks || []).forEach((t, i) => {
    const x = sx(t);
    svg("line", { x1: x, x2: x, y1: box.y + box.h, y2: box.y + box.h + 5, stroke: "#333" }, g);
    const label = spec.xticklabels ? spec.xticklabels[i] : String(t);
    text(g, x, box.y + box.h + 16, label, { "text-anchor": "middle", class: "tick" });
  });
  (spec.yticks || []).forEach((t, i) => {
    const y = sy(t);
    svg("line", { x1: box.x - 5, x2: box.x, y1: y, y2: y, stroke: "#333" }, g);
    const label = spec.yticklabels ? spec.yticklabels[i] : String(t);
    text(g, box.x - 8, y, label, { "text-anchor": "end", class: "tick" });
  });
  if (spec.xlabel) text(g, box.x + box.w / 2, box.y + box.h + 36, spec.xlabel, { "text-anchor": "middle" });
  if (spec.ylabel) {
    const x = box.x - (spec.ylabelGap || 44), y = box.y + box.h / 2;
    text(g, x, y, spec.ylabel, { "text-anchor": "middle", transform: `rotate(-90 ${x} ${y})` });
  }
  const title = spec.title === undefined ? null
    : text(g, box.x + box.w / 2, box.y - 14, spec.title, { "text-anchor": "middle", class: "title" });
  return { g, sx, sy, title, box };
}

// Every other tick of an axis ("x" or "y"), 0 (or the tick nearest it) kept: in a narrow layout the
// labels would touch.
export function everyOther(spec, axis) {
  const ticks = spec[`${axis}ticks`], labels = spec[`${axis}ticklabels`];
  const zero = ticks.reduce((best, t, i) => (Math.abs(t) < Math.abs(ticks[best]) ? i : best), 0);
  const keep = (_, i) => (i - zero) % 2 === 0;
  return { ...spec, [`${axis}ticks`]: ticks.filter(keep), [`${axis}ticklabels`]: labels && labels.filter(keep) };
}

export function polyline(points) {
  return points.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(" ");
}

// ---- colours -----------------------------------------------------------------------------------------
// table: {fill: [hex...], text: ["black"|"white"...]} made by attnlib.page.colour_table.
export function colour(table, lo, hi, value) {
  const n = table.fill.length;
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  const i = Math.min(n - 1, Math.floor(t * n));
  return { fill: table.fill[i], text: table.text[i] };
}

// A bar's colour: the weights map from 0.15 up, as attnlib.plot's bars (its palest end vanishes on white).
export function barFill(table, weight) {
  return colour(table, 0, 1, 0.15 + 0.85 * weight).fill;
}

// ---- numbers -----------------------------------------------------------------------------------------
// Python's format(x, ".Nf") (exact decimal value, ties to even), a real minus sign, no "−0.00"
// (attnlib.plot.number is its twin; tests/test_page_twins.py runs both on the same numbers).
export function number(x, digits) {
  x = Number(x);  // as Python's float(x): true is 1
  if (x === -Infinity) return "−∞";
  if (!Number.isFinite(x)) return x > 0 ? "inf" : "nan";  // as Python writes them
  if (Math.abs(x) >= 1e21) {  // toFixed turns to exponents here; such a double is a whole number
    const whole = BigInt(Math.abs(x)).toString() + (digits > 0 ? "." + "0".repeat(digits) : "");
    return x < 0 ? "−" + whole : whole;
  }
  let s = x.toFixed(digits);
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 40));
  const rest = exact.slice(exact.indexOf(".") + 1 + digits);
  if (/^50*$/.test(rest)) {  // a tie: toFixed rounds it away from zero, Python to the even digit
    // exact's digits cut after the last one kept (no arithmetic: x·10^digits may not be a double)
    const down = exact.slice(0, exact.indexOf(".") + 1 + digits).replace(/\.$/, "");
    if (Number(down.slice(-1)) % 2 === 0) s = (x < 0 ? "-" : "") + down;
  }
  if (Number(s) === 0) s = (0).toFixed(digits);
  return s.replace("-", "−");
}

const FIELD = /\{(\w+)(?::\.(\d+)f)?\}/g;

export function escapeHtml(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

// The readout template filled from a frame's fields (attnlib.labs.base.fill is its twin).
export function fill(template, fields) {
  return template.replace(FIELD, (_, name, digits) => {
    if (!(name in fields)) throw new Error(`template field ${name} missing`);
    const v = fields[name];
    if (typeof v === "string") return escapeHtml(v);
    return digits === undefined ? BigInt(Math.trunc(v)).toString() : number(v, Number(digits));
  });
}

// A template filled for an SVG text (no HTML): {name} from fields, as Python's str.format does for
// the strings and whole numbers the labs put there.
export function words(template, fields) {
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    if (!(name in fields)) throw new Error(`template field ${name} missing`);
    return String(fields[name]);
  });
}

// ---- a setting's frame ------------------------------------------------------------------------------
// A control by its name (attnlib.labs.base.Control.spec).
export function control(spec, name) {
  const found = spec.controls.find((c) => c.name === name);
  if (!found) throw new Error(`no control named ${name}`);
  return found;
}

// A column's entries: as sent, or, packed (base64 float64, attnlib.labs.base._packed, whose twin this
// is), decoded once.
const unpacked = new WeakMap();
export function entries(column) {
  if (Array.isArray(column)) return column;
  if (!unpacked.has(column)) {
    const bytes = Uint8Array.from(atob(column.f64), (c) => c.charCodeAt(0));
    unpacked.set(column, new Float64Array(bytes.buffer));
  }
  return unpacked.get(column);
}

// What Python sent for this setting: each table of spec.frames holds some paths of the frame ("weights",
// "fields.dot") for every setting of the controls they depend on, the last control fastest
// (attnlib.labs.base.Lab.page_frame is its twin). spec: a LabSpec (spec.types.js).
export function storedFrame(spec, values) {
  const frame = {};
  for (const table of spec.frames) {
    let index = 0;
    for (const name of table.by) {
      const c = control(spec, name);
      index = index * c.options.length + indexOf(c.options, values[name]);
    }
    for (const [path, column] of Object.entries(table.columns)) {
      const value = entries(column)[index];
      const dot = path.indexOf(".");
      if (dot < 0) frame[path] = value;
      else (frame[path.slice(0, dot)] ||= {})[path.slice(dot + 1)] = value;
    }
  }
  return frame;
}

// softmax over the entries a query may attend to; blocked entries get exactly 0. The one piece of
// math a page does (where a lab has too many settings to list); the browser tests compare its result
// with attnlib at every setting, and tests/test_page_twins.py on rows of its own.
export function softmax(row, keep = null) {
  let top = -Infinity;
  row.forEach((v, j) => { if ((!keep || keep[j]) && v > top) top = v; });
  const e = row.map((v, j) => ((!keep || keep[j]) ? Math.exp(v - top) : 0));
  const total = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / total);
}

// ---- fonts and style -------------------------------------------------------------------------------------
const installed = new Set();

function installFonts(faces) {
  for (const face of faces || []) {
    const key = face.family + face.woff.length + face.woff.slice(-16);
    if (installed.has(key)) continue;
    installed.add(key);
    const bytes = Uint8Array.from(atob(face.woff), (c) => c.charCodeAt(0));
    const font = new FontFace(face.family, bytes.buffer);
    document.fonts.add(font);
    font.load().catch(() => {});
  }
}

// The lab's own subsets first (Latin, then Chinese), then what the machine has.
function fontFamily(faces) {
  const byRole = (role) => (faces || []).filter((f) => f.role === role).map((f) => `"${f.family}"`);
  return [...byRole("sans"), FONT, ...byRole("cjk")].join(", ");
}

// A page module's own font subsets installed, and its root set to use them (Latin, then Chinese).
export function useFonts(root, faces) {
  installFonts(faces);
  root.style.fontFamily = fontFamily(faces);
}

const STYLE = `
.attn-lab { font-family: ${FONT}; color: #222; font-size: 15px; line-height: 1.35; max-width: 1100px; }
.attn-lab .bar { display: flex; flex-wrap: wrap; gap: 6px 22px; align-items: center; margin: 4px 0 6px; }
.attn-lab .control { display: flex; align-items: center; gap: 8px; }
.attn-lab .control > .name { white-space: nowrap; }
.attn-lab input[type=range] { width: 220px; accent-color: #4c72b0; }
.attn-lab output { min-width: 3.2em; font-variant-numeric: tabular-nums; font-weight: 600; }
.attn-lab fieldset { border: 0; padding: 0; margin: 0; display: flex; align-items: center; gap: 0; }
.attn-lab fieldset legend { float: left; margin-right: 8px; padding: 0; }
.attn-lab .toggle input { position: absolute; opacity: 0; width: 1px; height: 1px; }
.attn-lab .toggle span { display: inline-block; padding: 3px 12px; border: 1px solid #9a9a9a;
  background: #f4f4f4; cursor: pointer; margin-left: -1px; }
.attn-lab .toggle input:checked + span { background: #4c72b0; color: white; border-color: #4c72b0; }
.attn-lab .toggle input:focus-visible + span, .attn-lab select:focus-visible,
.attn-lab input[type=range]:focus-visible { outline: 3px solid #f0a030; outline-offset: 1px; }
.attn-lab select { font: inherit; padding: 2px 4px; }
.attn-lab svg.figure { width: 100%; height: auto; display: block; font-family: inherit; font-size: 14px; }
.attn-lab svg .tick { font-size: 13px; }
.attn-lab svg .title { font-size: 15px; }
.attn-lab svg .cell { font-size: 11px; }
.attn-lab .readout { margin-top: 4px; font-size: 15px; }
/* Chinese captions in a picture break between words, not inside one ("最关注" whole): Firefox allows no break
   beside a quotation mark and so broke the word before it. A run too long for its box still breaks. */
.attn-lab:lang(zh) .picture { word-break: keep-all; overflow-wrap: anywhere; }
/* A narrow lab (a phone): one control per line, the slider taking what its name and value leave, and
   every control at least 44 px tall for a thumb. Only the layout changes. */
.attn-lab { container-type: inline-size; }
.attn-lab[data-layout=narrow] svg .tick, .attn-lab[data-layout=narrow] svg .cell { font-size: 13px; }
@container (max-width: 600px) {
  .attn-lab .bar { gap: 6px 12px; }
  .attn-lab .control { flex: 1 1 100%; flex-wrap: wrap; gap: 0 10px; }
  .attn-lab .control > .name { white-space: normal; flex: 1 1 100%; }
  .attn-lab input[type=range] { flex: 1 1 0; min-width: 0; width: auto; height: 44px; margin: 0; }
  .attn-lab fieldset { flex-wrap: wrap; }
  .attn-lab fieldset legend { float: none; width: 100%; margin: 0 0 4px; }
  .attn-lab .toggle span { box-sizing: border-box; min-height: 44px; min-width: 44px; display: inline-flex;
    align-items: center; justify-content: center; }
  .attn-lab select, .attn-lab button, .attn-lab input[type=text] { min-height: 44px; }
}
`;

// ---- ids -------------------------------------------------------------------------------------------------
// Every id and radio-group name a page module writes comes from here. Each widget runs its own copy of its
// module (anywidget loads one per widget; a site page or a deck inlines one bundle per widget), so a count
// kept in the module would start again in each: two quizzes or two toggles named alike would be one radio
// group (answering one unchecks the other) and the arrow keys would jump between them. The count is kept
// on the window, which every copy on the page shares.
export function newId(kind) {
  globalThis.__attnPageIds = (globalThis.__attnPageIds || 0) + 1;
  return `attn-${kind}-${globalThis.__attnPageIds}`;
}

// ---- the learner's work, kept in this browser ------------------------------------------------------------
// One localStorage entry holds it all: {code: {<exercise id>: text}, passed: {<exercise id>: true},
// quiz: {"<NN>": {first: [option|null...], n: number of questions, choices: [option|null...]}}}, an
// exercise id being "<notebook stem>/<name>" and NN the notebook's two digits. Nothing leaves the machine.
// Where storage is refused (a private window, a full disk) reading gives an empty record and writing
// does nothing: the page works as if nothing had been kept. After each write the window hears
// "attn-progress", so the contents' marks and other cards follow (tools/site_nav.js reads the same key,
// forgets it, and passes on other tabs' changes as the same event).
export const PROGRESS_KEY = "attn-progress-v1";
export const PROGRESS_EVENT = "attn-progress";
const SECTIONS = ["code", "passed", "quiz"];
const isRecord = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

export function readProgress() {
  let stored = null;
  try { stored = JSON.parse(window.localStorage.getItem(PROGRESS_KEY)); } catch { stored = null; }
  const progress = {};
  for (const section of SECTIONS) progress[section] = isRecord(stored) && isRecord(stored[section]) ? stored[section] : {};
  return progress;
}

function announce(progress) {
  window.dispatchEvent(new CustomEvent(PROGRESS_EVENT, { detail: progress }));
}

// fn(progress) changes the record in place; it is then written and announced. Returns the record.
export function updateProgress(fn) {
  const progress = readProgress();
  fn(progress);
  try { window.localStorage.setItem(PROGRESS_KEY, JSON.stringify(progress)); } catch { /* not kept */ }
  announce(progress);
  return progress;
}

export function forgetProgress() {
  try { window.localStorage.removeItem(PROGRESS_KEY); } catch { /* nothing was kept */ }
  announce(readProgress());
}

// Whether this page keeps the learner's work: a page of the site (tools/templates/site.html.j2). Not
// JupyterLab, where the kernel holds the answers, nor a deck, shown to a room.
export function keepsProgress(el) {
  return Boolean(el.closest("body.site-page"));
}

// ---- controls ----------------------------------------------------------------------------------------

// The index of the largest option a control allows at these values (attnlib.labs.base.Control.max
// is its twin); clamp below follows Lab._checked.
export function upperIndex(control, values) {
  const options = control.options;
  if (!control.limit) return options.length - 1;
  const cap = values[control.limit];
  let i = options.length - 1;
  while (i > 0 && options[i] > cap) i -= 1;
  return i;
}

export function clamp(controls, values) {
  const out = { ...values };
  for (const c of controls) if (c.limit && out[c.name] > out[c.limit]) out[c.name] = out[c.limit];
  return out;
}

function indexOf(options, value) {
  const i = options.findIndex((o) => o === value);
  return i < 0 ? 0 : i;
}

function mountControls(bar, controls, values, onChange) {
  const updaters = controls.map((c) => {
    const box = document.createElement("div");
    box.className = "control";
    box.dataset.control = c.name;
    box.dataset.kind = c.kind;
    bar.appendChild(box);
    const id = newId("lab");
    if (c.kind === "slider") {
      box.innerHTML = `<label class="name" for="${id}"></label><input type="range" id="${id}" min="0" step="1"><output for="${id}"></output>`;
      const [label, input, out] = box.children;
      label.textContent = c.description;
      input.addEventListener("input", () => onChange(c.name, c.options[Number(input.value)]));
      let shownMax = null, shownIndex = null;
      return (v) => {  // only what changed is written: every write costs the page a style pass
        const max = upperIndex(c, v);
        if (max !== shownMax) { input.max = String(max); shownMax = max; }
        const i = indexOf(c.options, v[c.name]);
        if (input.value !== String(i)) input.value = String(i);
        if (i !== shownIndex) {
          out.textContent = c.labels[i];
          input.setAttribute("aria-valuetext", c.labels[i]);
          shownIndex = i;
        }
      };
    }
    if (c.kind === "toggle") {
      const group = document.createElement("fieldset");
      group.setAttribute("role", "radiogroup");
      const legend = document.createElement("legend");
      legend.textContent = c.description;
      group.appendChild(legend);
      const inputs = c.options.map((_, i) => {
        const label = document.createElement("label");
        label.className = "toggle";
        label.innerHTML = `<input type="radio" name="${id}"><span></span>`;
        label.lastChild.textContent = c.labels[i];
        label.firstChild.addEventListener("change", () => onChange(c.name, c.options[i]));
        group.appendChild(label);
        return label.firstChild;
      });
      box.appendChild(group);
      return (v) => {
        inputs.forEach((input, i) => {
          const on = c.options[i] === v[c.name];
          if (input.checked !== on) input.checked = on;
        });
      };
    }
    box.innerHTML = `<label class="name" for="${id}"></label><select id="${id}"></select>`;
    const [label, select] = box.children;
    label.textContent = c.description;
    c.labels.forEach((words, i) => {
      const option = document.createElement("option");
      option.value = String(i);
      option.textContent = words;
      select.appendChild(option);
    });
    select.addEventListener("change", () => onChange(c.name, c.options[Number(select.value)]));
    return (v) => {
      const i = String(indexOf(c.options, v[c.name]));
      if (select.value !== i) select.value = i;
    };
  });
  const update = (v) => updaters.forEach((u) => u(v));
  update(values);
  return update;
}

// ---- the keyboard: which keys a control keeps ---------------------------------------------------------
// One rule for every lab and the quiz, wherever they are shown (JupyterLab, a site page, a deck):
// - a control in focus keeps the keys it uses (KEPT) and no others: the notebook, the page or the deck
//   around it never hears those keys, and hears every other one as if no control had the focus (Space on
//   a slider turns the slide);
// - Esc gives every key back: the focus moves from the control to its lab or quiz (no control, not a Tab
//   stop; the next Tab goes on from there);
// - a choice made with the pointer (a radio button clicked, a menu's option picked) is complete, and the
//   keys go back at once: after clicking a quiz's answer, ↓ and → move the deck, not the answer. A slider
//   dragged keeps its keys: the arrows then fine-tune it. A control reached with Tab keeps its keys until
//   Tab or Esc moves on.
// The notebook and the decks listen on the document in the capture phase (JupyterLab's shortcuts, RISE),
// so a kept key is stopped on the way down, at the window; the control's own default action (a range
// input moving, a form submitted) still happens.
const ARROWS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"];
const STEPS = [...ARROWS, "Home", "End", "PageUp", "PageDown"];
export const KEPT = {
  range: STEPS,
  radio: [...ARROWS, " "],
  checkbox: [" "],
  select: [...STEPS, "Enter", " "],
  button: ["Enter", " "],
  text: null,  // a text box keeps every key but Tab and Esc
};
const MODIFIERS = new Set(["Shift", "Control", "Alt", "Meta", "CapsLock", "AltGraph"]);

// The kind of control (a key of KEPT) of a page module's element, or null.
export function controlKind(el) {
  if (!(el instanceof Element) || !el.closest(".attn-lab, .attn-quiz")) return null;
  const tag = el.tagName.toLowerCase();
  if (tag === "select" || tag === "button") return tag;
  if (tag === "textarea") return "text";
  if (tag !== "input") return null;
  const type = (el.getAttribute("type") || "text").toLowerCase();
  if (type === "range" || type === "radio" || type === "checkbox") return type;
  return ["button", "submit", "reset"].includes(type) ? "button" : "text";
}

// The keys back to what is around the control: the focus on its lab or quiz instead.
export function handBack(control) {
  const root = control.closest(".attn-lab, .attn-quiz");
  if (!root.hasAttribute("tabindex")) {
    root.tabIndex = -1;  // focusable from a script, never a Tab stop
    root.style.outline = "none";
  }
  root.focus({ preventScroll: true });
}

export function shareKeys() {
  if (window.__attnKeys) return;
  window.__attnKeys = true;
  let pointed = null;  // what the last pointer press was on, until a key is pressed
  window.addEventListener("pointerdown", (event) => { pointed = event.target; }, true);
  window.addEventListener("keydown", (event) => {
    pointed = null;
    const target = event.target, kind = controlKind(target);
    if (!kind) return;
    if (event.key === "Escape" && !event.isComposing) {
      event.stopPropagation();
      event.preventDefault();
      handBack(target);
      return;
    }
    if (event.key === "Tab" || MODIFIERS.has(event.key)) return;
    const kept = KEPT[kind];
    if (kept === null || event.isComposing) event.stopPropagation();
    else if (event.ctrlKey || event.altKey || event.metaKey) return;  // the browser's and the host's own
    else if (kept.includes(event.key)) event.stopPropagation();
    else handBack(target);  // the key goes on, to the deck or the notebook, with no control in focus
  }, true);
  window.addEventListener("change", (event) => {
    const target = event.target, kind = controlKind(target);
    const by = pointed instanceof Element ? pointed : null;
    pointed = null;
    if ((kind !== "radio" && kind !== "select") || !by) return;
    if (by === target || by.closest("label")?.control === target) handBack(target);
  }, true);
}

// ---- a lab -----------------------------------------------------------------------------------------------
// def: {build(figure, spec, change, {narrow}) -> view, draw(view, frame, spec, values), reflows,
//       frame?(spec, values) -> {fields, ...}}: the frame is what Python sent for the setting
//       (storedFrame), unless the lab adds to it (the mask lab's weights, by the kit's softmax);
//       settle?(values, changes) -> values: the setting after a change, where one control moves another
//       (the live GPT lab's step follows its end), as the lab's Python set_values does.
// A lab that `reflows` has a second, narrow layout (panels one above the other, text that stays at least
// 12 px on a phone): the kit builds it anew whenever the lab's width crosses NARROW_PX. Same frame, same
// numbers: only the geometry differs.
export const NARROW_PX = 600;

export function createLab(def) {
  if (!def.frame) def.frame = storedFrame;
  function render({ model, el }) {
    const spec = model.get("spec");
    let values = { ...model.get("values") };
    installFonts(spec.fonts);
    const root = document.createElement("div");
    root.className = "attn-lab";
    root.dataset.lab = spec.name;
    root.style.fontFamily = fontFamily(spec.fonts);
    root.innerHTML = `<style>${STYLE}</style><div class="bar"></div><div class="picture"></div><div class="readout" aria-live="polite"></div>`;
    el.appendChild(root);
    shareKeys();
    const [, bar, picture, readout] = root.children;
    // the picture's text alternative is the readout, which says in words what it shows
    readout.id = newId("lab");
    let change = null, view = null, narrow = null, shownWords = null;
    // (Re)builds the picture when there is none yet or the width crossed NARROW_PX; says whether it did.
    // build may add controls of its own (a text box, buttons): they change the setting through
    // `change(name, value)`, the same path as the kit's controls.
    const layout = () => {
      const width = root.clientWidth;
      const now = Boolean(def.reflows) && width > 0 && width <= NARROW_PX;
      if (view !== null && now === narrow) return false;
      narrow = now;
      root.dataset.layout = narrow ? "narrow" : "wide";
      picture.replaceChildren();
      view = def.build(picture, spec, (name, value) => change(name, value), { narrow });
      picture.querySelectorAll("svg.figure").forEach((f) => { f.style.maxWidth = `${1.25 * f.viewBox.baseVal.width}px`; });
      picture.querySelectorAll("svg[role=img]").forEach((img) => img.setAttribute("aria-labelledby", readout.id));
      return true;
    };
    const paint = () => {
      const frame = def.frame(spec, values);
      def.draw(view, frame, spec, values);
      const words = fill(spec.readout, frame.fields);
      if (words !== shownWords) { readout.innerHTML = words; shownWords = words; }
      root.dataset.values = JSON.stringify(values);
    };
    change = (name, value) => {
      values = clamp(spec.controls, def.settle ? def.settle(values, { [name]: value }) : { ...values, [name]: value });
      updateControls(values);
      paint();  // repaint first: the kernel hears of it afterwards
      model.set("values", values);
      model.save_changes();
    };
    layout();
    const updateControls = mountControls(bar, spec.controls, values, change);
    const onModel = () => {
      const next = model.get("values");
      if (JSON.stringify(next) === JSON.stringify(values)) return;  // our own change, painted already
      values = { ...next };
      updateControls(values);
      paint();
    };
    model.on("change:values", onModel);
    paint();
    const resized = def.reflows ? new ResizeObserver(() => { if (layout()) paint(); }) : null;
    resized?.observe(root);
    // For tests and benchmarks: the lab's own functions, its model, and the setting on show.
    root.attnLab = { def, spec, model, get values() { return values; } };
    return () => { model.off("change:values", onModel); resized?.disconnect(); };
  }
  return { render, ...def };
}

// A stand-in for anywidget's model where no kernel runs: the stored state, and no one to tell.
export function staticModel(state) {
  const data = { spec: state.spec, values: { ...state.values } };
  const handlers = {};
  return {
    get: (key) => data[key],
    set: (key, value) => {  // as anywidget's model: a change is announced to the views
      data[key] = value;
      (handlers[`change:${key}`] || []).forEach((fn) => fn());
    },
    save_changes: () => {},
    on: (event, fn) => { (handlers[event] = handlers[event] || []).push(fn); },
    off: () => {},
  };
}

export function mountStatic(pageModule, el, state) {
  return pageModule.render({ model: staticModel(state), el });
}
