"""Each player's phone: join with the join code, pick a seat, then a private
page for that seat only.  The seat's secret token lives in an HttpOnly
cookie (``tc_seat_<table>``); the private link carries it once to set the
cookie on another device."""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Mapping
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import bgstats, languages
from companion.commands import Actor
from companion.games.base import seat_viewer
from companion.settings import location_setting
from companion.table import Table
from web import language
from web.common import (
    answer,
    banner_key,
    dash,
    draw,
    fragment,
    join_url,
    live_act,
    live_log,
    live_page,
    message_page,
    perform,
    result_answer,
    store_mark,
    stream,
)
from web.dashboard import SeatTaken
from web.i18n import N_, _
from web.lookback import render_look, step_base
from web.memo import board_key, log_part_key
from web.parts import LiveDrawing, LivePage
from web.views import LOG_LIMIT, public_board

bp = Blueprint("seat", __name__)

COOKIE_DAYS = 14
#: the longest seat number a seat cookie may carry
MAX_SEAT_DIGITS = 2
#: how long a tap on "peek" shows the seat's secrets (a hold shows them while held)
PEEK_MS = 8000


def cookie_name(table_id: str) -> str:
    return f"tc_seat_{table_id}"


def _cookie_value(seat: int, token: str) -> str:
    return f"{seat}.{token}"


def seat_from_cookie(table: Table) -> tuple[int, str] | None:
    raw = request.cookies.get(cookie_name(table.id), "")
    seat_text, _dot, token = raw.partition(".")
    # a seat number is one or two ASCII digits; anything else (a 5000-digit
    # number int() refuses, Unicode digits) holds no seat
    if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= MAX_SEAT_DIGITS) or not token:
        return None
    return int(seat_text), token


def set_seat_cookie(resp: BaseResponse, table: Table, seat: int, token: str) -> None:
    resp.set_cookie(cookie_name(table.id), _cookie_value(seat, token), max_age=COOKIE_DAYS * 86400,
                    httponly=True, samesite="Lax", path="/")


@bp.get("/j")
def join() -> BaseResponse:
    code = request.args.get("code", "").strip()
    if code:
        return redirect(url_for("seat.join_code", code=code.upper()))
    return Response(render_template("join.html", bad_code=False, freed=request.args.get("freed") == "1"))


#: the 429 page's words: why this phone waits (web.dashboard.AttemptGuard.held)
TOO_MANY_CODES = {
    "address": N_("Too many wrong join codes from this phone: wait a minute, "
                  "then type the code shown on the table screen."),
    "table": N_("Too many wrong join codes at this table: wait a minute, "
                "then type the code shown on the table screen."),
}


def join_code_right(code: str) -> bool:
    """Whether ``code`` is the join code; wrong guesses from one address are
    slowed down like wrong PINs (a 429 for a minute after 8 of them), and
    from all addresses together past ``JOIN_TRIES_PER_MINUTE`` (then only an
    address that did not guess is answered), so the 4-letter code cannot be
    tried through from the same Wi-Fi, from one address or from many."""
    d = dash()
    who = request.remote_addr or "?"
    why = d.join_guard.held(who)
    if why is not None:
        abort(429, description=_(TOO_MANY_CODES[why]))
    if d.join_code_ok(code):
        d.join_guard.passed(who)
        return True
    d.join_guard.failed(who)
    return False


@bp.get("/j/<code>")
def join_code(code: str) -> BaseResponse:
    d = dash()
    if not join_code_right(code):
        return Response(render_template("join.html", bad_code=True, freed=False), status=403)
    wanted = request.args.get("t")
    tables = [t for t in d.tables() if not d.finished(t)]
    if wanted:
        tables = [t for t in tables if t.id == wanted] or tables
    mine = {}
    for t in tables:
        held = seat_from_cookie(t)
        if held and d.seat_token_ok(t, held[0], held[1]):
            mine[t.id] = held[0]
    # from a finished game's "join it": the name this phone played under, so its seat stands out
    was = str(request.args.get("was", ""))[:30]
    return Response(render_template("pick_seat.html", tables=tables, code=d.join_code,
                                    taken={t.id: d.taken_seats(t) for t in tables}, mine=mine, was=was))


@bp.post("/j/<code>/claim")
def claim(code: str) -> BaseResponse:
    d = dash()
    if not join_code_right(code):
        abort(403, description=_("That join code is not right: look at the table screen."))
    table = d.room.get(str(request.form.get("table", ""))[:40])
    try:
        seat = int(str(request.form.get("seat", "")))
    except ValueError:
        abort(400, description=_("Pick a seat."))
    back = url_for("seat.join_code", code=d.join_code)
    if not 0 <= seat < len(table.seat_names):
        abort(400, description=_("There is no such seat at this table."))
    held = seat_from_cookie(table)
    if held and held[0] == seat and d.seat_token_ok(table, seat, held[1]):
        return redirect(url_for("seat.seat_page", table_id=table.id, seat=seat), code=303)
    try:
        token = d.claim_seat(table, seat)
    except SeatTaken as err:
        return answer(409, str(err), "taken", back)
    chosen = language.device_choice()
    if chosen is not None:  # the language this phone chose on the join page is the seat's now
        language.set_seat_language(table, seat, chosen)
        d.language_changed(table)
    resp = redirect(url_for("seat.seat_page", table_id=table.id, seat=seat), code=303)
    set_seat_cookie(resp, table, seat, token)
    return resp


