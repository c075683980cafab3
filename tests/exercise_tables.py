"""The tests every module of attnlib.exercises gets from two tables of its test file.

``WRONG``: checker name -> {mistake key: a learner's wrong function written the way a learner would}.
``LIBRARY``: checker name -> the same answer computed with attnlib (or, where attnlib has no such
function, with another numpy formulation), so the exercise's plain-numpy reference and the library
check each other.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

import numpy as np
import pytest


def exercise_tests(
    module: ModuleType,
    wrong: Mapping[str, Mapping[str, Callable[..., Any]]],
    library: Mapping[str, Callable[..., Any]],
) -> tuple[Callable[..., None], ...]:
    """Three tests for ``module``: each mistake named, every diagnosis exercised, references agree."""
    exercises = {exercise.name: exercise for exercise in module.EXERCISES}
    rows = [(checker, key, answer) for checker, table in wrong.items() for key, answer in table.items()]

    @pytest.mark.parametrize(("checker", "key", "answer"), rows, ids=[f"{c}-{k}" for c, k, _ in rows])
    def test_each_typical_mistake_gets_its_own_diagnosis(checker, key, answer):
        verdict = getattr(module, checker)(answer)
        assert not verdict
        assert verdict.cause == key, verdict.message
        assert verdict.message and "{" not in verdict.message and "Traceback" not in verdict.message

    def test_every_diagnosis_in_the_tables_is_exercised():
        assert set(wrong) <= set(exercises) and set(library) == set(exercises)
        for checker, exercise in exercises.items():
            assert {m.key for m in exercise.mistakes} == set(wrong.get(checker, {})), checker
            assert len({m.key for m in exercise.mistakes}) == len(exercise.mistakes), checker

    @pytest.mark.parametrize("checker", sorted(library))
    def test_reference_agrees_with_the_library(checker):
        exercise = exercises[checker]
        for inputs in [*exercise.inputs, *exercise.harder_inputs]:
            ours, theirs = exercise.reference(*inputs), library[checker](*inputs)
            for a, b in zip(np.atleast_1d(ours) if not isinstance(ours, tuple) else ours,
                            np.atleast_1d(theirs) if not isinstance(theirs, tuple) else theirs, strict=True):
                np.testing.assert_allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), atol=1e-12)
        verdict = getattr(module, checker)(library[checker])
        assert verdict and verdict.cause == "correct", verdict.message

    return (
        test_each_typical_mistake_gets_its_own_diagnosis,
        test_every_diagnosis_in_the_tables_is_exercised,
        test_reference_agrees_with_the_library,
    )
