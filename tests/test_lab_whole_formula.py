"""The whole-formula lab of notebook 07: one query's stages, from q·k_j to the output o, against attnlib.

The lab machinery (spec, page frames, Chinese, fonts, the browser's parity at every setting) is tested for
every registry lab in tests/test_labs.py and tests/browser/test_lab_frames.py; here, what this lab teaches.
"""

from __future__ import annotations

import numpy as np
import pytest

import attnlib
from attnlib import labs, plot
from attnlib.labs import base
from tests.lab_cases import LABS, build


@pytest.fixture(scope="module")
def lab():
    with attnlib.set_language("en"), plot.use_style():
        return build("whole_formula")


@pytest.fixture(scope="module")
def qkv():
    inputs = LABS["whole_formula"].inputs()
    return attnlib.project(inputs["X"], inputs["W_q"], inputs["W_k"], inputs["W_v"])


def test_it_starts_where_notebook_07_stands_green_scaled_and_unmasked(lab):
    assert lab.values == {"query": 6, "scaled": True, "causal": False}
    assert lab.state["title"] == "query green: q = (0.00, 3.00)"
    # green's scores q·k_j = 3·(column 1 of K) = 3·(0, 0, 0, 0.3, 0.6, 0, 1.8, 3.0); ÷√2 gives grass 6.364
    np.testing.assert_allclose(lab.state["scores"], [0, 0, 0, 0.9, 1.8, 0, 5.4, 9.0], atol=1e-12)
    assert lab.state["scaled"][7] == pytest.approx(9 / np.sqrt(2))
    assert lab.state["weights"][7] == pytest.approx(0.913, abs=5e-4)  # "0.91 of its attention on grass"
    assert "most weight: <b>grass</b> 0.913" in lab.readout


def test_every_setting_is_the_querys_row_of_attnlib_attention(lab, qkv):
    Q, K, V = qkv
    T = len(Q)
    for values in lab.settings():
        frame = lab.frame(**values)
        mask = attnlib.causal_mask(T) if values["causal"] else None
        out, weights = attnlib.attention(Q, K, V, mask=mask, scale=values["scaled"])
        i = values["query"]
        np.testing.assert_allclose(frame["weights"], weights[i], rtol=0, atol=1e-15, err_msg=str(values))
        np.testing.assert_allclose(frame["out"], out[i], rtol=0, atol=1e-15, err_msg=str(values))
        np.testing.assert_allclose(frame["contributions"].sum(axis=0), frame["out"], rtol=0, atol=1e-15)
        divisor = np.sqrt(2) if values["scaled"] else 1.0
        np.testing.assert_allclose(frame["scaled"], frame["scores"] / divisor, rtol=0, atol=1e-15)
        seen = np.arange(T) <= i if values["causal"] else np.ones(T, dtype=bool)
        np.testing.assert_array_equal(frame["keep"], seen)
        assert (frame["weights"][~frame["keep"]] == 0.0).all()  # exactly 0 behind the mask


def test_the_causal_mask_takes_grass_away_from_green(lab):
    frame = lab.frame(query=6, scaled=True, causal=True)
    assert frame["weights"][7] == 0.0 and frame["weights"][6] == pytest.approx(0.828, abs=5e-4)
    words = base.fill(lab.spec["readout"], frame["fields"])
    assert "the causal mask hides the keys after “green” (grass), which would get 0.913" in words
    last = base.fill(lab.spec["readout"], lab.frame(query=7, scaled=True, causal=True)["fields"])
    assert "hides nothing from the last token" in last


def test_the_scaling_switch_names_the_weight_it_would_give(lab):
    on = base.fill(lab.spec["readout"], lab.frame(query=6, scaled=True, causal=False)["fields"])
    off = base.fill(lab.spec["readout"], lab.frame(query=6, scaled=False, causal=False)["fields"])
    assert "÷√d_k = ÷1.414; unscaled, the most weight would be 0.972" in on
    assert "not divided by √d_k; divided, the most weight would be 0.913" in off
    assert "most weight: <b>grass</b> 0.972" in off  # unscaled: sharper


def test_a_query_with_no_question_spreads_its_weight_evenly(lab):
    frame = lab.frame(query=0, scaled=True, causal=False)  # "the": q = 0, every score 0
    np.testing.assert_allclose(frame["weights"], 1 / 8)
    assert frame["fields"]["top"] == "8 keys tied"


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        ({"tokens": ["a", "b"]}, ValueError, r"tokens must have shape \(T,\) = \(8,\), one word per row of X; got \(2,\)"),
        ({"features": ["x"]}, ValueError, r"features must have shape \(d_v,\) = \(6,\), one name per column of W_v"),
        ({"query": 8}, ValueError, r"query must be an index 0..7; got 8"),
        ({"scaled": 1}, TypeError, r"scaled must be True or False; got 1"),
        ({"causal": "yes"}, TypeError, r"causal must be True or False; got 'yes'"),
        ({"W_k": np.ones((6, 3))}, ValueError, r"W_q and W_k must give queries and keys the same width d_k"),
        ({"X": np.ones((2, 8, 6))}, ValueError, r"X must have shape \(T, d_model\); got \(2, 8, 6\)"),
    ],
)
def test_bad_input_is_refused_by_name(change, error, match):
    arguments = {**LABS["whole_formula"].inputs(), **change}
    with pytest.raises(error, match=match):
        labs.make_whole_formula_lab(**arguments)


def test_the_snapshot_draws_the_stages_and_writes_minus_infinity_where_masked(lab):
    with plot.use_style():
        fig = lab._snapshot(query=6, scaled=True, causal=True)
    masked_column = fig.axes[2]
    assert [t.get_text() for t in plot.heatmap_cells(masked_column)][7] == "−∞"
    assert [t.get_text() for t in plot.heatmap_cells(fig.axes[3])][7] == "0"  # exactly 0, not 0.00
    assert [t.get_text() for t in plot.heatmap_cells(fig.axes[4])][-6:] == ["0.018", "0.047", "0.831", "0.116",
                                                                          "0.115", "0.513"]
