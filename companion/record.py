"""Game records: the export of a whole game, and opening one again.

A record holds the table's configuration (seats, rules options, the edition
data in force), every log entry with the lines it explained (undone ones
marked) and the score sheet.  It holds every secret: the host page asks
before exporting a running game and logs that it did.

Opening a record (``companion replay RECORD.json``, the host page's import)
reads it with every field checked, then replays it step by step through the
rules as they are now: a move the rules refuse, or a step explained with
other lines than the record's, or a different final score sheet, refuses the
record naming that step.  A record that replays the same opens as a
read-only table, for the look-back view.
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
from companion.rules import Explanation, resolve_options
from companion.store import LogEntry, Store
from companion.table import Table, _seats

FORMAT = "table-companion game record 1"
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
    fmt = raw.get("format")
    _need(fmt == FORMAT, name, f"this is not a game record of this companion (format {_short(str(fmt), 60)!r}, "
                               f"expected {FORMAT!r})")
    config = _config(raw.get("config"), name)
    log = raw.get("log")
    _need(isinstance(log, list), name, "'log' must be the list of the game's steps")
    _need(len(log) <= MAX_STEPS, name, f"more than {MAX_STEPS} steps: not a game record")
    entries = tuple(_entry(item, i + 1, name) for i, item in enumerate(log))
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
    )


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
        _need(isinstance(line, dict) and isinstance(line.get("text"), str) and _plain(line), where,
              "each explained line must have a 'text'")
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
def _said(raw: Mapping[str, Any]) -> tuple[Any, ...]:
    """What a line says: its text, its citations and who may see it."""
    cites = tuple((str(c.get("seed")), str(c.get("section")), str(c.get("quote", "")))
                  for c in raw.get("citations", []))
    audience = raw.get("audience")
    return str(raw.get("text")), cites, None if audience is None else tuple(sorted(audience))


def _differs(seq: int, recorded: tuple[Mapping[str, Any], ...], replayed: list[dict[str, Any]]) -> RecordError | None:
    mine = [_said(x) for x in recorded]
    now = [_said(x) for x in replayed]
    if mine == now:
        return None
    for i in range(max(len(mine), len(now))):
        old = mine[i] if i < len(mine) else None
        new = now[i] if i < len(now) else None
        if old != new:
            if old is not None and new is not None and old[0] == new[0]:
                what = "cites other rules" if old[1] != new[1] else "is shown to other seats"
                return RecordError(f"step {seq} does not replay to the same game: the line '{_short(old[0])}' {what} now")
            said = f"'{_short(old[0])}'" if old else "nothing more"
            says = f"'{_short(new[0])}'" if new else "nothing more"
            return RecordError(f"step {seq} does not replay to the same game: the record says {said}, "
                               f"the rules now say {says}")
    return None


def _replay_step(scratch: Table, entry: LogEntry) -> list[dict[str, Any]]:
    """Apply one recorded entry to the scratch table; its lines as JSON."""
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
        note = Explanation.from_json(lines[0])
        actor = Actor.parse(entry.actor, scratch.seat_names)
        accepted = scratch.note(note.text, *note.citations, name=entry.name, actor=actor)
    return [e.to_json() for e in accepted.explanations]


def open_record(record: Record, table_id: str | None = None) -> Table:
    """Replay ``record`` through today's rules and open it as a read-only
    table (in memory).  Raises ``RecordError`` naming the first step that
    does not replay the same."""
    rid = table_id or f"r-{secrets.token_hex(3)}"
    scratch_store = Store(":memory:")
    scratch_store.create_table(rid, record.config.game, record.config.to_json())
    try:
        scratch = Table(rid, record.config, scratch_store)
    except Refusal as err:
        raise RecordError(f"the record's table cannot be set up: {err}") from None
    except Exception as err:  # a game's setup must not take the import down
        raise RecordError(f"the record's table cannot be set up ({type(err).__name__})") from None
    for entry in record.entries:
        try:
            replayed = _replay_step(scratch, entry)
        except RecordError:
            raise
        except Refusal as err:
            raise RecordError(f"step {entry.seq} does not replay: the rules now refuse it: {err}") from None
        except Exception as err:
            raise RecordError(f"step {entry.seq} cannot be replayed ({type(err).__name__}: {_short(str(err), 80)})") from None
        problem = _differs(entry.seq, entry.explanations, replayed)
        if problem is not None:
            raise problem
    last = len(record.entries)
    if record.over is not None and record.over != scratch.is_over():
        raise RecordError(f"after the last step ({last}) the record says the game is "
                          f"{'over' if record.over else 'running'}, the replay says it is "
                          f"{'over' if scratch.is_over() else 'running'}")
    if record.scores is not None:
        _same_scores(record.scores, scratch, last)
    table = Table(rid, record.config, scratch_store, record.entries, read_only=True)
    return table


def _same_scores(recorded: Mapping[str, Any], table: Table, last: int) -> None:
    seats = recorded.get("seats")
    if not isinstance(seats, list):
        raise RecordError("the record's score sheet has no seats")
    mine = {str(s.get("name")): s.get("total") for s in seats if isinstance(s, dict)}
    now = {str(s["name"]): s["total"] for s in table.score().to_json(table.seat_names)["seats"]}
    if mine != now:
        said = ", ".join(f"{k} {v}" for k, v in mine.items())
        says = ", ".join(f"{k} {v}" for k, v in now.items())
        raise RecordError(f"after the last step ({last}) the score sheet differs: the record says {_short(said)}; "
                          f"the replay says {_short(says)}")
