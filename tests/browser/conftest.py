"""Fixtures for tests in a real browser: Debian's chromium driven by Playwright, and JupyterLab.

Where no chromium is installed (a learner's laptop) these tests are skipped with the reason;
in CI (``CI`` set) a missing browser is a failure, never a skip.
On failure, a screenshot of the page is saved under ``test-artifacts/`` and named in the report.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for candidate in (os.environ.get("CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def require_chromium() -> str:
    path = chromium_path()
    if path:
        return path
    reason = "no chromium found (install Debian's `chromium` package to run the browser tests)"
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run them: .ci/run installs it")
    pytest.skip(reason)


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
    context.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A running JupyterLab: its base URL, token and the folder it serves."""

    def __init__(self, url: str, token: str, root: Path) -> None:
        self.url, self.token, self.root = url, token, root

    def notebook_url(self, name: str) -> str:
        return f"{self.url}/lab/tree/{name}?token={self.token}&reset"


@pytest.fixture(scope="session")
def jupyter_lab(tmp_path_factory) -> Iterator[Lab]:
    """JupyterLab from this environment on 127.0.0.1, a random token, serving a copy of notebooks/."""
    require_chromium()
    root = tmp_path_factory.mktemp("lab")
    shutil.copytree(ROOT / "notebooks", root / "notebooks")
    port, token = _free_port(), secrets.token_hex(16)
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
        f"--ServerApp.token={token}", f"--ServerApp.root_dir={root / 'notebooks'}",
        "--LabApp.expose_app_in_browser=True", "--allow-root",
    ]  # fmt: skip
    log = open(root / "jupyter.log", "w")  # noqa: SIM115 (closed below)
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=root)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"JupyterLab did not start: see {root / 'jupyter.log'}") from None
            time.sleep(0.25)
    yield Lab(url, token, root / "notebooks")
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()
