"""The Chinese editions: staleness check, build, glossary, catalogues and the font that draws them.

The first group runs tools.translate on a small made-up notebook and catalogue in a temporary folder,
so it proves the machinery whatever the real catalogues hold. The second group checks the real
catalogues: the tests that ask for Chinese (a translated entry contains Chinese, the glossary's terms are
used) fail while a catalogue still holds the English placeholders that `python -m tools.translate skeleton`
writes.
"""

from __future__ import annotations

import collections
import json
import re
import warnings
from pathlib import Path

import nbformat
import pytest

from attnlib.i18n import LANGUAGES, resolve_markup
from tests.translation_cases import (
    HANS_INTRO,
    INTRO,
    SETUP,
    build_and_mark_executed,
    check,
    edit_english,
    edition,
    entry,
)
from tools import make_cjk_font, make_navigation
from tools.translate.config import DERIVED, EDITIONS, REPO, TRANSLATED
from tools.translate.derive import CONVERSIONS, edition_text
from tools.translate.editions import build, write_nb
from tools.translate.hant import PROTECTED, read_overrides, to_traditional
from tools.translate.prose import TOC_END, TOC_START, catalogued, english_text, read_catalogue, without_toc
from tools.translate.translator import skeleton, stamp

pytestmark = pytest.mark.repo  # checks notebooks/, docs/ and the catalogues with tools/

ROOT = Path(__file__).resolve().parents[1]

GLOSSARY = ROOT / "docs" / "glossary.md"
HAN = re.compile(r"[\u3400-\u9fff]")


# --- the machinery, on a made-up series (tests/translation_cases.py; the `repo` fixture: tests/conftest.py)


def test_fresh_catalogue_and_editions_pass(repo):
    status, message = check(repo)
    assert status == 1 and "notebooks/zh-Hans/01_demo.ipynb: missing" in message
    build_and_mark_executed(repo)
    status, message = check(repo)
    assert status == 0, message


def test_changed_english_cell_makes_check_fail_until_stamped(repo):
    build_and_mark_executed(repo)
    edit_english(repo, "notes", "Ask the room: which column is longest?")
    status, message = check(repo)
    assert status == 1
    assert "notebooks/translations/zh-Hans/01_demo.md: cell notes: stale" in message
    assert "stamp zh-Hans 01 notes" in message  # the fix is named
    assert "cell intro" not in message
    stamp("zh-Hans", "01", ["notes"], repo)  # the translator has updated the entry
    build(paths=repo, log=lambda _: None)
    status, message = check(repo)
    assert status == 0, message


def test_missing_entry_fails(repo):
    build_and_mark_executed(repo)
    catalogue = repo.catalogues / "zh-Hans" / "01_demo.md"
    catalogue.write_text(entry("intro", HANS_INTRO, INTRO), encoding="utf-8")
    status, message = check(repo)
    assert status == 1 and "01_demo.md: cell notes: no entry" in message


def test_entry_whose_cell_is_gone_fails(repo):
    build_and_mark_executed(repo)
    catalogue = repo.catalogues / "zh-Hans" / "01_demo.md"
    with catalogue.open("a", encoding="utf-8") as f:
        f.write("\n" + entry("gone", "旧的", "old"))
    status, message = check(repo)
    assert status == 1 and "01_demo.md: cell gone: no such Markdown cell, nor code cell with figure texts" in message


def set_figure_texts(repo, cell_id: str, alts: list[str]) -> None:
    path = repo.notebooks / "01_demo.ipynb"
    nb = nbformat.read(path, as_version=4)
    next(c for c in nb.cells if c.id == cell_id).metadata["alt"] = alts
    nbformat.write(nb, path)


