"""Exercises on a page with no Python (the website and the offline decks): each reads as a task.

In a notebook an exercise cell ends with a checker call, ``exercises.check_softmax_rows(my_softmax)``,
and stores the checker's verdict on the unwritten stub: a red "not written yet". A page cannot run the
learner's code, so `task_cards` replaces that verdict with a task card made by
``attnlib.exercises.tasks``: what to write, the hidden inputs, what the checker checks and the mistakes it
knows (to watch for), and how to run it.
The worked answer is the notebook's folded solution just below (on the site, not on a slide), whose code
is the checker's own reference (tests/test_exercise_tasks.py keeps the two identical).
The card's look is tools/templates/exercise.css, in the pages and decks alike.

On the site the page runs the learner's code itself: `practice_cards` (a step of tools/build_site.py only;
the decks keep their task cards) shows each exercise cell as an editor card (page module ``practice``,
attnlib/page/practice.js) in place of its code, with the task card folded under it and saying that Check
runs the code here, and adds a scratch cell at the end of the page, before its navigation.
"""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

from attnlib.exercises.tasks import Task, exercise_task, puzzle_task
from attnlib.i18n import set_language, tr
from attnlib.page import mount_html
from attnlib.page.practice import AROUND, exercise_spec, scratch_spec

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


def exercise_cells(nb, path: Path):
    """``(cell, task)`` for every exercise cell of ``nb`` (read from ``path``), its task in the current
    language."""
    notebook = offline_pages.shown_path(path)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        found, puzzle = CHECK.search(cell.source), PUZZLE.search(cell.source)
        if found and STUB in cell.source:
            yield cell, exercise_task(*found.groups(), notebook)
        elif puzzle and BLANK in cell.source:
            yield cell, puzzle_task(*puzzle.groups(), notebook)


def _html_output(markup: str) -> dict:
    return {"output_type": "display_data", "metadata": {}, "data": {"text/html": markup}}


def task_cards(nb, path: Path, compact: bool = False) -> int:
    """Turn, in place, the stored verdict of every exercise cell of ``nb`` (read from ``path``) into a
    task card in the notebook's language; returns how many."""
    cards = 0
    with set_language(offline_pages.edition_of(path)):
        for cell, task in exercise_cells(nb, path):
            cell.outputs = [_html_output(card_html(task, compact))]
            cards += 1
    return cards


def practice_cards(nb, path: Path) -> int:
    """On a page of the site, in place: each exercise cell of the notebook ``nb`` (read from ``path``) as an
    editor card (``attnlib.page.practice.exercise_spec``) instead of its code, its task card folded under
    it; then, before the navigation at the end, a scratch cell under its heading. Ids ``practice-1``,
    ``practice-2``, ... in page order. A page that is not a numbered notebook's is left as it is. Returns
    how many exercise cards."""
    from nbformat import from_dict
    from nbformat.v4 import new_code_cell, new_markdown_cell

    if not re.fullmatch(r"\d\d_\w+", path.stem):
        return 0
    language = offline_pages.edition_of(path)
    root = offline_pages.root_prefix(language)
    cards = 0

    def card(spec: dict, number: int, below: str = "") -> dict:
        mount = mount_html("practice", {"spec": spec, "values": {}}, f"practice-{number}")
        return from_dict(_html_output(f'<div class="live-practice">\n{mount}{below}</div>\n'))

    with set_language(language):
        for cell, task in list(exercise_cells(nb, path)):
            cards += 1
            spec = exercise_spec(cell.source, path.stem, language, root)
            task = dataclasses.replace(task, title=tr(AROUND["task_title"]),
                                       run=tr(AROUND["task_run"]).format(notebook=offline_pages.shown_path(path)))
            fold = (f'<details class="attn-practice-task"><summary>{html.escape(tr(AROUND["task_fold"]))}'
                    f"</summary>{card_html(task)}</details>")
            cell.outputs = [card(spec, cards, fold)]
            cell.metadata["transient"] = {"remove_source": True}  # the card holds the code
        heading = new_markdown_cell(f"## {tr(AROUND['scratch_heading'])}\n\n{tr(AROUND['scratch_intro'])}")
        scratch = new_code_cell("", outputs=[])
        heading.id, scratch.id = "scratch-heading", "scratch-cell"  # the same page from the same notebook
        scratch.metadata["transient"] = {"remove_source": True}
        scratch.outputs = [card(scratch_spec(path.stem, language, root), cards + 1)]
    tagged = [i for i, c in enumerate(nb.cells) if "navigation" in c.metadata.get("tags", [])]
    at = tagged[0] if tagged else len(nb.cells)
    nb.cells[at:at] = [heading, scratch]
    return cards
