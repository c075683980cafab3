"""attnlib.validation (arrays) and attnlib.checks (plain values): every bad input gets a clear ValueError or
TypeError naming the argument and the shapes.

Through the public functions first (as a learner meets the messages), then the checks themselves, then
the messages in Chinese: every template has a zh-Hans entry with the same placeholders.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import additive_mask, attention, causal_mask, i18n, padding_mask, softmax, validation
from tests.catalogues import marked, placeholders

Q = np.ones((3, 4))
K = np.ones((5, 4))
V = np.ones((5, 2))


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((np.ones(4), K, V), ValueError, r"Q must have shape \(\.\.\., T_q, d_k\).*got shape \(4,\)"),
        ((Q, np.ones(4), V), ValueError, r"K must have shape \(\.\.\., T_k, d_k\)"),
        ((Q, K, np.ones(5)), ValueError, r"V must have shape \(\.\.\., T_k, d_v\)"),
        ((Q, np.ones((5, 8)), V), ValueError, r"K has d_k=8 but Q has d_k=4; expected K \(\.\.\., T_k, 4\), got \(5, 8\)"),
        ((Q, K, np.ones((6, 2))), ValueError, r"V has T_k=6 rows but K has T_k=5"),
        ((np.ones((3, 0)), np.ones((5, 0)), V), ValueError, r"Q has d_k=0"),
        ((Q, np.ones((0, 4)), np.ones((0, 2))), ValueError, r"K has T_k=0 keys"),
        ((np.ones((2, 3, 4)), np.ones((3, 5, 4)), V), ValueError, r"batch axes .* do not broadcast"),
        ((np.full((3, 4), np.nan), K, V), ValueError, r"Q contains NaN"),
        ((Q, K, np.full((5, 2), np.inf)), ValueError, r"V contains an infinite value"),
        ((Q, [["a"] * 4] * 5, V), TypeError, r"K must be an array of real numbers .* got text"),
        ((Q, K, [[1, 2], [3]]), TypeError, r"V must be an array of numbers"),
        ((Q.astype(bool), K, V), TypeError, r"Q .* got booleans"),
        ((Q + 1j, K, V), TypeError, r"Q .* complex"),
    ],
)
def test_attention_rejects_bad_inputs(args, error, match):
    with pytest.raises(error, match=match):
        attention(*args)


@pytest.mark.parametrize(
    ("mask", "error", "match"),
    [
        (np.ones((3, 5), dtype=int), TypeError, r"mask must be boolean .* got dtype int64\. For a 0/1 integer"),
        (np.array([["x"] * 5] * 3), TypeError, r"mask must be boolean"),
        (np.ones((3, 4), dtype=bool), ValueError, r"mask of shape \(3, 4\) does not broadcast to the scores \(\.\.\., T_q, T_k\) = \(3, 5\)"),
        (np.ones((2, 3, 5), dtype=bool)[None], ValueError, r"does not broadcast"),
        (np.tril(np.ones((3, 5))), ValueError, r"float mask is the additive M .* got the value 1"),
        (np.full((3, 5), np.nan), ValueError, r"mask contains NaN"),
        (np.full((3, 5), np.inf), ValueError, r"mask contains an infinite value \(only -inf"),
        (np.zeros((3, 5), dtype=bool), ValueError, r"query 0 \(batch index \(\)\) may attend to no key"),
    ],
)
def test_attention_rejects_bad_masks(mask, error, match):
    with pytest.raises(error, match=match):
        attention(Q, K, V, mask)


def test_fully_masked_row_names_the_row_in_a_batch():
    mask = np.ones((2, 3, 5), dtype=bool)
    mask[1, 2] = False
    with pytest.raises(ValueError, match=r"query 2 \(batch index \(1,\)\) may attend to no key.*NaN"):
        attention(np.ones((2, 3, 4)), K, V, mask)
    with pytest.raises(ValueError, match=r"may attend to no key"):
        attention(np.ones((2, 3, 4)), K, V, additive_mask(mask))


@pytest.mark.parametrize(
    ("x", "kwargs", "error", "match"),
    [
        ([[-np.inf, -np.inf], [0.0, 1.0]], {}, ValueError, r"entirely -inf \(at index \(0,\)\)"),
        ([1.0, np.nan], {}, ValueError, r"x contains NaN"),
        ([1.0, np.inf], {}, ValueError, r"x contains an infinite value \(only -inf"),
        (3.0, {}, ValueError, r"at least 1 axis"),
        (np.ones((2, 0)), {}, ValueError, r"no entries along axis 1"),
        ([1.0, 2.0], {"axis": 1}, ValueError, r"axis=1 does not exist for x of shape \(2,\)"),
        ([1.0, 2.0], {"axis": 0.5}, TypeError, r"axis must be a whole number"),
        (["a", "b"], {}, TypeError, r"x must be an array of real numbers"),
    ],
)
def test_softmax_rejects_bad_inputs(x, kwargs, error, match):
    with pytest.raises(error, match=match):
        softmax(x, **kwargs)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: causal_mask(0), ValueError, r"T \(sequence length\) must be >= 1; got 0"),
        (lambda: causal_mask(2.5), TypeError, r"T \(sequence length\) must be a whole number"),
        (lambda: causal_mask(True), TypeError, r"whole number"),
        (lambda: padding_mask([2, 0], 3), ValueError, r"between 1 and T=3; got 0"),
        (lambda: padding_mask([4], 3), ValueError, r"between 1 and T=3; got 4"),
        (lambda: padding_mask([[2]], 3), ValueError, r"lengths must have shape \(B,\)"),
        (lambda: padding_mask([1.5], 3), TypeError, r"lengths must be whole numbers"),
        (lambda: additive_mask([[1, 0]]), TypeError, r"mask must be boolean"),
        (lambda: attnlib.project(np.ones(3), np.ones((3, 2)), np.ones((3, 2)), np.ones((3, 2))), ValueError, r"X must have shape \(\.\.\., T, d_model\)"),
        (lambda: attnlib.project(np.ones((2, 3)), np.ones((4, 2)), np.ones((3, 2)), np.ones((3, 2))), ValueError, r"W_q must have shape \(d_model, d_k\) = \(3, d_k\) .* got \(4, 2\)"),
        (lambda: attnlib.project(np.ones((2, 3)), np.ones((3, 2)), np.ones((3, 5)), np.ones((3, 2))), ValueError, r"same width d_k; got W_q \(3, 2\) and W_k \(3, 5\)"),
        (lambda: attnlib.init_projections(4, 2, rng=0), TypeError, r"rng must be a numpy Generator"),
        (lambda: attnlib.init_projections(4, 0, rng=np.random.default_rng(0)), ValueError, r"d_k must be >= 1"),
        (lambda: attnlib.entropy([0.5, -0.5]), ValueError, r"weights must be >= 0"),
    ],
)
def test_helpers_reject_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_checks_survive_python_dash_O():
    """The checks are ordinary ifs, not asserts, so `python -O` keeps them."""
    code = "import attnlib, numpy as np\ntry:\n    attnlib.attention(np.ones(3), np.ones((2, 3)), np.ones((2, 1)))\nexcept ValueError:\n    print('raised')"
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "raised"


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: attention(np.array([None, None] * 2).reshape(2, 2), K[:, :2], V), TypeError, r"Q .* Python objects"),
        (lambda: attention(np.zeros((3, 4), dtype="datetime64[s]"), K, V), TypeError, r"values of dtype datetime64"),
        (lambda: attention(np.ones(4), K, V), ValueError, r"got shape \(4,\) with 1 axes \(a single vector\? wrap it"),
        (lambda: attnlib.scores(np.ones((2, 3, 4)), np.ones((3, 5, 4))), ValueError, r"batch axes \(\.\.\.\) of Q \(2, 3, 4\), K \(3, 5, 4\) do not broadcast"),
        (lambda: attnlib.attention_weights(Q, K, np.zeros((3, 5), dtype=bool)), ValueError, r"may attend to no key"),
        (lambda: attnlib.softmax_jacobian(0.5), ValueError, r"weights must have shape \(\.\.\., n\): at least 1 axes"),
        (lambda: attnlib.core.convex_hull_2d(np.ones((3, 3))), ValueError, r"points must have shape \(n, 2\); got \(3, 3\)"),
    ],
)
def test_more_bad_inputs(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_scores_that_overflow_are_refused_by_name_not_returned_as_nan():
    """Entries of 1e20 are finite in float32, but their products (1e40 · 4) are not."""
    big = np.full((2, 4), 1e20, dtype=np.float32)
    with pytest.raises(ValueError, match=r"scores of query 0 \(batch index \(\)\) overflow float32"):
        attention(big, big, big)
    out, _ = attention(big.astype(np.float64), big.astype(np.float64), big.astype(np.float64))
    assert np.isfinite(out).all()  # float64 holds them, as the message suggests


# ---- the checks themselves -------------------------------------------------------------------------
def test_check_finite_accepts_finite_numbers_whose_sum_overflows():
    """float16 holds 6e4, but ten of them sum to inf: the fast test fails, the exact search passes."""
    validation.check_finite(np.full(10, 6e4, dtype=np.float16), "x")
    with pytest.raises(ValueError, match=r"x contains NaN \(1 entries, the first at index \(3,\)\)"):
        validation.check_finite(np.array([6e4] * 3 + [np.nan], dtype=np.float16), "x")
    validation.check_finite(np.array([0.0, -np.inf]), "mask", allow_neg_inf=True)
    validation.check_finite(np.zeros((0, 3)), "x")  # nothing to check


def test_check_mask_returns_the_mask_unbroadcast_and_names_the_dead_query_in_the_scores():
    keep = validation.check_mask(causal_mask(4), (2, 8, 4, 4))
    assert keep.shape == (4, 4) and keep.dtype == bool
    np.testing.assert_array_equal(validation.check_mask(additive_mask(causal_mask(3)), (3, 3)), causal_mask(3))
    key_mask = np.array([True, False, True])  # (T_k,): broadcast over every query
    assert validation.check_mask(key_mask, (2, 3)).shape == (3,)
    per_sentence = np.ones((2, 1, 3), dtype=bool)
    per_sentence[1, 0] = False  # sentence 1 hides every key from all its queries
    with pytest.raises(ValueError, match=r"query 0 \(batch index \(1,\)\) may attend to no key"):
        validation.check_mask(per_sentence, (2, 4, 3))
    with pytest.raises(ValueError, match=r"query 0 \(batch index \(0,\)\) may attend to no key"):
        validation.check_mask(np.zeros(3, dtype=bool), (2, 4, 3))
    with pytest.raises(ValueError, match=r"query 0 \(batch index \(\)\)"):
        validation.check_mask(np.array(False), (2, 3))
    assert validation.check_mask(np.array(True), (2, 3)).shape == ()


@pytest.mark.parametrize(
    ("values", "kwargs", "error", "match"),
    [
        ([0.5], {}, TypeError, r"ids must be whole numbers \(token ids\) of shape \(N,\); got dtype float64"),
        ([[1]], {}, ValueError, r"ids must have shape \(N,\); got shape \(1, 1\)"),
        (5, {"ndim": None}, ValueError, r"ids must have shape \(N,\); got shape \(\)"),
        (np.array([], dtype=int), {"nonempty": True}, ValueError, r"ids must hold at least one entry, shape \(N,\)"),
        ([0, 4, 5], {}, ValueError, r"every entry of ids must be between 0 and V-1=4; got 5"),
        ([-1, 2], {}, ValueError, r"every entry of ids must be between 0 and V-1=4; got -1"),
    ],
)
def test_check_indices_refuses(values, kwargs, error, match):
    with pytest.raises(error, match=match):
        validation.check_indices(values, "ids", expected="(N,)", high=4, high_symbol="V-1",
                                 what=i18n.N_("token ids"), **kwargs)


def test_check_indices_returns_int64_without_copying_int64():
    ids = np.array([0, 3, 4])
    out = validation.check_indices(ids, "ids", expected="(N,)", high=4, high_symbol="V-1")
    assert out is ids and out.dtype == np.int64
    assert validation.check_indices(np.array([1], dtype=np.uint8), "n", expected="(N,)", high=1, high_symbol="T",
                                    low=1).dtype == np.int64
    assert validation.check_indices([], "ids", expected="(N,)", high=4, high_symbol="V-1").size == 0


def test_first_index_is_the_first_in_reading_order():
    flags = np.zeros((2, 3, 4), dtype=bool)
    flags[1, 0, 2] = flags[1, 2, 0] = True
    assert validation.first_index(flags) == (1, 0, 2)


def test_the_attention_inputs_come_back_without_copies():
    Q32 = np.ones((2, 3), dtype=np.float32)
    Q, K_, V_ = validation.check_attention_inputs(Q32, Q32, Q32)
    assert Q is Q32 and K_ is Q32 and V_ is Q32
    assert validation.check_attention_inputs(Q32, Q32)[2] is None


# ---- the messages in Chinese -----------------------------------------------------------------------
ROOT = Path(attnlib.__file__).parent
MODULES = sorted(
    [ROOT / "validation.py", ROOT / "checks.py", ROOT / "data.py", ROOT / "i18n.py", *(ROOT / "core").glob("*.py"),
     *(ROOT / "gpt").glob("*.py")]
)
CATALOGUE = json.loads((ROOT / "locale" / "zh-Hans" / "errors.json").read_text(encoding="utf-8"))


def test_every_message_has_a_chinese_entry_with_the_same_placeholders():
    literals = marked(MODULES)
    assert len(literals) > 80  # the ast walk finds the messages
    for text, where in literals.items():
        assert text in CATALOGUE, f"{where}: no zh-Hans entry for {text!r}"
        assert placeholders(CATALOGUE[text]) == placeholders(text), f"{where}: placeholders differ for {text!r}"
        words = re.sub(r"\{[^}]*\}", "", text)
        if re.search(r"[A-Za-z]{3,}", words):  # "{name} ({symbol})" has nothing to translate
            assert re.search(r"[\u4e00-\u9fff]", CATALOGUE[text]), f"{where}: {text!r} is not translated"


def test_no_message_is_built_outside_tr():
    """An f-string raised as an error would never be translated."""
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None and isinstance(node.exc, ast.Call):
                for arg in node.exc.args:
                    assert not isinstance(arg, (ast.JoinedStr, ast.Constant)), (
                        f"{path.name}:{node.lineno}: the message of this raise does not go through tr()"
                    )


def test_a_learner_reading_chinese_gets_chinese_messages_with_the_same_numbers(zh_hans):
    with pytest.raises(ValueError, match=r"^K 的 d_k=8，而 Q 的 d_k=4；K 的形状应当是 \(\.\.\., T_k, 4\)，收到的是 \(5, 8\)$"):
        attention(Q, np.ones((5, 8)), V)
    with pytest.raises(ValueError, match=r"查询 0（批次索引 \(\)）没有任何可以关注的键"):
        attention(Q, K, V, np.zeros((3, 5), dtype=bool))
    with pytest.raises(TypeError, match=r"^T（序列长度） 应当是 >= 1 的整数；收到的是 2.5（float）$"):
        causal_mask(2.5)
    with pytest.raises(TypeError, match=r"Q 应当是形状为 \(\.\.\., T_q, d_k\) 的实数数组；收到的是布尔值"):
        attention(Q.astype(bool), K, V)
    with pytest.raises(ValueError, match=r"every|vocab（词表）"):
        attnlib.gpt.text.CharTokenizer([])
