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
import numpy as np
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
        render: optional ``render(fig) -> PNG bytes`` used instead of ``render_png(fig, dpi)``,
            e.g. a ``BlitRenderer`` that redraws only the artists that move.

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
        render: Callable[[Figure], bytes] | None = None,
    ) -> None:
        self.controls = dict(controls)
        self.fig = fig
        self._update = update
        self._dpi = dpi
        self._render = render or (lambda figure: render_png(figure, dpi))
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
        self.image.value = self._render(self.fig)
        self.readout.value = text or ""
        self.last_redraw_s = time.perf_counter() - start

    def snapshot(self) -> Image:
        """The current figure as a static image, shown just before the live lab in a notebook."""
        return Image(data=self._render(self.fig), format="png")


# ---- Notebooks 01-03: vectors, softmax, weighted sums ------------------------------------------
def encode_png(rgba: Any, *, level: int = 1) -> bytes:
    """Encode an RGBA image as PNG without row filters, at zlib ``level`` (1 = fastest).

    Figures are mostly flat colour, where PNG's row filters gain little: measured on the d_k lab,
    this gives files as small as Pillow's adaptive filters in about half the time. An opaque image
    (every alpha 255, as a figure with a white background) is written as RGB.

    Shapes:
        rgba (height, width, 4) uint8 -> PNG bytes
    """
    import struct
    import zlib


    pixels = np.asarray(rgba)
    if pixels.dtype != np.uint8 or pixels.ndim != 3 or pixels.shape[2] != 4:
        raise ValueError(f"rgba must be uint8 of shape (height, width, 4); got {pixels.dtype} {pixels.shape}")
    opaque = bool((pixels[..., 3] == 255).all())
    if opaque:
        pixels = pixels[..., :3]
    height, width, channels = pixels.shape
    rows = np.zeros((height, width * channels + 1), dtype=np.uint8)  # column 0: filter type 0, none
    rows[:, 1:] = pixels.reshape(height, -1)

    def chunk(kind: bytes, payload: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + payload))
        return struct.pack(">I", len(payload)) + kind + payload + checksum

    header = struct.pack(">IIBBBBB", width, height, 8, 2 if opaque else 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(rows.tobytes(), level)) + chunk(b"IEND", b""))


class BlitRenderer:
    """Render a lab's figure fast: draw the still parts once, then only the artists that move.

    The moving artists are marked animated, so a full draw leaves them out. That draw is kept as
    the background; each render pastes it back, draws the moving artists on top (in z-order) and
    encodes the pixels as PNG with fast compression. This takes a redraw from ~60-100 ms to ~10-25 ms.
    Whatever an update changes must be among ``moving``; a new figure size redraws the background.

    Args:
        moving: the artists an update function changes (lines, patches, texts, titles).

    Use as ``Lab(controls, fig, update, render=BlitRenderer(moving))``.
    """

    def __init__(self, moving: list[Any], *, compress_level: int = 1) -> None:
        self.moving = sorted(moving, key=lambda artist: artist.get_zorder())
        for artist in self.moving:
            artist.set_animated(True)
        self.compress_level = compress_level
        self._background: Any = None
        self._size: tuple[int, int] | None = None

    def __call__(self, fig: Figure) -> bytes:
        if not isinstance(fig.canvas, FigureCanvasAgg):
            FigureCanvasAgg(fig)
        canvas = fig.canvas
        size = canvas.get_width_height(physical=True)
        if self._background is None or size != self._size:
            canvas.draw()  # everything but the animated artists
            self._background, self._size = canvas.copy_from_bbox(fig.bbox), size
        else:
            canvas.restore_region(self._background)
        for artist in self.moving:
            fig.draw_artist(artist)
        return encode_png(np.asarray(canvas.buffer_rgba()), level=self.compress_level)


def _blit_lab(controls: dict[str, Any], fig: Figure, update: Callable[..., str]) -> Lab:
    from . import plot

    moving = [artist for ax in fig.axes for artist in plot.moving_artists(ax)]
    return Lab(controls, fig, update, render=BlitRenderer(moving))


def _num(x: float, fmt: str = ".3f") -> str:
    """A number for a readout: rounded once, no '-0.000' for a tiny negative, a real minus sign."""
    text = format(float(x), fmt)
    if float(text) == 0:
        text = format(0.0, fmt)
    return text.replace("-", "−")