def test_figure_texts_are_catalogued_translated_into_the_editions_and_stamped(repo):
    build_and_mark_executed(repo)
    set_figure_texts(repo, "work", ["Bars of two random numbers, one row per draw."])
    status, message = check(repo)
    assert status == 1 and "01_demo.md: figure texts of code cell work: no entry" in message
    skeleton("zh-Hans", "01", repo)
    catalogue = repo.catalogues / "zh-Hans" / "01_demo.md"
    text = catalogue.read_text(encoding="utf-8")
    assert re.search(r"<!-- alt work · en [0-9a-f]{12} -->\nBars of two random numbers, one row per draw.\n", text)
    catalogue.write_text(text.replace("Bars of two random numbers, one row per draw.", "两个随机数的条形图，每次一{行}。"),
                         encoding="utf-8")
    build_and_mark_executed(repo)
    assert check(repo) == (0, "1 notebooks × 2 editions: no problem(s)")
    work = {language: next(c for c in edition(repo, language).cells if c.id == "work") for language in EDITIONS}
    assert work["zh-Hans"].metadata["alt"] == ["两个随机数的条形图，每次一行。"]
    assert work["zh-Hant"].metadata["alt"] == ["兩個隨機數的條形圖，每次一列。"]  # converted, markup resolved
    set_figure_texts(repo, "work", ["Bars of two random numbers, one row per draw, the larger first."])
    status, message = check(repo)
    assert "figure texts of code cell work: stale" in message and "stamp zh-Hans 01 alt:work" in message
    stamp("zh-Hans", "01", ["alt:work"], repo)
    build(paths=repo, log=lambda _: None)
    assert check(repo)[0] == 0
    set_figure_texts(repo, "work", ["First figure.", "Second figure."])
    stamp("zh-Hans", "01", ["alt:work"], repo)
    status, message = check(repo)
    assert "figure texts of code cell work: 1 line(s) for 2 figure(s)" in message
    with pytest.raises(ValueError, match="01_demo.ipynb has no code cell with figure texts with id 'setup'"):
        stamp("zh-Hans", "01", ["alt:setup"], repo)


def test_hand_edited_edition_and_unexecuted_code_fail(repo):
    build_and_mark_executed(repo)
    nb = edition(repo, "zh-Hant")
    nb.cells[0].source += "\n手改的一句。"
    write_nb(nb, repo.notebooks / "zh-Hant" / "01_demo.ipynb")
    status, message = check(repo)
    assert status == 1
    assert "notebooks/zh-Hant/01_demo.ipynb: out of date with its sources (cell intro)" in message
    edit_english(repo, "work", "print(np.round(rng.random(3), 3))")
    build(paths=repo, log=lambda _: None)
    status, message = check(repo)
    assert status == 1 and "notebooks/zh-Hans/01_demo.ipynb: its code changed" in message
    assert "execute 01" in message


def test_edition_has_the_same_cells_and_code_but_the_language_line(repo):
    build_and_mark_executed(repo)
    english = nbformat.read(repo.notebooks / "01_demo.ipynb", as_version=4)
    for language in EDITIONS:
        nb = edition(repo, language)
        assert [c.id for c in nb.cells] == [c.id for c in english.cells] + ["navigation"]
        assert [c.cell_type for c in nb.cells[:-1]] == [c.cell_type for c in english.cells]
        assert nb.cells[3].source == english.cells[3].source
        setup = nb.cells[2].source.splitlines()
        assert setup == [*SETUP.splitlines()[:4], f'attnlib.set_language("{language}")', SETUP.splitlines()[4]]
        assert "](../figures/a.svg)" in nb.cells[0].source  # relative images work from the subfolder
        assert "`f(x)`" in nb.cells[0].source and "$X$" in nb.cells[0].source


def test_zh_hant_is_converted_with_overrides_and_markup(repo):
    build_and_mark_executed(repo)
    hans, hant = edition(repo, "zh-Hans").cells, edition(repo, "zh-Hant").cells
    assert "$X$ 的一行是一个词元。" in hans[0].source  # {行}: a matrix row is 行 in 简体
    assert "$X$ 的一列是一個詞元。" in hant[0].source  # ... and 列 in 繁體
    assert "數據" in hant[0].source  # s2twp writes 資料; the override says 數據
    assert hant[1].source == "問大家：哪一列最長？"
    nav = hant[-1].source
    assert "[English](../01_demo.ipynb) · [简体中文](../zh-Hans/01_demo.ipynb) · **繁體中文**" in nav


