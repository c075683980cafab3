"""tools/build_site.py and tools/offline_pages.py without a browser: what goes on a page.

A small notebook is made here with nbformat, holding the stored state of a real dot-product lab, a quiz
and a widget that needs Python, so nothing depends on the executed notebooks. The pages themselves are
opened in chromium by tests/browser/test_site.py.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import nbformat
import pytest

from attnlib.labs import make_dot_product_lab
from tools import build_site, build_slides, npm, offline_pages, reference_pages, site_search

pytestmark = pytest.mark.repo  # builds the site from notebooks/ with tools/

ROOT = Path(__file__).resolve().parents[1]

VIEW, STATE = offline_pages.WIDGET_VIEW, offline_pages.WIDGET_STATE


@pytest.fixture(scope="module")
def lab():
    lab = make_dot_product_lab(angle=45)
    yield lab
    lab.close()


def view(model_id: str, **static) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("display_data", {VIEW: {"model_id": model_id}, "text/plain": "...", **static})


def notebook(lab, number: str = "01", title: str = "Inner products") -> nbformat.NotebookNode:
    """A notebook as nbclient stores one: widget state in the metadata, views in the outputs."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {STATE: {"version_major": 2, "version_minor": 0, "state": {
        "lab": {"model_module": "anywidget", "model_name": "AnyModel", "model_module_version": "~0.11.*",
                "state": {"_model_module": "anywidget", "_model_name": "AnyModel", "_esm": lab._esm,
                          "spec": json.loads(json.dumps(lab.spec)), "values": dict(lab.values)}},
        "quiz": {"model_module": "@jupyter-widgets/controls", "model_name": "VBoxModel", "state": {}},
        "slider": {"model_module": "@jupyter-widgets/controls", "model_name": "IntSliderModel", "state": {}},
        "other": {"model_module": "anywidget", "model_name": "AnyModel",
                  "state": {"_model_module": "anywidget", "spec": {"name": "../../etc"}, "values": {}}},
    }}}
    lab_cell = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nlab")
    lab_cell.outputs = [view("lab")]
    quiz = nbformat.v4.new_code_cell("quiz(1)")
    quiz.outputs = [view("quiz", **{"text/markdown": "1. A question?"})]
    both = nbformat.v4.new_code_cell("quiz(2)")
    both.outputs = [view("quiz", **{"text/markdown": "md", "text/html": "<p>html</p>"})]
    dead = nbformat.v4.new_code_cell("slider")
    dead.outputs = [view("slider"), view("other"), view("missing")]
    notes = nbformat.v4.new_markdown_cell("Ask the room.")
    notes.metadata["slideshow"] = {"slide_type": "notes"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(
            f"# {number} · {title}\n\nAttention begins with $XX^\\top$\none line more.\n\nSecond paragraph."
        ),
        notes,
        lab_cell,
        quiz,
        both,
        dead,
        nbformat.v4.new_markdown_cell(
            "← previous: [00 · Start](00_start_here.ipynb) · [§2](02_softmax.ipynb#2.-Weights) · "
            "[not ours](https://example.org/a.ipynb)"
        ),
    ]
    return nb


def rel_href(html: str, rel: str) -> str | None:
    """The href of the link with ``rel`` (attributes in any order: nbconvert re-serialises the page)."""
    for tag in re.findall(r"<a\s[^>]*>", html):
        if f'rel="{rel}"' in tag:
            return re.search(r'href="([^"]*)"', tag).group(1)
    return None


def lab_payload(html: str, element_id: str) -> dict:
    found = re.search(rf'<script type="application/json" id="{element_id}-state">(.*?)</script>', html, re.S)
    assert found, f"no stored state for {element_id}"
    return json.loads(found.group(1).replace("<\\/", "</"))


def test_a_lab_output_becomes_the_lab_drawn_from_its_stored_state(lab):
    nb = notebook(lab)
    assert offline_pages.static_outputs(nb) == 1
    [output] = nb.cells[2].outputs
    assert list(output["data"]) == ["text/html"]
    html = output["data"]["text/html"]
    assert html.startswith('<div class="live-lab">') and 'id="lab-1"' in html
    assert lab_payload(html, "lab-1") == lab.page_state()  # the spec and values as stored
    assert "mountStatic(pageModule" in html and "// ---- dot_product.js ----" in html  # kit and lab module inlined
    assert "widgets" not in nb.metadata  # no widget manager will look for it


def test_a_quiz_keeps_its_text_and_other_widgets_get_a_note(lab):
    nb = notebook(lab)
    offline_pages.static_outputs(nb)
    assert nb.cells[3].outputs[0]["data"] == {"text/markdown": "1. A question?"}
    assert nb.cells[4].outputs[0]["data"] == {"text/html": "<p>html</p>"}  # HTML preferred when both
    note = {"text/html": offline_pages.widget_note("en")}
    assert offline_pages.WIDGET_NOTE in note["text/html"]
    # a plain slider, an anywidget that is no attnlib lab (a name that is not a lab module), a lost model
    assert [o["data"] for o in nb.cells[5].outputs] == [note, note, note]


