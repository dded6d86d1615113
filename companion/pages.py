"""Reading an SQLite file page by page, without SQLite: the last way to get
rows out of a damaged store, after SQLite's own.

Every page of the file is looked at once, in order, whatever the schema
says (a page may be cut off or overwritten, the tree above it with it):
each b-tree page's cells are decoded (table leaves give rows, index pages
give keys), following a row's overflow pages while its chain is intact (a
chain that leaves the file, loops or runs out is the end of that row only).
Which tree a page belongs to comes from the ``sqlite_schema`` rows found on
the pages (their root pages, walked down through the interior pages that
are still there); a page no walk reaches is left for the caller to place by
the shape of its rows.  Nothing is trusted: every length and offset is
checked against the page, every text must decode, and the work is bounded
by the file's size (a hopeless file is read once and ends).

The format: https://www.sqlite.org/fileformat2.html (the file header's page
size at offset 16, big-endian; page 1 holds the 100-byte header before its
b-tree header; b-tree pages 0x0D table leaf, 0x05 table interior, 0x0A index
leaf, 0x02 index interior; the cell pointer array; varints; records of
serial types).
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MAGIC = b"SQLite format 3\x00"
#: the companion's page size, used when the file header is gone
DEFAULT_PAGE_SIZE = 4096
TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR = 0x0D, 0x05, 0x0A, 0x02
#: the schema table's columns (type, name, tbl_name, rootpage, sql)
SCHEMA_KINDS = ("table", "index", "view", "trigger")
#: overflow pages followed, in all, per page of the file (bounds a file
#: whose cells all claim long chains through the same pages)
OVERFLOW_BUDGET = 8

Value = Any  # None, int, float, str or bytes


@dataclass(frozen=True)
class Cell:
    """One decoded cell: a table leaf's row (``rowid`` and its columns) or
    an index page's key (``rowid`` None)."""

    page: int
    rowid: int | None
    values: tuple[Value, ...]
    #: the tree its page belongs to (a name from sqlite_schema) when a walk
    #: from a root page found in sqlite_schema reached it, else None
    tree: str | None
    index: bool = False


@dataclass
class Scan:
    """What a file's pages hold."""

    page_size: int
    pages: int
    cells: list[Cell] = field(default_factory=list)
    #: name -> root page, from the sqlite_schema rows that could be read
    roots: dict[str, int] = field(default_factory=dict)
    #: index name -> the table it indexes
    indexes: dict[str, str] = field(default_factory=dict)
    btree_pages: int = 0
    #: cells that could not be decoded (out of the page, bad record, bad text)
    bad_cells: int = 0
    #: rows whose overflow chain was cut, looped or overwritten
    broken_chains: int = 0

    def rows(self, tree: str) -> list[Cell]:
        return [c for c in self.cells if c.tree == tree and not c.index]


class _Bad(Exception):
    """A cell that does not decode."""


def scan(path: Path) -> Scan:
    """Every cell of every b-tree page of the file at ``path`` (read-only),
    each page as its write-ahead log (``<path>-wal``) last committed it where
    the log holds it (a store's newest moves are often only there)."""
    wal = read_wal(Path(str(path) + "-wal"))
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        fd = -1
    try:
        size = os.fstat(fd).st_size if fd >= 0 else 0
        if size == 0:
            if not wal.pages:
                return Scan(DEFAULT_PAGE_SIZE, 0)
            return _Reader(b"", 0, wal).run()
        with mmap.mmap(fd, size, access=mmap.ACCESS_READ) as data:
            return _Reader(data, size, wal).run()
    finally:
        if fd >= 0:
            os.close(fd)


# the write-ahead log -------------------------------------------------------------
#: a WAL file's magic numbers: its checksums' words big-endian (…83) or little-endian (…82)
WAL_MAGIC = (0x377F0682, 0x377F0683)
WAL_HEADER, FRAME_HEADER = 32, 24


