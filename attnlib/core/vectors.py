"""Comparing and normalising token vectors: cosine similarity and layer normalisation."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import tr
from ..validation import as_float_array, check_finite, check_min_ndim, first_index

__all__ = ["cosine_similarity", "layer_norm"]


def cosine_similarity(A: Any, B: Any = None) -> np.ndarray:
    """Cosine of the angle between every row of A and every row of B: ``a·b / (|a| |b|)``.

    The dot product with the lengths divided out: 1 for the same direction, 0 for orthogonal rows,
    -1 for opposite ones, whatever the lengths. ``cosine_similarity(X)`` compares X with itself.

    Parameters
    ----------
    A : array_like
        One vector per row.
    B : array_like, optional
        One vector per row, as wide as A's; A when not given.

    Returns
    -------
    ndarray
        Entry (i, j) is the cosine of row i of A and row j of B.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        Fewer than 2 axes, different widths d, NaN or inf, or a zero row (a zero vector has no
        direction, so its cosine is 0/0).

    Shapes:
        A (..., T_a, d), B (..., T_b, d) -> (..., T_a, T_b); B defaults to A

    Taught in: 01 §5
    """
    A = as_float_array(A, "A", expected="(..., T_a, d)")
    check_min_ndim(A, "A", expected="(..., T_a, d)")
    B = A if B is None else as_float_array(B, "B", expected="(..., T_b, d)")
    check_min_ndim(B, "B", expected="(..., T_b, d)")
    if B.shape[-1] != A.shape[-1]:
        raise ValueError(
            tr("B has d={got} but A has d={want}; expected B (..., T_b, {want}), got {shape}").format(
                got=B.shape[-1], want=A.shape[-1], shape=B.shape
            )
        )
    normed = []
    for arr, name in ((A, "A"), (B, "B")):
        check_finite(arr, name)
        length = np.linalg.norm(arr, axis=-1, keepdims=True)
        zero = length[..., 0] == 0
        if zero.any():
            raise ValueError(
                tr("{name} has a zero row (at index {index}): a zero vector has no direction, "
                   "so its cosine with anything is 0/0").format(name=name, index=first_index(zero))
            )
        normed.append(arr / length)
    return np.matmul(normed[0], np.swapaxes(normed[1], -1, -2))


def layer_norm(X: Any, eps: float = 1e-5) -> np.ndarray:
    """Layer normalisation without its learned gain and bias: each row to mean 0 and variance 1.

    ``(x − mean(x)) / √(var(x) + eps)``, row by row. Every row then has length about ``√d``, so a dot
    product of normalised rows no longer rewards long vectors (01 §5); Transformer blocks apply it
    before attention and before the feed-forward network (07 §9).

    Parameters
    ----------
    X : array_like
        One vector per row.
    eps : float
        Added to the variance, so a constant row does not divide by 0.

    Returns
    -------
    normed : ndarray
        Every row with mean 0 and variance about 1.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        No axis, NaN or infinity.

    Shapes:
        X (..., T, d) -> (..., T, d)

    Taught in: 01 §5
    """
    X = as_float_array(X, "X", expected="(..., T, d)")
    check_min_ndim(X, "X", expected="(..., T, d)", min_ndim=1)
    check_finite(X, "X")
    centred = X - X.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred**2, axis=-1, keepdims=True) + eps)
