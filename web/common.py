"""What every blueprint shares: CSRF, error pages, acting on a table, the
Server-Sent Events stream, template helpers."""

from __future__ import annotations

import hmac
import json
import logging
import queue
import re
import secrets
import sys
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import (
    Flask,
    Response,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from jinja2 import ChainableUndefined, StrictUndefined
from markupsafe import Markup
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from companion import languages, store_words
from companion.commands import Actor, Command
from companion.errors import InvalidCommand, Refusal, StaleState, StoreUnavailable
from companion.rule_languages import seed_language
from companion.table import Table
from web import i18n
from web.addresses import Addresses
from web.chart import COLOURS, cached_history, colours_by_name, css_colour, svg_chart
from web.dashboard import Dashboard, StoreNotice
from web.forms import FIELD_PREFIX, FormError, field_values, find_hint, read_posted
from web.i18n import N_, _, pgettext, said
from web.live import (
    SHARED_CSRF,
    ChannelSpec,
    Gzip,
    LiveHub,
    ViewKey,
    accepts_gzip,
    client_socket,
    same_origin,
    sse_head,
    wants_websocket,
    ws_accept,
)
from web.memo import (
    MemoExtension,
    action_key,
    board_key,
    field_key,
    form_id,
    log_entry_key,
    memo_url_for,
    part_key,
)
from web.pagewords import humanize, page_words
from web.parts import (
    STATE_MARK,
    STEP_MARK,
    ListedText,
    LiveDrawing,
    LivePage,
    PartExtension,
    draw_page,
    filled,
)
from web.rulebook import marked_pieces
from web.seeds import blocks as seed_blocks
from web.server import TAKE
from web.views import unshown

STALE_MESSAGE = N_("Someone moved first: here is the table now.")
T = TypeVar("T")

#: one line per request (method, path, status, milliseconds) when the app
#: was made with ``WebConfig.access_log`` (``companion serve`` does)
access_log = logging.getLogger("companion.access")
store_log = logging.getLogger("companion.store")


def dash() -> Dashboard:
    d: Any = current_app.extensions["companion"]
    assert isinstance(d, Dashboard)
    return d


# CSRF ------------------------------------------------------------------------------
def csrf_token() -> str:
    if g.get("shared_render"):  # a live view every viewer shares: each stream puts its own in
        return SHARED_CSRF
    token = session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def csrf_matches(sent: object) -> bool:
    """Whether ``sent`` is this session's CSRF token."""
    known = session.get("csrf")
    # compared as UTF-8 bytes: compare_digest refuses non-ASCII text with a TypeError (a 500)
    return isinstance(known, str) and hmac.compare_digest(
        str(sent).encode("utf-8", "surrogatepass"), known.encode("utf-8", "surrogatepass")
    )


def _check_csrf() -> None:
    if request.method != "POST":
        return
    if not csrf_matches(request.form.get("csrf", "")):
        abort(400, description=_("This form is out of date (or came from another site). Reload the page and try again."))


# answering -------------------------------------------------------------------------
def wants_json() -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def answer(status: int, message: str, code: str, back: str, *, category: str | None = None,
           extra: Mapping[str, Any] | None = None) -> BaseResponse:
    """JSON for the page's script; else a flash and a redirect back (an
    error page only for bad input)."""
    if wants_json():
        body = {"ok": status == 200, "code": code, "message": message, **(extra or {})}
        resp = jsonify(body)
        resp.status_code = status
        return resp
    if status == 400:
        return message_page(_("That did not work"), message, back, status=400)
    if status in (503, 507):  # the store refused: a page of its own, with the status
        return message_page(_("Nothing was recorded"), message, back, status=status)
    flash(message, category or ("ok" if status == 200 else "refused"))
    return redirect(back, code=303)


def message_page(title: str, message: str, back: str | None, status: int) -> Response:
    html = render_template("message.html", title=title, message=message, back=back)
    return Response(html, status=status, mimetype="text/html")


def _start_clock() -> None:
    g.started = time.perf_counter()


#: a private link's seat token in a path (``/s/<table>/<seat>/key/<token>``)
#: and a CSRF token in a query (the photo upload's address)
_KEY_IN_PATH = re.compile(r"(/s/[^/]*/[^/]*/key/)[^/?]*")
_CSRF_IN_QUERY = re.compile(r"([?&]csrf=)[^&]*")


def loggable_path(path: str) -> str:
    """A request's path and query as the access log writes it: a private
    link's token replaced by ``…`` (the log is no place for a seat's key),
    and every character outside printable ASCII percent-encoded, so a
    ``%0a`` in a path cannot start a forged line of its own.  A CSRF token
    in a query is replaced the same way."""
    path = _CSRF_IN_QUERY.sub(r"\1…", _KEY_IN_PATH.sub(r"\1…", path))
    return "".join(ch if "!" <= ch <= "~" or ch == "…" else
                   "".join(f"%{b:02X}" for b in ch.encode("utf-8", "surrogateescape"))
                   for ch in path)


def _log_request(resp: BaseResponse) -> BaseResponse:
    """The access log line: for a live stream, when the stream starts (its
    keep-alives are not requests and are not logged)."""
    started = g.get("started")
    ms = (time.perf_counter() - started) * 1000 if isinstance(started, float) else 0.0
    access_log.info("%s %s %s %.1f ms", loggable_path(request.method), loggable_path(request.full_path.rstrip("?")),
                    resp.status_code, ms)
    return resp


#: the blueprints whose every answer is private to one seat or the host:
#: seat pages, their live fragments and streams, the join pages (they know
#: which seat this phone holds), every host page, the station scan and the
#: game-record export
PRIVATE_BLUEPRINTS = frozenset({"seat", "host", "station"})
#: the one caching policy for a private answer: never stored, by the
#: browser (its back button, its disk cache) nor by anything in between
PRIVATE_CACHE = "no-store, private"


def _private_cache(resp: BaseResponse) -> BaseResponse:
    """Every answer of a private blueprint, errors and redirects included,
    gets the one private policy (streams and fragments too: they carry the
    same secrets as the page)."""
    if request.blueprint in PRIVATE_BLUEPRINTS:
        resp.headers["Cache-Control"] = PRIVATE_CACHE
        resp.headers["Pragma"] = "no-cache"
        resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


def init_app(app: Flask, *, log_requests: bool = False) -> None:
    if log_requests:
        app.before_request(_start_clock)
        app.after_request(_log_request)
    app.before_request(_check_csrf)
    app.after_request(_private_cache)
    app.jinja_env.globals.update(
        csrf_token=csrf_token,
        css_colour=css_colour,
        colours_by_name=colours_by_name,
        colours=COLOURS,
        FIELD_PREFIX=FIELD_PREFIX,
        humanize=humanize,
        actor_label=actor_label,
        unique_citations=unique_citations,
        seed_blocks=seed_blocks,
        seed_language=seed_language,
        marked_pieces=marked_pieces,
        is_mapping=lambda v: isinstance(v, Mapping),
        is_list=lambda v: isinstance(v, list | tuple),
        is_table=is_table,
        to_json=to_json,
        score_chart=score_chart,
        store_banner=store_banner,
        dom_id=dom_id,
        state_field=state_field,
        state_value=state_value,
        live_log=live_log,
        unshown=unshown,
    )
    # a game's own templates take their words from the game (web/pagewords.py)
    app.jinja_env.globals["game_words"] = lambda game_key: page_words(
        str(game_key), app.jinja_env.undefined is StrictUndefined)
    # a board is drawn once per distinct view, an address built once (web/memo.py)
    app.jinja_env.add_extension(MemoExtension)
    app.jinja_env.add_extension(PartExtension)
    # the pages' own words: the gettext domain ``web`` in the language spoken (web/i18n.py)
    i18n.install(app.jinja_env)
    app.jinja_env.globals["language"] = languages.current
    app.jinja_env.globals["board_key"] = board_key
    app.jinja_env.globals["log_entry_key"] = log_entry_key
    app.jinja_env.globals["part_key"] = part_key
    app.jinja_env.globals["action_key"] = action_key
    app.jinja_env.globals["form_id"] = form_id
    app.jinja_env.globals["field_key"] = field_key
    # the pages' own code builds its links through the same memory as the
    # templates (a phone's live page built five each time, ~0.1 ms)
    remembered = memo_url_for(app.url_for)
    app.url_for = remembered  # type: ignore[method-assign]
    app.jinja_env.globals["url_for"] = remembered
    app.jinja_env.filters["clock"] = clock
    # a game that drops or renames a view key must not break its page: a
    # missing key (also a key of a missing key) draws as nothing.  Under test
    # (TESTING) a missing key fails loudly instead, so a typo cannot hide
    app.jinja_env.undefined = StrictUndefined if app.testing else ChainableUndefined
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.errorhandler(HTTPException)
    def _http_error(err: HTTPException) -> BaseResponse:
        status = err.code or 500
        text = err.description or err.name
        if wants_json():
            resp = jsonify({"ok": False, "code": str(status), "message": text})
            resp.status_code = status
            return resp
        return message_page(f"{status}: {http_name(status, err.name)}", text, request.referrer, status)

    @app.errorhandler(StoreUnavailable)
    def _store_unavailable(err: StoreUnavailable) -> BaseResponse:
        store_log.warning("a write was refused by the store (%s): %s", err.kind, err.detail)
        return answer(err.status, refused_words(err.kind), err.code, request.referrer or "/")

    @app.errorhandler(Refusal)
    def _refusal(err: Refusal) -> BaseResponse:
        if err.code == "unknown-table":
            if wants_json():
                return answer(404, str(err), err.code, "/")
            return message_page(_("No such table"), str(err), "/", 404)
        return answer(400, str(err), err.code, request.referrer or "/")


def http_name(status: int, name: str) -> str:
    """An error page's title: the status's name in the language spoken."""
    names = {
        400: _("Bad Request"), 403: _("Forbidden"), 404: _("Not Found"), 405: _("Method Not Allowed"),
        409: _("Conflict"), 413: _("Request Entity Too Large"), 422: _("Unprocessable Entity"),
        429: _("Too Many Requests"), 500: _("Internal Server Error"), 503: _("Service Unavailable"),
    }
    return names.get(status, name) if name == _ENGLISH_NAMES.get(status) else name


#: Werkzeug's names of the statuses :func:`http_name` says
_ENGLISH_NAMES = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
                  413: "Request Entity Too Large", 422: "Unprocessable Entity", 429: "Too Many Requests",
                  500: "Internal Server Error", 503: "Service Unavailable"}


