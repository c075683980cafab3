"""The queries-and-keys lab of notebook 04: its numbers against the section's design, and what it refuses.

What every lab shares (every setting, the page's frames, the Chinese edition) is tested for this one too
through the registry (tests/test_labs.py, tests/browser/test_lab_frames.py).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import attnlib
from attnlib import data, labs
from tests.lab_cases import build


@pytest.fixture(scope="module")
def sentence():
    gg = data.load("green_grass")
    return np.asarray(gg["X"]), gg["tokens"], gg["features"]


@pytest.fixture(scope="module")
def lab(sentence):
    X, tokens, features = sentence
    with attnlib.set_language("en"):
        made = labs.make_qkv_lab(X, tokens, features, query=3, query_feature="action", key_feature="alive", size=3.0)
    yield made


@pytest.fixture(autouse=True)
def _start(lab):
    lab.set_values(query=3, query_feature="action", key_feature="alive", size=3.0)
    yield


def test_the_start_is_the_design_of_section_5(lab, sentence):
    """W_Q = 3·e_action, W_K = 3·e_alive, d_k = 1: s(playing, kids) = 3·1 · 3·1 / √1 = 9, and
    s(are, kids) = 3·0.6 · 3·1 = 5.4; playing puts 0.994 on kids, as the notebook prints."""
    X, tokens, features = sentence
    state = lab.state
    assert state["W_q"][:, 0].tolist() == [0.0, 3.0, 0.0, 0.0, 0.0, 0.0]
    assert state["W_k"][:, 0].tolist() == [0.0, 0.0, 0.0, 0.0, 3.0, 0.0]
    assert state["scores"][3, 1] == 9.0 and np.isclose(state["scores"][2, 1], 5.4)
    _, A1 = attnlib.self_attention(X, state["W_q"], state["W_k"], np.eye(6))
    np.testing.assert_array_equal(state["weights"], A1)
    assert round(float(state["weights"][3, 1]), 3) == 0.994
    assert state["top"].tolist() == [j == 1 for j in range(8)]
    assert "“playing” attends most to “kids” (0.99)" in lab.readout


def test_zero_entries_make_every_row_uniform(lab):
    """c = 0: every score is 0·0 = 0, so every weight is 1/8 = 0.125."""
    lab.controls["size"].value = 0.0
    assert (lab.state["scores"] == 0).all() and np.allclose(lab.state["weights"], 1 / 8)
    assert "“playing” has no preference: every key gets 1/8 = 0.125" in lab.readout


def test_the_keys_decide_who_is_found(lab):
    """W_K reads nature: playing scores grass 9·1·1 = 9 and green 9·1·0.6 = 5.4, so grass wins."""
    lab.controls["key_feature"].value = "nature"
    assert lab.state["scores"][3, 7] == 9.0
    assert "“playing” attends most to “grass” (0.97)" in lab.readout


def test_the_same_map_for_both_gives_symmetric_scores(lab):
    lab.controls["key_feature"].value = "action"
    S = lab.state["scores"]
    assert np.array_equal(S, S.T)
    lab.controls["key_feature"].value = "alive"
    assert not np.array_equal(lab.state["scores"], lab.state["scores"].T)


def test_tied_keys_are_all_named(lab):
    """W_Q reads thing, W_K reads glue: kids scores the, on and the 9·1·1 = 9 each and are 9·0.8 = 7.2, so
    each of the three gets e⁹/(3e⁹ + e⁷·² + 4) = 1/(3 + e⁻¹·⁸ + 4e⁻⁹) ≈ 0.316."""
    lab.set_values(query=1, query_feature="thing", key_feature="glue")
    assert lab.state["top"].tolist() == [True, False, False, False, True, True, False, False]
    assert "“kids” attends most to “the”, “on” and “the”, equally (0.32 each)" in lab.readout


def test_a_lab_in_chinese_names_the_same_keys(sentence):
    with attnlib.set_language("zh-Hans"):
        chinese = labs.make_qkv_lab(*sentence, query=3, query_feature="action", key_feature="alive")
    assert "“playing” 最关注 “kids”（0.99）" in chinese.readout and "读取" in chinese.readout
    chinese.set_values(query=1, query_feature="thing", key_feature="glue")
    assert "“kids” 最关注 “the”、“on” 和 “the”，关注得一样多" in chinese.readout


@pytest.mark.parametrize(("change", "match"), [
    ({"X": np.zeros((8, 5))}, r"X must have shape \(T, d_model\) = \(8, 6\).*got \(8, 5\)"),
    ({"X": np.zeros(8)}, r"X must have shape"),
    ({"X": np.full((8, 6), np.nan)}, r"X"),
    ({"query": 8}, r"query must be one of 0, 1, 2, 3, 4, 5, 6, 7; got 8"),
    ({"query_feature": "colour"}, r"query_feature must be one of thing, action"),
    ({"key_feature": "alive "}, r"key_feature must be one of"),
    ({"size": 0.3}, r"size must be one of 0.0, 0.5"),
])
def test_bad_input_is_refused_by_name(sentence, change, match):
    X, tokens, features = sentence
    arguments = {"X": X, "tokens": tokens, "features": features, **change}
    with attnlib.set_language("en"), pytest.raises(ValueError, match=match):
        labs.make_qkv_lab(**arguments)


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
def test_the_page_gets_a_small_spec(language):
    """Every page with the lab carries its spec: the columns Q and K of each feature and entry, not the
    scores, favoured keys and verdict of all 2 592 settings (498 kB once), which the page works out."""
    with attnlib.set_language(language):
        spec = build("qkv").spec
    size = len(json.dumps(spec))
    assert size < 120_000, f"{size} bytes"
    stored = {path for table in spec["frames"] for path in table["columns"]}
    assert {"Q", "K"} <= stored and not {"scores", "weights", "top", "fields.verdict"} & stored
