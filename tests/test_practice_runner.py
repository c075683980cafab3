"""attnlib.exercises.practice.run: the page's runner, in CPython. Its verdicts are the checkers' own (called
directly, in the three languages), and every way a learner's code can go wrong comes back as plain data."""

from __future__ import annotations

import json
import linecache
import subprocess
import sys

import numpy as np
import pytest

import attnlib
from attnlib import exercises
from attnlib.exercises import practice
from attnlib.exercises.practice import run

SOFTMAX = "exercises.check_softmax_rows(my_softmax)"
RIGHT = '''\
def my_softmax(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''
COLUMNS = '''\
def my_softmax(scores):
    e = np.exp(scores - scores.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
'''
PUZZLE = 'exercises.check_projection_puzzle(W_q_green, W_k_green, query="green", key="grass")'


def defined(code: str, name: str):
    """``name`` from ``code`` run as a notebook cell is (its lines known to linecache, as IPython keeps them)."""
    namespace = {"np": np}
    linecache.cache["<cell>"] = (len(code), None, code.splitlines(True), "<cell>")
    exec(compile(code, "<cell>", "exec"), namespace)
    return namespace[name]


def test_the_result_is_json_with_the_four_keys():
    result = run(RIGHT + "\n" + SOFTMAX)
    assert list(result) == ["stdout", "value", "verdict", "error"]
    assert json.loads(json.dumps(result)) == result
    assert result["verdict"]["ok"] is True and result["verdict"]["cause"] == "correct"
    assert result["error"] is None and result["value"] is None


@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant"])
@pytest.mark.parametrize("code", [RIGHT, COLUMNS], ids=["right", "columns"])
def test_the_verdict_is_the_checkers_own_in_each_language(code, language):
    result = run(code + "\n" + SOFTMAX, SOFTMAX, language)
    with attnlib.set_language(language):
        direct = exercises.check_softmax_rows(defined(code, "my_softmax"))
    assert result["verdict"] == {"ok": direct.ok, "cause": direct.cause, "text": str(direct)}
    assert attnlib.i18n.language() == "en"


def test_a_chinese_verdict_is_in_chinese():
    hans = run(COLUMNS, SOFTMAX, "zh-Hans")["verdict"]["text"]
    hant = run(COLUMNS, SOFTMAX, "zh-Hant")["verdict"]["text"]
    assert hans.startswith("❌") and "行" in hans and hans != hant
    assert "列" in hant  # a matrix row is 列 in Taiwan


@pytest.mark.parametrize("checker", ["check_gram_matrix", "check_weighted_sum", "check_causal_mask",
                                     "check_split_heads", "check_cached_attention"])
def test_a_worked_answer_passes_as_when_checked_directly(checker):
    exercise = exercises.exercise_named(checker)
    name = exercise.reference.__name__
    result = run(exercise.worked_answer() + f"\n\n\nexercises.{checker}({name})\n")
    direct = getattr(exercises, checker)(exercise.reference)
    assert direct.ok and result["verdict"]["text"] == str(direct)


def test_without_the_checker_line_the_check_still_runs():
    result = run(COLUMNS, SOFTMAX)
    assert result["verdict"]["cause"] == "columns" and result["value"] is None


def test_a_missing_function_is_named_in_the_verdict():
    result = run("x = 1\n", SOFTMAX)
    assert result["error"] is None
    assert result["verdict"]["ok"] is False and result["verdict"]["cause"] == "not_defined"
    assert "`my_softmax` is not defined" in result["verdict"]["text"]
    assert "`my_softmax` 没有定义" in run("x = 1\n", SOFTMAX, "zh-Hans")["verdict"]["text"]


def test_a_verdict_as_the_last_value_is_the_verdict_and_not_a_value():
    result = run(COLUMNS + "\n" + SOFTMAX, None)
    assert result["verdict"]["cause"] == "columns" and result["value"] is None


def test_the_check_runs_once():
    code = COLUMNS.replace("def my_softmax(scores):", "def my_softmax(scores):\n    print('called')")
    for last in (SOFTMAX, SOFTMAX + ";", ""):
        result = run(code + last, SOFTMAX)
        assert result["verdict"]["cause"] == "columns" and result["value"] is None
        assert result["stdout"] == "called\n"  # the first hidden input gives the mistake away


def test_a_scratch_cell_shows_its_last_value_as_a_notebook_does():
    result = run("a = np.arange(6).reshape(2, 3) / 7\na")
    assert result["value"] == "array([[0.0000, 0.1429, 0.2857],\n       [0.4286, 0.5714, 0.7143]])"
    assert result["verdict"] is None and result["error"] is None
    assert run("x = 2\nx * 3")["value"] == "6"
    assert run("x = 2\nx * 3;  # quiet")["value"] is None
    assert run("print('a')")["value"] is None  # None is not shown
    assert run("attnlib.softmax([0.0, 0.0])")["value"] == "array([0.5000, 0.5000])"


def test_a_long_tuple_of_arrays_is_laid_out_one_item_a_line():
    value = run("tuple(np.full((2, 12), 0.5) for _ in range(2))")["value"]
    assert value.startswith("(array(") and ",\n array(" in value


def test_a_huge_value_is_cut_and_says_so():
    value = run("list(range(100_000))")["value"]
    assert len(value) < practice.VALUE_LIMIT + 100
    more = len(repr(list(range(100_000)))) - practice.VALUE_LIMIT
    assert value.endswith(f"… ({more} more characters not shown)")


def test_a_flood_of_output_is_cut_and_says_so():
    stdout = run("for i in range(50_000):\n    print(i)")["stdout"]
    assert stdout.startswith("0\n1\n2\n") and len(stdout) < practice.OUTPUT_LIMIT + 100
    assert "more characters not shown" in stdout.splitlines()[-1]


def test_print_output_and_warnings_come_in_order():
    code = '''\
print("before")
np.log(0.0)
def my_softmax(scores):
    print("inside")
    e = np.exp(scores)
    return e / e.sum(axis=-1, keepdims=True)
print("after")
'''
    result = run(code, SOFTMAX)
    lines = result["stdout"].splitlines()
    assert lines[0] == "before" and "<cell>:2: RuntimeWarning: divide by zero" in lines[1]
    assert lines[3] == "after" and lines[4] == "inside"  # the check runs after the cell, as a next line would
    assert result["verdict"]["cause"] == "overflow"


@pytest.mark.parametrize(("code", "line", "message"), [
    ("def f(:\n    pass\n", 1, "SyntaxError: invalid syntax"),
    ("x = 1\ndef f():\nreturn 1\n", 3,
     "IndentationError: expected an indented block after function definition on line 2"),
    ("x = [1,\n", 1, "SyntaxError: '[' was never closed"),
    ("return 5", 1, "SyntaxError: 'return' outside function"),
])
def test_a_syntax_error_names_its_line(code, line, message):
    result = run(code, SOFTMAX)
    assert result["error"] == {"kind": "syntax", "line": line, "message": message}
    assert result["verdict"] is None


def test_an_exception_gives_its_last_line_and_the_line_of_the_learners_code():
    code = 'print("hi")\ndef f(x):\n    return x[3]\nf([1, 2])\nprint("never")\n'
    result = run(code, SOFTMAX)
    assert result["error"] == {"kind": "exception", "line": 3, "message": "IndexError: list index out of range"}
    assert result["stdout"] == "hi\n" and result["verdict"] is None  # the cell stopped, as in a notebook


def test_an_error_inside_a_library_call_names_the_learners_line():
    result = run("x = 1\nattnlib.softmax(np.zeros((2, 2)), axis=5)\n")
    assert result["error"]["line"] == 2 and result["error"]["message"].startswith(("ValueError", "AxisError",
                                                                                   "numpy."))


def test_the_prelude_is_never_counted_in_the_lines():
    result = run("1 / 0")
    assert result["error"] == {"kind": "exception", "line": 1, "message": "ZeroDivisionError: division by zero"}


def test_an_exception_in_the_learners_function_is_the_checkers_verdict_quoting_the_line():
    code = "def my_softmax(scores):\n    total = scores.sum()\n    return scores / undefined_name\n"
    result = run(code, SOFTMAX)
    direct = exercises.check_softmax_rows(defined(code, "my_softmax"))
    assert result["error"] is None and result["verdict"]["text"] == str(direct)
    assert result["verdict"]["cause"] == "raised" and "line 3: `return scores / undefined_name`" in str(direct)


def test_exit_and_keyboard_interrupt_are_said_back():
    assert run("print(1)\nexit()")["error"] == {"kind": "exception", "line": 2, "message": "SystemExit"}
    assert run("import sys\nsys.exit(3)")["error"]["message"] == "SystemExit: 3"
    assert run("raise KeyboardInterrupt")["error"] == {"kind": "exception", "line": 1,
                                                       "message": "KeyboardInterrupt"}
    code = "def my_softmax(scores):\n    raise SystemExit\n"
    assert run(code, SOFTMAX)["error"] == {"kind": "exception", "line": 2, "message": "SystemExit"}


def test_input_says_there_is_no_keyboard():
    error = run("n = input('how many? ')")["error"]
    assert error["kind"] == "exception" and error["line"] == 1
    assert error["message"].startswith("EOFError: input() has nothing to read here")
    assert "键盘" in run("input()", None, "zh-Hans")["error"]["message"]


def test_endless_recursion_is_an_error_and_the_limit_comes_back():
    limit = sys.getrecursionlimit()
    result = run("import sys\nsys.setrecursionlimit(200)\ndef f(n):\n    return f(n + 1)\nf(0)")
    assert result["error"]["message"].startswith("RecursionError") and result["error"]["line"] == 4
    assert sys.getrecursionlimit() == limit


@pytest.mark.parametrize(("code", "module"), [
    ("import js", "js"),
    ("from js import fetch", "js"),
    ("import pyodide.ffi", "pyodide"),
    ("x = 1\nfrom pyodide_js import loadPackage", "pyodide_js"),
    ("import micropip", "micropip"),
    ("__import__('js')", "js"),
])
def test_the_modules_that_reach_the_page_are_refused(code, module):
    error = run(code)["error"]
    assert error["kind"] == "refused" and error["line"] == code.count("\n") + 1
    assert error["message"] == (f"ImportError: `{module}` cannot be imported here: code in the page runs apart "
                                "from the page and the network")


def test_a_refused_import_in_the_learners_function_is_the_checkers_verdict():
    verdict = run("def my_softmax(scores):\n    import js\n    return scores\n", SOFTMAX)["verdict"]
    assert verdict["cause"] == "raised" and "`js` cannot be imported here" in verdict["text"]
    assert "这里不能导入 `js`" in run("import js", None, "zh-Hans")["error"]["message"]


def test_the_settings_come_back_after_a_run():
    before = np.get_printoptions()
    result = run("np.set_printoptions(precision=1)\nnp.seterr(all='raise')\nattnlib.set_language('zh-Hant')\n"
                 "import warnings\nwarnings.simplefilter('error')\nnp.array([1.23456])")
    assert result["value"] == "array([1.2])"
    assert np.get_printoptions() == before and np.geterr()["divide"] == "warn"
    assert attnlib.i18n.language() == "en"
    assert "<cell>" not in linecache.cache


def test_each_run_starts_afresh():
    run("secret = 1")
    assert run("secret")["error"]["message"] == "NameError: name 'secret' is not defined"


def test_the_puzzle_has_the_names_of_the_cells_before_it():
    code = "W_q_green = np.zeros((d_model, 2))\nW_k_green = np.zeros((d_model, 2))\n"
    result = run(code, PUZZLE)
    with attnlib.set_language("zh-Hans"):
        zeros = np.zeros((6, 2))
        direct = exercises.check_projection_puzzle(zeros, zeros, query="green", key="grass")
    assert run(code, PUZZLE, "zh-Hans")["verdict"]["text"] == str(direct)
    assert result["verdict"]["cause"] == "even" and "T, d_model = X.shape" in practice.EXTRA_PRELUDE[
        "check_projection_puzzle"]


@pytest.mark.parametrize(("kwargs", "error", "message"), [
    ({"code": b"x = 1"}, TypeError, "code must be the learner's code, a str; got bytes"),
    ({"code": "", "check": 3}, TypeError, "check must be the checker line, a str, or None; got int"),
    ({"code": "", "check": "exercises.check_softmax_rows("}, ValueError, "check must be one Python expression"),
    ({"code": "", "language": "fr"}, ValueError, "language must be one of en, zh-Hans, zh-Hant; got 'fr'"),
    ({"code": "", "prelude": None}, TypeError, "prelude must be Python code, a str; got NoneType"),
])
def test_arguments_are_checked(kwargs, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(")):
        run(**kwargs)


def test_importing_the_exercises_does_not_load_the_runner():
    code = "import sys, attnlib.exercises; print('attnlib.exercises.practice' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "False\n"