def clock(at: Any) -> str:
    try:
        return time.strftime("%H:%M:%S", time.localtime(float(at)))
    except (TypeError, ValueError, OverflowError, OSError):
        return ""


def to_json(value: Any) -> str:
    """A value as a form carries it (sorted, so equal values give the same
    text: a form's ``data-key``, its arguments)."""
    return json.dumps(value, sort_keys=True, default=str)


def actor_label(actor: Any, source: Any = "") -> str:
    """Who acted, for the log: a seat's name as given, ``host`` → ``Host``,
    and the source only when it adds something (not ``host (host)``)."""
    who = str(actor)
    src = str(source or "")
    adds = bool(src) and src != "phone" and src.lower() != who.lower()
    if who == "host":
        who = pgettext("actor", "Host")
    elif who == "chance":
        who = pgettext("actor", "Chance")
    return f"{who} ({src})" if adds else who


def unique_citations(citations: Any) -> list[Any]:
    """Citations without repeats (same seed and section): one chip each."""
    out: list[Any] = []
    seen: set[tuple[str, str]] = set()
    for c in citations or []:
        key = (str(c.get("seed", "")), str(c.get("section", "")))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def is_table(value: Any) -> bool:
    """A list of objects that share their keys: drawn as a table."""
    if not isinstance(value, list) or not value or not all(isinstance(v, Mapping) for v in value):
        return False
    keys = list(value[0].keys())
    return all(list(v.keys()) == keys for v in value) and len(keys) <= 8


