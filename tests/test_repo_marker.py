"""The `repo` marker leaves out every test module that needs the checkout, as `make wheel` relies on.

`make wheel` runs a copy of tests/ beside an installed attnlib, with `-m "not repo"` and the browser folder
left out. Here the same selection is collected in a folder that holds only that copy (no notebooks/, docs/,
tools/ or build/): a module that imports tools/ or reads those folders while it is collected, and is not
marked ``pytestmark = pytest.mark.repo``, fails to collect. (A test that reads them only while it runs is
found by `make wheel` itself.)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


@pytest.mark.repo  # the run against the wheel is this check itself
def test_the_wheel_selection_collects_without_the_checkout(tmp_path):
    shutil.copytree(TESTS, tmp_path / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "tests", "-m", "not repo", "--ignore=tests/browser", "--collect-only",
         "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--rootdir=."],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, "modules that need the checkout but are not marked repo:\n" + result.stdout[-3000:]
    assert " collected" in result.stdout and "error" not in result.stdout.splitlines()[-1].lower()
