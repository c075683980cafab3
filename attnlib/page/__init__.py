"""Everything the page runs stands on this package: one kit, one bundler, one mount, one widget.

- ``kit.js``: what every page module shares (controls, SVG drawing, numbers, fonts, ids, mounting).
- :mod:`.modules`: :data:`MODULES`, every page module by name (its kind and its file), :func:`bundle`
  (a module with the kit inlined) and :func:`mount_html` (a module drawn with no kernel).
- :mod:`.widget`: :class:`PageWidget`, the anywidget that carries a module, its ``spec`` and ``values``.
- :mod:`.fonts` and :mod:`.colours`: the fonts and colour tables of ``attnlib.plot`` as a page uses them.
- :mod:`.practice`: the specs of the site's editor cards (``practice.js``, its editor ``editor.js``), which
  run a learner's code in the page's Python (``python_worker.js``).

The labs (``attnlib.labs``) and the quiz (``attnlib.quiz``) are built on it; it imports neither.
"""

from .colours import colour_table
from .fonts import fonts_for
from .modules import KIT, MODULES, PageModule, bundle, mount_html, page_module
from .widget import PageWidget

__all__ = ["KIT", "MODULES", "PageModule", "PageWidget", "bundle", "colour_table", "fonts_for", "mount_html",
           "page_module"]