def store_banner(host: bool = False) -> dict[str, str] | None:
    """What every screen shows about the storage: while it refuses writes, a
    banner for everyone; while space runs low, a warning on the host's pages
    only (``host``).  ``None`` when there is nothing to say."""
    health = dash().room.store.health()
    notice = dash().store_notice
    told = notice_words(notice) if notice is not None else None
    if told is not None and not health.refusing:
        return {"kind": "notice", "title": said("store.notice_title", store_words.NOTICE_TITLE), "text": told,
                "hide": said("store.hide_notice", store_words.HIDE_NOTICE)}
    if health.refusing:
        text = refused_words(health.state) + (f" {told}" if told else "")
        return {"kind": health.state, "text": text,
                "title": said(f"store.banner.{health.state}", store_words.BANNER_TITLE[health.state])}
    if health.state == "low" and host:
        return {"kind": "low", "title": said("store.low_title", store_words.LOW_TITLE),
                "text": said("store.low_space", store_words.LOW_SPACE, free=health.free_text())}
    return None


def notice_words(notice: StoreNotice) -> str:
    """The store's notice at start, in the language spoken: a recovery's
    report is said sentence by sentence (``store.recovery.<key>``)."""
    if isinstance(notice, str):
        return notice
    return notice.message(lambda key, /, **values: said(f"store.recovery.{key}", store_words.RECOVERY[key], **values))