def test_overrides_apply_longest_first_in_one_pass(repo):
    overrides = read_overrides(repo.overrides)
    assert overrides[0] == ("資料集", "資料集合")
    # 資料集 is replaced as a whole, and the 資料 inside its replacement is not replaced again
    assert to_traditional("数据集和数据", overrides) == "資料集合和數據"


def test_library_catalogue_for_zh_hant_is_generated_and_checked(repo):
    build_and_mark_executed(repo)
    hant = json.loads((repo.locale / "zh-Hant" / "plot.json").read_text(encoding="utf-8"))
    assert hant == {"weights · d_k={d_k}": "權重 · d_k={d_k}", "one row per token": "每個詞元一列"}
    (repo.locale / "zh-Hans" / "plot.json").write_text(
        json.dumps({"weights": "权重"}), encoding="utf-8"
    )
    status, message = check(repo)
    assert status == 1 and "attnlib/locale/zh-Hant/plot.json: out of date" in message


def test_the_guide_is_written_in_both_scripts_from_one_source(repo):
    source = "# 教师指南\n\n每个词元一{行}；打开 `notebooks/zh-Hans/01.ipynb`（繁體版在 `zh-Hant/`）。\n"
    repo.guide("zh-Hans").write_text(source, encoding="utf-8")
    repo.docs.mkdir()
    assert check(repo)[0] == 1 and "lecturers_guide.zh-Hant.md: out of date" in check(repo)[1]
    build_and_mark_executed(repo)
    hans = (repo.docs / "lecturers_guide.zh-Hans.md").read_text(encoding="utf-8")
    hant = (repo.docs / "lecturers_guide.zh-Hant.md").read_text(encoding="utf-8")
    assert hans == source.replace("{行}", "行")
    assert hant == "# 教師指南\n\n每個詞元一列；開啟 `notebooks/zh-Hant/01.ipynb`（簡體版在 `zh-Hans/`）。\n"
    assert check(repo)[0] == 0

def test_the_editions_are_the_languages_after_english_each_translated_or_derived_once():
    assert EDITIONS == LANGUAGES[1:] and LANGUAGES[0] == "en"
    assert sorted(TRANSLATED + tuple(DERIVED)) == sorted(EDITIONS)
    assert set(CONVERSIONS) == set(DERIVED)  # each derived edition has its conversion
    assert all(DERIVED[language] in TRANSLATED for language in DERIVED)  # ... from one written by hand


def test_a_translator_command_refuses_a_language_not_translated_by_hand(repo):
    with pytest.raises(ValueError, match=r"language must be one of zh-Hans .*; got 'zh-Hant'"):
        stamp("zh-Hant", "01", ["notes"], repo)
    with pytest.raises(ValueError, match=r"language must be one of .*; got 'fr'"):
        skeleton("fr", "01", repo)


def test_toc_is_not_part_of_what_an_entry_translates():
    text = f"## 1. The path\n\n{TOC_START}\n\n| a | b |\n\n{TOC_END}\n"
    other = text.replace("| a | b |", "| c | d |")
    assert without_toc(text) == without_toc(other)
    assert TOC_START in without_toc(text)


def test_repository_translations_are_up_to_date():
    status, message = check(REPO)
    assert status == 0, message


# --- the glossary --------------------------------------------------------------------------------


