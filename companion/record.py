"""Game records: the export of a whole game, and opening one again.

A record holds the table's configuration (seats, rules options, the edition
data in force), every log entry with the lines it explained (undone ones
marked) and the score sheet.  It holds every secret: the host page asks
before exporting a running game and logs that it did.

Opening a record (``companion replay RECORD.json``, the host page's import)
reads it with every field checked (a file that is not a record, or one with
forged or impossible fields, is refused saying where), then replays it step
by step through the rules as they are now, comparing what each step *means*
(the lines' keys and values, who may see them; the final score sheet), never
its words: a wording fix or another language never changes whether a record
opens.  A record always opens, read-only, for the look-back view; one that
today's rules play differently opens as it was recorded with a
:class:`Divergence` naming the first step where they differ and how, and
``open_record(record, today=True)`` shows what today's rules make of it.

Formats (``docs/records.md``): 1, lines kept as words (read, their words
shown as recorded and not compared); 2, lines kept as meaning.  A record of a
later format than this companion reads is refused, saying so.
"""

from __future__ import annotations

import json
import math
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.commands import Actor, Command
from companion.errors import Refusal
from companion.games import get_game
from companion.games.base import TableConfig
from companion.messages import CORE, Said
from companion.rules import Explanation, resolve_options
from companion.store import LogEntry, Store
from companion.table import Divergence, Table, _seats

#: what a record's ``format`` field says: this name and its version
FORMAT_NAME = "table-companion game record"
#: the record format this companion writes (and the newest it reads)
FORMAT_VERSION = 2
FORMAT = f"{FORMAT_NAME} {FORMAT_VERSION}"
#: the largest record file read (a 600-step evening is about 1 MB)
MAX_RECORD_BYTES = 16 * 1024 * 1024
#: the most log entries a record may have
MAX_STEPS = 20_000
#: the longest text field of a record (a seat name, a line, an argument)
MAX_TEXT = 2_000


class RecordError(Refusal):
    """A record that cannot be opened: unreadable, malformed, or not
    replaying to the same game.  The message says where."""

    code = "record"


@dataclass(frozen=True)
class Record:
    """A record read and checked for shape (not yet replayed)."""

    config: TableConfig
    entries: tuple[LogEntry, ...]
    table: str
    exported_at: str
    state_no: int
    over: bool | None
    scores: Mapping[str, Any] | None
    ended_by_host: bool
    scores_provisional: bool
    #: the record's format version (1: lines as words; 2: lines as meaning)
    version: int = FORMAT_VERSION
    #: the companion that wrote it, as it said ("" for format 1)
    written_by: str = ""

    @property
    def title(self) -> str:
        return get_game(self.config.game).title


def game_record(table: Table, *, ended_by_host: bool = False, scores_provisional: bool = False) -> dict[str, Any]:
    """The whole game: configuration, every log entry (undone ones marked),
    the score sheet.  ``ended_by_host``/``scores_provisional`` are the
    dashboard's own facts about the table."""
    undone = table.undone_seqs()
    return {
        "format": FORMAT,
        "written_by": written_by(),
        "exported_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "table": table.id,
        "game": table.game.key,
        "title": table.game.title,
        "config": table.config.to_json(),
        "state_no": table.state_no,
        "over": table.is_over(),
        "ended_by_host": ended_by_host,
        "scores_provisional": scores_provisional,
        "log": [
            {
                "seq": e.seq,
                "kind": e.kind,
                "actor": e.actor,
                "name": e.name,
                "args": dict(e.args),
                "source": e.source,
                "at": e.at,
                "undone": e.seq in undone,
                "explanations": [dict(x) for x in e.explanations],
            }
            for e in table.entries
        ],
        "scores": table.score().to_json(table.seat_names),
    }