def refused_words(kind: str) -> str:
    """What every screen says of a write the store refused (``full``,
    ``read-only``, ``failing``), in the language spoken."""
    kind = kind if kind in store_words.REFUSED else "failing"
    return said(f"store.refused.{kind}", store_words.REFUSED[kind])


def banner_key(host: bool = False) -> Hashable:
    """A live page's storage banner, as its part's key (what it shows)."""
    banner = store_banner(host)
    return ("banner", tuple(sorted(banner.items())) if banner else ())


def store_mark() -> str:
    """What makes a live page redraw for the storage: its state changing."""
    return f"{dash().room.store.health().state} {dash().store_notice is not None}"


def dom_id(kind: str) -> str:
    """An id unique within the page being drawn (a number field and its label,
    the buttons that step it)."""
    counter: int = g.get("dom_ids", 0) + 1
    g.dom_ids = counter
    return f"{kind}-{counter}"


def score_chart(table: Table) -> str:
    history = cached_history(table, dash().chart_cache())
    return svg_chart(history, table.seat_names, tuple(s.colour for s in table.config.seats))


# acting --------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    status: int
    code: str
    message: str
    confirm: str = ""
    state_no: int | None = None
    #: a refusal's rule (``Citation.to_json()``): the answer links its passage
    rule: Mapping[str, str] | None = None
    #: a refusal's own words, without its citation (``message`` carries both)
    reason: str = ""


def rule_link(rule: Mapping[str, str] | None) -> dict[str, Any]:
    """What a refusal's answer carries so the page can open the rule's words:
    the citation and the URL of its passage (empty without a rule)."""
    if not rule:
        return {}
    url = url_for("screen.rule", seed=rule.get("seed", ""), section=rule.get("section", ""),
                  quote=rule.get("quote", ""))
    return {"rule": dict(rule), "rule_url": url}


