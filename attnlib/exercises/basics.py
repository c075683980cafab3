"""Checkers for the exercises of notebooks 01-03: dot products, softmax and the weighted sum.

Each ``check_...(your_function)`` runs your function on hidden cases and returns a ``Verdict``.
When an answer is wrong it first tries to recognise the mistake (the wrong axis, Xᵀ·X instead of
X·Xᵀ, no max subtraction, weights that are not a convex combination ...) and says so in words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core import cosine_similarity, entropy, softmax
from ._feedback import Case, Diagnosis, Verdict, check_function, matches

__all__ = [
    "check_cosine_matrix",
    "check_entropy",
    "check_gram_matrix",
    "check_is_convex_combination",
    "check_projection_length",
    "check_scaled_softmax",
    "check_simple_attention",
    "check_softmax_rows",
    "check_weighted_sum",
]

# The running example of notebooks 01-03 (data/zao_shang_hao.json), one row per token.
_ZAO = np.array([[1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 0.0], [0.5, 0.8, 0.0, 1.0]])
# Other hidden inputs: never square (T != d), so a transposed answer shows in its shape.
_X_5x2 = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, -1.5], [2.0, 1.0], [-0.5, -0.5]])
_X_2x6 = np.array([[0.5, -1.0, 2.0, 0.0, 1.0, -0.5], [1.5, 0.5, -1.0, 1.0, 0.0, 2.0]])
_SCORES_3x3 = np.array([[2.0, 0.5, -1.0], [0.0, 1.0, 3.0], [-2.0, 1.5, 1.0]])  # not symmetric
_SCORES_2x4 = np.array([[1.0, -1.0, 0.5, 2.0], [0.0, 3.0, -2.0, 1.0]])
_SCORES_LARGE = np.array([[1000.0, 999.0, 998.0], [-1000.0, -1001.0, -1003.0]])


def _run(candidate: Callable[..., Any], case: Case) -> np.ndarray | None:
    """The learner's answer on one case as a float array, or None if it raises or is not numeric."""
    args = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in case.args)
    try:
        with np.errstate(all="ignore"):
            got = candidate(*args, **case.kwargs)
        if isinstance(got, tuple) and got:
            got = got[0]
        return np.asarray(got, dtype=float)
    except Exception:  # reported properly by check_function on the same case
        return None


def _guarded(diagnose: Diagnosis) -> Diagnosis:
    """A diagnosis that stays silent instead of crashing on an answer of an unexpected shape."""

    def run(got: np.ndarray, case: Case) -> str | None:
        try:
            with np.errstate(all="ignore"):
                return diagnose(got, case)
        except (ValueError, TypeError, IndexError):
            return None

    return run


def _check(candidate: Any, cases: Sequence[Case], diagnoses: Sequence[Diagnosis], success: str) -> Verdict:
    """``check_function``, after catching the most common slip of all: a function that returns None."""
    if callable(candidate) and cases:
        args = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in cases[0].args)
        try:
            with np.errstate(all="ignore"):
                returned = candidate(*args, **cases[0].kwargs)
        except Exception:  # check_function reports it
            returned = 0
        if returned is None:
            return Verdict(False, "your function returned None: did you forget the `return` line?")
    return check_function(candidate, cases, diagnoses=[_guarded(d) for d in diagnoses], success=success)


def _check_then_probe(
    candidate: Any,
    cases: Sequence[Case],
    diagnoses: Sequence[Diagnosis],
    probe: Case,
    probe_message: str,
    success: str,
) -> Verdict:
    """Check the ordinary cases, then one case where a numerically naive answer turns into NaN or inf.

    ``check_function`` reports any NaN with a generic message; here a NaN on the probe case gets
    the specific explanation instead.
    """
    verdict = _check(candidate, cases, diagnoses, success)
    if not verdict:
        return verdict
    got = _run(candidate, probe)
    if got is not None and got.shape == np.shape(probe.expected) and not np.isfinite(got).all():
        return Verdict(False, probe_message)
    return check_function(candidate, [probe], diagnoses=[_guarded(d) for d in diagnoses], success=success)


# ---- 01 · inner products ----------------------------------------------------------------------


