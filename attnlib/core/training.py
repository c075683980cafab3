"""Learning W_q and W_k: a tiny task (query i should attend to key j), its loss, gradients and descent.

Taught in: 04 §7 (the loop written out) and 05's going-further part (scaled against unscaled, at several d_k).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..checks import check_positive_int
from ..i18n import N_, tr
from ..validation import as_float_array, check_indices
from .distributions import softmax, softmax_backward
from .formula import project

__all__ = ["attention_pair_loss", "train_attention_pairs"]

LOSSES = ("log", "values")


def attention_pair_loss(
    X: Any, W_q: Any, W_k: Any, queries: Any, keys: Any, *, scale: bool = True, loss: str = "log"
) -> tuple[float, np.ndarray, np.ndarray]:
    """Loss and gradients for a tiny training task: query token ``queries[n]`` should attend to ``keys[n]``.

    With ``A = softmax(X·W_q·(X·W_k)ᵀ/√d_k)`` and N pairs (i, j), two losses (0 when every listed
    query puts all its weight on its key):

    * ``loss="log"`` (04 §7): the mean of ``−log A[i, j]``. ``G = ∂loss/∂scores`` has
      ``(A[i] − onehot(j))/N`` in row i: the log cancels the softmax Jacobian, so G never vanishes.
    * ``loss="values"`` (05, going further): the mean of ``‖o_i − x_j‖²`` with ``O = A·X`` (values
      ``V = X``): the loss reaches the scores through ``O = A·V`` and the Jacobian ``diag(p) − p·pᵀ``, as in a
      Transformer, where the loss is computed after the layer. ``G[i] = p ⊙ (g − (p·g)·1)`` with
      ``g = ∂loss/∂A[i]``.

    Then ``∂loss/∂W_q = Xᵀ·G·K/√d_k`` and ``∂loss/∂W_k = Xᵀ·Gᵀ·Q/√d_k`` (no √d_k with ``scale=False``).

    Parameters
    ----------
    X : array_like
        One embedding row per token.
    W_q, W_k : array_like
        The projections being learned.
    queries, keys : array_like of int
        The pairs: token ``queries[n]`` should attend to token ``keys[n]``.
    scale : bool
        Divide the scores by √d_k.
    loss : {"log", "values"}
        Which loss (see above).

    Returns
    -------
    loss : float
    grad_W_q, grad_W_k : ndarray

    Raises
    ------
    ValueError
        Shapes that do not fit, an index outside 0..T-1, unpaired queries and keys, or an unknown `loss`.

    Shapes:
        X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), queries (N,), keys (N,)
        -> loss (), grad_W_q (d_model, d_k), grad_W_k (d_model, d_k)

    Taught in: 04 §7
    """
    if loss not in LOSSES:
        raise ValueError(tr("loss must be 'log' (−log A[i, j]) or 'values' (‖o_i − x_j‖²); got "
                            "{loss!r}").format(loss=loss))
    X = as_float_array(X, "X", expected="(T, d_model)")
    if X.ndim != 2:
        raise ValueError(
            tr("X must have shape (T, d_model), one row per token; got shape {shape}").format(shape=X.shape)
        )
    Q, K, _ = project(X, W_q, W_k, np.zeros((X.shape[-1], 1)))
    T, d_k = Q.shape
    q_idx, k_idx = (
        check_indices(arr, name, expected="(N,)", high=T - 1, high_symbol="T-1", what=N_("token indices"),
                      nonempty=True)
        for arr, name in ((queries, "queries"), (keys, "keys"))
    )
    if q_idx.shape != k_idx.shape:
        raise ValueError(
            tr("queries and keys must pair up: got shapes {queries} and {keys}").format(
                queries=q_idx.shape, keys=k_idx.shape
            )
        )
    c = 1.0 / math.sqrt(d_k) if scale else 1.0
    A = softmax(c * Q @ K.T, axis=-1)
    N = q_idx.size
    if loss == "log":
        value = float(-np.mean(np.log(A[q_idx, k_idx])))
        G = np.zeros_like(A)
        np.add.at(G, q_idx, A[q_idx])  # + A[i] for every pair whose query is i
        np.add.at(G, (q_idx, k_idx), -1.0)  # - onehot(j)
        G /= N
    else:
        diff = (A @ X)[q_idx] - X[k_idx]  # (N, d_model): o_i − x_j
        value = float(np.sum(diff**2) / N)
        g = np.zeros_like(A)
        np.add.at(g, q_idx, 2.0 * diff @ X.T / N)  # ∂loss/∂A = ∂loss/∂O · Vᵀ
        G = softmax_backward(A, g)  # through the softmax Jacobian, row by row
    return value, X.T @ (c * G @ K), X.T @ (c * G.T @ Q)


def train_attention_pairs(
    X: Any,
    W_q: Any,
    W_k: Any,
    queries: Any,
    keys: Any,
    *,
    steps: int,
    lr: float,
    scale: bool = True,
    loss: str = "log",
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Plain gradient descent on :func:`attention_pair_loss`: the loss at every step and the trained matrices.

    Parameters
    ----------
    X, W_q, W_k, queries, keys, scale, loss
        As for :func:`attention_pair_loss`; W_q and W_k are the starting point (not changed).
    steps : int
        The number of steps.
    lr : float
        The learning rate.

    Returns
    -------
    losses : ndarray
        The loss before each step.
    W_q, W_k : ndarray
        The trained matrices.

    Raises
    ------
    TypeError, ValueError
        As for :func:`attention_pair_loss`; also steps below 1.

    Shapes:
        X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), queries (N,), keys (N,)
        -> losses (steps,), W_q (d_model, d_k), W_k (d_model, d_k)

    Taught in: 05 §Going further: what the argument assumes, and training
    """
    steps = check_positive_int(steps, "steps")
    W_q = as_float_array(W_q, "W_q", expected="(d_model, d_k)").copy()
    W_k = as_float_array(W_k, "W_k", expected="(d_model, d_k)").copy()
    losses = np.empty(steps)
    for step in range(steps):
        losses[step], g_q, g_k = attention_pair_loss(X, W_q, W_k, queries, keys, scale=scale, loss=loss)
        W_q -= lr * g_q
        W_k -= lr * g_k
    return losses, W_q, W_k
