"""Write reveal.js slides of every notebook that work with no network at all.

    python -m tools.build_slides [--out build/slides] [NOTEBOOK ...]     (or: make slides)

nbconvert's slides load reveal.js, require.js, jQuery and MathJax from CDNs, so in a lecture hall
without internet they fall back to a flat page with raw LaTeX. Here the template loads one library from
files next to the HTML, and the formulas are typeset when the deck is built:

- reveal.js 4.0.2 (MIT; the version nbconvert's template is written for), with its white theme,
  its Source Sans Pro web font (SIL OFL 1.1) and the speaker-notes plugin (press S);
- MathJax 3.2.2 (Apache-2.0), run in Node at build time (`offline_pages.typeset`): the deck carries its
  formulas as HTML, with MathJax's fonts beside it, and presenting runs no math JavaScript;
- and, from attnlib itself, the Noto Sans SC subset (SIL OFL 1.1) for tokens such as 早 上 好.

require.js and jQuery are not needed: the template loads reveal.js with a plain script tag, and no
widget manager is loaded. Each lab is drawn live on its slide from the state the notebook stored, by the
same ES module as in JupyterLab (`offline_pages.static_outputs`, shared with the website), and so is each
quiz: the room votes, the lecturer clicks the answer and the slide shows the feedback.
No PyPI package ships either npm package in a usable form (jupyter-server-mathjax has MathJax 2 only,
jupyterlab-rise a webpack bundle), so the npm packages are installed once, at build time, by
`npm ci` from the lockfile into `node_modules/` (tools/npm.py, shared with `make site`; npm checks each
tarball's sha512), and only the files the slides use are copied to `<out>/vendor/` with their licences
(about 1.2 MB: reveal.js and MathJax's fonts, plus the CJK fonts: a deck loads its script's, SC or TC).
Presenting needs no network; only the first build needs npm (later builds reuse node_modules/).
The Chinese editions (`notebooks/zh-Hans/`, `notebooks/zh-Hant/`) get their decks in `<out>/zh-Hans/` and
`<out>/zh-Hant/` (one shared `vendor/`); every deck and index has a switch to the other languages.
When the website (`make site`) lies beside the decks (`<out>/../site/`) as they are built, every deck links
to its page there and every index to the site's index. The index is styled as the site's (site.css) and
lists the deck's keys: → walks every slide in order, labs and quizzes included (reveal's linear mode), and a
lab's or a quiz's control keeps only the keys it uses (the page kit's rule, `shareKeys` in kit.js).
Figures are embedded in the HTML as data: URIs (plots and Markdown images alike).
A notebook becomes its deck through nbconvert: the preprocessors the site shares
(`offline_pages.preparation`) and the deck's own (`deck_steps`), then the deck's template, which writes
its title, language, figures' alternative text and language switch from `resources["offline"]`
(`deck_resources`). The template, its stylesheets and the index are files in `tools/templates/`.

Every slide of a part off the main line (cells tagged `going-further`) says so in its top right corner,
the part's first slide that it is optional (`label_going_further`).

Every slide fits the screen, in type sized for a room: what a slide shows is chosen in the notebook's cell
metadata (slide types, and the tags `slide-output-only` and `slide-figure-N` read by `fit_cells`), and
`tools/slide_fit.py` names any slide that runs past the bottom or the right edge (docs/lecturers_guide.md).
"""

from __future__ import annotations

import html
import os
import re
import sys
from pathlib import Path

from nbconvert.preprocessors import Preprocessor

from attnlib.i18n import LANGUAGES, N_, translated

from . import offline_pages
from .offline_pages import MATHJAX, ROOT, Package

REVEAL = Package(
    "reveal.js",
    (
        "LICENSE",
        "dist/reveal.js",
        "dist/reveal.css",
        "dist/theme/white.css",
        "dist/theme/fonts/source-sans-pro/LICENSE",
        "dist/theme/fonts/source-sans-pro/source-sans-pro.css",
        "dist/theme/fonts/source-sans-pro/*.woff",  # the css lists eot, woff, ttf; browsers take woff
        "plugin/notes/notes.js",
    ),
)
PACKAGES = (REVEAL, MATHJAX)

# The reveal template of nbconvert with every remote <script> replaced by a local one, and the decks'
# stylesheets (slides.css, readable.css, exercise.css): files in tools/templates/.
TEMPLATE = "slides.html.j2"
INDEX = "slides_index.html.j2"

def fetch_assets(log=print) -> None:
    """Install the pinned npm packages into node_modules/ (a no-op once they are there and current)."""
    offline_pages.install("make slides", log)