@bp.post("/language")
def choose_language() -> BaseResponse:
    """This device's language (the join page's picker): kept in a cookie."""
    lang = _language_asked()
    resp = redirect(_local(request.form.get("next"), url_for("seat.join")), code=303)
    return language.remember(resp, lang)


@bp.post("/s/<table_id>/<int:seat>/language")
def choose_seat_language(table_id: str, seat: int) -> BaseResponse:
    """The seat's language (the seat page's picker): kept with the seat, so
    a phone that takes the seat over speaks it too; and this phone's."""
    table, _token = _authorised(table_id, seat)
    lang = _language_asked()
    language.set_seat_language(table, seat, lang)
    dash().language_changed(table)
    resp = redirect(url_for("seat.seat_page", table_id=table.id, seat=seat), code=303)
    return language.remember(resp, lang)


def _language_asked() -> str:
    lang = str(request.form.get("lang", ""))[:8]
    if lang not in languages.LANGUAGES:
        abort(400, description=f"Pick one of the languages: {', '.join(languages.LANGUAGES.values())}.")
    return lang


def _local(target: object, default: str) -> str:
    """A page of this companion to go back to (never another site)."""
    text = str(target or "")
    if text.startswith("/") and not text.startswith("//") and "\\" not in text and len(text) < 300:
        return text
    return default


@bp.get("/s/<table_id>/<int:seat>/key/<token>")
def private_link(table_id: str, seat: int, token: str) -> BaseResponse:
    table = dash().room.get(table_id)
    if not dash().seat_token_ok(table, seat, token):
        return message_page(_("Not your seat"), _("This private link is not valid (any more). "
                                                  "Join again with the code on the table screen."), "/j", 403)
    resp = redirect(url_for("seat.seat_page", table_id=table.id, seat=seat), code=303)
    set_seat_cookie(resp, table, seat, token)
    return resp


def _authorised(table_id: str, seat: int) -> tuple[Table, str]:
    table = dash().room.get(table_id)
    held = seat_from_cookie(table)
    if held is None or held[0] != seat or not dash().seat_token_ok(table, seat, held[1]):
        abort(403, description=_("This phone does not hold that seat. Join with the code on the table screen."))
    return table, held[1]


def seat_static(table: Table, seat: int, token: str) -> dict[str, Any]:
    """What a seat's page shows that no state changes (its addresses, its
    name): worked out once for a live page, not at every state."""
    return {
        "table": table,
        "seat": seat,
        "seat_name": table.seat_names[seat],
        "seat_colour": table.config.seats[seat].colour,
        "peek_ms": PEEK_MS,
        "act_url": url_for("seat.act", table_id=table.id, seat=seat),
        "step_base": step_base("seat.look", table_id=table.id, seat=seat),
        "rules_url": url_for("screen.rules", game_key=table.game.key, t=table.id,
                             back=url_for("seat.seat_page", table_id=table.id, seat=seat)),
        "private_link": join_url(url_for("seat.private_link", table_id=table.id, seat=seat, token=token)),
    }


