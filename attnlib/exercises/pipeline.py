"""One pipeline for every exercise: run the learner's function, then say what is right or wrong.

An exercise is data (:class:`Exercise`): the reference answer written in plain numpy, the hidden
inputs, and a table of typical wrong answers (:class:`Mistake`), each with what to say.
The references (the ``solution_*`` functions) stay independent of ``attnlib.core``: the notebooks
show the learner's function and attnlib's giving the same numbers, so a reference built on attnlib
would let a bug shared by attnlib and the checker pass unseen. The wrong answers and the hidden
inputs use attnlib.core (``softmax_rows``, ``masked_scores``, ``additive_mask``). Every checker walks
the same steps, in this order, on each hidden input:

1. the answer is a function (not its result);
2. it runs without raising (``NotImplementedError`` means "not written yet"; any other error is
   shown with the line of the learner's code that raised it);
3. it returns something (``None``: "did you forget the `return` line?");
4. if the answer is not the reference, the table of typical wrong answers is looked up first, so a
   known mistake gets its own words even when its numbers are NaN or its shape is wrong;
5. otherwise the generic words: not numbers, then the wrong shape (in the formula's symbols), then
   NaN or infinity, then where the numbers differ.

Every message is an English template marked with ``N_`` and shown through ``tr``, so the learner
reads it in the language chosen with ``attnlib.set_language``; placeholders are filled afterwards
from the exercise's ``facts`` (the sizes of the hidden input, in the formula's symbols), from
``{which}`` (which answer of a :class:`OneOf` it was) and from ``{got_shape}`` and ``{got_dtype}``
(of the learner's answer).
"""

from __future__ import annotations

import html
import inspect
import linecache
import textwrap
import traceback
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..core import softmax
from ..i18n import N_, tr

__all__ = [
    "GENERIC_MESSAGES",
    "Exercise",
    "Mistake",
    "OneOf",
    "Verdict",
    "checkers",
    "say",
    "matches",
    "softmax_rows",
]

# The words of the generic steps, by cause (Verdict.cause): the same for every exercise.
GENERIC_MESSAGES = {
    "not_callable": N_("pass your function itself (no brackets); got {kind}"),
    "not_written": N_("not written yet: replace the `raise NotImplementedError` line with your code"),
    "raised": N_("your function raised {error}: {detail} ({label})"),
    "raised_at": N_("your function raised {error}: {detail} ({label}; at line {line}: `{code}`)"),
    "returned_none": N_("your function returned None: did you forget the `return` line?"),
    "not_numbers": N_("your answer should be an array of numbers; got {kind}"),
    "not_a_tuple": N_("return {n} results, {shape}; got {kind}"),
    "shape": N_(
        "your answer has shape {got_shape} but should have shape {shape} = {expected_shape} ({label})"
    ),
    "not_finite": N_(
        "your answer contains NaN or infinity ({label}): look for 0/0, inf − inf or an overflowing exp"
    ),
    "dtype": N_("right numbers, but of type {dtype} ({label}); the answer should be {wanted}"),
    "numbers": N_(
        "your numbers differ from the expected ones ({label}): "
        "at index {index} you have {got}, expected {expected}"
    ),
    "value": N_("for {label} you answered {got}, expected {expected}"),
}
CHECKER_DOC = """Check {task}.

Parameters
----------
candidate : callable
    The learner's function; it is run on hidden inputs (copies, so it cannot change them).

Returns
-------
Verdict
    Truthy when every hidden input gives the right answer; its message says what is wrong otherwise.

Shapes:
    {shapes}

Taught in: {taught}
"""
DTYPE_WORDS = {"b": N_("boolean (True/False)"), "i": N_("integer"), "f": N_("floating point")}
_HERE = str(Path(__file__).resolve())


class OneOf(dict):
    """Several wrong answers of one kind, keyed by what tells them apart (``{which}`` in the message).
    """


