"""``companion``: the command line.

Core subcommands live here (``play``, ``games``, ``rules``, ``edition``);
the hardware package adds ``scan``, ``tags`` and ``doctor``, the web package
``serve``.  Exit status: 0 done, 2 refused or bad input.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from companion import jsontext, languages, store_words
from companion.commands import Actor, Command
from companion.edition import EditionError, edition_path
from companion.errors import Refusal
from companion.games import game_keys, get_game
from companion.games.base import HOST_SCREEN, TABLE_SCREEN, Viewer, seat_viewer
from companion.lookback import look_back
from companion.record import open_record, read_record
from companion.settings import ConfigError, load_config
from companion.store import Store, StoreDamaged, StoreNotMigrated, StoreTooNew, default_db_path
from companion.table import Room, Table

#: modules that add subcommands: each has ``register(subparsers)``
EXTENSIONS = ("hardware.cli", "web.cli", "companion.appliance", "companion.update")
#: the subcommands defined here: running one imports no extension (``web.cli``
#: would bring Flask and Werkzeug, about 0.1 s, for a command that needs neither)
CORE_COMMANDS = frozenset({"play", "games", "rules", "edition", "replay", "backup", "restore"})

Handler = Callable[[argparse.Namespace], int]


class ScriptError(Exception):
    """A play script that cannot be run as written."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        _path, _taken, warnings = load_config()
    except ConfigError as err:
        print(f"companion: {err}", file=sys.stderr)
        return 2
    for warning in warnings:
        print(f"companion: {warning}", file=sys.stderr)
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(extensions=_command_of(arguments) not in CORE_COMMANDS)
    args = parser.parse_args(arguments)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        with languages.speaking(cli_language(getattr(args, "lang", None))):
            return handler(args)
    except BrokenPipeError:
        return 0


def cli_language(chosen: str | None, environ: Mapping[str, str] | None = None) -> str:
    """What a command says its sentences in: ``--lang``, else the locale
    (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them: ``fr_FR.UTF-8``
    is French), else English."""
    if chosen:
        return languages.known(chosen) or languages.SOURCE
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return languages.known(value.split(".", 1)[0]) or languages.SOURCE
    return languages.SOURCE


def _command_of(arguments: Sequence[str]) -> str | None:
    """The subcommand named on the command line (the first word that is not an
    option: ``companion`` itself takes only ``--help`` and ``--version``)."""
    return next((a for a in arguments if not a.startswith("-")), None)


def build_parser(extensions: bool = True) -> argparse.ArgumentParser:
    """The whole command line; ``extensions=False`` leaves out the
    subcommands other packages add (a core subcommand is being run)."""
    parser = argparse.ArgumentParser(
        prog="companion", description="Table Companion: bank, bookkeeper and referee for board games."
    )
    parser.add_argument("--version", action="version", version=version_line())
    sub = parser.add_subparsers(metavar="COMMAND")

    play = sub.add_parser("play", help="play a scripted game headless and print the result")
    play.add_argument("script", type=Path, help="a JSON script (see docs/)")
    play.add_argument("--db", type=Path, help="keep the table in this SQLite file")
    play.add_argument("--text", action="store_true", help="print the log and scores as text")
    play.add_argument("--lang", choices=sorted(languages.LANGUAGES),
                      help="the language of the lines and scores (default: the locale, LANG)")
    play.set_defaults(handler=cmd_play)

    games = sub.add_parser("games", help="list the games and their rules options")
    games.add_argument("--json", action="store_true")
    games.set_defaults(handler=cmd_games)

    rules = sub.add_parser("rules", help="show a game's rules options with the quotes behind them")
    rules.add_argument("game", choices=game_keys())
    rules.add_argument("--json", action="store_true")
    rules.set_defaults(handler=cmd_rules)

    edition = sub.add_parser("edition", help="print the component data in force, or check an edition file")
    edition.add_argument("game", choices=game_keys())
    edition.add_argument("file", nargs="?", type=Path, help="an edition file to check")
    edition.set_defaults(handler=cmd_edition)

    replay = sub.add_parser("replay", help="open an exported game record again (read-only) and look back at its steps")
    replay.add_argument("record", type=Path, help="a game record exported from the host page (JSON)")
    replay.add_argument("--step", type=int, help="show the table before and after this step")
    replay.add_argument("--as", dest="viewer", default="table",
                        help="whose view: 'table' (the table screen, default), 'host' or a seat's name")
    replay.add_argument("--json", action="store_true", help="print JSON")
    replay.add_argument("--today", action="store_true",
                        help="show what today's rules make of the record (a record they play differently)")
    replay.set_defaults(handler=cmd_replay)

    backup = sub.add_parser(
        "backup", help="back up the store now (SQLite's online backup: safe while the companion runs)"
    )
    backup.add_argument("--db", type=Path, help="the store (default $COMPANION_DB or the data dir)")
    backup.add_argument("--to", type=Path, help="the folder (default: backups/ beside the store, "
                        "or $COMPANION_BACKUP_DIR)")
    backup.add_argument("--list", action="store_true", help="list the backups instead of making one")
    backup.set_defaults(handler=cmd_backup)

    restore = sub.add_parser("restore", help="put a backup in the store's place (the companion must be stopped)")
    restore.add_argument("backup", type=Path, help="a backup file (companion backup --list)")
    restore.add_argument("--db", type=Path, help="the store (default $COMPANION_DB or the data dir)")
    restore.set_defaults(handler=cmd_restore)

    for name in EXTENSIONS if extensions else ():
        importlib.import_module(name).register(sub)
    return parser


