"""Build ``data/tang_poems.json``: 5,000 five-character Tang poems that notebook 09 trains a tiny GPT on.

Why this text
-------------
The series is read in Chinese and ships a Chinese font, and a small language model learns most from a
text with visible structure. Five-character poems of four or eight lines (the shapes of 五言绝句 and
五言律诗) have exactly that: every line holds 5 characters, a comma closes the first line of each
couplet and a full stop the second, so a model that learns anything learns where the punctuation goes,
and the second line of a couplet often mirrors the first character by character (对仗).
The poems were written during the Tang dynasty (618-907), over a thousand years ago: they are in the
public domain everywhere. The digital edition is 全唐诗 (Complete Tang Poems) from the npm package
``chinese-poetry`` (MIT licence, (c) 2016 JackeyGao; see ``data/LICENSE-chinese-poetry.txt``).

What the build does
-------------------
1. Takes the pinned npm package ``chinese-poetry`` (package.json; installed by ``npm ci`` into
   ``node_modules/`` by ``tools/npm.py`` when it is not there; npm checks its sha512).
2. Reads ``dist/quantangshi/poet.tang.<N>.json`` in the order of N (Traditional characters)
   and keeps the poems that are, after removing spaces, 4 or 8 lines of 5 characters with the
   punctuation ，。，。…
3. Converts them to Simplified characters with OpenCC's ``t2s`` configuration and keeps those whose
   characters are all in GB2312 (so the bundled Noto Sans SC subset can draw every one), dropping
   repeats.
4. Keeps the poems whose characters are all among the ``VOCAB_SIZE`` most frequent characters of
   step 3: a vocabulary small enough for a model trained on 2 CPU cores, and no character seen
   only once or twice.

Run from the repository root, in a separate virtualenv with the build-time package::

    python3 -m venv .cache/tools-venv
    .cache/tools-venv/bin/pip install opencc==1.4.2
    .cache/tools-venv/bin/python -m tools.build_tang_poems

The output is deterministic: rerunning it rewrites a byte-identical file.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

from . import npm

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "tang_poems.json"
PACKAGE = "chinese-poetry"  # pinned in package.json (tools/npm.py)
BOOKS = re.compile(r"poet\.tang\.(\d+)\.json")
SHAPE = re.compile(r"^([^，。]{5}，[^，。]{5}。){2}(([^，。]{5}，[^，。]{5}。){2})?$")
VOCAB_SIZE = 2000


def books() -> list[list[dict]]:
    """The files ``dist/quantangshi/poet.tang.<N>.json`` of the pinned package, in the order of N."""
    try:
        folder = npm.package_dir(PACKAGE, "python -m tools.build_tang_poems") / "dist" / "quantangshi"
    except npm.NpmError as err:
        raise SystemExit(str(err)) from err
    found = sorted((int(m.group(1)), path) for path in folder.iterdir() if (m := BOOKS.fullmatch(path.name)))
    return [json.loads(path.read_text(encoding="utf-8")) for _, path in found]


def in_gb2312(text: str) -> bool:
    try:
        text.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def build(books: list[list[dict]]) -> dict:
    import opencc  # build-time only

    convert = opencc.OpenCC("t2s").convert
    candidates, seen = [], set()
    for book in books:
        for poem in book:
            text = "".join(ch for ch in "".join(poem["paragraphs"]) if not ch.isspace())
            if not SHAPE.match(text):
                continue
            text = convert(text)
            hanzi = text.replace("，", "").replace("。", "")
            if text in seen or not in_gb2312(text) or not all("\u4e00" <= ch <= "\u9fff" for ch in hanzi):
                continue
            seen.add(text)
            candidates.append(
                {"title": convert(poem["title"]), "author": convert(poem["author"]), "text": text}
            )
    counts = Counter(ch for p in candidates for ch in p["text"])
    common = {ch for ch, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:VOCAB_SIZE]}
    poems = [p for p in candidates if set(p["text"]) <= common]
    return {
        "description": "five-character Tang poems of 4 or 8 lines from 全唐诗, Simplified characters",
        "origin": f"npm package {PACKAGE}@{npm.version(PACKAGE)}, files dist/quantangshi/poet.tang.*.json, "
        "converted with OpenCC t2s",
        "licence": "poems: public domain (Tang dynasty, 618-907); digital edition: MIT, (c) 2016 JackeyGao",
        "columns": ["title", "author", "text"],
        "poems": [[p["title"], p["author"], p["text"]] for p in poems],
    }


def main() -> None:
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    corpus = build(books())
    head = json.dumps({k: v for k, v in corpus.items() if k != "poems"}, ensure_ascii=False, indent=1)
    rows = ",\n".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) for row in corpus["poems"])
    OUT.write_text(head[:-2] + ',\n "poems": [\n' + rows + "\n]\n}\n", encoding="utf-8")  # one poem a line
    texts = [row[2] for row in corpus["poems"]]
    n_chars = sum(map(len, texts))
    vocab = {ch for text in texts for ch in text}
    print(
        f"wrote {OUT.relative_to(ROOT)}: {len(corpus['poems'])} poems, {n_chars} characters, "
        f"{len(vocab)} distinct, {OUT.stat().st_size} bytes"
    )


if __name__ == "__main__":
    main()
