"""Write a website of the series that works from disk or from any static web host, with no Python.

    python -m tools.build_site [--out build/site] [NOTEBOOK ...]     (or: make site)

One page per notebook, `NN_name.html`, made by nbconvert from the outputs stored in the notebook (nothing
is re-run), and `index.html`, the table of contents: each notebook's title and first paragraph. The Chinese
editions (`notebooks/zh-Hans/`, `notebooks/zh-Hant/`) get the same pages in `<out>/zh-Hans/` and
`<out>/zh-Hant/`, and the bar of every page switches to the same page in another language.

- Every lab works in the page: it is drawn from the state the notebook stored, by the same ES module as in
  JupyterLab (`offline_pages.static_outputs`, shared with the offline slides), and so is every quiz.
- Every exercise is an editor card (`exercise_pages.practice_cards`, attnlib/page/practice.js): the learner
  writes the code in the page and Check runs it, with the notebook's checker, in the page's own Python (a
  Web Worker running Pyodide, from `<out>/py/`, written by `page_python`); its task card is folded under
  it and its worked answer folded away below. A scratch cell ends every notebook's page.
- Every page has the contents of the series and an outline of its own sections beside it, and a search
  box over the whole series in its language (`site_search`, MiniSearch).
- The learner's work (each exercise's code and pass, each quiz question's first answer) is kept in their
  browser (localStorage, attnlib/page/kit.js); the contents, on every page and the index, mark each
  notebook's exercises passed and quiz done from it (`Page.progress`, tools/site_nav.js), beside a button
  that forgets it all.
- A notebook becomes its page through nbconvert: the preprocessors both builders share
  (`offline_pages.preparation`) and the site's own (`site_steps`), then the page template
  (`tools/templates/site.html.j2`), which writes the bar, the contents, the outline and the search
  (`chrome.html.j2`) from `resources["site"]`.
- The glossary, the lecturer's guide and the sources are pages of each edition too (`reference_pages`:
  Markdown of docs/ converted as a notebook), listed under "Reference" after the notebooks, and in the
  search; where the prose names one of their files (`docs/sources.md`), the page links it.
- How a page is viewed (`tools/site_view.js`, `tools/templates/site_view.css`): in the reader's dark mode
  (labs, quizzes and figures on light cards), printed (the lesson only, labs as drawn, links spelled out),
  every figure opened full size by a click or Enter, and the lecturer's notes (slide type `notes`) under
  their label with a toggle that folds them all, remembered.
- A part off the main line (cells tagged `going-further`) is one tinted block, labelled at its top as one
  to skip on a first reading (`GoingFurtherBlocks`, the page template); the outline marks its entries.
- Formulas are typeset by MathJax 3.2.2 when the site is built (`offline_pages.typeset`, in Node), so a
  page runs no math JavaScript; figures are PNG files beside the page (`figures/<page>/`: nbconvert's
  ExtractOutputPreprocessor and FilesWriter), fetched as the reader comes near them; links between
  notebooks lead to the pages, and a bar at the top of every page
  links to the index and the previous and next page.
- Nothing is loaded from outside the folder: MathJax and MiniSearch are installed once by `npm ci` into
  `node_modules/` (tools/npm.py, as for `make slides`; npm checks them against package-lock.json), and the
  few files a page uses (MathJax's fonts, the search) copied to `<out>/vendor/` with their licences, beside
  the CJK fonts that attnlib bundles (SIL OFL 1.1): Noto Sans SC for the English and 简体 pages, Noto Sans TC
  for the 繁體 ones, regular and bold.
  The page style is nbconvert's JupyterLab stylesheet (BSD-3-Clause) and the site's (`tools/templates/`):
  each page carries, inline, only the rules it uses (`PageCss`), so its first paint needs no other file;
  the index links `assets/site.css`.
- Python for the pages (`page_python.write_runtime`): Pyodide from npm, numpy's wheel from tools/vendor/
  (its SHA-256 checked against Pyodide's lock), the parts of attnlib a check needs, the worker and the
  editor bundle, in `<out>/py/` and `<out>/assets/`; and `<out>/sw.js` (`offline_site`), the service
  worker that keeps the runtime and the visited pages so that, served over http, they work offline.
"""

from __future__ import annotations

import json
import re
import shutil
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import ExtractOutputPreprocessor, Preprocessor

