"""The RoPE lab of notebook 10: its numbers against RoPE's claims, written again here, and what it refuses.

What every lab shares (every setting, the page's frames, the Chinese edition) is tested for this one too
through the registry (tests/test_labs.py, tests/test_page_twins.py, tests/browser/test_lab_frames.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections import defaultdict

import numpy as np
import pytest

import attnlib
from attnlib import labs, page, plot
from attnlib.labs import base, rope
from tests.lab_cases import build


@pytest.fixture(scope="module")
def lab():
    with attnlib.set_language("en"), plot.use_style():
        made = build("rope")
    yield made


@pytest.fixture(scope="module")
def frames(lab):
    """The frame at every one of the 64 × 64 × 4 settings."""
    return {(s["i"], s["j"], s["p"]): lab.frame(**s) for s in lab.settings()}


@pytest.fixture(autouse=True)
def _start(lab):
    lab.set_values(i=5, j=2, p=0)
    yield


def _complex_score(q, k, i, j, base=10000.0):
    """RoPE in complex numbers, written apart from attnlib: pair p is z = x_{2p} + i·x_{2p+1}, turned by
    multiplying with e^{i·t·ω_p}; the score is Re Σ_p z_q(i)·conj(z_k(j))."""
    d_k = len(q)
    omega = base ** (-np.arange(0, d_k, 2) / d_k)
    zq = (q[0::2] + 1j * q[1::2]) * np.exp(1j * i * omega)
    zk = (k[0::2] + 1j * k[1::2]) * np.exp(1j * j * omega)
    return float(np.real(np.sum(zq * np.conj(zk))))


def test_moving_i_and_j_together_changes_neither_the_score_nor_the_angle_between(frames):
    """For every offset i − j and pair p, over all the (i, j) with that offset: the score, the pair's part,
    every pair's part and the angle from k′ to q′ agree to 1e-12, while q′ and k′ themselves turn."""
    groups = defaultdict(list)
    for (i, j, p), f in frames.items():
        groups[i - j, p].append(f)
    assert len(groups) == 127 * 4
    for (offset, p), same in groups.items():
        for key in ("score", "pair_dot", "between", "contributions"):
            values = np.array([f[key] for f in same])
            assert np.ptp(values, axis=0).max() <= 1e-12, (offset, p, key)
    turned = np.array([f["q_rot"] for f in groups[3, 0]])
    assert np.ptp(turned, axis=0).max() > 1.0  # the arrows do move: only what is between them stays


def test_the_score_is_ropes_written_in_complex_numbers(lab, frames):
    q = np.concatenate([frames[0, 0, p]["q_pair"] for p in range(4)])
    k = np.concatenate([frames[0, 0, p]["k_pair"] for p in range(4)])
    for (i, j, p), f in list(frames.items())[::97]:
        assert f["score"] == pytest.approx(_complex_score(q, k, i, j), abs=1e-12)
        assert f["contributions"].sum() == pytest.approx(f["score"], abs=1e-12)
        assert f["pair_dot"] == f["contributions"][p]
    direct = attnlib.rope_scores(q[None], k[None], [40.0], [37.0])[0, 0]
    assert frames[40, 37, 2]["score"] == pytest.approx(direct, abs=1e-12)


def test_each_turn_is_i_omega_and_keeps_the_length(frames):
    """ω_p = 10000^(−2p/8) = 1, 0.1, 0.01, 0.001; q′ is q turned by i·ω_p (same length), the angle from k′
    to q′ is the angle before plus (i − j)·ω_p, brought into (−π, π]."""
    assert [frames[0, 0, p]["omega"] for p in range(4)] == pytest.approx([1.0, 0.1, 0.01, 0.001], rel=1e-12)
    for (i, j, _), f in list(frames.items())[::53]:
        assert f["theta_q"] == pytest.approx(i * f["omega"], abs=1e-12)
        assert f["theta_k"] == pytest.approx(j * f["omega"], abs=1e-12)
        assert np.linalg.norm(f["q_rot"]) == pytest.approx(np.linalg.norm(f["q_pair"]), abs=1e-12)
        assert np.linalg.norm(f["k_rot"]) == pytest.approx(np.linalg.norm(f["k_pair"]), abs=1e-12)
        c, s = np.cos(f["theta_q"]), np.sin(f["theta_q"])
        assert np.allclose(f["q_rot"], [[c, -s], [s, c]] @ f["q_pair"], atol=1e-12)
        angle = f["phi_q"] - f["phi_k"] + (i - j) * f["omega"]
        wrapped = np.angle(np.exp(1j * angle))
        assert abs(np.angle(np.exp(1j * (f["between"] - wrapped)))) <= 1e-9
        assert 0.0 <= f["turn_q"] < 2 * np.pi and np.cos(f["turn_q"]) == pytest.approx(c, abs=1e-12)


def test_at_the_same_position_every_pair_gives_one_half(frames):
    """The default key pairs sit 60° ahead of the query pairs, all of length 1: at i = j nothing turns
    between them, each pair gives cos 60° = 0.5 and the score is 4 × 0.5 = 2."""
    for t in (0, 17, 63):
        f = frames[t, t, 1]
        np.testing.assert_allclose(f["contributions"], 0.5, atol=1e-12)
        assert f["score"] == pytest.approx(2.0, abs=1e-12) and f["between"] == pytest.approx(-np.pi / 3)


