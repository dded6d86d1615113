"""Run every benchmark: ``python -m benchmarks [NAME ...]``."""

from __future__ import annotations

import importlib
import sys

#: benchmark modules, each with ``main(argv) -> int`` writing its own section
BENCHMARKS: dict[str, str] = {
    "qr": "benchmarks.qr",
    "latency": "benchmarks.latency",
    "load": "benchmarks.load",
    "uploads": "benchmarks.uploads",
    "dispute": "benchmarks.dispute",
    "lookback": "benchmarks.lookback",
    "start": "benchmarks.start",
    "live": "benchmarks.live",
    "languages": "benchmarks.languages",
    "kinds": "benchmarks.kinds",
    "soak": "benchmarks.soak",
    "checking": "benchmarks.checking",
    "months": "benchmarks.months",
}


def main(argv: list[str]) -> int:
    chosen = argv or list(BENCHMARKS)
    unknown = [n for n in chosen if n not in BENCHMARKS]
    if unknown:
        print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
        return 2
    status = 0
    for name in chosen:
        print(f"== benchmark {name} ==", flush=True)
        status |= importlib.import_module(BENCHMARKS[name]).main([])
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
