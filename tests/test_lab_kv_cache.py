"""The KV-cache lab of notebook 11: its numbers worked out by hand, what sharing K/V heads saves, how a
model brings its context, and what it refuses.

What every lab shares (every setting, the page's frames, the Chinese edition) is tested for this one too
through the registry (tests/test_labs.py, tests/test_page_twins.py, tests/browser/test_lab_frames.py); the
page's twins of its functions in tests/test_page_twins.py.
"""

from __future__ import annotations

import pytest

import attnlib
from attnlib import labs, plot
from attnlib.labs import kv_cache
from tests.lab_cases import build

GB = 10**9


@pytest.fixture(scope="module")
def lab():
    with attnlib.set_language("en"), plot.use_style():
        made = build("kv_cache")
    yield made


@pytest.fixture(autouse=True)
def _start(lab):
    lab.values = {"model": "Mistral 7B", "kv_heads": "published", "context": 8192, "dtype": "float16", "memory": 80}
    yield


def test_mistral_by_hand(lab):
    """Mistral 7B in float16: 2 · 32 layers · 8 K/V heads · 128 · 2 B = 131,072 B per token. Its window keeps
    4096 of the 8192 positions: 131,072 · 4096 = 536,870,912 B per sequence. The weights take
    7.3·10⁹ · 2 = 14.6 GB; ⌊(80 − 14.6)·10⁹ / 536,870,912⌋ = ⌊121.8⌋ = 121 sequences fit, and with 32 K/V
    heads (4 × the cache) ⌊30.5⌋ = 30."""
    f = lab.state
    assert (f["per_token"], f["positions"], f["per_sequence"]) == (131_072, 4096, 536_870_912)
    assert f["mha_per_sequence"] == 4 * 536_870_912 and (f["n_kv"], f["group"]) == (8, 4)
    assert (f["weights"], f["weights_fit"], f["fits"], f["fits_mha"]) == (14_600_000_000, True, 121, 30)
    assert lab.readout == ("<b>537 MB</b> per sequence (131 kB per token) · 121 sequences fit beside 14.6 GB of "
                           "weights in 80 GB")


def test_llama_2_does_not_fit_one_gpu_in_float16_and_does_two(lab):
    """Llama 2 70B: 70·10⁹ · 2 B = 140 GB of weights, more than 80 GB. In 160 GB: 2 · 80 · 4096 · 8 · 128 · 2 =
    1,342,177,280 B per sequence, ⌊20·10⁹ / that⌋ = 14 sequences; with 64 K/V heads (× 8) only 1."""
    lab.set_values(model="Llama 2 70B")
    assert lab.state["n_kv"] == 8 and lab.values["context"] == 4096  # its own, from MODEL_SHAPES
    assert not lab.state["weights_fit"] and lab.state["fits"] == 0
    assert lab.state["fields"]["verdict"] == "the weights alone (140 GB) do not fit in 80 GB"
    lab.set_values(memory=160)
    f = lab.state
    assert (f["per_sequence"], f["fits"], f["fits_mha"]) == (1_342_177_280, 14, 1)
    assert kv_cache.lines(f, lab.values, lab.spec["data"])["count_mha"] == "1 sequence"


def test_at_every_setting_sharing_divides_the_cache_and_never_fits_fewer(lab):
    """The multi-head cache is n_heads / n_kv_heads times the shared one, at every setting; the bytes per
    sequence are the bytes per token times the positions kept; sharing never fits fewer sequences."""
    for values in lab.settings():
        f = lab.frame(**values)
        heads = lab.spec["data"]["models"][values["model"]]["n_heads"]
        assert f["group"] * f["n_kv"] == heads
        assert f["mha_per_sequence"] == f["group"] * f["per_sequence"] == heads * f["per_sequence"] // f["n_kv"]
        assert f["per_sequence"] == f["per_token"] * f["positions"]
        assert f["fits"] >= f["fits_mha"] >= 0
        if f["weights_fit"]:
            free = values["memory"] * GB - f["weights"]
            assert f["fits"] * f["per_sequence"] <= free < (f["fits"] + 1) * f["per_sequence"]


def test_only_a_sliding_window_bounds_the_positions(lab):
    assert lab.frame(context=2048)["positions"] == 2048  # within Mistral's window
    assert lab.frame(context=8192)["positions"] == 4096  # its rolling buffer keeps the last 4096
    said = kv_cache.lines(lab.state, lab.values, lab.spec["data"])
    assert said["window"] == "sliding window: 4,096 positions kept"
    assert kv_cache.lines(lab.frame(context=4096), {**lab.values, "context": 4096}, lab.spec["data"])["window"] == ""
    lab.set_values(model="GPT-3 175B")
    assert lab.state["positions"] == 2048 == lab.values["context"]


def test_each_choice_of_k_v_heads_for_each_model():
    """As published, all, half, a quarter, one: for Mistral 7B's 32 heads 8, 32, 16, 8, 1; for the MiniLM's 12
    heads 12, 12, 6, 3, 1; the cache in proportion."""
    choices = list(kv_cache.KV_CHOICES)
    mistral, minilm = attnlib.MODEL_SHAPES["Mistral 7B"], attnlib.MODEL_SHAPES["all-MiniLM-L6-v2 (08)"]
    assert [kv_cache.kv_heads_for(mistral, c) for c in choices] == [8, 32, 16, 8, 1]
    assert [kv_cache.kv_heads_for(minilm, c) for c in choices] == [12, 12, 6, 3, 1]
    with pytest.raises(ValueError, match=r"kv_heads=5 must divide the model's 12 heads"):
        kv_cache.cache_numbers(minilm, 5, 512, 2, 80)


