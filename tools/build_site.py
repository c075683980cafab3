"""Write a website of the series that works from disk or from any static web host, with no Python.

    python -m tools.build_site [--out build/site] [NOTEBOOK ...]     (or: make site)

One page per notebook, `NN_name.html`, made by nbconvert from the outputs stored in the notebook (nothing
is re-run), and `index.html`, the table of contents: each notebook's title and first paragraph. The Chinese
editions (`notebooks/zh-Hans/`, `notebooks/zh-Hant/`) get the same pages in `<out>/zh-Hans/` and
`<out>/zh-Hant/`, and the bar of every page switches to the same page in another language.

- Every lab works in the page: it is drawn from the state the notebook stored, by the same ES module as in
  JupyterLab (`offline_pages.static_outputs`, shared with the offline slides), and so is every quiz;
  an exercise reads as a task (`exercise_pages`), and its worked answer is folded away below it.
- Every page has the contents of the series and an outline of its own sections beside it, and a search
  box over the whole series in its language (`site_search`, MiniSearch).
- Formulas are typeset by MathJax 3.2.2 when the site is built (`offline_pages.typeset`, in Node), so a
  page runs no math JavaScript; figures are PNG files beside the page (`figures/<page>/`), fetched as the
  reader comes near them; links between notebooks lead to the pages, and a bar at the top of every page
  links to the index and the previous and next page.
- Nothing is loaded from outside the folder: MathJax and MiniSearch are installed once by `npm ci` into
  `node_modules/` (tools/npm.py, as for `make slides`; npm checks them against package-lock.json), and the
  few files a page uses (MathJax's fonts, the search) copied to `<out>/vendor/` with their licences, beside
  the CJK font that attnlib bundles (SIL OFL 1.1).
  The page style is nbconvert's JupyterLab stylesheet (BSD-3-Clause, written once to `assets/`) and
  `assets/site.css`.
"""

from __future__ import annotations

import base64
import copy
import html
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from . import exercise_pages, offline_pages, site_search
from .offline_pages import MATHJAX, ROOT, AssetError, Package, notebook_title

# The search of the series (MIT). Its UMD build is a classic script, which loads from file://.
MINISEARCH = Package(
    "minisearch",
    ("LICENSE.txt", "dist/umd/index.js"),
)
MINISEARCH_URL = f"vendor/{MINISEARCH.folder}/dist/umd/index.js"
PACKAGES = (MATHJAX, MINISEARCH)
NAV_JS = Path(__file__).with_name("site_nav.js")  # the page code of the contents, outline and search
NAV_URL = "assets/site-nav.js"
INDEX_JS = "search-index.js"  # one per language, beside its pages
SIDE = "<!-- site: contents, outline, search -->"
# The words of the site in each language (the zh-Hant ones are the zh-Hans ones through OpenCC s2twp).
WORDS = {
    "en": {
        "series": "Attention, one idea at a time",
        "how": "Read the notebooks in order: each page is a notebook as it ran, code, outputs and figures. "
        "The labs work right in the page: drag a slider, or click a control and use the arrow keys. "
        "To run and change the code yourself, open the notebooks in JupyterLab (<code>make lab</code>).",
        "index": "index", "previous": "← previous", "next": "next →", "code": "Show the code",
        "lecture": "In a lecture",
        "skip": "Skip to content", "series_nav": "The series", "outline": "On this page",
        "toggle": "Contents and outline", "lab": "Lab: {what}", "lab_join": ", ",
        "search": "Search the series",
        "placeholder": "Search: softmax, mask, d_k…", "results": "Search results",
        "none": "No results", "one": "1 result", "many": "{n} results",
    },
    "zh-Hans": {
        "series": "注意力机制，一次一个概念",
        "how": "请按顺序阅读：每一页都是一个运行过的笔记本，含代码、输出和图。"
        "实验台在页面里就能用：拖动滑块，或点一下控件再用方向键。"
        "想自己运行、修改代码，请在 JupyterLab 中打开笔记本（<code>make lab</code>）。",
        "index": "目录", "previous": "← 上一篇", "next": "下一篇 →", "code": "显示代码",
        "lecture": "课堂上",
        "skip": "跳到正文", "series_nav": "本系列", "outline": "本页内容",
        "toggle": "目录与本页大纲", "lab": "实验台：{what}", "lab_join": "、", "search": "搜索本系列",
        "placeholder": "搜索：softmax、掩码、d_k…", "results": "搜索结果",
        "none": "没有结果", "one": "1 条结果", "many": "{n} 条结果",
    },
    "zh-Hant": {
        "series": "注意力機制，一次一個概念",
        "how": "請按順序閱讀：每一頁都是一個執行過的筆記本，含程式碼、輸出和圖。"
        "實驗台在頁面裡就能用：拖動滑桿，或點一下控制元件再用方向鍵。"
        "想自己執行、修改程式碼，請在 JupyterLab 中開啟筆記本（<code>make lab</code>）。",
        "index": "目錄", "previous": "← 上一篇", "next": "下一篇 →", "code": "顯示程式碼",
        "lecture": "課堂上",
        "skip": "跳到正文", "series_nav": "本系列", "outline": "本頁內容",
        "toggle": "目錄與本頁大綱", "lab": "實驗台：{what}", "lab_join": "、", "search": "搜尋本系列",
        "placeholder": "搜尋：softmax、遮罩、d_k…", "results": "搜尋結果",
        "none": "沒有結果", "one": "1 條結果", "many": "{n} 條結果",
    },
}  # fmt: skip
SERIES = WORDS["en"]["series"]
HOW_TO = WORDS["en"]["how"]