from attnlib.i18n import LANGUAGES, N_, translated

from . import offline_pages, offline_site, page_python, reference_pages, site_search
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
VIEW_JS = Path(__file__).with_name("site_view.js")  # the page code of the notes' toggle and figures full size
VIEW_URL = "assets/site-view.js"
INDEX_JS = "search-index.js"  # one per language, beside its pages
# The words of the site, in English; in other languages they come from the locale catalogues (English →
# 简体 in attnlib/locale/zh-Hans/publishing.json, and 繁體 generated from it by tools/translate/).
TEXTS = {
    "series": N_("Attention, one idea at a time"),
    "how": N_("Read the notebooks in order: each page is a notebook as it ran, code, outputs and figures. "
              "The labs work right in the page: drag a slider, or click a control and use the arrow keys. "
              "To run and change the code yourself, open the notebooks in JupyterLab "
              "(<code>make lab</code>)."),
    "index": N_("index"), "previous": N_("← previous"), "next": N_("next →"), "code": N_("Show the code"),
    "lecturer": N_("For the lecturer"), "notes_hide": N_("Hide lecture notes"),
    "notes_show": N_("Show lecture notes"), "close": N_("Close"),
    "zoom": N_("Click, or press Enter, to see the figure full size"), "skip": N_("Skip to content"),
    "series_nav": N_("The series"),
    "outline": N_("On this page"), "toggle": N_("Contents and outline"), "lab": N_("Lab: {what}"),
    "lab_join": N_(", "), "search": N_("Search the series"),
    "placeholder": N_("Search: softmax, mask, d_k…"), "results": N_("Search results"),
    "none": N_("No results"), "one": N_("1 result"), "many": N_("{n} results"),
    "further": N_("Going further"), "further_note": N_("optional"),
    "elsewhere": N_("Found in another edition:"),
    "keys_title": N_("Keyboard shortcuts"), "key_search": N_("go to the search box"),
    "key_help": N_("show this list"), "key_close": N_("close this list"), "key_previous": N_("previous page"),
    "key_next": N_("next page"), "key_button": N_("Close"),
    "key_where": N_("The arrow keys turn the page only when the focus is not in a field, a control "
                    "or a lab."),
    "reference": N_("Reference"), "english_note": N_("This page is written in English."),
    "glossary_note": N_("This page is written in English; its table gives each term in both Chinese "
                        "editions."),
    "glossary_what": N_("Every term of the series with its one rendering in 简体 and in 繁體."),
    "lecturers_guide_what": N_("A plan of lectures, how to present the notebooks as slides, and advice for "
                               "learners working alone."),
    "sources_what": N_("Every claim of the two articles the series grew from, right, imprecise or wrong, "
                       "and the section that shows it."),
    "progress_exercises": N_("{n} of {total} exercises passed"), "progress_quiz": N_("quiz done"),
    "progress_kept": N_("Your code, the exercises you passed and your quiz answers are kept in this browser "
                        "only: nothing leaves your computer."),
    "forget": N_("Forget my work"), "forget_again": N_("Press again to forget your code, passes and answers"),
    "forgotten": N_("Forgotten: this browser keeps nothing of your work now."),
}  # fmt: skip
WORDS = {language: translated(TEXTS, language) for language in LANGUAGES}

# The page template (nbconvert's JupyterLab one around the cells), the markup of the bar, the contents,
# the outline and the search (chrome.html.j2), the index and the stylesheets of the site are files in
# tools/templates/.
TEMPLATE = "site.html.j2"
INDEX = "site_index.html.j2"
# after JupyterLab's, in order
STYLESHEETS = ("site.css", "readable.css", "exercise.css", "site_view.css", "practice.css")


@dataclass(frozen=True)
class Page:
    """A notebook of the series, or a reference page (``stem``: its name), and its page."""

    path: Path
    title: str
    intro: str  # the first paragraph after the title, Markdown
    stem: str = ""  # the page's name without .html where it is not the notebook's (a reference page)
    exercises: tuple[str, ...] = ()  # the ids of its exercises (exercise_ids)

    @property
    def name(self) -> str:
        return f"{self.stem or self.path.stem}.html"

    @property
    def progress(self) -> dict[str, str]:
        """What the contents mark the learner's work by (tools/site_nav.js, from the browser's store): the
        notebook's two digits (its quiz's key) and its exercises' ids, space-separated; empty for a
        reference page."""
        number = self.path.stem[:2]
        if self.stem or not number.isdigit():
            return {}
        return {"notebook": number, "exercises": " ".join(self.exercises)}


