// The editor card of the site (page module "practice"): an exercise's code, editable in the page, checked
// by the page's own Python with the notebook's checker; or, at the end of a page, a scratch cell that runs
// any code. The spec comes from attnlib/page/practice.py: {id, code, check, language, root, words,
// timeLimitMs}; `check` is the exercise cell's checker line (null for a scratch cell).
//
// - The editor is CodeMirror (assets/editor.js, the global AttnEditor, loaded once per page by a classic
//   <script>, which works from file:// too, when the first card comes near the view); until then, or if it
//   cannot load, a plain <textarea>.
// - Python is ONE Web Worker per page (py/worker.js, attnlib/page/python_worker.js), shared by every card
//   of the page and started when the page is idle, or at the first check. A run that takes longer than the
//   time limit ends the worker, which starts again; the code stays in the editor. From file:// a page cannot
//   start the worker: the status line says how to serve the site (make serve), and the code stays editable.
// - The learner's code is kept in the browser (the kit's progress store) as they type and before each run,
//   and a pass is marked there; both only on a page of the site (keepsProgress).
// - For tests: window.attnPractice = {ready, setCode(id, code), code(id), check(id), setTimeLimit(ms)}.
import { escapeHtml, keepsProgress, readProgress, updateProgress } from "../page/kit.js";

const SAVE_DELAY_MS = 400;

// ---- the page's one Python -------------------------------------------------------------------------------
// Kept on the window: each card on a page runs its own copy of this module, and they share one worker.
function pagePython(root) {
  if (window.__attnPython) return window.__attnPython;
  const py = {
    state: "waiting", loaded: 0, total: 0, message: "", timeLimit: null, listeners: new Set(),
    available: location.protocol !== "file:" && typeof Worker === "function",
  };
  window.__attnPython = py;
  const base = new URL(`${root}py/`, location.href).href;
  let worker = null, started = false, waiters = [], current = null, queue = Promise.resolve(), seq = 0;
  let firstReady;
  py.ready = new Promise((resolve, reject) => { firstReady = { resolve, reject }; });
  py.ready.catch(() => {});  // said on the status line; a test awaits it

  const settle = () => {
    if (py.state === "ready") { firstReady.resolve("ready"); waiters.forEach((w) => w.resolve()); }
    else if (py.state === "failed" || py.state === "unavailable") {
      const err = new Error(py.message || py.state);
      firstReady.reject(err);
      waiters.forEach((w) => w.reject(err));
    } else return;
    waiters = [];
  };
  const setState = (state, fields = {}) => {
    Object.assign(py, { state }, fields);
    py.listeners.forEach((fn) => fn(py));
    settle();
  };
  const spawn = () => {
    worker = new Worker(`${root}py/worker.js`);
    worker.onmessage = ({ data }) => {
      if (data.type === "progress") setState("loading", { loaded: data.loaded, total: data.total });
      else if (data.type === "ready") setState("ready");
      else if (data.type === "failed") setState("failed", { message: data.message });
      else if ((data.type === "result" || data.type === "crashed") && current && current.id === data.id) {
        current.finish(data.type === "result" ? data.result : crashed(data.message));
        if (data.type === "crashed") restart();
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || "py/worker.js could not run";
      if (current) { current.finish(crashed(message)); restart(); }
      else if (py.state !== "ready") setState("failed", { message });
    };
    setState("loading", { loaded: 0 });
    worker.postMessage({ type: "init", base });
  };
  const restart = () => {
    worker?.terminate();
    spawn();
  };
  py.start = () => {
    if (started) return;
    started = true;
    if (py.available) spawn();
    else setState("unavailable");
  };
  const whenReady = () => new Promise((resolve, reject) => {
    waiters.push({ resolve, reject });
    settle();
  });
  // One run at a time, in order: the time limit of each counts from when the worker gets it.
  py.run = (code, check, language, limit) => {
    const once = async () => {
      py.start();
      try { await whenReady(); } catch (err) { return { unavailable: py.state === "unavailable", ...crashed(err.message) }; }
      return new Promise((resolve) => {
        const id = ++seq;
        const ms = py.timeLimit ?? limit;
        const timer = setTimeout(() => {
          current = null;
          restart();
          resolve({ stdout: "", value: null, verdict: null, error: { kind: "timeout", line: null, message: "", ms } });
        }, ms);
        current = { id, finish(result) { clearTimeout(timer); current = null; resolve(result); } };
        worker.postMessage({ type: "run", id, code, check, language });
      });
    };
    const done = queue.then(once);
    queue = done.catch(() => {});
    return done;
  };
  const idle = window.requestIdleCallback ? (fn) => window.requestIdleCallback(fn, { timeout: 3000 })
    : (fn) => setTimeout(fn, 1000);
  if (document.readyState === "complete") idle(py.start);
  else window.addEventListener("load", () => idle(py.start), { once: true });
  return py;
}

function crashed(message) {
  return { stdout: "", value: null, verdict: null, error: { kind: "crashed", line: null, message: String(message) } };
}

// ---- the editor --------------------------------------------------------------------------------------------
function loadEditor(root) {
  if (!window.__attnEditor) {
    window.__attnEditor = new Promise((resolve, reject) => {
      if (window.AttnEditor) { resolve(window.AttnEditor); return; }
      const script = document.createElement("script");
      script.src = `${root}assets/editor.js`;
      script.onload = () => (window.AttnEditor ? resolve(window.AttnEditor) : reject(new Error("no AttnEditor")));
      script.onerror = () => reject(new Error(`${script.src} did not load`));
      document.head.appendChild(script);
    });
  }
  return window.__attnEditor;
}

// CodeMirror (about 375 kB of script) is loaded and set up only when a card comes within a screen of the
// view: the labs above a page's exercises never wait for it, even while Python loads.
function whenNear(element, work) {
  if (typeof IntersectionObserver !== "function") { work(); return; }
  const watch = new IntersectionObserver((entries) => {
    if (entries.some((entry) => entry.isIntersecting)) { watch.disconnect(); work(); }
  }, { rootMargin: "100% 0px" });
  watch.observe(element);
}

// A <textarea> with the editor's interface: what the card shows until CodeMirror is there, or instead of it.
function plainEditor(parent, { doc, label, onChange, onRun }) {
  const area = document.createElement("textarea");
  area.className = "attn-practice-text";
  area.spellcheck = false;
  area.value = doc;
  area.rows = Math.max(4, doc.split("\n").length + 1);
  area.setAttribute("aria-label", label);
  area.addEventListener("input", () => onChange(area.value));
  area.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); onRun(); }
  });
  parent.appendChild(area);
  return {
    get: () => area.value,
    set(text) { area.value = text; onChange(text); },
    focus: () => area.focus(),
    markLine() {},
    element: area,
  };
}

