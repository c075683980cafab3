"""The widget every page module is drawn from: anywidget's model with the module, its spec and its values."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import anywidget
import traitlets

from .modules import bundle


class PageWidget(anywidget.AnyWidget):
    """A widget drawn in the page by one of attnlib's page modules (:data:`attnlib.page.MODULES`).

    Parameters
    ----------
    module : str
        The page module's name; ``spec["name"]`` holds it, so a stored widget says what draws it.
    spec : dict
        What the page draws from, fixed once made (plain JSON values).
    values : dict
        What the reader has set, synced with the page both ways.

    Attributes
    ----------
    spec, values : dict
        As given; ``_esm`` is the module's bundle (kit.js inlined).

    Serves: the labs and the quiz (their widgets derive from it), not called in the notebooks.
    """

    _esm = traitlets.Unicode().tag(sync=True)
    spec = traitlets.Dict().tag(sync=True)
    values = traitlets.Dict().tag(sync=True)

    def __init__(self, module: str, spec: Mapping[str, Any], values: Mapping[str, Any]) -> None:
        spec = {"name": module, **{k: v for k, v in spec.items() if k != "name"}}
        super().__init__(_esm=bundle(module), spec=spec, values=dict(values))

    def page_state(self) -> dict[str, Any]:
        """What a page with no kernel needs to draw the widget: ``{"spec", "values"}``."""
        return {"spec": self.spec, "values": dict(self.values)}