def seat_context(table: Table, seat: int, token: str, static: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A seat's page at the table's state (``static``: :func:`seat_static`)."""
    d = dash()
    fixed = static if static is not None else seat_static(table, seat, token)
    finished = d.finished(table)
    # the seat's view: the table screen's board, and apart its secrets (only in its veiled private
    # card, so peeking is needed to read them anywhere on the page)
    view, private = table.seat_view(seat, LOG_LIMIT)
    actions = [] if finished else table.actions(Actor.of_seat(seat))
    # "The table" on the phone: the public drawing every page shares (this state's own when the
    # table moved on meanwhile)
    board = public_board(table, view["state_no"])
    if board["state_no"] != view["state_no"]:
        board = view
    your_turn = not finished and seat in view["awaiting"]
    seat_name = fixed["seat_name"]
    return {
        **fixed,
        "your_turn": your_turn,
        # the tab's title says whose move it is too (a phone in a pocket shows it on its lock screen)
        "page_title": ("▶ " + _("Your move") + " · " if your_turn else "") + f"{seat_name} · {view['title']}",
        "private": private,
        "table_view": board,
        "view": view,
        "actions": actions,
        "finished": finished,
        "ended_by_host": finished and d.ended_by_host(table),
        "provisional_end": finished and d.provisional_end(table),
        "next_table": (url_for("seat.join_code", code=d.join_code, t=d.current_id, was=seat_name)
                       if finished and d.current_id not in (None, table.id) else None),
        # at the end, the play for BG Stats (a bgstats:// link the phone's app opens)
        "bgstats_link": bgstats_link(table) if finished else None,
    }


def bgstats_link(table: Table) -> str | None:
    """The finished game as a BG Stats play's link, or None (not over, or no final scores)."""
    stored = dash().room.store.table(table.id)
    if stored is None:
        return None
    game = bgstats.finished_game(table, stored.created_at, stored.finished_at, dash().provisional_end(table))
    return None if game is None else bgstats.link(game, location_setting())


def _seat_keys(c: Mapping[str, Any]) -> dict[str, Hashable | None]:
    """What each part of a seat's page reads (seat_live.html)."""
    view = c["view"]
    return {
        "banner": banner_key(),
        "status": (c["finished"], c["provisional_end"], c["ended_by_host"], c["your_turn"], view["status"]),
        "end": (c["next_table"], view["state_no"] if c["finished"] else -1, c["bgstats_link"]),
        # the private card reads the seat's secrets (and World of Waste's card names)
        "secrets": (c["private"], view["game"],
                    view["game_view"].get("card_types") if isinstance(view["game_view"], Mapping) else None),
        "actions": (c["actions"], c["act_url"], c["your_turn"]),
        "board": board_key(c["table_view"], c["table"]),
        "log": log_part_key(view["log"], 10, True),
        "root": (c["page_title"], c["your_turn"], c["finished"]),
    }


SEAT = LivePage("seat_live.html", _seat_keys,
                {"log": lambda c, b: live_log(c["view"]["log"], 10, before=b)})


def draw_seat(context: Mapping[str, Any], before: LiveDrawing | None = None) -> LiveDrawing:
    view: Any = context["view"]
    return draw(SEAT, context, view["state_no"], before)


@bp.get("/s/<table_id>/<int:seat>")
def seat_page(table_id: str, seat: int) -> str:
    table, token = _authorised(table_id, seat)
    context = seat_context(table, seat, token)
    return live_page("seat.html", draw_seat(context), **context)


@bp.get("/s/<table_id>/<int:seat>/live")
def seat_live(table_id: str, seat: int) -> Response:
    table, token = _authorised(table_id, seat)
    return fragment(draw_seat(seat_context(table, seat, token)))


@bp.get("/s/<table_id>/<int:seat>/stream")
@bp.get("/s/<table_id>/<int:seat>/stream", endpoint="seat_stream_socket", websocket=True)  # the same page, as a WebSocket
def seat_stream(table_id: str, seat: int) -> Response:
    table, token = _authorised(table_id, seat)
    d = dash()
    gone = url_for("seat.join", freed="1")

    def goto() -> str | None:
        """A freed or re-claimed seat: no more views, the phone goes to join."""
        return None if d.seat_token_ok(table, seat, token) else gone

    # the view is this seat's as held with this token: never shared with
    # another seat, nor with whoever holds the seat after a free or re-claim
    viewer = ("seat", seat, hashlib.sha256(token.encode("utf-8")).hexdigest())
    def allowed() -> str | None:
        if d.seat_token_ok(table, seat, token):
            return None
        return _("This phone does not hold that seat. Join with the code on the table screen.")

    act = live_act(url_for("seat.act", table_id=table.id, seat=seat), allowed, lambda _form: Actor.of_seat(seat),
                   table, "phone")
    static = seat_static(table, seat, token)
    browser = language.browser_language()
    return stream(table, lambda before: draw_seat(seat_context(table, seat, token, static), before), kind="seat",
                  viewer=viewer,
                  fingerprint=lambda: (d.version, store_mark()), goto=goto, act=act,
                  language=lambda: language.for_seat(table, seat, browser))


@bp.get("/s/<table_id>/<int:seat>/step/<int:step>")
def look(table_id: str, seat: int, step: int) -> str:
    """A past step as this seat saw it: its own secrets, nobody else's."""
    table, _held = _authorised(table_id, seat)
    return render_look(table, step, seat_viewer(seat), endpoint="seat.look",
                       values={"table_id": table.id, "seat": seat},
                       live=url_for("seat.seat_page", table_id=table.id, seat=seat),
                       who=table.seat_names[seat], peek_ms=PEEK_MS, seat_colour=table.config.seats[seat].colour,
                       seat=seat)


@bp.post("/s/<table_id>/<int:seat>/act")
def act(table_id: str, seat: int) -> BaseResponse:
    table, _held = _authorised(table_id, seat)
    back = url_for("seat.seat_page", table_id=table.id, seat=seat)
    return result_answer(perform(table, Actor.of_seat(seat), request.form, "phone"), back)
