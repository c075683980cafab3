"""What the offline slides (`make slides`) and the website (`make site`) share.

- Pinned npm packages: installed by `npm ci` from the lockfile into node_modules/ (`tools/npm.py`, the
  tools' one npm path; npm checks each tarball's sha512), and only the files a page uses copied next to it.
- MathJax 3.2.2 (Apache-2.0), run once in Node when a page or a deck is built (`typeset`,
  `typeset_math.mjs`): a reader's browser gets formulas ready to draw and runs no math JavaScript.
- The CJK fonts that attnlib bundles (SIL OFL 1.1), copied beside the pages: Noto Sans SC for the English and
  简体 pages, Noto Sans TC (Traditional glyph shapes) for the 繁體 pages, each as a regular face and a bold
  subset for headings and bold text (weight 700 of the same family: no faked bold).
- The preparation of a notebook both builds share, as nbconvert preprocessors in one list
  (`preparation`): widget outputs shown without a kernel, exercises as task cards, the title, no harness
  comments, links between notebooks rewritten to links between pages or decks, each figure's own
  alternative text.
- The three editions (English in `notebooks/`, 简体中文 in `notebooks/zh-Hans/`, 繁體中文 in
  `notebooks/zh-Hant/`): each is written to its own folder (`<out>/`, `<out>/zh-Hans/`, `<out>/zh-Hant/`)
  sharing one `vendor/`, and every page carries a switch to the same page in the other languages
  (`language_links`, drawn by the templates).
- `going_further_runs`: the parts off the main line (runs of cells tagged `going-further`), which the site
  shows as one block and the decks label slide by slide.
- `static_outputs`: every widget output of a notebook as a page with no kernel can show it. A lab or a quiz
  becomes itself (`attnlib.page.mount_html`, drawn from the state the notebook stored by the same page module
  as in JupyterLab), a widget that stores a static form of itself keeps that, and any other widget gets a
  short note.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from copy import deepcopy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nbconvert.preprocessors import Preprocessor
from traitlets import Bool, Unicode

from attnlib.i18n import LANGUAGE_NAMES, LANGUAGES, N_, translated

from . import npm

ROOT = Path(__file__).resolve().parent.parent
CJK_FONT = ROOT / "attnlib" / "fonts" / "NotoSansSC-Subset.ttf"  # SIL OFL 1.1, OFL.txt beside it
# The faces of each script, regular and bold: SC for the English and 简体 pages, TC for the 繁體 ones.
CJK_FACES = {
    "sc": (CJK_FONT, CJK_FONT.with_name("NotoSansSC-Bold-Subset.ttf")),
    "tc": (CJK_FONT.with_name("NotoSansTC-Subset.ttf"), CJK_FONT.with_name("NotoSansTC-Bold-Subset.ttf")),
}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
# A link to a notebook of this edition or, as the navigation cells write them, of another one
# (`../NN_name.ipynb`, `../zh-Hant/NN_name.ipynb`, `zh-Hans/NN_name.ipynb`).
NOTEBOOK_LINK = re.compile(r"\]\(((?:\.\./)?(?:zh-Han[st]/)?\d\d_\w+)\.ipynb(#[^)]*)?\)")

# What a figure of a page or a deck is, for a reader who cannot see it, when its cell has no text of its
# own for it (the series' figures all have one: `figure_alts`; this serves any other notebook built).
FIGURE_ALT = N_("A figure drawn by the notebook's code; the text beside it says what it shows")
ALT = "alt"  # a code cell's metadata: the alternative text of each figure it draws, in output order
# What a page or a deck shows in place of a widget that has no form without a kernel.
WIDGET_NOTE = N_(
    "This widget needs Python: open the notebook in JupyterLab (<code>make lab</code>) to use it."
)


class AssetError(RuntimeError):
    """What the pages are built with cannot be had (a pinned npm package, a template) or cannot be read."""


@dataclass(frozen=True)
class Package:
    """A pinned npm package (its version in package-lock.json) and the files the pages use from it."""

    name: str
    files: tuple[str, ...]  # paths (globs) inside the package's folder

    @property
    def version(self) -> str:
        return npm.version(self.name)

    @property
    def folder(self) -> str:
        """Its folder in a build's vendor/: name and version, so that a new version is a new URL."""
        return f"{self.name}-{self.version}"


