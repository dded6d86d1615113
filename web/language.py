"""Which language each page is drawn in (issue 31).

- A phone at a seat: the seat's language (chosen on the join page or the
  seat page, kept with the seat in the store, so a phone that takes the
  seat over speaks it too), else its browser's ``Accept-Language``, else
  the table's.
- The table screen: the table's language (chosen at setup, changed by the
  host).
- Any other page (join, the host's): the device's own choice (a cookie),
  else its browser's, else the companion's (``COMPANION_LANGUAGE``).

What is kept is a code (``fr``), never words.  A request is drawn in its
language from start to end (:func:`speak_for_request`); a live page's
drawings in the language its view was opened with (web/common.py).
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, g, request
from werkzeug.wrappers import Response as BaseResponse

from companion import languages
from companion.errors import UnknownTable
from companion.settings import language_setting
from companion.table import Table

#: the cookie a device keeps its own choice in
COOKIE = "lang"
#: a table's language, and a seat's, in the table's meta
TABLE_KEY = "lang"


def seat_key(seat: int) -> str:
    return f"lang:seat:{seat}"


def default_language() -> str:
    return language_setting()


def table_language(table: Table) -> str:
    """The table's language: its screen's, and its phones' last resort."""
    return languages.known(table.store.meta_value(table.id, TABLE_KEY)) or default_language()


def seat_language(table: Table, seat: int) -> str | None:
    """The language chosen for a seat (None: none chosen)."""
    return languages.known(table.store.meta_value(table.id, seat_key(seat)))


def set_table_language(table: Table, lang: str) -> None:
    table.store.set_meta(table.id, TABLE_KEY, _checked(lang))


def set_seat_language(table: Table, seat: int, lang: str) -> None:
    table.store.set_meta(table.id, seat_key(seat), _checked(lang))


def _checked(lang: str) -> str:
    code = languages.known(lang)
    if code is None or code != lang:
        raise ValueError(f"the companion does not speak {lang!r} (it speaks {', '.join(languages.LANGUAGES)})")
    return code


def device_choice() -> str | None:
    """This device's own choice (its cookie), if any."""
    return languages.known(request.cookies.get(COOKIE))


def browser_language() -> str | None:
    return languages.negotiate(request.headers.get("Accept-Language"))


def for_seat(table: Table, seat: int, browser: str | None) -> str:
    return seat_language(table, seat) or browser or table_language(table)


def for_device() -> str:
    return device_choice() or browser_language() or default_language()


def remember(resp: BaseResponse, lang: str) -> BaseResponse:
    """The device keeps its choice (a year; the companion reads only a code)."""
    resp.set_cookie(COOKIE, _checked(lang), max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return resp


# a request's language ----------------------------------------------------------------
def request_language(table_of: Callable[[str], Table | None]) -> str:
    """The language this request's page is drawn in, by what it shows
    (``table_of``: the table an id names, or None)."""
    endpoint = request.endpoint or ""
    args = request.view_args or {}
    table_id = args.get("table_id")
    table = table_of(table_id) if isinstance(table_id, str) else None
    if table is not None and endpoint.startswith("seat.") and isinstance(args.get("seat"), int):
        seat = int(args["seat"])
        if 0 <= seat < len(table.seat_names):
            return for_seat(table, seat, browser_language())
    if table is not None and endpoint.startswith("screen."):
        return table_language(table)
    return for_device()


def speak_for_request(table_of: Callable[[str], Table | None]) -> None:
    """Speak the request's language until it ends (a before_request hook)."""
    lang = request_language(table_of)
    g.language_token = languages.enter(lang)
    g.language = lang


def stop_speaking(_exc: BaseException | None = None) -> None:
    token = g.pop("language_token", None)
    if token is not None:
        languages.leave(token)


def init_app(app: Flask) -> None:
    """Every request is drawn in its page's language."""
    from web.common import dash

    def table_of(table_id: str) -> Table | None:
        try:
            return dash().room.get(table_id[:40])
        except UnknownTable:
            return None

    app.before_request(lambda: speak_for_request(table_of))
    app.teardown_request(stop_speaking)
    # the page's language (<html lang>) and the picker's choices, each named in its own words
    app.jinja_env.globals["page_language"] = languages.current
    app.jinja_env.globals["language_choices"] = lambda: list(languages.LANGUAGES.items())
