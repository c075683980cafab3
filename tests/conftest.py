"""Shared fixtures: a fresh seeded Generator per test, the Agg backend for every plot, one hypothesis profile,
and the pinned npm packages the site, deck and font tests build with (installed once per session); and the
``repo`` marker's rule: a run with ``-m "not repo"`` does not import a module marked ``repo`` as a whole.

``tests`` is a package: pytest puts the folder above it on ``sys.path`` (the repository's root, or
build/wheel/ in the run against the wheel, where no attnlib source lies), so tests import their shared
modules as ``tests.<name>``, and the publishing tools as ``tools.<name>``.
"""

from __future__ import annotations

import ast
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")

# Property tests: enough cases to find a wrong axis, no per-case deadline (CI machines vary).
settings.register_profile("series", max_examples=60, deadline=None)
settings.load_profile("series")


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)


@pytest.fixture
def plot_style():
    """The series' style on the Agg backend, a missing glyph an error, every figure closed afterwards."""
    import matplotlib.pyplot as plt

    from attnlib import plot

    with plot.use_style(), warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing CJK glyph warns: fail instead
        yield
    plt.close("all")


@pytest.fixture
def zh_hans():
    """attnlib speaks Simplified Chinese for one test."""
    import attnlib

    with attnlib.set_language("zh-Hans"):
        yield


@pytest.fixture(scope="session")
def page_packages() -> None:
    """The npm packages the site and the decks are built with (MathJax, MiniSearch, reveal.js), installed
    once by ``npm ci``; without npm a test that builds pages is skipped, and fails in CI."""
    from tests.harness import npm_packages

    npm_packages("the tests that build pages")


@pytest.fixture(scope="session")
def all_npm_packages() -> None:
    """Every pinned npm package, the sources of committed data too (the font package)."""
    from tests.harness import npm_packages

    npm_packages("the tests that rebuild committed data", dev=True)


@pytest.fixture
def repo(tmp_path):
    """The ``Paths`` of a made-up series for tools.translate in a temporary folder (tests/translation_cases.py)."""
    from tests.translation_cases import made_up_repo

    return made_up_repo(tmp_path)


# ---- the `repo` marker: what only the source checkout can run -------------------------------------------


def marked_repo_whole(path: Path) -> bool:
    """Whether the test module at `path` says ``pytestmark = pytest.mark.repo`` (read, not imported)."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            return any(isinstance(n, ast.Attribute) and n.attr == "repo" for n in ast.walk(node.value))
    return False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A run that leaves out the ``repo`` tests (``-m "not repo"``, as ``make wheel`` does) does not import a
    module marked ``repo`` as a whole: it may import ``tools/``, which only the checkout has."""
    if (collection_path.suffix == ".py" and collection_path.name.startswith("test_")
            and config.getoption("markexpr") == "not repo" and marked_repo_whole(collection_path)):
        return True
    return None
