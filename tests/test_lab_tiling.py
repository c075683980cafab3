"""The tiling lab of notebook 11: its numbers against tiled attention's claims, written again here, what the
page computes from them, and what the lab refuses.

What every lab shares (every setting, the page's frames, the Chinese edition) is tested for this one too
through the registry (tests/test_labs.py, tests/test_page_twins.py, tests/browser/test_lab_frames.py).
"""

from __future__ import annotations

import json
import shutil
import subprocess

import numpy as np
import pytest

import attnlib
from attnlib import labs, page, plot
from attnlib.labs import base, tiling
from tests.lab_cases import LABS, build

GRIDS = [(T, block, mask) for T in tiling.T_CHOICES for block in tiling.BLOCKS for mask in tiling.MASKS]


@pytest.fixture(scope="module")
def lab():
    with attnlib.set_language("en"), plot.use_style():
        made = build("tiling")
    yield made


@pytest.fixture(autouse=True)
def _start(lab):
    lab.set_values(**LABS["tiling"].arguments)
    yield


@pytest.fixture(scope="module")
def qkv():
    Q, K, V = np.random.default_rng(tiling.SEED).standard_normal((3, tiling.MAX_T, tiling.D_K))
    return Q, K, V


def _keep(T, mask):
    return np.tri(T, dtype=bool) if mask == "causal" else np.ones((T, T), dtype=bool)


def test_the_last_step_gives_attentions_output_to_1e12(lab, qkv):
    """At the last tile, every row of every grid: the output so far is softmax(Q·Kᵀ/√d_k + M)·V, written
    here with numpy alone, to 1e-12, and the lab's gap says so."""
    Q, K, V = qkv
    for T, block, mask in GRIDS:
        s = Q[:T] @ K[:T].T / 2.0  # √d_k = 2
        s = np.where(_keep(T, mask), s, -np.inf)
        w = np.exp(s - s.max(axis=1, keepdims=True))
        want = (w / w.sum(axis=1, keepdims=True)) @ V[:T]
        last = tiling.tiles(T, block)
        for row in range(T):
            f = lab.frame(T=T, block=block, mask=mask, row=row, step=last)
            np.testing.assert_allclose(f["out"], want[row], rtol=0, atol=1e-12)
            np.testing.assert_allclose(f["exact"], want[row], rtol=0, atol=1e-12)
            assert f["gap"] < 1e-12 and f["done"].all()


