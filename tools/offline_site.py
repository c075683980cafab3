"""The site's service worker, ``sw.js`` at its root (tools/service_worker.js, registered by tools/site_view.js
on http(s) only): after one visit the pages and their Python work with no network.

``write_service_worker(out, manifest)`` copies it with the runtime's version (the manifest's, so a new
runtime replaces the old cache) and the files of the runtime it keeps once the first page has loaded: every
file of the manifest (under ``py/``), the manifest itself and the editor (``assets/editor.js``, where the site
has it).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

SOURCE = Path(__file__).with_name("service_worker.js")
NAME = "sw.js"
EDITOR = "assets/editor.js"
_SITE_LINE = re.compile(r"^const SITE = .*;$", re.M)  # the one line this module writes


def runtime_files(out: Path, manifest: dict) -> list[str]:
    """The runtime's files as paths relative to the site's root, each checked to be there."""
    if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), list):
        raise TypeError(f"manifest: expected a dict with a list 'files' (tools.page_python.write_runtime's), "
                        f"got {type(manifest).__name__}")
    names = []
    for entry in manifest["files"]:
        name = entry["name"] if isinstance(entry, dict) else entry
        # a name is relative to py/ (the manifest lies there); a path from the root is kept as it is
        path = name if "/" in name and (out / name).is_file() else f"py/{name}"
        names.append(path)
    names += ["py/manifest.json", *([EDITOR] if (out / EDITOR).is_file() else [])]
    missing = [n for n in names if not (out / n).is_file()]
    if missing:
        raise ValueError(f"manifest: names files the site at {out} lacks: {missing[:5]}")
    return sorted(set(names))


def write_service_worker(out: Path, manifest: dict) -> Path:
    """Write ``out/sw.js``; return its path."""
    out = Path(out)
    version = manifest.get("version") if isinstance(manifest, dict) else None
    if not isinstance(version, str) or not re.fullmatch(r"[0-9a-f]{8,64}", version):
        raise ValueError(f"manifest: expected a 'version' of 8 to 64 hex digits, got {version!r}")
    site = json.dumps({"version": version, "keep": runtime_files(out, manifest)}, separators=(", ", ": "))
    source = SOURCE.read_text(encoding="utf-8")
    text, found = _SITE_LINE.subn(lambda _: f"const SITE = {site};", source, count=1)
    if found != 1:
        raise RuntimeError(f"{SOURCE} lost its line `const SITE = ...;`")
    target = out / NAME
    target.write_text(text, encoding="utf-8")
    return target