# reading ------------------------------------------------------------------------------------
def read_record(data: bytes | str, name: str = "the record") -> Record:
    """A record from the bytes of a file.  Raises ``RecordError`` with a
    message a host can act on; never anything else."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is larger than {MAX_RECORD_BYTES // (1024 * 1024)} MB: not a game record")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
    except UnicodeDecodeError:
        raise RecordError(f"{name} is not a text file (a game record is JSON in UTF-8)") from None
    try:
        raw = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        raise RecordError(f"{name} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (RecursionError, ValueError) as err:
        raise RecordError(f"{name} is not a game record ({_short(str(err))})") from None
    try:
        return _record(raw, name)
    except RecordError:
        raise
    except Refusal as err:
        raise RecordError(f"{name}: {err}") from None
    except RecursionError:
        raise RecordError(f"{name}: a value is nested too deeply") from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number a record may hold")


def _short(text: str, limit: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _need(cond: bool, name: str, what: str) -> None:
    if not cond:
        raise RecordError(f"{name}: {what}")


def _text(value: Any, name: str, what: str, *, empty: bool = True) -> str:
    _need(isinstance(value, str) and len(value) <= MAX_TEXT and (empty or bool(value)), name,
          f"{what} must be a text of at most {MAX_TEXT} characters")
    return str(value)


def _plain(value: Any, depth: int = 0) -> bool:
    """JSON made of what commands carry: objects, lists, text, finite numbers."""
    if depth > 20:
        return False
    if value is None or isinstance(value, bool | str):
        return not isinstance(value, str) or len(value) <= MAX_TEXT
    if isinstance(value, int):
        return abs(value) < 10**15
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return len(value) <= 1000 and all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return len(value) <= 200 and all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


def _record(raw: Any, name: str) -> Record:
    _need(isinstance(raw, dict), name, "a game record is one JSON object (exported from the host page)")
    version = _version(raw.get("format"), name)
    config = _config(raw.get("config"), name)
    log = raw.get("log")
    _need(isinstance(log, list), name, "'log' must be the list of the game's steps")
    _need(len(log) <= MAX_STEPS, name, f"more than {MAX_STEPS} steps: not a game record")
    entries = tuple(_entry(item, i + 1, name) for i, item in enumerate(log))
    for entry in entries:
        try:
            Actor.parse(entry.actor, config.seat_names())
        except Refusal as err:
            raise RecordError(f"{name}, step {entry.seq}: its actor is none of this table's: {err}") from None
    state_no = raw.get("state_no", len(entries))
    _need(state_no == len(entries), name, f"it says it has {_short(str(state_no), 20)} steps but its log has {len(entries)}")
    over = raw.get("over")
    _need(over is None or isinstance(over, bool), name, "'over' must be true or false")
    scores = raw.get("scores")
    _need(scores is None or isinstance(scores, dict), name, "'scores' must be the score sheet object")
    return Record(
        config=config,
        entries=entries,
        table=_text(raw.get("table", ""), name, "'table'")[:40],
        exported_at=_text(raw.get("exported_at", ""), name, "'exported_at'")[:40],
        state_no=len(entries),
        over=over,
        scores=scores,
        ended_by_host=raw.get("ended_by_host") is True,
        scores_provisional=raw.get("scores_provisional") is True,
        version=version,
        written_by=_text(raw.get("written_by", ""), name, "'written_by'")[:80],
    )


def _version(fmt: Any, name: str) -> int:
    """The format version a record's ``format`` field names."""
    prefix = FORMAT_NAME + " "
    _need(isinstance(fmt, str) and fmt.startswith(prefix) and fmt[len(prefix):].isdigit(), name,
          f"this is not a game record of this companion (format {_short(str(fmt), 60)!r}, expected {FORMAT!r})")
    version = int(str(fmt)[len(prefix):])
    _need(version >= 1, name, f"format {_short(str(fmt), 60)!r} is no record format")
    _need(version <= FORMAT_VERSION, name,
          f"it was written by a newer companion (record format {version}; this companion reads formats 1 to "
          f"{FORMAT_VERSION}): update this companion to open it")
    return version


