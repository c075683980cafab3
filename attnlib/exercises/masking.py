"""The exercises of notebook 06 (masking): causal mask, masked softmax, key-padding mask, mask polarities."""

from __future__ import annotations

import numpy as np

from ..core import additive_mask, masked_scores
from ..i18n import N_, tr
from .pipeline import Exercise, Mistake, OneOf, checkers, softmax_rows

__all__ = [
    "CONVENTIONS",
    "check_causal_mask",
    "check_keep_mask",
    "check_masked_softmax",
    "check_padding_mask",
]


# The worked answers: each checker's reference, shown as it is in the notebook's folded solution cell;
# plain numpy, independent of attnlib.core on purpose (why: the docstring of .pipeline).


def solution_causal_mask(T):
    return np.triu(np.full((T, T), -np.inf), k=1)


def solution_masked_softmax(scores, keep):
    z = np.where(keep, scores, -np.inf)  # exp(-inf) = 0: blocked keys get no weight
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def solution_padding_mask(lengths, T):
    return (np.arange(T)[None, :] < np.asarray(lengths)[:, None])[:, None, :]


def solution_keep(mask, convention):
    mask = np.asarray(mask)
    keep = ~mask if convention == "torch_key_padding" else mask == 1  # only PyTorch's key padding is "ignore"
    return keep[:, None, :]


def _lower(T: int, k: int = 0) -> np.ndarray:
    """True on and below diagonal k: key j ≤ i + k."""
    return np.arange(T)[None, :] <= np.arange(T)[:, None] + k


def _finite_blocks(got: np.ndarray, T: int) -> bool:
    blocked = ~_lower(T)
    return got.shape == (T, T) and T > 1 and np.isfinite(got).all() and bool((got[blocked] < -100).all())


CAUSAL_MASK = Exercise(
    name="check_causal_mask",
    task="``my_causal_mask(T)``: the additive mask M, 0 on and below the diagonal, −∞ above it",
    shapes="T -> M (T, T)",
    reference=solution_causal_mask,  # M[i, j] = 0 if j ≤ i else −∞
    inputs=[(4,), (1,), (6,)],
    shape="(T, T)",
    facts=lambda T: {"T": T, "label": N_("T={T}")},
    mistakes=[
        Mistake(
            "future",
            N_(
                "−∞ is below the diagonal: query i could see only itself and the future (keys after i), "
                "which is peeking. Block the keys j > i, above the diagonal."
            ),
            wrong=lambda T: additive_mask(_lower(T).T),
            spotted=lambda got, T: T > 1,
            watch=N_("putting −∞ below the diagonal (blocking the past, not the future)"),
        ),
        Mistake(
            "inverted",
            N_(
                "your mask is inverted: 0 must be where attention is allowed (j ≤ i, on and below the "
                "diagonal) and −∞ where it is blocked (j > i)."
            ),
            wrong=lambda T: additive_mask(~_lower(T)),
            spotted=lambda got, T: T > 1,
            watch=N_("an inverted mask (0 where blocked, −∞ where allowed)"),
        ),
        Mistake(
            "diagonal",
            N_(
                "you blocked the diagonal too: a token must see itself. Otherwise query 0 sees nothing "
                "at all and its weights are 0/0."
            ),
            wrong=lambda T: additive_mask(_lower(T, -1)),
            watch=N_("blocking the diagonal too (a token must see itself)"),
        ),
        Mistake(
            "zero_one",
            N_(
                "this is a 0/1 'may attend' table, not the additive mask M. M is added to the scores: "
                "0 where attention is allowed, −np.inf where it is blocked."
            ),
            wrong=lambda T: OneOf(keep=_lower(T) * 1.0, block=1.0 - _lower(T)),
            watch=N_("a 0/1 table instead of the additive mask of 0 and −∞"),
        ),
        Mistake(
            "big_negative",
            N_(
                "you used a large finite number instead of −∞. It happens to work in float64, "
                "but it is a magic number: use -np.inf, whose exp is exactly 0."
            ),
            spotted=lambda got, T: _finite_blocks(np.asarray(got, dtype=float), T),
            watch=N_("a large finite number such as -1e9 instead of −∞"),
        ),
    ],
    success=N_("correct: each token sees itself and the past, never the future"),
)


def _softmax_inputs() -> list[tuple[np.ndarray, np.ndarray]]:
    rng = np.random.default_rng(606)
    # Every row and every column of the first input has both allowed and blocked cells, so even
    # the wrong answers (mask inverted, softmax down the columns) stay finite and can be named.
    keeps = [_lower(5), np.array([[True, True, True, False, False]] * 3), rng.random((5, 6)) < 0.6]
    keeps[0][4, 2] = False
    keeps[2][:, 0] = True  # every query keeps at least one key
    return [(rng.normal(size=keep.shape) * 2, keep) for keep in keeps]


