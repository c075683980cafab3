"""Characters to token ids and back, the model's text in either script, and the corpus of notebook 09
(five-character Tang poems).

A character-level tokeniser: every distinct character of the training text is one token, and the id
of a character is its rank in code-point order, so the same text always gives the same vocabulary.
The model's characters are Simplified; ``in_script`` and ``drawn_text`` show them in Traditional for
the 繁體 edition, and ``model_text`` reads a Traditional opening. numpy only, like ``core``.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..data import DATA_DIR
from ..i18n import N_, language, tr
from ..validation import check_indices

__all__ = ["CharTokenizer", "LINE_BREAK", "POEM_END", "drawn_text", "hant_table", "in_script", "load_poems",
           "model_text", "read_as_simplified"]

POEM_END = "\n"  # closes every poem, so the model can learn where a poem stops
LINE_BREAK = "⏎"  # how a picture draws POEM_END, and how a reader may type it
_CORPUS = DATA_DIR / "tang_poems.json"
_BREAKS = re.compile("\r\n|[\r\n" + LINE_BREAK + "]")  # a line break as pasted from any system, or as drawn


def _shown(ch: str) -> str:
    return "\\n" if ch == "\n" else ch


# ---- the two scripts -----------------------------------------------------------------------------------
# The model reads and writes Simplified characters (the vocabulary of its poems); the 繁體 edition shows
# them in Traditional, and a Traditional character typed into the live lab of 09 is read as Simplified.
@functools.cache
def hant_table() -> dict[str, dict[str, str]]:
    """The model's vocabulary in both scripts: ``{"to_hant": {简: 繁}, "to_hans": {繁: 简}}``.

    Read from ``data/tang_vocab_hant.json``, written by ``tools/build_hant_table.py`` with OpenCC.

    Serves: the script conversions below and the live lab of 09, not called in the notebooks.
    """
    table = json.loads((DATA_DIR / "tang_vocab_hant.json").read_text(encoding="utf-8"))
    return {"to_hant": dict(table["to_hant"]), "to_hans": dict(table["to_hans"])}


def in_script(text: str) -> str:
    """The model's `text` in the script of the current language, for printing it or labelling a figure.

    In English and 简体中文 the text comes back as it is; in 繁體中文 each character of the model
    becomes its Traditional form (``data/tang_vocab_hant.json``). Only what is shown changes: encode
    and decode the model's own characters.

    Parameters
    ----------
    text : str

    Returns
    -------
    str
        As many characters as `text`.

    Shapes:
        text (str of n characters) -> str of n characters

    Taught in: 09 §1
    """
    if language() != "zh-Hant":
        return text
    to_hant = hant_table()["to_hant"]
    return "".join(to_hant.get(ch, ch) for ch in text)


def drawn_text(text: str, traditional: bool) -> str:
    """The model's `text` as a picture draws it: a line break as ⏎, and each character of the model
    in its Traditional form when `traditional` (the 繁體 edition of a lab, built once in its language).

    Parameters
    ----------
    text : str
    traditional : bool

    Returns
    -------
    str
        As many characters as `text`.

    Shapes:
        text (str of n characters) -> str of n characters

    Serves: the generation and live GPT labs of 09, not called in the notebooks.
    """
    to_hant = hant_table()["to_hant"] if traditional else {}
    return "".join(LINE_BREAK if ch == POEM_END else to_hant.get(ch, ch) for ch in text)


def model_text(text: str, vocab: Any) -> str:
    """`text` in the model's characters: a line break (pasted as ``\\n``, ``\\r\\n`` or ``\\r``, or typed as
    ⏎) becomes ``POEM_END``, and a Traditional character the vocabulary lacks becomes its Simplified
    form when the table has one; any other character is kept (to be named as unknown).

    Parameters
    ----------
    text : str
        What a reader typed or pasted, in either script.
    vocab : collection of str
        The model's characters (``CharTokenizer.vocab``).

    Returns
    -------
    str
        As many characters as `text`, less one for each ``\\r\\n``.

    Raises
    ------
    TypeError
        `text` not a string.

    Shapes:
        text (str of n characters) -> str of n characters (fewer for each ``\\r\\n``)

    Taught in: 09 §1
    """
    if not isinstance(text, str):
        raise TypeError(tr("text must be a string; got {type}").format(type=type(text).__name__))
    to_hans = hant_table()["to_hans"]
    text = _BREAKS.sub(POEM_END, text)
    return "".join(ch if ch in vocab or ch not in to_hans else to_hans[ch] for ch in text)


def read_as_simplified(text: str, vocab: Any) -> dict[str, str]:
    """The Traditional characters of `text` that ``model_text`` reads as Simplified: ``{繁: 简}``, in the
    order they first appear (what the live lab of 09 tells a reader it converted).

    Parameters
    ----------
    text : str
        What a reader typed, in either script.
    vocab : collection of str
        The model's characters (``CharTokenizer.vocab``).

    Returns
    -------
    dict of str to str

    Raises
    ------
    TypeError
        `text` not a string.

    Shapes:
        text (str of n characters) -> at most n pairs

    Serves: the live GPT lab of 09, not called in the notebooks.
    """
    if not isinstance(text, str):
        raise TypeError(tr("text must be a string; got {type}").format(type=type(text).__name__))
    to_hans = hant_table()["to_hans"]
    return {ch: to_hans[ch] for ch in text if ch not in vocab and ch in to_hans}


class CharTokenizer:
    """One token per character: ``encode`` turns text into ids, ``decode`` turns ids into text.

    Parameters
    ----------
    vocab : sequence of str
        The characters, each once; id ``i`` is ``vocab[i]``.

    Raises
    ------
    TypeError
        A vocab that is not a sequence of strings, text that is not a string, ids that are not whole
        numbers.
    ValueError
        An empty vocabulary, a character listed twice, an unknown character, an id outside 0..V-1.

    Shapes:
        encode: text (str of n characters) -> ids (n,) int64;  decode: ids (n,) -> str

    Taught in: 09 §1
    """

    def __init__(self, vocab: Sequence[str]) -> None:
        if not isinstance(vocab, (str, Sequence, np.ndarray)):
            raise TypeError(tr("vocab must be a sequence of characters, e.g. list('abc'); got "
                               "{type}").format(type=type(vocab).__name__))
        vocab = list(vocab)
        if not vocab:
            raise ValueError(tr("vocab must hold at least one character; got an empty list"))
        for ch in vocab:
            if not isinstance(ch, str) or len(ch) != 1:
                error = TypeError if not isinstance(ch, str) else ValueError
                raise error(tr("every entry of vocab must be a single character; got {ch!r}").format(ch=ch))
        if len(set(vocab)) != len(vocab):
            twice = next(ch for ch in vocab if vocab.count(ch) > 1)
            raise ValueError(
                tr("vocab lists {ch!r} more than once; each character gets one id").format(ch=_shown(twice))
            )
        self.vocab = vocab
        self._ids = {ch: i for i, ch in enumerate(vocab)}

    @classmethod
    def from_text(cls, text: str) -> CharTokenizer:
        """The vocabulary of a text: its distinct characters in code-point order.

        Parameters
        ----------
        text : str
            Any non-empty text.

        Returns
        -------
        CharTokenizer

        Raises
        ------
        TypeError
            Not a string.
        ValueError
            An empty text.

        Shapes:
            text (str) -> V = number of distinct characters

        Taught in: 09 §1
        """
        if not isinstance(text, str):
            raise TypeError(tr("text must be a string; got {type}").format(type=type(text).__name__))
        if not text:
            raise ValueError(tr("text must be a non-empty string to build a vocabulary from"))
        return cls(sorted(set(text)))

    def __len__(self) -> int:
        return len(self.vocab)

    def __contains__(self, ch: object) -> bool:
        return ch in self._ids

    def encode(self, text: str) -> np.ndarray:
        """Token ids of `text`, one per character.

        Parameters
        ----------
        text : str

        Returns
        -------
        ids : ndarray of int64

        Raises
        ------
        TypeError
            Not a string.
        ValueError
            A character that is not in the vocabulary.

        Shapes:
            text (n characters) -> ids (n,)

        Taught in: 09 §1
        """
        if not isinstance(text, str):
            raise TypeError(tr("text must be a string; got {type}").format(type=type(text).__name__))
        for pos, ch in enumerate(text):
            if ch not in self._ids:
                raise ValueError(
                    tr("character {pos} of '{text}', '{ch}', is not in the vocabulary of {V} characters; "
                       "use only characters of the training text").format(
                        ch=_shown(ch), pos=pos + 1, text="".join(map(_shown, text)), V=len(self)
                    )
                )
        return np.array([self._ids[ch] for ch in text], dtype=np.int64)

    def decode(self, ids: Any) -> str:
        """The text of a sequence of ids.

        Parameters
        ----------
        ids : array_like of int
            Each in 0..V-1.

        Returns
        -------
        str

        Raises
        ------
        TypeError
            Ids that are not whole numbers.
        ValueError
            Ids not of shape (n,), or an id outside 0..V-1.

        Shapes:
            ids (n,) -> text (n characters)

        Taught in: 09 §1
        """
        arr = check_indices(
            ids, "ids", expected="(n,)", high=len(self) - 1, high_symbol="V-1", what=N_("token ids")
        )
        return "".join(self.vocab[i] for i in arr.tolist())


@dataclass(frozen=True)
class Poems:
    """The corpus of notebook 09, split by whole poems into training and held-out text.

    Parameters
    ----------
    poems : list of dict
        Every poem with its fields (``text``, and the columns of ``data/tang_poems.json``).
    tokenizer : CharTokenizer
        The vocabulary of the whole anthology.
    train_text, heldout_text : str
        The two parts, each poem followed by ``POEM_END``.

    Shapes:
        train_ids (N_train,), heldout_ids (N_heldout,) int64

    Taught in: 09 §1
    """

    poems: list[dict]
    tokenizer: CharTokenizer
    train_text: str
    heldout_text: str

    @property
    def train_ids(self) -> np.ndarray:
        return self.tokenizer.encode(self.train_text)

    @property
    def heldout_ids(self) -> np.ndarray:
        return self.tokenizer.encode(self.heldout_text)


def load_poems(heldout_every: int = 10, path: Any = None) -> Poems:
    """Load the Tang poems of ``data/tang_poems.json`` and split them by whole poems.

    Every ``heldout_every``-th poem (the 10th, 20th, ...) is held out, so both parts mix every form;
    each poem ends with ``POEM_END``. The vocabulary covers the whole anthology, so held-out text
    has no unknown characters (a character seen only there keeps its untrained embedding).

    Parameters
    ----------
    heldout_every : int
        Hold out every this-many-th poem; at least 2.
    path : path-like, optional
        Another corpus of the same format.

    Returns
    -------
    Poems

    Raises
    ------
    TypeError
        `heldout_every` not a whole number, `path` not a path.
    ValueError
        `heldout_every` below 2, or `path` not a file of that format.

    Shapes:
        -> Poems with train_ids (N_train,), heldout_ids (N_heldout,) int64

    Taught in: 09 §1
    """
    whole = isinstance(heldout_every, (int, np.integer)) and not isinstance(heldout_every, bool)
    if not whole or heldout_every < 2:
        raise (ValueError if whole else TypeError)(
            tr("heldout_every must be a whole number >= 2; got {value!r}").format(value=heldout_every)
        )
    if path is not None and not isinstance(path, (str, os.PathLike)):
        raise TypeError(tr("path must be a path to a corpus like data/tang_poems.json; got "
                           "{type}").format(type=type(path).__name__))
    path = Path(_CORPUS if path is None else path)
    corpus = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    if not isinstance(corpus, dict) or "text" not in corpus.get("columns", ()) or "poems" not in corpus:
        raise ValueError(tr("{path} is not a corpus like data/tang_poems.json: a JSON file with 'columns' "
                            "(one of them 'text') and 'poems'").format(path=path))
    poems = [dict(zip(corpus["columns"], row, strict=True)) for row in corpus["poems"]]
    held = [(i + 1) % heldout_every == 0 for i in range(len(poems))]
    train = "".join(p["text"] + POEM_END for p, h in zip(poems, held, strict=True) if not h)
    heldout = "".join(p["text"] + POEM_END for p, h in zip(poems, held, strict=True) if h)
    return Poems(poems, CharTokenizer.from_text(train + heldout), train, heldout)