def _slider_style() -> dict[str, Any]:
    return {"style": {"description_width": "initial"}, "layout": widgets.Layout(width="300px")}


def _new_figure(figsize: tuple[float, float], ncols: int = 1, **kwargs: Any) -> tuple[Figure, Any]:
    """A figure outside pyplot (nothing else shows it) on its own Agg canvas, kept for redraws."""
    fig = Figure(figsize=figsize)
    FigureCanvasAgg(fig)
    axes = fig.subplots(1, ncols, **kwargs)
    return fig, axes


def _fit_layout(fig: Figure) -> None:
    """Tight margins, computed once. Unlike ``fig.tight_layout()`` this leaves no layout engine on the
    figure: one would make every ``savefig`` draw the whole figure twice."""
    from matplotlib.layout_engine import TightLayoutEngine

    TightLayoutEngine().execute(fig)


def make_dot_product_lab(*, angle: int = 60, length_a: float = 2.0, length_b: float = 1.5) -> Lab:
    """Lab for notebook 01: turn and stretch two 2-D vectors, watch a·b, cos θ and the projection.

    b lies along feature 1; a makes the angle θ with it.

    Args:
        angle: θ in degrees, 0-180 (slider step 5).
        length_a, length_b: |a| and |b|, 0.5-3.0 (slider step 0.1).

    Returns:
        The ``Lab``; its readout shows θ, a·b, cos θ and the projection length a·b/|b|.
    """

    from . import plot
    from .core import cosine_similarity

    controls = {
        "angle": widgets.IntSlider(value=angle, min=0, max=180, step=5, description="angle θ (degrees)",
                                   **_slider_style()),
        "length_a": widgets.FloatSlider(value=length_a, min=0.5, max=3.0, step=0.1, description="length |a|",
                                        **_slider_style()),
        "length_b": widgets.FloatSlider(value=length_b, min=0.5, max=3.0, step=0.1, description="length |b|",
                                        **_slider_style()),
    }

    def vectors(angle: float, length_a: float, length_b: float) -> tuple[Any, Any]:
        theta = np.radians(angle)
        return length_a * np.array([np.cos(theta), np.sin(theta)]), np.array([length_b, 0.0])

    fig, ax = _new_figure((5.6, 4.4))
    plot.dot_product_picture(*vectors(angle, length_a, length_b), ax=ax, lim=3.4, ylim=(-1.1, 3.4))
    _fit_layout(fig)

    def update(angle: int, length_a: float, length_b: float) -> str:
        a, b = vectors(angle, length_a, length_b)
        plot.update_dot_product_picture(ax, a, b)
        cos = cosine_similarity(a[None], b[None])[0, 0]
        return (
            f"θ = {angle}° · a·b = {_num(a @ b)} · cos θ = {_num(cos)} · "
            f"projection of a on b = a·b / |b| = {_num(a @ b / length_b)}"
        )

    return _blit_lab(controls, fig, update)


def make_softmax_scale_lab(
    scores: Any,
    tokens: list[str],
    *,
    scale: float = 1.0,
    query: int = 0,
    max_scale: float = 10.0,
) -> Lab:
    """Lab for notebook 02: multiply one row of scores by β and watch its softmax weights.

    β = 0 gives uniform weights (entropy log T); a large β piles the weight on the largest score
    (on all of them equally if several tie). The temperature is 1/β.

    Args:
        scores: the score matrix, e.g. X·Xᵀ; one row per query token.
        tokens: labels of the rows and columns.
        scale: starting β (slider 0 to ``max_scale``, step 0.1); query: starting row.

    Shapes:
        scores (T, T), tokens (T,)

    Returns:
        The ``Lab``: a query menu and a β slider above bars of the row's weights and the entropy
        curves of every row; the readout gives the largest weight and the entropy.
    """

    from . import plot
    from .core import entropy, softmax

    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or scores.shape[0] != len(tokens) or scores.shape[1] != len(tokens):
        raise ValueError(f"scores must have shape (T, T) for T={len(tokens)} tokens; got {scores.shape}")
    controls = {
        "query": widgets.Dropdown(options=[(t, i) for i, t in enumerate(tokens)], value=query,
                                  description="query row", style={"description_width": "initial"},
                                  layout=widgets.Layout(width="160px")),
        "scale": widgets.FloatSlider(value=scale, min=0.0, max=max_scale, step=0.1, description="scale β",
                                     **_slider_style()),
    }
    fig, (ax_bars, ax_h) = _new_figure((9.6, 3.7), ncols=2, width_ratios=[1, 1.35])
    plot.weight_bars(softmax(scale * scores[query]), tokens, ax=ax_bars, title=f"row {tokens[query]}")
    plot.entropy_curves(scores, tokens, scales=np.linspace(0.0, max_scale, 201), ax=ax_h, highlight=query,
                        mark=scale)
    _fit_layout(fig)
    uniform = np.log(len(tokens))

    def update(query: int, scale: float) -> str:
        w = softmax(scale * scores[query])
        plot.update_weight_bars(ax_bars, w, title=f"weights of row {tokens[query]} at β = {scale:.1f}")
        plot.update_entropy_curves(ax_h, highlight=query, mark=scale)
        top = [tokens[j] for j in np.flatnonzero(np.isclose(w, w.max(), rtol=0, atol=1e-9))]
        temperature = "∞" if scale == 0 else _num(1 / scale, ".2f")
        return (
            f"β = {_num(scale, '.1f')} (temperature 1/β = {temperature}) · row {tokens[query]}: "
            f"largest weight {_num(w.max(), '.4f')} on {' and '.join(top)} · "
            f"entropy {_num(entropy(w), '.4f')} nats (uniform: {_num(uniform, '.4f')})"
        )

    return _blit_lab(controls, fig, update)