def _gram_transposed(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, X.T @ X):
        T, d = X.shape
        return (
            f"you computed Xᵀ·X, shape (d, d) = ({d}, {d}): that compares features with features. "
            f"Tokens are the rows of X, so their dot products are X·Xᵀ, shape (T, T) = ({T}, {T})."
        )
    return None


def _gram_elementwise(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, X * X):
        return (
            "you squared X entry by entry (X * X), which keeps the shape (T, d). "
            "A dot product multiplies and then adds up: use the matrix product X @ X.T."
        )
    return None


def _gram_diagonal_only(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, (X * X).sum(axis=1)):
        return (
            "you returned only each token's dot product with itself (the diagonal, squared lengths). "
            "The task wants every pair (i, j): a (T, T) matrix."
        )
    return None


def _gram_normalised(got: np.ndarray, case: Case) -> str | None:
    if matches(got, cosine_similarity(case.args[0])):
        return (
            "you divided by the lengths: that is the cosine similarity. "
            "Here we want the raw dot products, lengths included."
        )
    return None


def check_gram_matrix(candidate: Any) -> Verdict:
    """Exercise 01.1: ``my_gram(X)`` returns every dot product between rows, ``X·Xᵀ``.

    Shapes:
        X (T, d) -> (T, T)
    """
    cases = [Case((X,), X @ X.T, label=f"X of shape {X.shape}") for X in (_ZAO, _X_5x2, _X_2x6)]
    return _check(
        candidate,
        cases,
        diagnoses=[_gram_transposed, _gram_elementwise, _gram_diagonal_only, _gram_normalised],
        success="right: entry (i, j) is row i · row j, a (T, T) matrix.",
    )


def _cos_raw(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, X @ X.T):
        return "these are the raw dot products; divide entry (i, j) by |x_i| |x_j|."
    return None