def test_labs_are_numbered_in_page_order(lab):
    nb = notebook(lab)
    nb.cells.insert(3, nbformat.v4.new_code_cell("lab", outputs=[view("lab")]))
    assert offline_pages.static_outputs(nb) == 2
    ids = [re.search(r'id="(lab-\d+)"', c.outputs[0]["data"]["text/html"]).group(1) for c in nb.cells[2:4]]
    assert ids == ["lab-1", "lab-2"]


def test_the_site_copy_links_pages_strips_the_harness_and_sets_notes_aside(lab):
    original = notebook(lab)
    nb = build_site.for_site(original)
    assert nb.metadata["title"] == "01 · Inner products"
    assert nb.cells[2].source == "lab"
    assert "lecture-notes" in nb.cells[1].metadata["tags"]
    links = nb.cells[-1].source
    assert "(00_start_here.html)" in links and "(02_softmax.html#2.-Weights)" in links
    assert "(https://example.org/a.ipynb)" in links  # only links between notebooks of the series
    assert "widgets" in original.metadata and "NBVAL" in original.cells[2].source  # the input is untouched


def test_slides_and_site_draw_a_lab_with_the_same_function(lab):
    site, slides = build_site.for_site(notebook(lab)), build_slides.for_slides(notebook(lab))
    assert site.cells[2].outputs == slides.cells[2].outputs
    assert slides.cells[2].metadata["slideshow"]["slide_type"] == "subslide"  # a slide of its own
    assert "(00_start_here.slides.html)" in slides.cells[-1].source


def test_first_paragraph_and_a_colon_brings_the_next_block():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 00 · Start\n\nOne formula:\n\n$$O = V$$\n\nMore.\n")]
    assert build_site.first_paragraph(nb) == "One formula:\n\n$$O = V$$"
    nb.cells[0].source = "# 01 · Dots\n\nFirst line\nsecond line.\n\nNot this."
    assert build_site.first_paragraph(nb) == "First line\nsecond line."


def chrome():
    """The macros of tools/templates/chrome.html.j2, as the templates call them."""
    from jinja2 import Environment, FileSystemLoader

    return Environment(loader=FileSystemLoader(offline_pages.TEMPLATES)).get_template("chrome.html.j2").module


def test_the_bar_links_index_previous_and_next():
    pages = [build_site.Page(Path(f"0{i}_n{i}.ipynb"), f"0{i} · N{i}", "") for i in range(3)]
    first, middle, last = (str(chrome().bar(build_site.site_resources(pages, i, "en", ("en",)))) for i in range(3))
    assert rel_href(first, "index") == "index.html" and rel_href(first, "prev") is None
    assert '<span class="off">← previous</span>' in first and rel_href(first, "next") == "01_n1.html"
    assert (rel_href(middle, "prev"), rel_href(middle, "next")) == ("00_n0.html", "02_n2.html")
    assert rel_href(last, "next") is None and '<span class="off">next →</span>' in last
    assert '<nav aria-label="The series">' in first and "switch" not in first  # one edition: no switch
    assert not re.search(r">\s+<", first)  # no space between the bar's items
    hans = str(chrome().bar(build_site.site_resources(pages, 0, "zh-Hans", ("en", "zh-Hans"))))
    assert '<nav aria-label="本系列">' in hans  # named in the page's language
    assert '<span class="item switch"><span class="sep">·</span><span class="languages">' in hans


def test_build_writes_index_pages_and_vendored_files(lab, tmp_path, page_packages):
    paths = []
    for number, title in (("00", "Start here"), ("01", "Inner products")):
        path = tmp_path / f"{number}_{title.split()[0].lower()}.ipynb"
        nbformat.write(notebook(lab, number, title), path)
        paths.append(path)
    out = tmp_path / "site"
    pages = build_site.build(paths, out, log=lambda *_: None)
    assert [p.name for p in pages] == ["00_start.html", "01_inner.html"]
    index = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="00_start.html">00 · Start here</a>' in index
    assert 'Attention begins with <mjx-container' in index and 'data-tex="XX^\\top"' in index
    assert "Second paragraph" not in index
    assert build_site.WORDS["en"]["how"] in index
    page = pages[1].read_text(encoding="utf-8")
    assert rel_href(page, "prev") == "00_start.html" and 'href="00_start_here.html"' in page
    assert page.count('class="attn-lab-mount"') == 1 and '<details class="solution"' not in page
    loads = re.findall(r"""<(?:script|img|link|iframe)\b[^>]*(?:src|href)\s*=\s*["']?([^"' >]+)""", page)
    assert loads and not [url for url in loads if "//" in url]  # (links to read elsewhere may be remote)
    # typeset when built: no MathJax script or configuration, only its fonts for the formulas on the page
    assert not [url for url in loads if url.endswith(".js") and "mathjax" in url.lower()]
    assert "window.MathJax" not in page and "MathJax_Main-Regular.woff" in page
    assert (out / offline_pages.MATHJAX_FONTS / "MathJax_Main-Regular.woff").is_file()
    assert (out / offline_pages.CJK_URL).is_file() and (out / "assets" / "site.css").is_file()


PAGE = """<!DOCTYPE html>
<html lang="zh-Hans"><head><meta charset="utf-8"><title>t</title></head><body>
<p>Scores $QK^\\top$ and $$\\mathrm{softmax}\\Big(\\frac{QK^\\top}{\\sqrt{d_k}}\\Big)V$$ and \\(d_k\\).</p>
<p>One line: $\\text{明月照高楼}$; costs \\$5 and \\$6.</p>
<pre><code>x = "$not math$"</code></pre>
<div class="live-lab">$labs write their own text$</div>
<script>const s = "a < b && $x$";</script>
</body></html>
"""


