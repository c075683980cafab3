"""Write the table of contents in 00 and the previous/next links of every notebook from their titles.

    python -m tools.make_navigation            # rewrite what is out of date
    python -m tools.make_navigation --check    # change nothing; exit 1 if anything is out of date

The series is every `notebooks/NN_name.ipynb`, and its editions in other languages are the notebooks of
the same names in `notebooks/zh-Hans/` and `notebooks/zh-Hant/` (written by tools/translate/, which calls
this script's `navigate` for them). Each notebook's first Markdown heading is its title, `# NN · Title`, and
the first sentence after it is its one-line description. From those this script writes, in each edition's
language,

- the table of contents in 00: between the marker `<!-- toc: written by tools/make_navigation.py -->`
  and `<!-- /toc -->` in the cell that holds the marker (the cell is also tagged `toc`);
- a navigation cell at the end of every notebook (tagged `navigation`, slide type `skip`, so RISE and the
  offline slides leave it out), with links to the same notebook in the other editions (English · 简体中文 ·
  繁體中文, where they exist), to the previous and next notebook and to the contents;
- `"rise": {"theme": "white", "scroll": true, "center": false}` in every notebook's metadata (RISE's
  default theme fetches web fonts; with scroll, a live slide taller than the screen scrolls).

Running it twice changes nothing the second time. It edits Markdown and metadata only, so the stored outputs
stay valid and nothing needs re-running. Edit a title in its notebook (or its translation), never in the
generated cells.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from attnlib.i18n import LANGUAGE_NAMES, LANGUAGES, N_, translated

from .offline_pages import sibling_href

ROOT = Path(__file__).resolve().parent.parent
TOC_START = "<!-- toc: written by tools/make_navigation.py -->"
TOC_END = "<!-- /toc -->"
NAV_MARK = "<!-- navigation: written by tools/make_navigation.py -->"
TITLE = re.compile(r"^#\s+(\d{2})\s*·\s*(.+?)\s*$")
# scroll: a live slide taller than the screen scrolls; center false: slides start at the top, as the offline
# decks do, which keeps RISE's scroll box (95vh) on the screen.
RISE = {"theme": "white", "scroll": True, "center": False}
# The words of the generated cells, in English; in other languages from the locale catalogues (English →
# 简体 in attnlib/locale/zh-Hans/publishing.json, and 繁體 generated from it by tools/translate/, which
# writes the catalogues before it navigates the editions: the words are looked up when a cell is written).
WORDS = {"notebook": N_("notebook"), "about": N_("what it is about"), "previous": N_("← previous: {link}"),
         "contents": N_("all notebooks"), "next": N_("next: {link} →")}  # fmt: skip


class SeriesError(ValueError):
    """A notebook's title is missing or disagrees with its file name, or 00 has no place for the TOC."""


@dataclass(frozen=True)
class Entry:
    path: Path
    number: str
    title: str
    description: str

    @property
    def label(self) -> str:
        return f"{self.number} · {self.title}"

    def link(self) -> str:
        return f"[{self.label}]({self.path.name})"