def _cos_columns(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    cols = X / np.linalg.norm(X, axis=0, keepdims=True)
    if matches(got, cols @ cols.T):
        return (
            "you normalised the columns (axis=0). Each token is a row: divide each row by its own "
            "length, np.linalg.norm(X, axis=1, keepdims=True)."
        )
    return None


def _cos_one_sided(got: np.ndarray, case: Case) -> str | None:
    if got.ndim == 2 and got.shape[0] == got.shape[1] and not np.allclose(got, got.T, atol=1e-6):
        return (
            "your matrix is not symmetric, but cos(x_i, x_j) = cos(x_j, x_i). "
            "Did you divide by one token's length only (or by |x_i|² instead of |x_i| |x_j|)?"
        )
    return None


def _cos_angle(got: np.ndarray, case: Case) -> str | None:
    cos = np.clip(cosine_similarity(case.args[0]), -1.0, 1.0)
    if matches(got, np.arccos(cos)) or matches(got, np.degrees(np.arccos(cos))):
        return "you returned the angle θ itself; the task asks for cos θ (no arccos needed)."
    return None


def check_cosine_matrix(candidate: Any) -> Verdict:
    """Exercise 01.2: ``my_cosine(X)`` returns the cosine of the angle between every pair of rows.

    Shapes:
        X (T, d) -> (T, T)
    """
    cases = [
        Case((X,), cosine_similarity(X), label=f"X of shape {X.shape}") for X in (_ZAO, _X_5x2, _X_2x6)
    ]
    return _check(
        candidate,
        cases,
        diagnoses=[_cos_raw, _cos_columns, _cos_angle, _cos_one_sided],
        success="right: the dot products of the rows after scaling every row to length 1.",
    )


def _proj_by_a(got: np.ndarray, case: Case) -> str | None:
    a, b = case.args
    if matches(got, a @ b / np.linalg.norm(a)):
        return (
            "you divided by |a|. The projection of a onto b is measured along b, so divide a·b by |b| "
            "(it equals |a| cos θ)."
        )
    return None


def _proj_coefficient(got: np.ndarray, case: Case) -> str | None:
    a, b = case.args
    if matches(got, a @ b / (b @ b)):
        return (
            "you divided by |b|²: that is the number c with (projection vector) = c · b. "
            "Its signed length is c · |b| = a·b / |b|."
        )
    return None


def _proj_cosine(got: np.ndarray, case: Case) -> str | None:
    a, b = case.args
    if matches(got, a @ b / (np.linalg.norm(a) * np.linalg.norm(b))):
        return "that is cos θ, with no length in it; the projection's length is |a| cos θ = a·b / |b|."
    return None


def _proj_vector(got: np.ndarray, case: Case) -> str | None:
    a, b = case.args
    if got.shape == b.shape:
        return (
            "you returned a vector (the projection itself, shape (d,)). "
            "The task asks for its signed length: one number, a·b / |b|."
        )
    return None


def _proj_unsigned(got: np.ndarray, case: Case) -> str | None:
    a, b = case.args
    if a @ b < 0 and matches(got, abs(a @ b) / np.linalg.norm(b)):
        return (
            "right size, wrong sign: when θ > 90° the projection points away from b, "
            "so its signed length is negative. Don't take abs()."
        )
    return None


def check_projection_length(candidate: Any) -> Verdict:
    """Exercise 01.3: ``my_projection(a, b)`` returns the signed length of a's projection onto b.

    Shapes:
        a (d,), b (d,) -> ()
    """
    pairs = [
        (np.array([2.0, 1.0]), np.array([3.0, 0.0])),
        (np.array([1.0, 2.0, 2.0]), np.array([0.0, 3.0, 4.0])),
        (np.array([-2.0, 1.0]), np.array([1.5, 0.5])),  # obtuse: a negative projection
    ]
    cases = [
        Case((a, b), np.asarray(a @ b / np.linalg.norm(b)), label=f"a={a.tolist()}, b={b.tolist()}")
        for a, b in pairs
    ]
    return _check(
        candidate,
        cases,
        diagnoses=[_proj_vector, _proj_unsigned, _proj_by_a, _proj_coefficient, _proj_cosine],
        success="right: a·b / |b| = |a| cos θ, negative when the angle is over 90°.",
    )


# ---- 02 · softmax ------------------------------------------------------------------------------


def _rows_not_normalised(got: np.ndarray) -> bool:
    return got.ndim >= 1 and not np.allclose(got.sum(axis=-1), 1.0, atol=1e-6)


def _softmax_columns(got: np.ndarray, case: Case) -> str | None:
    if got.ndim == 2 and _rows_not_normalised(got) and np.allclose(got.sum(axis=0), 1.0, atol=1e-6):
        return (
            "your columns sum to 1 but your rows don't: which axis did you normalise? "
            "Each query row must sum to 1, so use axis=-1 (with keepdims=True)."
        )
    return None


def _softmax_whole(got: np.ndarray, case: Case) -> str | None:
    if got.ndim == 2 and _rows_not_normalised(got) and np.isclose(got.sum(), 1.0, atol=1e-6):
        return (
            "all your entries together sum to 1: you divided by the sum of the whole matrix. "
            "Divide each row by its own sum (axis=-1, keepdims=True)."
        )
    return None


def _softmax_no_division(got: np.ndarray, case: Case) -> str | None:
    if matches(got, np.exp(case.args[0])):
        return "these are exp(scores), not yet normalised: divide each row by its sum."
    return None


def _softmax_no_exp(got: np.ndarray, case: Case) -> str | None:
    scores = case.args[0]
    with np.errstate(all="ignore"):
        plain = scores / scores.sum(axis=-1, keepdims=True)
    if matches(got, plain):
        return (
            "you divided the scores by their row sum but skipped the exp. "
            "Rows then sum to 1, yet negative scores give negative 'weights': exponentiate first."
        )
    return None


def _softmax_column_max(got: np.ndarray, case: Case) -> str | None:
    scores = case.args[0]
    if scores.ndim == 2 and matches(got, softmax(scores - scores.max(axis=0), axis=-1)):
        return (
            "you subtracted each column's maximum. A constant per row cancels out, a constant per "
            "column does not: subtract each row's maximum, scores.max(axis=-1, keepdims=True)."
        )
    return None


_SOFTMAX_DIAGNOSES = [
    _softmax_columns,
    _softmax_whole,
    _softmax_no_division,
    _softmax_no_exp,
    _softmax_column_max,
]


def check_softmax_rows(candidate: Any) -> Verdict:
    """Exercise 02.1: ``my_softmax(scores)`` normalises every row, safely for large scores.

    Shapes:
        scores (T_q, T_k) -> weights (T_q, T_k)
    """
    cases = [
        Case((sc,), softmax(sc, axis=-1), label=f"scores of shape {sc.shape}")
        for sc in (_SCORES_3x3, _SCORES_2x4)
    ]
    return _check_then_probe(
        candidate,
        cases,
        _SOFTMAX_DIAGNOSES,
        Case((_SCORES_LARGE,), softmax(_SCORES_LARGE, axis=-1), label="large scores like ±1000"),
        "right on small scores, but NaN or inf for scores like 1000 or -1000: exp(1000) overflows to "
        "inf (inf/inf = NaN) and exp(-1000) underflows to 0 (0/0 = NaN). "
        "Subtract each row's maximum before the exp: the answer does not change, the overflow goes.",
        success="right, and safe for large scores: every row is positive and sums to 1.",
    )


def _scaled_divided(got: np.ndarray, case: Case) -> str | None:
    scores, beta = case.args
    if beta not in (0, 1) and matches(got, softmax(scores / beta, axis=-1)):
        return (
            f"you divided the scores by β = {beta} (that is a temperature of {beta}). "
            "Here β multiplies: softmax(β · scores)."
        )
    return None


def _scaled_after(got: np.ndarray, case: Case) -> str | None:
    scores, beta = case.args
    if beta != 1 and matches(got, beta * softmax(scores, axis=-1)):
        return (
            f"you multiplied the weights by β after the softmax, so each row sums to β = {beta}. "
            "Scale the scores before the softmax."
        )
    return None


def _scaled_added(got: np.ndarray, case: Case) -> str | None:
    scores, beta = case.args
    if beta != 1 and matches(got, softmax(scores, axis=-1)):
        return (
            f"your weights did not change with β = {beta}. Adding β to every score changes nothing "
            "(softmax ignores a constant added to a row); β must multiply the scores."
        )
    return None


def _scaled_rows(got: np.ndarray, case: Case) -> str | None:
    if _rows_not_normalised(got):
        return "your rows don't sum to 1: the softmax must be the last step, along axis=-1."
    return None


def check_scaled_softmax(candidate: Any) -> Verdict:
    """Exercise 02.2: ``my_scaled_softmax(scores, beta)`` returns ``softmax(β · scores)`` row by row.

    Shapes:
        scores (T_q, T_k), beta float -> weights (T_q, T_k)
    """
    settings = [(_SCORES_3x3, 2.0), (_SCORES_3x3, 0.5), (_SCORES_2x4, 3.0), (_SCORES_2x4, 0.0)]
    cases = [Case((sc, beta), softmax(beta * sc, axis=-1), label=f"β = {beta}") for sc, beta in settings]
    return _check(
        candidate,
        cases,
        diagnoses=[_scaled_divided, _scaled_after, _scaled_added, _scaled_rows],
        success="right: β = 0 gives uniform rows, a large β makes them peaked.",
    )


def _entropy_bits(got: np.ndarray, case: Case) -> str | None:
    if matches(got, np.asarray(case.expected) / np.log(2)):
        return "you used log base 2 (bits). We measure in nats: use np.log (the natural log)."
    return None


def _entropy_sign(got: np.ndarray, case: Case) -> str | None:
    if matches(got, -np.asarray(case.expected)):
        return "your entropies are negative: the formula is minus Σ p log p (log p ≤ 0 for p ≤ 1)."
    return None


def _entropy_axis(got: np.ndarray, case: Case) -> str | None:
    p = case.args[0]
    if p.ndim == 2:
        with np.errstate(all="ignore"):
            terms = -p * np.log(p)
        if matches(got, terms.sum(axis=0)):
            return "you summed over axis 0 (down the columns); each row is one distribution: axis=-1."
        if got.shape == () and matches(got, terms.sum()):
            return "you returned one number for the whole matrix; give one entropy per row (axis=-1)."
    return None


def check_entropy(candidate: Any) -> Verdict:
    """Exercise 02.3: ``my_entropy(weights)`` returns ``-Σ p log p`` (nats) of each row.

    Shapes:
        weights (..., T_k) -> (...)
    """
    rows = [
        np.full(3, 1 / 3),
        np.array([0.4005471, 0.4005471, 0.1989058]),
        softmax(_SCORES_3x3, axis=-1),
    ]
    cases = [Case((p,), entropy(p), label=f"weights of shape {p.shape}") for p in rows]
    one_hot = np.array([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]])
    return _check_then_probe(
        candidate,
        cases,
        [_entropy_bits, _entropy_sign, _entropy_axis],
        Case((one_hot,), entropy(one_hot), label="weights with zeros"),
        "right for positive weights, but NaN when a weight is 0: 0 · log 0 is 0 · (-inf) = NaN. "
        "Count those terms as 0, e.g. np.where(p > 0, p * np.log(np.where(p > 0, p, 1)), 0).",
        success="right: log T for uniform weights, 0 for one-hot, in nats.",
    )


