"""Every slider lab works in live JupyterLab, and the page and Python stay in step both ways.

A lab is an ``attnlib.labs.Lab``: in the page an ``.attn-lab`` with native controls, an ``svg.figure``
and a readout, all drawn by the lab's ES module. After Run All (shared with test_notebooks_e2e.py),
every control of every lab is moved as a learner would (``tools.browser.labs.walk_labs``: sliders with End, Home
and the arrow keys, toggles with the arrow keys, menus through every option and with the arrows):
each move must land where it should, repaint the picture and fill the readout from the page's frame.
Then the kernel must know the page's setting (``lab.values``) and give the same readout, and a
control set from Python must move the page.
"""

from __future__ import annotations

import json

import pytest

from tools.browser.jupyter import NOTEBOOKS, in_kernel, kernel_prints, notebook_names
from tools.browser.labs import AS_PAGE_HTML, LAB_SELECTOR, lab_cells, walk_labs


def with_labs() -> list[str]:
    names = [n for n in notebook_names() if lab_cells(NOTEBOOKS / n)]
    return names or ["none"]  # a failure: the series has labs


def kernel_values(page) -> dict:
    return json.loads(in_kernel(page, "import json; print(json.dumps(lab.values))"))


def page_values(lab) -> dict:
    return json.loads(lab.get_attribute("data-values"))


@pytest.mark.parametrize("notebook", with_labs())
def test_every_control_of_every_lab_moves_the_picture_and_python_follows(notebook_run, notebook):
    run = notebook_run(notebook)
    page = run.page
    shown = page.locator(LAB_SELECTOR)
    expected = len(lab_cells(NOTEBOOKS / notebook))
    assert shown.count() >= expected, f"{notebook}: {expected} lab cell(s), {shown.count()} shown"
    problems, steps = walk_labs(page, notebook)
    assert steps > 0
    assert not problems, f"{notebook}: {len(problems)} problem(s) in {steps} moves:\n" + "\n".join(problems)

    # Page -> Python: the kernel holds the setting on show, and reads it out the same way.
    lab = shown.first
    on_show = json.dumps(page_values(lab))
    assert kernel_prints(page, f"import json; print(json.loads(json.dumps(lab.values)) == json.loads({on_show!r}))", "True"), (
        f"{notebook}: the page shows {page_values(lab)}, Python has {kernel_values(page)}")
    readout = page.evaluate(AS_PAGE_HTML, in_kernel(page, "print(lab.readout, end='')"))
    assert readout == lab.locator(".readout").inner_html()

    # Python -> page: setting a control from Python moves the page.
    name, value = in_kernel(page, "c = next(iter(lab.controls.values())); print(c.name); print(json.dumps(c.options[0]))"
                            ).strip().splitlines()
    in_kernel(page, f"lab.controls[{name!r}].value = json.loads({value!r})")
    page.wait_for_function("([lab, name, value]) => JSON.stringify(JSON.parse(lab.dataset.values)[name]) === "
                           "JSON.stringify(JSON.parse(value))",
                           arg=[lab.element_handle(), name, value])
    assert page_values(lab) == kernel_values(page)