def test_under_the_causal_mask_the_skipped_tiles_are_those_above_the_diagonal(lab):
    """Tile (a, b) is skipped exactly when b > a (every key of block b comes after every query of block a):
    n(n − 1)/2 of the n² tiles; the diagonal ones are partial, those below full. With no mask all are full."""
    for T, block, mask in GRIDS:
        f = lab.frame(T=T, block=block, mask=mask, row=0, step=0)
        n = -(-T // block)
        a, b = np.indices((n, n))
        if mask == "causal":
            want = np.where(b > a, 0, np.where(b == a, 1 if block > 1 else 2, 2))
            assert f["fields"]["skipped"] == n * (n - 1) // 2
        else:
            want = np.full((n, n), 2)
            assert f["fields"]["skipped"] == 0
        np.testing.assert_array_equal(f["kinds"], want)
        assert f["fields"]["tiles"] == n * n == f["order"].max()
    assert lab.state["fields"] == {"T": 16, "block": 4, "tiles": 16, "skipped": 6, "partial": 4}


def test_the_steps_run_query_blocks_outside_and_skip_no_step(lab):
    """Step s computes tile s − 1 in the order query block by query block, key blocks inside; a skipped
    tile is a step too (the loop passes it) and changes nobody's numbers."""
    T, block = 12, 4
    for step in range(1, 10):
        f = lab.frame(T=T, block=block, mask="causal", row=5, step=step)
        assert f["tile"][:2] == [(step - 1) // 3, (step - 1) % 3]
        assert f["done"].sum() == step
    before, skipped = (lab.frame(T=T, block=block, mask="causal", row=5, step=s) for s in (5, 6))
    assert skipped["tile"] == [1, 2, 0]
    assert (skipped["m"], skipped["l"]) == (before["m"], before["l"])
    np.testing.assert_array_equal(skipped["out"], before["out"])


def test_the_running_max_and_sum_are_those_of_the_keys_seen(lab, qkv):
    """After the tiles of its query block up to key block b, row i's m is the largest visible score among
    keys 0 .. (b+1)·block − 1 and l = Σ e^{s − m} over them; before its first tile m is −∞ (None), l = 0
    and the output 0."""
    Q, K, V = qkv
    T, block, row = 12, 4, 9
    s = Q[:T] @ K[:T].T / 2.0
    for mask in tiling.MASKS:
        seen = np.where(_keep(T, mask), s, -np.inf)[row]
        first = (row // block) * 3  # 3 key blocks per query block; its tiles are steps first+1 .. first+3
        f = lab.frame(T=T, block=block, mask=mask, row=row, step=first)
        assert f["m"] is None and f["l"] == 0.0 and not f["out"].any()
        for b in range(3):
            f = lab.frame(T=T, block=block, mask=mask, row=row, step=first + b + 1)
            keys = seen[: (b + 1) * block]
            m = keys.max()
            assert f["m"] == pytest.approx(m, abs=1e-12)
            assert f["l"] == pytest.approx(np.exp(keys - m).sum(), rel=1e-12)
            assert np.all(np.diff([lab.frame(T=T, block=block, mask=mask, row=row, step=first + c + 1)["m"]
                                   for c in range(b + 1)]) >= 0)  # the running max never falls


def test_the_readout_and_the_sentences(lab):
    assert lab.readout == ("T = 16 in blocks of 4: 16 tiles, <b>6</b> skipped (the mask blocks every entry), "
                           "4 partly masked")
    said = tiling.lines(lab.state, lab.values, lab.spec["data"]["texts"])
    assert said["step"] == "step 10 of 16: tile (2, 1)" and said["kind"] == "full: computed"
    assert said["row"] == "row i = 9, in query block 2"
    assert said["m"].startswith("running max m = ") and said["gap"] != "largest gap to exact: 0.000"
    lab.set_values(step=0)
    said = tiling.lines(lab.state, lab.values, lab.spec["data"]["texts"])
    assert said["step"] == "step 0 of 16: nothing computed yet" and said["m"] == "running max m = −∞"
    lab.set_values(step=12)  # the last tile of row 9's query block: skipped, and the row is done
    said = tiling.lines(lab.state, lab.values, lab.spec["data"]["texts"])
    assert said["kind"] == "skipped: the mask blocks it all" and said["gap"] == "largest gap to exact: 0.000"


def test_a_new_grid_keeps_the_step_and_the_row_inside_it(lab):
    lab.set_values(step=16)  # the last tile
    lab.controls["block"].value = 2
    assert lab.values["step"] == 64  # at the end it stays at the end
    lab.set_values(step=30, row=15)
    lab.controls["T"].value = 8
    assert (lab.values["step"], lab.values["row"]) == (16, 7)  # past the end: brought back to it
    lab.controls["T"].value = 16
    assert (lab.values["step"], lab.values["row"]) == (64, 7)  # 16 was the end: the new end, 8²
    lab.set_values(T=8, step=3)
    assert lab.values["step"] == 3 and tiling.settle(lab.values, {"mask": "none"})["step"] == 3
    with pytest.raises(ValueError, match=r"step must be at most 16, the number of tiles of T = 8 in blocks of 2; got 17"):
        lab.controls["step"].value = 17
    with pytest.raises(ValueError, match=r"row must be below T = 8 .*got 8"):
        lab.set_values(row=8)
    with pytest.raises(ValueError, match="step must be one of"):
        lab.set_values(step=1000)
    assert lab.values["step"] == 3 and lab.values["row"] == 7  # a refused move changes nothing
    assert len(lab.settings()) == sum(T * (tiling.tiles(T, b) + 1) for T, b, _ in GRIDS)


def test_the_page_gets_a_small_spec_with_the_states_packed(lab):
    """Each grid's row states travel as one base64 float64 block (−∞ included); the spec stays below 400 kB."""
    size = len(json.dumps(lab.spec))
    assert size < 400_000, f"{size} bytes"
    (table,) = [t for t in lab.spec["frames"] if t["by"] == ["T", "block", "mask"]]
    assert all(set(states) == {"f64"} for states in table["columns"]["states"])
    assert [c["name"] for c in lab.spec["controls"]] == ["T", "block", "mask", "row", "step"]
    assert lab.spec["controls"][4]["options"][-1] == tiling.tiles(16, 2)


def _node(tmp_path, script, payload):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    (tmp_path / "tiling.mjs").write_text(page.bundle("tiling"), encoding="utf-8")
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    done = subprocess.run([node, "run.mjs"], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, check=True)
    return json.loads(done.stdout)


def test_the_page_looks_up_the_same_frames_and_writes_the_same_sentences(lab, tmp_path):
    """tiling.js ``frame`` (run in Node on the lab's bundle, from the spec alone) against the Python frame,
    which takes the state from ``tiled_attention_steps`` step by step; and ``lines`` against its twin."""
    settings = lab.settings()
    picked = settings[:: max(1, len(settings) // 500)] + [settings[-1], dict(lab.values)]
    runner = ("import { frame, lines } from './tiling.mjs'; import { readFileSync } from 'node:fs';\n"
              "const [spec, settings] = JSON.parse(readFileSync(0, 'utf8'));\n"
              "process.stdout.write(JSON.stringify(settings.map((v) => { const f = frame(spec, v);\n"
              "  return { f, said: lines(f, v, spec.data.texts) }; })));\n")
    got = _node(tmp_path, runner, [lab.spec, picked])
    keys = LABS["tiling"].page_keys
    for values, g in zip(picked, got, strict=True):
        f = lab.frame(**values)
        for key in keys:
            want = base._plain(f[key].astype(float) if key == "done" else f[key])
            have = g["f"][key]
            if key == "done":
                have = [[float(x) for x in line] for line in have]
            if want is None or isinstance(want, int):
                assert have == want, (values, key)
            else:
                np.testing.assert_allclose(np.asarray(have, dtype=float), np.asarray(want, dtype=float),
                                           rtol=0, atol=0, err_msg=f"{values} {key}")
        assert g["said"] == tiling.lines(f, values, lab.spec["data"]["texts"]), values


def test_the_page_settles_as_python_does(tmp_path):
    cases = []
    for T in (8, 12, 16):
        for block in (2, 8):
            for step in (0, 3, tiling.tiles(T, block)):
                values = {"T": T, "block": block, "mask": "causal", "row": T - 1, "step": step}
                cases += [[values, change] for change in ({"T": 12}, {"block": 4}, {"T": 8, "block": 2},
                                                          {"mask": "none"}, {"step": 1}, {"row": 0})]
    runner = ("import { settle, tiles } from './tiling.mjs'; import { readFileSync } from 'node:fs';\n"
              "const cases = JSON.parse(readFileSync(0, 'utf8'));\n"
              "process.stdout.write(JSON.stringify(cases.map(([v, c]) => [settle(v, c), tiles(v.T, v.block)])));\n")
    got = _node(tmp_path, runner, cases)
    for (values, change), (settled, n) in zip(cases, got, strict=True):
        assert settled == tiling.settle(values, change), (values, change)
        assert n == tiling.tiles(values["T"], values["block"])


def test_a_lab_in_chinese_says_it_in_chinese():
    with attnlib.set_language("zh-Hans"), plot.use_style():
        chinese = labs.make_tiling_lab()
    assert "共 16 个分块，<b>6</b> 个被跳过" in chinese.readout
    assert [c["description"] for c in chinese.spec["controls"]] == ["序列长度 T", "块大小", "掩码", "查询行 i", "步数"]
    assert chinese.spec["data"]["texts"]["row"] == "第 i = {row} 行，在查询块 {q} 中"


def test_its_own_queries_keys_and_values():
    rng = np.random.default_rng(3)
    Q, K, V = rng.normal(size=(16, 2)), rng.normal(size=(16, 2)), rng.normal(size=(16, 6))
    lab = labs.make_tiling_lab(Q, K, V, T=12, block=8, mask="none", row=11, step=4)
    want = attnlib.attention(Q[:12], K[:12], V[:12])[0][11]
    np.testing.assert_allclose(lab.state["out"], want, rtol=0, atol=1e-12)
    assert lab.spec["data"]["d_v"] == 6 and lab.state["fields"]["partial"] == 0


@pytest.mark.parametrize(("arguments", "error", "match"), [
    ({"Q": np.ones((16, 4))}, ValueError, r"give all of Q, K and V, or none of them"),
    ({"Q": np.ones((8, 4)), "K": np.ones((8, 4)), "V": np.ones((8, 4))}, ValueError,
     r"Q must have shape \(16, d\): one row per token of the longest sequence; got \(8, 4\)"),
    ({"Q": np.ones((16, 4)), "K": np.ones((16, 3)), "V": np.ones((16, 4))}, ValueError,
     r"K must have shape \(16, 4\)"),
    ({"Q": np.ones((16, 4)), "K": np.ones((16, 4)), "V": np.ones((16, 7))}, ValueError,
     r"V must have at most 6 columns .*got 7"),
    ({"Q": np.full((16, 4), np.nan), "K": np.ones((16, 4)), "V": np.ones((16, 4))}, ValueError, r"Q"),
    ({"T": 10}, ValueError, r"T must be one of 8, 12, 16; got 10"),
    ({"block": 3}, ValueError, r"block must be one of 2, 4, 8"),
    ({"mask": "padding"}, ValueError, r"mask must be one of none, causal"),
    ({"T": 8, "row": 9}, ValueError, r"row must be below T = 8"),
    ({"block": 8, "step": 5}, ValueError, r"step must be at most 4"),
])
def test_bad_input_is_refused_by_name(arguments, error, match):
    with attnlib.set_language("en"), pytest.raises(error, match=match):
        labs.make_tiling_lab(**arguments)
