"""Shared fixtures: a fresh seeded Generator per test, the Agg backend for every plot, one hypothesis profile,
and the pinned npm packages the site, deck and font tests build with (installed once per session).

``tests`` is a package: pytest puts the folder above it on ``sys.path`` (the repository's root, or
build/wheel/ in the run against the wheel, where no attnlib source lies), so tests import their shared
modules as ``tests.<name>``, and the publishing tools as ``tools.<name>``.
"""

from __future__ import annotations

import os
import warnings

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
def repo(tmp_path, monkeypatch):
    """A made-up series for tools/translate.py (tests/translation_cases.py), which it is pointed at."""
    from tests.translation_cases import made_up_repo

    return made_up_repo(tmp_path, monkeypatch)
