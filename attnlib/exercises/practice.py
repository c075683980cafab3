"""Run a learner's code as a notebook's exercise cell would, and say what came of it, as plain data.

This is the runner of the page's Python: the site's editor cards send the learner's code to a Web
Worker running Pyodide (``attnlib/page/python_worker.js``), which calls :func:`run` and posts its
dict back. It is plain Python (no threads, no signals, no subprocesses), so the tests run the very
same function in CPython and compare its verdicts with the checkers called directly.

What :func:`run` does, in the order a notebook would:

1. runs :data:`PRELUDE` (the setup cell's imports) and, for an exercise that needs names from
   earlier cells, its :data:`EXTRA_PRELUDE`, in a fresh namespace;
2. runs the learner's code, compiled as the file ``"<cell>"`` so that line numbers are those of the
   code the learner sees (never the prelude's), with ``print`` output and warnings captured in order;
3. takes the value of the last statement, when it is an expression: a
   :class:`~attnlib.exercises.pipeline.Verdict` is the verdict, any other value is shown as its repr
   (unless the cell ends with ``;``);
4. without a verdict, evaluates ``check`` (the checker line of the exercise cell), so a learner who
   deleted that line is still checked.

The learner's code cannot import ``js``, ``pyodide``, ``pyodide_js`` or ``micropip`` (the modules
that reach the page), and ``input()`` says that there is no keyboard input. These refusals give a
plain sentence; keeping the network away is the worker's job (it removes it from its global scope).
numpy's print and error settings, warning filters, the recursion limit and attnlib's language come
back as they were after each run.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import linecache
import pprint
import re
import sys
import tokenize
import traceback
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..checks import check_choice, check_type, refuse
from ..i18n import LANGUAGES, N_, set_language, tr
from .pipeline import Verdict

__all__ = ["EXTRA_PRELUDE", "PRELUDE", "run"]

# The setup cell of every notebook, as far as an exercise cell needs it.
PRELUDE = """\
import numpy as np

import attnlib
from attnlib import data, exercises

np.set_printoptions(precision=4, suppress=True, floatmode="fixed")
"""
# What one exercise's cell needs from earlier cells of its notebook, by checker.
EXTRA_PRELUDE = {
    "check_projection_puzzle": """\
