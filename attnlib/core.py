"""The numpy core of attnlib: ``O = softmax(Q·Kᵀ/√d_k + M)·V``, one function per idea.

numpy only: this module must import on a machine without matplotlib or ipywidgets.
Names follow the formula; shapes are written in its symbols, with ``...`` for leading batch axes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .checks import (
    as_float_array,
    check_finite,
    check_generator,
    check_min_ndim,
    check_positive_int,
    first_index,
)

__all__ = [
    "additive_mask",
    "attention",
    "attention_weights",
    "scores",
    "causal_mask",
    "cosine_similarity",
    "entropy",
    "init_projections",
    "padding_mask",
    "project",
    "self_attention",
    "softmax",
    "softmax_jacobian",
]
# Notebooks 04-07
__all__ += ["attention_pair_loss", "nested_dot_products", "softmax_saturation", "train_attention_pairs"]
__all__ += ["layer_norm"]  # notebooks 01 and 07
__all__ += ["convex_hull_2d", "histogram_heights", "inside_convex_hull", "score_bins"]


def softmax(x: Any, axis: int = -1) -> np.ndarray:
    """Turn scores into weights that are positive and sum to 1 along ``axis``.

    ``softmax(x)_i = exp(x_i - m) / Σ_j exp(x_j - m)`` with ``m = max_j x_j``.
    Subtracting the maximum changes nothing mathematically (it cancels between numerator and
    denominator) but keeps every exponent ≤ 0, so nothing overflows even at scores of 1e4.
    Entries equal to ``-inf`` (masked) get weight exactly 0.

    Shapes:
        x (..., n) -> weights (..., n)   (any axis may be chosen; the dtype of a float input is kept)

    Raises:
        ValueError: NaN or ``+inf`` in ``x``, an empty axis, or a slice that is entirely ``-inf``
            (everything masked: 0/0 has no answer).
    """
    x = as_float_array(x, "x", expected="(..., n)")
    if x.ndim == 0:
        raise ValueError("x must have at least 1 axis (a vector of scores); got a single number")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be a whole number; got {axis!r}")
    if not -x.ndim <= axis < x.ndim:
        raise ValueError(f"axis={axis} does not exist for x of shape {x.shape}")
    axis = int(axis) % x.ndim
    if x.shape[axis] == 0:
        raise ValueError(f"x has no entries along axis {axis} (shape {x.shape}): nothing to normalise")
    check_finite(x, "x", allow_neg_inf=True)
    m = np.max(x, axis=axis, keepdims=True)
    dead = np.isneginf(m)
    if dead.any():
        where = tuple(i for k, i in enumerate(first_index(dead)) if k != axis)
        raise ValueError(
            f"x has a slice along axis {axis} that is entirely -inf (at index {where}): "
            "every position is masked, so the weights would be 0/0. Leave at least one unmasked."
        )
    with np.errstate(over="ignore"):  # in float16, x - m may overflow to -inf: weight 0, as it should
        e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def entropy(weights: Any, axis: int = -1) -> np.ndarray:
    """Shannon entropy ``-Σ p log p`` (in nats) of each distribution along ``axis``.

    0 for a one-hot row, ``log n`` for a uniform row over n entries; ``0 · log 0`` counts as 0.

    Shapes:
        weights (..., n) -> (...)
    """
    p = as_float_array(weights, "weights", expected="(..., n)")
    check_finite(p, "weights")
    if (p < 0).any():
        raise ValueError("weights must be >= 0 (a probability distribution); found a negative entry")
    logp = np.log(np.where(p > 0, p, 1.0))
    return -np.sum(p * logp, axis=axis)


def softmax_jacobian(weights: Any) -> np.ndarray:
    """The Jacobian ``∂p_i/∂s_j = p_i (δ_ij − p_j)``, i.e. ``diag(p) − p·pᵀ``, of softmax at ``p``.

    When softmax saturates (p one-hot) every entry goes to 0: no gradient flows back to the scores.

    Shapes:
        weights (..., n) -> jacobian (..., n, n)
    """
    p = as_float_array(weights, "weights", expected="(..., n)")
    check_min_ndim(p, "weights", expected="(..., n)", min_ndim=1)
    check_finite(p, "weights")
    eye = np.eye(p.shape[-1], dtype=p.dtype)
    return p[..., :, None] * eye - p[..., :, None] * p[..., None, :]


def _check_mask(mask: Any, scores_shape: tuple[int, ...]) -> np.ndarray:
    """Validate a boolean or additive float mask and return it as a boolean 'may attend' array."""
    expected = "(..., T_q, T_k)"
    arr = np.asarray(mask)
    if arr.dtype.kind == "b":
        keep = arr
    elif arr.dtype.kind == "f":
        check_finite(arr, "mask", allow_neg_inf=True)
        if not np.all((arr == 0) | np.isneginf(arr)):
            odd = arr[(arr != 0) & ~np.isneginf(arr)].flat[0]
            raise ValueError(
                "a float mask is the additive M of the formula: 0 where a query may attend and "
                f"-inf where it may not; got the value {float(odd):g}. "
                "For a 1 = attend / 0 = blocked mask, pass mask.astype(bool)."
            )
        keep = arr == 0
    else:
        raise TypeError(
            "mask must be boolean (True where a query may attend to a key) or float "
            f"(0 allowed, -inf blocked), of shape {expected}; got dtype {arr.dtype}"
            + (". For a 0/1 integer mask use mask.astype(bool)." if arr.dtype.kind in "iu" else "")
        )
    try:
        full = np.broadcast_shapes(keep.shape, scores_shape)
    except ValueError:
        full = None
    if full != tuple(scores_shape):
        raise ValueError(
            f"mask of shape {keep.shape} does not broadcast to the scores {expected} = "
            f"{tuple(scores_shape)}: its last two axes must be T_q and T_k (or 1)"
        )
    return keep


def _validated(Q: Any, K: Any, V: Any | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Q, K (and V) as float arrays whose shapes fit the formula, or a ValueError that says why."""
    Q = as_float_array(Q, "Q", expected="(..., T_q, d_k)")
    K = as_float_array(K, "K", expected="(..., T_k, d_k)")
    check_min_ndim(Q, "Q", expected="(..., T_q, d_k)")
    check_min_ndim(K, "K", expected="(..., T_k, d_k)")
    d_k = Q.shape[-1]
    if d_k == 0:
        raise ValueError(f"Q has d_k=0 (shape {Q.shape}): each query needs at least one feature")
    if K.shape[-1] != d_k:
        raise ValueError(
            f"K has d_k={K.shape[-1]} but Q has d_k={d_k}; "
            f"expected K (..., T_k, {d_k}), got {K.shape}"
        )
    T_k = K.shape[-2]
    if T_k == 0:
        raise ValueError(f"K has T_k=0 keys (shape {K.shape}): there is nothing to attend to")
    batch = [Q.shape[:-2], K.shape[:-2]]
    if V is not None:
        V = as_float_array(V, "V", expected="(..., T_k, d_v)")
        check_min_ndim(V, "V", expected="(..., T_k, d_v)")
        if V.shape[-2] != T_k:
            raise ValueError(
                f"V has T_k={V.shape[-2]} rows but K has T_k={T_k}: one value per key; "
                f"expected V (..., {T_k}, d_v), got {V.shape}"
            )
        batch.append(V.shape[:-2])
    try:
        np.broadcast_shapes(*batch)
    except ValueError:
        shapes = f"Q {Q.shape}, K {K.shape}" + ("" if V is None else f" and V {V.shape}")
        raise ValueError(f"the batch axes (...) of {shapes} do not broadcast") from None
    for arr, name in ((Q, "Q"), (K, "K"), (V, "V")):
        if arr is not None:
            check_finite(arr, name)
    return Q, K, V


