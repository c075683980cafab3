"""The 繁體 edition as a Taiwan reader meets it: the conversion's overrides, its known collisions, its
quotation marks, and no Simplified character left in what the edition shows.

The 繁體 text is never written by hand: it is the 简体 text through OpenCC ``s2twp`` and
``notebooks/translations/zh-Hant-overrides.tsv`` (tools/translate/hant.py). These tests convert every 简体
source afresh (prose and code catalogues, attnlib's catalogues, the lecturer's guide), so they judge the
conversion itself, and read the generated 繁體 notebooks and catalogues for what the build wrote.
"""

from __future__ import annotations

import functools
import json
import re
import subprocess
from pathlib import Path

import nbformat
import pytest

from attnlib.i18n import resolve_markup
from tools.translate.code_catalogue import read_code_catalogue
from tools.translate.config import REPO
from tools.translate.hant import PROTECTED, converter, read_overrides, to_traditional
from tools.translate.prose import parse

pytestmark = pytest.mark.repo  # checks the 繁體 edition with tools/

ROOT = Path(__file__).resolve().parents[1]
KNOWN_BAD = REPO.catalogues / "zh-Hant-known-bad.tsv"
HANT_NOTEBOOKS = ROOT / "notebooks" / "zh-Hant"
HANT_LOCALE = ROOT / "attnlib" / "locale" / "zh-Hant"


def rows(path: Path) -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    out = [line.split("\t") for line in lines if line.strip() and not line.startswith("#")]
    assert all(len(row) == 2 and all(row) for row in out), f"{path.name}: each line is two fields and a tab"
    return out


