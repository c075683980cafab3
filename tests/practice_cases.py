"""What a learner could type into each exercise of the site, and the verdict the checker must give it.

For every exercise cell of every notebook (the cells ``tools.exercise_pages`` turns into the site's editor
cards, with the id, starting code and checker line ``attnlib.page.practice.exercise_spec`` gives them), the
cases are:

- the starting code of the cell, unchanged: "not written yet";
- the worked answer (the checker's own reference, ``Exercise.worked_answer()``), renamed to the learner's
  function and followed by the checker line as in the notebook: right;
- each known mistake of the checker's table, the ``WRONG`` table of ``tests/test_<module>_exercises.py``,
  as the learner's function (a lambda there becomes a ``def`` here; the helpers and constants of that
  test module it uses come first), without the checker line (the page still checks): that mistake.

The projection puzzles of notebook 04 get the notebook's own solution (right), and the matrices of
``tests/test_queries_keys_values_exercises.py`` (its ``design(...)`` entries and its shape cases), written
as assignments to the learner's matrices. The code is read from the test files with ``ast``, so a mistake
added to a table is a case here too.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path
from typing import NamedTuple

import nbformat

from attnlib import data, exercises
from attnlib.page.practice import exercise_spec
from tools import exercise_pages
from tools.exercise_pages import PUZZLE

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
EDITIONS = {"en": ROOT / "notebooks", "zh-Hans": ROOT / "notebooks" / "zh-Hans",
            "zh-Hant": ROOT / "notebooks" / "zh-Hant"}
PRELUDE_NAMES = {"np", "attnlib", "data", "exercises"}  # bound by the runner's prelude
PUZZLE_TESTS = TESTS / "test_queries_keys_values_exercises.py"


class Cell(NamedTuple):
    """One exercise cell of a notebook."""

    exercise: str  # "<notebook stem>/<name>": the editor card's id
    name: str  # the learner's function, or the puzzle's first matrix
    checker: str  # "check_softmax_rows"
    check: str  # the cell's checker line
    source: str  # the cell as the notebook stores it (the starting code)


class Case(NamedTuple):
    """Code typed into an exercise's editor, and the cause of the verdict the checker gives it."""

    exercise: str
    code: str
    check: str
    cause: str

    @property
    def id(self) -> str:
        return f"{self.exercise}:{self.cause}"