def copy_assets(out: Path, root: str = "") -> dict[str, str]:
    """Extract only the files the slides use into out/vendor/; return their URLs relative to out
    (to a folder of out with ``root="../"``)."""
    offline_pages.copy(PACKAGES, out)
    return asset_urls(root)


def asset_urls(root: str = "", language: str = "en") -> dict[str, str]:
    return {
        **offline_pages.cjk_urls(language, root),  # Traditional shapes for zh-Hant, Simplified otherwise
        "reveal": f"{root}vendor/{REVEAL.folder}",
        "math_fonts": root + offline_pages.MATHJAX_FONTS,
    }


# What a slide shows of a cell is chosen in the notebook, by cell tags (docs/lecturers_guide.md, "Slides
# that fit"); the notebook itself reads the same with or without them.
OUTPUT_ONLY = "slide-output-only"  # a code cell shows its output; its code goes to the speaker notes
FIGURE_TAG = re.compile(r"slide-figure-(\d+)")  # the cell's figures N units tall (of the slide's 800)


def slide_type(cell) -> str:
    return cell.metadata.get("slideshow", {}).get("slide_type", "-") or "-"


def slide_groups(cells) -> list[list[int]]:
    """Indices of the cells of each (sub)slide, in order (a slide or subslide cell starts a new one)."""
    groups: list[list[int]] = []
    for i, cell in enumerate(cells):
        if not groups or slide_type(cell) in ("slide", "subslide"):
            groups.append([])
        groups[-1].append(i)
    return groups


def figure_heights(nb) -> list[int]:
    """Every N of a ``slide-figure-N`` tag in the notebook (the template writes one CSS rule for each)."""
    tags = (t for c in nb.cells for t in c.metadata.get("tags", []))
    return sorted({int(m.group(1)) for t in tags if (m := FIGURE_TAG.fullmatch(t))})


# The words of the decks, in English; in other languages from the locale catalogues.
TEXTS = {
    "title": N_("Slides"),
    "keys_title": N_("Keys"),  # heads the index's list of the deck's keys (KEYS)
    "site": N_("Website"),  # a deck's link to its page on the website
    "site_index": N_("Read the series on the website"),
    "off_slide": N_("In the notebook, not on the slide:"),  # heads the code a slide leaves to its notes
    "further": N_("Going further"),  # the corner label of a slide of a going-further part
    "further_first": N_("Going further · optional"),  # ... on the part's first slide
}
WORDS = {language: translated(TEXTS, language) for language in LANGUAGES}
# The keys of a deck, as its index lists them: (keys, what they do) in the words of the index's language.
KEYS = (
    ("→ ↓ Space", N_("the next slide: every slide in order, labs and quizzes included")),
    ("← ↑", N_("the previous slide")),
    ("Tab", N_("into a lab or a quiz: the control in focus keeps the keys it uses (the arrows move a slider "
               "or choose an answer); a click gives them back at once")),
    ("Esc", N_("in a lab or a quiz, gives the keys back to the deck; elsewhere, shows an overview of the "
               "deck")),
    ("S", N_("the speaker notes")),
    ("F", N_("full screen")),
)
KEY_WORDS = {language: list(translated(dict(KEYS), language).items()) for language in LANGUAGES}


def label_going_further(cells, language: str = "en") -> None:
    """Give, in place, every slide of a going-further part the label its corner shows.

    A part begins a slide of its own and the cell after it another, so that no slide mixes the main line
    with the part; the first cell of each slide of the part carries the label as ``slideshow.data`` (the
    template writes it as ``data-going-further`` on the slide's <section>, the deck's script shows it),
    the part's first slide saying that the part is optional."""
    words = WORDS[language]
    for run in offline_pages.going_further_runs(cells):
        shown = [i for i in range(run.start, len(cells)) if slide_type(cells[i]) not in ("notes", "skip")]
        after = [i for i in shown if i >= run.stop]
        for i in shown[:1] + after[:1]:  # the part's first cell on a slide, and the first one after it
            if slide_type(cells[i]) in ("-", "fragment", "subslide"):
                cells[i].metadata.setdefault("slideshow", {})["slide_type"] = "slide"
        starts = [group[0] for group in slide_groups(cells) if group[0] in run]
        for i in starts:
            label = words["further_first"] if i == starts[0] else words["further"]
            cells[i].metadata.setdefault("slideshow", {})["data"] = {"going_further": label}


