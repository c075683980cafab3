"""Slider labs: the *wire* layer. Compute lives in ``attnlib.core``, drawing in ``attnlib.plot``.

A lab keeps one matplotlib figure alive, lets an ``update`` function move its artists, renders it
to PNG and swaps the bytes into an ``ipywidgets.Image``. Reusing the artists instead of building a
new figure each time is what makes a slider feel live (a new seaborn figure costs ~120 ms, a
redraw of the existing one ~20-40 ms).
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Mapping
from typing import Any

import ipywidgets as widgets
from IPython.display import Image
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["Lab", "render_png"]


def render_png(fig: Figure, dpi: float | None = None) -> bytes:
    """The figure as PNG bytes, drawn on its own Agg canvas (no pyplot, no bbox search)."""
    if not isinstance(fig.canvas, FigureCanvasAgg):
        FigureCanvasAgg(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches=None)
    return buf.getvalue()


class Lab(widgets.VBox):
    """Controls above a live figure and a one-line readout, redrawn whenever a control moves.

    Args:
        controls: name -> widget; each widget's ``.value`` is passed to ``update`` by that name.
        fig: a figure made with ``matplotlib.figure.Figure`` (not pyplot, so nothing else shows it).
        update: ``update(**values) -> str | None`` moves the figure's artists to the new values and
            returns the readout as HTML (or None).

    Attributes:
        controls, fig, image (the ``widgets.Image``), readout (``widgets.HTML``),
        last_redraw_s (seconds the last redraw took, compute + draw + PNG).
    """

    def __init__(
        self,
        controls: Mapping[str, widgets.ValueWidget],
        fig: Figure,
        update: Callable[..., str | None],
        *,
        dpi: float | None = None,
    ) -> None:
        self.controls = dict(controls)
        self.fig = fig
        self._update = update
        self._dpi = dpi
        self.image = widgets.Image(format="png", layout=widgets.Layout(width="auto"))
        self.readout = widgets.HTML()
        self.last_redraw_s = float("nan")
        bar = widgets.HBox(list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap"))
        super().__init__([bar, self.image, self.readout])
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.redraw()

    @property
    def values(self) -> dict[str, Any]:
        return {name: control.value for name, control in self.controls.items()}

    def _on_change(self, _change: Mapping[str, Any]) -> None:
        self.redraw()

    def redraw(self) -> None:
        start = time.perf_counter()
        try:
            text = self._update(**self.values)
        except Exception as err:
            # Show the failure where the learner is looking, then let it propagate to the log.
            self.readout.value = f"<b style='color:#b00'>error: {type(err).__name__}: {err}</b>"
            raise
        self.image.value = render_png(self.fig, self._dpi)
        self.readout.value = text or ""
        self.last_redraw_s = time.perf_counter() - start

    def snapshot(self) -> Image:
        """The current figure as a static image, shown just before the live lab in a notebook."""
        return Image(data=render_png(self.fig, self._dpi), format="png")


# ---- Notebooks 01-03: vectors, softmax, weighted sums ------------------------------------------
__all__ += []


# ---- Notebooks 04-07: Q/K/V, the d_k lab, the mask lab, the whole formula ---------------------
__all__ += []