def exercise_ids(nb, path: Path) -> list[str]:
    """The ids under which the page keeps the learner's work on each exercise of notebook ``nb`` (read from
    ``path``): ``"<stem>/<name>"``, as the exercise's card names it (``attnlib.page.practice``: the function
    the learner writes, ``my_softmax``, or the puzzle's first matrix, ``W_q_green``), one per exercise cell
    that ``exercise_pages`` recognises."""
    from attnlib.page.practice import exercise_name

    from . import exercise_pages

    cells = exercise_pages.exercise_cells(nb, path)
    return [f"{path.stem}/{exercise_name(cell.source)[0]}" for cell, _ in cells]


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


# ---- the notebook as its page shows it: nbconvert preprocessors -----------------------------------------
class LectureNotes(Preprocessor):
    """Lecturer notes (slide type ``notes``, whatever their tags) tagged ``lecture-notes``, so the page sets
    them aside under its own label (the word ``lecturer``) and a toggle; a first line that is that label in
    bold (the notebook's own, ``**For the lecturer.**``) is left out, so the page does not say it twice."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown" and cell.metadata.get("slideshow", {}).get("slide_type") == "notes":
            tags = cell.metadata.get("tags", [])
            if "lecture-notes" not in tags:
                cell.metadata["tags"] = [*tags, "lecture-notes"]
            label = WORDS[offline_pages.page_language(resources)]["lecturer"]
            cell.source = without_label(cell.source, label)
        return cell, resources


BOLD_LINE = re.compile(r"\*\*(.+?)\*\*[.:。：]?[ \t]*(?:\n|$)")


def without_label(source: str, label: str) -> str:
    """``source`` without its first line if that line is ``label`` in bold (a full stop or colon after it,
    inside or outside the bold, allowed)."""
    found = BOLD_LINE.match(source.lstrip())
    if found and found.group(1).rstrip(".:。：").strip().casefold() == label.casefold():
        return source.lstrip()[found.end():]
    return source


class GoingFurtherBlocks(Preprocessor):
    """The first cell of each going-further part marked with its number (1, 2, ...) and its last cell as the
    end: the page template wraps the part in one block, labelled as off the main line."""

    def preprocess(self, nb, resources):
        mark_going_further(nb.cells)
        return nb, resources


def mark_going_further(cells) -> None:
    """Mark, in place, the first and last cell of each going-further part (``going_further_start``: its
    number, ``going_further_end``)."""
    for number, run in enumerate(offline_pages.going_further_runs(cells), start=1):
        cells[run.start].metadata["going_further_start"] = number
        cells[run[-1]].metadata["going_further_end"] = True


class PracticeCards(Preprocessor):
    """Each exercise as an editor card, its task folded under it, and a scratch cell before the navigation
    (``exercise_pages.practice_cards``), for a named notebook."""

    def preprocess(self, nb, resources):
        from . import exercise_pages

        path = offline_pages.notebook_path(resources)
        if path is not None:
            exercise_pages.practice_cards(nb, path)
        return nb, resources


def site_steps() -> list[Preprocessor]:
    """The preparation pages and decks share (``offline_pages.preparation``), then the site's own steps:
    exercises as editor cards and a scratch cell, lecturer notes set aside, going-further blocks, mentions of
    the reference files linked to their pages."""
    return [*offline_pages.preparation(".html"), PracticeCards(), LectureNotes(), GoingFurtherBlocks(),
            reference_pages.DocumentLinks()]


def for_site(nb, path: Path | None = None):
    """A copy of the notebook as its page shows it (``site_steps``): labs live, links to pages, no harness
    comments, lecturer notes tagged so the page can set them aside; with the notebook's ``path``, each
    exercise reads as a task (``exercise_pages``), its folded worked answer just below."""
    return offline_pages.prepare(nb, site_steps(), path)


def figures() -> Preprocessor:
    """nbconvert's own extraction of the PNG outputs: each becomes a file beside the page, in the folder
    ``resources["output_files_dir"]`` (``figures/<page>/<cell>_<output>.png``), which the page fetches as
    the reader comes near it. A page then holds its text only (a third of the bytes on the figure-heavy
    pages), so it is parsed and usable sooner."""
    return ExtractOutputPreprocessor(extract_output_types={"image/png"},
                                     output_filename_template="{cell_index}_{index}{extension}")


def outline_items(page_html: str, lab_word: str, lab_join: str) -> list[dict[str, Any]]:
    """The outline of a page (its h2 and h3 headings and its labs, in page order) as the side of the page
    template lists it: ``{"css_class", "anchor", "text", "lab"}``; an entry in a going-further part is
    marked (class ``going-further``)."""
    items = []
    for kind, item in site_search.read_page(page_html).items:
        if kind == "heading" and item.level in (2, 3):
            css_class, text = f"level-{item.level}", item.heading
        elif kind == "lab":
            css_class, text = "lab", site_search.lab_label(item, lab_word, lab_join)
        else:
            continue
        items.append({"css_class": css_class + (" going-further" if item.further else ""),
                      "anchor": item.anchor, "text": text, "lab": kind == "lab"})
    return items


def site_resources(pages: list[Page], i: int, language: str, available: tuple[str, ...],
                   references: list[Page] = ()) -> dict[str, Any]:
    """What the page template needs to write the bar, the contents, the outline and the search of page i
    of the notebooks ``pages`` then the ``references``: ``current`` is i for a notebook's page (the bar's
    previous and next), None for a reference page; ``here`` is the page itself."""
    root = offline_pages.root_prefix(language)
    here = [*pages, *references][i]

    def listed(group):
        return [{"name": p.name, "title": p.title, "plain_title": site_search.plain_text(p.title),
                 "progress": p.progress} for p in group]

    return {
        "language": language, "root": root, "words": WORDS[language], "nav": NAV_URL, "view": VIEW_URL,
        "current": i if i < len(pages) else None, "here": {"name": here.name, "title": here.title},
        "pages": listed(pages), "references": listed(references),
        "languages": offline_pages.language_links(here.name, language, available),
        "search": search_data(language, available, here.name),
        "figure_alt": offline_pages.figure_alt(language),
    }


def search_data(language: str, available: Iterable[str] = (), name: str = "index.html") -> dict[str, str]:
    """The data-* attributes of the search box of the page `name` of `language`: where MiniSearch and the
    language's index are (tools/site_nav.js loads them on first use), the words of its results, the other
    editions built (``editions``: [language, its name, its index, this page in it], asked when this one
    finds little) and the words of the list of keys (``keys``)."""
    words = WORDS[language]
    there = offline_pages.sibling_href
    editions = [[lang, offline_pages.LANGUAGE_NAMES[lang], there(INDEX_JS, language, lang),
                 there(name, language, lang)] for lang in LANGUAGES if lang in available and lang != language]
    keys = {key: words[f"key_{key}"]
            for key in ("search", "help", "close", "previous", "next", "button", "where")}
    keys["title"] = words["keys_title"]
    return {"engine": offline_pages.root_prefix(language) + MINISEARCH_URL, "index": INDEX_JS,
            "none": words["none"], "one": words["one"], "many": words["many"],
            "elsewhere": words["elsewhere"],
            "editions": json.dumps(editions, ensure_ascii=False),
            "keys": json.dumps(keys, ensure_ascii=False)}


def make_exporter():
    """nbconvert's HTML exporter with the site's template and preprocessors (``site_steps`` and ``figures``),
    and the filters the template uses: ``outline_items``, and ``page_css`` (the rules of JupyterLab's and the
    site's stylesheets a page uses, ``PageCss``)."""
    from jinja2 import FileSystemLoader
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(
        extra_loaders=[FileSystemLoader(offline_pages.TEMPLATES)],
        template_file=TEMPLATE,
        embed_images=True,  # Markdown images become data: URIs
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        preprocessors=[*site_steps(), figures()],
    )
    css = PageCss(jupyterlab_css(exporter) + "\n" + offline_pages.stylesheet(*STYLESHEETS),
                  [NAV_JS.read_text(encoding="utf-8"), VIEW_JS.read_text(encoding="utf-8")])  # the site's
    # scripts may add their classes
    exporter.register_filter("outline_items", outline_items)
    exporter.register_filter("page_css", css.for_page)
    return exporter


def jupyterlab_css(exporter) -> str:
    """nbconvert's JupyterLab stylesheet and light theme, as its lab template would inline them."""
    for folder in exporter.template_paths:
        static = Path(folder) / "static"
        files = [static / "index.css", static / "theme-light.css"]
        if all(f.exists() for f in files):
            return "\n".join(f.read_text(encoding="utf-8") for f in files)
    raise AssetError("nbconvert's lab template (static/index.css) was not found")


# ---- the stylesheet of a page: only the rules it uses, inlined ------------------------------------------
# nbconvert's JupyterLab stylesheet is ~250 kB, nearly all for JupyterLab's own interface; a page uses a few
# percent of it. Parsing it before the first paint cost a phone (CPU ×4) about 0.4 s.
FUNCTIONAL = re.compile(r":[\w-]+\([^()]*\)")  # :not(.x), :is(h1, h2), :nth-child(2n) (innermost first)
SIMPLE = re.compile(r"([.#]?)(-?[_a-zA-Z][\w-]*)")  # a class, an id or an element's name
WORD = re.compile(r"-?[_a-zA-Z][\w-]*")
CUSTOM = re.compile(r"--[\w-]+")


def split_selectors(prelude: str) -> list[str]:
    """The selectors of a rule's prelude: split at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for k, char in enumerate(prelude):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(prelude[start:k])
            start = k + 1
    return [part.strip() for part in [*parts, prelude[start:]] if part.strip()]


def selector_used(selector: str, names: set[str]) -> bool:
    """Whether every class, id and element name ``selector`` requires is in ``names``. What the page's state
    decides (attributes, :hover, :not(...), :is(...)) is kept as if met; MathJax's elements (``mjx-*``),
    written when the formulas are typeset, always are."""
    while FUNCTIONAL.search(selector):
        selector = FUNCTIONAL.sub(" ", selector)
    selector = re.sub(r"\[[^\]]*\]|::?[\w-]+", " ", selector)
    for prefix, name in SIMPLE.findall(selector):
        wanted = name if prefix else name.lower()
        if wanted not in names and not (not prefix and wanted.startswith("mjx-")):
            return False
    return True


class _Markup(HTMLParser):
    """The element names, classes and ids of a page, and every word of its scripts and styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.names: set[str] = set()
        self.code = False

    def handle_starttag(self, tag, attrs):
        self.names.add(tag)
        for key, value in attrs:
            if key in ("class", "id") and value:
                self.names.update(value.split())
            elif key == "style" and value:
                self.names.update(CUSTOM.findall(value))
        self.code = tag in ("script", "style")

    def handle_endtag(self, tag):
        self.code = False

    def handle_data(self, data):
        if self.code:  # a script may add any of its words as a class or an element; a style names properties
            self.names.update(WORD.findall(data))


def page_names(page_html: str, scripts: Iterable[str] = ()) -> set[str]:
    """What a page may use of a stylesheet: its element names, classes and ids, and every word of its
    scripts (inline, and ``scripts`` it loads), which may add classes and elements when the page runs."""
    reader = _Markup()
    reader.feed(page_html)
    reader.close()
    for script in scripts:
        reader.names.update(WORD.findall(script))
    return reader.names


class PageCss:
    """A stylesheet cut to what one page uses (``for_page``: the Jinja filter ``page_css``).

    A rule is kept when one of its selectors can match (``selector_used``), in the stylesheet's order, inside
    its @media or @supports; @font-face, @keyframes and @page are kept whole. A custom property is kept
    when a kept declaration, or the page itself, refers to it (through other custom properties too).
    """

    def __init__(self, css: str, scripts: Iterable[str] = ()) -> None:
        import tinycss2

        if not isinstance(css, str):
            raise TypeError(f"css must be the text of a stylesheet (str), got {type(css).__name__}")
        self.rules = tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True)
        self.scripts = tuple(scripts)

    def for_page(self, page_html: str, extra: Iterable[str] = ()) -> str:
        """The rules of ``extra`` stylesheets (nbconvert's inlined ones: Pygments' colours) and of this one
        that the page ``page_html`` uses, as one stylesheet."""
        import tinycss2

        names = page_names(str(page_html), self.scripts)
        rules = [r for css in extra for r in tinycss2.parse_stylesheet(str(css), True, True)] + self.rules
        kept = _kept_rules(rules, names)
        wanted = set(n for n in names if n.startswith("--"))
        defined: dict[str, list[str]] = {}
        for _, declarations in _style_rules(kept):
            for d in declarations:
                value = tinycss2.serialize(d.value)
                if d.name.startswith("--"):
                    defined.setdefault(d.name, []).append(value)
                else:
                    wanted.update(CUSTOM.findall(value))
        todo = list(wanted)
        while todo:
            for value in defined.get(todo.pop(), []):
                new = set(CUSTOM.findall(value)) - wanted
                wanted |= new
                todo += new
        return _serialize(kept, wanted)


