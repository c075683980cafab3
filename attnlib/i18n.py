"""The language attnlib speaks: English by default, 简体中文 (zh-Hans) and 繁體中文 (zh-Hant) on request.

One call in a notebook's setup cell switches every text attnlib shows a learner (quiz questions,
exercise diagnoses, lab labels and readouts, figure titles, error messages)::

    attnlib.set_language("zh-Hans")

Inside attnlib a text a learner reads is written in English and passed through :func:`tr` where it is
shown; a text stored in a table for later is marked with :func:`N_`, so that the catalogue check finds it.
The catalogues are ``attnlib/locale/<language>/*.json`` (one file per part of attnlib, all read together):
English text → translation. zh-Hant is made from
zh-Hans by ``tools/translate.py`` (OpenCC ``s2twp`` plus reviewed overrides), never translated by hand.
Numbers are formatted by the caller, after translation, so they are the same in every language.

Taught in: 00 §Setup
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

__all__ = ["LANGUAGES", "N_", "language", "rows_and_columns", "set_language", "tr"]

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
LOCALE_DIR = Path(__file__).with_name("locale")

# The language is a setting of the session, like matplotlib's rcParams: one notebook, one language.
_current = ["en"]


def set_language(name: str) -> None:
    """Show every text attnlib writes in the language `name` from now on.

    Parameters
    ----------
    name : {"en", "zh-Hans", "zh-Hant"}
        English, Simplified Chinese or Traditional Chinese (Taiwan).

    Taught in: 00 §Setup
    """
    if name not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}; got {name!r}")
    _current[0] = name


def language() -> str:
    """The language attnlib writes in now: one of :data:`LANGUAGES`."""
    return _current[0]


@cache
def catalogue(name: str) -> dict[str, str]:
    """English text → its translation in language `name` (empty for English)."""
    if name == "en":
        return {}
    merged: dict[str, str] = {}
    for path in sorted((LOCALE_DIR / name).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


# A matrix row and column, written {行} and {列} in the 简体 catalogues: Taiwan usage swaps the two.
_ROW_COLUMN = {"zh-Hans": ("行", "列"), "zh-Hant": ("列", "行")}


def rows_and_columns(text: str, name: str) -> str:
    """`text` with the markup ``{行}`` (a matrix row) and ``{列}`` (a matrix column) written for language
    `name`: 行/列 in 简体, 列/行 in 繁體. Text without the markup comes back as it was."""
    if name not in _ROW_COLUMN:
        return text
    row, column = _ROW_COLUMN[name]
    return text.replace("{行}", row).replace("{列}", column)


def tr(text: str) -> str:
    """`text` in the current language; English when the catalogue has no entry for it.

    Placeholders such as ``{d_k}`` are kept, so translate first and ``.format`` after:
    ``tr("weights · d_k={d_k}").format(d_k=4)``. The row and column markup of the catalogues
    (``{行}``, ``{列}``) is resolved here, so ``.format`` never sees it.
    """
    name = _current[0]
    return rows_and_columns(catalogue(name).get(text, text), name)


def N_(text: str) -> str:  # noqa: N802 (the gettext name for "translate later")
    """Mark `text` for translation where it is stored; :func:`tr` translates it where it is shown."""
    return text
