"""Exercises of notebook 08 (a real model): split into heads, one head's weights, a head's job.

The hidden cases use T, d_k and n_heads that all differ, so a reshape or transpose along the wrong
axis gives a wrong shape or wrong numbers instead of passing by luck.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feedback import Case, Verdict, check_function, matches, softmax_rows

__all__ = ["check_head_weights", "check_previous_token_score", "check_split_heads"]


# ---- 1. split_heads ------------------------------------------------------------------------------
def _split_cases(batched: bool) -> list[Case]:
    rng = np.random.default_rng(801)
    # (leading axes, T, n_heads, d_k): T, n_heads and d_k all differ in every case.
    shapes = [((2,), 3, 4, 5), ((2, 3), 5, 2, 4)] if batched else [((), 5, 3, 4), ((), 4, 6, 2)]
    cases = []
    for lead, T, n_heads, d_k in shapes:
        X = rng.normal(size=(*lead, T, n_heads * d_k))
        expected = np.swapaxes(X.reshape(*lead, T, n_heads, d_k), -2, -3)
        label = f"X {X.shape}, n_heads={n_heads}"
        cases.append(Case((X, n_heads), expected, label=label))
    return cases


def _split_parts(case: Case) -> tuple[np.ndarray, int, tuple[int, ...], int, int]:
    X, n_heads = case.args
    return X, n_heads, X.shape[:-2], X.shape[-2], X.shape[-1] // n_heads


def _reshape_only(got: np.ndarray, case: Case) -> str | None:
    X, n_heads, lead, T, d_k = _split_parts(case)
    if matches(got, X.reshape(*lead, n_heads, T, d_k)):
        return (
            "the shape is right but the numbers are scrambled: a reshape straight to "
            "(..., n_heads, T, d_k) cuts the array in memory order, so a 'head' gets pieces of "
            "several tokens. Reshape to (..., T, n_heads, d_k) first, then swap the T and n_heads axes."
        )
    return None


def _no_swap(got: np.ndarray, case: Case) -> str | None:
    X, n_heads, lead, T, d_k = _split_parts(case)
    if matches(got, X.reshape(*lead, T, n_heads, d_k)):
        return (
            f"you have shape (..., T, n_heads, d_k) = {got.shape}: the columns are cut into heads "
            "correctly, but the heads axis must come before the tokens, (..., n_heads, T, d_k), so "
            "attention can treat the heads like a batch. Swap axes -2 and -3."
        )
    return None


def _interleaved(got: np.ndarray, case: Case) -> str | None:
    X, n_heads, lead, T, d_k = _split_parts(case)
    strided = np.moveaxis(X.reshape(*lead, T, d_k, n_heads), -1, -3)  # head h = columns h, h+n_heads, ...
    if matches(got, strided):
        return (
            "head h got every n_heads-th column (h, h + n_heads, ...). A head owns one block of d_k "
            "neighbouring columns, h·d_k to (h+1)·d_k: reshape the last axis to (n_heads, d_k), "
            "not (d_k, n_heads)."
        )
    return None


def _reversed_axes(got: np.ndarray, case: Case) -> str | None:
    X, n_heads, lead, T, d_k = _split_parts(case)
    four = X.reshape(*lead, T, n_heads, d_k)
    wrong = (four.T, np.swapaxes(four, -1, -2), np.swapaxes(four, -1, -3))
    if any(matches(got, w) for w in wrong):
        return (
            f"you swapped the wrong axes (your shape is {got.shape}). After the reshape to "
            "(..., T, n_heads, d_k) swap only T and n_heads, np.swapaxes(x, -2, -3); .T reverses every axis."
        )
    return None


_SPLIT_DIAGNOSES = (_reshape_only, _no_swap, _interleaved, _reversed_axes)


def check_split_heads(candidate: Any) -> Verdict:
    """Check ``my_split_heads(X, n_heads)``: cut d_model into n_heads slices, heads before tokens.

    Shapes:
        X (..., T, d_model), n_heads int -> (..., n_heads, T, d_k),  d_k = d_model / n_heads
    """
    single = check_function(candidate, _split_cases(batched=False), diagnoses=_SPLIT_DIAGNOSES)
    if not single:
        return single
    batch = check_function(candidate, _split_cases(batched=True), diagnoses=_SPLIT_DIAGNOSES)
    if not batch:
        return Verdict(
            False,
            "right for one sentence X (T, d_model), but not with leading batch axes (B, T, d_model): "
            "count axes from the end (reshape(*X.shape[:-1], n_heads, d_k), swapaxes(-2, -3)) so the "
            f"code does not depend on how many axes come first. In detail: {batch.message}",
        )
    return Verdict(True, "correct: a reshape cuts the columns into heads, a swap puts heads before tokens")


# ---- 2. the weights of one head ------------------------------------------------------------------
def _head_cases() -> list[Case]:
    rng = np.random.default_rng(802)
    cases = []
    # (T, n_heads, d_k, h): T, n_heads and d_k all differ; h is never 0 or the last head.
    for T, n_heads, d_k, h in ((5, 3, 4, 1), (4, 6, 2, 3), (6, 4, 8, 2)):
        d_model = n_heads * d_k
        X = rng.normal(size=(T, d_model))
        W_q, W_k = (rng.normal(size=(d_model, d_model)) / np.sqrt(d_model) * 2.0 for _ in range(2))
        b_q, b_k = (rng.normal(size=d_model) for _ in range(2))
        args = (X, W_q, W_k, b_q, b_k, h, n_heads)
        cases.append(Case(args, _head(*args), label=f"T={T}, n_heads={n_heads}, d_k={d_k}, head {h}"))
    return cases


def _head(X, W_q, W_k, b_q, b_k, h, n_heads, *, bias=True, divisor=None, cols=None, axis=-1):
    d_k = W_q.shape[1] // n_heads
    cols = slice(h * d_k, (h + 1) * d_k) if cols is None else cols
    Q = X @ W_q[:, cols] + (b_q[cols] if bias else 0.0)
    K = X @ W_k[:, cols] + (b_k[cols] if bias else 0.0)
    return softmax_rows(Q @ K.T / (np.sqrt(d_k) if divisor is None else divisor), axis=axis)


def _no_bias(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _head(*case.args, bias=False)):
        return (
            "you left out the biases. This model computes Q = X·W_q + b_q and K = X·W_k + b_k; "
            "slice b_q and b_k with the same columns as W_q and W_k."
        )
    return None


def _layer_scale(got: np.ndarray, case: Case) -> str | None:
    X, W_q, *_, n_heads = case.args
    d_model, d_k = W_q.shape[1], W_q.shape[1] // n_heads
    if matches(got, _head(*case.args, divisor=np.sqrt(d_model))):
        return (
            f"you divided by √d_model = √{d_model}. Each head is an attention of its own with "
            f"d_k = d_model / n_heads = {d_k} columns: divide its scores by √d_k = √{d_k}."
        )
    return None


def _head_no_scale(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _head(*case.args, divisor=1.0)):
        return "you forgot to divide the scores by √d_k (d_k = the width of one head) before softmax."
    return None


def _strided_columns(got: np.ndarray, case: Case) -> str | None:
    *_, h, n_heads = case.args
    if matches(got, _head(*case.args, cols=slice(h, None, n_heads))):
        return (
            f"head {h} took every n_heads-th column ({h}, {h + n_heads}, ...). It owns one block of "
            f"neighbouring columns: h·d_k to (h+1)·d_k, i.e. W_q[:, h*d_k:(h+1)*d_k]."
        )
    return None


def _wrong_head(got: np.ndarray, case: Case) -> str | None:
    *_, h, n_heads = case.args
    for other in range(n_heads):
        if other != h and matches(got, _head(*case.args[:5], other, n_heads)):
            return (
                f"those are the weights of head {other}, not head {h}: count heads from 0, "
                f"head h owns columns h·d_k to (h+1)·d_k."
            )
    return None


def _all_columns(got: np.ndarray, case: Case) -> str | None:
    X, W_q, *_, n_heads = case.args
    d_k = W_q.shape[1] // n_heads
    for divisor in (np.sqrt(d_k), np.sqrt(W_q.shape[1])):
        if matches(got, _head(*case.args, cols=slice(None), divisor=divisor)):
            return (
                "you used every column of W_q and W_k, i.e. all heads at once as a single attention. "
                "Head h uses only its own d_k columns, h·d_k to (h+1)·d_k."
            )
    return None


def _head_axis(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _head(*case.args, axis=0)):
        return "your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."
    return None


def check_head_weights(candidate: Any) -> Verdict:
    """Check ``my_head_weights(X, W_q, W_k, b_q, b_k, h, n_heads)``: the attention weights of head h.

    Shapes:
        X (T, d_model), W_q (d_model, n_heads·d_k), W_k (d_model, n_heads·d_k),
        b_q (n_heads·d_k,), b_k (n_heads·d_k,), h int, n_heads int -> weights (T, T)
    """
    return check_function(
        candidate,
        _head_cases(),
        diagnoses=(
            _no_bias,
            _layer_scale,
            _head_no_scale,
            _strided_columns,
            _wrong_head,
            _all_columns,
            _head_axis,
        ),
        success="correct: head h is an attention of its own, on its d_k columns, scaled by √d_k",
    )


# ---- 3. a previous-token score per head ----------------------------------------------------------
def _score_cases() -> list[Case]:
    rng = np.random.default_rng(803)
    cases = []
    for n_layers, n_heads, T in ((2, 3, 5), (3, 2, 4), (1, 4, 7)):
        weights = softmax_rows(rng.normal(size=(n_layers, n_heads, T, T)) * 2.0)
        expected = _offset_mean(weights, -1)
        cases.append(Case((weights,), expected, label=f"{n_layers} layers, {n_heads} heads, T={T}"))
    return cases


def _offset_mean(weights: np.ndarray, offset: int) -> np.ndarray:
    """Mean over the queries of the weight on the key ``offset`` places away (-1: the previous one)."""
    return np.diagonal(weights, offset=offset, axis1=-2, axis2=-1).mean(axis=-1)


def _next_token(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _offset_mean(case.args[0], 1)):
        return (
            "that is the weight on the next token. Rows are queries and columns are keys: query i's "
            "previous token is key i-1, the entry weights[..., i, i-1], just below the diagonal."
        )
    return None


def _self_token(got: np.ndarray, case: Case) -> str | None:
    if matches(got, _offset_mean(case.args[0], 0)):
        return "that is the weight each token gives itself (the diagonal); the previous token is key i-1."
    return None


def _wrap_around(got: np.ndarray, case: Case) -> str | None:
    (weights,) = case.args
    T = weights.shape[-1]
    rolled = weights[..., np.arange(T), np.arange(T) - 1].mean(axis=-1)  # query 0 -> key T-1
    if matches(got, rolled):
        return (
            "query 0 has no previous token, but you counted weights[..., 0, T-1] (index -1 wraps "
            "around to the last key). Average over the queries 1 .. T-1 only."
        )
    return None


def _summed(got: np.ndarray, case: Case) -> str | None:
    (weights,) = case.args
    below = np.diagonal(weights, offset=-1, axis1=-2, axis2=-1)
    if matches(got, below.sum(axis=-1)):
        return "you added up the T-1 weights; take their mean, so a perfect previous-token head scores 1."
    if matches(got, below.sum(axis=-1) / weights.shape[-1]):
        return "you divided by T, but only T-1 queries have a previous token: divide by T-1 (or use .mean())."
    return None


def _not_averaged(got: np.ndarray, case: Case) -> str | None:
    if matches(got, np.diagonal(case.args[0], offset=-1, axis1=-2, axis2=-1)):
        return (
            "you have the weight on the previous token for every query, shape (n_layers, n_heads, T-1); "
            "average over the queries (the last axis) to get one score per head."
        )
    return None


def check_previous_token_score(candidate: Any) -> Verdict:
    """Check ``my_previous_token_score(weights)``: per head, the mean weight on the previous token.

    For every layer and head, the average over the queries i = 1 .. T-1 of ``weights[l, h, i, i-1]``.

    Shapes:
        weights (n_layers, n_heads, T, T) -> score (n_layers, n_heads)
    """
    return check_function(
        candidate,
        _score_cases(),
        diagnoses=(_next_token, _self_token, _wrap_around, _summed, _not_averaged),
        success="correct: one score per head, 1 for a head that always looks one token back",
    )