MATHJAX = Package("mathjax", ("LICENSE", "es5/output/chtml/fonts/woff-v2/*.woff"))  # a page fetches only
MATHJAX_FONTS = f"vendor/{MATHJAX.folder}/es5/output/chtml/fonts/woff-v2"  # the fonts its formulas use
TYPESET_JS = Path(__file__).with_name("typeset_math.mjs")
CJK_URL = f"vendor/noto-sans-sc/{CJK_FONT.name}"


def cjk_script(language: str) -> str:
    """The CJK face of an edition's pages: "tc" (Traditional shapes) for zh-Hant, else "sc"."""
    return "tc" if language == "zh-Hant" else "sc"


def cjk_urls(language: str = "en", root: str = "") -> dict[str, str]:
    """The URLs of the CJK faces (regular and bold) of ``language``'s pages, from a page ``root`` deep."""
    script = cjk_script(language)
    regular, bold = CJK_FACES[script]
    folder = f"{root}vendor/noto-sans-{script}"
    return {"cjk_font": f"{folder}/{regular.name}", "cjk_bold_font": f"{folder}/{bold.name}"}

# The page templates and stylesheets of the site and the slides (nbconvert's Jinja, read from files):
# - readable.css: what pages and decks add to JupyterLab's stylesheet so that every text meets WCAG AA
#   contrast (4.5:1) on its background: a few of its code colours fall short on the code box (#f6f8fa; a
#   comment's #408080 is 4.27:1), and a link in running text is told from the text by more than its colour
#   (an underline);
# - exercise.css: an exercise read as a task (exercise_pages);
# - cjk_head.html.j2: the bundled CJK face of the page's script, regular and bold (at the URLs in
#   resources.offline.cjk_font and cjk_bold_font, from cjk_urls), and the fresh layout of Chinese text
#   once it is in, for the <head> of every page and index that shows Chinese;
# - chrome.html.j2: the markup around the notebooks as macros (the language switch, the site's bar, search
#   box, contents and outline), and figure.html.j2 a figure with its alternative text in the page's language.
TEMPLATES = Path(__file__).with_name("templates")


def stylesheet(*names: str) -> str:
    """The stylesheets ``names`` of tools/templates/, one after the other."""
    return "\n".join((TEMPLATES / name).read_text(encoding="utf-8") for name in names)


def render(name: str, **context: Any) -> str:
    """The template ``name`` of tools/templates/ filled with ``context`` (an index: not an nbconvert page)."""
    from jinja2 import Environment, FileSystemLoader

    environment = Environment(loader=FileSystemLoader(TEMPLATES), keep_trailing_newline=True)
    return environment.get_template(name).render(**context)


def install(command: str, log: Callable[[str], Any] = print) -> None:
    """Install the pinned npm packages the pages are built with (``npm ci``; a no-op once they are there).

    ``command`` names what needs them in the error message ("make slides", "make site").
    """
    try:
        npm.install(command, log=log)
    except npm.NpmError as err:
        raise AssetError(str(err)) from err


def copy(packages: Iterable[Package], out: Path) -> None:
    """Copy only the files the pages use into out/vendor/, and the CJK fonts with their licence."""
    vendor = out / "vendor"
    for package in packages:
        source, target = npm.MODULES / package.name, vendor / package.folder
        shutil.rmtree(target, ignore_errors=True)
        for pattern in package.files:
            chosen = [path for path in source.glob(pattern) if path.is_file()]
            if not chosen:
                raise AssetError(f"{package.folder}: no file matches {pattern}")
            for path in chosen:
                dest = target / path.relative_to(source)
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, dest)
    for script, faces in CJK_FACES.items():
        fonts = vendor / f"noto-sans-{script}"
        fonts.mkdir(parents=True, exist_ok=True)
        for path in (*faces, CJK_FONT.with_name("OFL.txt")):
            shutil.copyfile(path, fonts / path.name)