# ---- 03 · the weighted sum ---------------------------------------------------------------------


def _ws_not_summed(got: np.ndarray, case: Case) -> str | None:
    w, X = case.args
    if matches(got, w[:, None] * X):
        return (
            "you have every token's weighted row, shape (T, d), but did not add them up: "
            "sum over the tokens (axis 0), or write w @ X."
        )
    return None


def _ws_feature_sum(got: np.ndarray, case: Case) -> str | None:
    w, X = case.args
    if matches(got, (w[:, None] * X).sum(axis=1)):
        return (
            "you added over the features (axis 1) and got one number per token. "
            "Add over the tokens (axis 0) to get one row of width d."
        )
    return None


def _ws_scalar(got: np.ndarray, case: Case) -> str | None:
    if got.shape == ():
        return "you added everything into one number; the output is a row of width d, like the input rows."
    return None


def _ws_plain_mean(got: np.ndarray, case: Case) -> str | None:
    w, X = case.args
    if matches(got, X.mean(axis=0)):
        return "that is the plain average of the rows (every weight 1/T); use the weights w."
    return None


def _ws_divided(got: np.ndarray, case: Case) -> str | None:
    w, X = case.args
    if matches(got, (w @ X) / len(w)):
        return (
            "you divided by T after weighting. The weights already sum to 1, "
            "so w @ X is already an average: no division needed."
        )
    return None


