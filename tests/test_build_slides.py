"""tools/build_slides.py without a browser: what goes on a slide, and what it says when npm is missing.

The decks themselves are opened in chromium by tests/browser/test_slides.py.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from tools import build_slides, npm, offline_pages

pytestmark = pytest.mark.repo  # builds decks with tools/

ROOT = Path(__file__).resolve().parents[1]


def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    lab = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nlab = make_lab()\nlab")
    lab.outputs = [
        nbformat.v4.new_output(
            "execute_result", {offline_pages.WIDGET_VIEW: {"model_id": "x"}, "text/plain": "Lab(...)"}
        )
    ]
    quiz = nbformat.v4.new_code_cell("quiz(2)")
    quiz.outputs = [
        nbformat.v4.new_output(
            "display_data", {offline_pages.WIDGET_VIEW: {"model_id": "y"}, "text/markdown": "1. A question"}
        )
    ]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 02 · Softmax\n\nSee [01 · Inner products](01_inner_products.ipynb)."),
        lab,
        quiz,
    ]
    return nb


def test_slides_copy_drops_harness_comments_and_live_widgets():
    original = notebook()
    nb = build_slides.for_slides(original)
    assert nb.metadata["title"] == "02 · Softmax" and "widgets" not in nb.metadata
    assert nb.cells[1].source == "lab = make_lab()\nlab"
    assert nb.cells[1].outputs[0]["data"] == {"text/html": offline_pages.widget_note("en")}
    assert nb.cells[2].outputs[0]["data"] == {"text/markdown": "1. A question"}  # a quiz keeps its questions
    assert "(01_inner_products.slides.html)" in nb.cells[0].source  # links lead to the other decks
    assert "widgets" in original.metadata and "NBVAL" in original.cells[1].source  # the input is untouched


def slide(source: str, kind: str = "-", cell=nbformat.v4.new_markdown_cell, **metadata):
    cell = cell(source)
    cell.metadata.update(metadata, slideshow={"slide_type": kind})
    return cell


def test_slide_tags_hide_code_scale_figures_and_merge_the_notes():
    """slide-output-only moves the code to the slide's notes; slide-figure-N sizes the figures; reveal.js
    shows one notes block per slide, so each slide's notes cells become one."""
    nb = nbformat.v4.new_notebook()
    plot = slide("fig, ax = plt.subplots()\nax.plot(x);", cell=nbformat.v4.new_code_cell,
                 tags=["slide-output-only", "slide-figure-420"])
    plot.outputs = [nbformat.v4.new_output("display_data", {"image/png": "iVBOR", "text/plain": "<Figure>"},
                                           metadata={"image/png": {"width": 900}})]
    nb.cells = [
        slide("# 05 · Title", "slide"),
        slide("## 1. Section", "slide"),
        slide("Say this first.", "notes"),
        plot,
        slide("print(1)", cell=nbformat.v4.new_code_cell),
        slide("And then this.", "notes"),
        slide("Next part", "subslide"),
        slide("x = 1", cell=nbformat.v4.new_code_cell, tags=["slide-output-only"]),
    ]
    out = build_slides.for_slides(nb)
    kinds = [(c.cell_type, build_slides.slide_type(c)) for c in out.cells]
    assert kinds == [("markdown", "slide"), ("markdown", "slide"), ("markdown", "notes"), ("code", "-"),
                     ("code", "-"), ("markdown", "subslide"), ("code", "-"), ("markdown", "notes")]
    notes = out.cells[2].source
    assert notes.startswith("Say this first.\n\nAnd then this.") and "ax.plot(x);" in notes
    assert out.cells[3].metadata["transient"] == {"remove_source": True}
    assert "transient" not in out.cells[4].metadata  # untagged code stays on the slide
    assert "x = 1" in out.cells[7].source  # a slide without notes gets a block for its hidden code
    # the merged blocks keep the id of the notes cell they replace, or take one after the code they hold,
    # so a deck built twice is the same file
    assert out.cells[2].id == nb.cells[2].id and out.cells[7].id == f"{nb.cells[7].id}-notes"
    assert [c.id for c in build_slides.for_slides(nb).cells] == [c.id for c in out.cells]
    assert "transient" not in nb.cells[3].metadata and len(nb.cells) == 8

    html, _ = export(nb)  # the exporter runs the same steps as for_slides
    shown = re.sub(r"<aside.*?</aside>", "", html, flags=re.S)
    assert "subplots" in html and "subplots" not in shown  # in the notes, not on the slide
    assert "print" in shown
    assert re.search(r"\.celltag_slide-figure-420 \.jp-OutputArea-output img \{\s*height: 420px", html)
    assert "celltag_slide-figure-420" in html.split("<body")[1]  # the cell carries the class the rule selects
    assert html.count('<aside class="notes">') == 2