# nbconvert's JupyterLab template with every remote script removed: no require.js, no widget manager,
# no mermaid, no MathJax (the formulas are typeset at build time); one shared stylesheet instead of
# 250 kB inlined per page.
TEMPLATE = r"""
{%- extends 'index.html.j2' -%}

{%- block html_head_js -%}{%- endblock html_head_js -%}
{%- block jupyter_widgets -%}{%- endblock jupyter_widgets -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}

{%- block notebook_css -%}
<link rel="stylesheet" href="{{ resources.site.root }}assets/jupyterlab.css">
<link rel="stylesheet" href="{{ resources.site.root }}assets/site.css">
{%- endblock notebook_css -%}

{%- block html_head_js_mathjax -%}
""" + offline_pages.CJK_HEAD + r"""
{%- endblock html_head_js_mathjax -%}

{%- block body_header -%}
<body class="jp-Notebook site-page" data-jp-theme-light="true" data-jp-theme-name="JupyterLab Light"
      style="--site-lecture: '{{ resources.site.words.lecture }}'">
<a class="skip-link" href="#content">{{ resources.site.words.skip }}</a>
{{ resources.site.bar }}
<div class="site-layout">
""" + SIDE + r"""
<main id="content" tabindex="-1">
{%- endblock body_header -%}

{% block input_group -%}
{%- if cell.metadata.get('jupyter', {}).get('source_hidden', False) -%}
<details class="solution"><summary>{{ resources.site.words.code }}</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock input_group %}

{% block body_footer %}
</main>
</div>
{{ resources.site.bar }}
</body>
{% endblock body_footer %}
"""