@dataclass(frozen=True)
class Mistake:
    """A typical wrong answer and what to say about it.

    Parameters
    ----------
    key : str
        A short name for the mistake (``Verdict.cause`` when it is recognised).
    message : str
        What to say, an English template marked with ``N_``; its placeholders are filled from the
        exercise's ``facts`` (and ``{which}`` from a :class:`OneOf`).
    wrong : callable, optional
        The wrong answer as a function of the hidden inputs (the same arguments as the learner's
        function), or a :class:`OneOf` of such answers.
    spotted : callable, optional
        ``spotted(answer, *inputs) -> bool``: a property of the learner's answer that gives the
        mistake away, or a condition on the inputs under which ``wrong`` is the mistake.
    part : int, optional
        For an exercise whose answer is a tuple: compare only this element with ``wrong`` (or the
        whole answer, when the learner returned a single array).
    watch : str
        The mistake as a thing to watch for, before anyone has made it (an English phrase marked with
        ``N_``, e.g. "normalising the columns instead of the rows"): what a page with no Python lists
        under the exercise.
    """

    key: str
    message: str
    wrong: Callable[..., Any] | None = None
    spotted: Callable[..., bool] | None = None
    part: int | None = None
    watch: str = ""

    def recognises(self, got: Any, inputs: tuple[Any, ...]) -> tuple[bool, Any]:
        """Whether the answer ``got`` to ``inputs`` is this mistake, and the ``which`` it was."""
        if self.part is not None and isinstance(got, tuple):
            if len(got) <= self.part:
                return False, None
            got = got[self.part]
        try:
            with np.errstate(all="ignore"):
                if self.spotted is not None and not self.spotted(got, *inputs):
                    return False, None
                if self.wrong is None:
                    return True, None
                wrong = self.wrong(*inputs)
                options = wrong.items() if isinstance(wrong, OneOf) else [(None, wrong)]
                for which, answer in options:
                    if matches(got, answer):
                        return True, which
        except (ValueError, TypeError, IndexError, ArithmeticError):  # a wrong answer of an odd shape
            pass
        return False, None


# A verdict's mark in HTML, drawn (a tick or a cross) rather than an emoji that a machine without an
# emoji font shows as an empty box: colour, the path, and the word a screen reader says.
_MARKS = {
    True: ("#1b7f3b", "M2.5 8.5 6.5 12.5 13.5 4", N_("right")),
    False: ("#b00020", "M3.5 3.5 12.5 12.5M12.5 3.5 3.5 12.5", N_("wrong")),
}


@dataclass(frozen=True)
class Verdict:
    """The result of a check: truthy when right, and a message in words either way.

    ``cause`` names what was said: ``"correct"``, the key of a :class:`Mistake`, or a generic step
    (a key of :data:`GENERIC_MESSAGES`).
    """

    ok: bool
    message: str
    cause: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        return ("✅ " if self.ok else "❌ ") + self.message

    __repr__ = __str__

    def _repr_html_(self) -> str:
        colour, stroke, word = _MARKS[self.ok]
        label = html.escape(tr(word))
        mark = (f"<svg viewBox='0 0 16 16' width='1em' height='1em' role='img' aria-label='{label}' "
                "style='vertical-align:-0.15em;fill:none;stroke:currentColor;stroke-width:2.4;stroke-linecap:round;"
                f"stroke-linejoin:round'><path d='{stroke}'/></svg>")
        return f"<div style='color:{colour}'>{mark} {html.escape(self.message)}</div>"


