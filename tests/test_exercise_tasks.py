"""An exercise as a task a page with no Python can show: watch phrases, hidden inputs, the worked answer.

The site and the decks cannot run the learner's code, so they show what the checker would do. These
tests hold the data that page reads to the same standard as the checker: every typical mistake has a
"watch for" phrase in English and 简体中文, and the worked answer shown (the notebook's folded
solution cell) is the checker's own reference, character for character.
"""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import nbformat
import numpy as np
import pytest

import attnlib
from attnlib import exercises
from attnlib.exercises import exercise_named
from tests.catalogues import placeholders

PACKAGE = Path(attnlib.__file__).parent
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
CATALOGUE = json.loads((PACKAGE / "locale" / "zh-Hans" / "exercises.json").read_text(encoding="utf-8"))
EXERCISES = {e.name: e for module in exercises.NOTEBOOKS.values() for e in module.EXERCISES}
MISTAKES = [(name, m) for name, e in EXERCISES.items() for m in e.mistakes]
SOLUTION = re.compile(r"^def (solution_\w+)\(", re.M)


def folded_solutions() -> list[tuple[str, str, str, str]]:
    """(notebook, cell id, checker, source) of every folded ``def solution_...`` cell of the English
    notebooks that a later cell passes to ``exercises.check_...``."""
    found = []
    for path in sorted(p for p in NOTEBOOKS.glob("[0-9][0-9]_*.ipynb") if not p.name.startswith("00")):
        cells = nbformat.read(path, as_version=4).cells
        for i, cell in enumerate(cells):
            match = SOLUTION.search(cell.source) if cell.cell_type == "code" else None
            if not match or not cell.metadata.get("jupyter", {}).get("source_hidden"):
                continue
            calls = (re.search(rf"exercises\.(check_\w+)\({match[1]}\)", c.source) for c in cells[i + 1 :])
            checker = next((call[1] for call in calls if call), None)
            if checker:
                found.append((path.name, cell.id, checker, cell.source))
    return found


SOLUTIONS = folded_solutions()


# Part 1: a "watch for" phrase for every typical mistake


def test_there_are_exercises_and_mistakes_to_check():
    assert len(EXERCISES) >= 25 and len(MISTAKES) >= 120


@pytest.mark.parametrize(("checker", "mistake"), MISTAKES, ids=[f"{n}-{m.key}" for n, m in MISTAKES])
def test_every_mistake_has_a_short_watch_phrase_without_placeholders(checker, mistake):
    watch = mistake.watch
    assert watch, f"{checker}: mistake {mistake.key!r} has no watch phrase"
    assert placeholders(watch) == [] and "{" not in watch, f"{checker}/{mistake.key}: {watch!r} has a placeholder"
    assert watch[0] == watch[0].lower(), f"{checker}/{mistake.key}: {watch!r} should start in lower case"
    assert not watch.endswith("."), f"{checker}/{mistake.key}: {watch!r} ends with a full stop"
    words = re.findall(r"[A-Za-z]{2,}", watch)  # symbols such as j, L, ≤ do not count
    assert 2 <= len(words) <= 12, f"{checker}/{mistake.key}: {watch!r} is not a short phrase"


@pytest.mark.parametrize("checker", sorted(EXERCISES))
def test_the_watch_phrases_of_an_exercise_are_distinct(checker):
    phrases = [m.watch for m in EXERCISES[checker].mistakes]
    assert len(set(phrases)) == len(phrases), phrases


@pytest.mark.parametrize(("checker", "mistake"), MISTAKES, ids=[f"{n}-{m.key}" for n, m in MISTAKES])
def test_every_watch_phrase_has_a_simplified_chinese_entry_without_a_full_stop(checker, mistake):
    chinese = CATALOGUE.get(mistake.watch)
    assert chinese, f"no zh-Hans entry for {mistake.watch!r}"
    assert chinese != mistake.watch and not chinese.endswith(("。", ".")), chinese
    assert "{" not in chinese.replace("{行}", "").replace("{列}", ""), chinese