SITE_CSS = """\
/* The site's own look, over nbconvert's JupyterLab stylesheet: one readable column, code in boxes,
   outputs just below their code, lecturer notes set aside. */
:root {
  --jp-content-font-family: system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif, "Attn CJK";
  --jp-ui-font-family: var(--jp-content-font-family);
  --jp-code-font-family: Menlo, Consolas, "DejaVu Sans Mono", monospace, "Attn CJK";
  --jp-content-font-size1: 17px;
  --jp-code-font-size: 14px;
  --site-width: 980px;
  --site-side: 16.5rem;
  --site-frame: calc(var(--site-side) + 1.5rem + var(--site-width));
  --site-accent: #2a5db0;
}
html { background: #fff; }
/* what nbconvert's lab template sets inline, beside its stylesheet */
.jp-InputArea { overflow: hidden; }
.site-page .jp-InputArea-editor { overflow-x: auto; min-width: 0; }  /* long lines scroll on a phone */
.cm-editor.cm-s-jupyter .highlight pre {
  padding: var(--jp-code-padding) 4px; margin: 0;
  font-family: inherit; font-size: inherit; line-height: inherit; color: inherit;
}
.jp-OutputArea-output pre { line-height: inherit; font-family: inherit; }
.jp-RenderedText pre { color: var(--jp-content-font-color1); font-size: var(--jp-code-font-size); }
body.site-page {
  margin: 0; padding: 0; overflow: visible; height: auto;
  font-family: var(--jp-content-font-family); color: #1f2328; background: #fff;
}
.site-page main, .site-index main {
  max-width: var(--site-width); margin: 0 auto; padding: 1.5rem 1.25rem 3rem;
}
.site-bar { background: #f5f6f8; border-bottom: 1px solid #d8dbe0; font-size: 15px; }
.site-bar + main { padding-top: 1rem; }
main + .site-bar { border-top: 1px solid #d8dbe0; border-bottom: 0; }
.site-bar nav {
  max-width: var(--site-frame); margin: 0 auto; padding: 0.55rem 1.25rem;
  display: flex; flex-wrap: wrap; gap: 0.25rem 0.6rem; align-items: baseline;
}
.site-bar a { color: var(--site-accent); text-decoration: none; }
.site-bar a:hover, .site-bar a:focus-visible { text-decoration: underline; }
.site-bar .off { color: #666b73; }
.site-bar .item { white-space: nowrap; }
.site-bar .sep { color: #666b73; margin-right: 0.6rem; }
.site-bar .here { margin-left: auto; color: #57606a; }
.site-bar .languages { color: #57606a; }
.site-bar .languages strong { font-weight: 600; color: #1f2328; }
.site-index .languages { display: block; margin: 0.5rem 0 0; color: #57606a; }
.site-page a, .site-index a { color: var(--site-accent); }

/* cells: no prompts, no side gutters. A cell far from the screen is not laid out or painted until the
   reader comes near it (a long page is usable as soon as its first screen is); its last height is kept. */
.site-page .jp-Cell {
  padding: 0; margin: 0 0 0.9rem; content-visibility: auto; contain-intrinsic-size: auto 320px;
}
.site-page .jp-InputPrompt, .site-page .jp-OutputPrompt { display: none; }
.site-page .jp-Collapser { display: none; }
.site-page .jp-Cell-inputWrapper, .site-page .jp-Cell-outputWrapper { display: block; }

/* prose */
.site-page .jp-RenderedMarkdown { display: block; width: auto; max-width: 46rem; padding: 0;
  font-size: 17px; line-height: 1.6; }
.site-page a.anchor-link { display: inline; visibility: hidden; margin-left: 0.3em; color: #8a8f98;
  text-decoration: none; font-weight: 400; }
.site-page :is(h1, h2, h3, h4):hover > a.anchor-link, .site-page a.anchor-link:focus { visibility: visible; }
.site-page .jp-RenderedMarkdown h1 { font-size: 2rem; margin: 0.4rem 0 1rem; line-height: 1.25; }
.site-page .jp-RenderedMarkdown h2 { font-size: 1.5rem; margin: 2.2rem 0 0.8rem; padding-bottom: 0.25rem;
  border-bottom: 1px solid #e3e6ea; }
.site-page .jp-RenderedMarkdown h3 { font-size: 1.2rem; margin: 1.6rem 0 0.6rem; }
.site-page .jp-RenderedMarkdown h4 { font-size: 1.05rem; margin: 1.2rem 0 0.4rem; }
.site-page .jp-RenderedMarkdown p, .site-page .jp-RenderedMarkdown li { line-height: 1.6; }
.site-page .jp-RenderedMarkdown code {
  background: #f0f2f4; padding: 0.1em 0.3em; border-radius: 4px; font-size: 0.9em;
}
.site-page .jp-RenderedMarkdown table { font-size: 15px; margin: 0.6rem 0; }
.site-page .jp-RenderedMarkdown hr { border: 0; border-top: 1px solid #e3e6ea; margin: 1.5rem 0; }
.site-page mjx-container[display="true"] { margin: 0.6em 0 !important; }

/* code and its outputs */
.site-page .jp-CodeCell .jp-InputArea-editor {
  background: #f6f8fa; border: 1px solid #dde1e6; border-radius: 6px; padding: 0.1rem 0.5rem;
}
.site-page .jp-CodeCell .highlight { background: transparent; }
.site-page .jp-CodeCell .highlight pre { font-size: 14px; line-height: 1.45; }
.site-page .jp-OutputArea { margin: 0.15rem 0 0 0; }
.site-page .jp-OutputArea-output { padding: 0.25rem 0.6rem; }
.site-page .jp-RenderedText pre { font-size: 14px; line-height: 1.45; }
/* A printed line or a wide formula never wraps mid-number: it scrolls inside its own box, and a shadow at
   an edge says there is more that way (the white covers scroll with the content, the shadows stay put). */
.site-page .jp-RenderedText pre { white-space: pre; }
.site-page .jp-RenderedText pre, .site-page mjx-container[display="true"] {
  overflow-x: auto; overflow-y: hidden;
  background:
    linear-gradient(to right, #fff 40%, #fff0) left / 1.5rem 100% no-repeat local,
    linear-gradient(to left, #fff 40%, #fff0) right / 1.5rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, #0004, #0000) left / 0.75rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, #0004, #0000) right / 0.75rem 100% no-repeat scroll;
}
.site-page .jp-OutputArea-output img { max-width: 100%; height: auto; }
.site-page .jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"] { background: #fff5f5; }

/* a folded solution */
.site-page details.solution { border: 1px dashed #c9ced6; border-radius: 6px; padding: 0.3rem 0.6rem; }
.site-page details.solution > summary { cursor: pointer; color: var(--site-accent); }
.site-page details.solution[open] > summary { margin-bottom: 0.4rem; }

/* what a lecturer says in class: kept, set aside */
.site-page .celltag_lecture-notes { border-left: 4px solid #c9ced6; padding-left: 0.9rem; color: #4b5563;
  font-size: 15px; }
.site-page .celltag_lecture-notes::before { content: var(--site-lecture, "In a lecture"); display: block;
  font-weight: 600; font-size: 13px; text-transform: uppercase; letter-spacing: 0.04em; color: #6b7280; }

/* labs, and widgets that need Python */
.site-page .live-lab { margin: 0.3rem 0 0.6rem; padding: 0.6rem 0.75rem; border: 1px solid #d8e2f0;
  border-radius: 8px; background: #fbfcfe; overflow-x: auto; }
.offline-widget { border-left: 4px solid #2a76dd; background: #eef4fd; padding: 0.4em 0.8em; }

/* beside the page: the search, the contents of the series and the outline of the page */
.skip-link { position: absolute; left: 0.5rem; top: -3rem; z-index: 50; padding: 0.4rem 0.8rem;
  background: #fff; border: 2px solid var(--site-accent); border-radius: 6px; color: var(--site-accent); }
.skip-link:focus { top: 0.5rem; }
.site-page main:focus { outline: none; }
.site-page :is(h2, h3)[tabindex="-1"]:focus { outline: none; }
.site-layout { display: grid; grid-template-columns: var(--site-side) minmax(0, 1fr); column-gap: 1.5rem;
  max-width: var(--site-frame); margin: 0 auto; }
.site-layout > main { margin: 0; min-width: 0; }
.site-side { position: sticky; top: 0; z-index: 20; align-self: start; max-height: 100vh;
  box-sizing: border-box;
  display: flex; flex-direction: column; padding: 1.1rem 0 1rem 1.25rem; font-size: 14px; line-height: 1.4; }
.site-toc { overflow-y: auto; min-height: 0; padding-right: 0.25rem; scrollbar-width: thin; }
.site-toc > summary { display: none; }
.site-side-title { margin: 1.1rem 0 0.35rem; font-size: 12px; font-weight: 600; letter-spacing: 0.05em;
  text-transform: uppercase; color: #6b7280; }
.site-side ol { list-style: none; margin: 0; padding: 0; }
.site-side li a { display: block; padding: 0.18rem 0.5rem; border-left: 2px solid transparent;
  color: #3b4350; text-decoration: none; border-radius: 0 4px 4px 0; }
.site-side li a:hover { color: var(--site-accent); background: #f3f6fa; }
.site-side li a:focus-visible { outline: 2px solid var(--site-accent); outline-offset: -2px; }
.site-contents a[aria-current="page"] { border-left-color: var(--site-accent); color: #1f2328;
  font-weight: 600; background: #f3f6fa; }
.site-outline li.level-3 a { padding-left: 1.3rem; font-size: 13.5px; color: #57606a; }
.site-outline li.lab a { padding-left: 1.3rem; font-size: 13.5px; color: #2a5db0; }
.site-outline li.lab a::before { content: "▸ "; color: #8aa4cf; }

/* the search */
.site-search { position: relative; }
.site-search input { box-sizing: border-box; width: 100%; padding: 0.45rem 0.6rem; font: inherit;
  font-size: 14px; color: #1f2328; background: #fff; border: 1px solid #c9ced6; border-radius: 6px; }
.site-search input:focus { outline: 2px solid var(--site-accent); outline-offset: 0;
  border-color: transparent; }
.site-search-label, .site-search:not(.open) .site-search-panel {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
.site-search-panel { position: absolute; z-index: 30; top: calc(100% + 4px); left: 0;
  width: min(34rem, calc(100vw - 2.5rem)); max-height: min(70vh, 36rem); overflow-y: auto; background: #fff;
  border: 1px solid #d8dbe0; border-radius: 8px; box-shadow: 0 8px 24px rgba(31, 35, 40, 0.12); }
.site-search-status { margin: 0; padding: 0.45rem 0.8rem; font-size: 13px; color: #57606a;
  border-bottom: 1px solid #eceef1; }
.site-search-status:empty { display: none; }
.site-search [role=listbox] { list-style: none; margin: 0; padding: 0.25rem 0; }
.site-search [role=option] a { display: block; padding: 0.5rem 0.8rem; color: #1f2328;
  text-decoration: none; }
.site-search [role=option][aria-selected="true"] a,
.site-search [role=option] a:hover { background: #eef3fb; }
.site-search [role=option][aria-selected="true"] a { box-shadow: inset 3px 0 0 var(--site-accent); }
.site-search .where { display: block; font-size: 13px; font-weight: 600; color: var(--site-accent); }
.site-search .snippet { display: block; font-size: 13.5px; line-height: 1.45; color: #4b5563; }
.site-search mark { background: #fff1a8; color: inherit; border-radius: 2px; padding: 0 1px; }
.site-index .site-search { max-width: 46rem; margin: 1rem 0 0.5rem; }
.site-index .site-search input { font-size: 16px; }

@media (max-width: 899px) {
  .site-layout { display: block; }
  .site-side { position: static; max-height: none; padding: 0.75rem 1.25rem 0; }
  .site-toc { overflow: visible; margin-top: 0.6rem; border: 1px solid #d8dbe0; border-radius: 6px;
    padding: 0; }
  .site-toc > summary { display: list-item; cursor: pointer; padding: 0.45rem 0.7rem;
    color: var(--site-accent);
    font-size: 14.5px; }
  .site-toc[open] > summary { border-bottom: 1px solid #e3e6ea; }
  .site-toc > nav { padding: 0 0.7rem 0.6rem; }
  .site-search-panel { width: 100%; }
  .site-search input { font-size: 16px; }  /* a phone does not zoom into a 16px field */
}

/* the index */
.site-index { margin: 0; font-family: var(--jp-content-font-family); color: #1f2328; line-height: 1.6;
  font-size: 17px; }
.site-index h1 { font-size: 2.1rem; line-height: 1.25; margin: 0.5rem 0 0.5rem; }
.site-index .how { color: #4b5563; max-width: 46rem; }
.site-index ol.contents { list-style: none; padding: 0; margin: 1.5rem 0; }
.site-index ol.contents li { padding: 0.8rem 0; border-top: 1px solid #e3e6ea; max-width: 46rem; }
.site-index ol.contents li a.title { font-size: 1.15rem; font-weight: 600; text-decoration: none; }
.site-index ol.contents li a.title:hover { text-decoration: underline; }
.site-index ol.contents li p { margin: 0.25rem 0 0; }
@media (max-width: 640px) {
  .site-page .jp-RenderedMarkdown, .site-index { font-size: 16px; }
  .site-bar .here { display: none; }
  .site-bar .switch { flex-basis: 100%; }
  .site-bar .switch > .sep { display: none; }
}
"""

