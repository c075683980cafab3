"""Fixtures for tests in a real browser: Debian's chromium driven by Playwright, and JupyterLab.

Where no chromium is installed (a learner's laptop) these tests are skipped with the reason;
in CI (``CI`` set) a missing browser is a failure, never a skip.
On failure, a screenshot of the page is saved under ``test-artifacts/`` and named in the report.
The server and page helpers live in ``tools.browser`` (``jupyter``, ``labs``, ``pages``; the slide check and the benchmarks use them too).
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import harness
from tests.harness import missing
from tools.browser.engines import ENGINES, PACKAGES
from tools.browser.engines import missing as engine_missing
from tools.browser.jupyter import (
    NOTEBOOKS,
    JupyterLab,
    NotebookRun,
    open_notebook,
    run_all,
    running_jupyter_lab,
    shut_down,
)
from tools.browser.pages import CHROMIUM_FLAGS

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"


def chromium_path() -> str | None:
    if os.environ.get("CHROMIUM"):  # an explicit choice: that browser or none
        return os.environ["CHROMIUM"] if Path(os.environ["CHROMIUM"]).exists() else None
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def require_chromium() -> str:
    path = chromium_path()
    if path:
        return path
    reason = "no chromium found (install Debian's `chromium` package to run the browser tests)"
    if os.environ.get("CHROMIUM"):
        reason = f"no chromium at CHROMIUM={os.environ['CHROMIUM']}"
    missing(reason)


@pytest.fixture(scope="module", params=sorted(ENGINES))
def engine(request, tmp_path_factory):
    """Each other engine in turn (Firefox ESR, WebKitGTK: tools/browser/engines.py), at 1280×900; a missing
    one skips with what to install (CI installs both)."""
    why = engine_missing(request.param)
    if why:
        harness.missing(f"{why} (Debian: apt-get install {PACKAGES[request.param]})")
    browser = ENGINES[request.param](tmp_path_factory.mktemp(request.param))
    browser.viewport(1280, 900)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory, page_packages) -> Path:
    """The website of every notebook of the three editions and its reference pages, built once per session
    as `make site` builds it (tools/build_site.py)."""
    from tools import build_site, reference_pages

    notebooks = [p for folder in (NOTEBOOKS, NOTEBOOKS / "zh-Hans", NOTEBOOKS / "zh-Hant")
                 for p in sorted(folder.glob("[0-9][0-9]_*.ipynb"))]
    out = tmp_path_factory.mktemp("site")
    build_site.build(notebooks, out, log=lambda *_: None, references=reference_pages.REFERENCES)
    return out


@pytest.fixture(scope="session")
def served_site(site) -> Iterator[str]:
    """The ``site`` folder served on 127.0.0.1 as `make serve` serves it (tools/serve.py, in a thread): its
    base URL, ending in /. Pages there get what a page from disk cannot: a Python worker and the service
    worker."""
    from tools.serve import Server

    with Server(site, quiet=True) as server:
        yield server.url


@pytest.fixture(scope="session")
def browser():
    executable = require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, request):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    screenshot_if_failed(request, page)
    context.close()


def screenshot_if_failed(request, page) -> None:
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        shot = ARTIFACTS / f"{request.node.name}.png".replace("/", "_")
        try:
            page.screenshot(path=str(shot), full_page=True)
            report.sections.append(("screenshot", f"saved to {shot}"))
            print(f"\nscreenshot of the failing page: {shot}")
        except Exception as err:  # the page may be gone; the test failure matters more
            print(f"\nno screenshot: {err}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory) -> Iterator[JupyterLab]:
    """JupyterLab from this environment on 127.0.0.1, a random token, serving a copy of notebooks/."""
    require_chromium()
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(NOTEBOOKS, root / "notebooks")
    with running_jupyter_lab(root / "notebooks", root / "jupyter.log") as lab:
        yield lab


class NotebookRuns:
    """Each notebook run once (open, Run All) and its page kept open while that notebook's tests use it.

    Only one notebook is open at a time: asking for another one closes the page and stops the kernel.
    """

    def __init__(self, browser, lab: JupyterLab) -> None:
        self.browser, self.lab = browser, lab
        self.current: NotebookRun | None = None
        self.failure: str = ""
        self._context = None

    def get(self, name: str) -> NotebookRun:
        if self.current is None or self.current.name != name:
            self.close()
            self._context = self.browser.new_context(viewport={"width": 1400, "height": 1000})
            page = self._context.new_page()
            self.current, self.failure = NotebookRun(name, page, float("nan")), ""
            try:
                open_notebook(page, self.lab, name)
                self.current = run_all(page, name)
            except Exception as err:  # kept, so every test of this notebook reports it
                self.failure = f"{name} did not run: {err}"
        if self.failure:
            pytest.fail(self.failure)
        return self.current

    def close(self) -> None:
        if self._context is not None:
            with contextlib.suppress(Exception):  # a crashed page has no kernel to stop
                shut_down(self.current.page, self.current.name)
            self._context.close()
        self._context = self.current = None


@pytest.fixture(scope="session")
def notebook_runs(browser, jupyter_lab) -> Iterator[NotebookRuns]:
    runs = NotebookRuns(browser, jupyter_lab)
    yield runs
    runs.close()


@pytest.fixture
def notebook_run(notebook_runs, request):
    """``notebook_run(name)``: that notebook after Run All; a screenshot of it if the test fails."""
    yield notebook_runs.get
    if notebook_runs.current is not None:
        screenshot_if_failed(request, notebook_runs.current.page)


def pytest_collection_modifyitems(items) -> None:
    """Each notebook's browser tests back to back (runs clean, then its labs), so one Run All serves them."""
    slots = [i for i, item in enumerate(items) if "notebook_run" in getattr(item, "fixturenames", ())]
    ordered = sorted(
        (items[i] for i in slots),
        key=lambda item: (item.callspec.params["notebook"], "_labs_" in item.nodeid),
    )
    for i, item in zip(slots, ordered, strict=True):
        items[i] = item
