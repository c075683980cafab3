"""The formula of the series, ``O = softmax(Q·Kᵀ/√d_k + M)·V``, and the projections that make Q, K, V.

Each public function checks its inputs (``attnlib.validation``), then hands them to a kernel of a
few lines that is the formula itself. The kernels work in place on the scores they create, so a
(T_q, T_k) array is allocated once however many steps the formula has: that keeps
``attention`` within a few percent of the bare formula (``benchmarks/attention_speed.py``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..checks import check_generator, check_positive_int
from ..i18n import tr
from ..validation import (
    as_float_array,
    check_attention_inputs,
    check_finite,
    check_mask,
    check_min_ndim,
    check_row_maxima,
)
from .masks import _block_masked

__all__ = ["attention", "attention_weights", "init_projections", "project", "scores", "self_attention"]


# ---- the kernels: the formula, on checked arrays -------------------------------------------------


def _scores(Q: np.ndarray, K: np.ndarray, keep: np.ndarray | None, scale: bool) -> np.ndarray:
    """Q·Kᵀ/√d_k + M, with M = -inf where ``keep`` is False."""
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported by name in _softmax_rows
        s = Q @ np.swapaxes(K, -1, -2)  # (..., T_q, T_k)
    if scale:
        s /= math.sqrt(Q.shape[-1])  # in place: no second (T_q, T_k) array
    return s if keep is None else _block_masked(s, keep)  # + M


def _softmax_rows(s: np.ndarray) -> np.ndarray:
    """softmax over the last axis, in place: exp(s − max) / Σ exp(s − max)."""
    row_max = s.max(axis=-1, keepdims=True)  # (..., T_q, 1)
    check_row_maxima(row_max)
    with np.errstate(over="ignore"):  # float16: s − max may overflow to -inf, which is weight 0
        s -= row_max
    np.exp(s, out=s)
    s /= s.sum(axis=-1, keepdims=True)
    return s  # (..., T_q, T_k), every row summing to 1


def _keep(mask: Any, Q: np.ndarray, K: np.ndarray) -> np.ndarray | None:
    if mask is None:
        return None
    shape = (*np.broadcast_shapes(Q.shape[:-2], K.shape[:-2]), Q.shape[-2], K.shape[-2])
    return check_mask(mask, shape)


# ---- the public functions ------------------------------------------------------------------------


def scores(Q: Any, K: Any, mask: Any = None, *, scale: bool = True) -> np.ndarray:
    """The attention scores ``Q·Kᵀ/√d_k + M``: how well each query matches each key.

    Parameters
    ----------
    Q : array_like
        Queries, one row per query token.
    K : array_like
        Keys, one row per key token.
    mask : array_like, optional
        Boolean (True where query i may attend to key j) or the additive float M (0 allowed,
        ``-inf`` blocked); blocked scores become ``-inf``.
    scale : bool
        Divide by √d_k (True, as in the paper) or not (for experiments).

    Returns
    -------
    scores : ndarray
        One row per query, one column per key; the dtype of Q and K (float32 stays float32).

    Raises
    ------
    TypeError
        Non-numeric input, or a mask that is neither boolean nor float.
    ValueError
        Shapes that do not fit, NaN or infinity, a mask that does not broadcast, or a query with
        every key masked.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), mask (..., T_q, T_k) -> scores (..., T_q, T_k)

    Taught in: 00 §3
    """
    Q, K, _ = check_attention_inputs(Q, K)
    return _scores(Q, K, _keep(mask, Q, K), scale)


def attention_weights(Q: Any, K: Any, mask: Any = None, *, scale: bool = True) -> np.ndarray:
    """The attention weights ``A = softmax(Q·Kᵀ/√d_k + M)``: each row sums to 1.

    Parameters
    ----------
    Q, K, mask, scale
        As for :func:`scores`.

    Returns
    -------
    weights : ndarray
        Every row non-negative and summing to 1; exactly 0 where the mask blocks.

    Raises
    ------
    TypeError, ValueError
        As for :func:`scores`; also scores so large that they overflow the dtype.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), mask (..., T_q, T_k) -> weights (..., T_q, T_k)
    """
    Q, K, _ = check_attention_inputs(Q, K)
    return _softmax_rows(_scores(Q, K, _keep(mask, Q, K), scale))


def attention(
    Q: Any, K: Any, V: Any, mask: Any = None, *, scale: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Scaled dot-product attention, ``softmax(Q·Kᵀ/√d_k + M)·V``, returning output and weights.

    Parameters
    ----------
    Q : array_like
        Queries, one row per query token: what each token is looking for.
    K : array_like
        Keys, one row per key token: what each token answers to.
    V : array_like
        Values, one row per key token: what each token hands over.
    mask : array_like, optional
        Boolean (True where query i may attend to key j), or the additive float M of the formula
        (0 where allowed, ``-inf`` where blocked). Broadcast to the scores.
    scale : bool
        Divide the scores by √d_k (True, as in the paper) or not (for experiments).

    Returns
    -------
    out : ndarray
        ``A·V``.
    weights : ndarray
        ``A``, every row summing to 1.

    Raises
    ------
    TypeError
        Non-numeric input, or a mask that is neither boolean nor float.
    ValueError
        Fewer than 2 axes, mismatched d_k or T_k, d_k = 0, NaN or inf in the inputs,
        a mask that does not broadcast, a query row with every key masked, or scores that
        overflow the dtype.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), V (..., T_k, d_v), mask (..., T_q, T_k)
        -> out (..., T_q, d_v), weights (..., T_q, T_k)
        Leading batch axes broadcast against each other.

    Taught in: 07 §6
    """
    Q, K, V = check_attention_inputs(Q, K, V)
    weights = _softmax_rows(_scores(Q, K, _keep(mask, Q, K), scale))  # (..., T_q, T_k)
    return weights @ V, weights  # (..., T_q, d_v), (..., T_q, T_k)


