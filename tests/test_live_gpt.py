"""The live GPT lab of notebook 09, Python side: its reference frame, its weights, its words.

The page's own forward pass is compared with attnlib in tests/browser/test_live_gpt_in_the_page.py; here the
Python twin it is compared with, what float16 costs, the Traditional table, how an opening is read (line
breaks, Traditional characters), the refusals, and the step that follows the end.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import attnlib
from attnlib import gpt, labs, page
from attnlib.gpt.text import drawn_text, hant_table, load_poems, model_text, read_as_simplified
from attnlib.labs import live_gpt


@pytest.fixture(autouse=True)
def english():
    attnlib.set_language("en")  # whatever a test elsewhere left set
    yield
    attnlib.set_language("en")


@pytest.fixture(scope="module")
def tok():
    return load_poems().tokenizer


def greedy(params, config, ids, n):
    """The tokens the lab writes at temperature 0 (the page's greedy line)."""
    steps = gpt.generate_steps(params, config, ids, n, rng=live_gpt.Mulberry32(live_gpt.SEED), greedy=True)
    return [s.token for s in steps]


@pytest.fixture(scope="module")
def lab(tok):
    with attnlib.set_language("en"):
        return labs.make_live_gpt_lab(tok)


def test_mulberry32_gives_the_numbers_of_its_javascript_twin():
    """First outputs of mulberry32(0) and mulberry32(123456789) as node printed them from live_gpt.js."""
    r = live_gpt.Mulberry32(0)
    assert [r.random() for _ in range(3)] == [0.26642920868471265, 0.0003297457005828619, 0.2232720274478197]
    r = live_gpt.Mulberry32(123456789)
    assert r.random() == 0.2577907438389957
    draws = np.array([live_gpt.Mulberry32(7).random() for _ in range(1)] + [r.random() for _ in range(2000)])
    assert draws.min() >= 0 and draws.max() < 1 and abs(draws.mean() - 0.5) < 0.03


def test_the_packed_weights_are_the_stored_ones_rounded_to_float16():
    config, params = live_gpt.models()[0]
    packed = live_gpt.pack(params, config)
    unpacked = live_gpt.unpack(packed)
    assert list(unpacked) == packed["names"] == list(gpt.model.param_shapes(config))
    assert sum(v.size for v in unpacked.values()) == 199_886
    first = unpacked["tok_emb"].astype(np.float64)
    assert unpacked["tok_emb"].dtype == np.float16 and first.shape == params["tok_emb"].shape
    # float16 keeps 11 significant bits: a relative error of at most 2^-11 for these normal numbers
    big = np.abs(params["tok_emb"]) > 1e-3
    assert np.max(np.abs(first - params["tok_emb"])[big] / np.abs(params["tok_emb"][big])) <= 2**-11


@pytest.mark.parametrize("model", [0, 1], ids=["causal", "peeking"])
def test_the_packing_loses_nothing(model):
    """Byte planes, deflate and base85 give back exactly the float16 numbers ``half`` rounds to, bit for bit
    (the page decodes the same text: tests/browser/test_live_gpt_in_the_page.py)."""
    config, params = live_gpt.models()[model]
    unpacked = live_gpt.unpack(live_gpt.pack(params, config))
    for name, rounded in live_gpt.half(params).items():
        assert unpacked[name].tobytes() == np.asarray(params[name], dtype="<f2").tobytes(), name
        np.testing.assert_array_equal(unpacked[name].astype(np.float64), rounded)


@pytest.mark.parametrize("blob", [b"", b"\x00", b"abc", bytes(range(256)) * 3, b"\xff" * 4097])
def test_bytes_travel_as_base85_text_and_come_back(blob):
    packed = live_gpt.to_text(blob)
    assert live_gpt.from_text(packed) == blob
    assert len(packed["base85"]) == 5 * -(-packed["bytes"] // 4)
    assert set(packed["base85"]) <= set(live_gpt.DIGITS)


def test_the_base85_digits_need_no_escape_in_json_or_html():
    digits = live_gpt.DIGITS
    assert len(digits) == len(set(digits)) == 85 and digits.isascii() and digits.isprintable()
    assert not set(digits) & set("\"'&<>\\` ")
    assert json.dumps(digits) == f'"{digits}"'


def test_the_tables_carry_the_vocabulary_and_both_directions(tok):
    table = hant_table()
    packed = live_gpt.pack_tables(tok.vocab, table["to_hans"], table["to_hant"])
    listed = np.frombuffer(live_gpt.from_text(packed), dtype="<u2").astype(int).tolist()
    V = listed[0]
    assert V == len(tok.vocab) and "".join(map(chr, np.cumsum(listed[1 : 1 + V]))) == "".join(tok.vocab)
    n = listed[1 + V]
    hans = listed[2 + V : 2 + V + 2 * n]
    assert dict(zip(map(chr, hans[::2]), map(chr, hans[1::2]), strict=True)) == table["to_hans"]
    m = listed[2 + V + 2 * n]
    assert m == len(table["to_hant"]) and len(listed) == 3 + V + 2 * n + 2 * m
    with pytest.raises(ValueError, match="sorted by code point"):
        live_gpt.pack_tables(["b", "a"], {}, {})
    with pytest.raises(ValueError, match="beyond U\\+FFFF"):
        live_gpt.pack_tables(["a", "\U0001F600"], {}, {})


def test_what_float16_costs_against_the_stored_float32_weights(tok):
    """Greedy lines of 20 characters after 20 held-out openings: the same with float16 and float32 weights
    (measured: all 40 of 40 the same, largest logit difference about 0.01 of logits that span about 20)."""
    config, params = live_gpt.models()[0]
    rounded = live_gpt.half(params)
    text = load_poems().heldout_ids
    rng = np.random.default_rng(3)
    worst, same = 0.0, 0
    for start in rng.integers(0, text.size - 10, size=20):
        ids = text[start : start + 1 + start % 5]
        full = greedy(params, config, ids, 20)
        same += full == greedy(rounded, config, ids, 20)
        worst = max(worst, float(np.abs(gpt.forward(params, config, np.r_[ids, full[:-1]])[0][-1]
                                        - gpt.forward(rounded, config, np.r_[ids, full[:-1]])[0][-1]).max()))
    assert same == 20
    assert worst < 0.05


def test_the_greedy_line_is_attnlibs_near_greedy_generation(tok):
    config, params = live_gpt.models()[0]
    ids = tok.encode("明月")
    cached, _ = gpt.generate(params, config, ids, 12, temperature=1e-6, rng=np.random.default_rng(0))
    assert greedy(params, config, ids, 12) == cached[2:].tolist()


def test_the_frame_is_the_step_generate_steps_takes(lab, tok):
    """The lab writes with attnlib.gpt.generate_steps on the float16 weights: greedy, or sampled with one
    Mulberry32(SEED) number a step; the frame at step s is step s of that line."""
    config, params = live_gpt.models()[0]
    rounded = live_gpt.half(params)
    for temperature in (0, 0.8):
        f = lab.frame(prompt="白日", temperature=temperature, step=7)
        steps = list(gpt.generate_steps(rounded, config, tok.encode("白日"), 22, temperature=temperature or 1.0,
                                        rng=live_gpt.Mulberry32(live_gpt.SEED), greedy=temperature == 0))
        assert f["written"] == [s.token for s in steps] and f["chosen"] == steps[6].token
        np.testing.assert_array_equal(f["weights"], steps[6].weights)
        assert f["rank"] == steps[6].rank and f["top"] == steps[6].top(live_gpt.TOP_K).tolist()


def test_the_frame_shows_the_causal_triangle_and_a_readout(lab, tok):
    f = lab.state
    t = len(f["ids"])
    assert f["weights"].shape == (2, 4, t, t) and t == 2 + 22 - 1
    assert np.all(np.triu(f["weights"], k=1) == 0)
    np.testing.assert_allclose(f["weights"].sum(-1), 1.0)
    assert lab.readout.startswith("step 22 of 22: after “明月")
    assert "greedy" in lab.readout
    peek = lab.frame(model=1, step=5)
    assert np.triu(peek["weights"], k=1).max() > 0.5  # without the mask the past reads the future


def test_the_opening_is_a_value_python_can_set(lab):
    lab.set_values(prompt="白日", step=3)
    assert lab.values["prompt"] == "白日" and lab.state["fields"]["says"].startswith("step 3 of 22: after “白日")
    with pytest.raises(TypeError, match="prompt must be a string"):
        lab.set_values(prompt=3)
    with pytest.raises(ValueError, match="no control named"):
        lab.set_values(opening="白日")
    lab.set_values(prompt="明月", step=22)


@pytest.mark.parametrize(("prompt", "words"), [
    ("", "at least one character"),
    ("ab明", "cannot read “a”, “b”: it knows only the 1998 characters"),
    ("hello world", "cannot read “h”, “e”, “l”, “o”, “␣”, “w”, “r”, “d”: it knows"),
    ("明\u3000月 a", "cannot read “␣”, “a”:"),  # a full-width space and a space: both ␣, named once
    ("月" * 65, "has 65 characters, more than the 64 positions"),
])
def test_an_opening_the_model_cannot_read_is_refused_and_changes_nothing(lab, tok, prompt, words):
    """The sentence the page shows beside the box; Python refuses the opening with it, as the page keeps it
    out of the setting: the line, the step and the readout on show stay."""
    assert words in live_gpt.problem(prompt, tok.vocab, 64, False)
    lab.set_values(prompt="白日", step=9)
    before = (dict(lab.values), lab.readout)
    with pytest.raises(ValueError, match="^prompt=.*" + words.replace("(", r"\(").replace("?", r"\?")):
        lab.set_values(prompt=prompt)
    with pytest.raises(ValueError, match=words[:12]):
        lab.frame(prompt=prompt)
    assert (lab.values, lab.readout) == before
    with pytest.raises(ValueError, match=words[:12]):
        labs.make_live_gpt_lab(tok, prompt)
    lab.set_values(prompt="明月", step=22)


def test_a_refusal_in_traditional_quotes_by_script(tok):
    assert live_gpt.problem("a樓", tok.vocab, 64, True).startswith("The model cannot read 「a」:")


def test_a_full_context_leaves_room_for_one_character(lab):
    f = lab.frame(prompt="月" * 64, step=22)
    assert f["fields"]["says"].startswith("step 1 of 1:")


@pytest.mark.parametrize("pasted", ["明月几时有\n把酒问青天", "明月几时有\r\n把酒问青天", "明月几时有\r把酒问青天",
                                    "明月几时有⏎把酒问青天"])
def test_a_line_break_is_read_as_the_poems_own(lab, tok, pasted):
    """Pasted from any system, or typed as the ⏎ the pictures draw, a line break is POEM_END, which the model
    knows (before, the page's box turned it into a space and refused it)."""
    assert model_text(pasted, tok.vocab) == "明月几时有\n把酒问青天"
    assert live_gpt.problem(pasted, tok.vocab, 64, False) is None
    f = lab.frame(prompt=pasted, step=1)
    assert f["ids"] == tok.encode("明月几时有\n把酒问青天").tolist()
    assert f["fields"]["says"].startswith("step 1 of 22: after “明月几时有⏎把酒问青天”")


def test_an_opening_in_traditional_is_read_as_simplified_and_the_lab_says_so(lab, tok):
    assert read_as_simplified("明月照高樓，春風", tok.vocab) == {"樓": "楼", "風": "风"}
    assert read_as_simplified("明月", tok.vocab) == {}
    assert lab.frame(prompt="明月照高樓，春風樓")["note"] == (
        "Read as Simplified, the script of the model's poems: 樓 → 楼, 風 → 风.")
    assert lab.frame(prompt="明月照高楼")["note"] is None
    with attnlib.set_language("zh-Hans"):
        assert live_gpt.note("高樓", tok.vocab, False) == "已按简体字读入，模型学的唐诗用的是简体：樓 → 楼。"
    with attnlib.set_language("zh-Hant"):  # the other way: always said
        assert live_gpt.note("高楼", tok.vocab, True) == "模型寫的是簡體字（它學的唐詩用的是簡體）；本頁把它們顯示為繁體。"
    with pytest.raises(TypeError, match="text must be a string"):
        read_as_simplified(None, tok.vocab)


def test_more_characters_move_the_step_along_when_it_was_at_the_end(lab):
    """Raising n_new follows the end (step 22 of 22 becomes 40 of 40); a step the learner moved stays."""
    lab.set_values(prompt="明月", n_new=22, step=22)
    lab.controls["n_new"].value = 40
    assert lab.values["step"] == 40 and lab.readout.startswith("step 40 of 40:")
    lab.controls["step"].value = 12
    lab.controls["n_new"].value = 30
    assert lab.values["step"] == 12
    lab.controls["n_new"].value = 10  # lowered below the step: clamped, at the end again
    lab.controls["n_new"].value = 25
    assert lab.values["step"] == 25
    assert live_gpt.settle({"n_new": 5, "step": 5}, {"n_new": 9, "step": 2}) == {"n_new": 9, "step": 2}
    lab.set_values(n_new=22, step=22)


def test_the_readout_explains_a_candidates_rank_and_a_greedy_pick_of_small_probability(lab, tok):
    greedy_ = lab.frame(prompt="明月", step=22)["fields"]["says"]
    assert "probability 0.020 · greedy: always the most likely character, however small its probability" in greedy_
    sampled = lab.frame(prompt="明月", temperature=0.8, step=3)
    rank = sampled["rank"]
    assert (f"candidate {rank} of 1998, every character the model knows ranked by probability (sampling draws each "
            "with its probability, so not always candidate 1)") in sampled["fields"]["says"]
    with attnlib.set_language("zh-Hans"):
        zh = labs.make_live_gpt_lab(tok, temperature=0.8)
    assert "1998 个候选中的第" in zh.readout and "不一定抽中第 1 个" in zh.readout


def test_traditional_openings_are_read_and_the_output_shown_in_traditional(tok):
    assert model_text("春風明月樓", tok.vocab) == "春风明月楼"
    assert drawn_text("春风楼\n", True) == "春風樓⏎" and drawn_text("春风\n", False) == "春风⏎"
    assert labs.live_gpt.model_text is model_text  # what notebook 09 calls
    assert model_text("⏎", tok.vocab) == "\n" and drawn_text(model_text("春風⏎", tok.vocab), True) == "春風⏎"
    table = json.loads((attnlib.data.DATA_DIR / "tang_vocab_hant.json").read_text(encoding="utf-8"))
    assert all(s in tok.vocab for s in table["to_hant"]) and all(s in tok.vocab for s in table["to_hans"].values())
    assert not any(t in tok.vocab for t in table["to_hans"])
    with attnlib.set_language("zh-Hant"):
        lab = labs.make_live_gpt_lab(tok, "春風")
    says = lab.readout
    assert says.startswith("第 22 步") and "「春風" in says and "风" not in says
    with pytest.raises(TypeError, match="text must be a string"):
        model_text(3, tok.vocab)


def test_the_lab_refuses_another_vocabulary():
    with pytest.raises(ValueError, match="tokenizer must be the Tang poems' CharTokenizer"):
        labs.make_live_gpt_lab(attnlib.gpt.text.CharTokenizer(list("abc")))


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_lab_adds_about_a_megabyte_to_a_page(tok, language):
    """What the lab adds to a site page or a deck (its mount: state and module), in every edition: the two
    models' packed weights (about 0.85 MB) dominate; beside them less than 0.2 MB, the module with the kit,
    the font subsets of its words (about 0.1 MB in 繁體, a glyph each character) and the tables (the 繁體
    edition also carries the table to Traditional). Measured: 0.97 MB (en) to 1.02 MB (繁體)."""
    with attnlib.set_language(language):
        lab = labs.make_live_gpt_lab(tok)
    mount = page.mount_html("live_gpt", lab.page_state(), "live")
    weights = sum(len(m["base85"]) for m in lab.spec["data"]["models"])
    assert 800_000 < weights < 870_000
    assert len(mount.encode("utf-8")) - weights < 200_000


def test_the_labs_refusals_are_translated(lab, tok):
    with attnlib.set_language("zh-Hans"):
        with pytest.raises(ValueError, match=r"^没有名为 \['opening'\] 的控件；控件有 .*，开头是 prompt$"):
            lab.set_values(opening="白日")
        with pytest.raises(TypeError, match=r"^prompt 应当是字符串；收到的是 int$"):
            lab.frame(prompt=3)
        with pytest.raises(ValueError, match=r"^tokenizer 应当是唐诗的 CharTokenizer，共 1998 个字；收到的有 3 个$"):
            labs.make_live_gpt_lab(attnlib.gpt.text.CharTokenizer(list("abc")))
        with pytest.raises(ValueError, match=r"^vocab（词表）应当按码位排序"):
            live_gpt.pack_tables(["b", "a"], {}, {})
