"""tools/build_slides.py without a browser: what goes on a slide, and how the JavaScript libraries are fetched.

The decks themselves are opened in chromium by tests/browser/test_slides.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import build_slides  # noqa: E402


def notebook() -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    lab = nbformat.v4.new_code_cell("# NBVAL_IGNORE_OUTPUT\nlab = make_lab()\nlab")
    lab.outputs = [
        nbformat.v4.new_output(
            "execute_result", {build_slides.WIDGET_VIEW: {"model_id": "x"}, "text/plain": "Lab(...)"}
        )
    ]
    quiz = nbformat.v4.new_code_cell("quiz(2)")
    quiz.outputs = [
        nbformat.v4.new_output(
            "display_data", {build_slides.WIDGET_VIEW: {"model_id": "y"}, "text/markdown": "1. A question"}
        )
    ]
    nb.cells = [
        nbformat.v4.new_markdown_cell("# 02 · Softmax\n\nSee [01 · Inner products](01_inner_products.ipynb)."),
        lab,
        quiz,
    ]
    return nb


def test_slides_copy_drops_harness_comments_and_live_widgets():
    original = notebook()
    nb = build_slides.for_slides(original)
    assert nb.metadata["title"] == "02 · Softmax" and "widgets" not in nb.metadata
    assert nb.cells[1].source == "lab = make_lab()\nlab"
    assert nb.cells[1].outputs[0]["data"] == {"text/html": build_slides.LAB_NOTE}
    assert nb.cells[2].outputs[0]["data"] == {"text/markdown": "1. A question"}  # a quiz keeps its questions
    assert "(01_inner_products.slides.html)" in nb.cells[0].source  # links lead to the other decks
    assert "widgets" in original.metadata and "NBVAL" in original.cells[1].source  # the input is untouched


def test_without_npm_or_cache_the_error_says_what_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(build_slides, "CACHE", tmp_path)
    monkeypatch.setattr(build_slides.shutil, "which", lambda name: None)
    with pytest.raises(build_slides.AssetError, match=r"`make slides` needs npm once.*apt-get install npm"):
        build_slides.fetch_assets(log=lambda *_: None)


def test_a_tarball_that_differs_from_the_pinned_hash_is_refused(tmp_path, monkeypatch):
    def fake_npm_pack(command, cwd, **kwargs):
        Path(cwd, "reveal.js-4.0.2.tgz").write_bytes(b"not the real thing")
        return subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(build_slides, "CACHE", tmp_path)
    monkeypatch.setattr(build_slides.shutil, "which", lambda name: "/usr/bin/npm")
    monkeypatch.setattr(build_slides.subprocess, "run", fake_npm_pack)
    with pytest.raises(build_slides.AssetError, match="differs from the pinned sha512-"):
        build_slides.fetch_assets(log=lambda *_: None)
    assert not any(tmp_path.iterdir())  # nothing unverified is kept


def test_main_reports_a_missing_npm_with_exit_status_2(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(build_slides, "CACHE", tmp_path / "cache")
    monkeypatch.setattr(build_slides.shutil, "which", lambda name: None)
    nb_path = tmp_path / "02_softmax.ipynb"
    nbformat.write(notebook(), nb_path)
    assert build_slides.main([str(nb_path), "--out", str(tmp_path / "out")]) == 2
    assert "needs npm" in capsys.readouterr().err