def perform(table: Table, actor: Actor, form: Any, source: str) -> Result:
    """Submit the action a form was drawn from.  Never raises for bad input."""
    try:
        posted = read_posted(form)
    except FormError as err:
        return Result(400, "bad-form", str(err))
    if dash().finished(table):
        return Result(409, "over", _("The game is over: nothing more can be done at this table."))
    if posted.state_no != table.state_no:
        return Result(409, "stale", _(STALE_MESSAGE))
    hint = find_hint(table.actions(actor), posted.command, posted.args)
    if hint is None:
        return Result(409, "gone", _("That action is not offered now: here is the table now."))
    try:
        values = field_values(hint, form)
    except FormError as err:
        return Result(400, "bad-form", str(err))
    if hint.get("moves_money") and not posted.confirmed:
        return Result(409, "confirm", _("Please confirm: {label}", label=hint["label"]), confirm=str(hint["label"]))
    hook = software_hook(table, actor, hint)
    if hook is not None:
        drawn = hook(table.state)
        command = Command(drawn.actor, drawn.name, drawn.args, posted.state_no, "software")
    else:
        command = Command(actor, posted.command, {**posted.args, **values}, posted.state_no, source)
    return submit(table, command)


def software_hook(table: Table, actor: Actor, hint: Mapping[str, Any]) -> Callable[[Any], Command] | None:
    """A host or chance hint without fields whose randomness the server draws:
    the game's ``<command>_command(state)`` (a method, or a function in the
    module that defines the game's class, e.g. Müll + Money's
    ``shuffle_command`` in ``muell_money/game.py``).  The random
    result travels in the command, so replay is exact."""
    if actor.is_seat or hint.get("fields"):
        return None
    name = str(hint["command"]).replace("-", "_")
    if name in ("card", "dice") or not name.isidentifier():
        return None
    attr = f"{name}_command"
    hook = getattr(table.game, attr, None)
    if hook is None:  # a function beside the game's class
        hook = getattr(sys.modules.get(type(table.game).__module__), attr, None)
    return hook if callable(hook) else None


def submit(table: Table, command: Command) -> Result:
    try:
        accepted = table.submit(command)
    except StoreUnavailable as err:
        store_log.warning("a command was refused by the store (%s): %s", err.kind, err.detail)
        return Result(err.status, err.code, err.message)
    except StaleState:
        return Result(409, "stale", _(STALE_MESSAGE))
    except InvalidCommand as err:
        return Result(400, err.code, str(err), rule=err.rule.to_json() if err.rule else None, reason=err.message)
    except Refusal as err:
        return Result(422, err.code, str(err), rule=err.rule.to_json() if err.rule else None, reason=err.message)
    lines = [e.text for e in accepted.explanations if e.audience is None]
    said = " ".join(t if t.rstrip().endswith((".", "!", "?", ":", ")")) else t.rstrip() + "." for t in lines[:2])
    return Result(200, "ok", said or "Done.", state_no=accepted.state_no)


def result_answer(result: Result, back: str) -> BaseResponse:
    if result.code == "confirm" and not wants_json():
        html = render_template("confirm.html", label=result.confirm, form=request.form,
                               action=request.path, back=back)
        return Response(html, status=200, mimetype="text/html")
    return answer(result.status, result.message, result.code, back, extra=_result_extra(result))


def result_body(result: Result) -> dict[str, Any]:
    """What a page's script is told of an action (the JSON of a posted form)."""
    return {"ok": result.status == 200, "code": result.code, "message": result.message, **_result_extra(result)}


def _result_extra(result: Result) -> dict[str, Any]:
    extra: dict[str, Any] = {}
    if result.confirm:
        extra["confirm"] = result.confirm
    if result.state_no is not None:
        extra["state_no"] = result.state_no
    extra.update(rule_link(result.rule))
    return extra


# live: Server-Sent Events -------------------------------------------------------------
def sse_event(name: str, data: str, event_id: int | None = None) -> str:
    """One Server-Sent Event: every line of ``data`` (split where the event
    stream splits lines: CR, LF or CRLF) behind its own ``data:``."""
    head = f"event: {name}\n" if event_id is None else f"event: {name}\nid: {event_id}\n"
    if "\r" in data:
        data = data.replace("\r\n", "\n").replace("\r", "\n")
    if data.endswith("\n"):
        data = data[:-1]  # a last line break ends the last line; it starts no empty one
    return head + "data: " + data.replace("\n", "\ndata: ") + "\n\n"