def test_formulas_are_typeset_when_the_pages_are_built(tmp_path, page_packages):
    """In Node, once: each formula of the prose becomes MathJax's HTML with a hidden MathML copy and its TeX;
    code, labs and scripts stay as they were; the fonts are linked from where the page lies."""
    page = tmp_path / "zh-Hans" / "p.html"
    page.parent.mkdir()
    page.write_text(PAGE, encoding="utf-8")
    assert offline_pages.typeset({page: "../vendor/fonts/"}) == 4
    html = page.read_text(encoding="utf-8")
    tex = re.findall(r'<mjx-container [^>]*data-tex="([^"]*)"', html)
    assert tex == ["QK^\\top", "\\mathrm{softmax}\\Big(\\frac{QK^\\top}{\\sqrt{d_k}}\\Big)V", "d_k",
                   "\\text{明月照高楼}"]
    assert html.count('display="true"') >= 1 and html.count("<mjx-assistive-mml") == 4
    assert "<msqrt>" in html and "costs <span>$</span>5" in html  # MathML a screen reader reads; \\$ is a $
    assert 'x = "$not math$"' in html and "$labs write their own text$" in html
    assert 'const s = "a < b && $x$";' in html
    assert 'url("../vendor/fonts/MathJax_Main-Regular.woff")' in html and "attn-math-fonts" not in html
    assert "font-family: MJXZERO, 'Attn CJK', serif" in html  # the bundled face draws the Chinese
    assert html.count('<style id="MJX-CHTML-styles">') == 1


def test_a_formula_mathjax_cannot_read_stops_the_build_and_is_named(tmp_path, page_packages):
    page = tmp_path / "p.html"
    page.write_text(PAGE.replace("$\\text{明月照高楼}$", "$x^1^2$"), encoding="utf-8")
    with pytest.raises(offline_pages.AssetError, match=r"(?s)could not read.*p\.html: x\^1\^2"):
        offline_pages.typeset({page: "fonts"})


def test_a_page_speaks_its_language_and_its_figures_are_files_beside_it(tmp_path, page_packages):
    """nbconvert's ExtractOutputPreprocessor writes each PNG to figures/<page>/ (a stale one goes), the page
    fetches it as the reader comes near, and its alternative text and <html lang> are the edition's."""
    png = [b"\x89PNG\r\n\x1a\nfirst", b"\x89PNG\r\n\x1a\nsecond"]
    nb = nbformat.v4.new_notebook()
    plot = nbformat.v4.new_code_cell("plot()", outputs=[nbformat.v4.new_output(
        "display_data", {"image/png": base64.b64encode(b).decode(), "text/plain": "<Figure>"},
        metadata={"image/png": {"width": 640}}) for b in png])
    nb.cells = [nbformat.v4.new_markdown_cell("# 05 · 縮放\n\n文字。"), plot]
    path = tmp_path / "zh-Hant" / "05_x.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    stale = tmp_path / "site" / "zh-Hant" / "figures" / "05_x" / "9.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    [page] = build_site.build([path], tmp_path / "site", log=lambda *_: None)
    html = page.read_text(encoding="utf-8")
    assert re.search(r'<html lang="zh-Hant"', html)  # not nbconvert's ISO 639-1 "en"
    images = re.findall(r"<img [^>]*>", html)
    assert len(images) == 2 and "data:image/png" not in html
    sources = [re.search(r'src="([^"]+)"', img).group(1) for img in images]
    assert [(page.parent / src).read_bytes() for src in sources] == png
    assert all(src.startswith("figures/05_x/") for src in sources) and not stale.exists()
    alt = offline_pages.figure_alt("zh-Hant")
    assert "筆記本" in alt and "No description" not in html
    for img in images:
        assert f'alt="{alt}"' in img and 'loading="lazy"' in img and 'decoding="async"' in img
        assert 'width="640"' in img


def test_a_solution_is_folded_away(lab, tmp_path, page_packages):
    nb = nbformat.v4.new_notebook()
    solution = nbformat.v4.new_code_cell("def solution(): return 1")
    solution.metadata["jupyter"] = {"source_hidden": True}
    nb.cells = [nbformat.v4.new_markdown_cell("# 01 · One\n\nText."), solution]
    nbformat.write(nb, tmp_path / "01_one.ipynb")
    [page] = build_site.build([tmp_path / "01_one.ipynb"], tmp_path / "site", log=lambda *_: None)
    folded = re.search(r'<details class="solution"><summary>Show the code</summary>(.*?)</details>',
                       page.read_text(encoding="utf-8"), re.S)
    assert folded and "solution" in folded.group(1)


def test_without_npm_or_node_modules_the_site_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(npm, "MODULES", tmp_path / "node_modules")  # nothing installed
    monkeypatch.setattr(npm.shutil, "which", lambda name: None)
    path = tmp_path / "01_one.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), path)
    assert build_site.main([str(path), "--out", str(tmp_path / "out")]) == 2
    assert "`make site` needs npm once" in capsys.readouterr().err


