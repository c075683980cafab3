"""The contract between Python and the page: the shape of a lab's ``spec`` and of its stored state.

Python builds ``Lab.spec`` (sent through anywidget, or stored with the notebook and read by a page with no
kernel, ``page_state()``); the lab's ES module and ``kit.js`` read it. The shape is written once, here, as
``TypedDict`` classes whose fields carry a one-line description (``Annotated[type, "words"]``). From them:

- :func:`check` validates a real spec at run time (the tests check every lab's);
- :func:`jsdoc` writes the same shape as JSDoc ``@typedef`` blocks, checked in as ``spec.types.js`` beside
  ``kit.js``; a test fails when the file differs from what :func:`jsdoc` writes. Regenerate it with
  ``python -m attnlib.page.contract --jsdoc > attnlib/page/spec.types.js``.

``Any`` stands for any JSON value: ``None``, a bool, a finite number, a string, or lists and string-keyed
dicts of them.

Serves: the labs' widgets and their page modules (tests and the page's readers), not the notebooks.
"""

from __future__ import annotations

import math
import sys
import types
import typing
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict, Union

TYPES_JS = Path(__file__).resolve().parent / "spec.types.js"

Option = bool | int | float | str


class ControlSpec(TypedDict):
    """One control as the page builds it (``Control.spec()``)."""

    name: Annotated[str, "the control's name, the key of its value in `values`"]
    kind: Annotated[Literal["slider", "toggle", "menu"], "how the page draws it"]
    description: Annotated[str, "its label on the page"]
    options: Annotated[list[Option], "the values it can take, in order"]
    labels: Annotated[list[str], "how the page names each option"]
    limit: Annotated[str | None, "a control whose value bounds this one from above, or null"]


class PackedColumn(TypedDict):
    """A long column of plain numbers: the bytes of a little-endian float64 array, in base64."""

    f64: Annotated[str, "base64 of the float64 array"]


class FrameTable(TypedDict):
    """Some parts of the frame at every setting of the controls they depend on (the last one fastest)."""

    by: Annotated[list[str], "the controls the parts depend on, in the lab's order"]
    columns: Annotated[dict[str, list[Any] | PackedColumn],
                       'one column per part ("weights", "fields.dot"); null at a setting a limit forbids']


class FontFace(TypedDict):
    """A subset of one of attnlib.plot's fonts, cut to the characters the lab writes."""

    role: Annotated[Literal["sans", "cjk"], "Latin first, Chinese after it"]
    family: Annotated[str, "a family name of its own (two subsets never hide each other's glyphs)"]
    woff: Annotated[str, "the WOFF font in base64"]


class LabSpec(TypedDict):
    """What the page draws a lab from, fixed once the lab is made (``Lab.spec``)."""

    name: Annotated[str, "the lab's page module"]
    controls: Annotated[list[ControlSpec], "the controls, in the order the page shows them"]
    readout: Annotated[str, "the readout template: {name} and {name:.Nf} filled from a frame's fields"]
    data: Annotated[dict[str, Any], "what the lab's module draws from besides the frames (its own keys)"]
    frames: Annotated[list[FrameTable], "the frame at every setting, in tables by the controls it needs"]
    fonts: Annotated[list[FontFace], "the font subsets the lab's words need"]


class PageState(TypedDict):
    """What a page with no kernel mounts a lab from (``Lab.page_state()``)."""

    spec: Annotated[LabSpec, "the lab's spec"]
    values: Annotated[dict[str, Option], "the setting on show, by control name"]


SCHEMA: tuple[type, ...] = (ControlSpec, PackedColumn, FrameTable, FontFace, LabSpec, PageState)


# ---- checking a value against the schema ----------------------------------------------------------------
def _hints(typed: type) -> dict[str, Any]:
    return typing.get_type_hints(typed, include_extras=True)


def _is_typed_dict(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, dict) and hasattr(tp, "__required_keys__")


def _json_problem(value: Any, where: str) -> str | None:
    if value is None or type(value) in (bool, int, str):
        return None
    if type(value) is float:
        return None if math.isfinite(value) else f"{where}: a finite number, got {value}"
    if type(value) is list:
        return next((p for i, v in enumerate(value) if (p := _json_problem(v, f"{where}[{i}]"))), None)
    if type(value) is dict:
        for key, v in value.items():
            if type(key) is not str:
                return f"{where}: string keys, got {key!r}"
            if problem := _json_problem(v, f"{where}.{key}"):
                return problem
        return None
    return f"{where}: a JSON value, got {type(value).__name__}"


