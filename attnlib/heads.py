"""Several heads: the same attention run in parallel on slices of Q, K and V.

A layer with ``n_heads`` heads cuts the ``n_heads · d_k`` columns of Q, K and V into ``n_heads``
slices of ``d_k`` columns each, runs ``attention`` on every slice at once (the heads are just one
more leading batch axis), and puts the outputs back side by side:

    head_h = softmax(Q_h·K_hᵀ/√d_k + M)·V_h,   Q_h = columns h·d_k .. (h+1)·d_k of Q
    out    = [head_0 | head_1 | ... | head_{n_heads-1}]

Note that √d_k is the width of one head, not of the whole layer.
numpy only, like ``core``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .checks import as_float_array, check_finite, check_min_ndim, check_positive_int
from .core import attention, project

__all__ = ["merge_heads", "multi_head_attention", "split_heads"]


def _split(Y: np.ndarray, n_heads: int) -> np.ndarray:
    d_k = Y.shape[-1] // n_heads
    # (..., T, n_heads·d_k) -> (..., T, n_heads, d_k): head h owns columns h·d_k .. (h+1)·d_k.
    # Then swap T and n_heads so the heads become a batch axis in front of the tokens.
    return np.swapaxes(Y.reshape(*Y.shape[:-1], n_heads, d_k), -2, -3)


def split_heads(X: Any, n_heads: int) -> np.ndarray:
    """Cut the last axis into ``n_heads`` equal slices and move the heads in front of the tokens.

    Head h gets the columns ``h·d_k`` to ``(h+1)·d_k`` (a reshape), and the axis of heads moves
    before the axis of tokens (a transpose), so ``attention`` can treat the heads as a batch axis.

    Args:
        X: one row per token, ``d_model = n_heads · d_k`` columns (usually Q, K or V).
        n_heads: the number of heads; must divide ``d_model``.

    Shapes:
        X (..., T, d_model) -> (..., n_heads, T, d_k),  d_k = d_model / n_heads

    Raises:
        ValueError: fewer than 2 axes, or ``d_model`` not divisible by ``n_heads``.
    """
    n_heads = check_positive_int(n_heads, "n_heads", symbol="number of heads")
    X = as_float_array(X, "X", expected="(..., T, d_model)")
    check_min_ndim(X, "X", expected="(..., T, d_model)")
    d_model = X.shape[-1]
    if d_model % n_heads:
        raise ValueError(
            f"X has d_model={d_model}, which is not divisible by n_heads={n_heads}: every head needs "
            f"the same number of columns d_k = d_model / n_heads; expected X (..., T, n_heads·d_k), "
            f"got {X.shape}"
        )
    return _split(X, n_heads)


def merge_heads(heads: Any) -> np.ndarray:
    """Put the heads back side by side: the inverse of ``split_heads``.

    Row t of the result is ``[head_0[t] | head_1[t] | ... ]``, the concatenation of the heads.

    Shapes:
        heads (..., n_heads, T, d_k) -> (..., T, n_heads·d_k)

    Raises:
        ValueError: fewer than 3 axes (a heads axis, a token axis and a feature axis).
    """
    heads = as_float_array(heads, "heads", expected="(..., n_heads, T, d_k)")
    check_min_ndim(heads, "heads", expected="(..., n_heads, T, d_k)", min_ndim=3)
    n_heads, T, d_k = heads.shape[-3:]
    return np.swapaxes(heads, -2, -3).reshape(*heads.shape[:-3], T, n_heads * d_k)


def _with_bias(Y: np.ndarray, b: Any, name: str, width_symbol: str) -> np.ndarray:
    if b is None:
        return Y
    width = Y.shape[-1]
    b = as_float_array(b, name, expected=f"({width_symbol},) = ({width},)")
    if b.shape != (width,):
        raise ValueError(
            f"{name} must have shape ({width_symbol},) = ({width},), one number per column of "
            f"W_{name[-1]}; got {b.shape}"
        )
    check_finite(b, name)
    return Y + b


def multi_head_attention(
    X: Any,
    W_q: Any,
    W_k: Any,
    W_v: Any,
    n_heads: int,
    mask: Any = None,
    *,
    b_q: Any = None,
    b_k: Any = None,
    b_v: Any = None,
    scale: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention with several heads: project, split, attend per head, merge.

    ``Q = X·W_q + b_q`` (likewise K, V); ``split_heads`` cuts them into ``n_heads`` slices;
    ``attention`` runs on every head at once, scaled by the per-head √d_k; ``merge_heads`` puts the
    outputs side by side. The paper's output projection ``W_O`` is not applied: that is the next
    step of a Transformer layer, not part of attention.

    Args:
        X: the input of the layer, one row per token.
        W_q, W_k, W_v: the projections of all heads side by side: head h uses columns
            ``h·d_k .. (h+1)·d_k`` of W_q and W_k, and ``h·d_v .. (h+1)·d_v`` of W_v.
        n_heads: the number of heads; must divide the widths of W_q, W_k and W_v.
        mask: None, or a mask for the scores (boolean, True = may attend; or additive, 0 / -inf),
            shared by every head, e.g. ``causal_mask(T)`` or ``padding_mask(lengths, T)``.
        b_q, b_k, b_v: optional biases, added after the projection (as in BERT and GPT-2).
        scale: divide the scores by √d_k, the width of one head (True) or not.

    Shapes:
        X (..., T, d_model), W_q (d_model, n_heads·d_k), W_k (d_model, n_heads·d_k),
        W_v (d_model, n_heads·d_v), b_q (n_heads·d_k,), b_k (n_heads·d_k,), b_v (n_heads·d_v,),
        mask (..., T, T) -> out (..., T, n_heads·d_v), weights (..., n_heads, T, T)

    Raises:
        ValueError: shapes that do not fit, widths not divisible by ``n_heads``, NaN or inf, a mask
            that does not broadcast to (..., T, T), or a query with every key masked.
        TypeError: non-numeric input, or a mask that is neither boolean nor float.
    """
    n_heads = check_positive_int(n_heads, "n_heads", symbol="number of heads")
    Q, K, V = project(X, W_q, W_k, W_v)  # checks X and the shapes of the W's
    d_model = np.shape(X)[-1]
    for Y, name, d in ((Q, "W_q", "d_k"), (K, "W_k", "d_k"), (V, "W_v", "d_v")):
        if Y.shape[-1] % n_heads:
            raise ValueError(
                f"{name} has {Y.shape[-1]} columns, which is not divisible by n_heads={n_heads}: "
                f"every head takes {d} = columns / n_heads of them; "
                f"expected {name} (d_model, n_heads·{d}), got {(d_model, Y.shape[-1])}"
            )
    Q = _with_bias(Q, b_q, "b_q", "n_heads·d_k")
    K = _with_bias(K, b_k, "b_k", "n_heads·d_k")
    V = _with_bias(V, b_v, "b_v", "n_heads·d_v")
    Q_h, K_h, V_h = (_split(Y, n_heads) for Y in (Q, K, V))
    if mask is not None:
        mask = np.asarray(mask)
        T = Q.shape[-2]
        scores_shape = (*Q.shape[:-2], T, T)
        try:
            ok = np.broadcast_shapes(mask.shape, scores_shape) == scores_shape
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(
                f"mask of shape {mask.shape} does not broadcast to the scores of one head, "
                f"(..., T, T) = {scores_shape}; the same mask is used by every head"
            )
        if mask.ndim >= 2:
            mask = np.expand_dims(mask, -3)  # a heads axis of size 1: every head gets the same mask
    out, weights = attention(Q_h, K_h, V_h, mask, scale=scale)
    return merge_heads(out), weights
