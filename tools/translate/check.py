"""``check``: change nothing, and name everything stale, missing or left over, with the command that fixes
it: the catalogues of every edition translated by hand, the edition notebooks (rebuilt in memory and
compared with the stored ones, outputs aside) and the generated files outside the notebooks."""

from __future__ import annotations

import json
from pathlib import Path

from .code_catalogue import code_problems
from .config import EDITIONS, REPO, TRANSLATED, Paths
from .editions import EDITION_KEY, built_editions, code_hash, read_nb
from .outputs import output_problems
from .prose import catalogue_problems, english_notebooks


def source_view(nb) -> dict:
    """What `check` compares between a stored edition and a fresh build: everything but the outputs."""
    meta = json.loads(json.dumps({k: v for k, v in nb.metadata.items() if k != "widgets"}))
    meta.get(EDITION_KEY, {}).pop("executed_code", None)
    cells = [
        {"id": c.get("id"), "type": c.cell_type, "source": c.source, "metadata": c.metadata} for c in nb.cells
    ]
    return {"metadata": meta, "cells": json.loads(json.dumps(cells))}


def edition_problems(english: list[Path], paths: Paths = REPO) -> list[str]:
    """Edition notebooks of the English notebooks `english` that are missing, out of date with their
    sources or not executed since their code changed, and editions with no English notebook."""
    found = []
    for target, nb in built_editions(english, strict=False, paths=paths).items():
        name = paths.name(target)
        stored = read_nb(target)
        if stored is None:
            found.append(f"{name}: missing: run `python -m tools.translate build`")
            continue
        new, old = source_view(nb), source_view(stored)
        if new != old:
            old_cells = {c["id"]: c for c in old["cells"]}
            differ = [c["id"] for c in new["cells"] if old_cells.get(c["id"]) != c]
            what = "cell order or metadata"
            if differ:
                what = f"cell {differ[0]}" + (f" and {len(differ) - 1} more" if len(differ) > 1 else "")
            found.append(
                f"{name}: out of date with its sources ({what}): run `python -m tools.translate build`"
            )
            continue
        executed = stored.metadata.get(EDITION_KEY, {}).get("executed_code")
        if executed != code_hash(stored):
            found.append(
                f"{name}: its code changed since its outputs were stored: "
                f"run `python -m tools.translate execute {target.name[:2]}`"
            )
    for language in EDITIONS:
        for extra in sorted((paths.notebooks / language).glob("*.ipynb")):
            if not (paths.notebooks / extra.name).exists():
                found.append(f"{paths.name(extra)}: no English notebook {extra.name}: delete it")
    return found


def check(paths: Paths = REPO, log=print) -> int:
    """Log every problem and a summary; 1 if there is any, else 0."""
    english = english_notebooks(paths)
    found = []
    for language in TRANSLATED:
        found += [p for path in english for p in catalogue_problems(path, language, paths)
                  + code_problems(path, language, paths)]  # fmt: skip
        folder = paths.catalogues / language
        for path in sorted(folder.glob("*.md")) + sorted((folder / "code").glob("*.md")):
            if not (paths.notebooks / f"{path.stem}.ipynb").exists():
                found.append(f"{paths.name(path)}: no English notebook {path.stem}.ipynb")
    found += edition_problems(english, paths)
    found += output_problems(paths)
    for problem in found:
        log(problem)
    log(f"{len(english)} notebooks × {len(EDITIONS)} editions: {len(found) or 'no'} problem(s)")
    return 1 if found else 0