def project(X: Any, W_q: Any, W_k: Any, W_v: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three linear views of the same tokens: ``Q = X·W_q``, ``K = X·W_k``, ``V = X·W_v``.

    Parameters
    ----------
    X : array_like
        One embedding row per token.
    W_q, W_k, W_v : array_like
        The projections; W_q and W_k have the same width d_k.

    Returns
    -------
    Q, K, V : ndarray

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        X with fewer than 2 axes, a W that does not fit X, W_q and W_k of different widths, NaN or inf.

    Shapes:
        X (..., T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v)
        -> Q (..., T, d_k), K (..., T, d_k), V (..., T, d_v)

    Taught in: 04 §2
    """
    X = as_float_array(X, "X", expected="(..., T, d_model)")
    check_min_ndim(X, "X", expected="(..., T, d_model)")
    check_finite(X, "X")
    d_model = X.shape[-1]
    mats = []
    for W, name, out_sym in ((W_q, "W_q", "d_k"), (W_k, "W_k", "d_k"), (W_v, "W_v", "d_v")):
        expected = f"(d_model, {out_sym}) = ({d_model}, {out_sym})"
        W = as_float_array(W, name, expected=expected)
        if W.ndim != 2 or W.shape[0] != d_model:
            raise ValueError(
                tr("{name} must have shape {expected} to multiply X of shape {X}; got {shape}").format(
                    name=name, expected=expected, X=X.shape, shape=W.shape
                )
            )
        check_finite(W, name)
        mats.append(W)
    if mats[0].shape[1] != mats[1].shape[1]:
        raise ValueError(
            tr("W_q and W_k must give queries and keys the same width d_k; got W_q {W_q} and W_k "
               "{W_k}").format(
                W_q=mats[0].shape, W_k=mats[1].shape
            )
        )
    return X @ mats[0], X @ mats[1], X @ mats[2]


def self_attention(
    X: Any, W_q: Any, W_k: Any, W_v: Any, mask: Any = None, *, scale: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention: the tokens of X attend to each other, ``attention(X·W_q, X·W_k, X·W_v, M)``.

    Parameters
    ----------
    X : array_like
        One embedding row per token.
    W_q, W_k, W_v : array_like
        The projections (see :func:`project`).
    mask, scale
        As for :func:`attention`.

    Returns
    -------
    out, weights : ndarray
        As for :func:`attention`.

    Raises
    ------
    TypeError, ValueError
        As for :func:`project` and :func:`attention`.

    Shapes:
        X (..., T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v),
        mask (..., T, T) -> out (..., T, d_v), weights (..., T, T)

    Taught in: 04 §3
    """
    Q, K, V = project(X, W_q, W_k, W_v)
    return attention(Q, K, V, mask, scale=scale)


def init_projections(
    d_model: Any, d_k: Any, d_v: Any = None, *, rng: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random projection matrices, entries ~ N(0, 1/d_model).

    The variance 1/d_model keeps the entries of Q, K and V at about the size of the entries of X
    (each is a sum of d_model terms), so the √d_k argument of notebook 05 applies to them.

    Parameters
    ----------
    d_model, d_k : int
        Width of an embedding, of a query and key.
    d_v : int, optional
        Width of a value; d_k when not given.
    rng : numpy.random.Generator
        The source of randomness, e.g. ``np.random.default_rng(0)``.

    Returns
    -------
    W_q, W_k, W_v : ndarray

    Raises
    ------
    TypeError
        A width that is not a whole number, or an rng that is not a Generator.
    ValueError
        A width below 1.

    Shapes:
        -> W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v)

    Taught in: 04 §2
    """
    d_model = check_positive_int(d_model, "d_model")
    d_k = check_positive_int(d_k, "d_k")
    d_v = d_k if d_v is None else check_positive_int(d_v, "d_v")
    rng = check_generator(rng)
    std = 1.0 / np.sqrt(d_model)
    return (
        rng.normal(0.0, std, size=(d_model, d_k)),
        rng.normal(0.0, std, size=(d_model, d_k)),
        rng.normal(0.0, std, size=(d_model, d_v)),
    )
