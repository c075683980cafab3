"""Helpers for the diagnoses of notebooks 04-07: does the learner's output equal a known wrong answer?"""

from __future__ import annotations

from typing import Any

import numpy as np


def matches(got: Any, wrong: Any, atol: float = 1e-6) -> bool:
    """True when ``got`` has the shape of ``wrong`` and the same numbers (equal infinities count as equal)."""
    try:
        got = np.asarray(got, dtype=float)
        wrong = np.asarray(wrong, dtype=float)
    except (TypeError, ValueError):
        return False
    if got.shape != wrong.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.allclose(got, wrong, atol=atol, rtol=0, equal_nan=True))


def softmax_rows(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """A plain softmax that tolerates all -inf slices (NaN there), for building wrong answers."""
    with np.errstate(all="ignore"):
        m = np.max(scores, axis=axis, keepdims=True)
        e = np.exp(scores - np.where(np.isfinite(m), m, 0.0))
        return e / e.sum(axis=axis, keepdims=True)