def _blocked(mask: Any, scores_shape: tuple[int, ...]) -> np.ndarray | None:
    """Where the mask blocks a key (True), broadcast to the scores; None for no mask."""
    if mask is None:
        return None
    blocked = ~np.broadcast_to(_check_mask(mask, scores_shape), scores_shape)
    dead = blocked.all(axis=-1)
    if dead.any():
        idx = first_index(dead)
        raise ValueError(
            f"query {idx[-1]} (batch index {idx[:-1]}) may attend to no key: every key is "
            "masked, so its weights would be 0/0 = NaN. Each query needs at least one allowed key."
        )
    return blocked


def _scores(Q: np.ndarray, K: np.ndarray, mask: Any, scale: bool) -> np.ndarray:
    """Q·Kᵀ/√d_k + M for validated Q and K."""
    dtype = np.result_type(Q, K)
    s = np.matmul(Q, np.swapaxes(K, -1, -2)).astype(dtype, copy=False)  # (..., T_q, T_k)
    if scale:
        s = s / np.sqrt(dtype.type(Q.shape[-1]))
    blocked = _blocked(mask, s.shape)
    if blocked is not None:
        s = np.where(blocked, -np.inf, s).astype(dtype, copy=False)
    return s


def scores(Q: Any, K: Any, mask: Any = None, *, scale: bool = True) -> np.ndarray:
    """The attention scores ``Q·Kᵀ/√d_k + M``: how well each query matches each key.

    Parameters
    ----------
    Q, K : array_like
        Queries and keys, one row per token.
    mask : array_like, optional
        Boolean (True where query i may attend to key j) or the additive float M (0 allowed,
        ``-inf`` blocked); blocked scores become ``-inf``.
    scale : bool
        Divide by √d_k (True, as in the paper) or not (for experiments).

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), mask (..., T_q, T_k) -> scores (..., T_q, T_k)

    Taught in: 05 §1
    """
    Q, K, _ = _validated(Q, K)
    return _scores(Q, K, mask, scale)