def _config(raw: Any, name: str) -> TableConfig:
    _need(isinstance(raw, dict), name, "'config' (the table's seats, options and edition) is missing")
    key = _text(raw.get("game"), name, "the game", empty=False)
    game = get_game(key)  # SetupError (a Refusal) names the games
    seats_raw = raw.get("seats")
    _need(isinstance(seats_raw, list) and all(isinstance(s, dict) for s in seats_raw), name,
          "'seats' must be a list of seats with a name and a colour")
    seats = _seats([{"name": _text(s.get("name"), name, "a seat's name"),
                     "colour": _text(s.get("colour", ""), name, "a seat's colour")} for s in seats_raw], game.colours)
    _need(game.min_seats <= len(seats) <= game.max_seats, name,
          f"{game.title} is for {game.min_seats}-{game.max_seats} seats, not {len(seats)}")
    options = raw.get("options", {})
    _need(isinstance(options, dict) and all(isinstance(v, str) for v in options.values()), name,
          "'options' must map each rules option to its reading")
    try:
        full = resolve_options(game.options, options)
    except ValueError as err:
        raise RecordError(f"{name}: {err}") from None
    start = raw.get("start_seat", 0)
    _need(isinstance(start, int) and not isinstance(start, bool) and 0 <= start < len(seats), name,
          "'start_seat' must be one of the seats' numbers")
    edition = raw.get("edition", {})
    _need(isinstance(edition, dict) and _plain(edition), name, "'edition' must be the game's component data")
    problems = game.edition_problems(edition) if edition else []
    _need(not problems, name, "its component data cannot be used: " + "; ".join(_short(p, 80) for p in problems[:3]))
    extra = {k: v for k, v in raw.items() if k not in ("game", "seats", "options", "start_seat", "edition")}
    if extra:  # fields of a newer companion (a position block): read them as that version writes them
        _need(_plain(extra), name, "'config' holds values a record may not hold")
    try:
        config = TableConfig.from_json({**raw, "seats": [s.to_json() for s in seats], "options": full})
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"{name}: 'config' cannot be read ({_short(str(err))})") from None
    return config


def _entry(raw: Any, seq: int, name: str) -> LogEntry:
    where = f"{name}, step {seq}"
    _need(isinstance(raw, dict), where, "each step must be an object")
    _need(raw.get("seq") == seq, where, f"the steps must be numbered 1, 2, 3, … (found {_short(str(raw.get('seq')), 20)})")
    kind = raw.get("kind")
    _need(kind in ("move", "undo", "note"), where, "'kind' must be move, undo or note")
    actor = _text(raw.get("actor"), where, "'actor'", empty=False)
    args = raw.get("args", {})
    _need(isinstance(args, dict) and _plain(args), where, "'args' must be an object of plain values")
    at = raw.get("at", 0.0)
    _need(isinstance(at, int | float) and not isinstance(at, bool) and math.isfinite(at), where, "'at' must be a time")
    explanations = raw.get("explanations", [])
    _need(isinstance(explanations, list) and len(explanations) <= 200, where, "'explanations' must be a list of lines")
    for line in explanations:
        said = line.get("say") if isinstance(line, dict) else None
        _need(isinstance(line, dict) and _plain(line) and (
            isinstance(line.get("text"), str) or (isinstance(said, dict) and isinstance(said.get("key"), str))),
            where, "each explained line must have what it says (a 'say' with its key, or its 'text')")
        cites = line.get("citations", [])
        _need(isinstance(cites, list) and all(isinstance(c, dict) and isinstance(c.get("seed"), str)
                                              and isinstance(c.get("section"), str) for c in cites),
              where, "each citation must name a seed and a section")
        audience = line.get("audience")
        _need(audience is None or (isinstance(audience, list) and all(isinstance(s, int) for s in audience)),
              where, "a line's audience must be a list of seat numbers")
    if kind == "undo":
        undoes = args.get("undoes")
        _need(isinstance(undoes, list) and bool(undoes) and all(isinstance(s, int) and not isinstance(s, bool)
                                                               and 0 < s < seq for s in undoes),
              where, "an undo must name the earlier steps it undoes")
    return LogEntry(seq, str(kind), actor, _text(raw.get("name"), where, "'name'", empty=False), args,
                    _text(raw.get("source", ""), where, "'source'"), float(at),
                    tuple(dict(x) for x in explanations))


