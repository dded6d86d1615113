"""A seat's phone in real headless Chromium (issue 11, done items 3-5): the
secrets stay veiled until the player peeks, the phone says when its move
has come (title, status, vibration, a sound if chosen), keeps the screen on
where the browser allows it, and leaves a seat the host freed at once."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask

from companion.commands import CHANCE, Actor, Command
from companion.table import Table
from web import dashboard_of

from .test_browser import PHONE, LiveServer, browser, join, live, shot  # noqa: F401

pytestmark = pytest.mark.browser

#: what the page's own calls reach instead of the phone's motor, speaker and screen
FAKE_DEVICE = """
window.__vibrations = [];
navigator.vibrate = function (pattern) { window.__vibrations.push(pattern); return true; };
window.__tones = 0;
const start = OscillatorNode.prototype.start;
OscillatorNode.prototype.start = function () { window.__tones += 1; return start.apply(this, arguments); };
window.__locks = []; window.__released = 0;
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: function (kind) {
  const lock = new EventTarget();
  lock.release = function () { window.__released += 1; return Promise.resolve(); };
  window.__locks.push(kind);
  return Promise.resolve(lock);
} } });
"""
NO_WAKE_LOCK = 'Object.defineProperty(navigator, "wakeLock", { configurable: true, value: undefined });'
SHOWN_TEXT = "document.body.innerText"


def _table(app: Flask) -> Table:
    return dashboard_of(app).open_table("secretive", ["Ann", "Bob"], {})


def _pass(table: Table) -> None:
    table.submit(Command(Actor.of_seat(table.state.turn), "pass", {}, None, "test"))


def _until_turn_of(table: Table, seat: int) -> None:
    """Pass (and roll when the die is due) until ``seat`` is to move."""
    for _ in range(10):
        if table.state.awaiting_roll:
            table.submit(Command(CHANCE, "roll", {"face": 2}, None, "test"))
        elif table.state.turn != seat:
            _pass(table)
        else:
            return
    raise AssertionError("the toy game never came round")


def _phone(browser: Any, base: str, name: str, script: str = "") -> Any:  # noqa: F811
    if not script:
        return join(browser, base, name)
    context = browser.new_context(**PHONE)
    context.add_init_script(script)
    context.set_default_timeout(8000)
    return join(_OneContext(context), base, name)


class _OneContext:
    """``join`` makes its own context; this hands it the prepared one."""

    def __init__(self, context: Any) -> None:
        self._context = context

    def new_context(self, **_: Any) -> Any:
        return self._context


def test_secrets_are_veiled_until_the_player_peeks(browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    """Cash was always shown large at the top of the phone: readable by a
    neighbour when the phone lies on the table."""
    server, app = live
    table = _table(app)
    ann = join(browser, server.url, "Ann")
    word, purse = table.state.words[0], f"PURSE-0:{table.state.purses[0]}"
    assert word in ann.content()  # on the page, but not shown
    assert word not in ann.evaluate(SHOWN_TEXT) and purse not in ann.evaluate(SHOWN_TEXT)
    assert ann.get_attribute("#peek", "aria-expanded") == "false"
    shot(ann, "phone-secrets-veiled")
    # a tap shows them for a while, then they hide again by themselves
    ann.evaluate("document.querySelector('#live').dataset.peekMs = '600'")
    ann.click("#peek")
    assert word in ann.evaluate(SHOWN_TEXT) and ann.get_attribute("#peek", "aria-expanded") == "true"
    shot(ann, "phone-secrets-peek")
    ann.wait_for_function(f"!document.body.innerText.includes({word!r})", timeout=3000)
    # a tap while shown hides them at once
    ann.evaluate("document.querySelector('#live').dataset.peekMs = '60000'")
    ann.click("#peek")
    assert word in ann.evaluate(SHOWN_TEXT)
    ann.click("#peek")
    assert word not in ann.evaluate(SHOWN_TEXT)
    # holding shows them only while held
    box = ann.locator("#peek").bounding_box()
    assert box is not None and box["height"] >= 44
    ann.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    ann.mouse.down()
    assert word in ann.evaluate(SHOWN_TEXT)
    ann.wait_for_timeout(500)
    ann.mouse.up()
    assert word not in ann.evaluate(SHOWN_TEXT)
    ann.click("#phone-settings summary")  # a click elsewhere afterwards changes nothing
    assert word not in ann.evaluate(SHOWN_TEXT)
    # the keyboard: Enter on the button
    ann.focus("#peek")
    ann.keyboard.press("Enter")
    assert word in ann.evaluate(SHOWN_TEXT)
    ann.keyboard.press("Enter")
    assert word not in ann.evaluate(SHOWN_TEXT)
    # a live update keeps them veiled, private log lines too
    _pass(table)
    new_word = table.state.words[0]
    ann.wait_for_function(f"document.querySelector('.live-root').dataset.state >= {table.state_no}")
    assert new_word in ann.content() and new_word not in ann.evaluate(SHOWN_TEXT)
    # the option to keep them shown: survives live updates and a reload
    ann.check("#opt-show-secrets")
    assert new_word in ann.evaluate(SHOWN_TEXT) and not ann.is_visible("#peek")
    _pass(table)
    ann.wait_for_function(f"document.querySelector('.live-root').dataset.state >= {table.state_no}")
    assert table.state.words[0] in ann.evaluate(SHOWN_TEXT)
    ann.reload()
    ann.wait_for_selector("#conn.on")
    assert table.state.words[0] in ann.evaluate(SHOWN_TEXT)
    ann.click("#phone-settings summary")
    assert ann.is_checked("#opt-show-secrets")
    ann.uncheck("#opt-show-secrets")
    assert table.state.words[0] not in ann.evaluate(SHOWN_TEXT)


def test_the_phone_says_when_its_move_comes(browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    """Nothing told a player their turn had come: no title change, no
    vibration, no sound."""
    server, app = live
    table = _table(app)
    ann = join(browser, server.url, "Ann")
    assert ann.title().startswith("▶ Your move · Ann")
    bob = _phone(browser, server.url, "Bob", FAKE_DEVICE)
    assert not bob.title().startswith("▶") and bob.title().startswith("Bob · ")
    bob.wait_for_function("window.__locks.length === 1")
    assert bob.evaluate("window.__locks") == ["screen"]
    assert "stays on" in bob.text_content("#awake-note")
    bob.click("#phone-settings summary")
    bob.check("#opt-sound")  # a tap: it unlocks sound, and plays it once so the player knows it
    assert bob.evaluate("window.__tones") == 2
    _pass(table)  # Ann passes: Bob's move
    bob.wait_for_function("document.title.startsWith('▶ Your move')")
    assert bob.evaluate("window.__vibrations") == [[200, 100, 200]]
    assert bob.evaluate("window.__tones") == 4
    assert bob.locator(".phone-status.your-turn.turn-came").count() == 1
    assert bob.text_content("#turn-note").startswith("Your move")
    shot(bob, "phone-your-move")
    assert ann.title().startswith("Ann · ")
    _pass(table)  # Bob passes: no signal for the end of his move
    bob.wait_for_function("!document.title.startsWith('▶')")
    assert bob.evaluate("window.__vibrations") == [[200, 100, 200]]
    # without vibration and sound, the title and the status still say it
    bob.uncheck("#opt-vibrate")
    bob.uncheck("#opt-sound")
    _until_turn_of(table, 1)
    bob.wait_for_function("document.title.startsWith('▶ Your move')")
    assert bob.evaluate("window.__vibrations") == [[200, 100, 200]] and bob.evaluate("window.__tones") == 4
    # keeping the screen on is an option too
    bob.uncheck("#opt-awake")
    bob.wait_for_function("window.__released === 1")
    assert "turns off" in bob.text_content("#awake-note")


def test_where_the_page_may_not_keep_the_screen_on_it_says_what_to_do(
        browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    """On a plain http:// address (the Pi on the table's Wi-Fi) browsers give
    no Wake Lock: the page says so and points at the guide."""
    server, app = live
    _table(app)
    ann = _phone(browser, server.url, "Ann", NO_WAKE_LOCK)
    ann.click("#phone-settings summary")
    assert "Keep phones awake" in ann.text_content("#awake-note")
    # 127.0.0.1 is a secure address: Chromium's own Wake Lock is asked (granted or refused, never missing)
    bob = join(browser, server.url, "Bob")
    bob.wait_for_function("document.querySelector('#awake-note').textContent.length > 0")
    assert "Keep phones awake" not in bob.text_content("#awake-note")


def test_a_freed_seat_leaves_the_phone_at_once(browser: Any, live: tuple[LiveServer, Flask]) -> None:  # noqa: F811
    server, app = live
    table = _table(app)
    ann = join(browser, server.url, "Ann")
    ann.click("#peek")
    assert "SECRET-0" in ann.evaluate(SHOWN_TEXT)
    dashboard_of(app).free_seat(table, 0)
    ann.wait_for_url("**/j?freed=1", timeout=3000)
    assert ann.is_visible("#seat-freed")
    assert "SECRET-0" not in ann.content()
