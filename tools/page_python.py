"""Python in the page: the files a built site serves so that its exercises run in the reader's browser.

``write_runtime(out)`` writes, into a site's folder ``out`` (``make site`` calls it once; every edition
reaches it at ``<root>py/``):

- ``py/pyodide.js``, ``pyodide.asm.js``, ``pyodide.asm.wasm``, ``python_stdlib.zip``, ``pyodide-lock.json``:
  Pyodide 0.27.7 (CPython 3.12 in WebAssembly, MPL-2.0), from the pinned npm package ``pyodide``;
- ``py/numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl``: numpy for Pyodide, vendored in tools/vendor/
  (``tools/vendor_numpy.py``) and checked against the SHA-256 that ``pyodide-lock.json`` names before it is
  copied (Pyodide checks it again when the page loads it);
- ``py/attnlib_page.zip``: the pure-Python parts of attnlib the page's Python imports (the core, the
  exercises and their runner, the catalogues of the three languages, the small data files the exercises
  load), unpacked into site-packages by the worker; written byte for byte the same on every build;
- ``py/worker.js``: the Web Worker that runs the learner's code (``attnlib/page/python_worker.js``);
- ``py/manifest.json``: every file above with its size and SHA-256, their total, and a version (16 hex
  digits of a hash of them all) that changes whenever one of them does; ``py/LICENSES.txt`` says under
  which licence each file is;
- ``assets/editor.js``: the code editor (CodeMirror 6, ``attnlib/page/editor.js``) bundled by esbuild into
  one minified classic script that defines the global ``AttnEditor``, and ``assets/editor.LICENSES.txt``,
  the licences of the npm packages inside it.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import npm, vendor_numpy

ROOT = Path(__file__).resolve().parent.parent
ATTNLIB = ROOT / "attnlib"
WORKER = ATTNLIB / "page" / "python_worker.js"
EDITOR = ATTNLIB / "page" / "editor.js"
# The pinned npm packages (package.json) of the page's Python: Pyodide, copied into py/; CodeMirror (and
# its highlighting tags, @lezer/highlight), which attnlib/page/editor.js imports; esbuild, which bundles it.
NPM_PACKAGES = (
    "pyodide", "codemirror", "@codemirror/commands", "@codemirror/lang-python", "@codemirror/language",
    "@codemirror/state", "@codemirror/view", "@lezer/highlight", "esbuild",
)  # fmt: skip
RUNTIME = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PAGE_ZIP = "attnlib_page.zip"
MANIFEST = "manifest.json"
# What the page's Python imports of attnlib (globs inside attnlib/): nothing that needs matplotlib,
# ipywidgets or a model's weights.
PAGE_MODULES = (
    "__init__.py", "checks.py", "data.py", "i18n.py", "validation.py",
    "core/*.py", "exercises/*.py", "locale/*/*.json",
)  # fmt: skip
# The small files of data/ that the exercises and the scratch cells load (attnlib/datasets/ once installed).
PAGE_DATA = ("green_grass.json", "zao_shang_hao.json")
ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # every entry's timestamp: the same zip from the same files
# What py/ holds, under which licence (a note beside the files; the page does not fetch it).
LICENCES = """The files of this folder and their licences:

- pyodide.js, pyodide.asm.js, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json: Pyodide {version}
  (the npm package pyodide), under the Mozilla Public License 2.0; its source is the Pyodide project's.
  It contains CPython 3.12 (Python Software Foundation License Version 2).
- {wheel}: numpy 2.0.2 built for Pyodide, under the BSD 3-Clause licence
  (numpy-2.0.2.dist-info/LICENSE.txt inside the wheel, a zip file).
- attnlib_page.zip, worker.js: parts of attnlib, under the MIT licence of the series.
"""


class RuntimeBuildError(RuntimeError):
    """A file of the page's Python is missing, or cannot be built (Node, esbuild)."""


def page_files() -> dict[str, Path]:
    """``{name in the zip: source file}`` of ``attnlib_page.zip``: paths under ``attnlib/``."""
    files = {}
    for pattern in PAGE_MODULES:
        chosen = sorted(p for p in ATTNLIB.glob(pattern) if p.is_file())
        if not chosen:
            raise RuntimeBuildError(f"attnlib/{pattern}: no file matches, but the page's Python needs it")
        files.update({f"attnlib/{p.relative_to(ATTNLIB).as_posix()}": p for p in chosen})
    for name in PAGE_DATA:
        files[f"attnlib/datasets/{name}"] = ROOT / "data" / name
    return dict(sorted(files.items()))


