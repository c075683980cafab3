"""attnlib/page/python_worker.js, the page's Python worker, run as it is in Node 20.

A Node worker thread is dressed as a browser's classic Web Worker (``self``, ``postMessage``,
``importScripts``, and a ``fetch`` that serves only the runtime folder written by tools/page_python.py and
records every request; Node's ``process`` is hidden, so Pyodide takes the browser's path). The worker then
loads Pyodide, numpy and attnlib from that folder, and its verdicts must be CPython's, word for word.
Each Node start costs seconds: one run of the worker answers a list of runs (``drive``).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from attnlib.exercises.practice import run
from tests.harness import missing
from tools import page_python

pytestmark = pytest.mark.repo

BASE = "http://site.test/py/"  # the runtime's address as the worker sees it; nothing else is reachable
SHIM = r"""
const { parentPort, workerData } = require("node:worker_threads");
const crypto = require("node:crypto");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { folder, base } = workerData;
const requests = [];
const local = (url) => {
  url = String(url);
  if (!url.startsWith(base)) throw new TypeError(`the test's network has only ${base}; asked for ${url}`);
  return path.join(folder, url.slice(base.length));
};
globalThis.self = globalThis;
globalThis.location = new URL(base + "worker.js");
globalThis.postMessage = (message) => parentPort.postMessage(message);
globalThis.importScripts = (...urls) => {
  for (const url of urls) {
    requests.push({ url: String(url), how: "importScripts" });
    vm.runInThisContext(fs.readFileSync(local(url), "utf8"), { filename: String(url) });
  }
};
globalThis.fetch = async (url, options = {}) => {
  requests.push({ url: String(url), how: "fetch", integrity: options.integrity || null });
  let body;
  try { body = fs.readFileSync(local(url)); } catch (err) { return new Response("", { status: 404 }); }
  if (options.integrity
      && crypto.createHash("sha256").update(body).digest("base64") !== options.integrity.replace(/^sha256-/, "")) {
    throw new TypeError(`integrity check failed for ${url}`);
  }
  const type = String(url).endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  return new Response(body, { status: 200, headers: { "Content-Type": type } });
};
parentPort.on("message", (data) => {
  if (data.type === "requests") parentPort.postMessage({ type: "requests", requests });
  else globalThis.onmessage({ data });
});
delete globalThis.process; // Pyodide must see a browser's worker, not Node
importScripts(base + "worker.js");
"""
# The page's side: init, then each run of the plan once the last is answered, then the requests made.
DRIVER = r"""
const { Worker } = require("node:worker_threads");
const [shim, folder, base, plan] = [process.argv[2], process.argv[3], process.argv[4], JSON.parse(process.argv[5])];
const worker = new Worker(require("node:fs").readFileSync(shim, "utf8"), { eval: true, workerData: { folder, base } });
const began = Date.now();
const log = [];
let next = 0;
const send = () => {
  if (next < plan.length) worker.postMessage({ type: "run", id: next, ...plan[next++] });
  else worker.postMessage({ type: "requests" });
};
worker.on("message", (message) => {
  log.push({ at: Date.now() - began, ...message });
  if (message.type === "requests") {
    process.stdout.write(JSON.stringify(log));
    process.exit(0);
  } else if (message.type !== "progress") {
    send();
  }
});
worker.on("error", (err) => { console.error(String(err)); process.exit(1); });
worker.postMessage({ type: "init", base });
"""

SOFTMAX = "exercises.check_softmax_rows(my_softmax)"
RIGHT = "def my_softmax(s):\n    e = np.exp(s - s.max(axis=-1, keepdims=True))\n    return e / e.sum(axis=-1, keepdims=True)\n"
COLUMNS = "def my_softmax(s):\n    e = np.exp(s - s.max(axis=0))\n    return e / e.sum(axis=0)\n"
OUTWARD = ("fetch", "XMLHttpRequest", "importScripts", "BroadcastChannel", "postMessage", "indexedDB", "caches")
REACH = (
    "import importlib\njs = importlib.import_module('js')  # past the runner's refusal\n"
    f"print([name for name in {OUTWARD!r} if getattr(js, name, None) is not None])\n"
    "js.fetch('http://example.org/')\n"
)
PLAN = [
    {"code": RIGHT + "\n" + SOFTMAX, "check": SOFTMAX, "language": "en"},
    {"code": COLUMNS, "check": SOFTMAX, "language": "en"},
    {"code": COLUMNS, "check": SOFTMAX, "language": "zh-Hans"},
    {"code": COLUMNS, "check": SOFTMAX, "language": "zh-Hant"},
    {"code": "W_q_green, W_k_green = np.zeros((d_model, 2)), np.zeros((d_model, 2))\n"
             "W_q_green[features.index('quality'), 1] = 3.0\nW_k_green[features.index('nature'), 1] = 3.0\n",
     "check": 'exercises.check_projection_puzzle(W_q_green, W_k_green, query="green", key="grass")',
     "language": "zh-Hans"},
    {"code": "def my_softmax(s:\n    return s", "check": SOFTMAX, "language": "en"},
    {"code": "print('a')\nx = np.arange(3)\nx[5]", "check": None, "language": "en"},
    {"code": "import js", "check": None, "language": "en"},
    {"code": REACH, "check": None, "language": "en"},
]


def drive(folder: Path, plan: list[dict], tmp: Path) -> list[dict]:
    """Every message the worker sent for ``init`` and ``plan`` (each with ``at``, ms since the start), and
    last the requests it made."""
    node = shutil.which("node")
    if node is None:
        missing("Node.js (apt-get install nodejs)", "the page's Python worker tests")
    (tmp / "shim.js").write_text(SHIM, encoding="utf-8")
    (tmp / "driver.js").write_text(DRIVER, encoding="utf-8")
    done = subprocess.run([node, str(tmp / "driver.js"), str(tmp / "shim.js"), str(folder), BASE, json.dumps(plan)],
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def runtime(tmp_path_factory, page_packages) -> Path:
    """``py/`` as ``tools.page_python.write_runtime`` writes it (the editor's bundle left out: the worker
    does not need it)."""
    out = tmp_path_factory.mktemp("site")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(page_python, "EDITOR", page_python.WORKER)
        patch.setattr(page_python, "bundle_editor", lambda *args, **kwargs: None)
        page_python.write_runtime(out, log=lambda *_: None)
    return out / "py"


@pytest.fixture(scope="module")
def answered(runtime, tmp_path_factory) -> list[dict]:
    return drive(runtime, PLAN, tmp_path_factory.mktemp("node"))


def results(log: list[dict]) -> list[dict]:
    return [message for message in log if message["type"] in ("result", "crashed")]


def test_progress_counts_the_manifests_bytes_up_to_the_total_then_ready(answered, runtime):
    total = json.loads((runtime / "manifest.json").read_text(encoding="utf-8"))["bytes"]
    progress = [m for m in answered if m["type"] == "progress"]
    assert progress and all(m["total"] == total for m in progress)
    loaded = [m["loaded"] for m in progress]
    assert loaded == sorted(loaded) and loaded[-1] == total and loaded[0] < total
    kinds = [m["type"] for m in answered]
    assert kinds.index("ready") > kinds.index("progress") and "failed" not in kinds
    ready = next(m for m in answered if m["type"] == "ready")
    assert isinstance(ready["ms"], int) and ready["ms"] > 0


def test_the_verdicts_are_cpythons_word_for_word(answered):
    for sent, got in zip(PLAN[:5], results(answered)[:5], strict=True):
        assert got["type"] == "result" and got["id"] == PLAN.index(sent)
        assert got["result"] == run(sent["code"], sent["check"], sent["language"])
    right, en, hans, hant, puzzle = (r["result"]["verdict"] for r in results(answered)[:5])
    assert right["ok"] and not en["ok"] and en["cause"] == hans["cause"] == hant["cause"] == "columns"
    assert len({en["text"], hans["text"], hant["text"]}) == 3 and puzzle["ok"]


def test_a_syntax_error_and_an_exception_name_the_learners_line(answered):
    syntax, exception = (r["result"] for r in results(answered)[5:7])
    assert syntax["error"] == {"kind": "syntax", "line": 1, "message": "SyntaxError: '(' was never closed"}
    assert exception["stdout"] == "a\n" and exception["error"] == {
        "kind": "exception", "line": 3, "message": "IndexError: index 5 is out of bounds for axis 0 with size 3"}


def test_the_learners_code_reaches_neither_the_network_nor_the_page(answered):
    refused, reach = (r["result"] for r in results(answered)[7:9])
    assert refused["error"]["kind"] == "refused"
    assert reach["stdout"] == "[]\n"  # fetch, XMLHttpRequest, importScripts, postMessage ...: all gone
    assert reach["error"] == {"kind": "exception", "line": 4, "message": "AttributeError: fetch"}


def test_each_file_crosses_the_network_once(answered, runtime):
    requests = next(m for m in answered if m["type"] == "requests")["requests"]
    names = [f["name"] for f in json.loads((runtime / "manifest.json").read_text(encoding="utf-8"))["files"]]
    fetches = sorted(r["url"] for r in requests if r["how"] == "fetch")
    assert fetches == sorted(BASE + name for name in ["manifest.json", *names] if name != "worker.js")
    scripts = [r["url"] for r in requests if r["how"] == "importScripts"]
    assert scripts == [BASE + "worker.js", BASE + "pyodide.js", BASE + "pyodide.asm.js"]  # the browser's cache


def test_numpy_is_checked_against_pyodides_lock(runtime, tmp_path):
    """A numpy wheel other than the lock's (its manifest entry made to match) is refused when Pyodide loads
    it from the bytes the worker downloaded."""
    forged = tmp_path / "py"
    shutil.copytree(runtime, forged)
    listed = json.loads((forged / "manifest.json").read_text(encoding="utf-8"))
    (entry,) = [f for f in listed["files"] if f["name"].endswith(".whl")]
    wheel = forged / entry["name"]
    wheel.write_bytes(wheel.read_bytes() + b"\0")
    entry.update(bytes=wheel.stat().st_size, sha256=hashlib.sha256(wheel.read_bytes()).hexdigest())
    listed["bytes"] += 1
    (forged / "manifest.json").write_text(json.dumps(listed), encoding="utf-8")
    log = drive(forged, [], tmp_path)
    failed = [m for m in log if m["type"] == "failed"]
    assert "ready" not in [m["type"] for m in log] and len(failed) == 1
    assert failed[0]["message"] == (f"The following error occurred while loading numpy: {BASE}{entry['name']}: "
                                    "integrity check failed")


def test_a_missing_file_fails_to_start_and_a_run_then_crashes(runtime, tmp_path):
    broken = tmp_path / "py"
    shutil.copytree(runtime, broken)
    (broken / page_python.PAGE_ZIP).unlink()
    log = drive(broken, [{"code": "1", "check": None, "language": "en"}], tmp_path)
    failed = [m for m in log if m["type"] == "failed"]
    assert len(failed) == 1 and failed[0]["message"] == f"{BASE}{page_python.PAGE_ZIP}: HTTP 404"
    assert "ready" not in [m["type"] for m in log]
    assert results(log) == [{"at": results(log)[0]["at"], "type": "crashed", "id": 0,
                             "message": failed[0]["message"]}]
