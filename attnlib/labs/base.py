"""What every lab shares: the widget that carries a lab's numbers to the page, and its controls.

A lab is computed once, in Python, with attnlib. Its ``frame(values)`` says what the picture shows at
one setting; ``spec["frames"]`` carries, for every setting, the part of the frame the page shows
(readout fields, selections, positions, numbers), in tables over the controls each part depends on.
The page draws it with the lab's ES module (``<name>.js`` beside its Python module, on the page kit,
``attnlib/page/kit.js``): it looks the setting up and draws, so moving a control repaints at once, with
no message to the kernel on the way; the page then tells Python the new ``values``, and Python setting
``lab.controls[name].value`` moves the page. The same module and the same ``spec`` draw the lab in
JupyterLab (through anywidget), in the static site and in the offline slides (``attnlib.page.mount_html``),
where no Python runs. Where a lab has too many settings to list, its page computes from stored numbers
with the kit's one softmax, which the browser tests compare with attnlib at every setting.
"""

from __future__ import annotations

import base64
import html
import itertools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Image

from ..checks import check_choice
from ..i18n import tr
from ..page import PageWidget, fonts_for
from ..plot import figure_png, number

# ---- numbers as the page prints them --------------------------------------------------------------
# Numbers are written by attnlib.plot.number, which kit.js's `number` mirrors; this module's twins of
# kit.js functions (fill, Control.max, _clamped, _packed, Lab.page_frame) are run beside them in Node
# by tests/test_page_twins.py.
_FIELD = re.compile(r"\{(\w+)(?::\.(\d+)f)?\}")


def fill(template: str, fields: Mapping[str, Any]) -> str:
    """``template`` with ``{name}`` and ``{name:.Nf}`` replaced from ``fields`` (kit.js ``fill`` twin).

    Strings are HTML-escaped (a token such as ``<pad>`` must show as written); numbers without a
    format are printed as integers.
    """

    def one(match: re.Match[str]) -> str:
        name, digits = match.group(1), match.group(2)
        if name not in fields:
            raise KeyError(f"template field {name!r} missing; fields are {sorted(fields)}")
        value = fields[name]
        if isinstance(value, str):
            return html.escape(value)
        if digits is not None:
            return number(value, int(digits))
        return str(int(value))

    return _FIELD.sub(one, template)


# ---- controls --------------------------------------------------------------------------------------
@dataclass
class Control:
    """One control of a lab: a slider over ``options``, a set of toggle buttons, or a menu.

    ``options`` are the values the control can take, in order; ``labels`` how the page names them.
    ``limit`` names another control whose value bounds this one from above (the mask lab's
    sentence lengths are at most the sequence length). Setting ``value`` from Python moves the page.

    Serves: the labs' widgets and their static pages, not called in the notebooks.
    """

    name: str
    kind: str  # "slider", "toggle" or "menu"
    description: str
    options: list[Any]
    labels: list[str] | None = None
    limit: str | None = None
    _lab: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        check_choice(self.kind, "kind", ("slider", "toggle", "menu"))
        if self.labels is None:
            self.labels = [str(v) for v in self.options]

    @property
    def max(self) -> Any:
        """The largest option allowed now (a ``limit`` lowers it)."""
        if self.limit is None or self._lab is None:
            return self.options[-1]
        return self.options[self._upper_index(self._lab.values)]

    def _upper_index(self, values: Mapping[str, Any]) -> int:
        """The index of the largest option allowed at ``values`` (kit.js ``upperIndex`` is its twin)."""
        i = len(self.options) - 1
        while self.limit is not None and i > 0 and self.options[i] > values[self.limit]:
            i -= 1
        return i

    @property
    def value(self) -> Any:
        return self._lab.values[self.name]

    @value.setter
    def value(self, new: Any) -> None:
        self._lab.set_values(**{self.name: new})

    def spec(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "description": self.description,
                "options": _plain(self.options), "labels": self.labels, "limit": self.limit}


def slider(name: str, description: str, start: float, stop: float, step: float) -> Control:
    """A slider from ``start`` to ``stop`` in steps of ``step``, values rounded so that 0.1 stays 0.1.
    """
    n = int(round((stop - start) / step))
    decimals = max(0, -int(np.floor(np.log10(step)))) if step < 1 else 0
    values = [round(start + i * step, decimals) for i in range(n + 1)]
    if float(step).is_integer() and float(start).is_integer():
        values = [int(v) for v in values]
    labels = [f"{v:.{decimals}f}" for v in values]
    return Control(name, "slider", description, values, labels)


def _plain(value: Any) -> Any:
    """numpy scalars and arrays as plain JSON values (floats keep their full precision)."""
    if type(value) in (int, str, bool) or (type(value) is float and math.isfinite(value)):
        return value  # the common case, first: a lab's tables hold tens of thousands of numbers
    if isinstance(value, np.ndarray):
        return _plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        if not np.isfinite(v):
            raise ValueError(tr("a lab sends only finite numbers to the page; got {v}").format(v=v))
        return v
    return value


