"""The RoPE lab of notebook 10: turn one pair of a query and of a key by their positions, watch the score.

Taught in: 10 §6. RoPE turns pair p of the query at position i by ``θ = i·ω_p`` and pair p of the key
at position j by ``j·ω_p``, with ``ω_p = base^(−2p/d_k)``; the angle between the two turned pairs is
their angle before plus ``(i − j)·ω_p``, so each pair's part of the score, and the score, depends on the
positions only through i − j. Move i and j by the same step: both arrows turn, the angle between them
and the score stay.

Every number comes from ``attnlib.core.positions`` (``apply_rope``, ``rope_angles``, ``rope_scores``)
for all 64 × 64 positions at once; the page looks each setting's numbers up and draws them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import plot
from ..checks import check_choice, check_number, check_positive_int, check_shape, refuse
from ..core import apply_rope, rope_angles, rope_scores
from ..i18n import N_, tr
from ..validation import as_float_array, check_finite
from .base import Lab, slider

MAX_POSITION = 63  # the sliders' last position: positions 0 .. 63
MAX_D_K = 16  # at most 8 pairs: one bar each fits a phone's column
Q_COLOUR, K_COLOUR, PAIR_COLOUR = plot.token_colour(0), plot.token_colour(1), "#2a9d54"

READOUT = N_("i = {i}, j = {j}: i − j = <b>{offset:.0f}</b> · score q′·k′ = <b>{score:.3f}</b>")
# What the picture writes (the page fills them with the numbers of the setting; so does the snapshot).
TEXTS = {
    "title": N_("pair p = {p}: dimensions {a} and {b}"),
    "omega": N_("ω = {base}^(−2·{p}/{d_k}) = {omega}"),
    "turn_q": N_("q turns by i·ω = {i} × {omega} = {theta}"),
    "turn_k": N_("k turns by j·ω = {j} × {omega} = {theta}"),
    "between": N_("angle from k′ to q′ = {angle}"),
    "pair": N_("this pair's part of q′·k′: {dot}"),
    "before": N_("before"),
    "after": N_("turned"),
    "radians": N_("angles in radians"),
    "bars": N_("the score, pair by pair"),
    "row": N_("pair {p}"),
    "score": N_("score"),
}


def _default_pairs(d_k: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit pairs, each query pair at its own angle and each key pair 60° ahead of it: at i = j every pair
    gives cos 60° = 0.5 to the score."""
    a = np.pi / 6 + np.arange(d_k // 2) * np.pi / 8  # (d_k/2,): the query pairs' angles
    b = a + np.pi / 3
    return (np.stack([np.cos(a), np.sin(a)], axis=-1).reshape(d_k),
            np.stack([np.cos(b), np.sin(b)], axis=-1).reshape(d_k))


def _written(base: float) -> str:
    """The base as the picture writes it: 10000, not 10000.0."""
    return plot.number(base, 0) if float(base).is_integer() else f"{base:g}"


def _vector(value: Any, name: str, d_k: int) -> np.ndarray:
    v = as_float_array(value, name, expected="(d_k,)")
    check_shape(v.shape == (d_k,), name, expected=f"(d_k,) = ({d_k},)", got=v.shape)
    check_finite(v, name)
    return v.astype(np.float64)


def make_rope_lab(
    d_k: int = 8, base: float = 10000.0, query: Any = None, key: Any = None, *, i: int = 5, j: int = 2,
    p: int = 0,
) -> Lab:
    """Lab for notebook 10: the query's position i, the key's position j (0-63) and the pair p.

    Parameters
    ----------
    d_k : int
        The width of the query and key: even, 2 to 16 (d_k/2 pairs, one frequency each).
    base : float
        The base of the frequencies ``ω_p = base^(−2p/d_k)``, > 1 (10000 in RoFormer).
    query, key : array_like, optional
        The query q and key k before rotation; by default unit pairs, each key pair 60° ahead of its
        query pair (at i = j every pair gives 0.5, the score d_k/4).
    i, j, p : int
        The starting setting.

    Shapes
    ------
    query (d_k,), key (d_k,) -> the frame's ``contributions`` (d_k/2,), its ``score`` ()

    Returns
    -------
    Lab
        ``lab.state`` holds pair p before (``q_pair``, ``k_pair``) and after rotation (``q_rot``, ``k_rot``),
        the angles ``theta_q = i·ω_p`` and ``theta_k = j·ω_p``, ``between`` (from the turned k to the turned
        q, in (−π, π]), ``pair_dot`` (the pair's part of the score), ``contributions`` (every pair's) and
        ``score`` = ``rope_scores`` of q at i and k at j.

    Taught in: 10 §6
    """
    d_k = check_positive_int(d_k, "d_k")
    if d_k % 2 or d_k > MAX_D_K:
        refuse(ValueError, N_("d_k must be even and at most {most} (one picture per pair); got {d_k}"),
               most=MAX_D_K, d_k=d_k)
    base = check_number(base, "base", low=1.0)
    q_default, k_default = _default_pairs(d_k)
    q = q_default if query is None else _vector(query, "query", d_k)
    k = k_default if key is None else _vector(key, "key", d_k)
    if not (q.any() and k.any()):
        refuse(ValueError, N_("query and key must each have a non-zero entry: a zero vector has no direction "
                              "to turn"))
    n_pairs = d_k // 2
    controls = [
        slider("i", tr("query position i"), 0, MAX_POSITION, 1),
        slider("j", tr("key position j"), 0, MAX_POSITION, 1),
        slider("p", tr("pair p (frequency ω)"), 0, n_pairs - 1, 1),
    ]
    check_choice(i, "i", controls[0].options)
    check_choice(j, "j", controls[1].options)
    check_choice(p, "p", controls[2].options)

    # Every position at once: q and k at each position t = 0 .. 63, turned by RoPE.
    t = np.arange(MAX_POSITION + 1, dtype=np.float64)
    Q = apply_rope(np.tile(q, (t.size, 1)), t, base)  # (64, d_k): row i is R(i)·q
    K = apply_rope(np.tile(k, (t.size, 1)), t, base)  # (64, d_k): row j is R(j)·k
    S = rope_scores(np.tile(q, (t.size, 1)), np.tile(k, (t.size, 1)), t, t, base)  # (64, 64): S[i, j]
    theta = rope_angles(t, d_k, base)  # (64, d_k/2): θ_{t,p} = t·ω_p
    omega = rope_angles([1.0], d_k, base)[0]  # (d_k/2,): ω_p
    q_pairs, k_pairs = Q.reshape(t.size, n_pairs, 2), K.reshape(t.size, n_pairs, 2)  # (64, d_k/2, 2)
    parts = np.einsum("ipc,jpc->ijp", q_pairs, k_pairs)  # (64, 64, d_k/2): each pair's q′·k′
    cross = (k_pairs[None, :, :, 0] * q_pairs[:, None, :, 1]
             - k_pairs[None, :, :, 1] * q_pairs[:, None, :, 0])  # (64, 64, d_k/2): k′ × q′
    between = np.arctan2(cross, parts)  # the signed angle from k′ to q′, in (−π, π]
    k_dir = np.arctan2(k_pairs[..., 1], k_pairs[..., 0])  # (64, d_k/2): where k′ points
    turn = np.mod(theta, 2 * np.pi)  # (64, d_k/2): the turn less whole turns (what an arc can show)
    q0, k0 = q.reshape(n_pairs, 2), k.reshape(n_pairs, 2)
    phi_q, phi_k = np.arctan2(q0[:, 1], q0[:, 0]), np.arctan2(k0[:, 1], k0[:, 0])
    norms = np.stack([np.linalg.norm(q0, axis=1), np.linalg.norm(k0, axis=1)], axis=1)  # (d_k/2, 2)

    def frame(i: int, j: int, p: int) -> dict:
        score = float(S[i, j])
        return {
            "q_pair": q0[p], "k_pair": k0[p], "norms": norms[p], "phi_q": float(phi_q[p]),
            "phi_k": float(phi_k[p]), "omega": float(omega[p]), "dims": [2 * p, 2 * p + 1],
            "q_rot": q_pairs[i, p], "theta_q": float(theta[i, p]), "turn_q": float(turn[i, p]),
            "k_rot": k_pairs[j, p], "theta_k": float(theta[j, p]), "turn_k": float(turn[j, p]),
            "k_dir": float(k_dir[j, p]),
            "pair_dot": float(parts[i, j, p]), "between": float(between[i, j, p]),
            "contributions": parts[i, j], "score": score,
            "fields": {"i": i, "j": j, "offset": i - j, "score": score},
        }

    texts = {name: tr(words) for name, words in TEXTS.items()}
    extent = float(norms.max())  # the longest pair: the circle's radius
    bound = float(norms.prod(axis=1).sum())  # |score| <= Σ_p |q_p|·|k_p|: the bars' scale

    def snapshot(i: int, j: int, p: int) -> Figure:
        return _picture(frame(i, j, p), i, j, p, texts, base=base, d_k=d_k, extent=extent, bound=bound)

    data = {
        "d_k": d_k, "base": _written(base),
        "extent": extent, "bound": bound, "texts": texts, "norms": norms,  # norms[p]: |q_p|, |k_p|
        "colours": {"q": Q_COLOUR, "k": K_COLOUR, "pair": PAIR_COLOUR},
    }
    by_pair, by_i, by_j = ("p",), ("i", "p"), ("j", "p")
    page_parts = {
        "q_pair": by_pair, "k_pair": by_pair, "phi_q": by_pair, "phi_k": by_pair,
        "omega": by_pair, "dims": by_pair,
        "q_rot": by_i, "theta_q": by_i, "turn_q": by_i,
        "k_rot": by_j, "theta_k": by_j, "turn_k": by_j, "k_dir": by_j,
        "pair_dot": None, "between": None,
        "fields.i": ("i",), "fields.j": ("j",), "fields.offset": ("i", "j"), "fields.score": ("i", "j"),
    }
    return Lab("rope", controls, {"i": i, "j": j, "p": p}, data, frame=frame, readout=tr(READOUT),
               snapshot=snapshot, page_parts=page_parts)


def lines(f: dict, i: int, j: int, p: int, texts: dict, *, base: str, d_k: int) -> dict[str, str]:
    """The picture's sentences at one setting, numbers written as the page writes them (rope.js
    ``lines`` is its twin, filling the same templates from the same frame).

    Shapes: f a frame of :func:`make_rope_lab` -> {name: text}
    """
    omega = plot.number(f["omega"], 4)
    return {
        "title": texts["title"].format(p=p, a=f["dims"][0], b=f["dims"][1]),
        "omega": texts["omega"].format(base=base, p=p, d_k=d_k, omega=omega),
        "turn_q": texts["turn_q"].format(i=i, omega=omega, theta=plot.number(f["theta_q"], 3)),
        "turn_k": texts["turn_k"].format(j=j, omega=omega, theta=plot.number(f["theta_k"], 3)),
        "between": texts["between"].format(angle=plot.number(f["between"], 3)),
        "pair": texts["pair"].format(dot=plot.number(f["pair_dot"], 3)),
    }


def _arc(ax: Any, start: float, sweep: float, radius: float, **style: Any) -> None:
    a = start + np.linspace(0.0, sweep, 64)
    ax.plot(radius * np.cos(a), radius * np.sin(a), **style)


def _picture(f: dict, i: int, j: int, p: int, texts: dict, *, base: float, d_k: int, extent: float,
             bound: float) -> Figure:
    """The lab's picture with matplotlib: pair p on its circle (left), the sentences and the score pair by
    pair (right)."""
    fig = plot.new_figure((10.0, 4.6))
    grid = fig.add_gridspec(2, 2, width_ratios=[1.0, 1.15], height_ratios=[1.0, 1.25])
    ax = fig.add_subplot(grid[:, 0])
    said = lines(f, i, j, p, texts, base=_written(base), d_k=d_k)
    small = plot.text_size(fig)
    lim = 1.12 * extent
    ax.set_xlim(-lim, lim)
    ax.set_ylim(-lim, lim)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.axhline(0, color="#dddddd", lw=0.8)
    ax.axvline(0, color="#dddddd", lw=0.8)
    for r in f["norms"]:
        _arc(ax, 0.0, 2 * np.pi, r, color="#cccccc", lw=0.8)
    for before, after, colour in ((f["q_pair"], f["q_rot"], Q_COLOUR), (f["k_pair"], f["k_rot"], K_COLOUR)):
        ax.plot([0, before[0]], [0, before[1]], color=colour, lw=2, ls="--", alpha=0.45)
        ax.annotate("", xy=tuple(after), xytext=(0, 0),
                    arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 2.5, "mutation_scale": 16})
    _arc(ax, f["phi_q"], f["turn_q"], 0.30 * extent, color=Q_COLOUR, lw=1.5)
    _arc(ax, f["phi_k"], f["turn_k"], 0.42 * extent, color=K_COLOUR, lw=1.5)
    _arc(ax, f["k_dir"], f["between"], 0.72 * extent, color=PAIR_COLOUR, lw=3)
    ax.set_title(said["title"])
    ax.plot([], [], color="#555555", ls="--", alpha=0.6, label=texts["before"])
    ax.plot([], [], color="#555555", lw=2.5, label=texts["after"])
    ax.legend(loc="lower left", bbox_to_anchor=(-0.02, -0.08), frameon=False, fontsize=small, ncols=2,
              title=texts["radians"], title_fontsize=small)

    top = fig.add_subplot(grid[0, 1])
    top.axis("off")
    colours = {"omega": "#222222", "turn_q": Q_COLOUR, "turn_k": K_COLOUR, "between": PAIR_COLOUR,
               "pair": PAIR_COLOUR}
    for row, (name, colour) in enumerate(colours.items()):
        top.text(0.0, 1.0 - row * 0.22, said[name], color=colour, transform=top.transAxes, va="top")

    bars = fig.add_subplot(grid[1, 1])
    values = [*f["contributions"], f["score"]]
    names = [texts["row"].format(p=k) for k in range(len(f["contributions"]))] + [texts["score"]]
    shades = ["#bbbbbb"] * len(f["contributions"]) + ["#333333"]
    shades[p] = PAIR_COLOUR
    y = np.arange(len(values))
    bars.barh(y, values, color=shades, height=0.7)
    bars.axvline(0, color="#888888", lw=0.8)
    bars.set_yticks(y, names)
    bars.invert_yaxis()
    bars.set_xlim(-bound, bound)
    bars.set_title(texts["bars"], fontsize=small)
    for row, value in zip(y, values, strict=True):
        bars.text(1.02, row, plot.number(value, 3), transform=bars.get_yaxis_transform(), va="center",
                  fontsize=small)
    plot.legible_ticks(bars)
    fig.tight_layout()
    return fig
