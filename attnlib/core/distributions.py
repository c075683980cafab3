"""Softmax and what it makes: rows of weights that are probability distributions.

``softmax`` turns scores into weights; ``entropy`` measures how spread a row is; ``softmax_jacobian``
and ``softmax_saturation`` show why a peaked softmax passes back no gradient (notebook 05);
``softmax_backward`` carries a gradient back through softmax, the step every attention backward takes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import tr
from ..validation import as_float_array, check_finite, check_min_ndim, first_index

__all__ = ["entropy", "softmax", "softmax_backward", "softmax_jacobian", "softmax_saturation"]


def softmax(x: Any, axis: int = -1) -> np.ndarray:
    """Turn scores into weights that are non-negative and sum to 1 along `axis`.

    ``softmax(x)_i = exp(x_i - m) / Σ_j exp(x_j - m)`` with ``m = max_j x_j``.
    Subtracting the maximum changes nothing mathematically (it cancels between numerator and
    denominator) but keeps every exponent ≤ 0, so nothing overflows even at scores of 1e4.
    Entries equal to ``-inf`` (masked) get weight exactly 0. In exact arithmetic every finite score gets
    a positive weight; in floating point a score more than about 745 below the row maximum (float64;
    104 in float32, 17 in float16) underflows to weight exactly 0. The dtype of `x` is kept.

    Parameters
    ----------
    x : array_like
        Scores; ``-inf`` means masked.
    axis : int
        The axis that sums to 1 (the keys: the last one).

    Returns
    -------
    weights : ndarray
        The dtype of a float input is kept.

    Raises
    ------
    TypeError
        Non-numeric input, or an axis that is not a whole number.
    ValueError
        NaN or ``+inf`` in `x`, a missing or empty axis, or a slice that is entirely ``-inf``
        (everything masked: 0/0 has no answer).

    Shapes:
        x (..., n) -> weights (..., n)   (any axis may be chosen)

    Taught in: 02 §1
    """
    x = as_float_array(x, "x", expected="(..., n)")
    if x.ndim == 0:
        raise ValueError(tr("x must have at least 1 axis (a vector of scores); got a single number"))
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(tr("axis must be a whole number; got {axis!r}").format(axis=axis))
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(tr("axis={axis} does not exist for x of shape "
                            "{shape}").format(axis=axis, shape=x.shape))
    axis = int(axis) % x.ndim
    if x.shape[axis] == 0:
        raise ValueError(
            tr("x has no entries along axis {axis} (shape {shape}): nothing to normalise").format(
                axis=axis, shape=x.shape
            )
        )
    check_finite(x, "x", allow_neg_inf=True)
    m = np.max(x, axis=axis, keepdims=True)
    dead = np.isneginf(m)
    if dead.any():
        where = tuple(i for k, i in enumerate(first_index(dead)) if k != axis)
        raise ValueError(
            tr("x has a slice along axis {axis} that is entirely -inf (at index {index}): "
               "every position is masked, so the weights would be 0/0. Leave at least one unmasked.").format(
                axis=axis, index=where
            )
        )
    with np.errstate(over="ignore"):  # in float16, x - m may overflow to -inf: weight 0, as it should
        e = np.exp(x - m)
    e /= np.sum(e, axis=axis, keepdims=True)
    return e


def entropy(weights: Any, axis: int = -1) -> np.ndarray:
    """Shannon entropy ``-Σ p log p`` (in nats) of each distribution along `axis`.

    0 for a one-hot row, ``log n`` for a uniform row over n entries; ``0 · log 0`` counts as 0.

    Parameters
    ----------
    weights : array_like
        Non-negative rows (usually summing to 1).
    axis : int
        The axis of each distribution.

    Returns
    -------
    ndarray

    Raises
    ------
    ValueError
        NaN, infinity, or a negative entry.

    Shapes:
        weights (..., n) -> (...)

    Taught in: 02 §5
    """
    p = as_float_array(weights, "weights", expected="(..., n)")
    check_finite(p, "weights")
    if (p < 0).any():
        raise ValueError(tr("weights must be >= 0 (a probability distribution); found a negative entry"))
    logp = np.log(np.where(p > 0, p, 1.0))
    return -np.sum(p * logp, axis=axis)


def softmax_jacobian(weights: Any) -> np.ndarray:
    """The Jacobian ``∂p_i/∂s_j = p_i (δ_ij − p_j)``, i.e. ``diag(p) − p·pᵀ``, of softmax at `p`.

    When softmax saturates (p one-hot) every entry goes to 0: no gradient flows back to the scores.

    Parameters
    ----------
    weights : array_like
        p = softmax(s), one distribution per row.

    Returns
    -------
    jacobian : ndarray

    Raises
    ------
    ValueError
        No axis, NaN or infinity.

    Shapes:
        weights (..., n) -> jacobian (..., n, n)

    Taught in: 05 §4
    """
    p = as_float_array(weights, "weights", expected="(..., n)")
    check_min_ndim(p, "weights", expected="(..., n)", min_ndim=1)
    check_finite(p, "weights")
    eye = np.eye(p.shape[-1], dtype=p.dtype)
    return p[..., :, None] * eye - p[..., :, None] * p[..., None, :]


def softmax_backward(weights: Any, grad: Any) -> np.ndarray:
    """Carry a gradient back through softmax: ``∂L/∂s = p ⊙ (g − (p·g)·1)``, row by row.

    With ``p = softmax(s)`` and ``g = ∂L/∂p``, this is ``Jᵀ·g`` for the Jacobian ``J = diag(p) − p·pᵀ``
    of :func:`softmax_jacobian`, without building J. Masked entries (p = 0) pass no gradient.

    Parameters
    ----------
    weights : array_like
        p = softmax(s), one distribution per row.
    grad : array_like
        g, the gradient of the loss with respect to the weights, of the same shape.

    Returns
    -------
    ndarray
        The gradient of the loss with respect to the scores s.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        No axis, shapes that differ, NaN or infinity.

    Shapes:
        weights (..., n), grad (..., n) -> (..., n)

    Serves: the backward passes of attnlib.core.training and attnlib.gpt, not called in the notebooks.
    """
    p = as_float_array(weights, "weights", expected="(..., n)")
    g = as_float_array(grad, "grad", expected="(..., n)")
    check_min_ndim(p, "weights", expected="(..., n)", min_ndim=1)
    if g.shape != p.shape:
        raise ValueError(
            tr("grad must have the shape of weights, {want}: one entry per weight; got {shape}").format(
                want=p.shape, shape=g.shape
            )
        )
    check_finite(p, "weights")
    check_finite(g, "grad")
    return p * (g - np.sum(p * g, axis=-1, keepdims=True))


def softmax_saturation(scores: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How peaked ``p = softmax(scores)`` is, three ways: largest weight, entropy, gradient size.

    The gradient size is the Frobenius norm of the softmax Jacobian ``J = diag(p) − p·pᵀ``, which
    carries every gradient from the weights back to the scores. It is computed without building J:
    ``‖J‖² = Σp² − 2Σp³ + (Σp²)²``. Uniform weights over n keys give ``1/n``, ``log n`` and
    ``√(1/n − 1/n²)``; a one-hot row (saturated softmax) gives ``1``, ``0`` and ``0``.

    Parameters
    ----------
    scores : array_like
        One row of scores per query.

    Returns
    -------
    max_weight, entropy, jacobian_norm : ndarray

    Raises
    ------
    TypeError, ValueError
        As for :func:`softmax`.

    Shapes:
        scores (..., n) -> max_weight (...), entropy (...), jacobian_norm (...)

    Taught in: 05 §3
    """
    p = softmax(scores, axis=-1)
    p2 = np.sum(p * p, axis=-1)
    squared = p2 - 2.0 * np.sum(p**3, axis=-1) + p2 * p2
    return p.max(axis=-1), entropy(p, axis=-1), np.sqrt(np.maximum(squared, 0.0))
