"""What every lab shares: the widget that carries a lab's numbers to the page, and its controls.

A lab is computed once, in Python, with attnlib. Its ``frame(values)`` says what the picture shows at
one setting; ``spec["frames"]`` carries, for every setting, the part of the frame the page shows
(readout fields, selections, positions, numbers), in tables over the controls each part depends on.
The page draws it with the lab's ES module (``<name>.js`` beside its Python module, plus the shared
``kit.js``): it looks the setting up and draws, so moving a control repaints at once, with no message
to the kernel on the way; the page then tells Python the new ``values``, and Python setting
``lab.controls[name].value`` moves the page. The same module and the same ``spec`` draw the lab in
JupyterLab (through anywidget), in the static site and in the offline slides (``mount_html``), where
no Python runs. Where a lab has too many settings to list, its page computes from stored numbers with
the kit's one softmax, which the browser tests compare with attnlib at every setting.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import json
import logging
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import anywidget
import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import traitlets
from fontTools import subset
from fontTools.ttLib import TTFont
from IPython.display import Image

from ..checks import check_choice
from ..i18n import tr
from ..plot import cjk_font, colour_map, figure_png, number, text_colour

HERE = Path(__file__).resolve().parent
KIT = HERE / "kit.js"
# A lab imports "./kit.js"; the quiz, a package of its own (attnlib/quiz/), imports "../labs/kit.js".
_IMPORT = re.compile(r"^import\s*\{[^}]*\}\s*from\s*\"(?:\./|\.\./labs/)kit\.js\";\s*$", re.MULTILINE)
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.MULTILINE)  # kit.js has no such line inside a string


def module_path(name: str) -> Path:
    """The page module ``name``: a lab's ``attnlib/labs/<name>.js``, or else a package's own
    ``attnlib/<name>/<name>.js`` (the quiz's ``attnlib/quiz/quiz.js``)."""
    lab = HERE / f"{name}.js"
    return lab if lab.exists() else HERE.parent / name / f"{name}.js"


@cache
def bundle(name: str) -> str:
    """The lab's ES module with ``kit.js`` inlined: one module, loadable from a string.

    anywidget loads a module from a string and a page opened from disk cannot import other files,
    so the two plain modules are joined here (the lab's single ``import ... from "./kit.js"`` line is
    replaced by the kit's source, without its comment lines). No other build step.

    """
    source = module_path(name).read_text(encoding="utf-8")
    if len(_IMPORT.findall(source)) != 1:
        raise RuntimeError(f"{name}.js must import from the labs' kit.js exactly once, on one line")
    kit = _COMMENT_LINE.sub("", KIT.read_text(encoding="utf-8"))  # comments serve its readers, not pages
    return f"// ---- kit.js ----\n{kit}\n// ---- {name}.js ----\n" + _IMPORT.sub("", source)


# ---- numbers as the page prints them --------------------------------------------------------------
# Numbers are written by attnlib.plot.number, which kit.js's `number` mirrors (a browser test keeps
# the two equal).
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
    def min(self) -> Any:
        return self.options[0]

    @property
    def max(self) -> Any:
        """The largest value allowed now (a ``limit`` lowers it)."""
        if self.limit is None or self._lab is None:
            return self.options[-1]
        return min(self.options[-1], self._lab.values[self.limit])

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


# ---- fonts and colours --------------------------------------------------------------------------------
@cache
def _font(path: str, characters: str) -> str:
    logging.getLogger("fontTools.subset").setLevel(logging.ERROR)  # it reports every table it drops

    options = subset.Options()
    options.flavor = "woff"
    options.layout_features = ["*"]
    buffer = io.BytesIO()
    with TTFont(path, lazy=True) as font:
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=characters)
        subsetter.subset(font)
        font.save(buffer)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def fonts_for(texts: Sequence[str]) -> list[dict[str, str]]:
    """The two faces of ``attnlib.plot`` (DejaVu Sans, then the Noto Sans of the current language's
    script for Chinese: SC, or TC for 繁體), cut down to
    the characters a lab writes, as base64 WOFF for the page (both fonts allow this: Bitstream Vera
    licence and SIL OFL 1.1).

    ``texts`` must hold every text the lab writes, translations included (the lab is built in the
    language it shows).
    """
    latin = "".join(chr(c) for c in range(32, 127)) + "θ·√−∞°×‖ᵀₖσ≤≥…"
    used = "".join(sorted(set("".join(texts)) - set(latin) - {"\n"}))
    dejavu = Path(mpl.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    # Each subset gets a family name of its own: two faces of one family with different subsets (two
    # labs on a page, or a lab on the site, whose pages have the whole CJK font) hide each other's glyphs.
    tag = hashlib.sha256(used.encode("utf-8")).hexdigest()[:8]
    faces = [{"role": "sans", "family": f"Attn Lab Sans {tag}", "woff": _font(str(dejavu), latin + used)}]
    cjk = "".join(c for c in used if ord(c) >= 0x2E80)
    if cjk:
        faces.append({"role": "cjk", "family": f"Attn Lab CJK {tag}", "woff": _font(str(cjk_font()), cjk)})
    return faces


def colour_table(kind: str, n: int = 256) -> dict[str, Any]:
    """The colour map of ``attnlib.plot`` for ``kind`` as ``n`` hex colours, with the text colour
    (black or white) that reads best on each, by the rule the static heatmaps use.
    """
    cmap = colour_map(kind)
    norm = mpl.colors.Normalize(0.0, 1.0)
    steps = (np.arange(n) + 0.5) / n
    return {
        "fill": [mpl.colors.to_hex(cmap(s)) for s in steps],
        "text": [str(c) for c in text_colour(cmap, norm, steps)],
    }


# ---- the widget ----------------------------------------------------------------------------------------
class Lab(anywidget.AnyWidget):
    """A lab drawn in the page: its controls, its picture and a one-line readout.

    Parameters
    ----------
    name
        The lab's ES module, ``attnlib/labs/<name>.js``.
    controls
        The controls, in the order the page shows them.
    values
        Starting value of every control.
    data
        Everything the page draws from (plain numbers, lists and strings).
    frame
        ``frame(**values) -> dict``: what the picture shows at one setting, computed with attnlib;
        its ``"fields"`` entry fills the readout template.
    shown
        What the page gets of each frame: ``{path: controls}``, a path being a key of the frame or
        ``"fields.<name>"``, and ``controls`` the names of the controls it depends on (``None``: all).
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

    _esm = traitlets.Unicode().tag(sync=True)
    spec = traitlets.Dict().tag(sync=True)
    values = traitlets.Dict().tag(sync=True)
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
        shown: Mapping[str, Sequence[str] | None] | None = None,
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
        frames = self._tables(shown or {}, values)
        spec = {
            "name": name,
            "controls": [c.spec() for c in controls],
            "readout": readout,
            "data": _plain(dict(data)),
            "frames": frames,
            "fonts": fonts_for(words + _strings(data) + _strings(frames)),
        }
        super().__init__(_esm=bundle(name), spec=spec, values=values)

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
        for name, control in self.controls.items():  # a limit clamps, as the page's slider does
            if control.limit is not None:
                values[name] = min(values[name], values[control.limit])
        return {k: _plain(v) for k, v in values.items()}

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
        key = tuple(values[n] for n in self.controls)
        if key not in self._frames:
            self._frames[key] = self._frame(**values)
        return self._frames[key]

    def _tables(self, shown: Mapping[str, Sequence[str] | None], start: dict[str, Any]) -> list[dict]:
        """``spec["frames"]``: for each group of controls, the shown paths at every setting of the group.

        A table's entries run over the group's settings with its last control fastest (the page finds
        an entry by the index of each value); a setting a ``limit`` forbids holds ``None``.
        """
        groups: dict[tuple[str, ...], list[str]] = {}
        for path, names in shown.items():
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

    # Outside Jupyter ---------------------------------------------------------------------------------
    def page_state(self) -> dict[str, Any]:
        """What a page with no kernel needs to draw the lab: ``{"spec", "values"}``."""
        return {"spec": self.spec, "values": dict(self.values)}


def _at(frame: Mapping[str, Any], path: str) -> Any:
    head, _, rest = path.partition(".")
    return frame[head][rest] if rest else frame[head]


# A long column of plain numbers (the dot-product lab's a·b at its 25,012 settings) travels as the bytes
# of a float64 array in base64: a third of its JSON text, every digit kept.
_PACK = 4096


def _packed(column: list[Any]) -> Any:
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


def mount_html(name: str, state: Mapping[str, Any], element_id: str) -> str:
    """HTML that draws a lab with no kernel: a mount point and one inline module script.

    ``state`` is ``{"spec", "values"}`` as the notebook stored it (or ``Lab.page_state()``).
    The module is inlined because a page opened from disk (file://) cannot import other modules.

    Serves: the labs' widgets and their static pages, not called in the notebooks.
    """
    payload = json.dumps(dict(state), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="attn-lab-mount" id="{element_id}"></div>\n'
        f'<script type="application/json" id="{element_id}-state">{payload}</script>\n'
        f'<script type="module">\n{bundle(name)}\n'
        f'mountStatic(lab, document.getElementById("{element_id}"), '
        f'JSON.parse(document.getElementById("{element_id}-state").textContent));\n</script>\n'
    )