@dataclass
class Wal:
    """The pages a write-ahead log holds as last committed, by page number,
    and the database's size in pages after the last commit (0: no log)."""

    page_size: int = 0
    pages: dict[int, bytes] = field(default_factory=dict)
    size: int = 0
    #: frames after the last valid commit (a cut write, a torn frame), not used
    uncommitted: int = 0


def _checksum(data: bytes, big: bool, s0: int, s1: int) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), going on from ``s0, s1``."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
        s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
    return s0, s1


def read_wal(path: Path) -> Wal:
    """The committed pages of the WAL at ``path``: frames are taken in order
    while their salts match the header's and their checksums chain; a page
    counts as the last commit frame before the chain breaks left it (see
    https://www.sqlite.org/fileformat2.html#walformat).  Read-only; a
    missing or unreadable log is an empty one."""
    try:
        data = path.read_bytes()
    except OSError:
        return Wal()
    if len(data) < WAL_HEADER:
        return Wal()
    magic, _version, page_size, _seq, salt1, salt2, c0, c1 = struct.unpack(">8I", data[:WAL_HEADER])
    if magic not in WAL_MAGIC or not (512 <= page_size <= 65536 and page_size & (page_size - 1) == 0):
        return Wal()
    big = magic & 1 == 1
    if _checksum(data[:24], big, 0, 0) != (c0, c1):
        return Wal()
    out = Wal(page_size)
    pending: dict[int, bytes] = {}
    s0, s1 = c0, c1
    at = WAL_HEADER
    while at + FRAME_HEADER + page_size <= len(data):
        number, commit, f_salt1, f_salt2, f0, f1 = struct.unpack(">6I", data[at:at + FRAME_HEADER])
        page = data[at + FRAME_HEADER:at + FRAME_HEADER + page_size]
        if (f_salt1, f_salt2) != (salt1, salt2) or number < 1:
            break
        s0, s1 = _checksum(data[at:at + 8], big, s0, s1)
        s0, s1 = _checksum(page, big, s0, s1)
        if (s0, s1) != (f0, f1):
            break
        pending[number] = page
        if commit:
            out.pages.update(pending)
            pending.clear()
            out.size = commit
        at += FRAME_HEADER + page_size
    out.uncommitted = len(pending)
    return out