def test_slow_pairs_barely_notice_distance_and_fast_ones_swing(frames):
    """Over 63 positions pair 3 (ω = 0.001) turns 0.063 rad between q and k, so its part stays near 0.5;
    pair 0 (ω = 1) turns 63 rad and its part takes values across [−1, 1]."""
    slow = [frames[i, 0, 3]["pair_dot"] for i in range(64)]
    fast = [frames[i, 0, 0]["pair_dot"] for i in range(64)]
    assert max(abs(v - 0.5) for v in slow) < 0.06
    assert min(fast) < -0.95 and max(fast) > 0.95


def test_the_readout_says_the_offset_and_the_score(lab):
    assert "i = 5, j = 2: i − j = <b>3</b>" in lab.readout and "<b>1.389</b>" in lab.readout
    lab.set_values(i=40, j=37)
    assert "i − j = <b>3</b>" in lab.readout and "<b>1.389</b>" in lab.readout
    lab.set_values(i=0, j=9)
    assert "i − j = <b>−9</b>" in lab.readout


def test_a_lab_in_chinese_says_it_in_chinese():
    with attnlib.set_language("zh-Hans"), plot.use_style():
        chinese = labs.make_rope_lab()
    assert "i − j = <b>3</b> · 分数 q′·k′ = <b>1.389</b>" in chinese.readout
    assert chinese.spec["data"]["texts"]["row"] == "第 {p} 对"
    assert [c["description"] for c in chinese.spec["controls"]] == ["查询的位置 i", "键的位置 j", "第 p 对（频率 ω）"]


def test_the_pictures_sentences(lab, frames):
    said = rope.lines(frames[5, 2, 1], 5, 2, 1, lab.spec["data"]["texts"], base="10000", d_k=8)
    assert said["title"] == "pair p = 1: dimensions 2 and 3"
    assert said["omega"] == "ω = 10000^(−2·1/8) = 0.1000"
    assert said["turn_q"] == "q turns by i·ω = 5 × 0.1000 = 0.500"
    assert said["turn_k"] == "k turns by j·ω = 2 × 0.1000 = 0.200"
    assert said["between"] == "angle from k′ to q′ = −0.747"  # −π/3 + 3 × 0.1


def test_the_page_writes_the_same_sentences(lab, frames, tmp_path):
    """rope.js ``lines`` (run in Node on the lab's bundle) against its Python twin, at a spread of settings."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    (tmp_path / "rope.mjs").write_text(page.bundle("rope"), encoding="utf-8")
    picked = [(5, 2, 0), (0, 63, 3), (63, 0, 1), (17, 17, 2), (40, 37, 0)]
    data = lab.spec["data"]
    calls = [[base._plain(frames[s]), {"i": s[0], "j": s[1], "p": s[2]}] for s in picked]
    runner = ("import { lines } from './rope.mjs'; import { readFileSync } from 'node:fs';\n"
              "const [calls, data] = JSON.parse(readFileSync(0, 'utf8'));\n"
              "process.stdout.write(JSON.stringify(calls.map(([f, v]) => lines(f, v, data))));\n")
    (tmp_path / "run.mjs").write_text(runner, encoding="utf-8")
    done = subprocess.run([node, "run.mjs"], input=json.dumps([calls, data]), capture_output=True, text=True,
                          cwd=tmp_path, timeout=60, check=True)
    got = json.loads(done.stdout)
    for s, g in zip(picked, got, strict=True):
        assert g == rope.lines(frames[s], *s, data["texts"], base=data["base"], d_k=8), s


def test_the_page_gets_a_spec_of_reasonable_size(lab):
    """Two numbers of every setting (the pair's part and the angle between) travel packed; the spec stays
    below 600 kB."""
    size = len(json.dumps(lab.spec))
    assert size < 600_000, f"{size} bytes"
    (table,) = [t for t in lab.spec["frames"] if t["by"] == ["i", "j", "p"]]
    assert set(table["columns"]) == {"pair_dot", "between"}
    assert all(set(column) == {"f64"} for column in table["columns"].values())


def test_its_own_vectors_and_other_widths():
    q = [1.0, 0.0, 0.0, 2.0]
    k = [0.0, 1.0, 1.0, 1.0]
    small = labs.make_rope_lab(4, base=100.0, query=q, key=k, i=3, j=1, p=1)
    f = small.state
    assert list(small.controls["p"].options) == [0, 1] and f["omega"] == pytest.approx(0.1)
    assert f["score"] == pytest.approx(_complex_score(np.array(q), np.array(k), 3, 1, base=100.0), abs=1e-12)
    assert small.spec["data"]["extent"] == pytest.approx(2.0) and small.spec["data"]["base"] == "100"


@pytest.mark.parametrize(("arguments", "error", "match"), [
    ({"d_k": 7}, ValueError, r"d_k must be even and at most 16 .*got 7"),
    ({"d_k": 18}, ValueError, r"d_k must be even and at most 16"),
    ({"d_k": 8.0}, TypeError, r"d_k must be a whole number"),
    ({"base": 1.0}, ValueError, r"base must be a finite number > 1"),
    ({"query": np.ones(6)}, ValueError, r"query must have shape \(d_k,\) = \(8,\); got \(6,\)"),
    ({"key": np.full(8, np.nan)}, ValueError, r"key"),
    ({"key": np.zeros(8)}, ValueError, r"query and key must each have a non-zero entry"),
    ({"i": 64}, ValueError, r"i must be one of 0, 1, 2"),
    ({"p": 4}, ValueError, r"p must be one of 0, 1, 2, 3; got 4"),
])
def test_bad_input_is_refused_by_name(arguments, error, match):
    with attnlib.set_language("en"), pytest.raises(error, match=match):
        labs.make_rope_lab(**arguments)