def page_zip() -> bytes:
    """``attnlib_page.zip``: the files of :func:`page_files`, sorted, with one fixed timestamp and mode."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, path in page_files().items():
            info = zipfile.ZipInfo(name, date_time=ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes(), compresslevel=9)
    return buffer.getvalue()


def node() -> str:
    found = shutil.which("node")
    if found is None:
        raise RuntimeBuildError(
            "Bundling the page's code editor needs Node.js, which was not found. "
            "Install it (Debian/Ubuntu: apt-get install nodejs) and run the build again."
        )
    return found


def bundle_editor(entry: Path, target: Path, log: Callable[[str], Any] = print) -> None:
    """Bundle the ES module ``entry`` and the npm packages it imports into ``target``: one minified classic
    script (IIFE, ES2020) that defines the global ``AttnEditor``; the licences of those packages go beside
    it (``editor.LICENSES.txt``)."""
    esbuild = npm.package_dir("esbuild", "make site", log) / "bin" / "esbuild"
    target.parent.mkdir(parents=True, exist_ok=True)
    meta = target.with_suffix(".meta.json")
    licences = target.with_name(f"{target.stem}.LICENSES.txt")
    args = [node(), str(esbuild), str(entry), "--bundle", "--format=iife", "--global-name=AttnEditor",
            "--minify", "--target=es2020", "--charset=utf8", "--legal-comments=none", "--log-level=warning",
            f"--banner:js=/* AttnEditor: CodeMirror 6 (MIT) and its parts; licences in {licences.name} */",
            f"--metafile={meta}", f"--outfile={target}"]  # fmt: skip
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    try:
        if done.returncode != 0:
            raise RuntimeBuildError(f"esbuild could not bundle {entry.name}:\n{done.stderr.strip()}")
        inputs = json.loads(meta.read_text(encoding="utf-8"))["inputs"]
    finally:
        meta.unlink(missing_ok=True)
    licences.write_text(licence_notes(inputs), encoding="utf-8")


def licence_notes(inputs: dict[str, Any]) -> str:
    """The licence texts of the npm packages among esbuild's ``inputs`` (paths through node_modules/)."""
    packages = set()
    for path in inputs:
        parts = Path(path).parts
        if "node_modules" in parts:
            at = len(parts) - 1 - parts[::-1].index("node_modules")
            scoped = parts[at + 1].startswith("@")
            packages.add("/".join(parts[at + 1 : at + (3 if scoped else 2)]))
    notes = []
    for name in sorted(packages):
        folder = npm.MODULES / name
        meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        texts = sorted(p for p in folder.iterdir() if p.name.upper().startswith(("LICENSE", "LICENCE")))
        body = texts[0].read_text(encoding="utf-8").strip() if texts else f"Licence: {meta.get('license')}"
        notes.append(f"{name} {meta['version']} ({meta.get('license')})\n\n{body}\n")
    return ("\n" + "-" * 72 + "\n\n").join(notes)


def manifest(folder: Path, names: list[str]) -> dict[str, Any]:
    """``{"version", "files": [{"name", "bytes", "sha256"}, ...], "bytes"}`` of the files ``names`` of
    ``folder``: the version is 16 hex digits of a SHA-256 of every name and hash."""
    files = []
    for name in sorted(names):
        data = (folder / name).read_bytes()
        files.append({"name": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    summary = "".join(f"{f['name']} {f['sha256']}\n" for f in files)
    return {
        "version": hashlib.sha256(summary.encode("utf-8")).hexdigest()[:16],
        "files": files,
        "bytes": sum(f["bytes"] for f in files),
    }


def write_runtime(out: Path, log: Callable[[str], Any] = print) -> dict[str, Any]:
    """Write ``out/py/`` and ``out/assets/editor.js`` (listed in the module's docstring); return the manifest.

    ``py/`` is written anew, so no file of an earlier runtime stays. Raises RuntimeBuildError for a missing
    file or a failed bundle, and vendor_numpy.VendorError when the numpy wheel is not the one the lock names.
    """
    if not isinstance(out, Path):
        raise TypeError(f"out must be a pathlib.Path (the site's folder); got {type(out).__name__}")
    start = time.perf_counter()
    pyodide = npm.package_dir("pyodide", "make site", log)
    wheel = vendor_numpy.vendored(pyodide / "pyodide-lock.json")  # checked against the lock
    for source in (WORKER, EDITOR):
        if not source.is_file():
            raise RuntimeBuildError(f"{source.relative_to(ROOT)} is missing: the page's Python needs it")
    py = out / "py"
    shutil.rmtree(py, ignore_errors=True)
    py.mkdir(parents=True)
    for name in RUNTIME:
        shutil.copyfile(pyodide / name, py / name)
    shutil.copyfile(wheel, py / wheel.name)
    (py / PAGE_ZIP).write_bytes(page_zip())
    shutil.copyfile(WORKER, py / "worker.js")
    (py / "LICENSES.txt").write_text(LICENCES.format(version=npm.version("pyodide"), wheel=wheel.name),
                                     encoding="utf-8")
    listed = manifest(py, [*RUNTIME, wheel.name, PAGE_ZIP, "worker.js"])
    (py / MANIFEST).write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")
    bundle_editor(EDITOR, out / "assets" / "editor.js", log)
    log(f"wrote py/ (Pyodide {npm.version('pyodide')}, numpy, attnlib: {listed['bytes'] / 1e6:.1f} MB) "
        f"and assets/editor.js in {time.perf_counter() - start:.1f} s")
    return listed
