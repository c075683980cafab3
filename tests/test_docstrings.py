"""Every public function and class of attnlib says, in NumPy style, which notebook section teaches it.

"Public" means named in its module's ``__all__`` (subpackages included). Its docstring must

* exist, written in NumPy style: sections such as ``Parameters`` underlined with dashes, never
  Google-style ``Args:`` / ``Returns:`` blocks;
* end with a line ``Taught in: NN §k``, where ``notebooks/NN_*.ipynb`` exists and has a Markdown
  heading ``## k. ...``; ``k`` may instead be the title of a section, numbered or not
  (``Taught in: 06 §Exercises``, ``Taught in: 02 §Recap``). Several pointers are separated by
  commas: ``Taught in: 02 §1, 06 §4``.

The test collects every offender and lists them all in one message, grouped by module.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import nbformat
import pytest

import attnlib

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


@functools.cache
def sections(number: str) -> tuple[set[str], set[str]] | None:
    """(section numbers, normalised section titles) of notebook ``number``, or None if it is missing."""
    paths = sorted(NOTEBOOKS.glob(f"{number}_*.ipynb"))
    if not paths:
        return None
    numbers, titles = set(), set()
    for cell in nbformat.read(paths[0], as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            heading = re.fullmatch(r"##\s+(?:(\d+)\.\s+)?(.+?)\s*", line)
            if heading:
                if heading[1]:
                    numbers.add(heading[1])
                titles.add(_normalise(heading[2]))
    return numbers, titles


def _normalise(title: str) -> str:
    return " ".join(title.split()).casefold()


def pointer_problems(line: str) -> list[str]:
    """What is wrong with one ``Taught in: ...`` line (empty if nothing)."""
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
        elif section.isdigit():
            if section not in known[0]:
                found.append(f"points to {number} §{section}, but notebook {number} has no heading '## {section}.'")
        elif _normalise(section) not in known[1]:
            found.append(f"points to {number} §{section}, but notebook {number} has no section titled {section!r}")
    return found


def docstring_problems(doc: str | None) -> list[str]:
    """What is wrong with one docstring (empty if nothing)."""
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
    return found + pointer_problems(lines[-1])


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
        for problem in docstring_problems(_own_docstring(obj)):
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