INDEX = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>{title}</title>
<link rel="stylesheet" href="{root}assets/site.css">
{head}
</head>
<body class="site-index">
<main>
{languages}
<h1>{title}</h1>
<p class="how">{how}</p>
{search}
<ol class="contents">
{items}
</ol>
</main>
<script src="{root}{nav}"></script>
</body>
</html>
"""


@dataclass(frozen=True)
class Page:
    """A notebook of the series and its page."""

    path: Path
    title: str
    intro: str  # the first paragraph after the title, Markdown

    @property
    def name(self) -> str:
        return f"{self.path.stem}.html"


def first_paragraph(nb) -> str:
    """The Markdown after the title heading up to the first blank line; a paragraph that ends with a
    colon brings the next one along (00 opens with "..., one idea at a time:" and the formula)."""
    for cell in nb.cells:
        if cell.cell_type != "markdown" or not re.search(r"^# ", cell.source, re.M):
            continue
        after = re.split(r"^# .*$", cell.source, maxsplit=1, flags=re.M)[1]
        blocks = [b.strip() for b in re.split(r"\n\s*\n", after) if b.strip()]
        chosen = []
        for block in blocks:
            chosen.append(block)
            if not block.endswith(":"):
                break
        return "\n\n".join(chosen)
    return ""


def for_site(nb, path: Path | None = None):
    """A copy of the notebook as its page shows it: labs live, links to pages, no harness comments,
    lecturer notes tagged so the page can set them aside; with the notebook's ``path``, each exercise
    reads as a task (``exercise_pages``), its folded worked answer just below."""
    nb = copy.deepcopy(nb)
    offline_pages.static_outputs(nb)
    if path is not None:
        exercise_pages.task_cards(nb, path)
    nb.metadata["title"] = notebook_title(nb) or nb.metadata.get("title", "")
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = offline_pages.link_notebooks(cell.source, ".html")
            if cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
                cell.metadata["tags"] = [*cell.metadata.get("tags", []), "lecture-notes"]
        elif cell.cell_type == "code":
            cell.source = offline_pages.strip_harness(cell.source)
    return nb


FIGURE = re.compile(r'src="data:image/png;base64,([^"]+)"')


def figures_beside(body: str, folder: Path, stem: str) -> str:
    """The page with each embedded PNG written to ``figures/<stem>/N.png`` beside it, loaded lazily.

    A page then holds its text only (a third of the bytes on the figure-heavy pages), so it is parsed and
    usable sooner, and a figure is fetched as the reader comes near it; its width and height attributes
    keep its place meanwhile.
    """
    figures = folder / "figures" / stem
    shutil.rmtree(figures, ignore_errors=True)
    count = 0

    def write(match: re.Match) -> str:
        nonlocal count
        count += 1
        figures.mkdir(parents=True, exist_ok=True)
        (figures / f"{count}.png").write_bytes(base64.b64decode(match.group(1)))
        return f'loading="lazy" decoding="async" src="figures/{stem}/{count}.png"'

    return FIGURE.sub(write, body)


def bar(pages: list[Page], i: int, language: str = "en", available: tuple[str, ...] = ("en",)) -> str:
    """The bar at the top and bottom of page i: index · previous · next, the language switch, and where
    the reader is."""
    words = WORDS[language]

    def link(j: int, words: str, rel: str) -> str:
        if 0 <= j < len(pages):
            target = pages[j]
            return (f'<a rel="{rel}" href="{html.escape(target.name)}" '
                    f'title="{html.escape(target.title)}">{words}</a>')
        return f'<span class="off">{words}</span>'

    items = [f'<a rel="index" href="index.html">{words["index"]}</a>',
             link(i - 1, words["previous"], "prev"), link(i + 1, words["next"], "next")]
    if available[1:]:
        items.append(offline_pages.language_switch(pages[i].name, language, available))
    # A separator belongs to the item after it, so the bar never ends a line with a "·"; on a phone the
    # language switch takes a line of its own, without one.
    sep = '<span class="sep">·</span>'
    kinds = ["item"] * 3 + ["item switch"]
    return (
        '<header class="site-bar"><nav aria-label="series">'
        + "".join(f'<span class="{kinds[k]}">{sep if k else ""}{item}</span>' for k, item in enumerate(items))
        + f'<span class="here">{html.escape(pages[i].title)}</span>'
        "</nav></header>"
    )


def search_box(language: str) -> str:
    """The search box of a page of `language`: it loads MiniSearch and the language's index on first use
    (tools/site_nav.js) and says the number of results in the page's words."""
    words, root = WORDS[language], offline_pages.root_prefix(language)
    data = {"engine": root + MINISEARCH_URL, "index": INDEX_JS, "none": words["none"], "one": words["one"],
            "many": words["many"], "limit": "10"}
    attributes = " ".join(f'data-{k}="{html.escape(v)}"' for k, v in data.items())
    return (
        f'<div class="site-search" role="search" {attributes}>'
        f'<label class="site-search-label" for="site-search-input">{html.escape(words["search"])}</label>'
        '<input id="site-search-input" type="search" role="combobox" aria-autocomplete="list" '
        'aria-expanded="false" aria-controls="site-search-results" autocomplete="off" spellcheck="false" '
        f'placeholder="{html.escape(words["placeholder"])}">'
        '<div class="site-search-panel"><p class="site-search-status" role="status" aria-live="polite"></p>'
        f'<ul id="site-search-results" role="listbox" aria-label="{html.escape(words["results"])}"></ul>'
        "</div></div>"
    )


