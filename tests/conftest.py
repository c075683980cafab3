"""Shared fixtures: a fresh seeded Generator per test, the Agg backend for every plot, one hypothesis profile."""

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
