"""Giving memory back to the system when a table leaves it.

A finished table that leaves memory (``Room``, past the ``keep_finished``
most recent) frees its objects, but CPython's allocator and glibc's ``malloc`` keep the freed
pages for reuse, and with a thread per connection glibc spreads them over
several arenas: over an evening of games the process's resident size
creeps up by the fragments left behind.  :func:`give_back` asks glibc to
return its free pages (``malloc_trim``), and is called when a table
leaves memory, not per request.

Measured by the soak benchmark (benchmarks/soak.py, games through HTTP):
RSS from game 10 to game 200 grew +16 MB without it and +9 to +11.4 MB with
it, and +13 to +17 MB by game 600 (docs/benchmarks.md, *A long evening*);
each call took 0.7 ms (median, 1.0 ms p95).  A full ``gc.collect()`` before it gained little more and took
18 ms, so the tables' cycles are left to the collector's own schedule.
Where the C library is not glibc (musl, macOS) it does nothing.
"""

from __future__ import annotations

import ctypes
import logging
import threading
import time
from collections.abc import Callable

log = logging.getLogger("companion.memory")

_lock = threading.Lock()
_trim: Callable[[int], int] | None = None
_looked = False


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` where there is none.  Looked up
    among the symbols the process already has (the C library Python runs
    on), so finding it runs no program (``ctypes.util.find_library`` would
    run ``ldconfig``)."""
    global _trim, _looked
    with _lock:
        if not _looked:
            _looked = True
            try:
                found = getattr(ctypes.CDLL(None), "malloc_trim", None)
            except (OSError, AttributeError):
                found = None
            if found is not None:
                found.argtypes = [ctypes.c_size_t]
                found.restype = ctypes.c_int
                _trim = found
        return _trim


def give_back() -> float:
    """Return free heap pages to the system; the seconds it took."""
    started = time.perf_counter()
    trim = _malloc_trim()
    if trim is not None:
        try:
            trim(0)
        except OSError as err:  # never fatal: memory is only kept longer
            log.debug("malloc_trim failed: %s", err)
    took = time.perf_counter() - started
    log.debug("memory given back in %.1f ms", took * 1000)
    return took
