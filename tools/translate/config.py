"""Where the series lies (``Paths``) and which editions there are: every file the translation tools read or
write is named here, so a test points them at a made-up series in a temporary folder by passing ``Paths``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from attnlib.i18n import LANGUAGES

# Every edition the build writes from the English notebooks (attnlib.i18n.LANGUAGES is the one list).
EDITIONS = LANGUAGES[1:]
# Editions converted from another edition's text instead of translated by hand, and the edition each is
# converted from: 繁體 (Taiwan) is 简体 through OpenCC s2twp and the reviewed overrides (hant.py).
DERIVED = {"zh-Hant": "zh-Hans"}
# Editions a translator writes: each has its own catalogues, notebooks/translations/<language>/.
TRANSLATED = tuple(language for language in EDITIONS if language not in DERIVED)
# The pages of docs/ written in every edition: docs/<name>.<language>.md, built from the translator's
# notebooks/translations/<name>.<language>.md (the site shows each as a page: tools/reference_pages.py).
DOCUMENTS = ("lecturers_guide", "sources")


def written_from(language: str) -> str:
    """The edition whose catalogues the edition `language` is built from (itself, unless it is derived)."""
    return DERIVED.get(language, language)


@dataclass(frozen=True)
class Paths:
    """The repository root, and the folders and files of the translations under it."""

    root: Path = Path(__file__).resolve().parents[2]

    @property
    def notebooks(self) -> Path:
        """The English notebooks; each edition in a subfolder named by its language."""
        return self.root / "notebooks"

    @property
    def catalogues(self) -> Path:
        return self.notebooks / "translations"

    @property
    def overrides(self) -> Path:
        """The reviewed replacements applied after OpenCC's 简体 → 繁體 conversion."""
        return self.catalogues / "zh-Hant-overrides.tsv"

    @property
    def locale(self) -> Path:
        """attnlib's own catalogues, one folder per language."""
        return self.root / "attnlib" / "locale"

    @property
    def docs(self) -> Path:
        return self.root / "docs"

    def catalogue(self, path: Path, language: str) -> Path:
        """The prose catalogue of `language` for the English notebook `path`."""
        return self.catalogues / language / f"{path.stem}.md"

    def code_catalogue(self, path: Path, language: str) -> Path:
        """The code catalogue (comments and shown strings) of `language` for the English notebook `path`."""
        return self.catalogues / language / "code" / f"{path.stem}.md"

    def guide(self, language: str) -> Path:
        """The source of the lecturer's guide a translator writes in `language`."""
        return self.document("lecturers_guide", language)

    def document(self, name: str, language: str) -> Path:
        """The source of the page of docs/ `name` (one of DOCUMENTS) a translator writes in `language`."""
        return self.catalogues / f"{name}.{language}.md"

    def edition(self, path: Path, language: str) -> Path:
        """The notebook of `language` built from the English notebook `path`."""
        return self.notebooks / language / path.name

    def name(self, path: Path) -> Path:
        """`path` relative to the root, as messages name it."""
        return path.relative_to(self.root)


REPO = Paths()  # this checkout
