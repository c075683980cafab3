"""The quiz widget: a question validated from plain data, its feedback, and the anywidget the page draws.

The page module is ``quiz.js`` beside this file, on the page kit (``attnlib.page``: ``kit.js``, the
bundler and the widget base). Python puts every text the page can show into ``spec``, in the current
language (the prompts, the lettered options, the feedback for every option as :func:`feedback` words
it, and the score line for every count), and the page only shows them; a quiz of the series also carries
its notebook's number, under which a page of the site keeps the learner's first answers in the browser
(``quiz.js``). The answers are the synced
``values``: ``"choices"``, the option on show for each question, and ``"first"``, the first option picked
for it, which the score counts (a learner may try again until right, reading each explanation, but the
first try is what they knew). A click in the page reaches Python, and :meth:`Quiz.answer` moves the page.

Every text is shown through ``tr`` (``attnlib.set_language``): the questions of the bank by their
English text, and the widget's own words (:data:`WORDS`) likewise.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import traitlets

from ..checks import check_index, check_keys, check_list
from ..i18n import N_, tr
from ..page import PageWidget, fonts_for
from .bank import for_notebook

__all__ = ["LETTERS", "RIGHT", "WORDS", "WRONG", "Question", "Quiz", "as_html", "feedback", "quiz"]

RIGHT, WRONG = N_("✔ Right."), N_("✘ Not quite.")
# The widget's own words (besides RIGHT and WRONG), shown through tr().
WORDS = {
    "title": N_("Check your understanding"),
    "numbered_title": N_("Check your understanding · {number:02d}"),
    "try_again": N_("“{option}” is not it: try another option."),
    "score": N_("{right} of {total} right at the first try"),
}
# What the checks of a question say is wanted (attnlib.checks words the rest of the message).
_WANTED = {
    "question": N_("question {number}"),
    "one_text": N_("a non-empty text"),
    "options": N_("a list of 2 to {most} different non-empty texts"),
    "option_index": N_("an option index"),
    "explain": N_("one non-empty text, or one per option ({n})"),
    "questions": N_("a non-empty list of questions"),
    "question_index": N_("a question index"),
    "choices": N_("a list of one choice per question ({n})"),
    "first": N_("a list of one first choice per question ({n})"),
}
LETTERS = "abcdefgh"
_NAMES = {"choices": "choice", "first": "first choice"}  # of the values' lists, in messages
_KEYS = {"prompt", "options", "answer", "explain"}


@dataclass(frozen=True)
class Question:
    """One multiple-choice question; ``explanations`` has one entry per option, or exactly one.

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
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
        where = tr(_WANTED["question"]).format(number=number)
        data = check_keys(data, where, _KEYS)
        (prompt,) = check_list(data["prompt"], f"{where}: prompt", counts={1}, texts=True,
                               expected=tr(_WANTED["one_text"]))
        options = check_list(data["options"], f"{where}: options", counts=range(2, len(LETTERS) + 1),
                             texts=True, distinct=True,
                             expected=tr(_WANTED["options"]).format(most=len(LETTERS)))
        answer = check_index(data["answer"], f"{where}: answer", len(options), what=_WANTED["option_index"])
        explanations = check_list(data["explain"], f"{where}: explain", counts={1, len(options)}, texts=True,
                                  expected=tr(_WANTED["explain"]).format(n=len(options)))
        return cls(prompt, options, answer, explanations)


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

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
    """
    right = choice == question.answer
    verdict = tr(RIGHT if right else WRONG)
    if len(question.explanations) == len(question.options):
        return right, _sentences(verdict, tr(question.explanations[choice]))
    if right:
        return True, _sentences(verdict, tr(question.explanations[0]))
    try_again = tr(WORDS["try_again"]).format(option=tr(question.options[choice]))
    return False, _sentences(verdict, try_again)


def _sentences(first: str, second: str) -> str:
    # Chinese puts no space after its full stop; English does.
    return first + second if first.endswith("。") else f"{first} {second}"


def _lettered(options: Sequence[str]) -> list[str]:
    # Letters let a lecturer poll the room: "hands up for b".
    return [f"{letter}) {tr(text)}" for letter, text in zip(LETTERS, options, strict=False)]


def as_html(text: str) -> str:
    """``text`` as the page shows it: escaped, with `code` marked up (the page sets it as HTML).

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
    """
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


class Quiz(PageWidget):
    """The questions one under another, each a group of lettered radio buttons with a feedback line,
    and a score; drawn in the page by ``quiz.js`` beside this module.

    Parameters
    ----------
    questions : list of Question or dict
        The questions, as :class:`Question` or as plain data.
    title : str
        The heading; "Check your understanding" (in the current language) when empty.
    notebook : int or None
        The number of the notebook the quiz belongs to (0 to 99), or None. A page of the site keeps the
        learner's answers in the browser under it (``spec["notebook"]``, two digits: "02").

    Attributes
    ----------
    questions : list of Question
    spec : dict
        Every text the page shows, in the language current when the quiz was made.
    values : dict
        ``{"choices": [...], "first": [...]}``: the option on show for each question and the first one
        picked for it (``None``: not answered yet), synced with the page both ways.

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
    """

    def __init__(self, questions: Sequence[Question | Mapping[str, Any]], title: str = "",
                 notebook: int | None = None) -> None:
        check_list(questions, "questions", expected=tr(_WANTED["questions"]))
        self.questions = [Question.from_data(q, i) for i, q in enumerate(questions, start=1)]
        self.title = title or tr(WORDS["title"])
        self.notebook = check_index(notebook, "notebook", 100, what=N_("a notebook number"), optional=True)
        blank = [None] * len(self.questions)
        super().__init__("quiz", self._spec(), {"choices": blank, "first": list(blank)})

    def _spec(self) -> dict[str, Any]:
        total = len(self.questions)
        scores = [tr(WORDS["score"]).format(right=k, total=total) for k in range(total + 1)]
        questions, texts = [], [self.title, *scores]
        for q in self.questions:
            notes = [feedback(q, i) for i in range(len(q.options))]
            texts += [tr(q.prompt), *_lettered(q.options), *(text for _, text in notes)]
            questions.append({
                "prompt": as_html(tr(q.prompt)),
                "letters": list(LETTERS[: len(q.options)]),
                "options": [as_html(tr(o)) for o in q.options],
                "feedback": [{"right": right, "html": as_html(text)} for right, text in notes],
            })
        number = None if self.notebook is None else f"{self.notebook:02d}"
        return {"title": self.title, "questions": questions, "scores": scores, "notebook": number,
                "fonts": fonts_for(texts)}

    # The answers ----------------------------------------------------------------------------------
    @traitlets.validate("values")
    def _valid_values(self, proposal: Any) -> dict[str, Any]:
        # What the page sends (model.set("values", ...)): refused with the reason, as traitlets wants it.
        total = len(self.questions)
        try:
            values = check_keys(proposal["value"], "values", {"choices", "first"})
            picked = {}
            for key in ("choices", "first"):
                given = check_list(values[key], f"values['{key}']", counts={total},
                                   expected=tr(_WANTED[key]).format(n=total))
                picked[key] = [
                    check_index(c, f"{tr(_WANTED['question']).format(number=n)}: {_NAMES[key]}",
                                len(q.options), what=_WANTED["option_index"], optional=True)
                    for n, (q, c) in enumerate(zip(self.questions, given, strict=True), start=1)]
        except (TypeError, ValueError) as err:
            raise traitlets.TraitError(str(err)) from err
        # an answer on show was someone's first try, if none is recorded
        first = [c if f is None else f for c, f in zip(picked["choices"], picked["first"], strict=True)]
        return {"choices": picked["choices"], "first": first}

    @property
    def choices(self) -> list[int | None]:
        """The option picked for each question (``None``: not answered)."""
        return list(self.values["choices"])

    @property
    def first(self) -> list[int | None]:
        """The first option picked for each question (``None``: not answered): what the score counts."""
        return list(self.values["first"])

    def answer(self, question: int, choice: int | None) -> tuple[bool, str] | None:
        """Pick option ``choice`` (an index; ``None`` clears) for question ``question`` (0-based), as a
        click does: the page follows. The first option picked for a question stays its first try (what
        the score counts), whatever is picked after it. Returns the feedback now shown, or ``None`` when
        cleared."""
        question = check_index(question, "question", len(self.questions), what=_WANTED["question_index"])
        choice = check_index(choice, "choice", len(self.questions[question].options),
                             what=_WANTED["option_index"], optional=True)
        choices, first = self.choices, self.first
        choices[question] = choice
        if first[question] is None:
            first[question] = choice
        self.values = {"choices": choices, "first": first}
        return self.note(question)

    def note(self, question: int) -> tuple[bool, str] | None:
        """The feedback on show for question ``question`` (0-based): ``feedback()`` of the option
        picked, or ``None`` before any is."""
        choice = self.values["choices"][question]
        return None if choice is None else feedback(self.questions[question], choice)

    @property
    def n_right(self) -> int:
        """How many questions were answered right at the first try."""
        return sum(f == q.answer for f, q in zip(self.values["first"], self.questions, strict=True))

    @property
    def score(self) -> str:
        """The score line on show now ("N of M right at the first try")."""
        return self.spec["scores"][self.n_right]

    # Outside Jupyter -------------------------------------------------------------------------------
    def to_text(self) -> str:
        """The questions and lettered options, without answers: what a viewer without widgets shows."""
        lines = [f"**{self.title}**", ""]
        for number, question in enumerate(self.questions, start=1):
            lines.append(f"{number}. {tr(question.prompt)}")
            lines += [f"    - {label}" for label in _lettered(question.options)]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        bundle = super()._repr_mimebundle_(**kwargs)
        data = bundle[0] if isinstance(bundle, tuple) else bundle
        data["text/plain"] = self.to_text()
        data["text/markdown"] = self.to_text()
        return bundle


def quiz(questions: int | Sequence[Question | Mapping[str, Any]], title: str = "") -> Quiz:
    """A quiz for a list of questions, or for notebook number ``questions`` of the bank.

    Parameters
    ----------
    questions : int or list of Question or dict
        A notebook number (its questions come from the bank, :mod:`attnlib.quiz.bank`), or the questions.
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
        return Quiz(for_notebook(number), title or tr(WORDS["numbered_title"]).format(number=number), number)
    return Quiz(questions, title)