def test_a_chinese_deck_says_in_chinese_what_its_slides_leave_out(tmp_path):
    """The note for a widget that needs Python, and the heading of the code moved to the notes, are in the
    language of the edition the notebook lies in."""
    nb = notebook()
    nb.cells[1].metadata["tags"] = ["slide-output-only"]
    path = tmp_path / "zh-Hant" / "02_softmax.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    out = build_slides.for_slides(nb, path)
    assert out.cells[1].outputs[0]["data"] == {"text/html": offline_pages.widget_note("zh-Hant")}
    assert "需要 Python" in offline_pages.widget_note("zh-Hant") and "This" not in offline_pages.widget_note(
        "zh-Hant")
    notes = next(c.source for c in out.cells if build_slides.slide_type(c) == "notes")
    assert notes.startswith(build_slides.WORDS["zh-Hant"]["off_slide"]) and "筆記本" in notes


def export(nb, path: Path | None = None, language: str = "en", available=("en",), site_page: str = ""):
    """A deck of ``nb`` as the build makes it (the notebook at ``path`` for its exercises), in memory."""
    urls = {"reveal": "vendor/reveal", "cjk_font": "f.ttf", "cjk_bold_font": "b.ttf", "math_fonts": "m"}
    name = f"{path.stem if path else '05_x'}.slides.html"
    meta = {"name": path.stem, "path": str(path.parent)} if path else {"name": "05_x", "path": ""}
    offline = build_slides.deck_resources(urls, language, name, available, site_page)
    resources = {"metadata": meta, "offline": offline}
    return build_slides.make_exporter(urls).from_notebook_node(nb, resources=resources)


def test_a_deck_speaks_its_language_title_figures_and_switch_and_the_index_reads_the_title_back(tmp_path):
    nb = notebook()
    nb.cells[0].source = "# 02 · Softmax：从分数到权重"
    nb.cells.append(nbformat.v4.new_code_cell("plot()", outputs=[nbformat.v4.new_output(
        "display_data", {"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"})]))
    path = tmp_path / "zh-Hant" / "02_softmax.ipynb"
    path.parent.mkdir()
    html, _ = export(nb, path, "zh-Hant", ("en", "zh-Hans", "zh-Hant"))
    assert "<title>02 · Softmax：从分数到权重 · 投影片</title>" in html
    assert re.search(r'<html lang="zh-Hant"', html)  # not nbconvert's ISO 639-1 "en"
    img = re.search(r'<img [^>]*src="data:image/png;base64,iVBORw0KGgo="[^>]*>', html).group(0)
    assert f'alt="{offline_pages.figure_alt("zh-Hant")}"' in img and "筆記本" in img
    switch = re.search(r'<span class="deck-languages">.*?</span>', html).group(0)
    assert '<strong lang="zh-Hant">繁體中文</strong>' in switch
    assert 'href="../02_softmax.slides.html"' in switch and 'href="../zh-Hans/02_softmax.slides.html"' in switch
    assert "removeAttribute(\"tabindex\")" in html  # cells are no Tab stops of their own on a slide
    (tmp_path / "02_softmax.slides.html").write_text(html, encoding="utf-8")
    build_slides.write_index(tmp_path, "zh-Hant")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert ">02 · Softmax：从分数到权重</a>" in index  # the title read back without " · 投影片"


def test_a_deck_with_one_edition_has_no_language_switch():
    html, _ = export(notebook())
    assert 'class="deck-languages"' not in html and "<title>02 · Softmax · Slides</title>" in html


def test_groups_of_cells_follow_slides_and_subslides():
    cells = [slide("a", "slide"), slide("b"), slide("c", "fragment"), slide("d", "subslide"), slide("e", "skip"),
             slide("f", "slide")]
    assert build_slides.slide_groups(cells) == [[0, 1, 2], [3, 4], [5]]


def test_main_reports_a_missing_npm_with_exit_status_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(npm, "MODULES", tmp_path / "node_modules")  # nothing installed
    monkeypatch.setattr(npm.shutil, "which", lambda name: None)
    nb_path = tmp_path / "02_softmax.ipynb"
    nbformat.write(notebook(), nb_path)
    assert build_slides.main([str(nb_path), "--out", str(tmp_path / "out")]) == 2
    assert "needs npm" in capsys.readouterr().err