gg = data.load("green_grass")
X, tokens, features = gg["X"], gg["tokens"], gg["features"]  # X (T, d_model)
T, d_model = X.shape
""",
}
# Modules through which code in the page's worker could reach the page.
REFUSED = frozenset({"js", "pyodide", "pyodide_js", "micropip"})
OUTPUT_LIMIT = 50_000  # characters of print output kept
VALUE_LIMIT = 10_000  # characters of a value's repr kept
CELL, CHECK, SETUP = "<cell>", "<check>", "<prelude>"

MESSAGES = {
    "not_defined": N_("`{name}` is not defined: the check needs it, so keep the code that defines `{name}`"),
    "refused": N_(
        "`{module}` cannot be imported here: code in the page runs apart from the page and the network"
    ),
    "input": N_(
        "input() has nothing to read here: code in the page gets no keyboard input, so write the value "
        "into your code"
    ),
    "cut": N_("… ({count} more characters not shown)"),
}


def run(code: str, check: str | None = None, language: str = "en", prelude: str = PRELUDE) -> dict[str, Any]:
    """Run the learner's ``code`` as an exercise cell, then ``check`` it; what came of it, as JSON-able data.

    Parameters
    ----------
    code : str
        The learner's code, the whole cell.
    check : str, optional
        The exercise cell's checker line, e.g. ``"exercises.check_softmax_rows(my_softmax)"``: evaluated
        for the verdict when the cell's last value is not one. None for a scratch cell.
    language : {"en", "zh-Hans", "zh-Hant"}
        The language of the verdicts and of the runner's own messages.
    prelude : str
        Run first, in the same namespace (the notebook's setup cell); the checker's
        :data:`EXTRA_PRELUDE` is added to it.

    Returns
    -------
    dict
        ``stdout`` (print output and warnings, in order), ``value`` (repr of the last value, or None),
        ``verdict`` (``{"ok", "cause", "text"}``, ``text`` being ``str(verdict)``, or None) and ``error``
        (``{"kind": "syntax" | "exception" | "refused", "line", "message"}``, or None): ``line`` is the
        line of the learner's code (1-based) or None, ``message`` the error's last line.

    Raises
    ------
    TypeError
        If ``code``, ``check`` or ``prelude`` is not a str (``check`` may be None).
    ValueError
        If ``language`` is not one of the three, or ``check`` is not one Python expression.

    Serves: the editor cards of the site (through the page's worker) and their tests.
    """
    if not isinstance(code, str):
        check_type(code, "code", str, what=N_("the learner's code, a str"))
    if check is not None:
        check_type(check, "check", str, what=N_("the checker line, a str, or None"))
        try:
            compile(check, CHECK, "eval")
        except SyntaxError:
            refuse(ValueError, N_("check must be one Python expression, such as "
                                  "exercises.check_softmax_rows(my_softmax); got {check!r}"), check=check)
    check_choice(language, "language", LANGUAGES)
    check_type(prelude, "prelude", str, what=N_("Python code, a str"))
    setup = prelude + EXTRA_PRELUDE.get(_checker_of(check), "")
    output = _Output(OUTPUT_LIMIT)
    with set_language(language), _settings_kept(), _cell_lines(code), \
            contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        result = {"value": None, "verdict": None, "error": None, **_run_cell(code, check, setup)}
        result["stdout"] = output.text()
    return {key: result[key] for key in ("stdout", "value", "verdict", "error")}


def _run_cell(code: str, check: str | None, setup: str) -> dict[str, Any]:
    """The steps of :func:`run` in the namespace of one cell: ``value``, ``verdict`` and ``error``."""
    try:
        body, last = _compiled(code)
        quiet = _quiet(code)
    except (SyntaxError, ValueError) as err:  # ValueError: a null byte, in older Pythons
        line = getattr(err, "lineno", None) if getattr(err, "filename", CELL) == CELL else None
        detail = getattr(err, "msg", None) or str(err)
        return {"error": {"kind": "syntax", "line": line, "message": f"{type(err).__name__}: {detail}"}}
    namespace = _namespace()
    exec(compile(setup, SETUP, "exec"), namespace)  # a failure here is the page's, not the learner's
    try:
        exec(body, namespace)
        value = eval(last, namespace) if last is not None else None
        shown = None if quiet or value is None or isinstance(value, Verdict) else _shown(value)
    except BaseException as err:  # noqa: BLE001 (exit(), KeyboardInterrupt: the learner's code, said back)
        return {"error": _error(err)}
    verdict = value if isinstance(value, Verdict) else None
    if verdict is None and check is not None:
        try:
            verdict = eval(compile(check, CHECK, "eval"), namespace)
        except NameError as err:
            if traceback.extract_tb(err.__traceback__)[-1].filename != CHECK:
                return {"value": shown, "error": _error(err)}
            name = err.name or str(err)
            verdict = Verdict(False, tr(MESSAGES["not_defined"]).format(name=name), "not_defined")
        except BaseException as err:  # noqa: BLE001
            return {"value": shown, "error": _error(err)}
    if not isinstance(verdict, Verdict):
        return {"value": shown}
    return {"value": shown, "verdict": {"ok": bool(verdict.ok), "cause": verdict.cause, "text": str(verdict)}}


def _compiled(code: str) -> tuple[Any, Any]:
    """``code`` as a module of every statement but the last expression, and that expression (or None)."""
    tree = ast.parse(code, CELL)
    last = None
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = compile(ast.Expression(tree.body.pop().value), CELL, "eval")
    return compile(tree, CELL, "exec"), last


def _quiet(code: str) -> bool:
    """Whether the cell ends with ``;``, which keeps a notebook from showing its value."""
    skip = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENDMARKER}
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(code).readline) if t.type not in skip]
    except (tokenize.TokenError, SyntaxError):
        return False
    return bool(tokens) and tokens[-1].string == ";"


def _checker_of(check: str | None) -> str:
    found = re.search(r"\bcheck_\w+", check or "")
    return found.group() if found else ""


def _namespace() -> dict[str, Any]:
    """A fresh ``__main__`` whose builtins refuse the modules that reach the page, and ``input()``."""
    own = dict(vars(builtins))
    real_import = builtins.__import__

    def guarded_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                       level: int = 0) -> Any:
        top = name.partition(".")[0]
        if level == 0 and top in REFUSED:
            raise ImportError(tr(MESSAGES["refused"]).format(module=top), name=top)
        return real_import(name, globals, locals, fromlist, level)

    def no_input(prompt: object = "") -> str:
        raise EOFError(tr(MESSAGES["input"]))

    own.update(__import__=guarded_import, input=no_input)
    return {"__name__": "__main__", "__builtins__": own}


def _error(err: BaseException) -> dict[str, Any]:
    """An exception of the learner's code: its last line and the last line of ``<cell>`` it passed."""
    frames = [frame for frame in traceback.extract_tb(err.__traceback__) if frame.filename == CELL]
    if isinstance(err, SystemExit) and err.code is None:
        message = "SystemExit"  # exit() or quit(), as a notebook says it
    else:
        message = "".join(traceback.format_exception_only(type(err), err)).strip()
    refused = isinstance(err, ImportError) and err.name in REFUSED  # raised by the guarded import
    return {"kind": "refused" if refused else "exception", "line": frames[-1].lineno if frames else None,
            "message": message}


def _shown(value: Any) -> str:
    """``value`` as a notebook shows it: its repr (containers laid out one item a line when long), cut."""
    if type(value) in (list, tuple, dict, set, frozenset) and len(value) <= 200:
        text = pprint.pformat(value, sort_dicts=False)
    else:
        text = repr(value)
    return _cut(text, VALUE_LIMIT, 0)


def _cut(text: str, limit: int, dropped: int) -> str:
    """``text`` to ``limit`` characters, saying how many more there were."""
    dropped += max(0, len(text) - limit)
    if not dropped:
        return text
    return text[:limit].rstrip("\n") + "\n" + tr(MESSAGES["cut"]).format(count=dropped)


class _Output(io.StringIO):
    """Where ``print`` writes during a run: the first ``limit`` characters kept, the rest counted."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit, self.kept, self.dropped = limit, 0, 0

    def write(self, text: str) -> int:
        room = max(0, self.limit - self.kept)
        super().write(text[:room])
        self.kept += min(len(text), room)
        self.dropped += max(0, len(text) - room)
        return len(text)

    def text(self) -> str:
        return _cut(self.getvalue(), self.limit, self.dropped)


@contextlib.contextmanager
def _settings_kept() -> Iterator[None]:
    """numpy's print and error settings, the warning filters and the recursion limit: as they were, after."""
    limit = sys.getrecursionlimit()
    try:
        with np.printoptions(), np.errstate(), warnings.catch_warnings():
            warnings.showwarning = _show_warning  # into the output, whoever else is listening
            yield
    finally:
        sys.setrecursionlimit(limit)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _cell_lines(code: str) -> Iterator[None]:
    """The learner's lines known to ``linecache`` as ``<cell>`` (as a notebook's cells are), so that a
    checker's "raised at line 3: `…`" quotes them."""
    linecache.cache[CELL] = (len(code), None, code.splitlines(True), CELL)
    try:
        yield
    finally:
        linecache.cache.pop(CELL, None)