def side(pages: list[Page], i: int, outline: site_search.PageOutline, language: str = "en") -> str:
    """Beside page i: the search box, the contents of the series (page i marked as the current one) and the
    outline of page i (its h2/h3 headings and labs). On a narrow screen the contents and the outline fold
    into a <details> (tools/site_nav.js folds it before the page is painted)."""
    words, root = WORDS[language], offline_pages.root_prefix(language)
    items = []
    for j, page in enumerate(pages):
        current = ' aria-current="page"' if j == i else ""
        items.append(f'<li><a href="{html.escape(page.name)}"{current}>'
                     f"{html.escape(site_search.plain_text(page.title))}</a></li>")
    contents = (f'<nav class="site-contents" aria-label="{html.escape(words["series_nav"])}">'
                f'<p class="site-side-title" aria-hidden="true">{html.escape(words["series_nav"])}</p>'
                f'<ol>{"".join(items)}</ol></nav>')
    return (
        f'<div class="site-side mathjax_ignore">{search_box(language)}'
        f'<details class="site-toc" open><summary>{html.escape(words["toggle"])}</summary>'
        f"{contents}{site_search.outline_html(outline, words['lab'], words['lab_join'], words['outline'])}"
        "</details></div>"
        f'<script src="{root}{NAV_URL}"></script>'
    )


