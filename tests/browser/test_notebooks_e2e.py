"""Every notebook runs clean in JupyterLab in a real browser.

Open the notebook, wait until its kernel really answers, Run All, wait until every cell ran and the kernel
is idle again; then no cell may show an error (in the model or as a traceback on stderr) and every widget
must have rendered (no "Error displaying widget", no text-only fallback such as ``VBox(children=...``).
The page stays open for the lab tests of the same notebook (tests/browser/conftest.py: ``notebook_run``).
"""

from __future__ import annotations

import pytest

from tools.browser.jupyter import notebook_names


@pytest.mark.parametrize("notebook", notebook_names())
def test_notebook_runs_clean_in_jupyterlab(notebook_run, notebook):
    run = notebook_run(notebook)
    problems = "\n".join(run.problems)
    assert not run.problems, f"{notebook} after Run All ({run.seconds:.1f} s):\n{problems}"
