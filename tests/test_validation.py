"""Every bad input gets a clear ValueError or TypeError that names the argument and the shapes."""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import additive_mask, attention, causal_mask, padding_mask, softmax

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
    import subprocess
    import sys

    code = "import attnlib, numpy as np\ntry:\n    attnlib.attention(np.ones(3), np.ones((2, 3)), np.ones((2, 1)))\nexcept ValueError:\n    print('raised')"
    result = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "raised"
