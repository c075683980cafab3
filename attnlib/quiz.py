"""Check your understanding: multiple-choice questions with instant feedback, as one widget.

    from attnlib.quiz import quiz
    quiz(2)              # the questions for notebook 02, from attnlib.quiz_bank
    quiz([{"prompt": "softmax([1, 2]) and softmax([11, 12]) are ...",
           "options": ["equal", "different"],
           "answer": 0,
           "explain": ["Adding a constant to every score changes nothing.", "Try it: they are equal."]}])

A question is plain data: ``prompt`` (text; ``$…$`` is typeset and `backticks` become code),
``options`` (at least two distinct texts), ``answer`` (the index of the right option) and ``explain``:
either one explanation per option, shown as soon as that option is picked, or a single explanation of
the right answer, shown once it is found (a wrong pick then just says so, and the learner tries again).

The widget also carries a Markdown version of the questions (without answers), so a notebook viewed
without a kernel, or shown as static slides, still lists them.

Every text is shown through ``tr`` (``attnlib.set_language``): the questions of the bank by their
English text, and the widget's own words (:data:`WORDS`) likewise.

Taught in: 00 §Check your understanding
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import ipywidgets as widgets

from .i18n import N_, tr
from .quiz_bank import for_notebook

__all__ = ["RIGHT", "WORDS", "WRONG", "Question", "Quiz", "feedback", "quiz", "shown"]

RIGHT, WRONG = N_("✔ Right."), N_("✘ Not quite.")
# The widget's own words (besides RIGHT and WRONG), shown through tr().
WORDS = {
    "title": N_("Check your understanding"),
    "numbered_title": N_("Check your understanding · {number:02d}"),
    "try_again": N_("“{option}” is not it: try another option."),
    "score": N_("{right} of {total} answered right"),
    "static": N_("(run the notebook to answer and get feedback)"),
}
LETTERS = "abcdefgh"
_KEYS = {"prompt", "options", "answer", "explain"}


@dataclass(frozen=True)
class Question:
    """One multiple-choice question; ``explanations`` has one entry per option, or exactly one.

    Taught in: 00 §Check your understanding
    """

    prompt: str
    options: tuple[str, ...]
    answer: int
    explanations: tuple[str, ...]

    @classmethod
    def from_data(cls, data: Question | Mapping[str, Any], number: int = 1) -> Question:
        """Validate plain data (a dict with prompt, options, answer, explain) into a Question."""
        if isinstance(data, Question):
            return data
        where = f"question {number}"
        if not isinstance(data, Mapping):
            raise TypeError(f"{where}: expected a dict with keys {sorted(_KEYS)}, got {type(data).__name__}")
        unknown, missing = set(data) - _KEYS, _KEYS - set(data)
        if unknown or missing:
            raise ValueError(
                f"{where}: expected keys {sorted(_KEYS)}; "
                f"unknown {sorted(unknown)}, missing {sorted(missing)}"
            )
        prompt, options, answer, explain = (data[k] for k in ("prompt", "options", "answer", "explain"))
        if not isinstance(prompt, str) or not prompt.strip():
            raise ValueError(f"{where}: prompt must be a non-empty string")
        if (
            isinstance(options, str)
            or not 2 <= len(options) <= len(LETTERS)
            or not all(isinstance(o, str) for o in options)
        ):
            raise ValueError(
                f"{where}: options must be a list of 2 to {len(LETTERS)} strings, got {options!r}"
            )
        if len(set(options)) != len(options):
            raise ValueError(f"{where}: options must differ from each other, got {options!r}")
        if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(options):
            raise ValueError(f"{where}: answer must be an option index 0..{len(options) - 1}, got {answer!r}")
        explanations = (explain,) if isinstance(explain, str) else tuple(explain)
        if len(explanations) not in (1, len(options)) or not all(
            isinstance(e, str) and e.strip() for e in explanations
        ):
            raise ValueError(
                f"{where}: explain must be one non-empty string or one per option ({len(options)}), "
                f"got {len(explanations)}"
            )
        return cls(prompt, tuple(options), answer, explanations)


def feedback(question: Question, choice: int) -> tuple[bool, str]:
    """Whether ``choice`` is right, and the text to show for it, in the current language.

    Parameters
    ----------
    question : Question
        The question answered.
    choice : int
        The index of the option picked.

    Returns
    -------
    right : bool
        Whether ``choice`` is the right option.
    text : str
        "Right." or "Not quite." and the explanation of that option (or of the right answer).

    Taught in: 00 §Check your understanding
    """
    right = choice == question.answer
    if len(question.explanations) == len(question.options):
        return right, f"{shown(RIGHT if right else WRONG)} {shown(question.explanations[choice])}"
    if right:
        return True, f"{shown(RIGHT)} {shown(question.explanations[0])}"
    return False, f"{shown(WRONG)} {shown(WORDS['try_again']).format(option=shown(question.options[choice]))}"


def shown(text: str) -> str:
    """``text`` in the current language, as the learner reads it.

    Taught in: 00 §Check your understanding
    """
    return tr(text)


def _lettered(options: Sequence[str]) -> list[str]:
    # Letters let a lecturer poll the room: "hands up for b".
    return [f"{letter}) {shown(text)}" for letter, text in zip(LETTERS, options, strict=False)]


def _html(text: str) -> str:
    # Escape first, then turn `code` into <code>; $…$ passes through for MathJax.
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


class Quiz(widgets.VBox):
    """The questions one under another, each with radio buttons and a feedback line, and a score.

    Parameters
    ----------
    questions : list of Question or dict
        The questions, as :class:`Question` or as plain data.
    title : str
        The heading; "Check your understanding" (in the current language) when empty.

    Attributes
    ----------
    questions : list of Question
    choices : list of ipywidgets.RadioButtons
        One per question; set ``.value`` to an option index to answer.
    feedbacks : list of ipywidgets.HTMLMath
        One per question.
    score : ipywidgets.HTML

    Taught in: 00 §Check your understanding
    """

    def __init__(self, questions: Sequence[Question | Mapping[str, Any]], title: str = "") -> None:
        if isinstance(questions, (str, Mapping)) or not len(questions):
            raise ValueError("questions must be a non-empty list of questions")
        self.questions = [Question.from_data(q, i) for i, q in enumerate(questions, start=1)]
        self.title = title or tr(WORDS["title"])
        self.choices: list[widgets.RadioButtons] = []
        self.feedbacks: list[widgets.HTMLMath] = []
        self.score = widgets.HTML()
        blocks = [widgets.HTML(f"<b>{html.escape(self.title)}</b>")]
        for number, question in enumerate(self.questions, start=1):
            choice = widgets.RadioButtons(
                options=[(label, i) for i, label in enumerate(_lettered(question.options))],
                value=None,
                layout=widgets.Layout(width="auto"),
            )
            note = widgets.HTMLMath("")
            choice.observe(lambda change, n=number - 1: self._answered(n, change["new"]), names="value")
            prompt = widgets.HTMLMath(f"<b>{number}.</b> {_html(shown(question.prompt))}")
            blocks.append(widgets.VBox([prompt, choice, note], layout=widgets.Layout(margin="0 0 8px 0")))
            self.choices.append(choice)
            self.feedbacks.append(note)
        super().__init__([*blocks, self.score])
        self._update_score()

    def _answered(self, n: int, choice: int | None) -> None:
        if choice is None:
            self.feedbacks[n].value = ""
        else:
            right, text = feedback(self.questions[n], choice)
            colour = "#1a7f37" if right else "#b42318"
            self.feedbacks[n].value = f'<span style="color:{colour}">{_html(text)}</span>'
        self._update_score()

    @property
    def n_right(self) -> int:
        """How many questions are answered right now."""
        return sum(c.value == q.answer for c, q in zip(self.choices, self.questions, strict=True))

    def _update_score(self) -> None:
        words = tr(WORDS["score"]).format(right=self.n_right, total=len(self.questions))
        self.score.value = f"<i>{html.escape(words)}</i>"

    def to_markdown(self) -> str:
        """The questions and options, without answers: what shows where widgets cannot run."""
        lines = [f"**{self.title}** {tr(WORDS['static'])}", ""]
        for number, question in enumerate(self.questions, start=1):
            lines.append(f"{number}. {shown(question.prompt)}")
            lines += [f"    - {label}" for label in _lettered(question.options)]
        return "\n".join(lines)

    def _repr_mimebundle_(self, **kwargs):
        bundle = super()._repr_mimebundle_(**kwargs)
        bundle["text/markdown"] = self.to_markdown()
        bundle["text/plain"] = self.to_markdown()
        return bundle


def quiz(questions: int | Sequence[Question | Mapping[str, Any]], title: str = "") -> Quiz:
    """A quiz widget for a list of questions, or for notebook number ``questions`` of the bank.

    Parameters
    ----------
    questions : int or list of Question or dict
        A notebook number (its questions come from :mod:`attnlib.quiz_bank`), or the questions.
    title : str
        The heading; for a notebook number, "Check your understanding · NN" when empty.

    Returns
    -------
    Quiz
        The widget; display it (the last line of a cell does).

    Taught in: 00 §Check your understanding
    """
    if isinstance(questions, int) and not isinstance(questions, bool):
        number = questions
        return Quiz(for_notebook(number), title or tr(WORDS["numbered_title"]).format(number=number))
    return Quiz(questions, title)
