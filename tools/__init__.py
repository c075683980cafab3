"""The publishing machinery of the series, kept apart from the lessons (attnlib): the website and the
slide decks, the navigation and the Chinese editions, the bundled font and data, and the browser driving
that checks the pages. Run a tool from the repository's root as ``python -m tools.<name>``; npm packages
come from one place, ``tools.npm``.
"""
