"""What the build tools share: reproducible ``.npz`` archives and file digests.

``write_npz`` is the one way the tools write the arrays of ``data/``: the same arrays always give the
same bytes (names in sorted order, fixed zip timestamps and permissions, one compression level), so
a rebuild can be compared with the committed file by its SHA-256. ``file_digest`` hashes a file
(a source a tool checks before it trusts it, or a file it wrote).

The tools are one package, run from the repository's root as ``python -m tools.<name>``; they import
this as ``from .artifacts import write_npz, file_digest``.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np

__all__ = ["ZIP_DATE_TIME", "file_digest", "write_npz"]

# The earliest date a zip entry can record; any fixed date gives reproducible bytes.
ZIP_DATE_TIME = (1980, 1, 1, 0, 0, 0)
# Kinds numpy stores without pickling: bool, signed and unsigned integers, floats, unicode strings.
_STORABLE_KINDS = "biufU"


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write ``arrays`` to ``path`` as a compressed ``.npz`` whose bytes depend only on the arrays.

    Entries are written in sorted name order with fixed metadata; the file is written beside
    ``path`` first and then moved in place, so an interrupted run never leaves half an archive.
    ``np.load(path, allow_pickle=False)`` reads it back.

    Raises ``ValueError`` for an array of Python objects (or any dtype that would need pickling).
    """
    path = Path(path)
    # asarray, not ascontiguousarray, which would make a 0-d array 1-d.
    stored = {name: np.asarray(arrays[name], order="C") for name in sorted(arrays)}
    for name, array in stored.items():
        if array.dtype.kind not in _STORABLE_KINDS:
            raise ValueError(
                f"array {name!r} has dtype {array.dtype}; an .npz in data/ holds only booleans, "
                "numbers and unicode strings (anything else would need pickling)"
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    with zipfile.ZipFile(tmp, "w") as archive:
        for name, array in stored.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, array, allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", date_time=ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, buffer.getvalue(), compresslevel=9)
    tmp.replace(path)


def file_digest(path: Path, algorithm: str = "sha256") -> hashlib._Hash:
    """The ``hashlib`` digest of a file's bytes (call ``.hexdigest()`` or ``.digest()`` on it).

    ``algorithm`` is any name ``hashlib.new`` knows; the tools pin ``"sha256"`` digests (npm packages are
    checked by npm itself, against package-lock.json).
    """
    digest = hashlib.new(algorithm)
    with Path(path).open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest
