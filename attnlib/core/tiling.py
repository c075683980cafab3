"""Attention in tiles: the same formula, ``softmax(Q·Kᵀ/√d_k + M)·V``, without ever holding the T×T matrix.

Two ideas, each a few lines of numpy behind a public function that checks its inputs:

* **online softmax** (Milakov & Gimelshein 2018): the row maximum m and the sum l = Σ e^{x − m} of 02's
  max trick are kept *running*, one block of entries at a time. When a block raises the maximum from
  m_old to m_new, every term already summed was e^{x − m_old} and should have been e^{x − m_new}; they
  all differ by the same factor e^{m_old − m_new}, so the sum is corrected with one multiplication:
  ``l ← l·e^{m_old − m_new} + Σ_block e^{x − m_new}``. The correction is exact (e^{a−b}·e^{b−c} = e^{a−c}),
  so the result is softmax itself, up to rounding (:func:`online_softmax`, :func:`online_softmax_trace`);
* **tiled attention** (FlashAttention, Dao et al. 2022): queries in blocks of ``block_q`` rows, keys and
  values in blocks of ``block_k`` rows; each query row keeps its running m and l and an unnormalised
  output ``acc = Σ_j e^{s_j − m}·v_j``, rescaled by the same factor when m grows, and divides by l at the
  end. A tile whose entries are all blocked by the mask is never computed (:func:`tile_kinds`): under the
  causal mask that is about half of them. :func:`tiled_attention` gives the output,
  :func:`tiled_attention_steps` the state after every tile (the notebook's lab).

The loops run query blocks outside and key blocks inside, the order of FlashAttention-2 (Dao 2023);
FlashAttention's own Algorithm 1 runs them the other way round, with the same result. numpy shows the
algorithm, not its speed: on a GPU the tile lives in fast on-chip memory (SRAM) and the whole loop is one
fused kernel, so the T×T matrix never travels to the slow memory (HBM). :func:`attention_memory` and
:func:`attention_io` count what that saves.

Taught in: 11
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..checks import check_positive_int, refuse
from ..i18n import N_
from ..validation import as_float_array, check_attention_inputs, check_finite, check_row_maxima, first_index
from .formula import _keep
from .masks import _boolean

__all__ = [
    "TileStep",
    "attention_io",
    "attention_memory",
    "online_softmax",
    "online_softmax_trace",
    "tile_kinds",
    "tiled_attention",
    "tiled_attention_steps",
]

SKIPPED, PARTIAL, FULL = 0, 1, 2  # the kinds of a tile, as tile_kinds returns them


# ---- the kernels: the formulas, on checked arrays ------------------------------------------------


def _blocks(n: int, size: int) -> list[slice]:
    """The slices of 0..n−1 in blocks of `size`; the last one shorter when `size` does not divide n."""
    return [slice(start, min(start + size, n)) for start in range(0, n, size)]


def _update(m: np.ndarray, l: np.ndarray, s: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One block of the running statistics: the new m and l, the factor e^{m_old − m_new} and e^{s − m_new}.

    A row that has seen only −inf so far keeps m = −inf, l = 0 and a factor of 0: nothing to rescale,
    and no −inf − (−inf) = NaN (its m is replaced by 0 where it is subtracted).
    """
    m_new = np.maximum(m, s.max(axis=-1))  # (...,): the largest entry so far
    shift = np.where(np.isneginf(m_new), 0, m_new)  # (...,): m_new, or 0 while nothing is visible
    alpha = np.exp(m - shift)  # (...,): e^{m_old − m_new}, 0 while m_old = −inf
    p = np.exp(s - shift[..., None])  # (..., block): e^{s − m_new}, 0 where blocked
    return m_new, alpha * l + p.sum(axis=-1), alpha, p


