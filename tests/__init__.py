"""The tests (pytest): a package, so that shared test code is imported as ``tests.<module>``."""
