"""The browser itself works: JupyterLab serves notebook 00 with every cell and its stored figure."""

from __future__ import annotations


def test_lab_serves_start_notebook(jupyter_lab, page):
    page.goto(jupyter_lab.notebook_url("00_start_here.ipynb"))
    n_cells = page.wait_for_function(
        "() => { const w = window.jupyterapp?.shell.currentWidget;"
        " return w?.context?.isReady && w.content.model.cells.length; }",
        timeout=60_000,
    ).json_value()
    assert n_cells > 5
    page.wait_for_selector(".jp-OutputArea-output img", timeout=30_000)  # the stored heatmap
    # A Markdown cell is in the page before its text is rendered: wait for the text, not the cell.
    page.wait_for_function(
        "() => document.querySelector('.jp-MarkdownCell .jp-RenderedMarkdown')?.innerText.includes('Start here')",
        timeout=30_000,
    )