@cache
def exercise_cells(edition: str = "en") -> tuple[Cell, ...]:
    """The exercise cells of every notebook of ``edition``, in reading order, as the site's editor cards
    get them (``tools.exercise_pages.exercise_cells``, ``attnlib.page.practice.exercise_spec``)."""
    cells = []
    for path in sorted(EDITIONS[edition].glob("[0-9][0-9]_*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        for cell, _task in exercise_pages.exercise_cells(nb, path):
            spec = exercise_spec(cell.source, path.stem, edition)
            checker = re.match(r"exercises\.(check_\w+)\(", spec["check"]).group(1)
            name = spec["id"].split("/")[1]
            cells.append(Cell(spec["id"], name, checker, spec["check"], spec["code"]))
    return tuple(cells)


@cache
def cases(edition: str = "en") -> tuple[Case, ...]:
    """Every case of every exercise cell of ``edition``."""
    found = []
    for cell in exercise_cells(edition):
        if cell.checker == "check_projection_puzzle":
            found += _puzzle_cases(cell, edition)
            continue
        found.append(Case(cell.exercise, cell.source, cell.check, "not_written"))
        found.append(Case(cell.exercise, worked_answer(cell) + "\n\n\n" + cell.check + "\n", cell.check, "correct"))
        for cause, code in wrong_answers(cell.checker, cell.name).items():
            found.append(Case(cell.exercise, code, cell.check, cause))
    return tuple(found)


def worked_answer(cell: Cell) -> str:
    """The checker's reference, as the learner's function."""
    source = exercises.exercise_named(cell.checker).worked_answer()
    return re.sub(r"^def \w+\(", f"def {cell.name}(", source, count=1)


# The WRONG tables of the test files.
def _module_bindings(tree: ast.Module) -> tuple[dict[str, ast.stmt], ast.Dict]:
    """The test module's top-level names bound before ``WRONG`` (last binding wins), and ``WRONG``."""
    bound: dict[str, ast.stmt] = {}
    for node in tree.body:
        targets: list[str] = []
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "WRONG" for t in node.targets):
            return bound, node.value
        if isinstance(node, ast.FunctionDef):
            targets = [node.name]
        elif isinstance(node, ast.Assign):
            targets = [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.Import | ast.ImportFrom) and getattr(node, "module", "") != "__future__":
            targets = [(alias.asname or alias.name).partition(".")[0] for alias in node.names]
        for target in targets:
            bound[target] = node
    raise ValueError("the module has no WRONG table")


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _helpers(roots: set[str], bound: dict[str, ast.stmt], order: list[ast.stmt]) -> list[ast.stmt]:
    """The statements binding ``roots`` and what they use in turn, in the module's order."""
    needed: set[int] = set()
    todo = [name for name in roots if name in bound and name not in PRELUDE_NAMES]
    while todo:
        statement = bound[todo.pop()]
        if id(statement) in needed:
            continue
        needed.add(id(statement))
        own = {statement.name} if isinstance(statement, ast.FunctionDef) else set()
        todo += [n for n in _names(statement) - own if n in bound and n not in PRELUDE_NAMES]
    return [statement for statement in order if id(statement) in needed]


@cache
def _tables() -> dict[str, tuple[str, dict[str, ast.expr], dict[str, ast.stmt], list[ast.stmt]]]:
    """checker -> (test module source, {mistake: answer node}, bindings, module statements)."""
    tables = {}
    for path in sorted(TESTS.glob("test_*_exercises.py")):
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        try:
            bound, wrong = _module_bindings(tree)
        except ValueError:
            continue
        for checker_key, table in zip(wrong.keys, wrong.values, strict=True):
            answers = {ast.literal_eval(k): v for k, v in zip(table.keys, table.values, strict=True)}
            tables[ast.literal_eval(checker_key)] = (source, answers, bound, tree.body)
    return tables


def wrong_answers(checker: str, name: str) -> dict[str, str]:
    """mistake -> the learner's code for it, from the checker's ``WRONG`` table, as the function ``name``."""
    source, answers, bound, order = _tables()[checker]
    found = {}
    for cause, node in answers.items():
        if isinstance(node, ast.Lambda):
            body = ast.get_source_segment(source, node.body)
            function = f"def {name}({ast.unparse(node.args)}):\n    return {body}\n"
            helpers = _helpers(_names(node.body), bound, order)
        elif isinstance(node, ast.Name) and isinstance(bound.get(node.id), ast.FunctionDef):
            own = bound[node.id]
            function = re.sub(rf"^def {node.id}\(", f"def {name}(", ast.get_source_segment(source, own)) + "\n"
            helpers = [h for h in _helpers(_names(own) - {node.id}, bound, order) if h is not own]
        else:
            raise ValueError(f"{checker}[{cause!r}]: a WRONG answer is a lambda or a function of the module")
        parts = [ast.get_source_segment(source, h) for h in helpers]
        found[cause] = "\n\n\n".join([*parts, function.rstrip("\n")]) + "\n"
    return found


# The projection puzzles.
def _solution(edition: str, cell: Cell) -> str:
    """The notebook's own solution lines for the puzzle ``cell`` (the code cell that fills its matrices)."""
    nb_path = EDITIONS[edition] / f"{cell.exercise.split('/')[0]}.ipynb"
    for other in nbformat.read(nb_path, as_version=4).cells:
        if other.cell_type == "code" and other.source.startswith(f"{cell.name}["):
            return other.source
    raise ValueError(f"no solution cell for {cell.exercise}")


def _with(cell: Cell, lines: list[str], first: str | None = None, second: str | None = None) -> str:
    """The puzzle's starting code with its two matrices replaced (``first``, ``second``: their values) and
    ``lines`` added where the learner writes, the checker line kept last."""
    q_name, k_name = PUZZLE.search(cell.check).group(1, 2)
    code = []
    for line in cell.source.splitlines():
        if first is not None and line.startswith(f"{q_name} = "):
            line = f"{q_name} = {first}"
        elif second is not None and line.startswith(f"{k_name} = "):
            line = f"{k_name} = {second}"
        elif line.strip() == cell.check:
            code += lines + [""]
        code.append(line)
    return "\n".join(code) + "\n"


def _design_lines(call: ast.Call, q_name: str, k_name: str) -> list[str]:
    """``design(W_q_2_1=3.0, ...)`` of the test file as the learner's assignments, rows named by feature."""
    features = data.load("green_grass")["features"]
    lines = []
    for keyword in call.keywords:
        matrix, row, col = keyword.arg.rsplit("_", 2)
        target = {"W_q": q_name, "W_k": k_name}[matrix]
        value = ast.unparse(keyword.value)
        lines.append(f'{target}[features.index("{features[int(row)]}"), {col}] = {value}')
    return lines


def _puzzle_cases(cell: Cell, edition: str) -> list[Case]:
    """The notebook's solution; for green and grass (the pair the test file's matrices are made for), its
    ``design(...)`` cases; for both puzzles, its shape cases."""
    q_name, k_name = PUZZLE.search(cell.check).group(1, 2)
    found = [Case(cell.exercise, cell.source, cell.check, "even"),
             Case(cell.exercise, _with(cell, _solution(edition, cell).splitlines()), cell.check, "correct")]
    source = PUZZLE_TESTS.read_text(encoding="utf-8")
    for function in ast.parse(source).body:
        if not isinstance(function, ast.FunctionDef) or function.name not in (
                "test_projection_puzzle", "test_projection_puzzle_shape_feedback"):
            continue
        rows = function.decorator_list[0].args[1].elts
        for row in rows:
            cause = next(ast.literal_eval(e) for e in row.elts if isinstance(e, ast.Constant) and e.value
                         in _puzzle_causes())
            first = row.elts[0]
            if isinstance(first, ast.Starred):  # design(...): green and grass only
                if cell.name != "W_q_green" or cause in ("correct", "even"):
                    continue
                code = _with(cell, _design_lines(first.value, q_name, k_name))
            else:
                code = _with(cell, [], ast.get_source_segment(source, first),
                             ast.get_source_segment(source, row.elts[1]))
            found.append(Case(cell.exercise, code, cell.check, cause))
    return found


@cache
def _puzzle_causes() -> frozenset[str]:
    from attnlib.exercises import queries_keys_values

    return frozenset(queries_keys_values.PUZZLE_MESSAGES)
