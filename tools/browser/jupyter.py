"""JupyterLab for the browser tests and the benchmarks: start a server on a folder, open a notebook, wait
until its kernel is *really* idle (the toolbar says "idle" before the kernel can take a Run All, which is
then silently dropped), run every cell, wait until the run really finished, and collect what went wrong.
"""

from __future__ import annotations

import os
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
RUN_TIMEOUT_S = 120  # a whole notebook; each is meant to finish in well under 30 s


def notebook_names(folder: Path = NOTEBOOKS) -> list[str]:
    """The notebooks to test, in reading order (file names, relative to ``folder``)."""
    return sorted(p.name for p in folder.glob("*.ipynb"))


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


# True once ``code``, run in the kernel again each time it has answered (one request in flight), printed ``want``.
_PRINTS = """
([code, want]) => {
  const ask = window.__attnAsk;
  if (ask.out !== null && ask.out.trim() === want) return true;
  if (!ask.busy) {
    ask.busy = true;
    const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
    const future = kernel.requestExecute({ code, silent: false, store_history: false });
    let out = '';
    future.onIOPub = (msg) => { if (msg.header.msg_type === 'stream') out += msg.content.text; };
    future.done.then(() => { ask.out = out; ask.busy = false; }, (err) => { ask.out = String(err); ask.busy = false; });
  }
  return false;
}
"""


def kernel_prints(page, code: str, want: str, timeout_s: float = 10) -> bool:
    """Whether ``code`` run in the kernel comes to print ``want`` (stripped) within ``timeout_s``.

    For state the page sends the kernel: ipywidgets may hold a change back until the kernel is idle, so a
    single request can overtake it. The wait ends on the kernel's answer, not after a fixed time.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate("() => { window.__attnAsk = {busy: false, out: null}; }")
    try:
        page.wait_for_function(_PRINTS, arg=[code, want.strip()], timeout=timeout_s * 1000)
    except PlaywrightTimeout:
        return False
    return True

