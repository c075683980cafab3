"""Every slider lab works in live JupyterLab, and the page and Python stay in step both ways.

A lab is an ``attnlib.labs.Lab``: in the page an ``.attn-lab`` with native controls, an ``svg.figure``
and a readout, all drawn by the lab's ES module. After Run All (shared with test_notebooks_e2e.py),
every control of every lab is moved as a learner would (sliders with End, Home and the arrow keys,
toggles with the arrow keys, menus through every option): each move that changes the setting must
repaint the picture. Then the kernel must know the page's setting (``lab.values``) and print the same
readout as the page, and a control set from Python must move the page.
"""

from __future__ import annotations

import json
import time

import pytest
from helpers import (
    LAB_SELECTOR,
    NOTEBOOKS,
    in_kernel,
    lab_cells,
    look,
    notebook_names,
    step_problems,
    walk_lab,
)


def with_labs() -> list[str]:
    names = [n for n in notebook_names() if lab_cells(NOTEBOOKS / n)]
    return names or [pytest.param("none", marks=pytest.mark.skip(reason="no notebook has a lab yet"))]


def kernel_values(page) -> dict:
    return json.loads(in_kernel(page, "import json; print(json.dumps(lab.values))"))


def wait_for(predicate, timeout_s: float = 10.0) -> bool:
    end = time.monotonic() + timeout_s
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.1)
    return predicate()


@pytest.mark.parametrize("notebook", with_labs())
def test_every_control_of_every_lab_moves_the_picture_and_python_follows(notebook_run, notebook):
    run = notebook_run(notebook)
    page = run.page
    labs_shown = page.locator(LAB_SELECTOR)
    expected = len(lab_cells(NOTEBOOKS / notebook))
    assert labs_shown.count() >= expected, f"{notebook}: {expected} lab cell(s), {labs_shown.count()} shown"
    lab = labs_shown.first
    lab.scroll_into_view_if_needed()
    steps = walk_lab(lab)
    problems = step_problems(steps)
    assert not problems, f"{notebook}: {len(problems)} problem(s) in {len(steps)} moves:\n" + "\n".join(problems)

    # Page -> Python: the kernel holds the setting on show, and reads it out the same way.
    shown = look(lab)
    assert wait_for(lambda: kernel_values(page) == shown.values), (
        f"{notebook}: the page shows {shown.values}, Python has {kernel_values(page)}")
    readout = in_kernel(page, "import html, re; print(html.unescape(re.sub('<[^>]+>', '', lab.readout)))")
    assert readout.strip() == shown.readout.strip()

    # Python -> page: setting a control from Python moves the page.
    name, options = in_kernel(page, "c = next(iter(lab.controls.values())); print(c.name); print(repr(c.options[0]))"
                              ).strip().splitlines()
    in_kernel(page, f"lab.controls[{name!r}].value = {options}")
    assert wait_for(lambda: look(lab).values[name] == json.loads(in_kernel(page, f"print(json.dumps(lab.values[{name!r}]))")))
    assert look(lab).values == kernel_values(page)
