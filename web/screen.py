"""The table screen (a TV by the table): public view, log, join QR; and the
rule passages behind citations."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping
from functools import cache
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from werkzeug.wrappers import Response as BaseResponse

from companion import languages
from companion.errors import SetupError, UnknownTable
from companion.games import game_keys, get_game
from companion.games.base import TABLE_SCREEN
from companion.rule_languages import SamePoints, same_points_of
from companion.rules import SEED_FILES, Citation
from companion.table import Table
from web import language
from web.common import (
    answer,
    banner_key,
    dash,
    draw,
    fragment,
    join_url,
    live_log,
    live_page,
    sse_event,
    store_mark,
    stream,
    typed_url,
)
from web.i18n import _
from web.lookback import render_look, step_base, tv_look
from web.memo import board_key, log_part_key
from web.parts import LiveDrawing, LivePage
from web.qr import qr_svg
from web.rulebook import rulebook
from web.seeds import passage
from web.views import project, public_board

bp = Blueprint("screen", __name__)


@bp.get("/")
def index() -> BaseResponse:
    resp = _index()
    kiosk = request.args.get("kiosk")
    if kiosk in ("0", "1"):  # the TV's kiosk browser: remembered, so every screen page hides the pointer
        resp.set_cookie("kiosk", kiosk, max_age=10 * 365 * 24 * 3600, samesite="Lax", httponly=True)
    return resp


def _index() -> BaseResponse:
    if dash().tv_sandbox is not None:
        return redirect(url_for("sandbox.screen", sandbox_id=dash().tv_sandbox))
    table = dash().current()
    if table is not None:
        return redirect(url_for("screen.table_screen", table_id=table.id))
    link = join_url(url_for("seat.join_code", code=dash().join_code))
    return Response(render_template("lobby.html", version=dash().version, join_link=link, join_qr=qr_svg(link),
                                    join_typed=typed_url(url_for("seat.join"))))


@bp.get("/lobby/stream")
def lobby_stream() -> Response:
    """Tells the lobby page where to go once the host has opened a table."""
    seen = request.args.get("seen", type=int)

    base = join_url("")  # what the page was (nearly) rendered with
    wait = min(5.0, float(current_app.config["COMPANION_KEEPALIVE"]))

    def events() -> Iterator[str]:
        yield "retry: 2000\n\n"
        version = seen if seen is not None else dash().version
        while True:
            if dash().current_id is not None or join_url("") != base:
                # a table was opened, or the network came up / changed: show the new join QR
                yield sse_event("goto", url_for("screen.index"))
                return
            version = dash().wait_for_room_change(version, timeout=wait)
            yield ": keep-alive\n\n"

    resp = Response(stream_with_context(events()), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


def device_notes(table: Table) -> list[str]:
    """What the hardware tells the players at this table (a dice tower
    offline while dice are awaited, a camera not seeing the table): only
    for the table the hardware feeds, never raising."""
    notes = getattr(dash().hardware, "table_notes", None)
    if notes is None:
        return []
    try:
        return [str(n) for n in notes(table)]
    except Exception:  # the hardware must never take the table screen down
        return []


def screen_static(table: Table) -> dict[str, Any]:
    """What the table screen shows that no state changes: worked out once
    for a live page, not at every state."""
    return {
        "table": table,
        "back_to_live_url": url_for("screen.back_to_live", table_id=table.id),
        "step_base": step_base("screen.look", table_id=table.id),
        # opened on the TV: drawn for the TV (tv=1: its text sizes)
        "rules_url": url_for("screen.rules", game_key=table.game.key, t=table.id, tv=1,
                             back=url_for("screen.table_screen", table_id=table.id)),
    }


def screen_context(table: Table, static: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The table screen at the table's state (``static``: :func:`screen_static`)."""
    d = dash()
    link = join_url(url_for("seat.join_code", code=d.join_code, t=table.id))
    view = project(table, TABLE_SCREEN)
    board = public_board(table, view["state_no"])
    finished = d.finished(table)
    taken = d.taken_seats(table)
    return {
        **(static if static is not None else screen_static(table)),
        "view": view,
        # the board every page draws alike, once per state (web/views.py)
        "board": board if board["state_no"] == view["state_no"] else view,
        "named": view["awaiting"],
        "joined": taken,
        # the join QR is big (scannable from 2 m) while a seat still has no phone
        "join_wanted": len(taken) < len(table.seat_names),
        "finished": finished,
        "ended_by_host": finished and d.ended_by_host(table),
        "provisional_end": finished and d.provisional_end(table),
        "join_code": d.join_code,
        "join_link": link,
        "join_typed": typed_url(url_for("seat.join")),
        "join_qr": qr_svg(link),
        "device_notes": device_notes(table),
        "tv_look": tv_look(table),
    }


@bp.get("/t/<table_id>/step/<int:step>")
def look(table_id: str, step: int) -> str:
    """A past step as the table screen showed it (public information only)."""
    table = dash().room.get(table_id)
    return render_look(table, step, TABLE_SCREEN, endpoint="screen.look", values={"table_id": table.id},
                       live=url_for("screen.table_screen", table_id=table.id), who="table screen", tv=True)


@bp.post("/t/<table_id>/back-to-live")
def back_to_live(table_id: str) -> BaseResponse:
    """The table screen's own "Back to live" (after the host showed a past step)."""
    table = dash().room.get(table_id)
    dash().show_live(table)
    return answer(200, _("The table screen shows the live table again."), "ok",
                  url_for("screen.table_screen", table_id=table.id))


