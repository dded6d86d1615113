"""What if: the host's sandbox pages, and the sandbox on the table screen.

The host opens a sandbox from a table's page (as the table is now, or after
any step of its log), sets a position block over it and tries moves as any
seat, the host or chance.  Everything here acts on the sandbox's scratch
table (:mod:`companion.sandbox`); the real table, its log and its store rows
are never written.  The sandbox page shows every seat's values (the position
block holds them), so opening it asks first; the table screen shows only the
public view of a sandbox, under a banner that says it is one.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion.commands import Actor
from companion.errors import Refusal
from companion.games.base import HOST_SCREEN, TABLE_SCREEN
from companion.rules import Explanation
from companion.sandbox import SANDBOX_MARK, Sandbox
from web.common import (
    Result,
    answer,
    dash,
    draw,
    fragment,
    live_log,
    live_page,
    perform,
    plain_fragment,
    result_answer,
    rule_link,
    stream,
    wants_json,
)
from web.host import host_only
from web.i18n import _
from web.memo import board_key, log_part_key
from web.parts import LiveDrawing, LivePage
from web.views import project

bp = Blueprint("sandbox", __name__)

#: the longest position block the host may post (a whole World of Waste table is ~6 kB)
MAX_BLOCK = 48 * 1024


def _box(sandbox_id: str) -> Sandbox:
    return dash().sandboxes.get(sandbox_id[:40])


def _page(box: Sandbox) -> str:
    return url_for("sandbox.page", sandbox_id=box.id)


def every_line(box: Sandbox) -> list[dict[str, Any]]:
    """The sandbox's log with every line, private ones too (newest last):
    the host set the position and sees all of it."""
    table = box.table
    undone = table.undone_seqs()
    out: list[dict[str, Any]] = []
    for entry in table.entries:
        lines = [Explanation.from_json(raw, table.words).to_json() for raw in entry.explanations]
        out.append({
            "seq": entry.seq,
            "kind": entry.kind,
            "actor": table.actor_label(entry.actor),
            "source": "",
            "undone": entry.seq in undone,
            "lines": lines,
        })
    return out


def sandbox_context(box: Sandbox) -> dict[str, Any]:
    table = box.table
    names = table.seat_names
    actors = [(f"seat:{i}", name, Actor.of_seat(i)) for i, name in enumerate(names)]
    actors += [("host", "Host", Actor.parse("host")), ("chance", "Chance", Actor.parse("chance"))]
    moves = []
    awaited = table.game.awaiting(table.state)
    for key, label, actor in actors:
        hints = table.actions(actor)
        if hints:
            # open: the seats the game waits for; while it waits for no seat, chance (a card, a roll)
            waits = actor.seat in awaited if actor.is_seat else (not awaited and key == "chance")
            moves.append({"actor": key, "label": label, "hints": hints, "awaited": waits})
    try:
        block = json.dumps(box.describe(), indent=1, ensure_ascii=False)
    except Refusal:
        block = ""
    return {
        "box": box,
        "table": table,
        "mark": SANDBOX_MARK,
        "view": project(table, HOST_SCREEN),
        "moves": moves,
        "lines": every_line(box),
        "block": block,
        "on_tv": dash().tv_sandbox == box.id,
        "act_url": url_for("sandbox.act", sandbox_id=box.id),
        "source_url": url_for("host.table_page", table_id=box.source_id),
    }


# opening ------------------------------------------------------------------------------
@bp.post("/host/t/<table_id>/sandbox")
@host_only
def open_sandbox(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    back = url_for("host.table_page", table_id=table.id)
    raw = str(request.form.get("step", "") or "").strip()
    step: int | None = None
    if raw:
        try:
            step = int(raw)
        except ValueError:
            return answer(400, _("The step is a whole number (or empty: the table as it is now)."), "bad-form", back)
        if not 0 <= step <= table.state_no:
            return answer(400, _("This table has steps 0 to {last}.", last=table.state_no), "bad-form", back)
    if request.form.get("confirmed") not in ("1", "yes"):
        return result_answer(
            Result(409, "confirm", "", confirm=_("Open a sandbox: a what-if copy of this table. Its page shows every "
                             "seat's hidden values (cash, gold, cards): open it when the table agrees")),
            back,
        )
    box = dash().sandboxes.open(table, step)
    if wants_json():
        return answer(200, _("The sandbox is open."), "ok", _page(box), extra={"goto": _page(box)})
    return redirect(_page(box), code=303)


# the host's sandbox page -----------------------------------------------------------------
@bp.get("/host/sandbox/<sandbox_id>")
@host_only
def page(sandbox_id: str) -> str:
    return render_template("sandbox.html", **sandbox_context(_box(sandbox_id)))


@bp.get("/host/sandbox/<sandbox_id>/live")
@host_only
def live(sandbox_id: str) -> Response:
    box = _box(sandbox_id)
    return plain_fragment(render_template("sandbox_live.html", **sandbox_context(box)), box.table.state_no)


@bp.post("/host/sandbox/<sandbox_id>/act")
@host_only
def act(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    named = str(request.form.get("actor", ""))[:20]
    try:
        actor = Actor.parse(named, box.table.seat_names)
    except Refusal:
        abort(400, description=_("A sandbox move is made by a seat, the host or chance, not {named}.", named=repr(named)))
    return result_answer(perform(box.table, actor, request.form, "sandbox"), _page(box))


@bp.post("/host/sandbox/<sandbox_id>/position")
@host_only
def position(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    text = str(request.form.get("block", ""))
    if len(text) > MAX_BLOCK:
        return answer(400, _("The position block is longer than {kb} kB.", kb=MAX_BLOCK // 1024), "bad-form", _page(box))
    try:
        block = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as err:
        said = (_("The position block is not valid JSON (line {line}, column {column}: {why}).",
                  line=err.lineno, column=err.colno, why=err.msg)
                if isinstance(err, json.JSONDecodeError) else _("The position block is not valid JSON."))
        return answer(422, said, "position", _page(box))
    try:
        box.set_position(block)
    except Refusal as err:
        return answer(422, str(err), err.code, _page(box), extra=rule_link(err.rule.to_json() if err.rule else None))
    return answer(200, _("The position is set: try a move."), "ok", _page(box), extra={"state_no": box.table.state_no})


@bp.post("/host/sandbox/<sandbox_id>/undo")
@host_only
def undo(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    try:
        accepted = box.undo()
    except Refusal as err:
        return answer(422, str(err), err.code, _page(box))
    return answer(200, " ".join(e.text for e in accepted.explanations), "ok", _page(box))


@bp.post("/host/sandbox/<sandbox_id>/reset")
@host_only
def reset(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    box.reset()
    return answer(200, _("Back to the real table after step {step}; no position set.", step=box.step), "ok", _page(box))


@bp.post("/host/sandbox/<sandbox_id>/show")
@host_only
def show(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    on = request.form.get("on", "1") == "1"
    dash().show_sandbox(box.id if on else None)
    said = _("The table screen shows the sandbox (public view).") if on else _("The table screen shows the real table again.")
    return answer(200, said, "ok", _page(box))


@bp.post("/host/sandbox/<sandbox_id>/close")
@host_only
def close(sandbox_id: str) -> BaseResponse:
    box = _box(sandbox_id)
    back = url_for("host.table_page", table_id=box.source_id)
    if dash().tv_sandbox == box.id:
        dash().show_sandbox(None)
    dash().sandboxes.close(box.id)
    return answer(200, _("The sandbox is closed."), "ok", back)


# the table screen ------------------------------------------------------------------------
def screen_context(box: Sandbox) -> dict[str, Any]:
    return {"box": box, "table": box.table, "mark": SANDBOX_MARK, "view": project(box.table, TABLE_SCREEN)}


SCREEN = LivePage("sandbox_screen_live.html", lambda c: {
    "head": None,
    "board": board_key(c["view"], c["table"]),
    "log": log_part_key(c["view"]["log"], 6, False),
    "root": None,
}, {"log": lambda c, b: live_log(c["view"]["log"], 6, False, b)})


def draw_screen(box: Sandbox, context: dict[str, Any] | None = None, before: LiveDrawing | None = None
                ) -> LiveDrawing:
    return draw(SCREEN, context or screen_context(box), box.version, before)


@bp.get("/sandbox/<sandbox_id>")
def screen(sandbox_id: str) -> str:
    box = _box(sandbox_id)
    context = screen_context(box)
    return live_page("sandbox_screen.html", draw_screen(box, context), **context)


@bp.get("/sandbox/<sandbox_id>/live")
def screen_live(sandbox_id: str) -> Response:
    return fragment(draw_screen(_box(sandbox_id)))


@bp.get("/sandbox/<sandbox_id>/stream")
@bp.get("/sandbox/<sandbox_id>/stream", endpoint="screen_stream_socket", websocket=True)  # the same page, as a WebSocket
def screen_stream(sandbox_id: str) -> Response:
    box = _box(sandbox_id)
    d = dash()

    def goto() -> str | None:
        if d.tv_sandbox != box.id:
            return url_for("screen.index")
        return None

    return stream(box.table, lambda before: draw_screen(box, None, before), kind="sandbox-screen", viewer="screen",
                  fingerprint=lambda: (d.version, box.version), goto=goto)
