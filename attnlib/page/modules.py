"""The page modules, by name, and how one becomes a single ES module that any page can run.

Every module the page runs is listed once in :data:`MODULES`: its kind (``"lab"``, ``"quiz"`` or
``"practice"``) and its file. A lab's module sits beside its Python module (``attnlib/labs/<name>.js``),
the quiz's in its own package, the site's editor card (``practice``: an exercise's code checked in the
page's Python) in this one; each imports what it shares from ``kit.js`` beside this file, on one line,
and its default export is ``pageModule`` (anywidget's shape: an object with ``render``). A new page
module is a file and a row here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..checks import check_choice

HERE = Path(__file__).resolve().parent
KIT = HERE / "kit.js"
KINDS = ("lab", "quiz", "practice")


@dataclass(frozen=True)
class PageModule:
    """One page module: its ``kind`` (one of :data:`KINDS`) and its ``file``, relative to ``attnlib/``.

    The kind names what a page with no kernel mounts it in (``attn-<kind>-mount``).

    Serves: the labs, the quiz and the editor card, their widgets and their static pages.
    """

    kind: str
    file: str

    @property
    def path(self) -> Path:
        """The module's source file."""
        return HERE.parent / self.file


MODULES: dict[str, PageModule] = {
    "dot_product": PageModule("lab", "labs/dot_product.js"),
    "softmax_scale": PageModule("lab", "labs/softmax_scale.js"),
    "convex_hull": PageModule("lab", "labs/convex_hull.js"),
    "qkv": PageModule("lab", "labs/qkv.js"),
    "dk": PageModule("lab", "labs/dk.js"),
    "mask": PageModule("lab", "labs/mask.js"),
    "whole_formula": PageModule("lab", "labs/whole_formula.js"),
    "generation": PageModule("lab", "labs/generation.js"),
    "live_gpt": PageModule("lab", "labs/live_gpt.js"),
    "rope": PageModule("lab", "labs/rope.js"),
    "tiling": PageModule("lab", "labs/tiling.js"),
    "kv_cache": PageModule("lab", "labs/kv_cache.js"),
    "quiz": PageModule("quiz", "quiz/quiz.js"),
    "practice": PageModule("practice", "page/practice.js"),
}

# The one import line of a page module, and the kit's comment lines (there is no such line inside a string).
_IMPORT = re.compile(r"^import\s*\{[^}]*\}\s*from\s*\"\.\./page/kit\.js\";\s*$", re.MULTILINE)
_EXPORT = re.compile(r"^export default pageModule;\s*$", re.MULTILINE)
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.MULTILINE)


def page_module(name: str) -> PageModule:
    """The page module called ``name``; a ValueError names the modules there are.

    Serves: the labs, the quiz and the editor card, their widgets and their static pages.
    """
    return MODULES[check_choice(name, "name", list(MODULES))]


@cache
def bundle(name: str) -> str:
    """The page module ``name`` with ``kit.js`` inlined: one ES module, loadable from a string.

    anywidget loads a module from a string and a page opened from disk cannot import other files, so the
    two plain modules are joined here (the module's single ``import ... from "../page/kit.js"`` line is
    replaced by the kit's source, without its comment lines). No other build step.

    Serves: the labs, the quiz and the editor card, their widgets and their static pages.
    """
    source = page_module(name).path.read_text(encoding="utf-8")
    if len(_IMPORT.findall(source)) != 1 or len(_EXPORT.findall(source)) != 1:
        raise RuntimeError(f"{name}.js must import from ../page/kit.js exactly once, on one line, and end "
                           "with `export default pageModule;`")
    kit = _COMMENT_LINE.sub("", KIT.read_text(encoding="utf-8"))  # comments serve its readers, not pages
    return f"// ---- kit.js ----\n{kit}\n// ---- {name}.js ----\n" + _IMPORT.sub("", source)


def mount_html(name: str, state: Mapping[str, Any], element_id: str) -> str:
    """HTML that draws page module ``name`` with no kernel: a mount point and one inline module script.

    ``state`` is ``{"spec", "values"}`` as the notebook stored it (or the widget's ``page_state()``).
    The mount point is a ``div`` of class ``attn-<kind>-mount`` (``attn-lab-mount``, ``attn-quiz-mount``,
    ``attn-practice-mount``) with id ``element_id``. The module is inlined because a page opened from disk
    (file://) cannot import other modules, and ``async`` because an inline module otherwise waits for the
    whole page to be parsed: this way a lab draws as soon as the parser has passed it, before the formulas
    and labs below.

    Serves: the labs, the quiz and the editor cards on the static site and the offline slides.
    """
    kind = page_module(name).kind
    if not re.fullmatch(r"[A-Za-z][\w-]*", element_id):
        raise ValueError(f"element_id must be an HTML id of letters, digits, '-' and '_'; got {element_id!r}")
    payload = json.dumps(dict(state), ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    return (
        f'<div class="attn-{kind}-mount" id="{element_id}"></div>\n'
        f'<script type="application/json" id="{element_id}-state">{payload}</script>\n'
        f'<script type="module" async>\n{bundle(name)}\n'
        f'mountStatic(pageModule, document.getElementById("{element_id}"), '
        f'JSON.parse(document.getElementById("{element_id}-state").textContent));\n</script>\n'
    )