def attention_weights(Q: Any, K: Any, mask: Any = None, *, scale: bool = True) -> np.ndarray:
    """The attention weights ``A = softmax(Q·Kᵀ/√d_k + M)``: each row sums to 1.

    Parameters are those of :func:`scores`.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), mask (..., T_q, T_k) -> weights (..., T_q, T_k)

    Taught in: 07 §1
    """
    return softmax(scores(Q, K, mask, scale=scale), axis=-1)


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

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), V (..., T_k, d_v), mask (..., T_q, T_k)
        -> out (..., T_q, d_v), weights (..., T_q, T_k)
        Leading batch axes broadcast against each other.

    Raises
    ------
    TypeError
        Non-numeric input, or a mask that is neither boolean nor float.
    ValueError
        Fewer than 2 axes, mismatched d_k or T_k, d_k = 0, NaN or inf in the inputs,
        a mask that does not broadcast, or a query row with every key masked.

    Taught in: 07 §1
    """
    Q, K, V = _validated(Q, K, V)
    weights = softmax(_scores(Q, K, mask, scale), axis=-1)
    return np.matmul(weights, V), weights


def causal_mask(T: Any) -> np.ndarray:
    """Boolean mask for a decoder (GPT): query i may attend to keys 0..i (itself and the past).

    True on and below the diagonal; ``additive_mask`` turns it into M with ``-inf`` above it.

    Shapes:
        T -> (T, T)
    """
    T = check_positive_int(T, "T", symbol="sequence length")
    return np.tril(np.ones((T, T), dtype=bool))


def padding_mask(lengths: Any, T: Any) -> np.ndarray:
    """Boolean key-padding mask for a batch: key j of sentence b is real iff ``j < lengths[b]``.

    The middle axis of size 1 broadcasts over the queries, so every query ignores the padding keys.

    Shapes:
        lengths (B,), T -> (B, 1, T)
    """
    T = check_positive_int(T, "T", symbol="padded length")
    arr = np.asarray(lengths)
    if arr.dtype.kind not in "iu":
        raise TypeError(f"lengths must be whole numbers, one per sentence, shape (B,); got dtype {arr.dtype}")
    if arr.ndim != 1:
        raise ValueError(f"lengths must have shape (B,), one length per sentence; got shape {arr.shape}")
    if arr.size and (arr.min() < 1 or arr.max() > T):
        bad = int(arr[(arr < 1) | (arr > T)][0])
        raise ValueError(
            f"every length must be between 1 and T={T}; got {bad} "
            "(a sentence of length 0 would leave its queries nothing to attend to)"
        )
    return (np.arange(T) < arr[:, None])[:, None, :]


def additive_mask(mask: Any) -> np.ndarray:
    """The additive matrix M of the formula: 0 where attention is allowed, ``-inf`` where blocked.

    Shapes:
        mask (...) bool -> M (...) float64
    """
    arr = np.asarray(mask)
    if arr.dtype.kind != "b":
        raise TypeError(f"mask must be boolean (True = may attend); got dtype {arr.dtype}")
    return np.where(arr, 0.0, -np.inf)


def project(
    X: Any, W_q: Any, W_k: Any, W_v: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Three linear views of the same tokens: ``Q = X·W_q``, ``K = X·W_k``, ``V = X·W_v``.

    Shapes:
        X (..., T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v)
        -> Q (..., T, d_k), K (..., T, d_k), V (..., T, d_v)
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
                f"{name} must have shape {expected} to multiply X of shape {X.shape}; got {W.shape}"
            )
        check_finite(W, name)
        mats.append(W)
    if mats[0].shape[1] != mats[1].shape[1]:
        raise ValueError(
            f"W_q and W_k must give queries and keys the same width d_k; "
            f"got W_q {mats[0].shape} and W_k {mats[1].shape}"
        )
    return X @ mats[0], X @ mats[1], X @ mats[2]


def self_attention(
    X: Any, W_q: Any, W_k: Any, W_v: Any, mask: Any = None, *, scale: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """Self-attention: the tokens of X attend to each other through ``project`` and ``attention``.

    Shapes:
        X (..., T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v),
        mask (..., T, T) -> out (..., T, d_v), weights (..., T, T)
    """
    Q, K, V = project(X, W_q, W_k, W_v)
    return attention(Q, K, V, mask, scale=scale)


def init_projections(
    d_model: Any, d_k: Any, d_v: Any = None, *, rng: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Random projection matrices, entries ~ N(0, 1/d_model).

    The variance 1/d_model keeps the entries of Q, K and V at about the size of the entries of X
    (each is a sum of d_model terms), so the √d_k argument of notebook 05 applies to them.

    Shapes:
        -> W_q (d_model, d_k), W_k (d_model, d_k), W_v (d_model, d_v); d_v defaults to d_k
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


def cosine_similarity(A: Any, B: Any = None) -> np.ndarray:
    """Cosine of the angle between every row of A and every row of B: ``a·b / (|a| |b|)``.

    The dot product with the lengths divided out: 1 for the same direction, 0 for orthogonal rows,
    -1 for opposite ones, whatever the lengths. ``cosine_similarity(X)`` compares X with itself.

    Shapes:
        A (..., T_a, d), B (..., T_b, d) -> (..., T_a, T_b); B defaults to A

    Raises:
        ValueError: fewer than 2 axes, different widths d, NaN or inf, or a zero row (a zero vector
            has no direction, so its cosine is 0/0).
    """
    A = as_float_array(A, "A", expected="(..., T_a, d)")
    check_min_ndim(A, "A", expected="(..., T_a, d)")
    B = A if B is None else as_float_array(B, "B", expected="(..., T_b, d)")
    check_min_ndim(B, "B", expected="(..., T_b, d)")
    if B.shape[-1] != A.shape[-1]:
        raise ValueError(
            f"B has d={B.shape[-1]} but A has d={A.shape[-1]}; expected B (..., T_b, {A.shape[-1]}), "
            f"got {B.shape}"
        )
    normed = []
    for arr, name in ((A, "A"), (B, "B")):
        check_finite(arr, name)
        length = np.linalg.norm(arr, axis=-1, keepdims=True)
        zero = length[..., 0] == 0
        if zero.any():
            raise ValueError(
                f"{name} has a zero row (at index {first_index(zero)}): a zero vector has no direction, "
                "so its cosine with anything is 0/0"
            )
        normed.append(arr / length)
    return np.matmul(normed[0], np.swapaxes(normed[1], -1, -2))


def layer_norm(X: Any, eps: float = 1e-5) -> np.ndarray:
    """Layer normalisation without its learned gain and bias: each row to mean 0 and variance 1.

    ``(x − mean(x)) / √(var(x) + eps)``, row by row. Every row then has length about ``√d``, so a dot
    product of normalised rows no longer rewards long vectors (01 §5); Transformer blocks apply it
    before attention and before the feed-forward network (07 §5).

    Shapes:
        X (..., T, d) -> (..., T, d)
    """
    X = as_float_array(X, "X", expected="(..., T, d)")
    check_min_ndim(X, "X", expected="(..., T, d)", min_ndim=1)
    check_finite(X, "X")
    centred = X - X.mean(axis=-1, keepdims=True)
    return centred / np.sqrt(np.mean(centred**2, axis=-1, keepdims=True) + eps)


# ---- Notebooks 04-07: training W, the √d_k experiment, softmax saturation ------------------------


def nested_dot_products(a: Any, b: Any, widths: Any) -> np.ndarray:
    """Dot products of ``a`` and ``b`` over their first ``d`` features only, for every ``d`` in ``widths``.

    Entry ``[..., i]`` is ``Σ_{c < widths[i]} a_c b_c``: the score two vectors would have if queries
    and keys were only ``widths[i]`` wide. Growing ``d`` adds one product per feature, so a score is
    a random walk in ``d``; that is why its spread grows like √d (notebook 05).

    Shapes:
        a (..., D), b (..., D), widths (n_w,) -> (..., n_w)   (leading axes of a and b broadcast)

    Raises:
        ValueError: a and b of different widths D, NaN or inf, or a width outside 1..D.
    """
    a = as_float_array(a, "a", expected="(..., D)")
    b = as_float_array(b, "b", expected="(..., D)")
    check_min_ndim(a, "a", expected="(..., D)", min_ndim=1)
    check_min_ndim(b, "b", expected="(..., D)", min_ndim=1)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(
            f"b has D={b.shape[-1]} features but a has D={a.shape[-1]}; "
            f"expected b (..., {a.shape[-1]}), got {b.shape}"
        )
    check_finite(a, "a")
    check_finite(b, "b")
    D = a.shape[-1]
    w = np.asarray(widths)
    if w.dtype.kind not in "iu" or w.ndim != 1:
        raise ValueError(
            f"widths must be whole numbers of shape (n_w,); got dtype {w.dtype}, shape {w.shape}"
        )
    if w.size and (w.min() < 1 or w.max() > D):
        bad = int(w[(w < 1) | (w > D)][0])
        raise ValueError(f"every width must be between 1 and D={D} (the features of a and b); got {bad}")
    return np.cumsum(a * b, axis=-1)[..., w - 1]


def softmax_saturation(scores: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How peaked ``p = softmax(scores)`` is, three ways: largest weight, entropy, gradient size.

    The gradient size is the Frobenius norm of the softmax Jacobian ``J = diag(p) − p·pᵀ``, which
    carries every gradient from the weights back to the scores. It is computed without building J:
    ``‖J‖² = Σp² − 2Σp³ + (Σp²)²``. Uniform weights over n keys give ``1/n``, ``log n`` and
    ``√(1/n − 1/n²)``; a one-hot row (saturated softmax) gives ``1``, ``0`` and ``0``.

    Shapes:
        scores (..., n) -> max_weight (...), entropy (...), jacobian_norm (...)
    """
    p = softmax(scores, axis=-1)
    p2 = np.sum(p * p, axis=-1)
    squared = p2 - 2.0 * np.sum(p**3, axis=-1) + p2 * p2
    return p.max(axis=-1), entropy(p, axis=-1), np.sqrt(np.maximum(squared, 0.0))