def axis_spec(ax: Any) -> dict[str, Any]:
    """Limits, ticks and tick labels of a matplotlib axes, so the page draws the same axes."""
    out: dict[str, Any] = {}
    for name, axis, lim in (("x", ax.xaxis, ax.get_xlim()), ("y", ax.yaxis, ax.get_ylim())):
        lo, hi = sorted(lim)
        ticks = [float(t) for t in axis.get_majorticklocs() if lo - 1e-9 <= t <= hi + 1e-9]
        out[f"{name}lim"] = [float(v) for v in lim]
        out[f"{name}ticks"] = ticks
        out[f"{name}ticklabels"] = list(axis.get_major_formatter().format_ticks(ticks))
    return out


# ---- the widget ----------------------------------------------------------------------------------------
class Lab(PageWidget):
    """A lab drawn in the page: its controls, its picture and a one-line readout.

    Parameters
    ----------
    name
        The lab's page module (``attnlib.page.MODULES``: ``attnlib/labs/<name>.js``).
    controls
        The controls, in the order the page shows them.
    values
        Starting value of every control.
    data
        Everything the page draws from (plain numbers, lists and strings).
    frame
        ``frame(**values) -> dict``: what the picture shows at one setting, computed with attnlib;
        its ``"fields"`` entry fills the readout template.
    page_parts
        The parts of each frame the page gets: ``{path: controls}``, a path being a key of the frame or
        ``"fields.<name>"``, and ``controls`` the names of the controls it depends on (``None``: all),
        exactly those (tests/test_page_twins.py moves each control at every setting to check it).
        ``spec["frames"]`` holds one table per group of controls, with the path's value at every
        setting of the group (the other controls at their starting values); ``page_frame`` reads it
        as the page does. The live GPT lab, which runs its model in the page, has none.
    readout
        The readout template (``{name}``, ``{name:.Nf}``; may hold ``<b>``).
    snapshot
        ``snapshot(**values) -> Figure``: the same picture as a static matplotlib figure.

    Attributes
    ----------
    controls : dict of Control
    values : dict, the setting on show; ``state`` the frame at that setting; ``readout`` its text.

    Taught in: 01 §1
    """

    name: str
    controls: dict[str, Control]

    def __init__(
        self,
        name: str,
        controls: Sequence[Control],
        values: Mapping[str, Any],
        data: Mapping[str, Any],
        *,
        frame: Callable[..., dict[str, Any]],
        readout: str,
        snapshot: Callable[..., Any],
        page_parts: Mapping[str, Sequence[str] | None] | None = None,
        texts: Sequence[str] = (),
    ) -> None:
        self.name = name
        self.controls = {c.name: c for c in controls}
        for control in controls:
            control._lab = self
        self._frame = frame
        self._snapshot = snapshot
        self._frames: dict[tuple[Any, ...], dict[str, Any]] = {}
        words = [readout, *texts, *(str(lbl) for c in controls for lbl in [c.description, *c.labels])]
        values = self._checked(dict(values))
        frames = self._tables(page_parts or {}, values)
        spec = {
            "controls": [c.spec() for c in controls],
            "readout": readout,
            "data": _plain(dict(data)),
            "frames": frames,
            "fonts": fonts_for(words + _strings(data) + _strings(frames)),
        }
        super().__init__(name, spec, values)

    def __repr__(self) -> str:  # what a page without the widget shows in its place
        placeholder = tr("<{name} lab: {values}; run the notebook (or open the site) to move its controls>")
        return placeholder.format(name=self.name, values=self.values)

    # The setting ------------------------------------------------------------------------------------
    def _checked(self, values: dict[str, Any]) -> dict[str, Any]:
        missing = set(self.controls) - set(values)
        unknown = set(values) - set(self.controls)
        if missing or unknown:
            raise ValueError(tr("values must name every control {names}; missing {missing}, unknown "
                                "{unknown}").format(names=sorted(self.controls), missing=sorted(missing),
                                                    unknown=sorted(unknown)))
        for name, control in self.controls.items():
            check_choice(values[name], name, control.options)
        return {k: _plain(v) for k, v in _clamped(self.controls.values(), values).items()}

    def set_values(self, **changes: Any) -> None:
        """Move one or more controls (the page follows)."""
        unknown = set(changes) - set(self.controls)
        if unknown:
            raise ValueError(tr("no control named {unknown}; controls are {names}").format(
                unknown=sorted(unknown), names=sorted(self.controls)))
        self.values = self._checked({**self.values, **changes})

    def settings(self) -> list[dict[str, Any]]:
        """Every setting the controls allow (limits respected), for tests and benchmarks."""
        names = list(self.controls)
        out: list[dict[str, Any]] = [{}]
        for name in names:
            control = self.controls[name]
            out = [{**s, name: v} for s in out for v in control.options
                   if control.limit is None or v <= s.get(control.limit, v)]
        return out

    # What the page shows ---------------------------------------------------------------------------
    def frame(self, **values: Any) -> dict[str, Any]:
        """The frame (numbers on show) at a setting; by default the current one."""
        values = self._checked({**self.values, **values})
        key = self._key(values)
        if key not in self._frames:
            self._frames[key] = self._frame(**values)
        return self._frames[key]

    def _key(self, values: dict[str, Any]) -> tuple[Any, ...]:
        """What tells a setting's frame from another's: the controls' values (the live GPT lab adds its
        typed opening)."""
        return tuple(values[n] for n in self.controls)

    def _tables(self, parts: Mapping[str, Sequence[str] | None], start: dict[str, Any]) -> list[dict]:
        """``spec["frames"]``: for each group of controls, its parts' paths at every setting of the group.

        A table's entries run over the group's settings with its last control fastest (the page finds
        an entry by the index of each value); a setting a ``limit`` forbids holds ``None``.
        """
        groups: dict[tuple[str, ...], list[str]] = {}
        for path, names in parts.items():
            group = tuple(n for n in self.controls if names is None or n in names)
            groups.setdefault(group, []).append(path)
        frames: dict[tuple[Any, ...], dict[str, Any]] = {}
        tables = []
        for group, paths in groups.items():
            columns: dict[str, list[Any]] = {path: [] for path in paths}
            for combo in itertools.product(*(self.controls[n].options for n in group)):
                setting = {**start, **dict(zip(group, combo, strict=True))}
                limited = [self.controls[n] for n in group if self.controls[n].limit is not None]
                if any(c.limit not in group for c in limited):
                    raise ValueError(tr("a shown path that depends on {name} must depend on {limit} "
                                        "too").format(name=limited[0].name, limit=limited[0].limit))
                if any(setting[c.name] > setting[c.limit] for c in limited):
                    for path in paths:
                        columns[path].append(None)
                    continue
                key = tuple(setting[n] for n in self.controls)
                if key not in frames:
                    frames[key] = self._frame(**setting)
                for path in paths:
                    columns[path].append(_plain(_at(frames[key], path)))
            tables.append({"by": list(group), "columns": {p: _packed(v) for p, v in columns.items()}})
        return tables

    def page_frame(self, **values: Any) -> dict[str, Any]:
        """What the page looks up for a setting (kit.js ``storedFrame``), read from ``spec["frames"]``."""
        values = self._checked({**self.values, **values})
        out: dict[str, Any] = {}
        for table in self.spec["frames"]:
            index = 0
            for name in table["by"]:
                options = self.controls[name].options
                index = index * len(options) + options.index(values[name])
            for path, column in table["columns"].items():
                value = column[index] if isinstance(column, list) else _unpacked(column)[index]
                head, _, rest = path.partition(".")
                if rest:
                    out.setdefault(head, {})[rest] = value
                else:
                    out[head] = value
        return out

    @property
    def state(self) -> dict[str, Any]:
        """The numbers on show now (the frame at ``values``)."""
        return self.frame()

    @property
    def readout(self) -> str:
        """The readout line on show now, as HTML."""
        return fill(self.spec["readout"], self.state["fields"])

    def snapshot(self) -> Any:
        """The picture at the current setting as a static PNG (shown just before the live lab)."""
        fig = self._snapshot(**self.values)
        png = figure_png(fig, dpi=2 * fig.dpi)  # twice the pixels, shown at its size: sharp on any screen
        plt.close(fig)  # a figure made through pyplot would otherwise show a second time below the cell
        return Image(data=png, format="png", retina=True)