@functools.cache
def hans_sources() -> dict[str, str]:
    """Every 简体 text the 繁體 edition is converted from, by where it is."""
    out = {}
    for path in sorted((REPO.catalogues / "zh-Hans").glob("*.md")):
        for cell_id, entry in parse(path.read_text(encoding="utf-8")).items():
            out[f"{path.name} cell {cell_id}"] = PROTECTED.sub(" ", entry.text)
    for path in sorted((REPO.catalogues / "zh-Hans" / "code").glob("*.md")):
        for cell_id, entry in read_code_catalogue(path).items():
            out[f"code/{path.name} cell {cell_id}"] = "\n".join(hans for _, hans in entry.pairs)
    for path in sorted((REPO.locale / "zh-Hans").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            out[f"{path.name} {key[:40]!r}"] = value
    guide = REPO.guide("zh-Hans")
    out[guide.name] = PROTECTED.sub(" ", guide.read_text(encoding="utf-8"))
    for line in (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 4 and cells[0] not in ("English", "---"):
            out[f"glossary.md {cells[0]!r}"] = cells[1]
    return out


@functools.cache
def converted() -> dict[str, str]:
    """Each source through s2twp only, and through s2twp and the overrides (markup still unresolved)."""
    overrides = read_overrides()
    return {where: to_traditional(text, overrides) for where, text in hans_sources().items()}


@functools.cache
def s2twp_only() -> dict[str, str]:
    convert = converter().convert
    return {where: convert(text) for where, text in hans_sources().items()}


# --- the overrides and the collisions they once caused ---------------------------------------------


def test_no_converted_text_holds_a_known_bad_result():
    bad = rows(KNOWN_BAD)
    assert len(bad) >= 7 and "整陣列成" in dict(bad)  # seeded from the review of issue 34
    found = [f"{where}: {form} ({why})" for where, text in converted().items() for form, why in bad if form in text]
    assert not found, f"{len(found)} known-bad results; add a longer override: " + "\n".join(found[:20])


def test_the_generated_edition_holds_no_known_bad_result():
    bad = [form for form, _ in rows(KNOWN_BAD)]
    found = [f"{where}: {form}" for where, text in hant_prose().items() for form in bad if form in text]
    assert not found, f"rebuild with `python -m tools.translate build`: {found[:10]}"


def test_every_override_is_used():
    """An override that matches no text is dead: a typo in it, or a word the catalogues no longer use.
    One that mends a listed mainland form stays as a guard (test_translations checks that it mends it)."""
    overrides = read_overrides()
    pattern = re.compile("|".join(re.escape(k) for k, _ in overrides))
    used = {m.group(0) for text in s2twp_only().values() for m in pattern.finditer(text)}
    guards = {form for form, _ in rows(REPO.catalogues / "zh-Hant-mainland-forms.tsv")}
    dead = [k for k, _ in overrides if k not in used and k not in guards]
    assert not dead, f"overrides that never apply (remove or fix them in zh-Hant-overrides.tsv): {dead}"


# A row ({行} → 列) followed by 表示 ("stands for") spells 列表, the override's "list", after the markup.
MARKUP_MADE = ("{行}表示".replace("{行}", "列"), "\0表示")


def test_no_override_is_left_unapplied():
    """For each override a → b, a survives neither the conversion nor the markup ({行}/{列}) resolved after it,
    except inside what an override wrote (整數組成 holds 數組 by design: the longer override won)."""
    overrides = read_overrides()
    written = re.compile("|".join(re.escape(b) for b in sorted({b for _, b in overrides}, key=len, reverse=True)))
    texts = {where: resolve_markup(text, "zh-Hant") for where, text in converted().items()}
    texts |= hant_prose()
    left = [f"{where}: {a}" for where, text in texts.items() for a, _ in overrides
            if a in written.sub("\0", text.replace(*MARKUP_MADE))]
    assert not left, "\n".join(left[:20])


def test_quotation_marks_are_the_corner_brackets_of_taiwan():
    assert to_traditional("“green”关注“grass”") == "「green」關注「grass」"
    assert to_traditional("他说：“这叫‘注意力’。”") == "他說：「這叫『注意力』。」"
    # no space between a corner bracket and Chinese; a space before a Latin word stays
    assert to_traditional("“{key}” 和 “{rival}” 并列，x “the” 。") == "「{key}」和「{rival}」並列，x 「the」。"
    curly = [f"{where}" for where, text in {**converted(), **hant_prose()}.items() if set(text) & set("“”‘’")]
    assert not curly, f"curly quotation marks in the 繁體 edition: {curly[:10]}"


# --- no Simplified character in what a 繁體 reader sees --------------------------------------------


def opencc_table(name: str, tmp: Path) -> dict[str, list[str]]:
    """One of OpenCC's own character tables, as {character: its candidates}, exported by opencc_dict."""
    import opencc

    folder = Path(opencc.__file__).parent / "clib"
    text = tmp / f"{name}.txt"
    subprocess.run(
        [folder / "bin" / "opencc_dict", "-i", folder / "share" / "opencc" / f"{name}.ocd2", "-o", text,
         "-f", "ocd2", "-t", "text"],
        check=True, capture_output=True,
    )
    return {k: v.split(" ") for k, v in (line.split("\t") for line in text.read_text(encoding="utf-8").splitlines())}


@pytest.fixture(scope="module")
def simplified_only(tmp_path_factory) -> frozenset[str]:
    """Characters OpenCC s2t changes that are not Traditional characters themselves (后 and 只 are), nor
    the standard Taiwan form of one (峰, OpenCC's TWVariants)."""
    tmp = tmp_path_factory.mktemp("opencc")
    st, ts = opencc_table("STCharacters", tmp), opencc_table("TSCharacters", tmp)
    taiwan = {c for candidates in opencc_table("TWVariants", tmp).values() for c in candidates}  # 峯 → 峰
    chars = frozenset(c for c, candidates in st.items()
                      if len(c) == 1 and c not in candidates and c not in ts and c not in taiwan)
    assert {"这", "发", "们", "风"} <= chars and not {"后", "只", "里", "台", "這", "峰"} & chars
    return chars


def hant_prose() -> dict[str, str]:
    """What the build wrote for a 繁體 reader: Markdown of the zh-Hant notebooks (code spans and formulas
    aside), attnlib's zh-Hant catalogues and the 繁體 guide."""
    out = {}
    for path in sorted(HANT_NOTEBOOKS.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                out[f"{path.name} cell {cell.id}"] = PROTECTED.sub(" ", cell.source)
    for path in sorted(HANT_LOCALE.glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            out[f"{path.name} {key[:40]!r}"] = value
    guide = ROOT / "docs" / "lecturers_guide.zh-Hant.md"
    out[guide.name] = PROTECTED.sub(" ", guide.read_text(encoding="utf-8"))
    return out


def hant_outputs() -> dict[str, str]:
    """What the zh-Hant notebooks print and show as text (stream output and text/plain)."""
    out = {}
    for path in sorted(HANT_NOTEBOOKS.glob("*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code":
                continue
            texts = [o.get("text", "") if o.output_type == "stream" else o.get("data", {}).get("text/plain", "")
                     for o in cell.get("outputs", [])]
            out[f"{path.name} cell {cell.id} output"] = "".join(t if isinstance(t, str) else "".join(t) for t in texts)
    return out


# Simplified text the edition shows on purpose, each named where the prose says it is Simplified.
EXEMPT = [
    # the first source article's title, quoted as it was published (docs/sources.md, 00's table)
    "Transformer Attention公式中Q,K,V理解",
    # the 简体 edition's name in its own script, in every notebook's navigation line
    "简体中文",
    # 09 §1: the tiny GPT's vocabulary is Simplified, and the cell prints an encoded line back as the model
    # reads it (the prose says so; the message beside it quotes the refused Traditional 樓)
    "明月照高楼",
]


def simplified_in(text: str, chars: frozenset[str]) -> str:
    for exempt in EXEMPT:
        text = text.replace(exempt, " ")
    return "".join(sorted({c for c in text if c in chars}))


def test_no_simplified_character_in_the_converted_text(simplified_only):
    found = {where: s for where, text in converted().items() if (s := simplified_in(text, simplified_only))}
    assert not found, f"Simplified characters after the conversion: {found}"


def test_no_simplified_character_in_what_the_hant_edition_shows(simplified_only):
    found = {
        where: s
        for where, text in {**hant_prose(), **hant_outputs()}.items()
        if (s := simplified_in(text, simplified_only))
    }
    assert not found, f"{len(found)} places show Simplified characters in 繁體: {found}"
