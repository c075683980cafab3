"""Is a translated code cell the English program? Which strings of a cell are only shown?

A code cell of an edition is the English cell with some fragments replaced: comments, and string literals
the reader only sees (printed, figure titles, axis labels, legends). `code_drift` proves the translated
cell is the same program: the same AST once shown string constants are replaced by a placeholder (comments
are not in the AST), and every string that changed is only ever shown, never computed with.
`code_candidates` lists what a translator may translate in a cell.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache

SHOWN = "\x00shown\x00"  # what a string constant becomes before two programs are compared
# Calls whose arguments are shown, never computed with: print, exceptions, matplotlib's text methods.
DISPLAY_CALLS = {"print", "display", "Markdown"}
DISPLAY_METHODS = {
    *("set_title", "set_xlabel", "set_ylabel", "suptitle", "title", "xlabel", "ylabel", "legend", "text"),
    *("annotate", "set_label", "set_text", "figtext", "supxlabel", "supylabel"),
    *("set_xticklabels", "set_yticklabels"),
}
DISPLAY_KEYWORDS = {"title", "xlabel", "ylabel", "label", "suptitle", "caption"}
# attnlib.plot arguments whose strings are labels drawn on a figure: position and keyword.
LABEL_ARGUMENTS = {"loss_curves": ({0}, {"curves", "baselines"}), "contribution_bars": ({2}, {"tokens"})}
STRING_METHODS = {"format", "join", "ljust", "rjust", "center", "upper", "lower", "strip"}
# Calls that give back their first argument as text to show: attnlib.pad (a label padded to a width).
PASS_THROUGH_CALLS = {"pad"}
# What a shown string shows that a translation must keep in order: its numbers, and {} for each value
# of an f-string (the tests compare the numbers an edition prints with the English ones).
SHOWN_NUMBERS = re.compile(r"\{\}|(?<![\w.])-?\d+(?:\.\d+)?")
# Comments that tools read (nbval, ruff, formatters): never translated.
DIRECTIVE = re.compile(r"#\s*(NBVAL_|noqa|fmt:|type:|pragma)")
FORMAT_FIELD = re.compile(r"\{[^{}]*\}|%[-+ #0]*\d*(?:\.\d+)?[a-zA-Z%]")


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _call_name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _in_format_spec(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        parent = parents[node]
        if isinstance(parent, ast.FormattedValue) and parent.format_spec is node:
            return True
        node = parent
    return False


def _loads(tree: ast.AST, name: str) -> list[ast.Name]:
    return [
        n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
    ]


def _bound_name_shown(
    target: ast.AST, scope: ast.AST, role: str, parents: dict, depth: int, elsewhere: frozenset[str]
) -> bool:
    """A string bound to the name `target`: shown only if every use of the name only shows it."""
    if not isinstance(target, ast.Name) or target.id in elsewhere:
        return False
    uses = _loads(scope, target.id)
    return bool(uses) and all(_shown(use, role, parents, scope, depth + 1, elsewhere) for use in uses)


def _loop_target(row: ast.AST, node: ast.AST, parents: dict) -> tuple[ast.AST, ast.For] | None:
    """The loop variable `node` (an item of the tuple `row`, itself an item of what a for loop runs over,
    directly or as an argument of zip) is bound to, and that loop."""
    table = parents.get(row)
    if not isinstance(row, ast.Tuple) or not isinstance(table, ast.Tuple | ast.List):
        return None
    loop, target = parents.get(table), None
    if isinstance(loop, ast.For) and loop.iter is table:
        target = loop.target
    elif isinstance(loop, ast.Call) and _call_name(loop) == "zip" and table in loop.args:
        zipped, loop = loop, parents.get(loop)
        if isinstance(loop, ast.For) and loop.iter is zipped and isinstance(loop.target, ast.Tuple):
            column = next(i for i, a in enumerate(zipped.args) if a is table)
            target = loop.target.elts[column] if column < len(loop.target.elts) else None
    if not isinstance(target, ast.Tuple) or len(target.elts) != len(row.elts):
        return None
    return target.elts[next(i for i, e in enumerate(row.elts) if e is node)], loop


def _shown(
    node: ast.AST,
    role: str,
    parents: dict,
    tree: ast.AST,
    depth: int = 0,
    elsewhere: frozenset[str] = frozenset(),
) -> bool:
    """Is the value of `node` only ever shown (printed, drawn as text), never computed with?

    `role` is "text" for a string; "key" for a dict key, "value:K" for the value under the constant key K.
    """
    while depth < 8 and node in parents:
        parent = parents[node]
        if isinstance(parent, ast.JoinedStr | ast.FormattedValue):
            if isinstance(parent, ast.FormattedValue) and parent.format_spec is node:
                return False
        elif isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add | ast.Mod):
            pass
        elif isinstance(parent, ast.IfExp):
            if parent.test is node:
                return False
        elif isinstance(parent, ast.Tuple | ast.List | ast.Starred):
            bound = _loop_target(parent, node, parents)
            if bound is not None:  # for label, x in (("a", a), ("b", b)): the constant becomes `label`
                target, loop = bound
                scope = ast.Module(body=loop.body, type_ignores=[])
                return _bound_name_shown(target, scope, role, parents, depth, frozenset())
        elif isinstance(parent, ast.Dict):
            if role != "text":
                return False
            if node in parent.keys:
                role = "key"
            else:
                key = parent.keys[parent.values.index(node)]
                role = (
                    f"value:{getattr(key, 'original', key.value)}"
                    if isinstance(key, ast.Constant)
                    else "value:"
                )
        elif isinstance(parent, ast.Attribute):
            call = parents.get(parent)
            if not (parent.attr in STRING_METHODS and isinstance(call, ast.Call) and call.func is parent):
                return False
            parent = call
        elif isinstance(parent, ast.Call):
            name = _call_name(parent)
            if parent.func is node:
                return False
            if name in DISPLAY_CALLS or name.endswith(("Error", "Exception", "Warning")):
                return True
            if name in DISPLAY_METHODS and role == "text":
                return True
            positions = LABEL_ARGUMENTS.get(name, (set(), set()))[0]
            if node in parent.args and parent.args.index(node) in positions and role in ("text", "key"):
                return True
            if role.startswith("value:") and name in ("zip", "enumerate", "sorted", "list", "len"):
                return True  # iterating over a dict yields its keys: its shown values stay shown
            if name in PASS_THROUGH_CALLS and parent.args and parent.args[0] is node:
                pass  # attnlib.pad(label, 14): the label, padded; shown when the call's value is
            elif not (isinstance(parent.func, ast.Attribute) and parent.func.attr in STRING_METHODS):
                return False
        elif isinstance(parent, ast.keyword):
            call = parents[parent]
            if parent.arg is None:
                return role.startswith("value:") and role[6:] in DISPLAY_KEYWORDS
            if parent.arg in LABEL_ARGUMENTS.get(_call_name(call), (set(), set()))[1]:
                return role in ("text", "key")
            return role == "text" and parent.arg in DISPLAY_KEYWORDS
        elif isinstance(parent, ast.For) and parent.iter is node:
            return role.startswith("value:")  # for k in titles: only the keys come out
        elif isinstance(parent, ast.Assert):
            return parent.msg is node
        elif isinstance(parent, ast.Expr):
            return True  # a docstring, or a string the cell displays
        elif isinstance(parent, ast.Assign):
            # a name bound at the top of the cell may be read by a later cell: then it is not only shown
            seen = elsewhere if isinstance(parents.get(parent), ast.Module) else frozenset()
            return len(parent.targets) == 1 and _bound_name_shown(
                parent.targets[0], tree, role, parents, depth, seen
            )
        elif isinstance(parent, ast.Subscript) and parent.value is node and role == "text":
            pass  # titles[name]: the value taken out of a dict of shown strings
        elif isinstance(parent, ast.Subscript) and parent.value is node and role.startswith("value:"):
            role = "text"
        else:
            return False
        node = parent
    return False


@cache
def _transformer():
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # pragma: no cover - the notebooks need IPython anyway
        return None
    return TransformerManager()


def python_source(source: str) -> str:
    """The cell as plain Python (IPython's magics turned into calls)."""
    manager = _transformer()
    return manager.transform_cell(source) if manager is not None else source


def _blank_strings(tree: ast.AST) -> dict[ast.AST, str]:
    """Replace, in place, every string constant of `tree` by a placeholder and drop the literal parts of
    its f-strings (format specs are kept: they change numbers); return node → the text it had."""
    parents = _parents(tree)
    texts: dict[ast.AST, str] = {}
    for node in list(ast.walk(tree)):
        if isinstance(node, ast.JoinedStr) and not _in_format_spec(node, parents):
            texts[node] = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
            node.values = [v for v in node.values if not isinstance(v, ast.Constant)]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and not isinstance(parents.get(node), ast.JoinedStr)
            and not _in_format_spec(node, parents)
        ):
            texts[node] = node.original = node.value  # `original`: what _shown reads of a dict key
            node.value = SHOWN
    return texts


