"""Every public function and class of attnlib is documented in NumPy style, and a name a learner meets
says which notebook section teaches it.

"Public" means named in its module's ``__all__`` (subpackages included). Its docstring must

* exist, written in NumPy style: sections such as ``Parameters`` underlined with dashes, never
  Google-style ``Args:`` / ``Returns:`` blocks;
* if a learner meets the name (the English notebooks' code cells use it: ``attnlib.x``, ``plot.x``,
  ``from attnlib... import x``, a method of a class; or a Markdown code span names ``attnlib....x``),
  end with a line ``Taught in: NN §k``, where ``notebooks/NN_*.ipynb`` exists and has a Markdown
  heading ``## k. ...`` whose section (down to the next ``##`` heading) shows the name; ``k`` may
  instead be the title of a section, numbered or not (``Taught in: 06 §Exercises``). Several pointers
  are separated by commas: ``Taught in: 02 §1, 06 §4``;
* if no notebook uses the name (infrastructure: fonts, bundles, validation...), have no such line:
  its docstring says what it serves instead.

The test collects every offender and lists them all in one message, grouped by module.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import nbformat
import pytest

import attnlib

pytestmark = pytest.mark.repo  # reads the sections of notebooks/

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
POINTER_LINE = re.compile(r"Taught in: (.+)")
POINTER = re.compile(r"(\d\d) §(\S.*?)(?=, \d\d §|$)")
GOOGLE_SECTION = re.compile(
    r"^\s*(Args|Arguments|Parameters|Returns?|Yields?|Raises|Attributes|Examples?|Notes?|"
    r"Keyword Args|Keyword Arguments|Other Parameters|Warns|Warnings|See Also|References):\s*$",
    re.MULTILINE,
)
NUMPY_SECTIONS = {
    "Parameters", "Returns", "Yields", "Receives", "Other Parameters", "Raises", "Warns", "Warnings",
    "See Also", "Notes", "References", "Examples", "Attributes", "Methods", "Shapes",
}


def _names_in_code(source: str, imported: set[str]) -> set[str]:
    """Names of attnlib a code cell may use: imported from attnlib, an attribute (``plot.heatmap``,
    ``lab.frame``), or a bare name imported from attnlib earlier in the notebook (added to ``imported``)."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    found = set()
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("attnlib"):
            imported |= {alias.asname or alias.name for alias in node.names}
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Name) and node.id in imported:
            found.add(node.id)
    return found


def _names_in_prose(source: str) -> set[str]:
    """The last part of every ``attnlib.a.b`` written in a Markdown code span."""
    return {name.rsplit(".", 1)[1] for span in re.findall(r"`([^`]+)`", source)
            for name in re.findall(r"\battnlib(?:\.\w+)+", span)}


@functools.cache
def sections(number: str) -> dict[str, set[str]] | None:
    """Section number and normalised title → the attnlib names its cells use, for notebook ``number``
    (None if it is missing). A section runs from its ``##`` heading to the next one."""
    paths = sorted(NOTEBOOKS.glob(f"{number}_*.ipynb"))
    if not paths:
        return None
    found: dict[str, set[str]] = {}
    current: list[str] = []
    imported: set[str] = set()
    for cell in nbformat.read(paths[0], as_version=4).cells:
        if cell.cell_type == "code":
            names = _names_in_code(cell.source, imported)
        else:
            names = _names_in_prose(cell.source)
            for line in cell.source.splitlines():
                heading = re.fullmatch(r"##\s+(?:(\d+)\.\s+)?(.+?)\s*", line)
                if heading:
                    current = [key for key in (heading[1], _normalise(heading[2])) if key]
                    for key in current:
                        found.setdefault(key, set())
        for key in current:
            found[key] |= names
    return found


@functools.cache
def met_names() -> frozenset[str]:
    """Every attnlib name the English notebooks use (see :func:`sections`), the setup cells included."""
    names: set[str] = set()
    for path in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")):
        imported: set[str] = set()
        for cell in nbformat.read(path, as_version=4).cells:
            names |= _names_in_code(cell.source, imported) if cell.cell_type == "code" else _names_in_prose(cell.source)
    return frozenset(names)