# replaying ----------------------------------------------------------------------------------
def written_by() -> str:
    """This companion, as a record names the version that wrote it."""
    from companion import __version__

    return f"companion {__version__}"


def _meant(raw: Mapping[str, Any]) -> tuple[Any, Any] | None:
    """What a stored line means (its sentence and who may see it); ``None``
    for a line kept as words (format 1), which is not compared."""
    said = raw.get("say")
    if not isinstance(said, dict):
        return None
    audience = raw.get("audience")
    return json.dumps(said, sort_keys=True), None if audience is None else sorted(audience)


def _differs(table: Table, recorded: tuple[Mapping[str, Any], ...], replayed: list[dict[str, Any]]) -> str | None:
    """How today's lines for a step differ from the recorded ones, by what
    they mean; ``None`` when they agree (or the record kept words only)."""
    mine = [_meant(x) for x in recorded]
    if any(m is None for m in mine):
        return None  # kept as words: what a step said is not compared, only that it plays
    now = [_meant(x) for x in replayed]
    if mine == now:
        return None
    for i in range(max(len(mine), len(now))):
        old = mine[i] if i < len(mine) else None
        new = now[i] if i < len(now) else None
        if old == new:
            continue
        said = f"'{_short(_drawn(table, recorded[i]))}'" if old else "nothing more"
        says = f"'{_short(_drawn(table, replayed[i]))}'" if new else "nothing more"
        if old is not None and new is not None and old[0] == new[0]:
            return f"the line {said} is shown to other seats today"
        return f"the record says {said}, today's rules say {says}"
    return None


def _drawn(table: Table, raw: Mapping[str, Any]) -> str:
    said = raw.get("say")
    return table.words(said) if isinstance(said, dict) else str(raw.get("text", ""))


def _replay_step(scratch: Table, entry: LogEntry) -> list[dict[str, Any]]:
    """Apply one recorded entry to the scratch table; its lines as stored."""
    if entry.kind == "move":
        actor = Actor.parse(entry.actor, scratch.seat_names)
        accepted = scratch.submit(Command(actor, entry.name, entry.args, None, entry.source))
    elif entry.kind == "undo":
        wanted = [int(s) for s in entry.args["undoes"]]
        undone = scratch.undone_seqs()
        active = [e.seq for e in scratch.entries if e.kind == "move" and e.seq not in undone]
        if active[-len(wanted):] != sorted(wanted) or len(wanted) > len(active):
            raise RecordError(f"step {entry.seq} undoes steps {wanted}, which were not the last moves in force")
        accepted = scratch.undo(len(wanted), reason=str(entry.args.get("reason", ""))[:200])
    else:
        lines = list(entry.explanations)
        if len(lines) != 1:
            raise RecordError(f"step {entry.seq}: a note has exactly one line")
        note = Explanation.from_json(lines[0], scratch.words)
        text = Said.stored(note.text, note.said) if note.said is not None else note.text
        actor = Actor.parse(entry.actor, scratch.seat_names)
        accepted = scratch.note(text, *note.citations, name=entry.name, actor=actor)
    return [e.to_store() for e in accepted.explanations]


def _scratch(record: Record, rid: str) -> Table:
    store = Store(":memory:")
    store.create_table(rid, record.config.game, record.config.to_json())
    try:
        return Table(rid, record.config, store)
    except Refusal as err:
        raise RecordError(f"the record's table cannot be set up: {err}") from None
    except Exception as err:  # a game's setup must not take the import down
        raise RecordError(f"the record's table cannot be set up ({type(err).__name__})") from None