def live_hub() -> LiveHub:
    found: Any = current_app.extensions["companion.live"]
    assert isinstance(found, LiveHub)
    return found


def shared_render(render: Callable[[], T]) -> T:
    """``render()`` as a render every viewer of the view may share: a form's
    CSRF token and state number are placeholders (:data:`web.live.SHARED_CSRF`,
    :data:`web.parts.STATE_MARK`) each page puts its own in, and the page's
    element ids start afresh."""
    before = g.get("shared_render", False), g.get("dom_ids", 0)
    g.shared_render, g.dom_ids = True, 0
    try:
        return render()
    finally:
        g.shared_render, g.dom_ids = before


_LOG_HEAD, _LOG_TAIL = '<ol class="log-list">\n', "</ol>"


def live_log(entries: list[Mapping[str, Any]], limit: int, steps: bool = True,
             before: str | None = None) -> Markup:
    """A live page's log: its newest ``limit`` entries, newest first, put
    together from each entry drawn once for every page (``log_entry`` in
    web/pieces.py; ``steps``: each with its step link, whose base the page
    puts in, :data:`web.parts.STEP_MARK`): from one state to the next only
    the new entry is drawn, and every page that shows the same entries
    shares the drawing.  ``before``: the log as the page's drawing before
    showed it, whose entries are kept as they were joined."""
    from web.pieces import log_entry  # web/pieces.py draws with this module's helpers

    shown = entries[::-1][:limit] if limit > 0 else []
    if not shown:
        return Markup('<ol class="log-list">\n  <li class="muted">%s</li>\n</ol>') % _("Nothing has happened yet.")
    kept = current_app.jinja_env.memo_parts  # type: ignore[attr-defined]
    base = "live" if steps else ""
    keys = [log_entry_key(entry, base) for entry in shown]
    named = tuple(key or f"seq:{entry.get('seq')}:{id(entry)}" for key, entry in zip(keys, shown, strict=True))
    listed = before if isinstance(before, ListedText) else None
    # the entries the page's log already holds are taken from it (ListedText.of): only those that came are drawn
    came = ListedText.came_before(named, _LOG_HEAD, _LOG_TAIL, listed)
    items: list[tuple[str, str]] = []
    for n, (key, entry) in enumerate(zip(keys, shown, strict=True)):
        if came is not None and n >= came:
            items.append((named[n], ""))
            continue
        drawn = kept.get(key) if key else None
        if drawn is None:
            drawn = str(log_entry(entry, STEP_MARK if steps else None)) + "\n"
            if key:
                kept.put(key, drawn)
        items.append((named[n], drawn))
    # a list, so a page gets the new entries (and loses the oldest) as edits found from the keys
    return ListedText.of(_LOG_HEAD, items, _LOG_TAIL, listed)


def state_value(state_no: int) -> str:
    """The state number as a live drawing writes it: the placeholder in a
    shared render (the page puts its state in), so a part that shows it
    stays the same drawing from one state to the next."""
    return STATE_MARK if g.get("shared_render") else str(int(state_no))


def state_field(state_no: int) -> Markup:
    """A form's hidden state number: the placeholder in a shared render."""
    return Markup(f'<input type="hidden" name="state_no" value="{state_value(state_no)}">')


