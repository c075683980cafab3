"""What a test needs from the machine, and what happens when it is not there.

On a learner's machine a test that needs something missing (chromium, npm, another browser engine) is
skipped with the reason; in CI (``CI`` set) the same test fails with that reason: nothing skips in CI.
"""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(reason: str) -> NoReturn:
    """Skip the test with ``reason`` on a learner's machine; fail it in CI."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run it (.ci/run installs what the tests need)")
    pytest.skip(reason)


def npm_packages(what: str, dev: bool = False) -> None:
    """The pinned npm packages (package-lock.json) installed by ``npm ci`` once, or ``missing``.

    ``dev``: the sources of committed data too (the font package), not only what the pages are built with.
    """
    from tools import npm

    try:
        npm.install(what, dev=dev, log=lambda *_: None)
    except npm.NpmError as err:
        missing(str(err))