def _at(frame: Mapping[str, Any], path: str) -> Any:
    head, _, rest = path.partition(".")
    return frame[head][rest] if rest else frame[head]


# A long column of plain numbers (the dot-product lab's a·b at its 25,012 settings) travels as the bytes
# of a float64 array in base64: a third of its JSON text, every digit kept.
_PACK = 4096


def _clamped(controls: Iterable[Control], values: Mapping[str, Any]) -> dict[str, Any]:
    """``values`` with each limited control lowered to its limit, in the controls' order, as the page's
    slider does (kit.js ``clamp`` is its twin)."""
    out = dict(values)
    for control in controls:
        if control.limit is not None and out[control.name] > out[control.limit]:
            out[control.name] = out[control.limit]
    return out


def _packed(column: list[Any]) -> Any:
    """A column as the page gets it: as is, or, when long and all floats, packed (kit.js ``entries``
    reads both)."""
    if len(column) < _PACK or not all(type(v) is float for v in column):
        return column
    return {"f64": base64.b64encode(np.asarray(column, dtype="<f8").tobytes()).decode("ascii")}


def _unpacked(column: Mapping[str, str]) -> list[float]:
    return np.frombuffer(base64.b64decode(column["f64"]), dtype="<f8").tolist()


def _strings(value: Any) -> list[str]:
    """Every string inside ``value`` (token labels and other words the page writes)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in _strings(v)]
    return []

