"""Every slider lab works in the browser: each control moves the figure and the readout.

A lab is an ``attnlib.widgets.Lab`` (in the page: a ``.widget-vbox`` whose children are the controls, an
``img.widget-image`` and a ``.widget-html`` readout). After Run All (shared with
test_notebooks_e2e.py), every control of every lab is moved as a learner would: sliders with the keys
(End, Home, ArrowRight, ArrowLeft), dropdowns through every option, toggles and checkboxes by clicking.
After each change the figure must have new pixels (not blank), the readout must move with the control,
and no readout may say "error:" (a Lab writes that when its update raises). The extremes are included:
d_k = 1 and the largest d_k, every mask type, a valid length of 1.
"""

from __future__ import annotations

import pytest
from helpers import LAB_SELECTOR, NOTEBOOKS, Driver, LabView, lab_cells, notebook_names


def with_labs() -> list[str]:
    names = [n for n in notebook_names() if lab_cells(NOTEBOOKS / n)]
    return names or [pytest.param("none", marks=pytest.mark.skip(reason="no notebook has a lab yet"))]


@pytest.mark.parametrize("notebook", with_labs())
def test_every_control_of_every_lab_moves_figure_and_readout(notebook_run, notebook):
    run = notebook_run(notebook)
    page = run.page
    found, expected = page.locator(LAB_SELECTOR).count(), len(lab_cells(NOTEBOOKS / notebook))
    assert found >= expected, f"{notebook}: {expected} lab cell(s), {found} lab(s) shown"
    problems, steps = [], 0
    for index in range(found):
        driver = Driver(LabView(page, notebook, index))
        problems += driver.exercise()
        steps += len(driver.steps)
    report = "\n".join(problems)
    assert not problems, f"{notebook}: {len(problems)} problem(s) in {steps} control changes:\n{report}"