def _declarations(rule) -> list:
    import tinycss2

    return [d for d in tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True)
            if d.type == "declaration"]


def _kept_rules(rules, names: set[str]) -> list:
    """(kind, prelude, content) of the rules used: a style rule's prelude is its kept selectors; an @media
    or @supports holds its kept rules; any other at-rule is kept whole."""
    import tinycss2

    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            selectors = split_selectors(tinycss2.serialize(rule.prelude))
            selectors = [s for s in selectors if selector_used(s, names)]
            if selectors:
                kept.append(("style", ",".join(selectors), _declarations(rule)))
        elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports") and rule.content:
            inner = _kept_rules(tinycss2.parse_rule_list(rule.content, True, True), names)
            if inner:
                kept.append(("group", f"@{rule.at_keyword}{tinycss2.serialize(rule.prelude)}", inner))
        elif rule.type == "at-rule":
            kept.append(("whole", rule.serialize(), None))
    return kept


def _style_rules(kept):
    for kind, prelude, content in kept:
        if kind == "style":
            yield prelude, content
        elif kind == "group":
            yield from _style_rules(content)


def _serialize(kept, custom: set[str]) -> str:
    import tinycss2

    out = []
    for kind, prelude, content in kept:
        if kind == "whole":
            out.append(prelude)
        elif kind == "group":
            inner = _serialize(content, custom)
            if inner:
                out.append(f"{prelude.strip()}{{\n{inner}\n}}")
        else:
            body = ";".join(f"{d.name}:{tinycss2.serialize(d.value).strip()}" + ("!important" * d.important)
                            for d in content if not d.name.startswith("--") or d.name in custom)
            if body:
                out.append(f"{prelude}{{{body}}}")
    return "\n".join(out)


