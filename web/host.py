"""The host's pages (PIN-protected): create a table, enter chance by hand,
undo, end, export, and see the hardware."""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Hashable, Mapping
from functools import wraps
from typing import Any, TypeVar

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from companion import bgstats, languages, record
from companion.commands import CHANCE, HOST, Actor, Command
from companion.errors import Refusal, SetupError, StaleState, StoreUnavailable, UnknownTable
from companion.games import game_keys, get_game
from companion.games.base import HOST_SCREEN, DieFace, Viewer, seat_viewer
from companion.messages import CORE
from companion.record import MAX_RECORD_BYTES, RecordError, open_record, read_record
from companion.rules import cite
from companion.settings import location_setting
from companion.table import Table
from web import language
from web.common import (
    STALE_MESSAGE,
    Result,
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
    submit,
    typed_url,
    wants_json,
)
from web.dashboard import ENDED_KEY
from web.forms import FormError, read_state_no
from web.i18n import _
from web.lookback import render_look, step_base
from web.memo import board_key, log_part_key
from web.parts import LiveDrawing, LivePage
from web.qr import qr_svg
from web.views import project, public_board

bp = Blueprint("host", __name__, url_prefix="/host")

F = TypeVar("F", bound=Callable[..., Any])


def is_host() -> bool:
    """The session holds one of the host's logins (a random token: nothing
    in the cookie is derived from the PIN)."""
    return dash().host_logins.valid(session.get("host"))