def open_record(record: Record, table_id: str | None = None, *, today: bool = False) -> Table:
    """Open ``record`` as a read-only table (in memory), replaying it
    through today's rules.

    A record today's rules play as recorded opens as it is.  One they play
    differently opens all the same, as it was recorded: its log is the
    record's, its board the one after the last step they agree on, and
    ``table.divergence`` (a :class:`Divergence`) says where and how.  With
    ``today``, the table is what today's rules make of the record instead: a
    step they refuse is logged as a note saying so, and the rest are played
    on.  Raises ``RecordError`` only for what no record holds (an undo of
    steps that were not the last in force)."""
    rid = table_id or f"r-{secrets.token_hex(3)}"
    scratch = _scratch(record, rid)
    if today:
        return _today(record, scratch)
    divergence: Divergence | None = None
    for entry in record.entries:
        try:
            replayed = _replay_step(scratch, entry)
        except RecordError:
            raise
        except Refusal as err:
            divergence = Divergence(entry.seq, f"today's rules refuse step {entry.seq} ({_step_name(scratch, entry)}): "
                                               f"{err}", entry.seq - 1)
            break
        except Exception as err:
            divergence = Divergence(entry.seq, f"today's rules cannot play step {entry.seq} ({type(err).__name__}: "
                                               f"{_short(str(err), 80)})", entry.seq - 1)
            break
        how = _differs(scratch, entry.explanations, replayed)
        if how is not None:
            divergence = Divergence(entry.seq, f"at step {entry.seq} {how}", entry.seq - 1)
            break
    last = len(record.entries)
    if divergence is None:
        how = _end_differs(record, scratch)
        if how is not None:
            divergence = Divergence(last, how, last)
    played_to = None if divergence is None or divergence.played_to >= last else divergence.played_to
    table = Table(rid, record.config, scratch.store, record.entries, read_only=True, played_to=played_to)
    table.divergence = divergence
    return table


def _step_name(table: Table, entry: LogEntry) -> str:
    return f"{table.actor_label(entry.actor)}: {entry.name}"


def _today(record: Record, scratch: Table) -> Table:
    for entry in record.entries:
        try:
            _replay_step(scratch, entry)
        except (Refusal, RecordError) as err:
            scratch.note(CORE.says("core.refused_today", step=entry.seq, what=_step_name(scratch, entry),
                                   reason=_short(str(err), 300)), name="refused-today")
        except Exception as err:
            scratch.note(CORE.says("core.refused_today", step=entry.seq, what=_step_name(scratch, entry),
                                   reason=type(err).__name__), name="refused-today")
    table = Table(scratch.id, record.config, scratch.store, scratch.entries, read_only=True)
    table.divergence = None
    return table


def _end_differs(record: Record, table: Table) -> str | None:
    """How the game's end differs (over or not, the score sheet), or ``None``."""
    last = len(record.entries)
    if record.over is not None and record.over != table.is_over():
        return (f"after the last step ({last}) the record says the game is {'over' if record.over else 'running'}, "
                f"today's rules say it is {'over' if table.is_over() else 'running'}")
    if record.scores is None:
        return None
    seats = record.scores.get("seats")
    if not isinstance(seats, list):
        return "the record's score sheet has no seats"
    mine = {str(s.get("name")): s.get("total") for s in seats if isinstance(s, dict)}
    now = {str(s["name"]): s["total"] for s in table.score().to_json(table.seat_names)["seats"]}
    if mine == now:
        return None
    said = []
    for name in now:
        old, new = mine.get(name), now[name]
        if old == new:
            continue
        if isinstance(old, int | float) and isinstance(new, int | float):
            more = new - old
            points = "point" if abs(more) == 1 else "points"
            said.append(f"{name} {abs(more):g} {points} {'more' if more > 0 else 'fewer'} ({new:g}, recorded {old:g})")
        else:
            said.append(f"{name} {new} (recorded {old})")
    return f"after the last step ({last}) today's rules give " + "; ".join(said)