def test_a_new_model_brings_its_own_context_and_keeps_the_choice_of_heads(lab):
    lab.set_values(kv_heads="one")
    lab.set_values(model="GPT-3 175B")
    assert (lab.values["kv_heads"], lab.values["context"], lab.state["n_kv"]) == ("one", 2048, 1)
    lab.set_values(context=8192)  # beyond its 2048 positions
    assert lab.values["context"] == 2048
    lab.set_values(model="all-MiniLM-L6-v2 (08)", kv_heads="quarter")
    assert (lab.values["context"], lab.state["n_kv"]) == (512, 3)
    lab.set_values(context=128)
    assert lab.values["context"] == 128 and lab.state["per_sequence"] == 2 * 6 * 128 * 3 * 32 * 2
    assert kv_cache.settle({"model": "Mistral 7B", "context": 64}, {"model": "nowhere"}, {}) == {
        "model": "nowhere", "context": 64}  # left for the check, which names the models


def test_the_heads_sentence_says_multi_head_grouped_or_multi_query(lab):
    texts = lab.spec["data"]

    def heads(choice: str) -> str:
        values = {**lab.values, "kv_heads": choice}
        return kv_cache.lines(lab.frame(**values), values, texts)["heads"]

    assert heads("all") == "multi-head: one K/V head per head"
    assert heads("published") == heads("quarter") == "8 K/V heads: each serves 4 query heads"
    assert heads("one") == "1 K/V head for all 32 (multi-query)"


def test_bytes_are_written_in_decimal_units():
    assert [kv_cache.human_bytes(n) for n in (512, 131_072, 999_499, 999_500, 1_342_177_280, 14_600_000_000)] == [
        "512 B", "131 kB", "999 kB", "1.00 MB", "1.34 GB", "14.6 GB"]
    assert kv_cache.grouped(19_531_237) == "19,531,237" and kv_cache.grouped(7) == "7"


def test_its_settings_are_the_contexts_each_model_allows(lab):
    settings = lab.settings()
    combos = {(s["model"], s["context"]) for s in settings}
    assert len(settings) == len(combos) * 5 * 3 * 7  # every choice of K/V heads, dtype and memory
    for name, shape in attnlib.MODEL_SHAPES.items():
        contexts = sorted(c for m, c in combos if m == name)
        assert contexts[0] == 16 and contexts[-1] == shape["context"]


def test_a_lab_in_chinese_says_it_in_chinese():
    with attnlib.set_language("zh-Hans"), plot.use_style():
        chinese = labs.make_kv_cache_lab("Mistral 7B", dtype="float16", memory=80)
    assert chinese.readout == "每个序列 <b>537 MB</b>（每个词元 131 kB）· 80 GB 放下 14.6 GB 的权重后，还能放 121 个序列"
    assert [c["description"] for c in chinese.spec["controls"]] == ["模型", "K/V 头", "上下文（词元数）", "数值存储为", "内存"]
    assert chinese.spec["controls"][1]["labels"][-1] == "所有头共用一个（多查询）"
    assert chinese.spec["data"]["models"]["tiny GPT (09)"]["label"] == "迷你 GPT（09）"


def test_the_picture_shows_the_numbers_it_says(lab):
    """The snapshot writes the sentences of ``lines``: its texts are those of the page."""
    fig = kv_cache._picture(lab.state, lab.values, lab.spec["data"])
    written = {t.get_text() for t in fig.axes[0].texts}
    said = kv_cache.lines(lab.state, lab.values, lab.spec["data"])
    assert {said["title"], said["sequence"], said["count_kv"], said["count_mha"], said["weights"]} <= written
    assert said["factors_a"] + " " + said["factors_b"] in written


@pytest.mark.parametrize(("arguments", "match"), [
    ({"model": "GPT-5"}, r"model must be one of tiny GPT \(09\), "),
    ({"dtype": "bfloat16"}, r"dtype must be one of float32, float16, int8"),
    ({"memory": 81}, r"memory must be one of 16, 24, 40, 80"),
    ({"kv_heads": 8}, r"kv_heads must be one of published, all, half, quarter, one; got 8"),
    ({"context": 16384}, r"context must be one of 16, 32, 64, .*8192; got 16384"),
    ({"model": "GPT-3 175B", "context": 4096}, r"context must be one of .*2048; got 4096"),
])
def test_bad_input_is_refused_by_name(arguments, match):
    with attnlib.set_language("en"), pytest.raises(ValueError, match=match):
        labs.make_kv_cache_lab(**arguments)


def test_from_python_the_k_v_heads_may_be_a_number(lab):
    """``lab.controls["kv_heads"].value = 32`` picks the first choice that gives 32 (all, for Mistral 7B)."""
    lab.controls["kv_heads"].value = 32
    assert lab.values["kv_heads"] == "all" and lab.state["per_sequence"] == lab.state["mha_per_sequence"]
    lab.set_values(kv_heads=8)
    assert lab.values["kv_heads"] == "published"
    lab.set_values(model="GPT-3 175B", kv_heads=24)  # its 96 heads ÷ 4
    assert lab.values["kv_heads"] == "quarter" and lab.state["n_kv"] == 24
    with pytest.raises(ValueError, match=r"kv_heads=5: this model's choices give 1, 24, 48, 96 K/V heads"):
        lab.set_values(kv_heads=5)


def test_a_context_the_model_cannot_have_is_refused_by_name(lab):
    with pytest.raises(ValueError, match=r"context=8192 is longer than the 512 tokens of all-MiniLM-L6-v2"):
        lab.frame(model="all-MiniLM-L6-v2 (08)", context=8192)
