"""The package as a whole: light import, data loading, and the environment files."""

from __future__ import annotations

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


def test_every_data_file_is_described_and_loads_without_pickle():
    readme = (ROOT / "data" / "README.md").read_text(encoding="utf-8")
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