def test_links_between_editions_become_links_between_pages():
    text = "[English](../01_a.ipynb) · [繁體中文](../zh-Hant/01_a.ipynb) · [简体中文](zh-Hans/01_a.ipynb#x) · [b](02_b.ipynb)"
    assert offline_pages.link_notebooks(text, ".html") == (
        "[English](../01_a.html) · [繁體中文](../zh-Hant/01_a.html) · [简体中文](zh-Hans/01_a.html#x) · [b](02_b.html)"
    )


def test_language_switch_links_the_same_page_in_the_other_editions():
    links = offline_pages.language_links("01_a.html", "zh-Hans", ("en", "zh-Hans", "zh-Hant"))
    switch = str(chrome().language_switch(links))
    assert '<strong lang="zh-Hans">简体中文</strong>' in switch
    assert 'href="../01_a.html"' in switch and 'href="../zh-Hant/01_a.html"' in switch
    assert switch.count(" · ") == 2 and switch.startswith('<span class="languages">')
    english = str(chrome().language_switch(offline_pages.language_links("01_a.html", "en", ("en", "zh-Hant"))))
    assert 'href="zh-Hant/01_a.html"' in english and "简体中文" not in english  # no such edition built
    assert offline_pages.language_links("01_a.html", "en", ("en",)) == []  # one edition: no switch
    assert str(chrome().language_switch([])) == ""


def test_editions_are_grouped_by_folder(tmp_path):
    paths = [tmp_path / "zh-Hant" / "01_a.ipynb", tmp_path / "01_a.ipynb", tmp_path / "zh-Hans" / "01_a.ipynb"]
    assert list(offline_pages.editions(paths)) == ["en", "zh-Hans", "zh-Hant"]


# ---- finding your way: the contents, the outline and the search index -------------------------------------

def sectioned(lab, number: str, title: str) -> nbformat.NotebookNode:
    """A notebook with sections (h2, an h3, a formula in a heading) around its lab."""
    nb = notebook(lab, number, title)
    nb.cells[1:1] = [
        nbformat.v4.new_markdown_cell("## 1. Scores and $\\sqrt{d_k}$\n\nThe causal mask hides the future."),
        nbformat.v4.new_code_cell("print('code is not indexed: zebra')"),
        nbformat.v4.new_markdown_cell("### A closer look\n\nSoftmax turns scores into weights."),
        nbformat.v4.new_markdown_cell("## 2. The lab\n\nMove the slider."),
    ]
    return nb


def links(nav: str) -> list[tuple[str, str, bool]]:
    """(href, text, current) of every link of a piece of HTML."""
    return [(re.search(r'href="([^"]*)"', attrs).group(1), re.sub(r"<[^>]+>", "", text),
             'aria-current="page"' in attrs) for attrs, text in re.findall(r"<a\s([^>]*)>(.*?)</a>", nav, re.S)]


def element(page: str, pattern: str) -> str:
    found = re.search(pattern, page, re.S)
    assert found, f"no {pattern} in the page"
    return found.group(0)


@pytest.fixture(scope="module")
def sectioned_site(lab, tmp_path_factory, page_packages):
    tmp = tmp_path_factory.mktemp("sectioned")
    paths = []
    for folder, number, title in (("", "00", "Start here"), ("", "01", "Inner products"),
                                  ("zh-Hans", "01", "内积")):
        path = tmp / folder / f"{number}_{'start' if number == '00' else 'inner'}.ipynb"
        path.parent.mkdir(exist_ok=True)
        nbformat.write(sectioned(lab, number, title), path)
        paths.append(path)
    out = tmp / "site"
    build_site.build(paths, out, log=lambda *_: None)
    return out


def test_every_page_has_the_contents_of_its_language_with_itself_marked(sectioned_site):
    for folder, names in (("", ["00_start.html", "01_inner.html"]), ("zh-Hans", ["01_inner.html"])):
        for current in names:
            page = (sectioned_site / folder / current).read_text(encoding="utf-8")
            contents = element(page, r'<nav [^>]*class="site-contents".*?</nav>')
            found = links(contents)
            assert [href for href, _, _ in found] == names
            assert [href for href, _, now in found if now] == [current]  # aria-current on this page only
            body = page[page.index("<body"):]  # (the page's inline stylesheet names them too)
            assert body.index('class="skip-link"') < body.index("site-bar") < body.index("site-contents")
            assert '<main id="content"' in page and 'href="#content"' in page


def test_the_outline_lists_every_h2_and_h3_and_every_lab_in_page_order(sectioned_site, lab):
    page = (sectioned_site / "01_inner.html").read_text(encoding="utf-8")
    outline = links(element(page, r'<nav [^>]*class="site-outline".*?</nav>'))
    main = page[page.index("<main"):]
    *headings, scratch = re.findall(r'<h[23] id="([^"]+)"', main)
    labs = re.findall(r'class="attn-lab-mount" id="(lab-\d+)"', main)
    assert len(headings) == 3 and labs == ["lab-1"] and scratch == "Scratch-cell"  # every page ends with one
    assert [href[1:] for href, _, _ in outline] == [*headings, "lab-1", scratch]  # the lab: in the last section
    assert [text for _, text, _ in outline] == [
        "1. Scores and √d_k", "A closer look", "2. The lab",
        "Lab: " + ", ".join(c["description"] for c in lab.spec["controls"][:2]),  # what its controls set
        "Scratch cell"]
    assert 'data-lab=""' in outline_link(page, "#lab-1")
    hans = (sectioned_site / "zh-Hans" / "01_inner.html").read_text(encoding="utf-8")
    assert "本页内容" in hans and "本系列" in hans and "跳到正文" in hans


