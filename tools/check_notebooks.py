"""Check the notebooks as stored, before nbval re-runs them.

1. executed top to bottom in a fresh kernel: execution counts are 1..n;
2. no stored error output (except cells marked NBVAL_RAISES_EXCEPTION, which show one on purpose);
3. the kernelspec is python3;
4. cells stay small: code cells at most 15 lines (median at most 6 per notebook), prose cells at
   most 150 words outside tables and formulas.

Usage: python -m tools.check_notebooks [NOTEBOOK ...]   (default: every notebook in notebooks/)
"""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

import nbformat

MAX_CODE_LINES = 15
MAX_MEDIAN_CODE_LINES = 6
MAX_PROSE_WORDS = 150
ROOT = Path(__file__).resolve().parent.parent


def code_lines(text: str) -> int:
    return sum(1 for line in text.splitlines() if line.strip() and not line.startswith("# NBVAL"))


def prose_words(text: str) -> int:
    text = re.sub(r"\$\$.*?\$\$", " ", text, flags=re.S)
    kept = [line for line in text.splitlines() if not line.lstrip().startswith("|")]
    return len(re.findall(r"[\w\u4e00-\u9fff]+", " ".join(kept)))


def problems(path: Path) -> list[str]:
    nb = nbformat.read(path, as_version=4)
    found = []
    kernel = nb.metadata.get("kernelspec", {}).get("name")
    if kernel != "python3":
        found.append(f"kernelspec is {kernel!r}, not 'python3'")
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    counts = [c.get("execution_count") for c in code]
    if counts != list(range(1, len(code) + 1)):
        found.append("execution counts are not 1..n: re-run the notebook top to bottom")
    sizes = []
    for number, cell in enumerate(nb.cells, start=1):
        text = cell.source
        if cell.cell_type == "code" and text.strip():
            sizes.append(code_lines(text))
            if sizes[-1] > MAX_CODE_LINES:
                found.append(f"cell {number}: {sizes[-1]} code lines (limit {MAX_CODE_LINES})")
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if errors and "NBVAL_RAISES_EXCEPTION" not in text:
                found.append(f"cell {number}: stores an error output")
        elif cell.cell_type == "markdown" and prose_words(text) > MAX_PROSE_WORDS:
            found.append(f"cell {number}: {prose_words(text)} words (limit {MAX_PROSE_WORDS})")
    if sizes and statistics.median(sizes) > MAX_MEDIAN_CODE_LINES:
        found.append(
            f"median code cell has {statistics.median(sizes)} lines (limit {MAX_MEDIAN_CODE_LINES})"
        )
    return found


def main(argv: list[str]) -> int:
    paths = [Path(a) for a in argv] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    if not paths:
        print("no notebooks found")
        return 1
    failed = 0
    for path in paths:
        for problem in problems(path):
            print(f"{path.name}: {problem}")
            failed += 1
    print(f"checked {len(paths)} notebooks: {failed} problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
