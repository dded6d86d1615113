"""Onlookers (issue 32, item 6): a phone that watches a table without a seat.

An onlooker sees what the table screen shows, the public view and nothing
of any seat's secrets, laid out for a phone and live, in the phone's own
language (its choice, else its browser's: a request of this blueprint is a
device's, web/language.py).  It acts on nothing: there is no form on the
page and its stream takes no action.  The table screen is open to every
device on the table's network already; this page is that screen, made to
be read in a hand.  The join page offers it beside the seats."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from flask import Blueprint, Response, url_for

from companion.games.base import TABLE_SCREEN
from companion.table import Table
from web.common import banner_key, dash, draw, fragment, live_log, live_page, store_mark, stream
from web.memo import board_key, log_part_key
from web.parts import LiveDrawing, LivePage
from web.views import project, public_board

bp = Blueprint("watch", __name__)

#: log entries an onlooker's page shows (a phone's: web/views.py LOG_LIMIT is the TV's)
WATCH_LOG = 10


def watch_static(table: Table) -> dict[str, Any]:
    """What an onlooker's page shows that no state changes."""
    here = url_for("watch.watch", table_id=table.id)
    return {"table": table, "rules_url": url_for("screen.rules", game_key=table.game.key, t=table.id, back=here)}


def watch_context(table: Table, static: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """An onlooker's page at the table's state: the table screen's view."""
    d = dash()
    view = project(table, TABLE_SCREEN, WATCH_LOG)
    board = public_board(table, view["state_no"])
    finished = d.finished(table)
    return {
        **(static if static is not None else watch_static(table)),
        "view": view,
        "board": board if board["state_no"] == view["state_no"] else view,
        "named": view["awaiting"],
        "joined": d.taken_seats(table),
        "finished": finished,
        "ended_by_host": finished and d.ended_by_host(table),
        "provisional_end": finished and d.provisional_end(table),
        # once over, the table the host opened next, to watch (or join) it
        "next_table": (url_for("watch.watch", table_id=d.current_id)
                       if finished and d.current_id not in (None, table.id) else None),
    }


def _watch_keys(c: Mapping[str, Any]) -> dict[str, Hashable | None]:
    """What each part of an onlooker's page reads (watch_live.html)."""
    view = c["view"]
    return {
        "banner": banner_key(),
        "title": (view["title"], view["seats"], c["named"], sorted(c["joined"])),
        "status": (c["finished"], c["provisional_end"], c["ended_by_host"], view["status"]),
        "end": (c["next_table"], view["state_no"] if c["finished"] else -1),
        "board": ("board", board_key(c["board"], c["table"]), view["notes"]),
        "log": log_part_key(view["log"], WATCH_LOG, False),
        "root": ("watch", c["finished"]),
    }


WATCH = LivePage("watch_live.html", _watch_keys,
                 {"log": lambda c, b: live_log(c["view"]["log"], WATCH_LOG, steps=False, before=b)})


def draw_watch(table: Table, context: Mapping[str, Any] | None = None, before: LiveDrawing | None = None
               ) -> LiveDrawing:
    context = context if context is not None else watch_context(table)
    return draw(WATCH, context, context["view"]["state_no"], before)


@bp.get("/t/<table_id>/watch")
def watch(table_id: str) -> str:
    table = dash().room.get(table_id)
    context = watch_context(table)
    return live_page("watch.html", draw_watch(table, context), **context)


@bp.get("/t/<table_id>/watch/live")
def watch_live(table_id: str) -> Response:
    return fragment(draw_watch(dash().room.get(table_id)))


@bp.get("/t/<table_id>/watch/stream")
@bp.get("/t/<table_id>/watch/stream", endpoint="watch_stream_socket", websocket=True)  # the same page, as a WebSocket
def watch_stream(table_id: str) -> Response:
    table = dash().room.get(table_id)
    d = dash()
    static = watch_static(table)
    # every onlooker of a table in one language shares one view (the public one)
    return stream(table, lambda before: draw_watch(table, watch_context(table, static), before), kind="watch",
                  viewer="onlooker", fingerprint=lambda: (d.version, store_mark()))