def outline_link(page: str, href: str) -> str:
    return element(page, rf'<a [^>]*href="{re.escape(href)}"[^>]*>')


def test_the_search_index_of_each_language_holds_its_sections_without_code(sectioned_site):
    for folder, language in (("", "en"), ("zh-Hans", "zh-Hans")):
        script = (sectioned_site / folder / build_site.INDEX_JS).read_text(encoding="utf-8")
        prefix = "window.attnSiteIndex = "
        body = script[script.index(prefix) + len(prefix):].rstrip().rstrip(";")
        index = json.loads(body)
        assert index["language"] == language
        names = [name for name, _ in index["pages"]]
        assert names == (["00_start.html", "01_inner.html"] if language == "en" else ["01_inner.html"])
        sections = {(names[p], heading): (anchor, text) for p, anchor, heading, text, _ in index["sections"]}
        anchor, text = sections[("01_inner.html", "1. Scores and √d_k")]
        assert text == "The causal mask hides the future."
        assert sections[("01_inner.html", "A closer look")] == ("A-closer-look", "Softmax turns scores into weights.")
        page = (sectioned_site / folder / "01_inner.html").read_text(encoding="utf-8")
        assert f'<h2 id="{anchor}"' in page  # the anchor is the id nbconvert gave the heading
        assert "zebra" not in script and "import" not in script  # code and outputs are not indexed
        box = element(page, r'<div class="site-search".*?</div></div>')
        assert f'data-index="{build_site.INDEX_JS}"' in box and build_site.MINISEARCH_URL in box
        assert 'role="combobox"' in box and 'aria-live="polite"' in box and "<label" in box
    index_page = (sectioned_site / "index.html").read_text(encoding="utf-8")
    assert 'class="site-search"' in index_page and build_site.NAV_URL in index_page
    assert (sectioned_site / build_site.NAV_URL).read_text(encoding="utf-8") == build_site.NAV_JS.read_text(
        encoding="utf-8")


def test_minisearch_is_pinned_by_hash_and_vendored_with_its_licence(sectioned_site):
    package = build_site.MINISEARCH
    assert package in build_site.PACKAGES and re.fullmatch(r"\d+\.\d+\.\d+", package.version)
    integrity = npm.locked(package.name)["integrity"]
    assert integrity.startswith("sha512-") and len(integrity) == 95  # npm ci checks the tarball against it
    vendored = sectioned_site / "vendor" / package.folder
    for name in package.files:
        assert (vendored / name).read_bytes() == (npm.MODULES / package.name / name).read_bytes()
    assert "Permission is hereby granted, free of charge" in (vendored / "LICENSE.txt").read_text(encoding="utf-8")
    umd = (sectioned_site / build_site.MINISEARCH_URL).read_text(encoding="utf-8")
    assert "global.MiniSearch = factory()" in umd  # the UMD build: a classic script sets a global


def test_formulas_become_plain_text_for_the_outline_and_the_results():
    assert site_search.plain_tex(r"\sqrt{d_k}") == "√d_k"
    assert site_search.plain_tex(r"\mathrm{softmax}(QK^\top / \sqrt{d_k})") == "softmax(QKᵀ / √d_k)"
    assert site_search.plain_tex(r"K \in \mathbb{R}^{T \times d_k}") == "K ∈ ℝ^T × d_k"
    assert site_search.plain_text("variance $d_k$, for $d_k$ from 1") == "variance d_k, for d_k from 1"
    assert site_search.plain_tex(r"M = \begin{cases} 0 & j \le i \\ -\infty & j > i \end{cases}") == "M = 0 j ≤ i -∞ j > i"
    assert site_search.plain_text("方差 $d_k$，共 $T$ 行") == "方差 d_k，共 T 行"
    assert site_search.plain_text("10. Cross-attention: $T_q \\ne T_k$") == "10. Cross-attention: T_q ≠ T_k"
    assert site_search.plain_tex(r"\hat{y} = \tfrac{1}{2} \beta") == "ŷ = (1)/(2) β"
    assert site_search.plain_tex(r"\overline{x} = \theta \bmod 2\pi") == "x̄ = θ mod 2π"
    assert site_search.plain_tex(r"\tilde o' = \Theta(\tilde{o})") == "õ' = Θ(õ)"


def test_every_tex_command_of_the_series_reads_as_the_reader_sees_it():
    """A command in any formula of the notebooks' prose (all editions) is a symbol the outline and the search
    write as such (≠, β, ⇒), an operator shown by its name (max, log) or one that only shapes its argument:
    none may come out as its bare name ("T_q ne T_k")."""
    known = {k[1:] for k in site_search.TEX_SYMBOLS} | site_search.TEX_NAMES | site_search.TEX_SHAPES
    found = set()
    for path in sorted((ROOT / "notebooks").glob("**/[0-9][0-9]_*.ipynb")):
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type == "markdown":
                for groups in site_search.MATH.findall(cell.source):
                    found |= {f"{path.name}: \\{c}" for g in groups for c in re.findall(r"\\([A-Za-z]+)", g)
                              if c not in known}
    assert not found, sorted(found)


