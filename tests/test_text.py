"""The character tokeniser and the corpus of notebook 09 (five-character Tang poems)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import attnlib
from attnlib.data import DATA_DIR
from attnlib.gpt.text import POEM_END, CharTokenizer, in_script, load_poems

VOCAB = list("。床前明月光，")


def test_ids_follow_the_order_of_the_vocabulary():
    tok = CharTokenizer(VOCAB)
    # 床=1, 前=2, 明=3, 月=4, 光=5, '，'=6 by their place in VOCAB.
    assert tok.encode("床前明月光，").tolist() == [1, 2, 3, 4, 5, 6]
    assert tok.decode([3, 4, 0]) == "明月。"
    assert len(tok) == 7 and "月" in tok and "日" not in tok


def test_from_text_sorts_by_code_point_so_the_vocabulary_is_reproducible():
    tok = CharTokenizer.from_text("月明月光")
    assert tok.vocab == sorted("月明光") and len(tok) == 3


@given(st.text(alphabet=VOCAB, max_size=40))
def test_decode_undoes_encode(text):
    tok = CharTokenizer(VOCAB)
    ids = tok.encode(text)
    assert ids.dtype == np.int64 and ids.shape == (len(text),)
    assert tok.decode(ids) == text


def test_an_unknown_character_names_itself_its_position_and_the_vocabulary_size():
    tok = CharTokenizer(VOCAB)
    with pytest.raises(ValueError, match=r"character 3 of '.*', '日', is not in the vocabulary of 7 characters"):
        tok.encode("明月日")


@pytest.mark.parametrize(
    ("vocab", "match"),
    [([], "at least one character"), (["月", "月"], "more than once"), (["明月"], "single character")],
)
def test_a_bad_vocabulary_is_refused(vocab, match):
    with pytest.raises(ValueError, match=match):
        CharTokenizer(vocab)


def test_decode_refuses_ids_outside_the_vocabulary():
    with pytest.raises(ValueError, match=r"every entry of ids must be between 0 and V-1=6; got 7"):
        CharTokenizer(VOCAB).decode([1, 7])


def test_the_corpus_is_split_by_whole_poems():
    poems = load_poems()
    assert len(poems.poems) == 5023
    n_held = len(poems.poems) // 10
    assert poems.heldout_text.count(POEM_END) == n_held
    assert poems.train_text.count(POEM_END) == len(poems.poems) - n_held
    tenth, eleventh = poems.poems[9]["text"], poems.poems[10]["text"]
    assert tenth + POEM_END in poems.heldout_text and tenth not in poems.train_text
    assert eleventh + POEM_END in poems.train_text and eleventh not in poems.heldout_text
    assert poems.tokenizer.decode(poems.train_ids) == poems.train_text
    assert len(poems.tokenizer) == 1998  # 1,997 characters and POEM_END


def test_every_poem_has_four_or_eight_lines_of_five_characters():
    for poem in load_poems().poems:
        lines = poem["text"].replace("，", "|").replace("。", "|").split("|")[:-1]
        assert len(lines) in (4, 8) and all(len(line) == 5 for line in lines), poem
        assert poem["text"][5::6] == "，。" * (len(lines) // 2)


def test_the_corpus_file_is_small_documented_and_drawable_with_the_bundled_font():
    from fontTools.ttLib import TTFont

    path = DATA_DIR / "tang_poems.json"
    corpus = json.loads(path.read_text(encoding="utf-8"))
    assert path.stat().st_size < 1_000_000
    assert "public domain" in corpus["licence"] and "chinese-poetry@2.0.1" in corpus["origin"]
    chars = {ch for row in corpus["poems"] for ch in row[2]}
    assert "乡" in chars and "鄉" not in chars  # Simplified characters
    font = Path(attnlib.__file__).parent / "fonts" / "NotoSansSC-Subset.ttf"
    cmap = TTFont(font).getBestCmap()
    assert not [ch for ch in chars if ord(ch) not in cmap]
    # Notebook 09 also draws the title of the first held-out quatrain in a figure.
    quatrain = next(p for p in load_poems().poems[9::10] if len(p["text"]) == 24)
    assert quatrain["title"] and all(ord(ch) in cmap for ch in quatrain["title"])


def test_load_poems_refuses_a_split_that_holds_everything_out():
    with pytest.raises(ValueError, match="heldout_every must be a whole number >= 2; got 1"):
        load_poems(heldout_every=1)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: CharTokenizer.from_text(""), ValueError, r"text must be a non-empty string to build a vocabulary from"),
        (lambda: CharTokenizer(VOCAB).encode(3), TypeError, r"text must be a string; got int"),
        (lambda: CharTokenizer(VOCAB).decode([0.5]), TypeError, r"ids must be whole numbers \(token ids\) of shape \(n,\)"),
        (lambda: CharTokenizer(VOCAB).decode([[0]]), ValueError, r"ids must have shape \(n,\); got shape \(1, 1\)"),
        (lambda: load_poems(heldout_every=2.5), TypeError, r"heldout_every must be a whole number >= 2; got 2.5"),
        (lambda: load_poems(heldout_every=True), TypeError, r"heldout_every must be a whole number >= 2; got True"),
        (lambda: CharTokenizer(None), TypeError, r"vocab must be a sequence of characters, e\.g\. list\('abc'\); got NoneType"),
        (lambda: CharTokenizer(7), TypeError, r"vocab must be a sequence of characters.*; got int"),
        (lambda: CharTokenizer(["月", 1]), TypeError, r"every entry of vocab must be a single character; got 1"),
        (lambda: CharTokenizer.from_text(3), TypeError, r"text must be a string; got int"),
        (lambda: CharTokenizer(VOCAB).decode("月"), TypeError, r"ids must be whole numbers \(token ids\) of shape \(n,\); got dtype <U1"),
        (lambda: CharTokenizer(VOCAB).decode([[0, 1], [2]]), TypeError, r"ids must be whole numbers \(token ids\) .* got dtype object"),
        (lambda: CharTokenizer(VOCAB).decode([-1]), ValueError, r"every entry of ids must be between 0 and V-1=6; got -1"),
        (lambda: load_poems(path=3), TypeError, r"path must be a path to a corpus like data/tang_poems\.json; got int"),
        (lambda: load_poems(path=DATA_DIR / "no_such_file.json"), ValueError, r"no_such_file\.json is not a corpus like data/tang_poems\.json"),
        (lambda: load_poems(path=DATA_DIR / "green_grass.json"), ValueError, r"green_grass\.json is not a corpus like data/tang_poems\.json: a JSON file with 'columns'"),
    ],
)
def test_more_bad_input_is_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_in_script_writes_the_models_characters_in_the_script_of_the_edition():
    assert in_script("过老子庙，风") == "过老子庙，风"  # English and 简体: as the model wrote it
    with attnlib.set_language("zh-Hans"):
        assert in_script("烟连惊长识") == "烟连惊长识"
    with attnlib.set_language("zh-Hant"):
        assert in_script("过老子庙，风\n") == "過老子廟，風\n"
        assert in_script("烟连惊长识") == "煙連驚長識"
        assert in_script("明月") == "明月"  # the same in both scripts
