"""The reference pages of the website: the glossary, the lecturer's guide and the sources, written into each
edition's folder beside the notebook pages (``glossary.html``, ``lecturers_guide.html``, ``sources.html``).

- Each is a Markdown file of ``docs/`` made a notebook (`as_notebook`) that the site's own exporter converts
  (tools/build_site.py), so it has the bar, the contents, the outline, the search and the stylesheet of a
  notebook's page; the contents and the index list it under "Reference", after the notebooks, and the bar's
  previous and next stay among the notebooks.
- An edition reads ``docs/<name>.<language>.md`` where one is written (the lecturer's guide and the sources,
  built by tools/translate from ``notebooks/translations/<name>.zh-Hans.md``); otherwise it shows the
  English file, its text marked ``lang="en"``, below a line in the page's language that says so.
- `link_documents` (the preprocessor `DocumentLinks`): where the prose names one of these files
  (`` `docs/sources.md` `` as code, or a Markdown link to it), a site that has its page links the page of
  the same edition.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbconvert.preprocessors import Preprocessor

from .offline_pages import ROOT

DOCS = ROOT / "docs"


@dataclass(frozen=True)
class Reference:
    """A Markdown file of ``folder`` (``<name>.md``, translated as ``<name>.<language>.md``) and its page."""

    name: str
    note: str  # the key, in the site's words, of the line that says the page shows the English text
    summary: str  # the key, in the site's words, of what the index says of it
    folder: Path = DOCS

    @property
    def page(self) -> str:
        return f"{self.name}.html"

    def source(self, language: str) -> tuple[Path, str]:
        """The file an edition shows and the language it is written in: its own, else the English one."""
        own = self.folder / f"{self.name}.{language}.md"
        if language != "en" and own.is_file():
            return own, language
        return self.folder / f"{self.name}.md", "en"


REFERENCES = (
    Reference("glossary", "glossary_note", "glossary_what"),
    Reference("lecturers_guide", "english_note", "lecturers_guide_what"),
    Reference("sources", "english_note", "sources_what"),
)


def link_documents(source: str, names: Iterable[str]) -> str:
    """Markdown with every mention of the reference files ``names`` (``docs/<name>.md`` as code, or a link
    to it) as a link to its page, ``<name>.html``, beside the page in the same edition's folder.

    A mention is code not already the text of a link; a link may lead from a notebook (``../docs/``), the
    repository's root (``docs/``) or docs/ itself; an edition's own file (``lecturers_guide.zh-Hans.md``)
    is the same page."""
    if not isinstance(source, str):
        raise TypeError(f"source must be Markdown text (str), got {type(source).__name__}")
    names = "|".join(re.escape(name) for name in names)
    if not names:
        return source
    link = rf"\]\((?:\.\./)?(?:docs/)?({names})(?:\.zh-Han[st])?\.md(#[^)\s]*)?\)"
    source = re.sub(link, lambda m: f"]({m.group(1)}.html{m.group(2) or ''})", source)
    mention = rf"(?<!\[)`docs/({names})(?:\.zh-Han[st])?\.md`(?!\])"
    return re.sub(mention, lambda m: f"[{m.group(0)}]({m.group(1)}.html)", source)


class DocumentLinks(Preprocessor):
    """Mentions of the reference files in the Markdown as links to their pages (`link_documents`), for the
    pages the site has: those of ``resources["site"]["references"]`` (none without)."""

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "markdown":
            built = resources.get("site", {}).get("references", [])
            cell.source = link_documents(cell.source, [Path(page["name"]).stem for page in built])
        return cell, resources


def as_notebook(text: str, text_language: str, page_language: str, note: str,
                name: str = "page") -> nbformat.NotebookNode:
    """The Markdown ``text`` as a notebook the site's exporter converts: one Markdown cell when it is written
    in the page's language; otherwise its title, ``note`` (in the page's language) and the rest, the title and
    the rest with the cell metadata ``lang`` (the page template marks them ``lang="..."``). The cells' ids
    are ``<name>-0``, ``<name>-1``, ..., the same at every build."""
    if not isinstance(text, str) or not text.lstrip().startswith("# "):
        raise ValueError("text must be Markdown that opens with its title, '# ...'")
    nb = nbformat.v4.new_notebook()
    if text_language == page_language:
        nb.cells = [nbformat.v4.new_markdown_cell(text)]
    else:
        title, _, rest = text.lstrip().partition("\n")
        marked = {"lang": text_language}
        nb.cells = [nbformat.v4.new_markdown_cell(title, metadata=dict(marked)),
                    nbformat.v4.new_markdown_cell(f"*{note}*"),
                    nbformat.v4.new_markdown_cell(rest.strip() + "\n", metadata=dict(marked))]
    for number, cell in enumerate(nb.cells):
        cell.id = f"{name}-{number}"
    return nb


def notebook(reference: Reference, language: str, words: dict[str, str]) -> nbformat.NotebookNode:
    """The page of ``reference`` in ``language`` as a notebook (`as_notebook`), with the site's ``words`` of
    that language for the line a page in another language needs."""
    path, written_in = reference.source(language)
    if not path.is_file():
        raise FileNotFoundError(f"the reference page {reference.page} is made from {path}, which is missing")
    return as_notebook(path.read_text(encoding="utf-8"), written_in, language, words[reference.note],
                       reference.name)
