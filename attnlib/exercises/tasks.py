"""An exercise read as a task, for a page where no Python runs (the website and the offline decks).

In JupyterLab an exercise cell answers with the checker's verdict. A page with no kernel cannot run
the learner's code, so it shows instead what the checker would do: what to write, which hidden
inputs it tries, what it checks and which known mistakes it names (each :class:`Mistake`'s
``watch`` phrase) and how to run it. (The worked answer is the notebook's folded solution cell, whose
code is the checker's own reference.)

Everything here is text in the current language (``attnlib.set_language``); the site and slide
builders (``tools/``) lay it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import N_, tr
from . import exercise_named
from .pipeline import say

__all__: list[str] = []  # read by the site and slide builders, not by a learner

WORDS = {
    "title": N_("Your task · this page does not run code"),
    "write": N_(
        "Write the body of `{function}` in the code above, in place of the line `raise NotImplementedError`."
    ),
    "inputs": N_("The checker calls your function on hidden inputs: {inputs}."),
    "harder": N_("Once those pass, it tries harder ones: {inputs}."),
    "checks": N_(
        "It checks that your function runs, returns an answer of shape {shape} with no NaN or infinity, "
        "and gives the right numbers. It knows these mistakes, so watch for:"
    ),
    "checks_number": N_(
        "It checks that your function runs and returns a single value, the right one. "
        "It knows these mistakes, so watch for:"
    ),
    "run": N_(
        "To run it: `make lab` opens the series in JupyterLab; open `{notebook}`, write your code in this "
        "cell and press Shift+Enter. The checker's verdict appears below the cell."
    ),
    "separator": N_("; "),
    "summary": N_("What the checker tests"),
}

# The projection puzzle of notebook 04 is not a function: the learner fills two matrices in.
PUZZLE = {
    "write": N_(
        "Put numbers into `{W_q}` and `{W_k}` in the code above (rows: the features; columns: d_k)."
    ),
    "checks": N_(
        "The checker computes softmax(Q·Kᵀ/√d_k) with Q = X·W_q and K = X·W_k for the sentence, and asks "
        "that '{query}' give '{key}' the most attention, and at least one half. Watch for:"
    ),
    "watch": (
        N_("W_q or W_k left all zeros (every word then gets the same weight)"),
        N_("a key feature that the query word has as much of as the target word (it attends to itself)"),
        N_("a key feature that another word has more of than the target word"),
        N_("entries too small: the right word wins, but with less than half of the attention"),
        N_("a matrix the wrong way round: W_q and W_k have one row per feature"),
        N_("W_q and W_k of different widths (d_k)"),
    ),
}


@dataclass(frozen=True)
class Task:
    """What a page with no Python shows for one exercise cell, in the current language.

    ``paragraphs`` are lines of text (`code` in backticks), ``watch`` the list after the last
    paragraph, ``run`` how to run the exercise; ``summary`` names the checks where they are folded away.
    """

    title: str
    summary: str
    paragraphs: tuple[str, ...]
    watch: tuple[str, ...]
    run: str


def exercise_task(checker: str, function: str, notebook: str) -> Task:
    """The task card of the exercise ``checker`` checks, for the learner's ``function`` in ``notebook``.

    Parameters
    ----------
    checker : str
        The public checker's name, e.g. ``"check_softmax_rows"``.
    function : str
        The name of the learner's function in the exercise cell, e.g. ``"my_softmax"``.
    notebook : str
        The notebook's path as the learner opens it in JupyterLab, e.g. ``"02_softmax.ipynb"``.
    """
    exercise = exercise_named(checker)
    separator = tr(WORDS["separator"])

    def labels(harder: bool) -> str:  # each distinct label once
        return separator.join(dict.fromkeys(label for label, h in exercise.input_labels() if h == harder))

    paragraphs = [say(WORDS["write"], function=function), say(WORDS["inputs"], inputs=labels(False))]
    if exercise.harder_inputs:
        paragraphs.append(say(WORDS["harder"], inputs=labels(True)))
    single = exercise.shape == "()"
    paragraphs.append(say(WORDS["checks_number"]) if single else say(WORDS["checks"], shape=exercise.shape))
    return Task(tr(WORDS["title"]), tr(WORDS["summary"]), tuple(paragraphs), tuple(exercise.watch_list()),
                say(WORDS["run"], notebook=notebook))


def puzzle_task(W_q: str, W_k: str, query: str, key: str, notebook: str) -> Task:
    """The task card of notebook 04's projection puzzle (``check_projection_puzzle``) for the
    learner's matrices ``W_q`` and ``W_k``, which should make ``query`` attend to ``key``."""
    paragraphs = (say(PUZZLE["write"], W_q=W_q, W_k=W_k), say(PUZZLE["checks"], query=query, key=key))
    return Task(tr(WORDS["title"]), tr(WORDS["summary"]), paragraphs, tuple(tr(w) for w in PUZZLE["watch"]),
                say(WORDS["run"], notebook=notebook))
