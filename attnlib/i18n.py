"""The language attnlib speaks: English by default, 简体中文 (zh-Hans) and 繁體中文 (zh-Hant) on request.

One call in a notebook's setup cell switches every text attnlib shows a learner (quiz questions,
exercise diagnoses, lab labels and readouts, figure titles, error messages)::

    attnlib.set_language("zh-Hans")

Inside attnlib a text a learner reads is written in English and passed through :func:`tr` where it is
shown; a text stored in a table for later is marked with :func:`N_`, so that the catalogue check finds it.
The catalogues are ``attnlib/locale/<language>/*.json`` (one file per part of attnlib, all read together):
English text → translation. zh-Hant is made from zh-Hans by ``tools/translate/`` (OpenCC ``s2twp``
plus reviewed overrides), never translated by hand.
The tools that publish the series (the site, the slides, the notebooks' navigation cells) take their
list of languages and their words from here too: :func:`translated` gives a table of texts in any language.
Numbers are formatted by the caller, after translation, so they are the same in every language.
In the zh-Hans catalogues a matrix row is written ``{行}`` and a column ``{列}`` (mainland and Taiwan
usage swap 行 and 列); :func:`catalogue` resolves that markup, so :func:`tr` never returns it.

Taught in: 00 §2
"""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from pathlib import Path

__all__ = [
    "LANGUAGES", "LANGUAGE_NAMES", "N_", "catalogue", "language", "pad", "resolve_markup", "set_language",
    "tr",
]  # fmt: skip

LANGUAGES = ("en", "zh-Hans", "zh-Hant")
# Each language named in its own script, as a switch between the editions shows it.
LANGUAGE_NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}
LOCALE_DIR = Path(__file__).with_name("locale")
# A matrix row and column: mainland 行/列, Taiwan 列/行 (tools/translate/ uses the same table).
MARKUP = {"zh-Hans": {"{行}": "行", "{列}": "列"}, "zh-Hant": {"{行}": "列", "{列}": "行"}}

# The language is a setting of the session, like matplotlib's rcParams: one notebook, one language.
_current = ["en"]


class set_language:  # noqa: N801 (called like a function: `set_language("zh-Hans")` or `with set_language(...):`)
    """Show every text attnlib writes in the language `name` from now on.

    Used in a ``with`` statement, the language before comes back at the end of the block.

    Parameters
    ----------
    name : {"en", "zh-Hans", "zh-Hant"}
        English, Simplified Chinese or Traditional Chinese (Taiwan).

    Taught in: 00 §2
    """

    def __init__(self, name: str) -> None:
        _check_one_of(name, "language", LANGUAGES)
        self._before = _current[0]
        _current[0] = name

    def __enter__(self) -> set_language:
        return self

    def __exit__(self, *exc: object) -> None:
        _current[0] = self._before

    def __repr__(self) -> str:
        return f"set_language({_current[0]!r})"


def language() -> str:
    """The language attnlib writes in now: one of :data:`LANGUAGES`.
    """
    return _current[0]


def resolve_markup(text: str, name: str) -> str:
    """`text` with the ``{行}``/``{列}`` markup (a matrix row/column) in the words of language `name`.
    """
    for mark, word in MARKUP.get(name, {}).items():
        text = text.replace(mark, word)
    return text


@cache
def catalogue(name: str) -> dict[str, str]:
    """English text → its translation in language `name` (empty for English), markup resolved."""
    if name == "en":
        return {}
    merged: dict[str, str] = {}
    for path in sorted((LOCALE_DIR / name).glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return {key: resolve_markup(value, name) for key, value in merged.items()}


def tr(text: str) -> str:
    """`text` in the current language; English when the catalogue has no entry for it.

    Placeholders such as ``{d_k}`` are kept, so translate first and ``.format`` after:
    ``tr("weights · d_k={d_k}").format(d_k=4)``.
    """
    return catalogue(_current[0]).get(text, text)


def translated(texts: dict[str, str], name: str) -> dict[str, str]:
    """`texts` (key → English text marked with :func:`N_`) with every text in language `name`.

    For the publishing tools, which write every language in one run and so cannot use the session's
    language; English where the catalogue has no entry.
    """
    words = catalogue(name)
    return {key: words.get(text, text) for key, text in texts.items()}


def N_(text: str) -> str:  # noqa: N802 (the gettext name for "translate later")
    """Mark `text` for translation where it is stored; :func:`tr` translates it where it is shown.
    """
    return text


def _check_one_of(value: object, name: str, choices: tuple[str, ...]) -> None:
    # attnlib.checks speaks through this module, so this module checks its own two choices and imports
    # nothing of attnlib (the message is the one attnlib.checks.check_choice writes)
    if value not in choices:
        raise ValueError(tr("{name} must be one of {choices}; got {value!r}").format(
            name=name, choices=", ".join(choices), value=value))


def _display_width(text: str) -> int:
    # a wide or full-width character (East Asian Width W or F) takes two columns, a combining mark none
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def pad(text: str, width: int, align: str = "<") -> str:
    """`text` padded with spaces to `width` columns of a terminal, for a printed table.

    Like ``f"{text:<{width}}"``, except that a Chinese character (or any wide or full-width one, East
    Asian Width W or F) counts as two columns, as a monospaced font draws it, so that a column of
    Chinese labels lines up. Text already as wide as `width` or wider comes back unchanged.

    Parameters
    ----------
    text : str
    width : int
        Columns to fill.
    align : {"<", ">", "^"}
        Left, right or centred, as in a format specification.

    Returns
    -------
    str
        The same text with spaces on the left, the right or both.

    Examples
    --------
    >>> pad("ab", 4, ">") + "|", pad("权重", 6) + "|"
    ('  ab|', '权重  |')

    Taught in: 01 §5, 07 §3, 09 §4
    """
    _check_one_of(align, "align", ("<", ">", "^"))
    room = max(width - _display_width(text), 0)
    left = {"<": 0, ">": room, "^": room // 2}[align]
    return " " * left + text + " " * (room - left)