def typeset(pages: Mapping[Path, str]) -> int:
    """Typeset, in place, the formulas of built pages: ``{page: URL of MathJax's fonts from that page}``.

    MathJax runs once, in Node, from the pinned package in node_modules/ (installed first if need be),
    and writes each formula as HTML with a hidden MathML copy for screen readers, and each page a
    stylesheet of its own. Raises AssetError naming the page and the TeX of any formula MathJax cannot
    read. Returns the number of formulas.
    """
    node = shutil.which("node")
    if node is None:
        raise AssetError(
            "Building the pages typesets their formulas with Node.js, which was not found. "
            "Install it (Debian/Ubuntu: apt-get install nodejs) and run the build again."
        )
    install("typesetting the formulas")
    job = {"pages": [{"path": str(path), "fonts": fonts} for path, fonts in pages.items()]}
    done = subprocess.run(
        [node, str(TYPESET_JS), str(npm.MODULES / MATHJAX.name)],
        input=json.dumps(job), capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise AssetError(f"typesetting the formulas failed:\n{done.stderr.strip()}")
    reports = [json.loads(line) for line in done.stdout.splitlines()]
    unread = [f"{report['path']}: {tex}" for report in reports for tex in report["errors"]]
    if unread:
        raise AssetError("MathJax could not read these formulas:\n" + "\n".join(unread))
    return sum(report["formulas"] for report in reports)


# ---- notebooks ----------------------------------------------------------------------------------------
def notebook_title(nb) -> str:
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return ""


def link_notebooks(source: str, suffix: str) -> str:
    """Markdown links to ``NN_name.ipynb`` (with or without ``#anchor``) as links to ``NN_name<suffix>``."""
    return NOTEBOOK_LINK.sub(rf"](\1{suffix}\2)", source)


def edition_of(path: Path) -> str:
    """The language of a notebook: the name of its folder for an edition, English otherwise."""
    return path.parent.name if path.parent.name in LANGUAGES[1:] else "en"


def shown_path(path: Path) -> str:
    """A notebook's path as a learner finds it in JupyterLab (from the repository's root), e.g.
    ``notebooks/zh-Hans/02_softmax.ipynb``; just its name when it lies elsewhere."""
    path = path.resolve()
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else path.name


def edition_folder(out: Path, language: str) -> Path:
    return out if language == "en" else out / language


def root_prefix(language: str) -> str:
    """From an edition's folder back to the output folder (where vendor/ and assets/ are)."""
    return "" if language == "en" else "../"


def sibling_href(name: str, language: str, target: str) -> str:
    """The relative address, from the page or notebook `name` of `language`, of the same one in `target`."""
    return f"{root_prefix(language)}{'' if target == 'en' else target + '/'}{name}"


def language_links(name: str, language: str, available: Iterable[str]) -> list[dict[str, str]]:
    """English · 简体中文 · 繁體中文 for the page `name`, as the templates' ``language_switch`` macro shows
    them: ``{"lang", "name", "href"}`` per edition built, the href empty for `language` itself; none when
    no other edition is built (no switch)."""
    available = set(available)
    if not available - {language}:
        return []
    return [{"lang": lang, "name": LANGUAGE_NAMES[lang],
             "href": "" if lang == language else sibling_href(name, language, lang)}
            for lang in LANGUAGES if lang == language or lang in available]


def figure_alt(language: str) -> str:
    """What a figure of a page or a deck in `language` says when its cell gives no text of its own."""
    return translated({"alt": FIGURE_ALT}, language)["alt"]


def figure_alts(cell) -> int:
    """Give each figure (PNG output) of a code cell, in place, its own alternative text from the cell's
    metadata ``alt`` (one per figure, in output order; in an edition, already in its language), as the
    output's ``metadata.alt``, which figure.html.j2 writes as the ``<img alt>``. Returns how many it gave."""
    alts = cell.metadata.get(ALT, []) if cell.cell_type == "code" else []
    figures = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
    for output, alt in zip(figures, alts, strict=False):
        output.setdefault("metadata", {})[ALT] = alt
    return min(len(figures), len(alts))


def editions(notebooks: Iterable[Path]) -> dict[str, list[Path]]:
    """The notebooks grouped by language, English first."""
    grouped: dict[str, list[Path]] = {}
    for path in notebooks:
        grouped.setdefault(edition_of(path), []).append(path)
    return {lang: grouped[lang] for lang in LANGUAGES if lang in grouped}


def default_notebooks() -> list[Path]:
    """Every notebook of every edition."""
    folder = ROOT / "notebooks"
    found = sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    for lang in LANGUAGES[1:]:
        found += sorted((folder / lang).glob("[0-9][0-9]_*.ipynb"))
    return found


QUIZ = "quiz"  # attnlib.quiz.Quiz: a page module on the labs' kit (attnlib/quiz/quiz.js), not a lab


def lab_state(model: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``{"spec", "values"}`` of a stored widget model if it is one of attnlib's labs, else None."""
    found = page_module_state(model)
    return found if found is not None and found["spec"]["name"] != QUIZ else None


def quiz_state(model: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``{"spec", "values"}`` of a stored widget model if it is an ``attnlib.quiz.Quiz``, else None."""
    found = page_module_state(model)
    return found if found is not None and found["spec"]["name"] == QUIZ else None


def page_module_state(model: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """``{"spec", "values"}`` of a stored anywidget model drawn by one of attnlib's page modules (its
    ``spec["name"]`` a key of ``attnlib.page.MODULES``), else None."""
    from attnlib.page import MODULES

    if not model:
        return None
    state = model.get("state", {})
    if "anywidget" not in (model.get("model_module"), state.get("_model_module")):
        return None
    spec, values = state.get("spec"), state.get("values")
    if not isinstance(spec, dict) or not isinstance(values, dict):
        return None
    if not isinstance(spec.get("name"), str) or spec["name"] not in MODULES:
        return None
    return {"spec": spec, "values": values}


def widget_note(language: str) -> str:
    """The note that stands, on a page or a slide in `language`, for a widget that needs a kernel."""
    return f'<div class="offline-widget">{translated({"note": WIDGET_NOTE}, language)["note"]}</div>'


def static_outputs(nb, language: str = "en") -> int:
    """Replace, in place, every widget output of ``nb`` by what a page with no kernel can show.

    A widget of one of attnlib's page modules is drawn live from its stored ``spec`` and ``values``
    (``attnlib.page.mount_html``), wrapped in a ``live-<kind>`` div and numbered in page order by kind:
    ids ``lab-1``, ``lab-2``, ... for the labs, ``quiz-1``, ... for a quiz, so that what counts labs does
    not count a quiz. A widget with a static form of itself (``text/html``, ``text/markdown``) keeps
    only that; any other widget becomes ``widget_note(language)``. The stored widget state is dropped
    from the metadata (a page would need a widget manager from a CDN to use it). Returns the number of labs.
    """
    from attnlib.page import mount_html, page_module

    stored = nb.metadata.pop("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    counts: dict[str, int] = {}
    for cell in nb.cells:
        for output in cell.get("outputs", []) if cell.cell_type == "code" else []:
            data = output.get("data", {})
            if WIDGET_VIEW not in data:
                continue
            state = page_module_state(stored.get(data[WIDGET_VIEW].get("model_id")))
            if state is not None:
                name = state["spec"]["name"]
                kind = page_module(name).kind
                counts[kind] = counts.get(kind, 0) + 1
                mount = mount_html(name, state, f"{kind}-{counts[kind]}")
                output["data"] = {"text/html": f'<div class="live-{kind}">\n{mount}</div>\n'}
                continue
            static = {k: v for k, v in data.items() if k in ("text/html", "text/markdown")}
            if "text/html" in static:
                static.pop("text/markdown", None)
            output["data"] = static or {"text/html": widget_note(language)}
    return counts.get("lab", 0)


# Every cell of a part off the main line ("## Going further: ...", after the last numbered section) carries
# this tag; the site shows the part as one block and the decks label its slides.
GOING_FURTHER = "going-further"


def going_further_runs(cells) -> list[range]:
    """The runs of consecutive cells tagged ``going-further``, as ranges of cell indices, in order: the
    parts a page shows in one block and a deck labels on every slide."""
    runs: list[range] = []
    for i, cell in enumerate(cells):
        if GOING_FURTHER not in cell.metadata.get("tags", []):
            continue
        if runs and runs[-1].stop == i:
            runs[-1] = range(runs[-1].start, i + 1)
        else:
            runs.append(range(i, i + 1))
    return runs


def strip_harness(source: str) -> str:
    """A code cell without the test-harness comments (``# NBVAL_...``), which mean nothing to a reader."""
    return "\n".join(line for line in source.splitlines() if not line.startswith("# NBVAL_"))


# ---- preparing a notebook: the nbconvert preprocessors both exporters run ---------------------------------
# Which notebook is converted, and so its language, comes from nbconvert's own resources:
# ``resources["metadata"]`` holds its ``name`` and ``path`` (the folder), as nbconvert sets them for a file.
def notebook_path(resources: Mapping[str, Any]) -> Path | None:
    """The notebook being converted (``<metadata.path>/<metadata.name>.ipynb``), or None if not named."""
    meta = resources.get("metadata") or {}
    if not meta.get("name") or not meta.get("path"):
        return None
    return Path(meta["path"]) / f"{meta['name']}.ipynb"


def page_language(resources: Mapping[str, Any]) -> str:
    """The language of the notebook being converted: its edition's, English when it is not named."""
    path = notebook_path(resources)
    return "en" if path is None else edition_of(path)


class WidgetOutputs(Preprocessor):
    """Every widget output as a page with no kernel shows it (`static_outputs`): labs and quizzes live."""

    def preprocess(self, nb, resources):
        static_outputs(nb, page_language(resources))
        return nb, resources


class ExerciseTasks(Preprocessor):
    """Each exercise's stored verdict as a task card (`exercise_pages.task_cards`), for a named notebook."""

    compact = Bool(False, help="the card of a slide: title and how to run it on one line, the rest folded")

    def preprocess(self, nb, resources):
        from nbformat import from_dict

        from . import exercise_pages

        path = notebook_path(resources)
        if path is not None and exercise_pages.task_cards(nb, path, compact=self.compact):
            nb = from_dict(nb)  # the cards are plain dicts; later steps read outputs as notebook nodes
        return nb, resources


class FigureAlts(Preprocessor):
    """Each figure with the alternative text its cell gives it (`figure_alts`)."""

    def preprocess_cell(self, cell, resources, index):
        figure_alts(cell)
        return cell, resources


class NotebookTitle(Preprocessor):
    """The notebook's title heading as ``metadata.title`` (the ``<title>`` nbconvert's templates write)."""

    def preprocess(self, nb, resources):
        nb.metadata["title"] = notebook_title(nb) or nb.metadata.get("title", "")
        return nb, resources


class HarnessComments(Preprocessor):
    """Code cells without the test-harness comments (`strip_harness`)."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            cell.source = strip_harness(cell.source)
        return cell, resources


class NotebookLinks(Preprocessor):
    """Links between notebooks in the Markdown as links between pages or decks (`link_notebooks`)."""

    suffix = Unicode(".html", help="what ends the name of a page or deck: .html, .slides.html")

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            cell.source = link_notebooks(cell.source, self.suffix)
        return cell, resources


def preparation(suffix: str, compact_tasks: bool = False) -> list[Preprocessor]:
    """The steps that make a notebook a page or a deck, shared by the site and the slides, in order: widget
    outputs shown without a kernel, exercises as task cards, the title, no harness comments, links between
    pages (``suffix``), each figure's own alternative text. Each builder adds the few steps of its own
    after these."""
    if not isinstance(suffix, str) or not suffix.endswith(".html"):
        raise ValueError(f"suffix must end a page's or a deck's name in .html (.slides.html), got {suffix!r}")
    return [WidgetOutputs(), ExerciseTasks(compact=compact_tasks), NotebookTitle(), HarnessComments(),
            NotebookLinks(suffix=suffix), FigureAlts()]


def prepare(nb, steps: Iterable[Preprocessor], path: Path | None = None):
    """A copy of ``nb`` after ``steps`` (preprocessors), as an exporter given them would convert it; with the
    notebook's ``path``, the steps know its language and its exercises."""
    steps = list(steps)
    wrong = [type(step).__name__ for step in steps if not isinstance(step, Preprocessor)]
    if wrong:
        raise TypeError(f"steps must be nbconvert preprocessors, got {', '.join(wrong)}")
    nb = deepcopy(nb)
    named = {} if path is None else {"name": path.stem, "path": str(path.parent)}
    resources: dict[str, Any] = {"metadata": named}
    for step in steps:
        step.enabled = True
        nb, resources = step(nb, resources)
    return nb


def command_line(doc: str, default_out: Path, build: Callable[..., list[Path]],
                 summary: Callable[[list[Path], Path, float], str], argv: list[str] | None = None) -> int:
    """The command line both builds share: notebooks (default: all of them) and --out; exit 2 when the
    pinned libraries cannot be had."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="default: every notebook of notebooks/ and its editions"
    )
    parser.add_argument("--out", type=Path, default=default_out)
    args = parser.parse_args(argv)
    notebooks = args.notebooks or default_notebooks()
    if not notebooks:
        print("no notebooks found", file=sys.stderr)
        return 1
    start = time.perf_counter()
    try:
        written = build(notebooks, args.out.resolve(), prune=not args.notebooks)
    except AssetError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(summary(written, args.out, time.perf_counter() - start))
    return 0