def make_exporter():
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter

    return HTMLExporter(
        extra_loaders=[DictLoader({"site.html.j2": TEMPLATE})],
        template_file="site.html.j2",
        embed_images=True,  # Markdown images become data: URIs
        exclude_input_prompt=True,
        exclude_output_prompt=True,
    )


def jupyterlab_css(exporter) -> str:
    """nbconvert's JupyterLab stylesheet and light theme, as its lab template would inline them."""
    for folder in exporter.template_paths:
        static = Path(folder) / "static"
        files = [static / "index.css", static / "theme-light.css"]
        if all(f.exists() for f in files):
            return "\n".join(f.read_text(encoding="utf-8") for f in files)
    raise AssetError("nbconvert's lab template (static/index.css) was not found")


def cjk_head(urls: dict[str, str]) -> str:
    return offline_pages.CJK_HEAD.replace("{{ resources.offline.cjk_font }}", urls["cjk_font"])


def write_index(
    out: Path, pages: list[Page], urls: dict[str, str], language: str = "en", available: tuple = ("en",)
) -> Path:
    from nbconvert.filters import markdown2html

    words = WORDS[language]
    switch = offline_pages.language_switch("index.html", language, available) if len(available) > 1 else ""
    items = [
        f'<li><a class="title" href="{html.escape(p.name)}">{html.escape(p.title)}</a>\n'
        f"{markdown2html(offline_pages.link_notebooks(p.intro, '.html'))}</li>"
        for p in pages
    ]
    index = out / "index.html"
    index.write_text(
        INDEX.format(
            title=html.escape(words["series"]), how=words["how"], items="\n".join(items),
            head=cjk_head(urls), lang=language, root=offline_pages.root_prefix(language),
            languages=switch, search=search_box(language), nav=NAV_URL,
        ),  # fmt: skip
        encoding="utf-8",
    )
    return index


