"""Memory given back when a table leaves it (companion/memory.py): glibc's
``malloc_trim`` is found and called, once per let-go, never per move."""

from __future__ import annotations

import ctypes
import platform

import pytest

from companion import memory
from companion import table as table_module
from companion.store import Store
from companion.table import Room
from tests.core.test_room_memory import finish
from tests.core.test_table import add


def test_glibc_s_malloc_trim_is_found_and_gives_back(monkeypatch: pytest.MonkeyPatch) -> None:
    if platform.libc_ver()[0] != "glibc":
        pytest.skip("malloc_trim is glibc's")
    monkeypatch.setattr(memory, "_looked", False)
    monkeypatch.setattr(memory, "_trim", None)
    # freed memory at the top of the heap is trimmed: malloc_trim answers 1
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(64 * 1024 - 64) for _ in range(200)]  # under the mmap threshold: on the heap
    for block in blocks:
        libc.free(block)
    trim = memory._malloc_trim()
    assert trim is not None
    assert trim(0) in (0, 1)  # 1: pages went back; 0: another thread's arena had none to give
    assert memory.give_back() >= 0.0


def test_without_malloc_trim_it_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "_looked", True)
    monkeypatch.setattr(memory, "_trim", None)
    assert memory.give_back() >= 0.0


def test_a_failing_trim_is_never_fatal(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(_pad: int) -> int:
        raise OSError("no")

    monkeypatch.setattr(memory, "_looked", True)
    monkeypatch.setattr(memory, "_trim", broken)
    assert memory.give_back() >= 0.0


def test_memory_is_given_back_when_a_table_leaves_it_and_not_per_move(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted() -> float:
        calls.append(1)
        return 0.0

    monkeypatch.setattr(table_module, "give_back", counted)
    room = Room(store, keep_finished=1)
    first = room.open_table("tally", ["Ann", "Bob"])
    first.submit(add(0, 2))
    finish(first)
    assert calls == []  # finished and kept (the last one): nothing left memory
    second = room.open_table("tally", ["Ann", "Bob"])
    for _ in range(3):
        second.submit(add(second.state.turn, 1))
    assert calls == []  # moves never trim
    finish(second)
    assert calls == [1]  # the first table left memory: given back once