def draw(page: LivePage, context: Mapping[str, Any], state_no: int, before: LiveDrawing | None = None) -> LiveDrawing:
    """A live page drawn in parts, for every viewer of the view to share
    (web/parts.py): whole, or from ``before`` (a drawing of the same view)
    only the parts that changed.  ``state_no`` is the state it shows."""
    env = current_app.jinja_env
    made: list[Any] = []

    # a drawing every viewer shares reads no request, session or ``g``: its
    # templates get the view's context and the environment's globals alone
    # (Flask's context processors, which add those three, ran at every drawing)
    def whole(template: str, values: Mapping[str, Any]) -> str:
        return env.get_template(template).render(values)

    def part(name: str) -> str:
        template = env.get_template(page.template)
        if not made:  # the template's context, made once for the parts this drawing draws
            made.append(template.new_context(dict(context)))
        return "".join(template.blocks[name](made[0]))

    drawing = shared_render(lambda: draw_page(page, context, state_no, before, whole, part,
                                              env.memo_parts))  # type: ignore[attr-defined]
    drawing.step_base = str(context.get("step_base") or "")
    return drawing


def live_page(template: str, drawing: LiveDrawing, **context: Any) -> str:
    """A page holding a live fragment: the fragment drawn in parts, with
    this viewer's CSRF token, the state number and its step links put in
    (the page carries its token and step base too, for what its stream
    sends: see :func:`stream`)."""
    html = filled(drawing.html, csrf_token(), drawing.state_no, drawing.step_base)
    # a WebSocket where the server keeps them (companion serve), else the page's event stream
    return render_template(template, live_html=Markup(html), live_socket=TAKE in request.environ, **context)


def fragment(drawing: LiveDrawing) -> Response:
    """A live fragment on its own (the page's script asks for it when it has
    no stream), this viewer's CSRF token put in."""
    return plain_fragment(filled(drawing.html, csrf_token(), drawing.state_no, drawing.step_base),
                          drawing.state_no)


def plain_fragment(html: str, state_no: int) -> Response:
    """A page's fragment drawn for this viewer alone (no stream shows it)."""
    resp = Response(html, mimetype="text/html")
    resp.headers["X-State"] = str(state_no)
    resp.headers["Cache-Control"] = "no-store"
    return resp


def stream(
    table: Table,
    drawing: Callable[[LiveDrawing | None], LiveDrawing],
    *,
    kind: str,
    viewer: Hashable,
    fingerprint: Callable[[], Any] | None = None,
    goto: Callable[[], str | None] | None = None,
    act: Callable[[str, Any], Mapping[str, Any]] | None = None,
    language: Callable[[], str] | None = None,
) -> Response:
    """A live page's connection (web/live.py): a WebSocket when the page
    asks for one (``Upgrade: websocket``) and the server can hand its
    connection over, else an event stream.  It carries the fragment whole
    at first, then whenever the table (or ``fingerprint``) changes what
    changed (web/parts.py), and ``goto`` when the page should move on; a
    WebSocket page also acts on it (``act``: the form's address and fields
    -> the answer, as a posted form's JSON).

    The fragment is drawn once per distinct view and mark for every page
    that shows it: ``kind`` and ``viewer`` name the view (a seat's viewer
    carries its token's digest, so nothing is ever shared across seats or
    claims).  Nothing in it is this viewer's own: the page puts its CSRF
    token and the state number in.  ``goto`` is asked before every
    drawing: a seat's page asks whether its phone still holds the seat, so
    a seat the host freed (or gave to another phone) gets nothing more and
    its connection ends at once.

    Its drawings (and its actions' answers) are in the language the
    request spoke (web/language.py); ``language`` says the page's language
    now, and when it is another (a phone chose French) the page moves on
    to itself, drawn anew in that one."""
    hub = live_hub()
    environ = request.environ
    addrs = addresses()
    lang = languages.current()
    key = ViewKey(kind, table.id, viewer, (addrs.join_base(environ), addrs.typed_base(environ)), lang)
    page = request.path.rsplit("/stream", 1)[0]

    def moved_on() -> str | None:
        where = goto() if goto is not None else None
        if where is None and language is not None and language() != lang:
            return page
        return where

    # the view's language spoken while it is drawn (a token, not a context
    # manager: drawn for every view at every state)
    def drawn(before: LiveDrawing | None) -> LiveDrawing:
        token = languages.enter(lang)
        try:
            return drawing(before)
        finally:
            languages.leave(token)

    def acted(url: str, form: Any) -> Mapping[str, Any]:
        assert act is not None
        token = languages.enter(lang)
        try:
            return act(url, form)
        finally:
            languages.leave(token)

    spec = ChannelSpec(key, table, drawn, fingerprint, moved_on if goto is not None or language is not None else None,
                       acted if act is not None else None, environ)
    take = environ.get(TAKE)
    if wants_websocket(environ):
        if take is None:
            abort(400, description=_("This server keeps no WebSocket open: the page uses its event stream."))
        if not same_origin(environ):
            abort(403, description=_("A page of another site may not open this live connection."))
        head = ws_accept(environ)
        if isinstance(head, str):
            abort(400, description=head)
        take(lambda sock: hub.adopt(sock, spec, "ws", head))
        return Response(status=101)  # the hub answers (the app's answer goes nowhere)
    if take is not None:
        take(lambda sock: hub.adopt(sock, spec, "sse", sse_head() + b"retry: 2000\n\n"))
        return Response("")
    return _thread_stream(hub, spec)