def _shown(obj, names: set[str] | frozenset[str]) -> bool:
    """Whether ``names`` include ``obj``'s name or, for a class, one of its own methods."""
    if getattr(obj, "__name__", None) in names:
        return True
    return inspect.isclass(obj) and any(
        name in names for name, member in vars(obj).items() if not name.startswith("_") and callable(member)
    )


def _normalise(title: str) -> str:
    return " ".join(title.split()).casefold()


def pointer_problems(line: str, obj=None) -> list[str]:
    """What is wrong with one ``Taught in: ...`` line (empty if nothing); with ``obj``, each section
    pointed to must show it."""
    match = POINTER_LINE.fullmatch(line.strip())
    if not match:
        return [f"does not end with a 'Taught in: NN §k' line (last line: {line.strip()!r})"]
    pointers = POINTER.findall(match[1])
    if not pointers or ", ".join(f"{n} §{k}" for n, k in pointers) != match[1].strip():
        return [f"cannot read {line.strip()!r}: write 'Taught in: NN §k' (NN two digits, k a section)"]
    found = []
    for number, section in pointers:
        known = sections(number)
        if known is None:
            found.append(f"points to notebook {number}, but there is no notebooks/{number}_*.ipynb")
        elif section.isdigit() and section not in known:
            found.append(f"points to {number} §{section}, but notebook {number} has no heading '## {section}.'")
        elif not section.isdigit() and _normalise(section) not in known:
            found.append(f"points to {number} §{section}, but notebook {number} has no section titled {section!r}")
        elif obj is not None and not _shown(obj, known[section if section.isdigit() else _normalise(section)]):
            found.append(f"points to {number} §{section}, but that section does not use {obj.__name__}")
    return found


def docstring_problems(doc: str | None, obj=None) -> list[str]:
    """What is wrong with one docstring (empty if nothing); with ``obj``, whether it must point to a
    lesson depends on whether a notebook uses it."""
    if not doc or not doc.strip():
        return ["has no docstring"]
    text = inspect.cleandoc(doc)
    found = [
        f"uses a Google-style section {m[1]!r}: write it NumPy style, the title underlined with dashes"
        for m in GOOGLE_SECTION.finditer(text)
    ]
    lines = text.splitlines()
    for title, underline in zip(lines, lines[1:], strict=False):
        if re.fullmatch(r"-{3,}", underline.strip()) and title.strip():
            if title.strip() not in NUMPY_SECTIONS:
                found.append(f"has an unknown NumPy section {title.strip()!r}")
            elif len(underline.strip()) != len(title.strip()):
                found.append(f"underlines {title.strip()!r} with {len(underline.strip())} dashes, not {len(title.strip())}")
    if obj is not None and not _shown(obj, met_names()):
        if any(POINTER_LINE.search(line) for line in lines):
            found.append("has a 'Taught in' line, but no notebook uses it: say what it serves instead")
        return found
    return found + pointer_problems(lines[-1], obj)


def _own_docstring(obj) -> str | None:
    """The docstring written for ``obj`` itself: not a base class's, nor one generated for a dataclass or NamedTuple."""
    if not inspect.isclass(obj):
        return obj.__doc__
    doc = obj.__dict__.get("__doc__")
    if doc and doc.startswith(f"{obj.__name__}("):  # what dataclass and namedtuple write when there is none
        return None
    return doc


def public_objects() -> tuple[dict[str, object], list[str]]:
    """{"module.name": object} for every function and class in an ``__all__``, and the modules that failed to import."""
    found, failed = {}, []
    names = ["attnlib"] + [m.name for m in pkgutil.walk_packages(attnlib.__path__, "attnlib.")]
    for module_name in names:
        if any(part.startswith("_") for part in module_name.split(".")):
            continue
        try:
            module = importlib.import_module(module_name)
        except Exception as error:  # report it beside the docstrings instead of stopping at it
            failed.append(f"{module_name}: cannot be imported ({type(error).__name__}: {error})")
            continue
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue  # constants and submodules have no docstring of their own to check
            home = getattr(obj, "__module__", module_name)
            found.setdefault(f"{home}.{obj.__qualname__}", obj)
    return found, failed