def build(notebooks: list[Path], out: Path, log=print, prune: bool = False) -> list[Path]:
    """Write one `NN_name.html` per notebook, `index.html`, `assets/` and `vendor/` into out.

    Returns the notebook pages. With prune, pages in out whose notebook is not in the list are deleted.
    """
    offline_pages.install("make site", log)
    out.mkdir(parents=True, exist_ok=True)
    offline_pages.copy(PACKAGES, out)
    exporter = make_exporter()
    assets = out / "assets"
    assets.mkdir(exist_ok=True)
    (assets / "jupyterlab.css").write_text(jupyterlab_css(exporter), encoding="utf-8")
    css = SITE_CSS + offline_pages.READABLE_CSS + exercise_pages.CSS
    (assets / "site.css").write_text(css, encoding="utf-8")
    (assets / Path(NAV_URL).name).write_text(NAV_JS.read_text(encoding="utf-8"), encoding="utf-8")

    written = []
    fonts = {}  # every page and index, with the URL of MathJax's fonts from where it lies
    groups = offline_pages.editions(notebooks)
    available = tuple(groups)
    for language, paths in groups.items():
        pages = build_edition(paths, out, exporter, language, available, log, prune)
        written += pages
        for page in [*pages, offline_pages.edition_folder(out, language) / "index.html"]:
            fonts[page] = offline_pages.root_prefix(language) + offline_pages.MATHJAX_FONTS
    log(f"typeset {offline_pages.typeset(fonts)} formulas")
    return written