def _online(x: np.ndarray, block_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The running max and sum after each block of the last axis: m, l (..., n_blocks)."""
    m = np.full(x.shape[:-1], -np.inf, dtype=x.dtype)  # (...,): no entry seen yet
    l = np.zeros(x.shape[:-1], dtype=x.dtype)  # (...,)
    ms, ls = [], []
    with np.errstate(over="ignore"):  # float16: x − m may overflow to −inf, which is weight 0
        for block in _blocks(x.shape[-1], block_size):
            m, l, _, _ = _update(m, l, x[..., block])
            ms.append(m)
            ls.append(l)
    return np.stack(ms, axis=-1), np.stack(ls, axis=-1)


def _tiled(Q: np.ndarray, K: np.ndarray, V: np.ndarray, keep: np.ndarray | None, block_q: int, block_k: int,
           scale: bool, record: list | None = None) -> np.ndarray:
    """FlashAttention's forward pass on checked arrays: out (..., T_q, d_v); each tile's state in `record`."""
    dtype = np.result_type(Q, K, V)
    T_q, T_k, d_v = Q.shape[-2], K.shape[-2], V.shape[-1]
    batch = np.broadcast_shapes(Q.shape[:-2], K.shape[:-2], V.shape[:-2])
    m = np.full((*batch, T_q), -np.inf, dtype=dtype)  # (..., T_q): running max of each query row
    l = np.zeros((*batch, T_q), dtype=dtype)  # (..., T_q): running sum of e^{s − m}
    acc = np.zeros((*batch, T_q, d_v), dtype=dtype)  # (..., T_q, d_v): Σ e^{s − m}·v, not yet divided by l
    if keep is not None:  # a (B, 1, T_k) padding mask, say, gets its rows: a tile slices them
        keep = np.broadcast_to(keep, (*keep.shape[:-2], T_q, T_k))
    kinds = _kinds(keep, T_q, T_k, block_q, block_k)
    root = math.sqrt(Q.shape[-1])
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is reported by name below
        for a, rows in enumerate(_blocks(T_q, block_q)):
            for b, cols in enumerate(_blocks(T_k, block_k)):
                if kinds[a, b] != SKIPPED:  # a tile the mask blocks entirely is never computed
                    s = Q[..., rows, :] @ np.swapaxes(K[..., cols, :], -1, -2)  # (..., block_q, block_k)
                    if scale:
                        s /= root
                    if kinds[a, b] == PARTIAL:
                        s = np.where(keep[..., rows, cols], s, -np.inf)  # + M, inside this tile only
                    m[..., rows], l[..., rows], alpha, p = _update(m[..., rows], l[..., rows], s)
                    acc[..., rows, :] = alpha[..., None] * acc[..., rows, :] + p @ V[..., cols, :]
                if record is not None:
                    record.append(_step(a, b, kinds[a, b], m, l, acc))
    check_row_maxima(m[..., None])  # a finite row max, as in attention: Q·Kᵀ did not overflow
    return acc / l[..., None]  # (..., T_q, d_v): every row divided by its sum once, at the end


def _kinds(keep: np.ndarray | None, T_q: int, T_k: int, block_q: int, block_k: int) -> np.ndarray:
    """tile_kinds on checked values; a mask with batch axes counts a tile as blocked only where every
    batch entry blocks it, and as full only where none does."""
    rows, cols = _blocks(T_q, block_q), _blocks(T_k, block_k)
    kinds = np.full((len(rows), len(cols)), FULL, dtype=np.int64)
    if keep is None:
        return kinds
    keep = np.broadcast_to(keep, (*keep.shape[:-2], T_q, T_k))
    for a, r in enumerate(rows):
        for b, c in enumerate(cols):
            tile = keep[..., r, c]
            kinds[a, b] = FULL if tile.all() else PARTIAL if tile.any() else SKIPPED
    return kinds


def _step(a: int, b: int, kind: int, m: np.ndarray, l: np.ndarray, acc: np.ndarray) -> TileStep:
    out = np.divide(acc, l[..., None], out=np.zeros_like(acc), where=l[..., None] > 0)
    return TileStep(q_block=a, k_block=b, kind=int(kind), m=m.copy(), l=l.copy(), out=out)


# ---- checks shared by the public functions -------------------------------------------------------


def _block(value: Any, name: str) -> int:
    return check_positive_int(value, name, symbol=N_("block size"))


def _scores_like(x: Any) -> np.ndarray:
    """x as softmax takes it: real numbers, at least one axis, entries along the last, no NaN or +inf,
    no row that is entirely −inf."""
    x = as_float_array(x, "x", expected="(..., n)")
    if x.ndim == 0:
        refuse(ValueError, N_("x must have at least 1 axis (a vector of scores); got a single number"))
    if x.shape[-1] == 0:
        refuse(ValueError, N_("x has no entries along axis {axis} (shape {shape}): nothing to normalise"),
               axis=x.ndim - 1, shape=x.shape)
    check_finite(x, "x", allow_neg_inf=True)
    dead = np.isneginf(x).all(axis=-1)
    if dead.any():
        refuse(ValueError, N_("x has a slice along axis {axis} that is entirely -inf (at index {index}): "
                              "every position is masked, so the weights would be 0/0. Leave at least one "
                              "unmasked."), axis=x.ndim - 1, index=first_index(dead) if dead.ndim else ())
    return x


def _sizes(T: Any, d: Any, bytes_per_value: Any) -> tuple[int, int, int]:
    return (check_positive_int(T, "T", symbol=N_("sequence length")),
            check_positive_int(d, "d", symbol=N_("width of a head")),
            check_positive_int(bytes_per_value, "bytes_per_value"))


# ---- online softmax ------------------------------------------------------------------------------


def online_softmax(x: Any, block_size: Any) -> np.ndarray:
    """Softmax over the last axis, computed one block of entries at a time with a running max and sum.

    One pass over the blocks keeps, for each row, the largest entry so far m (starting at −∞) and the sum
    l of e^{x − m} so far; after each block ``m_new = max(m, max(block))`` and
    ``l ← l·e^{m − m_new} + Σ_block e^{x − m_new}``. The factor e^{m − m_new} moves every term already
    summed from the old maximum to the new one at once, exactly. Then ``weights = e^{x − m}/l`` with the
    final m and l: the same numbers as :func:`attnlib.softmax`, up to rounding. Entries of ``-inf``
    (masked) get weight 0; a block that holds only ``-inf`` changes nothing.

    Parameters
    ----------
    x : array_like
        Scores; ``-inf`` means masked.
    block_size : int
        Entries per block; the last block is shorter when it does not divide n. A block as long as the
        row is the plain max trick of 02.

    Returns
    -------
    weights : ndarray
        The dtype of a float input is kept; every row sums to 1.

    Raises
    ------
    TypeError
        Non-numeric x, or a block size that is not a whole number.
    ValueError
        x with no axis or an empty last axis, NaN or ``+inf``, a row that is entirely ``-inf``, or a
        block size below 1.

    Shapes:
        x (..., n), block_size -> weights (..., n)

    Taught in: 11 §2
    """
    x = _scores_like(x)
    m, l = _online(x, _block(block_size, "block_size"))
    with np.errstate(over="ignore"):
        return np.exp(x - m[..., -1:]) / l[..., -1:]  # (..., n): the final m and l, one division per row


def online_softmax_trace(x: Any, block_size: Any) -> tuple[np.ndarray, np.ndarray]:
    """The running max m and sum l of :func:`online_softmax` after each block: the state, block by block.

    After block k, ``m[..., k]`` is the largest entry of blocks 0..k and ``l[..., k]`` is
    ``Σ e^{x − m[..., k]}`` over those blocks. The last column gives the softmax:
    ``weights = e^{x − m[..., -1]} / l[..., -1]``. While a row has seen only ``-inf``, m is ``-inf`` and
    l is 0.

    Parameters
    ----------
    x : array_like
        Scores; ``-inf`` means masked.
    block_size : int
        Entries per block; the last block is shorter when it does not divide n.

    Returns
    -------
    m : ndarray
        The running maximum after each block; never decreases along the last axis.
    l : ndarray
        The running sum after each block, relative to that block's m.

    Raises
    ------
    TypeError, ValueError
        As for :func:`online_softmax`.

    Shapes:
        x (..., n), block_size -> m (..., n_blocks), l (..., n_blocks), n_blocks = ⌈n / block_size⌉

    Taught in: 11 §2
    """
    x = _scores_like(x)
    return _online(x, _block(block_size, "block_size"))


# ---- tiled attention -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TileStep:
    """The state of tiled attention after one tile, as :func:`tiled_attention_steps` records it.

    Parameters
    ----------
    q_block, k_block : int
        The tile: query block ``q_block`` (rows ``q_block·block_q`` onwards) against key block ``k_block``.
    kind : int
        0 skipped (every entry blocked: nothing computed, the state unchanged), 1 partial (the mask applied
        inside the tile), 2 full (no entry blocked).
    m : ndarray
        The running maximum of every query row; ``-inf`` for a row that has seen no key yet.
    l : ndarray
        The running sum of e^{s − m} of every query row; 0 for a row that has seen no key yet.
    out : ndarray
        The output so far, ``acc / l`` (0 for a row with l = 0); equal to the attention output after the
        last key block of the row's query block.

    Shapes:
        m (T_q,), l (T_q,), out (T_q, d_v)

    What :func:`tiled_attention_steps` returns, one per tile; the tiling lab draws them.
    """

    q_block: int
    k_block: int
    kind: int
    m: np.ndarray
    l: np.ndarray  # noqa: E741 (the paper's symbol)
    out: np.ndarray


def tile_kinds(keep: Any, block_q: Any, block_k: Any, *, shape: Any = None) -> np.ndarray:
    """Which tiles of the T_q × T_k scores tiled attention computes: skipped, partial or full.

    The scores are cut into tiles of ``block_q`` query rows and ``block_k`` key columns (the last row and
    column of tiles shorter when the block does not divide T). A tile whose every entry the mask blocks is
    **skipped** (0): its weights are all 0, so it is never computed. A tile with some entries blocked is
    **partial** (1): the mask is applied inside it. A tile with none blocked is **full** (2). Under the
    causal mask the tiles above the diagonal are skipped: about half.

    Parameters
    ----------
    keep : array_like of bool or None
        True where query i may see key j. Leading batch axes are allowed: a tile is then skipped only
        where every batch entry blocks it, and full only where none does. None: no mask, every tile full
        (give `shape`).
    block_q, block_k : int
        Query rows and key columns per tile.
    shape : tuple of int, optional
        ``(T_q, T_k)``, needed when `keep` is None.

    Returns
    -------
    kinds : ndarray of int64
        0 skipped, 1 partial, 2 full.

    Raises
    ------
    TypeError
        A mask that is not boolean, block sizes or a shape that are not whole numbers.
    ValueError
        A mask with fewer than 2 axes or no entries, block sizes below 1, no shape with ``keep=None``.

    Shapes:
        keep (..., T_q, T_k), block_q, block_k -> kinds (⌈T_q/block_q⌉, ⌈T_k/block_k⌉)

    Taught in: 11 §3
    """
    block_q, block_k = _block(block_q, "block_q"), _block(block_k, "block_k")
    if keep is None:
        if shape is None or np.ndim(shape) != 1 or len(shape) != 2:
            refuse(ValueError, N_("with keep=None, give shape=(T_q, T_k), the size of the scores; got "
                                  "shape={shape!r}"), shape=shape)
        T_q = check_positive_int(shape[0], "T_q", symbol=N_("number of queries"))
        T_k = check_positive_int(shape[1], "T_k", symbol=N_("number of keys"))
        return _kinds(None, T_q, T_k, block_q, block_k)
    keep = _boolean(keep, "keep")
    if keep.ndim < 2 or keep.shape[-1] == 0 or keep.shape[-2] == 0:
        refuse(ValueError, N_("{name} must have shape {expected}; got {got}"), name="keep",
               expected="(..., T_q, T_k)", got=keep.shape)
    return _kinds(keep, keep.shape[-2], keep.shape[-1], block_q, block_k)


def tiled_attention(Q: Any, K: Any, V: Any, mask: Any = None, *, block_q: Any = 16, block_k: Any = 16,
                    scale: bool = True) -> np.ndarray:
    """Attention computed tile by tile (FlashAttention's forward pass): the output of ``attnlib.attention``.

    For each block of ``block_q`` queries, and inside it each block of ``block_k`` keys and values:
    ``S = Q_i·K_jᵀ/√d_k`` (+ M inside a partial tile), then for every query row
    ``m_new = max(m, rowmax S)``, ``α = e^{m − m_new}``, ``l ← α·l + Σ e^{S − m_new}`` and
    ``acc ← α·acc + e^{S − m_new}·V_j``; after the last key block, ``out = acc / l``. Only one tile of
    scores exists at a time; the T_q × T_k weights are never formed (so none are returned). Tiles that the
    mask blocks entirely are skipped (:func:`tile_kinds`); a row blocked in one tile but not in the whole
    row keeps m = −∞ until its first visible key, with no NaN.

    Parameters
    ----------
    Q, K, V, mask, scale
        As for :func:`attnlib.attention`.
    block_q : int
        Query rows per tile (B_r in Dao et al.).
    block_k : int
        Key and value rows per tile (B_c in Dao et al.). Neither block size needs to divide T.

    Returns
    -------
    out : ndarray
        Equal to ``attention(Q, K, V, mask)[0]`` up to rounding; the dtype of the inputs (float32 stays
        float32).

    Raises
    ------
    TypeError
        Non-numeric input, a mask that is neither boolean nor float, block sizes not whole numbers.
    ValueError
        As for :func:`attnlib.attention` (shapes that do not fit, NaN or inf, a query row with every key
        masked, scores that overflow), or block sizes below 1.

    Shapes:
        Q (..., T_q, d_k), K (..., T_k, d_k), V (..., T_k, d_v), mask (..., T_q, T_k) -> out (..., T_q, d_v)

    Taught in: 11 §3
    """
    Q, K, V = check_attention_inputs(Q, K, V)
    keep = _keep(mask, Q, K)
    return _tiled(Q, K, V, keep, _block(block_q, "block_q"), _block(block_k, "block_k"), scale)


def tiled_attention_steps(Q: Any, K: Any, V: Any, mask: Any = None, *, block_q: Any, block_k: Any,
                          scale: bool = True) -> list[TileStep]:
    """Tiled attention one tile at a time: the state of every query row after each tile, in order.

    One :class:`TileStep` per tile, query blocks outside and key blocks inside, skipped tiles included
    (kind 0, the state unchanged) so that a figure can show them. Rows of a query block not yet reached
    have m = −∞, l = 0 and output 0; after the last tile of its query block a row's output is the
    attention output.

    Parameters
    ----------
    Q, K, V, mask, scale
        As for :func:`tiled_attention`, without batch axes.
    block_q, block_k : int
        Query rows and key rows per tile.

    Returns
    -------
    steps : list of TileStep
        ⌈T_q/block_q⌉ · ⌈T_k/block_k⌉ steps; the last one's ``out`` equals :func:`tiled_attention`'s.

    Raises
    ------
    TypeError, ValueError
        As for :func:`tiled_attention`; also inputs with batch axes.

    Shapes:
        Q (T_q, d_k), K (T_k, d_k), V (T_k, d_v), mask (T_q, T_k)
        -> steps, each with m (T_q,), l (T_q,), out (T_q, d_v)

    Taught in: 11 §3
    """
    for arr, name, expected in ((Q, "Q", "(T_q, d_k)"), (K, "K", "(T_k, d_k)"), (V, "V", "(T_k, d_v)")):
        if np.ndim(arr) != 2:
            refuse(ValueError, N_("{name} must have shape {expected}; got {got}"), name=name,
                   expected=expected, got=np.shape(arr))
    Q, K, V = check_attention_inputs(Q, K, V)
    keep = _keep(mask, Q, K)
    steps: list[TileStep] = []
    _tiled(Q, K, V, keep, _block(block_q, "block_q"), _block(block_k, "block_k"), scale, record=steps)
    return steps


# ---- what it costs: memory and traffic -----------------------------------------------------------


def attention_memory(T: Any, d: Any, *, block_q: Any, block_k: Any, bytes_per_value: Any = 4
                     ) -> dict[str, int]:
    """The working memory of one head's attention, in bytes: the T×T matrix against one tile.

    What is counted (Q, K, V and the output, which both ways read or write whole, are not):

    * ``"standard"``: the largest intermediate of the textbook formula, the T×T matrix of scores,
      ``T²`` values. attnlib turns the scores into the weights in place; a computation that keeps both
      (Dao et al.'s Algorithm 0 writes S, then P) holds twice as much.
    * ``"tiled"``: what one step of :func:`tiled_attention` holds: the tile of scores
      (``b_q·b_k``), its query block (``b_q·d``), its key and value blocks (``2·b_k·d``), the unnormalised
      output of its query rows (``b_q·d``), and their running m and l (``2·b_q``), with
      ``b_q = min(block_q, T)`` and ``b_k = min(block_k, T)``. It does not grow with T.

    Parameters
    ----------
    T : int
        The number of tokens (T_q = T_k = T).
    d : int
        The width of a head (d_k = d_v = d).
    block_q, block_k : int
        Query and key rows per tile.
    bytes_per_value : int
        4 for float32, 2 for float16 or bfloat16.

    Returns
    -------
    dict
        ``{"standard": T²·bytes, "tiled": (b_q·b_k + 2·b_q·d + 2·b_k·d + 2·b_q)·bytes}``.

    Raises
    ------
    TypeError
        A size that is not a whole number.
    ValueError
        A size below 1.

    Shapes:
        T, d, block_q, block_k, bytes_per_value -> {"standard": int, "tiled": int}

    Taught in: 11 §4
    """
    T, d, size = _sizes(T, d, bytes_per_value)
    b_q, b_k = min(_block(block_q, "block_q"), T), min(_block(block_k, "block_k"), T)
    tile = b_q * b_k + 2 * b_q * d + 2 * b_k * d + 2 * b_q
    return {"standard": T * T * size, "tiled": tile * size}


def attention_io(T: Any, d: Any, sram_bytes: Any, *, bytes_per_value: Any = 2) -> dict[str, int]:
    """Bytes moved between the slow memory (HBM) and the fast one (SRAM) by one head's attention, in the
    model of Dao et al. (2022, §3.2 and Appendix B): every load and store of the two algorithms, counted.

    * ``"standard"`` (their Algorithm 0): read Q and K (``2Td``), write S (``T²``); read S, write P
      (``2T²``); read P and V (``T² + Td``), write O (``Td``): ``4T² + 4Td`` values, growing like T².
    * ``"tiled"`` (their Algorithm 1, FlashAttention): with ``M = sram_bytes / bytes_per_value`` values of
      SRAM, blocks of ``B_c = ⌈M/(4d)⌉`` keys and ``B_r = min(B_c, d)`` queries, and
      ``T_c = ⌈T/B_c⌉`` key blocks. It writes O, ℓ and m once to start (``Td + 2T``); loads each K_j, V_j
      once (``2Td`` in all); and for each key block passes over every query block, loading
      Q_i, O_i, ℓ_i, m_i and storing O_i, ℓ_i, m_i (``3Td + 4T`` per key block). In all
      ``Td + 2T + 2Td + T_c·(3Td + 4T)`` values: about ``12·T²·d²/M``, since T_c ≈ 4Td/M. Less than the
      standard count when 12d² < 4M: with 100 KB of SRAM in float16 (M = 50,000 values), about 4 times
      less for d = 64, about the same for d = 128. (Running the loops the other way round, as
      :func:`tiled_attention` does, keeps O, ℓ and m on chip: only Q, K and V are reread.)

    Parameters
    ----------
    T : int
        The number of tokens (N in the paper).
    d : int
        The width of a head.
    sram_bytes : int
        The size of the fast memory (M in the paper, in bytes): e.g. about 100 KB per streaming
        multiprocessor of an A100 (192 KB, part of it cache).
    bytes_per_value : int
        2 for float16 (the paper's setting), 4 for float32.

    Returns
    -------
    dict
        ``{"standard": bytes, "tiled": bytes}``.

    Raises
    ------
    TypeError
        A size that is not a whole number.
    ValueError
        A size below 1, or an SRAM too small to hold one value per row of the blocks (M < 4d).

    Shapes:
        T, d, sram_bytes, bytes_per_value -> {"standard": int, "tiled": int}

    Taught in: 11 §4
    """
    T, d, size = _sizes(T, d, bytes_per_value)
    M = check_positive_int(sram_bytes, "sram_bytes", symbol=N_("size of the fast memory")) // size
    if M < 4 * d:
        refuse(ValueError, N_("sram_bytes={sram} holds M={M} values, fewer than 4·d={need}: the blocks of "
                              "K, V, Q and O need at least one row each"), sram=sram_bytes, M=M, need=4 * d)
    B_c = -(-M // (4 * d))  # ⌈M/(4d)⌉; B_r = min(B_c, d) sets how the passes are cut, not how much moves
    T_c = -(-T // B_c)
    standard = 4 * T * T + 4 * T * d
    tiled = (T * d + 2 * T) + 2 * T * d + T_c * (3 * T * d + 4 * T)
    return {"standard": standard * size, "tiled": tiled * size}
