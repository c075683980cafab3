"""Shared fixtures: a fresh seeded Generator per test, and the Agg backend for every plot."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture
def rng() -> np.random.Generator:
    return np.random.default_rng(20261129)
