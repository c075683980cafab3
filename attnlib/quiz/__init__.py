"""Check your understanding: multiple-choice questions with instant feedback, drawn in the page.

    from attnlib.quiz import quiz
    quiz(2)              # the questions for notebook 02, from the bank
    quiz([{"prompt": "softmax([1, 2]) and softmax([11, 12]) are ...",
           "options": ["equal", "different"],
           "answer": 0,
           "explain": ["Adding a constant to every score changes nothing.", "Try it: they are equal."]}])

A question is plain data: ``prompt`` (text; `backticks` become code), ``options`` (at least two
distinct texts), ``answer`` (the index of the right option) and ``explain``: either one explanation
per option, shown as soon as that option is picked, or a single explanation of the right answer,
shown once it is found (a wrong pick then just says so, and the learner tries again).
The learner may try again until right, reading each explanation; the score counts each question's first
answer ("3 of 4 right at the first try").

The package holds three things:

- ``bank.json``: the series' questions, keyed by notebook number, as data (:mod:`.bank` reads it;
  :data:`QUIZZES`, :func:`for_notebook`). Their Chinese texts are the catalogues
  ``attnlib/locale/<language>/quiz_bank.json``, one per language, keyed by the English text.
- :mod:`.widget`: :class:`Question`, :func:`feedback` and the :class:`Quiz` widget.
- ``quiz.js``: the page module that draws a quiz, on the page kit (``attnlib.page``). The same module
  draws it in JupyterLab, in RISE, on the static site and in the offline slides.

Taught in: 00 §Check your understanding
"""

from .bank import QUIZZES, for_notebook
from .widget import LETTERS, RIGHT, WORDS, WRONG, Question, Quiz, as_html, feedback, quiz

__all__ = [
    "LETTERS",
    "QUIZZES",
    "RIGHT",
    "WORDS",
    "WRONG",
    "Question",
    "Quiz",
    "as_html",
    "feedback",
    "for_notebook",
    "quiz",
]
