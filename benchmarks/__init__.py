"""Benchmarks: ``make bench`` (``python -m benchmarks``) runs every one and
writes its table into ``docs/benchmarks.md``."""
