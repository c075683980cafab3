"""Build ``data/tang_vocab_hant.json``: Simplified <-> Traditional for the tiny GPT's 1,998 characters.

The model of notebook 09 reads and writes Simplified characters only (its vocabulary is the one of
``data/tang_poems.json``). The 繁體 edition's live lab (``attnlib.labs.live_gpt``) converts what a
learner types to that vocabulary and shows what the model writes in Traditional characters. OpenCC
does that well but is a build-time dependency only, so this script runs it once, character by
character, and writes the small table attnlib ships:

- ``to_hant``: every vocabulary character whose Traditional form (OpenCC ``s2twp``) differs;
- ``to_hans``: every Traditional character that stands for a vocabulary character (the inverse of
  ``to_hant``, plus OpenCC ``t2s`` variants that land in the vocabulary), except characters that are
  themselves in the vocabulary (a character the model knows is read as it is).

One character at a time is enough here: the model's tokens are characters, and a poem's opening of
a few characters has no phrase for a phrase table to improve.

Run from the repository root with the project's environment (``opencc`` is a tools dependency)::

    .venv/bin/python -m tools.build_hant_table

The output is deterministic (sorted keys).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "tang_vocab_hant.json"


def build() -> dict:
    import opencc

    from attnlib.gpt.text import load_poems

    vocab = load_poems().tokenizer.vocab
    known = set(vocab)
    s2t, t2s = opencc.OpenCC("s2twp"), opencc.OpenCC("t2s")
    to_hant = {ch: s2t.convert(ch) for ch in vocab}
    to_hant = {s: t for s, t in to_hant.items() if len(t) == 1 and t != s}
    to_hans: dict[str, str] = {}
    for s, t in sorted(to_hant.items()):
        if t not in known:
            to_hans.setdefault(t, s)
    # Traditional variants OpenCC reads as a vocabulary character (e.g. a second Traditional form)
    s2t_plain = opencc.OpenCC("s2t")
    for ch in vocab:
        t = s2t_plain.convert(ch)
        if len(t) == 1 and t not in known and t2s.convert(t) == ch:
            to_hans.setdefault(t, ch)
    return {
        "about": "Simplified <-> Traditional for the vocabulary of data/tang_poems.json; "
                 "written by tools/build_hant_table.py with OpenCC (s2twp, s2t, t2s), one character "
                 "at a time",
        "to_hant": dict(sorted(to_hant.items())),
        "to_hans": dict(sorted(to_hans.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    table = build()
    text = json.dumps(table, ensure_ascii=False, indent=0, sort_keys=False) + "\n"
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote {args.out}: {len(table['to_hant'])} to Traditional, {len(table['to_hans'])} back")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