def fit_cells(nb, language: str = "en") -> None:
    """Apply the slide tags of every cell, in place, and give each slide one block of speaker notes.

    ``slide-output-only``: the input is left out of the slide and shown in its notes instead.
    ``slide-figure-N``: every figure of the cell is drawn N units tall (scaled in the page, not redrawn: a
    CSS rule per N, ``figure_heights``).
    reveal.js shows only the first notes block of a slide, so every notes cell of a (sub)slide and the
    code taken off it are merged into one, where the first notes cell stood (or after the code it holds).
    """
    import nbformat

    cells = nb.cells
    merged = []
    for group in slide_groups(cells):
        notes, code, first, hidden = [], [], None, None
        for i in group:
            cell = cells[i]
            if slide_type(cell) == "notes":
                first = i if first is None else first
                notes.append(cell.source.strip())
            elif cell.cell_type == "code" and OUTPUT_ONLY in cell.metadata.get("tags", []):
                cell.metadata["transient"] = {"remove_source": True}
                hidden = i
                if cell.source.strip():
                    code.append(cell.source.strip())
        if code:
            shown = "\n\n".join(f"```python\n{c}\n```" for c in code)
            notes.append(f"{WORDS[language]['off_slide']}\n\n{shown}")
        kept = [cells[i] for i in group if slide_type(cells[i]) != "notes" or i == first]
        if notes:
            note = nbformat.v4.new_markdown_cell("\n\n".join(notes))
            note.metadata["slideshow"] = {"slide_type": "notes"}
            held = cells[first if first is not None else hidden]
            if "id" in held:  # the same id at every build (nbformat draws one at random): the same deck
                note.id = held.id if first is not None else f"{held.id}-notes"
            if first is not None:  # where the first notes cell stood
                at = kept.index(cells[first])
                kept[at] = note
            else:  # right after the last cell whose code it holds
                kept.insert(kept.index(cells[hidden]) + 1, note)
        merged += kept
    nb.cells = merged


# ---- the notebook as its deck shows it: nbconvert preprocessors -----------------------------------------
class LiveSlides(Preprocessor):
    """A lab gets a slide of its own (a subslide after the one that introduces it and shows its static
    figure): a lab under a paragraph and a figure would not fit on one screen. So does a quiz (its four
    questions fill a slide). The lab is the point, not the line that makes it: its code goes to the notes."""

    def preprocess_cell(self, cell, resources, index):
        live = (re.search(r'class="live-(lab|quiz)"', o.get("data", {}).get("text/html", ""))
                for o in cell.get("outputs", []))
        if cell.cell_type == "code" and any(live):
            show = cell.metadata.setdefault("slideshow", {})
            if show.get("slide_type", "-") in ("-", "fragment"):
                show["slide_type"] = "subslide"
            tags = cell.metadata.setdefault("tags", [])
            if OUTPUT_ONLY not in tags:
                tags.append(OUTPUT_ONLY)
        return cell, resources


class GoingFurtherLabels(Preprocessor):
    """Every slide of a going-further part labelled in the deck's language (`label_going_further`)."""

    def preprocess(self, nb, resources):
        label_going_further(nb.cells, offline_pages.page_language(resources))
        return nb, resources


class FitCells(Preprocessor):
    """The slide tags of every cell applied, one block of speaker notes per slide (`fit_cells`), and
    ``resources["figure_heights"]``: every N of a ``slide-figure-N`` tag (the template writes a CSS rule
    for each)."""

    def preprocess(self, nb, resources):
        fit_cells(nb, offline_pages.page_language(resources))
        resources["figure_heights"] = figure_heights(nb)
        return nb, resources


def deck_steps() -> list[Preprocessor]:
    """The shared preparation of a page or a deck (``offline_pages.preparation``: exercise cards compact, the
    checks folded away; a slide shows no worked answer, so that the room tries first), then the deck's own
    steps."""
    shared = offline_pages.preparation(".slides.html", compact_tasks=True)
    return [*shared, LiveSlides(), GoingFurtherLabels(), FitCells()]


def for_slides(nb, path: Path | None = None):
    """A copy of the notebook as it should look on a slide (``deck_steps``): no harness comments, labs drawn
    live, each on a slide of its own, the slide tags of each cell applied (``fit_cells``); with the
    notebook's ``path``, each exercise reads as a task (``exercise_pages``)."""
    return offline_pages.prepare(nb, deck_steps(), path)


def make_exporter(urls: dict[str, str]):
    """nbconvert's slides exporter with the deck's template and preprocessors (``deck_steps``)."""
    from jinja2 import FileSystemLoader
    from nbconvert import SlidesExporter

    return SlidesExporter(
        extra_loaders=[FileSystemLoader(offline_pages.TEMPLATES)],
        template_file=TEMPLATE,
        reveal_theme="white",
        reveal_url_prefix=urls["reveal"],
        reveal_width="1280",
        reveal_height="800",
        embed_images=True,  # Markdown images (notebooks/figures/*.svg) become data: URIs
        exclude_input_prompt=True,
        exclude_output_prompt=True,
        preprocessors=deck_steps(),
    )