def make_convex_hull_lab(
    X: Any, tokens: list[str], *, scale: float = 1.0, max_scale: float = 6.0
) -> Lab:
    """Lab for notebook 03: outputs ``softmax(β·X·Xᵀ)·X`` of 2-D tokens, moved by the scale β.

    At β = 0 every output sits on the centroid; as β grows each moves towards the token with the
    largest score in its row, never leaving the convex hull. Faint trails show the whole path.

    Args:
        X: 2-D token vectors; tokens: their labels.
        scale: starting β (slider 0 to ``max_scale``, step 0.1).

    Shapes:
        X (T, 2), tokens (T,)

    Returns:
        The ``Lab``; its readout gives each row's largest weight and whether all outputs are inside.
    """

    from . import plot
    from .core import softmax

    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2 or X.shape[0] != len(tokens):
        raise ValueError(f"X must have shape (T, 2) for T={len(tokens)} tokens; got {X.shape}")
    scores = X @ X.T  # (T, T)
    controls = {
        "scale": widgets.FloatSlider(value=scale, min=0.0, max=max_scale, step=0.1, description="scale β",
                                     **_slider_style()),
    }
    path = softmax(np.linspace(0.0, max_scale, 121)[:, None, None] * scores[None], axis=-1) @ X  # (n, T, 2)
    fig, ax = _new_figure((6.0, 4.4))
    plot.convex_hull_picture(X, softmax(scale * scores) @ X, tokens, ax=ax, trails=path, title="out")
    _fit_layout(fig)

    def update(scale: float) -> str:
        weights = softmax(scale * scores)
        out = weights @ X
        plot.update_convex_hull_picture(ax, out, title=f"out = softmax(β · X·Xᵀ) · X at β = {scale:.1f}")
        inside = plot.inside_convex_hull(X, out).all()
        tops = ", ".join(f"{t} {_num(w, '.3f')}" for t, w in zip(tokens, weights.max(axis=1), strict=True))
        return (
            f"β = {_num(scale, '.1f')} · largest weight per row: {tops} · "
            f"all outputs inside the hull: {'yes' if inside else 'NO'}"
        )

    return _blit_lab(controls, fig, update)


__all__ += ["BlitRenderer", "make_convex_hull_lab", "make_dot_product_lab", "make_softmax_scale_lab"]


# ---- Notebooks 04-07: Q/K/V, the d_k lab, the mask lab, the whole formula ---------------------
DK_STEPS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024)
MASK_TYPES = ("none", "padding", "causal", "both")
PAD = "<pad>"


def _lab_figure(figsize: tuple[float, float], dpi: float) -> Figure:
    """A figure outside pyplot (nothing else shows it), on its own Agg canvas, kept for redraws."""
    fig = Figure(figsize=figsize, dpi=dpi)
    FigureCanvasAgg(fig)
    return fig


def _wide(description: str) -> dict[str, Any]:
    """Keyword arguments that give a control a readable description and room for it."""
    return {
        "description": description,
        "style": {"description_width": "initial"},
        "layout": widgets.Layout(width="340px"),
    }


