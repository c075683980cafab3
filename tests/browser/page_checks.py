"""What the site and deck tests check in a page: raw TeX left in the prose, and the labs a notebook stores."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat

from tools import offline_pages

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
RAW_TEX = re.compile(r"\$\$|\\(frac|sqrt|mathrm|top|infty|left|right)\b")

# Prose of a page (Markdown cells, text outputs of quizzes, the index) with code and typeset math removed.
PROSE_JS = """() => Array.from(document.querySelectorAll('.jp-RenderedMarkdown, .site-index main')).map(el => {
    const copy = el.cloneNode(true);
    copy.querySelectorAll('code, pre, mjx-container, script, style').forEach(n => n.remove());
    return copy.textContent;
}).join('\\n')"""


def stored_labs(path: Path) -> int:
    """How many lab outputs the notebook stores (widget views whose stored model is a lab)."""
    nb = nbformat.read(path, as_version=4)
    state = nb.metadata.get("widgets", {}).get(offline_pages.WIDGET_STATE, {}).get("state", {})
    views = [o["data"][offline_pages.WIDGET_VIEW]["model_id"] for c in nb.cells if c.cell_type == "code"
             for o in c.get("outputs", []) if offline_pages.WIDGET_VIEW in o.get("data", {})]
    return sum(offline_pages.lab_state(state.get(m)) is not None for m in views)


def with_labs() -> list[Path]:
    """The notebooks that store a lab (the series has some: none is a failure of the test that uses them)."""
    return [p for p in NOTEBOOKS if stored_labs(p)] or [None]