def write_index(
    out: Path, pages: list[Page], urls: dict[str, str], language: str = "en", available: tuple = ("en",),
    references: list[Page] = (),
) -> Path:
    """``index.html`` of one language: each page's title and first paragraph (Markdown), then the same for
    the ``references`` under their heading, the search box and the language switch (site_index.html.j2)."""
    from nbconvert.filters import markdown2html

    def entries(group):
        names = [r.stem for r in references]
        return [{"name": p.name, "title": p.title, "progress": p.progress, "intro": markdown2html(
            reference_pages.link_documents(offline_pages.link_notebooks(p.intro, ".html"), names))}
            for p in group]

    words = WORDS[language]
    index = out / "index.html"
    index.write_text(
        offline_pages.render(
            INDEX, words=words, pages=entries(pages), references=entries(references),
            resources={"offline": urls}, lang=language,
            root=offline_pages.root_prefix(language), search=search_data(language, available), nav=NAV_URL,
            languages=offline_pages.language_links("index.html", language, available),
        ),  # fmt: skip
        encoding="utf-8",
    )
    return index


def build(notebooks: list[Path], out: Path, log=print, prune: bool = False,
          references: Iterable[reference_pages.Reference] = ()) -> list[Path]:
    """Write one `NN_name.html` per notebook, a page per reference (``reference_pages.REFERENCES`` is the
    glossary, the lecturer's guide and the sources, as `make site` writes them), `index.html`, `assets/` and
    `vendor/` into out.

    Returns the pages. With prune, pages in out whose notebook is not in the list are deleted.
    """
    offline_pages.install("make site", log)
    out.mkdir(parents=True, exist_ok=True)
    offline_pages.copy(PACKAGES, out)
    manifest = page_python.write_runtime(out, log)  # py/: Python for the exercises; assets/editor.js
    offline_site.write_service_worker(out, manifest)  # sw.js: pages and Python offline after one visit
    exporter = make_exporter()
    assets = out / "assets"
    assets.mkdir(exist_ok=True)
    (assets / "site.css").write_text(offline_pages.stylesheet(*STYLESHEETS), encoding="utf-8")  # the index's
    for script, url in ((NAV_JS, NAV_URL), (VIEW_JS, VIEW_URL)):
        (assets / Path(url).name).write_text(script.read_text(encoding="utf-8"), encoding="utf-8")

    written = []
    fonts = {}  # every page and index, with the URL of MathJax's fonts from where it lies
    groups = offline_pages.editions(notebooks)
    available = tuple(groups)
    for language, paths in groups.items():
        pages = build_edition(paths, out, exporter, language, available, log, prune, tuple(references))
        written += pages
        for page in [*pages, offline_pages.edition_folder(out, language) / "index.html"]:
            fonts[page] = offline_pages.root_prefix(language) + offline_pages.MATHJAX_FONTS
    log(f"typeset {offline_pages.typeset(fonts)} formulas")
    return written


