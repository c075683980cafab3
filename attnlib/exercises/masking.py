"""Exercises of notebook 06 (masking): causal mask, masked softmax, key-padding mask, mask polarities."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._feedback import Case, Verdict, check_function, matches, softmax_rows

__all__ = ["check_causal_mask", "check_keep_mask", "check_masked_softmax", "check_padding_mask"]


def _additive(keep: np.ndarray) -> np.ndarray:
    return np.where(keep, 0.0, -np.inf)


def _causal_cases() -> list[Case]:
    return [Case((T,), _additive(np.tril(np.ones((T, T), dtype=bool))), label=f"T={T}") for T in (4, 1, 6)]


def _future(got: np.ndarray, case: Case) -> str | None:
    (T,) = case.args
    upper = np.triu(np.ones((T, T), dtype=bool))
    if T > 1 and (matches(got, _additive(upper)) or matches(got, _additive(~np.tril(upper.T, -1)))):
        return (
            "−∞ is below the diagonal: query i could see only itself and the future (keys after i), "
            "which is peeking. Block the keys j > i, above the diagonal."
        )
    if T > 1 and matches(got, _additive(~np.tril(np.ones((T, T), dtype=bool)))):
        return (
            "your mask is inverted: 0 must be where attention is allowed (j ≤ i, on and below the "
            "diagonal) and −∞ where it is blocked (j > i)."
        )
    return None


def _diagonal(got: np.ndarray, case: Case) -> str | None:
    (T,) = case.args
    if matches(got, _additive(np.tril(np.ones((T, T), dtype=bool), -1))):
        return (
            "you blocked the diagonal too: a token must see itself. Otherwise query 0 sees nothing "
            "at all and its weights are 0/0."
        )
    return None


def _zero_one(got: np.ndarray, case: Case) -> str | None:
    (T,) = case.args
    keep = np.tril(np.ones((T, T)))
    if matches(got, keep) or matches(got, 1 - keep):
        return (
            "this is a 0/1 'may attend' table, not the additive mask M. M is added to the scores: "
            "0 where attention is allowed, −np.inf where it is blocked."
        )
    return None


def _big_negative(got: np.ndarray, case: Case) -> str | None:
    (T,) = case.args
    keep = np.tril(np.ones((T, T), dtype=bool))
    try:
        arr = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return None
    if arr.shape == (T, T) and T > 1 and np.isfinite(arr).all() and (arr[~keep] < -100).all():
        return (
            f"you used a large finite number ({arr[~keep].flat[0]:,.0f}) instead of −∞. It happens to "
            "work in float64, but it is a magic number: use -np.inf, whose exp is exactly 0."
        )
    return None


def check_causal_mask(candidate: Any) -> Verdict:
    """Check ``my_causal_mask(T)``: the additive mask M, 0 on and below the diagonal, −∞ above it.

    Shapes:
        T -> M (T, T)
    """
    return check_function(
        candidate,
        _causal_cases(),
        diagnoses=(_future, _diagonal, _zero_one, _big_negative),
        success="correct: each token sees itself and the past, never the future",
    )


def _softmax_cases() -> list[Case]:
    rng = np.random.default_rng(606)
    cases = []
    # Every row and every column of the first case has both allowed and blocked cells, so even
    # the wrong answers (mask inverted, softmax down the columns) stay finite and can be named.
    keeps = [
        np.tril(np.ones((5, 5), dtype=bool)),
        np.array([[True, True, True, False, False]] * 3),
        rng.random((5, 6)) < 0.6,
    ]
    keeps[0][4, 2] = False
    keeps[2][:, 0] = True  # every query keeps at least one key
    for keep in keeps:
        scores = rng.normal(size=keep.shape) * 2
        expected = softmax_rows(np.where(keep, scores, -np.inf))
        cases.append(Case((scores, keep), expected, label=f"{keep.shape[0]} queries, {keep.shape[1]} keys"))
    return cases


def _masked_with_zero(got: np.ndarray, case: Case) -> str | None:
    scores, keep = case.args
    if matches(got, softmax_rows(np.where(keep, scores, 0.0))):
        return (
            "you set the blocked scores to 0, but e⁰ = 1: blocked keys still get weight (they leak). "
            "Set them to -np.inf, whose exp is exactly 0."
        )
    return None


def _after_softmax(got: np.ndarray, case: Case) -> str | None:
    scores, keep = case.args
    if matches(got, softmax_rows(scores) * keep):
        return (
            "you zeroed the weights after softmax, so the rows no longer sum to 1. Either divide each "
            "row by its new sum, or (simpler) put −∞ in the scores before softmax."
        )
    return None


def _inverted(got: np.ndarray, case: Case) -> str | None:
    scores, keep = case.args
    if matches(got, softmax_rows(np.where(keep, -np.inf, scores))):
        return "your mask is inverted: True means 'may attend', so block where keep is False (~keep)."
    return None


def _ignored(got: np.ndarray, case: Case) -> str | None:
    scores, _ = case.args
    if matches(got, softmax_rows(scores)):
        return "the mask is ignored: blocked keys still get weight. Put −∞ where keep is False."
    return None


def _masked_axis(got: np.ndarray, case: Case) -> str | None:
    scores, keep = case.args
    if matches(got, softmax_rows(np.where(keep, scores, -np.inf), axis=0)):
        return "your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."
    return None


def check_masked_softmax(candidate: Any) -> Verdict:
    """Check ``my_masked_softmax(scores, keep)``: softmax of the scores with −∞ where ``keep`` is False.

    Shapes:
        scores (T_q, T_k), keep (T_q, T_k) boolean -> weights (T_q, T_k)
    """
    return check_function(
        candidate,
        _softmax_cases(),
        diagnoses=(_masked_with_zero, _after_softmax, _inverted, _ignored, _masked_axis),
        success="correct: blocked keys get exactly 0 and every row sums to 1",
    )


def _padding_cases() -> list[Case]:
    cases = []
    for lengths, T in (([3, 5, 1], 5), ([2, 2], 4), ([4], 4)):
        lengths = np.array(lengths)
        keep = (np.arange(T) < lengths[:, None])[:, None, :]
        cases.append(Case((lengths, T), keep, label=f"lengths {lengths.tolist()}, T={T}"))
    return cases


def _off_by_one(got: np.ndarray, case: Case) -> str | None:
    lengths, T = case.args
    ar, L = np.arange(T), lengths[:, None]
    if matches(got, (ar <= L)[:, None, :]) or matches(got, (ar < L - 1)[:, None, :]):
        return (
            "off by one: a sentence of length L has real tokens at positions 0 … L−1, "
            "so key j is real when j < L."
        )
    return None


def _query_axis(got: np.ndarray, case: Case) -> str | None:
    lengths, T = case.args
    keep = np.arange(T) < lengths[:, None]
    if matches(got, keep[:, :, None]):
        return (
            "this masks the queries (shape (B, T, 1)): a padding query would see nothing at all. "
            "Mask the keys instead: shape (B, 1, T), so every query ignores the padding keys."
        )
    if matches(got, keep):
        return (
            "right values, but shape (B, T): add the query axis in the middle, keep[:, None, :], "
            "shape (B, 1, T), so it broadcasts over the queries of the (B, T, T) scores."
        )
    return None


def _padding_inverted(got: np.ndarray, case: Case) -> str | None:
    lengths, T = case.args
    if matches(got, (np.arange(T) >= lengths[:, None])[:, None, :]):
        return "your mask is inverted: True must mean 'a real token, may attend', False 'padding'."
    return None


def check_padding_mask(candidate: Any) -> Verdict:
    """Check ``my_padding_mask(lengths, T)``: True where key j of sentence b is real (j < lengths[b]).

    Shapes:
        lengths (B,), T -> keep (B, 1, T)
    """
    return check_function(
        candidate,
        _padding_cases(),
        diagnoses=(_off_by_one, _query_axis, _padding_inverted),
        success="correct: every query of sentence b ignores its padding keys",
    )


# What a key mask of shape (B, T_k) means in each library (06 §7): True / 1 = ...
CONVENTIONS = {
    "attnlib": "True = may attend",
    "torch_key_padding": "True = ignore this key (nn.MultiheadAttention's key_padding_mask)",
    "torch_sdpa": "True = takes part (F.scaled_dot_product_attention's boolean attn_mask)",
    "hf": "1 = keep, 0 = padding (Hugging Face's attention_mask, integers)",
}


def _written_as(real: np.ndarray, convention: str) -> np.ndarray:
    if convention == "torch_key_padding":
        return ~real
    if convention == "hf":
        return real.astype(np.int64)
    return real.copy()


def _keep_cases() -> list[Case]:
    cases = []
    for lengths, T in (([5, 3], 5), ([2, 4, 1], 4)):
        real = np.arange(T) < np.array(lengths)[:, None]  # (B, T_k): True for real tokens
        for convention in CONVENTIONS:
            mask = _written_as(real, convention)
            cases.append(Case((mask, convention), real[:, None, :], label=f"{convention}, lengths {lengths}"))
    return cases


def _polarity(got: np.ndarray, case: Case) -> str | None:
    mask, convention = case.args
    real = case.expected[:, 0, :]
    for wrong in (~real[:, None, :], ~real):
        if matches(got, wrong):
            if convention == "torch_key_padding":
                return (
                    "not inverted: PyTorch's key_padding_mask is True where a key is ignored (padding), "
                    "attnlib's keep is True where a key may be attended to. Return ~mask."
                )
            if convention == "attnlib":
                return "inverted: attnlib's own mask is already True = may attend, so return it unchanged."
            return (
                f"inverted, but {convention!r} already means {CONVENTIONS[convention]}, like attnlib: "
                "only PyTorch's key_padding_mask has the opposite polarity."
            )
    return None


def _no_query_axis(got: np.ndarray, case: Case) -> str | None:
    real = case.expected[:, 0, :]
    if matches(got, real) or matches(got, real[:, :, None]):
        return (
            f"right values, but shape {np.shape(got)}: a key mask must broadcast over the queries of the "
            "(B, T_q, T_k) scores, so put the query axis in the middle: shape (B, 1, T_k), keep[:, None, :]."
        )
    return None


def check_keep_mask(candidate: Any) -> Verdict:
    """Check ``my_keep(mask, convention)``: any library's key mask (B, T_k) as attnlib's keep (B, 1, T_k).

    ``convention`` is one of ``CONVENTIONS``; the answer must be boolean, True where a key may be
    attended to, because attnlib refuses an integer mask.

    Shapes:
        mask (B, T_k), convention str -> keep (B, 1, T_k) boolean
    """
    verdict = check_function(
        candidate,
        _keep_cases(),
        diagnoses=(_polarity, _no_query_axis),
        success="correct: every convention becomes attnlib's True = may attend, shape (B, 1, T_k)",
    )
    if not verdict:
        return verdict
    for case in _keep_cases():
        with np.errstate(all="ignore"):
            got = np.asarray(candidate(*case.args))
        if got.dtype.kind != "b":
            return Verdict(
                False,
                f"right numbers, but dtype {got.dtype} for {case.label}: attnlib reads only a boolean mask "
                "as 'may attend' (an integer one is refused). Compare, e.g. mask == 1, to get booleans.",
            )
    return verdict