def test_the_watch_list_is_in_the_language_chosen(zh_hans):
    exercise = exercise_named("check_softmax_rows")
    assert exercise.watch_list()[0] == "归一化的是各列，而不是各行"  # {列}/{行} resolved for 简体
    assert len(exercise.watch_list()) == len(exercise.mistakes)
    with attnlib.set_language("zh-Hant"):
        assert exercise.watch_list()[0] == "正規化的是各行，而不是各列"  # Taiwan: 行 a column, 列 a row


def test_the_watch_list_in_english_is_the_phrases_themselves():
    exercise = exercise_named("check_softmax_rows")
    assert exercise.watch_list() == [m.watch for m in exercise.mistakes]
    assert "forgetting to divide by the row sum" in exercise.watch_list()


# Part 2: the worked answer is the checker's reference


@pytest.mark.repo
def test_every_exercise_has_exactly_one_folded_solution_in_its_notebook():
    checked = [checker for _, _, checker, _ in SOLUTIONS]
    assert sorted(checked) == sorted(EXERCISES), sorted(set(EXERCISES) ^ set(checked))


@pytest.mark.repo
@pytest.mark.parametrize(
    ("notebook", "cell_id", "checker", "source"), SOLUTIONS, ids=[f"{s[0][:2]}-{s[2]}" for s in SOLUTIONS]
)
def test_the_folded_solution_cell_is_the_checkers_reference(notebook, cell_id, checker, source):
    assert source == exercise_named(checker).worked_answer(), (
        f"{notebook} cell {cell_id}: the folded solution differs from the reference of {checker}; "
        "copy Exercise.worked_answer() into the cell"
    )


@pytest.mark.parametrize("checker", sorted(EXERCISES))
def test_every_reference_is_a_named_plain_numpy_function_of_its_module(checker):
    reference = EXERCISES[checker].reference
    module = inspect.getmodule(reference)
    assert reference.__name__.startswith("solution_"), reference.__name__
    assert getattr(module, reference.__name__) is reference  # module level, not a lambda or a closure
    answer = EXERCISES[checker].worked_answer()
    assert answer.startswith(f"def {reference.__name__}(") and not answer.endswith("\n")
    assert "attnlib" not in answer, f"{checker}: the reference must not rely on attnlib"
    assert max(len(line) for line in answer.splitlines()) <= 110


@pytest.mark.parametrize("checker", sorted(EXERCISES))
def test_the_reference_passes_its_own_checker_run_from_the_worked_answer(checker):
    # What the learner copies from the page is a working answer: exec the text, not the function.
    namespace = {"np": np}
    exercise = EXERCISES[checker]
    exec(exercise.worked_answer(), namespace)  # noqa: S102 - our own source
    verdict = getattr(exercises, checker)(namespace[exercise.reference.__name__])
    assert verdict and verdict.cause == "correct", verdict


# Finding an exercise, and what the card lists


@pytest.mark.parametrize("checker", sorted(EXERCISES))
def test_an_exercise_is_found_from_its_checker_name_and_its_checker(checker):
    assert exercise_named(checker) is EXERCISES[checker]
    assert getattr(exercises, checker).exercise is EXERCISES[checker]


@pytest.mark.parametrize(("checker", "error"), [("check_nothing", ValueError), (None, TypeError)])
def test_exercise_named_refuses_what_is_not_a_checker(checker, error):
    with pytest.raises(error, match="checker"):
        exercise_named(checker)


def test_input_labels_list_every_hidden_input_and_mark_the_harder_ones():
    labels = exercise_named("check_softmax_rows").input_labels()
    assert labels == [
        ("scores of shape (3, 3)", False),
        ("scores of shape (2, 4)", False),
        ("scores of shape (2, 3)", True),
    ]
    assert all(not harder for _, harder in exercise_named("check_gram_matrix").input_labels())


def test_input_labels_are_in_the_language_chosen(zh_hans):
    label, harder = exercise_named("check_softmax_rows").input_labels()[-1]
    assert harder and "(2, 3)" in label and "scores" not in label