class _Reader:
    def __init__(self, data: mmap.mmap | bytes, size: int, wal: Wal | None = None) -> None:
        self.data = data
        self.wal = wal if wal is not None and wal.pages else None
        head = bytes(data[:100])
        if self.wal is not None and 1 in self.wal.pages:
            head = self.wal.pages[1][:100]  # the header as the log last committed it
        page_size, reserved, encoding = DEFAULT_PAGE_SIZE, 0, "utf-8"
        if head[:16] == MAGIC:
            given = int.from_bytes(head[16:18], "big")
            given = 65536 if given == 1 else given
            if 512 <= given <= 65536 and given & (given - 1) == 0:
                page_size = given
                reserved = head[20] if head[20] < page_size - 480 else 0
            encoding = {2: "utf-16-le", 3: "utf-16-be"}.get(int.from_bytes(head[56:60], "big"), "utf-8")
        if self.wal is not None and self.wal.page_size != page_size:
            if head[:16] == MAGIC:
                self.wal = None  # a log of another page size is not this file's
            else:
                page_size = self.wal.page_size  # the file's header is gone: the log's size holds
        self.page_size = page_size
        self.usable = page_size - reserved
        self.encoding = encoding
        self.pages = size // page_size  # a page cut short is not a page
        if self.wal is not None:
            self.pages = max(self.pages, self.wal.size, max(self.wal.pages))
        self.budget = OVERFLOW_BUDGET * self.pages + 64

    # pages ---------------------------------------------------------------------
    def page(self, number: int) -> bytes:
        if self.wal is not None:
            logged = self.wal.pages.get(number)
            if logged is not None:
                return logged
        start = (number - 1) * self.page_size
        return bytes(self.data[start:start + self.page_size]).ljust(self.page_size, b"\0")

    def kind(self, number: int, page: bytes) -> int:
        return page[100 if number == 1 else 0]

    def cell_offsets(self, number: int, page: bytes) -> tuple[int, list[int], int]:
        """The page's type, its cells' offsets and (interior) its right child."""
        base = 100 if number == 1 else 0
        kind = page[base]
        header = 12 if kind in (TABLE_INTERIOR, INDEX_INTERIOR) else 8
        count = int.from_bytes(page[base + 3:base + 5], "big")
        array = base + header
        if array + 2 * count > self.usable:
            raise _Bad("cell pointer array past the page")
        right = int.from_bytes(page[base + 8:base + 12], "big") if header == 12 else 0
        offsets = [int.from_bytes(page[array + 2 * i:array + 2 * i + 2], "big") for i in range(count)]
        return kind, [o for o in offsets if array + 2 * count <= o < self.usable], right

    def run(self) -> Scan:
        out = Scan(self.page_size, self.pages)
        children: dict[int, list[int]] = {}
        found: list[tuple[int, int, int | None, tuple[Value, ...], bool]] = []
        for number in range(1, self.pages + 1):
            page = self.page(number)
            kind = self.kind(number, page)
            if kind not in (TABLE_LEAF, TABLE_INTERIOR, INDEX_LEAF, INDEX_INTERIOR):
                continue
            try:
                kind, offsets, right = self.cell_offsets(number, page)
            except _Bad:
                continue
            out.btree_pages += 1
            below: list[int] = [right] if right else []
            for offset in offsets:
                try:
                    if kind == TABLE_INTERIOR:
                        below.append(int.from_bytes(page[offset:offset + 4], "big"))
                        continue
                    if kind == INDEX_INTERIOR:
                        below.append(int.from_bytes(page[offset:offset + 4], "big"))
                        rowid, values = None, self.index_cell(page, offset + 4)
                    elif kind == INDEX_LEAF:
                        rowid, values = None, self.index_cell(page, offset)
                    else:
                        rowid, values = self.table_cell(page, offset)
                except _Bad:
                    out.bad_cells += 1
                    continue
                except _BrokenChain:
                    out.broken_chains += 1
                    continue
                found.append((number, kind, rowid, values, kind != TABLE_LEAF))
            children[number] = [c for c in below if 1 <= c <= self.pages]
        # the schema: its rows on page 1's tree, else any row of its shape
        schema_pages = _walk(1, children)
        tree_of: dict[int, str] = {n: "sqlite_schema" for n in schema_pages}
        for number, kind, _rowid, values, _index in found:
            if kind == TABLE_LEAF and (number in schema_pages or not schema_pages) and _schema_row(values):
                name, root = str(values[1]), int(values[3])
                if root >= 1 and name not in out.roots:
                    out.roots[name] = root
                    if values[0] == "index":
                        out.indexes[name] = str(values[2])
        for name, root in out.roots.items():
            for n in _walk(root, children):
                tree_of.setdefault(n, name)
        for number, _kind, rowid, values, index in found:
            out.cells.append(Cell(number, rowid, values, tree_of.get(number), index))
        return out

    # cells ---------------------------------------------------------------------
    def table_cell(self, page: bytes, offset: int) -> tuple[int, tuple[Value, ...]]:
        size, offset = _varint(page, offset, self.usable)
        rowid, offset = _varint(page, offset, self.usable)
        if rowid >= 1 << 63:
            rowid -= 1 << 64
        return rowid, self.record(self.payload(page, offset, size, self.usable - 35))

    def index_cell(self, page: bytes, offset: int) -> tuple[Value, ...]:
        size, offset = _varint(page, offset, self.usable)
        return self.record(self.payload(page, offset, size, (self.usable - 12) * 64 // 255 - 23))

    def payload(self, page: bytes, offset: int, size: int, most_local: int) -> bytes:
        """A cell's whole payload: the part on its page, then its overflow
        chain."""
        if size <= most_local:
            if offset + size > self.usable:
                raise _Bad("payload past the page")
            return page[offset:offset + size]
        least = (self.usable - 12) * 32 // 255 - 23
        local = least + (size - least) % (self.usable - 4)
        if local > most_local:
            local = least
        chunk = self.usable - 4
        needed = -(-(size - local) // chunk)
        if offset + local + 4 > self.usable or needed > self.pages:
            raise _Bad("overflow past the page or the file")
        parts = [page[offset:offset + local]]
        next_page = int.from_bytes(page[offset + local:offset + local + 4], "big")
        seen: set[int] = set()
        left = size - local
        while left > 0:
            if not 1 <= next_page <= self.pages or next_page in seen or self.budget <= 0:
                raise _BrokenChain()
            seen.add(next_page)
            self.budget -= 1
            over = self.page(next_page)
            take = min(left, chunk)
            parts.append(over[4:4 + take])
            left -= take
            next_page = int.from_bytes(over[:4], "big")
        if next_page != 0:
            raise _BrokenChain()  # the chain goes on past the payload: not this row's
        return b"".join(parts)

    def record(self, payload: bytes) -> tuple[Value, ...]:
        end = len(payload)
        header, at = _varint(payload, 0, end)
        if not at <= header <= end:
            raise _Bad("record header past the payload")
        types: list[int] = []
        while at < header:
            serial, at = _varint(payload, at, header)
            types.append(serial)
        body = header
        values: list[Value] = []
        for serial in types:
            length = _serial_length(serial)
            if body + length > end:
                raise _Bad("record body past the payload")
            raw = payload[body:body + length]
            body += length
            if serial == 0:
                values.append(None)
            elif serial <= 6:
                values.append(int.from_bytes(raw, "big", signed=True))
            elif serial == 7:
                values.append(struct.unpack(">d", raw)[0])
            elif serial in (8, 9):
                values.append(serial - 8)
            elif serial % 2 == 0:
                values.append(bytes(raw))
            else:
                try:
                    values.append(raw.decode(self.encoding))
                except UnicodeDecodeError:
                    raise _Bad("text that does not decode") from None
        if body != end:
            raise _Bad("record shorter than its payload")
        return tuple(values)


class _BrokenChain(Exception):
    """An overflow chain cut off, looping or leaving the file."""


_LENGTHS = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}


def _serial_length(serial: int) -> int:
    if serial in _LENGTHS:
        return _LENGTHS[serial]
    if serial < 12:
        raise _Bad(f"serial type {serial} is reserved")
    return (serial - 12) // 2 if serial % 2 == 0 else (serial - 13) // 2


def _varint(data: bytes, at: int, end: int) -> tuple[int, int]:
    """SQLite's varint at ``data[at]`` (1 to 9 bytes, big-endian, 7 bits a
    byte but the ninth's 8): its value and where it ends."""
    value = 0
    for i in range(9):
        if at + i >= end:
            raise _Bad("varint past its end")
        byte = data[at + i]
        if i == 8:
            return (value << 8) | byte, at + 9
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + i + 1
    raise AssertionError("unreachable")


def _walk(root: int, children: dict[int, list[int]]) -> set[int]:
    """The pages of the tree at ``root`` that are still b-tree pages."""
    seen: set[int] = set()
    todo = [root] if root in children else []
    while todo:
        n = todo.pop()
        if n in seen:
            continue
        seen.add(n)
        todo.extend(c for c in children.get(n, ()) if c in children and c not in seen)
    return seen


def _schema_row(values: tuple[Value, ...]) -> bool:
    return (len(values) == 5 and values[0] in SCHEMA_KINDS and isinstance(values[1], str)
            and isinstance(values[2], str) and isinstance(values[3], int)
            and (values[4] is None or (isinstance(values[4], str) and values[4].lstrip().upper().startswith("CREATE"))))
