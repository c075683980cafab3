"""The specs of the site's editor cards (page module ``"practice"``, ``attnlib/page/practice.js``).

An exercise cell of a notebook ends with its checker line, ``exercises.check_softmax_rows(my_softmax)``.
On the site the cell becomes a card: the learner's code in an editor, a Check button that runs it in the
page's Python (a Web Worker, ``attnlib/page/python_worker.js``) with that same checker line
(``attnlib.exercises.practice.run``), and the verdict. At the end of every notebook's page a scratch card
runs any code with Run.

:func:`exercise_spec` and :func:`scratch_spec` give a card's spec: its id (``"<notebook stem>/<name>"``,
the key under which the browser keeps the learner's code and pass), its starting code, its checker line,
the page's language, the way from the page to the site's folder (``root``: ``py/`` and ``assets/`` are
there) and every word the card shows, in that language.

Serves: the exercises and scratch cells of the site (tools/exercise_pages.py), not called in the notebooks.
"""

from __future__ import annotations

import re
from typing import Any

from ..checks import check_choice, check_type, refuse
from ..i18n import LANGUAGES, N_, translated

__all__ = ["AROUND", "TIME_LIMIT_MS", "WORDS", "exercise_name", "exercise_spec", "scratch_spec"]

TIME_LIMIT_MS = 5000  # a run that takes longer is stopped (the worker is ended and started anew)
# The checker line of an exercise cell; its first argument names the exercise (the learner's function,
# or the first matrix of 04's puzzle).
CHECK_LINE = re.compile(r"^exercises\.check_\w+\((\w+)\b[^\n]*\)[ \t]*$", re.M)
SCRATCH_CODE = """\
scores = np.array([1.0, 2.0, 3.0])
print(attnlib.softmax(scores))
attnlib.softmax(scores / 2)
"""
# Every word a card shows (the JavaScript fills the {fields}).
WORDS = {
    "check": N_("Check"),
    "run": N_("Run"),
    "reset": N_("Reset"),
    "reset_done": N_("The starting code is back."),
    "label": N_("Your code for {name}"),
    "scratch_label": N_("Scratch code"),
    "help": N_("Check runs your code here, in the page, with the notebook's checker (Ctrl+Enter or ⌘+Enter). "
               "Tab indents; press Esc, then Tab, to leave the editor."),
    "scratch_help": N_("Run shows what print writes and the value of the last line, as a notebook does "
                       "(Ctrl+Enter or ⌘+Enter). Tab indents; press Esc, then Tab, to leave the editor."),
    "waiting": N_("Python: starts when the page is idle"),
    "loading": N_("Python: loading {loaded} of {total} MB"),
    "starting": N_("Python: starting ({total} MB loaded)"),
    "ready": N_("Python: ready"),
    "failed": N_("Python could not start: {message}"),
    "unavailable": N_("Code runs in the page only when the site is served: run make serve and open the "
                      "address it prints. You can still edit the code here."),
    "running": N_("Running…"),
    "queued": N_("Python is loading; your code runs as soon as it is ready…"),
    "syntax": N_("Syntax error on line {line}: {message}"),
    "exception": N_("Error on line {line} of your code: {message}"),
    "error": N_("Error: {message}"),
    "timeout": N_("Stopped after {seconds} s: your code ran too long (an endless loop, or a very large "
                  "array?). Python starts again; your code is kept."),
    "crashed": N_("Python stopped ({message}). It starts again; your code is kept."),
    "nothing": N_("Ran, with nothing to show."),
}

# What the site writes around the cards (tools/exercise_pages.py): the task card, folded under an exercise's
# card, says that Check runs the code here; the scratch cell's heading and first line.
AROUND = {
    "task_title": N_("Your task · Check runs it in this page"),
    "task_fold": N_("Show the task: what to write, and what the checker tests"),
    "task_run": N_("Check runs your code in this page, with the notebook's own checker. It runs in "
                   "JupyterLab too: `make lab` opens the series; open `{notebook}`, write your code in this "
                   "cell and press Shift+Enter."),
    "scratch_heading": N_("Scratch cell"),
    "scratch_intro": N_("Try anything here: `np` (numpy) and `attnlib` are ready, as after the notebook's "
                        "first cell. Your code is kept in this browser."),
}


