"""attnlib.i18n: the language setting, the catalogues, the row/column markup."""

from __future__ import annotations

import pytest

import attnlib
from attnlib import i18n


def test_a_with_block_brings_the_language_before_back():
    assert i18n.language() == "en"
    with attnlib.set_language("zh-Hant"):
        assert i18n.language() == "zh-Hant"
        with attnlib.set_language("zh-Hans"):
            assert i18n.language() == "zh-Hans"
        assert i18n.language() == "zh-Hant"
    assert i18n.language() == "en"


def test_an_unknown_language_is_refused_and_changes_nothing():
    with pytest.raises(ValueError, match=r"^language must be one of en, zh-Hans, zh-Hant; got 'fr'$"):
        attnlib.set_language("fr")
    assert i18n.language() == "en"
    with attnlib.set_language("zh-Hans"), pytest.raises(ValueError, match=r"^language 应当是 en, zh-Hans, zh-Hant 之一"):
        attnlib.set_language("zh")
    assert i18n.language() == "en"


def test_tr_translates_known_text_and_keeps_the_rest():
    known = next(iter(i18n.catalogue("zh-Hans")))
    with attnlib.set_language("zh-Hans"):
        assert i18n.tr(known) == i18n.catalogue("zh-Hans")[known] != known
        assert i18n.tr("no such text") == "no such text"
    assert i18n.tr(known) == known


def test_the_row_and_column_markup_follows_each_edition():
    assert i18n.resolve_markup("每{行}之和，第 2 {列}", "zh-Hans") == "每行之和，第 2 列"
    assert i18n.resolve_markup("每{行}之和，第 2 {列}", "zh-Hant") == "每列之和，第 2 行"
    assert i18n.resolve_markup("row {token}", "en") == "row {token}"
    for name in ("zh-Hans", "zh-Hant"):
        assert not any("{行}" in t or "{列}" in t for t in i18n.catalogue(name).values())


def test_pad_counts_a_chinese_character_as_two_columns():
    assert attnlib.pad("masked", 8, ">") == f"{'masked':>8}"  # English: exactly the format spec
    assert attnlib.pad("有掩码", 8, ">") == "  有掩码"  # 3 wide characters: 6 columns
    assert attnlib.pad("权重", 6) == "权重  " and attnlib.pad("权", 5, "^") == " 权  "
    assert attnlib.pad("加掩码的模型", 4) == "加掩码的模型"  # never cut
    labels = [attnlib.pad(t, 14, ">") + "：" for t in ("加掩码的模型", "不加掩码的模型")]
    assert len({i18n._display_width(t) for t in labels}) == 1  # a column that lines up
    with pytest.raises(ValueError, match=r"^align must be one of <, >, \^; got '='$"):
        attnlib.pad("x", 3, "=")