def test_there_are_public_functions_and_classes_to_check():
    objects, _ = public_objects()
    assert len(objects) > 50
    assert "attnlib.core.formula.attention" in objects and "attnlib.data.load" in objects


def test_every_public_function_and_class_is_documented_and_points_to_its_lesson():
    objects, failed = public_objects()
    offenders: dict[str, list[str]] = {}
    for qualified, obj in sorted(objects.items()):
        for problem in docstring_problems(_own_docstring(obj), obj):
            offenders.setdefault(qualified.rsplit(".", 1)[0], []).append(f"  {qualified}: {problem}")
    count = sum(map(len, offenders.values())) + len(failed)
    names = {line.split(":")[0].strip() for lines in offenders.values() for line in lines}
    report = [f"{count} docstring problems, in {len(names)} of the {len(objects)} public functions and classes:"]
    report += failed
    for module in sorted(offenders):
        report += [f"{module}:"] + offenders[module]
    if offenders or failed:
        pytest.fail("\n".join(report), pytrace=False)


GOOD = '''Softmax along the last axis.

    Parameters
    ----------
    x : array_like
        Any shape.

    Taught in: 02 §1
'''


@pytest.mark.parametrize(
    ("doc", "problem"),
    [
        (None, "has no docstring"),
        ("Softmax.\n\nArgs:\n    x: an array\n\nTaught in: 02 §1", "Google-style section 'Args'"),
        ("Softmax.\n\nReturns:\n    the weights\n\nTaught in: 02 §1", "Google-style section 'Returns'"),
        ("Softmax.\n\nParameters\n-----\nx : array\n\nTaught in: 02 §1", "with 5 dashes, not 10"),
        ("Softmax.", "does not end with a 'Taught in: NN §k' line"),
        ("Softmax.\n\nTaught in: notebook 2", "cannot read"),
        ("Softmax.\n\nTaught in: 02 §99", "notebook 02 has no heading '## 99.'"),
        ("Softmax.\n\nTaught in: 02 §Nowhere", "no section titled 'Nowhere'"),
        ("Softmax.\n\nTaught in: 99 §1", "no notebooks/99_*.ipynb"),
        ("Softmax.\n\nTaught in: 02 §1, 02 §42", "no heading '## 42.'"),
    ],
)
def test_the_check_names_each_kind_of_mistake(doc, problem):
    found = docstring_problems(doc)
    assert any(problem in p for p in found), found


@pytest.mark.parametrize(
    "pointer", ["Taught in: 02 §1", "Taught in: 02 §Exercises", "Taught in: 02 §recap", "Taught in: 02 §1, 06 §4"]
)
def test_the_check_accepts_numbered_and_titled_sections(pointer):
    assert docstring_problems(GOOD.replace("Taught in: 02 §1", pointer)) == []


def test_pointers_follow_what_the_notebooks_use():
    def softmax():
        """Softmax.

        Taught in: 02 §1
        """

    def fonts_for():
        """Font subsets for a page.

        Taught in: 01 §1
        """

    assert "softmax" in met_names() and "fonts_for" not in met_names()
    assert docstring_problems(softmax.__doc__, softmax) == []
    assert any("no notebook uses it" in p for p in docstring_problems(fonts_for.__doc__, fonts_for))
    fonts_for.__doc__ = "Font subsets for a page (the labs' pages)."
    assert docstring_problems(fonts_for.__doc__, fonts_for) == []
    softmax.__doc__ = "Softmax.\n\nTaught in: 06 §1"  # 06 §1 exists but uses no softmax
    assert any("does not use softmax" in p for p in docstring_problems(softmax.__doc__, softmax))
