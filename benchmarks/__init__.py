"""The benchmarks (`make bench`); each runs from the repository's root as ``python -m benchmarks.<name>``."""
