"""Page helpers for the browser tests and the slider-latency benchmark.

JupyterLab: start a server on a folder, open a notebook, wait until its kernel is *really* idle
(the toolbar says "idle" before the kernel can take a Run All, which is then silently dropped),
run every cell, wait until the run really finished, and collect what went wrong.

Labs (``attnlib.widgets.Lab``: a VBox of [an HBox of controls, ``img.widget-image``, an HTML readout]):
find them in the page, move every control with the keyboard or the mouse, and read the readout and
the figure's pixels.
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
# either directly or through a name assigned from one (`lab = widgets.make_dk_lab(...)`, later `lab`).
LAB_NAME = re.compile(r"^(\w+)\s*=\s*(?:attnlib\.)?(?:widgets\.)?(make_\w+_lab|Lab)\(", re.M)


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
      else if (!node.querySelector('.jupyter-widgets')) {
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

LAB_SELECTOR = ".widget-vbox:has(> img.widget-image)"
CONTROL_SELECTOR = ", ".join(
    [
        ".widget-slider",
        ".widget-dropdown",
        ".widget-checkbox",
        ".widget-toggle-buttons",
        ".widget-radio",
        "button.widget-toggle-button:not(.widget-toggle-buttons button)",
    ]
)

# The figure's pixels (not just its blob URL, which is new even for identical bytes): size, a hash
# and how many distinct colours it has (a blank figure has one or two).
_PIXELS = """
async (img) => {
  for (let attempt = 0; attempt < 20; attempt++) {
    const src = img.src;
    try {
      const probe = new Image();
      probe.src = src;
      await probe.decode();
      const canvas = document.createElement('canvas');
      canvas.width = probe.naturalWidth;
      canvas.height = probe.naturalHeight;
      const ctx = canvas.getContext('2d');
      ctx.drawImage(probe, 0, 0);
      const px = new Uint32Array(ctx.getImageData(0, 0, canvas.width, canvas.height).data.buffer);
      let hash = 2166136261;
      const colours = new Set();
      for (let i = 0; i < px.length; i++) {
        hash = Math.imul(hash ^ px[i], 16777619) >>> 0;
        if (colours.size < 64) colours.add(px[i]);
      }
      return {src, width: canvas.width, height: canvas.height, hash, colours: colours.size};
    } catch (err) {
      // The blob URL was revoked by a newer image: read the new one.
      await new Promise(r => setTimeout(r, 50));
    }
  }
  return {src: img.src, width: 0, height: 0, hash: 0, colours: 0};
}
"""


def normalise_label(text: str) -> str:
    """``d_k``, ``$d_k$``, ``dₖ`` and a MathJax-rendered d k all become ``dk``."""
    text = text.replace("ₖ", "k").lower()
    return re.sub(r"[\s_$\\{}:=]", "", text)


@dataclass
class Control:
    kind: str  # slider, dropdown, checkbox, toggle, togglebuttons, radio
    label: str
    locator: Any


@dataclass
class Snapshot:
    src: str
    hash: int
    width: int
    height: int
    colours: int
    readout: str


class LabView:
    """One lab in the page; ``index`` counts labs from the top of the notebook."""

    def __init__(self, page, notebook: str, index: int) -> None:
        self.page, self.notebook, self.index = page, notebook, index
        self.root = page.locator(LAB_SELECTOR).nth(index)
        self.image = self.root.locator(":scope > img.widget-image")
        self.readout_box = self.root.locator(":scope > .widget-html").last

    def __repr__(self) -> str:
        return f"{self.notebook} lab {self.index + 1}"

    def readout(self) -> str:
        return self.readout_box.inner_text().strip()

    def snapshot(self) -> Snapshot:
        pixels = self.image.evaluate(_PIXELS)
        return Snapshot(readout=self.readout(), **pixels)

    def controls(self) -> list[Control]:
        found = []
        bar = self.root.locator(":scope > .widget-hbox, :scope > .widget-box").first
        for element in bar.locator(CONTROL_SELECTOR).all():
            classes = element.get_attribute("class") or ""
            if "widget-toggle-button" in classes.split():
                kind, label = "toggle", element.inner_text()
            else:
                kind = next(
                    k
                    for cls, k in (
                        ("widget-slider", "slider"),
                        ("widget-dropdown", "dropdown"),
                        ("widget-checkbox", "checkbox"),
                        ("widget-toggle-buttons", "togglebuttons"),
                        ("widget-radio", "radio"),
                    )
                    if cls in classes.split()
                )
                labels = element.locator(".widget-label")
                label = labels.first.text_content() if labels.count() else ""
            found.append(Control(kind, (label or "").strip(), element))
        return found

    def wait_redraw(self, before: Snapshot, what: str, timeout_s: float = REDRAW_TIMEOUT_S) -> Snapshot:
        """After a change: until the figure or the readout changed and the kernel is idle again."""
        try:
            self.page.wait_for_function(
                "([img, box, src, text]) => img.src !== src || box.innerText.trim() !== text",
                arg=[
                    self.image.element_handle(),
                    self.readout_box.element_handle(),
                    before.src,
                    before.readout,
                ],
                timeout=timeout_s * 1000,
                polling="raf",
            )
        except Exception as err:  # playwright's TimeoutError
            raise AssertionError(
                f"{self}: {what}: neither the figure nor the readout changed within {timeout_s:.0f} s "
                f"(readout still {before.readout!r})"
            ) from err
        wait_kernel_idle(self.page, self.notebook, timeout_s, settle_s=0.1)
        return self.snapshot()


def slider_state(control: Control) -> dict:
    """The noUiSlider handle's aria values (an index for selection sliders), its readout and handle count."""
    return control.locator.evaluate(
        """(el) => {
          const handles = el.querySelectorAll('.noUi-handle');
          const aria = (name) => parseFloat(handles[0].getAttribute(name));
          const readout = el.querySelector('.widget-readout');
          return {now: aria('aria-valuenow'), min: aria('aria-valuemin'), max: aria('aria-valuemax'),
                  text: readout ? readout.innerText.trim() : '', handles: handles.length};
        }"""
    )