def exercise_name(cell_source: str) -> tuple[str, str] | None:
    """The exercise of a cell: ``(name, check line)`` if the cell ends with an exercise's checker line
    (``exercises.check_softmax_rows(my_softmax)`` gives ``("my_softmax", that line)``), else None."""
    check_type(cell_source, "cell_source", str, what=N_("the code of a notebook cell, a str"))
    found = list(CHECK_LINE.finditer(cell_source))
    if not found:
        return None
    return found[-1].group(1), found[-1].group(0).strip()


def _words(language: str) -> dict[str, str]:
    return translated(WORDS, language)


def _checked(notebook_stem: Any, language: Any, root: Any) -> None:
    check_type(notebook_stem, "notebook_stem", str, what=N_("a notebook's name without .ipynb, a str"))
    if not re.fullmatch(r"[\w-]+", notebook_stem):
        refuse(ValueError, N_("notebook_stem must be a notebook's name without folder or .ipynb, such as "
                              "02_softmax; got {stem!r}"), stem=notebook_stem)
    check_choice(language, "language", LANGUAGES)
    check_type(root, "root", str, what=N_("the way from the page to the site's folder, a str"))
    if root and not root.endswith("/"):
        refuse(ValueError, N_("root must be empty or end with /, such as ../; got {root!r}"), root=root)


def exercise_spec(cell_source: str, notebook_stem: str, language: str = "en",
                  root: str = "") -> dict[str, Any]:
    """The spec of the card of an exercise cell.

    Parameters
    ----------
    cell_source : str
        The exercise cell's code as the learner starts from it, ending with its checker line.
    notebook_stem : str
        The notebook's name without ``.ipynb``, e.g. ``"02_softmax"`` (the same in every edition).
    language : {"en", "zh-Hans", "zh-Hant"}
        The page's language: the card's words and the checker's verdicts.
    root : str
        From the page to the site's folder: ``""`` for the English pages, ``"../"`` for the editions.

    Returns
    -------
    dict
        ``{"id", "code", "check", "language", "root", "words", "timeLimitMs"}``; ``id`` is
        ``"<notebook_stem>/<name>"``, ``check`` the cell's checker line.

    Raises
    ------
    ValueError
        If the cell has no checker line, or an argument is not of the form above.
    """
    _checked(notebook_stem, language, root)
    found = exercise_name(cell_source)
    if found is None:
        refuse(ValueError, N_("cell_source must end with an exercise's checker line, such as "
                              "exercises.check_softmax_rows(my_softmax); got {code!r}"),
               code=cell_source[-80:])
    name, check = found
    words = _words(language)
    words["label"] = words["label"].format(name=name)
    return {"id": f"{notebook_stem}/{name}", "code": cell_source.rstrip() + "\n", "check": check,
            "language": language, "root": root, "words": words, "timeLimitMs": TIME_LIMIT_MS}


def scratch_spec(notebook_stem: str, language: str = "en", root: str = "") -> dict[str, Any]:
    """The spec of the scratch card at the end of a notebook's page: id ``"<notebook_stem>/scratch"``, a
    small example to start from and no checker line (``check`` None); the arguments as for
    :func:`exercise_spec`."""
    _checked(notebook_stem, language, root)
    words = _words(language)
    words["label"], words["help"] = words["scratch_label"], words["scratch_help"]
    return {"id": f"{notebook_stem}/scratch", "code": SCRATCH_CODE, "check": None, "language": language,
            "root": root, "words": words, "timeLimitMs": TIME_LIMIT_MS}