def _problem(value: Any, tp: Any, where: str) -> str | None:
    """Why ``value`` is not of type ``tp`` (None if it is), naming where in the spec."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return _problem(value, args[0], where)
    if tp is Any:
        return _json_problem(value, where)
    if tp is None or tp is type(None):
        return None if value is None else f"{where}: null, got {value!r}"
    if origin in (Union, types.UnionType):
        problems = [_problem(value, arm, where) for arm in args]
        return None if None in problems else f"{where}: one of {_js(tp)}, got {_shown(value)}"
    if origin is Literal:
        known = type(value) is str and value in args
        return None if known else f"{where}: one of {list(args)}, got {value!r}"
    if tp is bool or tp is str:
        return None if type(value) is tp else f"{where}: {_js(tp)}, got {_shown(value)}"
    if tp is int:
        return None if type(value) is int else f"{where}: an integer, got {_shown(value)}"
    if tp is float:
        if type(value) not in (int, float) or not math.isfinite(value):
            return f"{where}: a finite number, got {_shown(value)}"
        return None
    if origin is list:
        if type(value) is not list:
            return f"{where}: an array, got {_shown(value)}"
        return next((p for i, v in enumerate(value) if (p := _problem(v, args[0], f"{where}[{i}]"))), None)
    if origin is dict:
        if type(value) is not dict:
            return f"{where}: an object, got {_shown(value)}"
        for key, v in value.items():
            if type(key) is not str:
                return f"{where}: string keys, got {key!r}"
            if problem := _problem(v, args[1], f"{where}.{key}"):
                return problem
        return None
    if _is_typed_dict(tp):
        if type(value) is not dict:
            return f"{where}: a {tp.__name__} object, got {_shown(value)}"
        hints = _hints(tp)
        missing, unknown = sorted(set(hints) - set(value)), sorted(set(value) - set(hints))
        if missing or unknown:
            return f"{where}: the keys of {tp.__name__} {sorted(hints)}; missing {missing}, unknown {unknown}"
        return next((p for k, t in hints.items() if (p := _problem(value[k], t, f"{where}.{k}"))), None)
    raise TypeError(f"the schema uses a type the checker does not know: {tp!r}")


def _shown(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"


def check(value: Any, typed: type = LabSpec, name: str = "spec") -> Any:
    """``value`` if it has the shape ``typed`` (a TypedDict of this module), else a TypeError saying where
    it differs, e.g. "spec.controls[1].limit: one of (string|null), got int 3".

    Every key of a TypedDict is required and no other key is allowed; numbers must be finite.

    Serves: the tests of the labs' specs, not called in the notebooks.
    """
    if typed not in SCHEMA:
        raise TypeError(f"typed must be one of {[t.__name__ for t in SCHEMA]}; got {typed!r}")
    problem = _problem(value, typed, name)
    if problem:
        raise TypeError(f"{name} is not a {typed.__name__}: {problem}")
    return value


# ---- the same schema as JSDoc ------------------------------------------------------------------------
def _js(tp: Any) -> str:
    """A type in JSDoc's spelling."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        return _js(args[0])
    if tp is Any:
        return "*"
    if tp is None or tp is type(None):
        return "null"
    if origin in (Union, types.UnionType):
        return "(" + "|".join(dict.fromkeys(_js(arm) for arm in args)) + ")"  # int and float: one number
    if origin is Literal:
        return "(" + "|".join(f'"{a}"' for a in args) + ")"
    simple = {bool: "boolean", int: "number", float: "number", str: "string"}
    if tp in simple:
        return simple[tp]
    if origin is list:
        return f"Array<{_js(args[0])}>"
    if origin is dict:
        return f"Object<string, {_js(args[1])}>"
    if _is_typed_dict(tp):
        return tp.__name__
    raise TypeError(f"the schema uses a type the JSDoc writer does not know: {tp!r}")


def jsdoc() -> str:
    """The schema as JSDoc ``@typedef`` blocks: the text of ``spec.types.js``.

    Serves: the readers of kit.js and the page modules, not called in the notebooks.
    """
    lines = [
        "// The shape of what Python sends a lab's page module: its spec, and the state a page with",
        "// no kernel mounts. kit.js reads specs of this shape. Generated from attnlib/page/contract.py;",
        "// do not edit by hand (a test fails when this file differs from what the contract writes):",
        "//   python -m attnlib.page.contract --jsdoc > attnlib/page/spec.types.js",
        "// A number is finite; * is any JSON value.",
    ]
    for typed in SCHEMA:
        about = " ".join(typed.__doc__.replace("``", "`").split())
        lines += ["", "/**", f" * {about}", f" * @typedef {{Object}} {typed.__name__}"]
        for key, tp in _hints(typed).items():
            words = typing.get_args(tp)[1] if typing.get_origin(tp) is Annotated else ""
            lines.append(f" * @property {{{_js(tp)}}} {key} {words}".rstrip())
        lines.append(" */")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if sys.argv[1:] != ["--jsdoc"]:
        sys.exit("usage: python -m attnlib.page.contract --jsdoc  (writes spec.types.js's text to stdout)")
    sys.stdout.write(jsdoc())
