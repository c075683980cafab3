"""docs/sources.md maps every claim of the two source articles to a notebook section: those sections exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.repo  # reads docs/ and notebooks/

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources.md"
SECTION = re.compile(r"\b(\d{2}) §(\d+)\b")
VERDICTS = {"right", "imprecise", "wrong"}


def _sections(number: str) -> set[int]:
    """The numbered sections (`## K. ...`) of notebook NN."""
    (path,) = (ROOT / "notebooks").glob(f"{number}_*.ipynb")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    found = set()
    for cell in cells:
        if cell["cell_type"] == "markdown":
            first = "".join(cell["source"]).lstrip().splitlines()[0] if "".join(cell["source"]).strip() else ""
            match = re.match(r"##\s+(\d+)\.", first)
            if match:
                found.add(int(match.group(1)))
    return found


def _claims() -> list[list[str]]:
    rows = []
    for line in SOURCES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and re.fullmatch(r"[AB]\d+", cells[0]):
            rows.append(cells)
    return rows


def test_every_section_the_map_names_exists():
    named = SECTION.findall(SOURCES.read_text(encoding="utf-8"))
    assert len(named) > 40
    missing = sorted({f"{nb} §{k}" for nb, k in named if int(k) not in _sections(nb)})
    assert not missing, f"docs/sources.md names sections that no notebook has: {missing}"


def test_every_claim_has_a_verdict_and_a_section():
    claims = _claims()
    assert {c[0][0] for c in claims} == {"A", "B"} and len(claims) >= 35
    for label, said, verdict, shown, *_ in claims:
        assert said and verdict in VERDICTS, f"{label}: verdict {verdict!r} is not one of {sorted(VERDICTS)}"
        assert SECTION.search(shown), f"{label}: names no notebook section"
    verdicts = dict((c[0], c[2]) for c in claims)
    assert verdicts["A23"] == "wrong"  # "qk = 0" leaks: e⁰ = 1
    # right in part: orthogonal nonzero vectors are independent and uncorrelated, yet can be related;
    # "almost 0" understates an exact 0
    assert verdicts["A7"] == verdicts["B12"] == "imprecise"


def test_the_section_parser_sees_a_real_notebook():
    assert _sections("06") >= {1, 2, 3, 4, 5, 6, 7, 8}
