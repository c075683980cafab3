"""The made-up series the translation tests run tools.translate on: one English notebook, its zh-Hans
catalogue, overrides and a library catalogue in a temporary folder (``made_up_repo``, the ``repo`` fixture
of tests/conftest.py, gives the ``Paths`` of that folder, which the tools are passed), and the steps those
tests take on it."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat

from tools.translate.check import check as check_translations
from tools.translate.config import EDITIONS, Paths
from tools.translate.editions import EDITION_KEY, build, code_hash, write_nb
from tools.translate.prose import english_hash

INTRO = "# 01 · Demo\n\nA row of $X$ is one token.\nCall `f(x)` to see it.\n\n![a figure](figures/a.svg)"
NOTES = "Ask the room: which row is longest?"
SETUP = "import numpy as np\n\nimport attnlib\n\nrng = np.random.default_rng(0)"


def english_notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell(INTRO, id="intro"),
        nbformat.v4.new_markdown_cell(NOTES, id="notes", metadata={"slideshow": {"slide_type": "notes"}}),
        nbformat.v4.new_code_cell(SETUP, id="setup"),
        nbformat.v4.new_code_cell("print(np.round(rng.random(2), 3))", id="work"),
    ]
    return nb


def entry(cell_id: str, text: str, english: str) -> str:
    return f"<!-- cell {cell_id} · en {english_hash(english)} -->\n{text}\n"


HANS_INTRO = "# 01 · 演示\n\n$X$ 的一{行}是一个词元。\n调用 `f(x)` 看看，数据就在这里。\n\n![图](figures/a.svg)"
HANS_NOTES = "问大家：哪一{行}最长？"


def check(repo: Paths) -> tuple[int, str]:
    """`check` on the series `repo`: its exit status and what it logged."""
    messages: list[str] = []
    status = check_translations(repo, log=messages.append)
    return status, "\n".join(messages)


def build_and_mark_executed(repo: Paths) -> None:
    """Build, then record the code as executed (running a kernel is `execute`'s job, not this test's)."""
    build(paths=repo, log=lambda _: None)
    for language in EDITIONS:
        path = repo.notebooks / language / "01_demo.ipynb"
        nb = nbformat.read(path, as_version=4)
        nb.metadata[EDITION_KEY]["executed_code"] = code_hash(nb)
        write_nb(nb, path)


def edit_english(repo: Paths, cell_id: str, text: str) -> None:
    path = repo.notebooks / "01_demo.ipynb"
    nb = nbformat.read(path, as_version=4)
    next(c for c in nb.cells if c.id == cell_id).source = text
    nbformat.write(nb, path)


def edition(repo: Paths, language: str) -> nbformat.NotebookNode:
    return nbformat.read(repo.notebooks / language / "01_demo.ipynb", as_version=4)


def made_up_repo(tmp_path: Path) -> Paths:
    """A repository with one English notebook, its zh-Hans catalogue, overrides and a library catalogue."""
    notebooks = tmp_path / "notebooks"
    (notebooks / "translations" / "zh-Hans").mkdir(parents=True)
    nbformat.write(english_notebook(), notebooks / "01_demo.ipynb")
    (notebooks / "translations" / "zh-Hans" / "01_demo.md").write_text(
        entry("intro", HANS_INTRO, INTRO) + "\n" + entry("notes", HANS_NOTES, NOTES), encoding="utf-8"
    )
    (notebooks / "translations" / "zh-Hant-overrides.tsv").write_text(
        "# comment\n資料\t數據\n資料集\t資料集合\n", encoding="utf-8"
    )
    locale = tmp_path / "attnlib" / "locale"
    (locale / "zh-Hans").mkdir(parents=True)
    (locale / "zh-Hans" / "plot.json").write_text(
        json.dumps({"weights · d_k={d_k}": "权重 · d_k={d_k}", "one row per token": "每个词元一{行}"}),
        encoding="utf-8",
    )
    return Paths(tmp_path)
