"""Check the notebooks as stored, before nbval re-runs them.

1. executed top to bottom in a fresh kernel: execution counts are 1..n;
2. no stored error output (except cells marked NBVAL_RAISES_EXCEPTION, which show one on purpose);
3. the kernelspec is python3;
4. cells stay small: code cells at most 15 lines (median at most 6 per notebook), prose cells at
   most 150 words outside tables and formulas;
5. every lecturer's note (a Markdown cell of slide type ``notes``) carries the tag ``lecture-notes`` and
   begins with the label of its language on a line of its own (``**For the lecturer.**``), so a learner
   alone knows to skip it;
6. every figure a code cell draws (a PNG output) has its own alternative text, one per figure in the
   cell's metadata ``alt``, no two alike in a notebook, in the notebook's language (a Chinese edition's
   texts are Chinese).

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
NOTES_TAG = "lecture-notes"
# The first line of a lecturer's note, by the language of the edition (the name of its folder): the
# 简体 label is the translators' (the prose catalogues), the 繁體 one its OpenCC conversion.
NOTES_LABEL = {"en": "**For the lecturer.**", "zh-Hans": "**讲师备注。**", "zh-Hant": "**講師備註。**"}
ALT = "alt"  # a code cell's metadata: one alternative text per figure it draws
HAN = re.compile(r"[\u3400-\u9fff]")


def language(path: Path) -> str:
    """The edition of a notebook: the name of its folder for a Chinese edition, else English."""
    return path.parent.name if path.parent.name in NOTES_LABEL else "en"


def is_notes(cell) -> bool:
    return cell.cell_type == "markdown" and cell.metadata.get("slideshow", {}).get("slide_type") == "notes"


def figures(cell) -> int:
    """How many figures (PNG outputs) a code cell stores."""
    return sum("image/png" in output.get("data", {}) for output in cell.get("outputs", []))


def notes_problems(number: int, cell, lang: str) -> list[str]:
    found = []
    if NOTES_TAG not in cell.metadata.get("tags", []):
        found.append(f"cell {number}: a lecturer's note without the tag {NOTES_TAG!r}")
    if cell.source.split("\n", 1)[0].strip() != NOTES_LABEL[lang]:
        found.append(f"cell {number}: a lecturer's note must begin with the line {NOTES_LABEL[lang]}")
    return found


def alt_problems(number: int, cell, lang: str, seen: set[str]) -> list[str]:
    alts = cell.metadata.get(ALT, [])
    if not isinstance(alts, list) or not all(isinstance(a, str) and a.strip() for a in alts):
        return [f"cell {number}: metadata {ALT!r} must be a list of texts, one per figure, got {alts!r}"]
    found = []
    if len(alts) != figures(cell):
        found.append(
            f"cell {number}: draws {figures(cell)} figure(s) but has {len(alts)} alternative text(s) "
            f"in its metadata {ALT!r}: write one sentence per figure, what it shows"
        )
    for alt in alts:
        if alt in seen:
            found.append(f"cell {number}: the alternative text {alt[:40]!r}… is another figure's too")
        if lang != "en" and not HAN.search(alt):
            found.append(f"cell {number}: the alternative text {alt[:40]!r}… is not translated")
        seen.add(alt)
    return found


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
    sizes, seen, lang = [], set(), language(path)
    for number, cell in enumerate(nb.cells, start=1):
        if is_notes(cell):
            found += notes_problems(number, cell, lang)
        if cell.cell_type == "code":
            found += alt_problems(number, cell, lang, seen)
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