def deck_resources(urls: dict[str, str], language: str, name: str, available: tuple[str, ...],
                   site_page: str = "") -> dict:
    """What the deck template needs beyond nbconvert's own: the vendored files, the deck's language and
    words, the alternative text of its figures, the language switch and the address of the deck's page on
    the website (``site_page``; empty: no link)."""
    links = offline_pages.language_links(name, language, available)
    return {**urls, "language": language, "deck_word": WORDS[language]["title"], "languages": links,
            "figure_alt": offline_pages.figure_alt(language), "site_page": site_page,
            "site_word": WORDS[language]["site"]}


def site_href(site: Path | None, language: str, page: str, folder: Path) -> str:
    """The relative address, from a deck or index in ``folder``, of the page ``page`` of the website in
    ``site`` in ``language`` (the site's own layout: an edition in a folder of its own); empty when no site
    has been built there."""
    if site is None or not (site / "index.html").is_file():
        return ""
    target = offline_pages.edition_folder(site, language) / page
    return Path(os.path.relpath(target, folder)).as_posix()


def build(notebooks: list[Path], out: Path, log=print, prune: bool = False,
          site: Path | None = None) -> list[Path]:
    """Write one `<name>.slides.html` per notebook and `index.html` into out; return the decks.

    With prune, decks in out whose notebook is not in the list are deleted (a renamed notebook). Each deck
    links to its page on the website in ``site`` (default: ``site/`` beside out) if one is built there.
    """
    site = out.parent / "site" if site is None else site
    import nbformat

    fetch_assets(log)
    out.mkdir(parents=True, exist_ok=True)
    copy_assets(out)
    decks = []
    fonts = {}  # every deck, with the URL of MathJax's fonts from where it lies
    groups = offline_pages.editions(notebooks)
    available = tuple(groups)
    for language, paths in groups.items():
        folder = offline_pages.edition_folder(out, language)
        folder.mkdir(parents=True, exist_ok=True)
        urls = asset_urls(offline_pages.root_prefix(language), language)
        exporter = make_exporter(urls)
        written = []
        for path in paths:
            name = f"{path.stem}.slides.html"
            page = site_href(site, language, f"{path.stem}.html", folder)
            resources = {"metadata": {"name": path.stem, "path": str(path.parent)},
                         "offline": deck_resources(urls, language, name, available, page)}
            body, _ = exporter.from_notebook_node(nbformat.read(path, as_version=4), resources=resources)
            deck = folder / name
            deck.write_text(body, encoding="utf-8")
            written.append(deck)
            fonts[deck] = urls["math_fonts"]
            log(f"wrote {deck}")
        if prune:
            for stale in set(folder.glob("*.slides.html")) - set(written):
                stale.unlink()
                log(f"removed {stale}")
        write_index(folder, language, available, site_href(site, language, "index.html", folder))
        decks += written
    log(f"typeset {offline_pages.typeset(fonts)} formulas")
    return decks


def write_index(out: Path, language: str = "en", available: tuple[str, ...] = ("en",),
                site: str = "") -> None:
    """An index of every deck in out, titled as in each deck's <title>, with the keys of a deck and a link to
    the website's index at the address ``site`` (empty: none)."""
    words = WORDS[language]
    switch = offline_pages.language_links("index.html", language, available)
    decks = []
    for deck in sorted(out.glob("*.slides.html")):
        found = re.search(r"<title>(.*) · [^·<]*</title>", deck.read_text(encoding="utf-8"))
        decks.append({"href": html.escape(deck.name), "title": found.group(1) if found else deck.name})
    urls = asset_urls(offline_pages.root_prefix(language), language)
    (out / "index.html").write_text(
        offline_pages.render(INDEX, lang=language, words=words, keys=KEY_WORDS[language], languages=switch,
                             decks=decks, site=site, resources={"offline": urls}),
        encoding="utf-8",
    )


def main(argv: list[str] | None = None) -> int:
    def summary(decks: list[Path], out: Path, seconds: float) -> str:
        size = sum(f.stat().st_size for f in (out / "vendor").rglob("*") if f.is_file())
        return (f"{len(decks)} slide decks in {seconds:.1f} s; vendored libraries {size / 1e6:.1f} MB. "
                f"Open {out / 'index.html'} in a browser.")

    return offline_pages.command_line(__doc__, ROOT / "build" / "slides", build, summary, argv)


if __name__ == "__main__":
    sys.exit(main())
