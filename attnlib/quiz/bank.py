"""The "check your understanding" questions of the series: data, read from ``bank.json`` beside this file.

``bank.json`` maps a notebook number ("00" to "09") to its questions, each an object with ``prompt``,
``options``, ``answer`` (the index of the right option) and ``explain`` (one explanation per option: why
that option is right or wrong), in English. Wrong options are the misconceptions learners really hold,
so each explanation names the mistake.

The Chinese texts are one catalogue per language, ``attnlib/locale/zh-Hans/quiz_bank.json`` (English
text → 简体) and its generated 繁體 twin ``attnlib/locale/zh-Hant/quiz_bank.json``
(``python -m tools.translate build``): the widget shows every text through ``tr``, so a change of wording in
``bank.json`` needs the same change of key in the 简体 catalogue (the tests name what is missing).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..checks import check_index
from ..i18n import N_

__all__ = ["BANK", "QUIZZES", "for_notebook"]

BANK = Path(__file__).with_name("bank.json")
QUIZZES: dict[int, list[dict[str, Any]]] = {
    int(number): questions for number, questions in json.loads(BANK.read_text(encoding="utf-8")).items()
}


def for_notebook(number: int) -> list[dict[str, Any]]:
    """The questions for notebook ``number``, in English (the widget translates them where shown).

    Parameters
    ----------
    number : int
        The notebook number, 0 to 9.

    Returns
    -------
    list of dict
        The questions, each with ``prompt``, ``options``, ``answer`` and ``explain``.

    Raises
    ------
    ValueError
        When there is no quiz for ``number``; the message names the numbers that exist.

    Serves: the quiz at the end of each notebook, not called in the notebooks by name.
    """
    check_index(number, "number", len(QUIZZES), what=N_("a notebook number"))
    return QUIZZES[number]