@dataclass(frozen=True)
class Exercise:
    """One exercise as data: the reference answer, the hidden inputs and the typical mistakes.

    Parameters
    ----------
    name : str
        The name of the public checker, e.g. ``"check_gram_matrix"``.
    reference : callable
        The right answer, in plain numpy, mirroring the formula (independent of ``attnlib.core``):
        a module-level ``solution_...`` function whose source is the worked answer, the very text of
        the notebook's folded solution cell (:meth:`worked_answer`).
    inputs : sequence of tuple
        The hidden inputs, each the positional arguments of one call.
    shape : str
        The answer's shape in the formula's symbols, e.g. ``"(T, T)"``.
    facts : callable
        ``facts(*inputs) -> dict``: the values of the symbols for one input (``T``, ``d_k`` ...),
        used to fill the messages; ``label`` (which input this is) is required.
    mistakes : sequence of Mistake
        The typical wrong answers, looked up in order; the first that fits is said.
    success : str
        What to say when every hidden input gives the reference answer.
    harder_inputs : sequence of tuple
        Inputs tried only once ``inputs`` pass (large batch axes, huge scores ...).
    harder_context : str
        A template that wraps any failure on ``harder_inputs``, with the failure as ``{detail}``.
    dtype : str, optional
        The kind of array the answer must be (``"b"``: boolean), beyond having the right numbers.
    task, shapes : str
        For the checker's docstring: what the learner's function does, and its shapes in symbols.
    """

    name: str
    reference: Callable[..., Any]
    inputs: Sequence[tuple[Any, ...]]
    shape: str
    facts: Callable[..., Mapping[str, Any]]
    mistakes: Sequence[Mistake]
    success: str
    harder_inputs: Sequence[tuple[Any, ...]] = ()
    harder_context: str = "{detail}"
    dtype: str | None = None
    atol: float = 1e-6
    task: str = ""
    shapes: str = ""

    def checker(self, module: str, taught: str) -> Callable[[Any], Verdict]:
        """The public ``check_...`` function of this exercise, as a function of ``module``.

        Its NumPy-style docstring ends with ``Taught in: {taught}``, the notebook section of the
        exercise (e.g. ``"01 §Exercises"``).
        """

        def check(candidate: Any) -> Verdict:
            return self.check(candidate)

        check.__name__ = check.__qualname__ = self.name
        check.__module__ = module
        check.__doc__ = CHECKER_DOC.format(task=self.task, shapes=self.shapes, taught=taught)
        check.exercise = self  # type: ignore[attr-defined]  # what a page with no Python reads
        return check

    def worked_answer(self) -> str:
        """The source of ``reference``: the worked answer that the notebook's folded solution cell and
        a page with no Python show, so that what the learner reads is what the checker compares with."""
        return textwrap.dedent(inspect.getsource(self.reference)).strip("\n")

    def input_labels(self) -> list[tuple[str, bool]]:
        """``(label, harder)`` for each hidden input, in the current language: which inputs the checker
        tries, for a page with no Python (``harder`` marks ``harder_inputs``, tried once the others pass)."""
        return [
            (self.facts_shown(inputs)["label"], harder)
            for harder, group in ((False, self.inputs), (True, self.harder_inputs))
            for inputs in group
        ]

    def watch_list(self) -> list[str]:
        """The ``watch`` phrase of each mistake, in the current language: what a page with no Python
        lists as "watch for" under the exercise."""
        return [tr(mistake.watch) for mistake in self.mistakes if mistake.watch]

    def check(self, candidate: Any) -> Verdict:
        """Run ``candidate`` on every hidden input and say what is right or wrong about it."""
        if not callable(candidate):
            return _said("not_callable", kind=type(candidate).__name__)
        for inputs in self.inputs:
            verdict = self._check_one(candidate, inputs)
            if verdict is not None:
                return verdict
        for inputs in self.harder_inputs:
            verdict = self._check_one(candidate, inputs)
            if verdict is not None:
                if verdict.cause == "not_written":
                    return verdict
                message = say(self.harder_context, **self.facts_shown(inputs), detail=verdict.message)
                return Verdict(False, message, verdict.cause)
        return Verdict(True, say(self.success), "correct")

    def facts_shown(self, inputs: tuple[Any, ...]) -> dict[str, Any]:
        """The facts of one hidden input, its label filled in: what the messages are filled with."""
        facts = dict(self.facts(*inputs))
        facts["label"] = say(facts["label"], **facts)
        return facts

    def _check_one(self, candidate: Callable[..., Any], inputs: tuple[Any, ...]) -> Verdict | None:
        """None when ``candidate`` gives the reference answer on ``inputs``, else the Verdict."""
        facts = self.facts_shown(inputs)
        copies = tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in inputs)
        try:
            with np.errstate(all="ignore"):
                got = candidate(*copies)
        except NotImplementedError:
            return _said("not_written")
        except Exception as err:  # the learner's code: any failure is feedback, not a crash
            return _raised(err, facts)
        if got is None:
            return _said("returned_none")
        expected = self.reference(*inputs)
        if isinstance(got, tuple) and got and not isinstance(expected, tuple):
            got = got[0]  # e.g. (out, weights) where only out is asked for
        got = _as_answer(got, expected)
        if self._is_right(got, expected):
            return None
        for mistake in self.mistakes:
            found, which = mistake.recognises(got, inputs)
            if found:
                which = tr(which) if isinstance(which, str) else which
                shown = {"which": which, "got_shape": _shape(got), "got_dtype": getattr(got, "dtype", "")}
                message = say(mistake.message, **facts, **shown)
                return Verdict(False, message, mistake.key)
        return self._generic(got, expected, facts)

    def _is_right(self, got: Any, expected: Any) -> bool:
        if not matches(got, expected, self.atol):
            return False
        return self.dtype is None or np.asarray(got).dtype.kind == self.dtype

    def _generic(self, got: Any, expected: Any, facts: dict[str, Any]) -> Verdict:
        """Steps 5: the words for an answer that no entry of the table recognises."""
        if isinstance(expected, tuple):
            if not isinstance(got, tuple) or len(got) != len(expected):
                return _said("not_a_tuple", n=len(expected), shape=self.shape, kind=type(got).__name__)
            for part, want in zip(got, expected, strict=True):
                if not matches(part, want, self.atol):
                    return self._generic(part, want, facts)
        try:
            array = np.asarray(got, dtype=float)
        except (TypeError, ValueError):
            return _said("not_numbers", kind=type(got).__name__)
        want = np.asarray(expected, dtype=float)
        if array.shape != want.shape:
            return _said(
                "shape", got_shape=array.shape, shape=self.shape, expected_shape=want.shape, **facts
            )
        if not np.isfinite(array).all() and np.isfinite(want).all():
            return _said("not_finite", **facts)
        if matches(array, want, self.atol) and self.dtype is not None:
            wanted = tr(DTYPE_WORDS.get(self.dtype, self.dtype))
            return _said("dtype", dtype=np.asarray(got).dtype, wanted=wanted, **facts)
        if array.ndim == 0:
            return _said("value", got=_number(got), expected=_number(expected), **facts)
        with np.errstate(all="ignore"):
            gap = np.where(np.isclose(array, want, atol=self.atol, rtol=0), 0.0, np.abs(array - want))
        index = np.unravel_index(int(np.argmax(np.nan_to_num(gap, nan=np.inf))), array.shape)
        return _said(
            "numbers",
            index=tuple(int(i) for i in index),
            got=f"{float(array[index]):.4f}",
            expected=f"{float(want[index]):.4f}",
            **facts,
        )


