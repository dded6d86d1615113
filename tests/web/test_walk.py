"""The walk: every page of every game in real headless Chromium (Debian's
/usr/bin/chromium via Playwright), on the screens a table really has: phones
at 360 and 390 px, the TV at 1280×720 and 1920×1080, the host on a phone.
Each game is played by the random player (``play.py``) to the start, the
middle and the end of a game, with a 24-character seat name that cannot wrap.

On every page: no horizontal overflow and nothing cut at a box's edge, every
tap target at least 44 px (phones), the smallest TV text at least 20 px at
1080p (and as large relative to the screen at 720p), and axe-core
(``axe-playwright-python``, a test dependency; it is injected into the page
by the test, never served) with no violations, its contrast check asking
4.5:1 of all text.  The phones at 390 px always show their seat's secrets
(so the private cards are read too), those at 360 px keep the peek veil.
The dialogs close on Escape, hold focus and give it back.
The pages that came late (look back, the rules page with a search, the
sandbox, a game record) are walked by a second, sampled test.
Screenshots go to ``test-artifacts/walk-*.png``."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask

from companion.commands import HOST, Actor, Command
from companion.games import GAMES
from companion.store import Store
from companion.table import Room, Table
from web import dashboard_of

from .conftest import JOIN, PIN, csrf, export_running, login, make_app, phone
from .play import Party, play, seat_up
from .test_browser import ARGS, ARTIFACTS, CHROMIUM, LiveServer
from .test_veil import fresh_number, gold_label, reach

pytestmark = pytest.mark.browser

sync_api = pytest.importorskip("playwright.sync_api")
axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

#: 24 characters (the longest a seat name may be) with no place to break a line
LONG_NAME = "AnnaMariaKatharinaSophie"
SEATS = {
    "muell-money": [LONG_NAME, "Bob", "Cyd", "Dee"],
    "money-maker": [LONG_NAME, "Bob", "Cyd", "Dee", "Eve", "Fay"],
    "world-of-waste": [LONG_NAME, "Bob", "Cyd", "Dee"],
}
#: random steps to the middle of each game (deep enough for loans, credits, auctions, piles)
MID_STEPS = {"muell-money": 70, "money-maker": 70, "world-of-waste": 70}

PHONE = {"is_mobile": True, "has_touch": True, "device_scale_factor": 1}
SCREENS: dict[str, dict[str, Any]] = {
    "phone-360": {"viewport": {"width": 360, "height": 740}, **PHONE},
    "phone-390": {"viewport": {"width": 390, "height": 844}, **PHONE},
    "tv-720": {"viewport": {"width": 1280, "height": 720}},
    "tv-1080": {"viewport": {"width": 1920, "height": 1080}},
}
PHONES = ("phone-360", "phone-390")
TVS = ("tv-720", "tv-1080")
#: the smallest text on the TV at 1080p, and the same share of the screen at 720p
MIN_TV_TEXT = {"tv-1080": 20.0, "tv-720": 20.0 * 720 / 1080}
MIN_TARGET = 44
#: axe-core reads the page's markup and colours: the same at 360 and 390 px (and on
#: both TVs), so it runs once per page on each kind of screen; the layout is measured on all
AXE_ON = ("phone-390", "tv-1080")
#: the phones that always show their seat's secrets (the phone's own "Always show my
#: secrets"), so axe-core and the layout checks read the private cards; the others keep the veil
SECRETS_SHOWN = ("phone-390",)

#: axe-core: every rule it has (WCAG 2.x A/AA and best practice), with its
#: contrast check asking 4.5:1 of large text as well as of normal text
AXE_CONFIGURE = """() => axe.configure({checks: [{id: 'color-contrast',
  options: {contrastRatio: {normal: {expected: 4.5}, large: {expected: 4.5}}}}]})"""
AXE_OPTIONS = {"resultTypes": ["violations"]}

#: the page's geometry, measured in the page (see the module's doc)
GEOMETRY = r"""(kind) => {
  const out = {overflow: [], cut: [], targets: [], text: [], minText: 1e9, width: 0};
  const root = document.documentElement;
  const W = root.clientWidth;
  out.width = root.scrollWidth;
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    if (el.classList.length) s += '.' + [...el.classList].join('.');
    const t = (el.innerText || el.textContent || el.getAttribute('aria-label') || '').trim().replace(/\s+/g, ' ');
    return s + (t ? ' "' + t.slice(0, 40) + '"' : '');
  };
  const shown = (el) => {
    if (el.closest('[hidden], details:not([open]) > :not(summary)')) return false;
    const st = getComputedStyle(el);
    if (st.visibility !== 'visible' || st.display === 'none') return false;
    const r = el.getBoundingClientRect();
    return r.width > 1 && r.height > 1;
  };
  // the scale of CSS transforms above an element (the TV's fitted board)
  const scaleOf = (el) => {
    let s = 1;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (a instanceof HTMLElement && getComputedStyle(a).transform !== 'none' && a.offsetWidth)
        s *= a.getBoundingClientRect().width / a.offsetWidth;
    }
    return s;
  };
  const all = [...document.body.querySelectorAll('*')].filter(shown);
  // 1. horizontal overflow of the page, and what sticks out
  if (root.scrollWidth > W + 1) {
    for (const el of all) {
      const r = el.getBoundingClientRect();
      if (r.right > W + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > W + 1))
        out.overflow.push(name(el) + ' right=' + Math.round(r.right));
    }
  }
  // 2. text drawn outside the box it sits in (a card, a chip, a box that
  //    clips): a name running out of its mat, a chip cut at the log's edge
  const clear = (c) => c === 'transparent' || c === 'rgba(0, 0, 0, 0)';
  for (const el of all) {
    if (el instanceof SVGElement) {
      if (!(el instanceof SVGTextElement)) continue;
      const r = el.getBoundingClientRect(), b = el.ownerSVGElement.getBoundingClientRect();
      if (r.right > b.right + 1 || r.left < b.left - 1) out.cut.push(name(el) + ' in its svg');
      continue;
    }
    if (getComputedStyle(el).textOverflow === 'ellipsis') continue;
    for (const n of el.childNodes) {
      if (n.nodeType !== 3 || !n.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      for (let a = el; a && a !== document.body && a.id !== 'live'; a = a.parentElement) {
        const st = getComputedStyle(a);
        const scrolls = st.overflowX === 'auto' || st.overflowX === 'scroll';
        if (!(st.overflowX !== 'visible' || !clear(st.backgroundColor))) continue;
        if (scrolls && kind === 'phone') break;  // a table a phone may scroll sideways
        const b = a.getBoundingClientRect();
        if (r.right > b.right + 1 || r.left < b.left - 1)
          out.cut.push(name(el).slice(0, 60) + ' out of ' + name(a).slice(0, 40));
        break;
      }
    }
  }
  // 3. tap targets (phones): inline links inside a sentence are exempt (WCAG 2.5.5)
  if (kind === 'phone') {
    for (const el of all) {
      if (!el.matches('a[href], button, summary, select, textarea, input:not([type=hidden]), [role=button], label.pill')) continue;
      let target = el;
      if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) target = el.closest('label');
      if (el.matches('a') && getComputedStyle(el).display === 'inline') {
        const rest = [...el.parentElement.childNodes].filter((n) => n !== el && !(n.nodeType === 1 && n.matches('a')))
          .map((n) => n.textContent).join('');
        if (/[A-Za-z]{2}/.test(rest)) continue;
      }
      const r = target.getBoundingClientRect();
      if (r.height < 44 - 0.5 || r.width < 44 - 0.5)
        out.targets.push(name(el) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  // 4. the size of every piece of text, as drawn (after the board is fitted)
  for (const el of all) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let size;
    if (el instanceof SVGGraphicsElement) {
      const bbox = el.getBBox();
      if (!bbox.height) continue;
      size = parseFloat(getComputedStyle(el).fontSize) * el.getBoundingClientRect().height / bbox.height;
    } else {
      size = parseFloat(getComputedStyle(el).fontSize) * scaleOf(el);
    }
    if (size < out.minText) out.minText = size;
    out.text.push([Math.round(size * 10) / 10, name(el)]);
  }
  const fit = document.querySelector('.board-fit');
  out.scale = fit ? parseFloat(fit.dataset.scale || '1') : 1;
  // the TV's status line is never cut short (it is clamped to two lines)
  const status = document.querySelector('.screen-status');
  out.statusCut = status ? status.scrollHeight > status.clientHeight + 1 : false;
  // the TV's board is never scrolled: its fitted content ends inside it
  out.boardOver = fit ? fit.getBoundingClientRect().bottom - fit.parentElement.getBoundingClientRect().bottom : 0;
  out.fitInfo = fit ? `scale ${fit.dataset.scale}, box ${fit.parentElement.clientWidth}x${fit.parentElement.clientHeight}, `
    + `content ${fit.offsetWidth}x${fit.offsetHeight} (style width ${fit.style.width}), drawn ${Math.round(fit.getBoundingClientRect().height)} px` : '';
  out.text.sort((a, b) => a[0] - b[0]);
  out.text = out.text.slice(0, 8);
  return out;
}"""


#: the TV's board has been fitted to its box (a live update that redraws it is
#: fitted again on the next frame): measured only then, or after 3 s anyway
SETTLED = """() => {
  const fit = document.querySelector('.board-fit');
  if (!fit || !fit.dataset.scale) return false;
  return fit.getBoundingClientRect().bottom <= fit.parentElement.getBoundingClientRect().bottom + 1;
}"""


def settle(page: Any) -> None:
    """Let the TV finish fitting its board (on a loaded machine the stream's
    first redraw can land between the fit and the measurement).  A board that
    never fits is still measured, and reported, after the wait."""
    with contextlib.suppress(sync_api.TimeoutError):
        page.wait_for_function(SETTLED, timeout=3000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def go(page: Any, url: str) -> None:
    """Open ``url`` in a reused page.  A live page may be moving itself just
    then (a TV follows the table being played): that navigation wins, and the
    page is asked again."""
    for attempt in range(4):
        try:
            page.goto(url)
            return
        except sync_api.Error as err:
            moved = "interrupted by another navigation" in str(err) or "ERR_ABORTED" in str(err)
            if not moved or attempt == 3:
                raise
            page.wait_for_load_state()


@dataclass
class Walk:
    """One browser, one page per kind of screen, reused for every visit."""

    base: str
    browser: Any
    pages: dict[str, Any] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    visited: list[str] = field(default_factory=list)
    smallest_tv_text: dict[str, tuple[float, float]] = field(default_factory=dict)

    def page(self, screen: str) -> Any:
        if screen not in self.pages:
            context = self.browser.new_context(**SCREENS[screen])
            context.set_default_timeout(8000)
            if screen in SECRETS_SHOWN:
                context.add_init_script("localStorage.setItem('tc.showSecrets', '1')")
            self.pages[screen] = context.new_page()
        return self.pages[screen]

    def visit(self, screen: str, path: str, label: str) -> Any:
        page = self.page(screen)
        go(page, self.base + path)
        if page.locator("#live[data-stream]").count():
            page.wait_for_selector("#conn.on")
        if screen in SECRETS_SHOWN and page.locator("#live[data-peek-ms]").count():
            page.wait_for_selector("#live.keep-shown:not(.secrets-veiled)", state="attached")
        if screen in TVS and page.locator(".board-fit").count():
            page.wait_for_function("document.querySelector('.board-fit').dataset.scale")
            settle(page)
        self.check(page, screen, label)
        return page

    def check(self, page: Any, screen: str, label: str) -> None:
        """The layout checks, and axe-core on the screens of ``AXE_ON``."""
        where = f"{label} @ {screen}"
        self.visited.append(where)
        kind = "tv" if screen in TVS else "phone"
        geo = page.evaluate(GEOMETRY, kind)
        width = SCREENS[screen]["viewport"]["width"]
        if geo["width"] > width + 1:
            self.problems.append(f"{where}: page is {geo['width']} px wide: {geo['overflow'][:4]}")
        for what in geo["cut"][:4]:
            self.problems.append(f"{where}: cut at a box's edge: {what}")
        for what in geo["targets"][:8]:
            self.problems.append(f"{where}: tap target under {MIN_TARGET} px: {what}")
        if screen in TVS:
            if geo["statusCut"]:
                self.problems.append(f"{where}: the status line is cut short")
            if geo["boardOver"] > 1:
                page.wait_for_timeout(1000)
                later = page.evaluate(GEOMETRY, kind)
                self.problems.append(f"{where}: the board runs {geo['boardOver']:.0f} px past the TV's bottom"
                                     f" ({geo['fitInfo']}; a second later: {later['boardOver']:.0f} px, {later['fitInfo']})")
            least = geo["minText"]
            self.smallest_tv_text[where] = (least, geo["scale"])
            if least < MIN_TV_TEXT[screen] - 0.05:
                small = [t for t in geo["text"] if t[0] < MIN_TV_TEXT[screen] - 0.05]
                self.problems.append(f"{where}: TV text under {MIN_TV_TEXT[screen]:.1f} px: {small}")
        if screen in AXE_ON:
            self.axe(page, where)
        slug = re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")
        page.screenshot(path=str(ARTIFACTS / f"walk-{slug}-{screen}.png"))

    def axe(self, page: Any, where: str) -> None:
        runner = axe_sync.Axe()
        page.evaluate(runner.axe_script)
        page.evaluate(AXE_CONFIGURE)
        found = page.evaluate("(o) => axe.run(document, o)", AXE_OPTIONS)
        for v in found["violations"]:
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            summary = v["nodes"][0].get("failureSummary", "").replace("\n", " ")[:160]
            self.problems.append(f"{where}: axe {v['id']} ({v['impact']}, {len(v['nodes'])}×): {targets} {summary}")


@pytest.fixture(scope="module")
def walk(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Walk, Flask]]:
    ARTIFACTS.mkdir(exist_ok=True)
    room = Room(Store(tmp_path_factory.mktemp("walk") / "walk.sqlite3"))
    app = make_app(room)
    server = LiveServer(app)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            yield Walk(server.url, browser), app
        finally:
            browser.close()
            server.stop()
            room.store.close()


def host_logged_in(w: Walk, screen: str) -> None:
    page = w.page(screen)
    go(page, w.base + "/host")
    if page.locator("input[name=pin]").count():
        page.fill("input[name=pin]", PIN)
        page.click("button:has-text('Log in')")
        page.wait_for_url(re.compile(r"/host$"))


def as_seat(w: Walk, party: Party, seat: int) -> None:
    """Give the phones this seat's cookie (one seat per table per phone)."""
    cookie = party.phones[seat].get_cookie(f"tc_seat_{party.table.id}")
    assert cookie is not None
    for screen in PHONES:
        w.page(screen).context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": w.base}])


def walk_table(w: Walk, party: Party, moment: str) -> None:
    table = party.table
    game = table.game.key
    tid = table.id
    dashboard_of(party.app).show(tid)  # the TV follows the table shown; this one
    for screen in TVS:
        w.visit(screen, f"/t/{tid}", f"{game} {moment} tv")
    turn = table.state.turn if isinstance(getattr(table.state, "turn", None), int) else 0
    for seat in dict.fromkeys([turn, 0 if turn else 1]):
        as_seat(w, party, seat)
        for screen in PHONES:
            who = "to move" if seat == turn else "waiting"
            w.visit(screen, f"/s/{tid}/{seat}", f"{game} {moment} seat {who}")
    for screen in PHONES:
        w.visit(screen, f"/host/t/{tid}", f"{game} {moment} host")
        w.visit(screen, f"/t/{tid}/watch", f"{game} {moment} onlooker")
    if moment == "mid":
        confirm_without_script(w, party, game)


def confirm_without_script(w: Walk, party: Party, game: str) -> None:
    """A money move sent by the form itself (no script: HTMLFormElement.submit
    skips live.js) gets the server's own confirmation page."""
    for seat in range(len(party.phones)):
        as_seat(w, party, seat)
        for screen in PHONES:
            page = w.page(screen)
            go(page, f"{w.base}/s/{party.table.id}/{seat}")
            form = page.locator("form.act.money:not(.disabled):not(.has-fields)")
            if not form.count():
                break
            with page.expect_navigation():
                form.first.evaluate("f => f.submit()")
            assert page.locator("main h1:has-text('Are you sure?')").count() == 1
            w.check(page, screen, f"{game} confirm page")
        else:
            return


def test_walk_every_page_of_every_game(walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    # before any table: the TV's lobby, the join page, the host's login
    for screen in TVS:
        w.visit(screen, "/", "lobby")
    for screen in PHONES:
        w.visit(screen, "/j", "join")
        w.visit(screen, "/host/login", "host login")
    for screen in PHONES:
        host_logged_in(w, screen)
    host = app.test_client()
    login(host)
    for game in [g for g in SEATS if g in GAMES]:
        for screen in PHONES:
            w.visit(screen, f"/host/new?game={game}", f"{game} new table")
        party = seat_up(app, host, game, SEATS[game])
        table = party.table
        walk_table(w, party, "start")
        if game == "money-maker":  # the 24-character name sits next to the others on the pick page
            for screen in PHONES:
                w.visit(screen, f"/j/{JOIN}", "pick a seat")
        play(party, MID_STEPS[game], random.Random(11))
        assert not table.is_over()
        walk_table(w, party, "mid")
        rule = w.page("tv-1080").locator("a.cite").first.get_attribute("href")
        for screen in PHONES:
            w.visit(screen, rule, f"{game} rule page")
        if game == "world-of-waste":
            for screen in PHONES:
                w.visit(screen, f"/host/t/{table.id}/station", "station scan")
        end(table)
        walk_table(w, party, "over")
    for screen in PHONES:
        host_logged_in(w, screen)
        w.visit(screen, "/host", "host home")
        w.visit(screen, "/t/t-000000", "message page")
    assert any("confirm page" in v for v in w.visited) and any("message page" in v for v in w.visited)
    report = "\n".join(w.problems)
    (ARTIFACTS / "walk-report.txt").write_text(
        f"{len(w.visited)} pages\n" + "\n".join(w.visited) + "\n\nsmallest TV text (px):\n"
        + "\n".join(f"{k}: {v:.1f} (board scaled by {s:.2f})" for k, (v, s) in w.smallest_tv_text.items()) + "\n\nproblems:\n" + report + "\n")
    assert not w.problems, f"{len(w.problems)} problems on {len(w.visited)} pages:\n{report}"


def end(table: Table) -> None:
    table.submit(Command(HOST, "end", {"reason": "late"}, table.state_no, "test"))
    assert table.is_over()


# the findings one by one ---------------------------------------------------------------------
def seat_page(w: Walk, app: Flask, table: Table, seat: int, screen: str = "phone-390") -> Any:
    client = phone(app, table.id, seat)
    cookie = client.get_cookie(f"tc_seat_{table.id}")
    assert cookie is not None
    page = w.page(screen)
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": w.base}])
    go(page, f"{w.base}/s/{table.id}/{seat}")
    page.wait_for_selector("#conn.on")
    return page


def focus_in(page: Any, selector: str) -> bool:
    return bool(page.evaluate(f"document.querySelector({selector!r}).contains(document.activeElement)"))


def sheet_holds_focus_until_escape(page: Any, tabs: int) -> None:
    """The "Are you sure?" sheet opens with the focus on "Yes", keeps it
    through ``tabs`` Tabs forward and back, and closes on Escape."""
    page.wait_for_selector("#sheet:not([hidden])")
    assert page.get_by_role("dialog", name="Are you sure?").count() == 1
    assert page.evaluate("document.activeElement.dataset.sheet") == "yes"
    for key in ["Tab"] * tabs + ["Shift+Tab"] * tabs:
        page.keyboard.press(key)
        assert focus_in(page, "#sheet"), f"focus left the sheet after {key}"
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet", state="hidden")


def test_a_number_field_is_named_by_its_label_and_a_tap_on_the_label_changes_nothing(
        walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    page = seat_page(w, app, table, 0)
    amount = page.get_by_role("spinbutton", name="How much", exact=True)
    assert amount.count() == 1 and amount.get_attribute("name") == "f.amount"
    amount.fill("3")
    page.click("form[data-key^='pay'] label:has-text('How much')")
    assert amount.input_value() == "3"  # the label used to pass the tap to "−"
    page.get_by_role("button", name="How much one more", exact=True).click()
    assert amount.input_value() == "4"
    page.get_by_role("button", name="How much one less", exact=True).click()
    assert amount.input_value() == "3"


def test_the_confirm_sheet_holds_focus_closes_on_escape_and_gives_focus_back(walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    page = seat_page(w, app, table, 0)
    before = table.state_no
    pay = page.locator("form[data-key^='pay'] button.big")
    pay.click()
    sheet_holds_focus_until_escape(page, 5)
    assert page.evaluate("document.activeElement.closest('form') && document.activeElement.closest('form').dataset.key.startsWith('pay')")
    assert table.state_no == before  # Escape is "Cancel"
    # and "Yes" still pays
    pay.click()
    page.click("#sheet [data-sheet=yes]")
    page.wait_for_function(f"document.querySelector('.live-root').dataset.state > {before}")
    assert table.state_no == before + 1


def test_the_rule_sheet_takes_focus_is_named_and_closes_on_escape(walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    page = seat_page(w, app, table, 1)  # not Bob's turn: each form says why, with its citation
    cite = page.locator("form a.cite").first
    cite.click()
    page.wait_for_selector("#rule-box:not([hidden]) .rule-passage")
    section = page.locator("#rule-box #rule-title").inner_text()
    assert section and page.get_by_role("dialog", name=section).count() == 1
    assert focus_in(page, "#rule-box")
    for _ in range(4):
        page.keyboard.press("Tab")
        assert focus_in(page, "#rule-box")
    page.keyboard.press("Escape")
    page.wait_for_selector("#rule-box", state="hidden")
    assert page.evaluate("document.activeElement.classList.contains('cite')")


@pytest.mark.parametrize("where", ["tv-720", "tv-1080", "host"])
def test_on_the_tv_and_the_host_page_the_rule_sheet_holds_focus_and_closes_on_escape(
        walk: tuple[Walk, Flask], where: str) -> None:
    """The rule sheet's keyboard, as on the phones: the TV (a keyboard or a
    remote may be plugged in) and the host's page on a phone."""
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    table.submit(Command(Actor.of_seat(0), "pass", {}, table.state_no, "test"))
    if where == "host":
        host_logged_in(w, "phone-390")
        page = w.page("phone-390")
        go(page, f"{w.base}/host/t/{table.id}")
    else:
        dashboard_of(app).show(table.id)
        page = w.page(where)
        go(page, f"{w.base}/t/{table.id}")
    page.wait_for_selector("#conn.on")
    cite = page.locator(".log-list a.cite").first
    cite.focus()
    page.keyboard.press("Enter")  # opened from the keyboard: focus goes back to this chip
    page.wait_for_selector("#rule-box:not([hidden]) .rule-passage")
    section = page.locator("#rule-box #rule-title").inner_text()
    assert section and page.get_by_role("dialog", name=section).count() == 1
    assert focus_in(page, "#rule-box")
    for key in ["Tab"] * 4 + ["Shift+Tab"] * 4:
        page.keyboard.press(key)
        assert focus_in(page, "#rule-box"), f"focus left the rule sheet after {key}"
    assert page.evaluate("document.querySelector('#live').inert"), "the page behind the sheet is not inert"
    page.keyboard.press("Escape")
    page.wait_for_selector("#rule-box", state="hidden")
    assert page.evaluate("document.activeElement.classList.contains('cite')")
    assert not page.evaluate("document.querySelector('#live').inert")


def test_on_the_host_page_the_confirm_sheet_holds_focus_and_closes_on_escape(walk: tuple[Walk, Flask]) -> None:
    """The confirm sheet's keyboard on the host's page on a phone (its undo
    asks first), as on the seat's page."""
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    table.submit(Command(Actor.of_seat(0), "pass", {}, table.state_no, "test"))
    before = table.state_no
    host_logged_in(w, "phone-390")
    page = w.page("phone-390")
    go(page, f"{w.base}/host/t/{table.id}")
    page.wait_for_selector("#conn.on")
    undo = page.locator("form[action$='/undo'] button.big")
    undo.focus()
    page.keyboard.press("Enter")
    sheet_holds_focus_until_escape(page, 3)
    assert page.evaluate("!!document.activeElement.closest(\"form[action$='/undo']\")")
    assert table.state_no == before  # Escape is "Cancel"


#: what a neighbour reads on the page: its drawn text, and the drawn values of its fields
DRAWN = r"""(n) => {
  const token = new RegExp('(^|[^\\w.,-])' + n + '(?![\\w.,])');
  const text = token.test(document.body.innerText);
  const fields = [...document.querySelectorAll('input')].filter((i) => token.test(i.value) && i.getClientRects().length
    && !getComputedStyle(i).color.match(/rgba\\(.*, 0\\)$/)).map((i) => i.name);
  return {text, fields};
}"""


def test_a_seat_s_numbers_show_only_when_it_peeks(walk: tuple[Walk, Flask]) -> None:
    """Money Maker, a seat whose payment form says "Gold (you hold 87)": the
    87 is drawn nowhere on its phone (labels, ranges, field values, the
    private card, the look back) until it peeks; a tap on "peek", a tap into
    a form's field (that form's numbers only), or "always show" draws it."""
    w, app = walk
    host = app.test_client()
    login(host)
    party = seat_up(app, host, "money-maker", ["Ann", "Bob", "Cyd"])
    table = party.table
    seat = reach(party, gold_label, random.Random(5))
    secret = fresh_number(party)
    table.submit(Command(HOST, "correct", {"value": "gold", "seat": seat, "to": secret, "reason": "test"},
                         table.state_no, "test"))
    as_seat(w, party, seat)
    page = w.page("phone-360")  # a phone that keeps the veil (SECRETS_SHOWN)
    go(page, f"{w.base}/s/{table.id}/{seat}")
    page.wait_for_selector("#conn.on")

    def drawn() -> dict[str, Any]:
        found: dict[str, Any] = page.evaluate(DRAWN, secret)
        return found

    assert drawn() == {"text": False, "fields": []}, "the purse shows under the veil"
    assert "Gold (you hold ••)" in page.inner_text("#live")
    page.click("#peek")
    assert drawn()["text"] and f"Gold (you hold {secret})" in page.inner_text("#live")
    page.click("#peek")  # hide again
    assert drawn() == {"text": False, "fields": []}
    # filling in a form is using it: its own numbers show while it is used, the private card stays veiled
    field = page.locator("form.act .fields input.secret-value").first
    field.scroll_into_view_if_needed()
    field.focus()
    assert drawn()["text"] and not page.locator("#secret-body").is_visible()
    assert field.evaluate("(i) => i.closest('form').classList.contains('in-use')")
    page.click("#peek")
    page.click("#peek")  # shown, then hidden: every form veiled again
    assert drawn() == {"text": False, "fields": []}
    # "always show": no peeking needed, also after a reload; then veiled again
    page.click("#phone-settings summary")
    page.check("#opt-show-secrets")
    assert drawn()["text"]
    go(page, f"{w.base}/s/{table.id}/{seat}")
    page.wait_for_selector("#conn.on")
    assert drawn()["text"] and not page.locator("#peek").is_visible()
    # the look back at the correction: its private line and the private cards
    go(page, f"{w.base}/s/{table.id}/{seat}/step/{table.state_no}")
    assert drawn()["text"]
    page.evaluate("localStorage.clear()")  # "always show" off again
    page.reload()
    assert drawn() == {"text": False, "fields": []}, "the look back shows the purse under the veil"
    page.click("#peek")
    assert drawn()["text"]
    shot(page, "phone-lookback-peeked")
    go(page, f"{w.base}/s/{table.id}/{seat}")
    page.wait_for_selector("#conn.on")
    assert drawn() == {"text": False, "fields": []}


def test_the_connection_dot_says_what_it_shows(walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    page = seat_page(w, app, table, 0)
    assert page.get_by_role("status").filter(has_text="live connection: on").count() == 1


def test_a_toast_leaves_the_status_line_readable(walk: tuple[Walk, Flask]) -> None:
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    for screen in PHONES:
        page = seat_page(w, app, table, table.state.turn, screen)
        page.click("form[data-key^='pass'] button.big")
        toast = page.wait_for_selector("#toasts .toast")
        # the toast is fixed to the bottom of the window: its box now is its box
        # while it shows (read at once: it leaves after 2.6 s, which a loaded
        # machine can spend before the status line is drawn again)
        box = toast.bounding_box()
        # the live update redraws the status line after the move: wait until it is drawn again
        status_line = page.locator(".phone-status")
        status_line.wait_for(state="visible")
        status = status_line.bounding_box()
        assert status is not None and box is not None
        apart = box["y"] >= status["y"] + status["height"] or box["y"] + box["height"] <= status["y"]
        assert apart, (screen, box, status)


LUMINANCE = """(el) => {
  const [r, g, b] = getComputedStyle(el).backgroundColor.match(/[\\d.]+/g).map(Number).map((c) => c / 255)
    .map((c) => c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}"""


@pytest.mark.skipif("muell-money" not in GAMES, reason="Müll + Money has not landed")
def test_off_turn_a_loan_is_not_the_loudest_thing_on_the_phone(walk: tuple[Walk, Flask]) -> None:
    from .test_browser import _deal_muell

    w, app = walk
    table = dashboard_of(app).open_table("muell-money", ["Ann", "Bob"], {})
    _deal_muell(table)
    waiting = 1 - table.state.turn
    page = seat_page(w, app, table, waiting)
    loan = page.locator("form[data-key^='loan'] button.big")
    assert loan.count() == 1 and loan.is_enabled()
    status = page.locator(".phone-status")
    assert loan.evaluate(LUMINANCE) < status.evaluate(LUMINANCE) + 0.05
    size = "(el) => parseFloat(getComputedStyle(el).fontSize)"
    assert loan.evaluate(size) <= status.evaluate(size)
    shot(page, "phone-off-turn-loan")
    # on one's own turn the money move is as loud as before
    page = seat_page(w, app, table, table.state.turn)
    assert page.locator("form[data-key^='loan'] button.big").evaluate(LUMINANCE) > 0.3


def test_a_long_citation_chip_stays_inside_the_tv_log(walk: tuple[Walk, Flask]) -> None:
    """The longest section title of the seeds, as a chip in the TV's log."""
    w, app = walk
    table = dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})
    table.submit(Command(Actor.of_seat(0), "pass", {}, table.state_no, "test"))
    dashboard_of(app).show(table.id)
    for screen in TVS:
        page = w.page(screen)
        go(page, f"{w.base}/t/{table.id}")
        page.wait_for_selector(".screen-log a.cite")
        page.evaluate("""() => { const c = document.querySelector('.screen-log a.cite');
            c.textContent = '004 · Description of Cards and their effects: Adviser, Bribery and Order'; }""")
        inside = page.evaluate("""() => { const c = document.querySelector('.screen-log a.cite').getBoundingClientRect();
            const log = document.querySelector('.screen-log').getBoundingClientRect();
            return c.right <= log.right && c.left >= log.left; }""")
        assert inside, screen


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


# the pages that came late: look back, the rules page, the sandbox, a game record ------------
def test_walk_the_look_back_rules_sandbox_and_record_pages(walk: tuple[Walk, Flask]) -> None:
    """The same checks on the pages that landed after the walk: a step ``#N``
    as a seat (phone), as the TV and as the host (a phone); the rules page
    with a search typed in; the host's sandbox and the sandbox on the TV; a
    game record opened on the host page and looked back at as a seat.

    Sampled to keep the walk short: every game (their drawings and rule texts
    differ), each page on one phone width and one TV size per game, the
    widths taking turns from game to game (so each page is seen at 360 and
    390 px, at 720p and 1080p; axe-core where the screen is one of
    ``AXE_ON``, so on each page at least once); one game record (its page
    is the same for every game and the longest).  About 30 s on a loaded
    2-core machine; every game at both widths would take three times as
    long."""
    w, app = walk
    before, visited = len(w.problems), len(w.visited)
    host = app.test_client()
    login(host)
    for n, game in enumerate(g for g in SEATS if g in GAMES):
        phone_, other, tv = PHONES[n % 2], PHONES[(n + 1) % 2], TVS[n % 2]
        party = seat_up(app, host, game, SEATS[game])
        table, tid = party.table, party.table.id
        play(party, MID_STEPS[game], random.Random(11))
        step = table.state_no // 2
        dashboard_of(app).show(tid)
        w.visit(tv, f"/t/{tid}/step/{step}", f"{game} look back tv")
        as_seat(w, party, 0)
        w.visit(phone_, f"/s/{tid}/0/step/{step}", f"{game} look back seat")
        host_logged_in(w, other)
        w.visit(other, f"/host/t/{tid}/step/{step}", f"{game} look back host")
        rules_searched(w, phone_, f"/rules/{game}?t={tid}", SEARCH[game], f"{game} rules search")
        go(w.page(tv), f"{w.base}/t/{tid}")  # the TV's own "Rules" link: the page drawn for the TV
        tv_rules = w.page(tv).locator("a.rules-link").get_attribute("href")
        rules_searched(w, tv, str(tv_rules), SEARCH[game], f"{game} rules search on the tv")
        sandbox = open_sandbox(host, tid)
        w.visit(other, sandbox, f"{game} sandbox host")
        shown = host.post(f"{sandbox}/show", data={"csrf": csrf(host), "on": "1"})
        assert shown.status_code in (200, 303), shown.text[:300]
        page = w.visit(tv, sandbox.replace("/host", "", 1), f"{game} sandbox tv")
        # its connection dot says what it shows, as the table screen's does (it was a title only)
        assert page.get_by_role("status").filter(has_text="live connection: on").count() == 1
        host.post(f"{sandbox}/show", data={"csrf": csrf(host), "on": "0"})
        if game == "money-maker":  # one record: its page is the same for every game, and long
            record = import_record(host, export_running(host, tid))
            for screen in PHONES:
                w.visit(screen, record, "record")
                w.visit(screen, f"/host/t/{record.rsplit('/', 1)[1]}/step/{step}?as=seat:0", "record look back as a seat")
    problems = w.problems[before:]
    report = "\n".join(problems)
    pages = w.visited[visited:]
    tv_text = {k: v for k, v in w.smallest_tv_text.items() if k in pages}
    (ARTIFACTS / "walk-late-report.txt").write_text(
        f"{len(pages)} pages\n" + "\n".join(pages) + "\n\nsmallest TV text (px):\n"
        + "\n".join(f"{k}: {v:.1f}" for k, (v, _) in tv_text.items()) + "\n\nproblems:\n" + report + "\n")
    assert not problems, f"{len(problems)} problems:\n{report}"


# Müll + Money's simulation variant: a vote in progress, the sets auctioned ------------------
#: the variant's two moments of its own, set by a position block (docs/games/muell-money.md):
#: a weighted vote with one ballot cast (rule 1 already adopted), and the sets laid out under
#: adopted rule 3, one of them named and bid on; then the moves that reach the moment
VARIANT_CASH = {LONG_NAME: 25, "Bob": 12, "Cyd": 5, "Dee": 15}
VARIANT_MOMENTS: list[tuple[str, dict[str, Any], list[tuple[int, str, dict[str, Any]]]]] = [
    ("vote", {
        "seats": {LONG_NAME: {"cash": 25, "cards": ["Order", "Bribery"]},
                  "Bob": {"cash": 12, "cards": ["Waste Inspection", "Order", "Growth"]},
                  "Cyd": {"cash": 5, "cards": ["Innovate", "Order", "Growth"]},
                  "Dee": {"cash": 15, "cards": ["Hire/Fire", "Order", "Adviser"]}},
        "common_waste": 31,
        "adopted": [{"rule": 1, "vote": 1, "round": 1}],
        "vote": {"proposer": LONG_NAME, "proposal": 3, "ballots": {LONG_NAME: {"choice": "for", "bribery": True}}},
    }, []),
    ("set auction", {
        "round": 2, "phase": "choose",
        "seats": {name: {"cash": cash} for name, cash in VARIANT_CASH.items()},
        "sets": [["Order", "Growth", "Innovate"], ["Raw Materials", "Hire/Fire", "Adviser"],
                 ["Waste Disposal", "Growth", "Order"], ["Innovate", "Order", "Growth"],
                 ["Waste Inspection", "Bribery", "Order"]],
        "adopted": [{"rule": 3, "vote": 1, "round": 1}],
    }, [(0, "choose", {"set": 5}), (1, "bid", {"amount": 3})]),
]


def test_walk_a_variant_table_at_a_vote_and_during_the_set_auction(walk: tuple[Walk, Flask]) -> None:
    """The same checks on a Müll + Money table playing 003's simulation
    variant, at the two moments only it has: a weighted secret vote in
    progress and the sets auctioned (adopted rule 3).  Sampled: the TV at
    1080p and 720p, the seat that acts and one that waits on a 390 px phone
    (the one that acts at 360 px too), the host on a 390 px phone; axe-core
    at 1080p and 390 px.  About 15 s on a loaded 2-core machine."""
    w, app = walk
    before, visited = len(w.problems), len(w.visited)
    host = app.test_client()
    login(host)
    room = dashboard_of(app).room
    names = SEATS["muell-money"]
    for moment, position, moves in VARIANT_MOMENTS:
        table = room.open_table("muell-money", names, {"variant": "simulation"}, position=position)
        tid = table.id
        party = Party(app, host, table, [phone(app, tid, s) for s in range(len(names))])
        for seat, name, args in moves:
            table.submit(Command(Actor.of_seat(seat), name, args, table.state_no, "test"))
        dashboard_of(app).show(tid)
        for screen in TVS:
            w.visit(screen, f"/t/{tid}", f"variant {moment} tv")
        acting = sorted(table.game.awaiting(table.state))[0]
        waiting = next(s for s in range(len(names)) if s != acting)
        for seat, screens in ((acting, PHONES), (waiting, ("phone-390",))):
            as_seat(w, party, seat)
            for screen in screens:
                w.visit(screen, f"/s/{tid}/{seat}", f"variant {moment} seat {'to act' if seat == acting else 'waiting'}")
        host_logged_in(w, "phone-390")
        w.visit("phone-390", f"/host/t/{tid}", f"variant {moment} host")
    problems = w.problems[before:]
    report = "\n".join(problems)
    pages = w.visited[visited:]
    (ARTIFACTS / "walk-variant-report.txt").write_text(
        f"{len(pages)} pages\n" + "\n".join(pages) + "\n\nproblems:\n" + report + "\n")
    assert not problems, f"{len(problems)} problems:\n{report}"


#: a search typed on the rules page, one that finds passages in every text of the game
SEARCH = {"muell-money": "bribery", "money-maker": "bank run", "world-of-waste": "recycler"}


def rules_searched(w: Walk, screen: str, path: str, query: str, label: str) -> None:
    page = w.page(screen)
    go(page, w.base + path)
    page.locator("#rules-q").press_sequentially(query, delay=20)
    page.wait_for_selector(".rules-count")
    page.wait_for_function("(q) => new URL(location.href).searchParams.get('q') === q", arg=query)
    w.check(page, screen, label)


def open_sandbox(host: Any, table_id: str) -> str:
    resp = host.post(f"/host/t/{table_id}/sandbox", data={"csrf": csrf(host), "confirmed": "1"})
    assert resp.status_code == 303, resp.text[:300]
    return str(resp.headers["Location"])


def import_record(host: Any, record: dict[str, Any]) -> str:
    data = {"csrf": csrf(host), "record": (io.BytesIO(json.dumps(record).encode()), "game.json")}
    resp = host.post("/host/import", data=data, content_type="multipart/form-data")
    assert resp.status_code == 303, resp.text[:300]
    return str(resp.headers["Location"])
