"""The tiling lab of notebook 11: attention computed tile by tile, FlashAttention's way, one step at a time.

Taught in: 11 §3. The T×T scores are cut into tiles of ``block`` query rows and ``block`` key columns. The
loop takes the query blocks one after the other and, inside each, the key blocks: each tile updates the
running max m, the running sum l and the unnormalised output of its query rows. A tile that the mask
blocks entirely is skipped (under the causal mask, those above the diagonal). Move the step: the tile being
computed is outlined, the tiles done are filled or hatched (skipped), and for one query row i the page
shows its m and l and its output so far against the exact output of ``attnlib.attention``; after the last
tile of the row's query block the two are equal.

Every number comes from ``attnlib.core.tiled_attention_steps`` (and ``tile_kinds``, ``attention``). For
each T, block size and mask the page gets the tiles' kinds and order and, packed, the state of every row
after each tile of its query block; it looks the step and the row up.
"""

from __future__ import annotations

import base64
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure
from matplotlib.patches import Patch, Rectangle

from .. import plot
from ..checks import check_choice, refuse
from ..core import attention, causal_mask, tile_kinds, tiled_attention_steps
from ..i18n import N_, tr
from ..validation import as_float_array, check_finite
from .base import Control, Lab, slider

T_CHOICES = (8, 12, 16)  # the sequence lengths: 12 is not a multiple of 8
BLOCKS = (2, 4, 8)  # rows per block (queries and keys alike)
MASKS = ("none", "causal")
MASK_NAMES = (N_("none"), N_("causal"))
MAX_T = max(T_CHOICES)
D_K = D_V = 4  # the default queries, keys and values: 4 numbers each (d_v bars fit a phone)
MAX_D_V = 6
SEED = 11  # the default Q, K, V: standard normal rows from this generator

# What the picture's parts are painted with (tiling.js uses the same).
COLOURS = {
    "computed": "#9ec1e6",  # a kept entry of a tile already computed
    "current": "#f5a65b",  # a kept entry of the tile being computed
    "edge": "#c2410c",  # the outline of the tile being computed
    "blocked": plot.MASKED_COLOUR,  # an entry the mask blocks
    "pending": "#ffffff",
    "hatch": "#7a7a7a",  # a skipped tile, once the loop has passed it
    "row": "#222222",  # the outline of the chosen query row
    "out": plot.token_colour(0),  # the output so far
    "exact": "#111111",  # the exact output
}
KIND_KEYS = ("skipped", "partial", "full")  # tile_kinds: 0, 1, 2

READOUT = N_("T = {T} in blocks of {block}: {tiles} tiles, <b>{skipped}</b> skipped (the mask blocks every "
             "entry), {partial} partly masked")
# What the picture writes (the page fills them with the numbers of the setting; so does the snapshot).
TEXTS = {
    "step": N_("step {step} of {tiles}: tile ({q}, {k})"),
    "start": N_("step 0 of {tiles}: nothing computed yet"),
    "skipped": N_("skipped: the mask blocks it all"),
    "partial": N_("partial: computed, mask inside"),
    "full": N_("full: computed"),
    "row": N_("row i = {row}, in query block {q}"),
    "m": N_("running max m = {m}"),
    "l": N_("running sum l = {l}"),
    "bars": N_("output so far (bars), exact (lines)"),
    "gap": N_("largest gap to exact: {gap}"),
    "dim": N_("dim {c}"),
    "keys": N_("keys j"),
    "queries": N_("queries i"),
    "legend_computed": N_("computed"),
    "legend_current": N_("this step"),
    "legend_skipped": N_("skipped"),
    "legend_blocked": N_("masked entry"),
}