def attention_pair_loss(
    X: Any, W_q: Any, W_k: Any, queries: Any, keys: Any, *, scale: bool = True, loss: str = "log"
) -> tuple[float, np.ndarray, np.ndarray]:
    """Loss and gradients for a tiny training task: query token ``queries[n]`` should attend to ``keys[n]``.

    With ``A = softmax(X·W_q·(X·W_k)ᵀ/√d_k)`` and N pairs (i, j), two losses (0 when every listed
    query puts all its weight on its key):

    * ``loss="log"`` (04 §7): the mean of ``−log A[i, j]``. ``G = ∂loss/∂scores`` has
      ``(A[i] − onehot(j))/N`` in row i: the log cancels the softmax Jacobian, so G never vanishes.
    * ``loss="values"`` (05 §4): the mean of ``‖o_i − x_j‖²`` with ``O = A·X`` (values ``V = X``): the
      loss reaches the scores through ``O = A·V`` and the Jacobian ``diag(p) − p·pᵀ``, as in a
      Transformer, where the loss is computed after the layer. ``G[i] = p ⊙ (g − (p·g)·1)`` with
      ``g = ∂loss/∂A[i]``.

    Then ``∂loss/∂W_q = Xᵀ·G·K/√d_k`` and ``∂loss/∂W_k = Xᵀ·Gᵀ·Q/√d_k`` (no √d_k with ``scale=False``).

    Shapes:
        X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), queries (N,), keys (N,)
        -> loss (), grad_W_q (d_model, d_k), grad_W_k (d_model, d_k)

    Raises:
        ValueError: shapes that do not fit, an index outside 0..T-1, or an unknown ``loss``.
    """
    if loss not in ("log", "values"):
        raise ValueError(f"loss must be 'log' (−log A[i, j]) or 'values' (‖o_i − x_j‖²); got {loss!r}")
    X = as_float_array(X, "X", expected="(T, d_model)")
    if X.ndim != 2:
        raise ValueError(f"X must have shape (T, d_model), one row per token; got shape {X.shape}")
    Q, K, _ = project(X, W_q, W_k, np.zeros((X.shape[-1], 1)))
    T, d_k = Q.shape
    idx = []
    for arr, name in ((queries, "queries"), (keys, "keys")):
        arr = np.asarray(arr)
        if arr.dtype.kind not in "iu" or arr.ndim != 1 or arr.size == 0:
            raise ValueError(
                f"{name} must be token indices of shape (N,) with N >= 1; "
                f"got dtype {arr.dtype}, shape {arr.shape}"
            )
        if arr.min() < 0 or arr.max() >= T:
            raise ValueError(f"{name} must be token indices between 0 and T-1={T - 1}; got {arr.tolist()}")
        idx.append(arr)
    q_idx, k_idx = idx
    if q_idx.shape != k_idx.shape:
        raise ValueError(f"queries and keys must pair up: got shapes {q_idx.shape} and {k_idx.shape}")
    c = 1.0 / np.sqrt(d_k) if scale else 1.0
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
        G = A * (g - np.sum(A * g, axis=-1, keepdims=True))  # through the softmax Jacobian, row by row
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
    """Plain gradient descent on ``attention_pair_loss``: the loss at every step and the trained matrices.

    Taught in: 04 §7 (the loop written out), 05 §4 (scaled against unscaled, at several d_k).

    Shapes:
        X (T, d_model), W_q (d_model, d_k), W_k (d_model, d_k), queries (N,), keys (N,)
        -> losses (steps,), W_q (d_model, d_k), W_k (d_model, d_k)
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


def convex_hull_2d(points: Any) -> np.ndarray:
    """The corners of the convex hull of 2-D points, counter-clockwise (Andrew's monotone chain).

    Shapes:
        points (n, 2) -> corners (h, 2), h <= n
    """
    arr = np.asarray(points, dtype=float)
    if arr.ndim != 2 or arr.shape[1] != 2:
        raise ValueError(f"points must have shape (n, 2); got {arr.shape}")
    pts = sorted({(float(x), float(y)) for x, y in arr})
    if len(pts) < 3:
        return np.array(pts)

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    chains = []
    for seq in (pts, pts[::-1]):
        chain: list[tuple[float, float]] = []
        for p in seq:
            while len(chain) >= 2 and cross(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        chains.append(chain[:-1])
    return np.array(chains[0] + chains[1])


def inside_convex_hull(points: Any, query: Any, *, tol: float = 1e-9) -> np.ndarray:
    """For each query point, whether it lies inside (or on the edge of) the convex hull of ``points``.

    A point is inside a convex polygon whose corners run counter-clockwise when it is on the left
    of (or on) every edge: every cross product edge × (point − edge start) is >= 0.

    Shapes:
        points (n, 2), query (m, 2) -> (m,) bool
    """
    corners = convex_hull_2d(points)
    q = np.asarray(query, dtype=float)
    if q.ndim != 2 or q.shape[1] != 2:
        raise ValueError(f"query must have shape (m, 2); got {q.shape}")
    if len(corners) < 3:
        raise ValueError("the points must span an area (at least 3 not on one line) to have an inside")
    start, edge = corners, np.roll(corners, -1, axis=0) - corners  # (h, 2) each
    rel = q[:, None, :] - start[None]  # (m, h, 2)
    cross = edge[None, :, 0] * rel[..., 1] - edge[None, :, 1] * rel[..., 0]
    return (cross >= -tol).all(axis=1)


def score_bins(sigma: float, n_bins: int = 45, reach: float = 4.5) -> np.ndarray:
    """Histogram edges for scores of standard deviation σ: ``n_bins`` bins over ±``reach``·σ.

    Bins that scale with σ give every d_k the same resolution, whatever the width of the scores.

    Shapes:
        -> edges (n_bins + 1,)
    """
    return sigma * np.linspace(-reach, reach, n_bins + 1)


def histogram_heights(scores: Any, sigma: float) -> np.ndarray:
    """Histogram of ``scores`` on ``score_bins(σ)`` as a density divided by the peak ``1/(σ√(2π))``
    of the normal curve N(0, σ²): the normal curve then always peaks at 1.

    Shapes:
        scores (n,) -> heights (n_bins,)
    """
    s = np.asarray(scores, dtype=float).ravel()
    edges = score_bins(sigma)
    counts, _ = np.histogram(s, bins=edges)
    density = counts / (s.size * np.diff(edges))
    return density * sigma * np.sqrt(2 * np.pi)
