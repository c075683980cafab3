"""attnlib.exercises.pipeline: the same steps, in the same order, for every exercise of the series."""

from __future__ import annotations

import html
import inspect

import numpy as np
import pytest

from attnlib import exercises
from attnlib.exercises.pipeline import GENERIC_MESSAGES, Exercise, Mistake, Verdict

# A toy exercise: double the input. One typical mistake: adding instead of doubling.
DOUBLE = Exercise(
    name="check_double",
    reference=lambda x: 2 * x,
    inputs=[(np.array([1.0, 2.0]),)],
    shape="(n,)",
    facts=lambda x: {"n": x.size, "label": "x of length {n}"},
    mistakes=[
        Mistake("added_one", "you added 1 instead of doubling", wrong=lambda x: x + 1),
        Mistake("nan_known", "a known mistake that gives NaN", wrong=lambda x: np.array([np.nan, 4.0])),
    ],
    success="right",
)

CHECKERS = sorted(
    (exercise.name, module) for module in exercises.NOTEBOOKS.values() for exercise in module.EXERCISES
)


def unwritten(*args):
    raise NotImplementedError


@pytest.mark.parametrize(
    ("answer", "cause", "words"),
    [
        (3, "not_callable", "pass your function itself (no brackets); got int"),
        (unwritten, "not_written", "not written yet"),
        (lambda x: 1 / 0, "raised", "your function raised ZeroDivisionError: division by zero"),
        (lambda x: None, "returned_none", "did you forget the `return` line?"),
        (lambda x: x + 1, "added_one", "you added 1 instead of doubling"),
        (lambda x: np.array([np.nan, 4.0]), "nan_known", "a known mistake that gives NaN"),
        (lambda x: object(), "not_numbers", "should be an array of numbers; got object"),
        (lambda x: x[:1], "shape", "has shape (1,) but should have shape (n,) = (2,) (x of length 2)"),
        (lambda x: x * np.nan, "not_finite", "contains NaN or infinity (x of length 2)"),
        (lambda x: x + [1, 3], "numbers", "at index (1,) you have 5.0000, expected 4.0000"),
        (lambda x: 2 * x, "correct", "right"),
    ],
)
def test_each_step_of_the_pipeline(answer, cause, words):
    verdict = DOUBLE.check(answer)
    assert isinstance(verdict, Verdict) and verdict.cause == cause
    assert bool(verdict) is (cause == "correct")
    assert words in verdict.message
    assert str(verdict).startswith("✅" if verdict else "❌") and html.escape(verdict.message) in verdict._repr_html_()
    # in HTML the mark is drawn, with its word for a screen reader: no emoji a machine may lack a font for
    shown = verdict._repr_html_()
    assert "<svg" in shown and "✅" not in shown and "❌" not in shown
    assert f"aria-label='{'right' if verdict else 'wrong'}'" in shown


def test_every_generic_message_formats_with_its_placeholders():
    causes = {"not_callable", "not_written", "raised", "returned_none", "not_numbers", "shape"}
    causes |= {"not_finite", "numbers", "value", "not_a_tuple", "dtype", "raised_at"}
    assert causes == set(GENERIC_MESSAGES)


@pytest.mark.parametrize(("name", "module"), CHECKERS)
def test_every_checker_walks_the_same_first_steps(name, module):
    check = getattr(exercises, name)
    assert check is getattr(module, name) and name in exercises.__all__
    assert check(np.zeros(3)).cause == "not_callable"
    assert check(unwritten).cause == "not_written"
    assert check(lambda *args: None).cause == "returned_none"
    verdict = check(lambda *args: 1 / 0)
    assert verdict.cause == "raised" and "ZeroDivisionError" in verdict.message


@pytest.mark.parametrize(("name", "module"), CHECKERS)
def test_odd_answers_get_words_not_a_crash(name, module):
    for odd in (np.zeros((7, 1, 2)), "text", np.array([np.nan]), (1, 2)):
        verdict = getattr(module, name)(lambda *args, odd=odd: odd)
        assert not verdict and verdict.message and "{" not in verdict.message


@pytest.mark.parametrize(("name", "module"), CHECKERS)
def test_every_checker_says_where_it_is_taught(name, module):
    doc = inspect.getdoc(getattr(module, name))
    number = next(n for n, m in exercises.NOTEBOOKS.items() if m is module)
    assert doc.splitlines()[-1] == f"Taught in: {number:02d} §Exercises"
    assert "Parameters\n----------" in doc and "Shapes:" in doc


def test_every_exercise_has_at_least_three_typical_mistakes():
    for name, module in CHECKERS:
        exercise = next(e for e in module.EXERCISES if e.name == name)
        assert len(exercise.mistakes) >= 3, name
