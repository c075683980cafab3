"""The machinery behind the auto-checked exercises: run a learner's answer, say what is wrong.

A checker runs the learner's function on several hidden cases and compares with a reference.
Before the generic "the numbers differ", it tries *diagnoses*: small functions that recognise a
typical mistake (softmax over the wrong axis, no √d_k, masking with 0 ...) from the learner's
output and name it in words.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Case", "Diagnosis", "Verdict", "check_function", "compare", "matches", "softmax_rows"]

# A diagnosis looks at (learner's output, case) and returns a message if it recognises the mistake.
Diagnosis = Callable[[np.ndarray, "Case"], "str | None"]


@dataclass(frozen=True)
class Case:
    """One hidden test input: positional arguments, keyword arguments, and the expected answer."""

    args: tuple[Any, ...]
    expected: np.ndarray
    kwargs: dict[str, Any] = field(default_factory=dict)
    label: str = ""


@dataclass(frozen=True)
class Verdict:
    """The result of a check: truthy when right, and a message in words either way."""

    ok: bool
    message: str

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return ("✅ " if self.ok else "❌ ") + self.message

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour, mark = ("#1b7f3b", "✅") if self.ok else ("#b00020", "❌")
        return f"<div style='color:{colour}'>{mark} {html.escape(self.message)}</div>"


def compare(got: Any, case: Case, diagnoses: Sequence[Diagnosis], atol: float) -> str | None:
    """None if ``got`` matches the expected answer of ``case``, else what is wrong, in words."""
    expected = np.asarray(case.expected)
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return f"your answer should be an array of numbers; got {type(got).__name__}"
    where = f" ({case.label})" if case.label else ""
    if got.shape != expected.shape:
        shape_hint = None
        for diagnose in diagnoses:
            shape_hint = diagnose(got, case)
            if shape_hint:
                break
        return shape_hint or (
            f"your answer has shape {got.shape} but should have shape {expected.shape}{where}"
        )
    if np.isnan(got).any():
        return f"your answer contains NaN{where}: look for 0/0 or inf - inf"
    if np.allclose(got, expected, atol=atol, rtol=0):
        return None
    for diagnose in diagnoses:
        message = diagnose(got, case)
        if message:
            return message
    i = np.unravel_index(np.argmax(np.abs(got - expected)), got.shape) if got.ndim else ()
    return (
        f"your numbers differ from the expected ones{where}: at index {tuple(int(k) for k in i)} "
        f"you have {float(got[i]):.4f}, expected {float(expected[i]):.4f}"
    )


def check_function(
    candidate: Any,
    cases: Sequence[Case],
    *,
    diagnoses: Sequence[Diagnosis] = (),
    success: str = "correct on every hidden case",
    atol: float = 1e-6,
) -> Verdict:
    """Run ``candidate`` on every case; the first failure is diagnosed and returned as a Verdict."""
    if not callable(candidate):
        return Verdict(False, f"pass your function itself (no brackets); got {type(candidate).__name__}")
    for case in cases:
        args = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in case.args)
        try:
            with np.errstate(all="ignore"):
                got = candidate(*args, **case.kwargs)
        except NotImplementedError:
            return Verdict(
                False, "not written yet: replace the `raise NotImplementedError` line with your code"
            )
        except Exception as err:  # the learner's code: any failure is feedback, not a crash
            return Verdict(False, f"your function raised {type(err).__name__}: {err}")
        if isinstance(got, tuple) and len(got) and not isinstance(case.expected, tuple):
            got = got[0]
        with np.errstate(all="ignore"):
            problem = compare(got, case, diagnoses, atol)
        if problem:
            return Verdict(False, problem)
    return Verdict(True, success)


# Building blocks for diagnoses: is the learner's output equal to a known wrong answer?


def matches(got: Any, wrong: Any, atol: float = 1e-6) -> bool:
    """True when ``got`` has the shape of ``wrong`` and the same numbers (equal infinities count as equal)."""
    try:
        got = np.asarray(got, dtype=float)
        wrong = np.asarray(wrong, dtype=float)
    except (TypeError, ValueError):
        return False
    if got.shape != wrong.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.allclose(got, wrong, atol=atol, rtol=0, equal_nan=True))


def softmax_rows(scores: np.ndarray, axis: int = -1) -> np.ndarray:
    """A plain softmax that tolerates all -inf slices (NaN there), for building wrong answers."""
    with np.errstate(all="ignore"):
        m = np.max(scores, axis=axis, keepdims=True)
        e = np.exp(scores - np.where(np.isfinite(m), m, 0.0))
        return e / e.sum(axis=axis, keepdims=True)
