"""attnlib.core.cosine_similarity, added for notebook 01: known answers, properties, errors."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib.core import cosine_similarity


def test_known_answer_2x2():
    """Rows (3, 4) and (4, 3) both have length 5; their dot product is 12 + 12 = 24, so cos = 24/25."""
    A = np.array([[3.0, 4.0], [4.0, 3.0]])
    assert np.allclose(cosine_similarity(A), [[1.0, 0.96], [0.96, 1.0]])


def test_known_answer_against_b():
    """(1, 0) vs (0, 2): orthogonal, cos 0; (1, 0) vs (-3, 0): opposite, cos -1; (1, 1) vs (0, 2): 2/(√2·2)."""
    A = np.array([[1.0, 0.0], [1.0, 1.0]])
    B = np.array([[0.0, 2.0], [-3.0, 0.0]])
    assert np.allclose(cosine_similarity(A, B), [[0.0, -1.0], [1 / np.sqrt(2), -1 / np.sqrt(2)]])


def test_properties(rng):
    X = rng.normal(size=(6, 5))
    C = cosine_similarity(X)
    assert C.shape == (6, 6)
    assert np.allclose(C, C.T) and np.allclose(np.diag(C), 1.0)
    assert (np.abs(C) <= 1 + 1e-12).all()
    # lengths do not matter: rescaling the rows by positive numbers changes nothing
    assert np.allclose(cosine_similarity(X * rng.uniform(0.1, 10, size=(6, 1))), C)
    # the dot product of the unit rows, by hand
    unit = X / np.linalg.norm(X, axis=1, keepdims=True)
    assert np.allclose(C, unit @ unit.T)


def test_batch_axes_and_lists(rng):
    A = rng.normal(size=(2, 3, 4))
    B = rng.normal(size=(2, 5, 4))
    C = cosine_similarity(A, B)
    assert C.shape == (2, 3, 5)
    assert np.allclose(C[1], cosine_similarity(A[1], B[1]))
    assert np.allclose(cosine_similarity([[1, 0], [0, 1]]), np.eye(2))
    assert attnlib.cosine_similarity is cosine_similarity


@pytest.mark.parametrize(
    ("A", "B", "match"),
    [
        (np.ones((2, 3)), np.ones((2, 4)), r"B has d=4 but A has d=3; expected B \(\.\.\., T_b, 3\), got \(2, 4\)"),
        (np.array([[1.0, 0.0], [0.0, 0.0]]), None, r"A has a zero row \(at index \(1,\)\)"),
        (np.ones((2, 2)), np.zeros((1, 2)), r"B has a zero row"),
        (np.ones(3), None, r"A must have shape \(\.\.\., T_a, d\): at least 2 axes"),
        (np.array([[1.0, np.nan]]), None, r"A contains NaN"),
    ],
)
def test_errors(A, B, match):
    with pytest.raises(ValueError, match=match):
        cosine_similarity(A, B)


def test_type_error_for_text():
    with pytest.raises(TypeError, match="A must be an array of real numbers"):
        cosine_similarity([["a", "b"]])