def host_only(view: F) -> F:
    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if not is_host():
            if request.method == "GET" and not wants_json():
                return redirect(url_for("host.login", next=request.path))
            abort(403, description=_("Only the host may do that: log in with the host PIN."))
        return view(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@bp.route("/login", methods=["GET", "POST"])
def login() -> BaseResponse:
    d = dash()
    wrong = False
    next_url = safe_next(request.values.get("next", ""))
    if request.method == "POST":
        who = request.remote_addr or "?"
        why = d.pin_guard.held(who)
        if why == "address":
            abort(429, description=_("Too many wrong PINs: wait a minute."))
        if why == "table":
            abort(429, description=_("Too many wrong PINs from this network: wait a minute."))
        if d.pin_ok(str(request.form.get("pin", ""))[:20]):
            d.pin_guard.passed(who)
            session["host"] = d.host_logins.grant()
            return redirect(next_url, code=303)
        d.pin_guard.failed(who)
        wrong = True
    return Response(render_template("host_login.html", wrong=wrong, next=next_url),
                    status=403 if wrong else 200)


def safe_next(raw: str) -> str:
    """Where to go after logging in: a host page of this app (a path that
    routes to a ``host.`` GET view), else the host's home.  ``/hostile``,
    ``//evil.example/host`` and ``/host/../j`` are not host pages."""
    home = url_for("host.home")
    if not raw.startswith("/") or raw.startswith("//") or len(raw) > 300 or not raw.isascii():
        return home
    if any(ch in raw for ch in "\\?#") or any(ord(ch) < 33 for ch in raw) or "/." in raw:
        return home
    try:
        endpoint, _values = current_app.url_map.bind("localhost").match(raw, method="GET")
    except HTTPException:  # NotFound, MethodNotAllowed, RequestRedirect
        return home
    return raw if str(endpoint).startswith("host.") and endpoint != "host.login" else home


@bp.post("/logout")
def logout() -> BaseResponse:
    """Ends this login for every copy of the cookie, not just this browser's."""
    dash().host_logins.revoke(session.pop("host", None))
    return redirect(url_for("screen.index"), code=303)


@bp.get("")
@host_only
def home() -> str:
    d = dash()
    games, broken = loadable_games()
    open_ids = {t.id for t in d.tables()}
    # unfinished tables memory does not hold (they rested): all listed, each resumes when opened
    resting = [t for t in d.room.resting() if t.id not in open_ids]
    resting_ids = {t.id for t in resting}
    earlier = [t for t in reversed(d.room.store.tables()) if t.id not in open_ids and t.id not in resting_ids][:30]
    link = join_url(url_for("seat.join_code", code=d.join_code))
    return render_template("host_home.html", games=games, broken=broken, tables=list(reversed(d.tables())),
                           earlier=earlier, resting=resting, idle_days=d.room.idle_days, current=d.current_id, records=d.records(), hardware=_hardware(),
                           can_roll=can_roll_now(d.current()),
                           join_code=d.join_code, join_link=link, join_qr=qr_svg(link),
                           join_typed=typed_url(url_for("seat.join")), **_version_card())


def _version_card() -> dict[str, Any]:
    from companion import update

    where = update.Home.default()
    history = where.history()
    return {"version": update.running_version(), "last_update": history[-1] if history else None,
            "update_pending": update.pending(where) is not None}


def loadable_games() -> tuple[list[Any], list[str]]:
    """The installed games; one that fails to load is listed by name, not fatal."""
    games: list[Any] = []
    broken: list[str] = []
    for key in game_keys():
        try:
            games.append(get_game(key))
        except Exception as err:
            broken.append(f"{key}: {type(err).__name__}: {err}")
    return games, broken


# creating a table -----------------------------------------------------------------------
@bp.get("/new")
@host_only
def new_table() -> BaseResponse:
    key = request.args.get("game", "")
    games = {g.key: g for g in loadable_games()[0]}
    if key not in games:
        return redirect(url_for("host.home"))
    again = str(request.args.get("again", ""))
    form = same_seats(again, key) if again else {}
    return Response(render_template("host_new.html", game=games[key], error=None, form=form,
                                    again=again if form else "", default_language=language.default_language()))


def same_seats(table_id: str, game_key: str) -> dict[str, str]:
    """The new-table form filled in as ``table_id`` was set up (its seats,
    colours, start seat and rules options), for playing that game again
    with the same people; empty when there is no such table of that game
    (a link kept from another evening opens an empty form)."""
    try:
        table = dash().room.get(table_id)
    except (UnknownTable, StoreUnavailable):
        return {}
    if table.game.key != game_key:
        return {}
    form = {f"seat.{i}": s.name for i, s in enumerate(table.config.seats)}
    form |= {f"colour.{i}": s.colour for i, s in enumerate(table.config.seats) if s.colour}
    form |= {f"opt.{k}": str(v) for k, v in table.config.options.items()}
    form["start_seat"] = str(table.config.start_seat)
    return form


@bp.post("/new")
@host_only
def create_table() -> BaseResponse:
    key = str(request.form.get("game", ""))
    games = {g.key: g for g in loadable_games()[0]}
    if key not in games:
        abort(400, description=_("Pick one of the games."))
    game = games[key]
    seats: list[dict[str, str]] = []
    for i in range(game.max_seats):
        name = str(request.form.get(f"seat.{i}", "")).strip()[:30]
        if name:
            colour = str(request.form.get(f"colour.{i}", "")).strip()
            seats.append({"name": name, "colour": colour if colour in game.colours else ""})
    options = {o.key: str(request.form.get(f"opt.{o.key}", o.default)) for o in game.options}
    try:
        start = int(str(request.form.get("start_seat", "0") or 0))
        lang = str(request.form.get("lang", "") or language.default_language())
        if lang not in languages.LANGUAGES:
            raise SetupError(f"pick one of the languages: {', '.join(languages.LANGUAGES)}")
        table = dash().open_table(key, seats, options, start_seat=start)
        language.set_table_language(table, lang)
    except (SetupError, ValueError) as err:
        message = str(err) if isinstance(err, SetupError) else "the start seat is not a number"
        html = render_template("host_new.html", game=game, error=message, form=request.form, again="",
                               default_language=language.default_language())
        return Response(html, status=400)
    return redirect(url_for("host.table_page", table_id=table.id), code=303)


@bp.post("/t/<table_id>/language")
@host_only
def table_language(table_id: str) -> BaseResponse:
    """The table's language (its screen's; a phone that chose none and
    whose browser asks for none of the companion's speaks it too)."""
    table = dash().room.get(table_id)
    lang = str(request.form.get("lang", ""))[:8]
    if lang not in languages.LANGUAGES:
        abort(400, description=f"Pick one of the languages: {', '.join(languages.LANGUAGES.values())}.")
    language.set_table_language(table, lang)
    dash().language_changed(table)
    return redirect(url_for("host.table_page", table_id=table.id), code=303)


# one table ------------------------------------------------------------------------------
def _hardware() -> dict[str, Any] | None:
    hw = dash().hardware
    if hw is None:
        return None
    try:
        return {"status": hw.status(), "notices": hw.notices(12)}
    except Exception as err:  # the hardware must never take the host page down
        return {"status": {"error": f"{type(err).__name__}: {err}"}, "notices": []}


def _hardware_mark() -> str:
    """What makes the host page redraw: new notices, a device going on or
    off line, an observation applied (not every changing counter)."""
    hw = _hardware()
    if hw is None:
        return ""
    st = hw["status"]
    parts = [hw["notices"][:1], st.get("error"), st.get("applied"), st.get("refused")]
    for key in ("camera", "dice"):
        part = st.get(key)
        if isinstance(part, dict):
            parts += [part.get("online"), part.get("problem")]
    return json.dumps(parts, sort_keys=True, default=str)


#: the most moves one undo takes back (the form and the server agree)
UNDO_LIMIT = 50
#: the host's page lists the last moves in force (the undo box's list)
RECENT_MOVES = 8
#: the longest reason an undo or an early end takes (the forms' maxlength)
MAX_REASON = 200
#: the actors the host's action forms may act as
FORM_ACTORS = {"host": HOST, "chance": CHANCE}


def dice_now(table: Table) -> list[Any]:
    """The dice the game waits for now (none when it is over or cannot say)."""
    if dash().finished(table):
        return []
    try:
        return list(table.game.dice_to_roll(table.state))
    except Exception:  # a game's bug must not take the host page down
        return []


def _dice_command_name(table: Table, dice: list[Any]) -> str | None:
    """The command the dice form sends (to leave out the game's own form for it)."""
    if not dice:
        return None
    try:
        faces = [DieFace(d.name, d.faces[0]) for d in dice]
        return str(table.game.dice_command(table.state, faces).name)
    except Exception:
        return None


def _key(hint: dict[str, Any]) -> str:
    return str(hint["command"]) + json.dumps(hint.get("args", {}), sort_keys=True, default=str)


def host_forms(table: Table, dice: list[Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]], dict[str, Any] | None]:
    """The chance forms, the host forms and the game's ``end`` hint, each
    action once: a hint both actors are offered is drawn under Chance (sent
    as chance); a hint for the command the dice form already sends is left
    out; ``end`` is the *End and score now* button, not a form of its own."""
    chance = table.actions(CHANCE)
    host = table.actions(HOST)
    end = next((h for h in host if h["command"] == "end" and h.get("enabled", True)), None)
    rolled_by_form = _dice_command_name(table, dice)
    seen: set[str] = set()
    out: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    for bucket, hints in zip(out, (chance, host), strict=True):
        for h in hints:
            if h["command"] == "end" or h["command"] == rolled_by_form or _key(h) in seen:
                continue
            seen.add(_key(h))
            bucket.append(h)
    return out[0], out[1], end