def going_further(tagged: bool = True) -> nbformat.NotebookNode:
    """Main-line slides, then a going-further part of two tagged slides whose heading shares a slide with
    the main line in the notebook, then the recap."""
    part = {"tags": [offline_pages.GOING_FURTHER]} if tagged else {}
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        slide("# 05 · Title", "slide"),
        slide("## 6. Main line", "slide"),
        slide("## Going further: a detour", **part),  # "-": it would join the slide of §6
        slide("Say: skip it if time is short.", "notes", **part),
        slide("print(1)", cell=nbformat.v4.new_code_cell, **part),
        slide("### A closer look", "subslide", **part),
        slide("## Recap"),  # "-": it would join the part's last slide
    ]
    return nb


def test_every_slide_of_a_going_further_part_carries_its_label_the_first_says_optional(tmp_path):
    out = build_slides.for_slides(going_further())
    kinds = [build_slides.slide_type(c) for c in out.cells]
    assert kinds == ["slide", "slide", "slide", "notes", "-", "subslide", "slide"]  # no slide mixes the two
    labels = [c.metadata.get("slideshow", {}).get("data", {}).get("going_further") for c in out.cells]
    assert labels == [None, None, "Going further · optional", None, None, "Going further", None]

    html, _ = export(going_further())
    sections = re.findall(r"<section([^>]*)>", html)
    # the part's first slide opens a slide and its subslide, both labelled; then its second subslide
    assert [s.strip() for s in sections if "going-further" in s] == [
        'data-going-further="Going further · optional"'] * 2 + ['data-going-further="Going further"']
    assert len(sections) == 9 and len(re.findall(r'<p class="deck-going-further" hidden[="]*></p>', html)) == 1
    assert "Reveal.getCurrentSlide().dataset.goingFurther" in html  # the corner shows the slide's label

    path = tmp_path / "zh-Hant" / "05_x.ipynb"
    path.parent.mkdir()
    nbformat.write(going_further(), path)
    hant = build_slides.for_slides(going_further(), path)
    assert [c.metadata.get("slideshow", {}).get("data", {}).get("going_further") for c in hant.cells
            if "data" in c.metadata.get("slideshow", {})] == ["延伸內容 · 選讀", "延伸內容"]


def test_a_deck_without_the_tag_keeps_its_slides_and_has_no_label():
    nb = going_further(tagged=False)
    out = build_slides.for_slides(nb)
    assert [build_slides.slide_type(c) for c in out.cells] == [build_slides.slide_type(c) for c in nb.cells]
    assert not [c for c in out.cells if "data" in c.metadata.get("slideshow", {})]


def test_a_deck_links_to_its_page_on_the_website_only_when_one_is_built_beside_it(tmp_path):
    decks, site = tmp_path / "slides", tmp_path / "site"
    assert build_slides.site_href(site, "en", "02_softmax.html", decks) == ""  # no site there
    (site / "zh-Hant").mkdir(parents=True)
    (site / "index.html").write_text("<p>site</p>", encoding="utf-8")
    assert build_slides.site_href(site, "en", "02_softmax.html", decks) == "../site/02_softmax.html"
    assert build_slides.site_href(site, "zh-Hant", "02_softmax.html", decks / "zh-Hant") == (
        "../../site/zh-Hant/02_softmax.html")
    html, _ = export(notebook(), available=("en", "zh-Hans"), site_page="../site/02_softmax.html")
    links = re.search(r'<p class="deck-links">.*?</p>', html, re.S).group(0)
    assert '<a class="deck-site" href="../site/02_softmax.html">Website</a> · <span class="deck-languages">' in links
    assert "Reveal.isFirstSlide()" in html  # shown on the title slide, where no content lies under it
    assert 'class="deck-site"' not in export(notebook())[0]


def test_the_decks_walk_every_slide_and_the_index_looks_like_the_site_lists_the_keys_and_links_to_it(tmp_path):
    html, _ = export(notebook())
    assert 'navigationMode: "linear"' in html  # → walks the labs' and quizzes' sub-slides too
    (tmp_path / "02_softmax.slides.html").write_text(html, encoding="utf-8")
    build_slides.write_index(tmp_path, "zh-Hans", ("en", "zh-Hans"), "../site/zh-Hans/index.html")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<body class="site-index">' in index and ".site-index h1" in index  # the site's stylesheet
    assert '<a href="../site/zh-Hans/index.html">在网站上阅读本系列</a>' in index
    assert "<h2>按键</h2>" in index
    keys = re.findall(r'<tr><th scope="row">(.*?)</th><td>(.*?)</td></tr>', index)
    assert [re.sub(r"</?kbd>", "", k) for k, _ in keys] == [k for k, _ in build_slides.KEYS]
    assert keys[0][1].startswith("下一张幻灯片") and all(re.search(r"[\u4e00-\u9fff]", w) for _, w in keys)
    build_slides.write_index(tmp_path)
    assert "../site/" not in (tmp_path / "index.html").read_text(encoding="utf-8")  # no site beside: no link
