"""Driving a real browser: Debian's chromium through Playwright (``helpers``: JupyterLab, pages opened from
disk, labs, reveal.js decks, fonts), and Firefox and WebKit through their WebDriver (``engines``).

The browser tests (tests/browser/), the slide check (``python -m tools.slide_fit``) and the benchmarks
(``python -m benchmarks.<name>``) all import it from here.
"""
