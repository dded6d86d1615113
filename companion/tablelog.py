"""A table's log in memory, read from the store only as far as it is used.

A table loaded from the store knows every entry's kind and what each undo
takes back (two small reads) and the entries after its snapshot (what it
replays).  Any other entry is read from the store the first time something
asks for it (the newest ones for the screens' log, in chunks; the whole log
for an export or the score chart), then kept: the log is append-only, so
what was read never changes.  A table made from a list of entries (a game
record, a sandbox, a test) holds them all from the start.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from companion import languages
from companion.rules import Explanation
from companion.store import LogEntry

#: entries read at once when one is missing (it and those before it)
CHUNK = 64
#: reads entries ``first`` to ``last`` (by seq, both included) from the store
Fetch = Callable[[int, int], list[LogEntry]]


class TableLog:
    def __init__(
        self,
        entries: Iterable[LogEntry] = (),
        *,
        kinds: Sequence[str] = (),
        undos: Iterable[LogEntry] = (),
        fetch: Fetch | None = None,
    ) -> None:
        """Either every entry (``entries``), or, for a table in the store,
        every entry's kind (``kinds``), the undo entries (``undos``) and
        ``fetch`` to read the others when needed."""
        self._fetch = fetch
        self._rows: list[LogEntry | None] = [None] * len(kinds)
        self.kinds: list[str] = list(kinds)
        #: each entry's explanation lines, parsed on first use, in the source
        #: language; in another language, drawn on first use in that one
        self._lines: list[tuple[Explanation, ...] | None] = [None] * len(kinds)
        self._lines_in: dict[str, dict[int, tuple[Explanation, ...]]] = {}
        self._private: dict[int, bool] = {}
        #: draws a line stored as meaning in words (the table sets it: its game's catalog)
        self.words: Callable[[Any], str] | None = None
        self.undone: set[int] = set()
        for undo in undos:
            self._put(undo)
            self.undone.update(undo.undoes())
        for entry in entries:
            self.append(entry)

    def __len__(self) -> int:
        return len(self.kinds)

    def _put(self, entry: LogEntry) -> None:
        self._rows[entry.seq - 1] = entry

    def append(self, entry: LogEntry, lines: Sequence[Explanation] | None = None) -> None:
        """Keep an appended entry (its ``seq`` is the next number); ``lines``:
        its explanation lines as the table just said them (their words
        drawn already, so they are not read back and drawn again)."""
        if entry.seq != len(self.kinds) + 1:
            raise ValueError(f"log entry {entry.seq} after {len(self.kinds)}")
        self.kinds.append(entry.kind)
        self._rows.append(entry)
        lang = languages.current()
        if lang == languages.SOURCE or lines is None:
            self._lines.append(None if lines is None else tuple(lines))
        else:  # said in the language of whoever acted: kept as that language's words
            self._lines.append(None)
            self._lines_in.setdefault(lang, {})[entry.seq] = tuple(lines)
        self.undone.update(entry.undoes())

    def load(self, first: int, last: int | None = None) -> None:
        """Have entries ``first`` to ``last`` (default: the end) in memory,
        reading the missing ones in one go."""
        last = len(self.kinds) if last is None else min(last, len(self.kinds))
        first = max(first, 1)
        missing = [s for s in range(first, last + 1) if self._rows[s - 1] is None]
        if not missing:
            return
        if self._fetch is None:  # pragma: no cover - a log made from entries has them all
            raise LookupError(f"log entry {missing[0]} is not kept")
        for entry in self._fetch(missing[0], missing[-1]):
            if self._rows[entry.seq - 1] is None:
                self._put(entry)

    def entry(self, seq: int) -> LogEntry:
        row = self._rows[seq - 1]
        if row is None:
            # the entries before it are likely next (the screens read the log backwards)
            self.load(max(1, seq - CHUNK + 1), seq)
            row = self._rows[seq - 1]
            if row is None:
                raise LookupError(f"the store has no log entry {seq}")
        return row

    def between(self, first: int, last: int | None = None) -> list[LogEntry]:
        """Entries ``first`` to ``last`` (default: the end), in order."""
        last = len(self.kinds) if last is None else last
        self.load(first, last)
        return [self.entry(s) for s in range(max(first, 1), last + 1)]

    def all(self) -> list[LogEntry]:
        return self.between(1)

    def lines(self, seq: int) -> tuple[Explanation, ...]:
        """Entry ``seq``'s lines, their words in the language spoken now."""
        lang = languages.current()
        if lang != languages.SOURCE:
            drawn = self._lines_in.setdefault(lang, {})
            found = drawn.get(seq)
            if found is None:
                found = drawn[seq] = self._parse(seq)
            return found
        lines = self._lines[seq - 1]
        if lines is None:
            lines = self._lines[seq - 1] = self._parse(seq)
        return lines

    def _parse(self, seq: int) -> tuple[Explanation, ...]:
        return tuple(Explanation.from_json(raw, self.words) for raw in self.entry(seq).explanations)

    def private(self, seq: int) -> bool:
        """Whether a line of entry ``seq`` is for some seats only (worked out once)."""
        found = self._private.get(seq)
        if found is None:
            found = self._private[seq] = any(line.audience is not None for line in self.lines(seq))
        return found

    def active_moves(self) -> list[int]:
        """The seqs of the moves in force (not undone), in order."""
        undone = self.undone
        return [i + 1 for i, kind in enumerate(self.kinds) if kind == "move" and i + 1 not in undone]

    def undone_up_to(self, seq: int) -> int:
        """How many of the entries up to ``seq`` are undone."""
        return sum(1 for s in self.undone if s <= seq)
