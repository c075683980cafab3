"""The browser itself works: JupyterLab serves notebook 00 and it runs in chromium without errors."""

from __future__ import annotations


def test_lab_serves_start_notebook(jupyter_lab, page):
    page.goto(jupyter_lab.notebook_url("00_start_here.ipynb"))
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    assert page.locator(".jp-Cell").count() > 5
    assert "Start here" in page.locator(".jp-MarkdownCell").first.inner_text()