def version_line() -> str:
    """``companion --version``: the installed version and where it runs from."""
    import platform

    from companion import __version__

    try:
        from importlib.metadata import version

        installed = version("table-companion")
    except Exception:  # not installed (run from a checkout with PYTHONPATH)
        installed = __version__
    here = Path(__file__).resolve().parent.parent
    return f"companion {installed} (Python {platform.python_version()}, {platform.machine()}, {here})"


# play -------------------------------------------------------------------------
def load_script(path: Path) -> dict[str, Any]:
    return read_script(path)[0]


def read_script(path: Path) -> tuple[dict[str, Any], list[int]]:
    """A play script and the line of the file each of its commands begins on
    (for messages: "command 15 (line 40 of the file)")."""
    try:
        data = path.read_bytes()
        raw = jsontext.loads(data)
    except FileNotFoundError:
        raise ScriptError(f"{path}: no such file") from None
    except jsontext.JSONRefused as err:
        raise ScriptError(f"{path}: {err}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ScriptError(f"{path}: cannot be read ({err})") from None
    if not isinstance(raw, dict):
        raise ScriptError(f"{path}: a script is one JSON object with 'game', 'seats' and 'commands'")
    for key, kind in (("game", str), ("seats", list), ("commands", list)):
        if not isinstance(raw.get(key), kind):
            raise ScriptError(f"{path}: '{key}' is missing or is not a {kind.__name__}")
    if "options" in raw and not isinstance(raw["options"], dict):
        raise ScriptError(f"{path}: 'options' must be an object of option -> reading")
    if "position" in raw and not isinstance(raw["position"], dict):
        raise ScriptError(f"{path}: 'position' must be an object: the game's position block (see docs/games/)")
    lines = jsontext.item_lines(data.decode("utf-8"), "commands")
    return raw, lines if len(lines) == len(raw["commands"]) else []


def _(message: str, /, **values: object) -> str:
    """A sentence of the command line's own (the core domain, no context),
    in the language spoken, filled in with ``values`` (``{name}``)."""
    return languages.gettext_in("core", "", message, None, **values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the language spoken."""
    return languages.words_for("core", "", (singular, plural), n).format(n=n, **values)


def command_named(index: int, line: int | None = None) -> str:
    """A script's command as messages name it: counted from 1 (``index``
    counts from 0, as the JSON output's ``index`` does), with its line in the
    file when known."""
    if line:
        return _("command {number} (line {line} of the file)", number=index + 1, line=line)
    return _("command {number}", number=index + 1)


def script_command(raw: Any, index: int, table: Table, line: int | None = None) -> tuple[Command, bool]:
    """One script step: ``{"actor": ..., "do": ..., ...args, "expect": "rejected"}``;
    ``index`` counts from 0, ``line`` is its line in the file (for messages)."""
    named = command_named(index, line)
    if not isinstance(raw, dict):
        raise ScriptError(f"{named}: each command is an object, not {raw!r}")
    if not isinstance(raw.get("do"), str) or not isinstance(raw.get("actor"), str):
        raise ScriptError(f"{named}: needs 'actor' (a seat's name, 'host' or 'chance') and 'do'")
    expect = raw.get("expect", "accepted")
    if expect not in ("accepted", "rejected"):
        raise ScriptError(f"{named}: 'expect' is 'accepted' or 'rejected', not {expect!r}")
    try:
        actor = Actor.parse(raw["actor"], table.seat_names)
    except Refusal as err:
        raise ScriptError(f"{named}: {err}") from None
    args = {k: v for k, v in raw.items() if k not in ("actor", "do", "expect", "state_no", "source")}
    state_no = raw.get("state_no")
    if state_no is not None and not isinstance(state_no, int):
        raise ScriptError(f"{named}: 'state_no' must be a whole number")
    source = str(raw.get("source", "script"))
    return Command(actor, raw["do"], args, state_no, source), expect == "rejected"


def start_seat_of(raw: dict[str, Any], names: list[str]) -> int:
    start = raw.get("start_seat", 0)
    if isinstance(start, str):
        lowered = [n.lower() for n in names]
        if start.lower() not in lowered:
            raise ScriptError(f"start_seat {start!r} is not a seat's name")
        return lowered.index(start.lower())
    if not isinstance(start, int) or isinstance(start, bool):
        raise ScriptError("start_seat is a seat's name or number")
    return start


def run_script(raw: dict[str, Any], room: Room, lines: Sequence[int] = ()) -> tuple[Table, dict[str, Any]]:
    """Play ``raw`` (a script) at a new table of ``room``; ``lines``: the line
    of the file each command begins on, if known (:func:`read_script`)."""
    names = [s if isinstance(s, str) else str(s.get("name", "")) if isinstance(s, dict) else "" for s in raw["seats"]]
    table = room.open_table(
        raw["game"], raw["seats"], raw.get("options", {}), start_seat=start_seat_of(raw, names),
        position=raw.get("position"),
    )
    rejections: list[dict[str, Any]] = []
    stopped: dict[str, Any] | None = None
    for index, step in enumerate(raw["commands"]):
        line = lines[index] if index < len(lines) else None
        command, expect_rejection = script_command(step, index, table, line)
        # where it is in the script: index from 0, number from 1 (as the messages count), the file's line
        where: dict[str, Any] = {"index": index, "number": index + 1, **({"line": line} if line else {})}
        try:
            table.submit(command)
        except Refusal as err:
            # name the actor as the script wrote it ("Bob", not "seat:1")
            record = {**where, "command": {**command.to_json(), "actor": step["actor"]}, **err.to_json()}
            if expect_rejection:
                rejections.append(record)
                continue
            stopped = record
            break
        if expect_rejection:
            stopped = {
                **where,
                "command": command.to_json(),
                "code": "unexpectedly-accepted",
                "message": "the script expected this command to be rejected, but it was accepted",
                "reason": "the script expected this command to be rejected, but it was accepted",
            }
            break
    result = table_record(table)
    result["rejections"] = rejections
    if stopped is not None:
        result["stopped"] = stopped
    return table, result


def table_record(table: Table) -> dict[str, Any]:
    """The whole picture of a table as JSON: every view, scores, the log."""
    names = table.seat_names
    return {
        "game": table.game.key,
        "table": table.view(TABLE_SCREEN),
        "seats": {names[i]: table.view(seat_viewer(i)) for i in range(len(names))},
        "scores": table.score().to_json(names),
        "log": [line["line"] for entry in table.log() for line in entry["lines"]],
    }


def cmd_play(args: argparse.Namespace) -> int:
    try:
        raw, lines = read_script(args.script)
        if args.db:
            room = Room(Store(args.db))
            result = run_script(raw, room, lines)[1]
        else:
            with tempfile.TemporaryDirectory(prefix="companion-play-") as tmp:
                room = Room(Store(Path(tmp) / "play.sqlite3"))
                result = run_script(raw, room, lines)[1]
                room.store.close()
    except ScriptError as err:
        print(f"companion play: {err}", file=sys.stderr)
        return 2
    except Refusal as err:
        print(f"companion play: {err}", file=sys.stderr)
        return 2
    except StoreDamaged as err:
        print(f"companion play: {store_words.DAMAGED.format(path=err.path, why=err.why)}", file=sys.stderr)
        print(f"  {store_words.DAMAGED_WHAT_TO_DO}", file=sys.stderr)
        return 2
    except (StoreTooNew, StoreNotMigrated) as err:
        print(f"companion play: {err.why}", file=sys.stderr)
        return 2
    if args.text:
        print_text(result)
    else:
        json.dump(result, sys.stdout, indent=2, ensure_ascii=False)
        print()
    if "stopped" in result:
        stop = result["stopped"]
        print("companion play: " + _("{command} refused: {reason}",
                                     command=command_named(stop["index"], stop.get("line")), reason=stop["reason"]),
              file=sys.stderr)
        return 2
    return 0


def print_text(result: dict[str, Any]) -> None:
    print("== " + _("{title}: the explained log", title=result["table"]["title"]) + " ==")
    for line in result["log"]:
        print(f"  {line}")
    for rej in result.get("rejections", []):
        print("  " + _("(refused, as the script expected: {command} by {actor}: {reason})",
                       command=rej["command"]["do"], actor=rej["command"]["actor"], reason=rej["reason"]))
    scores = result["scores"]
    print("== " + (_("Scores (final)") if scores["final"] else _("Scores (so far)")) + " ==")
    for seat in sorted(scores["seats"], key=lambda s: s["place"]):
        shared = _(" (shared place)") if seat.get("shared") else ""
        print("  " + ngettext("{place}. {name}: {n} point{shared}", "{place}. {name}: {n} points{shared}",
                              seat["total"], place=seat["place"], name=seat["name"], shared=shared))
        for line in seat["lines"]:
            detail = f" ({line['detail']})" if line["detail"] else ""
            print(f"       {line['points']:>4}  {line['label']}{detail}")
    for note in scores["notes"]:
        print("  " + _("note: {note}", note=note))


# replay -----------------------------------------------------------------------
def viewer_named(text: str, seat_names: tuple[str, ...]) -> Viewer:
    """``table``, ``host`` or a seat's name (or ``seat:N``) as a viewer."""
    low = text.strip().lower()
    if low in ("table", "tv", "screen"):
        return TABLE_SCREEN
    if low == "host":
        return HOST_SCREEN
    actor = Actor.parse(text, seat_names)
    if actor.seat is None:
        raise ScriptError(f"--as {text!r}: say 'table', 'host' or a seat's name ({', '.join(seat_names)})")
    return seat_viewer(actor.seat)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        data = args.record.read_bytes()
    except OSError as err:
        print(f"companion replay: {args.record}: cannot be read ({err.strerror or err})", file=sys.stderr)
        return 2
    try:
        record = read_record(data, str(args.record))
        table = open_record(record, today=args.today)
        viewer = viewer_named(args.viewer, table.seat_names)
        look = look_back(table, args.step, viewer) if args.step is not None else None
    except (Refusal, ScriptError) as err:
        print(f"companion replay: {err}", file=sys.stderr)
        return 2
    if args.json:
        out: dict[str, Any] = {
            "record": str(args.record),
            "game": table.game.key,
            "seats": list(table.seat_names),
            "steps": table.state_no,
            "format": record.version,
            "replays": table.divergence is None,
            "divergence": None if table.divergence is None else table.divergence.to_json(),
            "today": bool(args.today),
            "log": table.log(viewer),
        }
        if look is not None:
            out["look"] = look.to_json()
        json.dump(out, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    head = _("{record}: {title}, table {table}, seats {seats}", record=args.record, title=table.game.title,
             table=record.table or "?", seats=", ".join(table.seat_names))
    if args.today:
        print(ngettext("{head}: what today's rules make of it, {n} step (read-only).",
                       "{head}: what today's rules make of it, {n} steps (read-only).", table.state_no, head=head))
    elif table.divergence is None:
        print(ngettext("{head}, {n} step: replays to the same game (read-only).",
                       "{head}, {n} steps: replays to the same game (read-only).", table.state_no, head=head))
    else:
        print(ngettext("{head}, {n} step, as recorded (read-only).",
                       "{head}, {n} steps, as recorded (read-only).", table.state_no, head=head))
        print(_("Notice: {notice}.", notice=table.divergence.notice()))
        print(_("See what today's rules make of it with --today."))
    if look is None:
        for entry in table.log(viewer):
            mark = _(" (undone)") if entry["undone"] else ""
            for line in entry["lines"]:
                print(f"  {entry['seq']:>4}. {entry['actor']}{mark}: {line['line']}")
        print(_("Look at one step with --step N (and --as host or a seat's name)."))
        return 0
    entry = look.entry
    later = _(" (undone later)") if entry["undone"] else ""
    print("== " + _("Step {step} of {last}, by {actor}{later}", step=look.step, last=look.last, actor=entry["actor"],
                    later=later) + " ==")
    for line in entry["lines"]:
        print(f"  {line['line']}")
    if entry["hidden_lines"]:
        print("  " + ngettext("({n} line that only another seat may see)", "({n} lines that only another seat may see)",
                              entry["hidden_lines"]))
    for before, view in ((True, look.before), (False, look.after)):
        what = (_("Before step {step} (state {state}): {status}", step=look.step, state=view["state_no"],
                  status=view["status"]) if before else
                _("After step {step} (state {state}): {status}", step=look.step, state=view["state_no"],
                  status=view["status"]))
        print(f"== {what} ==")
        print(json.dumps(view["game_view"], indent=1, ensure_ascii=False))
    return 0


# backup, restore -----------------------------------------------------------------
def cmd_backup(args: argparse.Namespace) -> int:
    from companion.backup import (
        BackupError,
        check_backup,
        default_folder,
        list_backups,
        make_backup,
        rotate,
    )

    store_path = args.db or default_db_path()
    folder = args.to or default_folder(store_path)
    if args.list:
        backups = list_backups(folder)
        if not backups:
            print(f"no backups in {folder}")
        for b in reversed(backups):
            print(b.describe())
        return 0
    try:
        made = make_backup(store_path, folder, "manual")
        held = check_backup(made)
    except BackupError as err:
        print(f"companion backup: {err}", file=sys.stderr)
        return 2
    gone = rotate(folder)
    print(f"backed up {store_path} to {made} ({held['tables']} tables, {held['unfinished']} unfinished, "
          f"{held['steps']} steps)" + (f"; rotation removed {len(gone)} older file(s)" if gone else ""))
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from companion.backup import BackupError, default_folder, restore

    store_path = args.db or default_db_path()
    try:
        done = restore(args.backup, store_path, default_folder(store_path))
    except BackupError as err:
        print(f"companion restore: {err}", file=sys.stderr)
        return 2
    kept = f"; the store that was there is kept as {done['kept']}" if done["kept"] else ""
    print(f"restored {args.backup} to {store_path} ({done['tables']} tables, {done['unfinished']} unfinished, "
          f"{done['steps']} steps){kept}")
    return 0


# games, rules, edition ----------------------------------------------------------
def cmd_games(args: argparse.Namespace) -> int:
    listing: list[dict[str, Any]] = []
    for key in game_keys():
        game = get_game(key)
        listing.append(
            {
                "key": key,
                "title": game.title,
                "seats": f"{game.min_seats}-{game.max_seats}",
                "options": [o.to_json() for o in game.options],
            }
        )
    if args.json:
        json.dump(listing, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    for g in listing:
        print(_("{key}: {title} ({seats} seats)", key=g["key"], title=g["title"], seats=g["seats"]))
        for o in g["options"]:
            readings = ", ".join(r["key"] for r in o["readings"])
            print(f"    {o['key']} = {o['default']}   [{readings}]  {o['title']}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.json:
        json.dump([o.to_json() for o in game.options], sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    print(_("{title}: rules options (seeds {seeds})", title=game.title, seeds=", ".join(game.seeds)))
    for option in game.options:
        kind = _("the texts disagree") if option.disputed else _("table setting")
        print("\n" + _("{key}: {title} ({kind}); default: {default}", key=option.key, title=game.spoken(option.title),
                       kind=kind, default=option.default))
        if option.why_default:
            print("  " + _("why the default: {why}", why=game.spoken(option.why_default)))
        for reading in option.readings:
            print(f"  - {reading.key}: {game.spoken(reading.summary)}")
            for quote in reading.quotes:
                print(f"      [{quote}] \"{quote.quote}\"" if quote.quote else f"      [{quote}]")
    return 0


def cmd_edition(args: argparse.Namespace) -> int:
    game = get_game(args.game)
    if args.file is None:
        try:
            data = game.load_edition()
        except EditionError as err:
            print(f"companion edition: {err}", file=sys.stderr)
            return 2
        where = edition_path(game.key)
        print(f"# {game.title}: component data in force ({'with ' + str(where) if where.exists() else 'shipped defaults'})", file=sys.stderr)
        json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
        print()
        return 0
    try:
        game.load_edition(args.file)
    except EditionError as err:
        print(f"{err.path}: {len(err.problems)} problem(s):", file=sys.stderr)
        for problem in err.problems:
            print(f"  - {problem}", file=sys.stderr)
        return 2
    print(f"{args.file}: a valid {game.title} edition file. Copy it to {edition_path(game.key)} to use it for new tables.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
