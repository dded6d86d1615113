"""The pieces drawn in Python (web/pieces.py): each kind of field, escaping,
veiling, and the memory that draws a changed form's unchanged fields once."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, g

from companion.games.base import ActionHint, Choice, Field
from web.parts import STATE_MARK
from web.pieces import action, cite, field_input, log_entry


def hint(*fields: Field, label: str = "Pay", money: bool = False, enabled: bool = True,
         reason: str = "") -> dict[str, Any]:
    return ActionHint("pay", label, {"seat": 1}, fields, enabled=enabled, reason=reason,
                      moves_money=money).to_json()


def test_a_number_field_has_its_steppers_range_and_default(app: Flask) -> None:
    with app.test_request_context("/"):
        html = field_input(Field("gold", "Gold", "number", minimum=0, maximum=12, default=3).to_json(), False, "f1-1")
    assert '<input id="f1-1" type="number" inputmode="numeric" name="f.gold" min="0" max="12" value="3" required' in html
    assert 'aria-describedby="f1-1-range"' in html
    assert '<small class="muted" id="f1-1-range">0 to 12</small>' in html
    assert html.count('class="step"') == 2


def test_a_number_with_one_bound_says_which_and_one_without_bounds_says_nothing(app: Flask) -> None:
    with app.test_request_context("/"):
        low = field_input(Field("n", "N", "number", minimum=2).to_json(), False, "a")
        high = field_input(Field("n", "N", "number", maximum=9).to_json(), False, "b")
        free = field_input(Field("n", "N", "number").to_json(), False, "c")
    assert "at least 2" in low and 'value="2"' in low
    assert "up to 9" in high and 'value="0"' in high
    assert "<small" not in free and "aria-describedby" not in free


def test_choices_are_pills_and_many_choices_a_list(app: Flask) -> None:
    few = Field("seat", "Whose", "choice", tuple(Choice(i, f"S{i}") for i in range(3)), default=1)
    many = Field("card", "Card", "choice", tuple(Choice(f"c{i}", f"Card {i}") for i in range(13)), default="c4")
    only = Field("seat", "Whose", "choice", (Choice(0, "Ann"),))
    ticks = Field("between", "Two banks", "multi", tuple(Choice(n, n) for n in ("Ann", "Bob", "Cy")), default=["Bob"])
    with app.test_request_context("/"):
        pills, listed = field_input(few.to_json(), False, "x"), field_input(many.to_json(), False, "y")
        single, multi = field_input(only.to_json(), False, "z"), field_input(ticks.to_json(), False, "w")
    assert pills.count('type="radio"') == 3 and 'value="1" checked required' in pills
    assert "<select" in listed and listed.count("<option") == 13 and 'value="c4" selected' in listed
    assert 'value="0" checked required' in single  # the only choice is picked
    assert multi.count('type="checkbox"') == 3 and 'value="Bob" checked' in multi and 'value="Ann" checked' not in multi


def test_what_players_typed_is_escaped(app: Flask) -> None:
    nasty = '<script>alert("x")</script>'
    h = hint(Field("seat", nasty, "choice", (Choice(nasty, nasty),)), Field("why", "Why", "text", default=nasty),
             label=nasty, money=True)
    with app.test_request_context("/"):
        html = action(h, "/t/x/act", 3, "host")
        entry = log_entry({"seq": 4, "kind": "move", "actor": nasty, "source": "phone",
                           "lines": [{"text": nasty, "citations": []}]}, "/s/")
    assert "<script>" not in html and "<script>" not in entry
    assert "&lt;script&gt;" in html and "&lt;script&gt;" in entry


def test_a_seat_page_veils_its_numbers_and_asks_with_the_drawn_words(app: Flask) -> None:
    h = hint(Field("gold", "Gold (you have 15)", "number", minimum=0, maximum=15), label="Pay 7", money=True)
    with app.test_request_context("/"):
        veiled, plain = action(h, "/s/x/0/act", 3, veil=True), action(h, "/t/x/act", 3, "host")
    assert 'class="secret-value"' in veiled and '<span class="secret-num">15</span>' in veiled
    assert "data-confirm-label" in veiled and 'data-confirm="Pay 7"' in plain
    assert 'class="secret-value"' not in plain


def test_a_refused_action_says_why_with_its_rule(app: Flask) -> None:
    h = hint(enabled=False, reason="Not your turn.")
    h["rules"] = [{"seed": "002", "section": "Step 2", "file": "002_x.txt", "quote": "q"}]
    with app.test_request_context("/"):
        html = action(h, "/t/x/act", 3)
    assert re.search(r'<button class="big" disabled>Pay</button>', html)
    assert '<p class="reason">Not your turn. <a class="cite" href="/rule/002?section=Step+2&amp;quote=q" lang="en" ' \
           'title="002_x.txt: Step 2">002 · Step 2</a></p>' in html


def test_a_form_with_more_than_two_fields_folds_under_its_button(app: Flask) -> None:
    three = hint(*(Field(n, n, "number") for n in "abc"))
    two = hint(*(Field(n, n, "number") for n in "ab"))
    with app.test_request_context("/"):
        assert str(action(three, "/u", 1)).startswith('<details class="act-more" data-key="pay{&#34;seat&#34;: 1}">')
        assert str(action(two, "/u", 1)).startswith("<form")


def test_a_shared_form_carries_the_marks_and_a_changed_form_draws_only_its_changed_field(app: Flask) -> None:
    fields = [Field("gold", "Gold", "number", maximum=15), Field("note", "Note", "text")]
    before = hint(*fields)
    after = hint(Field("gold", "Gold", "number", maximum=16), fields[1])
    drawn: list[str] = []
    with app.test_request_context("/"):
        g.shared_render = True
        import web.pieces as pieces

        real = pieces.field_input

        def counted(f: Any, veil: bool, fid: str) -> Any:
            drawn.append(f["name"])
            return real(f, veil, fid)

        pieces.field_input = counted  # type: ignore[assignment]
        try:
            one, two = action(before, "/u", 5), action(after, "/u", 6)
            again = action(before, "/u", 7)
        finally:
            pieces.field_input = real  # type: ignore[assignment]
    assert STATE_MARK in one and 'name="state_no" value="5"' not in one
    assert drawn == ["gold", "note", "gold"]  # the note drawn once; the earlier form kept whole
    ids = set(re.findall(r'id="(f[0-9a-f]+)-1"', one + two + again))
    assert len(ids) == 1  # the same form keeps its fields' ids as its numbers change


def test_a_log_entry_links_its_step_and_marks_private_lines(app: Flask) -> None:
    entry = {"seq": 9, "kind": "undo", "undone": True, "actor": "host", "source": "host",
             "lines": [{"text": "Undid step 8", "citations": []},
                       {"text": "You had 3", "citations": [], "audience": [0]}]}
    with app.test_request_context("/"):
        html = log_entry(entry, "/s/t/0/step/")
        plain = log_entry(entry)
        chip = cite({"seed": "001", "section": "Setup"})
    assert html.startswith('<li class="log-entry undone undo">\n<a class="step-link" href="/s/t/0/step/9"')
    assert '<span class="log-who">Host</span>' in html
    assert '<p class="log-line private">You had 3' in html and '<p class="log-line">Undid step 8' in html
    assert "step-link" not in plain
    assert 'title="001: Setup">001 · Setup</a>' in chip