REAL_NOTEBOOKS = sorted(p for p in (ROOT / "notebooks").glob("**/[0-9][0-9]_*.ipynb") if not p.name.startswith("00"))


@pytest.mark.parametrize("path", REAL_NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem[:2]}")
def test_no_exercise_shows_an_error_on_a_page(path):
    """Every exercise of the series reads as a task on its page: no red verdict of the unwritten stub, no
    error output, and the worked answer folded just below."""
    nb = build_site.for_site(nbformat.read(path, as_version=4), path)
    pages = [o["data"].get("text/html", "") for c in nb.cells if c.cell_type == "code"
             for o in c.get("outputs", []) if "data" in o]
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error" or "❌" in json.dumps(o, ensure_ascii=False)]
    assert not errors
    assert sum('class="exercise-task"' in page for page in pages) >= 1
    folded = [c for c in nb.cells if c.cell_type == "code" and c.metadata.get("jupyter", {}).get("source_hidden")]
    assert folded, "the worked answers stay on the page, folded"


# ---- a part off the main line (cells tagged going-further) -------------------------------------------------

def cell(kind: str, source: str, cell_id: str, tagged: bool = False) -> nbformat.NotebookNode:
    made = (nbformat.v4.new_markdown_cell if kind == "md" else nbformat.v4.new_code_cell)(source)
    made.id = cell_id
    if tagged:
        made.metadata["tags"] = [offline_pages.GOING_FURTHER]
    return made


