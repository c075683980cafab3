"""Positions: how a token's place in the sequence reaches attention, which by itself ignores order.

Three ways, each a few lines of numpy behind a public function that checks its inputs:

* **sinusoids** (Vaswani et al. 2017, §3.5): a table PE (T, d_model) added to the embeddings, column pair
  (2i, 2i+1) holding sin and cos of ``t·ω_i`` with ``ω_i = base^(−2i/d_model)``; shifting every position
  by k is one fixed linear map of the table, a block-diagonal rotation (:func:`sinusoid_shift`);
* **RoPE** (Su et al., RoFormer, 2021): each pair (x_{2i}, x_{2i+1}) of a query or a key is turned by the
  angle ``θ_{t,i} = t·ω_i`` of its own position t, so the score of query i and key j depends on i − j
  only (:func:`apply_rope`, :func:`rope_scores`);
* **ALiBi** (Press et al. 2022): no change to Q or K; each head h adds ``−m_h·(i − j)`` to the score of
  query i and key j, a penalty growing with the distance (:func:`alibi_slopes`, :func:`alibi_bias`).

Positions are float64 numbers (a position may be fractional: interpolated positions are), the pairs are
RoFormer's interleaved ones, (x_0, x_1), (x_2, x_3) ..., and angles are in radians.

Taught in: 10
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..checks import check_number, check_positive_int, refuse
from ..i18n import N_
from ..validation import as_float_array, check_attention_inputs, check_finite, check_min_ndim

__all__ = [
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "rope_angles",
    "rope_scores",
    "sinusoid_shift",
    "sinusoidal_positions",
]


# ---- the kernels: the formulas, on checked values ------------------------------------------------


def _frequencies(d: int, base: float) -> np.ndarray:
    """ω_i = base^(−2i/d) for the pairs i = 0 .. d/2 − 1: one turn per 2π/ω_i positions."""
    return base ** (-np.arange(0, d, 2) / d)  # (d/2,)


def _angles(positions: np.ndarray, d: int, base: float) -> np.ndarray:
    """θ_{t,i} = t·ω_i: one angle per position and pair."""
    return positions[..., None] * _frequencies(d, base)  # (..., T, d/2)


def _rotate_pairs(X: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """Turn each pair (x_{2i}, x_{2i+1}) of X's rows counterclockwise by θ: (x + i·y)·e^{iθ}."""
    x, y = X[..., 0::2], X[..., 1::2]  # (..., T, d_k/2) each
    cos, sin = np.cos(theta), np.sin(theta)  # (..., T, d_k/2)
    turned = np.stack([x * cos - y * sin, x * sin + y * cos], axis=-1)  # (..., T, d_k/2, 2)
    return turned.reshape(*turned.shape[:-2], X.shape[-1])  # (..., T, d_k): the pairs interleaved again


# ---- checks shared by the public functions -------------------------------------------------------


def _even_width(d: Any, name: str, symbol: str) -> int:
    """`d` as an int, if it is a whole number >= 2 and even (the features come in pairs)."""
    d = check_positive_int(d, name, symbol=symbol)
    if d % 2:
        refuse(ValueError, N_("{name} must be even: the features come in pairs (2i, 2i+1), one angle per "
                              "pair; got {name}={value}"), name=name, value=d)
    return d


def _base(base: Any) -> float:
    return check_number(base, "base", low=1.0)


def _positions(positions: Any, name: str, expected: str) -> np.ndarray:
    """Finite real positions with at least one axis, as float64."""
    arr = as_float_array(positions, name, expected=expected)
    check_min_ndim(arr, name, expected=expected, min_ndim=1)
    check_finite(arr, name)
    return arr.astype(np.float64, copy=False)


def _positions_for(positions: Any, X: np.ndarray, name: str, of: str) -> np.ndarray:
    """The positions of X's T rows: arange(T) by default, else (T,) or (..., T) fitting X (..., T, d_k)."""
    T = X.shape[-2]
    if positions is None:
        return np.arange(T, dtype=np.float64)
    arr = _positions(positions, name, "(..., T)")
    try:
        fits = arr.shape[-1] == T and len(np.broadcast_shapes(arr.shape, X.shape[:-1])) == X.ndim - 1
    except ValueError:
        fits = False
    if not fits:
        refuse(ValueError, N_("{name} must give one position per row of {of}: expected shape (T,) = ({T},) "
                              "or (..., {T}) fitting {of} {shape}; got {got}"),
               name=name, of=of, T=T, shape=X.shape, got=arr.shape)
    return arr


