"""The colour maps of ``attnlib.plot`` as tables a page module looks colours up in (kit.js ``colour``)."""

from __future__ import annotations

from typing import Any

import matplotlib as mpl
import numpy as np

from ..plot import colour_map, text_colour


def colour_table(kind: str, n: int = 256) -> dict[str, Any]:
    """The colour map of ``attnlib.plot`` for ``kind`` as ``n`` hex colours, with the text colour
    (black or white) that reads best on each, by the rule the static heatmaps use.

    Serves: the labs' pictures in the page (their heatmaps and bars match the static figures).
    """
    cmap = colour_map(kind)
    norm = mpl.colors.Normalize(0.0, 1.0)
    steps = (np.arange(n) + 0.5) / n
    return {
        "fill": [mpl.colors.to_hex(cmap(s)) for s in steps],
        "text": [str(c) for c in text_colour(cmap, norm, steps)],
    }
