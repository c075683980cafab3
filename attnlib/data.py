"""Load the small files in the project's ``data/`` folder (described in ``data/README.md``).

Only JSON and ``.npz`` are read, the latter with ``allow_pickle=False``: a data file can never run
code. Nothing is downloaded.

Where the files are: in the source tree (and so in an editable install) they are the top-level
``data/`` folder beside ``attnlib/``; a wheel installs that same folder as ``attnlib/datasets/``
(``pyproject.toml`` maps it). :data:`DATA_DIR` is whichever of the two exists.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from .checks import check_type, refuse
from .i18n import N_

__all__ = ["DATA_DIR", "available", "load"]

_PACKAGE_DIR = Path(__file__).resolve().parent
# The installed location first: next to an installed attnlib, "../data" could belong to anything.
_CANDIDATES = (_PACKAGE_DIR / "datasets", _PACKAGE_DIR.parent / "data")
DATA_DIR = next((folder for folder in _CANDIDATES if folder.is_dir()), _CANDIDATES[0])
_SUFFIXES = (".json", ".npz")


def available() -> list[str]:
    """List the data files that :func:`load` can read.

    Returns
    -------
    list of str
        The file names without their suffix (``.json`` or ``.npz``), sorted; empty when the data
        folder is missing.
    """
    if not DATA_DIR.is_dir():
        return []
    return sorted(p.stem for p in DATA_DIR.iterdir() if p.suffix in _SUFFIXES)


def load(name: str) -> Any:
    """Load ``data/<name>.json`` (as parsed JSON) or ``data/<name>.npz`` (as a dict of arrays).

    Lists of numbers under the JSON keys ``"X"``, ``"vectors"`` or ending in ``"_matrix"`` are
    returned as float64 arrays, so a notebook can compute with them straight away.

    Parameters
    ----------
    name : str
        The file name without suffix, for example ``"zao_shang_hao"``; :func:`available` lists them.

    Returns
    -------
    dict or list
        The parsed JSON, or for an ``.npz`` a dict from array name to array (read with
        ``allow_pickle=False``, so an array of Python objects is refused, never unpickled).

    Raises
    ------
    TypeError
        If ``name`` is not a string.
    FileNotFoundError
        If no such file exists; the message lists the names that do.

    Taught in: 00 §5
    """
    if not isinstance(name, str):
        check_type(name, "name", str, what=N_("a string such as 'zao_shang_hao'"))
    for suffix in _SUFFIXES:
        path = DATA_DIR / f"{name}{suffix}"
        if path.exists():
            break
    else:
        known = ", ".join(available()) if DATA_DIR.is_dir() else f"(no folder {DATA_DIR})"
        refuse(FileNotFoundError, N_("no data file named {name!r}; available: {known}"), name=name,
               known=known)
    if path.suffix == ".npz":
        with np.load(path, allow_pickle=False) as npz:
            return {key: npz[key] for key in npz.files}
    content = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(content, dict):
        for key, value in content.items():
            if key in ("X", "vectors") or key.endswith("_matrix"):
                content[key] = np.asarray(value, dtype=np.float64)
    return content
