"""Page helpers for the browser tests, the slide check and the benchmarks.

JupyterLab: start a server on a folder, open a notebook, wait until its kernel is *really* idle
(the toolbar says "idle" before the kernel can take a Run All, which is then silently dropped),
run every cell, wait until the run really finished, and collect what went wrong.

Pages opened from disk (the site, the decks): ``Watch`` records every request and script error and
refuses the network.

Labs (``attnlib.labs.Lab``, drawn in the page: ``.attn-lab`` with its controls, an ``svg.figure`` and a
readout): find them, move every control with the keyboard as a learner would, and read the setting,
the readout and a fingerprint of the picture.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from attnlib.labs.base import fill

ROOT = Path(__file__).resolve().parents[2]
# The notebooks under test; point ATTNLIB_NOTEBOOKS at another folder to try the suite on a draft.
NOTEBOOKS = Path(os.environ.get("ATTNLIB_NOTEBOOKS") or ROOT / "notebooks")

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RUN_TIMEOUT_S = 120  # a whole notebook; each is meant to finish in well under 30 s
REDRAW_TIMEOUT_S = 10  # one control change -> new figure (a redraw takes ~20-120 ms)


def notebook_names(folder: Path = NOTEBOOKS) -> list[str]:
    """The notebooks to test, in reading order (file names, relative to ``folder``)."""
    return sorted(p.name for p in folder.glob("*.ipynb"))


# A lab cell starts with `# NBVAL_IGNORE_OUTPUT` and shows a Lab built by a `make_..._lab` factory,
# either directly or through a name assigned from one (`lab = labs.make_dk_lab(...)`, later `lab`).
LAB_NAME = re.compile(r"^(\w+)\s*=\s*(?:attnlib\.)?(?:labs\.)?(make_\w+_lab|Lab)\(", re.M)


def code_sources(path: Path) -> list[str]:
    cells = json.loads(path.read_text())["cells"]
    return ["".join(c["source"]) if c["cell_type"] == "code" else "" for c in cells]


def lab_cells(path: Path) -> dict[int, str]:
    """The cells of a notebook that show a lab: cell index -> the factory that built it."""
    sources = code_sources(path)
    factories = {name: factory for s in sources for name, factory in LAB_NAME.findall(s)}
    found = {}
    for i, source in enumerate(sources):
        if not source.lstrip().startswith("# NBVAL_IGNORE_OUTPUT"):
            continue
        last = source.strip().splitlines()[-1].strip()
        direct = re.search(r"\b(make_\w+_lab|Lab)\(", last)
        shown = re.fullmatch(r"(?:display\()?(\w+)\)?;?", last)
        if direct:
            found[i] = direct.group(1)
        elif shown and shown.group(1) in factories:
            found[i] = factories[shown.group(1)]
    return found


# ---- JupyterLab -------------------------------------------------------------------------------


class JupyterLab:
    """A running JupyterLab: its base URL, token and the folder it serves."""

    def __init__(self, url: str, token: str, root: Path) -> None:
        self.url, self.token, self.root = url, token, root

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_jupyter_lab(root: Path, log_path: Path) -> Iterator[JupyterLab]:
    """JupyterLab from this environment on 127.0.0.1 with a random token, serving ``root``."""
    port, token = free_port(), secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
        "--LabApp.expose_app_in_browser=True", "--allow-root",
    ]  # fmt: skip
    # Kernels get the learner's inline figures, not the Agg backend the unit tests' conftest sets.
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    with open(log_path, "w") as log:
        server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=root.parent, env=env)
        try:
            url = f"http://127.0.0.1:{port}"
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                        break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise RuntimeError(f"JupyterLab did not start: see {log_path}") from None
                    time.sleep(0.25)
            yield JupyterLab(url, token, root)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


# ---- One notebook in the page -------------------------------------------------------------------

# Every script below finds the notebook panel by its path, so a dialog or another tab stealing focus
# cannot make it act on the wrong widget.
_FIND = """
const findPanel = (name) => {
  if (!window.jupyterapp || !window.jupyterapp.shell) return null;  // still loading
  for (const w of window.jupyterapp.shell.widgets('main')) {
    if (w.context && w.context.path === name && w.content && w.content.model) return w;
  }
  return null;
};
"""

_OPENED = """
return (name) => { const w = findPanel(name); return !!(w && w.context.isReady && w.content.model.cells.length); };
"""

_KERNEL = """
return (name) => {
  const sc = findPanel(name)?.sessionContext;
  const k = sc?.session?.kernel;
  return {ready: !!sc?.isReady, status: k?.status ?? null, connection: k?.connectionStatus ?? null,
          busyCells: findPanel(name).content.widgets.filter(
              c => c.model.type === 'code' && c.model.executionState === 'running').length};
};
"""

_KERNEL_INFO = """
return async (name) => {
  const sc = findPanel(name).sessionContext;
  await sc.ready;
  const info = await sc.session.kernel.info;  // the kernel answered kernel_info: it is up
  return info.implementation;
};
"""

_START_RUN_ALL = """
return async (name) => {
  const w = findPanel(name);
  const app = window.jupyterapp;
  app.shell.activateById(w.id);
  // nbval's marker for an error shown on purpose; JupyterLab's equivalent is the tag, without which
  // Run All stops at that cell.
  const expected = [];
  w.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    if (!/^\\s*#\\s*NBVAL_RAISES_EXCEPTION/.test(cell.model.sharedModel.getSource())) return;
    const tags = cell.model.getMetadata('tags') || [];
    if (!tags.includes('raises-exception')) cell.model.setMetadata('tags', [...tags, 'raises-exception']);
    expected.push(i);
  });
  // Stored outputs and counts would hide a cell that never ran.
  await app.commands.execute('notebook:clear-all-cell-outputs');
  window.__attnRunAll = {done: false};
  app.commands.execute('notebook:run-all-cells').then(
      (result) => { window.__attnRunAll = {done: true, result: result}; },
      (err) => { window.__attnRunAll = {done: true, error: String(err)}; });
  return expected;
};
"""

_UNEXECUTED = """
return (name) => findPanel(name).content.widgets.flatMap((cell, i) =>
    cell.model.type === 'code' && cell.model.sharedModel.getSource().trim() !== ''
    && cell.model.executionCount == null ? [i] : []);
