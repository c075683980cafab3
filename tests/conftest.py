"""Shared fixtures: a fresh seeded Generator per test, the Agg backend for every plot, one hypothesis profile."""

from __future__ import annotations

import os

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
