"""Several heads: the same attention run in parallel on slices of Q, K and V.

A layer with ``n_heads`` heads cuts the ``n_heads · d_k`` columns of Q, K and V into ``n_heads``
slices of ``d_k`` columns each, runs ``attention`` on every slice at once (the heads are just one
more leading batch axis), and puts the outputs back side by side:

    head_h = softmax(Q_h·K_hᵀ/√d_k + M)·V_h,   Q_h = columns h·d_k .. (h+1)·d_k of Q
    out    = [head_0 | head_1 | ... | head_{n_heads-1}]

Note that √d_k is the width of one head, not of the whole layer.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_positive_int
from ..i18n import N_, tr
from ..validation import as_float_array, check_finite, check_mask, check_min_ndim
from .formula import attention, project

__all__ = ["merge_heads", "multi_head_attention", "split_heads"]


def _split(Y: np.ndarray, n_heads: int) -> np.ndarray:
    """The kernel of split_heads: a reshape, then a swap of the tokens and the heads."""
    d_k = Y.shape[-1] // n_heads
    heads = Y.reshape(*Y.shape[:-1], n_heads, d_k)  # (..., T, n_heads, d_k): head h owns h·d_k .. (h+1)·d_k
    return np.swapaxes(heads, -2, -3)  # (..., n_heads, T, d_k): the heads become a batch axis


def _merge(heads: np.ndarray) -> np.ndarray:
    """The kernel of merge_heads: the swap undone, then the heads side by side."""
    n_heads, T, d_k = heads.shape[-3:]
    side_by_side = np.swapaxes(heads, -2, -3)  # (..., T, n_heads, d_k)
    return side_by_side.reshape(*heads.shape[:-3], T, n_heads * d_k)  # (..., T, n_heads·d_k)


def split_heads(X: Any, n_heads: int) -> np.ndarray:
    """Cut the last axis into `n_heads` equal slices and move the heads in front of the tokens.

    Head h gets the columns ``h·d_k`` to ``(h+1)·d_k`` (a reshape), and the axis of heads moves
    before the axis of tokens (a transpose), so ``attention`` can treat the heads as a batch axis.

    Parameters
    ----------
    X : array_like
        One row per token, ``d_model = n_heads · d_k`` columns (usually Q, K or V).
    n_heads : int
        The number of heads; must divide ``d_model``.

    Returns
    -------
    ndarray
        A view of X where possible.

    Raises
    ------
    TypeError
        Non-numeric X, or n_heads not a whole number.
    ValueError
        Fewer than 2 axes, n_heads below 1, or ``d_model`` not divisible by `n_heads`.

    Shapes:
        X (..., T, d_model) -> (..., n_heads, T, d_k),  d_k = d_model / n_heads

    Taught in: 08 §3
    """
    n_heads = check_positive_int(n_heads, "n_heads", symbol=N_("number of heads"))
    X = as_float_array(X, "X", expected="(..., T, d_model)")
    check_min_ndim(X, "X", expected="(..., T, d_model)")
    d_model = X.shape[-1]
    if d_model % n_heads:
        raise ValueError(
            tr("X has d_model={d_model}, which is not divisible by n_heads={n_heads}: every head needs "
               "the same number of columns d_k = d_model / n_heads; expected X (..., T, n_heads·d_k), "
               "got {shape}").format(d_model=d_model, n_heads=n_heads, shape=X.shape)
        )
    return _split(X, n_heads)


def merge_heads(heads: Any) -> np.ndarray:
    """Put the heads back side by side: the inverse of :func:`split_heads`.

    Row t of the result is ``[head_0[t] | head_1[t] | ... ]``, the concatenation of the heads.

    Parameters
    ----------
    heads : array_like
        One (T, d_k) block per head.

    Returns
    -------
    merged : ndarray
        One row per token, the heads side by side.

    Raises
    ------
    TypeError
        Non-numeric input.
    ValueError
        Fewer than 3 axes (a heads axis, a token axis and a feature axis).

    Shapes:
        heads (..., n_heads, T, d_k) -> (..., T, n_heads·d_k)

    Taught in: 08 §3
    """
    heads = as_float_array(heads, "heads", expected="(..., n_heads, T, d_k)")
    check_min_ndim(heads, "heads", expected="(..., n_heads, T, d_k)", min_ndim=3)
    return _merge(heads)


def _with_bias(Y: np.ndarray, b: Any, name: str, width_symbol: str) -> np.ndarray:
    if b is None:
        return Y
    width = Y.shape[-1]
    b = as_float_array(b, name, expected=f"({width_symbol},) = ({width},)")
    if b.shape != (width,):
        raise ValueError(
            tr("{name} must have shape ({symbol},) = ({width},), one number per column of {W}; got "
               "{shape}").format(
                name=name, symbol=width_symbol, width=width, W=f"W_{name[-1]}", shape=b.shape
            )
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

    ``Q = X·W_q + b_q`` (likewise K, V); :func:`split_heads` cuts them into `n_heads` slices;
    ``attention`` runs on every head at once, scaled by the per-head √d_k; :func:`merge_heads` puts
    the outputs side by side. The paper's output projection ``W_O`` is not applied: that is the next
    step of a Transformer layer, not part of attention.

    Parameters
    ----------
    X : array_like
        The input of the layer, one row per token.
    W_q, W_k, W_v : array_like
        The projections of all heads side by side: head h uses columns ``h·d_k .. (h+1)·d_k`` of
        W_q and W_k, and ``h·d_v .. (h+1)·d_v`` of W_v.
    n_heads : int
        The number of heads; must divide the widths of W_q, W_k and W_v.
    mask : array_like, optional
        A mask for the scores (boolean, True = may attend; or additive, 0 / -inf), shared by every
        head, e.g. ``causal_mask(T)`` or ``padding_mask(lengths, T)``.
    b_q, b_k, b_v : array_like, optional
        Biases, added after the projection (as in BERT and GPT-2).
    scale : bool
        Divide the scores by √d_k, the width of one head (True) or not.

    Returns
    -------
    out : ndarray
        The heads' outputs side by side.
    weights : ndarray
        Every head's attention weights.

    Raises
    ------
    TypeError
        Non-numeric input, or a mask that is neither boolean nor float.
    ValueError
        Shapes that do not fit, widths not divisible by `n_heads`, NaN or inf, a mask that does not
        broadcast to (..., T, T), or a query with every key masked.

    Shapes:
        X (..., T, d_model), W_q (d_model, n_heads·d_k), W_k (d_model, n_heads·d_k),
        W_v (d_model, n_heads·d_v), b_q (n_heads·d_k,), b_k (n_heads·d_k,), b_v (n_heads·d_v,),
        mask (..., T, T) -> out (..., T, n_heads·d_v), weights (..., n_heads, T, T)

    Taught in: 08 §3
    """
    n_heads = check_positive_int(n_heads, "n_heads", symbol=N_("number of heads"))
    Q, K, V = project(X, W_q, W_k, W_v)  # checks X and the shapes of the W's
    d_model = np.shape(X)[-1]
    for Y, name, d in ((Q, "W_q", "d_k"), (K, "W_k", "d_k"), (V, "W_v", "d_v")):
        if Y.shape[-1] % n_heads:
            raise ValueError(
                tr("{name} has {columns} columns, which is not divisible by n_heads={n_heads}: "
                   "every head takes {d} = columns / n_heads of them; "
                   "expected {name} (d_model, n_heads·{d}), got {shape}").format(
                    name=name, columns=Y.shape[-1], n_heads=n_heads, d=d, shape=(d_model, Y.shape[-1])
                )
            )
    Q = _with_bias(Q, b_q, "b_q", "n_heads·d_k")
    K = _with_bias(K, b_k, "b_k", "n_heads·d_k")
    V = _with_bias(V, b_v, "b_v", "n_heads·d_v")
    Q_h, K_h, V_h = (_split(Y, n_heads) for Y in (Q, K, V))  # (..., n_heads, T, d_k or d_v)
    if mask is not None:
        T = Q.shape[-2]
        keep = check_mask(mask, (*Q.shape[:-2], T, T))  # the scores of one head: (..., T, T)
        mask = keep[..., None, :, :] if keep.ndim >= 2 else keep  # a heads axis: every head, one mask
    out, weights = attention(Q_h, K_h, V_h, mask, scale=scale)
    return _merge(out), weights
