"""The host's *Updates* page (``/host/updates``): the version running, the
last update or rollback and how it went, an update waiting for "after this
game"; and the buttons that start one (companion/update.py does the work,
in a process of its own: the page only starts it and shows how it goes).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Blueprint, render_template, request, url_for
from werkzeug.wrappers import Response as BaseResponse

from companion import update
from companion.settings import idle_days_setting
from web.common import answer, dash
from web.host import host_only
from web.i18n import _

bp = Blueprint("updates", __name__, url_prefix="/host/updates")

#: the last lines of the update's own output shown on the page
LOG_LINES = 30


def home() -> update.Home:
    return update.Home.default()


def store_path() -> Path:
    return Path(dash().room.store.path)


def spawn_update(args: list[str], log: Path) -> None:
    """``companion update ARGS`` in a process of its own (it outlives this
    request, and the restart it asks for)."""
    exe = Path(sys.executable).parent / "companion"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "companion.cli"]
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as out:
        out.write(f"\n== {time.strftime('%Y-%m-%d %H:%M:%S')}: companion update {' '.join(args)}\n")
        out.flush()
        subprocess.Popen([*command, "update", *args, "--db", str(store_path())], stdout=out,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, start_new_session=True,
                         env={**os.environ, "COMPANION_HOME": str(home().root)})


#: how the page starts one (tests put a recorder here)
spawn: Callable[[list[str], Path], None] = spawn_update


def log_tail(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()[-LOG_LINES:]
    except OSError:
        return []


def playing() -> list[update.Playing]:
    return update.tables_in_play(store_path(), idle_days_setting())


@bp.get("")
@host_only
def page() -> str:
    where = home()
    status = update.status(where)
    try:
        back: update.RollbackPlan | None = update.plan_rollback(where, store_path())
        no_back = ""
    except update.UpdateRefused as err:
        back, no_back = None, str(err)
    history = [dict(e, when=time.strftime("%Y-%m-%d %H:%M", time.localtime(float(e.get("at", 0)))),
                    said=update.describe_outcome(e)) for e in reversed(where.history()[-5:])]
    return render_template("host_updates.html", status=status, playing=playing(), back=back, no_back=no_back,
                           history=history, log=log_tail(where.file("update.log")))


@bp.post("/start")
@host_only
def start() -> BaseResponse:
    back = url_for("updates.page")
    when = request.form.get("when", "now")
    if when not in ("now", "after-game"):
        return answer(400, _("Choose when: now, or after this game."), "bad-form", back)
    busy = playing()
    if busy and when == "now":
        names = ", ".join(f"{p.game} · {p.table_id}" for p in busy)
        return answer(409, _("A game is being played ({names}): an update waits until it ends. "
                             "Set it for after this game instead.", names=names), "playing", back)
    if when == "after-game" and busy:
        update.set_pending(home(), update.Plan(store=store_path(), backups=store_path().parent))
        return answer(200, "The update is set for after this game: it starts when the last game being played ends.",
                      "ok", back)
    spawn([], home().file("update.log"))
    return answer(200, _("The update has started: this page shows how it goes (reload it). The companion restarts "
                         "on the new version when it is ready, or stays on this one."), "ok", back)


@bp.post("/cancel")
@host_only
def cancel() -> BaseResponse:
    pending = home().file(update.PENDING)
    had = pending.exists()
    pending.unlink(missing_ok=True)
    return answer(200, _("The update set for after this game is cancelled.") if had else _("No update was waiting."),
                  "ok", url_for("updates.page"))


@bp.post("/rollback")
@host_only
def rollback() -> BaseResponse:
    back = url_for("updates.page")
    if playing():
        return answer(409, _("A game is being played: going back waits until it ends."), "playing", back)
    try:
        plan = update.plan_rollback(home(), store_path())
    except update.UpdateRefused as err:
        return answer(409, str(err), "no-rollback", back)
    confirmed = request.form.get("confirmed") in ("1", "yes")
    if plan.loses and not confirmed:
        return answer(409, _("{plan}. Tick the box to go back all the same.", plan=plan.describe()), "confirm", back)
    spawn(["--rollback", *(["--yes"] if confirmed else [])], home().file("update.log"))
    return answer(200, _("Going {plan}. This page shows how it went (reload it).", plan=plan.describe()), "ok", back)


def version_line(found: dict[str, Any] | None) -> str:
    if not found:
        return "none"
    made = f", built {time.strftime('%Y-%m-%d', time.localtime(found['made_at']))}" if found.get("made_at") else ""
    return f"{found['id']} ({found.get('source') or 'the clone'}{made})"


@bp.app_template_filter("version_line")
def _version_line(found: dict[str, Any] | None) -> str:
    return version_line(found)
