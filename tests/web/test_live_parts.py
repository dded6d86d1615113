"""Live pages in parts (web/parts.py): a page drawn part by part from its
last drawing is the page drawn whole, at every state of random games of
every game, for every viewer (so no part's key leaves out something it
reads); what a page is sent puts the same page together; edits of a text
give the text."""

from __future__ import annotations

import json
import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, settings
from hypothesis import strategies as st

from web.host import draw_host, host_context, host_static
from web.parts import FollowedPage, LiveDrawing, PartError, apply_edits, edits, take_apart
from web.screen import draw_screen, screen_context, screen_static
from web.seat import draw_seat, seat_context, seat_static

from .play import play, seat_up

GAMES = [("muell-money", ["Ann", "Bob", "Cy"]), ("money-maker", ["Ann", "Bob", "Cy", "Dee"]),
         ("world-of-waste", ["Ann", "Bob", "Cy"]), ("secretive", ["Ann", "Bob"])]


def follow(page: FollowedPage, drawing: LiveDrawing, before: LiveDrawing | None) -> str:
    message = drawing.message(before)
    if "html" in message:
        return page.follow("view", message["html"], drawing.state_no)
    return page.follow("parts", drawing.message_text(before))


@pytest.mark.parametrize(("game", "names"), GAMES)
def test_a_page_drawn_from_its_last_drawing_is_the_page_drawn_whole(
        app: Flask, host: FlaskClient, game: str, names: list[str]) -> None:
    party = seat_up(app, host, game, names)
    table = party.table
    rng = random.Random(len(game))
    viewers = ["screen", "host", *range(len(names))]
    last: dict[object, LiveDrawing | None] = dict.fromkeys(viewers)
    followed = {v: FollowedPage() for v in viewers}
    for _ in range(30):
        play(party, 3, rng)
        if rng.random() < 0.15 and table.state_no:
            table.undo(1)
        for viewer in viewers:
            if viewer == "screen":
                with app.test_request_context(f"/t/{table.id}"):
                    static = screen_static(table)
                    whole = draw_screen(table, screen_context(table, static))
                    step = draw_screen(table, screen_context(table, static), last[viewer])
            elif viewer == "host":
                with app.test_request_context(f"/host/t/{table.id}"):
                    static = host_static(table)
                    whole = draw_host(host_context(table, static))
                    step = draw_host(host_context(table, static), last[viewer])
            else:
                seat = int(viewer)  # type: ignore[call-overload]
                with app.test_request_context(f"/s/{table.id}/{seat}"):
                    static = seat_static(table, seat, "token")
                    whole = draw_seat(seat_context(table, seat, "token", static))
                    step = draw_seat(seat_context(table, seat, "token", static), last[viewer])
            assert step.html == whole.html, (game, viewer, table.state_no)
            assert step.pieces == whole.pieces  # nothing outside the parts changes
            # what the page is sent puts the same fragment together
            shown = follow(followed[viewer], step, last[viewer])
            assert shown == whole.html.replace(whole.root, step.root).replace(
                __import__("web.parts", fromlist=["STATE_MARK"]).STATE_MARK, str(whole.state_no))
            last[viewer] = step


def test_a_live_fragment_is_a_root_and_parts_side_by_side() -> None:
    drawing = take_apart('<div class="live-root" data-state="1"><p><!--p:a-->A<!--/p:a--></p>'
                         '<!--p:b-->B<!--/p:b--></div>', 1)
    assert drawing.root == '<div class="live-root" data-state="1">'
    assert drawing.parts == {"a": "A", "b": "B"}
    assert drawing.pieces == ("<p><!--p:a-->", "<!--/p:a--></p><!--p:b-->", "<!--/p:b--></div>")
    assert drawing.html.endswith("</div>")
    with pytest.raises(PartError):
        take_apart("<section>no root</section>", 1)
    with pytest.raises(PartError):
        take_apart('<div class="live-root"><!--p:a-->1<!--/p:a--><!--p:a-->2<!--/p:a--></div>', 1)