def build_edition(paths, out, exporter, language, available, log=print, prune=False) -> list[Path]:
    """The pages and index of one language, in its folder of out."""
    import nbformat

    folder = offline_pages.edition_folder(out, language)
    folder.mkdir(parents=True, exist_ok=True)
    root = offline_pages.root_prefix(language)
    urls = {"cjk_font": root + offline_pages.CJK_URL}
    books = [nbformat.read(path, as_version=4) for path in paths]
    pages = [Page(p, notebook_title(nb) or p.stem, first_paragraph(nb))
             for p, nb in zip(paths, books, strict=True)]
    bodies = []
    for i, (page, nb) in enumerate(zip(pages, books, strict=True)):
        resources = {
            "metadata": {"name": page.path.stem, "path": str(page.path.parent)},
            "offline": urls,
            "site": {"bar": bar(pages, i, language, available), "root": root, "words": WORDS[language]},
        }
        body, _ = exporter.from_notebook_node(for_site(nb, page.path), resources=resources)
        bodies.append(offline_pages.with_language(body, language))
    # The outline of a page and the search index of the series are read from the pages as written, so
    # every anchor is the id nbconvert gave its heading.
    outlines = [site_search.read_page(body) for body in bodies]
    written = []
    for i, (page, body) in enumerate(zip(pages, bodies, strict=True)):
        target = folder / page.name
        body = body.replace(SIDE, side(pages, i, outlines[i], language), 1)
        target.write_text(figures_beside(body, folder, target.stem), encoding="utf-8")
        written.append(target)
        log(f"wrote {target}")
    documents = site_search.index_documents(
        [(p.name, p.title, o) for p, o in zip(pages, outlines, strict=True)])
    (folder / INDEX_JS).write_text(site_search.index_script(language, documents), encoding="utf-8")
    if prune:
        for stale in {p for p in folder.glob("[0-9][0-9]_*.html")} - set(written):
            stale.unlink()
            shutil.rmtree(folder / "figures" / stale.stem, ignore_errors=True)
            log(f"removed {stale}")
    write_index(folder, pages, urls, language, available)
    return written


def main(argv: list[str] | None = None) -> int:
    def summary(pages: list[Path], out: Path, seconds: float) -> str:
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        return (f"{len(pages)} pages in {seconds:.1f} s; the site is {size / 1e6:.1f} MB. "
                f"Open {out / 'index.html'} in a browser.")

    return offline_pages.command_line(__doc__, ROOT / "build" / "site", build, summary, argv)


if __name__ == "__main__":
    sys.exit(main())
