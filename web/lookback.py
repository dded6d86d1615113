"""The look-back pages: any step of a table's log, before and after, for
the viewer who asks (a seat through its cookie, the host, the table
screen), and the table screen showing a past step the host chose."""

from __future__ import annotations

from typing import Any

from flask import render_template, url_for

from companion.games.base import TABLE_SCREEN, Viewer, ViewerKind, private_part
from companion.lookback import Look, look_back
from companion.table import Table
from web.common import dash
from web.views import public_drawing


def sides(table: Table, look: Look, viewer: Viewer) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    """Before and after, each drawn as the table was (a seat's secrets left
    out) with what only this seat saw then (its private card)."""
    public = look_back(table, look.step, TABLE_SCREEN) if viewer.kind is ViewerKind.SEAT else None
    out: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for title, side, pub in (("Before this step", look.before, public.before if public else None),
                             ("After this step", look.after, public.after if public else None)):
        if pub is None:
            out.append((title, side, {}))
            continue
        private = private_part(side["game_view"], pub["game_view"])
        out.append((title, {**side, "game_view": public_drawing(side["game_view"], pub["game_view"])}, private))
    return out


def step_base(endpoint: str, **values: Any) -> str:
    """The URL of step ``N`` without its ``N`` (for the log's step links)."""
    return str(url_for(endpoint, step=1, **values)).rsplit("/", 1)[0] + "/"


def render_look(table: Table, step: int, viewer: Viewer, *, endpoint: str, values: dict[str, Any],
                live: str | None, who: str, query: dict[str, str] | None = None, **extra: Any) -> str:
    look = look_back(table, step, viewer)
    args: dict[str, Any] = {**values, **(query or {})}
    nav = {
        "prev": url_for(endpoint, step=step - 1, **args) if step > 1 else None,
        "next": url_for(endpoint, step=step + 1, **args) if step < look.last else None,
        "live": live,
    }
    # only the host's page has the table-screen controls and the viewer switch, only the
    # TV's is drawn for the TV (tv), only a seat's own is veiled (peek_ms, its colour)
    only_some: dict[str, Any] = {"tv_form": None, "tv_shown": None, "viewers": None, "tv": False,
                                 "peek_ms": None, "seat_colour": None, "seat": None}
    return render_template("lookback.html", table=table, look=look, nav=nav, who=who,
                           sides=sides(table, look, viewer), **{**only_some, **extra})


def tv_look(table: Table) -> dict[str, Any] | None:
    """What the table screen draws instead of the live table, if the host
    put a past step there: the public view of that step."""
    shown = dash().tv_step(table)
    if shown is None:
        return None
    step, side = shown
    look = look_back(table, step, TABLE_SCREEN)
    return {"look": look, "side": side, "view": look.before if side == "before" else look.after}
