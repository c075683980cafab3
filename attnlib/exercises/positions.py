"""The exercises of notebook 10 (positions): the sinusoid table, RoPE's rotation and its scores, ALiBi's bias.

The hidden positions are not 0, 1, 2 ... everywhere (a function that ignores them would pass by luck), the
queries and keys sit at different positions, and T, d_model and n_heads differ, so a transpose gives a wrong
shape instead of passing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..i18n import N_
from .pipeline import Exercise, Mistake, OneOf, checkers

__all__ = ["check_alibi_bias", "check_rope", "check_rope_scores", "check_sinusoid_table"]

BASE = 10000.0  # the base of the frequencies in both papers


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_sinusoid_table(T, d_model):
    t = np.arange(T)[:, None]  # positions 0 … T−1, one per row
    omega = 10000.0 ** (-np.arange(0, d_model, 2) / d_model)  # ω_i = 10000^(−2i/d_model), one per pair
    PE = np.zeros((T, d_model))
    PE[:, 0::2] = np.sin(t * omega)  # columns 2i
    PE[:, 1::2] = np.cos(t * omega)  # columns 2i + 1
    return PE


def solution_rope(X, positions):
    d_k = X.shape[-1]
    omega = 10000.0 ** (-np.arange(0, d_k, 2) / d_k)  # one frequency per pair
    theta = np.asarray(positions, dtype=float)[:, None] * omega  # θ = t·ω_i, shape (T, d_k/2)
    x, y = X[..., 0::2], X[..., 1::2]  # the pairs (x_2i, x_2i+1)
    out = np.empty(X.shape)
    out[..., 0::2] = x * np.cos(theta) - y * np.sin(theta)  # each pair turned by its angle θ
    out[..., 1::2] = x * np.sin(theta) + y * np.cos(theta)
    return out


def solution_rope_scores(Q, K, q_positions, k_positions):
    def rotate(X, positions):  # RoPE: turn each pair (x_2i, x_2i+1) by θ = t·10000^(−2i/d_k)
        d_k = X.shape[-1]
        theta = np.asarray(positions, dtype=float)[:, None] * 10000.0 ** (-np.arange(0, d_k, 2) / d_k)
        x, y = X[:, 0::2], X[:, 1::2]
        out = np.empty(X.shape)
        out[:, 0::2] = x * np.cos(theta) - y * np.sin(theta)
        out[:, 1::2] = x * np.sin(theta) + y * np.cos(theta)
        return out

    return rotate(Q, q_positions) @ rotate(K, k_positions).T  # each side by its own positions; no √d_k


def solution_alibi(T, n_heads):
    m = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)  # one slope per head: 2^(−8/n) … 2^(−8)
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]  # query i (rows), key j (columns)
    bias = m[:, None, None] * (j - i)  # −m·(i − j): the further back the key, the lower its score
    return np.where(j <= i, bias, -np.inf)  # (n_heads, T, T); the causal mask: no key after the query


# Building blocks of the wrong answers.


def _omega(d: int, exponent: float = 2.0) -> np.ndarray:
    """ω_i = base^(−exponent·i/d) for the pairs i = 0 … d/2 − 1 (exponent 2: the right one)."""
    return BASE ** (-exponent * np.arange(d // 2) / d)


def _turn(X: np.ndarray, theta: np.ndarray, layout: str = "pairs") -> np.ndarray:
    """Each pair turned by θ: (x_2i, x_2i+1) for ``"pairs"``, (x_i, x_i+d/2) for ``"halves"``."""
    X = np.asarray(X, dtype=float)
    d = X.shape[-1]
    first, second = (np.s_[..., 0::2], np.s_[..., 1::2]) if layout == "pairs" else (
        np.s_[..., : d // 2], np.s_[..., d // 2 :])
    x, y = X[first], X[second]
    out = np.empty(X.shape)
    out[first] = x * np.cos(theta) - y * np.sin(theta)
    out[second] = x * np.sin(theta) + y * np.cos(theta)
    return out


def _rope(X: np.ndarray, positions: Any, layout: str = "pairs", exponent: float = 2.0,
          angle: float = 1.0) -> np.ndarray:
    """RoPE with one thing changed: the layout of the pairs, the exponent, or a factor on every angle."""
    t = np.asarray(positions, dtype=float)
    return _turn(X, angle * t[:, None] * _omega(np.shape(X)[-1], exponent), layout)


# ---- the sinusoid table --------------------------------------------------------------------------


def _table(T: int, d: int, t0: int = 0, frequency: str = "pairs", sign: float = -1.0) -> np.ndarray:
    """A sin/cos table with one thing changed: first position, or the frequency of each column."""
    t = np.arange(t0, t0 + T, dtype=float)[:, None]
    j = np.arange(d)
    exponent = {"pairs": 2 * (j // 2), "column": j, "doubled": 2 * j}[frequency]
    phase = t * BASE ** (sign * exponent / d)  # (T, d): column j's angle
    return np.where(j % 2 == 0, np.sin(phase), np.cos(phase))


def _sin_cos(T: int, d: int) -> tuple[np.ndarray, np.ndarray]:
    theta = np.arange(T)[:, None] * _omega(d)
    return np.sin(theta), np.cos(theta)


SINUSOID_TABLE = Exercise(
    name="check_sinusoid_table",
    task="``my_sinusoid_table(T, d_model)``: PE[t, 2i] = sin(t·ω_i), PE[t, 2i+1] = cos(t·ω_i), "
    "ω_i = 10000^(−2i/d_model)",
    shapes="T, d_model -> PE (T, d_model)",
    reference=solution_sinusoid_table,
    inputs=[(4, 6), (6, 4), (3, 2)],
    shape="(T, d_model)",
    facts=lambda T, d_model: {"T": T, "d_model": d_model, "label": N_("T={T}, d_model={d_model}")},
    mistakes=[
        Mistake(
            "concatenated",
            N_(
                "your sines fill the first half of the columns and your cosines the second: that layout is "
                "common in code, but the paper interleaves them, sin in column 2i and cos in column 2i + 1 "
                "(PE[:, 0::2] and PE[:, 1::2])."
            ),
            wrong=lambda T, d: np.concatenate(_sin_cos(T, d), axis=1),
            watch=N_("sines in the first half, cosines in the second, instead of interleaved"),
        ),
        Mistake(
            "swapped",
            N_("sin and cos are swapped: the even columns 2i hold sin(t·ω_i), the odd ones 2i + 1 "
               "cos(t·ω_i)."),
            wrong=lambda T, d: np.stack(_sin_cos(T, d)[::-1], axis=-1).reshape(T, d),
            watch=N_("cos in the even columns and sin in the odd ones"),
        ),
        Mistake(
            "column_frequency",
            N_(
                "each of your columns has its own frequency; the two columns of a pair, 2i and 2i + 1, "
                "share one, ω_i = 10000^(−2i/d_model), with i the pair's index "
                "(np.arange(0, d_model, 2) / d_model)."
            ),
            wrong=lambda T, d: OneOf(column=_table(T, d, frequency="column"),
                                     doubled=_table(T, d, frequency="doubled")),
            watch=N_("a frequency per column instead of one per pair of columns"),
        ),
        Mistake(
            "inverse_frequency",
            N_(
                "your angles grow with the column: t·10000^(+2i/d_model). Divide by 10000^(2i/d_model) "
                "instead, so that the frequencies fall from 1 radian per position to about 1/10000."
            ),
            wrong=lambda T, d: _table(T, d, sign=+1.0),
            watch=N_("multiplying t by 10000^(2i/d_model) instead of dividing"),
        ),
        Mistake(
            "from_one",
            N_("your first row is position 1: positions count from 0, so row 0 is sin 0 = 0 and cos 0 = 1."),
            wrong=lambda T, d: _table(T, d, t0=1),
            watch=N_("counting the positions from 1 instead of 0"),
        ),
        Mistake(
            "transposed",
            N_("right numbers, transposed: one row per position, shape (T, d_model) = ({T}, {d_model})."),
            wrong=lambda T, d: solution_sinusoid_table(T, d).T,
            spotted=lambda got, T, d: T != d,
            watch=N_("one column per position instead of one row"),
        ),
    ],
    success=N_("right: row t is the code of position t, and every pair (sin, cos) has length 1."),
)


# ---- RoPE: the rotation --------------------------------------------------------------------------


def _rope_inputs(shapes, seed: int) -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [(rng.normal(size=shape), np.asarray(positions)) for shape, positions in shapes]


def _norms_changed(got: Any, X: np.ndarray) -> bool:
    got = np.asarray(got, dtype=float)
    return got.shape == X.shape and not np.allclose(np.linalg.norm(got, axis=-1), np.linalg.norm(X, axis=-1))


ROPE = Exercise(
    name="check_rope",
    task="``my_rope(X, positions)``: each pair (x_2i, x_2i+1) of row t turned by θ = t·10000^(−2i/d_k)",
    shapes="X (..., T, d_k), positions (T,) -> rotated (..., T, d_k)",
    reference=solution_rope,
    # Positions that are not 0 … T−1 (and not sorted) in the second input, fractions in the third.
    inputs=_rope_inputs([((4, 4), [0, 1, 2, 3]), ((3, 6), [5, 9, 2]), ((5, 8), [0.0, 0.5, 1.0, 7.5, 40.0])],
                        seed=1001),
    harder_inputs=_rope_inputs([((2, 3, 4), [1, 2, 3])], seed=1002),
    harder_context=N_(
        "right for one matrix X (T, d_k), but not with a leading axis ({label}), as for several heads: slice "
        "the last axis (X[..., 0::2], X[..., 1::2]) so the code does not count the axes. In detail: {detail}"
    ),
    shape="(..., T, d_k)",
    facts=lambda X, positions: {
        "X_shape": X.shape,
        "positions": np.round(positions, 2).tolist(),
        "label": N_("X {X_shape}, positions {positions}"),
    },
    mistakes=[
        Mistake(
            "halves",
            N_(
                "you paired x_i with x_(i+d_k/2), the two halves of the row: the 'rotate half' layout of "
                "some libraries. It is a rotation too, and as long as Q and K share it the scores still "
                "depend on i − j only; but weights trained with one layout do not work with the other, and "
                "RoFormer (and this notebook) pairs neighbours: (x_0, x_1), (x_2, x_3), … "
                "(X[..., 0::2], X[..., 1::2])."
            ),
            wrong=lambda X, t: _rope(X, t, layout="halves"),
            watch=N_("pairing the two halves of the row instead of neighbours"),
        ),
        Mistake(
            "clockwise",
            N_(
                "you turned each pair by −θ (clockwise): the signs of sin θ are swapped. "
                "RoFormer turns counterclockwise: x' = x·cos θ − y·sin θ, y' = x·sin θ + y·cos θ."
            ),
            wrong=lambda X, t: _rope(X, t, angle=-1.0),
            watch=N_("turning clockwise, by −θ"),
        ),
        Mistake(
            "degrees",
            N_(
                "your angles are off by a factor of 180/π: np.cos and np.sin take radians, and θ = t·ω_i "
                "already is in radians. Pass θ itself, with no np.radians or np.degrees."
            ),
            wrong=lambda X, t: OneOf(degrees=_rope(X, t, angle=180 / np.pi),
                                     radians=_rope(X, t, angle=np.pi / 180)),
            watch=N_("converting the angles between degrees and radians"),
        ),
        Mistake(
            "frequency",
            N_(
                "your frequencies are 10000^(−i/d_k): the exponent needs the 2, ω_i = 10000^(−2i/d_k) for "
                "pair i (np.arange(0, d_k, 2) / d_k), so the slowest pair turns about 10000 times slower "
                "than the first."
            ),
            wrong=lambda X, t: _rope(X, t, exponent=1.0),
            watch=N_("the frequency 10000^(−i/d_k) without the 2"),
        ),
        Mistake(
            "one_frequency",
            N_(
                "every pair turned by the same angle t: each pair i has its own frequency, "
                "θ = t·10000^(−2i/d_k), fast for the first pairs and slow for the last."
            ),
            wrong=lambda X, t: _rope(X, t, exponent=0.0),
            watch=N_("one angle for every pair, with no frequencies"),
        ),
        Mistake(
            "ignored_positions",
            N_(
                "you used the row numbers 0 … T−1, not the positions you were given ({positions}): "
                "a token keeps its position wherever its row is (a cache, a shifted window)."
            ),
            wrong=lambda X, t: _rope(X, np.arange(np.shape(X)[-2])),
            spotted=lambda got, X, t: not np.array_equal(t, np.arange(len(t))),
            watch=N_("using the row numbers instead of the positions given"),
        ),
        Mistake(
            "not_a_rotation",
            N_(
                "the lengths of your rows changed ({label}), so this is not a rotation: check the signs, "
                "x' = x·cos θ − y·sin θ and y' = x·sin θ + y·cos θ, the same θ in all four places."
            ),
            spotted=lambda got, X, t: _norms_changed(got, X),
            watch=N_("a sign slip that changes the lengths of the rows"),
        ),
    ],
    success=N_("right: every row keeps its length, and each pair turns by its own angle."),
)


# ---- RoPE: the scores ----------------------------------------------------------------------------


def _scores_inputs() -> list[tuple[np.ndarray, ...]]:
    rng = np.random.default_rng(1010)
    cases = [((4, 4), (4, 4), [3, 4, 5, 6], [0, 1, 2, 3]), ((3, 6), (5, 6), [7, 8, 9], [0, 2, 4, 6, 8])]
    return [(rng.normal(size=q), rng.normal(size=k), np.asarray(qp), np.asarray(kp))
            for q, k, qp, kp in cases]


def _pair(Q, K, qp, kp, q_layout="pairs", k_layout="pairs") -> np.ndarray:
    return _rope(Q, qp, layout=q_layout) @ _rope(K, kp, layout=k_layout).T


ROPE_SCORES = Exercise(
    name="check_rope_scores",
    task="``my_rope_scores(Q, K, q_positions, k_positions)``: RoPE's scores R(i)·q_i · R(j)·k_j, not scaled",
    shapes="Q (T_q, d_k), K (T_k, d_k), q_positions (T_q,), k_positions (T_k,) -> scores (T_q, T_k)",
    reference=solution_rope_scores,
    inputs=_scores_inputs(),
    shape="(T_q, T_k)",
    facts=lambda Q, K, qp, kp: {
        "T_q": Q.shape[0], "T_k": K.shape[0], "d_k": Q.shape[1],
        "label": N_("{T_q} queries, {T_k} keys, d_k={d_k}"),
    },
    mistakes=[
        Mistake(
            "plain",
            N_("these are the plain scores Q·Kᵀ: no position reached them. Rotate Q and K first, each by its "
               "own positions, then take the products."),
            wrong=lambda Q, K, qp, kp: Q @ K.T,
            watch=N_("no rotation at all: the plain scores"),
        ),
        Mistake(
            "one_side",
            N_(
                "only one of Q and K was rotated. Then the score depends on one position, not on the "
                "distance i − j: rotate both, the queries by q_positions and the keys by k_positions."
            ),
            wrong=lambda Q, K, qp, kp: OneOf(keys=_rope(Q, qp) @ K.T, queries=Q @ _rope(K, kp).T),
            watch=N_("rotating only the queries or only the keys"),
        ),
        Mistake(
            "same_positions",
            N_(
                "Q and K were both turned by the positions of one side, so the distances i − j are the "
                "wrong ones: each side needs its own, the queries q_positions and the keys k_positions."
            ),
            wrong=lambda Q, K, qp, kp: OneOf(
                queries=_rope(Q, qp) @ _rope(K, qp).T, keys=_rope(Q, kp) @ _rope(K, kp).T),
            spotted=lambda got, Q, K, qp, kp: len(qp) == len(kp),
            watch=N_("turning both sides by the positions of one side"),
        ),
        Mistake(
            "swapped_positions",
            N_("the positions are swapped: the queries sit at q_positions and the keys at k_positions."),
            wrong=lambda Q, K, qp, kp: _rope(Q, kp) @ _rope(K, qp).T,
            spotted=lambda got, Q, K, qp, kp: len(qp) == len(kp),
            watch=N_("swapping the positions of the queries and the keys"),
        ),
        Mistake(
            "inconsistent",
            N_(
                "Q and K were rotated with different pairs (one interleaved, one in halves): then q·k no "
                "longer depends on i − j only. Rotate both the same way, pairs (x_0, x_1), (x_2, x_3), …"
            ),
            wrong=lambda Q, K, qp, kp: OneOf(
                k_halves=_pair(Q, K, qp, kp, k_layout="halves"),
                q_halves=_pair(Q, K, qp, kp, q_layout="halves")),
            watch=N_("rotating the queries and the keys with different pairs"),
        ),
        Mistake(
            "halves",
            N_(
                "both sides pair x_i with x_(i+d_k/2), the 'rotate half' layout of some libraries: "
                "consistent, so still a function of i − j, but not this notebook's rotation, which pairs "
                "neighbours (x_0, x_1), (x_2, x_3), …"
            ),
            wrong=lambda Q, K, qp, kp: _pair(Q, K, qp, kp, "halves", "halves"),
            watch=N_("pairing the two halves of each row instead of neighbours"),
        ),
        Mistake(
            "scaled",
            N_("you divided by √d_k = √{d_k}: here the scores are asked for before scaling, "
               "R(i)·q_i · R(j)·k_j."),
            wrong=lambda Q, K, qp, kp: _pair(Q, K, qp, kp) / np.sqrt(Q.shape[1]),
            watch=N_("dividing by √d_k, which this exercise leaves out"),
        ),
        Mistake(
            "transposed",
            N_("right numbers, transposed: one row per query and one column per key, shape ({T_q}, {T_k})."),
            wrong=lambda Q, K, qp, kp: _pair(Q, K, qp, kp).T,
            watch=N_("one row per key instead of one per query"),
        ),
    ],
    success=N_("right: each score depends on the two positions only through i − j."),
)


# ---- ALiBi ---------------------------------------------------------------------------------------


def _alibi(T: int, n_heads: int, slopes: np.ndarray | None = None, sign: float = 1.0,
           blocked: float = -np.inf) -> np.ndarray:
    """The causal ALiBi term with one thing changed: the slopes, the sign, or what the future gets."""
    m = 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads) if slopes is None else slopes
    i, j = np.arange(T)[:, None], np.arange(T)[None, :]
    return np.where(j <= i, sign * m[:, None, None] * (j - i), blocked)


def _masked_like_reference(got: Any, T: int, n_heads: int, finite: bool) -> bool:
    """Right on and below the diagonal; above it finite (``finite``) or a large finite negative number."""
    got = np.asarray(got, dtype=float)
    want = _alibi(T, n_heads)
    if got.shape != want.shape or T < 2:
        return False
    past = np.broadcast_to(np.tri(T, dtype=bool), want.shape)
    if not np.allclose(got[past], want[past]) or not np.isfinite(got[~past]).all():
        return False
    return finite or bool((got[~past] < -1e3).all())


ALIBI_BIAS = Exercise(
    name="check_alibi_bias",
    task="``my_alibi(T, n_heads)``: the term causal ALiBi adds to the scores, −m_h·(i − j) where j ≤ i and "
    "−∞ where j > i, with m_h = 2^(−8h/n_heads)",
    shapes="T, n_heads -> bias (n_heads, T, T)",
    reference=solution_alibi,
    inputs=[(4, 2), (5, 4), (3, 8)],
    shape="(n_heads, T, T)",
    facts=lambda T, n_heads: {"T": T, "n_heads": n_heads, "label": N_("T={T}, n_heads={n_heads}")},
    mistakes=[
        Mistake(
            "sign",
            N_(
                "your bias grows with the distance: +m·(i − j) rewards keys far back. ALiBi subtracts, "
                "−m·(i − j), so a key d positions back loses m·d."
            ),
            wrong=lambda T, n: _alibi(T, n, sign=-1.0),
            watch=N_("adding m·(i − j) instead of subtracting it"),
        ),
        Mistake(
            "big_negative",
            N_(
                "right below the diagonal, but the future gets a large finite number instead of −∞: "
                "use -np.inf, whose exp is exactly 0."
            ),
            spotted=lambda got, T, n: _masked_like_reference(got, T, n, finite=False),
            watch=N_("a large finite number such as -1e9 instead of −∞"),
        ),
        Mistake(
            "no_mask",
            N_(
                "right on and below the diagonal, but the keys after the query (j > i) are not blocked. "
                "The bias alone would even favour them: put −∞ where j > i, as the causal mask does."
            ),
            spotted=lambda got, T, n: _masked_like_reference(got, T, n, finite=True),
            watch=N_("forgetting the causal mask above the diagonal"),
        ),
        Mistake(
            "slopes_from_zero",
            N_(
                "your first head has slope 1: the heads count from h = 1, m_h = 2^(−8h/n_heads), "
                "so the slopes run from 2^(−8/n_heads) down to 2^(−8) = 1/256."
            ),
            wrong=lambda T, n: _alibi(T, n, slopes=2.0 ** (-8.0 * np.arange(n) / n)),
            watch=N_("counting the heads from 0, which gives a slope of 1"),
        ),
        Mistake(
            "eight_heads",
            N_(
                "your slopes are 1/2, 1/4, 1/8 …, the sequence for 8 heads. With n_heads = {n_heads} it is "
                "m_h = 2^(−8h/{n_heads}): the last head always gets 1/256."
            ),
            wrong=lambda T, n: _alibi(T, n, slopes=2.0 ** -np.arange(1.0, n + 1)),
            spotted=lambda got, T, n: n != 8,
            watch=N_("the slopes for 8 heads whatever the number of heads"),
        ),
        Mistake(
            "heads_last",
            N_(
                "right numbers, but the heads are on the last axis: the bias is added to scores of shape "
                "(n_heads, T, T), so the heads come first: shape ({n_heads}, {T}, {T})."
            ),
            wrong=lambda T, n: np.moveaxis(_alibi(T, n), 0, -1),
            spotted=lambda got, T, n: T != n,
            watch=N_("putting the heads on the last axis"),
        ),
    ],
    success=N_("right: 0 on the diagonal, −m·d for a key d positions back, and no future key."),
)


EXERCISES = (SINUSOID_TABLE, ROPE, ROPE_SCORES, ALIBI_BIAS)
check_sinusoid_table, check_rope, check_rope_scores, check_alibi_bias = checkers(
    __name__, EXERCISES, taught="10 §Exercises"
)