def test_a_part_inside_a_part_is_refused(app: Flask) -> None:
    with pytest.raises(Exception, match="part"):
        app.jinja_env.from_string('{% part "a" %}{% part "b" %}x{% endpart %}{% endpart %}').render()


texts = st.text(alphabet=st.sampled_from("ab<>/li\u00e9\U0001f600"), max_size=600)


@settings(max_examples=300, deadline=None)
@given(old=texts, cuts=st.lists(st.tuples(st.integers(0, 600), st.integers(0, 40), texts), max_size=4))
def test_edits_of_a_text_give_the_text(old: str, cuts: list[tuple[int, int, str]]) -> None:
    new = old
    for at, length, text in cuts:
        at = min(at, len(new))
        new = new[:at] + text[:60] + new[at + length:]
    change = edits(old, new)
    if isinstance(change, str):
        assert change == new
        return
    # a page's script counts UTF-16 code units: apply them as it does
    units = old.encode("utf-16-le")
    out, at16 = b"", 0
    for start, end, text in change:
        out += units[at16 * 2:start * 2] + text.encode("utf-16-le")
        at16 = end
    assert (out + units[at16 * 2:]).decode("utf-16-le") == new
    if old.isascii():
        assert apply_edits(old, change) == new


def test_a_log_that_moved_on_is_sent_as_its_new_entries() -> None:
    from web.parts import ListedText

    def log(seqs: list[int]) -> ListedText:
        return ListedText.of("<ol>\n", [(f"k{s}", f"<li>entry {s} " + "x" * 200 + "</li>\n") for s in seqs], "</ol>")

    old, new = log([12, 11, 10, 9]), log([14, 13, 12, 11, 10, 9])
    change = edits(old, new)
    assert not isinstance(change, str) and len(change) == 1 and change[0][0] == 5 and "entry 14" in change[0][2]
    assert type(change[0][2]) is str
    assert apply_edits(old, change) == new
    full = log([14, 13, 12, 11])  # a full log: the oldest goes
    change = edits(old, full)
    assert not isinstance(change, str) and [c[2] == "" for c in change] == [False, True]
    assert apply_edits(old, change) == full
    assert json.loads(json.dumps(change)) == change


entry_texts = st.sampled_from(["<li>a</li>\n", "<li>\u00e9t\u00e9</li>\n", "<li>\U0001f3b2 six</li>\n", "<li>b</li>\n"])


@settings(max_examples=300, deadline=None)
@given(old=st.lists(st.tuples(st.integers(0, 30), entry_texts), max_size=8),
       new=st.lists(st.tuples(st.integers(0, 30), entry_texts), max_size=8))
def test_a_log_built_on_its_last_drawing_is_the_log_joined_whole(
        old: list[tuple[int, str]], new: list[tuple[int, str]]) -> None:
    from web.parts import ListedText

    def items(entries: list[tuple[int, str]]) -> list[tuple[str, str]]:
        # a key names its text, as an entry's key does (its content)
        return [(f"{n}:{text}", text) for n, text in entries]

    before = ListedText.of("<ol>\n", items(old), "</ol>")
    whole = ListedText.of("<ol>\n", items(new), "</ol>")
    built = ListedText.of("<ol>\n", items(new), "</ol>", before)
    assert str(built) == str(whole)
    assert (built.head, built.items) == (whole.head, whole.items)
    # the items after those that came need no text (a live log leaves them undrawn)
    fresh = items(new)
    came = ListedText.came_before(tuple(k for k, _t in fresh), "<ol>\n", "</ol>", before)
    undrawn = [(k, t if came is None or i < came else "") for i, (k, t) in enumerate(fresh)]
    assert str(ListedText.of("<ol>\n", undrawn, "</ol>", before)) == str(whole)
    assert whole.astral == ("\U0001f3b2" in whole)
    assert built.astral >= whole.astral  # it may only say "look" where there is nothing
