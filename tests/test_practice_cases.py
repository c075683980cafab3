"""Every exercise of every notebook, as a learner would type it into the page's editor, checked by the page's
runner in CPython: the worked answer is right, each known mistake gets its own diagnosis, in English and
简体. The browser tests (tests/browser/test_practice*.py) then only compare the page with this runner."""

from __future__ import annotations

import re

import pytest

from attnlib import exercises
from attnlib.exercises.practice import run
from tests.practice_cases import cases, exercise_cells

pytestmark = pytest.mark.repo  # reads the notebooks or tools/ of the checkout

HAN = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("edition", ["en", "zh-Hans", "zh-Hant"])
def test_every_notebook_has_its_exercise_cells_with_the_same_ids_in_each_edition(edition):
    cells = exercise_cells(edition)
    assert len(cells) == 35 and sum(c.checker == "check_projection_puzzle" for c in cells) == 2
    assert len({c.exercise for c in cells}) == len(cells)
    english = exercise_cells("en")
    assert [(c.exercise, c.check) for c in cells] == [(c.exercise, c.check) for c in english]
    assert {c.exercise.split("/")[0][:2] for c in cells} == {f"{n:02d}" for n in range(1, 12)}


def test_every_known_mistake_of_every_exercise_has_a_case():
    by_exercise: dict[str, set[str]] = {}
    for case in cases("en"):
        by_exercise.setdefault(case.exercise, set()).add(case.cause)
    for cell in exercise_cells("en"):
        if cell.checker == "check_projection_puzzle":
            assert {"correct", "even", "shape", "not_numbers"} <= by_exercise[cell.exercise]
            continue
        mistakes = {m.key for m in exercises.exercise_named(cell.checker).mistakes}
        assert by_exercise[cell.exercise] == mistakes | {"correct", "not_written"}, cell.exercise


def test_the_wrong_answers_are_written_as_the_learners_function():
    for case in cases("en"):
        name = case.exercise.split("/")[1]
        if case.cause not in ("not_written", "even") and not name.startswith("W_q_"):
            assert re.search(rf"^def {name}\(", case.code, re.M), case.id
            assert "lambda" not in case.code, case.id


@pytest.mark.parametrize("language", ["en", "zh-Hans"])
@pytest.mark.parametrize("case", cases("en"), ids=lambda case: case.id)
def test_the_runner_gives_each_case_its_diagnosis(case, language):
    # the editions' cells differ only in comments and docstrings: the 简体 page's code is that edition's
    if language != "en":
        case = next(c for c in cases(language) if c.id == case.id)
    result = run(case.code, case.check, language)
    assert result["error"] is None, result["error"]
    verdict = result["verdict"]
    assert verdict["cause"] == case.cause, verdict["text"]
    assert verdict["ok"] is (case.cause == "correct")
    assert bool(HAN.search(verdict["text"])) is (language != "en"), verdict["text"]