MATH_OR_CODE = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$|`[^`\n]+`", re.S)


def glossary() -> list[dict]:
    """The glossary's rows: English term (without its note in parentheses), 简体, 繁體, forbidden words."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 4 or cells[0] in ("English", "---"):
            continue
        english, hans, hant, banned = cells
        banned = re.sub(r"\([^)]*\)", "", banned)  # advice in parentheses is not checked
        # "(…; except: layer norm, length bias)": English phrases where the word has another sense
        excepted = re.search(r"except:\s*([^)]*)\)", english)
        rows.append({
            "english": re.sub(r"\s*\(.*\)", "", english),
            "except": [w.strip() for w in excepted.group(1).split(",")] if excepted else [],
            "hans": hans,
            "hant": hant,
            "not": [w.strip() for w in banned.split(",") if w.strip()],
        })  # fmt: skip
    renderings = {r["hans"] for r in rows}
    for row in rows:  # a word that renders another term is never forbidden
        row["not"] = [w for w in row["not"] if w not in renderings]
    return rows


def term_pattern(term: str) -> re.Pattern:
    stem = re.escape(term)
    if term.endswith("y"):
        stem = re.escape(term[:-1]) + "(?:y|ies)"
    elif term.endswith("x"):
        stem = re.escape(term[:-1]) + "(?:x|ces)"
    return re.compile(rf"(?<![\w-]){stem}(?:s|es|ed|ing)?(?![\w-])", re.I)


def glossary_problems(
    pairs: list[tuple[str, str]], terms: list[dict], where: str, *, rendered: bool = True
) -> list[str]:
    """For (English, 简体) pairs of one notebook or part of attnlib: forbidden words, and (if `rendered`)
    terms of the English prose (formulas and code left out) that the 简体 never renders."""
    english = MATH_OR_CODE.sub(" ", "\n".join(en for en, _ in pairs))
    chinese = "\n".join(zh for _, zh in pairs)
    found = []
    for term in terms:
        prose = english
        for phrase in term.get("except", []):
            prose = re.sub(re.escape(phrase), " ", prose, flags=re.I)
        if rendered and term_pattern(term["english"]).search(prose) and term["hans"] not in chinese:
            found.append(f"{where}: the English says {term['english']!r} but the 简体 never {term['hans']!r}")
        for word in term["not"]:
            if word in chinese:
                found.append(f"{where}: {word!r} is written for {term['english']!r}; the glossary says {term['hans']!r}")
    return found


def notebook_pairs(path: Path) -> list[tuple[str, str]]:
    """(English text, its zh-Hans entry) for every entry of the catalogue of English notebook `path`: each
    Markdown cell's, and the alternative texts of each figure."""
    nb = nbformat.read(path, as_version=4)
    entries = read_catalogue(REPO.catalogue(path, "zh-Hans"))
    return [(english_text(c), without_toc(entries[c.id].text)) for c in catalogued(nb) if c.id in entries]


def library_catalogues(language: str = "zh-Hans") -> dict[Path, dict[str, str]]:
    return {p: json.loads(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "attnlib" / "locale" / language).glob("*.json"))}


ENGLISH_NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def test_glossary_has_one_rendering_per_term():
    rows = glossary()
    assert len(rows) >= 25
    english = [r["english"] for r in rows]
    assert len(english) == len(set(english)), [t for t, n in collections.Counter(english).items() if n > 1]
    assert all(r["hans"] and r["hant"] for r in rows)


def test_glossary_hant_column_is_the_conversion_of_the_hans_column():
    overrides = read_overrides()
    wrong = [
        f"{r['english']}: {r['hans']} → {edition_text(r['hans'], 'zh-Hant', overrides)}, glossary says {r['hant']}"
        for r in glossary()
        if edition_text(r["hans"], "zh-Hant", overrides) != r["hant"]
    ]
    assert not wrong, "\n".join(wrong) + "\nfix the glossary or notebooks/translations/zh-Hant-overrides.tsv"


def test_glossary_checker_finds_a_missing_term_and_a_forbidden_word():
    terms = [{"english": "query", "hans": "查询", "hant": "查詢", "not": ["询问"]}]
    assert glossary_problems([("Two queries.", "两个查询。")], terms, "x") == []
    assert "never '查询'" in glossary_problems([("Two queries.", "两个问题。")], terms, "x")[0]
    assert "'询问' is written" in glossary_problems([("No term.", "询问")], terms, "x")[0]


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_catalogue_follows_the_glossary(path):
    problems = glossary_problems(notebook_pairs(path), glossary(), REPO.catalogue(path, "zh-Hans").name)
    assert not problems, "\n".join(problems)


def test_library_catalogues_follow_the_glossary():
    problems = []
    for path, mapping in library_catalogues().items():
        # Messages name arguments (`loss`, `mask`) and say "row" of a shape: only forbidden words are checked.
        where = f"attnlib/locale/zh-Hans/{path.name}"
        problems += glossary_problems(list(mapping.items()), glossary(), where, rendered=False)
    assert not problems, "\n".join(problems)


# --- the catalogues' entries ---------------------------------------------------------------------



def has_prose(english: str) -> bool:
    """English words outside formulas, code, links' targets and HTML comments."""
    bare = re.sub(r"\]\([^)]*\)|<!--.*?-->", "", MATH_OR_CODE.sub("", english), flags=re.S)
    return re.search(r"[A-Za-z]{3,}", bare) is not None


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_every_prose_entry_is_in_chinese(path):
    untranslated = [
        en.splitlines()[0][:60] for en, zh in notebook_pairs(path) if has_prose(en) and not HAN.search(
            MATH_OR_CODE.sub("", zh)
        )
    ]  # fmt: skip
    assert not untranslated, f"{len(untranslated)} entries hold no Chinese, e.g. {untranslated[:3]}"


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_formulas_and_code_spans_are_those_of_the_english(path):
    wrong = []
    for en, zh in notebook_pairs(path):
        want, got = collections.Counter(MATH_OR_CODE.findall(en)), collections.Counter(MATH_OR_CODE.findall(zh))
        if want != got:
            wrong.append(f"{en.splitlines()[0][:50]!r}: missing {sorted(want - got)}, extra {sorted(got - want)}")
    assert not wrong, "\n".join(wrong)


# A formula is the same in every edition, so a word inside one stays English on a Chinese page: `\text{}` in a
# formula holds only a name (of the code, the data, a feature or a token), never a phrase such as "row by row".
NAMES_IN_FORMULAS = {"id", "logits", "targets", "length", "lengths", "cls", "green", "action", "alive",
                     "num", "ana", "rel"}  # num, ana: numerical and analytic gradients (09 §3); rel: their error


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
def test_no_formula_holds_english_words(path):
    texts = [t for cell in nbformat.read(path, as_version=4).cells if cell.cell_type == "markdown"
             for formula in MATH_OR_CODE.findall(cell.source) if formula.startswith("$")
             for t in re.findall(r"\\text\{([^}]*)\}", formula)]
    words = [t for t in texts if not HAN.search(t) and t.strip() not in NAMES_IN_FORMULAS]
    assert not words, f"English in a formula (move it to the sentence, or write a symbol): {words}"


def test_no_library_key_is_translated_two_ways():
    seen: dict[str, tuple[str, str]] = {}
    clashes = []
    for path, mapping in library_catalogues().items():
        for key, value in mapping.items():
            if key in seen and seen[key][1] != value:
                clashes.append(f"{key!r}: {seen[key][0]} says {seen[key][1]!r}, {path.name} says {value!r}")
            seen.setdefault(key, (path.name, value))
    assert not clashes, "\n".join(clashes)


PLACEHOLDER = re.compile(r"\{[A-Za-z_][\w.\[\]]*(?:![rsa])?(?::[^{}]*)?\}")


@pytest.mark.parametrize("language", EDITIONS)
def test_library_placeholders_are_kept(language):
    wrong = [
        f"{path.name}: {key!r} → {value!r}"
        for path, mapping in library_catalogues(language).items()
        for key, value in mapping.items()
        if collections.Counter(PLACEHOLDER.findall(key)) != collections.Counter(PLACEHOLDER.findall(value))
    ]
    assert not wrong, "\n".join(wrong)


def test_zh_hant_library_catalogues_hold_no_markup():
    leftovers = [
        f"{p.name}: {v!r}" for p, m in library_catalogues("zh-Hant").items() for v in m.values() if "{行}" in v or "{列}" in v
    ]
    assert not leftovers


def test_markup_is_resolved_in_each_language():
    assert resolve_markup("每{行}一个词元，共 {T} {行}", "zh-Hans") == "每行一个词元，共 {T} 行"
    assert resolve_markup("每{行}一個詞元，第{列}", "zh-Hant") == "每列一個詞元，第行"


def test_every_word_the_publishing_tools_write_has_one_simplified_chinese_entry():
    """Every text a tool marks with N_ (the site, the slides, the navigation, the offline pages) is in
    publishing.json with the same placeholders, and translated; no entry is left that no tool writes."""
    from tests.catalogues import check_catalogue

    check_catalogue(ROOT / "tools", "publishing")
    catalogue = library_catalogues()[ROOT / "attnlib" / "locale" / "zh-Hans" / "publishing.json"]
    for text, chinese in catalogue.items():
        assert HAN.search(chinese) or not re.search(r"[A-Za-z]", text), f"{text!r} is not translated"


def test_the_words_of_the_site_slides_and_navigation_of_zh_hant_are_the_conversion_of_zh_hans():
    from attnlib.i18n import translated
    from tools import build_site, build_slides

    for words in (build_site.WORDS, build_slides.WORDS):
        assert {k: to_traditional(v) for k, v in words["zh-Hans"].items()} == words["zh-Hant"]
        assert words["zh-Hant"] != words["zh-Hans"] != words["en"]
    hans, hant = (translated(make_navigation.WORDS, lang) for lang in ("zh-Hans", "zh-Hant"))
    assert {k: to_traditional(v) for k, v in hans.items()} == hant == {
        "notebook": "筆記本", "about": "內容", "previous": "← 上一篇：{link}", "contents": "全部筆記本",
        "next": "下一篇：{link} →",
    }  # fmt: skip


# --- the font ------------------------------------------------------------------------------------


def font_cmap() -> dict[int, str]:
    from fontTools.ttLib import TTFont

    with TTFont(make_cjk_font.OUTPUT_FONT) as font:
        return font.getBestCmap()


def test_font_covers_every_character_the_editions_show():
    cmap = font_cmap()
    missing = "".join(sorted(c for c in make_cjk_font.text_characters() | set("綠們機權語") if ord(c) not in cmap))
    assert not missing, f"the bundled font lacks {missing}: run `python -m tools.make_cjk_font`"
    assert make_cjk_font.OUTPUT_FONT.stat().st_size < make_cjk_font.MAX_BYTES


def drawn_strings() -> list[str]:
    """Every translated string attnlib may draw, and the glossary's terms in both editions."""
    strings = [v for path in sorted((ROOT / "attnlib" / "locale").glob("*/*.json"))
               for v in json.loads(path.read_text(encoding="utf-8")).values()]  # fmt: skip
    strings += [resolve_markup(r[col], lang) for r in glossary() for col, lang in (("hans", "zh-Hans"), ("hant", "zh-Hant"))]
    return [*strings, "綠 們 機 權 語", "简体中文 · 繁體中文"]


def test_every_translated_string_draws_with_no_missing_glyph(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from attnlib import plot

    strings = drawn_strings()
    with warnings.catch_warnings(), plot.use_style():
        warnings.simplefilter("error")  # "Glyph ... missing from font(s)" fails the test
        for start in range(0, len(strings), 40):
            fig = plt.figure(figsize=(8, 12))
            for i, text in enumerate(strings[start : start + 40]):
                fig.text(0.01, 1 - (i + 1) / 41, text.replace("$", r"\$"), fontsize=8)
            fig.savefig(tmp_path / f"strings-{start}.png")
            plt.close(fig)
    assert len(strings) > 100


def test_committed_font_is_what_the_script_builds(tmp_path, all_npm_packages):
    """Byte-identical: the committed subsets (SC and TC, regular and bold) are up to date with the text,
    and the build is deterministic."""
    make_cjk_font.main(["--output-dir", str(tmp_path)])  # from the pinned font packages (npm ci by the fixture)
    for face in make_cjk_font.FACES:
        built = (tmp_path / face.output.name).read_bytes()
        assert built == face.output.read_bytes(), f"{face.output.name}: rerun `python -m tools.make_cjk_font`"
    assert (tmp_path / "OFL.txt").read_bytes() == make_cjk_font.OUTPUT_LICENSE.read_bytes()


# --- the editions as executed ----------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:e[-+]?\d+)?")


def printed_numbers(cell) -> list[str]:
    """The numbers a code cell printed (stdout and plain-text results), in order."""
    texts = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            texts.append(output.get("text", ""))
        elif "text/plain" in output.get("data", {}) and not output["data"]["text/plain"].startswith("<"):
            texts.append(output["data"]["text/plain"])
    return NUMBER.findall("".join(texts))


@pytest.mark.parametrize("path", ENGLISH_NOTEBOOKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("language", EDITIONS)
def test_editions_print_the_same_numbers_as_the_english(path, language):
    edition_path = ROOT / "notebooks" / language / path.name
    assert edition_path.exists(), "run `python -m tools.translate build` and `execute`"
    english = {c.id: c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"}
    differ = []
    for cell in nbformat.read(edition_path, as_version=4).cells:
        if cell.cell_type != "code" or "NBVAL_IGNORE_OUTPUT" in cell.source or cell.id not in english:
            continue
        if printed_numbers(cell) != printed_numbers(english[cell.id]):
            differ.append(f"cell {cell.id}: {printed_numbers(english[cell.id])[:6]} vs {printed_numbers(cell)[:6]}")
    assert not differ, "\n".join(differ)


# --- Taiwan usage in 繁體 ----------------------------------------------------------------------------

MAINLAND_FORMS = ROOT / "notebooks" / "translations" / "zh-Hant-mainland-forms.tsv"


def mainland_forms() -> dict[str, str]:
    """The reviewed list of mainland forms (form → what Taiwan writes)."""
    rows = [line.split("\t") for line in MAINLAND_FORMS.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]
    assert all(len(row) == 2 and all(row) for row in rows), "each line: form<TAB>Taiwan form"
    return dict(rows)


def hant_texts() -> dict[str, str]:
    """What a 繁體 reader reads: the prose and code of every zh-Hant notebook, the guide and attnlib's catalogues."""
    texts = {}
    for path in sorted((ROOT / "notebooks" / "zh-Hant").glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                texts[f"{path.name} {cell.id}"] = PROTECTED.sub(" ", cell.source)
            elif cell.cell_type == "code":  # its translated comments and shown strings
                texts[f"{path.name} {cell.id}"] = cell.source
    guide = (ROOT / "docs" / "lecturers_guide.zh-Hant.md").read_text(encoding="utf-8")
    texts["lecturers_guide.zh-Hant.md"] = PROTECTED.sub(" ", guide)
    for path in sorted((ROOT / "attnlib" / "locale" / "zh-Hant").glob("*.json")):
        for key, value in json.loads(path.read_text(encoding="utf-8")).items():
            texts[f"{path.name} {key[:40]!r}"] = value
    return texts


def test_zh_hant_uses_taiwan_forms():
    forms = mainland_forms()
    assert len(forms) >= 15 and "“" in forms  # seeded from the review; 「」 for quotation marks
    found = [f"{where}: {form} (Taiwan: {forms[form]})" for where, text in hant_texts().items()
             for form in forms if form in text]
    assert not found, f"{len(found)} mainland forms in the 繁體 edition; fix them in zh-Hant-overrides.tsv: {found[:10]}"


def test_every_listed_mainland_form_is_mended_by_the_overrides():
    """Wherever a listed form comes out of the conversion, the overrides mend it (not the luck of the text)."""
    forms = mainland_forms()
    for form, taiwan in forms.items():
        assert form not in to_traditional(form), f"{form}: no override turns it into {taiwan}"
        assert not [other for other in forms if other in to_traditional(taiwan)], taiwan