def going_further(title: str, tagged: bool = True) -> nbformat.NotebookNode:
    """A title, a numbered section, two tagged cells (a heading and a code cell), then the recap."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [cell("md", f"# 05 · {title}\n\nIntro.", "gf-title"),
                cell("md", "## 6. The main line\n\nText.", "gf-main"),
                cell("md", "## Going further: a detour\n\nOff the main line.", "gf-part", tagged),
                cell("code", "print('inside')", "gf-code", tagged),
                cell("md", "## Recap\n\n- One point.", "gf-recap")]
    return nb


def test_runs_of_tagged_cells_are_found_and_their_ends_marked():
    cells = [cell("md", "x", f"c{i}", tagged=i in (1, 2, 4)) for i in range(6)]
    assert offline_pages.going_further_runs(cells) == [range(1, 3), range(4, 5)]
    assert offline_pages.going_further_runs(cells[:1]) == []
    build_site.mark_going_further(cells)
    marks = [(c.metadata.get("going_further_start"), c.metadata.get("going_further_end")) for c in cells]
    assert marks == [(None, None), (1, None), (None, True), (None, None), (2, True), (None, None)]


@pytest.fixture(scope="module")
def going_further_site(tmp_path_factory, page_packages):
    """The page of a notebook with a going-further part in the three languages, and one without a part."""
    tmp = tmp_path_factory.mktemp("going-further")
    paths = []
    for folder, title in (("", "Scaling"), ("zh-Hans", "缩放"), ("zh-Hant", "縮放")):
        path = tmp / folder / "05_scaling.ipynb"
        path.parent.mkdir(exist_ok=True)
        nbformat.write(going_further(title), path)
        paths.append(path)
    nbformat.write(going_further("Plain", tagged=False), tmp / "06_plain.ipynb")
    out = tmp / "site"
    build_site.build([*paths, tmp / "06_plain.ipynb"], out, log=lambda *_: None)
    return out


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_the_tagged_cells_and_only_they_are_one_labelled_block(going_further_site, language):
    page = (offline_pages.edition_folder(going_further_site, language) / "05_scaling.html").read_text(
        encoding="utf-8")
    assert page.count('class="going-further"') == 1 and page.count("<!-- /going-further -->") == 1
    part = element(page, r'<section\b[^>]*class="going-further".*?</section><!-- /going-further -->')
    assert re.findall(r'id="cell-id=([^"]+)"', part) == ["gf-part", "gf-code"]
    assert re.findall(r'id="cell-id=([^"]+)"', page) == ["gf-title", "gf-main", "gf-part", "gf-code", "gf-recap",
                                                        "scratch-heading", "scratch-cell"]  # (every page's last)
    words = build_site.WORDS[language]
    label = element(part, r'<p class="going-further-label">.*?</p>')
    assert part.index(label) < part.index("gf-part")  # the label heads the block
    assert f'>{words["further"]}</strong>' in label and words["further_note"] in label
    assert re.search(r'<section aria-labelledby="going-further-1"', part)  # named by its label
    outline = element(page, r'<nav [^>]*class="site-outline".*?</nav>')
    marked = re.findall(r'<li class="([^"]*)"><a href="#([^"]*)"', outline)
    assert [(anchor, "going-further" in classes.split()) for classes, anchor in marked] == [
        ("6.-The-main-line", False), ("Going-further:-a-detour", True), ("Recap", False),
        (re.search(r'<h2 id="([^"]+)"', page[page.index('id="cell-id=scratch-heading"'):]).group(1), False)]


def test_the_label_speaks_each_language():
    assert build_site.WORDS["en"]["further"] == "Going further"
    assert build_site.WORDS["zh-Hans"]["further"] == "延伸内容" and build_site.WORDS["zh-Hant"]["further"] == "延伸內容"
    assert build_site.WORDS["zh-Hans"]["further_note"] == "选读" and build_site.WORDS["zh-Hant"]["further_note"] == "選讀"


def test_a_notebook_without_the_tag_gets_no_block(going_further_site):
    page = (going_further_site / "06_plain.html").read_text(encoding="utf-8")
    assert "going-further" not in page and "going_further" not in page  # (its heading's id is Going-...)
    assert "Going further</strong>" not in page


# ---- the reference pages: the glossary, the lecturer's guide and the sources ----------------------------

def test_mentions_of_the_reference_files_become_links_to_their_pages():
    text = ("`docs/sources.md` checks them; see [the guide](../docs/lecturers_guide.md#2-how-to-present), "
            "[`sources.md`](sources.md), [`docs/glossary.md`](docs/glossary.md), "
            "`docs/lecturers_guide.zh-Hant.md` and `docs/translating.md`.")
    assert reference_pages.link_documents(text, ["glossary"]) == text.replace(
        "[`docs/glossary.md`](docs/glossary.md)", "[`docs/glossary.md`](glossary.html)")  # only pages built
    assert reference_pages.link_documents(text, []) == text
    names = [r.name for r in reference_pages.REFERENCES]
    assert reference_pages.link_documents(text, names) == (
        "[`docs/sources.md`](sources.html) checks them; see [the guide](lecturers_guide.html#2-how-to-present), "
        "[`sources.md`](sources.html), [`docs/glossary.md`](glossary.html), "
        "[`docs/lecturers_guide.zh-Hant.md`](lecturers_guide.html) and `docs/translating.md`.")
    with pytest.raises(TypeError, match="source must be Markdown text"):
        reference_pages.link_documents(None, names)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# 00 · Start\n\n`docs/sources.md` checks them.")]
    assert build_site.for_site(nb).cells[0].source == nb.cells[0].source  # a site without the page: no link


def test_a_reference_in_another_language_is_marked_and_says_so():
    same = reference_pages.as_notebook("# Title\n\nText.\n", "en", "en", "unused", "glossary")
    assert [c.source for c in same.cells] == ["# Title\n\nText.\n"] and same.cells[0].id == "glossary-0"
    other = reference_pages.as_notebook("# Title\n\nText.\n", "en", "zh-Hans", "本页以英文写成。", "sources")
    assert [c.source for c in other.cells] == ["# Title", "*本页以英文写成。*", "Text.\n"]
    assert [c.metadata.get("lang") for c in other.cells] == ["en", None, "en"]
    assert [c.id for c in other.cells] == ["sources-0", "sources-1", "sources-2"]
    with pytest.raises(ValueError, match="opens with its title"):
        reference_pages.as_notebook("no title", "en", "en", "", "x")


def test_make_site_shows_each_reference_of_the_repository_in_each_edition():
    """The guide and the sources are read in each edition's own language (built by tools/translate); the
    glossary, one trilingual table, in English under a line that says so."""
    for reference in reference_pages.REFERENCES:
        for language in ("en", "zh-Hans", "zh-Hant"):
            path, written_in = reference.source(language)
            assert path.is_file() and written_in == (language if reference.name != "glossary" else "en")
            words = build_site.WORDS[language]
            assert words[reference.summary] and words[reference.note] and words["reference"]
    assert build_site.WORDS["zh-Hant"]["reference"] == "參考資料"
    assert "逐條核查" in reference_pages.REFERENCES[2].source("zh-Hant")[0].read_text(encoding="utf-8")


REFERENCE_DOCS = {
    "glossary.md": "# Glossary · 术语表\n\nEvery term; `docs/sources.md` names the articles.\n\n"
                   "## Terms\n\n| English | 简体中文 |\n|---|---|\n| zebrafinch | 斑胸草雀 |\n",
    "lecturers_guide.md": "# Lecturer's guide\n\n[`sources.md`](sources.md) lists the claims.\n\n"
                          "## 1. Before the first lecture\n\nOpen $QK^\\top$.\n",
    "lecturers_guide.zh-Hans.md": "# 教师指南\n\n[`sources.md`](sources.md) 列出论断。\n\n## 1. 第一讲之前\n\n讲稿。\n",
    "lecturers_guide.zh-Hant.md": "# 教師指南\n\n[`sources.md`](sources.md) 列出論斷。\n\n## 1. 第一講之前\n\n講稿。\n",
    "sources.md": "# The two source articles\n\nEvery claim, checked.\n\n## A · Understanding\n\nA1 holds.\n",
    "sources.zh-Hans.md": "# 两篇参考文章\n\n逐条核查。\n\n## A · 理解\n\nA1 成立。\n",
}


@pytest.fixture(scope="module")
def reference_site(tmp_path_factory, page_packages):
    """Two notebooks in English, one in each Chinese edition, and the three references (made up, in a
    folder of their own): the sources have no 繁體 text."""
    tmp = tmp_path_factory.mktemp("reference")
    docs = tmp / "docs"
    docs.mkdir()
    for name, text in REFERENCE_DOCS.items():
        (docs / name).write_text(text, encoding="utf-8")
    references = [reference_pages.Reference(r.name, r.note, r.summary, docs) for r in reference_pages.REFERENCES]
    paths = []
    for folder, number in (("", "00"), ("", "01"), ("zh-Hans", "00"), ("zh-Hant", "00")):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_markdown_cell(
            f"# {number} · Start\n\nFrom two articles that `docs/sources.md` checks claim by claim.",
            id=f"title-{number}")]
        path = tmp / "notebooks" / folder / f"{number}_start.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, path)
        paths.append(path)
    out = tmp / "site"
    written = build_site.build(paths, out, log=lambda *_: None, references=references)
    return out, written


NAMES = ("glossary.html", "lecturers_guide.html", "sources.html")


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_each_edition_has_the_reference_pages_listed_under_their_heading(reference_site, language):
    out, written = reference_site
    folder = offline_pages.edition_folder(out, language)
    assert {folder / name for name in NAMES} <= set(written)
    notebooks = ["00_start.html", "01_start.html"] if language == "en" else ["00_start.html"]
    words = build_site.WORDS[language]
    for current in [*notebooks, *NAMES]:
        page = (folder / current).read_text(encoding="utf-8")
        contents = element(page, r'<nav [^>]*class="site-contents".*?</nav>')
        assert [href for href, _, _ in links(contents)] == [*notebooks, *NAMES]  # after the notebooks
        assert [href for href, _, now in links(contents) if now] == [current]
        heading = f'<p class="site-side-title">{words["reference"]}</p>'
        assert contents.index(heading) > contents.index(notebooks[-1]) and contents.index(heading) < contents.index(NAMES[0])
        # previous and next stay among the notebooks: a reference page has neither, the last notebook no next
        if current in NAMES:
            assert rel_href(page, "prev") is None and rel_href(page, "next") is None
            assert rel_href(page, "index") == "index.html"
    assert rel_href((folder / notebooks[-1]).read_text(encoding="utf-8"), "next") is None
    index = (folder / "index.html").read_text(encoding="utf-8")
    listed = element(index, r'<h2 class="reference">.*?</ol>')
    assert words["reference"] in listed and [href for href, _, _ in links(listed)] == list(NAMES)
    assert words["sources_what"] in listed
    assert index.index('class="contents"') < index.index('<h2 class="reference">')


def test_each_edition_shows_its_own_text_or_the_english_one_marked_as_such(reference_site):
    out, _ = reference_site
    hans = (out / "zh-Hans" / "sources.html").read_text(encoding="utf-8")
    assert "<title>两篇参考文章</title>" in hans and "A1 成立。" in hans and 'lang="en"' not in element(
        hans, r"<main.*</main>")
    hant = (out / "zh-Hant" / "sources.html").read_text(encoding="utf-8")  # no 繁體 text: the English one
    main = element(hant, r"<main.*</main>")
    assert main.count('<div lang="en">') == 2 and "A1 holds." in main
    assert f"<em>{build_site.WORDS['zh-Hant']['english_note']}</em>" in main
    note = main.index(build_site.WORDS["zh-Hant"]["english_note"])
    assert main.index("The two source articles") < note < main.index("A1 holds.")
    glossary = (out / "zh-Hans" / "glossary.html").read_text(encoding="utf-8")
    assert build_site.WORDS["zh-Hans"]["glossary_note"] in glossary and "<title>Glossary · 术语表</title>" in glossary
    english = (out / "sources.html").read_text(encoding="utf-8")
    assert "<em>" not in element(english, r"<main.*</main>") and "Every claim, checked." in english
    assert "mjx-container" in (out / "lecturers_guide.html").read_text(encoding="utf-8")  # typeset too


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
def test_mentions_of_the_reference_files_link_the_page_of_the_same_edition(reference_site, language):
    out, _ = reference_site
    folder = offline_pages.edition_folder(out, language)
    mention = '<a href="sources.html"><code>docs/sources.md</code></a>'
    assert mention in element((folder / "00_start.html").read_text(encoding="utf-8"), r"<main.*</main>")
    assert mention in (folder / "index.html").read_text(encoding="utf-8")  # 00's first paragraph
    assert mention in (folder / "glossary.html").read_text(encoding="utf-8")
    guide = element((folder / "lecturers_guide.html").read_text(encoding="utf-8"), r"<main.*</main>")
    assert '<a href="sources.html"><code>sources.md</code></a>' in guide and ".md\"" not in guide


def test_the_reference_pages_switch_language_and_are_found_by_the_search(reference_site):
    out, _ = reference_site
    page = (out / "zh-Hans" / "glossary.html").read_text(encoding="utf-8")
    switch = element(page, r'<span class="languages">.*?</span>')
    assert 'href="../glossary.html"' in switch and 'href="../zh-Hant/glossary.html"' in switch
    assert '<strong lang="zh-Hans">' in switch
    for language, heading in (("en", "1. Before the first lecture"), ("zh-Hans", "1. 第一讲之前"),
                              ("zh-Hant", "1. 第一講之前")):
        script = (offline_pages.edition_folder(out, language) / build_site.INDEX_JS).read_text(encoding="utf-8")
        body = script[script.index("= ") + 2:].rstrip().rstrip(";")
        index = json.loads(body)
        names = [name for name, _ in index["pages"]]
        assert names[-3:] == list(NAMES)
        found = {(names[p], h) for p, _, h, _, _ in index["sections"]}
        assert ("lecturers_guide.html", heading) in found
        assert any(names[p] == "glossary.html" and "zebrafinch" in text for p, _, _, text, _ in index["sections"])
