"""Exercises on a page with no Python (tools/exercise_pages.py, attnlib.exercises.tasks): every exercise
cell of every notebook, in every edition, reads as a task in the page's language, and none keeps the red
verdict of the unwritten stub."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest

from attnlib.exercises import NOTEBOOKS, exercise_named
from attnlib.exercises.tasks import exercise_task, puzzle_task
from attnlib.i18n import set_language
from tools import exercise_pages

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.repo
EDITIONS = {"en": ROOT / "notebooks", "zh-Hans": ROOT / "notebooks" / "zh-Hans",
            "zh-Hant": ROOT / "notebooks" / "zh-Hant"}
PATHS = [(lang, p) for lang, folder in EDITIONS.items()
         for p in sorted(folder.glob("[0-9][0-9]_*.ipynb")) if not p.name.startswith("00")]
CJK = re.compile(r"[\u4e00-\u9fff]")


def learner_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and (
        exercise_pages.CHECK.search(c.source) and exercise_pages.STUB in c.source
        or exercise_pages.PUZZLE.search(c.source) and exercise_pages.BLANK in c.source)]


@pytest.mark.parametrize(("language", "path"), PATHS, ids=[f"{lang}-{p.stem[:2]}" for lang, p in PATHS])
def test_every_exercise_cell_becomes_a_task_in_the_page_language(language, path):
    nb = nbformat.read(path, as_version=4)
    cells = learner_cells(nb)
    assert cells, f"{path.name}: no exercise cell found"
    relative = path.relative_to(ROOT).as_posix()
    assert exercise_pages.task_cards(nb, path) == len(cells)
    for cell in cells:
        (output,) = cell.outputs
        page = output["data"]["text/html"]
        assert "❌" not in page and "#b00020" not in page and "NotImplementedError</div>" not in page
        assert f"<code>{relative}</code>" in page and "<code>make lab</code>" in page
        items = re.findall(r"<li>(.*?)</li>", page)
        assert len(items) >= 2, f"{path.name}: a task lists the mistakes to watch for"
        if language == "en":
            assert not CJK.search(page)
        else:
            assert all(CJK.search(item) for item in items), f"{path.name}: an untranslated watch phrase"


def test_every_exercise_of_the_series_has_a_learner_cell():
    """Each checker of attnlib.exercises is called by one learner cell of the English notebooks."""
    called = set()
    for _, path in (p for p in PATHS if p[0] == "en"):
        for cell in learner_cells(nbformat.read(path, as_version=4)):
            found = exercise_pages.CHECK.search(cell.source)
            if found:
                called.add(found.group(1))
    declared = {e.name for module in NOTEBOOKS.values() for e in getattr(module, "EXERCISES", ())}
    assert called == declared


def test_a_task_names_the_hidden_inputs_and_what_to_write():
    with set_language("en"):
        task = exercise_task("check_softmax_rows", "my_softmax", "notebooks/02_softmax.ipynb")
    assert "`my_softmax`" in task.paragraphs[0]
    assert "scores of shape (3, 3); scores of shape (2, 4)" in task.paragraphs[1]
    assert "harder" in task.paragraphs[2] and "(2, 3)" in task.paragraphs[2]
    assert len(task.watch) == len(exercise_named("check_softmax_rows").mistakes)
    with set_language("zh-Hant"):
        puzzle = puzzle_task("W_q_green", "W_k_green", "green", "grass", "notebooks/zh-Hant/04.ipynb")
    assert "「green」" in puzzle.paragraphs[1] and "列" in puzzle.paragraphs[0]  # a matrix row in Taiwan


def test_an_unknown_checker_is_named():
    with pytest.raises(ValueError, match="checker must name a checker.*'check_nothing'"):
        exercise_named("check_nothing")


def test_a_compact_card_folds_the_checks_away():
    with set_language("en"):
        task = exercise_task("check_entropy", "my_entropy", "notebooks/02_softmax.ipynb")
    full, compact = exercise_pages.card_html(task), exercise_pages.card_html(task, compact=True)
    assert "<details>" not in full and "<details><summary>What the checker tests</summary>" in compact
    assert re.findall(r"<li>.*?</li>", full) == re.findall(r"<li>.*?</li>", compact)