@dataclass
class Step:
    """One control change and what the lab showed before and after it."""

    control: str
    action: str
    value: str  # the control's value as its own widget shows it, after the change
    before: Snapshot
    after: Snapshot


def check_figure(lab: LabView, shot: Snapshot, when: str) -> list[str]:
    problems = []
    if shot.width == 0 or shot.colours < 3:
        problems.append(f"{lab}: blank figure {when} ({shot.width}x{shot.height} px, {shot.colours} colours)")
    if "error:" in shot.readout:
        problems.append(f"{lab}: the readout shows an error {when}: {shot.readout}")
    return problems


def check_step(lab: LabView, step: Step, *, value_in_readout: bool = True) -> list[str]:
    """The figure really changed (other pixels), is not blank, and the readout moved with the control."""
    what = f"{step.control!r} {step.action} (now {step.value!r})"
    problems = check_figure(lab, step.after, f"after {what}")
    if step.after.hash == step.before.hash:
        problems.append(f"{lab}: {what}: the figure did not change")
    readout_moved = step.after.readout != step.before.readout or (
        value_in_readout and step.value and step.value in step.after.readout
    )
    if not readout_moved:
        problems.append(f"{lab}: {what}: the readout did not change: {step.after.readout!r}")
    return problems


class Driver:
    """Moves a lab's controls one at a time, as a learner would, and records every step."""

    MAX_FAILURES = 3  # after this many timeouts the lab is stuck: stop rather than wait again and again
    MAX_RESTORE = 25  # key presses to bring a slider back to its starting value

    def __init__(self, lab: LabView) -> None:
        self.lab = lab
        self.steps: list[Step] = []
        self.problems: list[str] = []
        self.timeouts = 0
        self.last: Snapshot | None = None

    def _do(self, control: Control, action: str, act, value) -> Step | None:
        if self.timeouts >= self.MAX_FAILURES:
            return None
        before = self.last or self.lab.snapshot()
        self.last = None
        act()
        try:
            after = self.lab.wait_redraw(before, f"{control.label!r} {action}")
        except AssertionError as err:
            self.problems.append(str(err))
            self.timeouts += 1
            return None
        self.last = after  # the next change starts from here
        step = Step(control.label, action, value(), before, after)
        self.steps.append(step)
        self.problems += check_step(self.lab, step, value_in_readout=control.kind != "checkbox")
        return step

    def slider(self, control: Control) -> None:
        """Both extremes (End, Home), one step right and back, then back where it was if that is near."""
        for h in range(slider_state(control)["handles"]):
            handle = control.locator.locator(".noUi-handle").nth(h)
            start = slider_state(control)
            if start["max"] <= start["min"]:
                continue

            def value() -> str:
                return slider_state(control)["text"]

            def press(key: str, handle=handle) -> bool:
                return self._do(control, key, lambda: handle.press(key), value) is not None

            if start["now"] != start["max"]:
                press("End")
            self.check_extreme(control, "max")
            press("Home")
            self.check_extreme(control, "min")
            self.check_smallest(control, value())
            press("ArrowRight")
            step = slider_state(control)["now"] - start["min"]
            press("ArrowLeft")
            self.restore(control, handle, start, step)

    def restore(self, control: Control, handle, start: dict, step: float) -> None:
        """Back to the starting value (if a few key presses away), so the next control starts from the defaults."""
        if step <= 0:
            return
        from_min = round((start["now"] - start["min"]) / step)
        from_max = round((start["max"] - start["now"]) / step)
        if min(from_min, from_max) > self.MAX_RESTORE or from_min == 0:
            return
        keys = ["End"] + ["ArrowLeft"] * from_max if from_max < from_min else ["ArrowRight"] * from_min
        before, self.last = self.last or self.lab.snapshot(), None
        for key in keys:  # in a row, as a learner holding the key down; checked once at the end
            handle.press(key)
        try:
            after = self.lab.wait_redraw(before, f"{control.label!r} back to {start['text']!r}")
        except AssertionError as err:
            self.problems.append(str(err))
            return
        self.last = after
        self.problems += check_figure(self.lab, after, f"after moving {control.label!r} back")
        if slider_state(control)["now"] != start["now"]:
            self.problems.append(f"{self.lab}: {control.label!r} did not come back to {start['text']!r}")

    def check_extreme(self, control: Control, end: str) -> None:
        state = slider_state(control)
        if state["now"] != state[end]:
            self.problems.append(f"{self.lab}: {control.label!r} did not reach its {end}imum ({state})")

    def check_smallest(self, control: Control, value: str) -> None:
        """The extremes the lessons need: d_k = 1 and a valid length (real tokens of a sentence) of 1."""
        label = normalise_label(control.label)
        if (label.startswith("dk") or re.search(r"valid|realtoken", label)) and value != "1":
            self.problems.append(f"{self.lab}: the smallest {control.label!r} is {value!r}, not 1")

    def dropdown(self, control: Control) -> None:
        """Every option, then the first one again."""
        select = control.locator.locator("select")
        labels = [t.strip() for t in select.locator("option").all_inner_texts()]
        first = select.evaluate("s => s.options[s.selectedIndex]?.text ?? ''").strip()
        for label in [*(lab for lab in labels if lab != first), first]:
            self._do(control, f"select {label!r}", lambda label=label: select.select_option(label=label),
                     lambda label=label: label)  # fmt: skip

    def buttons(self, control: Control) -> None:
        """Toggle buttons / radio buttons: every option, then the first one again."""
        if control.kind == "radio":
            options = control.locator.locator(".widget-radio-box label").all()
            names = [o.inner_text().strip() for o in options]
            first = next(
                (n for o, n in zip(options, names, strict=True) if o.locator("input").is_checked()), ""
            )
        else:
            options = control.locator.locator("button").all()
            names = [o.inner_text().strip() for o in options]
            first = next(
                (
                    n
                    for o, n in zip(options, names, strict=True)
                    if "mod-active" in (o.get_attribute("class") or "")
                ),
                "",
            )
        order = [n for n in names if n != first] + ([first] if first else [])
        for name in order:
            option = options[names.index(name)]
            self._do(control, f"choose {name!r}", option.click, lambda name=name: name)

    def flip(self, control: Control) -> None:
        """Checkboxes and toggle buttons: on, then off again."""
        target = control.locator.locator("input") if control.kind == "checkbox" else control.locator
        for action in ("click", "click back"):
            self._do(control, action, target.click, lambda: "")

    def exercise(self) -> list[str]:
        """Move every control of the lab; return the problems found (empty: all good)."""
        self.last = self.lab.snapshot()
        self.problems += check_figure(self.lab, self.last, "as first shown")
        controls = self.lab.controls()
        if not controls:
            self.problems.append(f"{self.lab}: no controls found")
        for control in controls:
            if control.kind == "slider":
                self.slider(control)
            elif control.kind == "dropdown":
                self.dropdown(control)
            elif control.kind in ("togglebuttons", "radio"):
                self.buttons(control)
            else:
                self.flip(control)
        return self.problems