def _blit_render(fig: Figure, extra: list[Any]) -> BlitRenderer:
    from . import plot

    # Texts drawn by a TextStamps layer are hidden templates: nothing to draw for them.
    moving = [a for ax in fig.axes for a in plot.lab_artists(ax) if a.get_visible()]
    return BlitRenderer(moving + [a for a in extra if a.get_visible()])


def make_dk_lab(
    *,
    rng: Any,
    d_k: int = 64,
    scaled: bool = False,
    n_keys: int = 8,
    max_keys: int = 64,
    n_samples: int = 4000,
    n_queries: int = 400,
    dpi: float = 90,
) -> Lab:
    """The d_k lab of notebook 05: how the width of queries and keys changes scores and softmax.

    Random queries and keys have entries of mean 0 and variance 1. Their first d_k features give
    the scores for that d_k (nested vectors: moving the slider adds or removes features of the same
    vectors). Panels: the distribution of q·k (or q·k/√d_k) with its normal curve; the weights of
    one query over ``n_keys`` keys; largest weight, entropy and gradient size (norm of the softmax
    Jacobian, averaged over ``n_queries`` queries) against d_k, with the current setting marked.
    Everything random is drawn once, here; a slider move only looks results up and moves artists.

    Args:
        rng: the ``np.random.Generator`` that draws every random vector.
        d_k, scaled, n_keys: starting values of the three controls.
        max_keys: largest number of keys on the slider.

    Returns:
        The ``Lab``; ``lab.state`` holds the numbers on show (``d_k``, ``scaled``, ``n_keys``,
        ``weights``, ``score_std``, ``sigma``, ``max_weight``, ``entropy``, ``gradient``).
    """

    from . import plot
    from .checks import check_generator, check_positive_int
    from .core import nested_dot_products, softmax, softmax_saturation

    rng = check_generator(rng)
    if d_k not in DK_STEPS:
        raise ValueError(f"d_k must be one of the slider's steps {DK_STEPS}; got {d_k!r}")
    max_keys = check_positive_int(max_keys, "max_keys")
    if not 2 <= check_positive_int(n_keys, "n_keys") <= max_keys:
        raise ValueError(f"n_keys must be between 2 and max_keys={max_keys}; got {n_keys}")
    widths = np.array(DK_STEPS)
    D = int(widths[-1])
    roots = np.sqrt(widths)

    # Compute, once. Histograms: independent pairs (q, k), every width of the same vectors.
    q = rng.standard_normal((n_samples, D), dtype=np.float32)  # float32: 16 MB, plenty for a histogram
    k = rng.standard_normal((n_samples, D), dtype=np.float32)
    pairs = nested_dot_products(q, k, widths)  # (n_samples, n_widths)
    del q, k
    hist, notes = {}, {}
    for i, root in enumerate(roots):
        for is_scaled in (False, True):
            s = pairs[:, i] / root if is_scaled else pairs[:, i]
            sigma = 1.0 if is_scaled else float(root)
            hist[i, is_scaled] = (plot.histogram_heights(s, sigma), float(np.std(s)), sigma)
            law = "1" if is_scaled or widths[i] == 1 else f"√{widths[i]} = {sigma:.3g}"
            notes[i, is_scaled] = f"std of the scores {np.std(s):.2f}\nnormal curve: σ = {law}"
    # One query against max_keys keys, for the row of weights.
    row_scores = nested_dot_products(rng.standard_normal(D), rng.standard_normal((max_keys, D)), widths)
    # Many queries against the same keys, for the curves (averaged over the queries).
    Q, K = rng.standard_normal((n_queries, D)), rng.standard_normal((max_keys, D))
    bank = np.stack([Q[:, :d] @ K[:, :d].T for d in widths])  # (n_widths, n_queries, max_keys)
    curves: dict[int, tuple[np.ndarray, np.ndarray]] = {}

    def curves_for(n: int) -> tuple[np.ndarray, np.ndarray]:
        if n not in curves:
            raw = np.stack(softmax_saturation(bank[:, :, :n])).mean(axis=-1)
            scaled_ = np.stack(softmax_saturation(bank[:, :, :n] / roots[:, None, None])).mean(axis=-1)
            curves[n] = (raw, scaled_)
        return curves[n]

    # Draw.
    fig = _lab_figure((11.0, 6.6), dpi)
    grid = fig.add_gridspec(2, 6, height_ratios=[1.15, 1.0], left=0.065, right=0.985, top=0.88,
                            bottom=0.1, hspace=0.82, wspace=1.1)
    ax_hist, ax_row = fig.add_subplot(grid[0, :3]), fig.add_subplot(grid[0, 3:])
    ax_curves = [fig.add_subplot(grid[1, 2 * k: 2 * k + 2]) for k in range(3)]
    i0 = int(np.flatnonzero(widths == d_k)[0])
    plot.score_histogram(pairs[:, i0], float(roots[i0]), ax=ax_hist, title="distribution of the scores")
    ax_row.set_title("softmax weights of one query", fontsize="medium")
    plot.weights_row(softmax(row_scores[:n_keys, i0]), ax=ax_row, max_keys=max_keys)
    plot.saturation_curves(widths, *curves_for(n_keys), n_keys=n_keys, axes=ax_curves, max_keys=max_keys)
    # The headline in three parts, so a new combination of settings reuses the parts' bitmaps.
    headline = [fig.text(x, 0.965, "", ha=ha, va="center", fontsize="x-large")
                for x, ha in ((0.36, "right"), (0.5, "center"), (0.64, "left"))]
    texts = [t for ax in fig.axes for t in ax.texts if t in plot.lab_artists(ax)] + headline
    stamps = plot.TextStamps(texts)
    fig.add_artist(stamps)
    state: dict[str, Any] = {}

    # Wire.
    controls = {
        "d_k": widgets.SelectionSlider(options=list(DK_STEPS), value=d_k, **_wide("d_k (width of q and k)")),
        "scaled": widgets.ToggleButtons(
            options=[("q·k", False), ("q·k / √d_k", True)], value=scaled, **_wide("scores")
        ),
        "n_keys": widgets.IntSlider(value=n_keys, min=2, max=max_keys, **_wide("number of keys")),
    }
    controls["scaled"].style.button_width = "110px"

    def update(d_k: int, scaled: bool, n_keys: int) -> str:
        i = int(np.flatnonzero(widths == d_k)[0])
        heights, std, sigma = hist[i, scaled]
        plot.update_score_histogram(ax_hist, None, sigma, heights=heights, note=notes[i, scaled])
        weights = softmax(row_scores[:n_keys, i] / (roots[i] if scaled else 1.0))
        plot.update_weights_row(ax_row, weights)
        raw, scl = curves_for(n_keys)
        plot.update_saturation_curves(ax_curves, widths, raw, scl, n_keys=n_keys, current=(d_k, scaled))
        top, ent, grad = (scl if scaled else raw)[:, i]
        kind = "q·k / √d_k" if scaled else "q·k (unscaled)"
        parts = (f"d_k = {d_k}  ·", f"scores {kind}", f"·  {n_keys} keys")
        for text, words in zip(headline, parts, strict=True):
            text.set_text(words)
        state.update(d_k=d_k, scaled=scaled, n_keys=n_keys, weights=weights, score_std=std, sigma=sigma,
                     max_weight=float(top), entropy=float(ent), gradient=float(grad))
        return (
            f"<b>d_k = {d_k}</b>, {kind}: score std <b>{std:.2f}</b> (theory {sigma:.2f}) · "
            f"averaged over {n_queries} queries: largest weight <b>{top:.3f}</b> (uniform {1 / n_keys:.3f}), "
            f"entropy <b>{ent:.3f}</b> nats (uniform {np.log(n_keys):.3f}), "
            f"gradient size <b>{grad:.3f}</b> (uniform {np.sqrt(1 / n_keys - 1 / n_keys**2):.3f})"
        )

    # Render the texts of every (d_k, scaling) ahead: dragging d_k then never waits for a new text.
    note = next(t for t in ax_hist.texts if t in plot.lab_artists(ax_hist))
    stamps.warm(note, [(text, note.get_color()) for text in notes.values()], dpi)
    stamps.warm(headline[0], [(f"d_k = {d}  ·", headline[0].get_color()) for d in DK_STEPS], dpi)
    lab = Lab(controls, fig, update, render=_blit_render(fig, [stamps, *headline]))
    lab.state = state
    return lab