def checkers(module: str, exercises: Sequence[Exercise], taught: str) -> tuple[Callable[[Any], Verdict], ...]:
    """The public checkers of ``exercises``, in order, as functions of ``module``, taught in ``taught``.
    """
    return tuple(exercise.checker(module, taught) for exercise in exercises)


def say(template: str, **facts: Any) -> str:
    """``template`` in the current language, its placeholders filled from ``facts``.

    Parameters
    ----------
    template : str
        An English message marked with ``N_``.
    **facts
        The values of its placeholders.

    Returns
    -------
    str
        What the learner reads.
    """
    return tr(template).format(**facts)


def _said(cause: str, **facts: Any) -> Verdict:
    return Verdict(False, say(GENERIC_MESSAGES[cause], **facts), cause)


def _raised(err: Exception, facts: dict[str, Any]) -> Verdict:
    """The learner's exception, with the line of their own code that raised it when it is known."""
    learner = [
        frame
        for frame in traceback.extract_tb(err.__traceback__)
        if frame.filename != _HERE and "site-packages" not in frame.filename
    ]
    detail = str(err) or type(err).__name__
    if learner:
        frame = learner[-1]
        code = (frame.line or linecache.getline(frame.filename, frame.lineno or 0)).strip()
        if code:
            return Verdict(
                False,
                say(GENERIC_MESSAGES["raised_at"], error=type(err).__name__, detail=detail, line=frame.lineno,
                    code=code, **facts),
                "raised",
            )
    return _said("raised", error=type(err).__name__, detail=detail, **facts)


def _as_answer(got: Any, expected: Any) -> Any:
    """The learner's answer as arrays (a tuple of them where the reference is a tuple)."""
    if isinstance(expected, tuple) and isinstance(got, (tuple, list)):
        return tuple(_as_answer(g, e) for g, e in zip(got, expected, strict=False)) + tuple(
            got[len(expected) :]
        )
    try:
        array = np.asarray(got)
    except (TypeError, ValueError):
        return got
    return got if array.dtype == object else array


def _shape(got: Any) -> tuple[int, ...] | str:
    return tuple(np.shape(got)) if not isinstance(got, tuple) else f"tuple of {len(got)}"


def _number(value: Any) -> str:
    array = np.asarray(value)
    if array.dtype.kind == "b":
        return str(bool(array))
    return f"{float(array):.4g}" if array.dtype.kind in "fc" else str(array.item())


# Building blocks for wrong answers


def matches(got: Any, wrong: Any, atol: float = 1e-6) -> bool:
    """True when ``got`` has the shape of ``wrong`` and the same numbers (equal NaN and infinities count).

    Tuples match element by element.
    """
    if isinstance(wrong, tuple):
        return (
            isinstance(got, tuple)
            and len(got) == len(wrong)
            and all(matches(g, w, atol) for g, w in zip(got, wrong, strict=True))
        )
    if isinstance(got, tuple):
        return False
    try:
        got = np.asarray(got, dtype=float)
        wrong = np.asarray(wrong, dtype=float)
    except (TypeError, ValueError):
        return False
    if got.shape != wrong.shape:
        return False
    with np.errstate(all="ignore"):
        return bool(np.allclose(got, wrong, atol=atol, rtol=0, equal_nan=True))


def softmax_rows(scores: Any, axis: int = -1) -> np.ndarray:
    """``attnlib.core.softmax`` along ``axis``, but NaN (not an error) where every score is ``-inf``.

    For the typical wrong answers and the hidden inputs: a mistake such as an inverted mask may block
    every key of a query, and the learner who makes it gets NaN, not an error. The references stay
    independent of attnlib.core (the ``solution_*`` functions, written out in plain numpy).
    """
    scores = np.asarray(scores, dtype=float)
    dead = np.isneginf(scores).all(axis=axis, keepdims=True)
    return np.where(dead, np.nan, softmax(np.where(dead, 0.0, scores), axis=axis))