def _masked(scores: np.ndarray, keep: np.ndarray, axis: int = -1) -> np.ndarray:
    """softmax(scores + M) with M = −∞ where keep is False."""
    return softmax_rows(masked_scores(scores, keep), axis=axis)


MASKED_SOFTMAX = Exercise(
    name="check_masked_softmax",
    task="``my_masked_softmax(scores, keep)``: softmax of the scores with −∞ where ``keep`` is False",
    shapes="scores (T_q, T_k), keep (T_q, T_k) boolean -> weights (T_q, T_k)",
    reference=solution_masked_softmax,
    inputs=_softmax_inputs(),
    shape="(T_q, T_k)",
    facts=lambda s, keep: {"T_q": s.shape[0], "T_k": s.shape[1], "label": N_("{T_q} queries, {T_k} keys")},
    mistakes=[
        Mistake(
            "masked_with_zero",
            N_(
                "you set the blocked scores to 0, but e⁰ = 1: blocked keys still get weight (they leak). "
                "Set them to -np.inf, whose exp is exactly 0."
            ),
            wrong=lambda s, keep: softmax_rows(np.where(keep, s, 0.0)),
            watch=N_("setting blocked scores to 0 instead of −∞ (e⁰ = 1)"),
        ),
        Mistake(
            "after_softmax",
            N_(
                "you zeroed the weights after softmax, so the rows no longer sum to 1. Either divide each "
                "row by its new sum, or (simpler) put −∞ in the scores before softmax."
            ),
            wrong=lambda s, keep: softmax_rows(s) * keep,
            watch=N_("zeroing the weights after the softmax (rows no longer sum to 1)"),
        ),
        Mistake(
            "inverted",
            N_("your mask is inverted: True means 'may attend', so block where keep is False (~keep)."),
            wrong=lambda s, keep: _masked(s, ~keep),
            watch=N_("an inverted mask (blocking where keep is True)"),
        ),
        Mistake(
            "ignored",
            N_("the mask is ignored: blocked keys still get weight. Put −∞ where keep is False."),
            wrong=lambda s, keep: softmax_rows(s),
            watch=N_("ignoring the mask"),
        ),
        Mistake(
            "axis",
            N_("your softmax runs down the columns (axis=0); each query's row must sum to 1 (axis=-1)."),
            wrong=lambda s, keep: _masked(s, keep, axis=0),
            watch=N_("softmax down the columns (axis=0) instead of along each row"),
        ),
    ],
    success=N_("correct: blocked keys get exactly 0 and every row sums to 1"),
)


def _real(lengths: np.ndarray, T: int) -> np.ndarray:
    """real[b, j] = j < lengths[b]: key j of sentence b is a real token."""
    return np.arange(T)[None, :] < np.asarray(lengths)[:, None]


PADDING_MASK = Exercise(
    name="check_padding_mask",
    task="``my_padding_mask(lengths, T)``: True where key j of sentence b is real (j < lengths[b])",
    shapes="lengths (B,), T -> keep (B, 1, T)",
    reference=solution_padding_mask,  # (B, 1, T): broadcast over queries
    inputs=[(np.array([3, 5, 1]), 5), (np.array([2, 2]), 4), (np.array([4]), 4)],
    shape="(B, 1, T)",
    facts=lambda lengths, T: {
        "B": len(lengths),
        "T": T,
        "lengths": lengths.tolist(),
        "label": N_("lengths {lengths}, T={T}"),
    },
    mistakes=[
        Mistake(
            "off_by_one",
            N_(
                "off by one: a sentence of length L has real tokens at positions 0 … L−1, "
                "so key j is real when j < L."
            ),
            wrong=lambda lengths, T: OneOf(
                longer=_real(lengths + 1, T)[:, None, :], shorter=_real(lengths - 1, T)[:, None, :]
            ),
            watch=N_("off by one at the end of a sentence (j < L, not j ≤ L)"),
        ),
        Mistake(
            "query_axis",
            N_(
                "this masks the queries (shape (B, T, 1)): a padding query would see nothing at all. "
                "Mask the keys instead: shape (B, 1, T), so every query ignores the padding keys."
            ),
            wrong=lambda lengths, T: _real(lengths, T)[:, :, None],
            watch=N_("masking the queries, shape (B, T, 1), instead of the keys"),
        ),
        Mistake(
            "no_query_axis",
            N_(
                "right values, but shape (B, T): add the query axis in the middle, keep[:, None, :], "
                "shape (B, 1, T), so it broadcasts over the queries of the (B, T, T) scores."
            ),
            wrong=_real,
            watch=N_("forgetting the query axis in the middle: shape (B, 1, T)"),
        ),
        Mistake(
            "inverted",
            N_("your mask is inverted: True must mean 'a real token, may attend', False 'padding'."),
            wrong=lambda lengths, T: ~_real(lengths, T)[:, None, :],
            watch=N_("an inverted mask (True for padding)"),
        ),
    ],
    success=N_("correct: every query of sentence b ignores its padding keys"),
)

