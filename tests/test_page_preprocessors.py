"""The nbconvert preprocessors the site and the decks share (tools/offline_pages.py, with the few each
builder adds), and the stylesheet cut to what a page uses (build_site.PageCss)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbconvert.preprocessors import ExtractOutputPreprocessor

from tools import build_site, build_slides, offline_pages, reference_pages

pytestmark = pytest.mark.repo  # builds pages with tools/

SHARED = [offline_pages.WidgetOutputs, offline_pages.ExerciseTasks, offline_pages.NotebookTitle,
          offline_pages.HarnessComments, offline_pages.NotebookLinks, offline_pages.FigureAlts]


def kinds(steps) -> list[type]:
    return [type(step) for step in steps]


def test_both_builders_start_with_the_one_shared_preparation_and_add_their_own_steps():
    site, deck = build_site.site_steps(), build_slides.deck_steps()
    assert kinds(site[:6]) == kinds(deck[:6]) == kinds(offline_pages.preparation(".html")) == SHARED
    assert kinds(site[6:]) == [build_site.PracticeCards, build_site.LectureNotes, build_site.GoingFurtherBlocks,
                               reference_pages.DocumentLinks]
    assert kinds(deck[6:]) == [build_slides.LiveSlides, build_slides.GoingFurtherLabels, build_slides.FitCells]
    assert (site[4].suffix, deck[4].suffix) == (".html", ".slides.html")
    assert (site[1].compact, deck[1].compact) == (False, True)  # a slide's exercise card is compact


def test_the_exporters_run_the_steps_enabled_and_the_site_extracts_its_figures():
    exporter = build_site.make_exporter()
    ours = (*SHARED, build_site.PracticeCards, build_site.LectureNotes, build_site.GoingFurtherBlocks,
            reference_pages.DocumentLinks, ExtractOutputPreprocessor)
    enabled = [p for p in exporter._preprocessors if p.enabled and isinstance(p, ours)]
    assert kinds(enabled) == [*kinds(build_site.site_steps()), ExtractOutputPreprocessor]
    assert enabled[-1].extract_output_types == {"image/png"}
    deck = build_slides.make_exporter({"reveal": "vendor/reveal"})
    ours = (*SHARED, build_slides.LiveSlides, build_slides.GoingFurtherLabels, build_slides.FitCells)
    assert kinds([p for p in deck._preprocessors if p.enabled and isinstance(p, ours)]) == kinds(
        build_slides.deck_steps())


def test_the_notebook_and_its_language_come_from_nbconverts_resources():
    named = {"metadata": {"name": "02_softmax", "path": "/x/notebooks/zh-Hant"}}
    assert offline_pages.notebook_path(named) == Path("/x/notebooks/zh-Hant/02_softmax.ipynb")
    assert offline_pages.page_language(named) == "zh-Hant"
    assert offline_pages.notebook_path({"metadata": {"name": "a", "path": ""}}) is None
    assert offline_pages.page_language({}) == "en"


def test_prepare_works_on_a_copy_and_each_step_does_its_one_thing():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 03 · Sums\n\nSee [02](02_softmax.ipynb#x)."),
                nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nx = 1\n# NBVAL_SKIP\ny = 2")]
    out = offline_pages.prepare(nb, offline_pages.preparation(".slides.html"))
    assert out.metadata["title"] == "03 · Sums"
    assert out.cells[0].source == "# 03 · Sums\n\nSee [02](02_softmax.slides.html#x)."
    assert out.cells[1].source == "x = 1\ny = 2"
    assert "title" not in nb.metadata and nb.cells[1].source.startswith("# NBVAL")  # the input is untouched


def test_the_preparation_says_what_it_was_given_wrong():
    with pytest.raises(ValueError, match=r"suffix must end .* in \.html .*got '\.ipynb'"):
        offline_pages.preparation(".ipynb")
    with pytest.raises(TypeError, match="steps must be nbconvert preprocessors, got function"):
        offline_pages.prepare(nbformat.v4.new_notebook(), [offline_pages.NotebookTitle(), lambda nb, r: (nb, r)])


def test_exercise_cards_need_the_notebooks_path(tmp_path):
    nb = nbformat.v4.new_notebook()
    stub = nbformat.v4.new_code_cell(
        "def my_softmax(x):\n    raise NotImplementedError\n\nexercises.check_softmax_rows(my_softmax)")
    stub.outputs = [nbformat.v4.new_output("stream", text="❌ not written yet\n")]
    nb.cells = [stub]
    step = [offline_pages.ExerciseTasks()]
    assert offline_pages.prepare(nb, step).cells[0].outputs == stub.outputs  # no path: left as it is
    card = offline_pages.prepare(nb, step, tmp_path / "02_softmax.ipynb").cells[0].outputs[0]
    assert 'class="exercise-task"' in card.data["text/html"]  # a notebook node, as later steps read it
    compact = offline_pages.prepare(nb, [offline_pages.ExerciseTasks(compact=True)], tmp_path / "02_s.ipynb")
    assert 'class="exercise-task compact"' in compact.cells[0].outputs[0].data["text/html"]


def test_lecture_notes_are_tagged_for_the_page():
    nb = nbformat.v4.new_notebook()
    notes = nbformat.v4.new_markdown_cell("Ask the room.")
    notes.metadata["slideshow"] = {"slide_type": "notes"}
    nb.cells = [notes, nbformat.v4.new_markdown_cell("Prose.")]
    out = offline_pages.prepare(nb, [build_site.LectureNotes()])
    assert out.cells[0].metadata["tags"] == ["lecture-notes"] and "tags" not in out.cells[1].metadata


# ---- the stylesheet of a page -----------------------------------------------------------------------------

def test_selectors_are_split_at_top_level_commas_only():
    assert build_site.split_selectors(".a, :is(h1, h2) > .b,\n.c") == [".a", ":is(h1, h2) > .b", ".c"]


@pytest.mark.parametrize(("selector", "used"), [
    (".jp-Cell .anchor-link", True),
    ("div.jp-Cell > p", True),
    (".jp-Cell .jp-Toolbar", False),  # a class the page does not have
    ("#content", True),
    ("#sidebar", False),
    ("table td", False),  # an element the page does not have
    ("a.anchor-link:hover", True),  # state is kept as if met
    (".jp-Cell:not(.jp-mod-dropTarget)", True),
    ("[data-jp-theme-light='true'] .jp-Cell", True),
    (":root", True),
    (".site-page mjx-container[display=\"true\"]", True),  # MathJax's elements, written after the template
    ("P", True),  # element names are not case-sensitive
])
def test_a_selector_is_kept_when_the_page_has_all_it_names(selector, used):
    names = build_site.page_names('<main id="content"><div class="jp-Cell site-page"><p>x</p>'
                                  '<a class="anchor-link" href="#">¶</a></div></main>')
    assert build_site.selector_used(selector, names) is used


CSS = """
:root { --used: red; --via: var(--used); --unused: blue; --from-page: 1px; }
.kept { color: var(--via); }
.gone { color: var(--unused); }
.kept, .gone-too { margin: 0 !important; }
@media (max-width: 600px) { .kept { padding: 0; } .gone { padding: 1px; } }
@media print { .gone { display: none; } }
@font-face { font-family: X; src: url(x.woff); }
@keyframes spin { from { opacity: 0; } to { opacity: 1; } }
.added-by-script { color: green; }
"""


def test_a_page_gets_only_the_rules_and_custom_properties_it_uses():
    css = build_site.PageCss(CSS, ['el.classList.add("added-by-script")'])
    page = '<div class="kept" style="width: var(--from-page)">text</div>'
    cut = css.for_page(page, ["div { line-height: 125%; } pre { margin: 0; }"])
    assert cut.index("div{line-height:125%}") < cut.index(":root") and "pre" not in cut  # nbconvert's inlined sheets first
    assert ":root{--used:red;--via:var(--used);--from-page:1px}" in cut  # --via needs --used
    assert "--unused" not in cut and ".gone" not in cut
    assert ".kept{color:var(--via)}" in cut and ".kept{margin:0!important}" in cut
    assert "@media (max-width: 600px){\n.kept{padding:0}\n}" in cut and "@media print" not in cut
    assert "@font-face" in cut and "@keyframes spin" in cut
    assert ".added-by-script{color:green}" in cut  # a class the page's script may add
    assert ".added-by-script" not in build_site.PageCss(CSS).for_page(page)


def test_jupyterlabs_stylesheet_shrinks_to_a_small_part_for_a_page():
    exporter = build_site.make_exporter()
    full = build_site.jupyterlab_css(exporter)
    page = ('<body class="jp-Notebook"><main><div class="jp-Cell jp-MarkdownCell"><div '
            'class="jp-RenderedHTMLCommon jp-RenderedMarkdown"><p>x</p></div></div></main></body>')
    cut = build_site.PageCss(full).for_page(page)
    assert len(cut) < len(full) / 10
    assert ".jp-RenderedHTMLCommon p{" in cut  # (among its other rules)
    assert "--jp-content-font-size1" in cut and ".jp-Toolbar" not in cut


def test_page_css_wants_a_stylesheet():
    with pytest.raises(TypeError, match="css must be the text of a stylesheet"):
        build_site.PageCss(b".a{}")
