"""attnlib.exercises.the_whole_formula (notebook 07): each mistake is named, the references agree with attnlib."""

from __future__ import annotations

import numpy as np

import attnlib
from attnlib.exercises import the_whole_formula
from tests.exercise_tables import exercise_tests


def plain_softmax(x, axis=-1):
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


WRONG = {
    "check_attention": {
        "returned_weights": lambda Q, K, V, M: attnlib.attention(Q, K, V, M)[1],
        "value_first": lambda Q, K, V, M: V @ attnlib.attention(Q, K, V, M)[1],
        "no_scale": lambda Q, K, V, M: attnlib.attention(Q, K, V, M, scale=False)[0],
        "axis": lambda Q, K, V, M: plain_softmax(Q @ K.T / np.sqrt(Q.shape[-1]) + M, axis=0) @ V,
        "no_mask": lambda Q, K, V, M: attnlib.attention(Q, K, V)[0],
        "mask_after": lambda Q, K, V, M: (attnlib.attention(Q, K, V)[1] * (M == 0)) @ V,
    },
    "check_context_vector": {
        "column": lambda A, V, i: A[:, i] @ V,
        "plain_mean": lambda A, V, i: V.mean(axis=0),
        "own_value": lambda A, V, i: V[i],
        "not_summed": lambda A, V, i: A[i][:, None] * V,
    },
}
LIBRARY = {
    "check_attention": lambda Q, K, V, M: attnlib.attention(Q, K, V, M)[0],
    # attnlib has no "one token's output": np.einsum is a second formulation.
    "check_context_vector": lambda A, V, i: np.einsum("j,jd->d", A[i], V),
}

(
    test_each_typical_mistake_gets_its_own_diagnosis,
    test_every_diagnosis_in_the_tables_is_exercised,
    test_reference_agrees_with_the_library,
) = exercise_tests(the_whole_formula, WRONG, LIBRARY)


def test_mask_added_after_softmax_gets_its_own_words_not_the_generic_nan_message():
    # (A + M) @ V is NaN wherever a blocked key meets −∞: a known mistake, named before any NaN message.
    verdict = the_whole_formula.check_attention(lambda Q, K, V, M: (attnlib.attention(Q, K, V)[1] + M) @ V)
    assert verdict.cause == "mask_after" and "contains NaN" not in verdict.message


def test_returning_out_and_weights_counts_the_output():
    assert the_whole_formula.check_attention(lambda Q, K, V, M: attnlib.attention(Q, K, V, M))
