"""attnlib.exercises.masking (notebook 06): each typical mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import masking
from tests.exercise_tables import exercise_tests

softmax = attnlib.softmax


def plain_softmax(x, axis=-1):
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


def tril(T, k=0):
    return np.tril(np.ones((T, T), bool), k)


WRONG = {
    "check_causal_mask": {
        "future": lambda T: np.where(np.triu(np.ones((T, T), bool)), 0.0, -np.inf),
        "inverted": lambda T: np.where(tril(T), -np.inf, 0.0),
        "diagonal": lambda T: np.where(tril(T, -1), 0.0, -np.inf),
        "zero_one": lambda T: np.tril(np.ones((T, T))),
        "big_negative": lambda T: np.where(tril(T), 0.0, -1e9),
    },
    "check_masked_softmax": {
        "masked_with_zero": lambda s, keep: softmax(np.where(keep, s, 0.0)),
        "after_softmax": lambda s, keep: softmax(s) * keep,
        "inverted": lambda s, keep: plain_softmax(np.where(keep, -np.inf, s)),
        "ignored": lambda s, keep: softmax(s),
        "axis": lambda s, keep: softmax(np.where(keep, s, -np.inf), axis=0),
    },
    "check_padding_mask": {
        "off_by_one": lambda L, T: (np.arange(T) <= L[:, None])[:, None, :],
        "query_axis": lambda L, T: (np.arange(T) < L[:, None])[:, :, None],
        "no_query_axis": lambda L, T: np.arange(T) < L[:, None],
        "inverted": lambda L, T: (np.arange(T) >= L[:, None])[:, None, :],
    },
    "check_keep_mask": {
        "torch_not_inverted": lambda m, c: np.asarray(m).astype(bool)[:, None, :],
        "attnlib_inverted": lambda m, c: (~np.asarray(m).astype(bool))[:, None, :],
        "inverted": lambda m, c: (~m if c == "torch_key_padding" else (m == 1) ^ (c != "attnlib"))[:, None, :],
        "no_query_axis": lambda m, c: ~np.asarray(m) if c == "torch_key_padding" else np.asarray(m) == 1,
        "not_boolean": lambda m, c: (~m if c == "torch_key_padding" else m)[:, None, :],
    },
}
LIBRARY = {
    "check_causal_mask": lambda T: attnlib.additive_mask(attnlib.causal_mask(T)),
    # Scores given directly: Q = scores and K = I make Q·Kᵀ the scores themselves.
    "check_masked_softmax": lambda s, keep: attnlib.attention_weights(s, np.eye(s.shape[1]), keep, scale=False),
    "check_padding_mask": attnlib.padding_mask,
    # attnlib has no converter between conventions: a second numpy formulation.
    "check_keep_mask": lambda m, c: np.expand_dims(np.logical_xor(np.asarray(m, bool), c == "torch_key_padding"), 1),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(masking, WRONG, LIBRARY)


def test_the_dtype_diagnosis_names_the_dtype():
    verdict = masking.check_keep_mask(WRONG["check_keep_mask"]["not_boolean"])
    assert "dtype int64" in verdict.message


def test_every_convention_is_among_the_hidden_inputs():
    assert {convention for _, convention in masking.KEEP_MASK.inputs} == set(masking.CONVENTIONS)