def _screen_keys(c: Mapping[str, Any]) -> dict[str, Hashable | None]:
    """What each part of the table screen reads (screen_live.html)."""
    view = c["view"]
    if c["tv_look"]:
        board: Hashable | None = None  # a look back: drawn each time
    elif c["finished"]:
        board = ("board-end", view["state_no"], view["notes"])
    else:
        board = ("board", board_key(c["board"], c["table"]), view["notes"])
    game_view = view["game_view"] if isinstance(view["game_view"], Mapping) else {}
    return {
        "banner": banner_key(),
        "title": (view["title"], view["seats"], c["named"], sorted(c["joined"])),
        "status": (c["finished"], c["provisional_end"], c["ended_by_host"], view["status"]),
        "join": (c["join_wanted"], c["join_link"], c["join_code"], c["join_typed"]),
        "notes": tuple(c["device_notes"]),
        "board": board,
        "rules": (game_view.get("rules_in_force"), c["finished"]),
        "log": log_part_key(view["log"], 14, True),
        "root": "screen",
    }


SCREEN = LivePage("screen_live.html", _screen_keys,
                  {"log": lambda c, b: live_log(c["view"]["log"], 14, before=b)})


def draw_screen(table: Table, context: Mapping[str, Any] | None = None, before: LiveDrawing | None = None
                ) -> LiveDrawing:
    context = context if context is not None else screen_context(table)
    view: Any = context["view"]
    return draw(SCREEN, context, view["state_no"], before)


@bp.get("/t/<table_id>")
def table_screen(table_id: str) -> str:
    table = dash().room.get(table_id)
    # the TV's session keeps a CSRF token now: the live fragments' "Back to live" form posts with it
    context = screen_context(table)
    return live_page("screen.html", draw_screen(table, context), **context)


@bp.get("/t/<table_id>/live")
def table_live(table_id: str) -> Response:
    table = dash().room.get(table_id)
    return fragment(draw_screen(table))


@bp.get("/t/<table_id>/stream")
@bp.get("/t/<table_id>/stream", endpoint="table_stream_socket", websocket=True)  # the same page, as a WebSocket
def table_stream(table_id: str) -> Response:
    table = dash().room.get(table_id)
    d = dash()

    def goto() -> str | None:
        current = d.current_id
        if d.tv_sandbox is not None:
            return url_for("sandbox.screen", sandbox_id=d.tv_sandbox)
        if current is not None and current != table.id:
            return url_for("screen.table_screen", table_id=current)
        return None

    static = screen_static(table)
    return stream(table, lambda before: draw_screen(table, screen_context(table, static), before), kind="screen",
                  viewer="screen",
                  fingerprint=lambda: (d.version, store_mark(), join_url(""), tuple(device_notes(table))),
                  goto=goto, language=lambda: language.table_language(table))


@bp.get("/rule/<seed>")
def rule(seed: str) -> str:
    if seed not in SEED_FILES and seed != "core":
        abort(404, description=_("There is no rule text called {name}.", name=repr(seed[:40])))
    section = request.args.get("section", "")[:200]
    quote = request.args.get("quote", "")[:1000]
    found = passage(dash().seeds_dir, seed[:40], section, quote)
    # the text in the reader's language on the same point first, when one covers it (never a translation)
    other = same_points_for(seed).counterpart(Citation(seed, section, quote), languages.current())
    counterpart = passage(dash().seeds_dir, other.seed, other.section) if other is not None else None
    template = "rule_fragment.html" if request.args.get("fragment") else "rule.html"
    return render_template(template, passage=found, quote=quote,
                           counterpart=counterpart if counterpart is not None and counterpart.found else None)


@cache
def same_points_for(seed: str) -> SamePoints:
    """The same-point map of the game whose rule texts include ``seed``."""
    for key in game_keys():
        game = get_game(key)
        if seed in game.seeds:
            return same_points_of(type(game).__module__)
    return SamePoints()


def _back_link(raw: str) -> str:
    """A page of this companion to go back to (never another site)."""
    return raw if raw.startswith("/") and not raw.startswith("//") and "\\" not in raw and len(raw) <= 200 else ""


@bp.get("/rules/<game_key>")
def rules(game_key: str) -> BaseResponse:
    """A game's rules page: the sections of each rule text, and a search
    over their passages (the page's script asks for ``fragment=1`` as you
    type); with ``t``, the readings that table plays are marked."""
    try:
        game = get_game(game_key[:40])
    except SetupError:
        abort(404, description=_("There is no game called {name}.", name=repr(game_key[:40])))
    table = None
    wanted = request.args.get("t", "")[:40]
    if wanted:
        try:
            table = dash().table_or_record(wanted)
        except UnknownTable:
            table = None
        if table is not None and table.game.key != game.key:
            table = None
    book = rulebook(game, dash().seeds_dir)
    found = book.search(request.args.get("q", ""), table.config.options if table is not None else None,
                        languages.current())
    context = {"game": game, "book": book, "found": found, "table": table,
               "back": _back_link(request.args.get("back", "")), "tv": request.args.get("tv") == "1"}
    if request.args.get("fragment"):
        return Response(render_template("rules_results.html", **context), mimetype="text/html")
    return Response(render_template("rules.html", **context), mimetype="text/html")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for it on every page; answer with nothing rather than a 404."""
    return Response(status=204)


@bp.get("/healthz")
def healthz() -> dict[str, object]:
    from companion.update import running_version

    return {"ok": True, "tables": len(dash().tables()), "current": dash().current_id,
            "version": running_version().id}
