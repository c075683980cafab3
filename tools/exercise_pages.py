"""Exercises on a page with no Python (the website and the offline decks): each reads as a task.

In a notebook an exercise cell ends with a checker call, ``exercises.check_softmax_rows(my_softmax)``,
and stores the checker's verdict on the unwritten stub: a red "not written yet". A page cannot run the
learner's code, so `task_cards` replaces that verdict with a task card made by
``attnlib.exercises.tasks``: what to write, the hidden inputs, what the checker checks and the mistakes it
knows (to watch for), and how to run it.
The worked answer is the notebook's folded solution just below (on the site, not on a slide), whose code
is the checker's own reference (tests/test_exercise_tasks.py keeps the two identical).
The card's look is tools/templates/exercise.css, in the pages and decks alike.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from attnlib.exercises.tasks import Task, exercise_task, puzzle_task
from attnlib.i18n import set_language

from . import offline_pages

# `exercises.check_x(my_function)` as the last statement of an exercise cell
CHECK = re.compile(r"^exercises\.(check_\w+)\((\w+)\)\s*$", re.M)
PUZZLE = re.compile(
    r'^exercises\.check_projection_puzzle\((\w+), (\w+), query="(\w+)", key="(\w+)"\)\s*$', re.M
)
# What only the learner's cell holds (not the cells that check the folded answer): the stub's
# `raise NotImplementedError`, or for the puzzle the matrices it starts from (comments may be translated).
STUB, BLANK = "raise NotImplementedError", "np.zeros("


def _inline(text: str) -> str:
    """Text with `code` spans, as HTML."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))


def card_html(task: Task, compact: bool = False) -> str:
    """The task card as HTML. ``compact`` (a slide, where the exercise's statement is just above): the
    title and how to run it on one line, what to write and what the checker tests folded away."""
    first, *rest = task.paragraphs
    watch = "".join(f"<li>{_inline(w)}</li>" for w in task.watch)
    checks = "".join(f"<p>{_inline(p)}</p>" for p in rest) + (f"<ul>{watch}</ul>" if watch else "")
    title = f'<span class="exercise-task-title">{html.escape(task.title)}</span>'
    run = f'<span class="exercise-task-run">{_inline(task.run)}</span>'
    if compact:
        return (
            f'<div class="exercise-task compact"><p>{title} · {run}</p>'
            f"<details><summary>{html.escape(task.summary)}</summary><p>{_inline(first)}</p>{checks}</details>"
            "</div>"
        )
    return f'<div class="exercise-task"><p>{title}</p><p>{_inline(first)}</p>{checks}<p>{run}</p></div>'


def task_cards(nb, path: Path, compact: bool = False) -> int:
    """Turn, in place, the stored verdict of every exercise cell of ``nb`` (read from ``path``) into a
    task card in the notebook's language; returns how many."""
    cards, notebook = 0, offline_pages.shown_path(path)
    with set_language(offline_pages.edition_of(path)):
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            found, puzzle = CHECK.search(cell.source), PUZZLE.search(cell.source)
            if found and STUB in cell.source:
                task = exercise_task(*found.groups(), notebook)
            elif puzzle and BLANK in cell.source:
                task = puzzle_task(*puzzle.groups(), notebook)
            else:
                continue
            cell.outputs = [{"output_type": "display_data", "metadata": {},
                             "data": {"text/html": card_html(task, compact)}}]
            cards += 1
    return cards