def code_drift(english: str, translated: str, elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """Why `translated` is not the program `english` is (empty if it is): the ASTs must be equal once
    string constants are placeholders (f-strings: the same expressions with the same format specs, in the
    same order), and every string that differs must be one that is only shown.

    `elsewhere`: the names other cells of the notebook use; a changed string bound to one of them is
    not "only shown" (this cell cannot see what the others do with it).
    """
    try:
        trees = [ast.parse(python_source(s)) for s in (english, translated)]
    except SyntaxError as err:
        return [f"does not parse: {err}"]
    texts = [_blank_strings(tree) for tree in trees]
    if ast.dump(trees[0], include_attributes=False) != ast.dump(trees[1], include_attributes=False):
        return ["the code differs, not only its strings and comments"]
    parents = _parents(trees[1])
    found = []
    for old, new in zip(ast.walk(trees[0]), ast.walk(trees[1]), strict=True):
        before, after = texts[0].get(old), texts[1].get(new)
        if before == after:
            continue
        if not _shown(new, "text", parents, trees[1], elsewhere=elsewhere):
            found.append(f"the string {before!r} is used for more than showing it: keep it as it is")
        elif SHOWN_NUMBERS.findall(before) != SHOWN_NUMBERS.findall(after):
            found.append(
                f"the string {before!r} shows {SHOWN_NUMBERS.findall(before)} (numbers, and {{}} for each "
                f"value) but its translation {SHOWN_NUMBERS.findall(after)}: keep them, in that order"
            )
        elif isinstance(parents.get(new), ast.BinOp | ast.Attribute) and sorted(
            FORMAT_FIELD.findall(before)
        ) != sorted(FORMAT_FIELD.findall(after)):  # "%.3f" % x, "{:.3f}".format(x)
            found.append(
                f"the string {before!r} lost or changed a format field {FORMAT_FIELD.findall(before)}"
            )
    return found


def code_candidates(source: str, elsewhere: frozenset[str] = frozenset()) -> list[str]:
    """What a translator may translate in a code cell: its comments with words, and its string literals
    (as written, quotes included) that are only shown and hold a word."""
    try:
        tree = ast.parse(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (SyntaxError, tokenize.TokenError):
        return []
    parents = _parents(tree)
    lines = source.splitlines(keepends=True)
    at = {}  # the outermost string node starting at each position (an f-string's parts share its start)
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant | ast.JoinedStr) and n.lineno <= len(lines):
            column = len(lines[n.lineno - 1].encode("utf-8")[: n.col_offset].decode("utf-8", "replace"))
            at.setdefault((n.lineno, column), n)
    found, node = [], None
    for token in tokens:
        word = re.search(r"[A-Za-z]{2}", token.string)
        if token.type == tokenize.COMMENT and word and not DIRECTIVE.match(token.string):
            found.append(token.string)
        elif token.type == tokenize.STRING:
            node = node or at.get(token.start)  # "a" "b": the second token is part of the first's node
            if isinstance(node, ast.JoinedStr):  # the words of an f-string, not of its expressions
                node_parents = _parents(node)
                shown = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
                         and isinstance(n.value, str) and not _in_format_spec(n, node_parents)]  # fmt: skip
                word = re.search(r"[A-Za-z]{2}", "".join(shown))
            if word and node is not None and isinstance(getattr(node, "value", ""), str | list):
                if _shown(node, "text", parents, tree, elsewhere=elsewhere) and token.string not in found:
                    found.append(token.string)
        elif token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            node = None
    return found


@cache
def _names(source: str) -> frozenset[str]:
    try:
        return frozenset(n.id for n in ast.walk(ast.parse(python_source(source))) if isinstance(n, ast.Name))
    except SyntaxError:
        return frozenset()


def names_used(nb, but: str) -> frozenset[str]:
    """The names the code cells of `nb` other than the cell `but` read."""
    return frozenset().union(*(_names(c.source) for c in nb.cells if c.cell_type == "code" and c.id != but))