def can_roll_now(table: Table | None) -> bool:
    """The hardware's "Roll the dice now": only while the table it feeds (the
    one on the table screen) waits for dice."""
    return table is not None and dash().current_id == table.id and bool(dice_now(table))


def _host_keys(c: Mapping[str, Any]) -> dict[str, Hashable | None]:
    """What each part of the host's page reads (host_live.html)."""
    view = c["view"]
    finished = c["finished"]
    actions = c["host_actions"]
    return {
        "banner": banner_key(True),
        # the state number it shows is the page's to put in (state_value)
        "head": (view["title"], finished, c["provisional_end"], c["ended_by_host"], view["status"]),
        "chance": (view["state_no"] if finished else -1, c["chance_actions"], c["dice"], c["cards_key"], c["act_url"],
                   view["title"]),
        "host_actions": (actions, c["act_url"], finished),
        "undo": (actions, c["active_moves"], c["undo_max"], c["provisional_end"], view["title"]),
        "board": board_key(c["board"], c["table"]),
        "screen": (c["on_screen"], c["tv_shown"], view["state_no"] > 0),
        "sandbox_step": "state",
        "table": (bool(c["cards"]), finished, c["end_hint"], view["title"]),
        "seats": tuple(sorted(c["taken"])),
        "hardware": None if c["hardware"] is not None else ("none", c["can_roll"]),
        "log": log_part_key(view["log"], 12, True),
        "root": "host",
    }


