"""The generated files outside the notebooks: attnlib's catalogues of each derived edition
(``attnlib/locale/zh-Hant/*.json`` from ``attnlib/locale/zh-Hans/*.json``, ``publishing.json`` included: the
words the site, the slides and the navigation cells write around the notebooks), and the pages of docs/
in each language (config.DOCUMENTS: the lecturer's guide, the sources), ``docs/<name>.<language>.md``, from
the one a translator writes, ``notebooks/translations/<name>.<language>.md`` (in 简体 with the {行}/{列}
markup; 繁體 from it).
"""

from __future__ import annotations

import json
from pathlib import Path

from . import hant
from .config import DERIVED, DOCUMENTS, REPO, TRANSLATED, Paths
from .derive import Overrides, edition_string, edition_text

# What a derived edition's guide changes after the conversion: 繁體's points to the 繁體 edition.
GUIDE_LINKS = {"zh-Hant": hant.guide_pointing_to_hant}


def dump_json(mapping: dict) -> str:
    return json.dumps(mapping, ensure_ascii=False, indent=2) + "\n"


def derived_catalogue(mapping: dict[str, str], language: str, overrides: Overrides = None) -> dict[str, str]:
    """attnlib's catalogue of the derived edition `language`: keys (English) kept, values converted from
    the edition it is derived from, markup resolved."""
    return {key: edition_string(value, language, overrides) for key, value in mapping.items()}


def guide_texts(
    source: str, language: str, overrides: Overrides = None, paths: Paths = REPO,
    name: str = "lecturers_guide",
) -> dict[Path, str]:
    """The page of docs/ `name` written in `language` (`source`, with the {行}/{列} markup) as each edition
    written from it reads it: docs/<name>.<edition>.md → its text (the lecturer's guide of a derived edition
    pointing to that edition: GUIDE_LINKS)."""
    out = {paths.docs / f"{name}.{language}.md": edition_text(source, language)}
    for derived in (d for d, origin in DERIVED.items() if origin == language):
        text = edition_text(source, derived, overrides)
        links = GUIDE_LINKS.get(derived, str) if name == "lecturers_guide" else str
        out[paths.docs / f"{name}.{derived}.md"] = links(text)
    return out


def generated_outputs(paths: Paths = REPO) -> dict[Path, tuple[str, Path]]:
    """Every generated file outside the notebooks → (its text, the source it is made from)."""
    overrides = hant.read_overrides(paths.overrides)
    out = {}
    for language, origin in DERIVED.items():
        for path in sorted((paths.locale / origin).glob("*.json")):
            mapping = json.loads(path.read_text(encoding="utf-8"))
            text = dump_json(derived_catalogue(mapping, language, overrides))
            out[paths.locale / language / path.name] = (text, path)
    for language in TRANSLATED:
        for name in DOCUMENTS:
            document = paths.document(name, language)
            if document.exists():
                source = document.read_text(encoding="utf-8")
                for target, text in guide_texts(source, language, overrides, paths, name).items():
                    out[target] = (text, document)
    return out


def left_over(wanted: dict[Path, tuple[str, Path]], paths: Paths = REPO) -> list[tuple[Path, str]]:
    """attnlib catalogues of a derived edition that no longer have a source: (the file, the edition it
    would be converted from)."""
    return [(extra, origin) for language, origin in DERIVED.items()
            for extra in sorted(set((paths.locale / language).glob("*.json")) - set(wanted))]  # fmt: skip


def write_outputs(paths: Paths = REPO, log=print) -> None:
    """Write every generated file that is out of date, and remove the left-over ones."""
    wanted = generated_outputs(paths)
    for target, (text, _) in wanted.items():
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            log(f"wrote {paths.name(target)}")
    for stale, origin in left_over(wanted, paths):
        stale.unlink()
        log(f"removed {paths.name(stale)} (no {origin} source)")


def output_problems(paths: Paths = REPO) -> list[str]:
    """Generated files out of date with their sources, or left over."""
    found = []
    wanted = generated_outputs(paths)
    for target, (text, source) in wanted.items():
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            found.append(
                f"{paths.name(target)}: out of date with {paths.name(source)}: "
                "run `python -m tools.translate build`"
            )
    for extra, origin in left_over(wanted, paths):
        found.append(f"{paths.name(extra)}: no {origin} source: run `python -m tools.translate build`")
    return found