def _thread_stream(hub: LiveHub, spec: ChannelSpec) -> Response:
    """An event stream sent from this request's thread (a server that
    cannot hand its connection over): what the hub puts in its queue."""
    environ = request.environ
    gzip = Gzip() if accepts_gzip(environ) else None
    quiet = max(5.0, 4 * float(current_app.config["COMPANION_KEEPALIVE"]))
    channel = hub.stream(spec, client_socket(environ))

    def out(text: str) -> bytes:
        return gzip.chunk(text) if gzip is not None else text.encode("utf-8")

    def events() -> Iterator[bytes]:
        try:
            yield out("retry: 2000\n\n")
            while True:
                try:
                    item = channel.queue.get(timeout=quiet)
                except queue.Empty:
                    return  # the hub sends keep-alives: silence means it is gone, and the page reconnects
                if item is None:
                    if gzip is not None:
                        yield gzip.end()
                    return
                yield out(item)
        finally:
            hub.close(channel)

    resp = Response(events(), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    if gzip is not None:
        resp.headers["Content-Encoding"] = "gzip"
        resp.headers["Vary"] = "Accept-Encoding"
    return resp


def live_act(act_url: str, allowed: Callable[[], str | None], actor_of: Callable[[Any], Actor | str],
             table: Table, source: str) -> Callable[[str, Any], Mapping[str, Any]]:
    """How a page acts on its live connection: only its own action form
    (``act_url``), only while ``allowed()`` says nothing against it (a seat
    still held, a login still good), with the session's CSRF token as when
    the connection opened; the answer is a posted form's JSON."""
    token = csrf_token()

    def act(url: str, form: Any) -> Mapping[str, Any]:
        if url != act_url:
            return {"ok": False, "code": "bad-form", "message": _("That form is not sent this way: reload the page.")}
        refused = allowed()
        if refused:
            return {"ok": False, "code": "403", "message": refused}
        if not hmac.compare_digest(str(form.get("csrf", "")).encode("utf-8", "surrogatepass"),
                                   token.encode("utf-8", "surrogatepass")):
            return {"ok": False, "code": "400", "message": _("This form is out of date (or came from another site). "
                    "Reload the page and try again.")}
        actor = actor_of(form)
        if isinstance(actor, str):
            return {"ok": False, "code": "bad-form", "message": actor}
        return result_body(perform(table, actor, form, source))

    return act


def addresses() -> Addresses:
    found: Any = current_app.extensions["companion.addresses"]
    assert isinstance(found, Addresses)
    return found


def join_url(path: str) -> str:
    """A link for phones, built from the address this request came in on
    (web/addresses.py): never frozen at start."""
    return addresses().join_base(request.environ) + path


def typed_url(path: str) -> str:
    """The address to show for typing (``<hostname>.local`` where it resolves)."""
    return addresses().typed_base(request.environ) + path