def text(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def is_cjk(char: str) -> bool:
    return char >= "\u2e80"


def first_sentence(lines: list[str]) -> str:
    """The first sentence of the paragraph that starts at lines[0], on one line (English or Chinese)."""
    paragraph = []
    for line in lines:
        if not line.strip() or line.lstrip().startswith(("$$", "#", "- ", "* ", "|", "**You will learn")):
            break
        paragraph.append(line.strip())
    prose = ""
    for part in paragraph:  # Chinese lines join without a space
        glue = "" if not prose or is_cjk(prose[-1]) or is_cjk(part[0]) else " "
        prose += glue + part
    match = re.match(r"(.+?(?:[.!?](?=\s|$)|[。！？]))", prose)
    sentence = match.group(1) if match else prose
    return re.sub(r"[:;,]$", ".", re.sub(r"[：；，]$", "。", sentence))


def read_entry(path: Path, nb: dict) -> Entry:
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        lines = text(cell).splitlines()
        for i, line in enumerate(lines):
            if not line.startswith("# "):
                continue
            match = TITLE.match(line)
            if not match:
                raise SeriesError(f"{path.name}: the first heading should read '# NN · Title', not {line!r}")
            number, title = match.groups()
            if number != path.name[:2]:
                raise SeriesError(
                    f"{path.name}: the title says {number} but the file name says {path.name[:2]}"
                )
            rest = lines[i + 1 :]
            while rest and not rest[0].strip():
                rest = rest[1:]
            return Entry(path, number, title, first_sentence(rest))
    raise SeriesError(f"{path.name}: no title; the first Markdown cell should start with '# NN · Title'")


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def dump(nb: dict) -> str:
    # The layout Jupyter itself writes, so a notebook saved in JupyterLab shows no spurious diff.
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def as_source(markdown: str) -> list[str]:
    return markdown.splitlines(keepends=True)


def toc_markdown(entries: list[Entry], language: str = "en") -> str:
    words = translated(WORDS, language)
    rows = [f"| {e.link()} | {e.description.replace('|', chr(92) + '|')} |" for e in entries]
    return "\n".join([f"| {words['notebook']} | {words['about']} |", "|---|---|", *rows])


def languages_line(name: str, language: str, editions: tuple[str, ...]) -> str:
    """English · 简体中文 · 繁體中文: this edition in bold, the others linked."""
    parts = [
        f"**{LANGUAGE_NAMES[lang]}**" if lang == language
        else f"[{LANGUAGE_NAMES[lang]}]({sibling_href(name, language, lang)})"
        for lang in LANGUAGES
        if lang in editions or lang == language
    ]  # fmt: skip
    return " · ".join(parts)


def nav_markdown(entries: list[Entry], i: int, language: str = "en", editions: tuple[str, ...] = ()) -> str:
    words = translated(WORDS, language)
    parts = []
    if i > 0:
        parts.append(words["previous"].format(link=entries[i - 1].link()))
    if i > 0 and entries[0].number == "00":
        parts.append(f"↑ [{words['contents']}]({entries[0].path.name})")
    if i + 1 < len(entries):
        parts.append(words["next"].format(link=entries[i + 1].link()))
    blocks = [NAV_MARK, "---"]
    if len(set(editions) | {language}) > 1:
        blocks.append(languages_line(entries[i].path.name, language, editions))
    return "\n\n".join([*blocks, " · ".join(parts)])


def with_toc(cell_text: str, toc: str) -> str:
    start = cell_text.index(TOC_START)
    end = cell_text.find(TOC_END, start)
    tail = cell_text[end + len(TOC_END) :] if end >= 0 else cell_text[start + len(TOC_START) :]
    # Blank lines around the table: a Markdown table must not touch the HTML comments.
    return f"{cell_text[:start]}{TOC_START}\n\n{toc}\n\n{TOC_END}{tail}"


def is_tagged(cell: dict, tag: str) -> bool:
    return tag in cell.get("metadata", {}).get("tags", [])


def add_tag(cell: dict, tag: str) -> None:
    tags = cell.setdefault("metadata", {}).setdefault("tags", [])
    if tag not in tags:
        tags.append(tag)


def update(
    nb: dict, entries: list[Entry], i: int, language: str = "en", editions: tuple[str, ...] = ()
) -> dict:
    """Return a copy of notebook i of the series with its TOC (00 only), navigation and RISE theme set."""
    nb = json.loads(json.dumps(nb))
    if entries[i].number == "00":
        holders = [c for c in nb["cells"] if c["cell_type"] == "markdown" and TOC_START in text(c)]
        if len(holders) != 1:
            raise SeriesError(
                f"{entries[i].path.name}: needs exactly one Markdown cell holding {TOC_START!r}, "
                f"found {len(holders)}"
            )
        holders[0]["source"] = as_source(with_toc(text(holders[0]), toc_markdown(entries, language)))
        add_tag(holders[0], "toc")

    nav = {
        "cell_type": "markdown",
        "metadata": {"slideshow": {"slide_type": "skip"}, "tags": ["navigation"]},
        "source": as_source(nav_markdown(entries, i, language, editions)),
    }
    if nb.get("nbformat", 4) > 4 or nb.get("nbformat_minor", 0) >= 5:
        nav["id"] = "navigation"  # fixed, so a rerun rewrites the same cell
    nb["cells"] = [c for c in nb["cells"] if not is_tagged(c, "navigation")] + [nav]

    nb.setdefault("metadata", {}).setdefault("rise", {}).update(RISE)
    return nb


def series(folder: Path, notebooks: dict[Path, dict] | None = None) -> list[tuple[Path, dict, Entry]]:
    """The notebooks of `folder` in order, with their titles (`notebooks` where given, else from disk)."""
    if notebooks is None:
        notebooks = {path: load(path) for path in folder.glob("[0-9][0-9]_*.ipynb")}
    found = [(path, nb, read_entry(path, nb)) for path, nb in sorted(notebooks.items())]
    numbers = [entry.number for _, _, entry in found]
    doubled = sorted({n for n in numbers if numbers.count(n) > 1})
    if doubled:
        raise SeriesError(f"two notebooks share the number {', '.join(doubled)}")
    return found


def what_differs(old: dict, new: dict) -> list[str]:
    reasons = []
    if old.get("metadata", {}).get("rise") != new["metadata"]["rise"]:
        reasons.append(f'metadata "rise" is not {json.dumps(RISE)}')
    old_toc = [text(c) for c in old["cells"] if TOC_START in text(c)]
    new_toc = [text(c) for c in new["cells"] if TOC_START in text(c)]
    if old_toc != new_toc:
        reasons.append("the table of contents is out of date")
    if old["cells"] and old["cells"][-1] != new["cells"][-1]:
        reasons.append("the navigation cell at the end is missing or out of date")
    return reasons or ["cells are out of date"]


def editions_of(folder: Path) -> tuple[str, ...]:
    """The languages of the series in `folder` (the English notebooks): English and each edition folder."""
    present = [lang for lang in LANGUAGES[1:] if any((folder / lang).glob("[0-9][0-9]_*.ipynb"))]
    return ("en", *present)


def navigate(
    notebooks: dict[Path, dict], folder: Path, language: str = "en", editions: tuple[str, ...] = LANGUAGES
) -> dict[Path, dict]:
    """Every notebook of one edition (path → notebook, all in `folder`) with its TOC and navigation set."""
    found = series(folder, notebooks)
    entries = [entry for _, _, entry in found]
    return {path: update(nb, entries, i, language, editions) for i, (path, nb, _) in enumerate(found)}


def run(folder: Path, check: bool, log=print) -> int:
    """Bring every notebook in folder and its editions up to date (with check: only report); exit status."""
    editions = editions_of(folder)
    stale = total = 0
    try:
        for language in editions:
            where = folder if language == "en" else folder / language
            found = series(where)
            if not found:
                raise SeriesError(f"no notebooks NN_name.ipynb in {where}")
            total += len(found)
            entries = [entry for _, _, entry in found]
            prefix = "" if language == "en" else f"{language}/"
            for i, (path, nb, _) in enumerate(found):
                new = update(nb, entries, i, language, editions)
                if new == nb:  # compared as data: a file saved with other whitespace is not rewritten
                    continue
                stale += 1
                if check:
                    log(f"{prefix}{path.name}: {'; '.join(what_differs(nb, new))}")
                else:
                    path.write_text(dump(new), encoding="utf-8")
                    log(f"updated {prefix}{path.name}")
    except SeriesError as err:
        log(f"error: {err}")
        return 2
    if check and stale:
        log(f"{stale} notebook(s) out of date: run `python -m tools.make_navigation`")
        return 1
    log(f"{total} notebooks: navigation {'up to date' if check or not stale else 'written'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if out of date")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks", help="default: notebooks/")
    args = parser.parse_args(argv)
    return run(args.notebooks, args.check)


if __name__ == "__main__":
    sys.exit(main())