def build_edition(paths, out, exporter, language, available, log=print, prune=False,
                  references=()) -> list[Path]:
    """The pages, reference pages and index of one language, in its folder of out: each page and its figures
    written by nbconvert's FilesWriter. A reference page is converted as a notebook of the edition's folder
    (its language), named after the reference."""
    import nbformat
    from nbconvert.writers import FilesWriter

    folder = offline_pages.edition_folder(out, language)
    folder.mkdir(parents=True, exist_ok=True)
    writer = FilesWriter(build_directory=str(folder))
    urls = offline_pages.cjk_urls(language, offline_pages.root_prefix(language))  # TC for zh-Hant, else SC
    books = [nbformat.read(path, as_version=4) for path in paths]
    pages = [Page(p, notebook_title(nb) or p.stem, first_paragraph(nb),
                  exercises=tuple(exercise_ids(nb, p)))
             for p, nb in zip(paths, books, strict=True)]
    folder_of_notebooks = paths[0].parent
    refs = [reference_pages.notebook(r, language, WORDS[language]) for r in references]
    listed = [Page(folder_of_notebooks / f"{r.name}.ipynb", notebook_title(nb) or r.name,
                   WORDS[language][r.summary], stem=r.name) for r, nb in zip(references, refs, strict=True)]
    written, outlines = [], []
    for i, (page, nb) in enumerate(zip([*pages, *listed], [*books, *refs], strict=True)):
        stem = page.path.stem
        resources = {
            "metadata": {"name": stem, "path": str(page.path.parent)},
            "offline": urls,
            "output_files_dir": f"figures/{stem}",
            "site": site_resources(pages, i, language, available, listed),
        }
        body, resources = exporter.from_notebook_node(nb, resources=resources)
        shutil.rmtree(folder / "figures" / stem, ignore_errors=True)
        target = Path(writer.write(body, resources, notebook_name=stem))
        # The search index is read from the pages as written, so every anchor is the id nbconvert gave
        # its heading.
        outlines.append(site_search.read_page(body))
        written.append(target)
        log(f"wrote {target}")
    documents = site_search.index_documents(
        [(p.name, p.title, o) for p, o in zip([*pages, *listed], outlines, strict=True)])
    (folder / INDEX_JS).write_text(site_search.index_script(language, documents), encoding="utf-8")
    if prune:
        for stale in {p for p in folder.glob("[0-9][0-9]_*.html")} - set(written):
            stale.unlink()
            shutil.rmtree(folder / "figures" / stale.stem, ignore_errors=True)
            log(f"removed {stale}")
    write_index(folder, pages, urls, language, available, listed)
    return written


def main(argv: list[str] | None = None) -> int:
    def summary(pages: list[Path], out: Path, seconds: float) -> str:
        size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
        return (f"{len(pages)} pages in {seconds:.1f} s; the site is {size / 1e6:.1f} MB. "
                f"Open {out / 'index.html'} in a browser.")

    def build_all(notebooks: list[Path], out: Path, prune: bool = False) -> list[Path]:
        return build(notebooks, out, prune=prune, references=reference_pages.REFERENCES)

    return offline_pages.command_line(__doc__, ROOT / "build" / "site", build_all, summary, argv)


if __name__ == "__main__":
    sys.exit(main())
