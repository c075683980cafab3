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
- A part off the main line (cells tagged `going-further`) is one tinted block, labelled at its top as one
  to skip on a first reading (`mark_going_further`, the page template); the outline marks its entries.
- Formulas are typeset by MathJax 3.2.2 when the site is built (`offline_pages.typeset`, in Node), so a
  page runs no math JavaScript; figures are PNG files beside the page (`figures/<page>/`), fetched as the
  reader comes near them; links between notebooks lead to the pages, and a bar at the top of every page
  links to the index and the previous and next page.
- Nothing is loaded from outside the folder: MathJax and MiniSearch are installed once by `npm ci` into
  `node_modules/` (tools/npm.py, as for `make slides`; npm checks them against package-lock.json), and the
  few files a page uses (MathJax's fonts, the search) copied to `<out>/vendor/` with their licences, beside
  the CJK fonts that attnlib bundles (SIL OFL 1.1): Noto Sans SC for the English and 简体 pages, Noto Sans TC
  for the 繁體 ones, regular and bold.
  The page style is nbconvert's JupyterLab stylesheet (BSD-3-Clause, written once to `assets/`) and
  `assets/site.css`; it, the page template and the index are files in `tools/templates/`.
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

from attnlib.i18n import LANGUAGES, N_, translated

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
# The words of the site, in English; in other languages they come from the locale catalogues (English →
# 简体 in attnlib/locale/zh-Hans/publishing.json, and 繁體 generated from it by tools/translate.py).
TEXTS = {
    "series": N_("Attention, one idea at a time"),
    "how": N_("Read the notebooks in order: each page is a notebook as it ran, code, outputs and figures. "
              "The labs work right in the page: drag a slider, or click a control and use the arrow keys. "
              "To run and change the code yourself, open the notebooks in JupyterLab "
              "(<code>make lab</code>)."),
    "index": N_("index"), "previous": N_("← previous"), "next": N_("next →"), "code": N_("Show the code"),
    "lecture": N_("In a lecture"), "skip": N_("Skip to content"), "series_nav": N_("The series"),
    "outline": N_("On this page"), "toggle": N_("Contents and outline"), "lab": N_("Lab: {what}"),
    "lab_join": N_(", "), "search": N_("Search the series"),
    "placeholder": N_("Search: softmax, mask, d_k…"), "results": N_("Search results"),
    "none": N_("No results"), "one": N_("1 result"), "many": N_("{n} results"),
    "further": N_("Going further"), "further_note": N_("optional"),
}  # fmt: skip
WORDS = {language: translated(TEXTS, language) for language in LANGUAGES}

# The page template (nbconvert's JupyterLab one, trimmed), the index and the stylesheet of the site are
# files in tools/templates/; the template leaves the marker SIDE where the contents, outline and search go.
TEMPLATE = "site.html.j2"
INDEX = "site_index.html.j2"
STYLESHEETS = ("site.css", "readable.css", "exercise.css")  # assets/site.css, in this order



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
    offline_pages.static_outputs(nb, "en" if path is None else offline_pages.edition_of(path))
    if path is not None:
        exercise_pages.task_cards(nb, path)
    nb.metadata["title"] = notebook_title(nb) or nb.metadata.get("title", "")
    mark_going_further(nb.cells)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            cell.source = offline_pages.link_notebooks(cell.source, ".html")
            if cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
                cell.metadata["tags"] = [*cell.metadata.get("tags", []), "lecture-notes"]
        elif cell.cell_type == "code":
            cell.source = offline_pages.strip_harness(cell.source)
    return nb


def mark_going_further(cells) -> None:
    """Mark, in place, the first cell of each going-further part with its number (1, 2, ...) and its last
    cell as the end: the page template wraps the part in one block, labelled as off the main line."""
    for number, run in enumerate(offline_pages.going_further_runs(cells), start=1):
        cells[run.start].metadata["going_further_start"] = number
        cells[run[-1]].metadata["going_further_end"] = True


# A going-further part of a page as the template writes it (the comment closes it, whatever it holds;
# nbconvert writes the attributes of an element in its own order).
GOING_FURTHER_PART = re.compile(r'<section\b[^>]*\bclass="going-further".*?<!-- /going-further -->', re.S)
OUTLINE_ENTRY = re.compile(r'<li class="([^"]*)"><a href="#([^"]*)"')


def mark_outline(side_html: str, body: str) -> str:
    """The side of a page with each outline entry that leads into a going-further part marked
    (class ``going-further``), so the outline shows which sections are off the main line."""
    inside = {html.unescape(anchor) for part in GOING_FURTHER_PART.findall(body)
              for anchor in re.findall(r'\bid="([^"]+)"', part)}
    if not inside:
        return side_html

    def mark(match: re.Match) -> str:
        classes, anchor = match.groups()
        if html.unescape(anchor) in inside:
            classes += " going-further"
        return f'<li class="{classes}"><a href="#{anchor}"'

    return OUTLINE_ENTRY.sub(mark, side_html)


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
        f'<header class="site-bar"><nav aria-label="{html.escape(words["series_nav"])}">'
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
    from jinja2 import FileSystemLoader
    from nbconvert import HTMLExporter

    return HTMLExporter(
        extra_loaders=[FileSystemLoader(offline_pages.TEMPLATES)],
        template_file=TEMPLATE,
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
        offline_pages.render(
            INDEX, title=html.escape(words["series"]), how=words["how"], items="\n".join(items),
            resources={"offline": urls}, lang=language, root=offline_pages.root_prefix(language),
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
    (assets / "site.css").write_text(offline_pages.stylesheet(*STYLESHEETS), encoding="utf-8")
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
    urls = offline_pages.cjk_urls(language, root)  # Traditional shapes for zh-Hant, Simplified otherwise
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
        body = body.replace(SIDE, mark_outline(side(pages, i, outlines[i], language), body), 1)
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