def _batch_scores(X: Any, W_q: Any, W_k: Any) -> Any:
    """Scaled scores of every sentence of a batch, ``(X·W_q)(X·W_k)ᵀ/√d_k``: (B, T, T)."""

    Q, K = X @ W_q, X @ W_k
    return Q @ np.swapaxes(K, -1, -2) / np.sqrt(Q.shape[-1])


def make_mask_lab(
    X: Any,
    tokens: list[list[str]],
    *,
    W_q: Any = None,
    W_k: Any = None,
    mask: str = "both",
    seq_len: int | None = None,
    lengths: list[int] | None = None,
    dpi: float = 80,
) -> Lab:
    """The mask lab of notebook 06: a padded batch, four kinds of mask, scores → masked → weights.

    Sentence b keeps its first ``lengths[b]`` tokens; the rest of its ``seq_len`` positions are
    padding (label "<pad>", embedding all zeros, so its scores are 0 unless masked). Mask types:
    "none"; "padding" (every query ignores the padding keys of its sentence); "causal" (query i
    sees keys 0..i); "both". Each sentence gets one row of three heatmaps.

    Args:
        X: embeddings of the full sentences; tokens: their words.
        W_q, W_k: projections (default: the identity, so the scores are X·Xᵀ/√d_model).
        mask, seq_len, lengths: starting values of the controls (defaults: both, T, T for each).

    Shapes:
        X (B, T, d_model), tokens (B, T), W_q (d_model, d_k), W_k (d_model, d_k), lengths (B,)

    Returns:
        The ``Lab``; ``lab.state`` holds ``mask``, ``seq_len``, ``lengths``, ``tokens``, ``keep``
        (B, T, T), ``scores``, ``weights`` (B, T, T) and ``leak`` (per sentence, the most weight a real
        token puts on padding keys).
    """

    from . import plot
    from .checks import as_float_array, check_finite
    from .core import causal_mask, padding_mask, softmax

    X = as_float_array(X, "X", expected="(B, T, d_model)")
    if X.ndim != 3 or len(tokens) != X.shape[0] or any(len(t) != X.shape[1] for t in tokens):
        raise ValueError(f"X must have shape (B, T, d_model) with B lists of T tokens; got {X.shape}")
    check_finite(X, "X")
    B, T_max, d_model = X.shape
    W_q = np.eye(d_model) if W_q is None else as_float_array(W_q, "W_q", expected="(d_model, d_k)")
    W_k = np.eye(d_model) if W_k is None else as_float_array(W_k, "W_k", expected="(d_model, d_k)")
    if mask not in MASK_TYPES:
        raise ValueError(f"mask must be one of {MASK_TYPES}; got {mask!r}")
    seq_len = T_max if seq_len is None else seq_len
    lengths = [seq_len] * B if lengths is None else list(lengths)
    if not 1 <= seq_len <= T_max or len(lengths) != B or not all(1 <= n <= seq_len for n in lengths):
        raise ValueError(
            f"need 1 <= seq_len <= {T_max} and {B} lengths in 1..seq_len; got {seq_len}, {lengths}"
        )
    # The scores of the full sentences bound every colour scale: padding only puts zeros in.
    vmax = float(np.abs(_batch_scores(X, W_q, W_k)).max()) or 1.0

    # Draw: one row per sentence, scores | masked scores | colour bar | weights | colour bar.
    height = 1.0 + 3.9 * B
    fig = _lab_figure((12.5, height), dpi)
    grid = fig.add_gridspec(B, 6, width_ratios=[1, 1, 0.05, 0.2, 1, 0.05], left=0.105, right=0.925,
                            top=1 - 0.35 / height, bottom=0.65 / height, wspace=0.12, hspace=0.3)
    rows = []
    for b in range(B):
        axes = [fig.add_subplot(grid[b, k]) for k in (0, 1, 4)]
        plot.mask_panels(np.zeros((T_max, T_max)), np.ones((T_max, T_max), bool), [""] * T_max,
                         axes=axes, size=T_max, vmax=vmax, titles=b == 0)
        rows.append(axes)
    fig.colorbar(rows[0][0].collections[0], cax=fig.add_subplot(grid[:, 2])).set_label("score")
    fig.colorbar(rows[0][2].collections[0], cax=fig.add_subplot(grid[:, 5])).set_label("attention weight")
    names = []
    for b in range(B):
        box = rows[b][0].get_position()
        names.append(fig.text(0.012, (box.y0 + box.y1) / 2, "", rotation=90, ha="left", va="center",
                              fontsize="medium"))
    cells = [t for ax in fig.axes for t in ax.texts if t.get_gid() == plot.ANNOT_GID]
    for text in cells:
        text.set_fontsize(9)  # fits "−0.25" in a cell of a T = 8 grid
    labels = [t for ax in fig.axes for t in ax.texts if t in plot.lab_artists(ax)]
    stamps = plot.TextStamps(cells + labels + names)
    fig.add_artist(stamps)
    state: dict[str, Any] = {}

    # Wire.
    controls: dict[str, Any] = {
        "mask": widgets.ToggleButtons(options=list(MASK_TYPES), value=mask, **_wide("mask")),
        "seq_len": widgets.IntSlider(value=seq_len, min=2, max=T_max, **_wide("sequence length T")),
    }
    controls["mask"].style.button_width = "80px"  # room for "padding"
    controls["mask"].layout.width = "auto"
    for b in range(B):
        controls[f"length_{b + 1}"] = widgets.IntSlider(
            value=lengths[b], min=1, max=seq_len, **_wide(f"real tokens in sentence {b + 1}")
        )

    def follow_length(change: Any) -> None:
        # Runs before the lab's own observer of T: a shorter T first shortens the sentences. The lab
        # stops listening to the length sliders meanwhile, so that clamping them does not redraw:
        # it redraws once, for the new T, right after this.
        for b in range(B):
            slider = controls[f"length_{b + 1}"]
            slider.unobserve(lab._on_change, names="value")
            try:
                slider.max = change["new"]
            finally:
                slider.observe(lab._on_change, names="value")

    controls["seq_len"].observe(follow_length, names="value")

    def update(mask: str, seq_len: int, **lengths_: int) -> str:
        T = seq_len
        n_real = [min(lengths_[f"length_{b + 1}"], T) for b in range(B)]
        real = np.arange(T)[None, :] < np.array(n_real)[:, None]  # (B, T)
        Xb = np.where(real[..., None], X[:, :T], 0.0)  # padding embeds as zeros
        words = [[tokens[b][j] if real[b, j] else PAD for j in range(T)] for b in range(B)]
        scores = _batch_scores(Xb, W_q, W_k)
        keep = np.ones((B, T, T), dtype=bool)
        if mask in ("padding", "both"):
            keep &= padding_mask(np.array(n_real), T)
        if mask in ("causal", "both"):
            keep &= causal_mask(T)
        weights = softmax(np.where(keep, scores, -np.inf), axis=-1)
        # Per sentence: the most weight any real query puts on padding keys.
        leak = np.where(real, (weights * ~real[:, None, :]).sum(axis=-1), 0.0).max(axis=-1)
        for b in range(B):
            plot.update_mask_panels(rows[b], scores[b], keep[b], words[b])
            pads = T - n_real[b]
            names[b].set_text(f"sentence {b + 1}: {n_real[b]} real" + (f" + {pads} {PAD}" if pads else ""))
        state.update(mask=mask, seq_len=T, lengths=n_real, tokens=words, keep=keep, scores=scores,
                     weights=weights, leak=leak)
        blocked = int((~keep).sum())
        leaks = ", ".join(f"{x:.3f}" for x in leak)
        return (
            f"mask <b>{mask}</b> · T = {T} · real tokens {n_real} · {blocked} of {keep.size} cells blocked, "
            f"each with weight exactly 0 · every row sums to 1 · most weight a real token puts on "
            f"padding, per sentence: <b>{leaks}</b>"
        )

    # Render every number the cells can show ahead (weights 0.00-1.00, the possible scores), about
    # 0.2 s here, so that a first visit to a setting does not wait for new texts.
    for row in rows:
        for ax, values in ((row[0], np.unique(np.round(_batch_scores(X, W_q, W_k), 2))),
                           (row[2], np.linspace(0.0, 1.0, 101))):
            template = next(t for t in ax.texts if t.get_gid() == plot.ANNOT_GID)
            mesh = ax.collections[0]
            looks = [(plot._format(v, ".2f"), plot._text_colour(mesh.cmap, mesh.norm, v)) for v in values]
            stamps.warm(template, [*looks, ("0", "black"), ("−∞", "#555555")], dpi)
        break  # one row: the other rows share the same bitmaps
    lab = Lab(controls, fig, update, render=_blit_render(fig, [stamps, *names]))
    lab.state = state
    return lab


__all__ += [
    "DK_STEPS",
    "MASK_TYPES",
    "encode_png",
    "make_dk_lab",
    "make_mask_lab",
]