def check_weighted_sum(candidate: Any) -> Verdict:
    """Exercise 03.1: ``my_weighted_sum(w, X)`` returns ``Σ_j w_j X[j]``, one output row.

    Shapes:
        w (T,), X (T, d) -> (d,)
    """
    inputs = [
        (softmax(_ZAO @ _ZAO.T)[0], _ZAO),
        (np.array([0.1, 0.2, 0.3, 0.25, 0.15]), _X_5x2),
        (np.array([0.75, 0.25]), _X_2x6),
    ]
    cases = [Case((w, X), w @ X, label=f"w of shape {w.shape}, X of shape {X.shape}") for w, X in inputs]
    return _check(
        candidate,
        cases,
        diagnoses=[_ws_scalar, _ws_not_summed, _ws_feature_sum, _ws_plain_mean, _ws_divided],
        success="right: one row of width d, a weighted average of the rows of X.",
    )


def _attn_returned_x(got: np.ndarray, case: Case) -> str | None:
    if matches(got, case.args[0]):
        return "you returned X unchanged: each output must mix the rows of X with the weights softmax(X·Xᵀ)."
    return None


def _attn_returned_weights(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, softmax(X @ X.T, axis=-1)):
        return (
            "those are the weights softmax(X·Xᵀ), shape (T, T). "
            "One step more: multiply them with X to get the outputs, shape (T, d)."
        )
    return None


def _attn_raw_scores(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, (X @ X.T) @ X):
        return (
            "you multiplied the raw scores X·Xᵀ with X and skipped the softmax. Without it the weights "
            "are not positive and do not sum to 1, so the outputs can leave the convex hull of the rows."
        )
    return None


