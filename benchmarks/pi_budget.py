"""The "Pi budget" column: a figure measured here, scaled to a Raspberry Pi.

There is no Pi on the machine the benchmarks run on, so a CPU-bound figure
(CPU time, or a latency made of CPU work) is multiplied by an *estimated*
per-core factor: how many times longer one core of a Pi takes for the same
single-threaded Python work than one core of this machine.  The factors
below are estimates, the same for every benchmark that uses this module
(the core's figures and the dashboard's), kept in this one place.

Where they come from (public single-thread comparisons, none measured here):

* Pi 4 (Cortex-A72, 1.5-1.8 GHz) against a current x86 server core (the
  "Intel Xeon Processor" / AMD EPYC vCPUs this project is measured on):
  about 4-6 times slower per core in published single-thread results
  (e.g. sysbench single-thread and Geekbench 6 single-core result lists);
  5 is used.
* Pi 5 (Cortex-A76, 2.4 GHz): 2-3 times a Pi 4 per core (Raspberry Pi
  Ltd's launch figure; sysbench single-thread +128 % in third-party
  tests), so about 2 times slower than a core here; 2 is used.

Memory, threads and descriptors are not scaled (a Pi holds the same
objects); wall-clock figures dominated by waiting (network, fsync on an SD
card) are not either: only CPU work is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

#: where the factors come from, in one line for a table's caption
SOURCE = ("estimated per-core factors, not measured on a Pi: Pi 4 = 5x this machine's core, "
          "Pi 5 = 2x (public single-thread comparisons; see benchmarks/pi_budget.py)")


@dataclass(frozen=True)
class Pi:
    name: str
    #: how many times longer one of its cores takes than one core here
    factor: float


PI4 = Pi("Pi 4", 5.0)
PI5 = Pi("Pi 5", 2.0)
PIS: tuple[Pi, ...] = (PI4, PI5)


def on_pi(value: float, pi: Pi) -> float:
    """A CPU-bound figure measured here, as a Pi would need it."""
    return value * pi.factor


def budget(value: float, unit: str = "ms", digits: int = 1) -> str:
    """The "Pi budget" cell: ``"Pi 4 ≈ 25.0 ms · Pi 5 ≈ 10.0 ms"``."""
    if math.isnan(value):
        return "n/a"
    return " · ".join(f"{pi.name} ≈ {on_pi(value, pi):.{digits}f} {unit}".rstrip() for pi in PIS)