// ---- the status line: one per page, in the first card ------------------------------------------------------
function statusLine(py, words) {
  const line = document.createElement("p");
  line.className = "attn-python-status";
  const show = () => {
    line.dataset.state = py.state;
    const mb = (bytes) => (bytes / 1e6).toFixed(1);
    const text = {
      waiting: words.waiting,
      loading: (py.total && py.loaded >= py.total ? words.starting : words.loading)  // then unpacked and started
        .replace("{loaded}", mb(py.loaded)).replace("{total}", mb(py.total)),
      ready: words.ready,
      failed: words.failed.replace("{message}", py.message),
      unavailable: words.unavailable,
    }[py.state];
    if (line.textContent !== text) line.textContent = text;
  };
  py.listeners.add(show);
  show();
  return line;
}

// ---- a card --------------------------------------------------------------------------------------------------
function render({ model, el }) {
  const spec = model.get("spec");
  const words = spec.words;
  const scratch = spec.check === null;
  const keeps = keepsProgress(el);
  const py = pagePython(spec.root);
  const card = document.createElement("div");
  card.className = "attn-practice";
  card.dataset.exercise = spec.id;
  card.dataset.state = "idle";
  const action = scratch ? { cls: "attn-practice-run", word: words.run } : { cls: "attn-practice-check", word: words.check };
  card.innerHTML = `<div class="attn-practice-editor"></div>
<div class="attn-practice-bar"><button type="button" class="${action.cls}">${escapeHtml(action.word)}</button>
<button type="button" class="attn-practice-reset">${escapeHtml(words.reset)}</button>
<span class="attn-practice-help">${escapeHtml(words.help)}</span></div>
<div class="attn-practice-output" aria-live="polite"></div>`;
  const [box, bar, output] = card.children;
  if (!document.querySelector(".attn-python-status")) card.prepend(statusLine(py, words));
  el.appendChild(card);

  let saveTimer = null;
  const save = () => {
    clearTimeout(saveTimer);
    if (keeps) updateProgress((p) => { p.code[spec.id] = editor.get(); });
  };
  const onChange = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, SAVE_DELAY_MS);
  };
  const kept = keeps ? readProgress().code[spec.id] : undefined;
  const options = { doc: typeof kept === "string" ? kept : spec.code, label: words.label, onChange, onRun: () => check() };
  let editor = plainEditor(box, options);
  whenNear(card, () => loadEditor(spec.root).then((AttnEditor) => {
    const typed = editor.get(), focused = document.activeElement === editor.element;
    editor.element.remove();
    editor = AttnEditor.create(box, { ...options, doc: typed });
    if (focused) editor.focus();
  }).catch(() => {}));  // the textarea stays

  const show = (result) => {
    output.replaceChildren();
    const add = (cls, text, data = {}) => {
      const node = document.createElement(cls.endsWith("stdout") || cls.endsWith("value") ? "pre" : "div");
      node.className = cls;
      node.textContent = text;
      Object.entries(data).forEach(([k, v]) => { if (v !== null && v !== undefined) node.dataset[k] = String(v); });
      output.appendChild(node);
      return node;
    };
    if (result.unavailable) { add("attn-practice-note", words.unavailable); return; }
    if (result.stdout) add("attn-practice-stdout", result.stdout);
    if (result.value !== null && result.value !== undefined) add("attn-practice-value", result.value);
    const error = result.error;
    if (error) {
      const fields = { line: error.line, message: error.message, seconds: ((error.ms ?? 0) / 1000).toString() };
      const template = error.kind === "timeout" ? words.timeout : error.kind === "crashed" ? words.crashed
        : error.kind === "syntax" && error.line ? words.syntax : error.kind === "exception" && error.line ? words.exception
          : words.error;
      add("attn-practice-error", template.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? fields[k] : m)),
        { kind: error.kind, line: error.line });
      editor.markLine(error.line ?? null);
    }
    if (result.verdict) {  // its text the checker's; its first word, the mark, drawn by the stylesheet
      const verdict = add("attn-practice-verdict", "", { ok: result.verdict.ok, cause: result.verdict.cause });
      const [, mark, message] = /^(\S+ )?([\s\S]*)$/.exec(result.verdict.text);
      if (mark) verdict.append(Object.assign(document.createElement("span"), { className: "attn-practice-mark", textContent: mark.trim() }), " ");
      verdict.append(message);
    }
    if (!output.childElementCount) add("attn-practice-note", words.nothing);
  };

  const check = async () => {
    const code = editor.get();
    save();
    card.dataset.state = "running";
    editor.markLine(null);
    output.replaceChildren(Object.assign(document.createElement("div"), {
      className: "attn-practice-note", textContent: py.state === "ready" ? words.running : words.queued,
    }));
    const result = await py.run(code, spec.check, spec.language, spec.timeLimitMs);
    show(result);
    card.dataset.state = "done";
    if (keeps && result.verdict?.ok && !scratch) updateProgress((p) => { p.passed[spec.id] = true; });
    return result;
  };
  bar.querySelector(`.${action.cls}`).addEventListener("click", () => { check(); });
  bar.querySelector(".attn-practice-reset").addEventListener("click", () => {
    editor.set(spec.code);
    clearTimeout(saveTimer);
    if (keeps) updateProgress((p) => { delete p.code[spec.id]; });
    output.replaceChildren(Object.assign(document.createElement("div"), {
      className: "attn-practice-note", textContent: words.reset_done,
    }));
    card.dataset.state = "idle";
  });

  testHook(py)[spec.id] = { setCode: (text) => editor.set(text), code: () => editor.get(), check };
}

// window.attnPractice: what the browser tests and benchmarks drive the cards with, by exercise id.
function testHook(py) {
  if (!window.__attnPracticeCards) {
    const cards = {};
    const card = (id) => {
      if (!cards[id]) throw new Error(`no card ${id} on this page; there are: ${Object.keys(cards).join(", ")}`);
      return cards[id];
    };
    window.__attnPracticeCards = cards;
    window.attnPractice = {
      ready: py.ready,
      setCode: (id, code) => card(id).setCode(code),
      code: (id) => card(id).code(),
      check: (id) => card(id).check(),
      setTimeLimit: (ms) => { py.timeLimit = ms; },
    };
  }
  return window.__attnPracticeCards;
}

const pageModule = { render };
export default pageModule;
