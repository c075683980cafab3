"""The package as a whole: light import, data loading, what a wheel carries, and the environment files.

Tests marked ``repo`` need the source checkout (pyproject.toml, tools/, the committed data/); the run
against the installed wheel (``make wheel``) leaves them out, and runs the rest on the installed copy.
"""

from __future__ import annotations

import importlib.resources
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import attnlib
from attnlib import data
from attnlib.labs import Lab

ROOT = Path(__file__).resolve().parent.parent


def test_import_attnlib_loads_no_plotting_or_widgets():
    code = "import sys, attnlib, attnlib.core; print(sorted(m for m in ('matplotlib', 'seaborn', 'ipywidgets') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_submodules_load_on_first_use():
    assert attnlib.plot.heatmap is not None and attnlib.labs.Lab is Lab
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        attnlib.nope  # noqa: B018


def test_attnlib_and_its_data_come_from_where_this_run_expects():
    """In the source tree the data is the top-level data/; a wheel installs it as attnlib/datasets/.

    ``make wheel`` sets ATTNLIB_WHEEL_TEST=1: then attnlib must be the copy installed in the running
    virtual environment, not the source tree.
    """
    package = Path(attnlib.__file__).resolve().parent
    if os.environ.get("ATTNLIB_WHEEL_TEST") == "1":
        assert package.is_relative_to(Path(sys.prefix).resolve()), f"attnlib imported from {package}, not {sys.prefix}"
        assert data.DATA_DIR == package / "datasets"
    else:
        assert data.DATA_DIR == package.parent / "data" == ROOT / "data"


def test_the_package_carries_its_files():
    """What the wheel must ship beside the Python modules: data, the labs' ES modules, the font."""
    assert {"glove_6b_50d_subset", "green_grass", "minilm_attention", "tang_poems", "zao_shang_hao"} <= set(data.available())
    assert (data.DATA_DIR / "README.md").is_file()
    from attnlib.page import MODULES

    package = importlib.resources.files("attnlib")  # every page module (labs, the quiz) and the kit they share
    assert "quiz" in MODULES and all(package.joinpath(m.file).is_file() for m in MODULES.values())
    assert package.joinpath("page/kit.js").is_file()
    assert importlib.resources.files("attnlib.quiz").joinpath("bank.json").is_file()  # the questions (data)
    fonts = importlib.resources.files("attnlib") / "fonts"
    assert fonts.joinpath("NotoSansSC-Subset.ttf").is_file() and fonts.joinpath("OFL.txt").is_file()
    assert importlib.import_module("attnlib.exercises").__all__


def test_every_data_file_is_described_and_loads_without_pickle():
    readme = (data.DATA_DIR / "README.md").read_text(encoding="utf-8")
    names = data.available()
    assert names
    for name in names:
        assert re.search(rf"`{re.escape(name)}\.(json|npz)`", readme), f"{name} is not described in data/README.md"
        loaded = data.load(name)
        assert isinstance(loaded, dict) and loaded


def test_glove_subset_has_the_documented_similarities():
    glove = data.load("glove_6b_50d_subset")
    assert glove["words"].dtype.kind == "U" and glove["vectors"].shape == (len(glove["words"]), 50)
    vec = dict(zip(glove["words"].tolist(), glove["vectors"].astype(float), strict=True))

    def cos(a, b):
        return vec[a] @ vec[b] / np.linalg.norm(vec[a]) / np.linalg.norm(vec[b])

    assert cos("king", "queen") == pytest.approx(0.784, abs=1e-3)
    assert cos("apple", "banana") == pytest.approx(0.561, abs=1e-3)
    assert cos("king", "apple") < cos("apple", "banana") < cos("king", "queen")


def test_data_load_reports_missing_files():
    with pytest.raises(FileNotFoundError, match="no data file named 'nope'; available: .*glove_6b_50d_subset"):
        data.load("nope")
    with pytest.raises(TypeError, match="name must be a string"):
        data.load(3)


def _requirements(items):
    """name -> version constraint, e.g. {"numpy": ">=1.26"}; names as pip normalises them."""
    out = {}
    for item in items:
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*([<>=!~].*)", item.strip())
        if m:
            out[m[1].lower().replace("_", "-")] = m[2].replace(" ", "")
    return out


@pytest.mark.repo
def test_pyproject_lists_every_package_and_maps_the_data_folder():
    """setuptools is given the packages by name (a find cannot map data/ to attnlib.datasets)."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {
        ".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "attnlib").rglob("__init__.py")
    }
    assert set(setuptools["packages"]) == found | {"attnlib.datasets"}, "update packages in pyproject.toml"
    assert setuptools["package-dir"] == {"attnlib.datasets": "data"}
    assert not (ROOT / "attnlib" / "datasets").exists(), "attnlib/datasets is made by the wheel, from data/"


@pytest.mark.repo
def test_committed_archives_are_what_write_npz_writes(tmp_path):
    """Each data/*.npz, rewritten from its own arrays by the tools' write_npz, comes back byte for byte:
    so a rebuild with the same numbers gives the same file, and its SHA-256 can be compared."""
    from tools.artifacts import file_digest, write_npz

    archives = sorted((ROOT / "data").glob("*.npz"))
    assert archives
    for path in archives:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
        write_npz(tmp_path / path.name, dict(reversed(arrays.items())))  # the order given does not matter
        assert file_digest(tmp_path / path.name).hexdigest() == file_digest(path).hexdigest(), path.name
    with pytest.raises(ValueError, match="array 'words' has dtype object"):
        write_npz(tmp_path / "bad.npz", {"words": np.array(["a", None], dtype=object)})
    assert not (tmp_path / "bad.npz").exists()


@pytest.mark.repo
def test_environment_yml_matches_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    deps = _requirements(project["dependencies"])
    assert all(re.search(r"(>=|==)\s*[0-9]", d) for d in project["dependencies"]), "every dependency needs a minimum version"
    conda_deps = _requirements(conda)
    assert conda_deps.pop("python") == project["requires-python"]
    assert conda_deps == deps
    assert env["channels"] == ["conda-forge"]
    assert pip == ["--editable ."]


