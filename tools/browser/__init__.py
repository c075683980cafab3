"""Driving a real browser: Debian's chromium through Playwright (``jupyter``: JupyterLab and a notebook's
Run All; ``labs``: walking the in-page labs; ``pages``: chromium's flags, pages opened from disk, reveal.js
decks, fonts), and Firefox and WebKit through their WebDriver (``engines``).

The browser tests (tests/browser/), the slide check (``python -m tools.slide_fit``) and the benchmarks
(``python -m benchmarks.<name>``) all import it from here.
"""