# What a key mask of shape (B, T_k) means in each library (06 §7): True / 1 = ...
CONVENTIONS = {
    "attnlib": N_("True = may attend"),
    "torch_key_padding": N_("True = ignore this key (nn.MultiheadAttention's key_padding_mask)"),
    "torch_sdpa": N_("True = takes part (F.scaled_dot_product_attention's boolean attn_mask)"),
    "hf": N_("1 = keep, 0 = padding (Hugging Face's attention_mask, integers)"),
}


def _written_as(real: np.ndarray, convention: str) -> np.ndarray:
    if convention == "torch_key_padding":
        return ~real
    if convention == "hf":
        return real.astype(np.int64)
    return real.copy()


def _keep_inputs() -> list[tuple[np.ndarray, str]]:
    reals = (_real(np.array([5, 3]), 5), _real(np.array([2, 4, 1]), 4))
    return [(_written_as(real, convention), convention) for real in reals for convention in CONVENTIONS]


def _keep(mask: np.ndarray, convention: str) -> np.ndarray:
    """attnlib's keep (B, 1, T_k): True where a key may be attended to."""
    real = ~mask if convention == "torch_key_padding" else mask == 1
    return real[:, None, :]


def _inverted(mask: np.ndarray, convention: str) -> OneOf:
    keep = _keep(mask, convention)
    return OneOf(with_axis=~keep, without=~keep[:, 0, :])


KEEP_MASK = Exercise(
    name="check_keep_mask",
    task="``my_keep(mask, convention)``: any library's key mask as attnlib's boolean keep",
    shapes="mask (B, T_k), convention str (a key of ``CONVENTIONS``) -> keep (B, 1, T_k) boolean",
    reference=solution_keep,
    inputs=_keep_inputs(),
    shape="(B, 1, T_k)",
    facts=lambda mask, convention: {
        "convention": convention,
        "meaning": tr(CONVENTIONS[convention]),
        "B": mask.shape[0],
        "T_k": mask.shape[1],
        "label": N_("{convention}, mask of shape ({B}, {T_k})"),
    },
    dtype="b",
    mistakes=[
        Mistake(
            "torch_not_inverted",
            N_(
                "not inverted: PyTorch's key_padding_mask is True where a key is ignored (padding), "
                "attnlib's keep is True where a key may be attended to. Return ~mask."
            ),
            wrong=_inverted,
            spotted=lambda got, mask, convention: convention == "torch_key_padding",
            watch=N_("forgetting to invert PyTorch's key_padding_mask (True = ignore)"),
        ),
        Mistake(
            "attnlib_inverted",
            N_("inverted: attnlib's own mask is already True = may attend, so return it unchanged."),
            wrong=_inverted,
            spotted=lambda got, mask, convention: convention == "attnlib",
            watch=N_("inverting attnlib's own mask, which already means True = may attend"),
        ),
        Mistake(
            "inverted",
            N_(
                "inverted, but '{convention}' already means {meaning}, like attnlib: "
                "only PyTorch's key_padding_mask has the opposite polarity."
            ),
            wrong=_inverted,
            watch=N_("inverting the masks of scaled_dot_product_attention or Hugging Face"),
        ),
        Mistake(
            "no_query_axis",
            N_(
                "right values, but shape {got_shape}: a key mask must broadcast over the queries of the "
                "(B, T_q, T_k) scores, so put the query axis in the middle: shape (B, 1, T_k), "
                "keep[:, None, :]."
            ),
            wrong=lambda mask, convention: OneOf(
                flat=_keep(mask, convention)[:, 0, :], last=_keep(mask, convention)[:, 0, :, None]
            ),
            watch=N_("forgetting the query axis in the middle: shape (B, 1, T_k)"),
        ),
        Mistake(
            "not_boolean",
            N_(
                "right numbers, but dtype {got_dtype} ({label}): attnlib reads only a boolean mask "
                "as 'may attend' (an integer one is refused). Compare, e.g. mask == 1, to get booleans."
            ),
            wrong=_keep,
            spotted=lambda got, mask, convention: np.asarray(got).dtype.kind != "b",
            watch=N_("returning integers (0/1) instead of booleans"),
        ),
    ],
    success=N_("correct: every convention becomes attnlib's True = may attend, shape (B, 1, T_k)"),
)


EXERCISES = (CAUSAL_MASK, MASKED_SOFTMAX, PADDING_MASK, KEEP_MASK)
check_causal_mask, check_masked_softmax, check_padding_mask, check_keep_mask = checkers(
    __name__, EXERCISES, taught="06 §Exercises"
)
