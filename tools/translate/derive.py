"""The text of an edition, from the text of the edition it is written from (config.written_from): as it is
for an edition translated by hand, converted for a derived one (繁體 from 简体: hant.py); then the
``{行}``/``{列}`` markup of a matrix row/column resolved in the edition's words (attnlib.i18n.MARKUP).
"""

from __future__ import annotations

from attnlib.i18n import resolve_markup

from . import hant

Overrides = list[tuple[str, str]] | None  # the reviewed replacements of a conversion (None: the checkout's)

# Each derived edition's conversion: of plain text (a code fragment, a value of attnlib's catalogues), and
# of Markdown (leaving code, formulas and comments as they are). One per language of config.DERIVED.
CONVERSIONS = {"zh-Hant": (hant.to_traditional, hant.convert_prose)}


def edition_string(text: str, language: str, overrides: Overrides = None) -> str:
    """Plain text as `language` writes it: converted if need be, markup resolved."""
    if language in CONVERSIONS:
        text = CONVERSIONS[language][0](text, overrides)
    return resolve_markup(text, language)


def edition_text(text: str, language: str, overrides: Overrides = None) -> str:
    """Markdown as `language` writes it: converted if need be (code and formulas kept), markup resolved."""
    if language in CONVERSIONS:
        text = CONVERSIONS[language][1](text, overrides)
    return resolve_markup(text, language)
