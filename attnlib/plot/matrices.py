"""Matrices as heatmaps: one matrix, a matrix product, scores → masked scores → weights, every head.

Queries are rows, top to bottom; keys are columns; tokens are the tick labels. Attention weights use
one sequential colour map fixed to [0, 1]; scores and other signed numbers a diverging map centred
on 0; masked ``-inf`` cells are grey and written "−∞". Small matrices have their values in the cells.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import seaborn as sns
from matplotlib.axes import Axes

from ..checks import check_choice, check_shape, refuse
from ..core import masked_scores, softmax
from ..i18n import N_, tr
from ..validation import check_mask
from .style import (
    COLUMN_PX,
    KINDS,
    MASKED_COLOUR,
    digits_of,
    kind_label,
    legible_points,
    legible_ticks,
    number,
    text_colour,
    text_size,
)

_CELL = "heatmap-cell"  # the gid of a heatmap's cell texts

MAX_ANNOTATED = 12  # write the numbers in the cells up to this many rows and columns
PANEL_TITLES = (N_("scores  Q·Kᵀ/√d_k"), N_("masked scores  + M"), N_("weights  softmax"))


def _limits(data: np.ndarray, kind: str, vmax: float | None) -> tuple[float, float]:
    fixed = KINDS[kind]["fixed"]
    if fixed is not None:
        return fixed
    if vmax is None:
        finite = data[np.isfinite(data)]
        vmax = float(np.abs(finite).max()) if finite.size else 1.0
        vmax = vmax or 1.0
    return -vmax, vmax


def heatmap(
    matrix: Any,
    rows: Sequence[str] | None = None,
    cols: Sequence[str] | None = None,
    *,
    kind: str = "weights",
    ax: Axes | None = None,
    annot: bool | None = None,
    fmt: str = ".2f",
    title: str | None = None,
    vmax: float | None = None,
    cbar: bool = True,
    xlabel: str | None = None,
    ylabel: str | None = None,
) -> Axes:
    """Draw a matrix as a labelled heatmap in the series' convention.

    Parameters
    ----------
    matrix : array_like
        The numbers; ``-inf`` entries (masked scores) are drawn grey and written "−∞".
    rows, cols : sequence of str, optional
        Tick labels (tokens); default 0, 1, 2, ...
    kind : {"weights", "scores", "values"}
        "weights": fixed [0, 1] sequential scale; "scores" or "values": diverging, centred on 0,
        symmetric limits ``±vmax``, by default the largest finite magnitude.
    annot : bool, optional
        Write the values in the cells; default: when both sides have at most 12 entries.
    fmt : str
        Fixed-point format of the cell values, such as ".2f".
    xlabel, ylabel : str, optional
        Axis labels; default "key" and "query" in the current language.

    Shapes:
        matrix (n_rows, n_cols), rows (n_rows,), cols (n_cols,)

    Returns
    -------
    Axes
        The axes; ``heatmap_cells`` finds its cell texts.

    Taught in: 00 §5
    """
    if kind not in KINDS:
        check_choice(kind, "kind", sorted(KINDS))
    digits = digits_of(fmt)
    data = np.asarray(matrix, dtype=float)
    if data.ndim != 2:
        check_shape(False, "matrix", expected="(n_rows, n_cols)", got=data.shape)
    n_rows, n_cols = data.shape
    for labels, n, name in ((rows, n_rows, "rows"), (cols, n_cols, "cols")):
        if labels is not None and len(labels) != n:
            check_shape(False, name, expected=f"({n},), one label per matrix {name[:-1]}", got=(len(labels),))
    if ax is None:
        _, ax = plt.subplots(figsize=(1.8 + 0.7 * n_cols, 1.0 + 0.6 * n_rows))
    lo, hi = _limits(data, kind, vmax)  # symmetric for signed kinds: 0 sits at the centre colour
    masked = ~np.isfinite(data)
    sns.heatmap(
        np.where(masked, np.nan, data),
        ax=ax,
        cmap=KINDS[kind]["cmap"],
        vmin=lo,
        vmax=hi,
        annot=False,
        cbar=cbar,
        cbar_kws={"label": kind_label(kind)} if cbar else None,
        xticklabels=list(cols) if cols is not None else True,
        yticklabels=list(rows) if rows is not None else True,
        linewidths=0.5,
        linecolor="white",
        square=False,
    )
    ax.set_facecolor(MASKED_COLOUR)
    ax.set_xlabel(tr("key") if xlabel is None else xlabel)
    ax.set_ylabel(tr("query") if ylabel is None else ylabel)
    ax.tick_params(axis="y", rotation=0)
    ax.tick_params(axis="x", rotation=0)
    if title:
        ax.set_title(title)
    if annot if annot is not None else max(n_rows, n_cols) <= MAX_ANNOTATED:
        size = text_size(ax.figure, "small" if max(n_rows, n_cols) > 6 else "medium")
        mesh = ax.collections[0]
        values = data.ravel()
        finite = np.isfinite(values)
        # One colour-map call for all cells: per-cell calls were most of a lab's redraw time.
        ink = text_colour(mesh.cmap, mesh.norm, np.where(finite, values, 0.0))
        for k, (value, ok, colour) in enumerate(zip(values, finite, ink, strict=True)):
            ax.text(k % n_cols + 0.5, k // n_cols + 0.5, number(value, digits), ha="center", va="center",
                    fontsize=size, color=str(colour) if ok else "#555555", gid=_CELL)
    legible_ticks(ax)
    return ax


def heatmap_cells(ax: Axes) -> list[mpl.text.Text]:
    """The cell texts of a heatmap drawn by ``heatmap``, row by row (empty when not annotated).
    """
    return [text for text in ax.texts if text.get_gid() == _CELL]


def _show_cells(ax: Axes, shown: bool) -> None:
    for text in heatmap_cells(ax):
        text.set_visible(shown)


def _token_labels(ax: Axes, tokens: Sequence[str], size: int, *, rows: bool) -> None:
    """Token labels as plain texts (not ticks) under the columns and, if ``rows``, left of the rows;
    the grid is ``size`` cells wide, the labels beyond the tokens empty."""
    ax.set_xticks([])
    ax.set_yticks([])
    below = mpl.transforms.blended_transform_factory(ax.transData, ax.transAxes)
    shown = [*tokens, *[""] * (size - len(tokens))]
    for j in range(size):
        ax.text(j + 0.5, -0.02, shown[j], transform=below, rotation=90, ha="center", va="top",
                fontsize=text_size(ax.figure))
    if rows:
        left = mpl.transforms.blended_transform_factory(ax.transAxes, ax.transData)
        for i in range(size):
            ax.text(-0.02, i + 0.5, shown[i], transform=left, ha="right", va="center",
                    fontsize=text_size(ax.figure))


def mask_panels(
    scores: Any,
    keep: Any,
    tokens: Sequence[str],
    *,
    axes: Sequence[Axes] | None = None,
    size: int | None = None,
    vmax: float | None = None,
    titles: bool = True,
) -> list[Axes]:
    """Scores → masked scores → weights for one sentence, side by side (queries are rows).

    Masked cells of the middle panel are grey "−∞"; their weights in the right panel are exactly 0,
    written "0" (a weight that only rounds to zero is written "0.00").
    The grid is drawn ``size`` tokens wide (default T) and cropped to T, so that panels for sentences
    of different lengths have cells of one size.

    Shapes:
        scores (T, T), keep (T, T) boolean (True = may attend), tokens (T,)

    Returns
    -------
    list of Axes
        The three axes.

    Taught in: 06 §2
    """
    scores = np.asarray(scores, dtype=float)
    T = scores.shape[0]
    size = T if size is None else size
    if scores.ndim != 2 or scores.shape != (T, T) or size < T:
        check_shape(False, "scores", expected=f"(T, T), T <= size={size}", got=scores.shape)
    if np.shape(keep) != (T, T) or len(tokens) != T:
        check_shape(False, "keep, tokens", expected=f"(T, T), (T,) with T = {T}",
                    got=(np.shape(keep), len(tokens)))
    keep = check_mask(keep, scores.shape)
    masked = masked_scores(scores, keep)  # + M: the middle panel, as the lesson writes it
    panels = (scores, masked, softmax(masked, axis=-1))
    vmax = vmax if vmax is not None else float(np.abs(scores).max() or 1.0)
    bars = None
    if axes is None:  # a figure of its own, with a colour bar for the scores and one for the weights
        fig = plt.figure(figsize=(14, 4.6))
        grid = fig.add_gridspec(1, 6, width_ratios=[1, 1, 0.05, 0.2, 1, 0.05], wspace=0.12)
        axes = [fig.add_subplot(grid[0, k]) for k in (0, 1, 4)]
        bars = [fig.add_subplot(grid[0, k]) for k in (2, 5)]
    axes = list(axes)
    for k, (ax, kind, matrix) in enumerate(zip(axes, ("scores", "scores", "weights"), panels, strict=True)):
        full = np.full((size, size), np.nan)
        full[:T, :T] = matrix
        heatmap(full, kind=kind, ax=ax, cbar=False, annot=True, vmax=vmax, xlabel="", ylabel="")
        for i, text in enumerate(heatmap_cells(ax)):
            if i // size >= T or i % size >= T:
                text.set_text("")
            elif kind == "weights" and full.flat[i] == 0.0:
                text.set_text("0")  # exactly zero, not a small weight rounded to 0.00
        ax.set_xlim(0, T)
        ax.set_ylim(T, 0)
        _token_labels(ax, tokens, size, rows=k == 0)
        _show_cells(ax, False)  # seaborn draws the whole figure once per heatmap: skip finished cells
    for ax in axes:
        _show_cells(ax, True)
    if bars is not None:
        fig.colorbar(axes[0].collections[0], cax=bars[0]).set_label(kind_label("scores"))
        fig.colorbar(axes[2].collections[0], cax=bars[1]).set_label(kind_label("weights"))
    if titles:
        for ax, title in zip(axes, PANEL_TITLES, strict=True):
            ax.set_title(tr(title), fontsize="medium")
    return axes


def product_panels(
    left: Any,
    right: Any,
    *,
    names: Sequence[str],
    rows: Sequence[str],
    inner: Sequence[str],
    cols: Sequence[str],
    axes: Sequence[Axes] | None = None,
    fmt: str = ".1f",
) -> list[Axes]:
    """A matrix product as three heatmaps: ``left · right = left @ right``, on one colour scale.

    Parameters
    ----------
    names : sequence of 3 str
        The three titles, e.g. ("X", "W_Q", "Q = X·W_Q"); the shapes are added to them.
    rows, inner, cols : sequence of str
        Labels of the rows of ``left``, of the shared axis, of the columns of ``right``.

    Shapes:
        left (n, m), right (m, p) -> the product (n, p)

    Taught in: 04 §2
    """
    a, b = np.asarray(left, dtype=float), np.asarray(right, dtype=float)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        check_shape(False, "left, right", expected="(n, m), (m, p)", got=(a.shape, b.shape))
    c = a @ b
    if axes is None:
        widths = [a.shape[1], b.shape[1], c.shape[1]]
        fig, axes = plt.subplots(
            1, 3, figsize=(2.2 + 0.62 * sum(widths), 1.2 + 0.45 * max(a.shape[0], b.shape[0])),
            gridspec_kw={"width_ratios": widths, "wspace": 0.45},
        )
    axes = list(axes)
    vmax = float(max(np.abs(m).max() for m in (a, b, c))) or 1.0
    labels = ((rows, inner), (inner, cols), (rows, cols))
    for ax, m, name, (r, k) in zip(axes, (a, b, c), names, labels, strict=True):
        heatmap(m, r, k, kind="values", ax=ax, cbar=False, fmt=fmt, vmax=vmax, xlabel="", ylabel="",
                title=f"{name}  {m.shape[0]}×{m.shape[1]}")
        ax.tick_params(axis="x", rotation=90)
        _show_cells(ax, False)  # as in mask_panels: keep seaborn's draws cheap
    for ax in axes:
        _show_cells(ax, True)
    for ax, sign in zip(axes[:2], ("·", "="), strict=True):
        box = ax.get_position()
        middle = (box.y0 + box.y1) / 2
        ax.figure.text(box.x1 + 0.012, middle, sign, fontsize="xx-large", ha="left", va="center")
    return axes


def head_grid(
    weights: Any,
    tokens: Sequence[str] | None = None,
    *,
    title: str | None = None,
    highlight: Sequence[tuple[int, int]] = (),
    panel_size: float | None = None,
) -> mpl.figure.Figure:
    """Every head of every layer at a glance: layers as rows, heads as columns, one colour scale.

    Each panel is one head's weights, queries down and keys across, on the fixed [0, 1] scale of
    ``heatmap`` with a single colorbar. Token labels sit only on the outer panels (left column and
    bottom row), since all panels share them. ``highlight`` frames chosen heads, e.g. the ones a
    notebook names.

    Parameters
    ----------
    weights : array_like
        Attention weights of every head of every layer.
    tokens : sequence of str, optional
        The T token labels; default 0, 1, 2, ...
    title : str, optional
        A title over the whole grid.
    highlight : sequence of (int, int)
        (layer, head) pairs to frame.
    panel_size : float, optional
        Width and height of one panel, in inches; default: the grid fills the site's content column
        (``COLUMN_PX``), with panels no smaller than 0.5 in. Its texts are never smaller than the
        page can show legibly; where a panel is too small to label every token, every second (or
        third...) token is labelled.

    Shapes:
        weights (n_layers, n_heads, T, T), tokens (T,)

    Returns
    -------
    Figure
        ``fig.axes`` lists the panels row by row, then the colorbar.

    Taught in: 08 §6
    """
    data = np.asarray(weights, dtype=float)
    if data.ndim != 4 or data.shape[-1] != data.shape[-2]:
        check_shape(False, "weights", expected="(n_layers, n_heads, T, T)", got=data.shape)
    n_layers, n_heads, T, _ = data.shape
    labels = [str(i) for i in range(T)] if tokens is None else [str(t) for t in tokens]
    if len(labels) != T:
        check_shape(False, "tokens", expected=f"(T,) = ({T},)", got=(len(labels),))
    for layer, head in highlight:
        if not (0 <= layer < n_layers and 0 <= head < n_heads):
            refuse(ValueError,
                   N_("highlight ({layer}, {head}) is outside {n_layers} layers × {n_heads} heads"),
                   layer=layer, head=head, n_layers=n_layers, n_heads=n_heads)
    framed = set(map(tuple, highlight))
    fig, axes = plt.subplots(n_layers, n_heads, squeeze=False)
    # Fixed margins in inches (cheaper than a layout engine for 72 panels): room for the labels.
    small = text_size(fig)  # every text of the grid but its title, legible where the page shows it
    label_width = max(map(len, labels)) * 0.58 * small / 72  # inches, for the widest token label
    upright = max(map(len, labels)) > 2  # single characters (a poem's) stand as written, words turn
    label_height = label_width if upright else 1.3 * small / 72
    left, right, bottom, top = 0.55 + label_width, 1.15, 0.4 + label_height, 0.6
    if panel_size is None:  # as large as the page's column allows, but no smaller than 0.5 in
        panel_size = max(0.5, (COLUMN_PX / fig.dpi - left - right) / (1.06 * n_heads))
    width, height = left + right + 1.06 * panel_size * n_heads, bottom + top + 1.06 * panel_size * n_layers
    fig.set_size_inches(width, height)
    small = text_size(fig)
    fig.subplots_adjust(left=left / width, right=1 - right / width, bottom=bottom / height,
                        top=1 - top / height, wspace=0.06, hspace=0.06)
    # A token label wants 1.3 of its size along the axis; where a panel gives each token less, only
    # every `every`-th token is labelled, so no two labels touch.
    every = max(1, int(np.ceil(1.3 * small / (panel_size * 72 / T))))
    ticks = range(0, T, every)
    layer_name, head_name = tr("layer {layer}"), tr("head {head}")
    # the heads' names as large as fits over a panel (~0.6 em a character), but legible
    widest = max(len(head_name.format(head=head)) for head in range(n_heads))
    head_size = max(legible_points(fig), min(small, 0.9 * panel_size * 72 / (0.6 * widest)))
    for layer in range(n_layers):
        for head in range(n_heads):
            ax = axes[layer, head]
            image = ax.imshow(data[layer, head], cmap=KINDS["weights"]["cmap"], vmin=0.0, vmax=1.0,
                              aspect="auto")
            # Every panel has the same extent; only the outer ones carry the token labels.
            # (sharex/sharey, or ticks on every panel, would cost seconds for 72 panels.)
            if layer == n_layers - 1:
                ax.set_xticks(ticks, [labels[i] for i in ticks], rotation=90 if upright else 0)
            else:
                ax.set_xticks([])
            if head == 0:
                ax.set_yticks(ticks, [labels[i] for i in ticks])
            else:
                ax.set_yticks([])
            ax.tick_params(length=0, labelsize=small)
            if head == 0:
                ax.set_ylabel(layer_name.format(layer=layer), fontsize=small)
            if layer == 0:
                ax.set_title(head_name.format(head=head), fontsize=head_size)
            if (layer, head) in framed:
                for side in ax.spines.values():
                    side.set(visible=True, color="#1f77b4", linewidth=2.5)
    fig.supxlabel(tr("key"), fontsize=small, y=0.04 / height)
    fig.supylabel(tr("query"), fontsize=small, x=0.02 / width)
    edge = axes[0, -1].get_position().x1
    bar = fig.add_axes((edge + 0.15 / width, 0.3, 0.12 / width, 0.4))  # its ticks and label: 1.1 in
    fig.colorbar(image, cax=bar).set_label(kind_label("weights"))
    if title:
        fig.suptitle(title, y=1 - 0.1 / height)
    return fig
