"""Every figure says what it shows, in its notebook's language, and every lecturer's note says whom it is for.

A figure's alternative text is kept with the cell that draws it (its metadata ``alt``: one sentence per figure),
translated in the prose catalogues like the prose; the site's and the decks' ``<img alt>`` is that text
(tools/offline_pages.figure_alts). A lecturer's note carries the tag ``lecture-notes`` and begins with a label
(tools/check_notebooks.py enforces both, and one text per figure).
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools import build_site, build_slides, check_notebooks, offline_pages
from tools.translate.derive import edition_string
from tools.translate.hant import read_overrides

pytestmark = pytest.mark.repo  # reads notebooks/ and builds pages with tools/

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = offline_pages.default_notebooks()
HAN = re.compile(r"[\u3400-\u9fff]")
PNG = "iVBORw0KGgo="


def figure_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and check_notebooks.figures(c)]


def shown_path(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=shown_path)
def test_every_figure_has_its_own_text_in_the_notebooks_language(path):
    nb = nbformat.read(path, as_version=4)
    language = offline_pages.edition_of(path)
    texts = []
    for cell in figure_cells(nb):
        alts = cell.metadata.get("alt", [])
        assert len(alts) == check_notebooks.figures(cell), f"cell {cell.id}: one text per figure"
        texts += alts
    assert texts, "every notebook of the series draws a figure"
    assert len(set(texts)) == len(texts), "two figures of a notebook share a text"
    for text in texts:
        assert len(text) > 40 and text.rstrip().endswith((".", "。")), text  # a sentence, not a label
        assert text != offline_pages.figure_alt(language)
        assert HAN.search(text) if language != "en" else text[0].isascii(), text


def test_the_chinese_editions_say_what_the_english_says_figure_by_figure():
    """The editions carry the catalogue's 简体 (rows and columns resolved) and its 繁體 conversion, in the
    English order: figure i of an edition is figure i of the English notebook, translated."""
    overrides = read_overrides()
    for english in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        source = {c.id: c.metadata.get("alt") for c in figure_cells(nbformat.read(english, as_version=4))}
        hans = nbformat.read(english.parent / "zh-Hans" / english.name, as_version=4)
        hant = nbformat.read(english.parent / "zh-Hant" / english.name, as_version=4)
        hans_alts = {c.id: c.metadata.get("alt") for c in figure_cells(hans)}
        hant_alts = {c.id: c.metadata.get("alt") for c in figure_cells(hant)}
        assert set(hans_alts) == set(hant_alts) == set(source), english.name
        for cell_id, alts in hans_alts.items():
            assert len(alts) == len(source[cell_id])
            assert "{行}" not in "".join(alts) and "{列}" not in "".join(alts)
            assert hant_alts[cell_id] != alts  # converted, not copied
        # 行 of 简体 reads 列 in 繁體 (a matrix row): the conversion resolves the markup per edition
        assert edition_string("每一{行}", "zh-Hant", overrides) == "每一列"


def cell_with_figures(alts: list[str] | None, figures: int = 1):
    cell = nbformat.v4.new_code_cell("plot()", outputs=[
        nbformat.v4.new_output("display_data", {"image/png": PNG, "text/plain": "<Figure>"})
        for _ in range(figures)])  # fmt: skip
    if alts is not None:
        cell.metadata["alt"] = alts
    return cell


def notes_cell(text: str, tagged: bool = True):
    cell = nbformat.v4.new_markdown_cell(text)
    cell.metadata["slideshow"] = {"slide_type": "notes"}
    if tagged:
        cell.metadata["tags"] = ["lecture-notes"]
    return cell


def problems_of(tmp_path: Path, cells: list, folder: str = "") -> list[str]:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = cells
    for count, cell in enumerate((c for c in cells if c.cell_type == "code"), start=1):
        cell.execution_count = count
    path = tmp_path / folder / "01_x.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)
    return check_notebooks.problems(path)


def test_the_notebook_check_names_a_figure_without_its_own_text(tmp_path):
    assert problems_of(tmp_path, [cell_with_figures(["A heatmap of the weights, queries down."])]) == []
    [missing] = problems_of(tmp_path, [cell_with_figures(None)])
    assert "cell 1: draws 1 figure(s) but has 0 alternative text(s)" in missing
    [short] = problems_of(tmp_path, [cell_with_figures(["One text."], figures=2)])
    assert "draws 2 figure(s) but has 1" in short
    [shared] = problems_of(tmp_path, [cell_with_figures(["The same text."]), cell_with_figures(["The same text."])])
    assert shared.startswith("cell 2: the alternative text 'The same text.'") and "another figure's" in shared
    [wrong] = problems_of(tmp_path, [cell_with_figures("A text, not a list.")])
    assert "must be a list of texts, one per figure" in wrong
    [english] = problems_of(tmp_path, [cell_with_figures(["A heatmap of the weights."])], folder="zh-Hans")
    assert "is not translated" in english
    assert problems_of(tmp_path, [cell_with_figures(["权重热力图，查询为行。"])], folder="zh-Hans") == []


def test_the_notebook_check_wants_every_lecturers_note_tagged_and_labelled(tmp_path):
    assert problems_of(tmp_path, [notes_cell("**For the lecturer.**\nAsk the room.")]) == []
    [untagged] = problems_of(tmp_path, [notes_cell("**For the lecturer.**\nAsk the room.", tagged=False)])
    assert untagged == "cell 1: a lecturer's note without the tag 'lecture-notes'"
    [unlabelled] = problems_of(tmp_path, [notes_cell("Ask the room.")])
    assert unlabelled == "cell 1: a lecturer's note must begin with the line **For the lecturer.**"
    assert problems_of(tmp_path, [notes_cell("**讲师备注。**\n提问。")], folder="zh-Hans") == []
    [english_label] = problems_of(tmp_path, [notes_cell("**For the lecturer.**\n提問。")], folder="zh-Hant")
    assert english_label.endswith("must begin with the line **講師備註。**")


def test_the_traditional_label_is_the_conversion_of_the_simplified_one():
    label = check_notebooks.NOTES_LABEL
    assert edition_string(label["zh-Hans"], "zh-Hant", read_overrides()) == label["zh-Hant"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=shown_path)
def test_every_lecturers_note_of_the_series_is_tagged_and_labelled(path):
    nb = nbformat.read(path, as_version=4)
    label = check_notebooks.NOTES_LABEL[offline_pages.edition_of(path)]
    notes = [c for c in nb.cells if check_notebooks.is_notes(c)]
    assert notes
    for cell in notes:
        assert "lecture-notes" in cell.metadata.get("tags", []), cell.id
        first, _, rest = cell.source.partition("\n")
        assert first == label and rest.strip(), cell.id


def test_the_exercises_say_where_the_answers_are_as_each_place_shows_them():
    """The Exercises slide once promised answers in "the collapsed cells below", which the deck leaves out."""
    said = {"en": "Worked answers follow each exercise, folded, in the notebook and on the website",
            "zh-Hans": "每道练习后面都有参考答案，在笔记本和网站上都是折叠的", "zh-Hant": "每道練習後面都有參考答案"}
    for path in NOTEBOOKS:
        text = "\n".join(c.source for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown")
        assert "collapsed cells below" not in text and "下方折叠起来的单元格" not in text, path
        if path.name[:2] != "00":
            assert said[offline_pages.edition_of(path)] in text, path


def test_a_deck_writes_each_figures_own_text_as_its_alt():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 02 · Softmax"),
                cell_with_figures(["First: the weights <of> 早, row by row.", "Second: the entropy & β."], 2),
                cell_with_figures(None)]
    urls = {"reveal": "vendor/reveal", "cjk_font": "f.ttf", "cjk_bold_font": "b.ttf", "math_fonts": "m"}
    resources = {"metadata": {"name": "02_x", "path": ""},
                 "offline": build_slides.deck_resources(urls, "en", "02_x.slides.html", ("en",))}
    html, _ = build_slides.make_exporter(urls).from_notebook_node(nb, resources=resources)
    alts = re.findall(r'<img alt="([^"]*)"', html)
    assert alts == ["First: the weights &lt;of&gt; 早, row by row.", "Second: the entropy &amp; β.",
                    offline_pages.figure_alt("en")]  # a cell with no text of its own: the generic one
    assert "alt" not in nb.cells[1].outputs[0].metadata  # the builders work on a copy


def test_a_built_page_writes_the_cells_text_as_the_alt_of_its_figure(tmp_path, page_packages):
    path = ROOT / "notebooks" / "zh-Hant" / "02_softmax.ipynb"
    nb = nbformat.read(path, as_version=4)
    expected = [alt for cell in figure_cells(nb) for alt in cell.metadata["alt"]]
    [page] = build_site.build([path], tmp_path / "site", log=lambda *_: None)
    html = page.read_text(encoding="utf-8")
    found = re.findall(r'<img alt="([^"]*)"', html)
    assert found == [alt.replace("&", "&amp;") for alt in expected] and len(found) == 2
    assert all("權重" in alt for alt in found)