"""

_PROBLEMS = """
return (args) => {
  const w = findPanel(args.name);
  const problems = [];
  const WIDGET = 'application/vnd.jupyter.widget-view+json';
  const TRACEBACK = /Traceback \\(most recent call last\\)|^\\w*(Error|Exception)\\b[^\\n]*:/m;
  const FALLBACK = /Error displaying widget|Error rendering|Failed to load model|Could not create (a )?(model|view)|\\b[A-Z]\\w*\\(children=\\(|Loading widget\\.\\.\\./;
  let views = 0;
  w.content.widgets.forEach((cell, i) => {
    if (cell.model.type !== 'code') return;
    const at = `cell ${i + 1}`;
    const outputs = cell.model.outputs.toJSON();
    const errors = outputs.filter(o => o.output_type === 'error');
    // The cell's own outputs, in model order (outputs of an Output widget sit deeper).
    const nodes = cell.outputArea.node.querySelectorAll(':scope > .jp-OutputArea-child > .jp-OutputArea-output');
    if (args.expected.includes(i)) {
      if (!errors.length && cell.model.executionCount != null) {
        problems.push(`${at}: marked NBVAL_RAISES_EXCEPTION but raised nothing`);
      }
    } else {
      for (const e of errors) problems.push(`${at}: ${e.ename}: ${e.evalue}`);
      outputs.forEach((out, j) => {  // a traceback printed to stderr (e.g. by a widget callback)
        if (out.output_type !== 'stream' || out.name !== 'stderr' || !nodes[j]) return;
        const text = nodes[j].innerText;
        if (TRACEBACK.test(text)) problems.push(`${at}: traceback on stderr: ${text.slice(0, 400)}`);
      });
    }
    outputs.forEach((out, j) => {
      if (!(out.data && out.data[WIDGET])) return;
      views += 1;
      const node = nodes[j];
      if (!node) problems.push(`${at}: widget output ${j + 1} is not shown`);
      // an ipywidgets view carries .jupyter-widgets; a lab or a quiz (anywidget views) is its own .attn-lab, .attn-quiz
      else if (!node.querySelector('.jupyter-widgets, .attn-lab, .attn-quiz')) {
        problems.push(`${at}: widget output ${j + 1} rendered no widget (still loading?): "${node.innerText.slice(0, 200)}"`);
      }
    });
    for (const node of cell.node.querySelectorAll('.jp-OutputArea-output')) {
      const m = node.innerText.match(FALLBACK);
      if (m) problems.push(`${at}: widget not rendered ("${m[0]}"): ${node.innerText.slice(0, 200)}`);
    }
    for (const img of cell.node.querySelectorAll('.jp-OutputArea-output[data-mime-type="image/png"] img')) {
      if (img.complete && img.naturalWidth === 0) problems.push(`${at}: a figure did not load`);
    }
    for (const node of cell.node.querySelectorAll('.jupyter-widgets-error-widget')) {
      // ipywidgets 8 draws a broken-widget icon, with the message in the element's text
      problems.push(`${at}: Error displaying widget: ${node.textContent.trim().slice(0, 300)}`);
    }
    for (const node of cell.node.querySelectorAll('.widget-html')) {
      if (/error:/.test(node.innerText)) problems.push(`${at}: a readout shows ${node.innerText.slice(0, 300)}`);
    }
  });
  return {problems, views};
};
"""


def _fn(script: str) -> str:
    """A self-contained JS function expression from a script that ``return``s one (``findPanel`` in scope)."""
    return f"(() => {{ {_FIND} {script} }})()"


@dataclass
class NotebookRun:
    """What a Run All left behind: the page (kept open for the lab tests) and what went wrong."""

    name: str
    page: Any
    seconds: float
    expected_errors: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    widget_views: int = 0


def kernel_state(page, name: str) -> dict:
    return page.evaluate(f"(name) => {_fn(_KERNEL)}(name)", name)


def wait_kernel_idle(page, name: str, timeout_s: float = 90, settle_s: float = 0.3) -> None:
    """Until the session is ready, the kernel connected and idle, with no cell running, for ``settle_s``."""
    deadline = time.monotonic() + timeout_s
    idle_since = None
    state: dict = {}
    while time.monotonic() < deadline:
        state = kernel_state(page, name)
        quiet = (
            state["ready"]
            and state["status"] == "idle"
            and state["connection"] == "connected"
            and not state["busyCells"]
        )
        if quiet:
            idle_since = idle_since or time.monotonic()
            if time.monotonic() - idle_since >= settle_s:
                return
        else:
            idle_since = None
        time.sleep(0.05)
    raise AssertionError(f"{name}: the kernel did not become idle within {timeout_s:.0f} s: {state}")


def open_notebook(page, lab: JupyterLab, name: str, timeout_s: float = 90) -> None:
    """Open ``name`` and wait until its kernel really answers (not just the toolbar's "idle")."""
    page.goto(lab.notebook_url(name))
    page.wait_for_function(f"(name) => {_fn(_OPENED)}(name)", arg=name, timeout=timeout_s * 1000)
    page.evaluate(f"(name) => {_fn(_KERNEL_INFO)}(name)", name)
    wait_kernel_idle(page, name, timeout_s)


def run_all(page, name: str, timeout_s: float = RUN_TIMEOUT_S) -> NotebookRun:
    """Run every cell, wait until the run really finished, and collect errors and unrendered widgets."""
    start = time.monotonic()
    expected = page.evaluate(f"(name) => {_fn(_START_RUN_ALL)}(name)", name)
    page.wait_for_function("() => window.__attnRunAll && window.__attnRunAll.done", timeout=timeout_s * 1000)
    wait_kernel_idle(page, name, timeout_s)
    seconds = time.monotonic() - start
    run = NotebookRun(name, page, seconds, expected)
    outcome = page.evaluate("() => window.__attnRunAll")
    if outcome.get("error"):
        run.problems.append(f"Run All failed: {outcome['error']}")
    # Widget views render asynchronously: give "Loading widget..." a moment before calling it a failure.
    deadline = time.monotonic() + 20
    while True:
        found = page.evaluate(f"(args) => {_fn(_PROBLEMS)}(args)", {"name": name, "expected": expected})
        pending = ("Loading widget", "rendered no widget", "is not shown")
        if not any(m in p for p in found["problems"] for m in pending) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    run.problems += found["problems"]
    run.widget_views = found["views"]
    unexecuted = page.evaluate(f"(name) => {_fn(_UNEXECUTED)}(name)", name)
    if unexecuted:
        cells = ", ".join(str(i + 1) for i in unexecuted)
        run.problems.append(f"cells never ran (the run stopped early?): {cells}")
    return run


def shut_down(page, name: str) -> None:
    """Stop the notebook's kernel (frees its memory before the next notebook starts one)."""
    page.evaluate(
        f"async (name) => {{ const w = {_fn('return findPanel;')}(name);"
        " if (w && w.sessionContext.session) await w.sessionContext.shutdown(); }",
        name,
    )


# ---- Labs: controls, readout, figure ----------------------------------------------------------------

LAB_SELECTOR = ".attn-lab"

LAB_JS = """(root) => ({
    readout: root.attnLab.spec.readout,
    controls: root.attnLab.spec.controls,
})"""

# What the page shows now: its setting, a fingerprint of the picture, the readout, and the page's own
# frame at that setting (whose fields Python fills in, to compare with the readout).
STATE_JS = """(root) => {
    const s = root.querySelector('.picture').innerHTML;  // every panel (a phone's layout has several)
    let h = 0;
    for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
    const values = JSON.parse(root.dataset.values);
    return {
        values, picture: `${s.length}:${h}`,
        readout: root.querySelector('.readout').innerHTML,
        fields: root.attnLab.def.frame(root.attnLab.spec, values).fields,
        focusInLab: root.contains(document.activeElement),
    };
}"""

# HTML as the page serialises it (entities, attribute quotes), to compare two readouts as the page holds them.
AS_PAGE_HTML = "(html) => { const d = document.createElement('div'); d.innerHTML = html; return d.innerHTML; }"


class LabWalk:
    """Move every control of one lab (``root``: its ``.attn-lab`` element) and check every step."""

    def __init__(self, page, root, where: str) -> None:
        self.page, self.root, self.where = page, root, where
        info = root.evaluate(LAB_JS)
        self.template, self.controls = info["readout"], info["controls"]
        self.problems: list[str] = []
        self.steps = 0
        self.last = self.state()
        self.check_readout(self.last, "as first shown")

    def state(self) -> dict:
        return self.root.evaluate(STATE_JS)

    def check_readout(self, state: dict, what: str) -> None:
        try:
            expected = self.page.evaluate(AS_PAGE_HTML, fill(self.template, state["fields"]))
        except (KeyError, ValueError, TypeError) as err:
            self.problems.append(f"{self.where}: {what}: the frame's fields do not fill the readout: {err}")
            return
        if state["readout"] != expected:
            self.problems.append(f"{self.where}: {what}: readout {state['readout']!r}, Python fills {expected!r}")
        if "error" in state["readout"].lower():
            self.problems.append(f"{self.where}: {what}: the readout reports an error: {state['readout']!r}")

    def step(self, control: dict, action: str, do, expected_index: int | None = None) -> None:
        """Do one thing to a control; check where it went, that the picture moved and the readout."""
        before = self.last
        do()
        after = self.state()
        self.steps += 1
        name, what = control["name"], f"{control['name']!r} {action}"
        if not after["focusInLab"]:
            self.problems.append(f"{self.where}: {what}: the focus left the lab")
        if expected_index is not None:
            expected = control["options"][expected_index]
            if after["values"][name] != expected:
                self.problems.append(f"{self.where}: {what}: value {after['values'][name]!r}, expected {expected!r}")
        if after["values"] != before["values"] and after["picture"] == before["picture"]:
            self.problems.append(f"{self.where}: {what}: the setting moved to {after['values']} "
                                 "but the picture did not change")
        self.check_readout(after, what)
        self.last = after

    def index(self, control: dict) -> int:
        return control["options"].index(self.last["values"][control["name"]])

    def slider(self, control: dict, box) -> None:
        thumb = box.locator("input[type=range]")
        thumb.focus()
        start = self.index(control)

        def press(key: str):
            return lambda: self.page.keyboard.press(key)

        def top() -> int:
            return int(thumb.get_attribute("max"))

        self.step(control, "End", press("End"), top())
        self.step(control, "Home", press("Home"), 0)
        self.step(control, "ArrowRight", press("ArrowRight"), min(1, top()))
        self.step(control, "ArrowLeft", press("ArrowLeft"), 0)
        # back where it was, so the next control starts from the lab's own setting
        self.step(control, f"back to {control['labels'][start]}",
                  lambda: [self.page.keyboard.press("ArrowRight") for _ in range(min(start, top()))],
                  min(start, top()))

    def toggle(self, control: dict, box) -> None:
        radios = box.locator("input[type=radio]")
        n, start = radios.count(), self.index(control)
        radios.nth(start).focus()
        at = start
        for key, move in [("ArrowRight", 1)] * (n - 1) + [("ArrowLeft", -1)] * (n - 1):
            at = (at + move) % n  # arrow keys in a radio group wrap around
            self.step(control, key, lambda key=key: self.page.keyboard.press(key), at)
        if at != start:
            self.problems.append(f"{self.where}: {control['name']!r} did not come back to its start")

    def menu(self, control: dict, box) -> None:
        select = box.locator("select")
        select.focus()
        start = self.index(control)
        order = [i for i in range(len(control["options"])) if i != start] + [start]
        for i in order:
            self.step(control, f"select {control['labels'][i]!r}",
                      lambda i=i: select.select_option(value=str(i)), i)
        # and with the arrow keys, which a closed menu in focus takes for itself
        there = start + 1 if start + 1 < len(order) else start - 1
        first, back = ("ArrowDown", "ArrowUp") if there > start else ("ArrowUp", "ArrowDown")
        if there >= 0:
            self.step(control, first, lambda: self.page.keyboard.press(first), there)
            self.step(control, back, lambda: self.page.keyboard.press(back), start)

    def run(self) -> list[str]:
        if not self.controls:
            self.problems.append(f"{self.where}: no controls")
        for control in self.controls:
            box = self.root.locator(f'.control[data-control="{control["name"]}"]')
            if box.count() != 1:
                self.problems.append(f"{self.where}: control {control['name']!r} not found once in the page")
                continue
            getattr(self, {"slider": "slider", "toggle": "toggle", "menu": "menu"}[control["kind"]])(control, box)
        return self.problems


def walk_labs(page, where: str, roots=None) -> tuple[list[str], int]:
    """Walk every lab in the page (or the given ``.attn-lab`` locators); return problems and steps."""
    roots = roots if roots is not None else page.locator(".attn-lab").all()
    problems, steps = [], 0
    for i, root in enumerate(roots):
        root.scroll_into_view_if_needed()
        walk = LabWalk(page, root, f"{where} lab {i + 1}")
        problems += walk.run()
        steps += walk.steps
    return problems, steps


_EXECUTE = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, silent: false, store_history: false });
  let out = '';
  future.onIOPub = (msg) => {
    if (msg.header.msg_type === 'stream') out += msg.content.text;
    if (msg.header.msg_type === 'error') out += 'ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}
"""


def in_kernel(page, code: str) -> str:
    """Run ``code`` in the kernel of the notebook on show (not in a cell) and return what it printed."""
    return page.evaluate(_EXECUTE, code)


# ---- pages opened from disk ---------------------------------------------------------------------------
class Watch:
    """Every request, failed request, page error and console error of a page; refuses the network."""

    def __init__(self, page) -> None:
        self.requests: list[str] = []
        self.failed: list[str] = []
        self.errors: list[str] = []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("requestfailed", lambda r: self.failed.append(r.url) if not self._left_behind(r) else None)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        # Anything not on disk is refused as well as recorded, so a leak cannot go unnoticed or hang.
        page.route(re.compile(r"^(?!file:|data:).*"), lambda route: route.abort())

    @staticmethod
    def _left_behind(request) -> bool:
        """A file that is there, whose loading was cut short because the reader went to another page
        (a font or a figure the page had not finished fetching)."""
        from urllib.parse import unquote, urlsplit

        url = urlsplit(request.url)
        return (request.failure == "net::ERR_ABORTED" and url.scheme == "file"
                and Path(unquote(url.path)).is_file())

    def check(self) -> None:
        assert self.requests, "no request was recorded at all"
        off_disk = [url for url in self.requests if not url.startswith(("file://", "data:"))]
        assert not off_disk, f"requests left the machine: {off_disk[:5]}"
        assert not self.failed, f"files missing next to the pages: {self.failed[:5]}"
        assert not self.errors, "\n".join(self.errors[:5])


# ---- a reveal.js deck -------------------------------------------------------------------------------------
_SHOW_SLIDE_JS = """(root) => {
    Reveal.configure({transition: 'none', backgroundTransition: 'none'});
    const section = root.closest('section');
    const at = Reveal.getIndices(section);
    Reveal.slide(at.h, at.v);
    section.scrollTop = 0;
    return at;
}"""
_ON_SLIDE_JS = """(root) => {
    const r = root.getBoundingClientRect(), s = root.closest('section').getBoundingClientRect();
    return {box: [r.left, r.top, r.right, r.bottom], slide: [s.left, s.top, s.right, s.bottom],
            width: root.offsetWidth, height: root.offsetHeight};
}"""


def show_slide_of(page, root) -> dict:
    """Show the slide that holds ``root`` (a locator), with no transition; return its indices {h, v}."""
    at = root.evaluate(_SHOW_SLIDE_JS)
    page.wait_for_function("(at) => { const n = Reveal.getIndices(); return n.h === at.h && n.v === at.v; }",
                           arg=at)
    return at


def on_its_slide(root) -> tuple[bool, dict]:
    """Whether ``root`` lies within its slide as shown (to a pixel), and the boxes and size measured."""
    fit = root.evaluate(_ON_SLIDE_JS)
    (left, top, right, bottom), (s_left, s_top, s_right, s_bottom) = fit["box"], fit["slide"]
    return s_left - 1 <= left and right <= s_right + 1 and s_top - 1 <= top and bottom <= s_bottom + 1, fit


# ---- fonts: all in? Chinese drawn with the bundled CJK font? ----------------------------------------------------
# Every web font the page asked for has arrived (or failed): what is drawn and measured from then on is final.
FONTS_READY_JS = "() => document.fonts.ready.then(() => null)"

CJK_FONT_LOADED_JS = """async () => {
    await document.fonts.load('16px "Attn CJK"', '權');
    return Array.from(document.fonts).filter(f => f.family.replace(/"/g, '') === 'Attn CJK').map(f => f.status);
}"""

# Marks (data-cjk-check) every drawn element whose own text (not its children's) holds Chinese, outside
# the labs (their own fonts) and the formulas; returns how many.
MARK_CHINESE_JS = """() => {
    const chinese = /[\\u2e80-\\u9fff\\uf900-\\ufaff\\ufe30-\\uffef]/; let k = 0;
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('.attn-lab, mjx-container, script, style')) continue;
        if (el.closest('details:not([open])') && !el.closest('summary')) continue;  // folded: not drawn
        const own = Array.from(el.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join('');
        if (chinese.test(own) && el.getClientRects().length) el.setAttribute('data-cjk-check', String(k++));
    }
    return k;
}"""


def platform_fonts(page, selector: str) -> list[tuple[str, list[dict]]]:
    """(the start of its HTML, the fonts Chromium drew it with) for every element matching ``selector``.

    The site lays out a cell only when the reader comes near it (content-visibility), and text that is not
    laid out has no fonts: every cell is laid out first, as the reader scrolling down would have it.
    """
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    return [(cdp.send("DOM.getOuterHTML", {"nodeId": node})["outerHTML"][:80],
             cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
            for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]]