def _attn_columns(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, softmax(X @ X.T, axis=0) @ X):
        return (
            "your weights sum to 1 down each column (axis 0). "
            "Each output row needs a row of weights that sums to 1: softmax along axis=-1."
        )
    return None


def _attn_order(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, X.T @ softmax(X @ X.T, axis=-1)):
        return "you computed Xᵀ·weights, shape (d, T). The weights come first: weights @ X, shape (T, d)."
    return None


def _attn_uniform(got: np.ndarray, case: Case) -> str | None:
    X = case.args[0]
    if matches(got, np.broadcast_to(X.mean(axis=0), X.shape)):
        return (
            "every output row is the plain average of all rows: your weights came out uniform. "
            "Did the scores X·Xᵀ get lost (multiplied by 0, or replaced by a constant)?"
        )
    return None


def check_simple_attention(candidate: Any) -> Verdict:
    """Exercise 03.2: ``my_attention(X)`` returns ``softmax(X·Xᵀ)·X``, attention with no parameters.

    Shapes:
        X (T, d) -> out (T, d)
    """
    inputs = (_ZAO, _X_5x2 / 2, _X_2x6 / 2)  # halved: moderate scores, so the weights are not one-hot
    cases = [Case((X,), softmax(X @ X.T, axis=-1) @ X, label=f"X of shape {X.shape}") for X in inputs]
    return _check(
        candidate,
        cases,
        diagnoses=[
            _attn_returned_x,
            _attn_returned_weights,
            _attn_raw_scores,
            _attn_columns,
            _attn_order,
            _attn_uniform,
        ],
        success="right: each output row is a weighted average of the rows of X, with the width of X.",
    )


_CONVEX_CASES = {
    "weights that sum to 1": ([0.2, 0.3, 0.5], True),
    "a sum that is 1 only up to rounding": ([0.6, 0.3, 0.1], True),  # 0.9999999999999999 in floats
    "a negative weight": ([1.5, -0.5], False),
    "weights that sum to 0.7": ([0.5, 0.2], False),
    "a one-hot row": ([0.0, 1.0, 0.0], True),
    "weights that sum to 1.3": ([0.4, 0.4, 0.5], False),
}


def _convex_message(got: np.ndarray, case: Case) -> str | None:
    w = np.asarray(case.args[0])
    if got.shape != ():
        return f"return a single True or False for the whole row; got an array of shape {got.shape}"
    said = "True" if bool(got) else "False"
    hints = {
        "a sum that is 1 only up to rounding": (
            f"you said False for {w.tolist()}: in floating point its sum is {float(w.sum())!r}, "
            "not exactly 1. Compare with a tolerance, np.isclose(w.sum(), 1)."
        ),
        "a negative weight": (
            f"you said True for {w.tolist()}: it sums to 1, but a convex combination needs every weight "
            ">= 0 (with 1.5 and -0.5 the point lands outside the segment between the two rows)."
        ),
        "weights that sum to 0.7": (
            f"you said True for {w.tolist()}: every weight is >= 0, but they must also add up to 1."
        ),
        "weights that sum to 1.3": (
            f"you said True for {w.tolist()}: every weight is >= 0, but they must also add up to 1."
        ),
        "a one-hot row": (
            f"you said False for {w.tolist()}: weights may be 0 (use >= 0, not > 0); a one-hot row "
            "simply picks one token."
        ),
    }
    return hints.get(case.label, f"you said {said} for {w.tolist()}, {case.label}")


def check_is_convex_combination(candidate: Any) -> Verdict:
    """Exercise 03.3: ``my_is_convex(w)`` says whether weights are >= 0 and sum to 1 (up to rounding).

    Shapes:
        w (T,) -> bool
    """
    cases = [
        Case((np.array(w),), np.asarray(float(ok)), label=label) for label, (w, ok) in _CONVEX_CASES.items()
    ]
    return _check(
        candidate,
        cases,
        diagnoses=[_convex_message],
        success="right: non-negative weights that sum to 1 (with a tolerance) keep a point inside the hull.",
    )
