"""Figures for the series, drawn with one convention everywhere, grouped by family of figure.

- ``style``: ``use_style``, fonts, colours, the figure factory, the number formatter.
- ``matrices``: heatmaps, a matrix product, the mask panels, every head of a model.
- ``vectors``: the dot product, weights as bars, contributions, the convex hull.
- ``distributions``: score walks, variance against d_k, histograms, entropy and saturation.
- ``models``: training losses and the attention of generated text.

Conventions: queries are rows, top to bottom; keys are columns; tokens are the tick labels.
Attention weights use one sequential colour map fixed to [0, 1], so any two panels compare; scores
(and other signed numbers) a diverging map centred on 0; masked ``-inf`` cells are grey.
Every helper takes ``ax=None``, draws on it and returns it; nothing here calls ``plt.show()`` or
touches ``rcParams`` at import. Style comes from ``use_style()``. Every text a figure draws by
itself (axis labels, colour-bar labels, default titles, legends) is in the language set with
``attnlib.set_language``; numbers are written the same in every language.
Every text is legible where the site shows the figure (``SMALLEST_TEXT_PX`` or more once a figure
wider than the content column, ``COLUMN_PX``, is scaled down to it): secondary texts take
``text_size(fig)``, and each PNG a notebook stores records its smallest text (``figure_png``).
"""

from __future__ import annotations

from .distributions import (
    SATURATION_PANELS,
    entropy_curves,
    histogram_notes,
    saturation_curves,
    score_histogram,
    score_walks,
    uniform_saturation,
    variance_vs_dk,
    weights_row,
)
from .matrices import (
    MAX_ANNOTATED,
    PANEL_TITLES,
    head_grid,
    heatmap,
    heatmap_cells,
    mask_panels,
    product_panels,
)
from .models import generation_attention, loss_curves, shown_token
from .style import (
    CJK_FAMILY,
    CJK_FONT,
    COLUMN_PX,
    FONT_FAMILY,
    HANT_FAMILY,
    HANT_FONT,
    KINDS,
    MASKED_COLOUR,
    RAW_COLOUR,
    SCALED_COLOUR,
    SMALLEST_TEXT_PX,
    TEXT_SIZE_KEY,
    TOKEN_COLOURS,
    cjk_font,
    colour_map,
    digits_of,
    drawn_text_sizes,
    figure_png,
    font_family,
    kind_label,
    legible_points,
    legible_ticks,
    new_figure,
    number,
    register_cjk_font,
    shown_png,
    text_colour,
    text_size,
    token_colour,
    use_style,
)
from .vectors import (
    contribution_bars,
    convex_hull_picture,
    dot_product_picture,
    weight_bars,
)

__all__ = [
    "CJK_FAMILY", "CJK_FONT", "COLUMN_PX", "FONT_FAMILY", "HANT_FAMILY", "HANT_FONT", "KINDS",
    "MASKED_COLOUR", "MAX_ANNOTATED", "PANEL_TITLES", "RAW_COLOUR", "SATURATION_PANELS",
    "SCALED_COLOUR", "SMALLEST_TEXT_PX", "TEXT_SIZE_KEY", "TOKEN_COLOURS", "cjk_font", "colour_map",
    "contribution_bars", "convex_hull_picture", "digits_of", "dot_product_picture",
    "drawn_text_sizes", "entropy_curves", "figure_png", "font_family", "generation_attention",
    "head_grid", "heatmap", "heatmap_cells", "histogram_notes", "kind_label", "legible_points",
    "legible_ticks",
    "loss_curves", "mask_panels", "new_figure", "number", "product_panels", "register_cjk_font",
    "saturation_curves", "score_histogram", "score_walks", "shown_png", "shown_token",
    "text_colour", "text_size", "token_colour", "uniform_saturation", "use_style", "variance_vs_dk",
    "weight_bars", "weights_row",
]
