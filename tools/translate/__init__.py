"""The editions of the series in other languages (``python -m tools.translate``; docs/translating.md).

One source, the English notebooks. A translator writes, for each edition translated by hand (zh-Hans), a
prose catalogue and a code catalogue per notebook; the build writes every edition of attnlib.i18n.LANGUAGES
from them, and ``check`` proves nothing is stale. zh-Hant is never translated by hand: it is derived from
the zh-Hans text through OpenCC and reviewed overrides.

- ``config``: where the files lie (``Paths``; tests pass one on a temporary folder) and which editions
  are translated by hand or derived;
- ``prose``, ``code_catalogue``: the two kinds of catalogue and their staleness; ``code_check``: that a
  translated code cell is the English program; ``translator``: the ``skeleton`` and ``stamp`` commands;
- ``hant``: 简体 → 繁體 (OpenCC ``s2twp``, overrides); ``derive``: an edition's text from its source's;
- ``editions``: ``build`` and ``execute``; ``outputs``: the generated files outside the notebooks
  (attnlib's zh-Hant catalogues, the lecturer's guides); ``check``.
"""