def _real_number(value: Any, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        refuse(TypeError, N_("{name} must be a real number; got {value!r} ({type})"), name=name, value=value,
               type=type(value).__name__)
    if not np.isfinite(value):
        refuse(ValueError, N_("{name} must be a finite number; got {value}"), name=name, value=value)
    return float(value)


# ---- sinusoids -----------------------------------------------------------------------------------


def sinusoidal_positions(T: Any, d_model: Any, base: float = 10000.0) -> np.ndarray:
    """The sinusoidal position table of the Transformer paper: one row per position, added to X.

    ``PE[t, 2i] = sin(t / base^(2i/d_model))`` and ``PE[t, 2i+1] = cos(t / base^(2i/d_model))``
    (Vaswani et al. 2017, §3.5): the columns come in pairs that share one frequency
    ``ω_i = base^(−2i/d_model)``, from one turn per 2π positions (i = 0) down to one per about
    ``2π·base`` positions.

    Parameters
    ----------
    T : int
        The number of positions, t = 0 .. T − 1.
    d_model : int
        The width of an embedding; even.
    base : float
        The base of the frequencies, > 1 (10000 in the paper).

    Returns
    -------
    PE : ndarray of float64
        Row t is the code of position t; every pair (sin, cos) has norm 1.

    Raises
    ------
    TypeError
        T or d_model not whole numbers, base not a number.
    ValueError
        T or d_model below 1, d_model odd, base not > 1.

    Shapes:
        T, d_model -> PE (T, d_model)

    Taught in: 10 §3
    """
    T = check_positive_int(T, "T", symbol=N_("number of positions"))
    d_model = _even_width(d_model, "d_model", N_("width of an embedding"))
    theta = _angles(np.arange(T, dtype=np.float64), d_model, _base(base))  # (T, d_model/2)
    PE = np.empty((T, d_model))
    PE[:, 0::2] = np.sin(theta)
    PE[:, 1::2] = np.cos(theta)
    return PE


def sinusoid_shift(k: Any, d_model: Any, base: float = 10000.0) -> np.ndarray:
    """The matrix M_k with ``PE[t + k] = PE[t] @ M_k`` for every t: a shift of k positions is linear.

    Each pair (sin tω, cos tω) becomes (sin (t+k)ω, cos (t+k)ω) by the angle-sum formulas, a rotation by
    kω that does not depend on t; M_k holds one such 2×2 block per pair on its diagonal:
    ``[[cos kω_i, −sin kω_i], [sin kω_i, cos kω_i]]``, which the row PE[t] multiplies from the left.

    Parameters
    ----------
    k : float
        The shift, in positions; negative shifts back, and any real number works.
    d_model : int
        The width of the table; even.
    base : float
        As for :func:`sinusoidal_positions`.

    Returns
    -------
    M_k : ndarray of float64
        Block diagonal and orthogonal (``M_k @ M_kᵀ = I``); ``M_0 = I`` and ``M_a @ M_b = M_{a+b}``.

    Raises
    ------
    TypeError
        k not a real number, d_model not a whole number, base not a number.
    ValueError
        k not finite, d_model below 1 or odd, base not > 1.

    Shapes:
        k, d_model -> M_k (d_model, d_model)

    Taught in: 10 §3
    """
    k = _real_number(k, "k")
    d_model = _even_width(d_model, "d_model", N_("width of an embedding"))
    phi = k * _frequencies(d_model, _base(base))  # (d_model/2,): the angle each pair turns by
    pairs = np.arange(0, d_model, 2)
    M = np.zeros((d_model, d_model))
    M[pairs, pairs] = M[pairs + 1, pairs + 1] = np.cos(phi)
    M[pairs, pairs + 1] = -np.sin(phi)  # new cos = cos·cos kω − sin·sin kω: row sin, column cos
    M[pairs + 1, pairs] = np.sin(phi)
    return M


# ---- RoPE ----------------------------------------------------------------------------------------


def rope_angles(positions: Any, d_k: Any, base: float = 10000.0) -> np.ndarray:
    """The rotation angles of RoPE, ``θ_{t,i} = t · base^(−2i/d_k)``: one per position and pair.

    Parameters
    ----------
    positions : array_like of float
        The positions t (whole numbers usually; fractions are allowed).
    d_k : int
        The width of a query or key; even.
    base : float
        The base of the frequencies, > 1 (10000 in RoFormer).

    Returns
    -------
    theta : ndarray of float64
        In radians; pair i = 0 turns fastest (1 radian per position).

    Raises
    ------
    TypeError
        Positions that are not real numbers, d_k not a whole number, base not a number.
    ValueError
        Positions with no axis, NaN or infinity; d_k below 1 or odd; base not > 1.

    Shapes:
        positions (..., T), d_k -> theta (..., T, d_k/2)

    Taught in: 10 §6
    """
    positions = _positions(positions, "positions", "(..., T)")
    d_k = _even_width(d_k, "d_k", N_("width of a query or key"))
    return _angles(positions, d_k, _base(base))


def apply_rope(X: Any, positions: Any = None, base: float = 10000.0) -> np.ndarray:
    """Rotary position embedding: turn each pair (x_{2i}, x_{2i+1}) of row t by the angle θ_{t,i}.

    ``x'_{2i} = x_{2i}·cos θ − x_{2i+1}·sin θ`` and ``x'_{2i+1} = x_{2i}·sin θ + x_{2i+1}·cos θ`` with
    ``θ = t·base^(−2i/d_k)`` (RoFormer's interleaved pairs). Applied to both Q and K, the score
    ``q'_i·k'_j`` depends on the positions only through i − j; lengths of rows do not change.

    Parameters
    ----------
    X : array_like
        Queries or keys, one row per token (the positions count the rows).
    positions : array_like of float, optional
        The position of each row: ``arange(T)`` when not given; shape (T,), or (..., T) matching X's
        batch axes (e.g. one row of positions per sentence).
    base : float
        As for :func:`rope_angles`.

    Returns
    -------
    rotated : ndarray of float64
        Every row keeps its length.

    Raises
    ------
    TypeError
        Non-numeric X or positions, base not a number.
    ValueError
        X with fewer than 2 axes, d_k = 0 or odd, NaN or infinity, positions that are not one per row.

    Shapes:
        X (..., T, d_k), positions (T,) or (..., T) -> rotated (..., T, d_k)

    Taught in: 10 §5, 10 §6
    """
    X = as_float_array(X, "X", expected="(..., T, d_k)")
    check_min_ndim(X, "X", expected="(..., T, d_k)")
    _even_width(X.shape[-1], "d_k", N_("width of a query or key"))
    check_finite(X, "X")
    t = _positions_for(positions, X, "positions", "X")
    return _rotate_pairs(X, _angles(t, X.shape[-1], _base(base)))


def rope_scores(
    Q: Any, K: Any, q_positions: Any = None, k_positions: Any = None, base: float = 10000.0
) -> np.ndarray:
    """The scores of RoPE attention before scaling: ``R(i)·q_i · R(j)·k_j`` for every query i and key j.

    Both sides are rotated by :func:`apply_rope`, each by its own positions. With each pair written as a
    complex number, ``q̃_p = q_{2p} + ι·q_{2p+1}`` (ι = √−1), the score is
    ``Re Σ_p q̃_p·conj(k̃_p)·e^{ι·(i − j)·ω_p}``: a function of i − j. Divide by √d_k (and add M) for the
    weights, as in the plain formula.

    Parameters
    ----------
    Q : array_like
        Queries, one row per query token.
    K : array_like
        Keys, one row per key token.
    q_positions, k_positions : array_like of float, optional
        The positions of the queries and of the keys (``arange`` of their count when not given).
    base : float
        As for :func:`rope_angles`.

    Returns
    -------
    scores : ndarray of float64
        Not scaled by 1/√d_k.

    Raises
    ------
    TypeError
        Non-numeric input, base not a number.
    ValueError
        Shapes that do not fit, d_k odd, NaN or infinity, positions that are not one per row.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), q_positions (T_q,), k_positions (T_k,) -> scores (..., T_q, T_k)

    Taught in: 10 §6
    """
    Q, K, _ = check_attention_inputs(Q, K)
    d_k = _even_width(Q.shape[-1], "d_k", N_("width of a query or key"))
    base = _base(base)
    q_t = _positions_for(q_positions, Q, "q_positions", "Q")
    k_t = _positions_for(k_positions, K, "k_positions", "K")
    Q_rot = _rotate_pairs(Q, _angles(q_t, d_k, base))
    K_rot = _rotate_pairs(K, _angles(k_t, d_k, base))
    return Q_rot @ np.swapaxes(K_rot, -1, -2)  # (..., T_q, T_k)


# ---- ALiBi ---------------------------------------------------------------------------------------


def _geometric_slopes(n: int) -> np.ndarray:
    """2^(−8h/n) for h = 1 .. n: from 2^(−8/n) down to 2^(−8) = 1/256."""
    return 2.0 ** (-8.0 * np.arange(1, n + 1) / n)


def alibi_slopes(n_heads: Any) -> np.ndarray:
    """The slopes of ALiBi, one per head: ``m_h = 2^(−8h/n_heads)`` for h = 1 .. n_heads.

    For a power of two this is the geometric sequence of Press et al. (2022, §3), which starts at 2^(−8/n)
    and has that same ratio: 8 heads get 1/2, 1/4, ..., 1/256. The paper gives only that case; for any other
    number this follows the authors' released code (``get_slopes`` in their fairseq ``transformer.py``):
    with p the largest power of two below n_heads, the p slopes of p heads, then the first n_heads − p
    slopes of the odd-numbered heads (h = 1, 3, 5, ...) of 2p heads, which fall between them (6 heads:
    1/4, 1/16, 1/64, 1/256, then 1/2 and 1/8). Every head has its own slope.

    Parameters
    ----------
    n_heads : int
        The number of heads.

    Returns
    -------
    slopes : ndarray of float64
        Positive and distinct, from 1/256 up to (below) 1.

    Raises
    ------
    TypeError
        n_heads not a whole number.
    ValueError
        n_heads below 1.

    Shapes:
        n_heads -> slopes (n_heads,)

    Taught in: 10 §7
    """
    n = check_positive_int(n_heads, "n_heads", symbol=N_("number of heads"))
    p = 1 << (n.bit_length() - 1)  # the largest power of two <= n
    if p == n:
        return _geometric_slopes(n)
    return np.concatenate([_geometric_slopes(p), _geometric_slopes(2 * p)[0::2][: n - p]])


def alibi_bias(T_q: Any, T_k: Any = None, slopes: Any = 1.0) -> np.ndarray:
    """The bias ALiBi adds to the scores: ``−m·(i − j)`` for query i and key j, one matrix per slope m.

    Query i sits at position i and key j at position j (rows and columns counted from 0; T_k = T_q when
    not given). A key d positions back costs ``m·d``; keys after the query (j > i) get ``+m·(j − i)`` by
    the same formula, a bonus, which is why ALiBi goes with the causal mask, added separately:
    ``softmax(scores(Q, K) + alibi_bias(T, slopes=m) + additive_mask(causal_mask(T)))`` gives the
    weights, with exactly 0 for every future key.

    Parameters
    ----------
    T_q : int
        The number of queries.
    T_k : int, optional
        The number of keys (T_q when not given).
    slopes : float or array_like of float
        One slope (a single matrix), or one per head (e.g. :func:`alibi_slopes`); each finite and >= 0
        (0: the head ignores distance).

    Returns
    -------
    bias : ndarray of float64
        0 on the diagonal, ``−m·d`` d places below it.

    Raises
    ------
    TypeError
        T_q or T_k not whole numbers, slopes not real numbers.
    ValueError
        T_q or T_k below 1, slopes with more than one axis, negative, NaN or infinite.

    Shapes:
        T_q, T_k, slopes () -> bias (T_q, T_k);  slopes (n_heads,) -> bias (n_heads, T_q, T_k)

    Taught in: 10 §7
    """
    T_q = check_positive_int(T_q, "T_q", symbol=N_("number of queries"))
    T_k = T_q if T_k is None else check_positive_int(T_k, "T_k", symbol=N_("number of keys"))
    m = as_float_array(slopes, "slopes", expected="() or (n_heads,)")
    if m.ndim > 1:
        refuse(ValueError, N_("slopes must be one number or one per head, shape () or (n_heads,); got shape "
                              "{shape}"), shape=m.shape)
    check_finite(m, "slopes")
    if (m < 0).any():
        refuse(ValueError, N_("slopes must be >= 0 (a penalty that grows with the distance); got {value:g}"),
               value=float(m[m < 0].flat[0]))
    j_minus_i = np.arange(T_k, dtype=np.float64) - np.arange(T_q)[:, None]  # (T_q, T_k): −(i − j)
    return m.astype(np.float64)[..., None, None] * j_minus_i  # (T_q, T_k) or (n_heads, T_q, T_k); +0 on i = j