def tiles(T: int, block: int) -> int:
    """The number of tiles of a T×T grid in blocks of ``block``: ⌈T/block⌉² (tiling.js ``tiles`` is its twin).

    Shapes: T, block -> int
    """
    n = -(-T // block)
    return n * n


def settle(values: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``values`` with ``changes`` made, the step and the row kept inside the new grid: a step at the last
    tile stays at the last tile, a step or a row past the end comes back to it; a step or a row set in
    ``changes`` is left as given (and refused later if it is out of range). ``settle`` in tiling.js is its
    twin, which the page kit calls on every change.

    Shapes: values, changes (by control name) -> values
    """
    out = {**values, **changes}
    end, new_end = tiles(values["T"], values["block"]), tiles(out["T"], out["block"])
    if "step" not in changes:
        out["step"] = new_end if values["step"] == end else min(values["step"], new_end)
    if "row" not in changes:
        out["row"] = min(values["row"], out["T"] - 1)
    return out


def _packed(values: np.ndarray) -> dict[str, str]:
    """A float64 array as the kit's packed column: its little-endian bytes in base64 (kit.js ``entries``)."""
    return {"f64": base64.b64encode(np.ascontiguousarray(values, dtype="<f8").tobytes()).decode("ascii")}


def _matrix(value: Any, name: str, d: int | None) -> np.ndarray:
    expected = f"({MAX_T}, d)" if d is None else f"({MAX_T}, {d})"
    arr = as_float_array(value, name, expected=expected)
    if arr.ndim != 2 or arr.shape[0] != MAX_T or (d is not None and arr.shape[1] != d) or arr.shape[1] == 0:
        refuse(ValueError, N_("{name} must have shape {expected}: one row per token of the longest "
                              "sequence; got {got}"), name=name, expected=expected, got=arr.shape)
    check_finite(arr, name)
    return arr.astype(np.float64)


class _TilingLab(Lab):
    """A lab whose step and row sliders end where the grid does: the step at the number of tiles, the row
    at T − 1. Changing T or the block size brings them inside (:func:`settle`); a step or a row outside is
    refused."""

    def _checked(self, values: dict[str, Any]) -> dict[str, Any]:
        values = super()._checked(values)
        T, block = values["T"], values["block"]
        if values["row"] >= T:
            refuse(ValueError, N_("row must be below T = {T} (a query among the first T tokens); got {row}"),
                   T=T, row=values["row"])
        if values["step"] > tiles(T, block):
            refuse(ValueError, N_("step must be at most {n}, the number of tiles of T = {T} in blocks of "
                                  "{block}; got {step}"), n=tiles(T, block), T=T, block=block,
                   step=values["step"])
        return values

    def set_values(self, **changes: Any) -> None:
        """Move one or more controls (the page follows); a new T or block size moves the step and the row
        inside the new grid (:func:`settle`)."""
        unknown = set(changes) - set(self.controls)
        if unknown:
            raise ValueError(tr("no control named {unknown}; controls are {names}").format(
                unknown=sorted(unknown), names=sorted(self.controls)))
        for name, value in changes.items():
            check_choice(value, name, self.controls[name].options)
        self.values = self._checked(settle(self.values, changes))

    def settings(self) -> list[dict[str, Any]]:
        """Every setting the sliders allow: rows below T, steps up to the number of tiles."""
        return [{"T": T, "block": block, "mask": mask, "row": row, "step": step}
                for T in T_CHOICES for block in BLOCKS for mask in MASKS
                for row in range(T) for step in range(tiles(T, block) + 1)]


def make_tiling_lab(
    Q: Any = None, K: Any = None, V: Any = None, *, T: int = 16, block: int = 4, mask: str = "causal",
    row: int = 9, step: int = 10,
) -> Lab:
    """Lab for notebook 11: tiled attention (FlashAttention's forward pass) one tile at a time.

    Controls: the sequence length T (8 to 16), the block size (2, 4 or 8 rows, for the queries and the
    keys alike), the mask (none or causal), the query row i whose numbers are shown, and the step
    (0 to the number of tiles, ⌈T/block⌉²). The first T rows of Q, K and V are used.

    Parameters
    ----------
    Q, K : array_like, optional
        Queries and keys, one row per token of the longest sequence (16). By default standard normal
        rows of width 4 from ``np.random.default_rng(11)``.
    V : array_like, optional
        Values, one row per token; at most 6 columns (one bar each). By default as Q and K.
    T, block, mask, row, step : optional
        The starting setting; the step at most the number of tiles, the row below T.

    Shapes
    ------
    Q (16, d_k), K (16, d_k), V (16, d_v) -> the frame's ``out`` and ``exact`` (d_v,), ``kinds`` and
    ``done`` (⌈T/block⌉, ⌈T/block⌉)

    Returns
    -------
    Lab
        ``lab.state`` holds ``kinds`` (0 skipped, 1 partial, 2 full, as ``tile_kinds``), ``order`` (the step
        at which each tile is computed, from 1), ``done`` (the tiles computed or skipped so far), ``tile``
        (``[q_block, k_block, kind]`` of the step's tile, None at step 0), and for the chosen row ``m``
        (None while it has seen no key: −∞), ``l``, ``out`` (its output so far, 0 before any key),
        ``exact`` (``attnlib.attention``'s) and ``gap`` (the largest ``|out − exact|``).

    Taught in: 11 §3
    """
    if Q is None and K is None and V is None:
        Q, K, V = np.random.default_rng(SEED).standard_normal((3, MAX_T, D_K))
    elif Q is None or K is None or V is None:
        refuse(ValueError, N_("give all of Q, K and V, or none of them (the lab's own)"))
    Q = _matrix(Q, "Q", None)
    K = _matrix(K, "K", Q.shape[1])
    V = _matrix(V, "V", None)
    if V.shape[1] > MAX_D_V:
        refuse(ValueError, N_("V must have at most {most} columns (one bar each); got {got}"), most=MAX_D_V,
               got=V.shape[1])
    mask_names = dict(zip(MASKS, map(tr, MASK_NAMES), strict=True))
    controls = [
        Control("T", "slider", tr("sequence length T"), list(T_CHOICES)),
        Control("block", "toggle", tr("block size"), list(BLOCKS)),
        Control("mask", "toggle", tr("mask"), list(MASKS), [mask_names[m] for m in MASKS]),
        slider("row", tr("query row i"), 0, MAX_T - 1, 1),
        slider("step", tr("step"), 0, tiles(MAX_T, min(BLOCKS)), 1),
    ]
    for name, value in (("T", T), ("block", block), ("mask", mask)):
        check_choice(value, name, next(c for c in controls if c.name == name).options)

    runs: dict[tuple[int, int, str], dict[str, Any]] = {}

    def run(T: int, block: int, mask: str) -> dict[str, Any]:
        """Everything about one grid: the steps of tiled attention, the tiles, the exact output."""
        if (T, block, mask) not in runs:
            keep = causal_mask(T) if mask == "causal" else np.ones((T, T), dtype=bool)
            steps = tiled_attention_steps(Q[:T], K[:T], V[:T], keep, block_q=block, block_k=block)
            kinds = tile_kinds(keep, block, block)  # (n, n): 0 skipped, 1 partial, 2 full
            n = kinds.shape[0]
            exact = attention(Q[:T], K[:T], V[:T], keep)[0]  # (T, d_v)
            row_block = np.arange(T) // block  # (T,): the query block of each row
            # states[i, c]: row i after c tiles of its query block (c = 0: before any), as
            # [m, l, out (d_v), gap]
            states = np.zeros((T, n + 1, V.shape[1] + 3))
            states[:, 0, 0] = -np.inf
            states[:, 0, -1] = np.abs(exact).max(axis=-1)
            for s in steps:
                rows = row_block == s.q_block
                c = s.k_block + 1
                states[rows, c, 0], states[rows, c, 1] = s.m[rows], s.l[rows]
                states[rows, c, 2:-1] = s.out[rows]
                states[rows, c, -1] = np.abs(s.out[rows] - exact[rows]).max(axis=-1)
            runs[T, block, mask] = {
                "steps": steps, "kinds": kinds, "order": 1 + np.arange(n * n).reshape(n, n),
                "row_block": row_block, "keep": keep, "exact": exact, "state_table": states,
                "states": _packed(states),
            }
        return runs[T, block, mask]

    def frame(T: int, block: int, mask: str, row: int, step: int) -> dict:
        r = run(T, block, mask)
        # The tables of spec["frames"] come from frames at the other controls' starting values, which may
        # lie outside a small grid: what they store does not depend on the row or the step.
        row, step = min(row, T - 1), min(step, tiles(T, block))
        if step == 0:
            m, l, out = -np.inf, 0.0, np.zeros(V.shape[1])
            tile = None
        else:
            s = r["steps"][step - 1]
            m, l, out = float(s.m[row]), float(s.l[row]), s.out[row]
            tile = [s.q_block, s.k_block, s.kind]
        kinds = r["kinds"]
        return {
            "kinds": kinds, "order": r["order"], "row_block": r["row_block"], "keep": r["keep"],
            "exact_rows": r["exact"], "states": r["states"],
            "done": r["order"] <= step, "tile": tile,
            "m": None if np.isneginf(m) else m, "l": l, "out": out, "exact": r["exact"][row],
            "gap": float(np.abs(out - r["exact"][row]).max()),
            "fields": {"T": T, "block": block, "tiles": kinds.size, "skipped": int((kinds == 0).sum()),
                       "partial": int((kinds == 1).sum())},
        }

    texts = {name: tr(words) for name, words in TEXTS.items()}
    # The bars' scale: the largest output entry of any setting, so far or exact (the last state of a row).
    bound = 1.1 * max(float(np.abs(run(t, b, m)["state_table"][:, :, 2:-1]).max())
                      for t in T_CHOICES for b in BLOCKS for m in MASKS)

    def snapshot(T: int, block: int, mask: str, row: int, step: int) -> Figure:
        return _picture(frame(T, block, mask, row, step), T, block, row, step, texts, bound)

    data = {"d_v": int(V.shape[1]), "bound": bound, "texts": texts, "colours": COLOURS}
    config, grid, masked = ("T", "block", "mask"), ("T", "block"), ("T", "mask")
    page_parts = {
        "kinds": config, "states": config, "order": grid, "row_block": grid, "keep": masked,
        "exact_rows": masked, "fields.T": ("T",), "fields.block": ("block",), "fields.tiles": grid,
        "fields.skipped": config, "fields.partial": config,
    }
    values = {"T": T, "block": block, "mask": mask, "row": row, "step": step}
    return _TilingLab("tiling", controls, values, data, frame=frame, readout=tr(READOUT), snapshot=snapshot,
                      page_parts=page_parts, texts=["−∞"])


def lines(f: dict, values: dict[str, Any], texts: dict[str, str]) -> dict[str, str]:
    """The picture's sentences at one setting, numbers written as the page writes them (tiling.js ``lines``
    is its twin, filling the same templates from the same frame).

    Shapes: f a frame of :func:`make_tiling_lab` -> {name: text}
    """
    tile, n = f["tile"], len(f["order"]) * len(f["order"][0])
    if tile is None:
        step, kind = texts["start"].format(tiles=n), ""
    else:
        step = texts["step"].format(step=values["step"], tiles=n, q=tile[0], k=tile[1])
        kind = texts[KIND_KEYS[tile[2]]]
    return {
        "step": step, "kind": kind,
        "row": texts["row"].format(row=values["row"], q=int(f["row_block"][values["row"]])),
        "m": texts["m"].format(m="−∞" if f["m"] is None else plot.number(f["m"], 3)),
        "l": texts["l"].format(l=plot.number(f["l"], 3)),
        "gap": texts["gap"].format(gap=plot.number(f["gap"], 3)),
    }


def _status(f: dict, T: int, block: int) -> np.ndarray:
    """The colour of every entry of the T×T grid (RGB), as the page paints it."""
    colours = {k: np.array(mpl.colors.to_rgb(v)) for k, v in COLOURS.items()}
    image = np.empty((T, T, 3))
    tile = f["tile"]
    for i in range(T):
        for j in range(T):
            a, b = i // block, j // block
            if not f["keep"][i, j]:
                key = "blocked"
            elif tile is not None and (a, b) == (tile[0], tile[1]):
                key = "current"
            elif f["done"][a, b]:
                key = "computed"
            else:
                key = "pending"
            image[i, j] = colours[key]
    return image


def _picture(f: dict, T: int, block: int, row: int, step: int, texts: dict, bound: float) -> Figure:
    """The lab's picture with matplotlib: the grid of tiles (left), the row's numbers and output (right)."""
    fig = plot.new_figure((10.0, 4.8))
    grid = fig.add_gridspec(2, 2, width_ratios=[1.0, 1.0], height_ratios=[1.0, 1.0], wspace=0.3)
    ax = fig.add_subplot(grid[:, 0])
    small = plot.text_size(fig)
    ax.imshow(_status(f, T, block), extent=(0, T, T, 0), interpolation="nearest")
    n = len(f["order"])
    tile = f["tile"]
    for a in range(n):
        for b in range(n):
            x, y = b * block, a * block
            w, h = min(block, T - x), min(block, T - y)
            skipped = f["done"][a, b] and f["kinds"][a, b] == 0
            ax.add_patch(Rectangle((x, y), w, h, fill=False, lw=0.8, edgecolor="#666666",
                                   hatch="///" if skipped else None))
    if tile is not None:
        x, y = tile[1] * block, tile[0] * block
        ax.add_patch(Rectangle((x, y), min(block, T - x), min(block, T - y), fill=False, lw=2.5,
                               edgecolor=COLOURS["edge"]))
    ax.add_patch(Rectangle((0, row), T, 1, fill=False, lw=1.8, edgecolor=COLOURS["row"]))
    ax.set_xlim(0, T)
    ax.set_ylim(T, 0)
    ax.set_xticks([])
    ax.set_yticks([row + 0.5], [str(row)])
    ax.set_xlabel(texts["keys"])
    ax.xaxis.set_label_position("top")
    ax.set_ylabel(texts["queries"])
    swatches = [Patch(facecolor=COLOURS["computed"], label=texts["legend_computed"]),
                Patch(facecolor=COLOURS["current"], edgecolor=COLOURS["edge"], label=texts["legend_current"]),
                Patch(facecolor="#f2f2f2", edgecolor="#666666", hatch="///", label=texts["legend_skipped"]),
                Patch(facecolor=COLOURS["blocked"], label=texts["legend_blocked"])]
    ax.legend(handles=swatches, loc="upper left", bbox_to_anchor=(-0.02, -0.01), ncols=2, frameon=False,
              fontsize=small)
    said = lines(f, {"T": T, "block": block, "row": row, "step": step}, texts)

    top = fig.add_subplot(grid[0, 1])
    top.axis("off")
    for k, name in enumerate(("step", "kind", "row", "m", "l", "gap")):
        top.text(0.0, 1.06 - k * 0.2, said[name], color=COLOURS["edge"] if name == "kind" else "#222222",
                 transform=top.transAxes, va="top")

    bars = fig.add_subplot(grid[1, 1])
    d_v = len(f["out"])
    y = np.arange(d_v)
    bars.barh(y, f["out"], color=COLOURS["out"], height=0.6)
    for k, value in enumerate(f["exact"]):
        bars.plot([value, value], [k - 0.4, k + 0.4], color=COLOURS["exact"], lw=2.2)
        bars.text(1.02, k, plot.number(f["out"][k], 3), transform=bars.get_yaxis_transform(), va="center",
                  fontsize=small)
    bars.axvline(0, color="#888888", lw=0.8)
    bars.set_yticks(y, [texts["dim"].format(c=c) for c in range(d_v)])
    bars.invert_yaxis()
    bars.set_xlim(-bound, bound)
    bars.set_title(texts["bars"], fontsize=small)
    plot.legible_ticks(bars)
    return fig