HOST_PAGE = LivePage("host_live.html", _host_keys,
                     {"log": lambda c, b: live_log(c["view"]["log"], 12, before=b)})


def draw_host(context: Mapping[str, Any], before: LiveDrawing | None = None) -> LiveDrawing:
    return draw(HOST_PAGE, context, context["view"]["state_no"], before)


def host_static(table: Table) -> dict[str, Any]:
    """What the host's page shows that no state changes: worked out once for
    a live page, not at every state."""
    return {
        "table": table,
        "act_url": url_for("host.act", table_id=table.id),
        "step_base": step_base("host.look", table_id=table.id),
        "rules_url": url_for("screen.rules", game_key=table.game.key, t=table.id, back=_back(table)),
    }


def host_context(table: Table, static: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The host's page at the table's state (``static``: :func:`host_static`)."""
    d = dash()
    finished = d.finished(table)
    dice = dice_now(table)
    try:
        kinds = table.card_kinds()
    except Exception:
        kinds = ()
    cards = list(kinds)
    move_count, recent = table.recent_moves(RECENT_MOVES)
    chance_actions, host_actions, end_hint = ([], [], None) if finished else host_forms(table, dice)
    view = project(table, HOST_SCREEN)
    board = public_board(table, view["state_no"])
    if board["state_no"] != view["state_no"] or board["game_view"] != view["game_view"]:
        board = view  # the host's own view of the board (or the table moved on meanwhile)
    return {
        **(static if static is not None else host_static(table)),
        "view": view,
        # the board every page draws alike, once per state (web/views.py)
        "board": board,
        "table_language": language.table_language(table),
        "finished": finished,
        "ended_by_host": finished and d.ended_by_host(table),
        "provisional_end": d.provisional_end(table),
        "host_actions": host_actions,
        "chance_actions": chance_actions,
        "end_hint": end_hint,
        "dice": dice,
        "cards": cards,
        # the card list's options are drawn once per table and card list
        # (Money Maker's 42 options took 0.35 of the 1.9 ms of its host page)
        "cards_key": f"cards:{table.id}:{hash(kinds):x}" if kinds else "",
        "active_moves": [{"seq": e.seq, "summary": table.public_summary(e)} for e in reversed(recent)],
        "move_count": move_count,
        "undo_max": min(move_count, UNDO_LIMIT),
        "taken": d.taken_seats(table),
        "on_screen": d.current_id == table.id,
        "hardware": _hardware(),
        "can_roll": d.current_id == table.id and bool(dice),  # can_roll_now without asking the game twice
        "tv_shown": d.tv_step(table),
    }




@bp.get("/t/<table_id>")
@host_only
def table_page(table_id: str) -> str:
    table = dash().room.get(table_id)
    context = host_context(table)
    return live_page("host_table.html", draw_host(context), **context)


@bp.get("/t/<table_id>/live")
@host_only
def table_live(table_id: str) -> Response:
    table = dash().room.get(table_id)
    return fragment(draw_host(host_context(table)))


@bp.get("/t/<table_id>/stream")
@bp.get("/t/<table_id>/stream", endpoint="table_stream_socket", websocket=True)  # the same page, as a WebSocket
@host_only
def table_stream(table_id: str) -> Response:
    table = dash().room.get(table_id)
    d = dash()
    login = session.get("host")
    to_login = url_for("host.login", next=url_for("host.table_page", table_id=table.id))

    def goto() -> str | None:
        """A login ended (logged out, another PIN): no more views."""
        return None if d.host_logins.valid(login) else to_login

    def allowed() -> str | None:
        return None if d.host_logins.valid(login) else _("The host's login has ended: log in again.")

    act_url = url_for("host.act", table_id=table.id)
    static = host_static(table)
    return stream(table, lambda before: draw_host(host_context(table, static), before), kind="host", viewer="host",
                  fingerprint=lambda: (d.version, _hardware_mark(), store_mark()), goto=goto,
                  act=live_act(act_url, allowed, _form_actor, table, "host"))


def _form_actor(form: Any) -> Actor | str:
    """Who a host page's form acts as: the host, or chance (else why not)."""
    named = str(form.get("actor", "host"))
    actor = FORM_ACTORS.get(named)
    return actor if actor is not None else _("The host's forms act as the host or as chance, not as {named}.", named=repr(named[:30]))


def _back(table: Table) -> str:
    return url_for("host.table_page", table_id=table.id)


@bp.post("/t/<table_id>/act")
@host_only
def act(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    actor = _form_actor(request.form)
    if isinstance(actor, str):
        abort(400, description=actor)
    return result_answer(perform(table, actor, request.form, "host"), _back(table))


def _state_no_or_400() -> int:
    try:
        return read_state_no(request.form)
    except FormError as err:
        abort(400, description=str(err))


def _over_or_stale(table: Table, state_no: int) -> BaseResponse | None:
    """The 409 for chance entered by hand too late: the game is over, or the
    form was made for an older state; None while it still applies."""
    if dash().finished(table):
        return answer(409, _("The game is over."), "over", _back(table))
    if state_no != table.state_no:
        return answer(409, _(STALE_MESSAGE), "stale", _back(table))
    return None


@bp.post("/t/<table_id>/dice")
@host_only
def dice(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    state_no = _state_no_or_400()
    if (late := _over_or_stale(table, state_no)) is not None:
        return late
    game = table.game
    dice_now = game.dice_to_roll(table.state)
    if not dice_now:
        return answer(422, _("{game} is not waiting for a dice roll now.", game=game.title), "illegal", _back(table))
    software = request.form.get("software") == "1"
    faces: list[DieFace] = []
    for i, die in enumerate(dice_now):
        if software:
            face = secrets.choice(die.faces)
        else:
            face = str(request.form.get(f"die.{i}", "")).strip()
            if not face and die.optional:
                continue  # left in the box, as the game allows now
            if face not in die.faces:
                abort(400, description=_("Pick a face of the {die} die ({faces}).", die=die.name, faces=", ".join(die.faces)))
        faces.append(DieFace(die.name, face))
    try:
        base = game.dice_command(table.state, faces)
    except Refusal as err:
        return answer(422, str(err), err.code, _back(table))
    command = Command(base.actor, base.name, base.args, state_no, "software" if software else "host")
    return _result(submit(table, command), table)


@bp.post("/t/<table_id>/card")
@host_only
def card(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    state_no = _state_no_or_400()
    if (late := _over_or_stale(table, state_no)) is not None:
        return late
    kinds = {k.code: k for k in table.card_kinds()}
    code = str(request.form.get("card", ""))
    if code not in kinds:
        abort(400, description=_("Pick one of the cards."))
    name = kinds[code].name
    try:
        copy_no = int(str(request.form.get("copy", "1") or 1))
    except ValueError:
        abort(400, description=_("The copy must be a whole number."))
    if not 1 <= copy_no <= kinds[code].copies:
        abort(400, description=_("{card} has copies 1 to {copies}.", card=name, copies=kinds[code].copies))
    try:
        base = table.game.card_command(table.state, code, copy_no)
    except Refusal as err:
        return answer(422, str(err), err.code, _back(table))
    command = Command(base.actor, base.name, base.args, state_no, "host")
    return _result(submit(table, command), table)


@bp.post("/roll")
@host_only
def hardware_roll() -> BaseResponse:
    hw = dash().hardware
    back = request.referrer or url_for("host.home")
    if hw is None:
        return answer(422, _("No dice hardware is running."), "no-hardware", back)
    table = dash().current()
    if not can_roll_now(table):
        return answer(422, _("The table on the table screen is not waiting for a dice roll."), "illegal", back)
    try:
        hw.roll_now()
    except Exception as err:
        return answer(422, _("The dice input could not roll: {why}", why=err), "hardware", back)
    return answer(200, _("Rolled."), "ok", back)


def _confirmed() -> bool:
    return request.form.get("confirmed") in ("1", "yes")


@bp.post("/t/<table_id>/undo")
@host_only
def undo(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    state_no = _state_no_or_400()
    try:
        count = int(str(request.form.get("count", "1") or 1))
    except ValueError:
        abort(400, description=_("Undo how many moves? A whole number."))
    if dash().provisional_end(table):
        return answer(409, _("The host ended this game; it cannot be undone any more."), "over", _back(table))
    most = min(table.recent_moves(0)[0], UNDO_LIMIT)
    if most == 0:
        return answer(422, _("There is nothing to undo."), "illegal", _back(table))
    if not 1 <= count <= most:
        abort(400, description=_("Undo 1 to {most} moves at a time (at most {limit}).", most=most, limit=UNDO_LIMIT)
              if most == UNDO_LIMIT else _("Undo 1 to {most} moves at a time (there are {most} moves to undo).", most=most))
    reason = str(request.form.get("reason", "")).strip()
    if len(reason) > MAX_REASON:
        abort(400, description=_("The reason is longer than {most} characters.", most=MAX_REASON))
    if not _confirmed():
        return result_answer(Result(409, "confirm", "", confirm=_("Undo the last {count} move(s)", count=count)), _back(table))
    try:
        accepted = table.undo(count, state_no=state_no, reason=reason)
    except StoreUnavailable as err:
        return answer(err.status, err.message, err.code, _back(table))
    except StaleState:
        return answer(409, _(STALE_MESSAGE), "stale", _back(table))
    except Refusal as err:
        return answer(422, str(err), err.code, _back(table))
    return answer(200, " ".join(e.text for e in accepted.explanations), "ok", _back(table),
                  extra={"state_no": accepted.state_no})


@bp.post("/t/<table_id>/end")
@host_only
def end(table_id: str) -> BaseResponse:
    """*End and score now*: the game's own HOST command ``end`` (with the
    host's reason) where the game offers it, so the game scores the end
    itself, hidden money included; else (a game without ``end``) the
    dashboard closes the table with a provisional sheet."""
    d = dash()
    table = d.room.get(table_id)
    back = _back(table)
    if d.finished(table):
        return answer(409, _("This game is over already."), "over", back)
    hint = next((h for h in table.actions(HOST) if h["command"] == "end"), None)
    if hint is None:
        if not _confirmed():
            return result_answer(Result(409, "confirm", "", confirm=_("End this game now and score it")), back)
        try:
            d.end_by_host(table)
        except SetupError as err:
            return answer(409, str(err), "over", back)
        return answer(200, _("The table is closed. {game} has no end command of its own, so the "
                        "score sheet is provisional.", game=table.game.title), "ok", back)
    try:
        state_no = read_state_no(request.form)
    except FormError as err:
        return answer(400, str(err), "bad-form", back)
    if state_no != table.state_no:
        return answer(409, _(STALE_MESSAGE), "stale", back)
    if not hint.get("enabled", True):
        return answer(422, str(hint.get("reason") or "The game cannot be ended now."), "illegal", back)
    reason = str(request.form.get("reason", "")).strip()
    if len(reason) > MAX_REASON:
        return answer(400, _("The reason is longer than {most} characters.", most=MAX_REASON), "bad-form", back)
    if not _confirmed():
        return result_answer(Result(409, "confirm", "", confirm=str(hint["label"])), back)
    args: dict[str, Any] = dict(hint.get("args", {}))
    if reason and any(f["name"] == "reason" for f in hint.get("fields", [])):
        args["reason"] = reason
    result = submit(table, Command(HOST, "end", args, state_no, "host"))
    if result.status == 200:
        result = Result(200, "ok", result.message + " The score sheet is on the table screen.",
                        state_no=result.state_no)
    return result_answer(result, back)


@bp.post("/store/hide-notice")
@host_only
def hide_store_notice() -> BaseResponse:
    """The host has read what happened to the damaged store: the screens stop showing it."""
    dash().hide_store_notice()
    return answer(200, _("Hidden."), "ok", request.referrer or url_for("host.home"))


@bp.post("/t/<table_id>/show")
@host_only
def show(table_id: str) -> BaseResponse:
    table = dash().room.get(table_id)
    dash().show(table.id)
    return answer(200, _("The table screen now shows this table."), "ok", _back(table))


@bp.post("/t/<table_id>/free/<int:seat>")
@host_only
def free(table_id: str, seat: int) -> BaseResponse:
    table = dash().room.get(table_id)
    if not 0 <= seat < len(table.seat_names):
        abort(400, description=_("There is no such seat."))
    dash().free_seat(table, seat)
    return answer(200, _("{seat}'s seat is free: a phone can join it now.", seat=table.seat_names[seat]), "ok", _back(table))


#: the audited line an export of a running game writes into the log
EXPORT_LINE = CORE.says("core.exported")
EXPORT_RULE = cite("core", "Exporting a running game")


@bp.route("/t/<table_id>/export.json", methods=["GET", "POST"])
@host_only
def export(table_id: str) -> BaseResponse:
    """The game record.  While the game runs it holds every secret: the host
    confirms first, and the export is a public step of the log."""
    table = dash().room.get(table_id)
    running = not dash().finished(table)
    if running:
        if request.method != "POST" or not _confirmed():
            label = _("Export the game record of {game} {table} now? The game is running and the "
                      "record holds every seat's secrets (hidden money, hands). The table screen and every phone "
                      "will read that you exported it.", game=table.game.title, table=table.id)
            html = render_template("confirm.html", label=label, form=request.form, action=request.path,
                                   back=_back(table))
            return Response(html, status=200, mimetype="text/html")
        table.note(EXPORT_LINE, EXPORT_RULE, name="export")
    record = game_record(table)
    body = json.dumps(record, indent=2, ensure_ascii=False, default=str)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = f'attachment; filename="{table.id}-record.json"'
    return resp


@bp.get("/bgstats.bgsplay")
@host_only
def bgstats_export() -> BaseResponse:
    """Every finished game of this companion as one BG Stats import file
    (companion/bgstats.py), each play with the same uuid in every export."""
    d = dash()
    games: list[bgstats.FinishedGame] = []
    skipped = 0
    for stored in d.room.store.tables():
        if stored.finished_at is None:
            continue
        try:  # loaded aside, not kept: years of games would fill the memory
            table = d.room.get(stored.id) if d.room.holds(stored.id) else Table.load(stored, d.room.store)
            provisional = d.room.store.meta_value(stored.id, ENDED_KEY) == "1"
            game = bgstats.finished_game(table, stored.created_at, stored.finished_at, provisional)
        except Exception:  # a table that no longer loads is left out, and counted
            skipped += 1
            continue
        if game is not None:
            games.append(game)
    body = json.dumps(bgstats.import_file(games, location_setting()), indent=1, ensure_ascii=False)
    resp = Response(body, mimetype="application/json")
    resp.headers["Content-Disposition"] = 'attachment; filename="table-companion-plays.bgsplay"'
    resp.headers["X-Plays-Skipped"] = str(skipped)
    return resp


# looking back -----------------------------------------------------------------------------
def _viewer_as(table: Table) -> tuple[Viewer, str, dict[str, str]]:
    """The host sees the host view; an opened record (whose file holds every
    secret anyway) may also be looked at as one of its seats."""
    wanted = request.args.get("as", "")
    if table.read_only and wanted.startswith("seat:") and wanted[5:].isdigit():
        seat = int(wanted[5:])
        if 0 <= seat < len(table.seat_names):
            return seat_viewer(seat), table.seat_names[seat], {"as": wanted}
    return HOST_SCREEN, "host", {}


@bp.get("/t/<table_id>/step/<int:step>")
@host_only
def look(table_id: str, step: int) -> str:
    d = dash()
    table = d.table_or_record(table_id)
    viewer, who, query = _viewer_as(table)
    viewers: list[tuple[str, str, bool]] = []
    if table.read_only:
        viewers = [("host", url_for("host.look", table_id=table.id, step=step), not query)]
        as_seat: list[dict[str, Any]] = [{"as": f"seat:{i}"} for i in range(len(table.seat_names))]
        viewers += [(name, url_for("host.look", table_id=table.id, step=step, **as_seat[i]),
                     query.get("as") == f"seat:{i}") for i, name in enumerate(table.seat_names)]
    live = url_for("host.record_page", record_id=table.id) if table.read_only else _back(table)
    return render_look(table, step, viewer, endpoint="host.look", values={"table_id": table.id}, query=query,
                       live=live, who=who, viewers=viewers,
                       tv_form=None if table.read_only else url_for("host.tv", table_id=table.id),
                       tv_shown=None if table.read_only else d.tv_step(table))


@bp.post("/t/<table_id>/tv")
@host_only
def tv(table_id: str) -> BaseResponse:
    """Put a past step on the table screen (its public view), or back to live."""
    d = dash()
    table = d.room.get(table_id)
    back = request.referrer if (request.referrer or "").startswith(request.host_url) else _back(table)
    if request.form.get("live"):
        d.show_live(table)
        return answer(200, _("The table screen shows the live table again."), "ok", back)
    try:
        step = int(str(request.form.get("step", "")))
    except ValueError:
        abort(400, description=_("Which step? A whole number."))
    if not 1 <= step <= table.state_no:
        abort(400, description=_("The log has steps 1 to {last}.", last=table.state_no))
    side = "before" if request.form.get("side") == "before" else "after"
    if d.current_id != table.id:
        d.show(table.id)
    d.show_step(table, step, side)
    said = (_("The table screen shows the table before step {step}, marked as a look back, "
              "until you go back to live or the next move.", step=step) if side == "before" else
            _("The table screen shows the table after step {step}, marked as a look back, "
              "until you go back to live or the next move.", step=step))
    return answer(200, said, "ok", back)


# opened game records -------------------------------------------------------------------------
@bp.url_value_preprocessor
def _allow_record(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """The app takes 64 KB per request; a game record up to
    ``MAX_RECORD_BYTES``, and only from the logged-in host."""
    if endpoint == "host.import_record" and is_host():
        request.max_content_length = MAX_RECORD_BYTES + 64 * 1024
        if request.content_length is not None and request.content_length > MAX_RECORD_BYTES + 64 * 1024:
            abort(413, description=_("The file is larger than {mb} MB: it is not a game record.",
                                     mb=MAX_RECORD_BYTES // (1024 * 1024)))


@bp.post("/import")
@host_only
def import_record() -> BaseResponse:
    """Open an exported game record again, as a read-only table."""
    upload = request.files.get("record")
    back = url_for("host.home")
    if upload is None or not upload.filename:
        return answer(400, _("Choose a game record file (exported from a host page) to open."), "bad-form", back)
    name = upload.filename[-80:]
    data = upload.read(MAX_RECORD_BYTES + 1)
    try:
        opened = read_record(data, name)
        table = open_record(opened)
        today = open_record(opened, table.id + "-t", today=True) if table.divergence is not None else None
    except RecordError as err:
        return message_page(_("This record cannot be opened"), str(err), back, 422)
    if today is not None:  # what today's rules make of it, one link away
        today.today_of = table.id
        dash().add_record(today)
    dash().add_record(table)
    return redirect(url_for("host.record_page", record_id=table.id), code=303)


@bp.get("/r/<record_id>")
@host_only
def record_page(record_id: str) -> str:
    table = dash().record(record_id)
    return render_template("record.html", table=table, view=table.view(HOST_SCREEN),
                           step_base=step_base("host.look", table_id=table.id))


def game_record(table: Table) -> dict[str, Any]:
    """The whole game (:func:`companion.record.game_record`) with the
    dashboard's own facts about how it ended."""
    d = dash()
    return record.game_record(table, ended_by_host=d.ended_by_host(table),
                              scores_provisional=d.provisional_end(table))


def _result(result: Result, table: Table) -> BaseResponse:
    return result_answer(result, _back(table))
